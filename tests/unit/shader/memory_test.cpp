#include "run_shader.h"

using namespace tessera;

TEST_CASE("a workgroup reduction through shared memory and barriers sums each group", "[shader][memory]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("reduce" + variant);
	REQUIRE(program.uses_barriers);
	const uint32_t groups = 8;
	std::vector<uint32_t> in(groups * 256), sums(groups, 0);
	for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7u + 3u;
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, sums);
	shader::RunOptions options;
	options.lane_group_width = 16;  // ignored: barriers need the whole workgroup
	REQUIRE(test::Dispatch(program, bindings, groups, 1, 1, options) == shader::RunStatus::kSuccess);
	for (uint32_t g = 0; g < groups; ++g) {
		uint32_t expected = 0;
		for (uint32_t i = 0; i < 256; ++i) expected += in[g * 256 + i];
		REQUIRE(sums[g] == expected);
	}
}

TEST_CASE("atomics on buffers and shared memory count every invocation", "[shader][memory]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("atomics" + variant);
	const uint32_t groups = 6, invocations = groups * 128;
	std::vector<uint32_t> counters(6 + groups, 0);
	counters[2] = 0x7fffffffu;  // minimum starts high
	test::Bindings bindings;
	bindings.Bind(0, counters);
	REQUIRE(test::Dispatch(program, bindings, groups) == shader::RunStatus::kSuccess);
	REQUIRE(counters[0] == invocations * (invocations - 1) / 2);
	REQUIRE(counters[1] == (invocations - 1) * 3);
	REQUIRE(static_cast<int32_t>(counters[2]) == -static_cast<int32_t>(invocations - 1));
	REQUIRE(counters[3] == 0xffffffffu);
	REQUIRE(counters[4] == 1u);
	REQUIRE(counters[5] >= 1u);
	REQUIRE(counters[5] <= invocations);
	for (uint32_t g = 0; g < groups; ++g) REQUIRE(counters[6 + g] == 256u);
}

TEST_CASE("robust buffer access: out-of-bounds loads read zero and stores are dropped", "[shader][memory]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("robust" + variant);
	std::vector<uint32_t> in(32), backing(64 + 8, 0xabababab);
	for (uint32_t i = 0; i < 32; ++i) in[i] = 100 + i;
	// Bind only the first 40 words of the output: stores past them must not land.
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.buffers[{0, 1, 0}] = {backing.data(), 40 * sizeof(uint32_t)};
	bindings.Push(uint32_t{20});
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 20; ++i) {
		uint32_t loaded = i + 20 < 32 ? in[i + 20] : 0u;
		REQUIRE(backing[i * 2] == loaded + 1u);
		REQUIRE(backing[i * 2 + 1] == 0u);
	}
	for (uint32_t k = 40; k < backing.size(); ++k) REQUIRE(backing[k] == 0xababababu);
}

TEST_CASE("Vulkan memory model scopes and semantics on barriers and atomics", "[shader][memory]") {
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("memory_model" + variant);
	std::vector<uint32_t> v(65, 0);
	test::Bindings bindings;
	bindings.Bind(0, v);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	REQUIRE(v[0] == 64u * 63u / 2u);
	for (uint32_t i = 1; i <= 64; ++i) REQUIRE(v[i] == 64u * 63u / 2u);  // after the barrier every add is done
}
