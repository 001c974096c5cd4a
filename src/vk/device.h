// VkDevice: the queue, the enabled extensions and features, the thread pool
// later stages draw on, and the one condition variable that every host wait
// (fences, timeline semaphores, events, idle) sleeps on.
#pragma once

#include <atomic>
#include <bitset>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <vector>

#include "entrypoints.h"
#include "shader/interpreter.h"
#include "spirv/compile.h"
#include "vk/object.h"
#include "vk/physical_device.h"

namespace tessera::runtime {
class ThreadPool;
}
namespace tessera::wsi {
class PassCapture;
}

namespace tessera::vk {

class Instance;
class PhysicalDevice;
class Queue;

class Device : public DispatchableObject<Device, VkDevice, VK_OBJECT_TYPE_DEVICE> {
public:
	using ExtensionSet = std::bitset<static_cast<size_t>(entry::DeviceExtension::Count)>;

	Device(PhysicalDevice* physical_device, const VkAllocationCallbacks* allocator, ExtensionSet extensions);
	~Device();
	VkResult Init(const VkDeviceCreateInfo& info);

	PhysicalDevice* GetPhysicalDevice() const { return physical_device_; }
	Instance* GetInstance() const;
	const VkAllocationCallbacks* Allocator() const { return has_allocator_ ? &allocator_ : nullptr; }
	// The callbacks an object of this device is created with.
	const VkAllocationCallbacks* Allocator(const VkAllocationCallbacks* given) const {
		return given ? given : Allocator();
	}
	bool IsEnabled(entry::DeviceExtension extension) const { return extensions_[static_cast<size_t>(extension)]; }
	// Which SPIR-V the enabled features make valid (vkCreateShaderModule).
	const spirv::ValidationRules& ShaderRules() const { return shader_rules_; }
	// The queue of a family (PhysicalDevice::kQueueFamilyCount), or null
	// where the device was not created with it.
	Queue* GetQueue(uint32_t family, uint32_t index) const;
	// The flags a family's queue was created with (vkGetDeviceQueue2 names
	// them): 0 or VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR,
	// which needs nothing more (every queue command takes the queue's lock
	// or touches nothing of the queue's: vk/queue.h).
	VkDeviceQueueCreateFlags QueueFlags(uint32_t family) const {
		return family < PhysicalDevice::kQueueFamilyCount ? queue_flags_[family] : 0;
	}
	// Waits until every queue of the device is idle (vkDeviceWaitIdle).
	void WaitIdle() const;
	runtime::ThreadPool& ThreadPool();
	// What one draw may take for its vertex results (vk/draw.cpp): a quarter
	// of the machine's memory, or TESSERA_DRAW_MEMORY_MB, read when the
	// device is created. A vertexCount (or an indirect one) may be up to
	// 2^32 - 1, which no allocation should follow blindly: the kernel would
	// grant it and kill the process as the pages are touched.
	uint64_t DrawMemoryBudget() const { return draw_memory_budget_; }
	// Whether VK_EXT_robustness2's robustBufferAccess2 is enabled: then an
	// indexed draw may reach past its index buffer, whose missing indices
	// read as zero (vk/draw.cpp).
	bool RobustBufferAccess2() const { return robust_buffer_access2_; }
	// Whether VK_EXT_robustness2's nullDescriptor is enabled: then a null
	// index buffer (VK_KHR_maintenance6) reads zeros (vk/draw.cpp).
	bool NullDescriptor() const { return null_descriptor_; }
	// The engine's run options for dispatches and draws:
	// TESSERA_SHADER_STEP_LIMIT, read when the device is created, overrides
	// how many blocks one lane group may run before the device is declared
	// lost (an endless loop); the default is the engine's generous bound.
	const shader::RunOptions& ShaderRunOptions() const { return run_options_; }

