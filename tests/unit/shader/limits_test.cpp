// What the front end refuses so that sizes cannot wrap around and the
// interpreter's scratch memory stays allocatable (found while fuzzing).
#include "run_shader.h"

using namespace tessera;

namespace {

std::string CompileError(const std::vector<uint32_t>& words) {
	auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
	return result ? std::string() : result.error().message;
}

}  // namespace

TEST_CASE("Front end limits: workgroup memory, private memory, workgroup size", "[shader][limits]") {
	CHECK_THAT(CompileError(test::LoadSpirv("too_much_shared")), Catch::Contains("workgroup memory"));
	CHECK_THAT(CompileError(test::LoadSpirv("too_much_private")), Catch::Contains("private memory"));
	CHECK_THAT(CompileError(test::LoadSpirv("too_many_descriptors")), Catch::Contains("buffer descriptors"));

	// LocalSize 2^31 + 1 x 2 x 1: the invocation count wraps to 2 in 32 bits.
	std::vector<uint32_t> words = test::LoadSpirv("huge_workgroup");
	REQUIRE(spirv::Validate(words).empty());
	CHECK_THAT(CompileError(words), Catch::Contains("workgroup size"));
}
