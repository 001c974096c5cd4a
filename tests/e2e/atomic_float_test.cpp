// VK_EXT_shader_atomic_float and float2: float adds, exchanges, minimums and
// maximums on storage buffers and workgroup memory, 32-bit against the host
// and lavapipe, 64-bit (which lavapipe 22.3 lacks) against the host.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kGroups = 40, kN = kGroups * 64;

std::unique_ptr<Context> AtomicFloatContext(Driver driver, bool float64) {
	static VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT minmax{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
	static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomics{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
	static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &atomics};
	static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	atomics = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, &minmax};
	atomics.shaderBufferFloat32Atomics = atomics.shaderBufferFloat32AtomicAdd = VK_TRUE;
	minmax = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
	minmax.shaderBufferFloat32AtomicMinMax = minmax.shaderSharedFloat32AtomicMinMax = VK_TRUE;
	minmax.shaderBufferFloat64AtomicMinMax = minmax.shaderSharedFloat64AtomicMinMax = float64;
	atomics.shaderSharedFloat32AtomicAdd = VK_TRUE;
	atomics.shaderBufferFloat64AtomicAdd = atomics.shaderSharedFloat64AtomicAdd = float64;
	features.features.shaderFloat64 = float64;
	ContextOptions options;
	options.device_extensions = {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
	                             VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME};
	options.device_features = &features;
	return Context::Create(driver, options);
}

// Small integers 0..16: any order of the adds gives the exact sum.
std::vector<float> Values() {
	std::vector<float> values(kN);
	for (uint32_t i = 0; i < kN; ++i) values[i] = float((i * 7 + i / 64) % 17);
	return values;
}

// One dispatch of kGroups groups over `values` (default Values()); returns
// the totals buffer, which starts as `initial` and zeros after it.
std::vector<uint8_t> Run(Context& ctx, const char* shader, size_t totals_bytes,
                         const std::vector<uint8_t>& initial = {}, std::vector<float> v = Values()) {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
	REQUIRE(!words.empty());
	ComputeKernel kernel(ctx, words, 2);
	REQUIRE(kernel.ok());
	TestBuffer totals = ctx.CreateBuffer(totals_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer values = ctx.CreateBuffer(kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::memset(totals.data, 0, totals_bytes);
	if (!initial.empty()) std::memcpy(totals.data, initial.data(), initial.size());
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

namespace {

// Negative and positive values with two NaNs (in groups 0 and 10) and a -0.
std::vector<float> MinMaxValues() {
	std::vector<float> v(kN);
	for (uint32_t i = 0; i < kN; ++i) v[i] = float(int32_t((i * 37) % 1000) - 500) * 0.37f;
	v[5] = v[700] = std::nanf("");
	v[64] = -0.0f;
	return v;
}

template <typename T>
std::vector<uint8_t> Bytes(std::initializer_list<T> values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.begin(), bytes.size());
	return bytes;
}

}  // namespace

TEST_CASE("32-bit float atomic min and max ignore NaNs and give the host's and lavapipe's extremes", "[atomic_float]") {
	const std::vector<float> v = MinMaxValues();
	const float inf = std::numeric_limits<float>::infinity();
	float minimum = inf, maximum = -inf;
	std::vector<float> group_min(kGroups, inf), group_max(kGroups, -inf);
	for (uint32_t i = 0; i < kN; ++i) {
		minimum = std::fmin(minimum, v[i]), maximum = std::fmax(maximum, v[i]);
		group_min[i / 64] = std::fmin(group_min[i / 64], v[i]);
		group_max[i / 64] = std::fmax(group_max[i / 64], v[i]);
	}
	std::vector<std::vector<uint8_t>> results;
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = AtomicFloatContext(driver, false);
		REQUIRE(ctx);
		std::vector<uint8_t> out = Run(*ctx, "atomic_float_minmax.spv", (2 + 2 * kGroups) * 4, Bytes({inf, -inf}), v);
		std::vector<float> totals(2 + 2 * kGroups);
		std::memcpy(totals.data(), out.data(), out.size());
		CHECK(totals[0] == minimum);
		CHECK(totals[1] == maximum);
		for (uint32_t g = 0; g < kGroups; ++g) {
			CAPTURE(g);
			CHECK(totals[2 + 2 * g] == group_min[g]);
			CHECK(totals[3 + 2 * g] == group_max[g]);
		}
		results.push_back(out);
	}
	CHECK(results[0] == results[1]);
}

TEST_CASE("64-bit float atomic min and max ignore NaNs and give the host's extremes", "[atomic_float]") {
	auto ctx = AtomicFloatContext(Driver::Tessera, true);
	REQUIRE(ctx);
	const std::vector<float> v = MinMaxValues();
	const double inf = std::numeric_limits<double>::infinity();
	double minimum = inf, maximum = -inf;
	std::vector<double> group_min(kGroups, inf), group_max(kGroups, -inf);
	for (uint32_t i = 0; i < kN; ++i) {
		const double x = double(v[i]) * 0.25;
		minimum = std::fmin(minimum, x), maximum = std::fmax(maximum, x);
		group_min[i / 64] = std::fmin(group_min[i / 64], x);
		group_max[i / 64] = std::fmax(group_max[i / 64], x);
	}
	std::vector<uint8_t> out = Run(*ctx, "atomic_float64_minmax.spv", (2 + 2 * kGroups) * 8, Bytes({inf, -inf}), v);
	std::vector<double> totals(2 + 2 * kGroups);
	std::memcpy(totals.data(), out.data(), out.size());
	CHECK(totals[0] == minimum);
	CHECK(totals[1] == maximum);
	for (uint32_t g = 0; g < kGroups; ++g) {
		CAPTURE(g);
		CHECK(totals[2 + 2 * g] == group_min[g]);
		CHECK(totals[3 + 2 * g] == group_max[g]);
	}
}
