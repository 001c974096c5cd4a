#include "vk/pipeline_library.h"

#include <algorithm>
#include <cstring>

#include "icd/vulkan_newer.h"
#include "texture/format.h"
#include "vk/pipeline_layout.h"
#include "vk/render_pass.h"

namespace tessera::vk {

VkGraphicsPipelineLibraryFlagsEXT SubsetOfStage(VkShaderStageFlagBits stage) {
	switch (stage) {
	case VK_SHADER_STAGE_VERTEX_BIT:
	case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
	case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
	case VK_SHADER_STAGE_GEOMETRY_BIT: return VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
	case VK_SHADER_STAGE_FRAGMENT_BIT: return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
	default: return 0;
	}
}

// Vulkan "Graphics Pipeline Libraries" (the state subsets) names the state
// each dynamic state stands for; the dynamic state belongs to the subset
// that holds that state.
VkGraphicsPipelineLibraryFlagsEXT SubsetOfDynamicState(VkDynamicState state) {
	switch (state) {
	case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT:
	case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
	case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
	case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: return VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
	case VK_DYNAMIC_STATE_VIEWPORT:
	case VK_DYNAMIC_STATE_SCISSOR:
	case VK_DYNAMIC_STATE_LINE_WIDTH:
	case VK_DYNAMIC_STATE_DEPTH_BIAS:
	case VK_DYNAMIC_STATE_CULL_MODE:
	case VK_DYNAMIC_STATE_FRONT_FACE:
	case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT:
	case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT:
	case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE:
	case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE:
	case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT:
	case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT:
	case VK_DYNAMIC_STATE_POLYGON_MODE_EXT:
	case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT:
	case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT:
	case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT:
	case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT:
	case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT:
	case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT:
	case VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT:
	case VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT:
	case VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT:
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT:
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_ENABLE_EXT:
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT:
	case VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT:
	case VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT:
		return VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS:
	case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
	case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
	case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
	case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE:
	case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
	case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE:
	case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
	case VK_DYNAMIC_STATE_STENCIL_OP: return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
	case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
	case VK_DYNAMIC_STATE_LOGIC_OP_EXT:
	case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
	case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT:
	case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT:
	case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT:
	case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT:
	case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT:
	case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT:
	case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT:
	case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT:
	case VK_DYNAMIC_STATE_ATTACHMENT_FEEDBACK_LOOP_ENABLE_EXT:  // as the feedback loop flags
		return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
	default: return 0;
	}
}

AttachmentTargets FindTargets(const VkGraphicsPipelineCreateInfo& info, bool color_formats) {
	AttachmentTargets t;
	if (const RenderPass* pass = RenderPass::Cast(info.renderPass)) {
		const Subpass& subpass = pass->Subpasses()[info.subpass];
		t.color_count = uint32_t(std::min<size_t>(subpass.colors.size(), raster::kMaxColorAttachments));
		for (uint32_t i = 0; i < t.color_count; ++i) {
			uint32_t a = subpass.colors[i].attachment;
			t.colors[i] = a == VK_ATTACHMENT_UNUSED ? VK_FORMAT_UNDEFINED : pass->Attachments()[a].format;
		}
		uint32_t ds = subpass.depth_stencil.attachment;
		if (ds != VK_ATTACHMENT_UNUSED) {
			const texture::FormatInfo* f = texture::FindFormat(pass->Attachments()[ds].format);
			t.depth = f && f->HasDepth();
			t.stencil = f && f->HasStencil();
		}
		return t;
	}
	// Vulkan 1.3 §10.2: without a render pass, VkPipelineRenderingCreateInfo
	// (absent: no attachments at all). pColorAttachmentFormats need only be
	// valid with fragment output interface state (VkGraphicsPipelineCreateInfo
	// renderPass-06579): a library without it may pass anything there.
	if (auto* r =
	        FindInChain<VkPipelineRenderingCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)) {
		t.color_count = std::min(r->colorAttachmentCount, raster::kMaxColorAttachments);
		for (uint32_t i = 0; i < t.color_count && color_formats; ++i) t.colors[i] = r->pColorAttachmentFormats[i];
		t.depth = r->depthAttachmentFormat != VK_FORMAT_UNDEFINED;
		t.stencil = r->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
	}
	return t;
}

