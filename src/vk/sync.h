// Fences, semaphores (binary and timeline) and events. Their state is guarded
// by the device's sync mutex; every change calls Device::Notify() so that host
// waits and the queue thread re-check what they wait for.
#pragma once

#include <cstdint>

#include "vk/object.h"

namespace tessera::vk {

class Device;

class Fence : public Object<Fence, VkFence, VK_OBJECT_TYPE_FENCE> {
public:
	Fence(Device* device, bool signaled) : device_(device), signaled_(signaled) {}
	void Signal();
	void Reset();
	bool IsSignaled() const;  // takes the sync mutex
	bool IsSignaledLocked() const { return signaled_; }  // caller holds it

private:
	Device* device_;
	bool signaled_;
};

class Semaphore : public Object<Semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE> {
public:
	Semaphore(Device* device, VkSemaphoreType type, uint64_t initial_value)
	    : device_(device), type_(type), value_(initial_value) {}
	VkSemaphoreType Type() const { return type_; }

	// Binary: value is 1 when signaled. Timeline: the counter.
	void Signal(uint64_t value);
	uint64_t Value() const;
	uint64_t ValueLocked() const { return value_; }
	// For the queue: blocks until a wait on this semaphore can complete, then
	// consumes a binary signal.
	void WaitAndConsume(uint64_t value);

private:
	Device* device_;
	VkSemaphoreType type_;
	uint64_t value_;
};

class Event : public Object<Event, VkEvent, VK_OBJECT_TYPE_EVENT> {
public:
	explicit Event(Device* device) : device_(device) {}
	void Set(bool set);
	bool IsSet() const;
	void WaitSet();  // blocks until set

private:
	Device* device_;
	bool set_ = false;
};

}  // namespace tessera::vk
