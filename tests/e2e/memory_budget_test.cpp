// VK_EXT_memory_budget, VK_EXT_memory_priority and
// VK_EXT_pageable_device_local_memory, through the loader with the
// validation layer on (lavapipe 22.3 has none of them: Tessera alone).
// heapUsage is what the process holds, to the byte; heapBudget lies between
// it and the heap's size.
#include <catch2/catch.hpp>

#include <cstdint>

#include "vk_context.h"

using namespace tessera::test;

namespace {

struct Budget {
	VkDeviceSize heap_size, usage, budget;
};

Budget QueryBudget(VkPhysicalDevice gpu) {
	VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
	VkPhysicalDeviceMemoryProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
	vkGetPhysicalDeviceMemoryProperties2(gpu, &props);
	REQUIRE(props.memoryProperties.memoryHeapCount == 1);
	for (uint32_t h = 1; h < VK_MAX_MEMORY_HEAPS; ++h) {
		CHECK(budget.heapUsage[h] == 0);  // heaps that do not exist read 0
		CHECK(budget.heapBudget[h] == 0);
	}
	return {props.memoryProperties.memoryHeaps[0].size, budget.heapUsage[0], budget.heapBudget[0]};
}

}  // namespace

TEST_CASE("VK_EXT_memory_budget counts the process's allocations and bounds the budget by the heap",
          "[memory][device]") {
	VkPhysicalDeviceMemoryPriorityFeaturesEXT priority_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT};
	priority_features.memoryPriority = VK_TRUE;
	VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT pageable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT, &priority_features};
	pageable.pageableDeviceLocalMemory = VK_TRUE;
	ContextOptions options;
	options.device_extensions = {VK_EXT_MEMORY_BUDGET_EXTENSION_NAME, VK_EXT_MEMORY_PRIORITY_EXTENSION_NAME,
	                             VK_EXT_PAGEABLE_DEVICE_LOCAL_MEMORY_EXTENSION_NAME};
	options.device_features = &pageable;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();

	const Budget before = QueryBudget(ctx->physical_device());
	CHECK(before.budget <= before.heap_size);
	CHECK(before.budget >= before.usage);
	CHECK(before.budget > 0);

	// 64 MiB at a low priority, raised afterwards; then 4 KiB more.
	constexpr VkDeviceSize kBig = VkDeviceSize(64) << 20, kSmall = 4096;
	VkMemoryPriorityAllocateInfoEXT priority{VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT};
	priority.priority = 0.25f;
	VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &priority, kBig, 0};
	VkDeviceMemory big = VK_NULL_HANDLE, small = VK_NULL_HANDLE;
	REQUIRE(vkAllocateMemory(device, &info, nullptr, &big) == VK_SUCCESS);
	auto set_priority = ctx->Proc<PFN_vkSetDeviceMemoryPriorityEXT>("vkSetDeviceMemoryPriorityEXT");
	REQUIRE(set_priority);
	set_priority(device, big, 1.0f);
	info.pNext = nullptr;
	info.allocationSize = kSmall;
	REQUIRE(vkAllocateMemory(device, &info, nullptr, &small) == VK_SUCCESS);

	const Budget during = QueryBudget(ctx->physical_device());
	CHECK(during.usage == before.usage + kBig + kSmall);
	CHECK(during.budget <= during.heap_size);
	CHECK(during.budget >= during.usage);

	vkFreeMemory(device, big, nullptr);
	vkFreeMemory(device, small, nullptr);
	const Budget after = QueryBudget(ctx->physical_device());
	CHECK(after.usage == before.usage);
	CHECK(ctx->validation_errors() == 0);
}
