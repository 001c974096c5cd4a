// VK_KHR_surface, VK_EXT_headless_surface, VK_KHR_get_surface_capabilities2
// and the platform surfaces: a thin translation over src/wsi.
#include <algorithm>

#include "vk/instance.h"
#include "vk/physical_device.h"
#include "wsi/surface.h"

namespace tessera::entry {

using vk::Instance;
using vk::PhysicalDevice;
using wsi::Surface;

namespace {

uint32_t MaxDimension(VkPhysicalDevice physicalDevice) {
	return PhysicalDevice::Cast(physicalDevice)->Properties().limits.maxImageDimension2D;
}

template <typename Fill>
VkResult CreateSurface(VkInstance instance, const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface,
                       Fill fill) {
	const VkAllocationCallbacks* allocator = pAllocator ? pAllocator : Instance::Cast(instance)->Allocator();
	auto* surface = vk::New<Surface>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!surface) return VK_ERROR_OUT_OF_HOST_MEMORY;
	fill(*surface);
	*pSurface = surface->ToHandle();
	return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateHeadlessSurfaceEXT(VkInstance instance, const VkHeadlessSurfaceCreateInfoEXT*,
                                                        const VkAllocationCallbacks* pAllocator,
                                                        VkSurfaceKHR* pSurface) {
	return CreateSurface(instance, pAllocator, pSurface,
	                     [](Surface& s) { s.headless.base.platform = VK_ICD_WSI_PLATFORM_HEADLESS; });
}

VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                                             const VkAllocationCallbacks* pAllocator) {
	vk::Delete(pAllocator ? pAllocator : Instance::Cast(instance)->Allocator(), Surface::Cast(surface));
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice, uint32_t, VkSurfaceKHR,
                                                                  VkBool32* pSupported) {
	// Every queue family presents to every surface (the queue thread copies
	// the image to it, vkQueuePresentKHR).
	*pSupported = VK_TRUE;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice physicalDevice,
                                                                       VkSurfaceKHR surface,
                                                                       VkSurfaceCapabilitiesKHR* pSurfaceCapabilities) {
	*pSurfaceCapabilities = wsi::SurfaceCapabilities(*Surface::Cast(surface), MaxDimension(physicalDevice));
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice, VkSurfaceKHR,
                                                                  uint32_t* pSurfaceFormatCount,
                                                                  VkSurfaceFormatKHR* pSurfaceFormats) {
	const auto& formats = wsi::SurfaceFormats();
	return vk::FillArray(formats.data(), uint32_t(formats.size()), pSurfaceFormatCount, pSurfaceFormats);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice, VkSurfaceKHR,
                                                                       uint32_t* pPresentModeCount,
                                                                       VkPresentModeKHR* pPresentModes) {
	const auto& modes = wsi::PresentModes();
	return vk::FillArray(modes.data(), uint32_t(modes.size()), pPresentModeCount, pPresentModes);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo,
    VkSurfaceCapabilities2KHR* pSurfaceCapabilities) {
	VkSurfaceCapabilitiesKHR caps =
	    wsi::SurfaceCapabilities(*Surface::Cast(pSurfaceInfo->surface), MaxDimension(physicalDevice));
	pSurfaceCapabilities->surfaceCapabilities = caps;
	// VK_EXT_surface_maintenance1: every present mode behaves alike here
	// (wsi/swapchain.h), so each is compatible with all the others, and the
	// capabilities do not depend on it. No scaling: images match the surface.
	if (auto* scaling = vk::FindInChain<VkSurfacePresentScalingCapabilitiesEXT>(
	        pSurfaceCapabilities->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_SCALING_CAPABILITIES_EXT)) {
		scaling->supportedPresentScaling = 0;
		scaling->supportedPresentGravityX = 0;
		scaling->supportedPresentGravityY = 0;
		scaling->minScaledImageExtent = caps.minImageExtent;
		scaling->maxScaledImageExtent = caps.maxImageExtent;
	}
	if (auto* compatible = vk::FindInChain<VkSurfacePresentModeCompatibilityEXT>(
	        pSurfaceCapabilities->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT)) {
		// The queried mode first: an array too small for all of them still
		// holds it (VUID: the list always includes the queried mode).
		std::vector<VkPresentModeKHR> modes = wsi::PresentModes();
		if (auto* queried = vk::FindInChain<VkSurfacePresentModeEXT>(pSurfaceInfo->pNext,
		                                                             VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT)) {
			auto found = std::find(modes.begin(), modes.end(), queried->presentMode);
			if (found != modes.end()) std::rotate(modes.begin(), found, found + 1);
		}
		// Two-call array without VK_INCOMPLETE (the command's result is
		// about the capabilities): the count written is what fitted.
		vk::FillArray(modes.data(), uint32_t(modes.size()), &compatible->presentModeCount, compatible->pPresentModes);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormats2KHR(VkPhysicalDevice,
                                                                   const VkPhysicalDeviceSurfaceInfo2KHR*,
                                                                   uint32_t* pSurfaceFormatCount,
                                                                   VkSurfaceFormat2KHR* pSurfaceFormats) {
	const auto& formats = wsi::SurfaceFormats();
	uint32_t total = uint32_t(formats.size());
	if (!pSurfaceFormats) {
		*pSurfaceFormatCount = total;
		return VK_SUCCESS;
	}
	uint32_t n = std::min(*pSurfaceFormatCount, total);
	for (uint32_t i = 0; i < n; ++i) pSurfaceFormats[i].surfaceFormat = formats[i];
	*pSurfaceFormatCount = n;
	return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice physicalDevice,
                                                                     VkSurfaceKHR surface, uint32_t* pRectCount,
                                                                     VkRect2D* pRects) {
	VkSurfaceCapabilitiesKHR caps = wsi::SurfaceCapabilities(*Surface::Cast(surface), MaxDimension(physicalDevice));
	// The whole surface: the window, or for headless the largest swapchain.
	VkRect2D rect{{0, 0}, caps.currentExtent.width == 0xFFFFFFFFu ? caps.maxImageExtent : caps.currentExtent};
	return vk::FillArray(&rect, 1u, pRectCount, pRects);
}

}  // namespace tessera::entry
