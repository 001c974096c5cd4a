// VkPrivateDataSlot (core 1.3, VK_EXT_private_data): one 64-bit value per
// object per slot, for layers and applications to hang data on handles.
#include <mutex>
#include <unordered_map>

#include "vk/device.h"

namespace tessera::vk {

struct PrivateDataSlot : Object<PrivateDataSlot, VkPrivateDataSlot, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT> {
	std::mutex mutex;
	// Keyed by handle: handles of one device are distinct across types
	// (objects are pointers), so the object type is not needed in the key.
	std::unordered_map<uint64_t, uint64_t> values;
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

VKAPI_ATTR VkResult VKAPI_CALL SetPrivateData(VkDevice, VkObjectType, uint64_t objectHandle,
                                              VkPrivateDataSlot privateDataSlot, uint64_t data) {
	PrivateDataSlot* slot = PrivateDataSlot::Cast(privateDataSlot);
	try {
		std::lock_guard lock(slot->mutex);
		slot->values[objectHandle] = data;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPrivateData(VkDevice, VkObjectType, uint64_t objectHandle,
                                          VkPrivateDataSlot privateDataSlot, uint64_t* pData) {
	PrivateDataSlot* slot = PrivateDataSlot::Cast(privateDataSlot);
	std::lock_guard lock(slot->mutex);
	auto it = slot->values.find(objectHandle);
	// vkGetPrivateData: a value never set reads as 0. (An object created at
	// the address of a destroyed one reads the old value: objects carry no
	// private-data storage of their own yet.)
	*pData = it == slot->values.end() ? 0 : it->second;
}

}  // namespace tessera::entry
