// VK_KHR_wayland_surface. The platform macro brings in the Wayland client
// headers in this file only; presentation is src/wsi/wayland.cpp.
#define VK_USE_PLATFORM_WAYLAND_KHR

#include <cstddef>

#include "vk/instance.h"
#include "wsi/surface.h"

namespace tessera::entry {

using vk::Instance;
using wsi::Surface;

static_assert(sizeof(wsi::WaylandSurfaceData) == sizeof(VkIcdSurfaceWayland) &&
                  offsetof(wsi::WaylandSurfaceData, surface) == offsetof(VkIcdSurfaceWayland, surface),
              "the layout of the loader's Wayland surface");

VKAPI_ATTR VkResult VKAPI_CALL CreateWaylandSurfaceKHR(VkInstance instance,
                                                       const VkWaylandSurfaceCreateInfoKHR* pCreateInfo,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkSurfaceKHR* pSurface) {
	Surface* surface = vk::New<Surface>(pAllocator ? pAllocator : Instance::Cast(instance)->Allocator(),
	                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!surface) return VK_ERROR_OUT_OF_HOST_MEMORY;
	surface->wayland.base.platform = VK_ICD_WSI_PLATFORM_WAYLAND;
	surface->wayland.display = pCreateInfo->display;
	surface->wayland.surface = pCreateInfo->surface;
	*pSurface = surface->ToHandle();
	return VK_SUCCESS;
}

// Presentation copies into wl_shm buffers, which every compositor takes.
VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceWaylandPresentationSupportKHR(VkPhysicalDevice, uint32_t, wl_display*) {
	return VK_TRUE;
}

}  // namespace tessera::entry
