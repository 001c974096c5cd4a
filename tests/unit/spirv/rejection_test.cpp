#include <cstring>
#include <filesystem>
#include <fstream>

#include "../shader/run_shader.h"
#include "spirv/compile.h"
#include "spirv/newer_extensions.h"

using namespace tessera;

TEST_CASE("a storage image store becomes one image instruction on one storage image slot", "[spirv][image]") {
	auto result = spirv::Compile(test::LoadSpirv("image"), spirv::Stage::kCompute, "main");
	REQUIRE(result);
	const shader::Program& program = result.value();
	REQUIRE(program.image_bindings.size() == 1);
	CHECK(program.image_bindings[0].kind == shader::ImageDescriptorKind::kStorageImage);
	REQUIRE(program.image_ops.size() == 1);
	CHECK(program.image_ops[0].kind == shader::ImageOpKind::kWrite);
}

TEST_CASE("every corpus shader that compiles has a valid program", "[spirv]") {
	for (const char* name : {"saxpy",
	                         "arith",
	                         "control",
	                         "reduce",
	                         "atomics",
	                         "robust",
	                         "spec",
	                         "glsl450",
	                         "matrix",
	                         "misc",
	                         "phi_swap",
	                         "forever",
	                         "subgroup",
	                         "descriptors",
	                         "ids",
	                         "quad",
	                         "int64",
	                         "small_types",
	                         "int64_bits",
	                         "atomics64",
	                         "image",
	                         "image_storage",
	                         "image_sample",
	                         "image_cube_depth",
	                         "image_arrays",
	                         "image_texel_buffer",
	                         "image_unformatted",
	                         "image_arrays_constant",
	                         "image_fetch_float",
	                         "image_fetch_int",
	                         "image_fetch_uint",
	                         "image_compressed",
	                         "image_unnormalized",
	                         "image_view_range",
	                         "image_min_lod",
	                         "image_runtime_array"}) {
		INFO(name);
		auto result = spirv::Compile(test::LoadSpirv(name), spirv::Stage::kCompute, "main");
		REQUIRE(result);
		const shader::Program& program = result.value();
		REQUIRE(!program.blocks.empty());
		for (const shader::Inst& inst : program.insts) {
			REQUIRE(inst.dst < program.register_count);
			REQUIRE(inst.a < program.register_count);
			if (shader::IsMemory(inst.op)) REQUIRE(inst.region < program.regions.size());
		}
		for (const shader::Edge& edge : program.edges) REQUIRE(edge.block < program.blocks.size());
		REQUIRE(!program.Dump().empty());
	}
}

TEST_CASE("mutated modules are rejected or compiled, never crash the front end", "[spirv][reject]") {
	uint32_t seed = 12345;
	auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
	uint32_t compiled = 0, rejected = 0;
	for (const char* name : {"saxpy", "control", "reduce", "atomics", "matrix", "misc"}) {
		std::vector<uint32_t> original = test::LoadSpirv(name);
		for (int round = 0; round < 60; ++round) {
			std::vector<uint32_t> words = original;
			uint32_t flips = 1 + next() % 3;
			for (uint32_t f = 0; f < flips; ++f) {
				uint32_t at = 5 + next() % static_cast<uint32_t>(words.size() - 5);
				uint32_t kind = next() % 3;
				if (kind == 0)
					words[at] ^= 1u << (next() % 32);  // a bit
				else if (kind == 1)
					words[at] = next() % 64;  // a small id or literal
				else
					words.resize(at);  // truncation
			}
			auto result = spirv::Compile(words, spirv::Stage::kCompute, "main");
			if (result) {
				compiled++;
				// Whatever it computes, running it stays inside the bound memory.
				std::vector<uint32_t> buffer(64, 1);
				std::vector<shader::BufferView> views(result->bindings.size(), {buffer.data(), 256});
				uint8_t push[128] = {};
				shader::Resources resources{views, push, sizeof(push)};
				shader::RunOptions options;
				options.max_block_steps = 5000;
				shader::Interpreter interpreter;
				interpreter.RunWorkgroup(result.value(), resources, {}, options);
			} else {
				rejected++;
				REQUIRE(!result.error().message.empty());
			}
		}
	}
	INFO("compiled " << compiled << ", rejected " << rejected);
	REQUIRE(rejected > 0);
}

