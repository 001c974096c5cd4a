// ASTC LDR block decoding, as the Khronos Data Format Specification's ASTC
// chapter ("ASTC Compressed Texture Image Formats") defines it for the LDR
// profile: 2D blocks, footprints 4x4 .. 12x12, LDR endpoint modes
// 0, 1, 4, 5, 6, 8, 9, 10, 12, 13, LDR void-extent blocks. Everything the
// LDR profile treats as reserved (HDR endpoint modes, HDR void-extent
// blocks) and every illegal encoding decodes to the error color, opaque
// magenta (1, 0, 1, 1).
//
// Decode modes (Data Format "sRGB, Linear LDR and HDR Operation Modes"):
// - linear LDR, decode_float16: the 16-bit interpolation result C becomes
//   1.0 when C == 65535, else C / 65536 rounded toward zero to FP16. This is
//   Vulkan's default when VK_EXT_astc_decode_mode selects nothing
//   (VkImageViewASTCDecodeModeEXT: "the default decode mode is
//   VK_FORMAT_R16G16B16A16_SFLOAT"), so DecodeAstcBlock uses it.
// - linear LDR, decode_unorm8: the top 8 bits of C, over 255.
// - sRGB: the decode mode is ignored; the top 8 bits of C (endpoints
//   expanded as (e << 8) | 0x80) are the sRGB-encoded R', G', B' and the
//   alpha. The results here are those encoded values over 255: the caller
//   applies the sRGB EOTF to R, G, B (as it does for any *_SRGB format).
#pragma once

#include <cstdint>

namespace tessera::texture {

// The 2D footprints of VK_FORMAT_ASTC_*_BLOCK (Data Format "Block
// Determination and Bit Rates"): widths and heights 4, 5, 6, 8, 10, 12.
bool IsAstcFootprint(uint32_t block_width, uint32_t block_height);
constexpr uint32_t kAstcMaxBlockTexels = 12 * 12;

// Decodes one 16-byte ASTC block into block_width * block_height RGBA
// texels, row-major, 4 floats each (decode_float16 results, or the 8-bit
// sRGB-encoded values over 255 when srgb). Returns false when any texel got
// the error color (an illegal or reserved encoding, or a footprint that is
// not an ASTC one, in which case nothing is written); the output is
// complete either way.
bool DecodeAstcBlock(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb, float* rgba_out);

// The same block in decode_unorm8 (or sRGB) mode: 4 bytes per texel.
bool DecodeAstcBlockUnorm8(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                           uint8_t* rgba_out);

// The stages of the decoder, exposed for the unit tests.
namespace astc {

// One texel before the decode mode: the UNORM16 interpolation result C per
// channel (Data Format "Weight Application"), or the error color.
struct Unorm16Texel {
	uint16_t c[4];
	bool error;
};
// Fills block_width * block_height texels; false when the footprint is not
// an ASTC one (nothing written).
bool DecodeBlockToUnorm16(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                          Unorm16Texel* texels);

// decode_float16 of a linear LDR C value.
float Unorm16ToFloat16Value(uint16_t c);

// An integer sequence encoding range (Data Format "Integer Sequence
// Encoding"): values 0 .. (3 or 5 or 1) * 2^bits - 1.
struct IseRange {
	uint8_t trits;   // 0 or 1
	uint8_t quints;  // 0 or 1
	uint8_t bits;
	uint32_t Levels() const { return (trits ? 3u : quints ? 5u : 1u) << bits; }
};
uint32_t IseBitCount(IseRange range, uint32_t count);
// Decodes count values from bits [start, start + IseBitCount) of a 128-bit
// little-endian stream; bits past the sequence read as 0.
void DecodeIse(const uint8_t stream[16], uint32_t start, IseRange range, uint32_t count, uint8_t* values);
// The five trits / three quints of one packed block ("trit-based packing").
void DecodeTritBlock(uint32_t t_bits, uint8_t trits[5]);
void DecodeQuintBlock(uint32_t q_bits, uint8_t quints[3]);

// Endpoint values to 0..255, weights to 0..64 ("Endpoint Unquantization",
// "Weight Unquantization").
uint32_t UnquantizeColor(IseRange range, uint32_t value);
uint32_t UnquantizeWeight(IseRange range, uint32_t value);

// The partition of texel (x, y, z) ("Partition Pattern Generation").
uint32_t Hash52(uint32_t p);
uint32_t SelectPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partition_count, bool small_block);

}  // namespace astc
}  // namespace tessera::texture
