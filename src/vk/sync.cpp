#include "vk/sync.h"

#include <algorithm>

#include "vk/device.h"

namespace tessera::vk {

namespace {

using Clock = std::chrono::steady_clock;

// Host wait over payloads (see sync_payload.h for how it sleeps). `done`
// reads only payload atomics, so it may run with or without the sync mutex.
// `shared` counts the shared payloads among those `done` reads, `local` the
// others; `one_shared` is one of the shared ones.
template <typename Predicate>
bool WaitForPayloads(Device* device, Clock::time_point deadline, uint32_t shared, uint32_t local,
                     SyncPayload* one_shared, Predicate done) {
	if (shared == 0) return device->WaitUntil(deadline, done);
	if (shared == 1 && local == 0) {
		for (;;) {
			uint32_t seen = one_shared->sequence.load(std::memory_order_acquire);
			if (done()) return true;
			if (Clock::now() >= deadline) return false;
			WaitSharedChange(one_shared, seen, deadline);
		}
	}
	for (;;) {
		auto slice = std::min(deadline, Clock::now() + SharedPayload::kSharedPollInterval);
		if (device->WaitUntil(slice, done)) return true;
		if (Clock::now() >= deadline) return false;
	}
}

// Tells waiters on the device (and, for a shared payload, everywhere) that
// the payload changed. Stores need not hold the sync mutex: Notify() takes it
// before notifying, so a waiter between its test and its sleep cannot miss it.
void Changed(Device* device, SyncPayload* payload, bool shared) {
	device->Notify();
	if (shared) WakeSharedWaiters(payload);
}

}  // namespace

VkResult Fence::Init(const VkFenceCreateInfo& info) {
	auto* e = FindInChain<VkExportFenceCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO);
	if (e && (e->handleTypes & VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT))
		return payload_.MakeShareable(SharedPayload::Kind::Fence);
	return VK_SUCCESS;
}

void Fence::Signal() {
	signals_.Enter();
	SyncPayload* p = payload_.Current();
	const bool shared = payload_.IsShared();
	p->Store(1);  // from here a waiter may destroy the fence (see InFlightSignals)
	Changed(device_, p, shared);
	signals_.Leave();
}

void Fence::Reset() {
	// Vulkan 1.3 §7.3: a temporarily imported payload is dropped first and
	// the restored permanent payload is reset.
	if (payload_.HasTemporary()) payload_.DropTemporary();
	// Nobody waits for a fence to become unsignaled: no one to wake.
	payload_.Current()->Store(0);
}

