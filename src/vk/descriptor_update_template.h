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
	// Where vkCmdPushDescriptorSetWithTemplateKHR binds (a push template's).
	VkPipelineBindPoint PipelineBindPoint() const { return bind_point_; }

private:
	std::vector<VkDescriptorUpdateTemplateEntry> entries_;
	VkPipelineBindPoint bind_point_ = VK_PIPELINE_BIND_POINT_GRAPHICS;
};

}  // namespace tessera::vk
