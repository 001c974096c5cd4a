#include "vk/queue.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "runtime/log.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/image.h"
#include "vk/sync.h"

namespace tessera::vk {

namespace {

// What the queue thread keeps of its draw scratch while idle: enough for
// scenes of a few hundred thousand vertices to start without reallocating.
constexpr size_t kKeptDrawScratchBytes = size_t(64) << 20;
// How long the queue stays idle before the rest is released. An
// application that submits a frame and waits for it goes idle every frame;
// freeing a large scene's scratch then would make every frame fault its
// hundreds of megabytes in again (a third of a frame of a million
// triangles).
constexpr auto kScratchRelease = std::chrono::milliseconds(500);

}  // namespace

Queue::~Queue() {
	if (!thread_.joinable()) return;
	{
		std::lock_guard lock(mutex_);
		stopping_ = true;
	}
	work_available_.notify_all();
	thread_.join();
}

VkResult Queue::Init(VkQueueGlobalPriorityKHR priority) {
	const int nice_change = priority == VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR        ? 10
	                        : priority == VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR     ? -5
	                        : priority == VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR ? -10
	                                                                            : 0;
	std::promise<bool> started;
	std::future<bool> priority_set = started.get_future();
	try {
		thread_ = std::thread([this, nice_change, &started] { ThreadMain(nice_change, &started); });
	} catch (const std::system_error&) {
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	// (The destructor stops a thread whose priority was refused.)
	return priority_set.get() ? VK_SUCCESS : VK_ERROR_NOT_PERMITTED_KHR;
}

VkResult Queue::Submit(std::vector<SubmitBatch>&& batches, Fence* fence) {
	if (device_->IsLost()) return VK_ERROR_DEVICE_LOST;
	for (auto& batch : batches)
		for (CommandBuffer* cb : batch.command_buffers) cb->MarkPending();
	try {
		std::lock_guard lock(mutex_);
		pending_.push_back({std::move(batches), fence});
		++submitted_;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	work_available_.notify_one();
	return VK_SUCCESS;
}

void Queue::WaitIdle() {
	uint64_t target;
	{
		std::lock_guard lock(mutex_);
		target = submitted_;
	}
	device_->Wait([&] { return completed_ >= target; });
}

void Queue::ThreadMain(int nice_change, std::promise<bool>* started) {
	// Linux gives each thread its own nice value (setpriority on a thread
	// ID); lowering it below the process's needs CAP_SYS_NICE or RLIMIT_NICE.
	bool priority_set = true;
	if (nice_change) {
		const pid_t tid = pid_t(syscall(SYS_gettid));
		errno = 0;
		const int nice = getpriority(PRIO_PROCESS, 0);
		priority_set = errno == 0 && setpriority(PRIO_PROCESS, id_t(tid), std::clamp(nice + nice_change, -20, 19)) == 0;
		if (!priority_set)
			TESSERA_LOG(Warn,
			            "vkCreateDevice: the queue's global priority needs a nice value of %d, which the "
			            "system refused",
			            std::clamp(nice + nice_change, -20, 19));
	}
	started->set_value(priority_set);
	bool ran = false;  // work ran since the draw scratch was last trimmed
	for (;;) {
		Submission submission;
		{
			std::unique_lock lock(mutex_);
			auto ready = [&] { return stopping_ || !pending_.empty(); };
			if (ran && !work_available_.wait_for(lock, kScratchRelease, ready)) {
				// Idle for a while: keep only kKeptDrawScratchBytes.
				lock.unlock();
				ReleaseDrawScratch(kKeptDrawScratchBytes);
				ran = false;
				lock.lock();
			}
			work_available_.wait(lock, ready);
			if (pending_.empty()) return;  // stopping with nothing left
			submission = std::move(pending_.front());
			pending_.pop_front();
		}
		Execute(submission);
		{
			auto lock = device_->LockSync();
			++completed_;
		}
		device_->Notify();
		ran = true;
	}
}

void Queue::Execute(Submission& submission) {
	for (SubmitBatch& batch : submission.batches) {
		for (const SemaphoreOperation& wait : batch.waits) wait.semaphore->WaitAndConsume(wait.value);
		// The host, or work the waits ordered before this batch, may have
		// written image memory that a decoded view was made from.
		texture::NoteMemoryWrites();
		// After a device loss, work is skipped but semaphores and fences
		// still signal, so no waiter hangs.
		for (CommandBuffer* cb : batch.command_buffers)
			if (!device_->IsLost()) cb->Execute();
		if (batch.host_work) {
			batch.host_work();
			texture::NoteMemoryWrites();
		}
		for (const SemaphoreOperation& signal : batch.signals) signal.semaphore->Signal(signal.value);
	}
	if (submission.fence) submission.fence->Signal();
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Queue;
using vk::SemaphoreOperation;
using vk::SubmitBatch;

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo* pSubmits,
                                           VkFence fence) {
	try {
		std::vector<SubmitBatch> batches(submitCount);
		for (uint32_t i = 0; i < submitCount; ++i) {
			const VkSubmitInfo& s = pSubmits[i];
			auto* timeline = vk::FindInChain<VkTimelineSemaphoreSubmitInfo>(
			    s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
			SubmitBatch& b = batches[i];
			for (uint32_t w = 0; w < s.waitSemaphoreCount; ++w) {
				uint64_t value = timeline && timeline->pWaitSemaphoreValues && w < timeline->waitSemaphoreValueCount
				                     ? timeline->pWaitSemaphoreValues[w]
				                     : 0;
				b.waits.push_back({vk::Semaphore::Cast(s.pWaitSemaphores[w]), value});
			}
			for (uint32_t c = 0; c < s.commandBufferCount; ++c)
				b.command_buffers.push_back(vk::CommandBuffer::Cast(s.pCommandBuffers[c]));
			for (uint32_t g = 0; g < s.signalSemaphoreCount; ++g) {
				uint64_t value = timeline && timeline->pSignalSemaphoreValues && g < timeline->signalSemaphoreValueCount
				                     ? timeline->pSignalSemaphoreValues[g]
				                     : 0;
				b.signals.push_back({vk::Semaphore::Cast(s.pSignalSemaphores[g]), value});
			}
		}
		return Queue::Cast(queue)->Submit(std::move(batches), vk::Fence::Cast(fence));
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2* pSubmits,
                                            VkFence fence) {
	try {
		std::vector<SubmitBatch> batches(submitCount);
		for (uint32_t i = 0; i < submitCount; ++i) {
			const VkSubmitInfo2& s = pSubmits[i];
			SubmitBatch& b = batches[i];
			for (uint32_t w = 0; w < s.waitSemaphoreInfoCount; ++w)
				b.waits.push_back(
				    {vk::Semaphore::Cast(s.pWaitSemaphoreInfos[w].semaphore), s.pWaitSemaphoreInfos[w].value});
			for (uint32_t c = 0; c < s.commandBufferInfoCount; ++c)
				b.command_buffers.push_back(vk::CommandBuffer::Cast(s.pCommandBufferInfos[c].commandBuffer));
			for (uint32_t g = 0; g < s.signalSemaphoreInfoCount; ++g)
				b.signals.push_back(
				    {vk::Semaphore::Cast(s.pSignalSemaphoreInfos[g].semaphore), s.pSignalSemaphoreInfos[g].value});
		}
		return Queue::Cast(queue)->Submit(std::move(batches), vk::Fence::Cast(fence));
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
}

// Vulkan 1.3 §33.7 (sparse resources): each batch waits, then binds, then
// signals, in order with submissions. Buffer binds, images' opaque binds and
// partially resident images' block binds map memory pages on the queue
// thread (vk/sparse_range.h). The binds are copied here: the application's
// arrays need not outlive the call.
VKAPI_ATTR VkResult VKAPI_CALL QueueBindSparse(VkQueue queue, uint32_t bindInfoCount, const VkBindSparseInfo* pBindInfo,
                                               VkFence fence) {
	if (vk::Queue::Cast(queue)->GetDevice()->IsLost()) return VK_ERROR_DEVICE_LOST;
	try {
		std::vector<SubmitBatch> batches(bindInfoCount);
		for (uint32_t i = 0; i < bindInfoCount; ++i) {
			const VkBindSparseInfo& s = pBindInfo[i];
			auto* timeline = vk::FindInChain<VkTimelineSemaphoreSubmitInfo>(
			    s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
			SubmitBatch& b = batches[i];
			for (uint32_t w = 0; w < s.waitSemaphoreCount; ++w) {
				uint64_t value = timeline && timeline->pWaitSemaphoreValues && w < timeline->waitSemaphoreValueCount
				                     ? timeline->pWaitSemaphoreValues[w]
				                     : 0;
				b.waits.push_back({vk::Semaphore::Cast(s.pWaitSemaphores[w]), value});
			}
			for (uint32_t g = 0; g < s.signalSemaphoreCount; ++g) {
				uint64_t value = timeline && timeline->pSignalSemaphoreValues && g < timeline->signalSemaphoreValueCount
				                     ? timeline->pSignalSemaphoreValues[g]
				                     : 0;
				b.signals.push_back({vk::Semaphore::Cast(s.pSignalSemaphores[g]), value});
			}
			// A buffer's binds, or an image's opaque ones (the image's bytes
			// as its layout places them).
			struct Bind {
				vk::Buffer* buffer;
				vk::Image* image;
				VkSparseMemoryBind bind;
			};
			std::vector<Bind> binds;
			// Partially resident images' blocks.
			struct BlockBind {
				vk::Image* image;
				VkSparseImageMemoryBind bind;
			};
			std::vector<BlockBind> block_binds;
			for (uint32_t k = 0; k < s.bufferBindCount; ++k) {
				const VkSparseBufferMemoryBindInfo& info = s.pBufferBinds[k];
				for (uint32_t n = 0; n < info.bindCount; ++n)
					binds.push_back({vk::Buffer::Cast(info.buffer), nullptr, info.pBinds[n]});
			}
			for (uint32_t k = 0; k < s.imageOpaqueBindCount; ++k) {
				const VkSparseImageOpaqueMemoryBindInfo& info = s.pImageOpaqueBinds[k];
				for (uint32_t n = 0; n < info.bindCount; ++n)
					binds.push_back({nullptr, vk::Image::Cast(info.image), info.pBinds[n]});
			}
			for (uint32_t k = 0; k < s.imageBindCount; ++k) {
				const VkSparseImageMemoryBindInfo& info = s.pImageBinds[k];
				for (uint32_t n = 0; n < info.bindCount; ++n)
					block_binds.push_back({vk::Image::Cast(info.image), info.pBinds[n]});
			}
			vk::Device* device = Queue::Cast(queue)->GetDevice();
			if (binds.empty() && block_binds.empty()) continue;
			b.host_work = [binds = std::move(binds), block_binds = std::move(block_binds), device] {
				for (const Bind& b : binds) {
					const vk::DeviceMemory* memory = vk::DeviceMemory::Cast(b.bind.memory);
					const bool bound =
					    b.buffer ? b.buffer->BindSparse(b.bind.resourceOffset, b.bind.size, memory, b.bind.memoryOffset)
					             : b.image->BindSparse(b.bind.resourceOffset, b.bind.size, memory, b.bind.memoryOffset);
					if (!bound)
						device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
						               b.buffer ? VK_OBJECT_TYPE_BUFFER : VK_OBJECT_TYPE_IMAGE,
						               b.buffer ? uint64_t(b.buffer->ToHandle()) : uint64_t(b.image->ToHandle()),
						               "vkQueueBindSparse: could not map %llu bytes at offset %llu of the %s",
						               static_cast<unsigned long long>(b.bind.size),
						               static_cast<unsigned long long>(b.bind.resourceOffset),
						               b.buffer ? "buffer" : "image");
				}
				for (const BlockBind& b : block_binds)
					if (!b.image->BindResidency(b.bind, vk::DeviceMemory::Cast(b.bind.memory)))
						device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_IMAGE,
						               uint64_t(b.image->ToHandle()),
						               "vkQueueBindSparse: could not bind the blocks at (%d, %d, %d), %ux%ux%u texels, "
						               "of level %u, layer %u",
						               b.bind.offset.x, b.bind.offset.y, b.bind.offset.z, b.bind.extent.width,
						               b.bind.extent.height, b.bind.extent.depth, b.bind.subresource.mipLevel,
						               b.bind.subresource.arrayLayer);
			};
		}
		return Queue::Cast(queue)->Submit(std::move(batches), vk::Fence::Cast(fence));
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
	Queue::Cast(queue)->WaitIdle();
	return Queue::Cast(queue)->GetDevice()->IsLost() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice device) {
	vk::Device::Cast(device)->WaitIdle();
	return vk::Device::Cast(device)->IsLost() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

}  // namespace tessera::entry
