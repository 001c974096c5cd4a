// The vectorizable exp/exp2/log/log2/pow (src/shader/fast_math.h) against
// the C library: within 1 ULP of libm's float results over sweeps of every
// range (libm itself is within 1 ULP of the true value), and C's answers on
// the special values.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "shader/fast_math.h"

namespace fm = tessera::shader::fast_math;

namespace {

// Distance in representable floats (both finite, or both the same special).
int64_t UlpDistance(float a, float b) {
	if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
	if (std::isinf(a) || std::isinf(b)) return a == b ? 0 : INT64_MAX;
	auto key = [](float f) {
		int32_t i = std::bit_cast<int32_t>(f);
		return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
	};
	return std::llabs(key(a) - key(b));
}

// Floats spread over the whole range: every step-th bit pattern. The checks
// count failures and report the first, so that a million values stay cheap
// under the sanitizers (one Catch assertion each would take minutes).
template <typename F>
void Sweep(uint32_t step, F check) {
	for (uint64_t bits = 0; bits <= 0xffffffffull; bits += step) check(std::bit_cast<float>(uint32_t(bits)));
}

struct Worst {
	int64_t ulps = 0;
	float x = 0, y = 0;
	void Note(int64_t d, float at_x, float at_y = 0) {
		if (d > ulps) ulps = d, x = at_x, y = at_y;
	}
};

}  // namespace

TEST_CASE("fast exp, exp2, log and log2 are within 1 ULP of libm", "[shader][math]") {
	Worst exp, exp2, log, log2;
	Sweep(4099, [&](float x) {
		exp.Note(UlpDistance(fm::Exp(x), std::exp(x)), x);
		exp2.Note(UlpDistance(fm::Exp2(x), std::exp2(x)), x);
		log.Note(UlpDistance(fm::Log(x), std::log(x)), x);
		log2.Note(UlpDistance(fm::Log2(x), std::log2(x)), x);
	});
	INFO("worst at exp(" << exp.x << "), exp2(" << exp2.x << "), log(" << log.x << "), log2(" << log2.x << ")");
	CHECK(exp.ulps <= 1);
	CHECK(exp2.ulps <= 1);
	CHECK(log.ulps <= 1);
	CHECK(log2.ulps <= 1);
	// Exact powers of two stay exact.
	for (int e = -149; e <= 127; ++e) {
		CAPTURE(e);
		REQUIRE(fm::Exp2(float(e)) == std::ldexp(1.0f, e));
		REQUIRE(fm::Log2(std::ldexp(1.0f, e)) == float(e));
	}
}

TEST_CASE("fast pow is within 1 ULP of libm, with C's special cases", "[shader][math]") {
	const float ys[] = {0.0f,
	                    -0.0f,
	                    0.5f,
	                    1.0f,
	                    2.0f,
	                    3.0f,
	                    -1.0f,
	                    -2.5f,
	                    48.0f,
	                    0.3333f,
	                    1e-7f,
	                    1e10f,
	                    -1e10f,
	                    7.0f,
	                    -3.0f,
	                    std::numeric_limits<float>::infinity(),
	                    -std::numeric_limits<float>::infinity(),
	                    std::numeric_limits<float>::quiet_NaN()};
	Worst pow;
	uint32_t sign_errors = 0;
	for (float y : ys)
		Sweep(16411, [&](float x) {
			// glibc gives NaN for pow(signaling NaN, 0), 1 for a quiet one; C
			// Annex F says 1 for any NaN, which fast_math gives: compare
			// NaN x only through the quiet NaN below.
			if (std::isnan(x)) return;
			float ours = fm::Pow(x, y), libm = std::pow(x, y);
			pow.Note(UlpDistance(ours, libm), x, y);
			if (ours == 0.0f && std::signbit(ours) != std::signbit(libm)) ++sign_errors;
		});
	INFO("worst at pow(" << pow.x << ", " << pow.y << ")");
	CHECK(pow.ulps <= 1);
	CHECK(sign_errors == 0);
	for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, std::numeric_limits<float>::infinity(),
	                -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
		for (float y : ys) {
			CAPTURE(x, y);
			REQUIRE(UlpDistance(fm::Pow(x, y), std::pow(x, y)) == 0);
		}
}

TEST_CASE("fast sin and cos are within 1 ULP of libm", "[shader][math]") {
	Worst sin, cos;
	// Every step-th float of magnitude below 1e5 (past it libm's exact
	// reduction and ours part ways; Vulkan bounds [-pi, pi] only).
	Sweep(257, [&](float x) {
		if (!(std::fabs(x) < 1e5f)) return;
		sin.Note(UlpDistance(fm::Sin(x), std::sin(x)), x);
		cos.Note(UlpDistance(fm::Cos(x), std::cos(x)), x);
	});
	INFO("worst at sin(" << sin.x << "), cos(" << cos.x << ")");
	CHECK(sin.ulps <= 1);
	CHECK(cos.ulps <= 1);
	// Near the zeros, where a reduction that loses bits shows.
	for (float x : {3.14159274f, -3.14159274f, 6.28318548f, 1.57079637f, 4.71238899f, 31415.9258f}) {
		CAPTURE(x);
		CHECK(UlpDistance(fm::Sin(x), std::sin(x)) <= 1);
		CHECK(UlpDistance(fm::Cos(x), std::cos(x)) <= 1);
	}
	CHECK(std::bit_cast<uint32_t>(fm::Sin(-0.0f)) == 0x80000000u);
	CHECK(fm::Sin(0.0f) == 0.0f);
	CHECK(fm::Cos(-0.0f) == 1.0f);
	CHECK(std::isnan(fm::Sin(std::numeric_limits<float>::infinity())));
	CHECK(std::isnan(fm::Cos(-std::numeric_limits<float>::infinity())));
	CHECK(std::isnan(fm::Sin(std::numeric_limits<float>::quiet_NaN())));
	// Large arguments stay in [-1, 1].
	for (float x : {1e6f, -3e9f, 1e20f, 3.4e38f}) {
		CHECK(std::fabs(fm::Sin(x)) <= 1.0f);
		CHECK(std::fabs(fm::Cos(x)) <= 1.0f);
	}
}
