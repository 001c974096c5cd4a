// Device groups (core 1.1, VK_KHR_device_group_creation, VK_KHR_device_group)
// with Tessera's one device: a group of one, so every device mask is 1 and
// there is no peer memory to describe.
#include "vk/device.h"
#include "vk/instance.h"
#include "vk/physical_device.h"

namespace tessera::entry {

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* pPhysicalDeviceGroupCount,
                                                             VkPhysicalDeviceGroupProperties* pGroups) {
	if (!pGroups) {
		*pPhysicalDeviceGroupCount = 1;
		return VK_SUCCESS;
	}
	if (*pPhysicalDeviceGroupCount == 0) return VK_INCOMPLETE;
	// VkPhysicalDeviceGroupProperties: sType and pNext are the caller's.
	VkPhysicalDeviceGroupProperties& group = pGroups[0];
	group.physicalDeviceCount = 1;
	for (VkPhysicalDevice& device : group.physicalDevices) device = VK_NULL_HANDLE;
	group.physicalDevices[0] = vk::Instance::Cast(instance)->GetPhysicalDevice()->ToHandle();
	// A group of one cannot allocate across devices.
	group.subsetAllocation = VK_FALSE;
	*pPhysicalDeviceGroupCount = 1;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t, uint32_t, uint32_t,
                                                            VkPeerMemoryFeatureFlags* pPeerMemoryFeatures) {
	// Only called with local == remote index 0 is impossible (VUID
	// localDeviceIndex != remoteDeviceIndex); with one device there is no
	// peer, so report nothing.
	*pPeerMemoryFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL CmdSetDeviceMask(VkCommandBuffer, uint32_t) {
	// Vulkan 1.3 "Device Masks": the mask must be a subset of the group,
	// which is the one device: nothing changes, nothing to record.
}

}  // namespace tessera::entry
