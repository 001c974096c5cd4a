// VkSwapchainKHR: a ring of Tessera images (vk::Image with their own memory)
// handed to the application by vkAcquireNextImageKHR and given back by
// vkQueuePresentKHR.
//
// Presentation is a copy done on the queue thread once the present's wait
// semaphores have signaled (and so after every earlier submission): the
// image goes to the window (X11, Wayland) and/or to the frame capture, and
// is then free again at once. There is no vertical blank to wait for, so
// every present mode shows every presented image in order, as soon as the
// queue reaches it; on Wayland, FIFO first waits (bounded) for the
// compositor's frame callback of the previous image (wayland.h).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "vk/object.h"
#include "wsi/surface.h"

namespace tessera::vk {
class Device;
class DeviceMemory;
class Fence;
class Image;
class Semaphore;
}  // namespace tessera::vk

namespace tessera::wsi {

class FrameWriter;
class WindowPresenter;

class Swapchain : public vk::Object<Swapchain, VkSwapchainKHR, VK_OBJECT_TYPE_SWAPCHAIN_KHR> {
public:
	Swapchain(vk::Device* device, const VkAllocationCallbacks* allocator, const VkSwapchainCreateInfoKHR& info);
	~Swapchain();
	VkResult Init();

	uint32_t ImageCount() const { return uint32_t(images_.size()); }
	VkImage ImageHandle(uint32_t index) const;
	vk::Image* GetImage(uint32_t index) const { return images_[index].image; }
	// For VkBindImageMemorySwapchainInfoKHR: the image's memory, at offset 0.
	vk::DeviceMemory* Memory(uint32_t index) const { return images_[index].memory; }
	VkExtent2D Extent() const { return extent_; }

	// vkAcquireNextImageKHR: waits up to the timeout for a free image, then
	// signals the semaphore and/or fence at once (the image is not read any
	// more once it is free).
	VkResult Acquire(uint64_t timeout_ns, vk::Semaphore* semaphore, vk::Fence* fence, uint32_t* index);
	// vkQueuePresentKHR, on the application's thread: the image becomes the
	// presentation engine's; returns the result for this swapchain.
	VkResult QueuePresent(uint32_t index);
	// On the queue thread, after the present's waits: shows the image (when
	// `show`), captures it, and makes it free again.
	void Present(uint32_t index, bool show);
	// vkReleaseSwapchainImagesEXT: acquired images back, not presented.
	void Release(uint32_t count, const uint32_t* indices);
	// oldSwapchain of a new swapchain (Vulkan 1.3 §34.10): no more acquires;
	// images already acquired may still be presented.
	void Retire();

private:
	struct SwapchainImage {
		vk::Image* image = nullptr;
		vk::DeviceMemory* memory = nullptr;
		bool acquired = false;  // guarded by the device's sync mutex
		bool queued = false;    // presented, not yet shown; same guard
	};

	bool SurfaceChanged() const;
	bool IsBgra() const {
		return info_.imageFormat == VK_FORMAT_B8G8R8A8_UNORM || info_.imageFormat == VK_FORMAT_B8G8R8A8_SRGB;
	}
	void Capture(const vk::Image& image, uint32_t frame_number);

	vk::Device* device_;
	const VkAllocationCallbacks* allocator_;
	Surface* surface_;
	VkSwapchainCreateInfoKHR info_;
	VkExtent2D extent_;
	std::vector<SwapchainImage> images_;
	std::deque<uint32_t> free_;  // guarded by the device's sync mutex; oldest first
	uint32_t queued_ = 0;        // same guard
	bool retired_ = false;       // same guard
	std::unique_ptr<FrameWriter> capture_;
	std::unique_ptr<WindowPresenter> window_;
};

}  // namespace tessera::wsi
