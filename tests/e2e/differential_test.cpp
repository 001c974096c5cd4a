// Randomized differential tests: corpus compute shaders run on Tessera and on
// lavapipe with random inputs from fixed seeds (stated below, so a failure
// repeats), results compared exactly where Vulkan leaves no freedom and
// within the spec's precision bounds where it does (Vulkan 1.3 §"Precision
// and Operation of SPIR-V Instructions").
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

using Buffers = std::vector<std::vector<uint8_t>>;

Buffers Run(Driver driver, const char* shader, const Buffers& initial, uint32_t groups) {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	ContextOptions options;
	options.device_features = &v13;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	Buffers out = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, shader, initial, groups);
	REQUIRE(!out.empty());
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

// Distance in units in the last place between two finite floats.
int64_t UlpDistance(float a, float b) {
	auto ordered = [](float f) {
		int32_t bits = std::bit_cast<int32_t>(f);
		return bits < 0 ? int64_t{INT32_MIN} - bits : int64_t{bits};
	};
	return std::abs(ordered(a) - ordered(b));
}

// A random normal float with |exponent| <= 20 (no denormals, which Vulkan
// lets an implementation flush, and quotients stay normal).
float RandomFloat(std::mt19937& rng) {
	uint32_t mantissa = rng() & 0x7fffffu, exponent = 127u - 20u + rng() % 41u, sign = rng() & 1u;
	return std::bit_cast<float>(sign << 31 | exponent << 23 | mantissa);
}

constexpr uint32_t kSeeds[] = {1001, 1002, 1003};

}  // namespace

TEST_CASE("differential: arith.comp on random inputs matches lavapipe (integers exactly, floats within bounds)",
          "[compute][differential]") {
	const uint32_t n = 256, slots = 32;
	for (uint32_t seed : kSeeds) {
		INFO("seed " << seed);
		std::mt19937 rng(seed);
		std::vector<int32_t> a(n), b(n);
		std::vector<float> f(2 * n);
		for (uint32_t i = 0; i < n; ++i) {
			a[i] = static_cast<int32_t>(rng());
			b[i] = i % 4 == 0 ? static_cast<int32_t>(rng() % 64) - 32 : static_cast<int32_t>(rng());
			if (b[i] == -1 && a[i] == INT32_MIN) b[i] = 1;  // INT_MIN / -1 overflows: undefined
			f[2 * i] = i % 8 == 0 ? 0.0f : RandomFloat(rng);
			f[2 * i + 1] = i % 16 == 1 ? f[2 * i] : RandomFloat(rng);
		}
		Buffers initial = {Bytes(a), Bytes(b), Bytes(f), std::vector<uint8_t>(n * slots * 4)};
		std::vector<uint32_t> ours = Values<uint32_t>(Run(Driver::Tessera, "arith.spv", initial, n / 32)[3]);
		std::vector<uint32_t> theirs = Values<uint32_t>(Run(Driver::Lavapipe, "arith.spv", initial, n / 32)[3]);
		for (uint32_t i = 0; i < n; ++i)
			for (uint32_t k = 0; k < slots; ++k) {
				INFO("invocation " << i << " slot " << k);
				uint32_t o = ours[i * slots + k], t = theirs[i * slots + k];
				if (k == 31) continue;  // mod(): precision inherited from x - y * floor(x / y), floor may flip
				if (k == 18) {
					// x / y: 2.5 ULP (Vulkan 1.3 precision table, OpFDiv with
					// |y| in [2^-126, 2^126]); from the correctly rounded
					// quotient that is at most 3 ULP, for each driver.
					float exact = static_cast<float>(static_cast<double>(f[2 * i]) / f[2 * i + 1]);
					CHECK(UlpDistance(std::bit_cast<float>(o), exact) <= 3);
					CHECK(UlpDistance(std::bit_cast<float>(t), exact) <= 3);
					continue;
				}
				// Integer results, comparisons, and float +, -, *, negation and
				// conversions, which Vulkan requires correctly rounded: exact.
				if (k == 4) {
					// x % y: glslang emits OpSMod, whose non-zero result takes the
					// divisor's sign (SPIR-V 1.6 §3.56.13). GLSL leaves % on
					// negative operands undefined and lavapipe returns the
					// remainder (OpSRem) there, so the drivers are compared on
					// non-negative operands and Tessera against the host always.
					int32_t x = a[i], y = b[i];
					int32_t rem = y != 0 ? x % y : 0, smod = rem != 0 && (rem < 0) != (y < 0) ? rem + y : rem;
					CHECK(o == static_cast<uint32_t>(smod));
					if (x >= 0 && y >= 0) CHECK(o == t);
					continue;
				}
				CHECK(o == t);
			}
	}
}

TEST_CASE("differential: control.comp on random inputs matches lavapipe exactly", "[compute][differential]") {
	const uint32_t n = 512;
	for (uint32_t seed : kSeeds) {
		INFO("seed " << seed);
		std::mt19937 rng(seed);
		std::vector<uint32_t> v(n);
		// Below 100000 the Collatz walk stays under 2^32 (no wrap-around that
		// could loop forever on either driver).
		for (uint32_t& x : v) x = rng() % 100000u;
		for (uint32_t i = 0; i < 16; ++i) v[i] = i;  // small counts, x == 7 (the early return)
		const uint32_t sentinel = 0xa5a5a5a5u;
		Buffers initial = {Bytes(v), Bytes(std::vector<uint32_t>(n * 4, sentinel))};
		Buffers ours = Run(Driver::Tessera, "control.spv", initial, n / 64);
		Buffers theirs = Run(Driver::Lavapipe, "control.spv", initial, n / 64);
		CHECK(ours[1] == theirs[1]);
		CHECK(Values<uint32_t>(ours[1])[7 * 4 + 3] == 0xdeadu);
		CHECK(Values<uint32_t>(ours[1])[7 * 4] == sentinel);
	}
}
