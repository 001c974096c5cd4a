// VK_KHR_maintenance6: the binding commands that take a structure and name
// their bind points by shader stage, per-bind results of vkBind*Memory2,
// and the limits. Tessera alone, without the validation layer: lavapipe
// 22.3 and the layer's 1.3.239 release predate the extension (the layer
// would hand the driver its wrapped handles inside the new structures).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("VK_KHR_maintenance6: sets bound and constants pushed through the *2 commands reach the shader",
          "[compute][maintenance6]") {
	VkPhysicalDeviceMaintenance6FeaturesKHR m6{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR};
	m6.maintenance6 = VK_TRUE;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &m6};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_KHR_MAINTENANCE_6_EXTENSION_NAME};
	options.device_features = &v13;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceMaintenance6PropertiesKHR limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(limits.maxCombinedImageSamplerDescriptorCount >= 1);
	auto bind_sets = ctx->Proc<PFN_vkCmdBindDescriptorSets2KHR>("vkCmdBindDescriptorSets2KHR");
	auto push = ctx->Proc<PFN_vkCmdPushConstants2KHR>("vkCmdPushConstants2KHR");
	REQUIRE(bind_sets);
	REQUIRE(push);

	// Per-bind results: every bind of vkBindBufferMemory2 says VK_SUCCESS.
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.size = 256;
	bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
	VkBuffer extra = VK_NULL_HANDLE;
	REQUIRE(vkCreateBuffer(ctx->device(), &bci, nullptr, &extra) == VK_SUCCESS);
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(ctx->device(), extra, &req);
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	mai.allocationSize = req.size;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	REQUIRE(vkAllocateMemory(ctx->device(), &mai, nullptr, &memory) == VK_SUCCESS);
	VkResult bind_result = VK_ERROR_UNKNOWN;
	VkBindMemoryStatusKHR status{VK_STRUCTURE_TYPE_BIND_MEMORY_STATUS_KHR, nullptr, &bind_result};
	VkBindBufferMemoryInfo bind{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, &status, extra, memory, 0};
	REQUIRE(vkBindBufferMemory2(ctx->device(), 1, &bind) == VK_SUCCESS);
	CHECK(bind_result == VK_SUCCESS);
	vkDestroyBuffer(ctx->device(), extra, nullptr);
	vkFreeMemory(ctx->device(), memory, nullptr);

	ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "push_add.spv"), 2);
	REQUIRE(kernel.ok());
	std::vector<int32_t> a(64);
	for (int i = 0; i < 64; ++i) a[size_t(i)] = i * 3 - 50;
	std::vector<uint8_t> in(a.size() * 4), out(a.size() * 4, 0xcd);
	std::memcpy(in.data(), a.data(), in.size());
	std::vector<TestBuffer> buffers = CreateStorageBuffers(*ctx, {in, out});
	kernel.Bind(0, buffers[0].buffer);
	kernel.Bind(1, buffers[1].buffer);
	const int32_t add = 1000;
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline());
		const VkDescriptorSet set = kernel.set();
		VkBindDescriptorSetsInfoKHR sets{VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR};
		sets.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;  // the compute bind point
		sets.layout = kernel.layout();
		sets.descriptorSetCount = 1;
		sets.pDescriptorSets = &set;
		bind_sets(cb, &sets);
		VkPushConstantsInfoKHR constants{VK_STRUCTURE_TYPE_PUSH_CONSTANTS_INFO_KHR};
		constants.layout = kernel.layout();
		constants.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
		constants.size = sizeof add;
		constants.pValues = &add;
		push(cb, &constants);
		vkCmdDispatch(cb, 1, 1, 1);
		VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
		                     nullptr, 0, nullptr);
	});
	BufferContents results = ReadAndDestroy(*ctx, buffers);
	std::vector<int32_t> o(64);
	std::memcpy(o.data(), results[1].data(), o.size() * 4);
	for (int i = 0; i < 64; ++i) CHECK(o[size_t(i)] == a[size_t(i)] + add);
}
