// Vulkan 1.3 compute features of the shader engine through the loader:
// shaderSubgroupExtendedTypes, subgroupBroadcastDynamicId,
// computeFullSubgroups and shaderIntegerDotProduct. Each corpus shader runs on
// Tessera and on lavapipe (whose subgroups have another size) and each
// driver's results are checked against the host reference computed for its
// own subgroup size (tests/support/subgroup_reference.h, dot_reference.h).
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "compute_kernel.h"
#include "dot_reference.h"
#include "icd/vulkan_newer.h"
#include "subgroup_reference.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Every feature the shaders here need, and maintenance4 for glslang's LocalSizeId.
struct Features {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	Features() {
		v13.shaderIntegerDotProduct = VK_TRUE;
		v13.subgroupSizeControl = VK_TRUE;
		v13.computeFullSubgroups = VK_TRUE;
		v13.maintenance4 = VK_TRUE;
		v12.pNext = &v13;
		v12.shaderInt8 = VK_TRUE;
		v12.shaderFloat16 = VK_TRUE;
		v12.storageBuffer8BitAccess = VK_TRUE;
		v12.shaderSubgroupExtendedTypes = VK_TRUE;
		v12.subgroupBroadcastDynamicId = VK_TRUE;
		v11.pNext = &v12;
		v11.storageBuffer16BitAccess = VK_TRUE;
		f2.pNext = &v11;
		f2.features.shaderInt16 = VK_TRUE;
		f2.features.shaderInt64 = VK_TRUE;
		f2.features.shaderFloat64 = VK_TRUE;
	}
	Features(const Features&) = delete;
};

const char* Name(Driver driver) { return driver == Driver::Tessera ? "Tessera" : "lavapipe"; }

// The driver advertises what the tests enable; returns its subgroup size.
uint32_t RequireAdvertised(Driver driver) {
	auto probe = Context::Create(driver);
	REQUIRE(probe);
	Features f;
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f.f2);
	INFO(Name(driver));
	REQUIRE(f.v12.shaderSubgroupExtendedTypes == VK_TRUE);
	REQUIRE(f.v12.subgroupBroadcastDynamicId == VK_TRUE);
	REQUIRE(f.v13.shaderIntegerDotProduct == VK_TRUE);
	REQUIRE(f.v13.computeFullSubgroups == VK_TRUE);
	VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
	vkGetPhysicalDeviceProperties2(probe->physical_device(), &p2);
	const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
	REQUIRE((p11.subgroupSupportedOperations & needed) == needed);
	REQUIRE((p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0);
	return p11.subgroupSize;
}

using Buffers = std::vector<std::vector<uint8_t>>;

// Runs a corpus shader once over storage buffers (bindings 0..n-1) on one
// driver; returns the buffers' contents afterwards.
Buffers Run(Driver driver, const char* shader, const Buffers& initial, uint32_t groups, const void* push = nullptr,
            uint32_t push_size = 0, VkPipelineShaderStageCreateFlags stage_flags = 0,
            const std::vector<const char*>& extensions = {}) {
	Features features;
	ContextOptions options;
	options.device_features = &features.f2;
	options.device_extensions = extensions;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
	REQUIRE(!words.empty());
	Buffers out;
	{
		ComputeKernel kernel(*ctx, words, uint32_t(initial.size()), stage_flags);
		REQUIRE(kernel.ok());
		std::vector<TestBuffer> buffers;
		for (uint32_t i = 0; i < initial.size(); ++i) {
			buffers.push_back(ctx->CreateBuffer(initial[i].size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
			std::memcpy(buffers[i].data, initial[i].data(), initial[i].size());
			kernel.Bind(i, buffers[i].buffer);
		}
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, push, push_size, groups); });
		for (TestBuffer& b : buffers) {
			out.emplace_back(b.data, b.data + b.size);
			ctx->Destroy(b);
		}
	}
	CHECK(ctx->validation_errors() == 0);
	return out;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& bytes) {
	std::vector<T> values(bytes.size() / sizeof(T));
	std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
	return values;
}

