#include "vk/descriptor_update_template.h"

#include "vk/descriptor_set.h"
#include "vk/device.h"

namespace tessera::vk {

VkResult DescriptorUpdateTemplate::Init(const VkDescriptorUpdateTemplateCreateInfo& info) {
	// A push descriptor template names its bind point; the layout and set it
	// names are passed again to vkCmdPushDescriptorSetWithTemplateKHR.
	if (info.templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR)
		bind_point_ = info.pipelineBindPoint;
	try {
		entries_.assign(info.pDescriptorUpdateEntries, info.pDescriptorUpdateEntries + info.descriptorUpdateEntryCount);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

void DescriptorUpdateTemplate::Update(DescriptorSet& set, const void* data) const {
	auto* bytes = static_cast<const uint8_t*>(data);
	for (const VkDescriptorUpdateTemplateEntry& entry : entries_) {
		DescriptorCursor cursor(set, entry.dstBinding, entry.dstArrayElement);
		if (entry.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
			// §14.2.6: offset points at descriptorCount bytes; stride is ignored.
			WriteInlineBytes(cursor, bytes + entry.offset, entry.descriptorCount);
			continue;
		}
		for (uint32_t i = 0; i < entry.descriptorCount && cursor.Valid(); ++i, cursor.Advance(1))
			WriteDescriptor(set, cursor.Binding(), cursor.Element(), bytes + entry.offset + i * entry.stride,
			                entry.descriptorType);
	}
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::DescriptorUpdateTemplate;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkDescriptorUpdateTemplate* pDescriptorUpdateTemplate) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* update_template = vk::New<DescriptorUpdateTemplate>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!update_template) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = update_template->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, update_template);
		return result;
	}
	*pDescriptorUpdateTemplate = update_template->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), DescriptorUpdateTemplate::Cast(descriptorUpdateTemplate));
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const void* pData) {
	DescriptorUpdateTemplate::Cast(descriptorUpdateTemplate)->Update(*vk::DescriptorSet::Cast(descriptorSet), pData);
}

}  // namespace tessera::entry
