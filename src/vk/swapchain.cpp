// VK_KHR_swapchain: a thin translation over wsi::Swapchain. Presentation runs
// on the queue thread after the present's wait semaphores (queue.h's
// SubmitBatch::host_work), so it follows every earlier submission.
#include <algorithm>
#include <vector>

#include "vk/device.h"
#include "vk/queue.h"
#include "vk/sync.h"
#include "wsi/swapchain.h"

namespace tessera::entry {

using vk::Device;
using wsi::Swapchain;

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator, VkSwapchainKHR* pSwapchain) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	// Vulkan 1.3 §34.10: oldSwapchain is retired even when creation fails.
	if (pCreateInfo->oldSwapchain) Swapchain::Cast(pCreateInfo->oldSwapchain)->Retire();
	if (self->IsLost()) return VK_ERROR_DEVICE_LOST;
	auto* swapchain = vk::New<Swapchain>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, allocator, *pCreateInfo);
	if (!swapchain) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = swapchain->Init(); result != VK_SUCCESS) {
		vk::Delete(allocator, swapchain);
		return result;
	}
	*pSwapchain = swapchain->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Swapchain::Cast(swapchain));
}

VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice, VkSwapchainKHR swapchain, uint32_t* pSwapchainImageCount,
                                                     VkImage* pSwapchainImages) {
	Swapchain* self = Swapchain::Cast(swapchain);
	if (!pSwapchainImages) {
		*pSwapchainImageCount = self->ImageCount();
		return VK_SUCCESS;
	}
	uint32_t n = std::min(*pSwapchainImageCount, self->ImageCount());
	for (uint32_t i = 0; i < n; ++i) pSwapchainImages[i] = self->ImageHandle(i);
	*pSwapchainImageCount = n;
	return n < self->ImageCount() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout,
                                                   VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	return Swapchain::Cast(swapchain)->Acquire(timeout, vk::Semaphore::Cast(semaphore), vk::Fence::Cast(fence),
	                                           pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage2KHR(VkDevice device, const VkAcquireNextImageInfoKHR* pAcquireInfo,
                                                    uint32_t* pImageIndex) {
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	// One physical device: deviceMask can only be 1.
	return Swapchain::Cast(pAcquireInfo->swapchain)
	    ->Acquire(pAcquireInfo->timeout, vk::Semaphore::Cast(pAcquireInfo->semaphore),
	              vk::Fence::Cast(pAcquireInfo->fence), pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* pPresentInfo) {
	vk::Queue* self = vk::Queue::Cast(queue);
	if (self->GetDevice()->IsLost()) return VK_ERROR_DEVICE_LOST;
	try {
		struct Present {
			Swapchain* swapchain;
			uint32_t index;
			bool show;
		};
		std::vector<Present> presents;
		VkResult overall = VK_SUCCESS;
		for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
			Swapchain* swapchain = Swapchain::Cast(pPresentInfo->pSwapchains[i]);
			uint32_t index = pPresentInfo->pImageIndices[i];
			VkResult result = swapchain->QueuePresent(index);
			presents.push_back({swapchain, index, result >= 0});
			if (pPresentInfo->pResults) pPresentInfo->pResults[i] = result;
			if (overall >= 0 && result != VK_SUCCESS) overall = result;
		}
		// Vulkan 1.3 §34.10: even a rejected present waits on its semaphores.
		std::vector<vk::SubmitBatch> batches(1);
		for (uint32_t i = 0; i < pPresentInfo->waitSemaphoreCount; ++i)
			batches[0].waits.push_back({vk::Semaphore::Cast(pPresentInfo->pWaitSemaphores[i]), 0});
		// VK_KHR_incremental_present: VkPresentRegionsKHR names the parts that
		// changed, an optimization hint a presentation engine may ignore
		// (the application keeps every pixel valid); each present shows and
		// captures the whole image.
		// VK_EXT_swapchain_maintenance1: a fence per swapchain, signaled once
		// its present no longer uses the image or the wait semaphores.
		// (VkSwapchainPresentModeInfoEXT needs nothing: all modes present alike.)
		std::vector<vk::Fence*> fences;
		if (auto* fence_info = vk::FindInChain<VkSwapchainPresentFenceInfoEXT>(
		        pPresentInfo->pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT))
			for (uint32_t i = 0; i < fence_info->swapchainCount; ++i)
				if (fence_info->pFences[i]) fences.push_back(vk::Fence::Cast(fence_info->pFences[i]));
		batches[0].host_work = [presents, fences] {
			for (const Present& p : presents) p.swapchain->Present(p.index, p.show);
			for (vk::Fence* fence : fences) fence->Signal();
		};
		if (VkResult result = self->Submit(std::move(batches), nullptr); result != VK_SUCCESS) {
			// Not queued (device lost): the images go back at once.
			for (const Present& p : presents) p.swapchain->Present(p.index, false);
			for (vk::Fence* fence : fences) fence->Signal();
			return result;
		}
		return overall;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
}

// VK_EXT_swapchain_maintenance1: acquired images handed back unpresented.
VKAPI_ATTR VkResult VKAPI_CALL ReleaseSwapchainImagesEXT(VkDevice,
                                                         const VkReleaseSwapchainImagesInfoEXT* pReleaseInfo) {
	Swapchain::Cast(pReleaseInfo->swapchain)->Release(pReleaseInfo->imageIndexCount, pReleaseInfo->pImageIndices);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
GetDeviceGroupPresentCapabilitiesKHR(VkDevice, VkDeviceGroupPresentCapabilitiesKHR* pDeviceGroupPresentCapabilities) {
	// One physical device, presenting its own images.
	for (uint32_t& mask : pDeviceGroupPresentCapabilities->presentMask) mask = 0;
	pDeviceGroupPresentCapabilities->presentMask[0] = 1;
	pDeviceGroupPresentCapabilities->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupSurfacePresentModesKHR(VkDevice, VkSurfaceKHR,
                                                                    VkDeviceGroupPresentModeFlagsKHR* pModes) {
	*pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
	return VK_SUCCESS;
}

}  // namespace tessera::entry
