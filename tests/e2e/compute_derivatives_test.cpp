// VK_KHR_compute_shader_derivatives: derivatives and quad operations in
// compute shaders, with the quads the spec's "Quad" scope defines for each
// execution mode (DerivativeGroupQuadsKHR: 2x2 blocks of LocalInvocationId;
// DerivativeGroupLinearKHR: 4 consecutive LocalInvocationIndex), and the
// SubgroupLocalInvocationId that makes the quad's invocations 4 consecutive
// subgroup invocations in quad order. Expected values are computed here
// from those rules. Tessera alone, without the validation layer: Debian's
// (1.3.239) does not know the KHR extension. The CTS's
// spirv_assembly.instruction.compute.compute_shader_derivatives.compute.*
// judges implicit LOD and the quad operations in depth.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

std::unique_ptr<Context> CreateDerivativesContext() {
	VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR enable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR};
	enable.computeDerivativeGroupQuads = VK_TRUE;
	enable.computeDerivativeGroupLinear = VK_TRUE;
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_KHR_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME};
	options.device_features = &enable;
	return Context::Create(Driver::Tessera, options);
}

}  // namespace

TEST_CASE("VK_KHR_compute_shader_derivatives: features and properties", "[compute][derivatives]") {
	auto ctx = CreateDerivativesContext();
	REQUIRE(ctx);
	VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features2);
	CHECK(features.computeDerivativeGroupQuads == VK_TRUE);
	CHECK(features.computeDerivativeGroupLinear == VK_TRUE);
	VkPhysicalDeviceComputeShaderDerivativesPropertiesKHR properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_PROPERTIES_KHR};
	properties.meshAndTaskShaderDerivatives = VK_TRUE;
	VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties2);
	CHECK(properties.meshAndTaskShaderDerivatives == VK_FALSE);  // no mesh or task shaders
}

TEST_CASE("VK_KHR_compute_shader_derivatives: DerivativeGroupQuadsKHR quads are 2x2 blocks of LocalInvocationId",
          "[compute][derivatives][subgroup]") {
	auto ctx = CreateDerivativesContext();
	REQUIRE(ctx);
	constexpr uint32_t kGroups = 3, kInvocations = 16;  // 4x4 workgroups
	BufferContents results = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "derivatives_quads.spv",
	                                         {std::vector<uint8_t>(kGroups * kInvocations * 16, 0xcd)}, kGroups);
	REQUIRE(results.size() == 1);
	std::vector<uint32_t> out(kGroups * kInvocations * 4);
	std::memcpy(out.data(), results[0].data(), out.size() * 4);
	auto v = [](uint32_t x, uint32_t y, uint32_t group) { return float(x * x + 3 * y + 100 * group); };
	for (uint32_t group = 0; group < kGroups; ++group)
		for (uint32_t y = 0; y < 4; ++y)
			for (uint32_t x = 0; x < 4; ++x) {
				INFO("workgroup " << group << ", invocation (" << x << ", " << y << ")");
				const uint32_t* o = &out[4 * (group * kInvocations + y * 4 + x)];
				const uint32_t x0 = x & ~1u, y0 = y & ~1u;
				// Fine derivatives within the invocation's row and column of its quad.
				CHECK(std::bit_cast<float>(o[0]) == v(x0 + 1, y, group) - v(x0, y, group));
				CHECK(std::bit_cast<float>(o[1]) == v(x, y0 + 1, group) - v(x, y0, group));
				// The quad's invocations are 4 consecutive subgroup invocations,
				// in quad order (x, y) = (i & 1, i >> 1).
				CHECK(o[2] % 4 == (x & 1u) + 2 * (y & 1u));
				const uint32_t* first = &out[4 * (group * kInvocations + y0 * 4 + x0)];
				CHECK(o[2] / 4 == first[2] / 4);
				// QuadBroadcast of quad invocation 3: (x0 + 1, y0 + 1).
				CHECK(std::bit_cast<float>(o[3]) == v(x0 + 1, y0 + 1, group));
			}
}

TEST_CASE("VK_KHR_compute_shader_derivatives: DerivativeGroupLinearKHR quads are 4 consecutive invocations",
          "[compute][derivatives]") {
	auto ctx = CreateDerivativesContext();
	REQUIRE(ctx);
	// Workgroups of 12 (3 quads each); several share a lane group.
	constexpr uint32_t kGroups = 5, kInvocations = kGroups * 12;
	BufferContents results = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "derivatives_linear.spv",
	                                         {std::vector<uint8_t>(kInvocations * 16, 0xcd)}, kGroups);
	REQUIRE(results.size() == 1);
	std::vector<float> out(kInvocations * 4);
	std::memcpy(out.data(), results[0].data(), out.size() * 4);
	auto v = [](uint32_t i) { return float(i * i); };
	for (uint32_t i = 0; i < kInvocations; ++i) {
		INFO("invocation " << i);
		const uint32_t quad = i & ~3u, row = quad + 2 * ((i >> 1) & 1u), column = quad + (i & 1u);
		CHECK(out[4 * i + 0] == v(row + 1) - v(row));        // dFdxFine
		CHECK(out[4 * i + 1] == v(column + 2) - v(column));  // dFdyFine
		CHECK(out[4 * i + 2] == v(quad + 1) - v(quad));      // dFdxCoarse
		CHECK(out[4 * i + 3] == v(quad + 2) - v(quad));      // dFdyCoarse
	}
}
