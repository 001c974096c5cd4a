// Graphics pipeline libraries (VK_EXT_graphics_pipeline_library, Vulkan
// "Graphics Pipeline Libraries"). A library pipeline holds some of the four
// state subsets of a graphics pipeline: vertex input, pre-rasterization
// shaders, fragment shader, fragment output. Its shader stages are
// translated when the library is made (the slow part); its fixed-function
// state is kept as a VkGraphicsPipelineCreateInfo whose pointers lead into
// storage the library owns, so that linking (vkCreateGraphicsPipelines with
// VkPipelineLibraryCreateInfoKHR) reads the merged state exactly as it reads
// a monolithic pipeline's create info.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "raster/state.h"
#include "shader/ir.h"
#include "vk/object.h"

namespace tessera::vk {

class PipelineLayout;

// The state subsets a graphics pipeline holds (all four for a monolithic one).
constexpr VkGraphicsPipelineLibraryFlagsEXT kAllGraphicsSubsets =
    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

// The subset that a shader stage or a dynamic state belongs to (Vulkan
// "Graphics Pipeline Libraries" lists each); 0 for none Tessera knows.
VkGraphicsPipelineLibraryFlagsEXT SubsetOfStage(VkShaderStageFlagBits stage);
VkGraphicsPipelineLibraryFlagsEXT SubsetOfDynamicState(VkDynamicState state);

// What the pipeline's subpass (or dynamic rendering) draws into: part of the
// fragment output state.
struct AttachmentTargets {
	uint32_t color_count = 0;
	VkFormat colors[raster::kMaxColorAttachments] = {};
	bool depth = false, stencil = false;
};
// color_formats: whether the pipeline has fragment output interface state,
// without which VkPipelineRenderingCreateInfo's color formats are not read
// (their pointer need not be valid).
AttachmentTargets FindTargets(const VkGraphicsPipelineCreateInfo& info, bool color_formats = true);

// The shader stages a graphics pipeline is made of, in the order
// GraphicsPipeline keeps them.
enum class GraphicsStage : uint32_t { kVertex, kTessControl, kTessEval, kGeometry, kFragment, kCount };
GraphicsStage ToGraphicsStage(VkShaderStageFlagBits stage, bool* known);

class GraphicsLibrary {
public:
	GraphicsLibrary();
	~GraphicsLibrary();
	GraphicsLibrary(const GraphicsLibrary&) = delete;
	GraphicsLibrary& operator=(const GraphicsLibrary&) = delete;

	// Takes the parts of `info` that belong to `subsets` (the pipeline's own
	// state; its shader stages are added with SetProgram), copying every
	// array and extension structure that Tessera reads. Throws
	// std::bad_alloc.
	void AddState(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT subsets);
	// Takes everything `other` holds (a library made from libraries).
	void AddLibrary(const GraphicsLibrary& other);
	void SetProgram(GraphicsStage stage, std::unique_ptr<shader::Program> program);
	void SetProgram(GraphicsStage stage, std::shared_ptr<const shader::Program> program);
	// The layout of the pre-rasterization or fragment shader subset (either
	// may be created with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT).
	void AddLayout(PipelineLayout* layout);

	VkGraphicsPipelineLibraryFlagsEXT Subsets() const { return subsets_; }
	// The merged create info: only the members of Subsets() are meaningful.
	const VkGraphicsPipelineCreateInfo& Info() const { return info_; }
	const AttachmentTargets& Targets() const { return targets_; }
	const shader::Program* Program(GraphicsStage stage) const { return programs_[size_t(stage)].get(); }
	const std::vector<PipelineLayout*>& Layouts() const { return layouts_; }
	// VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT on the part that
	// brought the pre-rasterization or the fragment shader stages: their
	// ViewIndex reads the device index.
	bool PreRasterizationViewFromDevice() const { return pre_rasterization_view_from_device_; }
	bool FragmentViewFromDevice() const { return fragment_view_from_device_; }

private:
	// AddState's work; `kept_parts` when `info` is another library's Info().
	void AddParts(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT subsets,
	              const AttachmentTargets& targets, bool kept_parts);
	// Copies `count` elements into storage that lives as long as the library.
	template <typename T>
	T* Keep(const T* source, size_t count = 1);

	VkGraphicsPipelineLibraryFlagsEXT subsets_ = 0;
	VkGraphicsPipelineCreateInfo info_{};
	AttachmentTargets targets_;
	std::vector<VkDynamicState> dynamic_states_;
	VkPipelineDynamicStateCreateInfo dynamic_{};
	std::shared_ptr<const shader::Program> programs_[size_t(GraphicsStage::kCount)];
	std::vector<PipelineLayout*> layouts_;  // retained
	bool pre_rasterization_view_from_device_ = false, fragment_view_from_device_ = false;
	std::deque<std::unique_ptr<std::byte[]>> storage_;
};

}  // namespace tessera::vk
