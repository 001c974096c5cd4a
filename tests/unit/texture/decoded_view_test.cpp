// Compressed views decode to the narrowest format that holds their values
// exactly (texture/decoded_view.h): each texel of the narrow copy, read as
// the sampler reads its format (UnpackTexel), has the bits DecodeBlock gives
// as float with sRGB linearized - what an R32G32B32A32_SFLOAT copy holds.
#include "texture/decoded_view.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "texture/compressed.h"
#include "texture/texel.h"

namespace tessera::texture {
namespace {

// ASTC LDR void-extent block (ASTC spec §23.13 of the Data Format
// Specification): one constant UNORM16 color for the whole block.
void PutAstcVoidExtent(uint8_t* block, const uint16_t rgba[4]) {
	std::memset(block, 0xff, 8);
	block[0] = 0xfc;  // void extent, LDR (bit 9 = 0)
	block[1] = 0xfd;
	for (int c = 0; c < 4; ++c) std::memcpy(block + 8 + 2 * c, &rgba[c], 2);
}

void CheckNarrowDecode(VkFormat format, VkFormat narrow, std::mt19937& rng) {
	INFO("format " << format);
	ImageLayout layout;
	ImageDescription d;
	d.format = format;
	d.extent = {48, 48, 1};
	d.mip_levels = 2;
	d.array_layers = 2;
	REQUIRE(layout.Init(d));
	std::vector<uint8_t> memory(layout.TotalSize());
	std::uniform_int_distribution<int> byte(0, 255);
	for (uint8_t& b : memory) b = uint8_t(byte(rng));
	const FormatInfo& info = *FindFormat(format);
	if (info.compression == Compression::ASTC_LDR) {
		// Random ASTC bytes are mostly illegal blocks (the error color): make
		// every other block a constant color of random 16-bit values.
		const uint32_t bw = info.block_extent[0], bh = info.block_extent[1];
		for (uint32_t by = 0; by * bh < 48; by += 1)
			for (uint32_t bx = (by & 1); bx * bw < 48; bx += 2) {
				const uint16_t rgba[4] = {uint16_t(rng()), uint16_t(rng()), uint16_t(rng()), uint16_t(rng())};
				PutAstcVoidExtent(memory.data() + layout.Offset(0, 0, 1, bx, by, 0), rgba);
			}
	}
	ImageViewState view;
	view.layout = &layout;
	view.memory = memory.data();
	view.format = format;
	view.level_count = 2;
	view.layer_count = 2;
	CHECK(DecodedFormat(view) == narrow);
	DecodedView decoded;
	REQUIRE(DecodeView(view, &decoded));
	REQUIRE(decoded.view.format == narrow);  // no texel needed the float fallback
	const FormatInfo& out = *FindFormat(narrow);
	const uint32_t bw = info.block_extent[0], bh = info.block_extent[1];
	TexelValue block[kMaxDecodedTexels];
	size_t checked = 0;
	for (uint32_t level = 0; level < 2; ++level)
		for (uint32_t layer = 0; layer < 2; ++layer) {
			const SubresourceLayout& l = layout.Level(0, level);
			for (uint32_t y = 0; y < l.extent.height; ++y)
				for (uint32_t x = 0; x < l.extent.width; ++x) {
					REQUIRE(
					    DecodeBlock(info, memory.data() + layout.Offset(0, level, layer, x / bw, y / bh, 0), block));
					const TexelValue want = block[(y % bh) * bw + x % bw];
					const TexelValue got =
					    UnpackTexel(out, decoded.view.memory + decoded.layout.Offset(0, level, layer, x, y, 0));
					INFO("level " << level << " layer " << layer << " texel " << x << ", " << y);
					REQUIRE(std::memcmp(got.u, want.u, 16) == 0);
					++checked;
				}
		}
	CHECK(checked == 2 * (48 * 48 + 24 * 24));
}

TEST_CASE("Compressed views decode to RGBA8 or RGBA16F where that holds every value exactly",
          "[texture][decoded_view]") {
	std::mt19937 rng(7);
	CheckNarrowDecode(VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_R8G8B8A8_UNORM, rng);
	CheckNarrowDecode(VK_FORMAT_BC7_SRGB_BLOCK, VK_FORMAT_R8G8B8A8_SRGB, rng);
	CheckNarrowDecode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, VK_FORMAT_R8G8B8A8_UNORM, rng);
	CheckNarrowDecode(VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, VK_FORMAT_R8G8B8A8_SRGB, rng);
	CheckNarrowDecode(VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, VK_FORMAT_R8G8B8A8_SRGB, rng);
	CheckNarrowDecode(VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_R16G16B16A16_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_BC6H_SFLOAT_BLOCK, VK_FORMAT_R16G16B16A16_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_R16G16B16A16_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_ASTC_6x5_UNORM_BLOCK, VK_FORMAT_R16G16B16A16_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_ASTC_8x8_SRGB_BLOCK, VK_FORMAT_R8G8B8A8_SRGB, rng);
	// Interpolated in real arithmetic (endpoints over 31, 63, 7 x 255, ...):
	// floats, as before.
	CheckNarrowDecode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_R32G32B32A32_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_R32G32B32A32_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_BC5_SNORM_BLOCK, VK_FORMAT_R32G32B32A32_SFLOAT, rng);
	CheckNarrowDecode(VK_FORMAT_EAC_R11G11_UNORM_BLOCK, VK_FORMAT_R32G32B32A32_SFLOAT, rng);
}

}  // namespace
}  // namespace tessera::texture
