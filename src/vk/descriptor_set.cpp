#include "vk/descriptor_set.h"

#include <algorithm>
#include <cstring>

#include "texture/format.h"
#include "vk/buffer.h"
#include "vk/device.h"
#include "vk/image.h"
#include "vk/sampler.h"

namespace tessera::vk {

DescriptorSet::DescriptorSet(DescriptorPool* pool, DescriptorSetLayout* layout, uint32_t variable_count, uint32_t size)
    : pool_(pool), layout_(layout), variable_count_(variable_count), size_(size) {
	layout_->Retain();
	std::memset(Data(), 0, size_);
	FillImmutableSamplers();
}

DescriptorSet* DescriptorSet::PlacePushSet(void* memory, const DescriptorSetLayout& layout, uint32_t size,
                                           const DescriptorSet* previous) {
	auto* set = new (memory) DescriptorSet(layout, size);
	if (previous) {
		std::memcpy(set->Data(), previous->Data(), size);
	} else {
		std::memset(set->Data(), 0, size);
		set->FillImmutableSamplers();
	}
	return set;
}

void DescriptorSet::FillImmutableSamplers() {
	for (const DescriptorBinding& b : layout_->Bindings()) {
		if (!b.immutable_samplers) continue;
		uint32_t count = std::min(Count(b), b.count);
		for (uint32_t i = 0; i < count; ++i) {
			auto* descriptor = reinterpret_cast<ImageDescriptor*>(Data() + b.offset + i * b.stride);
			descriptor->sampler = b.immutable_samplers[i];
		}
	}
}

TexelBufferDescriptor MakeTexelBufferDescriptor(uint8_t* data, uint64_t range, VkFormat format) {
	const texture::FormatInfo* info = texture::FindFormat(format);
	const uint64_t block = info && info->block_size ? info->block_size : 1;
	return {data, uint32_t(std::min<uint64_t>(range / block, UINT32_MAX)), format};
}

void WriteDescriptor(DescriptorSet& set, const DescriptorBinding& binding, uint32_t element, const void* info,
                     VkDescriptorType type) {
	uint8_t* address = set.Data() + binding.offset + uint64_t(element) * binding.stride;
	const bool mutable_binding = binding.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT;
	if (mutable_binding) {
		// Marked unwritten while it changes kind; no field of the old kind stays.
		StoreMutableType(address, 0);
		std::memset(address, 0, kDescriptorSize);
	} else {
		type = binding.type;
	}
	switch (type) {
	case VK_DESCRIPTOR_TYPE_SAMPLER:
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
		auto& image = *static_cast<const VkDescriptorImageInfo*>(info);
		auto* descriptor = reinterpret_cast<ImageDescriptor*>(address);
		if (type != VK_DESCRIPTOR_TYPE_SAMPLER) descriptor->view = ImageView::Cast(image.imageView);
		// Vulkan 1.3 §14.2.4: immutable samplers are not changed by writes,
		// and only sampler types take the write's sampler.
		bool takes_sampler = type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
		if (takes_sampler && !binding.immutable_samplers) descriptor->sampler = Sampler::Cast(image.sampler);
		break;
	}
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
		auto* descriptor = reinterpret_cast<TexelBufferDescriptor*>(address);
		const BufferView* view = BufferView::Cast(*static_cast<const VkBufferView*>(info));
		if (!view) {
			*descriptor = {};
			break;
		}
		*descriptor =
		    MakeTexelBufferDescriptor(view->GetBuffer()->Data() + view->Offset(), view->Range(), view->Format());
		break;
	}
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
		auto& buffer_info = *static_cast<const VkDescriptorBufferInfo*>(info);
		auto* descriptor = reinterpret_cast<BufferDescriptor*>(address);
		const Buffer* buffer = Buffer::Cast(buffer_info.buffer);
		if (!buffer) {
			StoreBufferDescriptor(*descriptor, nullptr, 0);
			break;
		}
		StoreBufferDescriptor(
		    *descriptor, buffer->Data() + buffer_info.offset,
		    buffer_info.range == VK_WHOLE_SIZE ? buffer->Size() - buffer_info.offset : buffer_info.range);
		break;
	}
	default: return;  // inline uniform blocks are bytes: see WriteInlineBytes callers
	}
	if (mutable_binding) StoreMutableType(address, uint32_t(type) + 1);
}

DescriptorCursor::DescriptorCursor(DescriptorSet& set, uint32_t binding, uint32_t element)
    : set_(set), bindings_(set.Layout().Bindings()), index_(set.Layout().IndexOf(binding)), element_(element) {
	SkipFinished();
}

void DescriptorCursor::SkipFinished() {
	// A binding with no descriptors left (or none at all) hands over to the
	// next one, at its element 0.
	while (index_ < bindings_.size() && element_ >= set_.Count(bindings_[index_])) {
		element_ -= set_.Count(bindings_[index_]);
		++index_;
	}
}

void DescriptorCursor::Advance(uint32_t elements) {
	element_ += elements;
	SkipFinished();
}

