// Comparing what Tessera and lavapipe leave in memory after the same
// commands: byte for byte, except in the fields where the spec lets the two
// round differently.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "vk_context.h"

namespace tessera::test {

// Fields (bit offset, bits) inside words of word_bytes (at most 8) that may
// differ from lavapipe's by one code:
// - float_fields, 16-bit half or unsigned 11-/10-bit floats: Vulkan 1.3
//   §3.9.2 ("Floating-Point Format Conversions") lets a conversion to a
//   smaller float format round either way, and a finite value too large for
//   it become the largest finite value or infinity - one code apart. NaN
//   must stay NaN on both sides (any payload), and only NaN matches NaN.
// - code_fields, normalized fixed-point: §3.10.2 lets convertFloatToUint /
//   convertFloatToInt return either of the two closest integers (tests give
//   this only to values whose scaled value is within rounding of a tie).
// With no word_bytes, every byte must match.
struct Tolerance {
	uint32_t word_bytes = 0;
	std::vector<std::pair<uint32_t, uint32_t>> float_fields;
	std::vector<std::pair<uint32_t, uint32_t>> code_fields;
};

namespace detail {

inline bool IsSmallFloatNaN(uint64_t v, uint32_t bits) {
	uint32_t mantissa_bits = bits == 16 ? 10 : bits - 5;
	uint64_t exponent = (v >> mantissa_bits) & 0x1f;
	return exponent == 0x1f && (v & ((uint64_t(1) << mantissa_bits) - 1)) != 0;
}

// Clears the field in a and b; false when its values differ beyond one code.
inline bool FieldClose(uint64_t& a, uint64_t& b, uint32_t offset, uint32_t bits, bool is_float) {
	uint64_t mask = ((uint64_t(1) << bits) - 1) << offset;
	int64_t fa = int64_t((a & mask) >> offset), fb = int64_t((b & mask) >> offset);
	a &= ~mask;
	b &= ~mask;
	if (is_float && (IsSmallFloatNaN(fa, bits) || IsSmallFloatNaN(fb, bits)))
		return IsSmallFloatNaN(fa, bits) && IsSmallFloatNaN(fb, bits);
	return fa - fb <= 1 && fb - fa <= 1;
}

}  // namespace detail

// The index of the first byte where ours and reference differ beyond the
// tolerance, or ours.size() when they agree.
inline size_t FirstDifference(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& reference,
                              const Tolerance& tolerance = {}) {
	for (size_t i = 0; i < ours.size(); ++i) {
		if (ours[i] == reference[i]) continue;
		if (tolerance.word_bytes == 0) return i;
		size_t word = i / tolerance.word_bytes * tolerance.word_bytes;
		if (word + tolerance.word_bytes > ours.size()) return i;
		uint64_t a = 0, b = 0;
		std::memcpy(&a, &ours[word], tolerance.word_bytes);
		std::memcpy(&b, &reference[word], tolerance.word_bytes);
		for (auto [offset, bits] : tolerance.float_fields)
			if (!detail::FieldClose(a, b, offset, bits, true)) return i;
		for (auto [offset, bits] : tolerance.code_fields)
			if (!detail::FieldClose(a, b, offset, bits, false)) return i;
		if (a != b) return i;
		i = word + tolerance.word_bytes - 1;
	}
	return ours.size();
}

// Checks the two buffers agree; on failure, says where.
inline void RequireSameBytes(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& reference,
                             const Tolerance& tolerance = {}) {
	REQUIRE(ours.size() == reference.size());
	size_t first = FirstDifference(ours, reference, tolerance);
	if (first < ours.size())
		INFO("first differing byte at " << first << ": ours " << int(ours[first]) << ", lavapipe "
		                                << int(reference[first]));
	REQUIRE(first == ours.size());
}

// Runs scenario on a driver and returns the bytes it leaves in its buffer.
inline std::vector<uint8_t> Run(Driver driver, const std::function<std::vector<uint8_t>(Context&)>& scenario) {
	auto ctx = Context::Create(driver);
	REQUIRE(ctx);
	std::vector<uint8_t> bytes = scenario(*ctx);
	CHECK(ctx->validation_errors() == 0);
	return bytes;
}

inline void CompareWithLavapipe(const std::function<std::vector<uint8_t>(Context&)>& scenario,
                                const Tolerance& tolerance = {}) {
	std::vector<uint8_t> ours = Run(Driver::Tessera, scenario);
	std::vector<uint8_t> reference = Run(Driver::Lavapipe, scenario);
	RequireSameBytes(ours, reference, tolerance);
}

}  // namespace tessera::test
