// VkQueue: vkQueueSubmit* returns at once; a queue thread waits for each
// batch's semaphores, executes its command buffers in order, then signals.
// Every queue command is safe from several threads at once: submissions,
// sparse binds and presents enqueue under the queue's lock, a wait reads
// the count submitted under it, and debug labels keep nothing; so a
// queue created INTERNALLY_SYNCHRONIZED (VK_KHR_internally_synchronized_queues)
// is the same queue.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "vk/object.h"

namespace tessera::vk {

class CommandBuffer;
class Device;
class Fence;
class Semaphore;

struct SemaphoreOperation {
	Semaphore* semaphore;
	uint64_t value;  // timeline value; ignored for binary semaphores
};

struct SubmitBatch {
	std::vector<SemaphoreOperation> waits;
	std::vector<CommandBuffer*> command_buffers;
	std::vector<SemaphoreOperation> signals;
	// Host work run on the queue thread after the batch's waits and command
	// buffers, before its signals: vkQueuePresentKHR's presentation (wsi/).
	std::function<void()> host_work;
};

class Queue : public DispatchableObject<Queue, VkQueue, VK_OBJECT_TYPE_QUEUE> {
public:
	explicit Queue(Device* device) : device_(device) {}
	~Queue();
	// Starts the queue thread at `priority` (VK_KHR_global_priority): its
	// nice value is the process's plus 10 for LOW, minus 5 for HIGH and
	// minus 10 for REALTIME. VK_ERROR_NOT_PERMITTED_KHR when the system
	// does not let this process raise its priority that far.
	VkResult Init(VkQueueGlobalPriorityKHR priority = VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR);

	Device* GetDevice() const { return device_; }
	// Takes the batches; the fence (may be null) is signaled after all of them.
	VkResult Submit(std::vector<SubmitBatch>&& batches, Fence* fence);
	void WaitIdle();

private:
	struct Submission {
		std::vector<SubmitBatch> batches;
		Fence* fence;
	};

	void ThreadMain(int nice_change, std::promise<bool>* started);
	void Execute(Submission& submission);

	Device* device_;
	std::thread thread_;
	std::mutex mutex_;
	std::condition_variable work_available_;
	std::deque<Submission> pending_;
	uint64_t submitted_ = 0;  // guarded by mutex_
	uint64_t completed_ = 0;  // guarded by the device's sync mutex
	bool stopping_ = false;
};

}  // namespace tessera::vk
