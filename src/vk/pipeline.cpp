#include "vk/pipeline.h"

#include <bit>
#include <chrono>
#include <cstring>
#include <type_traits>
#include <vector>

#include "runtime/build_id.h"
#include "runtime/byte_lru.h"
#include "runtime/log.h"
#include "runtime/sha256.h"
#include "shader/program_serialize.h"
#include "spirv/compile.h"
#include "vk/device.h"
#include "vk/pipeline_cache.h"
#include "vk/pipeline_layout.h"
#include "vk/shader_module.h"

namespace tessera::vk {

Pipeline::Pipeline(VkPipelineBindPoint bind_point, PipelineLayout* layout) : bind_point_(bind_point), layout_(layout) {
	if (layout_) layout_->Retain();
}

Pipeline::~Pipeline() {
	if (layout_) layout_->Release();
}

namespace {

// The cache key of a stage: SHA-256 of everything spirv::Compile reads
// (the words, the stage, the entry point, the specialization map and data)
// and the program format version, each length-prefixed so that no two
// different inputs hash the same bytes. A new input to spirv::Compile (an
// option, a device feature) must be hashed here too.
std::string StageKey(const std::vector<uint32_t>& words, shader::Stage kind, const char* entry_point,
                     const VkSpecializationInfo* specialization) {
	Sha256 hash;
	hash.UpdateU32(shader::kProgramFormatVersion);
	const std::vector<uint8_t>& build = runtime::OwnBuildId();
	hash.UpdateU32(uint32_t(build.size()));
	hash.Update(build.data(), build.size());
	hash.UpdateU32(uint32_t(kind));
	size_t name_size = std::strlen(entry_point);
	hash.UpdateU32(uint32_t(name_size));
	hash.Update(entry_point, name_size);
	const VkSpecializationInfo empty{};
	const VkSpecializationInfo& s = specialization ? *specialization : empty;
	hash.UpdateU32(s.mapEntryCount);
	for (uint32_t i = 0; i < s.mapEntryCount; ++i) {
		hash.UpdateU32(s.pMapEntries[i].constantID);
		hash.UpdateU32(s.pMapEntries[i].offset);
		hash.UpdateU32(uint32_t(s.pMapEntries[i].size));
	}
	hash.UpdateU32(uint32_t(s.dataSize));
	if (s.dataSize) hash.Update(s.pData, s.dataSize);
	hash.UpdateU32(uint32_t(words.size()));
	// The words as little-endian bytes: on this little-endian host, as stored.
	static_assert(std::endian::native == std::endian::little);
	hash.Update(words.data(), words.size() * sizeof(uint32_t));
	Sha256Digest digest = hash.Finish();
	return std::string(digest.begin(), digest.end());
}

// Stages translated in this process, whichever pipeline cache (or none) the
// application passed: a pipeline made again (test suites do, test after
// test) skips SPIRV-Tools and the translation, about 0.6 ms a stage. Values
// are program_serialize bytes under StageKey, within kRecentStageBytes.
constexpr size_t kRecentStageBytes = size_t(16) << 20;
runtime::ByteLru& RecentStages() {
	static runtime::ByteLru stages(kRecentStageBytes);
	return stages;
}

}  // namespace

namespace {

// The stage's program as translated (from the cache or compiled). Vulkan 1.3
// §3.6: VK_ERROR_UNKNOWN for input that valid use of the features Tessera
// reports cannot produce.
VkResult CompileUnlinked(const Device& device, const VkPipelineShaderStageCreateInfo& stage, shader::Stage kind,
                         const char* what, const StageCache& cache, std::unique_ptr<shader::Program>& out,
                         bool* cache_hit) {
	const ShaderModule* module = ShaderModule::Cast(stage.module);
	// VK_EXT_graphics_pipeline_library: without a module, the stage's code
	// is a VkShaderModuleCreateInfo in its pNext chain, checked as
	// vkCreateShaderModule checks it when it must be translated (code
	// translated before was valid).
	ShaderModule inline_module;
	if (!module) {
		auto* code = FindInChain<VkShaderModuleCreateInfo>(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
		if (!code) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
			              "%s: a stage has neither a shader module nor a VkShaderModuleCreateInfo", what);
			return VK_ERROR_UNKNOWN;
		}
		if (VkResult r = inline_module.Init(device, *code, false); r != VK_SUCCESS) return r;
		module = &inline_module;
	}
	try {
		auto start = std::chrono::steady_clock::now();
		const std::string key = StageKey(module->Words(), kind, stage.pName, stage.pSpecializationInfo);
		if (cache.cache) {
			std::string value;
			auto program = std::make_unique<shader::Program>();
			// A corrupted entry (from an application's file) is a miss.
			if (cache.cache->Find(key, &value) &&
			    shader::DeserializeProgram({reinterpret_cast<const uint8_t*>(value.data()), value.size()}, *program)) {
				out = std::move(program);
				*cache_hit = true;
				TESSERA_LOG(
				    Debug, "%s: stage read from the pipeline cache in %.3f ms", what,
				    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
				return VK_SUCCESS;
			}
		}
		// (Not for FAIL_ON_PIPELINE_COMPILE_REQUIRED: its answer stays what
		// the application's cache holds, whatever ran before in the process.)
		if (cache.fail_on_compile_required) return VK_PIPELINE_COMPILE_REQUIRED;
		if (std::shared_ptr<const std::string> value = RecentStages().Find(key)) {
			auto program = std::make_unique<shader::Program>();
			if (shader::DeserializeProgram({reinterpret_cast<const uint8_t*>(value->data()), value->size()},
			                               *program)) {
				out = std::move(program);
				if (cache.cache)
					if (VkResult r = cache.cache->Insert(key, *value); r != VK_SUCCESS) return r;
				TESSERA_LOG(
				    Debug, "%s: stage translated earlier in this process, taken in %.3f ms", what,
				    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
				return VK_SUCCESS;
			}
		}

		std::vector<spirv::SpecializationEntry> entries;
		spirv::Specialization specialization;
		if (const VkSpecializationInfo* s = stage.pSpecializationInfo) {
			for (uint32_t i = 0; i < s->mapEntryCount; ++i)
				entries.push_back(
				    {s->pMapEntries[i].constantID, s->pMapEntries[i].offset, uint32_t(s->pMapEntries[i].size)});
			specialization.entries = entries;
			specialization.data = {static_cast<const uint8_t*>(s->pData), s->dataSize};
		}
		if (module == &inline_module)
			if (VkResult r = inline_module.Validate(device); r != VK_SUCCESS) return r;
		spirv::CompileOptions options;
		options.validated = true;  // vkCreateShaderModule (or the lines above) validated the words
		auto compiled = spirv::Compile(module->Words(), kind, stage.pName, specialization, options);
		if (!compiled) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_SHADER_MODULE,
			              uint64_t(stage.module), "%s: %s", what, compiled.error().message.c_str());
			return VK_ERROR_UNKNOWN;
		}
		out = std::make_unique<shader::Program>(std::move(compiled.value()));
		const std::vector<uint8_t> bytes = shader::SerializeProgram(*out);
		std::string value(bytes.begin(), bytes.end());
		if (cache.cache)
			if (VkResult r = cache.cache->Insert(key, value); r != VK_SUCCESS) return r;
		RecentStages().Insert(key, std::move(value));
		TESSERA_LOG(Debug, "%s: stage compiled in %.3f ms", what,
		            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

}  // namespace

VkResult CompileStage(const Device& device, const VkPipelineShaderStageCreateInfo& stage, shader::Stage kind,
                      const char* what, const StageCache& cache, const PipelineLayout& layout,
                      std::unique_ptr<shader::Program>& out, VkPipelineCreationFeedback* feedback) {
	const auto start = std::chrono::steady_clock::now();
	bool cache_hit = false;
	VkResult result = CompileUnlinked(device, stage, kind, what, cache, out, &cache_hit);
	if (feedback) {
		feedback->flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
		                  (cache_hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0);
		feedback->duration = uint64_t(
		    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
	}
	if (result != VK_SUCCESS) return result;
	try {
		spirv::LinkRuntimeDescriptorArrays(*out, [&](uint32_t set, uint32_t binding) -> uint32_t {
			const DescriptorSetLayout* set_layout = set < layout.SetCount() ? layout.SetLayout(set) : nullptr;
			const DescriptorBinding* b = set_layout ? set_layout->Find(binding) : nullptr;
			return b ? b->count : 0;
		});
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VkResult Pipeline::InitCompute(const Device& device, const VkComputePipelineCreateInfo& info, const StageCache& cache) {
	return CompileStage(device, info.stage, shader::Stage::kCompute, "vkCreateComputePipelines", cache, Layout(),
	                    program_, cache.StageFeedback(0));
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Pipeline;

namespace {

// The union of the layouts of the libraries `info` links (null when it
// links none), created with one reference for the caller.
VkResult LinkedLayout(const VkGraphicsPipelineCreateInfo& info, const VkAllocationCallbacks* allocator,
                      vk::PipelineLayout** out) {
	*out = nullptr;
	auto* link =
	    vk::FindInChain<VkPipelineLibraryCreateInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
	if (!link) return VK_SUCCESS;
	std::vector<const vk::PipelineLayout*> layouts;
	try {
		for (uint32_t i = 0; i < link->libraryCount; ++i)
			if (const Pipeline* library = Pipeline::Cast(link->pLibraries[i]); library && library->Library())
				for (const vk::PipelineLayout* layout : library->Library()->Layouts()) layouts.push_back(layout);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	if (layouts.empty()) return VK_SUCCESS;
	auto* layout = vk::New<vk::PipelineLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
	if (!layout) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult r = layout->InitUnion(layouts); r != VK_SUCCESS) {
		layout->Release();
		return r;
	}
	*out = layout;
	return VK_SUCCESS;
}

// Vulkan 1.3 §10.1: every pipeline that cannot be created is
// VK_NULL_HANDLE; the others are still created, unless
// EARLY_RETURN_ON_FAILURE stops at the first failure.
template <typename CreateInfo>
VkResult CreatePipelines(VkDevice device, VkPipelineCache pipelineCache, VkPipelineBindPoint bind_point, uint32_t count,
                         const CreateInfo* infos, const VkAllocationCallbacks* pAllocator, VkPipeline* pipelines) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	VkResult result = VK_SUCCESS;
	for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < count; ++i) {
		// VK_KHR_maintenance5: VkPipelineCreateFlags2CreateInfoKHR's flags
		// replace the 32-bit ones. The 64-bit flags keep every 32-bit flag at
		// its bit, and none Tessera reads lies above bit 31, so the pipeline
		// is built from a copy that carries them in the 32-bit field.
		// VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT (bit 38) asks for
		// nothing: an execution set token binds any pipeline as
		// vkCmdBindPipeline does (vk/cmd_generated_commands.cpp).
		CreateInfo info = infos[i];
		if (auto* flags2 = vk::FindInChain<VkPipelineCreateFlags2CreateInfoKHR>(
		        info.pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR))
			info.flags = VkPipelineCreateFlags(flags2->flags & 0xffffffffu);
		// Vulkan 1.3 §10.1 (pipelineCreationCacheControl): with
		// FAIL_ON_PIPELINE_COMPILE_REQUIRED a pipeline whose stages are not
		// all in pipelineCache is VK_PIPELINE_COMPILE_REQUIRED, not compiled.
		const auto start = std::chrono::steady_clock::now();
		vk::StageCache cache;
		cache.cache = vk::PipelineCache::Cast(pipelineCache);
		cache.fail_on_compile_required = info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
		const VkPipelineCreationFeedbackCreateInfo* feedback = nullptr;
		for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
				feedback = reinterpret_cast<const VkPipelineCreationFeedbackCreateInfo*>(s);
		if (feedback) {
			*feedback->pPipelineCreationFeedback = {};
			cache.stage_feedbacks = feedback->pPipelineStageCreationFeedbacks;
			cache.stage_feedback_count = feedback->pipelineStageCreationFeedbackCount;
			for (uint32_t k = 0; k < cache.stage_feedback_count; ++k) cache.stage_feedbacks[k] = {};
		}
		vk::PipelineLayout* layout = vk::PipelineLayout::Cast(info.layout);
		vk::PipelineLayout* union_layout = nullptr;
		if constexpr (std::is_same_v<CreateInfo, VkGraphicsPipelineCreateInfo>) {
			// Vulkan "Graphics Pipeline Libraries": a pipeline linked from
			// libraries without a layout of its own takes the union of theirs.
			if (!layout && !(info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)) {
				VkResult r = LinkedLayout(info, allocator, &union_layout);
				if (r != VK_SUCCESS) {
					result = r;
					continue;
				}
				layout = union_layout;
			}
		}
		auto* pipeline = vk::New<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, bind_point, layout);
		if (union_layout) union_layout->Release();  // the pipeline holds it
		if (!pipeline) {
			result = VK_ERROR_OUT_OF_HOST_MEMORY;
			continue;
		}
		if (!layout && !(info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)) {
			self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
			             "vkCreate*Pipelines: a pipeline needs a layout (its own or its libraries')");
			vk::Delete(allocator, pipeline);
			result = VK_ERROR_UNKNOWN;
			continue;
		}
		VkResult r;
		if constexpr (std::is_same_v<CreateInfo, VkComputePipelineCreateInfo>)
			r = pipeline->InitCompute(*self, info, cache);
		else
			r = pipeline->InitGraphics(*self, info, cache);
		if (r != VK_SUCCESS) {
			vk::Delete(allocator, pipeline);
			result = r;
			if (info.flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
			continue;
		}
		pipelines[i] = pipeline->ToHandle();
		if (feedback) {
			// §10.13: the pipeline came from the cache when every stage did.
			bool all_hit = cache.stage_feedback_count > 0;
			for (uint32_t k = 0; k < cache.stage_feedback_count; ++k)
				all_hit &= (cache.stage_feedbacks[k].flags &
				            VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) != 0;
			feedback->pPipelineCreationFeedback->flags =
			    VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
			    (all_hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0);
			feedback->pPipelineCreationFeedback->duration = uint64_t(
			    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
		}
	}
	return result;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                      uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
	return CreatePipelines(device, pipelineCache, VK_PIPELINE_BIND_POINT_COMPUTE, createInfoCount, pCreateInfos,
	                       pAllocator, pPipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                       uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines) {
	return CreatePipelines(device, pipelineCache, VK_PIPELINE_BIND_POINT_GRAPHICS, createInfoCount, pCreateInfos,
	                       pAllocator, pPipelines);
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Pipeline::Cast(pipeline));
}

}  // namespace tessera::entry
