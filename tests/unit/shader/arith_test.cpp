#include <bit>
#include <cmath>

#include "run_shader.h"

using namespace tessera;

namespace {

// The host's answer for one invocation of shaders/arith.comp.
std::vector<uint32_t> Expected(int32_t x, int32_t y, float fx, float fy) {
	uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
	auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
	std::vector<uint32_t> o(32);
	o[0] = ux + uy;
	o[1] = ux - uy;
	o[2] = ux * uy;
	o[3] = y != 0 ? static_cast<uint32_t>(x / y) : 0u;
	// glslang emits OpSMod for %: the remainder takes the divisor's sign.
	int32_t r = y != 0 ? x % y : 0;
	o[4] = static_cast<uint32_t>((r != 0 && ((r < 0) != (y < 0))) ? r + y : r);
	o[5] = uy ? ux / uy : 0u;
	o[6] = uy ? ux % uy : 0u;
	o[7] = ux & uy;
	o[8] = ux | uy;
	o[9] = ux ^ uy;
	o[10] = ~ux;
	o[11] = ux << (uy & 31u);
	o[12] = ux >> (uy & 31u);
	o[13] = static_cast<uint32_t>(x >> (y & 31));
	o[14] = uint32_t(x < y) | (uint32_t(ux < uy) << 1) | (uint32_t(x == y) << 2) | (uint32_t(x >= y) << 3);
	o[15] = bits(fx + fy);
	o[16] = bits(fx - fy);
	o[17] = bits(fx * fy);
	o[18] = bits(fx / fy);
	o[19] = uint32_t(fx < fy) | (uint32_t(fx == fy) << 1) | (uint32_t(fx >= fy) << 2);
	o[20] = static_cast<uint32_t>(static_cast<int32_t>(fx));
	o[21] = bits(static_cast<float>(x));
	o[22] = bits(static_cast<float>(ux));
	o[23] = 0u - ux;
	o[24] = bits(-fx);
	o[25] = static_cast<uint32_t>(std::min(x, y));
	o[26] = std::max(ux, uy);
	o[27] = x < 0 ? 0u - ux : ux;
	o[28] = static_cast<uint32_t>(__builtin_popcount(ux));
	o[29] = ux ? 31u - static_cast<uint32_t>(__builtin_clz(ux)) : ~0u;
	o[30] = (ux >> 4) & 0xffu;
	o[31] = bits(fx - fy * std::floor(fx / fy));
	return o;
}

}  // namespace

TEST_CASE("integer, float, bit, comparison and conversion ops match the host", "[shader][arith]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("arith" + variant);
	const uint32_t n = 64;
	std::vector<int32_t> a(n), b(n);
	std::vector<float> f(2 * n);
	for (uint32_t i = 0; i < n; ++i) {
		a[i] = static_cast<int32_t>(i * 2654435761u) >> (i % 13);
		b[i] = (i % 5 == 0) ? 0 : static_cast<int32_t>((i * 40503u) % 97) - 48;
		f[2 * i] = static_cast<float>(a[i] % 1000) * 0.37f;
		f[2 * i + 1] = static_cast<float>(b[i]) * 1.25f + 0.5f;
	}
	a[3] = INT32_MIN, b[3] = -1;  // wraps, must not trap
	std::vector<uint32_t> out(n * 32, 0xcdcdcdcdu);
	test::Bindings bindings;
	bindings.Bind(0, a);
	bindings.Bind(1, b);
	bindings.Bind(2, f);
	bindings.Bind(3, out);
	REQUIRE(test::Dispatch(program, bindings, n / 32) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		if (i == 3) continue;  // INT_MIN / -1 is undefined in SPIR-V; only "no trap" is checked
		std::vector<uint32_t> expected = Expected(a[i], b[i], f[2 * i], f[2 * i + 1]);
		for (uint32_t k = 0; k < 32; ++k) {
			INFO("invocation " << i << " slot " << k);
			REQUIRE(out[i * 32 + k] == expected[k]);
		}
	}
}
