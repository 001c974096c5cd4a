// Presentation to a Wayland surface (VK_KHR_wayland_surface) through wl_shm:
// each presented image is copied into a shared-memory wl_buffer, which is
// attached to the application's wl_surface and committed.
//
// libwayland-client is opened with dlopen (the driver has no link-time
// dependency on it); the protocol requests are marshaled by hand, since the
// helpers of wayland-client-protocol.h would link against the library.
// All of the driver's objects live on a private wl_event_queue, so their
// events (wl_buffer.release, wl_surface.frame's done) are dispatched only by
// the presenter, on the queue thread, never on the application's queues.
//
// Present modes: FIFO waits (at most 250 ms) for the frame callback of the
// previous commit before committing; MAILBOX and IMMEDIATE commit at once,
// and the compositor shows the latest commit at its next repaint (Wayland
// compositors do not tear, so IMMEDIATE behaves as MAILBOX). Buffers: a
// ring of at most four, each reused only after its wl_buffer.release.
#pragma once

#include <memory>

#include "wsi/window.h"

namespace tessera::wsi {

// A presenter for a Wayland surface's swapchain; a presenter that reports
// Lost() when the display has failed or offers no wl_shm, nullptr when
// libwayland-client cannot be loaded or memory runs out.
std::unique_ptr<WindowPresenter> CreateWaylandPresenter(const Surface& surface, const VkSwapchainCreateInfoKHR& info);

}  // namespace tessera::wsi
