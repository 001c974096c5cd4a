// A graphics pipeline for tests that build their own render passes: two
// corpus shaders, no vertex input, a triangle list over a static viewport of
// the given size, one color attachment written without blending.
#pragma once

#include <vulkan/vulkan.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "compute_kernel.h"

namespace tessera::test {

// A shader module from the build's corpus (build/shaders/<name>).
inline VkShaderModule CorpusModule(VkDevice device, const char* name) {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, name);
	REQUIRE(!words.empty());
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	info.codeSize = words.size() * 4;
	info.pCode = words.data();
	VkShaderModule module = VK_NULL_HANDLE;
	REQUIRE(vkCreateShaderModule(device, &info, nullptr, &module) == VK_SUCCESS);
	return module;
}

struct SimplePipeline {
	const char* vertex_shader;
	const char* fragment_shader;
	VkPipelineLayout layout = VK_NULL_HANDLE;
	uint32_t width = 0, height = 0;
	// A subpass of a render pass, or (pass null) dynamic rendering of one
	// color attachment of `color_format` with `view_mask`.
	VkRenderPass pass = VK_NULL_HANDLE;
	uint32_t subpass = 0;
	VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
	uint32_t view_mask = 0;
	// Several viewports (with as many scissors); null: one of width x height.
	uint32_t viewport_count = 1;
	const VkViewport* viewports = nullptr;
	const VkRect2D* scissors = nullptr;
	const char* geometry_shader = nullptr;  // a geometry stage between the two when set
	// Tessellation control and evaluation stages when set (patches of 3).
	const char* tess_control_shader = nullptr;
	const char* tess_eval_shader = nullptr;
	VkPipelineCreateFlags flags = 0;                       // VkGraphicsPipelineCreateInfo::flags
	VkPipelineColorBlendStateCreateFlags blend_flags = 0;  // VkPipelineColorBlendStateCreateInfo::flags
	std::vector<VkDynamicState> dynamic_states;            // none: no VkPipelineDynamicStateCreateInfo
};

// Fails the test (CHECK) and returns VK_NULL_HANDLE if creation fails.
inline VkPipeline CreateSimplePipeline(VkDevice device, const SimplePipeline& p) {
	VkShaderModule vs = CorpusModule(device, p.vertex_shader), fs = CorpusModule(device, p.fragment_shader);
	VkShaderModule gs = p.geometry_shader ? CorpusModule(device, p.geometry_shader) : VK_NULL_HANDLE;
	VkShaderModule tcs = p.tess_control_shader ? CorpusModule(device, p.tess_control_shader) : VK_NULL_HANDLE;
	VkShaderModule tes = p.tess_eval_shader ? CorpusModule(device, p.tess_eval_shader) : VK_NULL_HANDLE;
	VkPipelineShaderStageCreateInfo stages[5] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
	uint32_t stage_count = 2;
	for (auto [stage, module] :
	     {std::pair{VK_SHADER_STAGE_GEOMETRY_BIT, gs}, std::pair{VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, tcs},
	      std::pair{VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, tes}})
		if (module)
			stages[stage_count++] = {
			    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, module, "main"};
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	assembly.topology = tcs ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
	tessellation.patchControlPoints = 3;
	VkViewport viewport{0, 0, float(p.width), float(p.height), 0, 1};
	VkRect2D scissor{{0, 0}, {p.width, p.height}};
	VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport_state.viewportCount = p.viewports ? p.viewport_count : 1;
	viewport_state.pViewports = p.viewports ? p.viewports : &viewport;
	viewport_state.scissorCount = p.viewports ? p.viewport_count : 1;
	viewport_state.pScissors = p.scissors ? p.scissors : &scissor;
	VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	raster.polygonMode = VK_POLYGON_MODE_FILL;
	raster.lineWidth = 1.0f;
	VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineColorBlendAttachmentState blend{};
	blend.colorWriteMask = 0xf;
	VkPipelineColorBlendStateCreateInfo color_blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	color_blend.flags = p.blend_flags;
	color_blend.attachmentCount = 1;
	color_blend.pAttachments = &blend;
	VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering.viewMask = p.view_mask;
	rendering.colorAttachmentCount = 1;
	rendering.pColorAttachmentFormats = &p.color_format;
	VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	info.pNext = p.pass ? nullptr : &rendering;
	info.flags = p.flags;
	info.stageCount = stage_count;
	info.pTessellationState = tcs ? &tessellation : nullptr;
	info.pStages = stages;
	info.pVertexInputState = &vertex_input;
	info.pInputAssemblyState = &assembly;
	info.pViewportState = &viewport_state;
	info.pRasterizationState = &raster;
	info.pMultisampleState = &multisample;
	info.pColorBlendState = &color_blend;
	VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dynamic.dynamicStateCount = uint32_t(p.dynamic_states.size());
	dynamic.pDynamicStates = p.dynamic_states.data();
	if (!p.dynamic_states.empty()) info.pDynamicState = &dynamic;
	info.layout = p.layout;
	info.renderPass = p.pass;
	info.subpass = p.subpass;
	VkPipeline pipeline = VK_NULL_HANDLE;
	CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
	vkDestroyShaderModule(device, vs, nullptr);
	vkDestroyShaderModule(device, fs, nullptr);
	for (VkShaderModule m : {gs, tcs, tes})
		if (m) vkDestroyShaderModule(device, m, nullptr);
	return pipeline;
}

