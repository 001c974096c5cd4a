// ASTC LDR decoding on lavapipe against Tessera's host-side decoder
// (tessera_texture's DecodeAstcBlock): a NEAREST vkCmdBlitImage from an ASTC
// image to R32G32B32A32_SFLOAT of the same size is lavapipe's decode.
//
// Lavapipe of Mesa 22.3 reports textureCompressionASTC_LDR = false and no
// format features for the ASTC formats, so there the test only says so and
// stops; it compares as soon as a lavapipe with ASTC support is installed.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "skip.h"
#include "texture/decode_astc.h"
#include "texture/float_formats.h"
#include "vk_context.h"

using namespace tessera::test;
namespace texture = tessera::texture;

namespace {

struct AstcFormat {
	VkFormat format;
	uint32_t block_width, block_height;
	bool srgb;
};
constexpr AstcFormat kFormats[] = {
    {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, false}, {VK_FORMAT_ASTC_6x5_UNORM_BLOCK, 6, 5, false},
    {VK_FORMAT_ASTC_8x8_UNORM_BLOCK, 8, 8, false}, {VK_FORMAT_ASTC_12x12_UNORM_BLOCK, 12, 12, false},
    {VK_FORMAT_ASTC_4x4_SRGB_BLOCK, 4, 4, true},   {VK_FORMAT_ASTC_10x6_SRGB_BLOCK, 10, 6, true},
};

bool LavapipeDecodesAstc(Context& ctx, VkFormat format) {
	VkPhysicalDeviceFeatures features;
	vkGetPhysicalDeviceFeatures(ctx.physical_device(), &features);
	VkFormatProperties props;
	vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &props);
	return features.textureCompressionASTC_LDR && (props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT);
}

// Test blocks: constant colors (void extent), then random bytes, which are
// legal blocks of many kinds and illegal ones.
std::vector<uint8_t> TestBlocks(uint32_t count) {
	std::mt19937 rng(99);
	std::vector<uint8_t> blocks(size_t{count} * 16);
	for (uint8_t& byte : blocks) byte = static_cast<uint8_t>(rng());
	const uint8_t void_extent[16] = {0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	                                 0x34, 0x12, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80};
	std::copy(void_extent, void_extent + 16, blocks.begin());
	return blocks;
}

}  // namespace

TEST_CASE("ASTC LDR decode: lavapipe's NEAREST blit matches DecodeAstcBlock", "[astc][lavapipe]") {
	{
		auto probe = Context::Create(Driver::Lavapipe);
		if (!probe) {
			NoteSkipped("lavapipe not found: comparison not run");
			return;
		}
		if (!LavapipeDecodesAstc(*probe, VK_FORMAT_ASTC_4x4_UNORM_BLOCK)) {
			NoteSkipped(
			    "lavapipe reports no ASTC LDR support (textureCompressionASTC_LDR, BLIT_SRC): comparison not run");
			return;
		}
	}
	VkPhysicalDeviceFeatures2 enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	enable.features.textureCompressionASTC_LDR = VK_TRUE;
	ContextOptions options;
	options.device_features = &enable;
	auto ctx = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ctx);
	for (const AstcFormat& f : kFormats) {
		INFO("format " << f.format);
		if (!LavapipeDecodesAstc(*ctx, f.format)) continue;
		const uint32_t blocks_x = 4, blocks_y = 4;
		const uint32_t w = blocks_x * f.block_width, h = blocks_y * f.block_height;
		const std::vector<uint8_t> blocks = TestBlocks(blocks_x * blocks_y);
		TestImage astc =
		    ctx->CreateImage2D(f.format, w, h, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
		TestImage decoded = ctx->CreateImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, w, h,
		                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
		TestBuffer src = ctx->CreateBuffer(blocks.size()), dst = ctx->CreateBuffer(size_t{w} * h * 16);
		std::copy(blocks.begin(), blocks.end(), src.data);
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, astc.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			ctx->Transition(cb, decoded.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkBufferImageCopy up{};
			up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			up.imageExtent = {w, h, 1};
			vkCmdCopyBufferToImage(cb, src.buffer, astc.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
			ctx->Transition(cb, astc.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkImageBlit blit{};
			blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			blit.srcOffsets[1] = blit.dstOffsets[1] = {static_cast<int32_t>(w), static_cast<int32_t>(h), 1};
			vkCmdBlitImage(cb, astc.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, decoded.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
			ctx->Transition(cb, decoded.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkBufferImageCopy down{};
			down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			down.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, decoded.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.buffer, 1, &down);
			ctx->TransferBarrier(cb);
		});
		const float* theirs = reinterpret_cast<const float*>(dst.data);
		size_t mismatches = 0;
		float texels[texture::kAstcMaxBlockTexels * 4];
		for (uint32_t b = 0; b < blocks_x * blocks_y; ++b) {
			texture::DecodeAstcBlock(&blocks[b * 16], f.block_width, f.block_height, f.srgb, texels);
			for (uint32_t t = 0; t < f.block_height; ++t) {
				for (uint32_t s = 0; s < f.block_width; ++s) {
					uint32_t x = (b % blocks_x) * f.block_width + s, y = (b / blocks_x) * f.block_height + t;
					for (uint32_t ch = 0; ch < 4; ++ch) {
						float ours = texels[(t * f.block_width + s) * 4 + ch];
						float lavapipe = theirs[(size_t{y} * w + x) * 4 + ch];
						// sRGB: compare the encoded values (the blit applied the EOTF to R, G, B).
						if (f.srgb && ch < 3) lavapipe = static_cast<float>(texture::LinearToSrgb(lavapipe));
						// Vulkan's default ASTC decode precision is FP16 (VK_EXT_astc_decode_mode), but an
						// implementation without that extension may decode through UNORM8 (Data Format
						// "decode_unorm8": the top 8 bits of C), which differs from C / 65536 by under 1/255.
						if (std::fabs(ours - lavapipe) > 1.0f / 255.0f + 1e-6f) ++mismatches;
					}
				}
			}
		}
		CHECK(mismatches == 0);
		ctx->Destroy(src);
		ctx->Destroy(dst);
		ctx->Destroy(astc);
		ctx->Destroy(decoded);
	}
	CHECK(ctx->validation_errors() == 0);
}
