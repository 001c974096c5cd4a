// VkSampler: the create info kept as plain state for the sampling code
// (texture/) to read. Nothing samples yet; creating a sampler is valid.
#pragma once

#include "texture/sampler_state.h"
#include "texture/ycbcr.h"
#include "vk/object.h"

namespace tessera::vk {

// Everything a texture lookup needs from a sampler, resolved at creation.
// The sampler's state is the plain struct the sampling code reads.
using SamplerState = texture::SamplerState;

class Device;

class Sampler : public Object<Sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER> {
public:
	explicit Sampler(const SamplerState& state, const texture::YcbcrConversion* ycbcr = nullptr)
	    : state_(state), has_ycbcr_(ycbcr != nullptr) {
		if (ycbcr) ycbcr_ = *ycbcr;
	}
	const SamplerState& State() const { return state_; }
	// The sampler Y'CbCr conversion (VkSamplerYcbcrConversionInfo), or nullptr.
	const texture::YcbcrConversion* Ycbcr() const { return has_ycbcr_ ? &ycbcr_ : nullptr; }

	// Translates the create info; returns false (after reporting why through
	// the device's debug messengers) for state Tessera cannot sample with.
	// *ycbcr receives the conversion's state and *has_ycbcr says whether
	// there is one.
	static bool Translate(const Device& device, const VkSamplerCreateInfo& info, SamplerState* state,
	                      texture::YcbcrConversion* ycbcr, bool* has_ycbcr);

private:
	SamplerState state_;
	bool has_ycbcr_ = false;
	texture::YcbcrConversion ycbcr_;
};

}  // namespace tessera::vk
