#include "render_scene.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "compute_kernel.h"
#include "descriptor_buffer.h"
#include "texture/format.h"

namespace tessera::test {

namespace {

uint32_t FormatSize(VkFormat format) {
	const texture::FormatInfo* info = texture::FindFormat(format);
	if (!info) FAIL("render_scene: unknown format " << int(format));
	return info->block_size;
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
	b.subresourceRange = {aspects, 0, 1, 0, VK_REMAINING_ARRAY_LAYERS};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &b);
}

// The same over every mip level (uploads of whole textures).
void BarrierAll(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
	b.oldLayout = from;
	b.newLayout = to;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
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

// The pipeline of `pi` (complete, monolithic) made instead as four graphics
// pipeline libraries, one per state subset, and linked. The libraries are
// destroyed at once with scene.library_destroy_early, else returned in
// `kept`.
VkPipeline CreateFromLibraries(Context& ctx, const VkGraphicsPipelineCreateInfo& pi, const Scene& scene,
                               std::vector<VkPipeline>& kept) {
	VkDevice device = ctx.device();
	const VkGraphicsPipelineLibraryFlagsEXT subsets[] = {
	    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT,
	    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT,
	    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT,
	    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT};
	auto subset_of = [](VkShaderStageFlagBits stage) {
		return stage == VK_SHADER_STAGE_FRAGMENT_BIT ? VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT
		                                             : VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
	};
	auto shader_name = [&](VkShaderStageFlagBits stage) -> const std::string& {
		switch (stage) {
		case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return scene.tess_control_shader;
		case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return scene.tess_eval_shader;
		case VK_SHADER_STAGE_GEOMETRY_BIT: return scene.geometry_shader;
		case VK_SHADER_STAGE_FRAGMENT_BIT: return scene.fragment_shader;
		default: return scene.vertex_shader;
		}
	};
	std::vector<std::vector<uint32_t>> code(pi.stageCount);
	std::vector<VkShaderModuleCreateInfo> module_infos(pi.stageCount);
	VkPipeline libraries[4] = {};
	for (uint32_t k = 0; k < 4; ++k) {
		VkGraphicsPipelineLibraryCreateInfoEXT library_info{
		    VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT};
		library_info.pNext = const_cast<void*>(pi.pNext);
		library_info.flags = subsets[k];
		// The pre-rasterization subset reads only the view mask of the
		// rendering info (and the validation layer of 1.3.239 wrongly asks it
		// for depth/stencil and blend states when formats are given).
		VkPipelineRenderingCreateInfo view_mask_only{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
		if (auto* rendering = static_cast<const VkPipelineRenderingCreateInfo*>(pi.pNext);
		    rendering && rendering->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO &&
		    subsets[k] == VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) {
			view_mask_only.pNext = rendering->pNext;
			view_mask_only.viewMask = rendering->viewMask;
			library_info.pNext = &view_mask_only;
		}
		VkPipelineRenderingCreateInfo unread{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
		if (auto* rendering = static_cast<const VkPipelineRenderingCreateInfo*>(pi.pNext);
		    scene.library_unread_color_formats && rendering &&
		    rendering->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO &&
		    subsets[k] != VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) {
			unread = *rendering;
			unread.colorAttachmentCount = 2;
			unread.pColorAttachmentFormats = reinterpret_cast<const VkFormat*>(uintptr_t{0xdeadbeef});
			library_info.pNext = &unread;
		}
		VkGraphicsPipelineCreateInfo li = pi;
		li.pNext = &library_info;
		li.flags |= VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
		std::vector<VkPipelineShaderStageCreateInfo> stages;
		for (uint32_t i = 0; i < pi.stageCount; ++i) {
			if (subset_of(pi.pStages[i].stage) != subsets[k]) continue;
			VkPipelineShaderStageCreateInfo stage = pi.pStages[i];
			if (scene.library_inline_code) {
				code[i] = LoadCorpusShader(TESSERA_SHADER_DIR, shader_name(stage.stage));
				REQUIRE(!code[i].empty());
				module_infos[i] = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
				module_infos[i].codeSize = code[i].size() * 4;
				module_infos[i].pCode = code[i].data();
				stage.module = VK_NULL_HANDLE;
				stage.pNext = &module_infos[i];
			}
			stages.push_back(stage);
		}
		li.stageCount = uint32_t(stages.size());
		li.pStages = stages.empty() ? nullptr : stages.data();
		// Only the shader subsets use a layout.
		const bool shaders = subsets[k] & (VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
		                                   VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT);
		if (!shaders) li.layout = VK_NULL_HANDLE;
		REQUIRE(vkCreateGraphicsPipelines(device, scene.pipeline_cache, 1, &li, nullptr, &libraries[k]) == VK_SUCCESS);
	}
	VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR};
	link.libraryCount = 4;
	link.pLibraries = libraries;
	VkGraphicsPipelineCreateInfo linked{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	linked.pNext = &link;
	linked.flags = pi.flags;
	linked.layout = scene.library_link_without_layout ? VK_NULL_HANDLE : pi.layout;
	// Ignored (the link has no state of its own), but the validation layer
	// of 1.3.239 asks for them with dynamic rendering (VUID-...-06053/06054).
	linked.pDepthStencilState = pi.pDepthStencilState;
	linked.pColorBlendState = pi.pColorBlendState;
	VkPipeline pipeline = VK_NULL_HANDLE;
	REQUIRE(vkCreateGraphicsPipelines(device, scene.pipeline_cache, 1, &linked, nullptr, &pipeline) == VK_SUCCESS);
	if (scene.library_destroy_early)
		for (VkPipeline library : libraries) vkDestroyPipeline(device, library, nullptr);
	else
		kept.assign(std::begin(libraries), std::end(libraries));
	return pipeline;
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
	// Explicit multisampled attachments (resolved into the read-back
	// images), or implicit ones the driver makes for single-sampled images.
	const bool implicit = scene.samples != VK_SAMPLE_COUNT_1_BIT && scene.render_to_single_sampled;
	const bool msaa = scene.samples != VK_SAMPLE_COUNT_1_BIT && !implicit;
	const VkImageCreateFlags image_flags = implicit ? VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT : 0;
	const VkSampleCountFlagBits attachment_samples = msaa ? scene.samples : VK_SAMPLE_COUNT_1_BIT;
	const bool load = scene.load_op == VK_ATTACHMENT_LOAD_OP_LOAD;
	REQUIRE(!(load && msaa));
	REQUIRE(!(implicit && scene.input_attachment));
	const VkImageUsageFlags load_usage = load ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0;
	const DepthInfo depth_info = DepthFormatInfo(scene.depth_format);
	const bool has_ds = depth_info.depth || depth_info.stencil;

	// Attachments: the single-sample color images (read back), the
	// multisampled ones when msaa, and the depth/stencil image.
	std::vector<TestImage> colors, msaa_colors;
	std::vector<VkImageView> color_views, msaa_views;
	auto make_view = [&](VkImage image, VkFormat format, VkImageAspectFlags aspects) {
		VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		info.image = image;
		info.viewType = scene.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
		info.format = format;
		info.subresourceRange = {aspects, 0, 1, 0, scene.layers};
		VkImageView view;
		REQUIRE(vkCreateImageView(device, &info, nullptr, &view) == VK_SUCCESS);
		return view;
	};
	for (uint32_t i = 0; i < scene.color_attachments; ++i) {
		colors.push_back(ctx.CreateImage2D(scene.color_format, w, h,
		                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		                                       (scene.input_attachment ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0) |
		                                       load_usage,
		                                   1, scene.layers, image_flags));
		color_views.push_back(make_view(colors.back().image, scene.color_format, VK_IMAGE_ASPECT_COLOR_BIT));
		if (msaa) {
			VkImageCreateInfo info = colors.back().info;
			info.samples = scene.samples;
			info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
			             (scene.input_attachment ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0);
			msaa_colors.push_back(ctx.CreateImage(info));
			msaa_views.push_back(make_view(msaa_colors.back().image, scene.color_format, VK_IMAGE_ASPECT_COLOR_BIT));
		}
	}
	TestImage depth_image, depth_resolve_image;
	VkImageView depth_view = VK_NULL_HANDLE, depth_resolve_view = VK_NULL_HANDLE;
	const bool resolve_ds = has_ds && msaa && scene.resolve_depth_stencil;
	if (has_ds) {
		VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		info.imageType = VK_IMAGE_TYPE_2D;
		info.format = scene.depth_format;
		info.extent = {w, h, 1};
		info.mipLevels = 1;
		info.arrayLayers = scene.layers;
		info.flags = image_flags;
		info.samples = attachment_samples;
		info.tiling = VK_IMAGE_TILING_OPTIMAL;
		info.usage =
		    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | (msaa ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT) | load_usage;
		depth_image = ctx.CreateImage(info);
		depth_view = make_view(depth_image.image, scene.depth_format, Aspects(depth_info));
		if (resolve_ds) {
			info.samples = VK_SAMPLE_COUNT_1_BIT;
			info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
			depth_resolve_image = ctx.CreateImage(info);
			depth_resolve_view = make_view(depth_resolve_image.image, scene.depth_format, Aspects(depth_info));
		}
	}

	// Render pass and framebuffer (unless dynamic rendering).
	VkRenderPass pass = VK_NULL_HANDLE;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	std::vector<VkImageView> imageless_views;
	if (!scene.dynamic_rendering) {
		std::vector<VkAttachmentDescription> attachments;
		std::vector<VkAttachmentReference> color_refs, resolve_refs;
		std::vector<VkImageView> views;
		for (uint32_t i = 0; i < scene.color_attachments; ++i) {
			VkAttachmentDescription a{};
			a.format = scene.color_format;
			a.samples = attachment_samples;
			a.loadOp = scene.load_op;
			a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
			a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
			a.initialLayout = load ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
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
		VkAttachmentReference depth_ref{}, depth_resolve_ref{};
		if (has_ds) {
			VkAttachmentDescription a{};
			a.format = scene.depth_format;
			a.samples = attachment_samples;
			a.loadOp = a.stencilLoadOp = scene.load_op;
			a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
			a.initialLayout = load ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
			a.finalLayout =
			    msaa ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
			depth_ref = {uint32_t(attachments.size()), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
			attachments.push_back(a);
			views.push_back(depth_view);
			if (resolve_ds) {
				a.samples = VK_SAMPLE_COUNT_1_BIT;
				a.loadOp = a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
				a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
				depth_resolve_ref = {uint32_t(attachments.size()), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
				attachments.push_back(a);
				views.push_back(depth_resolve_view);
			}
		}
		VkSubpassDescription subpass{};
		subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		subpass.colorAttachmentCount = uint32_t(color_refs.size());
		subpass.pColorAttachments = color_refs.data();
		subpass.pResolveAttachments = msaa ? resolve_refs.data() : nullptr;
		subpass.pDepthStencilAttachment = has_ds ? &depth_ref : nullptr;
		const uint32_t subpass_count = scene.second_subpass_draws.empty() ? 1 : 2;
		VkSubpassDescription subpasses[2] = {subpass, subpass};
		// Input attachment scenes: attachment 0 is written by the first
		// subpass and read by the second, which writes attachment 1.
		const VkAttachmentReference unused{VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_UNDEFINED};
		const VkAttachmentReference first_colors[2] = {color_refs[0], unused};
		const VkAttachmentReference second_colors[2] = {unused, color_refs[scene.color_attachments > 1 ? 1 : 0]};
		const VkAttachmentReference input_ref{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
		// With samples > 1 the first subpass resolves attachment 0 and the
		// second attachment 1; the input is the multisampled attachment 0.
		const VkAttachmentReference first_resolves[2] = {msaa ? resolve_refs[0] : unused, unused};
		const VkAttachmentReference second_resolves[2] = {unused, msaa ? resolve_refs.back() : unused};
		if (scene.input_attachment) {
			REQUIRE((scene.color_attachments == 2 && subpass_count == 2));
			subpasses[0].pColorAttachments = first_colors;
			subpasses[1].pColorAttachments = second_colors;
			if (msaa) {
				subpasses[0].pResolveAttachments = first_resolves;
				subpasses[1].pResolveAttachments = second_resolves;
			}
			subpasses[1].inputAttachmentCount = 1;
			subpasses[1].pInputAttachments = &input_ref;
		}
		// Between the subpasses: the second draws over the first's
		// attachment writes (color and depth/stencil, read and written).
		VkSubpassDependency dependencies[2] = {};
		VkSubpassDependency& between = dependencies[1];
		between.srcSubpass = 0;
		between.dstSubpass = 1;
		between.srcStageMask = between.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
		                                              VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
		                                              VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
		between.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
		between.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
		                        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
		                        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
		between.dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT;
		if (scene.input_attachment) {
			between.dstStageMask |= VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
			between.dstAccessMask |= VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
		}
		VkSubpassDependency& dependency = dependencies[0];
		dependency.srcSubpass = subpass_count - 1;
		dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
		dependency.srcStageMask =
		    VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
		dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
		dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
		dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		info.attachmentCount = uint32_t(attachments.size());
		info.pAttachments = attachments.data();
		info.subpassCount = subpass_count;
		info.pSubpasses = subpasses;
		info.dependencyCount = subpass_count;
		info.pDependencies = dependencies;
		if (resolve_ds || implicit) {
			// A depth/stencil resolve and multisampled rendering to
			// single-sampled attachments need vkCreateRenderPass2: the same
			// pass in the 2 structures, with
			// VkSubpassDescriptionDepthStencilResolve (for implicit images:
			// their resolve, VUID-VkSubpassDescription2-pNext-06871) and
			// VkMultisampledRenderToSingleSampledInfoEXT.
			auto ref2 = [](const VkAttachmentReference& r) {
				VkAttachmentReference2 o{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2};
				o.attachment = r.attachment;
				o.layout = r.layout;
				return o;
			};
			std::vector<VkAttachmentDescription2> attachments2;
			for (const VkAttachmentDescription& a : attachments) {
				VkAttachmentDescription2 d{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
				d.format = a.format;
				d.samples = a.samples;
				d.loadOp = a.loadOp;
				d.storeOp = a.storeOp;
				d.stencilLoadOp = a.stencilLoadOp;
				d.stencilStoreOp = a.stencilStoreOp;
				d.initialLayout = a.initialLayout;
				d.finalLayout = a.finalLayout;
				attachments2.push_back(d);
			}
			std::vector<VkAttachmentReference2> colors2, resolves2;
			for (const VkAttachmentReference& r : color_refs) colors2.push_back(ref2(r));
			for (const VkAttachmentReference& r : resolve_refs) resolves2.push_back(ref2(r));
			const VkAttachmentReference2 depth2 = ref2(depth_ref), depth_resolve2 = ref2(depth_resolve_ref);
			VkSubpassDescriptionDepthStencilResolve ds_resolve{
			    VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
			ds_resolve.depthResolveMode = scene.depth_resolve_mode;
			ds_resolve.stencilResolveMode = scene.stencil_resolve_mode;
			ds_resolve.pDepthStencilResolveAttachment = resolve_ds ? &depth_resolve2 : nullptr;
			VkMultisampledRenderToSingleSampledInfoEXT single_sampled{
			    VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT};
			single_sampled.multisampledRenderToSingleSampledEnable = VK_TRUE;
			single_sampled.rasterizationSamples = scene.samples;
			ds_resolve.pNext = implicit ? &single_sampled : nullptr;
			std::vector<VkSubpassDescription2> subpasses2(subpass_count, {VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2});
			for (VkSubpassDescription2& sp : subpasses2) {
				sp.pNext = has_ds ? static_cast<const void*>(&ds_resolve) : &single_sampled;
				sp.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
				sp.colorAttachmentCount = uint32_t(colors2.size());
				sp.pColorAttachments = colors2.data();
				sp.pResolveAttachments = resolves2.empty() ? nullptr : resolves2.data();
				sp.pDepthStencilAttachment = has_ds ? &depth2 : nullptr;
			}
			std::vector<VkSubpassDependency2> dependencies2;
			for (uint32_t i = 0; i < subpass_count; ++i) {
				const VkSubpassDependency& d = dependencies[i];
				VkSubpassDependency2 d2{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
				d2.srcSubpass = d.srcSubpass;
				d2.dstSubpass = d.dstSubpass;
				d2.srcStageMask = d.srcStageMask;
				d2.dstStageMask = d.dstStageMask;
				d2.srcAccessMask = d.srcAccessMask;
				d2.dstAccessMask = d.dstAccessMask;
				d2.dependencyFlags = d.dependencyFlags;
				dependencies2.push_back(d2);
			}
			VkRenderPassCreateInfo2 info2{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
			info2.attachmentCount = uint32_t(attachments2.size());
			info2.pAttachments = attachments2.data();
			info2.subpassCount = subpass_count;
			info2.pSubpasses = subpasses2.data();
			info2.dependencyCount = uint32_t(dependencies2.size());
			info2.pDependencies = dependencies2.data();
			REQUIRE(vkCreateRenderPass2(device, &info2, nullptr, &pass) == VK_SUCCESS);
		} else {
			REQUIRE(vkCreateRenderPass(device, &info, nullptr, &pass) == VK_SUCCESS);
		}
		VkFramebufferCreateInfo fbi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fbi.renderPass = pass;
		fbi.attachmentCount = uint32_t(views.size());
		fbi.pAttachments = views.data();
		// Imageless (Vulkan 1.3 §8.3): the framebuffer knows each
		// attachment's usage, size and format; the views come at begin.
		std::vector<VkFramebufferAttachmentImageInfo> image_infos;
		for (const VkAttachmentDescription& a : attachments) {
			VkFramebufferAttachmentImageInfo ii{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO};
			const bool is_ds = a.format == scene.depth_format;
			// As the images were made: single-sample ones are also read back.
			ii.usage = (is_ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
			           (a.samples == VK_SAMPLE_COUNT_1_BIT ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
			ii.width = w;
			ii.height = h;
			ii.layerCount = scene.layers;
			ii.viewFormatCount = 1;
			ii.pViewFormats = &a.format;
			image_infos.push_back(ii);
		}
		VkFramebufferAttachmentsCreateInfo attachments_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
		attachments_info.attachmentImageInfoCount = uint32_t(image_infos.size());
		attachments_info.pAttachmentImageInfos = image_infos.data();
		if (scene.imageless_framebuffer) {
			fbi.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
			fbi.pNext = &attachments_info;
			fbi.pAttachments = nullptr;
			imageless_views = views;
		}
		fbi.width = w;
		fbi.height = h;
		fbi.layers = scene.layers;
		REQUIRE(vkCreateFramebuffer(device, &fbi, nullptr, &framebuffer) == VK_SUCCESS);
	}

	// Pipeline layout: push constants, and a set with an optional uniform
	// buffer (binding 0) and an optional storage buffer (binding 1).
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	VkDescriptorPool pool = VK_NULL_HANDLE;
	VkDescriptorSet set = VK_NULL_HANDLE;
	TestBuffer uniform, storage;
	TestImage texture_image, storage_image;
	VkImageView texture_view = VK_NULL_HANDLE, storage_view = VK_NULL_HANDLE;
	VkSampler texture_sampler = VK_NULL_HANDLE;
	VkImageAspectFlags texture_aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	TestBuffer texture_upload, storage_image_readback;
	const VkShaderStageFlags stages =
	    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
	    (scene.geometry_shader.empty() ? 0 : VK_SHADER_STAGE_GEOMETRY_BIT) |
	    (scene.tess_control_shader.empty()
	         ? 0
	         : VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);
	const bool has_texture = scene.texture.format != VK_FORMAT_UNDEFINED;
	const bool has_storage_image = scene.storage_image_format != VK_FORMAT_UNDEFINED;
	DescriptorBuffer descriptor_buffer;
	REQUIRE(!(scene.descriptor_buffer && scene.pipeline_libraries));
	const VkBufferUsageFlags address_usage = scene.descriptor_buffer ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0;
	if (!scene.uniform_data.empty() || !scene.storage_data.empty() || has_texture || has_storage_image ||
	    scene.input_attachment) {
		std::vector<VkDescriptorSetLayoutBinding> bindings;
		std::vector<VkDescriptorPoolSize> sizes;
		if (!scene.uniform_data.empty()) {
			bindings.push_back({0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, nullptr});
			sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1});
		}
		if (!scene.storage_data.empty()) {
			bindings.push_back({1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
			sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
		}
		if (has_texture) {
			bindings.push_back(
			    {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, scene.texture.array_count, stages, nullptr});
			sizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, scene.texture.array_count});
		}
		if (has_storage_image) {
			bindings.push_back({3, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, stages, nullptr});
			sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1});
		}
		if (scene.input_attachment) {
			bindings.push_back({4, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
			sizes.push_back({VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1});
		}
		VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		info.flags = scene.descriptor_buffer ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0;
		info.bindingCount = uint32_t(bindings.size());
		info.pBindings = bindings.data();
		REQUIRE(vkCreateDescriptorSetLayout(device, &info, nullptr, &set_layout) == VK_SUCCESS);
		if (scene.descriptor_buffer) {
			descriptor_buffer = DescriptorBuffer(ctx, set_layout);
		} else {
			VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
			pi.maxSets = 1;
			pi.poolSizeCount = uint32_t(sizes.size());
			pi.pPoolSizes = sizes.data();
			REQUIRE(vkCreateDescriptorPool(device, &pi, nullptr, &pool) == VK_SUCCESS);
			VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
			ai.descriptorPool = pool;
			ai.descriptorSetCount = 1;
			ai.pSetLayouts = &set_layout;
			REQUIRE(vkAllocateDescriptorSets(device, &ai, &set) == VK_SUCCESS);
		}
		auto write = [&](uint32_t binding, VkDescriptorType type, const TestBuffer& buffer) {
			if (scene.descriptor_buffer) {
				descriptor_buffer.PutBuffer(binding, 0, type, buffer.buffer, buffer.size);
				return;
			}
			VkDescriptorBufferInfo bi{buffer.buffer, 0, VK_WHOLE_SIZE};
			VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			w.dstSet = set;
			w.dstBinding = binding;
			w.descriptorCount = 1;
			w.descriptorType = type;
			w.pBufferInfo = &bi;
			vkUpdateDescriptorSets(device, 1, &w, 0, nullptr);
		};
		if (!scene.uniform_data.empty()) {
			uniform = UploadBuffer(ctx, scene.uniform_data, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | address_usage);
			write(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform);
		}
		if (!scene.storage_data.empty()) {
			storage = UploadBuffer(ctx, scene.storage_data, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | address_usage);
			write(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage);
		}
		auto write_image = [&](uint32_t binding, VkDescriptorType type, VkSampler sampler, VkImageView view,
		                       VkImageLayout layout, uint32_t count = 1) {
			if (scene.descriptor_buffer) {
				for (uint32_t e = 0; e < count; ++e)
					descriptor_buffer.PutImage(binding, e, type, {sampler, view, layout});
				return;
			}
			const std::vector<VkDescriptorImageInfo> ii(count, VkDescriptorImageInfo{sampler, view, layout});
			VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			w.dstSet = set;
			w.dstBinding = binding;
			w.descriptorCount = count;
			w.descriptorType = type;
			w.pImageInfo = ii.data();
			vkUpdateDescriptorSets(device, 1, &w, 0, nullptr);
		};
		if (has_texture) {
			const SceneTexture& t = scene.texture;
			const bool cube = t.view_type == VK_IMAGE_VIEW_TYPE_CUBE || t.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
			VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
			info.flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
			info.imageType = VK_IMAGE_TYPE_2D;
			info.format = t.format;
			info.extent = {t.width, t.height, 1};
			info.mipLevels = t.mips;
			info.arrayLayers = t.layers;
			info.samples = VK_SAMPLE_COUNT_1_BIT;
			info.tiling = VK_IMAGE_TILING_OPTIMAL;
			info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
			texture_image = ctx.CreateImage(info);
			const DepthInfo d = DepthFormatInfo(t.format);
			texture_aspect = (d.depth || d.stencil)
			                     ? (d.depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_STENCIL_BIT)
			                     : VK_IMAGE_ASPECT_COLOR_BIT;
			VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
			vi.image = texture_image.image;
			vi.viewType = t.view_type;
			vi.format = t.format;
			vi.subresourceRange = {texture_aspect, 0, t.mips, 0, t.layers};
			REQUIRE(vkCreateImageView(device, &vi, nullptr, &texture_view) == VK_SUCCESS);
			REQUIRE(vkCreateSampler(device, &t.sampler, nullptr, &texture_sampler) == VK_SUCCESS);
			texture_upload = UploadBuffer(ctx, t.data, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
			write_image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, texture_sampler, texture_view,
			            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, t.array_count);
		}
		if (has_storage_image) {
			storage_image = ctx.CreateImage2D(
			    scene.storage_image_format, w, h,
			    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
			VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
			vi.image = storage_image.image;
			vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
			vi.format = scene.storage_image_format;
			vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			REQUIRE(vkCreateImageView(device, &vi, nullptr, &storage_view) == VK_SUCCESS);
			write_image(3, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE, storage_view, VK_IMAGE_LAYOUT_GENERAL);
			storage_image_readback = ctx.CreateBuffer(VkDeviceSize(w) * h * FormatSize(scene.storage_image_format));
		}
		if (scene.input_attachment)
			write_image(4, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, VK_NULL_HANDLE, msaa ? msaa_views[0] : color_views[0],
			            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
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
	VkShaderModule second_fs =
	    scene.second_fragment_shader.empty() ? VK_NULL_HANDLE : LoadModule(ctx, scene.second_fragment_shader);
	VkShaderModule gs = scene.geometry_shader.empty() ? VK_NULL_HANDLE : LoadModule(ctx, scene.geometry_shader);
	VkShaderModule tcs =
	    scene.tess_control_shader.empty() ? VK_NULL_HANDLE : LoadModule(ctx, scene.tess_control_shader);
	VkShaderModule tes = scene.tess_eval_shader.empty() ? VK_NULL_HANDLE : LoadModule(ctx, scene.tess_eval_shader);
	// Vertex, then tessellation and geometry when given, then fragment
	// (shader_stages[fs_at]).
	VkPipelineShaderStageCreateInfo shader_stages[5] = {};
	uint32_t stage_count = 0;
	auto add_stage = [&](VkShaderStageFlagBits stage, VkShaderModule module) {
		shader_stages[stage_count] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
		shader_stages[stage_count].stage = stage;
		shader_stages[stage_count].module = module;
		shader_stages[stage_count].pName = "main";
		++stage_count;
	};
	add_stage(VK_SHADER_STAGE_VERTEX_BIT, vs);
	if (tcs) add_stage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, tcs);
	if (tes) add_stage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, tes);
	if (gs) add_stage(VK_SHADER_STAGE_GEOMETRY_BIT, gs);
	const uint32_t fs_at = stage_count;
	if (fs) add_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fs);

	std::vector<VkVertexInputBindingDescription> bindings;
	if (scene.vertex_stride) bindings.push_back({0, scene.vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX});
	if (!scene.instance_data.empty()) bindings.push_back({1, scene.instance_stride, VK_VERTEX_INPUT_RATE_INSTANCE});
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	vertex_input.vertexBindingDescriptionCount = uint32_t(bindings.size());
	vertex_input.pVertexBindingDescriptions = bindings.data();
	vertex_input.vertexAttributeDescriptionCount = uint32_t(scene.attributes.size());
	vertex_input.pVertexAttributeDescriptions = scene.attributes.data();
	vertex_input.pNext = state.vertex_input_next;

	VkViewport viewport = scene.viewport.width != 0 ? scene.viewport : VkViewport{0, 0, float(w), float(h), 0, 1};
	VkRect2D scissor = scene.scissor.extent.width != 0 ? scene.scissor : VkRect2D{{0, 0}, {w, h}};
	VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport_state.viewportCount = 1;
	viewport_state.pViewports = &viewport;
	viewport_state.scissorCount = 1;
	viewport_state.pScissors = &scissor;
	viewport_state.pNext = state.viewport_next;
	// With the *_WITH_COUNT dynamic states the counts come at draw time.
	for (VkDynamicState d : state.dynamic_states) {
		if (d == VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT) viewport_state.viewportCount = 0;
		if (d == VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT) viewport_state.scissorCount = 0;
	}
	VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dynamic.dynamicStateCount = uint32_t(state.dynamic_states.size());
	dynamic.pDynamicStates = state.dynamic_states.data();

	const std::vector<VkFormat> color_formats = state.color_formats.empty()
	                                                ? std::vector<VkFormat>(scene.color_attachments, scene.color_format)
	                                                : state.color_formats;
	VkPipelineRenderingCreateInfo rendering_info{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering_info.colorAttachmentCount = uint32_t(color_formats.size());
	rendering_info.pColorAttachmentFormats = color_formats.data();
	rendering_info.depthAttachmentFormat = depth_info.depth ? scene.depth_format : VK_FORMAT_UNDEFINED;
	rendering_info.stencilAttachmentFormat = depth_info.stencil ? scene.depth_format : VK_FORMAT_UNDEFINED;
	rendering_info.pNext = state.rendering_next;
	if (state.pipeline_next) {
		REQUIRE(!state.rendering_next);
		rendering_info.pNext = state.pipeline_next;
	}

	VkGraphicsPipelineCreateInfo pi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	pi.pNext = scene.dynamic_rendering ? &rendering_info : state.pipeline_next;
	pi.stageCount = stage_count;
	pi.pStages = shader_stages;
	pi.pVertexInputState = &vertex_input;
	pi.pInputAssemblyState = &state.input_assembly;
	VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
	tessellation.patchControlPoints = scene.patch_control_points;
	tessellation.pNext = state.tessellation_next;
	if (tcs && !state.null_tessellation_state) pi.pTessellationState = &tessellation;
	pi.pViewportState = &viewport_state;
	pi.pRasterizationState = state.null_rasterization_state ? nullptr : &state.rasterization;
	pi.pMultisampleState = &state.multisample;
	pi.pDepthStencilState = has_ds ? &state.depth_stencil : nullptr;
	pi.pColorBlendState = &state.color_blend;
	pi.pDynamicState = &dynamic;
	pi.layout = layout;
	pi.renderPass = pass;
	VkPipeline pipeline, second_pipeline = VK_NULL_HANDLE;
	std::vector<VkPipeline> libraries;
	pi.flags = scene.pipeline_flags | (scene.descriptor_buffer ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0);
	if (scene.pipeline_libraries) {
		REQUIRE(scene.second_subpass_draws.empty());
		pipeline = CreateFromLibraries(ctx, pi, scene, libraries);
	} else {
		REQUIRE(vkCreateGraphicsPipelines(device, scene.pipeline_cache, 1, &pi, nullptr, &pipeline) == VK_SUCCESS);
	}
	if (!scene.second_subpass_draws.empty()) {
		REQUIRE(!scene.dynamic_rendering);
		pi.subpass = 1;
		if (second_fs) shader_stages[fs_at].module = second_fs;
		REQUIRE(vkCreateGraphicsPipelines(device, scene.pipeline_cache, 1, &pi, nullptr, &second_pipeline) ==
		        VK_SUCCESS);
	}

	TestBuffer vertices, instances, indices, indirect;
	const VkBufferUsageFlags draw_address_usage =
	    scene.device_addresses ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0;
	if (!scene.indirect_data.empty())
		indirect = UploadBuffer(ctx, scene.indirect_data, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | draw_address_usage);
	if (!scene.vertices.empty())
		vertices = UploadBuffer(ctx, scene.vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | draw_address_usage);
	if (!scene.instance_data.empty())
		instances = UploadBuffer(ctx, scene.instance_data, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | draw_address_usage);
	if (!scene.indices.empty()) {
		std::vector<uint8_t> bytes;
		for (uint32_t i : scene.indices) {
			uint32_t size = scene.index_type == VK_INDEX_TYPE_UINT16      ? 2
			                : scene.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1
			                                                              : 4;
			bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&i), reinterpret_cast<uint8_t*>(&i) + size);
		}
		indices = UploadBuffer(ctx, bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | draw_address_usage);
	}

	// Readback buffers.
	const uint32_t color_size = FormatSize(scene.color_format);
	std::vector<TestBuffer> color_readback;
	for (uint32_t i = 0; i < scene.color_attachments; ++i)
		color_readback.push_back(ctx.CreateBuffer(VkDeviceSize(w) * h * scene.layers * color_size));
	TestBuffer depth_readback, stencil_readback;
	// The depth/stencil image read back: the attachment, or its resolve.
	const VkImage ds_source = resolve_ds ? depth_resolve_image.image : depth_image.image;
	if (depth_info.depth && (!msaa || resolve_ds))
		depth_readback = ctx.CreateBuffer(VkDeviceSize(w) * h * scene.layers * depth_info.depth_size);
	if (depth_info.stencil && (!msaa || resolve_ds))
		stencil_readback = ctx.CreateBuffer(VkDeviceSize(w) * h * scene.layers);

	ctx.Submit([&](VkCommandBuffer cb) {
		if (texture_image.image) {
			// Every level and layer from the upload buffer, tightly packed.
			const SceneTexture& t = scene.texture;
			const uint32_t texel = FormatSize(t.format);
			BarrierAll(cb, texture_image.image, texture_aspect, VK_IMAGE_LAYOUT_UNDEFINED,
			           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			std::vector<VkBufferImageCopy> regions;
			VkDeviceSize offset = 0;
			for (uint32_t level = 0; level < t.mips; ++level) {
				const uint32_t lw = std::max(1u, t.width >> level), lh = std::max(1u, t.height >> level);
				VkBufferImageCopy region{};
				region.bufferOffset = offset;
				region.imageSubresource = {texture_aspect, level, 0, t.layers};
				region.imageExtent = {lw, lh, 1};
				regions.push_back(region);
				offset += VkDeviceSize(lw) * lh * t.layers * texel;
			}
			REQUIRE(offset <= t.data.size());
			vkCmdCopyBufferToImage(cb, texture_upload.buffer, texture_image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                       uint32_t(regions.size()), regions.data());
			BarrierAll(cb, texture_image.image, texture_aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
		}
		if (storage_image.image) {
			Barrier(cb, storage_image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
			        VK_IMAGE_LAYOUT_GENERAL);
			const VkClearColorValue zero{};
			const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			vkCmdClearColorImage(cb, storage_image.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
			Barrier(cb, storage_image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
			        VK_IMAGE_LAYOUT_GENERAL);
		}
		if (load) {
			// The contents the attachments load: the clear values, written
			// outside the render pass.
			const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, scene.layers};
			for (const TestImage& image : colors) {
				Barrier(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
				        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &scene.clear_color, 1,
				                     &color_range);
				Barrier(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
			}
			if (has_ds) {
				const VkImageSubresourceRange ds_range{Aspects(depth_info), 0, 1, 0, scene.layers};
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_UNDEFINED,
				        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				vkCmdClearDepthStencilImage(cb, depth_image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				                            &scene.clear_depth_stencil, 1, &ds_range);
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
			}
		}
		std::vector<VkClearValue> clears;
		if (scene.dynamic_rendering) {
			const VkImageLayout from = load ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
			for (uint32_t i = 0; i < scene.color_attachments; ++i) {
				Barrier(cb, colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, from, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
				if (msaa)
					Barrier(cb, msaa_colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
					        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
			}
			if (has_ds && !load)
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_UNDEFINED,
				        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
			if (resolve_ds)
				Barrier(cb, depth_resolve_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_UNDEFINED,
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
				// An implicit image's resolve: its mode, no resolve view
				// (VUID-VkRenderingAttachmentInfo-imageView-06863).
				// The 1.3.239 validation layer checks the layer of the view
				// it does not have (VUID-VkRenderingAttachmentInfo-imageView-06136).
				if (implicit) {
					a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
					a.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
				}
				a.loadOp = scene.load_op;
				a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
				a.clearValue.color = scene.clear_color;
			}
			VkRenderingAttachmentInfo ds{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
			ds.imageView = depth_view;
			ds.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
			ds.loadOp = scene.load_op;
			ds.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			ds.clearValue.depthStencil = scene.clear_depth_stencil;
			if (implicit || resolve_ds) {
				ds.resolveMode = scene.depth_resolve_mode;
				ds.resolveImageView = resolve_ds ? depth_resolve_view : VK_NULL_HANDLE;
				ds.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
			}
			// The stencil aspect's own resolve mode.
			VkRenderingAttachmentInfo stencil = ds;
			if (implicit || resolve_ds) stencil.resolveMode = scene.stencil_resolve_mode;
			VkMultisampledRenderToSingleSampledInfoEXT single_sampled{
			    VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT};
			single_sampled.multisampledRenderToSingleSampledEnable = VK_TRUE;
			single_sampled.rasterizationSamples = scene.samples;
			VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
			ri.pNext = implicit ? &single_sampled : nullptr;
			ri.renderArea = {{0, 0}, {w, h}};
			ri.layerCount = scene.layers;
			ri.colorAttachmentCount = scene.color_attachments;
			ri.pColorAttachments = color_infos.data();
			ri.pDepthAttachment = depth_info.depth ? &ds : nullptr;
			ri.pStencilAttachment = depth_info.stencil ? &stencil : nullptr;
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
			VkRenderPassAttachmentBeginInfo attachment_begin{VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO};
			attachment_begin.attachmentCount = uint32_t(imageless_views.size());
			attachment_begin.pAttachments = imageless_views.data();
			VkRenderPassBeginInfo bi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
			if (scene.imageless_framebuffer) bi.pNext = &attachment_begin;
			bi.renderPass = pass;
			bi.framebuffer = framebuffer;
			bi.renderArea = {{0, 0}, {w, h}};
			bi.clearValueCount = uint32_t(clears.size());
			bi.pClearValues = clears.data();
			vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		}
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		if (set) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
		if (scene.descriptor_buffer && set_layout) descriptor_buffer.Bind(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout);
		if (!scene.push_constants.empty())
			vkCmdPushConstants(cb, layout, stages, 0, uint32_t(scene.push_constants.size()),
			                   scene.push_constants.data());
		VkDeviceSize zero = 0;
		if (vertices.buffer) vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &zero);
		if (instances.buffer) vkCmdBindVertexBuffers(cb, 1, 1, &instances.buffer, &zero);
		if (indices.buffer) vkCmdBindIndexBuffer(cb, indices.buffer, 0, scene.index_type);
		if (scene.before_draws) scene.before_draws(cb);
		auto draw_all = [&](const std::vector<DrawCall>& draws) {
			for (const DrawCall& d : draws) {
				if (indices.buffer)
					vkCmdDrawIndexed(cb, d.count, d.instances, d.first, d.vertex_offset, d.first_instance);
				else
					vkCmdDraw(cb, d.count, d.instances, d.first, d.first_instance);
			}
		};
		auto address = [&](const TestBuffer& b) -> VkDeviceAddress {
			if (!scene.device_addresses || !b.buffer) return 0;
			VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
			info.buffer = b.buffer;
			return vkGetBufferDeviceAddress(device, &info);
		};
		if (scene.record_draws)
			scene.record_draws(cb, {indirect.buffer, vertices.buffer, instances.buffer, indices.buffer, layout, stages,
			                        address(indirect), address(vertices), address(instances), address(indices)});
		else
			draw_all(scene.draws);
		if (second_pipeline) {
			vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, second_pipeline);
			if (!scene.second_push_constants.empty())
				vkCmdPushConstants(cb, layout, stages, 0, uint32_t(scene.second_push_constants.size()),
				                   scene.second_push_constants.data());
			draw_all(scene.second_subpass_draws);
		}
		if (scene.dynamic_rendering) {
			vkCmdEndRendering(cb);
			for (uint32_t i = 0; i < scene.color_attachments; ++i)
				Barrier(cb, colors[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
				        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			if (has_ds && !msaa)
				Barrier(cb, depth_image.image, Aspects(depth_info), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
				        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			if (resolve_ds)
				Barrier(cb, depth_resolve_image.image, Aspects(depth_info),
				        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		} else {
			vkCmdEndRenderPass(cb);
		}
		for (uint32_t i = 0; i < scene.color_attachments; ++i) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, scene.layers};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, colors[i].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, color_readback[i].buffer,
			                       1, &region);
		}
		if (depth_readback.buffer) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, scene.layers};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, ds_source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depth_readback.buffer, 1,
			                       &region);
		}
		if (stencil_readback.buffer) {
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, scene.layers};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, ds_source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stencil_readback.buffer, 1,
			                       &region);
		}
		if (storage_image.image) {
			Barrier(cb, storage_image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
			        VK_IMAGE_LAYOUT_GENERAL);
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageExtent = {w, h, 1};
			vkCmdCopyImageToBuffer(cb, storage_image.image, VK_IMAGE_LAYOUT_GENERAL, storage_image_readback.buffer, 1,
			                       &region);
		}
		ctx.TransferBarrier(cb);
		// Shader writes to the storage buffer, for the host.
		VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
		                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
	});

	SceneResult result;
	if (storage.buffer) result.storage.assign(storage.data, storage.data + scene.storage_data.size());
	if (storage_image_readback.buffer) {
		result.storage_image.assign(storage_image_readback.data,
		                            storage_image_readback.data + storage_image_readback.size);
		ctx.Destroy(storage_image_readback);
	}
	if (texture_upload.buffer) ctx.Destroy(texture_upload);
	if (texture_sampler) vkDestroySampler(device, texture_sampler, nullptr);
	if (texture_view) vkDestroyImageView(device, texture_view, nullptr);
	if (storage_view) vkDestroyImageView(device, storage_view, nullptr);
	if (texture_image.image) ctx.Destroy(texture_image);
	if (storage_image.image) ctx.Destroy(storage_image);
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
	if (second_pipeline) vkDestroyPipeline(device, second_pipeline, nullptr);
	for (VkPipeline library : libraries) vkDestroyPipeline(device, library, nullptr);
	vkDestroyShaderModule(device, vs, nullptr);
	if (fs) vkDestroyShaderModule(device, fs, nullptr);
	if (gs) vkDestroyShaderModule(device, gs, nullptr);
	if (tcs) vkDestroyShaderModule(device, tcs, nullptr);
	if (tes) vkDestroyShaderModule(device, tes, nullptr);
	if (second_fs) vkDestroyShaderModule(device, second_fs, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	if (pool) vkDestroyDescriptorPool(device, pool, nullptr);
	descriptor_buffer.Destroy();
	if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	for (TestBuffer* b : {&vertices, &instances, &indices, &uniform, &storage, &indirect})
		if (b->buffer) ctx.Destroy(*b);
	if (framebuffer) vkDestroyFramebuffer(device, framebuffer, nullptr);
	if (pass) vkDestroyRenderPass(device, pass, nullptr);
	for (VkImageView v : color_views) vkDestroyImageView(device, v, nullptr);
	for (VkImageView v : msaa_views) vkDestroyImageView(device, v, nullptr);
	if (depth_view) vkDestroyImageView(device, depth_view, nullptr);
	if (depth_resolve_view) vkDestroyImageView(device, depth_resolve_view, nullptr);
	if (depth_resolve_image.image) ctx.Destroy(depth_resolve_image);
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

SceneFeatures::SceneFeatures() {
	core.pNext = &v11;
	v11.pNext = &v12;
	v12.pNext = &v13;
	core.features.fullDrawIndexUint32 = VK_TRUE;
	core.features.independentBlend = VK_TRUE;
	core.features.logicOp = VK_TRUE;
	core.features.depthClamp = VK_TRUE;
	core.features.depthBiasClamp = VK_TRUE;
	core.features.multiDrawIndirect = VK_TRUE;
	core.features.drawIndirectFirstInstance = VK_TRUE;
	core.features.shaderClipDistance = VK_TRUE;
	core.features.shaderCullDistance = VK_TRUE;
	core.features.geometryShader = VK_TRUE;
	core.features.shaderTessellationAndGeometryPointSize = VK_TRUE;
	core.features.tessellationShader = VK_TRUE;
	core.features.fragmentStoresAndAtomics = VK_TRUE;
	core.features.fillModeNonSolid = VK_TRUE;
	core.features.wideLines = VK_TRUE;
	core.features.largePoints = VK_TRUE;
	core.features.alphaToOne = VK_TRUE;
	core.features.sampleRateShading = VK_TRUE;
	core.features.dualSrcBlend = VK_TRUE;
	core.features.vertexPipelineStoresAndAtomics = VK_TRUE;
	core.features.samplerAnisotropy = VK_TRUE;
	v11.shaderDrawParameters = VK_TRUE;
	v12.imagelessFramebuffer = VK_TRUE;
	v12.drawIndirectCount = VK_TRUE;
	v13.dynamicRendering = VK_TRUE;
	v13.shaderDemoteToHelperInvocation = VK_TRUE;
	v13.shaderTerminateInvocation = VK_TRUE;
	v13.pNext = &single_sampled;
	single_sampled.multisampledRenderToSingleSampled = VK_TRUE;
}

ContextOptions SceneFeatures::Options() const {
	ContextOptions options;
	options.device_features = &core;
	// stencil_export.frag, post_depth_coverage.frag
	options.device_extensions = {"VK_EXT_shader_stencil_export", "VK_EXT_post_depth_coverage",
	                             "VK_EXT_multisampled_render_to_single_sampled"};
	return options;
}

ContextOptions SceneFeatures::OptionsWith(void* feature, const char* extension) const {
	ContextOptions options = Options();
	static_cast<VkBaseOutStructure*>(feature)->pNext =
	    static_cast<VkBaseOutStructure*>(const_cast<void*>(options.device_features));
	options.device_features = feature;
	options.device_extensions.push_back(extension);
	return options;
}

SceneResult CompareSceneWithLavapipe(const std::string& name, const Scene& scene, int tolerance,
                                     uint32_t max_outliers) {
	SceneResult ours, reference;
	SceneFeatures features;
	const ContextOptions options = features.Options();
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
	CompareImages(name, scene.width, scene.height * scene.layers, ours.colors[0], reference.colors[0], tolerance,
	              max_outliers);
	return ours;
}

ScenePair::ScenePair() {
	tessera_ = Context::Create(Driver::Tessera, features_.Options());
	REQUIRE(tessera_);
	lavapipe_ = Context::Create(Driver::Lavapipe, features_.Options());
	REQUIRE(lavapipe_);
}

std::pair<SceneResult, SceneResult> ScenePair::Render(const Scene& scene) {
	std::pair<SceneResult, SceneResult> out;
	out.first = RenderScene(*tessera_, scene);
	out.second = RenderScene(*lavapipe_, scene);
	INFO((tessera_->validation_messages().empty() ? std::string() : tessera_->validation_messages().front()));
	CHECK(tessera_->validation_errors() == 0);
	INFO((lavapipe_->validation_messages().empty() ? std::string() : lavapipe_->validation_messages().front()));
	CHECK(lavapipe_->validation_errors() == 0);
	return out;
}

SceneResult ScenePair::Compare(const std::string& name, const Scene& scene, int tolerance, uint32_t max_outliers) {
	auto [ours, reference] = Render(scene);
	CompareImages(name, scene.width, scene.height * scene.layers, ours.colors[0], reference.colors[0], tolerance,
	              max_outliers);
	return ours;
}

}  // namespace tessera::test