constexpr Driver kDrivers[] = {Driver::Tessera, Driver::Lavapipe};

template <class T>
void CheckIntShader(const char* shader, uint64_t seed) {
	const uint32_t n = 128;  // two workgroups of 64
	std::mt19937_64 rng(seed);
	std::vector<T> in(n);
	for (T& v : in) v = static_cast<T>(rng());
	in[1] = std::numeric_limits<T>::min(), in[2] = std::numeric_limits<T>::max(), in[3] = T{-1}, in[5] = T{0};
	const T sentinel = T{0x5a};
	std::vector<T> initial(n * kSubgroupIntOutputs, sentinel);
	std::vector<T> results[2];
	for (int d = 0; d < 2; ++d) {
		uint32_t subgroup_size = RequireAdvertised(kDrivers[d]);
		results[d] = Values<T>(Run(kDrivers[d], shader, {Bytes(in), Bytes(initial)}, n / 64)[1]);
		std::vector<std::optional<T>> expected = ExpectedSubgroupInts(in, subgroup_size);
		REQUIRE(results[d].size() == expected.size());
		uint32_t mismatches = 0;
		for (size_t k = 0; k < expected.size(); ++k) {
			if (results[d][k] == expected[k].value_or(sentinel)) continue;
			if (++mismatches > 8) break;
			INFO(Name(kDrivers[d]) << " subgroup size " << subgroup_size << ": invocation " << k / kSubgroupIntOutputs
			                       << " output " << k % kSubgroupIntOutputs);
			CHECK(static_cast<int64_t>(results[d][k]) == static_cast<int64_t>(expected[k].value_or(sentinel)));
		}
		CHECK(mismatches == 0);
	}
	// Reductions over whole subgroups differ with the subgroup size; scans
	// over the first 8 invocations of each subgroup do not (both sizes are
	// multiples of 8): those must agree between the drivers exactly.
	for (uint32_t i = 0; i < n; ++i)
		if (i % 8 == i % 32)
			for (uint32_t k : {9u, 10u, 11u, 12u, 13u, 14u, 16u, 17u}) {
				INFO("invocation " << i << " output " << k);
				CHECK(results[0][i * kSubgroupIntOutputs + k] == results[1][i * kSubgroupIntOutputs + k]);
			}
}

}  // namespace

TEST_CASE("Tessera reports the Vulkan 1.3 subgroup and dot product features and honest properties",
          "[compute][features][subgroup]") {
	REQUIRE(RequireAdvertised(Driver::Tessera) == 32);
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceShaderIntegerDotProductProperties dot{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES};
	VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &dot};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	// Nothing is accelerated on an interpreter: every one of the 30 flags is false.
	const VkBool32* flags = &dot.integerDotProduct8BitUnsignedAccelerated;
	for (int k = 0; k < 30; ++k) CHECK(flags[k] == VK_FALSE);
	CHECK(p11.subgroupSupportedOperations ==
	      (VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
	       VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
	       VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT | VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR |
	       VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR));
}

TEST_CASE("subgroup arithmetic on 8-bit integers matches the host on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	CheckIntShader<int8_t>("subgroup_i8.spv", 101);
}

TEST_CASE("subgroup arithmetic on 16-bit integers matches the host on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	CheckIntShader<int16_t>("subgroup_i16.spv", 102);
}

TEST_CASE("subgroup arithmetic on 64-bit integers matches the host on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	CheckIntShader<int64_t>("subgroup_i64.spv", 103);
}

