// 64-bit floats against host doubles: arithmetic (correctly rounded, as
// Vulkan requires for +, -, *, / on doubles), the GLSL.std.450 functions
// allowed on doubles, comparisons with NaN and infinities, denormals,
// conversions at the limits, packDouble2x32/unpackDouble2x32.
#include <bit>
#include <cmath>
#include <limits>

#include "run_shader.h"

using namespace tessera;

namespace {

// Equal bits, or both NaN.
bool Same(double a, double b) {
	return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

double Clamp(double x, double lo, double hi) { return std::fmin(std::fmax(x, lo), hi); }

}  // namespace

TEST_CASE("64-bit floats: arithmetic, GLSL.std.450, comparisons, conversions at the limits",
          "[shader][types][float64]") {
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("float64" + variant);
	const uint32_t n = 32, outputs = 36, outputs32 = 8;
	const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
	const double denormal = std::numeric_limits<double>::denorm_min(), max = std::numeric_limits<double>::max();
	const double edges[][2] = {
	    {nan, 1.0},       {inf, 2.0},       {-inf, -inf},   {denormal, 2.2250738585072014e-308},
	    {max, 0.5},       {-0.0, 0.0},      {2.5, -3.5},    {0.5, 1.5},
	    {-2.5, 7.0},      {1e300, 1e-300},  {9.3e18, -1.0}, {-9.3e18, 2e19},
	    {3.0, 3.0},       {1.0 / 3.0, 0.1}, {-1.5, -0.0},   {123456789.987, 4.5e9},
	    {1e-310, 3e-320}, {-max, max},      {0.1, nan},     {4503599627370497.0, 65519.999},
	};
	std::vector<double> in(2 * n);
	uint64_t seed = 12345;
	for (uint32_t i = 0; i < n; ++i) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		in[2 * i] = static_cast<double>(static_cast<int64_t>(seed)) / 1e9 / (1 + i % 7);
		in[2 * i + 1] = static_cast<double>(seed >> 20) / 3e7 - 1e4;
	}
	for (size_t k = 0; k < std::size(edges); ++k) in[2 * k] = edges[k][0], in[2 * k + 1] = edges[k][1];
	std::vector<double> out(n * outputs, -12345.0);
	std::vector<uint32_t> out32(n * outputs32, 0xdeadbeefu);
	std::vector<double> mats(2 * 64 * 12, -1.0);  // dmat3: 3 columns (or rows) of 4 doubles (std430)
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	bindings.Bind(2, out32);
	bindings.Bind(3, mats);
	REQUIRE(test::Dispatch(program, bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		double x = in[2 * i], y = in[2 * i + 1];
		INFO("invocation " << i << " x " << x << " y " << y);
		const double* o = &out[i * outputs];
		CHECK(Same(o[0], x + y));
		CHECK(Same(o[1], x - y));
		CHECK(Same(o[2], x * y));
		CHECK(Same(o[3], x / y));
		CHECK(Same(o[4], x - y * std::floor(x / y)));
		CHECK(Same(o[5], std::sqrt(std::fabs(x))));
		CHECK(Same(o[6], 1.0 / std::sqrt(std::fabs(y))));
		CHECK(Same(o[7], std::floor(x)));
		CHECK(Same(o[8], std::ceil(x)));
		CHECK(Same(o[9], std::trunc(x)));
		CHECK(Same(o[10], std::round(x)));
		CHECK(Same(o[11], std::nearbyint(x)));
		CHECK(Same(o[12], x - std::floor(x)));
		double sign = x > 0 ? 1.0 : x < 0 ? -1.0 : x == x ? x : 0.0;  // FSign keeps a zero's sign; NaN gives +0
		CHECK(Same(o[13], sign + std::fabs(y)));
		CHECK(std::bit_cast<uint64_t>(o[14]) == (std::bit_cast<uint64_t>(x) ^ (1ull << 63)));
		// FMin/FMax of -0 and +0 may return either zero (GLSL.std.450), and
		// so may the host's fmin/fmax, so the sign of a zero sum is free.
		double min_max = std::fmin(x, y) + std::fmax(x, y) * 2.0;
		CHECK((Same(o[15], min_max) || (o[15] == 0.0 && min_max == 0.0)));
		CHECK(Same(o[16], Clamp(x, -1.0, 1.0)));
		CHECK(Same(o[17], x + (y - x) * 0.25));
		CHECK(Same(o[18], x * y + 1.0));
		double t = Clamp((x - -2.0) / (3.0 - -2.0), 0.0, 1.0);
		CHECK(Same(o[19], (x < y ? 0.0 : 1.0) + t * t * (3.0 - (t + t))));
		CHECK(Same(o[20], std::ldexp(x, static_cast<int>(i) - 8)));
		int e = 0;
		double mantissa = std::isfinite(x) ? std::frexp(x, &e) : x;
		CHECK(Same(o[21], mantissa));
		double whole = 0;
		CHECK(Same(o[22], std::modf(x, &whole)));  // the fraction keeps x's sign and is 0 for infinities
		CHECK(Same(o[23], std::trunc(x)));
		CHECK(Same(o[24], static_cast<double>(static_cast<float>(x))));
		CHECK(Same(o[25], static_cast<double>(static_cast<_Float16>(y))));  // rounded once, to nearest even
		CHECK(Same(o[26], static_cast<double>(static_cast<int32_t>(Clamp(x, -2147483648.0, 2147483647.0))) +
		                      static_cast<double>(static_cast<uint32_t>(Clamp(y, 0.0, 4294967295.0)))));
		CHECK(Same(o[27], static_cast<double>(static_cast<int64_t>(Clamp(x, -9.2e18, 9.2e18)))));
		CHECK(Same(o[28], static_cast<double>(static_cast<uint64_t>(Clamp(y, 0.0, 1.8e19))) +
		                      static_cast<double>(static_cast<int32_t>(i) - 8) + static_cast<double>(i)));
		CHECK(std::bit_cast<uint64_t>(o[29]) == ((uint64_t{0x3ff00000u + i} << 32) | (i * 0x9E3779B9u)));
		CHECK(Same(o[30], x * y + y * x + 0.5));
		CHECK(Same(o[31], std::sqrt(x * x + y * y) + std::sqrt((x - y) * (x - y) + 1.0)));
		// Determinant by Laplace expansion along the first row; inverse = adjugate / determinant.
		CHECK(Same(o[32], x * (3.0 * 4.0 - x * -1.0) - y * (1.0 * 4.0 - x * 2.0) + 0.5 * (1.0 * -1.0 - 3.0 * 2.0)));
		const double m3[3][3] = {{x, 1.0, 2.0}, {y, 3.0, -1.0}, {0.5, x, 4.0}};  // [column][row]
		for (uint32_t c = 0; c < 3; ++c)
			for (uint32_t r = 0; r < 3; ++r) {
				CHECK(Same(mats[i * 12 + c * 4 + r], m3[c][r]));
				CHECK(Same(mats[(64 + i) * 12 + r * 4 + c], m3[c][r]));  // row-major
			}
		double reciprocal = 1.0 / (x * 2.0 - 1.0 * y);
		CHECK(Same(o[33], 2.0 * reciprocal + (-1.0 * reciprocal) * 10.0));
		CHECK(Same(o[34], -y * reciprocal + (x * reciprocal) * 10.0));
		CHECK(Same(o[35], 2.0 * 1.0 + -1.0 * x + 4.0 * y));
		const uint32_t* w = &out32[i * outputs32];
		uint64_t bits = std::bit_cast<uint64_t>(x);
		CHECK(w[0] == static_cast<uint32_t>(bits));
		CHECK(w[1] == static_cast<uint32_t>(bits >> 32));
		uint32_t compare = (x < y) | (x <= y) << 1 | (x == y) << 2 | !(x == y) << 3 | (x > y) << 4 | (x >= y) << 5 |
		                   std::isnan(x) << 6 | std::isinf(x) << 7 | !(x < y) << 8;
		CHECK(w[2] == compare);
		CHECK(w[3] == static_cast<uint32_t>(e));
		CHECK(w[4] == std::bit_cast<uint32_t>(static_cast<float>(y)));
		CHECK(w[5] == std::bit_cast<uint16_t>(static_cast<_Float16>(x)));
		CHECK(w[6] == static_cast<uint32_t>(static_cast<int32_t>(Clamp(y, -1e9, 1e9))));
		double h = x * (x * 2.0) + 1.0 * (y * 2.0);
		CHECK(w[7] == ((h == h ? 1u : 0u) | 2u));
	}
}

TEST_CASE("subgroup broadcasts and shuffles move both words of 64-bit values", "[shader][subgroup][float64][int64]") {
	shader::Program program = test::CompileShader("subgroup64");
	const uint32_t n = 64;
	std::vector<uint64_t> in(2 * n), out(4 * n, 0);
	for (uint32_t i = 0; i < n; ++i) {
		in[i] = 0x0123456789abcdefull * (i + 1) ^ (uint64_t{i} << 60);
		in[n + i] = std::bit_cast<uint64_t>(1.0 / (i + 1) + 1e10 * i);
	}
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		INFO("invocation " << i);
		uint32_t first = i / 32 * 32;  // subgroups of 32 lanes
		CHECK(out[i * 4 + 0] == in[first + 3]);
		CHECK(out[i * 4 + 1] == in[i ^ 1]);
		CHECK(out[i * 4 + 2] == in[n + first + ((i + 5) & 31)]);
		CHECK(out[i * 4 + 3] == in[n + first]);
	}
}
