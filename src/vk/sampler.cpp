#include "vk/sampler.h"

#include <algorithm>

#include "vk/device.h"
#include "vk/sampler_ycbcr.h"

namespace tessera::vk {

bool Sampler::Translate(const Device& device, const VkSamplerCreateInfo& info, SamplerState* state,
                        texture::YcbcrConversion* ycbcr, bool* has_ycbcr) {
	*has_ycbcr = false;
	auto reject = [&](const char* what) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE,
		              reinterpret_cast<uint64_t>(&device), "vkCreateSampler: %s is not supported", what);
		return false;
	};
	for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
		switch (s->sType) {
		case VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO: {
			// samplerFilterMinmax: weighted average (the default), min or
			// max (texture/sample.cpp, ReduceMinMax).
			auto mode = reinterpret_cast<const VkSamplerReductionModeCreateInfo*>(s)->reductionMode;
			if (mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE && mode != VK_SAMPLER_REDUCTION_MODE_MIN &&
			    mode != VK_SAMPLER_REDUCTION_MODE_MAX)
				return reject("a reduction mode");
			state->reduction_mode = mode;
			break;
		}
		case VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO: {
			// Vulkan 1.3 §13.1: sampled images read through this sampler are
			// converted (texture/ycbcr.h); the sampler's address modes are
			// CLAMP_TO_EDGE and its coordinates normalized in valid use.
			auto handle = reinterpret_cast<const VkSamplerYcbcrConversionInfo*>(s)->conversion;
			if (handle) {
				*ycbcr = SamplerYcbcrConversion::Cast(handle)->State();
				*has_ycbcr = true;
			}
			break;
		}
		case VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT:
			// VK_EXT_custom_border_color: the value is kept as given; the
			// format (possibly UNDEFINED, customBorderColorWithoutFormat) is
			// not needed, the border is fitted to each view when it is bound
			// (texture/sample.cpp, BorderTexel).
			state->custom_border =
			    reinterpret_cast<const VkSamplerCustomBorderColorCreateInfoEXT*>(s)->customBorderColor;
			break;
		default: break;  // unknown structures are ignored, as for any command
		}
	}
	if (info.flags & ~VkSamplerCreateFlags(VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT))
		return reject("a sampler create flag");
	state->non_seamless_cube = (info.flags & VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT) != 0;

	state->mag_filter = info.magFilter;
	state->min_filter = info.minFilter;
	state->mipmap_mode = info.mipmapMode;
	state->address_u = info.addressModeU;
	state->address_v = info.addressModeV;
	state->address_w = info.addressModeW;
	state->mip_lod_bias = info.mipLodBias;
	state->min_lod = info.minLod;
	state->max_lod = info.maxLod;
	state->anisotropy_enable = info.anisotropyEnable == VK_TRUE;
	// Vulkan 1.3 §13: maxAnisotropy is in [1, maxSamplerAnisotropy] (16).
	state->max_anisotropy = info.anisotropyEnable ? std::clamp(info.maxAnisotropy, 1.0f, 16.0f) : 1.0f;
	state->compare_enable = info.compareEnable == VK_TRUE;
	state->compare_op = info.compareOp;
	state->border_color = info.borderColor;
	state->unnormalized_coordinates = info.unnormalizedCoordinates == VK_TRUE;
	return true;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Sampler;

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice device, const VkSamplerCreateInfo* pCreateInfo,
                                             const VkAllocationCallbacks* pAllocator, VkSampler* pSampler) {
	Device* self = Device::Cast(device);
	vk::SamplerState state;
	texture::YcbcrConversion ycbcr;
	bool has_ycbcr = false;
	// Vulkan 1.3 §3.6: VK_ERROR_UNKNOWN is what an implementation returns for
	// input that valid use cannot produce (here: features not reported).
	if (!Sampler::Translate(*self, *pCreateInfo, &state, &ycbcr, &has_ycbcr)) return VK_ERROR_UNKNOWN;
	auto* sampler = vk::New<Sampler>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, state,
	                                 has_ycbcr ? &ycbcr : nullptr);
	if (!sampler) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pSampler = sampler->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySampler(VkDevice device, VkSampler sampler, const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Sampler::Cast(sampler));
}

}  // namespace tessera::entry
