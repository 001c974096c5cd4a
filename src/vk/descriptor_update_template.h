// VkDescriptorUpdateTemplate: where each descriptor's info lies in the
// application's data, kept so vkUpdateDescriptorSetWithTemplate is a walk
// over plain entries (Vulkan 1.3 §14.2.6).
#pragma once

#include <vector>

#include "vk/object.h"

namespace tessera::vk {

class DescriptorSet;

class DescriptorUpdateTemplate
    : public Object<DescriptorUpdateTemplate, VkDescriptorUpdateTemplate, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE> {
public:
	VkResult Init(const VkDescriptorUpdateTemplateCreateInfo& info);
	void Update(DescriptorSet& set, const void* data) const;

private:
	std::vector<VkDescriptorUpdateTemplateEntry> entries_;
};

}  // namespace tessera::vk
