#include "texture/float_formats.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tessera::texture {

namespace {

// Unsigned minifloat with 5 exponent bits (bias 15) and m mantissa bits.
float SmallFloatToFloat(uint32_t bits, uint32_t mantissa_bits) {
	uint32_t exponent = bits >> mantissa_bits;
	uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
	float scale = float(1u << mantissa_bits);
	if (exponent == 0) return std::ldexp(float(mantissa) / scale, -14);
	if (exponent == 31) return mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
	return std::ldexp(1.0f + float(mantissa) / scale, int(exponent) - 15);
}

// Rounds a positive float to 5-bit-exponent / m-bit-mantissa, nearest even.
uint32_t FloatToSmallFloat(float value, uint32_t mantissa_bits) {
	uint32_t f = std::bit_cast<uint32_t>(value);
	if (std::isnan(value)) return (31u << mantissa_bits) | 1u;
	if (f >> 31) return 0;  // negative (and -0) -> 0
	if (std::isinf(value)) return 31u << mantissa_bits;
	int exponent = int((f >> 23) & 0xff) - 127;
	uint32_t max_finite = (30u << mantissa_bits) | ((1u << mantissa_bits) - 1);
	if (exponent > 15) return max_finite;
	uint32_t shift;
	uint32_t mantissa = (f & 0x7fffff) | 0x800000;  // 24 bits with the hidden one
	uint32_t biased;
	if (exponent < -14) {  // denormal in the small format
		shift = 23 - mantissa_bits + uint32_t(-14 - exponent);
		if (shift > 24) return 0;
		biased = 0;
	} else {
		shift = 23 - mantissa_bits;
		biased = uint32_t(exponent + 15);
		mantissa &= 0x7fffff;
	}
	uint32_t rounded = mantissa >> shift;
	uint32_t rest = mantissa & ((1u << shift) - 1);
	uint32_t half = 1u << (shift - 1);
	if (rest > half || (rest == half && (rounded & 1))) ++rounded;
	uint32_t result = (biased << mantissa_bits) + rounded;  // a carry moves into the exponent
	return std::min(result, max_finite);
}

}  // namespace

float HalfToFloat(uint16_t half) {
	uint32_t sign = uint32_t(half >> 15) << 31;
	uint32_t exponent = (half >> 10) & 0x1f;
	uint32_t mantissa = half & 0x3ff;
	uint32_t bits;
	if (exponent == 0) {
		if (mantissa == 0) {
			bits = sign;
		} else {  // denormal: normalize
			int e = -1;
			do {
				++e;
				mantissa <<= 1;
			} while (!(mantissa & 0x400));
			bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mantissa & 0x3ff) << 13);
		}
	} else if (exponent == 31) {
		bits = sign | 0x7f800000 | (mantissa << 13);
	} else {
		bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
	}
	return std::bit_cast<float>(bits);
}

uint16_t FloatToHalf(float value) {
	uint32_t f = std::bit_cast<uint32_t>(value);
	uint16_t sign = uint16_t((f >> 16) & 0x8000);
	uint32_t magnitude = f & 0x7fffffff;
	if (magnitude > 0x7f800000) return sign | 0x7e00 | uint16_t((magnitude >> 13) & 0x3ff);  // NaN
	if (magnitude >= 0x477ff000) return sign | 0x7c00;  // rounds past 65504 -> Inf
	if (magnitude < 0x38800000) {  // below the smallest normal half
		if (magnitude < 0x33000000) return sign;  // rounds to zero
		uint32_t shift = 113 - (magnitude >> 23) + 13;  // 126 - exponent
		uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
		uint32_t rounded = mantissa >> shift;
		uint32_t rest = mantissa & ((1u << shift) - 1);
		uint32_t half = 1u << (shift - 1);
		if (rest > half || (rest == half && (rounded & 1))) ++rounded;
		return sign | uint16_t(rounded);
	}
	uint32_t rounded = magnitude - 0x38000000;  // rebias 127 -> 15
	uint32_t rest = rounded & 0x1fff;
	rounded >>= 13;
	if (rest > 0x1000 || (rest == 0x1000 && (rounded & 1))) ++rounded;
	return sign | uint16_t(rounded);
}

float Uf11ToFloat(uint32_t bits) { return SmallFloatToFloat(bits & 0x7ff, 6); }
float Uf10ToFloat(uint32_t bits) { return SmallFloatToFloat(bits & 0x3ff, 5); }
uint32_t FloatToUf11(float value) { return FloatToSmallFloat(value, 6); }
uint32_t FloatToUf10(float value) { return FloatToSmallFloat(value, 5); }

void Rgb9e5ToFloat(uint32_t word, float rgb[3]) {
	int exponent = int(word >> 27) - 15 - 9;
	for (int c = 0; c < 3; ++c) rgb[c] = std::ldexp(float((word >> (9 * c)) & 0x1ff), exponent);
}

// §3.9.5: N = 9 mantissa bits, B = 15, Emax = 31.
uint32_t FloatToRgb9e5(const float rgb[3]) {
	constexpr float kSharedMax = float(0x1ff) / 512.0f * 65536.0f;  // (2^9-1)/2^9 * 2^(31-15)
	float c[3];
	for (int i = 0; i < 3; ++i) c[i] = std::isnan(rgb[i]) ? 0.0f : std::clamp(rgb[i], 0.0f, kSharedMax);
	float max = std::max({c[0], c[1], c[2]});
	int exp_p = std::max(-16, int(std::floor(std::log2(max > 0 ? max : 1e-30f)))) + 1 + 15;
	if (max == 0.0f) exp_p = 0;
	int exp_shared = std::max(0, exp_p);
	double denom = std::ldexp(1.0, exp_shared - 15 - 9);
	if (int(std::floor(max / denom + 0.5)) == 512) {
		++exp_shared;
		denom *= 2;
	}
	uint32_t word = uint32_t(exp_shared) << 27;
	for (int i = 0; i < 3; ++i) word |= (uint32_t(std::floor(c[i] / denom + 0.5)) & 0x1ff) << (9 * i);
	return word;
}

float SrgbToLinear(float c) {
	if (c <= 0.04045f) return c / 12.92f;
	return std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float LinearToSrgb(float l) {
	if (!(l > 0.0f)) return 0.0f;
	if (l >= 1.0f) return 1.0f;
	if (l < 0.0031308f) return l * 12.92f;
	return 1.055f * std::pow(l, 1.0f / 2.4f) - 0.055f;
}

}  // namespace tessera::texture
