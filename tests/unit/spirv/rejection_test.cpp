#include "../shader/dispatch.h"
#include "spirv/compile.h"

using namespace tessera;

namespace {
std::string CompileError(const std::string& name) {
	auto result = spirv::Compile(test::LoadSpirv(name), spirv::Stage::kCompute, "main");
	REQUIRE(!result);
	return result.error().message;
}
}  // namespace

TEST_CASE("subgroup operations are rejected naming the capability", "[spirv][reject]") {
	std::string message = CompileError("subgroup");
	INFO(message);
	REQUIRE(message.find("capability GroupNonUniform") != std::string::npos);
}

TEST_CASE("storage images are rejected with a message", "[spirv][reject]") {
	std::string message = CompileError("image");
	INFO(message);
	REQUIRE(message.find("image") != std::string::npos);
}

TEST_CASE("every corpus shader that compiles has a valid program", "[spirv]") {
	for (const char* name : {"saxpy", "arith", "control", "reduce", "atomics", "robust", "spec", "glsl450", "matrix",
	                         "misc", "phi_swap", "forever"}) {
		INFO(name);
		auto result = spirv::Compile(test::LoadSpirv(name), spirv::Stage::kCompute, "main");
		REQUIRE(result);
		const shader::Program& program = result.value();
		REQUIRE(!program.blocks.empty());
		for (const shader::Inst& inst : program.insts) {
			REQUIRE(inst.dst < program.register_count);
			REQUIRE(inst.a < program.register_count);
			if (inst.op >= shader::Op::kAluCount) REQUIRE(inst.region < program.regions.size());
		}
		for (const shader::Edge& edge : program.edges) REQUIRE(edge.block < program.blocks.size());
		REQUIRE(!program.Dump().empty());
	}
}
