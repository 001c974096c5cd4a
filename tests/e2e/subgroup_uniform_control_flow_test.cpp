// VK_KHR_shader_subgroup_uniform_control_flow through the loader: a compute
// shader declared SubgroupUniformControlFlowKHR diverges (if/else, a loop
// with a break, a switch) and then runs subgroup operations where its lanes
// meet again; each must see the whole subgroup. Debian's lavapipe 22.3 lacks
// the extension: the values are checked against the host's, subgroups being
// gl_SubgroupSize consecutive invocations of a workgroup.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("Subgroup operations after divergence see the whole subgroup (SubgroupUniformControlFlowKHR)",
          "[compute][subgroup][subgroup_uniform_control_flow]") {
	VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &control};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(control.shaderSubgroupUniformControlFlow == VK_TRUE);
	}
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &control};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	ContextOptions options;
	options.device_features = &features;
	options.device_extensions = {VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	constexpr uint32_t kInvocations = 128, kOutputs = 5;
	BufferContents out = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "subgroup_uniform_control_flow.spv",
	                                     {std::vector<uint8_t>(kInvocations * kOutputs * 4, 0xcd)}, 2);
	REQUIRE(out.size() == 1);
	std::vector<uint32_t> v(kInvocations * kOutputs);
	std::memcpy(v.data(), out[0].data(), out[0].size());
	CHECK(ctx->validation_errors() == 0);

	// The host's values per invocation, then per subgroup.
	const uint32_t size = v[0];
	REQUIRE((size >= 1 && size <= 64 && std::has_single_bit(size)));
	std::vector<uint32_t> x(kInvocations), y(kInvocations), z(kInvocations);
	for (uint32_t i = 0; i < kInvocations; ++i) {
		x[i] = i % 4 == 1 ? i * 3 : i + 7;
		for (uint32_t j = 0; j < i % 5; ++j) {
			y[i] += j;
			if (y[i] > 4) break;
		}
		z[i] = i % 3 == 0 ? 1 : i % 3 == 1 ? i : 100;
	}
	for (uint32_t i = 0; i < kInvocations; ++i) {
		INFO("invocation " << i);
		const uint32_t first = i / size * size;
		uint32_t sum_x = 0, max_y = 0, odd_y = 0, sum_z = 0;
		for (uint32_t k = first; k < first + size; ++k) {
			sum_x += x[k];
			max_y = std::max(max_y, y[k]);
			odd_y += y[k] & 1;
			sum_z += z[k];
		}
		CHECK(v[i * kOutputs + 0] == size);
		CHECK(v[i * kOutputs + 1] == sum_x);
		CHECK(v[i * kOutputs + 2] == max_y);
		CHECK(v[i * kOutputs + 3] == odd_y);
		CHECK(v[i * kOutputs + 4] == sum_z);
	}
}
