// vkCreateSamplerYcbcrConversion / vkDestroySamplerYcbcrConversion (core 1.1,
// VK_KHR_sampler_ycbcr_conversion's commands are aliases of these).
#include "vk/sampler_ycbcr.h"

#include "vk/device.h"

namespace tessera::entry {

using vk::Device;
using vk::SamplerYcbcrConversion;

VKAPI_ATTR VkResult VKAPI_CALL CreateSamplerYcbcrConversion(VkDevice device,
                                                            const VkSamplerYcbcrConversionCreateInfo* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkSamplerYcbcrConversion* pYcbcrConversion) {
	Device* self = Device::Cast(device);
	const VkSamplerYcbcrConversionCreateInfo& info = *pCreateInfo;
	// Only formats with SAMPLED_IMAGE_YCBCR_CONVERSION features reach here in
	// valid use (format_support.cpp reports them for texture::CanConvertYcbcr);
	// forceExplicitReconstruction changes nothing, reconstruction always is.
	if (!texture::CanConvertYcbcr(info.format)) {
		self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE,
		             reinterpret_cast<uint64_t>(self), "vkCreateSamplerYcbcrConversion: format %d is not supported",
		             int(info.format));
		return VK_ERROR_UNKNOWN;
	}
	texture::YcbcrConversion state;
	state.format = info.format;
	state.model = info.ycbcrModel;
	state.range = info.ycbcrRange;
	state.components = info.components;
	state.x_chroma_offset = info.xChromaOffset;
	state.y_chroma_offset = info.yChromaOffset;
	state.chroma_filter = info.chromaFilter;
	auto* conversion =
	    vk::New<SamplerYcbcrConversion>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, state);
	if (!conversion) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pYcbcrConversion = conversion->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySamplerYcbcrConversion(VkDevice device, VkSamplerYcbcrConversion ycbcrConversion,
                                                         const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), SamplerYcbcrConversion::Cast(ycbcrConversion));
}

}  // namespace tessera::entry
