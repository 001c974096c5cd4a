// VK_EXT_load_store_op_none: VK_ATTACHMENT_LOAD_OP_NONE_EXT neither clears
// nor discards, so an attachment keeps what it held before the render pass
// instance outside what the pass draws. Lavapipe 22.3 lacks the extension:
// the reference is lavapipe with VK_ATTACHMENT_LOAD_OP_LOAD, which keeps the
// contents the same way.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 32;

std::vector<uint8_t> DrawOverKeptContents(Driver driver, VkAttachmentLoadOp load_op) {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.dynamicRendering = VK_TRUE;
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
	v11.multiview = VK_TRUE;  // multiview.vert reads gl_ViewIndex (0 here)
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
	ContextOptions options;
	options.device_features = &features;
	if (load_op == VK_ATTACHMENT_LOAD_OP_NONE_EXT) options.device_extensions = {"VK_EXT_load_store_op_none"};
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	TestImage image = ctx->CreateImage2D(
	    VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	VkImageView view = CreateColorView(device, image.image, VK_FORMAT_R8G8B8A8_UNORM);
	VkPipelineLayout layout = CreateEmptyLayout(device);
	// multiview.vert without multiview: one small triangle in the lower left.
	VkPipeline pipeline =
	    CreateSimplePipeline(device, {"multiview.vert.spv", "constant_color.frag.spv", layout, kSize, kSize});
	REQUIRE(pipeline != VK_NULL_HANDLE);
	TestBuffer readback = ctx->CreateBuffer(kSize * kSize * 4);
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
		RecordDrawAndReadBack(cb, pipeline, image.image, view, kSize, kSize, load_op, {}, readback.buffer);
	});
	std::vector<uint8_t> texels(readback.data, readback.data + kSize * kSize * 4);
	CHECK(ctx->validation_errors() == 0);
	ctx->Destroy(readback);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	return texels;
}

}  // namespace

TEST_CASE("VK_ATTACHMENT_LOAD_OP_NONE_EXT keeps the attachment's contents", "[draw][renderpass]") {
	std::vector<uint8_t> ours = DrawOverKeptContents(Driver::Tessera, VK_ATTACHMENT_LOAD_OP_NONE_EXT);
	const uint8_t blue[4] = {0, 0, 255, 255}, drawn[4] = {255, 153, 51, 255};
	CHECK(std::memcmp(&ours[(30 * kSize + 30) * 4], blue, 4) == 0);  // outside the triangle: kept
	CHECK(std::memcmp(&ours[(4 * kSize + 4) * 4], drawn, 4) == 0);   // inside it: drawn
	CHECK(ours == DrawOverKeptContents(Driver::Lavapipe, VK_ATTACHMENT_LOAD_OP_LOAD));
}
