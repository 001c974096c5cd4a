// The IR's rule for image instructions (shader/ir.h): the operation reads
// its operands' registers in place, so nothing between a kImageArg and its
// kImage writes a register. Register allocation sees an operand's register
// free after its kImageArg; an instruction there could take it. Checked on
// every corpus shader the plain compile accepts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../shader/run_shader.h"
#include "spirv/compile.h"

using namespace tessera;

namespace {

shader::Stage StageOf(const std::string& name) {
	if (name.ends_with(".vert.spv")) return shader::Stage::kVertex;
	if (name.ends_with(".frag.spv")) return shader::Stage::kFragment;
	if (name.ends_with(".geom.spv")) return shader::Stage::kGeometry;
	if (name.ends_with(".tesc.spv")) return shader::Stage::kTessControl;
	if (name.ends_with(".tese.spv")) return shader::Stage::kTessEval;
	return shader::Stage::kCompute;
}

}  // namespace

TEST_CASE("nothing between an image instruction's operands and the instruction writes a register", "[spirv]") {
	std::vector<std::filesystem::path> files;
	for (const auto& entry : std::filesystem::directory_iterator(TESSERA_SHADER_DIR))
		if (entry.path().extension() == ".spv") files.push_back(entry.path());
	std::sort(files.begin(), files.end());
	uint32_t with_images = 0;
	bool saw_projective_shadow = false;
	for (const auto& path : files) {
		const std::string name = path.filename().string();
		auto compiled = spirv::Compile(test::LoadSpirv(path.stem().string()), StageOf(name), "main", {});
		if (!compiled) continue;  // needs specialization or features the plain compile lacks
		const std::vector<shader::Inst>& insts = compiled.value().insts;
		bool any = false;
		for (size_t i = 0; i < insts.size(); ++i) {
			if (insts[i].op != shader::Op::kImageArg) continue;
			any = true;
			size_t j = i + 1;
			while (j < insts.size() && insts[j].op == shader::Op::kImageArg) ++j;
			INFO(name << ": instruction " << j << " after the operands at " << i);
			REQUIRE(j < insts.size());
			CHECK(insts[j].op == shader::Op::kImage);
			i = j;
		}
		with_images += any;
		saw_projective_shadow |= name == "texture_proj_shadow.frag.spv";
	}
	CHECK(with_images > 20);
	CHECK(saw_projective_shadow);
}
