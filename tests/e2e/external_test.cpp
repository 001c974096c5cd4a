// External semaphores, fences and memory as opaque fds (Vulkan 1.3 §7.4.5,
// §7.3.2, §11.2): shared between two devices in this process and with a child
// process that runs this test binary again; imported dma-bufs
// (VK_EXT_external_memory_dma_buf).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "sync_support.h"

using namespace tessera::test;

namespace {

constexpr uint64_t kForever = UINT64_MAX;
constexpr uint64_t kMillisecond = 1000000;
constexpr VkDeviceSize kSharedSize = 64 * 1024;

std::unique_ptr<Context> CreateExternalContext() {
	return CreateSyncContext(Driver::Tessera,
	                         {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME,
	                          VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME});
}

VkSemaphore CreateExportableSemaphore(VkDevice device, VkSemaphoreType type) {
	VkExportSemaphoreCreateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
	exportable.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
	return type == VK_SEMAPHORE_TYPE_TIMELINE ? CreateTimeline(device, 0, &exportable)
	                                          : CreateBinary(device, &exportable);
}

int ExportSemaphore(Context& ctx, VkSemaphore semaphore) {
	VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
	info.semaphore = semaphore;
	info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
	int fd = -1;
	REQUIRE(ctx.Proc<PFN_vkGetSemaphoreFdKHR>("vkGetSemaphoreFdKHR")(ctx.device(), &info, &fd) == VK_SUCCESS);
	REQUIRE(fd >= 0);
	return fd;
}

VkResult ImportSemaphore(Context& ctx, VkSemaphore semaphore, int fd, VkSemaphoreImportFlags flags = 0) {
	VkImportSemaphoreFdInfoKHR info{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR};
	info.semaphore = semaphore;
	info.flags = flags;
	info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
	info.fd = fd;
	return ctx.Proc<PFN_vkImportSemaphoreFdKHR>("vkImportSemaphoreFdKHR")(ctx.device(), &info);
}

int ExportFence(Context& ctx, VkFence fence) {
	VkFenceGetFdInfoKHR info{VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR};
	info.fence = fence;
	info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
	int fd = -1;
	REQUIRE(ctx.Proc<PFN_vkGetFenceFdKHR>("vkGetFenceFdKHR")(ctx.device(), &info, &fd) == VK_SUCCESS);
	REQUIRE(fd >= 0);
	return fd;
}

VkResult ImportFence(Context& ctx, VkFence fence, int fd, VkFenceImportFlags flags = 0) {
	VkImportFenceFdInfoKHR info{VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR};
	info.fence = fence;
	info.flags = flags;
	info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
	info.fd = fd;
	return ctx.Proc<PFN_vkImportFenceFdKHR>("vkImportFenceFdKHR")(ctx.device(), &info);
}

// A buffer whose memory is exported (import_fd < 0) or imported from import_fd.
struct SharedBuffer {
	VkBuffer buffer = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	uint32_t* words = nullptr;
};

SharedBuffer CreateSharedBuffer(Context& ctx, int import_fd) {
	VkDevice d = ctx.device();
	SharedBuffer b;
	VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
	external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.pNext = &external;
	bci.size = kSharedSize;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
	REQUIRE(vkCreateBuffer(d, &bci, nullptr, &b.buffer) == VK_SUCCESS);
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(d, b.buffer, &req);
	VkExportMemoryAllocateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
	exportable.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	VkImportMemoryFdInfoKHR imported{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
	imported.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	imported.fd = import_fd;
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	mai.pNext = import_fd >= 0 ? static_cast<const void*>(&imported) : &exportable;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = 0;
	REQUIRE(vkAllocateMemory(d, &mai, nullptr, &b.memory) == VK_SUCCESS);
	vkBindBufferMemory(d, b.buffer, b.memory, 0);
	void* p = nullptr;
	vkMapMemory(d, b.memory, 0, VK_WHOLE_SIZE, 0, &p);
	b.words = static_cast<uint32_t*>(p);
	return b;
}

int ExportMemory(Context& ctx, VkDeviceMemory memory) {
	VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
	info.memory = memory;
	info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	int fd = -1;
	REQUIRE(ctx.Proc<PFN_vkGetMemoryFdKHR>("vkGetMemoryFdKHR")(ctx.device(), &info, &fd) == VK_SUCCESS);
	return fd;
}

void Destroy(Context& ctx, SharedBuffer& b) {
	vkDestroyBuffer(ctx.device(), b.buffer, nullptr);
	vkFreeMemory(ctx.device(), b.memory, nullptr);
}

// Fills words [first, first + count) of a buffer on the context's queue,
// after waiting for `wait` and before signaling `signal` (timeline values).
void FillOnQueue(Context& ctx, CommandRecorder& recorder, VkBuffer buffer, uint32_t first, uint32_t count,
                 uint32_t value, VkSemaphore timeline, uint64_t wait, uint64_t signal) {
	VkCommandBuffer cb = recorder.Begin();
	vkCmdFillBuffer(cb, buffer, first * 4, count * 4, value);
	vkEndCommandBuffer(cb);
	Batch batch;
	if (wait) batch.Wait(timeline, wait);
	batch.Run(cb).Signal(timeline, signal);
	REQUIRE(batch.Submit(ctx.queue()) == VK_SUCCESS);
}

}  // namespace

TEST_CASE("external handle properties: opaque fds for semaphores, fences and buffers", "[external]") {
	auto ctx = CreateExternalContext();
	REQUIRE(ctx);
	VkPhysicalDevice pd = ctx->physical_device();
	for (VkSemaphoreType type : {VK_SEMAPHORE_TYPE_BINARY, VK_SEMAPHORE_TYPE_TIMELINE}) {
		VkSemaphoreTypeCreateInfo type_info{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
		type_info.semaphoreType = type;
		VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
		info.pNext = &type_info;
		info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
		VkExternalSemaphoreProperties props{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
		vkGetPhysicalDeviceExternalSemaphoreProperties(pd, &info, &props);
		CHECK(props.externalSemaphoreFeatures ==
		      (VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
		CHECK(props.compatibleHandleTypes == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
		info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
		vkGetPhysicalDeviceExternalSemaphoreProperties(pd, &info, &props);
		CHECK(props.externalSemaphoreFeatures == 0);
	}
	VkPhysicalDeviceExternalFenceInfo fence_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO};
	fence_info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
	VkExternalFenceProperties fence_props{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
	vkGetPhysicalDeviceExternalFenceProperties(pd, &fence_info, &fence_props);
	CHECK(fence_props.externalFenceFeatures ==
	      (VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT));
	fence_info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT;
	vkGetPhysicalDeviceExternalFenceProperties(pd, &fence_info, &fence_props);
	CHECK(fence_props.externalFenceFeatures == 0);

	VkPhysicalDeviceExternalBufferInfo buffer_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	buffer_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	VkExternalBufferProperties buffer_props{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
	vkGetPhysicalDeviceExternalBufferProperties(pd, &buffer_info, &buffer_props);
	CHECK(buffer_props.externalMemoryProperties.externalMemoryFeatures ==
	      (VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT));
	CHECK(buffer_props.externalMemoryProperties.compatibleHandleTypes == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
	// A type of another system (dma-bufs: their own test below).
	buffer_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT;
	vkGetPhysicalDeviceExternalBufferProperties(pd, &buffer_info, &buffer_props);
	CHECK(buffer_props.externalMemoryProperties.externalMemoryFeatures == 0);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("a timeline semaphore shared through an opaque fd links two devices", "[external][timeline]") {
	auto a = CreateExternalContext(), b = CreateExternalContext();
	REQUIRE(a);
	REQUIRE(b);
	VkSemaphore exported = CreateExportableSemaphore(a->device(), VK_SEMAPHORE_TYPE_TIMELINE);
	VkSemaphore imported = CreateTimeline(b->device(), 0);
	REQUIRE(ImportSemaphore(*b, imported, ExportSemaphore(*a, exported)) == VK_SUCCESS);

	SignalTimeline(a->device(), exported, 2);
	CHECK(CounterValue(b->device(), imported) == 2);
	CHECK(WaitTimeline(b->device(), imported, 2, 0) == VK_SUCCESS);
	auto start = std::chrono::steady_clock::now();
	CHECK(WaitTimeline(b->device(), imported, 3, 2 * kMillisecond) == VK_TIMEOUT);
	CHECK(MillisecondsSince(start) >= 2.0);

	// Device B's queue waits for device A's queue, and A's host for B's queue.
	SharedBuffer shared_a = CreateSharedBuffer(*a, -1);
	SharedBuffer shared_b = CreateSharedBuffer(*b, ExportMemory(*a, shared_a.memory));
	CommandRecorder recorder_a(a->device()), recorder_b(b->device());
	FillOnQueue(*b, recorder_b, shared_b.buffer, 16, 16, 0xbbbbbbbb, imported, 3, 4);
	CHECK(WaitTimeline(a->device(), exported, 4, 5 * kMillisecond) == VK_TIMEOUT);
	FillOnQueue(*a, recorder_a, shared_a.buffer, 0, 16, 0xaaaaaaaa, exported, 0, 3);
	CHECK(WaitTimeline(a->device(), exported, 4, kForever) == VK_SUCCESS);
	CHECK(shared_a.words[0] == 0xaaaaaaaa);
	CHECK(shared_a.words[31] == 0xbbbbbbbb);
	CHECK(shared_b.words[15] == 0xaaaaaaaa);

	vkQueueWaitIdle(a->queue());
	vkQueueWaitIdle(b->queue());
	Destroy(*a, shared_a);
	Destroy(*b, shared_b);
	vkDestroySemaphore(a->device(), exported, nullptr);
	vkDestroySemaphore(b->device(), imported, nullptr);
	CHECK(a->validation_errors() == 0);
	CHECK(b->validation_errors() == 0);
}

TEST_CASE("a binary semaphore imported temporarily is consumed by one wait", "[external][binary]") {
	auto ctx = CreateExternalContext();
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkSemaphore exported = CreateExportableSemaphore(d, VK_SEMAPHORE_TYPE_BINARY);
	VkSemaphore local = CreateBinary(d);
	VkFence fence = CreateFence(d);
	REQUIRE(ImportSemaphore(*ctx, local, ExportSemaphore(*ctx, exported), VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) ==
	        VK_SUCCESS);
	// The signal goes to the exported payload; the wait on `local` takes it.
	REQUIRE(Batch().Signal(exported).Submit(ctx->queue()) == VK_SUCCESS);
	REQUIRE(Batch().Wait(local).Submit(ctx->queue(), fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	// Now `local` has its own payload again.
	vkResetFences(d, 1, &fence);
	REQUIRE(Batch().Signal(local).Submit(ctx->queue()) == VK_SUCCESS);
	REQUIRE(Batch().Wait(local).Submit(ctx->queue(), fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(d, 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);

	vkDestroyFence(d, fence, nullptr);
	vkDestroySemaphore(d, exported, nullptr);
	vkDestroySemaphore(d, local, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("fences shared through opaque fds: permanent and temporary imports", "[external][fence]") {
	auto ctx = CreateExternalContext();
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkExportFenceCreateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO};
	exportable.handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
	VkFence exported = CreateFence(d, false, &exportable);
	VkFence permanent = CreateFence(d), temporary = CreateFence(d);
	REQUIRE(ImportFence(*ctx, permanent, ExportFence(*ctx, exported)) == VK_SUCCESS);
	REQUIRE(ImportFence(*ctx, temporary, ExportFence(*ctx, exported), VK_FENCE_IMPORT_TEMPORARY_BIT) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, permanent) == VK_NOT_READY);

	REQUIRE(vkQueueSubmit(ctx->queue(), 0, nullptr, exported) == VK_SUCCESS);
	CHECK(vkWaitForFences(d, 1, &permanent, VK_TRUE, kForever) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, temporary) == VK_SUCCESS);

	// §7.3: resetting a temporarily imported fence restores (and resets) its
	// own payload and leaves the shared one alone.
	CHECK(vkResetFences(d, 1, &temporary) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, temporary) == VK_NOT_READY);
	CHECK(vkGetFenceStatus(d, exported) == VK_SUCCESS);
	// A permanent import shares resets too.
	CHECK(vkResetFences(d, 1, &permanent) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(d, exported) == VK_NOT_READY);

	// A host waiting on the shared payload wakes when another thread's
	// submission signals it.
	std::thread submitter([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		vkQueueSubmit(ctx->queue(), 0, nullptr, exported);
	});
	CHECK(vkWaitForFences(d, 1, &permanent, VK_TRUE, kForever) == VK_SUCCESS);
	submitter.join();

	// A wait mixing a shared and a local payload (the polled path).
	vkResetFences(d, 1, &permanent);
	VkFence mixed[] = {temporary, permanent};
	auto start = std::chrono::steady_clock::now();
	CHECK(vkWaitForFences(d, 2, mixed, VK_FALSE, 3 * kMillisecond) == VK_TIMEOUT);
	CHECK(MillisecondsSince(start) >= 3.0);
	std::thread second_submitter([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		vkQueueSubmit(ctx->queue(), 0, nullptr, exported);
	});
	CHECK(vkWaitForFences(d, 2, mixed, VK_FALSE, kForever) == VK_SUCCESS);
	second_submitter.join();
	CHECK(vkWaitForFences(d, 2, mixed, VK_TRUE, 0) == VK_TIMEOUT);

	vkDestroyFence(d, exported, nullptr);
	vkDestroyFence(d, permanent, nullptr);
	vkDestroyFence(d, temporary, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

// The child half of the next test: run by the test binary in a child process.
TEST_CASE("external child process", "[.external_child]") {
	const char* semaphore_fd = std::getenv("TESSERA_TEST_SEMAPHORE_FD");
	const char* memory_fd = std::getenv("TESSERA_TEST_MEMORY_FD");
	REQUIRE(semaphore_fd);
	REQUIRE(memory_fd);
	auto ctx = CreateExternalContext();
	REQUIRE(ctx);
	VkSemaphore timeline = CreateTimeline(ctx->device(), 0);
	REQUIRE(ImportSemaphore(*ctx, timeline, std::atoi(semaphore_fd)) == VK_SUCCESS);
	SharedBuffer shared = CreateSharedBuffer(*ctx, std::atoi(memory_fd));
	// The parent writes words [0, 16) and signals 1; we answer in [16, 32) and signal 2.
	REQUIRE(WaitTimeline(ctx->device(), timeline, 1, 5000 * kMillisecond) == VK_SUCCESS);
	CHECK(shared.words[15] == 0x12345678);
	CommandRecorder recorder(ctx->device());
	FillOnQueue(*ctx, recorder, shared.buffer, 16, 16, shared.words[0] + 1, timeline, 0, 2);
	vkQueueWaitIdle(ctx->queue());
	Destroy(*ctx, shared);
	vkDestroySemaphore(ctx->device(), timeline, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("a semaphore and memory shared with another process through opaque fds", "[external][process]") {
	auto ctx = CreateExternalContext();
	REQUIRE(ctx);
	VkSemaphore timeline = CreateExportableSemaphore(ctx->device(), VK_SEMAPHORE_TYPE_TIMELINE);
	SharedBuffer shared = CreateSharedBuffer(*ctx, -1);
	int semaphore_fd = ExportSemaphore(*ctx, timeline);
	int memory_fd = ExportMemory(*ctx, shared.memory);

	pid_t child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		// Only async-signal-safe calls until exec: keep the two fds open
		// across it and run this binary's child test case.
		fcntl(semaphore_fd, F_SETFD, 0);
		fcntl(memory_fd, F_SETFD, 0);
		char semaphore_env[64], memory_env[64];
		std::snprintf(semaphore_env, sizeof semaphore_env, "%d", semaphore_fd);
		std::snprintf(memory_env, sizeof memory_env, "%d", memory_fd);
		setenv("TESSERA_TEST_SEMAPHORE_FD", semaphore_env, 1);
		setenv("TESSERA_TEST_MEMORY_FD", memory_env, 1);
		char exe[] = "/proc/self/exe", filter[] = "[.external_child]";
		char* argv[] = {exe, filter, nullptr};
		execv(exe, argv);
		_exit(127);
	}
	close(semaphore_fd);
	close(memory_fd);
	for (uint32_t i = 0; i < 16; ++i) shared.words[i] = 0x12345678;
	SignalTimeline(ctx->device(), timeline, 1);
	VkResult answered = WaitTimeline(ctx->device(), timeline, 2, 10000 * kMillisecond);
	int status = 0;
	waitpid(child, &status, 0);
	CHECK(answered == VK_SUCCESS);
	REQUIRE(WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 0);
	CHECK(shared.words[16] == 0x12345679);
	CHECK(shared.words[31] == 0x12345679);
	CHECK(CounterValue(ctx->device(), timeline) == 2);

	Destroy(*ctx, shared);
	vkDestroySemaphore(ctx->device(), timeline, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

// VK_EXT_external_memory_host: page-aligned host memory imported as device
// memory is what a buffer bound to it reads and writes, with no copy:
// a transfer fills it and the host sees the bytes in its own allocation.
TEST_CASE("host memory imported with VK_EXT_external_memory_host is the memory the device writes",
          "[external][host_memory]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		ContextOptions options;
		options.device_extensions = {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		VkDevice d = ctx->device();
		VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_properties{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
		VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host_properties};
		vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
		const VkDeviceSize alignment = host_properties.minImportedHostPointerAlignment;
		REQUIRE(alignment >= 1);
		const VkDeviceSize size = alignment * 4;
		void* host = std::aligned_alloc(alignment, size);
		REQUIRE(host);
		std::memset(host, 0x11, size);

		auto properties_of = ctx->Proc<PFN_vkGetMemoryHostPointerPropertiesEXT>("vkGetMemoryHostPointerPropertiesEXT");
		REQUIRE(properties_of);
		VkMemoryHostPointerPropertiesEXT pointer{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
		REQUIRE(properties_of(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host, &pointer) == VK_SUCCESS);
		REQUIRE(pointer.memoryTypeBits != 0);
		VkPhysicalDeviceMemoryProperties memory_properties;
		vkGetPhysicalDeviceMemoryProperties(ctx->physical_device(), &memory_properties);

		VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
		external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
		VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
		buffer_info.size = size;
		buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
		VkBuffer buffer;
		REQUIRE(vkCreateBuffer(d, &buffer_info, nullptr, &buffer) == VK_SUCCESS);
		VkMemoryRequirements requirements;
		vkGetBufferMemoryRequirements(d, buffer, &requirements);
		uint32_t type = 0;
		while (type < memory_properties.memoryTypeCount &&
		       !((requirements.memoryTypeBits & pointer.memoryTypeBits) >> type & 1))
			++type;
		REQUIRE(type < memory_properties.memoryTypeCount);
		VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
		import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
		import.pHostPointer = host;
		VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import};
		allocate.allocationSize = size;
		allocate.memoryTypeIndex = type;
		VkDeviceMemory memory;
		REQUIRE(vkAllocateMemory(d, &allocate, nullptr, &memory) == VK_SUCCESS);
		REQUIRE(vkBindBufferMemory(d, buffer, memory, 0) == VK_SUCCESS);
		ctx->Submit([&](VkCommandBuffer cb) {
			vkCmdFillBuffer(cb, buffer, alignment, alignment * 2, 0xdeadbeef);
			VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
			to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
			                     nullptr, 0, nullptr);
		});
		const auto* words = static_cast<const uint32_t*>(host);
		const size_t per_page = alignment / 4;
		CHECK(words[per_page - 1] == 0x11111111u);  // before the fill
		CHECK(words[per_page] == 0xdeadbeefu);
		CHECK(words[3 * per_page - 1] == 0xdeadbeefu);
		CHECK(words[3 * per_page] == 0x11111111u);  // after it
		vkDestroyBuffer(d, buffer, nullptr);
		vkFreeMemory(d, memory, nullptr);
		std::free(host);  // the memory object never owned it
		CHECK(ctx->validation_errors() == 0);
	}
}

TEST_CASE("VK_EXT_queue_family_foreign: ownership of host memory passes to a foreign owner and back",
          "[external][host_memory]") {
	// Vulkan "Queue Family Ownership Transfer": a release to
	// VK_QUEUE_FAMILY_FOREIGN_EXT hands the buffer's memory to an owner
	// outside Vulkan (here the host, through the imported pointer), and an
	// acquire from it sees what that owner wrote. Lavapipe 22.3 lacks the
	// extension: Tessera alone.
	ContextOptions options;
	options.device_extensions = {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME,
	                             VK_EXT_QUEUE_FAMILY_FOREIGN_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	constexpr VkDeviceSize kSize = 4096;
	void* host = std::aligned_alloc(kSize, kSize);
	REQUIRE(host);
	std::memset(host, 0x11, kSize);
	VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
	external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
	VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
	buffer_info.size = kSize;
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
	VkBuffer buffer;
	REQUIRE(vkCreateBuffer(d, &buffer_info, nullptr, &buffer) == VK_SUCCESS);
	VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
	import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
	import.pHostPointer = host;
	VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import, kSize, 0};
	VkDeviceMemory memory;
	REQUIRE(vkAllocateMemory(d, &allocate, nullptr, &memory) == VK_SUCCESS);
	REQUIRE(vkBindBufferMemory(d, buffer, memory, 0) == VK_SUCCESS);
	TestBuffer copy = ctx->CreateBuffer(kSize);

	auto transfer = [&](VkCommandBuffer cb, uint32_t from, uint32_t to, VkAccessFlags src, VkAccessFlags dst) {
		VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
		barrier.srcAccessMask = src;
		barrier.dstAccessMask = dst;
		barrier.srcQueueFamilyIndex = from;
		barrier.dstQueueFamilyIndex = to;
		barrier.buffer = buffer;
		barrier.size = VK_WHOLE_SIZE;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 1,
		                     &barrier, 0, nullptr);
	};
	// The device fills the buffer, then releases it to the foreign owner.
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdFillBuffer(cb, buffer, 0, kSize, 0xdeadbeef);
		transfer(cb, 0, VK_QUEUE_FAMILY_FOREIGN_EXT, VK_ACCESS_TRANSFER_WRITE_BIT, 0);
	});
	auto* words = static_cast<uint32_t*>(host);
	CHECK(words[0] == 0xdeadbeefu);
	words[1] = 0x12345678u;  // the foreign owner's write
	// Acquired back, the device copies what the foreign owner left.
	ctx->Submit([&](VkCommandBuffer cb) {
		transfer(cb, VK_QUEUE_FAMILY_FOREIGN_EXT, 0, 0, VK_ACCESS_TRANSFER_READ_BIT);
		VkBufferCopy region{0, 0, kSize};
		vkCmdCopyBuffer(cb, buffer, copy.buffer, 1, &region);
		VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
		                     0, nullptr);
	});
	const auto* copied = reinterpret_cast<const uint32_t*>(copy.data);
	CHECK(copied[0] == 0xdeadbeefu);
	CHECK(copied[1] == 0x12345678u);
	CHECK(copied[kSize / 4 - 1] == 0xdeadbeefu);
	ctx->Destroy(copy);
	vkDestroyBuffer(d, buffer, nullptr);
	vkFreeMemory(d, memory, nullptr);
	std::free(host);
	CHECK(ctx->validation_errors() == 0);
}

// VK_EXT_external_memory_dma_buf: a dma-buf is imported as a shared mapping
// of its pages and may go out again as the same dma-buf; Tessera makes none
// (buffer properties say importable only, images none). These machines have
// no dma-buf exporter (no udmabuf, dma-heap or DRM device), so a memfd
// stands in for one: both are descriptors whose pages mmap() shares, the
// only property of a dma-buf the import uses (its size comes from
// lseek(SEEK_END), which a memfd answers too).
TEST_CASE("VK_EXT_external_memory_dma_buf: an imported dma-buf's pages are the buffer's memory",
          "[external][dma_buf]") {
	auto ctx = CreateSyncContext(
	    Driver::Tessera, {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME});
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	constexpr VkExternalMemoryHandleTypeFlagBits kDmaBuf = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;

	VkPhysicalDeviceExternalBufferInfo buffer_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	buffer_info.handleType = kDmaBuf;
	VkExternalBufferProperties buffer_properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
	vkGetPhysicalDeviceExternalBufferProperties(ctx->physical_device(), &buffer_info, &buffer_properties);
	const VkExternalMemoryProperties& p = buffer_properties.externalMemoryProperties;
	CHECK(p.externalMemoryFeatures == VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
	CHECK(p.compatibleHandleTypes == VkExternalMemoryHandleTypeFlags(kDmaBuf));
	CHECK(p.exportFromImportedHandleTypes == VkExternalMemoryHandleTypeFlags(kDmaBuf));

	VkPhysicalDeviceExternalImageFormatInfo external_image{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
	external_image.handleType = kDmaBuf;
	VkPhysicalDeviceImageFormatInfo2 image_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &external_image};
	image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
	image_info.type = VK_IMAGE_TYPE_2D;
	image_info.tiling = VK_IMAGE_TILING_LINEAR;
	image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VkImageFormatProperties2 image_properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
	CHECK(vkGetPhysicalDeviceImageFormatProperties2(ctx->physical_device(), &image_info, &image_properties) ==
	      VK_ERROR_FORMAT_NOT_SUPPORTED);

	// The stand-in dma-buf: a page pattern the device will read, then fill.
	const int dma_buf = memfd_create("dma-buf stand-in", MFD_CLOEXEC);
	REQUIRE(dma_buf >= 0);
	REQUIRE(ftruncate(dma_buf, kSharedSize) == 0);
	auto* pages = static_cast<uint32_t*>(mmap(nullptr, kSharedSize, PROT_READ | PROT_WRITE, MAP_SHARED, dma_buf, 0));
	REQUIRE(pages != MAP_FAILED);
	const uint32_t words = kSharedSize / 4;
	for (uint32_t i = 0; i < words; ++i) pages[i] = i * 2654435761u;

	auto fd_properties = ctx->Proc<PFN_vkGetMemoryFdPropertiesKHR>("vkGetMemoryFdPropertiesKHR");
	REQUIRE(fd_properties);
	VkMemoryFdPropertiesKHR fd_props{VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR};
	REQUIRE(fd_properties(d, kDmaBuf, dma_buf, &fd_props) == VK_SUCCESS);
	REQUIRE((fd_props.memoryTypeBits & 1u) != 0);

	SharedBuffer imported;
	VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
	external.handleTypes = kDmaBuf;
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
	bci.size = kSharedSize;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	REQUIRE(vkCreateBuffer(d, &bci, nullptr, &imported.buffer) == VK_SUCCESS);
	VkMemoryRequirements requirements;
	vkGetBufferMemoryRequirements(d, imported.buffer, &requirements);
	REQUIRE(requirements.size <= kSharedSize);
	// Exportable again as the dma-buf it is (exportFromImportedHandleTypes).
	VkExportMemoryAllocateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
	exportable.handleTypes = kDmaBuf;
	VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, &exportable};
	import.handleType = kDmaBuf;
	import.fd = fcntl(dma_buf, F_DUPFD_CLOEXEC, 0);  // the import owns this one
	VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import};
	allocate.allocationSize = kSharedSize;
	allocate.memoryTypeIndex = 0;
	REQUIRE(vkAllocateMemory(d, &allocate, nullptr, &imported.memory) == VK_SUCCESS);
	REQUIRE(vkBindBufferMemory(d, imported.buffer, imported.memory, 0) == VK_SUCCESS);

	TestBuffer copy = ctx->CreateBuffer(kSharedSize);
	ctx->Submit([&](VkCommandBuffer cb) {
		VkBufferCopy region{0, 0, kSharedSize};
		vkCmdCopyBuffer(cb, imported.buffer, copy.buffer, 1, &region);
		VkMemoryBarrier read_then_write{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		read_then_write.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		read_then_write.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &read_then_write,
		                     0, nullptr, 0, nullptr);
		vkCmdFillBuffer(cb, imported.buffer, 4096, 8192, 0xdeadbeef);
		VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
		                     0, nullptr);
	});
	const auto* copied = reinterpret_cast<const uint32_t*>(copy.data);
	uint32_t copied_wrong = 0;
	for (uint32_t i = 0; i < words; ++i) copied_wrong += copied[i] != i * 2654435761u;
	CHECK(copied_wrong == 0);  // the device read the dma-buf's pages
	CHECK(pages[1023] == 1023 * 2654435761u);
	CHECK(pages[1024] == 0xdeadbeefu);  // and wrote them
	CHECK(pages[3071] == 0xdeadbeefu);
	CHECK(pages[3072] == 3072 * 2654435761u);

	// Out again as a dma-buf: the same pages.
	VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
	get.memory = imported.memory;
	get.handleType = kDmaBuf;
	int again = -1;
	REQUIRE(ctx->Proc<PFN_vkGetMemoryFdKHR>("vkGetMemoryFdKHR")(d, &get, &again) == VK_SUCCESS);
	REQUIRE(again >= 0);
	auto* again_pages = static_cast<uint32_t*>(mmap(nullptr, kSharedSize, PROT_READ, MAP_SHARED, again, 0));
	REQUIRE(again_pages != MAP_FAILED);
	CHECK(again_pages[1024] == 0xdeadbeefu);
	munmap(again_pages, kSharedSize);
	close(again);

	ctx->Destroy(copy);
	Destroy(*ctx, imported);
	munmap(pages, kSharedSize);
	close(dma_buf);
	CHECK(ctx->validation_errors() == 0);
}

// What a descriptor that is not a dma-buf, or a size larger than the
// dma-buf's, gets: VK_ERROR_INVALID_EXTERNAL_HANDLE, and the descriptor
// stays the application's.
TEST_CASE("VK_EXT_external_memory_dma_buf: bad descriptors and sizes are refused", "[external][dma_buf]") {
	ContextOptions options;
	options.validation = false;  // the calls below break valid usage on purpose
	options.device_extensions = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
	                             VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	constexpr VkExternalMemoryHandleTypeFlagBits kDmaBuf = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
	auto fd_properties = ctx->Proc<PFN_vkGetMemoryFdPropertiesKHR>("vkGetMemoryFdPropertiesKHR");
	REQUIRE(fd_properties);
	VkMemoryFdPropertiesKHR props{VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR};
	CHECK(fd_properties(d, kDmaBuf, -1, &props) == VK_ERROR_INVALID_EXTERNAL_HANDLE);
	CHECK(props.memoryTypeBits == 0);

	const int small = memfd_create("small dma-buf stand-in", MFD_CLOEXEC);
	REQUIRE(small >= 0);
	REQUIRE(ftruncate(small, 4096) == 0);
	CHECK(fd_properties(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, small, &props) ==
	      VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
	import.handleType = kDmaBuf;
	import.fd = small;
	VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import};
	allocate.allocationSize = 8192;  // more than it holds
	allocate.memoryTypeIndex = 0;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	CHECK(vkAllocateMemory(d, &allocate, nullptr, &memory) == VK_ERROR_INVALID_EXTERNAL_HANDLE);
	CHECK(fcntl(small, F_GETFD) != -1);  // a failed import leaves it open
	close(small);
}
