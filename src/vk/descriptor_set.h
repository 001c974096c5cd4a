// VkDescriptorSet and the in-memory format shaders read descriptors in.
//
// A set is one contiguous block of memory (Data()). Each binding of its
// layout starts at a fixed byte offset (DescriptorBinding::offset, a multiple
// of 16) and holds its array elements kDescriptorSize (16) bytes apart, so
// descriptor `i` of a binding lives at
//     Data() + binding.offset + i * binding.stride
// and a shader that knows the layout reaches any descriptor with arithmetic.
// Each descriptor is one of the plain structs below, chosen by the binding's
// type:
//
//   type                                   struct                 fields
//   SAMPLER                                ImageDescriptor        sampler (view null)
//   COMBINED_IMAGE_SAMPLER                 ImageDescriptor        view, sampler
//   SAMPLED_IMAGE, STORAGE_IMAGE,
//   INPUT_ATTACHMENT                       ImageDescriptor        view (sampler null)
//   UNIFORM/STORAGE_TEXEL_BUFFER           TexelBufferDescriptor  data, element count, format
//   UNIFORM/STORAGE_BUFFER(_DYNAMIC)       BufferDescriptor       data (offset applied), range
//   INLINE_UNIFORM_BLOCK                   the block's bytes themselves (stride 1)
//   MUTABLE_EXT                            any of the above but inline blocks, then the
//                                          type written (stride 32; see DescriptorType)
//
// A dynamic buffer descriptor holds the address at its VkDescriptorBufferInfo
// offset; the dynamic offset bound with vkCmdBindDescriptorSets is added when
// the shader reads it (ExecutionContext::descriptor_sets). Immutable samplers
// are written when the set is allocated and writes leave them alone. A
// descriptor never written is all zeros (null pointers, zero range).
#pragma once

#include <atomic>

#include "vk/descriptor_set_layout.h"
#include "vk/object.h"

namespace tessera::vk {

class Buffer;
class BufferView;
class DescriptorPool;
class ImageView;
class Sampler;

struct BufferDescriptor {
	uint8_t* data;   // the buffer's memory at the descriptor's offset
	uint64_t range;  // VK_WHOLE_SIZE resolved
};

// Buffer descriptors are copied when a dispatch or draw starts, every element
// of the bindings its program declares, while the application may rewrite
// the elements the work does not use (descriptorBindingUpdateUnusedWhilePending).
// Both sides go through these relaxed atomic accesses: a descriptor copied
// while it is rewritten may come out torn (a new pointer with an old range),
// a defined value that the work never uses, where plain accesses would be a
// data race.
inline void StoreBufferDescriptor(BufferDescriptor& d, uint8_t* data, uint64_t range) {
	std::atomic_ref<uint8_t*>(d.data).store(data, std::memory_order_relaxed);
	std::atomic_ref<uint64_t>(d.range).store(range, std::memory_order_relaxed);
}
inline BufferDescriptor LoadBufferDescriptor(const BufferDescriptor& d) {
	auto& mutable_d = const_cast<BufferDescriptor&>(d);  // atomic_ref<const T> is C++26
	return {std::atomic_ref<uint8_t*>(mutable_d.data).load(std::memory_order_relaxed),
	        std::atomic_ref<uint64_t>(mutable_d.range).load(std::memory_order_relaxed)};
}

struct ImageDescriptor {
	const ImageView* view;
	const Sampler* sampler;
};

struct TexelBufferDescriptor {
	uint8_t* data;           // the view's first texel
	uint32_t element_count;  // texels in the view
	VkFormat format;
};

// The type of the descriptor at `memory` in a binding: the binding's type,
// or for a mutable binding (VK_EXT_mutable_descriptor_type) the type it was
// last written or copied as, kept in the word after the descriptor as the
// type plus one (0: never written; false). A shader that reads a mutable
// descriptor as another kind than it holds reads no descriptor.
inline bool DescriptorType(const DescriptorBinding& binding, const uint8_t* memory, VkDescriptorType* type) {
	if (binding.type != VK_DESCRIPTOR_TYPE_MUTABLE_EXT) {
		*type = binding.type;
		return true;
	}
	auto* tag = const_cast<uint32_t*>(reinterpret_cast<const uint32_t*>(memory + kDescriptorSize));
	uint32_t value = std::atomic_ref<uint32_t>(*tag).load(std::memory_order_acquire);
	if (value == 0) return false;
	*type = VkDescriptorType(value - 1);
	return true;
}
inline void StoreMutableType(uint8_t* memory, uint32_t tag) {
	std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(memory + kDescriptorSize))
	    .store(tag, std::memory_order_release);
}