TEST_CASE("mutated vertex and fragment modules are rejected or run, never crash", "[spirv][reject][stage]") {
	uint32_t seed = 777;
	auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
	uint32_t compiled = 0, rejected = 0;
	const std::pair<const char*, spirv::Stage> shaders[] = {{"stage_io.vert", spirv::Stage::kVertex},
	                                                        {"transform.vert", spirv::Stage::kVertex},
	                                                        {"derivatives.frag", spirv::Stage::kFragment},
	                                                        {"demote.frag", spirv::Stage::kFragment},
	                                                        {"interpolate.frag", spirv::Stage::kFragment}};
	for (const auto& [name, stage] : shaders) {
		std::vector<uint32_t> original = test::LoadSpirv(name);
		for (int round = 0; round < 40; ++round) {
			std::vector<uint32_t> words = original;
			uint32_t at = 5 + next() % static_cast<uint32_t>(words.size() - 5);
			if (next() % 2)
				words[at] ^= 1u << (next() % 32);
			else
				words[at] = next() % 64;
			auto result = spirv::Compile(words, stage, "main");
			if (!result) {
				rejected++;
				REQUIRE(!result.error().message.empty());
				continue;
			}
			compiled++;
			const shader::Program& program = result.value();
			for (const shader::InterfaceWord& w : program.inputs) REQUIRE(w.word < program.private_words);
			for (const shader::InterfaceWord& w : program.outputs) REQUIRE(w.word < program.private_words);
			std::vector<uint32_t> buffer(64, 1);
			std::vector<shader::BufferView> views(program.bindings.size(), {buffer.data(), 256});
			uint8_t push[128] = {};
			shader::Resources resources{views, push, sizeof(push)};
			shader::RunOptions options;
			options.max_block_steps = 5000;
			shader::Interpreter interpreter;
			interpreter.BeginStage(program, 6);
			for (const shader::InterfaceWord& w : program.inputs)
				for (uint32_t lane = 0; lane < 6; ++lane) interpreter.StageWord(w.word)[lane] = lane * 0x01010101u;
			interpreter.RunStage(program, resources, options);
		}
	}
	INFO("compiled " << compiled << ", rejected " << rejected);
	REQUIRE(compiled > 0);
	REQUIRE(rejected > 0);
}

TEST_CASE("every input the fuzzer once crashed on compiles or is refused, without a crash", "[spirv][fuzz]") {
	// fuzz/regressions holds them (seeds of the fuzz run too); under the
	// sanitizer pass an out-of-bounds access here fails the suite.
	namespace fs = std::filesystem;
	size_t count = 0;
	for (const fs::directory_entry& entry : fs::directory_iterator(TESSERA_FUZZ_REGRESSION_DIR)) {
		if (entry.path().extension() != ".spv") continue;
		INFO(entry.path().filename().string());
		std::ifstream file(entry.path(), std::ios::binary);
		std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
		std::vector<uint32_t> words(bytes.size() / 4);
		std::memcpy(words.data(), bytes.data(), words.size() * 4);
		++count;
		spirv::RewriteNewerExtensions(words);  // as vkCreateShaderModule does first
		if (!spirv::Validate(words).empty()) continue;
		spirv::CompileOptions options;
		options.validated = true;
		for (spirv::Stage stage : {spirv::Stage::kCompute, spirv::Stage::kVertex, spirv::Stage::kFragment})
			(void)spirv::Compile(words, stage, "main", {}, options);
	}
	CHECK(count >= 5);
}
