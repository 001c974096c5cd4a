// VK_KHR_shader_float_controls2: a module that declares FloatControls2,
// an FPFastMathDefault execution mode and an FPFastMathMode decoration is
// accepted and runs with IEEE results (signed zero, infinity and NaN kept:
// the flags only permit relaxing them). Tessera alone, without the
// validation layer, whose SPIR-V validator (1.3.239) rejects the capability.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("VK_KHR_shader_float_controls2: FloatControls2 modules run with IEEE results", "[compute][float_controls]") {
	VkPhysicalDeviceShaderFloatControls2FeaturesKHR enable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR};
	enable.shaderFloatControls2 = VK_TRUE;
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_KHR_SHADER_FLOAT_CONTROLS_2_EXTENSION_NAME};
	options.device_features = &enable;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceShaderFloatControls2FeaturesKHR supported{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(supported.shaderFloatControls2 == VK_TRUE);

	const float inf = std::numeric_limits<float>::infinity();
	const std::vector<float> in = {1.5f, -0.0f, inf, std::numeric_limits<float>::quiet_NaN()};
	std::vector<uint8_t> bytes(in.size() * 4);
	std::memcpy(bytes.data(), in.data(), bytes.size());
	BufferContents results = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "float_controls2.spv", {bytes}, 1);
	REQUIRE(results.size() == 1);
	std::vector<float> out(in.size());
	std::memcpy(out.data(), results[0].data(), results[0].size());
	CHECK(out[0] == 3.0f);
	CHECK(std::bit_cast<uint32_t>(out[1]) == 0x80000000u);  // -0 + -0 keeps its sign
	CHECK(out[2] == inf);
	CHECK(std::isnan(out[3]));
}
