// VkSurfaceKHR: what a swapchain presents to. A surface is either one the
// driver made (vkCreate*SurfaceKHR, loader interface version 3 and later) or
// one the loader made and passes through; both begin with the loader's
// VkIcdSurfaceBase, so one layout serves both.
#pragma once

#include <vulkan/vk_icd.h>

#include <cstdint>
#include <vector>

#include "vk/object.h"

namespace tessera::wsi {

// The layouts of vk_icd.h's VkIcdSurfaceXcb and VkIcdSurfaceXlib, without
// the X headers (xcb_window_t is a uint32_t, an X11 Window an unsigned long).
struct XcbSurfaceData {
	VkIcdSurfaceBase base;
	void* connection;  // xcb_connection_t*
	uint32_t window;
};
struct XlibSurfaceData {
	VkIcdSurfaceBase base;
	void* display;  // Display*
	unsigned long window;
};
// VkIcdSurfaceWayland without the Wayland headers.
struct WaylandSurfaceData {
	VkIcdSurfaceBase base;
	void* display;  // wl_display*
	void* surface;  // wl_surface*
};

struct Surface : vk::Object<Surface, VkSurfaceKHR, VK_OBJECT_TYPE_SURFACE_KHR> {
	union {
		VkIcdSurfaceBase base;
		VkIcdSurfaceHeadless headless;
		XcbSurfaceData xcb;
		XlibSurfaceData xlib;
		WaylandSurfaceData wayland;
	};

	VkIcdWsiPlatform Platform() const { return base.platform; }
	bool IsHeadless() const { return base.platform == VK_ICD_WSI_PLATFORM_HEADLESS; }
};

// Vulkan 1.3 §34.5: what a swapchain on this surface may be.
VkSurfaceCapabilitiesKHR SurfaceCapabilities(const Surface& surface, uint32_t max_dimension);
// The formats (all with SRGB_NONLINEAR) a swapchain may use.
const std::vector<VkSurfaceFormatKHR>& SurfaceFormats();
// The present modes: all behave alike here (swapchain.h).
const std::vector<VkPresentModeKHR>& PresentModes();

}  // namespace tessera::wsi
