// The small floating-point formats of Vulkan 1.3 §3.9 (16-bit, unsigned
// 11- and 10-bit, shared-exponent RGB9E5) and the sRGB transfer functions.
#pragma once

#include <cstdint>

namespace tessera::texture {

float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);  // round to nearest even; overflow -> Inf

float Uf11ToFloat(uint32_t bits);  // 5-bit exponent, 6-bit mantissa, no sign
float Uf10ToFloat(uint32_t bits);  // 5-bit exponent, 5-bit mantissa, no sign
uint32_t FloatToUf11(float value);  // negatives -> 0, NaN kept, round to nearest even
uint32_t FloatToUf10(float value);

// E5B9G9R9: rgb[0..2] <-> the packed word (§3.9.5 "Shared exponent").
void Rgb9e5ToFloat(uint32_t word, float rgb[3]);
uint32_t FloatToRgb9e5(const float rgb[3]);

// §3.9.4 sRGB EOTF and its inverse.
float SrgbToLinear(float encoded);
float LinearToSrgb(float linear);

}  // namespace tessera::texture
