// Floating-point rules of SPIR-V and GLSL.std.450 that depend on operand
// widths, decorations or denormals.
#include <algorithm>
#include <bit>
#include <cmath>

#include "run_shader.h"
#include "shader/alu.h"

using namespace tessera;

TEST_CASE("Ldexp reads 8-, 16- and 64-bit exponents as signed integers", "[shader][glsl]") {
	shader::Program program = test::CompileShader("ldexp_exponent_widths");
	struct Case {
		float x;
		int32_t e;
		int64_t big;
	};
	const Case cases[8] = {
	    {1.5f, -3, 2},   {1.5f, 5, -(int64_t{1} << 32) + 3},
	    {-2.0f, -1, 0},  {1.0f, -100, 1},
	    {3.0f, 127, 4},  {0.75f, -128, -5},
	    {1.0f, 200, 10}, {1.0f, -200, -1},
	};
	std::vector<uint32_t> in(32), out(48, 0xdeadbeef);
	for (uint32_t i = 0; i < 8; ++i) {
		in[4 * i] = std::bit_cast<uint32_t>(cases[i].x);
		in[4 * i + 1] = static_cast<uint32_t>(cases[i].e);
		in[4 * i + 2] = static_cast<uint32_t>(cases[i].big);
		in[4 * i + 3] = static_cast<uint32_t>(static_cast<uint64_t>(cases[i].big) >> 32);
	}
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 8; ++i) {
		INFO("invocation " << i);
		const Case& c = cases[i];
		const int e8 = static_cast<int8_t>(c.e), e16 = static_cast<int16_t>(c.e);
		const int big = static_cast<int>(std::clamp<int64_t>(c.big, -1000, 1000));
		CHECK(std::bit_cast<float>(out[6 * i]) == std::ldexp(c.x, e8));
		CHECK(std::bit_cast<float>(out[6 * i + 1]) == std::ldexp(c.x, e16));
		CHECK(std::bit_cast<float>(out[6 * i + 2]) == std::ldexp(c.x, big));
		const float half = std::ldexp(c.x, e8);  // exact in binary16 where it is in its normal range
		if (std::fabs(half) >= std::ldexp(1.0f, -14) && std::fabs(half) <= 65504.0f)
			CHECK(std::bit_cast<float>(out[6 * i + 3]) == half);
		const uint64_t d = uint64_t{out[6 * i + 5]} << 32 | out[6 * i + 4];
		CHECK(std::bit_cast<double>(d) == std::ldexp(double{c.x}, e16));
	}
}

TEST_CASE("FPRoundingMode RTZ conversions to binary16 truncate, OpQuantizeToF16 flushes subnormals", "[shader][half]") {
	shader::Program program = test::CompileShader("half_rounding");
	const float inf = INFINITY;
	struct Case {
		float x, x_toward_zero, x_quantized;
		double d, d_toward_zero;
	};
	const Case cases[8] = {
	    {1.000732421875f, 1.0f, 1.0009765625f, 1 + 0x1p-10 - 0x1p-40, 1.0},  // a float first would round up
	    {-1.000732421875f, -1.0f, -1.0009765625f, -(1 + 0x1p-10 - 0x1p-40), -1.0},
	    {70000.0f, 65504.0f, inf, 1e10, 65504.0},
	    {-1e6f, -65504.0f, -inf, -double{inf}, -double{inf}},
	    {inf, inf, inf, 0.3, 0.2998046875},
	    {0x1p-16f, 0x1p-16f, 0.0f, 0x1p-16 + 0x1p-40, 0x1p-16},  // a binary16 subnormal
	    {0x3p-26f, 0.0f, 0.0f, -0x3p-26, -0.0},
	    {0.3f, 0.2998046875f, 0.300048828125f, 65519.99, 65504.0},
	};
	std::vector<uint32_t> in(24), out(24, 0xdeadbeef);
	for (uint32_t i = 0; i < 8; ++i) {
		in[3 * i] = std::bit_cast<uint32_t>(cases[i].x);
		const uint64_t d = std::bit_cast<uint64_t>(cases[i].d);
		in[3 * i + 1] = static_cast<uint32_t>(d);
		in[3 * i + 2] = static_cast<uint32_t>(d >> 32);
	}
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 8; ++i) {
		INFO("invocation " << i);
		CHECK(std::bit_cast<float>(out[3 * i]) == cases[i].x_toward_zero);
		CHECK(std::bit_cast<float>(out[3 * i + 1]) == static_cast<float>(cases[i].d_toward_zero));
		CHECK(std::signbit(std::bit_cast<float>(out[3 * i + 1])) == std::signbit(cases[i].d_toward_zero));
		CHECK(std::bit_cast<float>(out[3 * i + 2]) == cases[i].x_quantized);  // +0 or -0 for subnormals
	}
}

