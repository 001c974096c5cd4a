#include "vk/sync.h"

#include "vk/device.h"

namespace tessera::vk {

void Fence::Signal() {
	{
		auto lock = device_->LockSync();
		signaled_ = true;
	}
	device_->Notify();
}

void Fence::Reset() {
	auto lock = device_->LockSync();
	signaled_ = false;
}

bool Fence::IsSignaled() const {
	auto lock = device_->LockSync();
	return signaled_;
}

void Semaphore::Signal(uint64_t value) {
	{
		auto lock = device_->LockSync();
		if (type_ == VK_SEMAPHORE_TYPE_BINARY)
			value_ = 1;
		else if (value > value_)
			value_ = value;
	}
	device_->Notify();
}

uint64_t Semaphore::Value() const {
	auto lock = device_->LockSync();
	return value_;
}

void Semaphore::WaitAndConsume(uint64_t value) {
	if (type_ == VK_SEMAPHORE_TYPE_BINARY) {
		device_->Wait([&] {
			if (value_ == 0) return false;
			value_ = 0;
			return true;
		});
	} else {
		device_->Wait([&] { return value_ >= value; });
	}
}

void Event::Set(bool set) {
	{
		auto lock = device_->LockSync();
		set_ = set;
	}
	device_->Notify();
}

bool Event::IsSet() const {
	auto lock = device_->LockSync();
	return set_;
}

void Event::WaitSet() {
	device_->Wait([&] { return set_; });
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Event;
using vk::Fence;
using vk::Semaphore;

VKAPI_ATTR VkResult VKAPI_CALL CreateFence(VkDevice device, const VkFenceCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkFence* pFence) {
	Device* self = Device::Cast(device);
	Fence* fence = vk::New<Fence>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self,
	                              (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
	if (!fence) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pFence = fence->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Fence::Cast(fence));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetFences(VkDevice, uint32_t fenceCount, const VkFence* pFences) {
	for (uint32_t i = 0; i < fenceCount; ++i) Fence::Cast(pFences[i])->Reset();
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice, VkFence fence) {
	return Fence::Cast(fence)->IsSignaled() ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice device, uint32_t fenceCount, const VkFence* pFences,
                                             VkBool32 waitAll, uint64_t timeout) {
	Device* self = Device::Cast(device);
	auto done = [&] {
		uint32_t signaled = 0;
		for (uint32_t i = 0; i < fenceCount; ++i) signaled += Fence::Cast(pFences[i])->IsSignaledLocked();
		return waitAll ? signaled == fenceCount : signaled > 0;
	};
	return self->WaitUntil(Device::Deadline(timeout), done) ? VK_SUCCESS : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkSemaphore* pSemaphore) {
	Device* self = Device::Cast(device);
	VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
	uint64_t initial = 0;
	if (auto* t = vk::FindInChain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext,
	                                                         VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)) {
		type = t->semaphoreType;
		if (type == VK_SEMAPHORE_TYPE_TIMELINE) initial = t->initialValue;
	}
	Semaphore* semaphore =
	    vk::New<Semaphore>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, type, initial);
	if (!semaphore) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pSemaphore = semaphore->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Semaphore::Cast(semaphore));
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice, VkSemaphore semaphore, uint64_t* pValue) {
	*pValue = Semaphore::Cast(semaphore)->Value();
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice, const VkSemaphoreSignalInfo* pSignalInfo) {
	Semaphore::Cast(pSignalInfo->semaphore)->Signal(pSignalInfo->value);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* pWaitInfo,
                                              uint64_t timeout) {
	Device* self = Device::Cast(device);
	bool any = (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0;
	auto done = [&] {
		uint32_t reached = 0;
		for (uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i)
			reached += Semaphore::Cast(pWaitInfo->pSemaphores[i])->ValueLocked() >= pWaitInfo->pValues[i];
		return any ? reached > 0 : reached == pWaitInfo->semaphoreCount;
	};
	return self->WaitUntil(Device::Deadline(timeout), done) ? VK_SUCCESS : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateEvent(VkDevice device, const VkEventCreateInfo*,
                                           const VkAllocationCallbacks* pAllocator, VkEvent* pEvent) {
	Device* self = Device::Cast(device);
	Event* event = vk::New<Event>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self);
	if (!event) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pEvent = event->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyEvent(VkDevice device, VkEvent event, const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Event::Cast(event));
}

VKAPI_ATTR VkResult VKAPI_CALL GetEventStatus(VkDevice, VkEvent event) {
	return Event::Cast(event)->IsSet() ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL SetEvent(VkDevice, VkEvent event) {
	Event::Cast(event)->Set(true);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL ResetEvent(VkDevice, VkEvent event) {
	Event::Cast(event)->Set(false);
	return VK_SUCCESS;
}

}  // namespace tessera::entry
