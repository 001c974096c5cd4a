// The small floating-point formats of Vulkan 1.3 §3.9 / the Khronos Data
// Format Specification (16-bit, unsigned 11- and 10-bit, shared-exponent
// RGB9E5) and the sRGB transfer functions.
//
// Narrowing conversions round to nearest, ties to even. Vulkan 1.3 §3.9.2
// ("Floating-Point Format Conversions") leaves the rounding mode open, so
// another implementation may differ by one unit in the last place; it also
// lets finite values too large for the format become either the largest
// finite value or infinity: half overflows to Inf (as IEEE 754 rounding
// does), the unsigned formats clamp to their largest finite value (as
// GL_EXT_packed_float and Mesa do). NaN stays NaN, negative values and -Inf
// become 0 in the unsigned formats.
#pragma once

#include <cstdint>

namespace tessera::texture {

float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);  // NaN keeps its sign and top payload bits, quieted

float Uf11ToFloat(uint32_t bits);  // 5-bit exponent, 6-bit mantissa, no sign
float Uf10ToFloat(uint32_t bits);  // 5-bit exponent, 5-bit mantissa, no sign
uint32_t FloatToUf11(float value);
uint32_t FloatToUf10(float value);

// E5B9G9R9 (R in the low bits): rgb[0..2] <-> the packed word, by the
// algorithm of the Data Format Specification's "Shared exponent" section
// (N = 9 mantissa bits, B = 15, Emax = 31). NaN and negatives encode as 0,
// +Inf and values past the largest as the largest.
void Rgb9e5ToFloat(uint32_t word, float rgb[3]);
uint32_t FloatToRgb9e5(const float rgb[3]);

// The sRGB EOTF (encoded -> linear) and its inverse, on [0, 1]. The inverse
// clamps its input to [0, 1] (NaN -> 0); the result is exact to double
// precision so that a caller quantizing it rounds the true value.
float SrgbToLinear(float encoded);
double LinearToSrgb(double linear);

}  // namespace tessera::texture
