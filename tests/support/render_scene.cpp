#include "render_scene.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "compute_kernel.h"

namespace tessera::test {

namespace {

uint32_t FormatSize(VkFormat format) {
	switch (format) {
	case VK_FORMAT_R8G8B8A8_UNORM:
	case VK_FORMAT_R8G8B8A8_SRGB:
	case VK_FORMAT_B8G8R8A8_UNORM:
	case VK_FORMAT_B8G8R8A8_SRGB:
	case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
	case VK_FORMAT_R32_SFLOAT:
	case VK_FORMAT_R32_UINT:
	case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return 4;
	case VK_FORMAT_R16G16B16A16_SFLOAT:
	case VK_FORMAT_R16G16B16A16_UNORM: return 8;
	case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
	case VK_FORMAT_R5G6B5_UNORM_PACK16:
	case VK_FORMAT_R8G8_UNORM: return 2;
	case VK_FORMAT_R8_UNORM: return 1;
	default: FAIL("render_scene: add the size of format " << int(format)); return 0;
	}
}

struct DepthInfo {
	bool depth, stencil;
	uint32_t depth_size;
};
DepthInfo DepthFormatInfo(VkFormat format) {
	switch (format) {
	case VK_FORMAT_D16_UNORM: return {true, false, 2};
	case VK_FORMAT_X8_D24_UNORM_PACK32: return {true, false, 4};
	case VK_FORMAT_D32_SFLOAT: return {true, false, 4};
	case VK_FORMAT_S8_UINT: return {false, true, 0};
	case VK_FORMAT_D16_UNORM_S8_UINT: return {true, true, 2};
	case VK_FORMAT_D24_UNORM_S8_UINT: return {true, true, 4};
	case VK_FORMAT_D32_SFLOAT_S8_UINT: return {true, true, 4};
	default: return {false, false, 0};
	}
}

VkImageAspectFlags Aspects(const DepthInfo& d) {
	return (d.depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (d.stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

// A full barrier: simple and always valid for a test's one-shot command buffer.
void Barrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
	b.oldLayout = from;
	b.newLayout = to;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {aspects, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &b);
}

VkShaderModule LoadModule(Context& ctx, const std::string& name) {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, name);
	REQUIRE(!words.empty());
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	info.codeSize = words.size() * 4;
	info.pCode = words.data();
	VkShaderModule module;
	REQUIRE(vkCreateShaderModule(ctx.device(), &info, nullptr, &module) == VK_SUCCESS);
	return module;
}

TestBuffer UploadBuffer(Context& ctx, const std::vector<uint8_t>& bytes, VkBufferUsageFlags usage) {
	TestBuffer b = ctx.CreateBuffer(std::max<size_t>(bytes.size(), 4), usage);
	std::memcpy(b.data, bytes.data(), bytes.size());
	return b;
}

}  // namespace

SceneResult RenderScene(Context& ctx, const Scene& scene) {
	VkDevice device = ctx.device();
	const uint32_t w = scene.width, h = scene.height;
	const bool msaa = scene.samples != VK_SAMPLE_COUNT_1_BIT;
	const DepthInfo depth_info = DepthFormatInfo(scene.depth_format);
	const bool has_ds = depth_info.depth || depth_info.stencil;

	// Attachments: the single-sample color images (read back), the
	// multisampled ones when msaa, and the depth/stencil image.
	std::vector<TestImage> colors, msaa_colors;
	std::vector<VkImageView> color_views, msaa_views;
	auto make_view = [&](VkImage image, VkFormat format, VkImageAspectFlags aspects) {
		VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		info.image = image;
		info.viewType = VK_IMAGE_VIEW_TYPE_2D;
		info.format = format;
		info.subresourceRange = {aspects, 0, 1, 0, 1};
		VkImageView view;
		REQUIRE(vkCreateImageView(device, &info, nullptr, &view) == VK_SUCCESS);
		return view;
	};
	for (uint32_t i = 0; i < scene.color_attachments; ++i) {
		colors.push_back(ctx.CreateImage2D(scene.color_format, w, h,
		                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
		color_views.push_back(make_view(colors.back().image, scene.color_format, VK_IMAGE_ASPECT_COLOR_BIT));
		if (msaa) {
			VkImageCreateInfo info = colors.back().info;
			info.samples = scene.samples;
			info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
			msaa_colors.push_back(ctx.CreateImage(info));
			msaa_views.push_back(make_view(msaa_colors.back().image, scene.color_format, VK_IMAGE_ASPECT_COLOR_BIT));
		}
	}
	TestImage depth_image;
	VkImageView depth_view = VK_NULL_HANDLE;
	if (has_ds) {
		VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		info.imageType = VK_IMAGE_TYPE_2D;
		info.format = scene.depth_format;
		info.extent = {w, h, 1};
		info.mipLevels = info.arrayLayers = 1;
		info.samples = scene.samples;
		info.tiling = VK_IMAGE_TILING_OPTIMAL;
		info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | (msaa ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
		depth_image = ctx.CreateImage(info);
		depth_view = make_view(depth_image.image, scene.depth_format, Aspects(depth_info));
	}

	// Render pass and framebuffer (unless dynamic rendering).
	VkRenderPass pass = VK_NULL_HANDLE;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	if (!scene.dynamic_rendering) {
		std::vector<VkAttachmentDescription> attachments;
		std::vector<VkAttachmentReference> color_refs, resolve_refs;
		std::vector<VkImageView> views;
		for (uint32_t i = 0; i < scene.color_attachments; ++i) {
			VkAttachmentDescription a{};
			a.format = scene.color_format;
			a.samples = scene.samples;
			a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
			a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
			a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			a.finalLayout = msaa ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
			color_refs.push_back({uint32_t(attachments.size()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
			attachments.push_back(a);
			views.push_back(msaa ? msaa_views[i] : color_views[i]);
		}
		if (msaa)
			for (uint32_t i = 0; i < scene.color_attachments; ++i) {
				VkAttachmentDescription a{};
				a.format = scene.color_format;
				a.samples = VK_SAMPLE_COUNT_1_BIT;
				a.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
				a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
				a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
				a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
				a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
				a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
				resolve_refs.push_back({uint32_t(attachments.size()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
				attachments.push_back(a);
				views.push_back(color_views[i]);
			}
		VkAttachmentReference depth_ref{};
		if (has_ds) {
			VkAttachmentDescription a{};
			a.format = scene.depth_format;
			a.samples = scene.samples;
			a.loadOp = a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
			a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			a.finalLayout =
			    msaa ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
			depth_ref = {uint32_t(attachments.size()), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
			attachments.push_back(a);
			views.push_back(depth_view);
		}
		VkSubpassDescription subpass{};
		subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		subpass.colorAttachmentCount = uint32_t(color_refs.size());
		subpass.pColorAttachments = color_refs.data();
		subpass.pResolveAttachments = msaa ? resolve_refs.data() : nullptr;
		subpass.pDepthStencilAttachment = has_ds ? &depth_ref : nullptr;
		VkSubpassDependency dependency{};
		dependency.srcSubpass = 0;
		dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
		dependency.srcStageMask =
		    VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
		dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
		dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
		dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		info.attachmentCount = uint32_t(attachments.size());
		info.pAttachments = attachments.data();
		info.subpassCount = 1;
		info.pSubpasses = &subpass;
		info.dependencyCount = 1;
		info.pDependencies = &dependency;
		REQUIRE(vkCreateRenderPass(device, &info, nullptr, &pass) == VK_SUCCESS);
		VkFramebufferCreateInfo fbi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fbi.renderPass = pass;
		fbi.attachmentCount = uint32_t(views.size());
		fbi.pAttachments = views.data();
		fbi.width = w;
		fbi.height = h;
		fbi.layers = 1;
		REQUIRE(vkCreateFramebuffer(device, &fbi, nullptr, &framebuffer) == VK_SUCCESS);
	}

	// Pipeline layout: push constants and one optional uniform buffer.
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	VkDescriptorPool pool = VK_NULL_HANDLE;
	VkDescriptorSet set = VK_NULL_HANDLE;
	TestBuffer uniform;
	const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
	if (!scene.uniform_data.empty()) {
		VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr};
		VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		info.bindingCount = 1;
		info.pBindings = &binding;
		REQUIRE(vkCreateDescriptorSetLayout(device, &info, nullptr, &set_layout) == VK_SUCCESS);
		VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
		VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		pi.maxSets = 1;
		pi.poolSizeCount = 1;
		pi.pPoolSizes = &size;
		REQUIRE(vkCreateDescriptorPool(device, &pi, nullptr, &pool) == VK_SUCCESS);
		VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		ai.descriptorPool = pool;
		ai.descriptorSetCount = 1;
		ai.pSetLayouts = &set_layout;
		REQUIRE(vkAllocateDescriptorSets(device, &ai, &set) == VK_SUCCESS);
		uniform = UploadBuffer(ctx, scene.uniform_data, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
		VkDescriptorBufferInfo bi{uniform.buffer, 0, VK_WHOLE_SIZE};
		VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		write.dstSet = set;
		write.descriptorCount = 1;
		write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
		write.pBufferInfo = &bi;
		vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	}
	VkPushConstantRange push_range{stages, 0, uint32_t(scene.push_constants.size())};
	VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	li.setLayoutCount = set_layout ? 1 : 0;
	li.pSetLayouts = &set_layout;
	li.pushConstantRangeCount = scene.push_constants.empty() ? 0 : 1;
	li.pPushConstantRanges = &push_range;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &li, nullptr, &layout) == VK_SUCCESS);

	// The pipeline.
	PipelineState state;
	state.input_assembly = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	state.rasterization = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	state.rasterization.polygonMode = VK_POLYGON_MODE_FILL;
	state.rasterization.cullMode = VK_CULL_MODE_NONE;
	state.rasterization.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	state.rasterization.lineWidth = 1.0f;
	state.multisample = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	state.multisample.rasterizationSamples = scene.samples;
	state.depth_stencil = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	state.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
	state.depth_stencil.maxDepthBounds = 1.0f;
	VkPipelineColorBlendAttachmentState blend{};
	blend.colorWriteMask = 0xf;
	state.blend_attachments.assign(scene.color_attachments, blend);
	state.color_blend = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	if (scene.configure) scene.configure(state);
	state.color_blend.attachmentCount = uint32_t(state.blend_attachments.size());
	state.color_blend.pAttachments = state.blend_attachments.data();
	state.multisample.pSampleMask = &state.sample_mask;

	VkShaderModule vs = LoadModule(ctx, scene.vertex_shader);
	VkShaderModule fs = scene.fragment_shader.empty() ? VK_NULL_HANDLE : LoadModule(ctx, scene.fragment_shader);
	VkPipelineShaderStageCreateInfo shader_stages[2] = {};
	shader_stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
	shader_stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
	shader_stages[0].module = vs;
	shader_stages[0].pName = "main";
	shader_stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
	shader_stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
	shader_stages[1].module = fs;
	shader_stages[1].pName = "main";

	std::vector<VkVertexInputBindingDescription> bindings;
	if (scene.vertex_stride) bindings.push_back({0, scene.vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX});
	if (!scene.instance_data.empty()) bindings.push_back({1, scene.instance_stride, VK_VERTEX_INPUT_RATE_INSTANCE});
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	vertex_input.vertexBindingDescriptionCount = uint32_t(bindings.size());
	vertex_input.pVertexBindingDescriptions = bindings.data();
	vertex_input.vertexAttributeDescriptionCount = uint32_t(scene.attributes.size());
	vertex_input.pVertexAttributeDescriptions = scene.attributes.data();

	VkViewport viewport{0, 0, float(w), float(h), 0, 1};
	VkRect2D scissor{{0, 0}, {w, h}};
	VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport_state.viewportCount = 1;
	viewport_state.pViewports = &viewport;
	viewport_state.scissorCount = 1;
	viewport_state.pScissors = &scissor;
	VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dynamic.dynamicStateCount = uint32_t(state.dynamic_states.size());
	dynamic.pDynamicStates = state.dynamic_states.data();

	std::vector<VkFormat> color_formats(scene.color_attachments, scene.color_format);
	VkPipelineRenderingCreateInfo rendering_info{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering_info.colorAttachmentCount = scene.color_attachments;
	rendering_info.pColorAttachmentFormats = color_formats.data();
	rendering_info.depthAttachmentFormat = depth_info.depth ? scene.depth_format : VK_FORMAT_UNDEFINED;
	rendering_info.stencilAttachmentFormat = depth_info.stencil ? scene.depth_format : VK_FORMAT_UNDEFINED;

	VkGraphicsPipelineCreateInfo pi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	pi.pNext = scene.dynamic_rendering ? &rendering_info : nullptr;
	pi.stageCount = fs ? 2 : 1;
	pi.pStages = shader_stages;
	pi.pVertexInputState = &vertex_input;
	pi.pInputAssemblyState = &state.input_assembly;
	pi.pViewportState = &viewport_state;
	pi.pRasterizationState = &state.rasterization;
	pi.pMultisampleState = &state.multisample;
	pi.pDepthStencilState = has_ds ? &state.depth_stencil : nullptr;
	pi.pColorBlendState = &state.color_blend;
	pi.pDynamicState = &dynamic;
	pi.layout = layout;
	pi.renderPass = pass;
	VkPipeline pipeline;
	pi.flags = scene.pipeline_flags;
	REQUIRE(vkCreateGraphicsPipelines(device, scene.pipeline_cache, 1, &pi, nullptr, &pipeline) == VK_SUCCESS);

	TestBuffer vertices, instances, indices;
	if (!scene.vertices.empty()) vertices = UploadBuffer(ctx, scene.vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
	if (!scene.instance_data.empty())
		instances = UploadBuffer(ctx, scene.instance_data, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
	if (!scene.indices.empty()) {
		std::vector<uint8_t> bytes;
		for (uint32_t i : scene.indices) {
			uint32_t size = scene.index_type == VK_INDEX_TYPE_UINT16 ? 2 : 4;
			bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&i), reinterpret_cast<uint8_t*>(&i) + size);
		}
		indices = UploadBuffer(ctx, bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
	}

	// Readback buffers.
	const uint32_t color_size = FormatSize(scene.color_format);
	std::vector<TestBuffer> color_readback;
	for (uint32_t i = 0; i < scene.color_attachments; ++i)
		color_readback.push_back(ctx.CreateBuffer(VkDeviceSize(w) * h * color_size));
	TestBuffer depth_readback, stencil_readback;
	if (depth_info.depth && !msaa) depth_readback = ctx.CreateBuffer(VkDeviceSize(w) * h * depth_info.depth_size);
	if (depth_info.stencil && !msaa) stencil_readback = ctx.CreateBuffer(VkDeviceSize(w) * h);

	ctx.Submit([&](VkCommandBuffer cb) {
		std::vector<VkClearValue> clears;
		if (scene.dynamic_rendering) {
			for (uint32_t i = 0; i < scene.color_attachments; ++i) {
				Barrier(cb, colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
				        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
				if (msaa)
					Barrier(cb, msaa_colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
					        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
			}
			if (has_ds)
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_UNDEFINED,
				        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
			std::vector<VkRenderingAttachmentInfo> color_infos(scene.color_attachments);
			for (uint32_t i = 0; i < scene.color_attachments; ++i) {
				VkRenderingAttachmentInfo& a = color_infos[i] = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
				a.imageView = msaa ? msaa_views[i] : color_views[i];
				a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
				if (msaa) {
					a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
					a.resolveImageView = color_views[i];
					a.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
				}
				a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
				a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
				a.clearValue.color = scene.clear_color;
			}
			VkRenderingAttachmentInfo ds{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
			ds.imageView = depth_view;
			ds.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
			ds.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			ds.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			ds.clearValue.depthStencil = scene.clear_depth_stencil;
			VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
			ri.renderArea = {{0, 0}, {w, h}};
			ri.layerCount = 1;
			ri.colorAttachmentCount = scene.color_attachments;
			ri.pColorAttachments = color_infos.data();
			ri.pDepthAttachment = depth_info.depth ? &ds : nullptr;
			ri.pStencilAttachment = depth_info.stencil ? &ds : nullptr;
			vkCmdBeginRendering(cb, &ri);
		} else {
			for (uint32_t i = 0; i < scene.color_attachments; ++i) {
				VkClearValue c;
				c.color = scene.clear_color;
				clears.push_back(c);
			}
			if (msaa)
				for (uint32_t i = 0; i < scene.color_attachments; ++i) clears.push_back(VkClearValue{});
			if (has_ds) {
				VkClearValue c;
				c.depthStencil = scene.clear_depth_stencil;
				clears.push_back(c);
			}
			VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
			bi.renderPass = pass;
			bi.framebuffer = framebuffer;
			bi.renderArea = {{0, 0}, {w, h}};
			bi.clearValueCount = uint32_t(clears.size());
			bi.pClearValues = clears.data();
			vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		}
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		if (set) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
		if (!scene.push_constants.empty())
			vkCmdPushConstants(cb, layout, stages, 0, uint32_t(scene.push_constants.size()),
			                   scene.push_constants.data());
		VkDeviceSize zero = 0;
		if (vertices.buffer) vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &zero);
		if (instances.buffer) vkCmdBindVertexBuffers(cb, 1, 1, &instances.buffer, &zero);
		if (indices.buffer) vkCmdBindIndexBuffer(cb, indices.buffer, 0, scene.index_type);
		if (scene.before_draws) scene.before_draws(cb);
		for (const DrawCall& d : scene.draws) {
			if (indices.buffer)
				vkCmdDrawIndexed(cb, d.count, d.instances, d.first, d.vertex_offset, d.first_instance);
			else
				vkCmdDraw(cb, d.count, d.instances, d.first, d.first_instance);
		}
		if (scene.dynamic_rendering) {
			vkCmdEndRendering(cb);
			for (uint32_t i = 0; i < scene.color_attachments; ++i)
				Barrier(cb, colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
				        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			if (has_ds && !msaa)
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
				        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		} else {
			vkCmdEndRenderPass(cb);
		}
		for (uint32_t i = 0; i < scene.color_attachments; ++i) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, colors[i].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, color_readback[i].buffer,
			                       1, &region);
		}
		if (depth_readback.buffer) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, depth_image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depth_readback.buffer,
			                       1, &region);
		}
		if (stencil_readback.buffer) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, depth_image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stencil_readback.buffer,
			                       1, &region);
		}
		ctx.TransferBarrier(cb);
	});

	SceneResult result;
	for (TestBuffer& b : color_readback) {
		result.colors.emplace_back(b.data, b.data + b.size);
		ctx.Destroy(b);
	}
	if (depth_readback.buffer) {
		result.depth.assign(depth_readback.data, depth_readback.data + depth_readback.size);
		ctx.Destroy(depth_readback);
	}
	if (stencil_readback.buffer) {
		result.stencil.assign(stencil_readback.data, stencil_readback.data + stencil_readback.size);
		ctx.Destroy(stencil_readback);
	}

	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, vs, nullptr);
	if (fs) vkDestroyShaderModule(device, fs, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	if (pool) vkDestroyDescriptorPool(device, pool, nullptr);
	if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	for (TestBuffer* b : {&vertices, &instances, &indices, &uniform})
		if (b->buffer) ctx.Destroy(*b);
	if (framebuffer) vkDestroyFramebuffer(device, framebuffer, nullptr);
	if (pass) vkDestroyRenderPass(device, pass, nullptr);
	for (VkImageView v : color_views) vkDestroyImageView(device, v, nullptr);
	for (VkImageView v : msaa_views) vkDestroyImageView(device, v, nullptr);
	if (depth_view) vkDestroyImageView(device, depth_view, nullptr);
	for (TestImage& i : colors) ctx.Destroy(i);
	for (TestImage& i : msaa_colors) ctx.Destroy(i);
	if (depth_image.image) ctx.Destroy(depth_image);
	return result;
}

void CompareImages(const std::string& name, uint32_t width, uint32_t height, const std::vector<uint8_t>& ours,
                   const std::vector<uint8_t>& reference, int tolerance, uint32_t max_outliers) {
	REQUIRE(ours.size() == reference.size());
	REQUIRE(ours.size() == size_t(width) * height * 4);
	uint32_t outliers = 0;
	int worst = 0;
	size_t first = ours.size();
	std::vector<uint8_t> diff(ours.size(), 0);
	for (size_t p = 0; p < size_t(width) * height; ++p) {
		int pixel_worst = 0;
		for (int c = 0; c < 4; ++c) {
			int d = std::abs(int(ours[p * 4 + c]) - int(reference[p * 4 + c]));
			pixel_worst = std::max(pixel_worst, d);
		}
		diff[p * 4 + 0] = diff[p * 4 + 1] = diff[p * 4 + 2] = uint8_t(std::min(255, pixel_worst * 16));
		diff[p * 4 + 3] = 255;
		if (pixel_worst > tolerance) {
			++outliers;
			if (first == ours.size()) first = p;
			worst = std::max(worst, pixel_worst);
		}
	}
	if (outliers > max_outliers) {
		// Next to the test log: TESSERA_TEST_OUTPUT (set by ctest) or here.
		std::string dir = std::getenv("TESSERA_TEST_OUTPUT") ? std::getenv("TESSERA_TEST_OUTPUT") : ".";
		std::filesystem::create_directories(dir);
		const std::string path = dir + "/" + name;
		WritePng(path + "-tessera.png", width, height, ours.data(), width * 4);
		WritePng(path + "-lavapipe.png", width, height, reference.data(), width * 4);
		WritePng(path + "-diff.png", width, height, diff.data(), width * 4);
		INFO(name << ": " << outliers << " pixels differ by more than " << tolerance << " (worst " << worst
		          << "), first at (" << first % width << ", " << first / width << "): ours " << int(ours[first * 4])
		          << "," << int(ours[first * 4 + 1]) << "," << int(ours[first * 4 + 2]) << ","
		          << int(ours[first * 4 + 3]) << " lavapipe " << int(reference[first * 4]) << ","
		          << int(reference[first * 4 + 1]) << "," << int(reference[first * 4 + 2]) << ","
		          << int(reference[first * 4 + 3]) << "; images written as " << path << "-*.png");
		CHECK(outliers <= max_outliers);
	}
}

SceneResult CompareSceneWithLavapipe(const std::string& name, const Scene& scene, int tolerance,
                                     uint32_t max_outliers) {
	SceneResult ours, reference;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.dynamicRendering = scene.dynamic_rendering;
	ContextOptions options;
	options.device_features = &v13;
	{
		auto ctx = Context::Create(Driver::Tessera, options);
		REQUIRE(ctx);
		ours = RenderScene(*ctx, scene);
		INFO((ctx->validation_messages().empty() ? std::string() : ctx->validation_messages().front()));
		CHECK(ctx->validation_errors() == 0);
	}
	{
		auto ctx = Context::Create(Driver::Lavapipe, options);
		REQUIRE(ctx);
		reference = RenderScene(*ctx, scene);
		CHECK(ctx->validation_errors() == 0);
	}
	CompareImages(name, scene.width, scene.height, ours.colors[0], reference.colors[0], tolerance, max_outliers);
	return ours;
}

}  // namespace tessera::test
