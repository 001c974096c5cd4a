// Fences, semaphores (binary and timeline) and events (Vulkan 1.3 §7).
//
// Fences and semaphores keep their state in a SyncPayload (sync_payload.h):
// in the object itself, or in a shared memfd page when they may be exported
// or were imported as opaque fds. Every change calls Device::Notify() so that
// host waits and the queue thread, which sleep on the device's condition
// variable, re-check what they wait for; changes to a shared payload also wake
// futex waiters in every process.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "vk/object.h"
#include "vk/sync_payload.h"

namespace tessera::vk {

class Device;

// The queue thread's Signal() calls still using an object. A host thread that
// sees the signal may destroy the object at once (Vulkan 1.3 §7.3, §7.4: once
// the signal operation has executed), while Signal is still waking waiters;
// the destructor waits for those calls to leave. Declared last in its owner,
// so it is destroyed, and waits, before the payload it guards.
class InFlightSignals {
public:
	InFlightSignals() = default;
	InFlightSignals(const InFlightSignals&) = delete;
	InFlightSignals& operator=(const InFlightSignals&) = delete;
	~InFlightSignals() {
		while (count_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
	}
	void Enter() { count_.fetch_add(1, std::memory_order_acq_rel); }
	void Leave() { count_.fetch_sub(1, std::memory_order_release); }

private:
	std::atomic<uint32_t> count_{0};
};

class Fence : public Object<Fence, VkFence, VK_OBJECT_TYPE_FENCE> {
public:
	Fence(Device* device, bool signaled) : device_(device), payload_(signaled ? 1 : 0) {}
	VkResult Init(const VkFenceCreateInfo& info);

	void Signal();
	// vkResetFences: restores a permanent payload first (§7.3).
	void Reset();
	bool IsSignaled() const { return payload_.Current()->Load() != 0; }
	SyncPayload* Payload() const { return payload_.Current(); }
	bool IsShared() const { return payload_.IsShared(); }

	VkResult ExportFd(VkExternalFenceHandleTypeFlagBits type, int* fd);
	VkResult ImportFd(const VkImportFenceFdInfoKHR& info);

private:
	Device* device_;
	PayloadHolder payload_;
	InFlightSignals signals_;  // last: see InFlightSignals
};

class Semaphore : public Object<Semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE> {
public:
	Semaphore(Device* device, VkSemaphoreType type, uint64_t initial_value)
	    : device_(device), type_(type), payload_(initial_value) {}
	VkResult Init(const VkSemaphoreCreateInfo& info);
	VkSemaphoreType Type() const { return type_; }

	// Binary: value is 1 when signaled. Timeline: the counter, which only rises.
	void Signal(uint64_t value);
	uint64_t Value() const { return payload_.Current()->Load(); }
	SyncPayload* Payload() const { return payload_.Current(); }
	bool IsShared() const { return payload_.IsShared(); }
	// For the queue: blocks until a wait on this semaphore can complete, then
	// consumes a binary signal (and a temporarily imported payload).
	void WaitAndConsume(uint64_t value);

	VkResult ExportFd(VkExternalSemaphoreHandleTypeFlagBits type, int* fd);
	VkResult ImportFd(const VkImportSemaphoreFdInfoKHR& info);

private:
	Device* device_;
	VkSemaphoreType type_;
	PayloadHolder payload_;
	InFlightSignals signals_;  // last: see InFlightSignals
};

class Event : public Object<Event, VkEvent, VK_OBJECT_TYPE_EVENT> {
public:
	explicit Event(Device* device) : device_(device) {}
	void Set(bool set);
	bool IsSet() const;
	void WaitSet();  // blocks until set

private:
	Device* device_;
	bool set_ = false;  // guarded by the device's sync mutex
};

}  // namespace tessera::vk
