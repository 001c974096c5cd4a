// VK_EXT_zero_initialize_device_memory: memory allocated with
// VK_MEMORY_ALLOCATE_ZERO_INITIALIZE_BIT_EXT reads zero before the program
// writes it, even where an earlier allocation of the same size left other
// bytes in the host's heap, and an image created in
// VK_IMAGE_LAYOUT_ZERO_INITIALIZED_EXT keeps those zeros through its
// transition out of it. Tessera alone, without the validation layer:
// lavapipe 22.3 and the layer's 1.3.239 release predate the extension.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

uint32_t HostMemoryType(VkPhysicalDevice physical, uint32_t bits) {
	VkPhysicalDeviceMemoryProperties props;
	vkGetPhysicalDeviceMemoryProperties(physical, &props);
	const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
		if ((bits >> i & 1u) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
	return UINT32_MAX;
}

// An allocation of `size` bytes, zero-initialized or not; mapped into *data.
VkDeviceMemory Allocate(VkDevice device, uint32_t type, VkDeviceSize size, bool zero, uint8_t** data) {
	VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
	flags.flags = VK_MEMORY_ALLOCATE_ZERO_INITIALIZE_BIT_EXT;
	VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, zero ? &flags : nullptr, size, type};
	VkDeviceMemory memory = VK_NULL_HANDLE;
	REQUIRE(vkAllocateMemory(device, &info, nullptr, &memory) == VK_SUCCESS);
	void* p = nullptr;
	REQUIRE(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS);
	*data = static_cast<uint8_t*>(p);
	return memory;
}

bool AllZero(const uint8_t* p, size_t n) {
	for (size_t i = 0; i < n; ++i)
		if (p[i]) return false;
	return true;
}

}  // namespace

TEST_CASE("ZERO_INITIALIZE allocations read zero, and ZERO_INITIALIZED_EXT images keep their zeros",
          "[memory][zero_initialize_device_memory]") {
	VkPhysicalDeviceZeroInitializeDeviceMemoryFeaturesEXT zero{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_DEVICE_MEMORY_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &zero};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(zero.zeroInitializeDeviceMemory == VK_TRUE);
	}
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &zero};
	ContextOptions options;
	options.validation = false;
	options.device_features = &features;
	options.device_extensions = {VK_EXT_ZERO_INITIALIZE_DEVICE_MEMORY_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	const uint32_t type = HostMemoryType(ctx->physical_device(), ~0u);
	REQUIRE(type != UINT32_MAX);

	SECTION("allocations, heap-sized and page-mapped, after dirty ones of the same size") {
		for (VkDeviceSize size : {VkDeviceSize(4096), VkDeviceSize(65536), VkDeviceSize(3 << 20)}) {
			for (int round = 0; round < 4; ++round) {
				INFO("size " << size << ", round " << round);
				uint8_t* dirty = nullptr;
				VkDeviceMemory before = Allocate(device, type, size, false, &dirty);
				std::memset(dirty, 0xa5, size_t(size));
				vkFreeMemory(device, before, nullptr);
				uint8_t* data = nullptr;
				VkDeviceMemory memory = Allocate(device, type, size, true, &data);
				CHECK(AllZero(data, size_t(size)));
				vkFreeMemory(device, memory, nullptr);
			}
		}
	}

	SECTION("an image leaves ZERO_INITIALIZED_EXT with zeros where nothing was written") {
		constexpr uint32_t kSize = 64;
		VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		ici.imageType = VK_IMAGE_TYPE_2D;
		ici.format = VK_FORMAT_R8G8B8A8_UNORM;
		ici.extent = {kSize, kSize, 1};
		ici.mipLevels = 1;
		ici.arrayLayers = 1;
		ici.samples = VK_SAMPLE_COUNT_1_BIT;
		ici.tiling = VK_IMAGE_TILING_OPTIMAL;
		ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
		ici.initialLayout = VK_IMAGE_LAYOUT_ZERO_INITIALIZED_EXT;
		VkImage image;
		REQUIRE(vkCreateImage(device, &ici, nullptr, &image) == VK_SUCCESS);
		VkMemoryRequirements req;
		vkGetImageMemoryRequirements(device, image, &req);
		uint8_t* dirty = nullptr;
		VkDeviceMemory before = Allocate(device, type, req.size, false, &dirty);
		std::memset(dirty, 0x5a, size_t(req.size));
		vkFreeMemory(device, before, nullptr);
		uint8_t* unused = nullptr;
		VkDeviceMemory memory = Allocate(device, type, req.size, true, &unused);
		REQUIRE(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS);

		// A 16 x 16 patch at (8, 8) written; the rest must stay zero.
		constexpr uint32_t kPatch = 16, kAt = 8;
		TestBuffer patch = ctx->CreateBuffer(kPatch * kPatch * 4);
		for (uint32_t i = 0; i < kPatch * kPatch; ++i) std::memcpy(patch.data + 4 * i, "\xff\x20\x40\xff", 4);
		TestBuffer out = ctx->CreateBuffer(kSize * kSize * 4);
		std::memset(out.data, 0xcd, size_t(out.size));
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, image, VK_IMAGE_LAYOUT_ZERO_INITIALIZED_EXT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageOffset = {int32_t(kAt), int32_t(kAt), 0};
			region.imageExtent = {kPatch, kPatch, 1};
			vkCmdCopyBufferToImage(cb, patch.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
			ctx->Transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			region.imageOffset = {0, 0, 0};
			region.imageExtent = {kSize, kSize, 1};
			vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
			ctx->TransferBarrier(cb);
		});
		for (uint32_t y = 0; y < kSize; ++y)
			for (uint32_t x = 0; x < kSize; ++x) {
				INFO("texel " << x << ", " << y);
				const bool inside = x >= kAt && x < kAt + kPatch && y >= kAt && y < kAt + kPatch;
				const uint8_t* t = out.data + 4 * (y * kSize + x);
				if (inside)
					CHECK(std::memcmp(t, "\xff\x20\x40\xff", 4) == 0);
				else
					CHECK(AllZero(t, 4));
			}
		ctx->Destroy(patch);
		ctx->Destroy(out);
		vkDestroyImage(device, image, nullptr);
		vkFreeMemory(device, memory, nullptr);
	}
}
