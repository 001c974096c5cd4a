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

// The image limits (maxImageDimension*, maxImageArrayLayers), which the
// maxExtent of vkGetPhysicalDeviceImageFormatProperties follows. Image
// layouts are 64-bit throughout (texture/image_layout.h); a 4096^3 volume
// or a 32768^2 cube is only a size that vkAllocateMemory may refuse.
constexpr uint32_t kMaxImageDimension1D = 16384;
constexpr uint32_t kMaxImageDimension2D = 16384;
constexpr uint32_t kMaxImageDimension3D = 4096;
constexpr uint32_t kMaxImageDimensionCube = 32768;
constexpr uint32_t kMaxImageArrayLayers = 2048;

// vkGetPhysicalDeviceImageFormatProperties: VK_ERROR_FORMAT_NOT_SUPPORTED
// for a combination Tessera cannot create. maxResourceSize is heap_size: an
// image is one allocation of the heap, as a buffer is (maxBufferSize), and
// the largest cubes and volumes of the limits need more than 4 GiB.
VkResult GetImageFormatProperties(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                                  VkImageCreateFlags flags, VkDeviceSize heap_size,
                                  VkImageFormatProperties* properties);

}  // namespace tessera::vk
