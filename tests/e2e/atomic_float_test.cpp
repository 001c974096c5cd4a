// VK_EXT_shader_atomic_float: float adds and exchanges on storage buffers and
// workgroup memory, 32-bit against the host and lavapipe, 64-bit (which
// lavapipe 22.3 lacks) against the host.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kGroups = 40, kN = kGroups * 64;

std::unique_ptr<Context> AtomicFloatContext(Driver driver, bool float64) {
	static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomics{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
	static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &atomics};
	static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	atomics = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
	atomics.shaderBufferFloat32Atomics = atomics.shaderBufferFloat32AtomicAdd = VK_TRUE;
	atomics.shaderSharedFloat32AtomicAdd = VK_TRUE;
	atomics.shaderBufferFloat64AtomicAdd = atomics.shaderSharedFloat64AtomicAdd = float64;
	features.features.shaderFloat64 = float64;
	ContextOptions options;
	options.device_extensions = {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME};
	options.device_features = &features;
	return Context::Create(driver, options);
}

// Small integers 0..16: any order of the adds gives the exact sum.
std::vector<float> Values() {
	std::vector<float> values(kN);
	for (uint32_t i = 0; i < kN; ++i) values[i] = float((i * 7 + i / 64) % 17);
	return values;
}

// One dispatch of kGroups groups; returns the totals buffer.
std::vector<uint8_t> Run(Context& ctx, const char* shader, size_t totals_bytes) {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
	REQUIRE(!words.empty());
	ComputeKernel kernel(ctx, words, 2);
	REQUIRE(kernel.ok());
	TestBuffer totals = ctx.CreateBuffer(totals_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer values = ctx.CreateBuffer(kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::memset(totals.data, 0, totals_bytes);
	const std::vector<float> v = Values();
	std::memcpy(values.data, v.data(), kN * 4);
	kernel.Bind(0, totals.buffer);
	kernel.Bind(1, values.buffer);
	ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, kGroups); });
	std::vector<uint8_t> out(totals.data, totals.data + totals_bytes);
	ctx.Destroy(totals);
	ctx.Destroy(values);
	CHECK(ctx.validation_errors() == 0);
	return out;
}

}  // namespace

TEST_CASE("32-bit float atomics on buffers and shared memory give the host's sums and lavapipe's", "[atomic_float]") {
	const std::vector<float> v = Values();
	float sum = 0;
	std::vector<float> group_sums(kGroups, 0.0f);
	for (uint32_t i = 0; i < kN; ++i) sum += v[i], group_sums[i / 64] += v[i];
	std::vector<std::vector<uint8_t>> results;
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = AtomicFloatContext(driver, false);
		REQUIRE(ctx);
		std::vector<uint8_t> out = Run(*ctx, "atomic_float.spv", (2 + kGroups) * 4);
		std::vector<float> totals(2 + kGroups);
		std::memcpy(totals.data(), out.data(), out.size());
		CHECK(totals[0] == sum);
		// Some invocation's value was the last exchanged in.
		CHECK(std::find(v.begin(), v.end(), totals[1]) != v.end());
		for (uint32_t g = 0; g < kGroups; ++g) {
			CAPTURE(g);
			CHECK(totals[2 + g] == group_sums[g]);
		}
		totals[1] = 0;  // (the exchanged value may differ between drivers)
		std::memcpy(out.data(), totals.data(), out.size());
		results.push_back(out);
	}
	CHECK(results[0] == results[1]);
}

TEST_CASE("64-bit float atomic adds on buffers and shared memory give the host's sums", "[atomic_float]") {
	auto ctx = AtomicFloatContext(Driver::Tessera, true);
	REQUIRE(ctx);
	const std::vector<float> v = Values();
	double sum = 0;
	std::vector<double> group_sums(kGroups, 0.0);
	for (uint32_t i = 0; i < kN; ++i) sum += double(v[i]) * 0.25, group_sums[i / 64] += double(v[i]) * 0.25;
	std::vector<uint8_t> out = Run(*ctx, "atomic_float64.spv", (1 + kGroups) * 8);
	std::vector<double> totals(1 + kGroups);
	std::memcpy(totals.data(), out.data(), out.size());
	CHECK(totals[0] == sum);
	for (uint32_t g = 0; g < kGroups; ++g) {
		CAPTURE(g);
		CHECK(totals[1 + g] == group_sums[g]);
	}
}
