// Layered rendering and viewport selection from the vertex stage
// (shaderOutputLayer and shaderOutputViewportIndex with multiViewport, Vulkan
// "Layer" and "ViewportIndex"): each primitive goes to the layer and through
// the viewport its vertices write, on Tessera as on lavapipe, with the
// validation layer on.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 32, kLayers = 3;

// Three viewports (and scissors), apart from each other.
const VkViewport kViewports[3] = {{0, 0, 10, 10, 0, 1}, {12, 0, 10, 10, 0, 1}, {0, 20, 10, 10, 0, 1}};
const VkRect2D kScissors[3] = {{{0, 0}, {10, 10}}, {{12, 0}, {10, 10}}, {{0, 20}, {10, 10}}};

// Draws three instances in a render pass over all layers of a 2D array image
// cleared to blue, and returns every layer: layered.vert's triangles, instance
// i into layer i, or (viewports) viewport_index.vert's, instance i through
// viewport i of kViewports.
std::vector<uint8_t> RenderLayers(Driver driver, bool viewports = false) {
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.shaderOutputLayer = VK_TRUE;
	v12.shaderOutputViewportIndex = viewports;
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
	features.features.multiViewport = viewports;
	ContextOptions options;
	options.device_features = &features;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	TestImage image =
	    ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
	                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 1, kLayers);
	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = image.image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	vci.format = VK_FORMAT_R8G8B8A8_UNORM;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
	ColorPass color_pass = CreateColorPass(device, view, kSize, kSize, kLayers, VK_IMAGE_LAYOUT_UNDEFINED);
	VkRenderPass pass = color_pass.pass;
	VkFramebuffer framebuffer = color_pass.framebuffer;
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	SimplePipeline desc{"layered.vert.spv", "constant_color.frag.spv", layout, kSize, kSize, pass};
	if (viewports) {
		desc.vertex_shader = "viewport_index.vert.spv";
		desc.viewport_count = 3;
		desc.viewports = kViewports;
		desc.scissors = kScissors;
	}
	VkPipeline pipeline = CreateSimplePipeline(device, desc);
	REQUIRE(pipeline != VK_NULL_HANDLE);

	const VkDeviceSize bytes = VkDeviceSize(kSize) * kSize * kLayers * 4;
	TestBuffer readback = ctx->CreateBuffer(bytes);
	ctx->Submit([&](VkCommandBuffer cb) {
		VkClearValue clear{};
		clear.color = {{0.0f, 0.0f, 1.0f, 1.0f}};
		VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		begin.renderPass = pass;
		begin.framebuffer = framebuffer;
		begin.renderArea = {{0, 0}, {kSize, kSize}};
		begin.clearValueCount = 1;
		begin.pClearValues = &clear;
		vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		vkCmdDraw(cb, 3, kLayers, 0, 0);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
		region.imageExtent = {kSize, kSize, 1};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
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

}  // namespace

TEST_CASE("the vertex stage's Layer sends each primitive to its layer", "[draw][layered]") {
	std::vector<uint8_t> ours = RenderLayers(Driver::Tessera);
	const std::array<uint8_t, 4> drawn = {255, 153, 51, 255}, cleared = {0, 0, 255, 255};
	auto at = [&](uint32_t layer, uint32_t x, uint32_t y) { return &ours[((layer * kSize + y) * kSize + x) * 4]; };
	for (uint32_t layer = 0; layer < kLayers; ++layer)
		for (uint32_t triangle = 0; triangle < kLayers; ++triangle) {
			// Inside triangle k only: NDC (-0.8 + 0.6 k, -0.75), pixel ((ndc + 1) * 16).
			const uint8_t* texel = at(layer, uint32_t((0.2 + 0.6 * triangle) * 16), uint32_t(0.25 * 16));
			INFO("layer " << layer << ", triangle " << triangle);
			CHECK(std::memcmp(texel, layer == triangle ? drawn.data() : cleared.data(), 4) == 0);
		}
	CHECK(ours == RenderLayers(Driver::Lavapipe));
}

TEST_CASE("the vertex stage's ViewportIndex sends each primitive through its viewport", "[draw][layered]") {
	std::vector<uint8_t> ours = RenderLayers(Driver::Tessera, true);
	const std::array<uint8_t, 4> drawn = {255, 153, 51, 255}, cleared = {0, 0, 255, 255};
	auto at = [&](uint32_t x, uint32_t y) { return &ours[(y * kSize + x) * 4]; };  // layer 0
	CHECK(std::memcmp(at(5, 5), drawn.data(), 4) == 0);                            // viewport 0
	CHECK(std::memcmp(at(17, 5), drawn.data(), 4) == 0);                           // viewport 1
	CHECK(std::memcmp(at(5, 25), drawn.data(), 4) == 0);                           // viewport 2
	CHECK(std::memcmp(at(11, 5), cleared.data(), 4) == 0);                         // between 0 and 1
	CHECK(std::memcmp(at(17, 25), cleared.data(), 4) == 0);                        // in none
	CHECK(ours == RenderLayers(Driver::Lavapipe, true));
}
