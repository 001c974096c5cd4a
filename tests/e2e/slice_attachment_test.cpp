// Rendering into the depth slices of a 3D image through a 2D array view
// (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT, Vulkan 1.3 §12.5): the view's
// layers are slices, VK_REMAINING_ARRAY_LAYERS counts the slices from the
// base, and a render pass clears and draws exactly the slices it covers.
// Exact bytes, on Tessera and on lavapipe, with the validation layer on.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 32, kSlices = 5, kBaseSlice = 2;

// Clears all slices of a 3D image to `before`, then runs a render pass over a
// 2D array view of slices kBaseSlice.. (VK_REMAINING_ARRAY_LAYERS) with
// `layers` framebuffer layers that clears to `cleared` and draws a
// full-screen triangle (to layer 0). Returns every slice's texels.
std::vector<uint8_t> RenderIntoSlices(Driver driver, uint32_t layers) {
	auto ctx = Context::Create(driver);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
	ici.imageType = VK_IMAGE_TYPE_3D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = {kSize, kSize, kSlices};
	ici.mipLevels = 1;
	ici.arrayLayers = 1;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	TestImage image = ctx->CreateImage(ici);

	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = image.image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	vci.format = VK_FORMAT_R8G8B8A8_UNORM;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, kBaseSlice, VK_REMAINING_ARRAY_LAYERS};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);

	ColorPass color_pass = CreateColorPass(device, view, kSize, kSize, layers, VK_IMAGE_LAYOUT_GENERAL);
	VkRenderPass pass = color_pass.pass;
	VkFramebuffer framebuffer = color_pass.framebuffer;
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline =
	    CreateSimplePipeline(device, {"fullscreen.vert.spv", "constant_color.frag.spv", layout, kSize, kSize, pass});
	REQUIRE(pipeline != VK_NULL_HANDLE);

	const VkDeviceSize bytes = VkDeviceSize(kSize) * kSize * kSlices * 4;
	TestBuffer readback = ctx->CreateBuffer(bytes);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
		VkClearColorValue before{{0.0f, 0.0f, 1.0f, 1.0f}};
		VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &before, 1, &all);
		VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 1,
		                     &barrier, 0, nullptr, 0, nullptr);
		VkClearValue cleared{};
		cleared.color = {{0.0f, 1.0f, 0.0f, 1.0f}};
		VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		begin.renderPass = pass;
		begin.framebuffer = framebuffer;
		begin.renderArea = {{0, 0}, {kSize, kSize}};
		begin.clearValueCount = 1;
		begin.pClearValues = &cleared;
		vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
		                     &barrier, 0, nullptr, 0, nullptr);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {kSize, kSize, kSlices};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &region);
	});
	std::vector<uint8_t> texels(readback.data, readback.data + bytes);
	CHECK(ctx->validation_errors() == 0);
	ctx->Destroy(readback);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	color_pass.Destroy(device);
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	return texels;
}

// The texel every pixel of `slice` should hold.
std::array<uint8_t, 4> Expected(uint32_t slice, uint32_t layers) {
	if (slice < kBaseSlice) return {0, 0, 255, 255};           // before the view: untouched
	if (slice == kBaseSlice) return {255, 153, 51, 255};       // drawn (layer 0 of the view)
	if (slice < kBaseSlice + layers) return {0, 255, 0, 255};  // cleared by the render pass
	return {0, 0, 255, 255};                                   // past the framebuffer's layers
}

}  // namespace

TEST_CASE("a 2D array view of a 3D image's slices renders and clears only its layers", "[draw][image][renderpass]") {
	for (uint32_t layers : {1u, kSlices - kBaseSlice}) {
		for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
			INFO(DriverName(driver) << ", " << layers << " framebuffer layers");
			std::vector<uint8_t> texels = RenderIntoSlices(driver, layers);
			uint32_t wrong = 0;
			for (uint32_t slice = 0; slice < kSlices; ++slice) {
				std::array<uint8_t, 4> expected = Expected(slice, layers);
				for (uint32_t i = 0; i < kSize * kSize; ++i)
					wrong += std::memcmp(&texels[(slice * kSize * kSize + i) * 4], expected.data(), 4) != 0;
			}
			CHECK(wrong == 0);
		}
	}
}
