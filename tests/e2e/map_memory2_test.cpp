// VK_KHR_map_memory2 (Vulkan 1.4's vkMapMemory2/vkUnmapMemory2): the
// structure-taking commands map at the offset asked, and what is written
// through them is what a copy reads. Through the loader, without the
// validation layer: its 1.3.239 release predates the extension, passes the
// commands through unknown, and so hands the driver its own wrapped
// VkDeviceMemory handles. Lavapipe 22.3 lacks the extension: Tessera alone.
#include <catch2/catch.hpp>

#include <cstring>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("VK_KHR_map_memory2 maps at the offset given and unmaps", "[memory]") {
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_KHR_MAP_MEMORY_2_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto map2 = reinterpret_cast<PFN_vkMapMemory2KHR>(vkGetDeviceProcAddr(ctx->device(), "vkMapMemory2KHR"));
	auto unmap2 = reinterpret_cast<PFN_vkUnmapMemory2KHR>(vkGetDeviceProcAddr(ctx->device(), "vkUnmapMemory2KHR"));
	REQUIRE(map2);
	REQUIRE(unmap2);

	// A buffer whose memory the context left mapped: unmapped first, as a
	// memory object is mapped once at a time.
	TestBuffer buffer = ctx->CreateBuffer(4096);
	vkUnmapMemory(ctx->device(), buffer.memory);
	VkMemoryMapInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_MAP_INFO_KHR};
	info.memory = buffer.memory;
	info.offset = 256;
	info.size = VK_WHOLE_SIZE;
	void* data = nullptr;
	REQUIRE(map2(ctx->device(), &info, &data) == VK_SUCCESS);
	REQUIRE(data != nullptr);
	const uint32_t pattern[4] = {0x01234567u, 0x89abcdefu, 0xdeadbeefu, 0x0badf00du};
	std::memcpy(data, pattern, sizeof pattern);
	VkMemoryUnmapInfoKHR unmap{VK_STRUCTURE_TYPE_MEMORY_UNMAP_INFO_KHR};
	unmap.memory = buffer.memory;
	REQUIRE(unmap2(ctx->device(), &unmap) == VK_SUCCESS);

	// A copy reads the bytes written at offset 256.
	TestBuffer readback = ctx->CreateBuffer(4096);
	ctx->Submit([&](VkCommandBuffer cb) {
		VkBufferCopy region{256, 0, sizeof pattern};
		vkCmdCopyBuffer(cb, buffer.buffer, readback.buffer, 1, &region);
	});
	CHECK(std::memcmp(readback.data, pattern, sizeof pattern) == 0);
	ctx->Destroy(readback);
	ctx->Destroy(buffer);
}
