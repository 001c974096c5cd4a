// VkDescriptorSetLayout: the bindings of a set, sorted by binding number,
// each with its place in the set's memory (see descriptor_set.h for the
// format of that memory).
#pragma once

#include <vector>

#include "vk/object.h"
#include "vk/shared_object.h"

namespace tessera::vk {

class Device;
class Sampler;

// Every descriptor except inline uniform block bytes takes this many bytes,
// and every binding starts at a multiple of it.
constexpr uint32_t kDescriptorSize = 16;
// A descriptor of a mutable binding (VK_EXT_mutable_descriptor_type): the
// descriptor, then the type it was written as (MutableTag).
constexpr uint32_t kMutableDescriptorSize = 32;
// Every descriptor of a layout made for descriptor buffers
// (VK_EXT_descriptor_buffer), whatever its type: the descriptor, then its
// type as a mutable one carries it, so that the descriptor an application
// gets with vkGetDescriptorEXT reads the same in a mutable binding as in a
// binding of its own type. The sizes VkPhysicalDeviceDescriptorBufferPropertiesEXT
// reports.
constexpr uint32_t kBufferDescriptorSize = 32;
// maxInlineUniformBlockSize: bytes of one inline uniform block binding, kept
// in the set's memory like any descriptor and read in place by shaders.
// maxDescriptorSetInlineUniformBlocks and
// maxPerStageDescriptorInlineUniformBlocks: blocks of a set, and of the sets
// one stage sees. (Lavapipe's figures; nothing in the driver is sized by them.)
constexpr uint32_t kMaxInlineUniformBlockSize = 4096;
constexpr uint32_t kMaxInlineUniformBlocks = 8;
// Bytes of all of a set's inline uniform blocks (vkGetDescriptorSetLayoutSupport).
constexpr uint32_t kMaxSetInlineUniformBytes = kMaxInlineUniformBlocks * kMaxInlineUniformBlockSize;
// maxPushDescriptors (VK_KHR_push_descriptor): descriptors in a push set.
constexpr uint32_t kMaxPushDescriptors = 32;

struct DescriptorBinding {
	uint32_t binding;
	VkDescriptorType type;
	// Descriptors in the binding; bytes for an inline uniform block. For a
	// variable-count binding, the most a set may allocate.
	uint32_t count;
	VkShaderStageFlags stages;
	VkDescriptorBindingFlags flags;
	uint32_t offset;                           // bytes from the start of the set
	uint32_t stride;                           // bytes between array elements: kDescriptorSize, kMutableDescriptorSize,
	                                           // kBufferDescriptorSize, or 1 for inline uniform blocks
	uint32_t dynamic_index;                    // first dynamic offset of a dynamic buffer binding, in binding order
	const Sampler* const* immutable_samplers;  // count samplers, or nullptr
	// A mutable binding whose type list (VkMutableDescriptorTypeCreateInfoEXT)
	// names VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT.
	bool mutable_input_attachment;

	bool IsVariableCount() const { return flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT; }
};

bool IsDynamicBuffer(VkDescriptorType type);

class DescriptorSetLayout
    : public Object<DescriptorSetLayout, VkDescriptorSetLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT>,
      public SharedObject<DescriptorSetLayout> {
public:
	explicit DescriptorSetLayout(const VkAllocationCallbacks* allocator) : SharedObject(allocator) {}
	// Fails only for lack of memory.
	VkResult Init(const VkDescriptorSetLayoutCreateInfo& info);

	const std::vector<DescriptorBinding>& Bindings() const { return bindings_; }
	// The binding with this number, or nullptr.
	const DescriptorBinding* Find(uint32_t binding) const;
	// Index into Bindings() of the binding with this number, or Bindings().size().
	size_t IndexOf(uint32_t binding) const;
	VkDescriptorSetLayoutCreateFlags Flags() const { return flags_; }
	uint32_t DynamicCount() const { return dynamic_count_; }
	// Bytes of a set's memory when its variable-count binding (if any) holds
	// variable_count descriptors.
	uint64_t SetSize(uint32_t variable_count) const;
	// The variable-count binding (always the last), or nullptr.
	const DescriptorBinding* VariableBinding() const {
		return !bindings_.empty() && bindings_.back().IsVariableCount() ? &bindings_.back() : nullptr;
	}

	// A layout made with EMBEDDED_IMMUTABLE_SAMPLERS (VK_EXT_descriptor_buffer):
	// its samplers as a set's memory holds them, which
	// vkCmdBindDescriptorBufferEmbeddedSamplersEXT binds; empty otherwise.
	const uint8_t* EmbeddedSamplers() const { return embedded_samplers_.data(); }
	size_t EmbeddedSamplersSize() const { return embedded_samplers_.size(); }

	// Computes the bindings of a create info, for vkGetDescriptorSetLayoutSupport too.
	static void Describe(const VkDescriptorSetLayoutCreateInfo& info, std::vector<DescriptorBinding>* bindings,
	                     uint32_t* dynamic_count);

private:
	void FillEmbeddedSamplers();

	VkDescriptorSetLayoutCreateFlags flags_ = 0;
	std::vector<DescriptorBinding> bindings_;
	std::vector<const Sampler*> immutable_samplers_;
	std::vector<uint8_t> embedded_samplers_;  // operator new's 16-byte alignment, as a set's memory has
	uint32_t dynamic_count_ = 0;
};

}  // namespace tessera::vk
