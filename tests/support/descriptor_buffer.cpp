#include "descriptor_buffer.h"

#include <catch2/catch.hpp>

#include <cstring>

namespace tessera::test {

VkDeviceAddress DeviceAddress(VkDevice device, VkBuffer buffer) {
	VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
	info.buffer = buffer;
	return vkGetBufferDeviceAddress(device, &info);
}

DescriptorBuffer::DescriptorBuffer(Context& ctx, VkDescriptorSetLayout layout, VkDeviceSize size, VkDeviceSize offset,
                                   uint8_t fill)
    : ctx_(&ctx), layout_(layout), offset_(offset) {
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props_};
	vkGetPhysicalDeviceProperties2(ctx.physical_device(), &p2);
	binding_offset_ =
	    ctx.Proc<PFN_vkGetDescriptorSetLayoutBindingOffsetEXT>("vkGetDescriptorSetLayoutBindingOffsetEXT");
	get_descriptor_ = ctx.Proc<PFN_vkGetDescriptorEXT>("vkGetDescriptorEXT");
	auto layout_size = ctx.Proc<PFN_vkGetDescriptorSetLayoutSizeEXT>("vkGetDescriptorSetLayoutSizeEXT");
	REQUIRE(binding_offset_);
	REQUIRE(get_descriptor_);
	REQUIRE(layout_size);
	if (size == 0) layout_size(ctx.device(), layout, &size);
	buffer_ = ctx.CreateBuffer(offset + size, kDescriptorBufferUsage);
	std::memset(buffer_.data, fill, buffer_.size);
}

size_t DescriptorBuffer::Size(VkDescriptorType type) const {
	switch (type) {
	case VK_DESCRIPTOR_TYPE_SAMPLER: return props_.samplerDescriptorSize;
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return props_.combinedImageSamplerDescriptorSize;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return props_.sampledImageDescriptorSize;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return props_.storageImageDescriptorSize;
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: return props_.inputAttachmentDescriptorSize;
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return props_.uniformTexelBufferDescriptorSize;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return props_.storageTexelBufferDescriptorSize;
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return props_.uniformBufferDescriptorSize;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return props_.storageBufferDescriptorSize;
	default: return 0;
	}
}

VkDeviceSize DescriptorBuffer::BindingOffset(uint32_t binding) const {
	VkDeviceSize offset = 0;
	binding_offset_(ctx_->device(), layout_, binding, &offset);
	return offset;
}

void DescriptorBuffer::Put(uint32_t binding, uint32_t element, VkDescriptorType type, const VkDescriptorDataEXT& data,
                           size_t stride) const {
	VkDescriptorGetInfoEXT info{VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT};
	info.type = type;
	info.data = data;
	get_descriptor_(ctx_->device(), &info, Size(type),
	                SetData() + BindingOffset(binding) + element * (stride ? stride : Size(type)));
}

void DescriptorBuffer::PutBuffer(uint32_t binding, uint32_t element, VkDescriptorType type, VkBuffer buffer,
                                 VkDeviceSize range, VkFormat format, size_t stride) const {
	VkDescriptorAddressInfoEXT address{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT};
	address.address = DeviceAddress(ctx_->device(), buffer);
	address.range = range;
	address.format = format;
	VkDescriptorDataEXT data{};
	switch (type) {
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: data.pUniformTexelBuffer = &address; break;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: data.pStorageTexelBuffer = &address; break;
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: data.pUniformBuffer = &address; break;
	default: data.pStorageBuffer = &address; break;
	}
	Put(binding, element, type, data, stride);
}

void DescriptorBuffer::PutImage(uint32_t binding, uint32_t element, VkDescriptorType type,
                                const VkDescriptorImageInfo& image, size_t stride) const {
	VkDescriptorDataEXT data{};
	switch (type) {
	case VK_DESCRIPTOR_TYPE_SAMPLER: data.pSampler = &image.sampler; break;
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: data.pCombinedImageSampler = &image; break;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: data.pSampledImage = &image; break;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: data.pStorageImage = &image; break;
	default: data.pInputAttachmentImage = &image; break;
	}
	Put(binding, element, type, data, stride);
}

void DescriptorBuffer::Bind(VkCommandBuffer cb, VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                            uint32_t set) const {
	auto bind = ctx_->Proc<PFN_vkCmdBindDescriptorBuffersEXT>("vkCmdBindDescriptorBuffersEXT");
	auto set_offsets = ctx_->Proc<PFN_vkCmdSetDescriptorBufferOffsetsEXT>("vkCmdSetDescriptorBufferOffsetsEXT");
	REQUIRE(bind);
	REQUIRE(set_offsets);
	VkDescriptorBufferBindingInfoEXT binding{VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT};
	binding.address = DeviceAddress(ctx_->device(), buffer_.buffer);
	binding.usage = kDescriptorBufferUsage;
	bind(cb, 1, &binding);
	const uint32_t index = 0;
	set_offsets(cb, bind_point, layout, set, 1, &index, &offset_);
}

void DescriptorBuffer::Destroy() {
	if (ctx_) ctx_->Destroy(buffer_);
	ctx_ = nullptr;
}

}  // namespace tessera::test
