// Transfer commands on Tessera, compared byte for byte with lavapipe where
// the spec leaves no freedom.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "compare.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("fill, update and copy buffer match lavapipe", "[transfer][buffer]") {
	CompareWithLavapipe([](Context& ctx) {
		TestBuffer a = ctx.CreateBuffer(4096), b = ctx.CreateBuffer(4096);
		std::iota(a.data, a.data + 4096, uint8_t(7));
		std::vector<uint8_t> update(256);
		std::iota(update.begin(), update.end(), uint8_t(100));
		ctx.Submit([&](VkCommandBuffer cb) {
			vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, 0xdeadbeef);
			ctx.TransferBarrier(cb);
			vkCmdFillBuffer(cb, b.buffer, 1024, 512, 0x01020304);
			vkCmdUpdateBuffer(cb, b.buffer, 2048, update.size(), update.data());
			VkBufferCopy regions[] = {{0, 3000, 100}, {200, 3500, 300}};
			vkCmdCopyBuffer(cb, a.buffer, b.buffer, 2, regions);
		});
		std::vector<uint8_t> out(b.data, b.data + 4096);
		ctx.Destroy(a);
		ctx.Destroy(b);
		return out;
	});
}

TEST_CASE("clear color image then copy to buffer matches lavapipe", "[transfer][image]") {
	struct Case {
		VkFormat format;
		VkClearColorValue color;
		Tolerance tolerance;
	};
	const Tolerance half4{8, {{0, 16}, {16, 16}, {32, 16}, {48, 16}}};
	const Tolerance r11g11b10{4, {{0, 11}, {11, 11}, {22, 10}}};
	const Case cases[] = {
	    {VK_FORMAT_R8G8B8A8_UNORM, {{0.2f, 0.4f, 0.6f, 1.0f}}},
	    {VK_FORMAT_R8G8B8A8_SRGB, {{0.2f, 0.5f, 0.9f, 0.5f}}},
	    {VK_FORMAT_B8G8R8A8_UNORM, {{1.0f, 0.0f, 0.5f, 0.25f}}},
	    {VK_FORMAT_R16G16B16A16_SFLOAT, {{-1.5f, 65504.0f, 0.0001f, 1.0f}}, half4},
	    {VK_FORMAT_R32G32B32A32_SFLOAT, {{1.0f, -2.0f, 3.5f, 1e30f}}},
	    {VK_FORMAT_R5G6B5_UNORM_PACK16, {{0.3f, 0.6f, 0.9f, 1.0f}}},
	    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, {{0.1f, 0.2f, 0.3f, 0.7f}}},
	    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, {{0.5f, 100.0f, 3.3f, 1.0f}}, r11g11b10},
	    {VK_FORMAT_R8G8_SNORM, {{-0.5f, 0.75f, 0.0f, 0.0f}}},
	};
	for (const Case& c : cases) {
		CAPTURE(c.format);
		CompareWithLavapipe(
		    [&](Context& ctx) {
			    const uint32_t w = 37, h = 19;
			    TestImage image = ctx.CreateImage2D(c.format, w, h);
			    VkFormatProperties props;
			    vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), c.format, &props);
			    REQUIRE((props.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT));
			    TestBuffer out = ctx.CreateBuffer(w * h * 16);
			    std::fill(out.data, out.data + out.size, uint8_t(0xab));  // bytes past the image stay as written
			    ctx.Submit([&](VkCommandBuffer cb) {
				    ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
				    vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c.color, 1, &range);
				    ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
				    VkBufferImageCopy region{};
				    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
				    region.imageExtent = {w, h, 1};
				    vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
				                           &region);
				    ctx.TransferBarrier(cb);
			    });
			    std::vector<uint8_t> bytes(out.data, out.data + out.size);
			    ctx.Destroy(out);
			    ctx.Destroy(image);
			    return bytes;
		    },
		    c.tolerance);
	}
}

TEST_CASE("buffer to image to buffer round-trips with row length and image height", "[transfer][image]") {
	CompareWithLavapipe([](Context& ctx) {
		const uint32_t w = 20, h = 12, layers = 3;
		TestImage image =
		    ctx.CreateImage2D(VK_FORMAT_R8G8B8A8_UINT, w, h,
		                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 2, layers);
		TestBuffer src = ctx.CreateBuffer(64 * 1024), dst = ctx.CreateBuffer(64 * 1024);
		std::iota(src.data, src.data + src.size, uint8_t(0));
		std::fill(dst.data, dst.data + dst.size, uint8_t(0xab));
		ctx.Submit([&](VkCommandBuffer cb) {
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkClearColorValue zero{};
			VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, layers};
			vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkBufferImageCopy up{};
			up.bufferOffset = 16;
			up.bufferRowLength = 24;
			up.bufferImageHeight = 14;
			up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 2};
			up.imageOffset = {3, 2, 0};
			up.imageExtent = {15, 9, 1};
			vkCmdCopyBufferToImage(cb, src.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
			VkBufferImageCopy mip{};
			mip.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
			mip.imageExtent = {10, 6, 1};
			vkCmdCopyBufferToImage(cb, src.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &mip);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkBufferImageCopy down[2]{};
			down[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
			down[0].imageExtent = {w, h, 1};
			down[1].bufferOffset = w * h * 4 * layers;
			down[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
			down[1].imageExtent = {10, 6, 1};
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.buffer, 2, down);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(dst.data, dst.data + dst.size);
		ctx.Destroy(src);
		ctx.Destroy(dst);
		ctx.Destroy(image);
		return bytes;
	});
}

// Above 1 MiB, fills, copies and clears are split over the worker threads;
// chunk edges must neither drop bytes nor shift a repeating texel pattern.
TEST_CASE("large fills, copies and clears split over threads match lavapipe", "[transfer][parallel][threads]") {
	CompareWithLavapipe([](Context& ctx) {
		const VkDeviceSize size = 5 * 1024 * 1024 + 12;
		TestBuffer a = ctx.CreateBuffer(size), b = ctx.CreateBuffer(size);
		for (VkDeviceSize i = 0; i < size; ++i) a.data[i] = uint8_t(i * 31 + (i >> 12));
		std::fill(b.data, b.data + size, uint8_t(0x5a));  // new memory's contents are undefined
		// RGB32: a 12-byte texel, which does not divide a cache line; with two
		// threads this size puts the chunk edge mid-texel unless chunks are
		// aligned to whole texels (checked by breaking that alignment).
		const uint32_t w = 1111, h = 112;
		TestImage image = ctx.CreateImage2D(VK_FORMAT_R32G32B32_SFLOAT, w, h);
		ctx.Submit([&](VkCommandBuffer cb) {
			vkCmdFillBuffer(cb, b.buffer, 4, 3 * 1024 * 1024 + 8, 0x11223344);
			ctx.TransferBarrier(cb);
			VkBufferCopy region{7, 3 * 1024 * 1024 + 16, 2 * 1024 * 1024 - 5};
			vkCmdCopyBuffer(cb, a.buffer, b.buffer, 1, &region);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkClearColorValue color{{0.1f, 0.2f, 0.3f, 0.4f}};
			VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkBufferImageCopy down{};
			down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			down.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, a.buffer, 1, &down);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(2 * size);
		std::memcpy(bytes.data(), b.data, size);
		std::memcpy(bytes.data() + size, a.data, size);
		ctx.Destroy(a);
		ctx.Destroy(b);
		ctx.Destroy(image);
		return bytes;
	});
}
