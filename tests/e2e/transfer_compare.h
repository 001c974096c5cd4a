// Runs one scenario on Tessera and on lavapipe and compares the bytes each
// leaves behind, exactly or within a stated per-field tolerance. (A local
// helper for the image transfer tests; tests/support/compare.h may replace it.)
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "skip.h"
#include "vk_context.h"

namespace tessera::test::transfer {

using Scenario = std::function<std::vector<uint8_t>(Context&)>;

// Fields of a word of word_bytes (little-endian, up to 8 bytes) compared as
// unsigned integers that may differ by max_difference; bits no field names
// must match. max_difference = ~0u ignores a field (bits the spec leaves
// undefined).
struct Field {
	uint32_t offset, bits, max_difference;
};
struct Tolerance {
	uint32_t word_bytes = 0;  // 0: every byte must match
	std::vector<Field> fields;
};

// Every channel of an n-channel word of bits-wide fields within difference.
inline Tolerance Channels(uint32_t channels, uint32_t bits, uint32_t difference) {
	Tolerance t{channels * bits / 8, {}};
	for (uint32_t c = 0; c < channels; ++c) t.fields.push_back({c * bits, bits, difference});
	return t;
}

// One context per driver, made on first use and shared by the scenarios of
// a test case (making a device with the validation layer costs more than
// most scenarios).
class DriverPair {
public:
	Context& Get(Driver driver) {
		std::unique_ptr<Context>& ctx = driver == Driver::Tessera ? tessera_ : lavapipe_;
		if (!ctx) ctx = Context::Create(driver);
		REQUIRE(ctx);
		return *ctx;
	}

private:
	std::unique_ptr<Context> tessera_, lavapipe_;
};

// A scenario returns no bytes when the driver lacks a format feature it
// needs; lavapipe lacking one skips the comparison.
inline std::vector<uint8_t> RunOn(DriverPair& drivers, Driver driver, const Scenario& scenario) {
	Context& ctx = drivers.Get(driver);
	uint32_t errors_before = ctx.validation_errors();
	std::vector<uint8_t> bytes = scenario(ctx);
	CHECK(ctx.validation_errors() == errors_before);
	return bytes;
}

inline bool Supports(Context& ctx, VkFormat format, VkFormatFeatureFlags features) {
	VkFormatProperties props;
	vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &props);
	return (props.optimalTilingFeatures & features) == features;
}

inline void CompareWithLavapipe(DriverPair& drivers, const Scenario& scenario, const Tolerance& tolerance = {}) {
	std::vector<uint8_t> reference = RunOn(drivers, Driver::Lavapipe, scenario);
	if (reference.empty()) {
		NoteSkipped("lavapipe lacks a format feature this case needs: comparison not run");
		return;
	}
	std::vector<uint8_t> ours = RunOn(drivers, Driver::Tessera, scenario);
	REQUIRE(ours.size() == reference.size());
	size_t bad = ours.size();
	uint32_t word_bytes = tolerance.word_bytes ? tolerance.word_bytes : 1;
	for (size_t word = 0; word + word_bytes <= ours.size() && bad == ours.size(); word += word_bytes) {
		if (std::memcmp(&ours[word], &reference[word], word_bytes) == 0) continue;
		if (tolerance.word_bytes == 0) {
			bad = word;
			break;
		}
		uint64_t a = 0, b = 0;
		std::memcpy(&a, &ours[word], word_bytes);
		std::memcpy(&b, &reference[word], word_bytes);
		for (const Field& f : tolerance.fields) {
			uint64_t mask = (f.bits == 64 ? ~0ull : (1ull << f.bits) - 1);
			int64_t fa = int64_t((a >> f.offset) & mask), fb = int64_t((b >> f.offset) & mask);
			uint64_t difference = uint64_t(fa > fb ? fa - fb : fb - fa);
			if (f.max_difference != ~0u && difference > f.max_difference) bad = word;
			a &= ~(mask << f.offset);
			b &= ~(mask << f.offset);
		}
		if (a != b) bad = word;
	}
	if (bad < ours.size()) {
		std::string ours_hex, reference_hex;
		for (size_t i = bad; i < bad + word_bytes && i < ours.size(); ++i) {
			ours_hex += " " + std::to_string(ours[i]);
			reference_hex += " " + std::to_string(reference[i]);
		}
		FAIL("first differing word at byte " << bad << ": ours" << ours_hex << ", lavapipe" << reference_hex);
	}
}

// The same with contexts of its own.
inline void CompareWithLavapipe(const Scenario& scenario, const Tolerance& tolerance = {}) {
	DriverPair drivers;
	CompareWithLavapipe(drivers, scenario, tolerance);
}

// A deterministic byte pattern (xorshift), the same on both drivers.
inline void FillRandom(uint8_t* data, size_t size, uint32_t seed) {
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < size; ++i) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = uint8_t(x >> 24);
	}
}

}  // namespace tessera::test::transfer
