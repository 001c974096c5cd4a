// The reserved addresses of a sparse resource (VK_BUFFER_CREATE_SPARSE_BINDING_BIT,
// VK_IMAGE_CREATE_SPARSE_BINDING_BIT): the whole resource's range is
// reserved at creation, every block unbound (private zero pages), and
// vkQueueBindSparse maps pages of device memory into it. A sparse resource's
// bytes are where a bound one's would be, so everything that reads and
// writes resources works on it unchanged.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace tessera::vk {

class DeviceMemory;

class SparseRange {
public:
	// A block (VkMemoryRequirements::alignment of sparse resources): what one
	// bind maps at least, a multiple of the page size.
	static constexpr VkDeviceSize kBlockSize = 65536;
	static VkDeviceSize Reserved(VkDeviceSize size) { return (size + kBlockSize - 1) / kBlockSize * kBlockSize; }

	SparseRange() = default;
	SparseRange(const SparseRange&) = delete;
	SparseRange& operator=(const SparseRange&) = delete;
	~SparseRange();

	// Reserves Reserved(size) bytes, all unbound. VK_ERROR_OUT_OF_DEVICE_MEMORY
	// when the address space is not there.
	VkResult Init(VkDeviceSize size);
	uint8_t* Data() const { return data_; }
	VkDeviceSize Size() const { return size_; }
	// vkQueueBindSparse, on the queue thread: maps `size` bytes of memory
	// (of DeviceMemory::kSparseMemoryType) from memory_offset at
	// resource_offset; a null memory unbinds them. False when the bind lies
	// outside the range or the mapping fails (nothing else is touched).
	bool Bind(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory, VkDeviceSize memory_offset);
	// The same for a run of whole pages (a partially resident 3D image's
	// blocks are several runs: texture::SparseBlockBytes).
	bool BindPages(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
	               VkDeviceSize memory_offset);

private:
	uint8_t* data_ = nullptr;
	VkDeviceSize size_ = 0;
};

}  // namespace tessera::vk
