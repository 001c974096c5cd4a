// Showing presented images in a window: X11 through xcb (window.cpp) or
// Wayland through wl_shm (wayland.cpp), the libraries loaded at run time so
// that the driver has no link-time dependency on either window system.
#pragma once

#include <cstdint>
#include <memory>

#include "wsi/surface.h"

namespace tessera::wsi {

class WindowPresenter {
public:
	// A presenter for the swapchain's window, or nullptr for a surface
	// without one (headless) or when the libraries cannot be loaded.
	static std::unique_ptr<WindowPresenter> Create(const Surface& surface, const VkSwapchainCreateInfoKHR& info);
	virtual ~WindowPresenter() = default;

	// Copies 32-bit pixels (BGRA, or RGBA when !bgra; rows `stride` bytes
	// apart) into the window.
	virtual void Show(const uint8_t* pixels, uint32_t width, uint32_t height, uint64_t stride, bool bgra) = 0;
	// The window system is gone (a Wayland display with a fatal error):
	// presentation fails with VK_ERROR_SURFACE_LOST_KHR. Any thread.
	virtual bool Lost() const { return false; }
};

// The window's size, for surface capabilities and out-of-date checks;
// false when the surface has no window or it cannot be asked.
bool WindowExtent(const Surface& surface, VkExtent2D* extent);

}  // namespace tessera::wsi
