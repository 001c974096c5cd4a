// Block decoders of the BC formats, as the Khronos Data Format
// Specification 1.4 defines them: S3TC (§18: BC1, BC2, BC3), RGTC (§19:
// BC4, BC5) and BPTC (§20: BC6H, BC7). Each writes the 16 texels of a 4x4
// block, row-major, as float RGBA in texel.h's convention, before any sRGB
// decode (see compressed.h for the entry point that applies it).
#pragma once

#include <cstdint>

#include "texture/texel.h"

namespace tessera::texture::bc {

// BC1: has_alpha selects "BC1 with alpha" (code 3 of a 3-color block is
// transparent black) over "BC1 with no alpha" (opaque black).
void DecodeBc1(const uint8_t* block, bool has_alpha, TexelValue out[16]);
void DecodeBc2(const uint8_t* block, TexelValue out[16]);
void DecodeBc3(const uint8_t* block, TexelValue out[16]);
// BC4/BC5: writes one channel (component `channel` of out) from an 8-byte
// RGTC channel block; the other components are left as they are.
void DecodeRgtcChannel(const uint8_t* block, bool is_signed, int channel, TexelValue out[16]);
void DecodeBc4(const uint8_t* block, bool is_signed, TexelValue out[16]);
void DecodeBc5(const uint8_t* block, bool is_signed, TexelValue out[16]);
// BC6H: RGB are the half-float values the block encodes; alpha is 1.
void DecodeBc6h(const uint8_t* block, bool is_signed, TexelValue out[16]);
// BC7: components k/255 (sRGB-encoded RGB for the SRGB format).
void DecodeBc7(const uint8_t* block, TexelValue out[16]);

}  // namespace tessera::texture::bc
