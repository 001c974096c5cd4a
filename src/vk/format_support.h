// What Tessera can do with each format: the single source of
// vkGetPhysicalDeviceFormatProperties* and the checks of
// vkGetPhysicalDeviceImageFormatProperties*. A bit is set only when the
// operation it names works for that format.
#pragma once

#include <vulkan/vulkan_core.h>

namespace tessera::vk {

struct FormatSupport {
	VkFormatFeatureFlags2 linear = 0;
	VkFormatFeatureFlags2 optimal = 0;
	VkFormatFeatureFlags2 buffer = 0;
};

FormatSupport GetFormatSupport(VkFormat format);

// vkGetPhysicalDeviceImageFormatProperties: VK_ERROR_FORMAT_NOT_SUPPORTED
// for a combination Tessera cannot create.
VkResult GetImageFormatProperties(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                                  VkImageCreateFlags flags, VkImageFormatProperties* properties);

}  // namespace tessera::vk
