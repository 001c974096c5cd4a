// VkIndirectExecutionSetEXT (VK_EXT_device_generated_commands): the
// pipelines an execution set token picks from by index. Tessera has no
// VK_EXT_shader_object, so sets of shader objects are refused at creation.
#pragma once

#include <vector>

#include "icd/vulkan_newer.h"
#include "vk/object.h"

namespace tessera::vk {

class Device;
class Pipeline;

class IndirectExecutionSet
    : public Object<IndirectExecutionSet, VkIndirectExecutionSetEXT, VK_OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT> {
public:
	// Index 0 holds the initial pipeline, the others none until
	// vkUpdateIndirectExecutionSetPipelineEXT writes them. Reports and
	// returns VK_ERROR_UNKNOWN for what Tessera cannot hold (shader objects,
	// no initial pipeline, a count past maxIndirectPipelineCount).
	VkResult Init(const Device& device, const VkIndirectExecutionSetCreateInfoEXT& info);

	// Writes out of range are dropped (reported by the caller).
	bool Write(uint32_t index, const Pipeline* pipeline);
	// The pipeline at index, or null (out of range, never written).
	const Pipeline* At(uint32_t index) const { return index < pipelines_.size() ? pipelines_[index] : nullptr; }

private:
	std::vector<const Pipeline*> pipelines_;
};

}  // namespace tessera::vk
