#include "vk/shader_module.h"

#include <bit>

#include "runtime/byte_lru.h"
#include "runtime/sha256.h"
#include "spirv/compile.h"
#include "spirv/newer_extensions.h"
#include "vk/device.h"

namespace tessera::vk {

namespace {

// Modules this process has found valid: validation is a function of the
// words and the rules alone, and a test suite or an engine creates the
// same module again and again (SPIRV-Tools took about 0.1 ms a time for a
// small compute shader). Keys are SHA-256 of the rules and the words; the
// bound (32 bytes a key) keeps about 8,000 of them.
constexpr size_t kValidatedBytes = size_t(256) << 10;
runtime::ByteLru& ValidatedModules() {
	static runtime::ByteLru modules(kValidatedBytes);
	return modules;
}

std::string ValidatedKey(const std::vector<uint32_t>& words, const spirv::ValidationRules& rules) {
	Sha256 hash;
	hash.UpdateU32(rules.Bits());
	hash.UpdateU32(uint32_t(words.size()));
	static_assert(std::endian::native == std::endian::little);
	hash.Update(words.data(), words.size() * sizeof(uint32_t));
	const Sha256Digest digest = hash.Finish();
	return std::string(digest.begin(), digest.end());
}

}  // namespace

VkResult ShaderModule::Init(const Device& device, const VkShaderModuleCreateInfo& info, bool validate) {
	// Vulkan 1.3 §9.1: codeSize must be a multiple of 4 and pCode valid
	// SPIR-V. Code that breaks that is invalid use; §3.6 has
	// VK_ERROR_UNKNOWN for input valid use cannot produce (VK_ERROR_INVALID_SHADER_NV
	// belongs to an extension Tessera does not offer).
	auto reject = [&](const char* why) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE,
		              reinterpret_cast<uint64_t>(&device), "vkCreateShaderModule: %s", why);
		return VK_ERROR_UNKNOWN;
	};
	constexpr size_t kHeaderWords = 5;  // magic, version, generator, bound, schema
	if (info.codeSize % 4 != 0) return reject("codeSize is not a multiple of 4");
	if (info.codeSize < kHeaderWords * 4 || !info.pCode) return reject("the code is shorter than a SPIR-V header");
	uint32_t magic = info.pCode[0];
	bool swapped = magic == __builtin_bswap32(kSpirvMagic);
	if (magic != kSpirvMagic && !swapped) return reject("the code does not start with the SPIR-V magic number");
	try {
		words_.assign(info.pCode, info.pCode + info.codeSize / 4);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	if (swapped)
		for (uint32_t& word : words_) word = __builtin_bswap32(word);
	// SPIR-V of extensions newer than the system's SPIRV-Tools, which
	// validates and optimizes the module, becomes SPIR-V it knows
	// (spirv/newer_extensions.h).
	try {
		spirv::RewriteNewerExtensions(words_);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	// Full validation once here, so pipeline creation can skip it.
	return validate ? Validate(device) : VK_SUCCESS;
}

VkResult ShaderModule::Validate(const Device& device) const {
	// SPIRV-Tools, with Vulkan 1.3 rules and the layouts the enabled
	// features allow.
	try {
		const std::string key = ValidatedKey(words_, device.ShaderRules());
		if (ValidatedModules().Find(key)) return VK_SUCCESS;
		std::string problem = spirv::Validate(words_, device.ShaderRules());
		if (!problem.empty()) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE,
			              reinterpret_cast<uint64_t>(&device), "vkCreateShaderModule: invalid SPIR-V: %s",
			              problem.c_str());
			return VK_ERROR_UNKNOWN;
		}
		ValidatedModules().Insert(key, {});
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::ShaderModule;

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	auto* module = vk::New<ShaderModule>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!module) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = module->Init(*self, *pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, module);
		return result;
	}
	*pShaderModule = module->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), ShaderModule::Cast(shaderModule));
}

}  // namespace tessera::entry
