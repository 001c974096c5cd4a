// Block decoders of the ETC2 and EAC formats, as the Khronos Data Format
// Specification 1.4 §22 ("ETC2 Compressed Texture Image Formats") defines
// them. Each writes the 16 texels of a 4x4 block, row-major, as float in
// texel.h's convention, before any sRGB decode (see compressed.h).
#pragma once

#include <cstdint>

#include "texture/texel.h"

namespace tessera::texture::etc {

// RGB ETC2 (8 bytes): alpha 1. With punch_through, "RGB ETC2 with
// punchthrough alpha": bit 33 is the opaque bit instead of the
// differential bit.
void DecodeEtc2Rgb(const uint8_t* block, bool punch_through, TexelValue out[16]);
// RGBA ETC2 (16 bytes): 8 bytes of EAC alpha, then an RGB ETC2 block.
void DecodeEtc2Rgba(const uint8_t* block, TexelValue out[16]);
// R11/RG11 EAC (8 bytes per channel): writes component `channel` of out
// as the 11-bit value over 2047 (unsigned) or 1023 (signed).
void DecodeEacChannel(const uint8_t* block, bool is_signed, int channel, TexelValue out[16]);
void DecodeEacR11(const uint8_t* block, bool is_signed, TexelValue out[16]);
void DecodeEacRg11(const uint8_t* block, bool is_signed, TexelValue out[16]);

}  // namespace tessera::texture::etc
