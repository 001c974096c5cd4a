// Private data slots (Vulkan 1.3 §13 "Private Data"), on Tessera and lavapipe.
#include <atomic>
#include <thread>
#include <vector>

#include "sync_support.h"

using namespace tessera::test;

namespace {

std::unique_ptr<Context> CreatePrivateDataContext(Driver driver, uint32_t reserved) {
	static VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	static VkDevicePrivateDataCreateInfo reservation{VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO};
	f13.privateData = VK_TRUE;
	reservation.pNext = &f13;
	reservation.privateDataSlotRequestCount = reserved;
	ContextOptions options;
	options.device_features = reserved ? static_cast<const void*>(&reservation) : &f13;
	return Context::Create(driver, options);
}

VkPrivateDataSlot CreateSlot(VkDevice device) {
	VkPrivateDataSlotCreateInfo info{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
	VkPrivateDataSlot slot = VK_NULL_HANDLE;
	REQUIRE(vkCreatePrivateDataSlot(device, &info, nullptr, &slot) == VK_SUCCESS);
	return slot;
}

uint64_t Get(VkDevice device, VkObjectType type, uint64_t handle, VkPrivateDataSlot slot) {
	uint64_t value = 0xdeadbeef;
	vkGetPrivateData(device, type, handle, slot, &value);
	return value;
}

}  // namespace

TEST_CASE("private data: set and get per object and slot, 0 until set", "[private_data]") {
	Driver driver = GENERATE(Driver::Tessera, Driver::Lavapipe);
	uint32_t reserved = GENERATE(0u, 2u);
	INFO(DriverName(driver) << ", " << reserved << " slots reserved");
	auto ctx = CreatePrivateDataContext(driver, reserved);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkPrivateDataSlot a = CreateSlot(d), b = CreateSlot(d);
	VkSemaphore semaphore = CreateBinary(d);
	VkFence fence = CreateFence(d);
	const uint64_t device_handle = uint64_t(reinterpret_cast<uintptr_t>(d));
	const uint64_t semaphore_handle = uint64_t(semaphore), fence_handle = uint64_t(fence);

	CHECK(Get(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a) == 0);
	CHECK(vkSetPrivateData(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a, 11) == VK_SUCCESS);
	CHECK(vkSetPrivateData(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, b, 22) == VK_SUCCESS);
	CHECK(vkSetPrivateData(d, VK_OBJECT_TYPE_FENCE, fence_handle, a, 33) == VK_SUCCESS);
	CHECK(vkSetPrivateData(d, VK_OBJECT_TYPE_DEVICE, device_handle, a, UINT64_MAX) == VK_SUCCESS);
	CHECK(Get(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a) == 11);
	CHECK(Get(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, b) == 22);
	CHECK(Get(d, VK_OBJECT_TYPE_FENCE, fence_handle, a) == 33);
	CHECK(Get(d, VK_OBJECT_TYPE_FENCE, fence_handle, b) == 0);
	CHECK(Get(d, VK_OBJECT_TYPE_DEVICE, device_handle, a) == UINT64_MAX);
	CHECK(vkSetPrivateData(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a, 44) == VK_SUCCESS);
	CHECK(Get(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a) == 44);

	vkDestroyPrivateDataSlot(d, b, nullptr);
	CHECK(Get(d, VK_OBJECT_TYPE_SEMAPHORE, semaphore_handle, a) == 44);
	vkDestroyPrivateDataSlot(d, a, nullptr);
	vkDestroyFence(d, fence, nullptr);
	vkDestroySemaphore(d, semaphore, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("private data: threads set and get concurrently", "[private_data][threads]") {
	auto ctx = CreatePrivateDataContext(Driver::Tessera, 0);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkPrivateDataSlot slot = CreateSlot(d);
	constexpr int kThreads = 8, kObjects = 32;
	std::vector<VkFence> fences(kThreads * kObjects);
	for (auto& f : fences) f = CreateFence(d);
	std::atomic<int> wrong{0};
	std::vector<std::thread> threads;
	for (int t = 0; t < kThreads; ++t)
		threads.emplace_back([&, t] {
			for (int round = 0; round < 20; ++round)
				for (int i = 0; i < kObjects; ++i) {
					uint64_t handle = uint64_t(fences[t * kObjects + i]);
					uint64_t value = uint64_t(t) << 32 | uint64_t(round * kObjects + i);
					if (vkSetPrivateData(d, VK_OBJECT_TYPE_FENCE, handle, slot, value) != VK_SUCCESS) ++wrong;
					if (Get(d, VK_OBJECT_TYPE_FENCE, handle, slot) != value) ++wrong;
				}
		});
	for (auto& th : threads) th.join();
	CHECK(wrong == 0);
	for (auto& f : fences) vkDestroyFence(d, f, nullptr);
	vkDestroyPrivateDataSlot(d, slot, nullptr);
	CHECK(ctx->validation_errors() == 0);
}
