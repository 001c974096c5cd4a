// 64-bit types through the Vulkan API: shaderInt64, shaderFloat64,
// shaderBufferInt64Atomics and shaderSharedInt64Atomics, enabled on Tessera
// and on lavapipe, the corpus shaders run on both with the same inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

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

// The features every shader here needs (the corpus shaders also convert to
// 8/16-bit types), and maintenance4 for glslang's LocalSizeId.
struct Features64 {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	Features64() {
		v13.maintenance4 = VK_TRUE;
		v12.pNext = &v13;
		v12.shaderInt8 = VK_TRUE;
		v12.shaderFloat16 = VK_TRUE;
		v12.shaderBufferInt64Atomics = VK_TRUE;
		v12.shaderSharedInt64Atomics = VK_TRUE;
		f2.pNext = &v12;
		f2.features.shaderInt16 = VK_TRUE;
		f2.features.shaderInt64 = VK_TRUE;
		f2.features.shaderFloat64 = VK_TRUE;
	}
	Features64(const Features64&) = delete;
};

// The driver must advertise the 64-bit features before a device can enable them.
void RequireAdvertised(Driver driver) {
	auto probe = Context::Create(driver);
	REQUIRE(probe);
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	f2.pNext = &v12;
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
	INFO((driver == Driver::Tessera ? "Tessera" : "lavapipe"));
	REQUIRE(f2.features.shaderInt64 == VK_TRUE);
	REQUIRE(f2.features.shaderFloat64 == VK_TRUE);
	REQUIRE(v12.shaderBufferInt64Atomics == VK_TRUE);
	REQUIRE(v12.shaderSharedInt64Atomics == VK_TRUE);
}

// Runs a corpus shader over storage buffers on both drivers; returns
// {Tessera's, lavapipe's} buffer contents afterwards.
using Buffers = std::vector<std::vector<uint8_t>>;
std::pair<Buffers, Buffers> RunBoth(const char* shader, const Buffers& initial, uint32_t groups) {
	RequireAdvertised(Driver::Tessera);
	RequireAdvertised(Driver::Lavapipe);
	Features64 features;
	ContextOptions options;
	options.device_features = &features.f2;
	auto run = [&](Driver driver) {
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		Buffers out = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, shader, initial, groups);
		REQUIRE(!out.empty());
		CHECK(ctx->validation_errors() == 0);
		return out;
	};
	Buffers ours = run(Driver::Tessera);
	Buffers reference = run(Driver::Lavapipe);
	return {ours, reference};
}

}  // namespace

TEST_CASE("64-bit integer arithmetic, shifts and conversions match lavapipe exactly", "[compute][features][int64]") {
	const uint32_t n = 64;
	std::mt19937_64 rng(7);
	std::vector<uint64_t> a(n);
	std::vector<int64_t> b(2 * n);
	for (uint32_t i = 0; i < n; ++i) {
		a[i] = rng() >> (i % 50);
		b[2 * i] = static_cast<int64_t>(rng()) >> (i % 40);
		b[2 * i + 1] = static_cast<int64_t>(rng() % 1000) + 1;  // no division by 0 or -1 (undefined)
	}
	a[0] = 0, a[1] = ~0ull, a[2] = 1ull << 63;
	auto [ours, reference] = RunBoth(
	    "int64.spv", {Bytes(a), Bytes(b), std::vector<uint8_t>(n * 12 * 8), std::vector<uint8_t>(n * 16)}, n / 16);
	std::vector<uint64_t> o = Values<uint64_t>(ours[2]), r = Values<uint64_t>(reference[2]);
	for (uint32_t i = 0; i < n; ++i)
		for (uint32_t k = 0; k < 12; ++k) {
			INFO("invocation " << i << " output " << k);
			if (k == 11)  // int64_t(float(y.x)): lavapipe folds the round trip through float away
				CHECK(o[i * 12 + k] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<float>(b[2 * i]))));
			else
				CHECK(o[i * 12 + k] == r[i * 12 + k]);
		}
	CHECK(ours[3] == reference[3]);
	CHECK(o[2 * 12 + 0] == a[2] + static_cast<uint64_t>(b[4]));  // against the host too
}