GraphicsStage ToGraphicsStage(VkShaderStageFlagBits stage, bool* known) {
	*known = true;
	switch (stage) {
	case VK_SHADER_STAGE_VERTEX_BIT: return GraphicsStage::kVertex;
	case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return GraphicsStage::kTessControl;
	case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return GraphicsStage::kTessEval;
	case VK_SHADER_STAGE_GEOMETRY_BIT: return GraphicsStage::kGeometry;
	case VK_SHADER_STAGE_FRAGMENT_BIT: return GraphicsStage::kFragment;
	default: *known = false; return GraphicsStage::kCount;
	}
}

GraphicsLibrary::GraphicsLibrary() {
	info_.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
	dynamic_.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
}

GraphicsLibrary::~GraphicsLibrary() {
	for (PipelineLayout* layout : layouts_) layout->Release();
}

template <typename T>
T* GraphicsLibrary::Keep(const T* source, size_t count) {
	if (!source || !count) return nullptr;
	auto bytes = std::make_unique<std::byte[]>(sizeof(T) * count);
	std::memcpy(bytes.get(), source, sizeof(T) * count);
	T* kept = reinterpret_cast<T*>(bytes.get());
	storage_.push_back(std::move(bytes));
	return kept;
}

namespace {

bool Lists(const VkPipelineDynamicStateCreateInfo* d, VkDynamicState state) {
	return d && std::find(d->pDynamicStates, d->pDynamicStates + d->dynamicStateCount, state) !=
	                d->pDynamicStates + d->dynamicStateCount;
}

}  // namespace

void GraphicsLibrary::AddState(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT subsets) {
	AddParts(info, subsets, FindTargets(info, subsets & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT),
	         false);
}

