// VkShaderModule: the SPIR-V words, kept after basic checks. Full
// validation (SPIRV-Tools) and translation happen when a pipeline uses the
// module, in the shader engine.
#pragma once

#include <vector>

#include "vk/object.h"

namespace tessera::vk {

class Device;

class ShaderModule : public Object<ShaderModule, VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE> {
public:
	static constexpr uint32_t kSpirvMagic = 0x07230203;

	// Checks the header and copies the words (byte-swapped to host order if
	// the module was written in the other byte order), then (with
	// `validate`) Validate. Malformed code is reported through the
	// device's debug messengers.
	VkResult Init(const Device& device, const VkShaderModuleCreateInfo& info, bool validate = true);
	// Full validation (SPIRV-Tools, the rules the device's enabled features
	// allow).
	VkResult Validate(const Device& device) const;

	const std::vector<uint32_t>& Words() const { return words_; }

private:
	std::vector<uint32_t> words_;
};

}  // namespace tessera::vk
