// VkBuffer and VkBufferView.
#pragma once

#include "vk/device_memory.h"
#include "vk/object.h"
#include "vk/sparse_range.h"

namespace tessera::vk {

class Buffer : public Object<Buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER> {
public:
	static constexpr VkDeviceSize kAlignment = 64;

	// Nothing depends on the usage (VkBufferCreateInfo's or, with
	// VK_KHR_maintenance5, VkBufferUsageFlags2CreateInfoKHR's): every buffer
	// serves every use with the same requirements.
	explicit Buffer(const VkBufferCreateInfo& info) : size_(info.size), flags_(info.flags) {}
	~Buffer();
	// A sparse buffer (VK_BUFFER_CREATE_SPARSE_BINDING_BIT) reserves its
	// address range, every block unbound (zero pages), and adds it to the
	// device's live ranges for device-address accesses.
	VkResult Init(Device* device);

	VkDeviceSize Size() const { return size_; }
	bool Sparse() const { return flags_ & VK_BUFFER_CREATE_SPARSE_BINDING_BIT; }
	void Bind(DeviceMemory* memory, VkDeviceSize offset) {
		memory_ = memory;
		offset_ = offset;
	}
	// vkQueueBindSparse, on the queue thread: maps `size` bytes of memory
	// from memory_offset at resource_offset (a null memory unbinds them).
	// False when the mapping fails.
	bool BindSparse(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
	                VkDeviceSize memory_offset);
	uint8_t* Data() const {
		if (sparse_.Data()) return sparse_.Data();
		return memory_ ? memory_->Data() + offset_ : nullptr;
	}
	// Sparse buffers bind only memory of kSparseMemoryType; others any type.
	VkMemoryRequirements Requirements() const;

private:
	VkDeviceSize size_;
	VkBufferCreateFlags flags_;
	DeviceMemory* memory_ = nullptr;
	VkDeviceSize offset_ = 0;
	Device* device_ = nullptr;
	SparseRange sparse_;  // a sparse buffer's reserved addresses
};

// Memory a command reads or writes: a buffer's bytes from an offset to its
// end, or an address range of VK_KHR_device_address_commands (device
// addresses are host pointers, vkGetBufferDeviceAddress).
struct MemoryRange {
	uint8_t* data = nullptr;  // null: none (no buffer, unbound, past its end, address 0)
	uint64_t size = 0;
	// The `bytes` at `offset` in the range, or null where they do not fit.
	uint8_t* At(uint64_t offset, uint64_t bytes) const {
		return data && offset <= size && bytes <= size - offset ? data + offset : nullptr;
	}
};

inline MemoryRange RangeOf(const Buffer* buffer, VkDeviceSize offset) {
	if (!buffer || !buffer->Data() || offset > buffer->Size()) return {};
	return {buffer->Data() + offset, buffer->Size() - offset};
}

inline MemoryRange RangeOf(VkDeviceAddress address, VkDeviceSize size) {
	if (!address) return {};
	return {reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address)), size};
}

class BufferView : public Object<BufferView, VkBufferView, VK_OBJECT_TYPE_BUFFER_VIEW> {
public:
	explicit BufferView(const VkBufferViewCreateInfo& info);

	Buffer* GetBuffer() const { return buffer_; }
	VkFormat Format() const { return format_; }
	VkDeviceSize Offset() const { return offset_; }
	VkDeviceSize Range() const { return range_; }

private:
	Buffer* buffer_;
	VkFormat format_;
	VkDeviceSize offset_;
	VkDeviceSize range_;  // VK_WHOLE_SIZE resolved
};

}  // namespace tessera::vk