TEST_CASE("64-bit bit counts, shifts by 63, abs, sign, clamp and narrow conversions match lavapipe exactly",
          "[compute][features][int64]") {
	const uint32_t n = 64, outputs = 22;
	std::mt19937_64 rng(11);
	std::vector<uint64_t> in(2 * n);
	for (uint32_t i = 0; i < n; ++i) {
		in[2 * i] = rng() >> (i % 64);
		uint64_t y = rng() >> (i % 60);
		in[2 * i + 1] = y == 0 || y == ~0ull ? 3 : y;  // SDiv/SMod by 0 or -1 are undefined
	}
	in[2] = 0, in[3] = 63;  // shifts by 63
	in[4] = 0x7fffffffffffffffull, in[5] = 63;
	in[6] = 0x8000000000000000ull, in[7] = 2;
	auto [ours, reference] = RunBoth("int64_bits.spv", {Bytes(in), std::vector<uint8_t>(n * outputs * 8)}, n / 16);
	std::vector<uint64_t> a = Values<uint64_t>(ours[1]), b = Values<uint64_t>(reference[1]);
	for (uint32_t i = 0; i < n * outputs; ++i) {
		uint32_t k = i % outputs;
		int64_t x = static_cast<int64_t>(in[2 * (i / outputs)]), y = static_cast<int64_t>(in[2 * (i / outputs) + 1]);
		INFO("invocation " << i / outputs << " output " << k);
		if (k == 10) {
			// x % y is OpSMod (the sign of y); lavapipe gives the remainder's
			// sign (GLSL leaves % on negative operands undefined): the host.
			int64_t mod = x % y;
			CHECK(a[i] == static_cast<uint64_t>(mod != 0 && (mod < 0) != (y < 0) ? mod + y : mod));
		} else if (k == 14) {  // int64_t(float(x >> 2)): lavapipe folds the round trip through float away
			CHECK(a[i] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<float>(x >> 2))));
		} else {
			CHECK(a[i] == b[i]);
		}
	}
	CHECK(a[1 * outputs + 11] == 0);  // 0 << 63
	CHECK(a[2 * outputs + 12] == 0);  // INT64_MAX >> 63
}

