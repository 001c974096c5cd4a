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

	BufferContents results =
	    RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "maximal_reconvergence.spv", {std::vector<uint8_t>(32 * 4, 0xcd)}, 1);
	REQUIRE(results.size() == 1);
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
