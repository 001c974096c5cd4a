// VkPrivateDataSlot (Vulkan 1.3 §13, "Private Data"): one 64-bit value per
// object of the device, read as 0 until set. A slot keeps its values in a
// hash map keyed by (object type, handle) under its own mutex, so setting and
// getting are safe from any thread (the spec does not ask callers to
// synchronize them).
//
// VkDevicePrivateDataCreateInfo's reservation is a performance hint; a slot
// here costs one small object whatever was reserved, so it is not needed.
// Known limit: values stay with a handle after its object is destroyed, so a
// new object that reuses the address reads the old value until it is set.
#include <mutex>
#include <unordered_map>

#include "vk/device.h"
#include "vk/object.h"

namespace tessera::vk {

class PrivateDataSlot : public Object<PrivateDataSlot, VkPrivateDataSlot, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT> {
public:
	VkResult Set(VkObjectType type, uint64_t handle, uint64_t value) {
		try {
			std::lock_guard lock(mutex_);
			values_[Key{type, handle}] = value;
		} catch (const std::bad_alloc&) {
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		}
		return VK_SUCCESS;
	}
	uint64_t Get(VkObjectType type, uint64_t handle) const {
		std::lock_guard lock(mutex_);
		auto it = values_.find(Key{type, handle});
		return it == values_.end() ? 0 : it->second;
	}

private:
	struct Key {
		VkObjectType type;
		uint64_t handle;
		bool operator==(const Key&) const = default;
	};
	struct KeyHash {
		size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.handle * 31 + uint64_t(k.type)); }
	};

	mutable std::mutex mutex_;
	std::unordered_map<Key, uint64_t, KeyHash> values_;
};

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::PrivateDataSlot;

VKAPI_ATTR VkResult VKAPI_CALL CreatePrivateDataSlot(VkDevice device, const VkPrivateDataSlotCreateInfo*,
                                                     const VkAllocationCallbacks* pAllocator,
                                                     VkPrivateDataSlot* pPrivateDataSlot) {
	auto* slot =
	    vk::New<PrivateDataSlot>(Device::Cast(device)->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!slot) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pPrivateDataSlot = slot->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot privateDataSlot,
                                                  const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), PrivateDataSlot::Cast(privateDataSlot));
}

VKAPI_ATTR VkResult VKAPI_CALL SetPrivateData(VkDevice, VkObjectType objectType, uint64_t objectHandle,
                                              VkPrivateDataSlot privateDataSlot, uint64_t data) {
	return PrivateDataSlot::Cast(privateDataSlot)->Set(objectType, objectHandle, data);
}

VKAPI_ATTR void VKAPI_CALL GetPrivateData(VkDevice, VkObjectType objectType, uint64_t objectHandle,
                                          VkPrivateDataSlot privateDataSlot, uint64_t* pData) {
	*pData = PrivateDataSlot::Cast(privateDataSlot)->Get(objectType, objectHandle);
}

}  // namespace tessera::entry
