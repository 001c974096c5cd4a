// The driver's decode of compressed blocks, compared with Tessera's own
// block decoders (src/texture/compressed.h, which follow the Khronos Data
// Format Specification 1.4 §18-22): blocks are uploaded with
// vkCmdCopyBufferToImage and read back through a NEAREST vkCmdBlitImage of
// the same size into R32G32B32A32_SFLOAT, which samples every texel once
// at its center (Vulkan 1.3 "Image Copies With Scaling"), so the blit's
// output is the driver's decode of each texel (sRGB formats decoded to
// linear first, "Texel Input Operations").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "texture/compressed.h"
#include "texture/float_formats.h"
#include "texture/format.h"
#include "vk_context.h"

using namespace tessera::test;
namespace texture = tessera::texture;

namespace {

constexpr uint32_t kBlocksX = 32, kBlocksY = 32;  // a 128x128 image, 1024 blocks
constexpr uint32_t kWidth = kBlocksX * 4, kHeight = kBlocksY * 4;

// How far the driver's value may be from the spec's, per format (in the
// sRGB-encoded space for sRGB formats).
// - S3TC and RGTC: the spec defines the palette as real-valued combinations
//   of the endpoints (DFS §18.1: (2 RGB0 + RGB1) / 3 with RGB0 = c / 31).
//   lavapipe, like the hardware surveyed in the spec's note on BCn
//   decoding, widens endpoints to 8 bits by bit replication and
//   interpolates in 8-bit integers: measured up to 1.71 codes off for
//   BC1-BC5 UNORM on these blocks, 1.96 codes in the encoded space for the
//   sRGB variants (which also go through an approximate sRGB decode).
//   Allowed: 2 and 2.5 codes of 255.
// - BC4/BC5 SNORM: lavapipe interpolates the signed bytes in 8-bit integers
//   (up to 1.6 codes of 127 off), and takes an endpoint byte -128 as
//   -128/127 where DFS §19.2 says -1.0 (up to 6/7 of a code lower; the
//   spec decides, DecodeBlock follows it): measured up to 1.8 codes of 127.
//   Allowed: 2 codes of 127.
// - BC6H: bit-exact halves (the spec calls for bit-exact BC6H decoders).
// - BC7, ETC2 and RGBA ETC2's alpha: k/255 exactly; only the float rounding
//   of the division and of the sRGB decode may differ (1e-6).
// - EAC R11/RG11: k/2047 (or k/1023) exactly; the spec lets a decoder widen
//   the 11 bits to any width by replication, within 1/2048 of that.
double Tolerance(const texture::FormatInfo& format) {
	switch (format.format) {
	case VK_FORMAT_BC6H_UFLOAT_BLOCK:
	case VK_FORMAT_BC6H_SFLOAT_BLOCK: return 0.0;
	case VK_FORMAT_BC7_UNORM_BLOCK:
	case VK_FORMAT_BC7_SRGB_BLOCK: return 1e-6;
	default: break;
	}
	if (format.format == VK_FORMAT_BC4_SNORM_BLOCK || format.format == VK_FORMAT_BC5_SNORM_BLOCK) return 2.0 / 127.0;
	if (format.compression == texture::Compression::BC) return (texture::IsSrgbBlockFormat(format) ? 2.5 : 2.0) / 255.0;
	if (format.compression == texture::Compression::EAC) return 1.0 / 2048.0;
	return 1e-6;  // ETC2
}

constexpr VkFormat kFormats[] = {
    VK_FORMAT_BC1_RGB_UNORM_BLOCK,       VK_FORMAT_BC1_RGB_SRGB_BLOCK,
    VK_FORMAT_BC1_RGBA_UNORM_BLOCK,      VK_FORMAT_BC1_RGBA_SRGB_BLOCK,
    VK_FORMAT_BC2_UNORM_BLOCK,           VK_FORMAT_BC2_SRGB_BLOCK,
    VK_FORMAT_BC3_UNORM_BLOCK,           VK_FORMAT_BC3_SRGB_BLOCK,
    VK_FORMAT_BC4_UNORM_BLOCK,           VK_FORMAT_BC4_SNORM_BLOCK,
    VK_FORMAT_BC5_UNORM_BLOCK,           VK_FORMAT_BC5_SNORM_BLOCK,
    VK_FORMAT_BC6H_UFLOAT_BLOCK,         VK_FORMAT_BC6H_SFLOAT_BLOCK,
    VK_FORMAT_BC7_UNORM_BLOCK,           VK_FORMAT_BC7_SRGB_BLOCK,
    VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,   VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
    VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK,
    VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
    VK_FORMAT_EAC_R11_UNORM_BLOCK,       VK_FORMAT_EAC_R11_SNORM_BLOCK,
    VK_FORMAT_EAC_R11G11_UNORM_BLOCK,    VK_FORMAT_EAC_R11G11_SNORM_BLOCK,
};

// Random blocks, steered so that every mode occurs: BC6H and BC7 blocks
// cycle through their mode numbers (BC6H's reserved ones and BC7's
// reserved low byte 0 included), and some S3TC/RGTC blocks get equal or
// extreme endpoints.
std::vector<uint8_t> MakeBlocks(const texture::FormatInfo& format) {
	const uint32_t count = kBlocksX * kBlocksY, size = format.block_size;
	std::vector<uint8_t> data(count * size);
	std::mt19937 rng(uint32_t(format.format));
	for (uint8_t& b : data) b = uint8_t(rng());
	static const uint8_t kBc6Modes[] = {0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19};
	for (uint32_t i = 0; i < count; ++i) {
		uint8_t* block = &data[i * size];
		switch (format.format) {
		case VK_FORMAT_BC6H_UFLOAT_BLOCK:
		case VK_FORMAT_BC6H_SFLOAT_BLOCK: {
			const uint8_t mode = kBc6Modes[i % std::size(kBc6Modes)];
			block[0] = uint8_t((block[0] & (mode < 2 ? 0xFC : 0xE0)) | mode);
			break;
		}
		case VK_FORMAT_BC7_UNORM_BLOCK:
		case VK_FORMAT_BC7_SRGB_BLOCK: {
			const int mode = int(i % 9);  // 8: the reserved low byte 0
			block[0] = mode == 8 ? 0 : uint8_t((block[0] & ~((2u << mode) - 1)) | (1u << mode));
			break;
		}
		case VK_FORMAT_BC4_SNORM_BLOCK:
		case VK_FORMAT_BC5_SNORM_BLOCK:
			if (i % 4 == 1) block[0] = 0x80;  // -128 reads as -1
			if (i % 4 == 2) block[1] = 0x81;  // -127 reads as -1 too
			break;
		default:
			if (format.compression == texture::Compression::BC && i % 8 == 3) {
				uint8_t* color = block + (size == 16 ? 8 : 0);
				color[2] = color[0], color[3] = color[1];  // color0 == color1: 3-color mode in BC1
			}
			break;
		}
	}
	return data;
}

// What the driver's NEAREST blit made of the blocks, as RGBA floats.
std::vector<float> DriverDecode(Context& ctx, VkFormat format, const std::vector<uint8_t>& blocks) {
	TestImage compressed = ctx.CreateImage2D(format, kWidth, kHeight);
	TestImage decoded = ctx.CreateImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, kWidth, kHeight);
	TestBuffer upload = ctx.CreateBuffer(blocks.size());
	std::memcpy(upload.data, blocks.data(), blocks.size());
	const VkDeviceSize out_size = VkDeviceSize(kWidth) * kHeight * 16;
	TestBuffer readback = ctx.CreateBuffer(out_size);
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, compressed.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		ctx.Transition(cb, decoded.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkBufferImageCopy copy{};
		copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		copy.imageExtent = {kWidth, kHeight, 1};
		vkCmdCopyBufferToImage(cb, upload.buffer, compressed.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
		ctx.Transition(cb, compressed.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		VkImageBlit blit{};
		blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(kWidth), int32_t(kHeight), 1};
		vkCmdBlitImage(cb, compressed.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, decoded.image,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
		ctx.Transition(cb, decoded.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		vkCmdCopyImageToBuffer(cb, decoded.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &copy);
		ctx.TransferBarrier(cb);
	});
	std::vector<float> texels(kWidth * kHeight * 4);
	std::memcpy(texels.data(), readback.data, out_size);
	ctx.Destroy(readback);
	ctx.Destroy(upload);
	ctx.Destroy(decoded);
	ctx.Destroy(compressed);
	return texels;
}

std::string Hex(const uint8_t* bytes, uint32_t count) {
	std::string s;
	char digits[4];
	for (uint32_t i = 0; i < count; ++i) {
		std::snprintf(digits, sizeof digits, "%02x", bytes[i]);
		s += digits;
	}
	return s;
}

// Compares one format; returns false when the driver cannot blit from it.
bool CompareFormat(Context& ctx, const texture::FormatInfo& format) {
	VkFormatProperties props;
	vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format.format, &props);
	const VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
	if ((props.optimalTilingFeatures & needed) != needed) return false;
	const std::vector<uint8_t> blocks = MakeBlocks(format);
	const std::vector<float> got = DriverDecode(ctx, format.format, blocks);
	const double tolerance = Tolerance(format);
	const bool srgb = texture::IsSrgbBlockFormat(format);
	int failures = 0;
	for (uint32_t by = 0; by < kBlocksY; ++by) {
		for (uint32_t bx = 0; bx < kBlocksX; ++bx) {
			const uint8_t* block = &blocks[(by * kBlocksX + bx) * format.block_size];
			texture::TexelValue expected[16];
			if (!texture::DecodeBlock(format, block, expected, texture::SrgbDecode::Keep))
				FAIL("DecodeBlock cannot decode " << format.name);
			for (uint32_t t = 0; t < 16; ++t) {
				const uint32_t x = bx * 4 + t % 4, y = by * 4 + t / 4;
				const float* driver = &got[(y * kWidth + x) * 4];
				for (int c = 0; c < 4; ++c) {
					double ours = expected[t].f[c], theirs = driver[c];
					if (srgb && c < 3) theirs = texture::LinearToSrgb(theirs);  // compare encoded values
					const bool same = ours == theirs || (std::isnan(ours) && std::isnan(theirs)) ||
					                  std::fabs(ours - theirs) <= tolerance;
					if (!same && failures++ < 8) {
						FAIL_CHECK(format.name << " block (" << bx << ", " << by << ") texel " << t << " component "
						                       << c << ": ours " << ours << ", " << DriverName(ctx.driver()) << " "
						                       << theirs << ", block " << Hex(block, format.block_size));
					}
				}
			}
		}
	}
	CHECK(failures == 0);
	return true;
}

// A context with the compressed-format features the driver has enabled.
std::unique_ptr<Context> CreateWithCompression(Driver driver) {
	VkPhysicalDeviceFeatures supported{};
	{
		auto probe = Context::Create(driver);
		if (!probe) return nullptr;
		vkGetPhysicalDeviceFeatures(probe->physical_device(), &supported);
	}
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	features.features.textureCompressionBC = supported.textureCompressionBC;
	features.features.textureCompressionETC2 = supported.textureCompressionETC2;
	ContextOptions options;
	options.device_features = &features;
	return Context::Create(driver, options);
}

}  // namespace

