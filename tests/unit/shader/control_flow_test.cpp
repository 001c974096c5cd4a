#include "run_shader.h"

using namespace tessera;

namespace {

void HostControl(uint32_t x, uint32_t* o) {
	if (x == 7u) {
		o[3] = 0xdeadu;
		return;
	}
	uint32_t sum = 0;
	for (uint32_t a = 0; a < (x & 7u); ++a) {
		if (a == 5u) break;
		for (uint32_t b = 0; b < a + (x >> 3); ++b) {
			if (((a + b) & 1u) == 1u) continue;
			sum += a * 10u + b;
			if (sum > 200u) break;
		}
	}
	o[0] = sum;
	uint32_t s = 0;
	switch (x % 6u) {
	case 0: s += 1u; [[fallthrough]];
	case 1: s += 10u; break;
	case 2:
	case 3: s += 100u; [[fallthrough]];
	case 4: s += 1000u; break;
	default: s = 5u; break;
	}
	o[1] = s;
	uint32_t n = x, steps = 0;
	while (n != 1u && n != 0u) {
		n = (n & 1u) ? 3u * n + 1u : n / 2u;
		steps++;
	}
	o[2] = steps;
	o[3] = x > 40u ? x - 40u : 40u - x;
}

}  // namespace

TEST_CASE("divergent loops, breaks, continues, switch fall-through and early return reconverge", "[shader][control]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("control" + variant);
	const uint32_t n = 256;
	std::vector<uint32_t> in(n);
	for (uint32_t i = 0; i < n; ++i) in[i] = (i * 37u + 11u) % 97u;
	in[5] = 7;  // takes the early return
	for (uint32_t width : {0u, 1u, 7u, 64u}) {
		std::vector<uint32_t> out(n * 4, 0x55u), expected(n * 4, 0x55u);
		for (uint32_t i = 0; i < n; ++i) HostControl(in[i], &expected[i * 4]);
		test::Bindings bindings;
		bindings.Bind(0, in);
		bindings.Bind(1, out);
		shader::RunOptions options;
		options.lane_group_width = width;
		REQUIRE(test::Dispatch(program, bindings, n / 64, 1, 1, options) == shader::RunStatus::kSuccess);
		for (uint32_t k = 0; k < n * 4; ++k) {
			INFO("lane group width " << width << " slot " << k << " input " << in[k / 4]);
			REQUIRE(out[k] == expected[k]);
		}
	}
}

TEST_CASE("phis that swap on a back edge are copied in parallel", "[shader][control]") {
	shader::Program program = test::CompileShader("phi_swap");
	std::vector<uint32_t> out(8);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 8; ++i) REQUIRE(out[i] == (i % 2 ? 200u : 100u));
}

TEST_CASE("a shader that never finishes reports device lost instead of hanging", "[shader][control]") {
	shader::Program program = test::CompileShader("forever");
	std::vector<uint32_t> out(16);
	test::Bindings bindings;
	bindings.Bind(0, out);
	shader::RunOptions options;
	options.max_block_steps = 10000;
	REQUIRE(test::Dispatch(program, bindings, 1, 1, 1, options) == shader::RunStatus::kDeviceLost);
	REQUIRE(out[1] > 0);
}

TEST_CASE("compute built-ins are right whether workgroups share lane groups or not", "[shader][builtins]") {
	shader::Program program = test::CompileShader("ids");
	const uint32_t gx = 5, gy = 3, gz = 2, sx = 15, sy = 6, total = sx * sy * gz;
	for (uint32_t width : {0u, 1u, 4u, 1000u}) {
		std::vector<uint32_t> out(total * 8, 0xffffffffu);
		test::Bindings bindings;
		bindings.Bind(0, out);
		shader::RunOptions options;
		options.lane_group_width = width;
		REQUIRE(test::Dispatch(program, bindings, gx, gy, gz, options) == shader::RunStatus::kSuccess);
		for (uint32_t z = 0; z < gz; ++z)
			for (uint32_t y = 0; y < sy; ++y)
				for (uint32_t x = 0; x < sx; ++x) {
					const uint32_t* o = &out[((z * sy + y) * sx + x) * 8];
					INFO("width " << width << " invocation " << x << "," << y << "," << z);
					REQUIRE(o[0] == x);
					REQUIRE(o[1] == y);
					REQUIRE(o[2] == z);
					REQUIRE(o[3] == (y % 2) * 3 + x % 3);
					REQUIRE(o[4] == x / 3);
					REQUIRE(o[5] == y / 2);
					REQUIRE(o[6] == z);
					REQUIRE(o[7] == x % 3 + 10 * (y % 2));
				}
	}
}

TEST_CASE("DeviceIndex is 0: the device is the only one of its device group", "[shader][builtins]") {
	// Vulkan 1.3 built-in DeviceIndex: the index of the physical device
	// running the invocation; Tessera's device groups have one.
	shader::Program program = test::CompileShader("device_index");
	std::vector<uint32_t> out(8, 0xffffffffu);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 2) == shader::RunStatus::kSuccess);
	for (uint32_t value : out) REQUIRE(value == 7u);
}
