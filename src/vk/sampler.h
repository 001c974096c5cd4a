// VkSampler: the create info kept as plain state for the sampling code
// (texture/) to read. Nothing samples yet; creating a sampler is valid.
#pragma once

#include "texture/sampler_state.h"
#include "vk/object.h"

namespace tessera::vk {

// Everything a texture lookup needs from a sampler, resolved at creation.
// The sampler's state is the plain struct the sampling code reads.
using SamplerState = texture::SamplerState;

class Device;

class Sampler : public Object<Sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER> {
public:
	explicit Sampler(const SamplerState& state) : state_(state) {}
	const SamplerState& State() const { return state_; }

	// Translates the create info; returns false (after reporting why through
	// the device's debug messengers) for state Tessera cannot sample with.
	static bool Translate(const Device& device, const VkSamplerCreateInfo& info, SamplerState* state);

private:
	SamplerState state_;
};

}  // namespace tessera::vk
