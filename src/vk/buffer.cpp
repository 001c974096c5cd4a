#include "vk/buffer.h"

#include "vk/device.h"
#include "vk/physical_device.h"

namespace tessera::vk {

Buffer::~Buffer() {
	if (sparse_.Data()) device_->RemoveMemoryRange(sparse_.Data());
}

VkResult Buffer::Init(Device* device) {
	if (!Sparse()) return VK_SUCCESS;
	device_ = device;
	if (VkResult result = sparse_.Init(size_); result != VK_SUCCESS) return result;
	return device->AddMemoryRange(sparse_.Data(), sparse_.Size());
}

VkMemoryRequirements Buffer::Requirements() const {
	if (Sparse()) return {SparseRange::Reserved(size_), SparseRange::kBlockSize, 1u << DeviceMemory::kSparseMemoryType};
	return {(size_ + 15) / 16 * 16, kAlignment, (1u << PhysicalDevice::kMemoryTypeCount) - 1};
}

bool Buffer::BindSparse(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
                        VkDeviceSize memory_offset) {
	return sparse_.Bind(resource_offset, size, memory, memory_offset);
}

BufferView::BufferView(const VkBufferViewCreateInfo& info)
    : buffer_(Buffer::Cast(info.buffer)), format_(info.format), offset_(info.offset), range_(info.range) {
	if (range_ == VK_WHOLE_SIZE) range_ = buffer_->Size() - offset_;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Buffer;
using vk::BufferView;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
	auto* buffer =
	    vk::New<Buffer>(Device::Cast(device)->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *pCreateInfo);
	if (!buffer) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = buffer->Init(Device::Cast(device)); result != VK_SUCCESS) {
		vk::Delete(Device::Cast(device)->Allocator(pAllocator), buffer);
		return result;
	}
	*pBuffer = buffer->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Buffer::Cast(buffer));
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer buffer,
                                                       VkMemoryRequirements* pMemoryRequirements) {
	*pMemoryRequirements = Buffer::Cast(buffer)->Requirements();
}

static void FillDedicatedRequirements(void* next) {
	if (auto* dedicated =
	        vk::FindInChain<VkMemoryDedicatedRequirements>(next, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS)) {
		dedicated->prefersDedicatedAllocation = VK_FALSE;
		dedicated->requiresDedicatedAllocation = VK_FALSE;
	}
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements2(VkDevice, const VkBufferMemoryRequirementsInfo2* pInfo,
                                                        VkMemoryRequirements2* pMemoryRequirements) {
	pMemoryRequirements->memoryRequirements = Buffer::Cast(pInfo->buffer)->Requirements();
	FillDedicatedRequirements(pMemoryRequirements->pNext);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceBufferMemoryRequirements(VkDevice, const VkDeviceBufferMemoryRequirements* pInfo,
                                                             VkMemoryRequirements2* pMemoryRequirements) {
	pMemoryRequirements->memoryRequirements = Buffer(*pInfo->pCreateInfo).Requirements();
	FillDedicatedRequirements(pMemoryRequirements->pNext);
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize memoryOffset) {
	Buffer::Cast(buffer)->Bind(vk::DeviceMemory::Cast(memory), memoryOffset);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice, uint32_t bindInfoCount,
                                                 const VkBindBufferMemoryInfo* pBindInfos) {
	for (uint32_t i = 0; i < bindInfoCount; ++i) {
		Buffer::Cast(pBindInfos[i].buffer)
		    ->Bind(vk::DeviceMemory::Cast(pBindInfos[i].memory), pBindInfos[i].memoryOffset);
		// VK_KHR_maintenance6: each bind's own result (binding cannot fail).
		if (auto* status =
		        vk::FindInChain<VkBindMemoryStatusKHR>(pBindInfos[i].pNext, VK_STRUCTURE_TYPE_BIND_MEMORY_STATUS_KHR))
			*status->pResult = VK_SUCCESS;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL GetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
	return reinterpret_cast<VkDeviceAddress>(Buffer::Cast(pInfo->buffer)->Data());
}

VKAPI_ATTR uint64_t VKAPI_CALL GetBufferOpaqueCaptureAddress(VkDevice, const VkBufferDeviceAddressInfo*) {
	// Addresses are host pointers and cannot be replayed at a chosen address.
	return 0;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBufferView(VkDevice device, const VkBufferViewCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkBufferView* pView) {
	auto* view = vk::New<BufferView>(Device::Cast(device)->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
	                                 *pCreateInfo);
	if (!view) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pView = view->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyBufferView(VkDevice device, VkBufferView bufferView,
                                             const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), BufferView::Cast(bufferView));
}

}  // namespace tessera::entry
