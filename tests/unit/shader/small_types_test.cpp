#include <bit>
#include <cmath>

#include "run_shader.h"

using namespace tessera;

namespace {
// binary32 -> binary16, round to nearest even (normal range only: enough here).
uint16_t Half(float f) {
	uint32_t x = std::bit_cast<uint32_t>(f);
	uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
	if (abs == 0) return static_cast<uint16_t>(sign);
	uint32_t half = (abs - 0x38000000u) >> 13, rest = abs & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
	return static_cast<uint16_t>(sign | half);
}
float Float(uint16_t h) {
	uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
	if (exponent == 0) return std::bit_cast<float>(sign) + (sign ? -1.0f : 1.0f) * mantissa * std::ldexp(1.0f, -24);
	return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}
}  // namespace

TEST_CASE("8/16-bit integers wrap at their width, halves round, buffers use natural sizes", "[shader][types]") {
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("small_types" + variant);
	const uint32_t n = 32;
	std::vector<uint16_t> halves(n * 2), out_half(n, 0xdead), out_short(n * 2, 0xdead);
	std::vector<int16_t> shorts(n);
	std::vector<uint8_t> bytes(n), out_byte(n + 4, 0xcd);
	std::vector<uint32_t> out(n * 6, 0xdeadbeef);
	for (uint32_t i = 0; i < n; ++i) {
		halves[2 * i] = Half(static_cast<float>(i) * 0.5f);
		halves[2 * i + 1] = Half(1.5f);
		shorts[i] = static_cast<int16_t>(static_cast<int32_t>(i) * 1234 - 20000);
		bytes[i] = static_cast<uint8_t>(i * 9u);
	}
	test::Bindings bindings;
	bindings.Bind(0, halves);
	bindings.Bind(1, shorts);
	bindings.Bind(2, bytes);
	bindings.Bind(3, out_half);
	bindings.Bind(4, out_short);
	bindings.buffers[{0, 5, 0}] = {out_byte.data(), n};  // the 4 bytes after stay untouched
	bindings.Bind(6, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	const float tenth = Float(Half(0.1f));
	for (uint32_t i = 0; i < n; ++i) {
		INFO("invocation " << i);
		float product = static_cast<float>(i) * 0.75f;  // exact in binary16
		CHECK(out_half[i] == Half(product + tenth));
		int16_t x = shorts[i];
		CHECK(static_cast<int16_t>(out_short[2 * i]) == static_cast<int16_t>(x + 30000));
		CHECK(static_cast<int16_t>(out_short[2 * i + 1]) == static_cast<int16_t>(x / -7));
		CHECK(out_byte[i] == static_cast<uint8_t>(bytes[i] * 3 + 1));
		CHECK(out[i * 6 + 0] == static_cast<uint32_t>(static_cast<int32_t>(x)));
		CHECK(out[i * 6 + 1] == (x < 0 ? 1u : 0u) + ((x >> 3) < -1000 ? 2u : 0u));
		CHECK(out[i * 6 + 2] == (uint32_t{Half(static_cast<float>(i))} | uint32_t{Half(3.0f)} << 16));
		CHECK(out[i * 6 + 3] == static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(bytes[i]))));
		CHECK(out[i * 6 + 4] == static_cast<uint8_t>(bytes[i] * 3));
		CHECK(out[i * 6 + 5] == (static_cast<uint16_t>(static_cast<uint16_t>(x) * 3) > 30000 ? 1u : 0u));
	}
	for (uint32_t k = n; k < n + 4; ++k) CHECK(out_byte[k] == 0xcd);
}

TEST_CASE("a half NaN widened to a register and stored again keeps its payload (quieted)", "[shader][types]") {
	shader::Program program = test::CompileShader("small_types");
	const uint32_t n = 32;
	std::vector<uint16_t> halves(n * 2, Half(1.0f)), out_half(n, 0xdead), out_short(n * 2, 0xdead);
	std::vector<int16_t> shorts(n, 0);
	std::vector<uint8_t> bytes(n, 0), out_byte(n + 4, 0xcd);
	std::vector<uint32_t> out(n * 6, 0xdeadbeef);
	halves[0] = 0xfedc;  // a quiet NaN with a payload (what the CTS specializes a float16 constant to)
	halves[2] = 0x7c01;  // a signaling NaN: quieted, payload kept
	test::Bindings bindings;
	bindings.Bind(0, halves);
	bindings.Bind(1, shorts);
	bindings.Bind(2, bytes);
	bindings.Bind(3, out_half);
	bindings.Bind(4, out_short);
	bindings.buffers[{0, 5, 0}] = {out_byte.data(), n};
	bindings.Bind(6, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	// o[6i + 2] = packFloat2x16(v * 2): NaN times 2 is the NaN itself.
	CHECK((out[2] & 0xffffu) == 0xfedcu);
	CHECK((out[6 + 2] & 0xffffu) == 0x7e01u);
}

TEST_CASE("shift amounts and bit-field offsets and counts may be wider than the value", "[shader][types]") {
	// A 64-bit amount of a 32-bit value made the translator build 64-bit
	// results (CTS spirv_assembly.type.*, 1,104 cases, and
	// maint9_vectorization.*); only the amount's low bits count.
	shader::Program program = test::CompileShader("mixed_width_amounts");
	std::vector<uint32_t> in = {3, 4, 0xABCD1234u, 8, 8, uint32_t(-64), 2, 0, 0xF, 4, 4};
	std::vector<uint32_t> out(4, 0xdeadbeefu);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(out[0] == 48u);
	CHECK(out[1] == 0x12u);
	CHECK(out[2] == uint32_t(-16));
	CHECK(out[3] == 0xF0u);
}
