// VkSampler: the create info kept as plain state for the sampling code
// (texture/) to read. Nothing samples yet; creating a sampler is valid.
#pragma once

#include "vk/object.h"

namespace tessera::vk {

// Everything a texture lookup needs from a sampler, resolved at creation.
struct SamplerState {
	VkFilter mag_filter = VK_FILTER_NEAREST;
	VkFilter min_filter = VK_FILTER_NEAREST;
	VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
	VkSamplerAddressMode address_u = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSamplerAddressMode address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSamplerAddressMode address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	float mip_lod_bias = 0.0f;
	float min_lod = 0.0f;
	float max_lod = 0.0f;
	bool anisotropy_enable = false;
	float max_anisotropy = 1.0f;
	bool compare_enable = false;
	VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
	VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
	bool unnormalized_coordinates = false;
	VkSamplerReductionMode reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
};

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
