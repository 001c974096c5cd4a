// Objects that outlive their vkDestroy* call while something still uses
// them: a descriptor set keeps its layout, a pipeline layout keeps its set
// layouts (Vulkan 1.3 §14.2.1 lets the application destroy a layout while
// sets allocated with it are still in use). The creator holds the first
// reference; the last Release frees the object with the callbacks it was
// created with.
#pragma once

#include <atomic>

#include "vk/object.h"

namespace tessera::vk {

template <typename Derived>
class SharedObject {
public:
	void Retain() { references_.fetch_add(1, std::memory_order_relaxed); }
	void Release() {
		if (references_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
		VkAllocationCallbacks callbacks = allocator_;
		bool has_allocator = has_allocator_;
		Delete(has_allocator ? &callbacks : nullptr, static_cast<Derived*>(this));
	}

protected:
	explicit SharedObject(const VkAllocationCallbacks* allocator) {
		if (allocator) {
			allocator_ = *allocator;
			has_allocator_ = true;
		}
	}
	~SharedObject() = default;

private:
	std::atomic<uint32_t> references_{1};
	VkAllocationCallbacks allocator_{};
	bool has_allocator_ = false;
};

}  // namespace tessera::vk