static_assert(sizeof(BufferDescriptor) == kDescriptorSize);
static_assert(sizeof(ImageDescriptor) == kDescriptorSize);
static_assert(sizeof(TexelBufferDescriptor) == kDescriptorSize);

class alignas(16) DescriptorSet : public Object<DescriptorSet, VkDescriptorSet, VK_OBJECT_TYPE_DESCRIPTOR_SET> {
public:
	// The set's memory follows the object in the same allocation.
	static size_t AllocationSize(uint64_t data_size) { return sizeof(DescriptorSet) + size_t(data_size); }

	// Takes a reference on the layout; fills immutable samplers.
	DescriptorSet(DescriptorPool* pool, DescriptorSetLayout* layout, uint32_t variable_count, uint32_t size);
	~DescriptorSet() {
		if (pool_) layout_->Release();
	}

	// A push descriptor set (VK_KHR_push_descriptor) in command buffer
	// memory, which is dropped whole and never runs destructors: it has no
	// pool and holds no reference on its layout, which is read only while
	// pushes are recorded. Its contents start as a copy of previous (the
	// set the last push to the same set number made; pushes update
	// incrementally, Vulkan 1.3 §14.2.10), or zeros and the immutable
	// samplers when previous is null.
	static DescriptorSet* PlacePushSet(void* memory, const DescriptorSetLayout& layout, uint32_t size,
	                                   const DescriptorSet* previous);

	DescriptorPool* Pool() const { return pool_; }  // null for a push set
	const DescriptorSetLayout& Layout() const { return *layout_; }
	uint32_t VariableCount() const { return variable_count_; }
	// Descriptors a binding holds in this set (variable count resolved).
	uint32_t Count(const DescriptorBinding& binding) const {
		return binding.IsVariableCount() ? variable_count_ : binding.count;
	}
	uint8_t* Data() { return reinterpret_cast<uint8_t*>(this + 1); }
	const uint8_t* Data() const { return reinterpret_cast<const uint8_t*>(this + 1); }
	uint32_t Size() const { return size_; }

	// The pool's list of its sets.
	DescriptorSet* prev = nullptr;
	DescriptorSet* next = nullptr;

private:
	DescriptorSet(const DescriptorSetLayout& layout, uint32_t size)
	    : pool_(nullptr), layout_(const_cast<DescriptorSetLayout*>(&layout)), variable_count_(0), size_(size) {}
	void FillImmutableSamplers();

	DescriptorPool* pool_;
	DescriptorSetLayout* layout_;
	uint32_t variable_count_;
	uint32_t size_;
};

static_assert(sizeof(DescriptorSet) % 16 == 0, "the set's memory after the object stays 16-byte aligned");

// A texel buffer descriptor over `range` bytes at `data`, read as `format`:
// what a VkBufferView and a VkDescriptorAddressInfoEXT both describe.
TexelBufferDescriptor MakeTexelBufferDescriptor(uint8_t* data, uint64_t range, VkFormat format);

// Writes one descriptor of a binding from the API's description of it
// (a VkDescriptorImageInfo, VkDescriptorBufferInfo or VkBufferView, as
// `type`, the write's descriptor type, says: the binding's own type, or one
// of its types when it is mutable). Inline uniform blocks are written with
// WriteInlineBytes.
void WriteDescriptor(DescriptorSet& set, const DescriptorBinding& binding, uint32_t element, const void* info,
                     VkDescriptorType type);

// Applies one VkWriteDescriptorSet to set (its dstSet is not read: a push
// descriptor write has none).
void WriteDescriptors(DescriptorSet& set, const VkWriteDescriptorSet& write);

// Walks descriptors from (binding, element) onwards, moving into the next
// bindings when a binding's array ends: Vulkan 1.3 §14.2.4 ("consecutive
// binding updates"). For inline uniform blocks an element is a byte.
class DescriptorCursor {
public:
	DescriptorCursor(DescriptorSet& set, uint32_t binding, uint32_t element);
	bool Valid() const { return index_ < bindings_.size(); }
	const DescriptorBinding& Binding() const { return bindings_[index_]; }
	uint32_t Element() const { return element_; }
	// Elements left in the current binding from the cursor.
	uint32_t Remaining() const { return set_.Count(Binding()) - element_; }
	uint8_t* Address() const { return set_.Data() + Binding().offset + uint64_t(element_) * Binding().stride; }
	void Advance(uint32_t elements);

private:
	void SkipFinished();
	DescriptorSet& set_;
	const std::vector<DescriptorBinding>& bindings_;
	size_t index_;
	uint32_t element_;
};

// Copies bytes into inline uniform blocks from the cursor on.
void WriteInlineBytes(DescriptorCursor cursor, const uint8_t* bytes, uint32_t size);

}  // namespace tessera::vk
