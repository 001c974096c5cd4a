// vkCmdClearDepthStencilImage (Vulkan 1.3 §19.2) on every depth/stencil
// format, aspects cleared apart and together, read back through copies and
// compared with lavapipe.
#include <catch2/catch.hpp>

#include "image_helpers.h"

using namespace tessera::test;
using namespace tessera::test::transfer;

namespace {

constexpr VkImageAspectFlags kDepthStencil = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;

struct DepthFormat {
	VkFormat format;
	VkImageAspectFlags aspects;
	Fill fill;
};

const DepthFormat kFormats[] = {
    {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Bytes},
    {VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Depth24},
    {VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Depth32},
    {VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, Fill::Bytes},
    {VK_FORMAT_D16_UNORM_S8_UINT, kDepthStencil, Fill::Bytes},
    {VK_FORMAT_D24_UNORM_S8_UINT, kDepthStencil, Fill::Depth24},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, kDepthStencil, Fill::Depth32},
};

// Uploads random texels, clears parts of the image, reads back every level
// of one aspect.
std::vector<uint8_t> ClearAndRead(Context& ctx, const DepthFormat& f, VkImageAspectFlagBits read_aspect) {
	if (!Supports(ctx, f.format, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT)) return {};
	ImageSpec spec{f.format, {11, 7, 1}, VK_IMAGE_TYPE_2D, 4, 3, f.aspects};
	TestImage image = MakeImage(ctx, spec);
	TestBuffer up = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
	ImageSpec read = spec;
	read.aspects = read_aspect;
	VkDeviceSize size = 0;
	ctx.Submit([&](VkCommandBuffer cb) {
		RecordUpload(ctx, cb, image, spec, up, 4, f.fill, 71);
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               f.aspects);
		const VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		bool has_depth = f.aspects & VK_IMAGE_ASPECT_DEPTH_BIT, has_stencil = f.aspects & VK_IMAGE_ASPECT_STENCIL_BIT;
		if (has_depth) {
			// Depth only: level 0, layers 1 and 2.
			VkClearDepthStencilValue value{0.3f, 0x11};
			VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 1, 2};
			vkCmdClearDepthStencilImage(cb, image.image, layout, &value, 1, &range);
		}
		if (has_stencil) {
			// Stencil only: levels 1 and 2, all layers.
			VkClearDepthStencilValue value{0.9f, 0x5a};
			VkImageSubresourceRange range{VK_IMAGE_ASPECT_STENCIL_BIT, 1, VK_REMAINING_MIP_LEVELS, 0,
			                              VK_REMAINING_ARRAY_LAYERS};
			vkCmdClearDepthStencilImage(cb, image.image, layout, &value, 1, &range);
		}
		ctx.Transition(cb, image.image, layout, layout, f.aspects);
		// Every aspect the format has, in two ranges of one command.
		VkClearDepthStencilValue value{0.6180339f, 0xa7};
		VkImageSubresourceRange ranges[2] = {{f.aspects, 0, 1, 3, 1}, {f.aspects, 2, 1, 0, 2}};
		vkCmdClearDepthStencilImage(cb, image.image, layout, &value, 2, ranges);
		ctx.Transition(cb, image.image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f.aspects);
		size = RecordReadback(cb, image, read, 0, out, 4, spec.mips);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes = TakeBytes(out, size, read, spec.mips);
	ctx.Destroy(up);
	ctx.Destroy(out);
	ctx.Destroy(image);
	return bytes;
}

}  // namespace

TEST_CASE("depth/stencil clears match lavapipe, per aspect", "[clear][depth]") {
	DriverPair drivers;
	for (const DepthFormat& f : kFormats) {
		CAPTURE(f.format);
		// Vulkan 1.3 "Fixed-Point Data Conversions" lets a float become either
		// of the two closest UNORM values; both drivers round to nearest, so
		// depth is compared exactly (a change of rounding shows up here).
		if (f.aspects & VK_IMAGE_ASPECT_DEPTH_BIT)
			CompareWithLavapipe(drivers, [&](Context& ctx) { return ClearAndRead(ctx, f, VK_IMAGE_ASPECT_DEPTH_BIT); });
		if (f.aspects & VK_IMAGE_ASPECT_STENCIL_BIT)
			CompareWithLavapipe(drivers,
			                    [&](Context& ctx) { return ClearAndRead(ctx, f, VK_IMAGE_ASPECT_STENCIL_BIT); });
	}
}
