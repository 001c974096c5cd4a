// Decoding of the block-compressed formats of the Khronos Data Format
// Specification (1.4): S3TC (BC1-BC3, §18), RGTC (BC4, BC5, §19), BPTC
// (BC6H, BC7, §20), ETC2/EAC (§22), and ASTC LDR through decode_astc.h.
// Plain functions of the block's bytes; the sampler and the blit paths
// call them one block at a time.
#pragma once

#include <cstdint>

#include "texture/format.h"
#include "texture/texel.h"

namespace tessera::texture {

// What to do with the RGB of sRGB formats (alpha is always linear).
// Samplers filter after the sRGB decode (Vulkan 1.3 "Texel Input
// Operations": format conversion comes before filtering), so Linearize is
// what texel fetches want; Keep returns the values the Data Format
// Specification defines before its sRGB transfer function (exactly k/255
// for BC7 and ETC2), for callers that copy sRGB texels to an sRGB
// destination without a round trip through linear.
enum class SrgbDecode : uint8_t { Linearize, Keep };

// Largest TexelsPerBlock() of the formats DecodeBlock handles (ASTC 12x12;
// the BC, ETC2 and EAC formats have 4x4).
inline constexpr uint32_t kMaxDecodedTexels = 12 * 12;

// Decodes one block of a BC1-BC7, ETC2, EAC or ASTC LDR format into
// format.block_extent[0] x block_extent[1] texel values, row-major (texel
// (x, y) at out[y * block_extent[0] + x]), as float in the convention of
// texel.h: UNORM/SRGB in [0, 1], SNORM in [-1, 1], BC6H as the half-float
// value (as float), ASTC as DecodeAstcBlock gives it (decode_float16, the
// error color for illegal blocks). Missing components read as (0, 0, 0, 1).
// Returns false (and writes nothing) for formats it does not decode.
bool DecodeBlock(const FormatInfo& format, const uint8_t* block, TexelValue* out,
                 SrgbDecode srgb = SrgbDecode::Linearize);

// True for the formats DecodeBlock decodes.
bool CanDecodeBlock(const FormatInfo& format);

// True for the sRGB block formats, decided by the VkFormat: the vk.xml
// that the format table is generated from (header version 239) gives
// BC4_SNORM and BC5_SNORM components numericFormat="SRGB", so
// FormatInfo::IsSrgb() is wrong for those two.
bool IsSrgbBlockFormat(const FormatInfo& format);

}  // namespace tessera::texture
