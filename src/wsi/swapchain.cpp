#include "wsi/swapchain.h"

#include <algorithm>

#include "runtime/log.h"
#include "vk/device.h"
#include "vk/device_memory.h"
#include "vk/image.h"
#include "vk/sync.h"
#include "wsi/capture.h"
#include "wsi/window.h"

namespace tessera::wsi {

Swapchain::Swapchain(vk::Device* device, const VkAllocationCallbacks* allocator, const VkSwapchainCreateInfoKHR& info)
    : device_(device),
      allocator_(allocator),
      surface_(Surface::Cast(info.surface)),
      info_(info),
      extent_(info.imageExtent) {
	info_.pNext = nullptr;
	info_.pQueueFamilyIndices = nullptr;
}

Swapchain::~Swapchain() {
	// Vulkan 1.3 §34.10: presents already queued complete before the
	// swapchain goes; the queue thread may be showing one of its images.
	device_->Wait([&] { return queued_ == 0; });
	capture_.reset();  // flushes the captured frames
	for (SwapchainImage& image : images_) {
		vk::Delete(allocator_, image.image);
		vk::Delete(allocator_, image.memory);
	}
}

VkResult Swapchain::Init() {
	try {
		images_.resize(info_.minImageCount);
		std::string capture_dir = FrameWriter::DirectoryFromEnvironment();
		if (!capture_dir.empty()) capture_ = std::make_unique<FrameWriter>(std::move(capture_dir));
		window_ = WindowPresenter::Create(*surface_, info_);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	if (window_ && window_->Lost()) return VK_ERROR_SURFACE_LOST_KHR;
	// Marks the images as a swapchain's: they stay rows of texels (never
	// tiled, see vk/image.cpp), as presentation and capture read them.
	VkImageSwapchainCreateInfoKHR swapchain_image{VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR};
	VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	image_info.pNext = &swapchain_image;
	image_info.imageType = VK_IMAGE_TYPE_2D;
	image_info.format = info_.imageFormat;
	image_info.extent = {extent_.width, extent_.height, 1};
	image_info.mipLevels = 1;
	image_info.arrayLayers = info_.imageArrayLayers;
	image_info.samples = VK_SAMPLE_COUNT_1_BIT;
	image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
	image_info.usage = info_.imageUsage;
	image_info.sharingMode = info_.imageSharingMode;
	image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	// VK_KHR_swapchain_mutable_format: views in the formats of the create
	// info's VkImageFormatListCreateInfo (vk/ views reinterpret the texels
	// of any size-compatible format; presentation reads imageFormat's).
	if (info_.flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR)
		image_info.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
	for (uint32_t i = 0; i < images_.size(); ++i) {
		SwapchainImage& slot = images_[i];
		slot.image = vk::New<vk::Image>(allocator_, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, image_info);
		if (!slot.image) return VK_ERROR_OUT_OF_HOST_MEMORY;
		if (!slot.image->Init()) return VK_ERROR_INITIALIZATION_FAILED;
		VkMemoryAllocateInfo memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		memory_info.allocationSize = slot.image->Requirements().size;
		slot.memory = vk::New<vk::DeviceMemory>(allocator_, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device_,
		                                        memory_info.allocationSize);
		if (!slot.memory) return VK_ERROR_OUT_OF_HOST_MEMORY;
		if (VkResult r = slot.memory->Init(memory_info); r != VK_SUCCESS) return r;
		slot.image->Bind(slot.memory, 0);
		free_.push_back(i);
	}
	return VK_SUCCESS;
}

VkImage Swapchain::ImageHandle(uint32_t index) const { return images_[index].image->ToHandle(); }

bool Swapchain::SurfaceChanged() const {
	VkExtent2D now;
	return WindowExtent(*surface_, &now) && (now.width != extent_.width || now.height != extent_.height);
}

VkResult Swapchain::Acquire(uint64_t timeout_ns, vk::Semaphore* semaphore, vk::Fence* fence, uint32_t* index) {
	if (device_->IsLost()) return VK_ERROR_DEVICE_LOST;
	if (window_ && window_->Lost()) return VK_ERROR_SURFACE_LOST_KHR;
	// Vulkan 1.3 §34.10: a surface whose size no longer matches the
	// swapchain's makes presentation to it fail with OUT_OF_DATE.
	if (SurfaceChanged()) return VK_ERROR_OUT_OF_DATE_KHR;
	bool retired = false;
	auto ready = [&] {
		retired = retired_;
		return retired || !free_.empty() || device_->IsLost();
	};
	{
		auto lock = device_->LockSync();
		if (!ready()) {
			lock.unlock();
			// timeout 0: VK_NOT_READY at once; otherwise VK_TIMEOUT.
			if (timeout_ns == 0) return VK_NOT_READY;
			if (!device_->WaitUntil(vk::Device::Deadline(timeout_ns), ready)) return VK_TIMEOUT;
			lock.lock();
		}
		if (retired) return VK_ERROR_OUT_OF_DATE_KHR;
		if (device_->IsLost()) return VK_ERROR_DEVICE_LOST;
		*index = free_.front();
		free_.pop_front();
		images_[*index].acquired = true;
	}
	// The image is free: nothing reads it any more, so the semaphore and
	// fence are signaled now (§34.10: they signal when the presentation
	// engine has finished reading the image).
	if (semaphore) semaphore->Signal(1);
	if (fence) fence->Signal();
	return VK_SUCCESS;
}

VkResult Swapchain::QueuePresent(uint32_t index) {
	{
		auto lock = device_->LockSync();
		images_[index].acquired = false;
		images_[index].queued = true;
		++queued_;
	}
	if (window_ && window_->Lost()) return VK_ERROR_SURFACE_LOST_KHR;
	return SurfaceChanged() ? VK_ERROR_OUT_OF_DATE_KHR : VK_SUCCESS;
}

void Swapchain::Present(uint32_t index, bool show) {
	vk::Image* image = images_[index].image;
	if (show && image->Data() && !device_->IsLost()) {
		const texture::SubresourceLayout& level = image->Layout().Level(0, 0);
		if (window_)
			window_->Show(image->Data() + level.offset, extent_.width, extent_.height, level.row_pitch, IsBgra());
		// Every shown present is counted, captured or not: render pass
		// captures are named by it (capture.h).
		const uint32_t frame_number = FrameWriter::NextFrameNumber();
		if (capture_) Capture(*image, frame_number);
	}
	{
		auto lock = device_->LockSync();
		images_[index].queued = false;
		--queued_;
		free_.push_back(index);
	}
	device_->Notify();
}

void Swapchain::Capture(const vk::Image& image, uint32_t frame_number) {
	const texture::SubresourceLayout& level = image.Layout().Level(0, 0);
	bool bgra = IsBgra();
	// The presentation engine reads alpha only with a PRE_MULTIPLIED swapchain
	// (Wayland offers it); otherwise it treats the image as opaque.
	const bool keep_alpha = info_.compositeAlpha == VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR;
	try {
		CapturedFrame frame;
		frame.width = extent_.width;
		frame.height = extent_.height;
		frame.rgba.resize(size_t(frame.width) * frame.height * 4);
		for (uint32_t y = 0; y < frame.height; ++y) {
			const uint8_t* src = image.Data() + level.offset + y * level.row_pitch;
			uint8_t* dst = frame.rgba.data() + size_t(y) * frame.width * 4;
			for (uint32_t x = 0; x < frame.width; ++x, src += 4, dst += 4) {
				// sRGB formats: the encoded bytes as they are.
				dst[0] = src[bgra ? 2 : 0];
				dst[1] = src[1];
				dst[2] = src[bgra ? 0 : 2];
				dst[3] = keep_alpha ? src[3] : 255;
			}
		}
		capture_->Write(frame_number, std::move(frame));
	} catch (const std::exception&) {
		runtime::Log(runtime::LogLevel::Error, "TESSERA_CAPTURE: out of memory, frame dropped");
	}
}

void Swapchain::Release(uint32_t count, const uint32_t* indices) {
	{
		auto lock = device_->LockSync();
		for (uint32_t i = 0; i < count; ++i) {
			images_[indices[i]].acquired = false;
			free_.push_back(indices[i]);
		}
	}
	device_->Notify();
}

void Swapchain::Retire() {
	{
		auto lock = device_->LockSync();
		retired_ = true;
	}
	device_->Notify();
}

}  // namespace tessera::wsi
