#include "wsi/surface.h"

#include "vk/format_support.h"
#include "wsi/window.h"

namespace tessera::wsi {

namespace {

constexpr uint32_t kMinImageCount = 2;
constexpr uint32_t kMaxImageCount = 8;

// The swapchain formats Tessera can render to, in order of preference.
const VkFormat kCandidateFormats[] = {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                                      VK_FORMAT_R8G8B8A8_UNORM};

std::vector<VkSurfaceFormatKHR> MakeFormats() {
	std::vector<VkSurfaceFormatKHR> formats;
	for (VkFormat f : kCandidateFormats)
		if (vk::GetFormatSupport(f).optimal & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT)
			formats.push_back({f, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR});
	return formats;
}

// supportedUsageFlags hold for every format: the usages all of them allow.
VkImageUsageFlags SupportedUsage() {
	static const struct {
		VkImageUsageFlags usage;
		VkFormatFeatureFlags2 feature;
	} kUsages[] = {
	    {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT},
	    {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT},
	    {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT},
	    {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT},
	    {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT},
	};
	VkImageUsageFlags usage = 0;
	for (const auto& u : kUsages) {
		bool all = true;
		for (const VkSurfaceFormatKHR& f : SurfaceFormats())
			all = all && (vk::GetFormatSupport(f.format).optimal & u.feature);
		if (all) usage |= u.usage;
	}
	return usage;
}

}  // namespace

VkSurfaceCapabilitiesKHR SurfaceCapabilities(const Surface& surface, uint32_t max_dimension) {
	VkSurfaceCapabilitiesKHR caps{};
	caps.minImageCount = kMinImageCount;
	caps.maxImageCount = kMaxImageCount;
	VkExtent2D window;
	if (WindowExtent(surface, &window)) {
		// A window: the swapchain matches its size.
		caps.currentExtent = caps.minImageExtent = caps.maxImageExtent = window;
	} else {
		// Headless (VK_EXT_headless_surface) and Wayland (whose surfaces
		// take the size of the buffers attached): the swapchain decides.
		caps.currentExtent = {0xFFFFFFFFu, 0xFFFFFFFFu};
		caps.minImageExtent = {1, 1};
		caps.maxImageExtent = {max_dimension, max_dimension};
	}
	caps.maxImageArrayLayers = 1;
	caps.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	caps.currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	caps.supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	// Wayland (wayland.h): opaque images go out as XRGB8888, pre-multiplied
	// ones as ARGB8888, which wl_shm defines as pre-multiplied alpha.
	if (surface.Platform() == VK_ICD_WSI_PLATFORM_WAYLAND)
		caps.supportedCompositeAlpha |= VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR;
	static const VkImageUsageFlags usage = SupportedUsage();
	caps.supportedUsageFlags = usage;
	return caps;
}

const std::vector<VkSurfaceFormatKHR>& SurfaceFormats() {
	static const std::vector<VkSurfaceFormatKHR> formats = MakeFormats();
	return formats;
}

const std::vector<VkPresentModeKHR>& PresentModes() {
	static const std::vector<VkPresentModeKHR> modes = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
	                                                    VK_PRESENT_MODE_IMMEDIATE_KHR};
	return modes;
}

}  // namespace tessera::wsi
