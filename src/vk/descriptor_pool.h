// VkDescriptorPool: counts the sets and descriptors it may still hand out
// (Vulkan 1.3 §14.2.3) and owns the sets allocated from it. Each set is one
// allocation from the pool's callbacks, so freeing never fragments the pool.
#pragma once

#include <vector>

#include "vk/object.h"

namespace tessera::vk {

class DescriptorSet;
class DescriptorSetLayout;

class DescriptorPool : public Object<DescriptorPool, VkDescriptorPool, VK_OBJECT_TYPE_DESCRIPTOR_POOL> {
public:
	explicit DescriptorPool(const VkAllocationCallbacks* allocator);
	~DescriptorPool() { Reset(); }
	VkResult Init(const VkDescriptorPoolCreateInfo& info);

	VkResult Allocate(const VkDescriptorSetAllocateInfo& info, VkDescriptorSet* sets);
	void Free(DescriptorSet* set);
	// vkResetDescriptorPool: frees every set.
	void Reset();

private:
	struct TypeBudget {
		VkDescriptorType type;
		uint64_t remaining;  // descriptors (bytes for inline uniform blocks)
	};
	TypeBudget* Budget(VkDescriptorType type);
	// Charges (sign +1) or refunds (-1) what a set takes from the pool; a
	// charge that does not fit leaves the budgets as they were.
	bool Charge(const DescriptorSetLayout& layout, uint32_t variable_count, int sign);
	VkResult AllocateOne(DescriptorSetLayout* layout, uint32_t variable_count, DescriptorSet** out);

	VkAllocationCallbacks callbacks_{};
	bool has_callbacks_ = false;
	const VkAllocationCallbacks* Callbacks() const { return has_callbacks_ ? &callbacks_ : nullptr; }

	VkDescriptorPoolCreateFlags flags_ = 0;
	uint32_t sets_remaining_ = 0;
	uint32_t inline_bindings_remaining_ = 0;
	std::vector<TypeBudget> budgets_;
	DescriptorSet* sets_ = nullptr;  // doubly linked through DescriptorSet::prev/next
	uint32_t max_sets_ = 0;
	uint32_t max_inline_bindings_ = 0;
	std::vector<TypeBudget> initial_budgets_;
};

}  // namespace tessera::vk