TEST_CASE("subgroup arithmetic on 16-bit and 64-bit floats matches the host on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	// The inputs make every sum and product exact in binary16, so the result
	// is exact whatever order a driver combines the invocations in (SPIR-V
	// leaves the order open): compared exactly, by value.
	const uint32_t n = 128;
	std::vector<double> in = SubgroupFloatInputs(n, 104);
	const double sentinel = 1000.0;
	for (Driver driver : kDrivers) {
		uint32_t subgroup_size = RequireAdvertised(driver);
		std::vector<std::optional<double>> expected = ExpectedSubgroupFloats(in, subgroup_size);
		std::vector<uint16_t> in16(2 * n);
		for (uint32_t k = 0; k < 2 * n; ++k) in16[k] = HalfBits(in[k]);
		std::vector<uint16_t> out16 = Values<uint16_t>(
		    Run(driver, "subgroup_f16.spv",
		        {Bytes(in16), Bytes(std::vector<uint16_t>(n * kSubgroupFloatOutputs, HalfBits(sentinel)))}, n / 64)[1]);
		std::vector<double> out64 = Values<double>(
		    Run(driver, "subgroup_f64.spv",
		        {Bytes(in), Bytes(std::vector<double>(n * kSubgroupFloatOutputs, sentinel))}, n / 64)[1]);
		REQUIRE(out16.size() == expected.size());
		REQUIRE(out64.size() == expected.size());
		uint32_t mismatches = 0;
		for (size_t k = 0; k < expected.size() && mismatches < 8; ++k) {
			INFO(Name(driver) << " subgroup size " << subgroup_size << ": invocation " << k / kSubgroupFloatOutputs
			                  << " output " << k % kSubgroupFloatOutputs);
			double want = expected[k].value_or(sentinel);
			mismatches += HalfValue(out16[k]) != want || out64[k] != want;
			CHECK(HalfValue(out16[k]) == want);
			CHECK(out64[k] == want);
		}
	}
}

TEST_CASE("clustered subgroup reductions on every integer and float width match the host on Tessera",
          "[compute][features][subgroup]") {
	// lavapipe does not offer VK_SUBGROUP_FEATURE_CLUSTERED_BIT: host only.
	RequireAdvertised(Driver::Tessera);
	const uint32_t n = 128;
	std::mt19937_64 rng(105);
	std::vector<int64_t> ints(n);
	for (int64_t& v : ints) v = static_cast<int64_t>(rng());
	std::vector<double> pairs = SubgroupFloatInputs(n, 106), floats(n);
	for (uint32_t k = 0; k < n; ++k) floats[k] = pairs[2 * k];
	Buffers out = Run(
	    Driver::Tessera, "subgroup_clustered.spv",
	    {Bytes(ints), Bytes(floats), Bytes(std::vector<int64_t>(n * 16)), Bytes(std::vector<double>(n * 9))}, n / 64);
	std::vector<int64_t> int_expected;
	std::vector<double> float_expected;
	ExpectedClustered(ints, floats, int_expected, float_expected);
	CHECK(Values<int64_t>(out[2]) == int_expected);
	CHECK(Values<double>(out[3]) == float_expected);
}

TEST_CASE("subgroupBroadcast with a dynamically uniform id matches the host on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	const uint32_t n = 128;
	std::vector<uint32_t> in(1 + n);
	in[0] = 6 + 64;  // the id from memory: 6 after % gl_SubgroupSize (8 or 32)
	for (uint32_t i = 0; i < n; ++i) in[1 + i] = i * 2654435761u;
	const uint32_t lane = 5;
	for (Driver driver : kDrivers) {
		uint32_t subgroup_size = RequireAdvertised(driver);
		std::vector<uint32_t> out =
		    Values<uint32_t>(Run(driver, "subgroup_broadcast.spv", {Bytes(in), Bytes(std::vector<uint32_t>(2 * n))},
		                         n / 64, &lane, sizeof lane)[1]);
		for (uint32_t i = 0; i < n; ++i) {
			uint32_t first = i / subgroup_size * subgroup_size;
			INFO(Name(driver) << " invocation " << i);
			CHECK(out[2 * i] == in[1 + first + lane]);
			CHECK(out[2 * i + 1] == in[1 + first + in[0] % subgroup_size] * 3u);
		}
	}
}

