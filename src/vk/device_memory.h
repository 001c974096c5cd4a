// VkDeviceMemory: plain host memory. Memory that may be exported as an
// opaque file descriptor is a memfd mapping, so another process (or another
// Vulkan device) can map the same pages; memory imported from a descriptor
// (an opaque one, or a Linux dma-buf: VK_EXT_external_memory_dma_buf) is a
// shared mapping of it; memory imported from a host pointer
// (VK_EXT_external_memory_host) is the application's own pages.
#pragma once

#include <cstdint>

#include "vk/object.h"

namespace tessera::vk {

class Device;

class DeviceMemory : public Object<DeviceMemory, VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY> {
public:
	static constexpr size_t kAlignment = 64;
	// Memory of this type (the second, with the same properties as the
	// first) is a memfd mapping, so that vkQueueBindSparse can map its
	// pages into a sparse buffer's addresses.
	static constexpr uint32_t kSparseMemoryType = 1;
	static constexpr VkDeviceSize kMapThreshold = 1 << 20;
	// minImportedHostPointerAlignment: host pointers and sizes imported are
	// multiples of the page size.
	static constexpr VkDeviceSize kPageSize = 4096;
	static constexpr VkDeviceSize kHostImportAlignment = kPageSize;
	static constexpr VkDeviceSize RoundUpToPage(VkDeviceSize bytes) {
		return (bytes + kPageSize - 1) / kPageSize * kPageSize;
	}

	DeviceMemory(Device* device, VkDeviceSize size) : device_(device), size_(size) {}
	~DeviceMemory();
	VkResult Init(const VkMemoryAllocateInfo& info);

	uint8_t* Data() const { return data_; }
	// The memfd behind the allocation, or -1 (heap memory, host pointers).
	int Fd() const { return fd_; }
	VkDeviceSize Size() const { return size_; }
	// A new descriptor for the same pages (VK_KHR_external_memory_fd), of
	// the type the memory has: opaque for exportable memory, the imported
	// descriptor's type for imported memory.
	VkResult ExportFd(VkExternalMemoryHandleTypeFlagBits type, int* fd) const;
	// Adds the allocation to ProcessMemoryUsage() until it is freed
	// (host pointer imports excepted).
	void CountUsage();

private:
	VkResult AllocateShareable();
	VkResult Import(int fd, VkExternalMemoryHandleTypeFlagBits type);

	Device* device_;
	VkDeviceSize size_;
	uint8_t* data_ = nullptr;
	int fd_ = -1;  // memfd backing data_, or -1 for plain heap memory
	// What fd_ is: a memfd (opaque) or an imported dma-buf.
	VkExternalMemoryHandleTypeFlagBits fd_type_ = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	size_t mapped_size_ = 0;    // of an mmap()ed allocation
	bool host_import_ = false;  // data_ is the application's (never freed here)
	bool counted_ = false;      // size_ is in ProcessMemoryUsage()
};

// The bytes a descriptor of the given type holds (0: none, or not a
// descriptor of a file that has a size).
VkDeviceSize DescriptorSize(int fd, VkExternalMemoryHandleTypeFlagBits type);

// The handle types of VK_EXT_external_memory_host.
bool IsHostPointerHandle(VkExternalMemoryHandleTypeFlagBits type);

// The bytes of device memory this process holds now, on every device (all
// of it in the one heap): what VK_EXT_memory_budget reports as heapUsage.
// Imported host pointers are the application's memory and do not count.
VkDeviceSize ProcessMemoryUsage();

// VK_EXT_memory_budget's heapBudget for a heap of heap_size bytes: what
// this process holds plus what it could still get, which is the smallest
// of the system's available memory (/proc/meminfo MemAvailable) and the
// room left under the process's cgroup memory limit (v2 memory.max, or v1
// memory.limit_in_bytes), never more than the heap.
VkDeviceSize MemoryBudget(VkDeviceSize heap_size, VkDeviceSize usage);

}  // namespace tessera::vk
