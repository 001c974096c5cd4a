// The validator follows the device's enabled features (Vulkan 1.3 §15.6.4):
// a layout is refused without the feature that allows it and accepted, and
// run at its decorated offsets, with it.
#include "../shader/run_shader.h"
#include "spirv/compile.h"

using namespace tessera;

namespace {

std::vector<float> RunWithRules(const char* name, const spirv::ValidationRules& rules, std::vector<float> in,
                                size_t out_count) {
	spirv::CompileOptions options;
	options.rules = rules;
	auto result = spirv::Compile(test::LoadSpirv(name), spirv::Stage::kCompute, "main", {}, options);
	if (!result) FAIL(name << ": " << result.error().message);
	std::vector<float> out(out_count, 0.0f);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(result.value(), bindings, 1) == shader::RunStatus::kSuccess);
	return out;
}

}  // namespace

TEST_CASE("a std430 uniform block needs uniformBufferStandardLayout", "[spirv][validation]") {
	std::vector<uint32_t> words = test::LoadSpirv("ubo_std430");
	CHECK(spirv::Validate(words).find("relaxed uniform buffer layout") != std::string::npos);
	spirv::ValidationRules rules;
	rules.uniform_buffer_standard_layout = true;
	CHECK(spirv::Validate(words, rules).empty());
	CHECK(RunWithRules("ubo_std430", rules, {1, 2, 3, 4}, 4) == std::vector<float>{2, 4, 6, 8});
}

TEST_CASE("a vector straddling 16 bytes needs scalarBlockLayout", "[spirv][validation]") {
	std::vector<uint32_t> words = test::LoadSpirv("scalar_layout");
	CHECK(spirv::Validate(words).find("improperly straddling") != std::string::npos);
	spirv::ValidationRules standard;
	standard.uniform_buffer_standard_layout = true;  // does not allow scalar layout
	CHECK(!spirv::Validate(words, standard).empty());
	spirv::ValidationRules rules;
	rules.scalar_block_layout = true;
	CHECK(spirv::Validate(words, rules).empty());
	CHECK(RunWithRules("scalar_layout", rules, {5, 1, 2, 3, 4}, 5) == std::vector<float>{1, 2, 3, 4, 5});
}

TEST_CASE("a function marked DontInline is inlined all the same and runs", "[spirv]") {
	// SPIR-V 1.6 §3.24: DontInline is a hint; the engine runs one inlined
	// body (CTS spirv_assembly function controls, graphicsfuzz *-dontinline).
	auto result = spirv::Compile(test::LoadSpirv("dont_inline"), spirv::Stage::kCompute, "main");
	if (!result) FAIL(result.error().message);
	std::vector<uint32_t> out(8, 0);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(result.value(), bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(out == std::vector<uint32_t>{1, 4, 7, 10, 13, 16, 19, 22});
}
