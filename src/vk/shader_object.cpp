#include "vk/shader_object.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>

#include "shader/program_serialize.h"
#include "vk/device.h"
#include "vk/physical_device.h"
#include "vk/pipeline.h"
#include "vk/pipeline_layout.h"

namespace tessera::vk {

namespace {

// The binary's header; the program's bytes follow it.
struct BinaryHeader {
	char magic[4];
	uint32_t version;            // shaderBinaryVersion
	uint8_t uuid[VK_UUID_SIZE];  // shaderBinaryUUID
	uint32_t stage;              // VkShaderStageFlagBits
	uint32_t reserved;
};
static_assert(sizeof(BinaryHeader) == 32);

std::atomic<uint64_t> next_serial{1};

// LinkedPipeline's cache: the pipelines linked from the shaders whose serial
// numbers key them (0 for a stage without one), each made with the vertex
// shader's callbacks. Small: a shader's destruction takes out every entry
// it is part of.
struct Link {
	Pipeline* pipeline;
	VkAllocationCallbacks allocator;
	bool has_allocator;
};
using LinkKey = std::array<uint64_t, size_t(GraphicsStage::kCount)>;
std::mutex links_mutex;
std::map<LinkKey, Link>& Links() {
	static auto* links = new std::map<LinkKey, Link>;  // never destroyed: shaders may outlive statics
	return *links;
}

void DeleteLink(const Link& link) { Delete(link.has_allocator ? &link.allocator : nullptr, link.pipeline); }

// Takes out the links of the shader numbered `serial`.
void ForgetLinks(uint64_t serial) {
	std::lock_guard<std::mutex> lock(links_mutex);
	std::map<LinkKey, Link>& links = Links();
	for (auto it = links.begin(); it != links.end();)
		if (std::find(it->first.begin(), it->first.end(), serial) != it->first.end()) {
			DeleteLink(it->second);
			it = links.erase(it);
		} else {
			++it;
		}
}

shader::Stage TranslatorStage(VkShaderStageFlagBits stage) {
	switch (stage) {
	case VK_SHADER_STAGE_VERTEX_BIT: return shader::Stage::kVertex;
	case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return shader::Stage::kTessControl;
	case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return shader::Stage::kTessEval;
	case VK_SHADER_STAGE_GEOMETRY_BIT: return shader::Stage::kGeometry;
	case VK_SHADER_STAGE_FRAGMENT_BIT: return shader::Stage::kFragment;
	default: return shader::Stage::kCompute;
	}
}

}  // namespace

Shader::Shader(Device* device, const VkAllocationCallbacks* allocator)
    : device_(device), serial_(next_serial.fetch_add(1, std::memory_order_relaxed)) {
	if (allocator) {
		allocator_ = *allocator;
		has_allocator_ = true;
	}
}

Shader::~Shader() {
	if (graphics_stage_ != GraphicsStage::kCount) ForgetLinks(serial_);
	Delete(Allocator(), compute_);
	if (layout_) layout_->Release();
}

VkResult Shader::Init(const VkShaderCreateInfoEXT& info) {
	stage_ = info.stage;
	bool graphics;
	graphics_stage_ = ToGraphicsStage(info.stage, &graphics);
	if (!graphics && info.stage != VK_SHADER_STAGE_COMPUTE_BIT) {
		device_->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		                "vkCreateShadersEXT: shader stage 0x%x is not supported", unsigned(info.stage));
		return VK_ERROR_UNKNOWN;
	}
	// The layout the shader's descriptors and push constants are found
	// through (Vulkan "Shader Objects": pSetLayouts and pPushConstantRanges).
	layout_ = New<PipelineLayout>(Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, Allocator());
	if (!layout_) return VK_ERROR_OUT_OF_HOST_MEMORY;
	VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	layout_info.setLayoutCount = info.setLayoutCount;
	layout_info.pSetLayouts = info.pSetLayouts;
	layout_info.pushConstantRangeCount = info.pushConstantRangeCount;
	layout_info.pPushConstantRanges = info.pPushConstantRanges;
	if (VkResult r = layout_->Init(layout_info); r != VK_SUCCESS) return r;

