#include "vk/pipeline.h"

#include <chrono>
#include <type_traits>
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

// Translates one stage to the IR; reports why through the device's
// messengers on failure (Vulkan 1.3 §3.6: VK_ERROR_UNKNOWN for input that
// valid use of the features Tessera reports cannot produce).
VkResult CompileStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage, shader::Stage kind,
                      const char* what, std::unique_ptr<shader::Program>& out) {
	const ShaderModule* module = ShaderModule::Cast(stage.module);
	if (!module) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "%s: no shader module (inline VkShaderModuleCreateInfo is not supported)", what);
		return VK_ERROR_UNKNOWN;
	}
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
		auto compiled = spirv::Compile(module->Words(), kind, stage.pName, specialization, options);
		if (!compiled) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_SHADER_MODULE,
			              uint64_t(stage.module), "%s: %s", what, compiled.error().message.c_str());
			return VK_ERROR_UNKNOWN;
		}
		out = std::make_unique<shader::Program>(std::move(compiled.value()));
		TESSERA_LOG(Debug, "%s: stage compiled in %.3f ms", what,
		            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VkResult Pipeline::InitCompute(const Device& device, const VkComputePipelineCreateInfo& info) {
	return CompileStage(device, info.stage, shader::Stage::kCompute, "vkCreateComputePipelines", program_);
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Pipeline;

namespace {

// Vulkan 1.3 §10.1: every pipeline that cannot be created is
// VK_NULL_HANDLE; the others are still created, unless
// EARLY_RETURN_ON_FAILURE stops at the first failure.
template <typename CreateInfo>
VkResult CreatePipelines(VkDevice device, VkPipelineBindPoint bind_point, uint32_t count, const CreateInfo* infos,
                         const VkAllocationCallbacks* pAllocator, VkPipeline* pipelines) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	VkResult result = VK_SUCCESS;
	for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < count; ++i) {
		// Vulkan 1.3 pipelineCreationCacheControl: Tessera always compiles
		// (its pipeline cache holds no compiled code), so an application that
		// asks not to wait for compilation gets VK_PIPELINE_COMPILE_REQUIRED.
		if (infos[i].flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
			result = VK_PIPELINE_COMPILE_REQUIRED;
			if (infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
			continue;
		}
		auto* pipeline = vk::New<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, bind_point,
		                                   vk::PipelineLayout::Cast(infos[i].layout));
		if (!pipeline) {
			result = VK_ERROR_OUT_OF_HOST_MEMORY;
			continue;
		}
		VkResult r;
		if constexpr (std::is_same_v<CreateInfo, VkComputePipelineCreateInfo>)
			r = pipeline->InitCompute(*self, infos[i]);
		else
			r = pipeline->InitGraphics(*self, infos[i]);
		if (r != VK_SUCCESS) {
			vk::Delete(allocator, pipeline);
			result = r;
			if (infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
			continue;
		}
		pipelines[i] = pipeline->ToHandle();
	}
	return result;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache, uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
	return CreatePipelines(device, VK_PIPELINE_BIND_POINT_COMPUTE, createInfoCount, pCreateInfos, pAllocator,
	                       pPipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache, uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines) {
	return CreatePipelines(device, VK_PIPELINE_BIND_POINT_GRAPHICS, createInfoCount, pCreateInfos, pAllocator,
	                       pPipelines);
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Pipeline::Cast(pipeline));
}

}  // namespace tessera::entry