// A render pass of one subpass writing one RGBA8 color attachment that is
// cleared at the start and stored, in `layout` throughout (UNDEFINED:
// from UNDEFINED, then COLOR_ATTACHMENT_OPTIMAL, ending TRANSFER_SRC_OPTIMAL),
// and a framebuffer of `view` with `layers` layers.
struct ColorPass {
	VkRenderPass pass = VK_NULL_HANDLE;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	void Destroy(VkDevice device) {
		vkDestroyFramebuffer(device, framebuffer, nullptr);
		vkDestroyRenderPass(device, pass, nullptr);
	}
};
inline ColorPass CreateColorPass(VkDevice device, VkImageView view, uint32_t width, uint32_t height, uint32_t layers,
                                 VkImageLayout layout) {
	const bool general = layout == VK_IMAGE_LAYOUT_GENERAL;
	VkAttachmentDescription attachment{};
	attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
	attachment.samples = VK_SAMPLE_COUNT_1_BIT;
	attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachment.initialLayout = layout;
	attachment.finalLayout = general ? layout : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	VkAttachmentReference color_ref{0, general ? layout : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &color_ref;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 1;
	rpci.pAttachments = &attachment;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	ColorPass out;
	REQUIRE(vkCreateRenderPass(device, &rpci, nullptr, &out.pass) == VK_SUCCESS);
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = out.pass;
	fci.attachmentCount = 1;
	fci.pAttachments = &view;
	fci.width = width;
	fci.height = height;
	fci.layers = layers;
	REQUIRE(vkCreateFramebuffer(device, &fci, nullptr, &out.framebuffer) == VK_SUCCESS);
	return out;
}

// A 2D view of level 0, layer 0 of a color image.
inline VkImageView CreateColorView(VkDevice device, VkImage image, VkFormat format) {
	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vci.format = format;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
	return view;
}

// A pipeline layout with no sets and no push constants.
inline VkPipelineLayout CreateEmptyLayout(VkDevice device) {
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	return layout;
}

// Records one dynamic-rendering instance over a 2D color view (layout
// GENERAL) of width x height: load_op (clear_color when CLEAR), the pipeline,
// one draw of 3 vertices; then copies the image's level 0, layer 0 into
// readback (tightly packed).
inline void RecordDrawAndReadBack(VkCommandBuffer cb, VkPipeline pipeline, VkImage image, VkImageView view,
                                  uint32_t width, uint32_t height, VkAttachmentLoadOp load_op,
                                  VkClearColorValue clear_color, VkBuffer readback) {
	VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
	color.imageView = view;
	color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
	color.loadOp = load_op;
	color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	color.clearValue.color = clear_color;
	VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
	rendering.renderArea = {{0, 0}, {width, height}};
	rendering.layerCount = 1;
	rendering.colorAttachmentCount = 1;
	rendering.pColorAttachments = &color;
	vkCmdBeginRendering(cb, &rendering);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
	vkCmdDraw(cb, 3, 1, 0, 0);
	vkCmdEndRendering(cb);
	VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
	                     &barrier, 0, nullptr, 0, nullptr);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {width, height, 1};
	vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, readback, 1, &region);
}

}  // namespace tessera::test
