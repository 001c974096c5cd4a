// VkSamplerYcbcrConversion (Vulkan 1.3 §13.1): the create info kept as plain
// state (texture/ycbcr.h); samplers created with it copy that state.
#pragma once

#include "texture/ycbcr.h"
#include "vk/object.h"

namespace tessera::vk {

class SamplerYcbcrConversion
    : public Object<SamplerYcbcrConversion, VkSamplerYcbcrConversion, VK_OBJECT_TYPE_SAMPLER_YCBCR_CONVERSION> {
public:
	explicit SamplerYcbcrConversion(const texture::YcbcrConversion& state) : state_(state) {}
	const texture::YcbcrConversion& State() const { return state_; }

private:
	texture::YcbcrConversion state_;
};

}  // namespace tessera::vk