	std::unique_ptr<shader::Program> program;
	VkResult r = info.codeType == VK_SHADER_CODE_TYPE_BINARY_EXT ? ReadBinary(info, program) : Compile(info, program);
	if (r != VK_SUCCESS) return r;
	try {
		const std::vector<uint8_t> bytes = shader::SerializeProgram(*program);
		BinaryHeader header{};
		std::memcpy(header.magic, kBinaryMagic, sizeof header.magic);
		header.version = PhysicalDevice::kShaderBinaryVersion;
		std::memcpy(header.uuid, device_->GetPhysicalDevice()->ShaderBinaryUuid(), VK_UUID_SIZE);
		header.stage = uint32_t(info.stage);
		binary_.resize(sizeof header + bytes.size());
		std::memcpy(binary_.data(), &header, sizeof header);
		std::memcpy(binary_.data() + sizeof header, bytes.data(), bytes.size());
		if (info.stage == VK_SHADER_STAGE_COMPUTE_BIT) {
			compute_ =
			    New<Pipeline>(Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, VK_PIPELINE_BIND_POINT_COMPUTE, layout_);
			if (!compute_) return VK_ERROR_OUT_OF_HOST_MEMORY;
			compute_->InitComputeProgram(std::move(program));
		} else {
			program_ = std::move(program);
		}
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VkResult Shader::Compile(const VkShaderCreateInfoEXT& info, std::unique_ptr<shader::Program>& program) {
	if (info.codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT || !info.pName) {
		device_->Report(
		    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0, "vkCreateShadersEXT: %s",
		    !info.pName ? "SPIR-V without an entry point name (pName)" : "codeType is neither SPIR-V nor binary");
		return VK_ERROR_UNKNOWN;
	}
	// The stage is translated as a pipeline's stage whose code comes inline
	// (CompileStage validates it first), from the same in-process cache.
	VkShaderModuleCreateInfo code{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	code.codeSize = info.codeSize;
	code.pCode = static_cast<const uint32_t*>(info.pCode);
	VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &code};
	stage.stage = info.stage;
	stage.pName = info.pName;
	stage.pSpecializationInfo = info.pSpecializationInfo;
	return CompileStage(*device_, stage, TranslatorStage(info.stage), "vkCreateShadersEXT", StageCache{}, *layout_,
	                    program);
}

VkResult Shader::ReadBinary(const VkShaderCreateInfoEXT& info, std::unique_ptr<shader::Program>& program) {
	// Vulkan "Binary Shader Compatibility": code this device cannot use is
	// VK_INCOMPATIBLE_SHADER_BINARY_EXT, never an error or a crash.
	auto incompatible = [&](const char* why) {
		device_->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		                "vkCreateShadersEXT: incompatible shader binary: %s", why);
		return VK_INCOMPATIBLE_SHADER_BINARY_EXT;
	};
	BinaryHeader header;
	if (!info.pCode || info.codeSize < sizeof header) return incompatible("shorter than its header");
	std::memcpy(&header, info.pCode, sizeof header);
	if (std::memcmp(header.magic, kBinaryMagic, sizeof header.magic) != 0) return incompatible("not Tessera's");
	if (header.version > PhysicalDevice::kShaderBinaryVersion ||
	    std::memcmp(header.uuid, device_->GetPhysicalDevice()->ShaderBinaryUuid(), VK_UUID_SIZE) != 0)
		return incompatible("written by another build of Tessera");
	if (header.stage != uint32_t(info.stage)) return incompatible("of another shader stage");
	try {
		program = std::make_unique<shader::Program>();
		const auto* bytes = static_cast<const uint8_t*>(info.pCode) + sizeof header;
		if (!shader::DeserializeProgram({bytes, info.codeSize - sizeof header}, *program) ||
		    program->stage != TranslatorStage(info.stage))
			return incompatible("corrupted");
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

const Pipeline* Shader::LinkedPipeline(const Shader* const (&stages)[size_t(GraphicsStage::kCount)]) {
	const Shader* vertex = stages[size_t(GraphicsStage::kVertex)];
	if (!vertex) return nullptr;
	LinkKey key;
	for (size_t k = 0; k < key.size(); ++k) key[k] = stages[k] ? stages[k]->serial_ : 0;
	std::lock_guard<std::mutex> lock(links_mutex);
	std::map<LinkKey, Link>& links = Links();
	if (auto it = links.find(key); it != links.end()) return it->second.pipeline;
	// Vulkan "Shader Objects": a draw's descriptor sets and push constants
	// are compatible with every bound shader's layout, so their union
	// finds each binding (as for pipeline libraries with independent sets).
	const VkAllocationCallbacks* allocator = vertex->Allocator();
	std::vector<const PipelineLayout*> layouts;
	GraphicsLibrary parts;
	try {
		for (size_t k = 0; k < size_t(GraphicsStage::kCount); ++k)
			if (stages[k]) {
				layouts.push_back(stages[k]->layout_);
				parts.SetProgram(GraphicsStage(k), stages[k]->program_);
			}
		auto* layout = New<PipelineLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
		if (!layout) return nullptr;
		if (layout->InitUnion(layouts) != VK_SUCCESS) {
			layout->Release();
			return nullptr;
		}
		auto* pipeline =
		    New<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, VK_PIPELINE_BIND_POINT_GRAPHICS, layout);
		layout->Release();  // the pipeline holds it
		if (!pipeline) return nullptr;
		Link link{pipeline, vertex->allocator_, vertex->has_allocator_};
		if (pipeline->InitLinkedShaders(*vertex->device_, parts) != VK_SUCCESS) {
			DeleteLink(link);
			return nullptr;
		}
		try {
			links.emplace(key, link);
		} catch (const std::bad_alloc&) {
			DeleteLink(link);
			return nullptr;
		}
		return pipeline;
	} catch (const std::bad_alloc&) {
		return nullptr;
	}
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Shader;

// Vulkan "Shader Object Creation": every element of pShaders is written,
// VK_NULL_HANDLE where a shader could not be made; the others are made.
VKAPI_ATTR VkResult VKAPI_CALL CreateShadersEXT(VkDevice device, uint32_t createInfoCount,
                                                const VkShaderCreateInfoEXT* pCreateInfos,
                                                const VkAllocationCallbacks* pAllocator, VkShaderEXT* pShaders) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	VkResult result = VK_SUCCESS;
	for (uint32_t i = 0; i < createInfoCount; ++i) pShaders[i] = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < createInfoCount; ++i) {
		auto* shader = vk::New<Shader>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, allocator);
		if (!shader) {
			result = VK_ERROR_OUT_OF_HOST_MEMORY;
			continue;
		}
		VkResult r = shader->Init(pCreateInfos[i]);
		if (r != VK_SUCCESS) {
			vk::Delete(allocator, shader);
			// An error outranks an incompatible binary (a success code).
			if (result == VK_SUCCESS || result == VK_INCOMPATIBLE_SHADER_BINARY_EXT) result = r;
			continue;
		}
		pShaders[i] = shader->ToHandle();
	}
	return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderEXT(VkDevice device, VkShaderEXT shader,
                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Shader::Cast(shader));
}

// Vulkan "Binary Shader Code": nothing is written unless the whole binary
// fits (VK_INCOMPLETE otherwise).
VKAPI_ATTR VkResult VKAPI_CALL GetShaderBinaryDataEXT(VkDevice, VkShaderEXT shader, size_t* pDataSize, void* pData) {
	const std::vector<uint8_t>& binary = Shader::Cast(shader)->Binary();
	if (!pData) {
		*pDataSize = binary.size();
		return VK_SUCCESS;
	}
	if (*pDataSize < binary.size()) {
		*pDataSize = 0;
		return VK_INCOMPLETE;
	}
	std::memcpy(pData, binary.data(), binary.size());
	*pDataSize = binary.size();
	return VK_SUCCESS;
}

}  // namespace tessera::entry
