// Fences, semaphores, events and idle waits (Vulkan 1.3 §7), on Tessera and,
// to show that the tests are valid Vulkan with the same outcome, on lavapipe.
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "icd/vulkan_newer.h"
#include "sync_support.h"

using namespace tessera::test;

namespace {

constexpr uint64_t kForever = UINT64_MAX;
constexpr uint64_t kMillisecond = 1000000;

uint32_t Word(const TestBuffer& b, size_t index) {
	uint32_t w;
	std::memcpy(&w, b.data + 4 * index, 4);
	return w;
}

VkCommandBuffer RecordFill(CommandRecorder& recorder, const TestBuffer& b, uint32_t value) {
	VkCommandBuffer cb = recorder.Begin();
	vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, value);
	vkEndCommandBuffer(cb);
	return cb;
}

// A thread per buffer fills its buffer `submits_each` times, one command
// buffer a submission through `submit` (which may take a lock), waiting on
// a fence of its own for each; returns how many fills or waits went wrong.
int FillFromThreads(VkDevice d, std::vector<TestBuffer>& buffers, int submits_each,
                    const std::function<VkResult(VkCommandBuffer, VkFence)>& submit) {
	std::atomic<int> wrong{0};
	std::vector<std::thread> threads;
	for (size_t t = 0; t < buffers.size(); ++t) {
		threads.emplace_back([&, t] {
			CommandRecorder recorder(d);
			VkFence fence = CreateFence(d);
			for (int i = 0; i < submits_each; ++i) {
				uint32_t value = uint32_t(t) << 16 | uint32_t(i);
				VkCommandBuffer cb = RecordFill(recorder, buffers[t], value);
				if (submit(cb, fence) != VK_SUCCESS) ++wrong;
				if (vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) != VK_SUCCESS) ++wrong;
				if (Word(buffers[t], 255) != value) ++wrong;
				vkResetFences(d, 1, &fence);
				recorder.Free(cb);
			}
			vkDestroyFence(d, fence, nullptr);
		});
	}
	for (auto& th : threads) th.join();
	return wrong;
}

}  // namespace