	// Host waits. Every state change that a wait may look for calls Notify().
	template <typename Predicate>
	bool WaitUntil(std::chrono::steady_clock::time_point deadline, Predicate done) {
		std::unique_lock lock(sync_mutex_);
		return sync_changed_.wait_until(lock, deadline, done);
	}
	template <typename Predicate>
	void Wait(Predicate done) {
		std::unique_lock lock(sync_mutex_);
		sync_changed_.wait(lock, done);
	}
	std::unique_lock<std::mutex> LockSync() { return std::unique_lock(sync_mutex_); }
	void Notify() {
		{ std::lock_guard lock(sync_mutex_); }
		sync_changed_.notify_all();
	}
	// Deadline of a Vulkan timeout in nanoseconds (UINT64_MAX: forever).
	static std::chrono::steady_clock::time_point Deadline(uint64_t timeout_ns);

	// Reports a problem to the log and to VK_EXT_debug_utils messengers.
	void Report(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkObjectType type, uint64_t object, const char* format,
	            ...) const __attribute__((format(printf, 5, 6)));

	// Vulkan 1.3 §5.2.3 "Lost Device": set when a command cannot complete (a
	// shader that runs past the step bound). Execution of later command
	// buffers is skipped; from then on every command that may return
	// VK_ERROR_DEVICE_LOST returns it (as VK_KHR_maintenance5 requires), and
	// host waits for work that will never finish end. Everything already
	// written stays in memory.
	void MarkLost() {
		lost_.store(true, std::memory_order_release);
		Notify();
	}
	bool IsLost() const { return lost_.load(std::memory_order_acquire); }

	// The device's live memory allocations, for shaders that access memory
	// through device addresses (PhysicalStorageBuffer pointers are host
	// pointers): an access outside every range is dropped instead of
	// touching the host process's memory. A dispatch holds a sorted snapshot
	// while allocations come and go; it is rebuilt at the first request after
	// a change.
	using AddressRanges = std::vector<shader::AddressRange>;
	VkResult AddMemoryRange(const uint8_t* begin, uint64_t size);
	void RemoveMemoryRange(const uint8_t* begin);
	std::shared_ptr<const AddressRanges> MemoryRanges() const;
	// Bytes from address to the end of the live allocation that holds it; 0
	// when none does.
	uint64_t BytesInMemoryFrom(const uint8_t* address) const;

	// TESSERA_CAPTURE_RENDER_PASSES (wsi/capture.h); null when off.
	wsi::PassCapture* PassCapture() const { return pass_capture_.get(); }

	// VK_EXT_debug_utils object names.
	void SetObjectName(uint64_t handle, const char* name);
	std::string ObjectName(uint64_t handle) const;

private:
	PhysicalDevice* physical_device_;
	VkAllocationCallbacks allocator_{};
	bool has_allocator_ = false;
	ExtensionSet extensions_;
	spirv::ValidationRules shader_rules_;
	// One queue a family (PhysicalDevice::kQueueCount is 1): the universal
	// one always, the others where the create info asks for them.
	Queue* queues_[PhysicalDevice::kQueueFamilyCount] = {};
	VkDeviceQueueCreateFlags queue_flags_[PhysicalDevice::kQueueFamilyCount] = {};

	std::mutex pool_mutex_;
	std::unique_ptr<runtime::ThreadPool> thread_pool_;

	std::mutex sync_mutex_;
	std::condition_variable sync_changed_;

	std::atomic<bool> lost_{false};
	uint64_t draw_memory_budget_ = 0;
	bool robust_buffer_access2_ = false;
	bool null_descriptor_ = false;
	shader::RunOptions run_options_;

	mutable std::mutex ranges_mutex_;
	std::map<uint64_t, uint64_t> live_ranges_;  // begin -> end of each allocation
	mutable std::shared_ptr<const AddressRanges> ranges_snapshot_;

	mutable std::mutex names_mutex_;
	std::unordered_map<uint64_t, std::string> object_names_;

	// Destroyed after ~Device has deleted the queue: flushes what it captured.
	std::unique_ptr<wsi::PassCapture> pass_capture_;
};

}  // namespace tessera::vk
