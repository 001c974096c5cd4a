// VK_EXT_descriptor_buffer, the device commands (Vulkan 1.3 §14.3): where a
// set layout's bindings lie in memory, and the bytes of one descriptor. The
// command buffer side (binding buffers, setting offsets) is in
// cmd_state.cpp.
//
// A layout made with DESCRIPTOR_BUFFER_BIT places its bindings as a
// descriptor set's memory would, with every descriptor kBufferDescriptorSize
// bytes apart (descriptor_set_layout.h). vkGetDescriptorEXT writes the plain
// struct of descriptor_set.h that a set would hold, then the descriptor's
// type where a mutable binding keeps it, so one descriptor reads the same in
// a binding of its type and in a mutable one. Device addresses are host
// pointers, so a buffer descriptor holds the address itself.
#include <algorithm>
#include <cstring>

#include "vk/descriptor_set.h"
#include "vk/descriptor_set_layout.h"
#include "vk/image.h"
#include "vk/sampler.h"

namespace tessera::vk {

namespace {

uint8_t* HostPointer(VkDeviceAddress address) { return reinterpret_cast<uint8_t*>(uintptr_t(address)); }

ImageDescriptor ImageOf(const VkDescriptorImageInfo* info, bool with_sampler) {
	if (!info) return {};  // a null descriptor (nullDescriptor)
	return {ImageView::Cast(info->imageView), with_sampler ? Sampler::Cast(info->sampler) : nullptr};
}

TexelBufferDescriptor TexelBufferOf(const VkDescriptorAddressInfoEXT* info) {
	if (!info || !info->address) return {};
	return MakeTexelBufferDescriptor(HostPointer(info->address), info->range, info->format);
}

BufferDescriptor BufferOf(const VkDescriptorAddressInfoEXT* info) {
	if (!info || !info->address) return {};
	return {HostPointer(info->address), info->range};
}

// The descriptor vkGetDescriptorEXT returns, whole.
void GetBufferDescriptor(const VkDescriptorGetInfoEXT& info, uint8_t (&out)[kBufferDescriptorSize]) {
	std::memset(out, 0, sizeof(out));
	const VkDescriptorDataEXT& data = info.data;
	auto put = [&](const auto& descriptor) {
		static_assert(sizeof(descriptor) == kDescriptorSize);
		std::memcpy(out, &descriptor, sizeof(descriptor));
	};
	switch (info.type) {
	case VK_DESCRIPTOR_TYPE_SAMPLER:
		put(ImageDescriptor{nullptr, data.pSampler ? Sampler::Cast(*data.pSampler) : nullptr});
		break;
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: put(ImageOf(data.pCombinedImageSampler, true)); break;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: put(ImageOf(data.pSampledImage, false)); break;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: put(ImageOf(data.pStorageImage, false)); break;
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: put(ImageOf(data.pInputAttachmentImage, false)); break;
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: put(TexelBufferOf(data.pUniformTexelBuffer)); break;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: put(TexelBufferOf(data.pStorageTexelBuffer)); break;
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: put(BufferOf(data.pUniformBuffer)); break;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: put(BufferOf(data.pStorageBuffer)); break;
	default: return;  // no other type has a descriptor here (VUID-VkDescriptorGetInfoEXT-type-08018)
	}
	StoreMutableType(out, uint32_t(info.type) + 1);
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::DescriptorSetLayout;

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSizeEXT(VkDevice, VkDescriptorSetLayout layout,
                                                         VkDeviceSize* pLayoutSizeInBytes) {
	// A variable-count binding at its upper bound (Vulkan 1.3 §14.3.1).
	const DescriptorSetLayout* set_layout = DescriptorSetLayout::Cast(layout);
	const vk::DescriptorBinding* variable = set_layout->VariableBinding();
	*pLayoutSizeInBytes = set_layout->SetSize(variable ? variable->count : 0);
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutBindingOffsetEXT(VkDevice, VkDescriptorSetLayout layout,
                                                                  uint32_t binding, VkDeviceSize* pOffset) {
	const vk::DescriptorBinding* found = DescriptorSetLayout::Cast(layout)->Find(binding);
	*pOffset = found ? found->offset : 0;
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorEXT(VkDevice, const VkDescriptorGetInfoEXT* pDescriptorInfo, size_t dataSize,
                                            void* pDescriptor) {
	uint8_t descriptor[vk::kBufferDescriptorSize];
	vk::GetBufferDescriptor(*pDescriptorInfo, descriptor);
	std::memcpy(pDescriptor, descriptor, std::min(dataSize, sizeof(descriptor)));
}

// descriptorBufferCaptureReplay is not offered, and the capture data sizes
// reported are 0: there is nothing to write.
VKAPI_ATTR VkResult VKAPI_CALL GetBufferOpaqueCaptureDescriptorDataEXT(VkDevice,
                                                                       const VkBufferCaptureDescriptorDataInfoEXT*,
                                                                       void*) {
	return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL GetImageOpaqueCaptureDescriptorDataEXT(VkDevice,
                                                                      const VkImageCaptureDescriptorDataInfoEXT*,
                                                                      void*) {
	return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL
GetImageViewOpaqueCaptureDescriptorDataEXT(VkDevice, const VkImageViewCaptureDescriptorDataInfoEXT*, void*) {
	return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL GetSamplerOpaqueCaptureDescriptorDataEXT(VkDevice,
                                                                        const VkSamplerCaptureDescriptorDataInfoEXT*,
                                                                        void*) {
	return VK_SUCCESS;
}

}  // namespace tessera::entry
