#include "vk/object.h"

#include <cstdlib>

namespace tessera::vk {

void* Allocate(const VkAllocationCallbacks* allocator, size_t size, size_t alignment, VkSystemAllocationScope scope) {
	if (allocator && allocator->pfnAllocation)
		return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
	size_t rounded = (size + alignment - 1) / alignment * alignment;
	return std::aligned_alloc(alignment, rounded);
}

void Free(const VkAllocationCallbacks* allocator, void* memory) {
	if (!memory) return;
	if (allocator && allocator->pfnFree) return allocator->pfnFree(allocator->pUserData, memory);
	std::free(memory);
}

}  // namespace tessera::vk
