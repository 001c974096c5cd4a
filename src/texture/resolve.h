// Multisample resolve (Vulkan 1.3 §20.7 "Resolving Multisample Images") on
// plain memory: the samples of one texel are adjacent (ImageLayout).
#pragma once

#include <bit>
#include <cstdint>

#include "texture/format.h"

namespace tessera::runtime {
class ThreadPool;
}

namespace tessera::texture {

struct ResolveRect {
	const uint8_t* src = nullptr;  // sample 0 of the first texel
	uint64_t src_row_pitch = 0;
	uint8_t* dst = nullptr;  // the first texel of the single-sample image
	uint64_t dst_row_pitch = 0;
	uint32_t width = 0, height = 0;
	uint32_t samples = 1;
	uint32_t element_size = 0;  // bytes of one sample
};

// Writes one value per texel: for float, normalized and scaled formats the
// average of the samples (sRGB formats average the decoded, linear values
// and encode the result, as lavapipe does); for integer formats sample 0.
void ResolveSamples(const FormatInfo& format, const ResolveRect& rect);

// HalfToFloat's value without its branches: the half's exponent and
// mantissa moved into a float and scaled by 2^112 (exact, subnormals
// included: the queue and pool threads keep the default MXCSR, no DAZ);
// infinities and NaNs keep their payload.
inline float HalfToFloatFast(uint16_t half) {
	const uint32_t sign = uint32_t(half & 0x8000u) << 16;
	const uint32_t magnitude = uint32_t(half & 0x7fffu) << 13;
	uint32_t bits = std::bit_cast<uint32_t>(std::bit_cast<float>(magnitude) * 0x1p112f);
	if ((half & 0x7c00u) == 0x7c00u) bits = magnitude | 0x7f800000u;
	return std::bit_cast<float>(bits | sign);
}

// FloatToHalf's value with one branch for the common case: a normal half
// rounds to nearest even by adding 0xfff (plus the lowest kept bit) below the
// cut, which also carries into the exponent and up to infinity exactly as
// rounding does; subnormal halves let the FPU round (adding a magic float
// that puts the half's last bit at the float's); infinity and NaN (payload
// kept, quieted) as FloatToHalf gives them.
inline uint16_t FloatToHalfFast(float value) {
	uint32_t x = std::bit_cast<uint32_t>(value);
	const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
	x &= 0x7fffffffu;
	if (x >= 0x47800000u) {  // 2^16 and up: infinity, or NaN
		if (x > 0x7f800000u) return sign | 0x7e00u | uint16_t((x >> 13) & 0x3ffu);
		return sign | 0x7c00u;
	}
	if (x < 0x38800000u) {                       // below 2^-14: a subnormal half or zero
		constexpr uint32_t kMagic = 126u << 23;  // 0.5: its ulp is 2^-24, the half subnormal step
		const float sum = std::bit_cast<float>(x) + std::bit_cast<float>(kMagic);
		return sign | uint16_t(std::bit_cast<uint32_t>(sum) - kMagic);
	}
	x += ((15u - 127u) << 23) + 0xfffu + ((x >> 13) & 1u);
	return sign | uint16_t(x >> 13);
}

// The same, with the rows spread over the pool's threads once the rectangle
// is large enough to pay for it.
void ResolveSamples(runtime::ThreadPool& pool, const FormatInfo& format, const ResolveRect& rect);

}  // namespace tessera::texture