TEST_CASE("64-bit floats match lavapipe: exact where Vulkan requires correct rounding",
          "[compute][features][float64]") {
	const uint32_t n = 64, outputs = 36, outputs32 = 8;
	std::mt19937_64 rng(5);
	std::uniform_real_distribution<double> dist(-1e6, 1e6);
	std::vector<double> in(2 * n);
	for (uint32_t i = 0; i < 2 * n; ++i) in[i] = dist(rng) / (1 + i % 9);
	// Finite normal values (lavapipe may flush double denormals: no shaderDenormPreserveFloat64 needed here).
	const double edges[] = {2.5, -3.5, 0.5, 1.5, -0.0, 0.0, 1e300, 1e-300, 3.0, 3.0, 1.0 / 3.0, 0.1};
	for (size_t k = 0; k < std::size(edges); ++k) in[k] = edges[k];
	auto [ours, reference] = RunBoth("float64.spv",
	                                 {Bytes(in), std::vector<uint8_t>(n * outputs * 8),
	                                  std::vector<uint8_t>(n * outputs32 * 4), std::vector<uint8_t>(2 * 64 * 96)},
	                                 n / 16);
	CHECK(ours[3] == reference[3]);  // dmat3 stores, column- and row-major: exact
	std::vector<double> a = Values<double>(ours[1]), b = Values<double>(reference[1]);
	auto bits = [](double v) { return std::bit_cast<uint64_t>(v); };
	for (uint32_t i = 0; i < n; ++i) {
		double x = in[2 * i];
		for (uint32_t k = 0; k < outputs; ++k) {
			double got = a[i * outputs + k], expected = b[i * outputs + k];
			INFO("invocation " << i << " output " << k << ": Tessera " << got << ", lavapipe " << expected);
			switch (k) {
			// Vulkan 1.3 "Precision and Operation of SPIR-V Instructions": OpFAdd,
			// OpFSub, OpFMul and conversions are correctly rounded; floor, ceil,
			// trunc, roundEven, fract, abs, sign, negate, min, max, clamp, step,
			// ldexp, frexp, modf and the packing are exact.
			case 0:
			case 1:
			case 2:
			case 7:
			case 8:
			case 9:
			case 11:
			case 12:
			case 13:
			case 14:
			case 15:
			case 16:
			case 20:
			case 21:
			case 22:
			case 23:
			case 24:
			case 25:
			case 26:
			case 27:
			case 28:
			case 29:
				// lavapipe gives +0 for modf's whole part of -0 and for the
				// fraction of a negative whole number (GLSL: both have x's
				// sign), and -0 for double(int64_t(-0.0)); on a CPU without
				// AVX-512 also +0 for trunc, round and roundEven of -0
				// (seen on an AMD EPYC with AVX2). Without
				// shaderSignedZeroInfNanPreserveFloat64 a zero's sign is
				// free, so only Tessera's zeros are held to a rule: the
				// host's (a zero from floor, ceil, trunc and the roundings
				// has x's sign).
				if (got == 0.0 && expected == 0.0 &&
				    (k == 7 || k == 8 || k == 9 || k == 11 || k == 22 || k == 23 || k == 27))
					CHECK(bits(got) == bits(k == 23 ? std::trunc(x) : k == 27 ? 0.0 : std::copysign(0.0, x)));
				else
					CHECK(bits(got) == bits(expected));
				break;
			case 10:  // round: a half may go either way; a zero's sign as above
				if (got == 0.0 && expected == 0.0)
					CHECK(bits(got) == bits(std::copysign(0.0, x)));
				else if (x - std::floor(x) != 0.5)
					CHECK(bits(got) == bits(expected));
				break;
			default:
				// Division, sqrt, inversesqrt, mod, mix, fma (fused or not), smoothstep,
				// dot, length, distance, determinant, inverse, matrix times vector:
				// compositions and ops with ULP bounds.
				if ((k == 33 || k == 34) && x * 2.0 - in[2 * i + 1] == 0.0)
					break;  // the inverse of a singular matrix is undefined
				if (std::isnan(expected) || std::isinf(expected))
					CHECK(bits(got) == bits(expected));
				else
					CHECK(std::fabs(got - expected) <= 1e-12 * std::fmax(1.0, std::fabs(expected)));
				break;
			}
		}
	}
	std::vector<uint32_t> w = Values<uint32_t>(ours[2]), v = Values<uint32_t>(reference[2]);
	for (uint32_t i = 0; i < n * outputs32; ++i) {
		INFO("invocation " << i / outputs32 << " word " << i % outputs32);
		if (i % outputs32 == 7) continue;  // compares a matrix product to a sum: fusion may differ
		CHECK(w[i] == v[i]);
	}
}

TEST_CASE("64-bit atomics on buffers and shared memory match lavapipe", "[compute][features][atomics][int64]") {
	const uint32_t groups = 8, n = groups * 64;
	std::vector<uint64_t> counters = {5, 7, ~0ull, 0, ~0ull, 0, 0x1234, 77, 0, 0, 0x7fffffffffffffffull, 1ull << 63};
	auto [ours, reference] =
	    RunBoth("atomics64.spv",
	            {Bytes(counters), std::vector<uint8_t>(n * 4 * 8), std::vector<uint8_t>(groups * 7 * 8)}, groups);
	std::vector<uint64_t> a = Values<uint64_t>(ours[0]), b = Values<uint64_t>(reference[0]);
	for (uint32_t k = 0; k < a.size(); ++k) {
		INFO("counter " << k);
		if (k != 7) CHECK(a[k] == b[k]);  // 7: which exchange comes last is unordered
	}
	CHECK(a[9] == n);
	CHECK(ours[2] == reference[2]);  // shared-memory results per workgroup
	std::vector<uint64_t> p = Values<uint64_t>(ours[1]), q = Values<uint64_t>(reference[1]);
	std::vector<uint64_t> tickets, chain = {a[7]}, other_chain = {b[7]};
	for (uint32_t i = 0; i < n; ++i) {
		tickets.push_back(p[i * 4]);
		chain.push_back(p[i * 4 + 1]);
		other_chain.push_back(q[i * 4 + 1]);
		CHECK(p[i * 4 + 2] == q[i * 4 + 2]);
		CHECK(p[i * 4 + 3] == q[i * 4 + 3]);
	}
	std::sort(tickets.begin(), tickets.end());
	for (uint32_t i = 0; i < n; ++i) CHECK(tickets[i] == i);
	std::sort(chain.begin(), chain.end());
	std::sort(other_chain.begin(), other_chain.end());
	CHECK(chain == other_chain);  // the initial value and every exchanged one, in some order
}