TEST_CASE("lavapipe's decode of BC blocks matches DecodeBlock (blit to R32G32B32A32_SFLOAT)",
          "[compressed][lavapipe]") {
	auto ctx = CreateWithCompression(Driver::Lavapipe);
	REQUIRE(ctx);
	VkPhysicalDeviceFeatures features;
	vkGetPhysicalDeviceFeatures(ctx->physical_device(), &features);
	// With textureCompressionBC, every BC format supports BLIT_SRC (Vulkan 1.3
	// "Required Format Support").
	REQUIRE(features.textureCompressionBC);
	for (VkFormat f : kFormats) {
		const texture::FormatInfo* format = texture::FindFormat(f);
		REQUIRE(format);
		CAPTURE(format->name);
		const bool compared = CompareFormat(*ctx, *format);
		// lavapipe (Mesa 22.3) has no textureCompressionETC2: ETC2/EAC are
		// compared wherever a driver advertises them.
		if (format->compression == texture::Compression::BC) CHECK(compared);
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("Tessera's decode of compressed blocks matches DecodeBlock where it can blit from them",
          "[compressed][tessera]") {
	auto ctx = CreateWithCompression(Driver::Tessera);
	REQUIRE(ctx);
	int compared = 0;
	for (VkFormat f : kFormats) {
		const texture::FormatInfo* format = texture::FindFormat(f);
		REQUIRE(format);
		CAPTURE(format->name);
		compared += CompareFormat(*ctx, *format);
	}
	if (compared == 0) WARN("Tessera advertises BLIT_SRC for no compressed format yet: nothing compared");
	CHECK(ctx->validation_errors() == 0);
}