void GraphicsLibrary::AddParts(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT subsets,
                               const AttachmentTargets& targets, bool kept_parts) {
	if (!subsets) return;
	const VkPipelineDynamicStateCreateInfo* d = info.pDynamicState;
	auto dynamic = [&](VkDynamicState state) { return Lists(d, state); };
	// Each structure copied with only the extension structures Tessera reads
	// (graphics_pipeline.cpp), each of which holds no pointer unless copied
	// here with it.
	auto keep_one = [&]<typename T>(const void* chain, VkStructureType type, const T*) -> const void* {
		const T* s = FindInChain<T>(chain, type);
		if (!s) return nullptr;
		T* kept = Keep(s);
		kept->pNext = nullptr;
		return kept;
	};
	auto chain = [](std::initializer_list<const void*> parts) -> const void* {
		const VkBaseInStructure* head = nullptr;
		for (const void* p : parts)
			if (p) {
				auto* s = const_cast<VkBaseInStructure*>(static_cast<const VkBaseInStructure*>(p));
				s->pNext = head;
				head = s;
			}
		return head;
	};

	if (subsets & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) {
		// Vulkan "Graphics Pipeline Libraries": the vertex input state is
		// ignored with VK_DYNAMIC_STATE_VERTEX_INPUT_EXT.
		if (info.pVertexInputState && !dynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) {
			const VkPipelineVertexInputStateCreateInfo& vi = *info.pVertexInputState;
			VkPipelineVertexInputStateCreateInfo* kept = Keep(&vi);
			kept->pVertexBindingDescriptions = Keep(vi.pVertexBindingDescriptions, vi.vertexBindingDescriptionCount);
			kept->pVertexAttributeDescriptions =
			    Keep(vi.pVertexAttributeDescriptions, vi.vertexAttributeDescriptionCount);
			const void* divisors = nullptr;
			if (auto* div = FindInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
			        vi.pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)) {
				auto* k = Keep(div);
				k->pNext = nullptr;
				k->pVertexBindingDivisors = Keep(div->pVertexBindingDivisors, div->vertexBindingDivisorCount);
				divisors = k;
			}
			kept->pNext = divisors;
			info_.pVertexInputState = kept;
		}
		if (info.pInputAssemblyState) {
			VkPipelineInputAssemblyStateCreateInfo* kept = Keep(info.pInputAssemblyState);
			kept->pNext = nullptr;
			info_.pInputAssemblyState = kept;
		}
	}

	// A library's own flags (another library's merged info has none).
	if (!kept_parts && (info.flags & VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT)) {
		if (subsets & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT)
			pre_rasterization_view_from_device_ = true;
		if (subsets & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) fragment_view_from_device_ = true;
	}

	if (subsets & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) {
		if (info.pRasterizationState) {
			const VkPipelineRasterizationStateCreateInfo& rs = *info.pRasterizationState;
			VkPipelineRasterizationStateCreateInfo* kept = Keep(&rs);
			kept->pNext = chain({
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
			             static_cast<const VkPipelineRasterizationDepthClipStateCreateInfoEXT*>(nullptr)),
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT,
			             static_cast<const VkPipelineRasterizationLineStateCreateInfoEXT*>(nullptr)),
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT,
			             static_cast<const VkPipelineRasterizationStateStreamCreateInfoEXT*>(nullptr)),
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT,
			             static_cast<const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT*>(nullptr)),
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT,
			             static_cast<const VkPipelineRasterizationConservativeStateCreateInfoEXT*>(nullptr)),
			    keep_one(rs.pNext, VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT,
			             static_cast<const VkDepthBiasRepresentationInfoEXT*>(nullptr)),
			});
			info_.pRasterizationState = kept;
		}
		// The tessellation state is read only with tessellation stages (a
		// library's kept parts hold it only then).
		bool tessellation = kept_parts;
		for (uint32_t i = 0; i < info.stageCount; ++i)
			tessellation |= info.pStages[i].stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
		if (tessellation && info.pTessellationState) {
			VkPipelineTessellationStateCreateInfo* kept = Keep(info.pTessellationState);
			kept->pNext = keep_one(info.pTessellationState->pNext,
			                       VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO,
			                       static_cast<const VkPipelineTessellationDomainOriginStateCreateInfo*>(nullptr));
			info_.pTessellationState = kept;
		}
		// The viewport state is ignored when rasterization is statically
		// discarded, and its arrays when they are dynamic.
		const bool rasterizes = !(info.pRasterizationState && info.pRasterizationState->rasterizerDiscardEnable) ||
		                        dynamic(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
		if (rasterizes && info.pViewportState) {
			const VkPipelineViewportStateCreateInfo& vp = *info.pViewportState;
			VkPipelineViewportStateCreateInfo* kept = Keep(&vp);
			kept->pViewports = dynamic(VK_DYNAMIC_STATE_VIEWPORT) || dynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT)
			                       ? nullptr
			                       : Keep(vp.pViewports, vp.viewportCount);
			kept->pScissors = dynamic(VK_DYNAMIC_STATE_SCISSOR) || dynamic(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT)
			                      ? nullptr
			                      : Keep(vp.pScissors, vp.scissorCount);
			auto* clamp = static_cast<VkPipelineViewportDepthClampControlCreateInfoEXT*>(const_cast<void*>(
			    keep_one(vp.pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT,
			             static_cast<const VkPipelineViewportDepthClampControlCreateInfoEXT*>(nullptr))));
			// (The range is read only for USER_DEFINED_RANGE, and not when dynamic.)
			if (clamp)
				clamp->pDepthClampRange = clamp->depthClampMode == VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT &&
				                                  !dynamic(VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT)
				                              ? Keep(clamp->pDepthClampRange, 1)
				                              : nullptr;
			kept->pNext = chain({
			    keep_one(vp.pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT,
			             static_cast<const VkPipelineViewportDepthClipControlCreateInfoEXT*>(nullptr)),
			    clamp,
			});
			info_.pViewportState = kept;
		}
		// VK_EXT_discard_rectangles' structure (the create info's only one
		// Tessera keeps), its rectangles unless they are dynamic.
		if (auto* discard = static_cast<VkPipelineDiscardRectangleStateCreateInfoEXT*>(const_cast<void*>(
		        keep_one(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT,
		                 static_cast<const VkPipelineDiscardRectangleStateCreateInfoEXT*>(nullptr))))) {
			discard->pDiscardRectangles = dynamic(VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT)
			                                  ? nullptr
			                                  : Keep(discard->pDiscardRectangles, discard->discardRectangleCount);
			info_.pNext = discard;
		}
	}

	if (subsets & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) {
		// With a render pass, the depth/stencil state is ignored when the
		// subpass has no such attachment.
		const bool ds_ignored = info.renderPass != VK_NULL_HANDLE && !targets.depth && !targets.stencil;
		if (info.pDepthStencilState && !ds_ignored) {
			VkPipelineDepthStencilStateCreateInfo* kept = Keep(info.pDepthStencilState);
			kept->pNext = nullptr;
			info_.pDepthStencilState = kept;
		}
	}

	// The multisample state is part of the fragment shader state and of the
	// fragment output state (the two must agree); the output's is taken.
	const bool output = subsets & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
	if (info.pMultisampleState &&
	    (output || ((subsets & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) && !info_.pMultisampleState))) {
		const VkPipelineMultisampleStateCreateInfo& ms = *info.pMultisampleState;
		VkPipelineMultisampleStateCreateInfo* kept = Keep(&ms);
		kept->pNext = nullptr;
		kept->pSampleMask = Keep(ms.pSampleMask, (uint32_t(ms.rasterizationSamples) + 31) / 32);
		info_.pMultisampleState = kept;
	}

	if (output) {
		targets_ = targets;
		// Vulkan "Graphics Pipeline Libraries": the feedback loop flags are
		// part of the fragment output state.
		info_.flags |= info.flags & (VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT |
		                             VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT);
		if (info.pColorBlendState && targets_.color_count) {
			const VkPipelineColorBlendStateCreateInfo& cb = *info.pColorBlendState;
			VkPipelineColorBlendStateCreateInfo* kept = Keep(&cb);
			// pAttachments is ignored when enables, equations and write masks
			// are all dynamic (VK_EXT_extended_dynamic_state3).
			const bool attachments_dynamic = dynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) &&
			                                 dynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT) &&
			                                 dynamic(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
			kept->pAttachments = attachments_dynamic ? nullptr : Keep(cb.pAttachments, cb.attachmentCount);
			if (attachments_dynamic) kept->attachmentCount = 0;
			const void* enables = nullptr;
			if (auto* w = FindInChain<VkPipelineColorWriteCreateInfoEXT>(
			        cb.pNext, VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT);
			    w && !dynamic(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT)) {
				auto* k = Keep(w);
				k->pNext = nullptr;
				k->pColorWriteEnables = Keep(w->pColorWriteEnables, w->attachmentCount);
				enables = k;
			}
			kept->pNext = enables;
			info_.pColorBlendState = kept;
		}
	}

	// The dynamic states of the subsets taken (those of other subsets are
	// ignored, Vulkan "Graphics Pipeline Libraries").
	if (d)
		for (uint32_t i = 0; i < d->dynamicStateCount; ++i) {
			VkDynamicState state = d->pDynamicStates[i];
			if ((SubsetOfDynamicState(state) & subsets) &&
			    std::find(dynamic_states_.begin(), dynamic_states_.end(), state) == dynamic_states_.end())
				dynamic_states_.push_back(state);
		}
	dynamic_.dynamicStateCount = uint32_t(dynamic_states_.size());
	dynamic_.pDynamicStates = dynamic_states_.data();
	info_.pDynamicState = &dynamic_;
	subsets_ |= subsets;
}

void GraphicsLibrary::AddLibrary(const GraphicsLibrary& other) {
	// Its state is already copied, arrays and all, into a create info
	// without a render pass: the targets come with it.
	AddParts(other.info_, other.subsets_, other.targets_, true);
	pre_rasterization_view_from_device_ |= other.pre_rasterization_view_from_device_;
	fragment_view_from_device_ |= other.fragment_view_from_device_;
	for (size_t k = 0; k < size_t(GraphicsStage::kCount); ++k)
		if (other.programs_[k]) programs_[k] = other.programs_[k];
	for (PipelineLayout* layout : other.layouts_) AddLayout(layout);
}

void GraphicsLibrary::SetProgram(GraphicsStage stage, std::unique_ptr<shader::Program> program) {
	programs_[size_t(stage)] = std::move(program);
}

void GraphicsLibrary::SetProgram(GraphicsStage stage, std::shared_ptr<const shader::Program> program) {
	programs_[size_t(stage)] = std::move(program);
}

void GraphicsLibrary::AddLayout(PipelineLayout* layout) {
	if (!layout) return;
	layouts_.reserve(layouts_.size() + 1);
	layout->Retain();
	layouts_.push_back(layout);
}

}  // namespace tessera::vk