TEST_CASE("fences: created signaled, reset, status, wait any/all with timeouts", "[sync][fence]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkFence signaled = CreateFence(d, true), unsignaled = CreateFence(d);
	CHECK(vkGetFenceStatus(d, signaled) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, unsignaled) == VK_NOT_READY);

	VkFence both[] = {signaled, unsignaled};
	CHECK(vkWaitForFences(d, 2, both, VK_FALSE, 0) == VK_SUCCESS);
	CHECK(vkWaitForFences(d, 2, both, VK_TRUE, 0) == VK_TIMEOUT);
	CHECK(vkWaitForFences(d, 1, &signaled, VK_TRUE, kForever) == VK_SUCCESS);
	auto start = std::chrono::steady_clock::now();
	CHECK(vkWaitForFences(d, 2, both, VK_TRUE, 5 * kMillisecond) == VK_TIMEOUT);
	// §7.3: VK_TIMEOUT only once the timeout has passed.
	if (driver == Driver::Tessera) CHECK(MillisecondsSince(start) >= 5.0);

	CHECK(vkResetFences(d, 1, &signaled) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, signaled) == VK_NOT_READY);

	// An empty submission signals its fence once earlier work is done.
	CHECK(vkQueueSubmit(ctx->queue(), 0, nullptr, signaled) == VK_SUCCESS);
	CHECK(vkWaitForFences(d, 1, &signaled, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(vkQueueSubmit2(ctx->queue(), 0, nullptr, unsignaled) == VK_SUCCESS);
	CHECK(vkWaitForFences(d, 2, both, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, unsignaled) == VK_SUCCESS);

	vkDestroyFence(d, signaled, nullptr);
	vkDestroyFence(d, unsignaled, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("timeline semaphores: host signal, wait any/all, timeouts", "[sync][timeline]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkSemaphore a = CreateTimeline(d, 5), b = CreateTimeline(d, 0);
	CHECK(CounterValue(d, a) == 5);
	CHECK(WaitTimeline(d, a, 5, 0) == VK_SUCCESS);
	CHECK(WaitTimeline(d, a, 3, 0) == VK_SUCCESS);
	CHECK(WaitTimeline(d, a, 6, 0) == VK_TIMEOUT);
	auto start = std::chrono::steady_clock::now();
	CHECK(WaitTimeline(d, a, 6, 2 * kMillisecond) == VK_TIMEOUT);
	if (driver == Driver::Tessera) CHECK(MillisecondsSince(start) >= 2.0);

	SignalTimeline(d, b, 10);
	CHECK(CounterValue(d, b) == 10);

	VkSemaphore both[] = {a, b};
	uint64_t values[] = {6, 10};
	VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
	wait.semaphoreCount = 2;
	wait.pSemaphores = both;
	wait.pValues = values;
	CHECK(vkWaitSemaphores(d, &wait, 0) == VK_TIMEOUT);  // all
	wait.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
	CHECK(vkWaitSemaphores(d, &wait, 0) == VK_SUCCESS);

	// Another thread signals while this one sleeps in a wait for all.
	wait.flags = 0;
	values[0] = 7;
	std::thread signaler([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		SignalTimeline(d, a, 7);
	});
	CHECK(vkWaitSemaphores(d, &wait, kForever) == VK_SUCCESS);
	signaler.join();
	CHECK(CounterValue(d, a) == 7);

	vkDestroySemaphore(d, a, nullptr);
	vkDestroySemaphore(d, b, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("timeline wait-before-signal: a submission waits for a value the host signals later", "[sync][timeline]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	CommandRecorder recorder(d);
	TestBuffer buffer = ctx->CreateBuffer(256);
	std::memset(buffer.data, 0, 256);
	VkSemaphore timeline = CreateTimeline(d, 0);
	VkFence fence = CreateFence(d);
	VkCommandBuffer cb = RecordFill(recorder, buffer, 0x11223344);

	SECTION("vkQueueSubmit2") {
		REQUIRE(Batch().Wait(timeline, 5).Run(cb).Signal(timeline, 6).Submit(ctx->queue(), fence) == VK_SUCCESS);
	}
	SECTION("vkQueueSubmit") {
		uint64_t wait_value = 5, signal_value = 6;
		VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
		values.waitSemaphoreValueCount = 1;
		values.pWaitSemaphoreValues = &wait_value;
		values.signalSemaphoreValueCount = 1;
		values.pSignalSemaphoreValues = &signal_value;
		VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
		VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.pNext = &values;
		si.waitSemaphoreCount = 1;
		si.pWaitSemaphores = &timeline;
		si.pWaitDstStageMask = &stage;
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb;
		si.signalSemaphoreCount = 1;
		si.pSignalSemaphores = &timeline;
		REQUIRE(vkQueueSubmit(ctx->queue(), 1, &si, fence) == VK_SUCCESS);
	}
	// Nothing can run before the host signals 5.
	CHECK(vkWaitForFences(d, 1, &fence, VK_TRUE, 10 * kMillisecond) == VK_TIMEOUT);
	CHECK(WaitTimeline(d, timeline, 6, 0) == VK_TIMEOUT);
	CHECK(Word(buffer, 0) == 0);

	std::thread signaler([&] { SignalTimeline(d, timeline, 5); });
	CHECK(WaitTimeline(d, timeline, 6, kForever) == VK_SUCCESS);
	signaler.join();
	CHECK(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(Word(buffer, 63) == 0x11223344);
	CHECK(CounterValue(d, timeline) == 6);

	vkDestroyFence(d, fence, nullptr);
	vkDestroySemaphore(d, timeline, nullptr);
	ctx->Destroy(buffer);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("binary semaphores order batches (vkQueueSubmit and vkQueueSubmit2)", "[sync][binary]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	CommandRecorder recorder(d);
	TestBuffer src = ctx->CreateBuffer(256), dst = ctx->CreateBuffer(256);
	std::memset(dst.data, 0, 256);
	VkSemaphore semaphore = CreateBinary(d);
	VkFence fence = CreateFence(d);

	VkCommandBuffer fill = RecordFill(recorder, src, 0xa5a5a5a5);
	VkCommandBuffer copy = recorder.Begin();
	VkBufferCopy region{0, 0, 256};
	vkCmdCopyBuffer(copy, src.buffer, dst.buffer, 1, &region);
	vkEndCommandBuffer(copy);

	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo first{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	first.commandBufferCount = 1;
	first.pCommandBuffers = &fill;
	first.signalSemaphoreCount = 1;
	first.pSignalSemaphores = &semaphore;
	VkSubmitInfo second{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	second.waitSemaphoreCount = 1;
	second.pWaitSemaphores = &semaphore;
	second.pWaitDstStageMask = &stage;
	second.commandBufferCount = 1;
	second.pCommandBuffers = &copy;
	REQUIRE(vkQueueSubmit(ctx->queue(), 1, &first, VK_NULL_HANDLE) == VK_SUCCESS);
	REQUIRE(vkQueueSubmit(ctx->queue(), 1, &second, fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(Word(dst, 10) == 0xa5a5a5a5);

	// The wait consumed the signal, so the semaphore can be signaled again.
	vkResetFences(d, 1, &fence);
	VkCommandBuffer fill2 = RecordFill(recorder, src, 0x5a5a5a5a);
	VkCommandBuffer copy2 = recorder.Begin();
	vkCmdCopyBuffer(copy2, src.buffer, dst.buffer, 1, &region);
	vkEndCommandBuffer(copy2);
	REQUIRE(Batch().Run(fill2).Signal(semaphore).Submit(ctx->queue()) == VK_SUCCESS);
	REQUIRE(Batch().Wait(semaphore).Run(copy2).Submit(ctx->queue(), fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(Word(dst, 63) == 0x5a5a5a5a);

	vkDestroyFence(d, fence, nullptr);
	vkDestroySemaphore(d, semaphore, nullptr);
	ctx->Destroy(src);
	ctx->Destroy(dst);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("events: host set/reset/status, vkCmdWaitEvents on a host-set event, vkCmdSetEvent", "[sync][event]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	CommandRecorder recorder(d);
	VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
	VkEvent host_event, device_event;
	vkCreateEvent(d, &eci, nullptr, &host_event);
	vkCreateEvent(d, &eci, nullptr, &device_event);
	CHECK(vkGetEventStatus(d, host_event) == VK_EVENT_RESET);
	CHECK(vkSetEvent(d, host_event) == VK_SUCCESS);
	CHECK(vkGetEventStatus(d, host_event) == VK_EVENT_SET);
	CHECK(vkResetEvent(d, host_event) == VK_SUCCESS);
	CHECK(vkGetEventStatus(d, host_event) == VK_EVENT_RESET);

	// The queue waits for the host to set the event (§7.5: legal outside a
	// render pass with VK_PIPELINE_STAGE_HOST_BIT in srcStageMask).
	TestBuffer buffer = ctx->CreateBuffer(256);
	std::memset(buffer.data, 0, 256);
	VkCommandBuffer cb = recorder.Begin();
	vkCmdWaitEvents(cb, 1, &host_event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
	                nullptr, 0, nullptr);
	vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 0x77777777);
	vkCmdSetEvent(cb, device_event, VK_PIPELINE_STAGE_TRANSFER_BIT);
	vkEndCommandBuffer(cb);
	VkFence fence = CreateFence(d);
	VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	REQUIRE(vkQueueSubmit(ctx->queue(), 1, &si, fence) == VK_SUCCESS);
	CHECK(vkWaitForFences(d, 1, &fence, VK_TRUE, 10 * kMillisecond) == VK_TIMEOUT);
	CHECK(vkGetEventStatus(d, device_event) == VK_EVENT_RESET);
	CHECK(Word(buffer, 0) == 0);
	std::thread setter([&] { vkSetEvent(d, host_event); });
	CHECK(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	setter.join();
	CHECK(Word(buffer, 63) == 0x77777777);
	CHECK(vkGetEventStatus(d, device_event) == VK_EVENT_SET);

	// vkCmdResetEvent2 from the queue.
	vkResetFences(d, 1, &fence);
	VkCommandBuffer reset = recorder.Begin();
	vkCmdResetEvent2(reset, device_event, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
	vkEndCommandBuffer(reset);
	REQUIRE(Batch().Run(reset).Submit(ctx->queue(), fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(vkGetEventStatus(d, device_event) == VK_EVENT_RESET);

	vkDestroyFence(d, fence, nullptr);
	vkDestroyEvent(d, host_event, nullptr);
	vkDestroyEvent(d, device_event, nullptr);
	ctx->Destroy(buffer);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("many threads submit their own command buffers to one queue guarded by a mutex", "[sync][threads]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	constexpr int kThreads = 8, kSubmitsEach = 16;
	std::mutex queue_mutex;  // §3.6: the queue is externally synchronized
	VkSemaphore timeline = CreateTimeline(d, 0);
	uint64_t next_value = 0;  // guarded by queue_mutex
	std::atomic<int> wrong{0};

	// One more thread waits on the host for the last value meanwhile.
	std::thread waiter([&] {
		if (WaitTimeline(d, timeline, kThreads * kSubmitsEach, kForever) != VK_SUCCESS) ++wrong;
	});
	std::vector<TestBuffer> buffers(kThreads);
	for (auto& b : buffers) b = ctx->CreateBuffer(1024);
	wrong += FillFromThreads(d, buffers, kSubmitsEach, [&](VkCommandBuffer cb, VkFence fence) {
		std::lock_guard lock(queue_mutex);
		return Batch().Run(cb).Signal(timeline, ++next_value).Submit(ctx->queue(), fence);
	});
	waiter.join();
	CHECK(wrong == 0);
	CHECK(CounterValue(d, timeline) == kThreads * kSubmitsEach);
	for (auto& b : buffers) ctx->Destroy(b);
	vkDestroySemaphore(d, timeline, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

// VK_KHR_internally_synchronized_queues: a queue created
// INTERNALLY_SYNCHRONIZED takes submissions and idle waits from many
// threads at once, with no lock of the application's (the ThreadSanitizer
// pass runs this too). vkGetDeviceQueue2 finds it by those flags only.
// Tessera alone (lavapipe 22.3 lacks the extension); no validation layer:
// 1.3.239 predates it, and its thread checks would flag the unguarded queue.
TEST_CASE("an internally synchronized queue takes submissions from many threads without a lock", "[sync][threads]") {
	static VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR internal{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES_KHR};
	static VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &internal};
	internal.internallySynchronizedQueues = VK_TRUE;
	f13.synchronization2 = VK_TRUE;
	ContextOptions options;
	options.validation = false;
	options.device_features = &f13;
	options.device_extensions = {VK_KHR_INTERNALLY_SYNCHRONIZED_QUEUES_EXTENSION_NAME};
	options.queue_flags = VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	REQUIRE(ctx->queue() != VK_NULL_HANDLE);  // vkGetDeviceQueue2 with the flags
	const VkDeviceQueueInfo2 without_flags{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, nullptr, 0, 0, 0};
	VkQueue other = VK_NULL_HANDLE;
	vkGetDeviceQueue2(d, &without_flags, &other);
	CHECK(other == VK_NULL_HANDLE);

	constexpr int kThreads = 8, kSubmitsEach = 16;
	std::atomic<int> wrong{0};
	std::atomic<bool> done{false};
	std::vector<TestBuffer> buffers(kThreads);
	for (auto& b : buffers) b = ctx->CreateBuffer(1024);
	// One more thread waits for the queue to go idle, over and over.
	std::thread idler([&] {
		while (!done)
			if (vkQueueWaitIdle(ctx->queue()) != VK_SUCCESS) ++wrong;
	});
	wrong += FillFromThreads(d, buffers, kSubmitsEach, [&](VkCommandBuffer cb, VkFence fence) {
		return Batch().Run(cb).Submit(ctx->queue(), fence);  // no lock
	});
	done = true;
	idler.join();
	CHECK(wrong == 0);
	CHECK(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
	for (auto& b : buffers) ctx->Destroy(b);
}

TEST_CASE("vkQueueWaitIdle and vkDeviceWaitIdle wait for all submitted work", "[sync][idle]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	INFO(DriverName(driver));
	auto ctx = CreateSyncContext(driver);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	CommandRecorder recorder(d);
	TestBuffer buffer = ctx->CreateBuffer(1 << 16);
	for (uint32_t i = 1; i <= 8; ++i) {
		VkCommandBuffer cb = RecordFill(recorder, buffer, i);
		REQUIRE(Batch().Run(cb).Submit(ctx->queue()) == VK_SUCCESS);
	}
	CHECK(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
	CHECK(Word(buffer, (1 << 14) - 1) == 8);

	// Idle waits also wait for work blocked on a semaphore the host signals.
	VkSemaphore timeline = CreateTimeline(d, 0);
	VkFence fence = CreateFence(d);
	REQUIRE(Batch().Wait(timeline, 1).Submit(ctx->queue(), fence) == VK_SUCCESS);
	std::thread signaler([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		SignalTimeline(d, timeline, 1);
	});
	CHECK(vkDeviceWaitIdle(d) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, fence) == VK_SUCCESS);
	signaler.join();

	vkDestroyFence(d, fence, nullptr);
	vkDestroySemaphore(d, timeline, nullptr);
	ctx->Destroy(buffer);
	CHECK(ctx->validation_errors() == 0);
}
