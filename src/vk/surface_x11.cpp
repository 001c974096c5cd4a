// VK_KHR_xcb_surface and VK_KHR_xlib_surface. The platform macros bring in
// the X headers (and their macros: None, Bool, ...) in this file only.
#define VK_USE_PLATFORM_XCB_KHR
#define VK_USE_PLATFORM_XLIB_KHR

#include "vk/instance.h"
#include "wsi/surface.h"

namespace tessera::entry {

using vk::Instance;
using wsi::Surface;

namespace {

Surface* NewSurface(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
	return vk::New<Surface>(pAllocator ? pAllocator : Instance::Cast(instance)->Allocator(),
	                        VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
	Surface* surface = NewSurface(instance, pAllocator);
	if (!surface) return VK_ERROR_OUT_OF_HOST_MEMORY;
	surface->xcb.base.platform = VK_ICD_WSI_PLATFORM_XCB;
	surface->xcb.connection = pCreateInfo->connection;
	surface->xcb.window = pCreateInfo->window;
	*pSurface = surface->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateXlibSurfaceKHR(VkInstance instance, const VkXlibSurfaceCreateInfoKHR* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
	Surface* surface = NewSurface(instance, pAllocator);
	if (!surface) return VK_ERROR_OUT_OF_HOST_MEMORY;
	surface->xlib.base.platform = VK_ICD_WSI_PLATFORM_XLIB;
	surface->xlib.display = pCreateInfo->dpy;
	surface->xlib.window = pCreateInfo->window;
	*pSurface = surface->ToHandle();
	return VK_SUCCESS;
}

// Presentation is a PutImage of 32-bit pixels, which any TrueColor visual
// of depth 24 or 32 takes.
VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice, uint32_t, xcb_connection_t*,
                                                                          xcb_visualid_t) {
	return VK_TRUE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice, uint32_t, Display*,
                                                                           VisualID) {
	return VK_TRUE;
}

}  // namespace tessera::entry
