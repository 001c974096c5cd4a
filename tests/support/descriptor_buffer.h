// Test support: one descriptor set placed in a descriptor buffer
// (VK_EXT_descriptor_buffer) the way an application places it: descriptors
// from vkGetDescriptorEXT at the offsets vkGetDescriptorSetLayoutBindingOffsetEXT
// gives, the sizes VkPhysicalDeviceDescriptorBufferPropertiesEXT reports.
// The context must enable descriptorBuffer and bufferDeviceAddress.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "vk_context.h"

namespace tessera::test {

// The buffer usage of a descriptor buffer that holds samplers and resources.
constexpr VkBufferUsageFlags kDescriptorBufferUsage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                                      VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT |
                                                      VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

VkDeviceAddress DeviceAddress(VkDevice device, VkBuffer buffer);

class DescriptorBuffer {
public:
	DescriptorBuffer() = default;
	// A buffer of `size` bytes (0: vkGetDescriptorSetLayoutSizeEXT's) for a
	// set of `layout` at `offset`, filled with `fill` (garbage where nothing
	// is written).
	DescriptorBuffer(Context& ctx, VkDescriptorSetLayout layout, VkDeviceSize size = 0, VkDeviceSize offset = 0,
	                 uint8_t fill = 0xa5);

	const VkPhysicalDeviceDescriptorBufferPropertiesEXT& Properties() const { return props_; }
	// The size of one descriptor of a type (its stride in an array).
	size_t Size(VkDescriptorType type) const;
	VkDeviceSize BindingOffset(uint32_t binding) const;
	uint8_t* SetData() const { return buffer_.data + offset_; }

	// Writes element `element` of `binding` (elements `stride` bytes apart;
	// 0: the size of `type`'s descriptors).
	void Put(uint32_t binding, uint32_t element, VkDescriptorType type, const VkDescriptorDataEXT& data,
	         size_t stride = 0) const;
	// A buffer descriptor over `range` bytes of `buffer` from its start
	// (`format`: a texel buffer's).
	void PutBuffer(uint32_t binding, uint32_t element, VkDescriptorType type, VkBuffer buffer, VkDeviceSize range,
	               VkFormat format = VK_FORMAT_UNDEFINED, size_t stride = 0) const;
	void PutImage(uint32_t binding, uint32_t element, VkDescriptorType type, const VkDescriptorImageInfo& image,
	              size_t stride = 0) const;

	// Binds the buffer (vkCmdBindDescriptorBuffersEXT) and the set at its
	// offset as set `set`.
	void Bind(VkCommandBuffer cb, VkPipelineBindPoint bind_point, VkPipelineLayout layout, uint32_t set = 0) const;

	VkBuffer buffer() const { return buffer_.buffer; }
	void Destroy();

private:
	Context* ctx_ = nullptr;
	VkDescriptorSetLayout layout_ = VK_NULL_HANDLE;
	VkDeviceSize offset_ = 0;
	VkPhysicalDeviceDescriptorBufferPropertiesEXT props_{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
	PFN_vkGetDescriptorSetLayoutBindingOffsetEXT binding_offset_ = nullptr;
	PFN_vkGetDescriptorEXT get_descriptor_ = nullptr;
	TestBuffer buffer_;
};

}  // namespace tessera::test
