#include "vk/pipeline.h"

#include <chrono>
#include <vector>

#include "runtime/log.h"
#include "spirv/compile.h"
#include "vk/device.h"
#include "vk/pipeline_layout.h"
#include "vk/shader_module.h"

namespace tessera::vk {

Pipeline::Pipeline(VkPipelineBindPoint bind_point, PipelineLayout* layout) : bind_point_(bind_point), layout_(layout) {
	layout_->Retain();
}

Pipeline::~Pipeline() { layout_->Release(); }

VkResult Pipeline::InitCompute(const Device& device, const VkComputePipelineCreateInfo& info) {
	const VkPipelineShaderStageCreateInfo& stage = info.stage;
	const ShaderModule* module = ShaderModule::Cast(stage.module);
	try {
		std::vector<spirv::SpecializationEntry> entries;
		spirv::Specialization specialization;
		if (const VkSpecializationInfo* s = stage.pSpecializationInfo) {
			for (uint32_t i = 0; i < s->mapEntryCount; ++i)
				entries.push_back(
				    {s->pMapEntries[i].constantID, s->pMapEntries[i].offset, uint32_t(s->pMapEntries[i].size)});
			specialization.entries = entries;
			specialization.data = {static_cast<const uint8_t*>(s->pData), s->dataSize};
		}
		auto start = std::chrono::steady_clock::now();
		spirv::CompileOptions options;
		options.validated = true;  // vkCreateShaderModule validated the words
		auto compiled = spirv::Compile(module->Words(), spirv::Stage::kCompute, stage.pName, specialization, options);
		if (!compiled) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_SHADER_MODULE,
			              uint64_t(stage.module), "vkCreateComputePipelines: %s", compiled.error().message.c_str());
			// Vulkan 1.3 §3.6: VK_ERROR_UNKNOWN for input that valid use of
			// the features Tessera reports cannot produce.
			return VK_ERROR_UNKNOWN;
		}
		program_ = std::make_unique<shader::Program>(std::move(compiled.value()));
		TESSERA_LOG(Debug, "compute pipeline compiled in %.3f ms",
		            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Pipeline;

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache, uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	VkResult result = VK_SUCCESS;
	// Vulkan 1.3 §10.1: every pipeline that cannot be created is
	// VK_NULL_HANDLE; the others are still created.
	for (uint32_t i = 0; i < createInfoCount; ++i) pPipelines[i] = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < createInfoCount; ++i) {
		// Vulkan 1.3 pipelineCreationCacheControl: Tessera always compiles
		// (its pipeline cache holds no compiled code), so an application that
		// asks not to wait for compilation gets VK_PIPELINE_COMPILE_REQUIRED.
		if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
			result = VK_PIPELINE_COMPILE_REQUIRED;
			if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
			continue;
		}
		auto* pipeline = vk::New<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, VK_PIPELINE_BIND_POINT_COMPUTE,
		                                   vk::PipelineLayout::Cast(pCreateInfos[i].layout));
		if (!pipeline) {
			result = VK_ERROR_OUT_OF_HOST_MEMORY;
			continue;
		}
		if (VkResult r = pipeline->InitCompute(*self, pCreateInfos[i]); r != VK_SUCCESS) {
			vk::Delete(allocator, pipeline);
			result = r;
			if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
			continue;
		}
		pPipelines[i] = pipeline->ToHandle();
	}
	return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Pipeline::Cast(pipeline));
}

}  // namespace tessera::entry
