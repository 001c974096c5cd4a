#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "runtime/thread_pool.h"
#include "texture/float_formats.h"
#include "texture/image_layout.h"
#include "texture/resolve.h"
#include "texture/texel.h"

using namespace tessera::texture;

namespace {

// A 4-sample image and a single-sample one of the same format and size,
// laid out by ImageLayout, with a resolve of the whole level.
struct ResolveFixture {
	ImageLayout ms, ss;
	std::vector<uint8_t> ms_bytes, ss_bytes;
	ResolveFixture(VkFormat format, uint32_t w, uint32_t h) {
		REQUIRE(ms.Init({format, VK_IMAGE_TYPE_2D, {w, h, 1}, 1, 1, 4}));
		REQUIRE(ss.Init({format, VK_IMAGE_TYPE_2D, {w, h, 1}, 1, 1, 1}));
		ms_bytes.assign(ms.TotalSize(), 0);
		ss_bytes.assign(ss.TotalSize(), 0);
	}
	uint8_t* Sample(uint32_t x, uint32_t y, uint32_t s) { return ms_bytes.data() + ms.Offset(0, 0, 0, x, y, 0, s); }
	uint8_t* Resolved(uint32_t x, uint32_t y) { return ss_bytes.data() + ss.Offset(0, 0, 0, x, y, 0); }
	void Resolve() {
		const SubresourceLayout& from = ms.Level(0, 0);
		ResolveRect rect;
		rect.src = Sample(0, 0, 0);
		rect.src_row_pitch = from.row_pitch;
		rect.dst = Resolved(0, 0);
		rect.dst_row_pitch = ss.Level(0, 0).row_pitch;
		rect.width = from.extent.width;
		rect.height = from.extent.height;
		rect.samples = 4;
		rect.element_size = from.element_size;
		ResolveSamples(*FindFormat(ms.Description().format), rect);
	}
};

}  // namespace

TEST_CASE("resolving a UNORM image averages each texel's samples", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R8G8B8A8_UNORM, 3, 2);
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 3; ++x)
			for (uint32_t s = 0; s < 4; ++s) {
				uint8_t v[4] = {uint8_t(s * 40), uint8_t(x * 10 + y), uint8_t(s == 0 ? 255 : 0), 255};
				std::memcpy(f.Sample(x, y, s), v, 4);
			}
	f.Resolve();
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 3; ++x) {
			const uint8_t* r = f.Resolved(x, y);
			REQUIRE(r[0] == 60);  // (0 + 40 + 80 + 120) / 4
			REQUIRE(r[1] == x * 10 + y);
			REQUIRE(r[2] == 64);  // 255 / 4 = 63.75
			REQUIRE(r[3] == 255);
		}
}

TEST_CASE("resolving an integer image takes sample 0", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R32_SINT, 2, 2);
	for (uint32_t i = 0; i < 4; ++i)
		for (int32_t s = 0; s < 4; ++s) {
			int32_t v = int32_t(i) * 100 - s;
			std::memcpy(f.Sample(i % 2, i / 2, uint32_t(s)), &v, 4);
		}
	f.Resolve();
	for (uint32_t i = 0; i < 4; ++i) {
		int32_t v;
		std::memcpy(&v, f.Resolved(i % 2, i / 2), 4);
		REQUIRE(v == int32_t(i) * 100);
	}
}

TEST_CASE("resolving an sRGB image averages linear values", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R8G8B8A8_SRGB, 1, 1);
	for (uint32_t s = 0; s < 4; ++s) {
		uint8_t v[4] = {uint8_t(s < 2 ? 0 : 255), 0, 0, uint8_t(s < 2 ? 0 : 255)};
		std::memcpy(f.Sample(0, 0, s), v, 4);
	}
	f.Resolve();
	REQUIRE(f.Resolved(0, 0)[0] == 188);  // linear 0.5
	REQUIRE(f.Resolved(0, 0)[3] == 128);  // alpha is linear
}

TEST_CASE("resolving a float image averages exactly", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R32G32_SFLOAT, 2, 1);
	for (uint32_t x = 0; x < 2; ++x)
		for (uint32_t s = 0; s < 4; ++s) {
			float v[2] = {float(s), -float(x) * 4.0f};
			std::memcpy(f.Sample(x, 0, s), v, 8);
		}
	f.Resolve();
	float r[2];
	std::memcpy(r, f.Resolved(1, 0), 8);
	REQUIRE(r[0] == 1.5f);
	REQUIRE(r[1] == -4.0f);
}

