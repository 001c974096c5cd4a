#include "texture/float_formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace tessera::texture {

namespace {

// Rounds mantissa >> shift to nearest, ties to even (shift in 1..31).
uint32_t ShiftRoundEven(uint32_t mantissa, uint32_t shift) {
	uint32_t kept = mantissa >> shift;
	uint32_t rest = mantissa & ((1u << shift) - 1);
	uint32_t half = 1u << (shift - 1);
	return kept + (rest > half || (rest == half && (kept & 1)));
}

// Unsigned minifloat with 5 exponent bits (bias 15) and m mantissa bits
// (Data Format Specification, "Unsigned 11-bit / 10-bit floating-point").
float SmallFloatToFloat(uint32_t bits, uint32_t mantissa_bits) {
	uint32_t exponent = bits >> mantissa_bits;
	uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
	float fraction = std::ldexp(float(mantissa), -int(mantissa_bits));
	if (exponent == 0) return std::ldexp(fraction, -14);  // denormal
	if (exponent == 31)
		return mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
	return std::ldexp(1.0f + fraction, int(exponent) - 15);
}

uint32_t FloatToSmallFloat(float value, uint32_t mantissa_bits) {
	const uint32_t inf = 31u << mantissa_bits;
	const uint32_t max_finite = inf - 1;
	uint32_t f = std::bit_cast<uint32_t>(value);
	if (std::isnan(value)) return inf | 1u;
	if (f >> 31) return 0;  // negatives, -0 and -Inf
	if (f == 0x7f800000u) return inf;
	int exponent = int(f >> 23) - 127;
	if (exponent > 15) return max_finite;
	uint32_t mantissa = (f & 0x7fffff) | 0x800000;  // 24 bits with the hidden one
	uint32_t result;
	if (exponent < -14) {
		// Denormal in the small format: units of 2^(-14 - m).
		uint32_t shift = 23 - mantissa_bits + uint32_t(-14 - exponent);
		if (shift > 24) return 0;  // below half the smallest denormal
		result = ShiftRoundEven(mantissa, shift);
	} else {
		// The rounded mantissa may carry into the exponent, which is right.
		result = (uint32_t(exponent + 15) << mantissa_bits) + ShiftRoundEven(mantissa & 0x7fffff, 23 - mantissa_bits);
	}
	return std::min(result, max_finite);
}

}  // namespace

float HalfToFloat(uint16_t half) {
	uint32_t sign = uint32_t(half >> 15) << 31;
	uint32_t exponent = (half >> 10) & 0x1f;
	uint32_t mantissa = half & 0x3ff;
	if (exponent == 0) {  // zero or denormal: mantissa * 2^-24, exact in float
		float magnitude = std::ldexp(float(mantissa), -24);
		return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(magnitude));
	}
	if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000 | (mantissa << 13));
	return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

uint16_t FloatToHalf(float value) {
	uint32_t f = std::bit_cast<uint32_t>(value);
	uint16_t sign = uint16_t((f >> 16) & 0x8000);
	uint32_t magnitude = f & 0x7fffffff;
	if (magnitude > 0x7f800000) return sign | 0x7e00 | uint16_t((magnitude >> 13) & 0x3ff);  // NaN
	if (magnitude >= 0x477ff000) return sign | 0x7c00;  // 65520 and up round to Inf
	if (magnitude < 0x38800000) {                       // below 2^-14, the smallest normal half
		if (magnitude < 0x33000000) return sign;        // at most 2^-25: rounds to zero
		uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
		return sign | uint16_t(ShiftRoundEven(mantissa, 126 - (magnitude >> 23)));
	}
	// Rebias 127 -> 15; a rounding carry moves into the exponent.
	return sign | uint16_t(ShiftRoundEven(magnitude - 0x38000000, 13));
}

float Uf11ToFloat(uint32_t bits) { return SmallFloatToFloat(bits & 0x7ff, 6); }
float Uf10ToFloat(uint32_t bits) { return SmallFloatToFloat(bits & 0x3ff, 5); }
uint32_t FloatToUf11(float value) { return FloatToSmallFloat(value, 6); }
uint32_t FloatToUf10(float value) { return FloatToSmallFloat(value, 5); }

void Rgb9e5ToFloat(uint32_t word, float rgb[3]) {
	// value = mantissa * 2^(exponent - B - N)
	int exponent = int(word >> 27) - 15 - 9;
	for (int c = 0; c < 3; ++c) rgb[c] = std::ldexp(float((word >> (9 * c)) & 0x1ff), exponent);
}

uint32_t FloatToRgb9e5(const float rgb[3]) {
	constexpr int N = 9, B = 15, Emax = 31;
	constexpr float kSharedMax = float((1 << N) - 1) / float(1 << N) * float(1 << (Emax - B));  // 65408
	float c[3];
	for (int i = 0; i < 3; ++i) c[i] = rgb[i] > 0.0f ? std::min(rgb[i], kSharedMax) : 0.0f;  // NaN -> 0
	float max = std::max({c[0], c[1], c[2]});
	// exp' = max(-B - 1, floor(log2(max))) + 1 + B; ilogb is floor(log2) exactly.
	int exp_shared = max > 0.0f ? std::max(-B - 1, std::ilogb(max)) + 1 + B : 0;
	// Scaling by a power of two is exact, so floor(x + 1/2) sees the true quotient.
	if (std::floor(std::ldexp(double(max), N + B - exp_shared) + 0.5) == double(1 << N)) ++exp_shared;
	uint32_t word = uint32_t(exp_shared) << 27;
	for (int i = 0; i < 3; ++i)
		word |= uint32_t(std::floor(std::ldexp(double(c[i]), N + B - exp_shared) + 0.5)) << (9 * i);
	return word;
}

float SrgbToLinear(float c) {
	double e = c;
	return float(e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4));
}

double LinearToSrgb(double l) {
	if (!(l > 0.0)) return 0.0;
	if (l >= 1.0) return 1.0;
	return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

}  // namespace tessera::texture
