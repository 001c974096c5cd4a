// Shared by the synchronization, query, external and private data tests: a
// context with the 1.2/1.3 features these tests use, and a command pool and
// fence per caller so that several threads can record and submit at once.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <memory>

#include "vk_context.h"

namespace tessera::test {

inline std::unique_ptr<Context> CreateSyncContext(Driver driver, std::vector<const char*> extensions = {}) {
	static VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	static VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	f13.synchronization2 = VK_TRUE;
	f13.privateData = VK_TRUE;
	f12.pNext = &f13;
	f12.timelineSemaphore = VK_TRUE;
	f12.hostQueryReset = VK_TRUE;
	ContextOptions options;
	options.device_features = &f12;
	options.device_extensions = std::move(extensions);
	return Context::Create(driver, options);
}

// A command pool of one's own (pools are externally synchronized), for the
// queue family given.
class CommandRecorder {
public:
	explicit CommandRecorder(VkDevice device, uint32_t family = 0) : device_(device) {
		VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
		pci.queueFamilyIndex = family;
		vkCreateCommandPool(device_, &pci, nullptr, &pool_);
	}
	~CommandRecorder() { vkDestroyCommandPool(device_, pool_, nullptr); }
	CommandRecorder(const CommandRecorder&) = delete;
	CommandRecorder& operator=(const CommandRecorder&) = delete;

	VkCommandBuffer Begin() {
		VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		cai.commandPool = pool_;
		cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
		cai.commandBufferCount = 1;
		VkCommandBuffer cb = VK_NULL_HANDLE;
		vkAllocateCommandBuffers(device_, &cai, &cb);
		VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
		vkBeginCommandBuffer(cb, &bi);
		return cb;
	}
	void Free(VkCommandBuffer cb) { vkFreeCommandBuffers(device_, pool_, 1, &cb); }

private:
	VkDevice device_;
	VkCommandPool pool_ = VK_NULL_HANDLE;
};

inline VkFence CreateFence(VkDevice device, bool signaled = false, const void* next = nullptr) {
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	fci.pNext = next;
	fci.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
	VkFence fence = VK_NULL_HANDLE;
	vkCreateFence(device, &fci, nullptr, &fence);
	return fence;
}

inline VkSemaphore CreateTimeline(VkDevice device, uint64_t initial, const void* next = nullptr) {
	VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
	tci.pNext = next;
	tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
	tci.initialValue = initial;
	VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	sci.pNext = &tci;
	VkSemaphore semaphore = VK_NULL_HANDLE;
	vkCreateSemaphore(device, &sci, nullptr, &semaphore);
	return semaphore;
}

inline VkSemaphore CreateBinary(VkDevice device, const void* next = nullptr) {
	VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	sci.pNext = next;
	VkSemaphore semaphore = VK_NULL_HANDLE;
	vkCreateSemaphore(device, &sci, nullptr, &semaphore);
	return semaphore;
}

inline void SignalTimeline(VkDevice device, VkSemaphore semaphore, uint64_t value) {
	VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
	info.semaphore = semaphore;
	info.value = value;
	REQUIRE(vkSignalSemaphore(device, &info) == VK_SUCCESS);
}

inline VkResult WaitTimeline(VkDevice device, VkSemaphore semaphore, uint64_t value, uint64_t timeout) {
	VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
	info.semaphoreCount = 1;
	info.pSemaphores = &semaphore;
	info.pValues = &value;
	return vkWaitSemaphores(device, &info, timeout);
}

inline uint64_t CounterValue(VkDevice device, VkSemaphore semaphore) {
	uint64_t value = 0;
	vkGetSemaphoreCounterValue(device, semaphore, &value);
	return value;
}

// One batch through vkQueueSubmit2.
struct Batch {
	std::vector<VkSemaphoreSubmitInfo> waits, signals;
	std::vector<VkCommandBufferSubmitInfo> command_buffers;

	Batch& Wait(VkSemaphore s, uint64_t value = 0) {
		VkSemaphoreSubmitInfo i{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
		i.semaphore = s;
		i.value = value;
		i.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
		waits.push_back(i);
		return *this;
	}
	Batch& Signal(VkSemaphore s, uint64_t value = 0) {
		VkSemaphoreSubmitInfo i{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
		i.semaphore = s;
		i.value = value;
		i.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
		signals.push_back(i);
		return *this;
	}
	Batch& Run(VkCommandBuffer cb) {
		VkCommandBufferSubmitInfo i{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
		i.commandBuffer = cb;
		command_buffers.push_back(i);
		return *this;
	}
	VkResult Submit(VkQueue queue, VkFence fence = VK_NULL_HANDLE) const {
		VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
		si.waitSemaphoreInfoCount = uint32_t(waits.size());
		si.pWaitSemaphoreInfos = waits.data();
		si.commandBufferInfoCount = uint32_t(command_buffers.size());
		si.pCommandBufferInfos = command_buffers.data();
		si.signalSemaphoreInfoCount = uint32_t(signals.size());
		si.pSignalSemaphoreInfos = signals.data();
		return vkQueueSubmit2(queue, 1, &si, fence);
	}
};

inline double MillisecondsSince(std::chrono::steady_clock::time_point start) {
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace tessera::test
