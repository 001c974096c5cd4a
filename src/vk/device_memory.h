// VkDeviceMemory: plain host memory. Memory that may be exported as an
// opaque file descriptor is a memfd mapping, so another process (or another
// Vulkan device) can map the same pages; memory imported from a host pointer
// (VK_EXT_external_memory_host) is the application's own pages.
#pragma once

#include <cstdint>

#include "vk/object.h"

namespace tessera::vk {

class Device;

class DeviceMemory : public Object<DeviceMemory, VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY> {
public:
	static constexpr size_t kAlignment = 64;
	static constexpr VkDeviceSize kMapThreshold = 1 << 20;
	// minImportedHostPointerAlignment: host pointers and sizes imported are
	// multiples of the page size.
	static constexpr VkDeviceSize kHostImportAlignment = 4096;

	DeviceMemory(Device* device, VkDeviceSize size) : device_(device), size_(size) {}
	~DeviceMemory();
	VkResult Init(const VkMemoryAllocateInfo& info);

	uint8_t* Data() const { return data_; }
	VkDeviceSize Size() const { return size_; }
	// A new descriptor for the same pages (VK_KHR_external_memory_fd).
	VkResult ExportFd(int* fd) const;

private:
	VkResult AllocateShareable();
	VkResult Import(int fd);

	Device* device_;
	VkDeviceSize size_;
	uint8_t* data_ = nullptr;
	int fd_ = -1;               // memfd backing data_, or -1 for plain heap memory
	size_t mapped_size_ = 0;    // of an mmap()ed allocation
	bool host_import_ = false;  // data_ is the application's (never freed here)
};

// The handle types of VK_EXT_external_memory_host.
bool IsHostPointerHandle(VkExternalMemoryHandleTypeFlagBits type);

}  // namespace tessera::vk
