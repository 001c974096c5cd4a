// vkCreateIndirectExecutionSetEXT, vkUpdateIndirectExecutionSet*EXT and
// vkDestroyIndirectExecutionSetEXT (Vulkan "Device-Generated Commands",
// Indirect Execution Sets).
#include "vk/indirect_execution_set.h"

#include "vk/device.h"
#include "vk/indirect_commands_layout.h"
#include "vk/pipeline.h"

namespace tessera::vk {

VkResult IndirectExecutionSet::Init(const Device& device, const VkIndirectExecutionSetCreateInfoEXT& info) {
	auto reject = [&](const char* why) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "vkCreateIndirectExecutionSetEXT: %s", why);
		return VK_ERROR_UNKNOWN;
	};
	if (info.type != VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT)
		return reject("execution sets hold pipelines only (maxIndirectShaderObjectCount is 0)");
	const VkIndirectExecutionSetPipelineInfoEXT* pipelines = info.info.pPipelineInfo;
	if (!pipelines || !pipelines->initialPipeline) return reject("an initial pipeline is required");
	if (pipelines->maxPipelineCount == 0 || pipelines->maxPipelineCount > kMaxIndirectPipelineCount)
		return reject("maxPipelineCount must be 1 to maxIndirectPipelineCount");
	pipelines_.assign(pipelines->maxPipelineCount, nullptr);
	pipelines_[0] = Pipeline::Cast(pipelines->initialPipeline);
	return VK_SUCCESS;
}

bool IndirectExecutionSet::Write(uint32_t index, const Pipeline* pipeline) {
	if (index >= pipelines_.size()) return false;
	pipelines_[index] = pipeline;
	return true;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::IndirectExecutionSet;

VKAPI_ATTR VkResult VKAPI_CALL CreateIndirectExecutionSetEXT(VkDevice device,
                                                             const VkIndirectExecutionSetCreateInfoEXT* pCreateInfo,
                                                             const VkAllocationCallbacks* pAllocator,
                                                             VkIndirectExecutionSetEXT* pIndirectExecutionSet) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	auto* set = vk::New<IndirectExecutionSet>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!set) return VK_ERROR_OUT_OF_HOST_MEMORY;
	VkResult result;
	try {
		result = set->Init(*self, *pCreateInfo);
	} catch (const std::bad_alloc&) {
		result = VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	if (result != VK_SUCCESS) {
		vk::Delete(allocator, set);
		return result;
	}
	*pIndirectExecutionSet = set->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyIndirectExecutionSetEXT(VkDevice device,
                                                          VkIndirectExecutionSetEXT indirectExecutionSet,
                                                          const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), IndirectExecutionSet::Cast(indirectExecutionSet));
}

// Valid use keeps the set out of pending command buffers while it changes,
// so commands read the slots when they execute without a lock.
VKAPI_ATTR void VKAPI_CALL UpdateIndirectExecutionSetPipelineEXT(
    VkDevice device, VkIndirectExecutionSetEXT indirectExecutionSet, uint32_t executionSetWriteCount,
    const VkWriteIndirectExecutionSetPipelineEXT* pExecutionSetWrites) {
	IndirectExecutionSet* set = IndirectExecutionSet::Cast(indirectExecutionSet);
	for (uint32_t i = 0; i < executionSetWriteCount; ++i) {
		const VkWriteIndirectExecutionSetPipelineEXT& write = pExecutionSetWrites[i];
		if (!set->Write(write.index, vk::Pipeline::Cast(write.pipeline)))
			Device::Cast(device)->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
			                             VK_OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT, uint64_t(indirectExecutionSet),
			                             "vkUpdateIndirectExecutionSetPipelineEXT: index %u is past the set's "
			                             "maxPipelineCount; write dropped",
			                             write.index);
	}
}

// Sets of shader objects cannot be created (maxIndirectShaderObjectCount is
// 0), so valid use never gets here; the writes are dropped.
VKAPI_ATTR void VKAPI_CALL UpdateIndirectExecutionSetShaderEXT(VkDevice device, VkIndirectExecutionSetEXT,
                                                               uint32_t executionSetWriteCount,
                                                               const VkWriteIndirectExecutionSetShaderEXT*) {
	if (executionSetWriteCount)
		Device::Cast(device)->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		                             "vkUpdateIndirectExecutionSetShaderEXT: no execution set holds shader objects");
}

}  // namespace tessera::entry