TEST_CASE("VK_EXT_shader_subgroup_ballot and _vote: the ARB ballot and vote functions hold their rules",
          "[compute][features][subgroup]") {
	// subgroup_khr.comp checks rules that hold for any subgroup size of 2 or
	// more dividing 64: 255 from every invocation.
	const uint32_t n = 256;
	for (Driver driver : kDrivers) {
		RequireAdvertised(driver);
		INFO(Name(driver));
		std::vector<uint32_t> out = Values<uint32_t>(
		    Run(driver, "subgroup_khr.spv", {Bytes(std::vector<uint32_t>(n))}, n / 64, nullptr, 0, 0,
		        {VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME})[0]);
		uint32_t wrong = 0, first = 0;
		for (uint32_t i = 0; i < n; ++i)
			if (out[i] != 255u && wrong++ == 0) first = i;
		INFO("first wrong invocation " << first << ": rule bits " << out[first]);
		CHECK(wrong == 0);
	}
}

TEST_CASE("REQUIRE_FULL_SUBGROUPS and ALLOW_VARYING_SUBGROUP_SIZE give full subgroups on Tessera and lavapipe",
          "[compute][features][subgroup]") {
	// Vulkan 1.3 §9.1 (VkPipelineShaderStageCreateInfo): with
	// REQUIRE_FULL_SUBGROUPS every subgroup of a workgroup whose x size is a
	// multiple of the subgroup size has all its invocations active; with
	// ALLOW_VARYING_SUBGROUP_SIZE too the size may be any in [min, max]
	// (Tessera: always 32). The shader is 64 x 2.
	const uint32_t n = 256;  // two workgroups of 128
	for (Driver driver : kDrivers) {
		uint32_t subgroup_size = RequireAdvertised(driver);
		for (VkPipelineShaderStageCreateFlags flags :
		     {VkPipelineShaderStageCreateFlags{VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT},
		      VkPipelineShaderStageCreateFlags{VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT |
		                                       VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT}}) {
			std::vector<uint32_t> out = Values<uint32_t>(
			    Run(driver, "subgroup_full.spv", {std::vector<uint8_t>(n * 16)}, n / 128, nullptr, 0, flags)[0]);
			uint32_t size = out[0];
			if (!(flags & VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT))
				CHECK(size == subgroup_size);
			if (driver == Driver::Tessera) CHECK(size == 32);
			REQUIRE(size != 0);
			for (uint32_t i = 0; i < n; ++i) {
				INFO(Name(driver) << " flags " << flags << " invocation " << i);
				const uint32_t* o = &out[4 * i];
				CHECK(o[0] == size);
				CHECK(o[1] == size);  // every invocation of the subgroup is active
				CHECK(o[3] == 128 / size);
				// Each subgroup id once per workgroup, each invocation id once per subgroup.
				uint32_t local = i % 128;
				if (driver == Driver::Tessera) CHECK(o[2] == local % 32 + 1000 * (local / 32));
			}
		}
	}
}

TEST_CASE("integer dot products match the host and lavapipe exactly", "[compute][features][dot]") {
	const uint32_t n = 256;
	std::vector<DotInput> inputs = DotInputs(n, 107);
	std::vector<uint64_t> expected = ExpectedDots(inputs);
	std::vector<uint64_t> results[2];
	for (int d = 0; d < 2; ++d) {
		RequireAdvertised(kDrivers[d]);
		results[d] = Values<uint64_t>(Run(
		    kDrivers[d], "dot.spv", {Bytes(inputs), Bytes(std::vector<uint64_t>(n * kDotOutputs, 0x5a))}, n / 64)[1]);
		REQUIRE(results[d].size() == expected.size());
		uint32_t mismatches = 0;
		for (size_t k = 0; k < expected.size() && mismatches < 8; ++k) {
			INFO(Name(kDrivers[d]) << ": invocation " << k / kDotOutputs << " output " << k % kDotOutputs);
			mismatches += results[d][k] != expected[k];
			CHECK(results[d][k] == expected[k]);
		}
	}
	CHECK(results[0] == results[1]);
}
