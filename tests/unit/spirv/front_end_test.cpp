#include <cmath>

#include "../shader/dispatch.h"
#include "spirv/compile.h"

using namespace tessera;

TEST_CASE("specialization constants set values and the workgroup size", "[spirv]") {
	struct {
		uint32_t size;
		uint32_t scale;
		uint32_t negate;
		float bias;
	} data{32, 3, 1, 0.25f};
	spirv::SpecializationEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
	spirv::Specialization spec{entries, {reinterpret_cast<const uint8_t*>(&data), sizeof(data)}};
	shader::Program program = test::CompileShader("spec", spec);
	REQUIRE(program.workgroup_size[0] == 32);
	std::vector<float> out(1024, 7.0f);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 4) == shader::RunStatus::kSuccess);
	for (uint32_t i = 1; i < 128; ++i) REQUIRE(out[i] == -(static_cast<float>(i * 3) + 0.25f));
	REQUIRE(out[1023] == 32.0f);

	shader::Program defaults = test::CompileShader("spec");
	REQUIRE(defaults.workgroup_size[0] == 1);
	std::vector<float> out2(1024, 7.0f);
	bindings.Bind(0, out2);
	REQUIRE(test::Dispatch(defaults, bindings, 8) == shader::RunStatus::kSuccess);
	for (uint32_t i = 1; i < 8; ++i) REQUIRE(out2[i] == static_cast<float>(i * 2) + 0.5f);
}

TEST_CASE("GLSL.std.450 functions, matrices and local arrays match the host", "[spirv][glsl]") {
	shader::Program program = test::CompileShader("glsl450");
	const uint32_t n = 32;
	std::vector<float> in(n * 4);
	for (uint32_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i) * 1.7f) * 3.0f;
	std::vector<float> uniforms(20);
	for (uint32_t k = 0; k < 16; ++k) uniforms[k] = static_cast<float>(k) * 0.5f - 2.0f;  // column-major
	for (uint32_t k = 0; k < 4; ++k) uniforms[16 + k] = static_cast<float>(k) + 0.125f;
	std::vector<float> out(n * 24);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, uniforms);
	bindings.Bind(2, out);
	REQUIRE(test::Dispatch(program, bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		const float* x = &in[i * 4];
		const float* o = &out[i * 24];
		INFO("invocation " << i);
		auto near = [](float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)); };
		CHECK(near(o[0], std::sqrt(std::fabs(x[0]))));
		CHECK(o[1] == std::floor(x[1]));
		CHECK(near(o[2], x[2] - std::floor(x[2])));
		CHECK(o[3] == std::fmin(std::fmax(x[3], -1.0f), 1.0f));
		CHECK(near(o[4], x[0] + (x[1] - x[0]) * 0.25f));
		CHECK(near(o[5], std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])));
		CHECK(near(o[6], x[0] + 2 * x[1] + 3 * x[2] + 4 * x[3]));
		CHECK(near(o[7], x[1]));    // cross(x, (0,0,1)).x = x.y
		CHECK(near(o[8], -x[0]));   // .y = -x.x
		float nx = x[0] + 0.001f, ny = x[1] + 0.001f, nz = x[2] + 0.001f;
		CHECK(near(o[9], nz / std::sqrt(nx * nx + ny * ny + nz * nz)));
		CHECK(near(o[10], std::sin(x[0])));
		CHECK(near(o[11], std::exp2(x[1] * 0.1f)));
		CHECK(near(o[12], std::pow(std::fabs(x[2]) + 1.0f, 1.5f)));
		float t = std::fmin(std::fmax(x[3] / 4.0f, 0.0f), 1.0f);
		CHECK(near(o[13], t * t * (3 - 2 * t)));
		CHECK(o[14] == (x[0] < 1.0f ? 0.0f : 1.0f));
		for (uint32_t r = 0; r < 4; ++r) {
			float e = uniforms[16 + r];
			for (uint32_t c = 0; c < 4; ++c) e += uniforms[c * 4 + r] * x[c];
			CHECK(near(o[15 + r], e));
		}
		CHECK(o[19] == static_cast<float>((i % 8) * (i % 8)) + x[0]);
		CHECK(near(o[20], std::atan2(x[1], x[0])));
		CHECK(o[21] == std::fmax(x[0], x[2]));
		CHECK(std::bit_cast<uint32_t>(o[22]) == 0xff804000u);
		CHECK(near(o[23], 1.0f / std::sqrt(std::fabs(x[3]) + 1.0f)));
	}
}

TEST_CASE("an unsupported capability is rejected with its name", "[spirv]") {
	auto result = spirv::Compile(test::LoadSpirv("float64"), spirv::Stage::kCompute, "main");
	REQUIRE(!result);
	INFO(result.error().message);
	REQUIRE(result.error().message.find("Float64") != std::string::npos);
}

TEST_CASE("malformed SPIR-V is rejected with a message, never a crash", "[spirv]") {
	std::vector<uint32_t> words = test::LoadSpirv("saxpy");
	SECTION("empty") { REQUIRE(!spirv::Compile({}, spirv::Stage::kCompute, "main")); }
	SECTION("bad magic") {
		words[0] = 0x12345678;
		auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
		REQUIRE(!result);
		REQUIRE(!result.error().message.empty());
	}
	SECTION("truncated") {
		for (size_t size : {size_t{3}, size_t{5}, words.size() / 2, words.size() - 1}) {
			std::vector<uint32_t> cut(words.begin(), words.begin() + size);
			REQUIRE(!spirv::Compile(cut, spirv::Stage::kCompute, "main"));
			REQUIRE(!spirv::Validate(cut).empty());
		}
	}
	SECTION("garbage after the header") {
		for (size_t k = 5; k < words.size(); k += 3) words[k] = static_cast<uint32_t>(k * 2654435761u);
		REQUIRE(!spirv::Compile(words, spirv::Stage::kCompute, "main"));
	}
	SECTION("valid module, wrong entry point name") {
		auto result = spirv::Compile(words, spirv::Stage::kCompute, "missing");
		REQUIRE(!result);
		REQUIRE(result.error().message.find("missing") != std::string::npos);
	}
	SECTION("valid") { REQUIRE(spirv::Validate(words).empty()); }
}
