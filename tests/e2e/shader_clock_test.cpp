// VK_KHR_shader_clock: subgroup and device clocks read in a compute shader
// never run backwards within an invocation and advance over real work, on
// Tessera and on lavapipe (whose values differ: only these rules compare).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("shader clocks are monotonic within an invocation and advance over work", "[compute][clock]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
		clock.shaderSubgroupClock = clock.shaderDeviceClock = VK_TRUE;
		VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &clock};
		v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
		VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
		features.features.shaderInt64 = VK_TRUE;
		ContextOptions options;
		options.device_extensions = {VK_KHR_SHADER_CLOCK_EXTENSION_NAME};
		options.device_features = &features;
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "shader_clock.spv");
		REQUIRE(!words.empty());
		ComputeKernel kernel(*ctx, words, 1);
		REQUIRE(kernel.ok());
		constexpr uint32_t kInvocations = 128;
		TestBuffer out = ctx->CreateBuffer(kInvocations * (16 + 16 + 4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		std::memset(out.data, 0, out.size);
		kernel.Bind(0, out.buffer);
		// (Below 65,535: lavapipe 22.3 ends every loop after that many trips,
		// llvmpipe's guard against endless loops.)
		const uint32_t iterations = 60000;
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &iterations, 4, kInvocations / 64); });
		std::vector<uint64_t> subgroup(kInvocations * 2), device(kInvocations * 2);
		std::vector<uint32_t> work(kInvocations);
		std::memcpy(subgroup.data(), out.data, kInvocations * 16);
		std::memcpy(device.data(), out.data + kInvocations * 16, kInvocations * 16);  // uvec2: low word first
		std::memcpy(work.data(), out.data + kInvocations * 32, kInvocations * 4);
		uint32_t subgroup_advanced = 0, device_advanced = 0;
		for (uint32_t i = 0; i < kInvocations; ++i) {
			CAPTURE(i);
			CHECK(subgroup[2 * i + 1] >= subgroup[2 * i]);
			CHECK(device[2 * i + 1] >= device[2 * i]);
			subgroup_advanced += subgroup[2 * i + 1] > subgroup[2 * i];
			device_advanced += device[2 * i + 1] > device[2 * i];
			uint32_t h = i;
			for (uint32_t k = 0; k < iterations; ++k) h = h * 1664525u + 1013904223u;
			CHECK(work[i] == h);
		}
		// 60,000 dependent multiply-adds take far longer than a clock tick.
		CHECK(subgroup_advanced > 0);
		CHECK(device_advanced > 0);
		ctx->Destroy(out);
		CHECK(ctx->validation_errors() == 0);
	}
}
