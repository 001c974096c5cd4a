// The DecodeBlock entry point: which formats it takes, its sRGB choice, and
// that ASTC LDR goes through DecodeAstcBlock unchanged.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "block_bits.h"
#include "texture/decode_astc.h"
#include "texture/float_formats.h"

using namespace tessera::texture;

TEST_CASE("CanDecodeBlock: BC, ETC2, EAC and ASTC LDR, not ASTC HDR, PVRTC or uncompressed", "[texture][compressed]") {
	int decodable = 0;
	for (size_t i = 0; i < kFormatTableSize; ++i) {
		const FormatInfo& f = kFormatTable[i];
		const bool expected = f.compression == Compression::BC || f.compression == Compression::ETC2 ||
		                      f.compression == Compression::EAC || f.compression == Compression::ASTC_LDR;
		INFO(f.name);
		CHECK(CanDecodeBlock(f) == expected);
		if (CanDecodeBlock(f)) CHECK(f.TexelsPerBlock() <= kMaxDecodedTexels);
		decodable += CanDecodeBlock(f);
	}
	CHECK(decodable == 16 + 10 + 28);  // BC1-BC7, ETC2/EAC, ASTC UNORM and SRGB of 14 footprints
}

TEST_CASE("DecodeBlock passes ASTC LDR blocks through DecodeAstcBlock, linearizing sRGB on request",
          "[texture][compressed]") {
	std::mt19937 rng(5);
	for (VkFormat format : {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_ASTC_6x5_SRGB_BLOCK,
	                        VK_FORMAT_ASTC_12x12_UNORM_BLOCK, VK_FORMAT_ASTC_12x12_SRGB_BLOCK}) {
		const FormatInfo& info = *FindFormat(format);
		INFO(info.name);
		const bool srgb = IsSrgbBlockFormat(info);
		CHECK(srgb == info.IsSrgb());
		const uint32_t w = info.block_extent[0], h = info.block_extent[1];
		for (int i = 0; i < 20; ++i) {
			uint8_t block[16];
			for (uint8_t& b : block) b = uint8_t(rng());
			if (i % 2) block[0] = 0xFC, block[1] = 0xFD;  // void-extent LDR: a constant color
			std::vector<float> expected(w * h * 4);
			DecodeAstcBlock(block, w, h, srgb, expected.data());
			std::vector<TexelValue> keep(w * h), linear(w * h);
			REQUIRE(DecodeBlock(info, block, keep.data(), SrgbDecode::Keep));
			REQUIRE(DecodeBlock(info, block, linear.data(), SrgbDecode::Linearize));
			int mismatches = 0;
			for (uint32_t t = 0; t < w * h; ++t)
				for (int c = 0; c < 4; ++c) {
					mismatches += keep[t].f[c] != expected[4 * t + c];
					const float want = srgb && c < 3 ? SrgbToLinear(expected[4 * t + c]) : expected[4 * t + c];
					mismatches += linear[t].f[c] != want;
				}
			CHECK(mismatches == 0);
		}
	}
}