VkResult Fence::ExportFd(VkExternalFenceHandleTypeFlagBits type, int* fd) {
	if (type != VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	return payload_.Export(fd);
}

VkResult Fence::ImportFd(const VkImportFenceFdInfoKHR& info) {
	if (info.handleType != VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	return payload_.Import(SharedPayload::Kind::Fence, info.fd, (info.flags & VK_FENCE_IMPORT_TEMPORARY_BIT) != 0);
}

VkResult Semaphore::Init(const VkSemaphoreCreateInfo& info) {
	auto* e = FindInChain<VkExportSemaphoreCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
	if (e && (e->handleTypes & VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT))
		return payload_.MakeShareable(SharedPayload::Kind::Semaphore);
	return VK_SUCCESS;
}

void Semaphore::Signal(uint64_t value) {
	signals_.Enter();
	SyncPayload* p = payload_.Current();
	const bool shared = payload_.IsShared();
	if (type_ == VK_SEMAPHORE_TYPE_BINARY)
		p->Store(1);
	else
		p->Raise(value);  // from here a waiter may destroy the semaphore (see InFlightSignals)
	Changed(device_, p, shared);
	signals_.Leave();
}

void Semaphore::WaitAndConsume(uint64_t value) {
	SyncPayload* p = payload_.Current();
	bool shared = payload_.IsShared();
	auto forever = Clock::time_point::max();
	if (type_ == VK_SEMAPHORE_TYPE_BINARY) {
		WaitForPayloads(device_, forever, shared, !shared, p, [p] { return p->TryConsume(); });
		// Vulkan 1.3 §7.4.5: a wait consumes a temporary payload.
		if (payload_.HasTemporary()) payload_.DropTemporary();
	} else {
		WaitForPayloads(device_, forever, shared, !shared, p, [p, value] { return p->Load() >= value; });
	}
}

VkResult Semaphore::ExportFd(VkExternalSemaphoreHandleTypeFlagBits type, int* fd) {
	if (type != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	return payload_.Export(fd);
}

VkResult Semaphore::ImportFd(const VkImportSemaphoreFdInfoKHR& info) {
	if (info.handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	// Timeline payloads are never imported temporarily (VUID-VkImportSemaphoreFdInfoKHR-flags-03323).
	bool temporary = (info.flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) != 0 && type_ == VK_SEMAPHORE_TYPE_BINARY;
	return payload_.Import(SharedPayload::Kind::Semaphore, info.fd, temporary);
}

void Event::Set(bool set) {
	// Once set_ changes a host thread may destroy the event: nothing of it
	// is read after.
	Device* device = device_;
	{
		auto lock = device->LockSync();
		set_ = set;
	}
	device->Notify();
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
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	Fence* fence = vk::New<Fence>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self,
	                              (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
	if (!fence) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = fence->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, fence);
		return result;
	}
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

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice device, VkFence fence) {
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	return Fence::Cast(fence)->IsSignaled() ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice device, uint32_t fenceCount, const VkFence* pFences,
                                             VkBool32 waitAll, uint64_t timeout) {
	uint32_t shared = 0;
	vk::SyncPayload* one_shared = nullptr;
	for (uint32_t i = 0; i < fenceCount; ++i) {
		Fence* fence = Fence::Cast(pFences[i]);
		if (fence->IsShared()) {
			++shared;
			one_shared = fence->Payload();
		}
	}
	auto done = [&] {
		uint32_t signaled = 0;
		for (uint32_t i = 0; i < fenceCount; ++i) signaled += Fence::Cast(pFences[i])->IsSignaled();
		return waitAll ? signaled == fenceCount : signaled > 0;
	};
	bool reached = vk::WaitForPayloads(Device::Cast(device), Device::Deadline(timeout), shared, fenceCount - shared,
	                                   one_shared, done);
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	return reached ? VK_SUCCESS : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkSemaphore* pSemaphore) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
	uint64_t initial = 0;
	if (auto* t = vk::FindInChain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext,
	                                                         VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)) {
		type = t->semaphoreType;
		if (type == VK_SEMAPHORE_TYPE_TIMELINE) initial = t->initialValue;
	}
	Semaphore* semaphore = vk::New<Semaphore>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, type, initial);
	if (!semaphore) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = semaphore->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, semaphore);
		return result;
	}
	*pSemaphore = semaphore->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Semaphore::Cast(semaphore));
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t* pValue) {
	*pValue = Semaphore::Cast(semaphore)->Value();
	return Device::Cast(device)->IsLost() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice, const VkSemaphoreSignalInfo* pSignalInfo) {
	Semaphore::Cast(pSignalInfo->semaphore)->Signal(pSignalInfo->value);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* pWaitInfo, uint64_t timeout) {
	const uint32_t count = pWaitInfo->semaphoreCount;
	uint32_t shared = 0;
	vk::SyncPayload* one_shared = nullptr;
	for (uint32_t i = 0; i < count; ++i) {
		Semaphore* semaphore = Semaphore::Cast(pWaitInfo->pSemaphores[i]);
		if (semaphore->IsShared()) {
			++shared;
			one_shared = semaphore->Payload();
		}
	}
	bool any = (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0;
	auto done = [&] {
		uint32_t reached = 0;
		for (uint32_t i = 0; i < count; ++i)
			reached += Semaphore::Cast(pWaitInfo->pSemaphores[i])->Value() >= pWaitInfo->pValues[i];
		return any ? reached > 0 : reached == count;
	};
	bool reached =
	    vk::WaitForPayloads(Device::Cast(device), Device::Deadline(timeout), shared, count - shared, one_shared, done);
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	return reached ? VK_SUCCESS : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceFdKHR(VkDevice, const VkFenceGetFdInfoKHR* pGetFdInfo, int* pFd) {
	return Fence::Cast(pGetFdInfo->fence)->ExportFd(pGetFdInfo->handleType, pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL ImportFenceFdKHR(VkDevice, const VkImportFenceFdInfoKHR* pImportFenceFdInfo) {
	return Fence::Cast(pImportFenceFdInfo->fence)->ImportFd(*pImportFenceFdInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreFdKHR(VkDevice, const VkSemaphoreGetFdInfoKHR* pGetFdInfo, int* pFd) {
	return Semaphore::Cast(pGetFdInfo->semaphore)->ExportFd(pGetFdInfo->handleType, pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL ImportSemaphoreFdKHR(VkDevice,
                                                    const VkImportSemaphoreFdInfoKHR* pImportSemaphoreFdInfo) {
	return Semaphore::Cast(pImportSemaphoreFdInfo->semaphore)->ImportFd(*pImportSemaphoreFdInfo);
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

VKAPI_ATTR VkResult VKAPI_CALL GetEventStatus(VkDevice device, VkEvent event) {
	if (Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
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
