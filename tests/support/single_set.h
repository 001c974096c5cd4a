// Test support: the descriptor pool and set of a test that binds one set.
#pragma once

#include <vulkan/vulkan.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <span>

namespace tessera::test {

// A pool holding exactly `sizes` (pool_next: its create info's pNext
// chain), and one set of `layout` allocated from it. Fails the test on
// error; the caller destroys *pool, which frees the set.
inline VkDescriptorSet AllocateSingleSet(VkDevice device, VkDescriptorSetLayout layout,
                                         std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPool* pool,
                                         const void* pool_next = nullptr) {
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, pool_next};
	dpci.maxSets = 1;
	dpci.poolSizeCount = uint32_t(sizes.size());
	dpci.pPoolSizes = sizes.data();
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = *pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &layout;
	VkDescriptorSet set = VK_NULL_HANDLE;
	REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
	return set;
}

}  // namespace tessera::test
