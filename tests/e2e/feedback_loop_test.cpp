// Reading the attachment a subpass writes, through the loader with the
// validation layer on, on Tessera and on lavapipe:
// - VK_EXT_rasterization_order_attachment_access: one draw of stacked
//   full-screen triangles whose fragment shader adds to its input attachment,
//   which is also its color attachment. With the rasterization order flags,
//   each fragment reads what the triangles before it (same draw) wrote, so
//   every pixel holds the sum of all of them.
// - VK_EXT_attachment_feedback_loop_layout: the same sum, one triangle a
//   draw, read through a sampler from the attachment in the
//   ATTACHMENT_FEEDBACK_LOOP_OPTIMAL layout, with a feedback-loop barrier
//   between the draws (Vulkan "Render Pass", feedback loops: a fragment
//   reads its own pixel after a subpass self-dependency).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "icd/vulkan_newer.h"
#include "simple_pipeline.h"
#include "single_set.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Two by two of the rasterizer's 64-pixel tiles and a thin edge: the corner
// tile holds 9 quads a triangle, so one batch of shaded quads (64) could hold
// every triangle's quads at once.
constexpr uint32_t kSize = 134;
constexpr uint32_t kLayers = 6;  // fragments at each pixel
// The shaders' increments (input_accumulate.frag, feedback_accumulate.frag).
constexpr float kIncrement[3] = {1.0f / 16, 1.0f / 32, 1.0f / 8};

// DynamicFeedbackLoop: the same loop, set with
// vkCmdSetAttachmentFeedbackLoopEnableEXT instead of the pipeline flag
// (VK_EXT_attachment_feedback_loop_dynamic_state; Tessera alone, without the
// validation layer: lavapipe 22.3 and the layer's 1.3.239 release predate it).
enum class Mode { RasterizationOrder, FeedbackLoop, DynamicFeedbackLoop };

// What kLayers additions leave in a UNORM8 channel cleared to zero: each
// fragment reads the stored code, adds, and the sum is stored rounded.
uint8_t ExpectedCode(float increment) {
	uint32_t code = 0;
	for (uint32_t i = 0; i < kLayers; ++i)
		code = uint32_t(std::lround(std::min(1.0f, float(code) / 255.0f + increment) * 255.0f));
	return uint8_t(code);
}

