// Conversion between a format's bytes and texel values, exactly as the
// Vulkan spec's "Fixed-Point Data Conversions" (§3.10), "Floating-Point
// Format Conversions" and the Data Format Specification's sRGB and small
// float rules define it.
//
// A texel value holds four components (R, G, B, A; depth in [0], stencil in
// [1]) in the type the component's numeric format calls for: float for
// UNORM, SNORM, SCALED, FLOAT and SRGB, int32 for SINT and uint32 for UINT -
// the same interpretation as VkClearColorValue. Missing components read as
// (0, 0, 0, 1). Components of 64 bits follow VkClearColorValue's rule
// (Vulkan 1.3 §19.3 "Clear Values", since 1.3.287): R is words 0-1 and G words 2-3 as one
// little-endian 64-bit value (a double for SFLOAT); B and A of 64-bit
// formats cannot be carried, they pack as 0 and unpack to nothing.
#pragma once

#include <cstdint>

#include "texture/format.h"

namespace tessera::texture {

union TexelValue {
	float f[4];
	int32_t i[4];
	uint32_t u[4];
};

// Writes one texel (block_size bytes, unused X bits zero) of an
// uncompressed, single-plane format of one texel per block.
// UNORM/SNORM/SCALED clamp to the format's range and round to nearest
// (NaN -> 0); SRGB encodes the linear value; UINT/SINT keep the low bits,
// as "casting to the smaller type" in §19.3 says.
void PackTexel(const FormatInfo& format, const TexelValue& value, void* out);
// Reads one texel of such a format. SRGB components decode to linear;
// SNORM's most negative value reads as -1.0.
TexelValue UnpackTexel(const FormatInfo& format, const void* in);

// Depth aspect as it is stored in an image's depth plane (D16: 2 bytes,
// D24: the low 24 bits of 4, the high 8 zero; D32: the float as given).
void PackDepth(VkFormat depth_plane_format, float depth, void* out);
float UnpackDepth(VkFormat depth_plane_format, const void* in);

// An 8-bit UNORM component from x in [0, 1] (clamped first): round(x *
// 255), halves up, as PackTexel computes it in double (int32_t(double(x) *
// 255.0 + 0.5)), in 32-bit integer operations
// that vectorize at full width. x = m * 2^(e - 150) with m the 24-bit
// significand, so x * 255 + 1/2 = (m * 255 + 2^(s-1)) / 2^s, s = 150 - e,
// and floor((v + 2^(s-1)) / 2^s) = (floor(v / 2^(s-1)) + 1) / 2 rounded
// down. Shifts of 32 or more give 0 (zeros, subnormals and values below
// 2^-9, which round to 0). The unit tests compare it with the double form for
// every float in [0, 1].
[[gnu::always_inline]] inline uint32_t RoundUnorm8(float x) {
	uint32_t bits;
	__builtin_memcpy(&bits, &x, 4);
	const uint32_t v = ((bits & 0x7fffffu) | 0x800000u) * 255u;  // below 2^32
	const uint32_t shift = 149u - (bits >> 23);                  // s - 1, at least 22 for x <= 1
	const uint32_t q = shift < 32 ? v >> shift : 0;
	return (q + 1) >> 1;
}

// RoundUnorm8 in float operations, for loops built with FMA (x86-64-v3 and
// up), where it takes fewer vector operations: y = fl(x * 255 + 1/2) is at
// least floor(x * 255 + 1/2), as rounding keeps the integers below 256 in
// order, and exceeds it by one exactly when x * 255 + 1/2 - floor(y), which
// one fma computes with its sign exact, is negative. The unit tests compare
// it with RoundUnorm8 for every float in [0, 1].
[[gnu::always_inline]] inline uint32_t RoundUnorm8Fma(float x) {
	const float y = __builtin_floorf(__builtin_fmaf(x, 255.0f, 0.5f));
	const float below = __builtin_fmaf(x, 255.0f, 0.5f - y);
	return uint32_t(int32_t(y)) - (below < 0.0f ? 1u : 0u);
}

// The byte PackTexel writes for an 8-bit sRGB color component.
uint8_t PackSrgb8(float linear);

// PackSrgb8 with no pow: a value's byte is the number of thresholds (the
// 255 values where the byte changes, found once) at or below it. Loops
// over many values take Get() once and inline Encode.
struct SrgbEncoding {
	// Bins of the float's exponent and top 8 mantissa bits over [2^-16, 1):
	// a bin's first byte, then the few thresholds inside the bin.
	static constexpr uint32_t kFirstBin = (127u - 16u) << 8, kBins = 16u << 8;
	float thresholds[256];  // [k]: the least float in (0, 1] packing to k or more ([0] unused)
	uint8_t first[kBins];

	static const SrgbEncoding& Get();
	[[gnu::always_inline]] uint8_t Encode(float linear) const {
		if (!(linear > 0.0f) || linear >= 1.0f) return PackSrgb8(linear);  // 0, 255, NaN: the exact path
		uint32_t bits;
		__builtin_memcpy(&bits, &linear, 4);
		const uint32_t bin = bits >> 15;
		uint32_t k = bin < kFirstBin ? 0 : first[bin - kFirstBin];
		while (k < 255 && thresholds[k + 1] <= linear) ++k;
		return uint8_t(k);
	}
};

// True for formats PackTexel/UnpackTexel handle.
bool CanConvertTexels(const FormatInfo& format);

}  // namespace tessera::texture
