#include "vk/descriptor_set_layout.h"

#include <algorithm>
#include <cstring>

#include "vk/descriptor_set.h"
#include "vk/device.h"
#include "vk/sampler.h"

namespace tessera::vk {

namespace {

uint64_t AlignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

bool IsDynamicBuffer(VkDescriptorType type) {
	return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

void DescriptorSetLayout::Describe(const VkDescriptorSetLayoutCreateInfo& info,
                                   std::vector<DescriptorBinding>* bindings, uint32_t* dynamic_count) {
	auto* flags_info = FindInChain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(
	    info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
	auto* mutable_info = FindInChain<VkMutableDescriptorTypeCreateInfoEXT>(
	    info.pNext, VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
	bindings->clear();
	bindings->reserve(info.bindingCount);
	for (uint32_t i = 0; i < info.bindingCount; ++i) {
		const VkDescriptorSetLayoutBinding& b = info.pBindings[i];
		DescriptorBinding d{};
		d.binding = b.binding;
		d.type = b.descriptorType;
		d.count = b.descriptorCount;
		d.stages = b.stageFlags;
		// Vulkan 1.3 §14.2.1: bindingCount is zero or the layout's bindingCount.
		d.flags = flags_info && flags_info->bindingCount == info.bindingCount ? flags_info->pBindingFlags[i] : 0;
		if (b.descriptorType == VK_DESCRIPTOR_TYPE_MUTABLE_EXT && mutable_info &&
		    i < mutable_info->mutableDescriptorTypeListCount) {
			const VkMutableDescriptorTypeListEXT& list = mutable_info->pMutableDescriptorTypeLists[i];
			for (uint32_t t = 0; t < list.descriptorTypeCount; ++t)
				d.mutable_input_attachment |= list.pDescriptorTypes[t] == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
		}
		d.stride = b.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK              ? 1
		           : info.flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT ? kBufferDescriptorSize
		           : b.descriptorType == VK_DESCRIPTOR_TYPE_MUTABLE_EXT                     ? kMutableDescriptorSize
		                                                                                    : kDescriptorSize;
		bindings->push_back(d);
	}
	std::sort(bindings->begin(), bindings->end(),
	          [](const DescriptorBinding& a, const DescriptorBinding& b) { return a.binding < b.binding; });
	// Vulkan 1.3 §14.2.3: dynamic offsets are ordered by binding number, then
	// array element.
	uint64_t offset = 0;
	uint32_t dynamic = 0;
	for (DescriptorBinding& d : *bindings) {
		d.offset = uint32_t(offset);
		offset = AlignUp(offset + uint64_t(d.count) * d.stride, kDescriptorSize);
		if (offset > UINT32_MAX) offset = UINT32_MAX;  // vkGetDescriptorSetLayoutSupport reports it
		if (IsDynamicBuffer(d.type)) {
			d.dynamic_index = dynamic;
			dynamic += d.count;
		}
	}
	*dynamic_count = dynamic;
}

VkResult DescriptorSetLayout::Init(const VkDescriptorSetLayoutCreateInfo& info) {
	try {
		flags_ = info.flags;
		Describe(info, &bindings_, &dynamic_count_);
		size_t sampler_count = 0;
		for (uint32_t i = 0; i < info.bindingCount; ++i)
			if (info.pBindings[i].pImmutableSamplers) sampler_count += info.pBindings[i].descriptorCount;
		immutable_samplers_.reserve(sampler_count);  // no reallocation below: pointers into it stay valid
		for (uint32_t i = 0; i < info.bindingCount; ++i) {
			const VkDescriptorSetLayoutBinding& b = info.pBindings[i];
			// Vulkan 1.3 §14.2.1: pImmutableSamplers counts only for samplers
			// and combined image samplers.
			if (!b.pImmutableSamplers || b.descriptorCount == 0 ||
			    (b.descriptorType != VK_DESCRIPTOR_TYPE_SAMPLER &&
			     b.descriptorType != VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER))
				continue;
			size_t first = immutable_samplers_.size();
			for (uint32_t s = 0; s < b.descriptorCount; ++s)
				immutable_samplers_.push_back(Sampler::Cast(b.pImmutableSamplers[s]));
			bindings_[IndexOf(b.binding)].immutable_samplers = immutable_samplers_.data() + first;
		}
		if (flags_ & VK_DESCRIPTOR_SET_LAYOUT_CREATE_EMBEDDED_IMMUTABLE_SAMPLERS_BIT_EXT) FillEmbeddedSamplers();
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

// Every binding of such a layout is a sampler binding with immutable
// samplers (VUID-VkDescriptorSetLayoutBinding-flags-08005 to -08007), written as
// vkGetDescriptorEXT writes sampler descriptors.
void DescriptorSetLayout::FillEmbeddedSamplers() {
	embedded_samplers_.assign(size_t(SetSize(0)), 0);
	for (const DescriptorBinding& b : bindings_) {
		if (!b.immutable_samplers || b.type != VK_DESCRIPTOR_TYPE_SAMPLER) continue;
		for (uint32_t i = 0; i < b.count; ++i) {
			uint8_t* memory = embedded_samplers_.data() + b.offset + uint64_t(i) * b.stride;
			const ImageDescriptor descriptor{nullptr, b.immutable_samplers[i]};
			std::memcpy(memory, &descriptor, sizeof(descriptor));
			StoreMutableType(memory, uint32_t(VK_DESCRIPTOR_TYPE_SAMPLER) + 1);
		}
	}
}

size_t DescriptorSetLayout::IndexOf(uint32_t binding) const {
	auto it = std::lower_bound(bindings_.begin(), bindings_.end(), binding,
	                           [](const DescriptorBinding& b, uint32_t n) { return b.binding < n; });
	return it != bindings_.end() && it->binding == binding ? size_t(it - bindings_.begin()) : bindings_.size();
}

const DescriptorBinding* DescriptorSetLayout::Find(uint32_t binding) const {
	size_t index = IndexOf(binding);
	return index < bindings_.size() ? &bindings_[index] : nullptr;
}

uint64_t DescriptorSetLayout::SetSize(uint32_t variable_count) const {
	if (bindings_.empty()) return 0;
	const DescriptorBinding& last = bindings_.back();
	uint32_t count = last.IsVariableCount() ? variable_count : last.count;
	return AlignUp(last.offset + uint64_t(count) * last.stride, kDescriptorSize);
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::DescriptorSetLayout;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device,
                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         const VkAllocationCallbacks* pAllocator,
                                                         VkDescriptorSetLayout* pSetLayout) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* layout = vk::New<DescriptorSetLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
	if (!layout) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = layout->Init(*pCreateInfo); result != VK_SUCCESS) {
		layout->Release();
		return result;
	}
	*pSetLayout = layout->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice, VkDescriptorSetLayout descriptorSetLayout,
                                                      const VkAllocationCallbacks*) {
	// Sets allocated with the layout keep it until they are freed.
	if (auto* layout = DescriptorSetLayout::Cast(descriptorSetLayout)) layout->Release();
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSupport(VkDevice, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         VkDescriptorSetLayoutSupport* pSupport) {
	// A layout is supported when its set fits the 32-bit offsets of the
	// set's memory (one allocation, well below that in practice).
	constexpr uint64_t kMaxSetSize = uint64_t(1) << 30;
	std::vector<vk::DescriptorBinding> bindings;
	uint32_t dynamic_count = 0;
	try {
		DescriptorSetLayout::Describe(*pCreateInfo, &bindings, &dynamic_count);
	} catch (const std::bad_alloc&) {
		pSupport->supported = VK_FALSE;
		return;
	}
	uint64_t size = 0, inline_bytes = 0;
	for (const vk::DescriptorBinding& b : bindings) {
		size = b.offset + uint64_t(b.count) * b.stride;
		if (b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) inline_bytes += b.count;
	}
	// An inline uniform block's descriptorCount is its size in bytes, within
	// maxInlineUniformBlockSize and, for the set, the bytes of
	// maxDescriptorSetInlineUniformBlocks full blocks.
	bool inline_fits = inline_bytes <= vk::kMaxSetInlineUniformBytes;
	for (const vk::DescriptorBinding& b : bindings)
		inline_fits &= b.type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK || b.count <= vk::kMaxInlineUniformBlockSize;
	// A push descriptor set holds at most maxPushDescriptors descriptors
	// (VUID-VkDescriptorSetLayoutCreateInfo-flags-00281).
	uint64_t descriptors = 0;
	for (const vk::DescriptorBinding& b : bindings) descriptors += b.count;
	const bool push_fits = !(pCreateInfo->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) ||
	                       descriptors <= vk::kMaxPushDescriptors;
	pSupport->supported = size <= kMaxSetSize && inline_fits && push_fits ? VK_TRUE : VK_FALSE;
	if (auto* variable = vk::FindInChain<VkDescriptorSetVariableDescriptorCountLayoutSupport>(
	        pSupport->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT)) {
		variable->maxVariableDescriptorCount = 0;
		const vk::DescriptorBinding* last = bindings.empty() ? nullptr : &bindings.back();
		if (last && last->IsVariableCount() && last->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
			// Bytes of one block, within what is left of the set's inline
			// total, a multiple of 4
			// (VUID-VkDescriptorSetLayoutBinding-descriptorType-02209).
			const uint64_t others = inline_bytes - last->count;
			const uint64_t left = others < vk::kMaxSetInlineUniformBytes ? vk::kMaxSetInlineUniformBytes - others : 0;
			variable->maxVariableDescriptorCount =
			    uint32_t(std::min<uint64_t>(left, vk::kMaxInlineUniformBlockSize)) & ~3u;
		} else if (last && last->IsVariableCount() && last->offset < kMaxSetSize) {
			variable->maxVariableDescriptorCount = uint32_t((kMaxSetSize - last->offset) / last->stride);
		}
	}
}

}  // namespace tessera::entry