std::vector<uint8_t> Render(Driver driver, Mode mode) {
	const bool order = mode == Mode::RasterizationOrder;
	VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT order_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT};
	order_features.rasterizationOrderColorAttachmentAccess = VK_TRUE;
	VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT loop_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT};
	loop_features.attachmentFeedbackLoopLayout = VK_TRUE;
	const bool dynamic = mode == Mode::DynamicFeedbackLoop;
	VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT dynamic_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT};
	dynamic_features.attachmentFeedbackLoopDynamicState = VK_TRUE;
	if (dynamic) loop_features.pNext = &dynamic_features;
	ContextOptions options;
	options.device_extensions = {order ? VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME
	                                   : VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME};
	if (dynamic) {
		options.device_extensions.push_back(VK_EXT_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_EXTENSION_NAME);
		options.validation = false;
	}
	options.device_features = order ? static_cast<const void*>(&order_features) : &loop_features;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();

	// The attachment, in GENERAL (input attachment) or the feedback loop layout.
	const VkImageLayout layout = order ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;
	TestImage image =
	    ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
	                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                           (order ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT
	                                  : VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT));
	VkImageView view = CreateColorView(device, image.image, VK_FORMAT_R8G8B8A8_UNORM);

	VkAttachmentDescription attachment{};
	attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
	attachment.samples = VK_SAMPLE_COUNT_1_BIT;
	attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	const VkAttachmentReference ref{0, layout};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &ref;
	if (order) {
		subpass.flags = VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_COLOR_ACCESS_BIT_EXT;
		subpass.inputAttachmentCount = 1;
		subpass.pInputAttachments = &ref;
	}
	// The feedback loop's self-dependency (the barrier between draws), and
	// the copy after the pass.
	VkSubpassDependency dependencies[2] = {};
	dependencies[0].srcSubpass = 0;
	dependencies[0].dstSubpass = VK_SUBPASS_EXTERNAL;
	dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dependencies[0].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	dependencies[0].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	VkSubpassDependency& self = dependencies[1];
	self.srcSubpass = self.dstSubpass = 0;
	self.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	self.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
	self.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	self.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
	self.dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 1;
	rpci.pAttachments = &attachment;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	rpci.dependencyCount = order ? 1 : 2;
	rpci.pDependencies = dependencies;
	VkRenderPass pass = VK_NULL_HANDLE;
	REQUIRE(vkCreateRenderPass(device, &rpci, nullptr, &pass) == VK_SUCCESS);
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = pass;
	fci.attachmentCount = 1;
	fci.pAttachments = &view;
	fci.width = fci.height = kSize;
	fci.layers = 1;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	REQUIRE(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer) == VK_SUCCESS);

	// The attachment as the fragment shader's input: an input attachment,
	// or a combined image sampler (nearest; texelFetch ignores it anyway).
	const VkDescriptorType type =
	    order ? VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler = VK_NULL_HANDLE;
	REQUIRE(vkCreateSampler(device, &sci, nullptr, &sampler) == VK_SUCCESS);
	VkDescriptorSetLayoutBinding binding{0, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 1;
	dslci.pBindings = &binding;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	const VkDescriptorPoolSize size{type, 1};
	VkDescriptorPool pool = VK_NULL_HANDLE;
	const VkDescriptorSet set = AllocateSingleSet(device, set_layout, {&size, 1}, &pool);
	VkDescriptorImageInfo image_info{order ? VK_NULL_HANDLE : sampler, view, layout};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set;
	write.descriptorCount = 1;
	write.descriptorType = type;
	write.pImageInfo = &image_info;
	vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	SimplePipeline sp{"stacked_triangles.vert.spv",
	                  order ? "input_accumulate.frag.spv" : "feedback_accumulate.frag.spv",
	                  pipeline_layout,
	                  kSize,
	                  kSize,
	                  pass};
	if (order)
		sp.blend_flags = VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT;
	else if (dynamic)
		sp.dynamic_states = {VK_DYNAMIC_STATE_ATTACHMENT_FEEDBACK_LOOP_ENABLE_EXT};
	else
		sp.flags = VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
	auto set_loop =
	    dynamic ? ctx->Proc<PFN_vkCmdSetAttachmentFeedbackLoopEnableEXT>("vkCmdSetAttachmentFeedbackLoopEnableEXT")
	            : nullptr;
	if (dynamic) REQUIRE(set_loop);
	VkPipeline pipeline = CreateSimplePipeline(device, sp);
	REQUIRE(pipeline != VK_NULL_HANDLE);

	const VkDeviceSize bytes = VkDeviceSize(kSize) * kSize * 4;
	TestBuffer readback = ctx->CreateBuffer(bytes);
	ctx->Submit([&](VkCommandBuffer cb) {
		VkClearValue clear{};
		clear.color = {{0.0f, 0.0f, 0.0f, 1.0f}};
		VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		begin.renderPass = pass;
		begin.framebuffer = framebuffer;
		begin.renderArea = {{0, 0}, {kSize, kSize}};
		begin.clearValueCount = 1;
		begin.pClearValues = &clear;
		vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout, 0, 1, &set, 0, nullptr);
		if (dynamic) set_loop(cb, VK_IMAGE_ASPECT_COLOR_BIT);
		if (order) {
			vkCmdDraw(cb, 3 * kLayers, 1, 0, 0);  // one draw: rasterization order alone orders the reads
		} else {
			for (uint32_t i = 0; i < kLayers; ++i) {
				if (i > 0) {
					VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
					barrier.srcAccessMask = self.srcAccessMask;
					barrier.dstAccessMask = self.dstAccessMask;
					vkCmdPipelineBarrier(cb, self.srcStageMask, self.dstStageMask, self.dependencyFlags, 1, &barrier, 0,
					                     nullptr, 0, nullptr);
				}
				vkCmdDraw(cb, 3, 1, 0, 0);
			}
		}
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {kSize, kSize, 1};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
	});
	std::vector<uint8_t> texels(readback.data, readback.data + bytes);
	CHECK(ctx->validation_errors() == 0);
	ctx->Destroy(readback);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroySampler(device, sampler, nullptr);
	vkDestroyFramebuffer(device, framebuffer, nullptr);
	vkDestroyRenderPass(device, pass, nullptr);
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	return texels;
}

void CheckSums(Mode mode) {
	const std::array<uint8_t, 4> expected = {ExpectedCode(kIncrement[0]), ExpectedCode(kIncrement[1]),
	                                         ExpectedCode(kIncrement[2]), 255};
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		if (mode == Mode::DynamicFeedbackLoop && driver == Driver::Lavapipe) continue;
		INFO(DriverName(driver));
		std::vector<uint8_t> texels = Render(driver, mode);
		uint32_t wrong = 0, first_wrong = 0;
		for (uint32_t i = 0; i < kSize * kSize; ++i)
			if (std::memcmp(&texels[i * 4], expected.data(), 4) != 0 && wrong++ == 0) first_wrong = i;
		INFO("first wrong pixel " << first_wrong % kSize << ", " << first_wrong / kSize << ": "
		                          << int(texels[first_wrong * 4]) << " " << int(texels[first_wrong * 4 + 1]) << " "
		                          << int(texels[first_wrong * 4 + 2]) << ", expected " << int(expected[0]) << " "
		                          << int(expected[1]) << " " << int(expected[2]));
		CHECK(wrong == 0);
	}
}

}  // namespace

TEST_CASE("rasterization order input attachment reads see the earlier triangles of the same draw",
          "[draw][renderpass][feedback]") {
	CheckSums(Mode::RasterizationOrder);
}

TEST_CASE("a feedback loop samples the attachment as the draws before the barrier left it",
          "[draw][renderpass][feedback]") {
	CheckSums(Mode::FeedbackLoop);
}

TEST_CASE("a feedback loop set at draw time samples as the pipeline flag does", "[draw][renderpass][feedback]") {
	CheckSums(Mode::DynamicFeedbackLoop);
}