TEST_CASE("resolve fast paths give the generic path's values", "[texture][resolve]") {
	// 8-bit UNORM bytes are the exactly rounded average (ties up); sRGB
	// bytes, 16-bit and 32-bit floats are what unpacking every sample,
	// averaging in float and packing give (the generic path).
	uint32_t seed = 7;
	auto next = [&] { return seed = seed * 1664525u + 1013904223u, uint8_t(seed >> 24); };
	for (VkFormat format :
	     {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM,
	      VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16_SFLOAT,
	      VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32_SFLOAT}) {
		CAPTURE(format);
		ResolveFixture f(format, 37, 5);
		const FormatInfo& info = *FindFormat(format);
		for (uint8_t& byte : f.ms_bytes) byte = next();
		if (info.IsFloat()) {
			// Finite values only: random bits include NaNs and infinities.
			for (uint32_t y = 0; y < 5; ++y)
				for (uint32_t x = 0; x < 37; ++x)
					for (uint32_t s = 0; s < 4; ++s) {
						TexelValue v;
						for (int c = 0; c < 4; ++c) v.f[c] = float(int(next()) - 128) / 16.0f;
						PackTexel(info, v, f.Sample(x, y, s));
					}
		}
		f.Resolve();
		const uint32_t size = info.block_size;
		uint32_t wrong = 0;
		for (uint32_t y = 0; y < 5; ++y)
			for (uint32_t x = 0; x < 37; ++x) {
				uint8_t expected[16] = {};
				float sum[4] = {0, 0, 0, 0};
				for (uint32_t s = 0; s < 4; ++s) {
					TexelValue v = UnpackTexel(info, f.Sample(x, y, s));
					for (int c = 0; c < 4; ++c) sum[c] += v.f[c];
				}
				TexelValue average;
				for (int c = 0; c < 4; ++c) average.f[c] = sum[c] * 0.25f;
				PackTexel(info, average, expected);
				if (info.Numeric() == NumericFormat::UNORM || info.IsSrgb())
					for (uint32_t b = 0; b < size; ++b) {
						const FormatComponent* comp = nullptr;
						for (uint32_t c = 0; c < info.component_count; ++c)
							if (info.components[c].offset / 8 == b) comp = &info.components[c];
						if (comp->numeric == NumericFormat::SRGB && comp->name != 'A') continue;
						uint32_t total = 0;
						for (uint32_t s = 0; s < 4; ++s) total += f.Sample(x, y, s)[b];
						expected[b] = uint8_t((total + 2) / 4);
					}
				wrong += std::memcmp(expected, f.Resolved(x, y), size) != 0;
			}
		CHECK(wrong == 0);
	}
}

TEST_CASE("sRGB resolves encode like PackTexel at every byte and between neighbours", "[texture][resolve]") {
	// The fast sRGB encoder finds bytes by thresholds; every byte k (all
	// samples k) and every mix of neighbours k, k+1 must pack as PackTexel does.
	const FormatInfo& info = *FindFormat(VK_FORMAT_R8_SRGB);
	for (uint32_t mix = 0; mix <= 4; ++mix) {
		CAPTURE(mix);
		ResolveFixture f(VK_FORMAT_R8_SRGB, 255, 1);
		for (uint32_t k = 0; k < 255; ++k)
			for (uint32_t s = 0; s < 4; ++s) *f.Sample(k, 0, s) = uint8_t(s < mix ? k + 1 : k);
		f.Resolve();
		uint32_t wrong = 0;
		for (uint32_t k = 0; k < 255; ++k) {
			float sum = 0;
			for (uint32_t s = 0; s < 4; ++s) sum += UnpackTexel(info, f.Sample(k, 0, s)).f[0];
			TexelValue average{};
			average.f[0] = sum * 0.25f;
			uint8_t expected = 0;
			PackTexel(info, average, &expected);
			wrong += *f.Resolved(k, 0) != expected;
		}
		CHECK(wrong == 0);
	}
}

