// VkPipeline. A compute pipeline is its shader translated to the IR
// (spirv::Compile) plus the layout its descriptors are found through.
// Graphics pipelines arrive with the rasterizer.
#pragma once

#include <memory>

#include "shader/ir.h"
#include "vk/object.h"

namespace tessera::vk {

class Device;
class PipelineLayout;

class Pipeline : public Object<Pipeline, VkPipeline, VK_OBJECT_TYPE_PIPELINE> {
public:
	Pipeline(VkPipelineBindPoint bind_point, PipelineLayout* layout);
	~Pipeline();

	// Compiles the compute stage; reports why through the device's messengers
	// on failure.
	VkResult InitCompute(const Device& device, const VkComputePipelineCreateInfo& info);

	VkPipelineBindPoint BindPoint() const { return bind_point_; }
	const PipelineLayout& Layout() const { return *layout_; }
	const shader::Program& ComputeProgram() const { return *program_; }

private:
	VkPipelineBindPoint bind_point_;
	PipelineLayout* layout_;  // retained
	std::unique_ptr<shader::Program> program_;
};

}  // namespace tessera::vk
