// The payload of a fence or semaphore (Vulkan 1.3 §7.3, §7.4): one 64-bit
// state word and a 32-bit change counter that doubles as a futex word.
//
// Where a payload lives, and how waiters wake:
// - A payload that is never shared lives inside its VkFence/VkSemaphore.
//   A change is an atomic store followed by Device::Notify(), which takes the
//   device's sync mutex before notifying its one condition variable, so a
//   waiter between its test and its sleep cannot miss it. This is the same
//   lock and notify as before sharing existed: in-process use pays nothing
//   for it.
// - A payload that may be exported (VkExport*CreateInfo) or that was imported
//   from an opaque fd lives in a page of a memfd (SharedPayload). Another
//   process, or another VkDevice in this process, maps the same page, so the
//   state word is the payload itself and every operation on it is atomic
//   (lock-free 64-bit atomics work across processes on one mapping). A change
//   bumps `sequence` and FUTEX_WAKEs it (a shared, not private, futex, so a
//   waiter in any process wakes), and also notifies the local device's
//   condition variable.
// - A host wait (or the queue thread's semaphore wait) that involves exactly
//   one shared payload and nothing else sleeps on that payload's futex word:
//   read sequence, test, FUTEX_WAIT on the sequence read. A wait that mixes
//   several shared payloads, or shared and local ones, sleeps on the device
//   condition variable in slices of at most kSharedPollInterval, because a
//   thread cannot sleep on a futex and a condition variable at once: local
//   changes wake it at once, remote ones within one slice.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <utility>

#include <vulkan/vulkan_core.h>

namespace tessera::vk {

struct SyncPayload {
	// Fence and binary semaphore: 0 unsignaled, 1 signaled. Timeline: the counter.
	std::atomic<uint64_t> value{0};
	// Bumped on every change; the futex word waiters sleep on.
	std::atomic<uint32_t> sequence{0};

	void Store(uint64_t v) {
		value.store(v, std::memory_order_release);
		sequence.fetch_add(1, std::memory_order_acq_rel);
	}
	// Raises a timeline counter; a lower value never lowers it.
	void Raise(uint64_t v) {
		uint64_t old = value.load(std::memory_order_acquire);
		while (old < v && !value.compare_exchange_weak(old, v, std::memory_order_acq_rel)) {}
		sequence.fetch_add(1, std::memory_order_acq_rel);
	}
	// Binary semaphore wait: takes the signal if there is one.
	bool TryConsume() {
		uint64_t expected = 1;
		return value.compare_exchange_strong(expected, 0, std::memory_order_acq_rel);
	}
	uint64_t Load() const { return value.load(std::memory_order_acquire); }
};
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "payloads shared between processes need lock-free atomics");

// A payload in a memfd page: created fresh (exportable objects) or mapped
// from an imported opaque fd. Owns the mapping and the descriptor.
class SharedPayload {
public:
	static constexpr auto kSharedPollInterval = std::chrono::milliseconds(1);

	SharedPayload() = default;
	SharedPayload(const SharedPayload&) = delete;
	SharedPayload& operator=(const SharedPayload&) = delete;
	~SharedPayload();

	// What the page holds, checked on import so that a fence's descriptor
	// is not taken for a semaphore's (or for any other file).
	enum class Kind : uint32_t { Fence = 0x54464e43, Semaphore = 0x54534d50 };

	// A fresh payload holding `initial`.
	VkResult Create(Kind kind, uint64_t initial);
	// Maps an opaque fd made by Export(); takes ownership of fd on success.
	VkResult Import(Kind kind, int fd);
	// A new descriptor for the same payload (reference transference).
	VkResult Export(int* fd) const;

	SyncPayload* Get() const { return payload_; }
	void Swap(SharedPayload& other) {
		std::swap(fd_, other.fd_);
		std::swap(payload_, other.payload_);
	}

private:
	int fd_ = -1;
	SyncPayload* payload_ = nullptr;
};

// Where a fence's or semaphore's payload is now: its own (local), a shared
// permanent one, or a temporarily imported one (Vulkan 1.3 §7.4.5 and
// §7.3.1: a temporary import replaces the payload until a wait consumes it
// (semaphores) or vkResetFences (fences), then the permanent one returns).
class PayloadHolder {
public:
	explicit PayloadHolder(uint64_t initial) : current_(&local_) {
		local_.value.store(initial, std::memory_order_relaxed);
	}

	// Lock-free: the queue thread and host waits read it on every operation.
	SyncPayload* Current() const { return current_.load(std::memory_order_acquire); }
	bool IsShared() const { return Current() != &local_; }
	bool HasTemporary() const { return has_temporary_.load(std::memory_order_acquire); }

	// At creation, for objects that may be exported.
	VkResult MakeShareable(SharedPayload::Kind kind);
	VkResult Import(SharedPayload::Kind kind, int fd, bool temporary);
	VkResult Export(int* fd) const;
	void DropTemporary();

private:
	void UpdateCurrent();  // with mutex_ held

	SyncPayload local_;
	// Imports, exports and the queue thread's dropping of a consumed
	// temporary payload may meet (export needs no external synchronization
	// against a pending wait), so the mappings change under a mutex.
	mutable std::mutex mutex_;
	SharedPayload permanent_;
	SharedPayload temporary_;
	std::atomic<SyncPayload*> current_;
	std::atomic<bool> has_temporary_{false};
};

// Wakes every waiter on a shared payload, in any process.
void WakeSharedWaiters(SyncPayload* payload);
// Sleeps until payload->sequence differs from `seen` or the deadline passes
// (spurious wake-ups allowed: callers re-test).
void WaitSharedChange(SyncPayload* payload, uint32_t seen, std::chrono::steady_clock::time_point deadline);

}  // namespace tessera::vk
