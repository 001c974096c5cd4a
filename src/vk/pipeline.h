// VkPipeline. A compute pipeline is its shader translated to the IR
// (spirv::Compile) plus the layout its descriptors are found through; a
// graphics pipeline is its vertex and fragment programs, their linked
// interface and its fixed-function state (graphics_state.h).
#pragma once

#include <memory>

#include "shader/ir.h"
#include "vk/graphics_state.h"
#include "vk/object.h"
#include "vk/pipeline_library.h"

namespace tessera::vk {

class Device;
class PipelineCache;
class PipelineLayout;

// Where compiled stages may come from, per vkCreate*Pipelines call.
struct StageCache {
	PipelineCache* cache = nullptr;  // the pipelineCache parameter, or none
	// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT: a stage not
	// in the cache is VK_PIPELINE_COMPILE_REQUIRED instead of compiled.
	bool fail_on_compile_required = false;
	// VkPipelineCreationFeedbackCreateInfo's per-stage array (Vulkan 1.3
	// §10.13 "Pipeline Creation Feedback"), indexed like pStages; none when
	// the application did not ask.
	VkPipelineCreationFeedback* stage_feedbacks = nullptr;
	uint32_t stage_feedback_count = 0;
	VkPipelineCreationFeedback* StageFeedback(uint32_t stage_index) const {
		return stage_index < stage_feedback_count ? &stage_feedbacks[stage_index] : nullptr;
	}
};

// Translates one shader stage to the IR, or reads it from the cache (a miss
// is compiled and inserted); on failure reports why (naming `what`) through
// the device's messengers.
// Runtime-sized descriptor arrays get their sizes from layout
// (spirv::LinkRuntimeDescriptorArrays).
// The stage's creation feedback, when given, is filled (VALID, the time it
// took, and whether the cache had it).
VkResult CompileStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage, shader::Stage kind,
                      const char* what, const StageCache& cache, const PipelineLayout& layout,
                      std::unique_ptr<shader::Program>& out, VkPipelineCreationFeedback* feedback = nullptr);

class Pipeline : public Object<Pipeline, VkPipeline, VK_OBJECT_TYPE_PIPELINE> {
public:
	Pipeline(VkPipelineBindPoint bind_point, PipelineLayout* layout);
	~Pipeline();

	// Compiles the compute stage; reports why through the device's messengers
	// on failure.
	VkResult InitCompute(const Device& device, const VkComputePipelineCreateInfo& info, const StageCache& cache);

	// Compiles and links the vertex and fragment stages and captures the
	// fixed-function state (graphics_pipeline.cpp); or, for a library
	// (VK_PIPELINE_CREATE_LIBRARY_BIT_KHR), compiles its stages and keeps its
	// state subsets for linking (pipeline_library.h).
	VkResult InitGraphics(const Device& device, const VkGraphicsPipelineCreateInfo& info, const StageCache& cache);

	// VK_EXT_shader_object (vk/shader_object.h): a compute shader's pipeline,
	// of its translated program; and the graphics pipeline that the shaders
	// bound at a draw link into, every state dynamic (as commands must set
	// it, Vulkan "Setting State"), drawing to whatever the render pass
	// instance binds.
	void InitComputeProgram(std::unique_ptr<shader::Program> program) { program_ = std::move(program); }
	VkResult InitLinkedShaders(const Device& device, const GraphicsLibrary& stages);

	VkPipelineBindPoint BindPoint() const { return bind_point_; }
	// Every pipeline that can be bound has one (a library may not).
	const PipelineLayout& Layout() const { return *layout_; }
	const shader::Program& ComputeProgram() const { return *program_; }
	const GraphicsPipeline& Graphics() const { return *graphics_; }
	// A library pipeline's state subsets; null for other pipelines.
	const GraphicsLibrary* Library() const { return library_.get(); }

private:
	// A complete graphics pipeline from `info`, whose stages are those of
	// `library` (when given) and info.pStages.
	VkResult BuildGraphics(const Device& device, const VkGraphicsPipelineCreateInfo& info,
	                       const AttachmentTargets& targets, const GraphicsLibrary* library, const StageCache& cache);

	VkPipelineBindPoint bind_point_;
	PipelineLayout* layout_;  // retained; may be null for a library
	std::unique_ptr<shader::Program> program_;
	std::unique_ptr<GraphicsPipeline> graphics_;
	std::unique_ptr<GraphicsLibrary> library_;  // a library pipeline's parts
};

}  // namespace tessera::vk
