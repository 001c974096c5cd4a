#include "vk/descriptor_pool.h"

#include <cstring>
#include <new>

#include "vk/descriptor_set.h"
#include "vk/device.h"

namespace tessera::vk {

DescriptorPool::DescriptorPool(const VkAllocationCallbacks* allocator) {
	if (allocator) {
		callbacks_ = *allocator;
		has_callbacks_ = true;
	}
}

VkResult DescriptorPool::Init(const VkDescriptorPoolCreateInfo& info) {
	flags_ = info.flags;
	max_sets_ = sets_remaining_ = info.maxSets;
	if (auto* inline_info = FindInChain<VkDescriptorPoolInlineUniformBlockCreateInfo>(
	        info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO))
		max_inline_bindings_ = inline_info->maxInlineUniformBlockBindings;
	inline_bindings_remaining_ = max_inline_bindings_;
	try {
		// Vulkan 1.3 §14.2.3: several pool sizes may name the same type; they add up.
		for (uint32_t i = 0; i < info.poolSizeCount; ++i) {
			const VkDescriptorPoolSize& size = info.pPoolSizes[i];
			if (TypeBudget* budget = Budget(size.type))
				budget->remaining += size.descriptorCount;
			else
				budgets_.push_back({size.type, size.descriptorCount});
		}
		initial_budgets_ = budgets_;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

DescriptorPool::TypeBudget* DescriptorPool::Budget(VkDescriptorType type) {
	for (TypeBudget& budget : budgets_)
		if (budget.type == type) return &budget;
	return nullptr;
}

bool DescriptorPool::Charge(const DescriptorSetLayout& layout, uint32_t variable_count, int sign) {
	const std::vector<DescriptorBinding>& bindings = layout.Bindings();
	uint32_t inline_bindings = 0;
	for (const DescriptorBinding& b : bindings)
		if (b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK && b.count) ++inline_bindings;
	if (sign > 0) {
		if (inline_bindings > inline_bindings_remaining_) return false;
		// Check every type first, so a failed charge changes nothing.
		for (const TypeBudget& budget : budgets_) {
			uint64_t need = 0;
			for (const DescriptorBinding& b : bindings)
				if (b.type == budget.type) need += b.IsVariableCount() ? variable_count : b.count;
			if (need > budget.remaining) return false;
		}
		for (const DescriptorBinding& b : bindings) {
			uint32_t count = b.IsVariableCount() ? variable_count : b.count;
			if (count && !Budget(b.type)) return false;  // a type the pool has no room for at all
		}
	}
	inline_bindings_remaining_ -= sign * int(inline_bindings);
	for (const DescriptorBinding& b : bindings) {
		uint32_t count = b.IsVariableCount() ? variable_count : b.count;
		if (TypeBudget* budget = Budget(b.type)) budget->remaining -= int64_t(sign) * count;
	}
	return true;
}

VkResult DescriptorPool::AllocateOne(DescriptorSetLayout* layout, uint32_t variable_count, DescriptorSet** out) {
	// Vulkan 1.3 §14.2.3: running out of sets or descriptors is
	// VK_ERROR_OUT_OF_POOL_MEMORY. Sets are separate allocations, so the pool
	// never fragments.
	if (sets_remaining_ == 0 || !Charge(*layout, variable_count, +1)) return VK_ERROR_OUT_OF_POOL_MEMORY;
	uint64_t size = layout->SetSize(variable_count);
	void* memory = size > UINT32_MAX ? nullptr
	                                 : vk::Allocate(Callbacks(), DescriptorSet::AllocationSize(size), 16,
	                                                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!memory) {
		Charge(*layout, variable_count, -1);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	auto* set = new (memory) DescriptorSet(this, layout, variable_count, uint32_t(size));
	--sets_remaining_;
	set->next = sets_;
	if (sets_) sets_->prev = set;
	sets_ = set;
	*out = set;
	return VK_SUCCESS;
}

VkResult DescriptorPool::Allocate(const VkDescriptorSetAllocateInfo& info, VkDescriptorSet* out) {
	auto* variable = FindInChain<VkDescriptorSetVariableDescriptorCountAllocateInfo>(
	    info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
	for (uint32_t i = 0; i < info.descriptorSetCount; ++i) {
		auto* layout = DescriptorSetLayout::Cast(info.pSetLayouts[i]);
		// Vulkan 1.3 §14.2.3: without a count the variable binding has none.
		uint32_t variable_count = 0;
		if (variable && variable->descriptorSetCount == info.descriptorSetCount && layout->VariableBinding())
			variable_count = variable->pDescriptorCounts[i];
		DescriptorSet* set = nullptr;
		if (VkResult result = AllocateOne(layout, variable_count, &set); result != VK_SUCCESS) {
			// Leave nothing behind: free this call's sets, null every handle.
			for (uint32_t j = 0; j < i; ++j) Free(DescriptorSet::Cast(out[j]));
			for (uint32_t j = 0; j < info.descriptorSetCount; ++j) out[j] = VK_NULL_HANDLE;
			return result;
		}
		out[i] = set->ToHandle();
	}
	return VK_SUCCESS;
}

void DescriptorPool::Free(DescriptorSet* set) {
	if (!set) return;
	Charge(set->Layout(), set->VariableCount(), -1);
	++sets_remaining_;
	if (set->prev) set->prev->next = set->next;
	if (set->next) set->next->prev = set->prev;
	if (sets_ == set) sets_ = set->next;
	set->~DescriptorSet();
	vk::Free(Callbacks(), set);
}

void DescriptorPool::Reset() {
	while (sets_) {
		DescriptorSet* set = sets_;
		sets_ = set->next;
		set->~DescriptorSet();
		vk::Free(Callbacks(), set);
	}
	sets_remaining_ = max_sets_;
	inline_bindings_remaining_ = max_inline_bindings_;
	budgets_ = initial_budgets_;  // same size as before: no allocation
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::DescriptorPool;
using vk::DescriptorSet;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkDescriptorPool* pDescriptorPool) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* pool = vk::New<DescriptorPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
	if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = pool->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, pool);
		return result;
	}
	*pDescriptorPool = pool->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                                                 const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), DescriptorPool::Cast(descriptorPool));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice, VkDescriptorPool descriptorPool,
                                                   VkDescriptorPoolResetFlags) {
	DescriptorPool::Cast(descriptorPool)->Reset();
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                      VkDescriptorSet* pDescriptorSets) {
	return DescriptorPool::Cast(pAllocateInfo->descriptorPool)->Allocate(*pAllocateInfo, pDescriptorSets);
}

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice, VkDescriptorPool descriptorPool,
                                                  uint32_t descriptorSetCount, const VkDescriptorSet* pDescriptorSets) {
	DescriptorPool* pool = DescriptorPool::Cast(descriptorPool);
	for (uint32_t i = 0; i < descriptorSetCount; ++i) pool->Free(DescriptorSet::Cast(pDescriptorSets[i]));
	return VK_SUCCESS;
}

}  // namespace tessera::entry