TEST_CASE("sinh and cosh overflow where exp does as their inherited precision says", "[shader][glsl]") {
	// Vulkan: sinh and cosh inherit their precision from (exp(x) -/+ exp(-x))
	// * 0.5; past |x| = 88.72 exp overflows, so they are infinite there
	// although the true values are finite up to 89.4 (CTS
	// glsl.builtin.precision.{sinh,cosh}.highp).
	const float x[8] = {89.0f, -89.0f, 89.41f, 88.0f, -88.0f, 1.5f, INFINITY, NAN};
	std::vector<uint32_t> in(8), sinh_out(8), cosh_out(8), unused(8, 0);
	for (int i = 0; i < 8; ++i) in[i] = std::bit_cast<uint32_t>(x[i]);
	shader::GetAluKernel(shader::Op::kSinh)(sinh_out.data(), in.data(), unused.data(), unused.data(), unused.data(), 8);
	shader::GetAluKernel(shader::Op::kCosh)(cosh_out.data(), in.data(), unused.data(), unused.data(), unused.data(), 8);
	auto f = [](uint32_t bits) { return std::bit_cast<float>(bits); };
	CHECK(f(sinh_out[0]) == INFINITY);
	CHECK(f(sinh_out[1]) == -INFINITY);
	CHECK(f(sinh_out[2]) == INFINITY);
	CHECK(f(cosh_out[0]) == INFINITY);
	CHECK(f(cosh_out[1]) == INFINITY);
	CHECK(f(cosh_out[2]) == INFINITY);
	// Below the overflow, the accurate values.
	for (int i = 3; i < 6; ++i) {
		INFO("x = " << x[i]);
		CHECK(f(sinh_out[i]) == std::sinh(x[i]));
		CHECK(f(cosh_out[i]) == std::cosh(x[i]));
	}
	CHECK(f(sinh_out[6]) == INFINITY);
	CHECK(std::isnan(f(sinh_out[7])));
	CHECK(std::isnan(f(cosh_out[7])));
}

TEST_CASE("f16vec2 constants bitcast to a uint hold their binary16 bits", "[shader][half]") {
	shader::Program program = test::CompileShader("half_constant_pack");
	std::vector<float> in{1.0f, 0.0f, -0.0f, 0.25f};
	std::vector<uint32_t> out(16, 0xdeadbeef), as_float(8, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	bindings.Bind(2, as_float);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	const uint32_t computed[4] = {0xbc003c00u, 0xbc000000u, 0xbc008000u, 0xbc003400u};
	for (uint32_t i = 0; i < 4; ++i) {
		INFO("invocation " << i);
		CHECK(out[i] == computed[i]);
		CHECK(out[4 + i] == 0xbc000000u);
		CHECK(out[8 + i] == 0xc0003800u);
		CHECK(out[12 + i] == (i == 1 || i == 2 ? 0xbc000000u : 7u));
		CHECK(as_float[i] == 0xbc000000u);
		CHECK(as_float[4 + i] == (i == 1 || i == 2 ? 0xbc000000u : computed[i]));
	}
}
