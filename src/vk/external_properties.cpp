// What can be shared with other processes and devices (Vulkan 1.3 §7.4.4,
// §7.3.2, §12.8): semaphores and fences as opaque fds (a memfd page holding
// the payload, see sync_payload.h) and memory as opaque fds (a memfd, see
// device_memory.cpp), and host pointers imported as memory
// (VK_EXT_external_memory_host). Sync fds (kernel sync_file objects) are not
// supported: a CPU driver has no dma-fence to put behind them.
#include "vk/device_memory.h"
#include "vk/object.h"

namespace tessera::entry {

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo* pExternalSemaphoreInfo,
    VkExternalSemaphoreProperties* pExternalSemaphoreProperties) {
	VkExternalSemaphoreProperties& p = *pExternalSemaphoreProperties;
	p.exportFromImportedHandleTypes = 0;
	p.compatibleHandleTypes = 0;
	p.externalSemaphoreFeatures = 0;
	// Binary and timeline payloads alike live in the shared page.
	if (pExternalSemaphoreInfo->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) {
		p.exportFromImportedHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
		p.compatibleHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
		p.externalSemaphoreFeatures =
		    VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
	}
}

VKAPI_ATTR void VKAPI_CALL
GetPhysicalDeviceExternalFenceProperties(VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo* pExternalFenceInfo,
                                         VkExternalFenceProperties* pExternalFenceProperties) {
	VkExternalFenceProperties& p = *pExternalFenceProperties;
	p.exportFromImportedHandleTypes = 0;
	p.compatibleHandleTypes = 0;
	p.externalFenceFeatures = 0;
	if (pExternalFenceInfo->handleType == VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) {
		p.exportFromImportedHandleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
		p.compatibleHandleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
		p.externalFenceFeatures = VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT;
	}
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo* pExternalBufferInfo,
    VkExternalBufferProperties* pExternalBufferProperties) {
	VkExternalMemoryProperties& p = pExternalBufferProperties->externalMemoryProperties;
	p = {};
	// Sparse buffers bind their own memory type, never external memory.
	constexpr VkBufferCreateFlags kSparse = VK_BUFFER_CREATE_SPARSE_BINDING_BIT |
	                                        VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT | VK_BUFFER_CREATE_SPARSE_ALIASED_BIT;
	if (pExternalBufferInfo->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT &&
	    !(pExternalBufferInfo->flags & kSparse)) {
		p.externalMemoryFeatures =
		    VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
		p.exportFromImportedHandleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
		p.compatibleHandleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	}
	// VK_EXT_external_memory_dma_buf: a dma-buf is imported as a shared
	// mapping, and exported again only from memory imported from one.
	// Tessera makes none: the kernel's udmabuf device, which would turn a
	// memfd into one, is not on the machines it is built for (lavapipe 25
	// offers the same there).
	if (pExternalBufferInfo->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT &&
	    !(pExternalBufferInfo->flags & kSparse)) {
		p.externalMemoryFeatures = VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
		p.exportFromImportedHandleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
		p.compatibleHandleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
	}
	// VK_EXT_external_memory_host: importable, never exported.
	if (vk::IsHostPointerHandle(pExternalBufferInfo->handleType) && !(pExternalBufferInfo->flags & kSparse)) {
		p.externalMemoryFeatures = VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
		p.compatibleHandleTypes = pExternalBufferInfo->handleType;
	}
}

}  // namespace tessera::entry
