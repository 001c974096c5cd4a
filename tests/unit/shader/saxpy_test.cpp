#include "run_shader.h"

using namespace tessera;

TEST_CASE("saxpy computes a*x+y for every element and leaves the tail alone", "[shader][spirv]") {
	// SPIR-V 1.6 and SPIR-V 1.0 (storage buffers as Uniform + BufferBlock).
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("saxpy" + variant);
	REQUIRE(program.workgroup_size[0] == 64);
	const uint32_t n = 1000;
	std::vector<float> x(1024), y(1024);
	for (uint32_t i = 0; i < 1024; ++i) x[i] = static_cast<float>(i) * 0.5f, y[i] = 3.0f - static_cast<float>(i);
	std::vector<float> expected = y;
	for (uint32_t i = 0; i < n; ++i) expected[i] = 2.5f * x[i] + y[i];
	test::Bindings bindings;
	bindings.Bind(0, x);
	bindings.Bind(1, y);
	struct {
		float a;
		uint32_t n;
	} push{2.5f, n};
	bindings.Push(push);
	REQUIRE(test::Dispatch(program, bindings, 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 1024; ++i) REQUIRE(y[i] == expected[i]);
}
