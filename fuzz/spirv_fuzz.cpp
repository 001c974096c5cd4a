// libFuzzer target for the shader engine: malformed modules are rejected,
// never crash. Each input is a SPIR-V module (little-endian words). The
// rewrites of newer extensions run on it first, and it must then pass
// spirv::Validate (what vkCreateShaderModule does, here with every rule a
// device may enable that admits more modules); a valid module is
// compiled for the compute stage (else the vertex, fragment, geometry,
// tessellation control or evaluation stage, the first it has)
// and, when that succeeds, one workgroup (or a lane group of the stage) runs
// with a tiny buffer bound to every slot and a low step bound, so that the
// interpreter's bounds checks are fuzzed along with the front end. One input
// in 32 (by a hash of its bytes, so runs repeat) runs compiled instead
// (TESSERA_JIT=sync: SPIR-V -> IR -> machine code -> run); all of them would
// spend the run's time in LLVM. The code cache on disk is off: each compiled
// input goes through LLVM, and a fuzzing run writes no files.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "shader/compiled.h"
#include "shader/interpreter.h"
#include "spirv/compile.h"
#include "spirv/newer_extensions.h"

using namespace tessera;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
	setenv("TESSERA_CACHE_DIR", "0", 1);
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
	std::vector<uint32_t> words(size / 4);
	if (!words.empty()) memcpy(words.data(), data, words.size() * 4);
	// What vkCreateShaderModule does first: the rewrites read unvalidated words.
	spirv::RewriteNewerExtensions(words);
	// With the rules of a device that enables maintenance8: the Offset image
	// operands the validator does not know are stripped from its copy
	// (spirv/pre_optimization.h), and the module with them compiles and runs.
	spirv::ValidationRules rules;
	rules.sample_offsets = true;
	if (!spirv::Validate(words, rules).empty()) return 0;

	spirv::CompileOptions options;
	options.validated = true;
	auto program = spirv::Compile(words, spirv::Stage::kCompute, "main", {}, options);
	// No compute entry point: a graphics one runs as a stage.
	for (spirv::Stage stage : {spirv::Stage::kVertex, spirv::Stage::kFragment, spirv::Stage::kGeometry,
	                           spirv::Stage::kTessControl, spirv::Stage::kTessEval})
		if (!program) program = spirv::Compile(words, stage, "main", {}, options);
	if (!program) return 0;

	// 16 bytes per binding slot: small enough that most accesses fall out of
	// bounds, large enough that some land inside.
	const std::vector<shader::BindingSlot>& slots = program->bindings;
	std::vector<uint32_t> memory(slots.size() * 4, 0x3f800001u);
	std::vector<shader::BufferView> views;
	for (size_t i = 0; i < slots.size(); ++i) views.push_back({memory.data() + i * 4, 16});
	uint8_t push_constants[128];
	for (size_t i = 0; i < sizeof(push_constants); ++i) push_constants[i] = static_cast<uint8_t>(i * 37 + 11);
	shader::Resources resources{views, push_constants, sizeof(push_constants)};
	// Device addresses (buffer_reference) may reach the bound memory only.
	auto begin = reinterpret_cast<uintptr_t>(memory.data());
	shader::AddressRange range{begin, begin + memory.size() * 4};
	resources.check_device_addresses = true;
	resources.device_memory = {&range, 1};

	uint32_t hash = 2166136261u;  // FNV-1a
	for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
	shader::SetJitMode(hash % 32 == 0 ? shader::JitMode::kSync : shader::JitMode::kOff);

	shader::RunOptions run;
	run.max_block_steps = 4096;
	shader::WorkgroupPosition position;
	position.count[0] = 2;
	shader::Interpreter interpreter;
	if (program->stage == shader::Stage::kCompute) {
		interpreter.RunWorkgroup(program.value(), resources, position, run);
		return 0;
	}
	// Two quads (fragment derivatives read whole quads) and a partial one;
	// every input word gets values that differ per lane, some lanes helpers.
	constexpr uint32_t kLanes = 10;
	interpreter.BeginStage(program.value(), kLanes);
	for (const shader::InterfaceWord& input : program->inputs)
		for (uint32_t lane = 0; lane < kLanes; ++lane)
			interpreter.StageWord(input.word)[lane] = input.builtin == shader::InterfaceBuiltin::kHelperInvocation
			                                              ? lane % 3 == 0
			                                              : 0x3f800000u + lane * 0x10001u;
	interpreter.RunStage(program.value(), resources, run);
	return 0;
}