TEST_CASE("4-byte sRGB texels whose samples agree resolve as the generic path, at every byte", "[texture][resolve]") {
	// The 4-sample sRGB row copies a texel whose samples are one word; the
	// generic path averages four equal linear values and packs them: every
	// byte value, in every position (sRGB colors, UNORM alpha), must give
	// the same byte both ways. Texels 256.. mix one differing sample in, so
	// the row's byte-by-byte path runs beside the copies.
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB}) {
		CAPTURE(format);
		const FormatInfo& info = *FindFormat(format);
		ResolveFixture f(format, 512, 1);
		for (uint32_t x = 0; x < 512; ++x) {
			const uint32_t k = x % 256;
			for (uint32_t s = 0; s < 4; ++s) {
				const uint8_t word[4] = {uint8_t(k), uint8_t(255 - k), uint8_t(k * 7), uint8_t(k ^ 0x5a)};
				std::memcpy(f.Sample(x, 0, s), word, 4);
				if (x >= 256 && s == 3) f.Sample(x, 0, s)[x % 4] ^= 1;
			}
		}
		f.Resolve();
		uint32_t wrong = 0;
		for (uint32_t x = 0; x < 512; ++x) {
			float sum[4] = {0, 0, 0, 0};
			for (uint32_t s = 0; s < 4; ++s) {
				const TexelValue v = UnpackTexel(info, f.Sample(x, 0, s));
				for (int c = 0; c < 4; ++c) sum[c] += v.f[c];
			}
			TexelValue average;
			for (int c = 0; c < 4; ++c) average.f[c] = sum[c] * 0.25f;
			uint8_t expected[4];
			PackTexel(info, average, expected);
			// (Alpha, a UNORM byte, is the integer average rounded up at ties.)
			uint32_t alpha = 0;
			for (uint32_t s = 0; s < 4; ++s) alpha += f.Sample(x, 0, s)[3];
			expected[3] = uint8_t((alpha + 2) / 4);
			if (std::memcmp(expected, f.Resolved(x, 0), 4) != 0) {
				++wrong;
				UNSCOPED_INFO("texel " << x);
			}
		}
		CHECK(wrong == 0);
	}
}

TEST_CASE("HalfToFloatFast gives HalfToFloat's bits for every binary16 value", "[texture][resolve]") {
	uint32_t wrong = 0;
	for (uint32_t h = 0; h < 65536; ++h)
		wrong +=
		    std::bit_cast<uint32_t>(HalfToFloatFast(uint16_t(h))) != std::bit_cast<uint32_t>(HalfToFloat(uint16_t(h)));
	CHECK(wrong == 0);
}

TEST_CASE("FloatToHalfFast gives FloatToHalf's bits around every binary16 value and tie", "[texture][resolve]") {
	// Each half value, its float neighbours, and the midpoint to the next
	// half (a tie) with its neighbours, both signs; plus NaNs and infinities.
	uint32_t wrong = 0, checked = 0;
	auto check = [&](uint32_t bits) {
		const float f = std::bit_cast<float>(bits);
		wrong += FloatToHalfFast(f) != FloatToHalf(f);
		++checked;
	};
	for (uint32_t h = 0; h < 0x7c00; ++h) {
		const uint32_t at = std::bit_cast<uint32_t>(HalfToFloat(uint16_t(h)));
		const uint32_t tie = std::bit_cast<uint32_t>(
		    (double(HalfToFloat(uint16_t(h))) + double(HalfToFloat(uint16_t(h + 1)))) / 2 > 65504.0
		        ? 65520.0f
		        : float((double(HalfToFloat(uint16_t(h))) + double(HalfToFloat(uint16_t(h + 1)))) / 2));
		for (uint32_t base : {at, tie})
			for (int d = -2; d <= 2; ++d)
				for (uint32_t sign : {0u, 0x80000000u}) check(sign | uint32_t(int64_t(base) + d));
	}
	for (uint32_t bits : {0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fbfffffu, 0x7f812345u, 0x477ff000u, 0x477fefffu,
	                      0x47800000u, 0x33000000u, 0x33000001u, 0x32ffffffu})
		for (uint32_t sign : {0u, 0x80000000u}) check(sign | bits);
	CHECK(checked > 600000);
	CHECK(wrong == 0);
}

TEST_CASE("a resolve spread over threads writes what one thread writes", "[texture][resolve]") {
	tessera::runtime::ThreadPool pool(3);
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_SRGB}) {
		CAPTURE(format);
		ResolveFixture f(format, 301, 257);  // 77k texels: past the parallel threshold
		uint32_t seed = 3;
		for (uint8_t& byte : f.ms_bytes) byte = uint8_t((seed = seed * 1664525u + 1013904223u) >> 24);
		if (format == VK_FORMAT_R16G16B16A16_SFLOAT)
			for (size_t i = 0; i + 1 < f.ms_bytes.size(); i += 2) f.ms_bytes[i + 1] &= 0x3f;  // finite halves
		f.Resolve();
		const std::vector<uint8_t> single = f.ss_bytes;
		std::fill(f.ss_bytes.begin(), f.ss_bytes.end(), 0);
		const SubresourceLayout& from = f.ms.Level(0, 0);
		ResolveRect rect;
		rect.src = f.Sample(0, 0, 0);
		rect.src_row_pitch = from.row_pitch;
		rect.dst = f.Resolved(0, 0);
		rect.dst_row_pitch = f.ss.Level(0, 0).row_pitch;
		rect.width = from.extent.width;
		rect.height = from.extent.height;
		rect.samples = 4;
		rect.element_size = from.element_size;
		ResolveSamples(pool, *FindFormat(format), rect);
		CHECK(f.ss_bytes == single);
		CHECK(std::count(single.begin(), single.end(), 0) < long(single.size() / 8));
	}
}
