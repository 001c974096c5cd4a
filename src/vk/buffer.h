// VkBuffer and VkBufferView.
#pragma once

#include "vk/device_memory.h"
#include "vk/object.h"

namespace tessera::vk {

class Buffer : public Object<Buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER> {
public:
	static constexpr VkDeviceSize kAlignment = 64;

	explicit Buffer(const VkBufferCreateInfo& info) : size_(info.size), usage_(info.usage), flags_(info.flags) {}

	VkDeviceSize Size() const { return size_; }
	VkBufferUsageFlags Usage() const { return usage_; }
	void Bind(DeviceMemory* memory, VkDeviceSize offset) {
		memory_ = memory;
		offset_ = offset;
	}
	uint8_t* Data() const { return memory_ ? memory_->Data() + offset_ : nullptr; }
	VkMemoryRequirements Requirements() const { return {(size_ + 15) / 16 * 16, kAlignment, 1u}; }

private:
	VkDeviceSize size_;
	VkBufferUsageFlags usage_;
	VkBufferCreateFlags flags_;
	DeviceMemory* memory_ = nullptr;
	VkDeviceSize offset_ = 0;
};

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
