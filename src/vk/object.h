// Plumbing shared by every Vulkan object: handle <-> object casts, the loader's
// dispatch slot in dispatchable objects, and creation through the
// application's allocation callbacks.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace tessera::vk {

static_assert(sizeof(void*) == 8, "non-dispatchable handles are pointers only on 64-bit targets");

// Non-dispatchable object: the handle is a pointer to it.
template <typename Derived, typename Handle, VkObjectType Type>
struct Object {
	static constexpr VkObjectType kObjectType = Type;
	using HandleType = Handle;

	static Derived* Cast(Handle handle) { return reinterpret_cast<Derived*>(handle); }
	Handle ToHandle() { return reinterpret_cast<Handle>(static_cast<Derived*>(this)); }
};

// Dispatchable object: the loader writes its dispatch table pointer into the
// first word, which must hold ICD_LOADER_MAGIC when we hand the handle out.
template <typename Derived, typename Handle, VkObjectType Type>
struct DispatchableObject : Object<Derived, Handle, Type> {
	VK_LOADER_DATA loader_data{ICD_LOADER_MAGIC};
};

// Allocation through VkAllocationCallbacks, falling back to aligned malloc.
void* Allocate(const VkAllocationCallbacks* allocator, size_t size, size_t alignment, VkSystemAllocationScope scope);
void Free(const VkAllocationCallbacks* allocator, void* memory);

// Creates an object in memory from the callbacks. The constructor must not
// fail; fallible set-up belongs in an Init() the caller runs afterwards.
template <typename T, typename... Args>
T* New(const VkAllocationCallbacks* allocator, VkSystemAllocationScope scope, Args&&... args) {
	void* memory = Allocate(allocator, sizeof(T), alignof(T) < 16 ? 16 : alignof(T), scope);
	if (!memory) return nullptr;
	try {
		return new (memory) T(std::forward<Args>(args)...);
	} catch (const std::bad_alloc&) {
		Free(allocator, memory);
		return nullptr;
	}
}

template <typename T>
void Delete(const VkAllocationCallbacks* allocator, T* object) {
	if (!object) return;
	object->~T();
	Free(allocator, object);
}

// Fills a Vulkan "two-call" array query: returns VK_INCOMPLETE when the
// caller's array is shorter than the data.
template <typename T>
VkResult FillArray(const T* source, uint32_t source_count, uint32_t* count, T* out) {
	if (!out) {
		*count = source_count;
		return VK_SUCCESS;
	}
	uint32_t n = *count < source_count ? *count : source_count;
	for (uint32_t i = 0; i < n; ++i) out[i] = source[i];
	*count = n;
	return n < source_count ? VK_INCOMPLETE : VK_SUCCESS;
}

// Walks a pNext chain for a structure of the given type.
template <typename T>
const T* FindInChain(const void* next, VkStructureType type) {
	for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext)
		if (s->sType == type) return reinterpret_cast<const T*>(s);
	return nullptr;
}
template <typename T>
T* FindInChain(void* next, VkStructureType type) {
	for (auto* s = static_cast<VkBaseOutStructure*>(next); s; s = s->pNext)
		if (s->sType == type) return reinterpret_cast<T*>(s);
	return nullptr;
}

}  // namespace tessera::vk