void WriteInlineBytes(DescriptorCursor cursor, const uint8_t* bytes, uint32_t size) {
	while (size && cursor.Valid()) {
		uint32_t n = std::min(size, cursor.Remaining());
		std::memcpy(cursor.Address(), bytes, n);
		bytes += n;
		size -= n;
		cursor.Advance(n);
	}
}

namespace {

const void* WriteInfo(const VkWriteDescriptorSet& write, uint32_t i) {
	switch (write.descriptorType) {
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return &write.pTexelBufferView[i];
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: return &write.pBufferInfo[i];
	default: return &write.pImageInfo[i];
	}
}

}  // namespace

void WriteDescriptors(DescriptorSet& set, const VkWriteDescriptorSet& write) {
	DescriptorCursor cursor(set, write.dstBinding, write.dstArrayElement);
	if (write.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
		auto* block = FindInChain<VkWriteDescriptorSetInlineUniformBlock>(
		    write.pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);
		if (block) WriteInlineBytes(cursor, static_cast<const uint8_t*>(block->pData), write.descriptorCount);
		return;
	}
	for (uint32_t i = 0; i < write.descriptorCount && cursor.Valid(); ++i, cursor.Advance(1))
		WriteDescriptor(set, cursor.Binding(), cursor.Element(), WriteInfo(write, i), write.descriptorType);
}

namespace {

bool IsBufferDescriptor(VkDescriptorType type) {
	return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
	       type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

void ApplyCopy(const VkCopyDescriptorSet& copy) {
	DescriptorSet& src_set = *DescriptorSet::Cast(copy.srcSet);
	DescriptorSet& dst_set = *DescriptorSet::Cast(copy.dstSet);
	DescriptorCursor src(src_set, copy.srcBinding, copy.srcArrayElement);
	DescriptorCursor dst(dst_set, copy.dstBinding, copy.dstArrayElement);
	// descriptorCount counts bytes for inline uniform blocks, descriptors otherwise.
	uint32_t left = copy.descriptorCount;
	while (left && src.Valid() && dst.Valid()) {
		uint32_t n = std::min({left, src.Remaining(), dst.Remaining()});
		const DescriptorBinding& to = dst.Binding();
		const DescriptorBinding& from_binding = src.Binding();
		if (to.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT || from_binding.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT) {
			// Descriptor by descriptor with its type (a mutable binding holds
			// it after the descriptor), in the order that keeps an
			// overlapping copy within one set right.
			const bool backwards = dst.Address() > src.Address();
			for (uint32_t k = 0; k < n; ++k) {
				const uint32_t i = backwards ? n - 1 - k : k;
				const uint8_t* from = src.Address() + uint64_t(i) * from_binding.stride;
				uint8_t* into = dst.Address() + uint64_t(i) * to.stride;
				VkDescriptorType type{};
				const bool written = DescriptorType(from_binding, from, &type);
				uint8_t descriptor[kDescriptorSize] = {};
				if (written) std::memcpy(descriptor, from, kDescriptorSize);
				if (to.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT) StoreMutableType(into, 0);
				std::memcpy(into, descriptor, kDescriptorSize);
				if (to.type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT) StoreMutableType(into, written ? uint32_t(type) + 1 : 0);
			}
		} else if (to.immutable_samplers && to.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
			// Keep the destination's immutable samplers; copy the views.
			for (uint32_t i = 0; i < n; ++i)
				reinterpret_cast<ImageDescriptor*>(dst.Address() + i * to.stride)->view =
				    reinterpret_cast<const ImageDescriptor*>(src.Address() + i * to.stride)->view;
		} else if (IsBufferDescriptor(to.type)) {
			// Element by element, in the order that keeps an overlapping copy
			// within one set right; atomically (StoreBufferDescriptor).
			auto* from = reinterpret_cast<const BufferDescriptor*>(src.Address());
			auto* to_descriptors = reinterpret_cast<BufferDescriptor*>(dst.Address());
			const bool backwards = to_descriptors > from;
			for (uint32_t k = 0; k < n; ++k) {
				const uint32_t i = backwards ? n - 1 - k : k;
				const BufferDescriptor d = LoadBufferDescriptor(from[i]);
				StoreBufferDescriptor(to_descriptors[i], d.data, d.range);
			}
		} else if (!(to.immutable_samplers && to.type == VK_DESCRIPTOR_TYPE_SAMPLER)) {
			// memmove: a copy within one set may overlap.
			std::memmove(dst.Address(), src.Address(), size_t(n) * to.stride);
		}
		src.Advance(n);
		dst.Advance(n);
		left -= n;
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice, uint32_t descriptorWriteCount,
                                                const VkWriteDescriptorSet* pDescriptorWrites,
                                                uint32_t descriptorCopyCount,
                                                const VkCopyDescriptorSet* pDescriptorCopies) {
	// Vulkan 1.3 §14.2.4: writes happen first, in order, then copies.
	for (uint32_t i = 0; i < descriptorWriteCount; ++i)
		vk::WriteDescriptors(*vk::DescriptorSet::Cast(pDescriptorWrites[i].dstSet), pDescriptorWrites[i]);
	for (uint32_t i = 0; i < descriptorCopyCount; ++i) vk::ApplyCopy(pDescriptorCopies[i]);
}

}  // namespace tessera::entry
