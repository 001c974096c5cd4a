// VK_KHR_shader_maximal_reconvergence: a module with the
// MaximallyReconvergesKHR execution mode is accepted, and the invocations
// that split at a branch run together again where it joins (a ballot there
// counts the whole subgroup). Tessera alone, without the validation layer,
// whose SPIR-V validator (1.3.239) does not know the execution mode. The
// CTS's reconvergence.maximal.* judges the guarantee in depth.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("VK_KHR_shader_maximal_reconvergence: invocations rejoin where control flow joins", "[compute][subgroup]") {
	VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR enable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR};
	enable.shaderMaximalReconvergence = VK_TRUE;
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_KHR_SHADER_MAXIMAL_RECONVERGENCE_EXTENSION_NAME};
	options.device_features = &enable;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR supported{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(supported.shaderMaximalReconvergence == VK_TRUE);

	ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "maximal_reconvergence.spv"), 1);
	REQUIRE(kernel.ok());
	std::vector<TestBuffer> buffers = CreateStorageBuffers(*ctx, {std::vector<uint8_t>(32 * 4, 0xcd)});
	kernel.Bind(0, buffers[0].buffer);
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline());
		const VkDescriptorSet set = kernel.set();
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout(), 0, 1, &set, 0, nullptr);
		vkCmdDispatch(cb, 1, 1, 1);
		VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
		                     nullptr, 0, nullptr);
	});
	BufferContents results = ReadAndDestroy(*ctx, buffers);
	std::vector<uint32_t> counts(32);
	std::memcpy(counts.data(), results[0].data(), 32 * 4);
	VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &props);
	for (uint32_t i = 0; i < 32; ++i) {
		INFO("invocation " << i);
		CHECK(counts[i] == std::min(32u, subgroup.subgroupSize));
	}
}
