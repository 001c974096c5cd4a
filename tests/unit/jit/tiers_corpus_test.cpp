// The two tiers on the whole shader corpus: every compute, vertex and
// fragment shader in shaders/ that compiles without images runs once
// interpreted (TESSERA_JIT=off) and once compiled (sync), on the same
// pseudo-random buffers, push constants and stage inputs; the buffers and
// stage outputs must come out byte for byte the same.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "jit/jit.h"
#include "shader/compiled.h"
#include "shader/interpreter.h"
#include "spirv/compile.h"

using namespace tessera;

namespace {

std::vector<uint32_t> ReadWords(const std::filesystem::path& path) {
	std::ifstream file(path, std::ios::binary);
	std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
	std::vector<uint32_t> words(bytes.size() / 4);
	std::memcpy(words.data(), bytes.data(), words.size() * 4);
	return words;
}

// Shaders whose output depends on the order in which invocations run: the
// tiers may order them differently, both as Vulkan allows.
bool OrderDependent(const std::string& name) {
	(void)name;
	return false;
}

struct Outcome {
	std::vector<std::vector<uint8_t>> buffers;
	std::vector<uint32_t> outputs;
	shader::RunStatus status = shader::RunStatus::kSuccess;
};

// Runs `program` (a fresh copy, so it starts cold) on inputs drawn from `seed`.
Outcome Run(shader::Program program, uint32_t seed) {
	std::mt19937 rng(seed);
	auto word = [&]() -> uint32_t {
		switch (rng() % 4) {
		case 0: return rng() % 256;                                                       // small integers, indices
		case 1: return std::bit_cast<uint32_t>(float(int(rng() % 2001) - 1000) / 64.0f);  // plain floats
		case 2: return std::bit_cast<uint32_t>(float(rng() % 1000) / 999.0f);             // [0, 1]
		default: return rng();
		}
	};
	Outcome out;
	out.buffers.resize(program.bindings.size());
	std::vector<shader::BufferView> views;
	for (auto& buffer : out.buffers) {
		buffer.resize(4096);
		for (size_t i = 0; i < buffer.size(); i += 4) {
			uint32_t w = word();
			std::memcpy(&buffer[i], &w, 4);
		}
		views.push_back({buffer.data(), buffer.size()});
	}
	std::vector<uint32_t> push(64);
	for (uint32_t& w : push) w = word();
	shader::Resources resources{views, push.data(), static_cast<uint32_t>(push.size() * 4)};
	shader::Interpreter interpreter;
	if (program.stage == shader::Stage::kCompute) {
		shader::WorkgroupPosition position;
		position.count[0] = 3;
		shader::RunOptions options;
		options.max_block_steps = 1u << 16;  // endless loops (forever.comp) end soon
		out.status = interpreter.RunWorkgroups(program, resources, position, 3, options);
		return out;
	}
	const uint32_t lanes = 60;  // not a multiple of the vector width: padding lanes take part
	interpreter.BeginStage(program, lanes);
	for (const shader::InterfaceWord& input : program.inputs) {
		uint32_t* values = interpreter.StageWord(input.word);
		for (uint32_t i = 0; i < lanes; ++i)
			values[i] = input.builtin == shader::InterfaceBuiltin::kHelperInvocation ? (rng() % 8 == 0) : word();
	}
	out.status = interpreter.RunStage(program, resources);
	for (const shader::InterfaceWord& output : program.outputs)
		out.outputs.insert(out.outputs.end(), interpreter.StageWord(output.word),
		                   interpreter.StageWord(output.word) + lanes);
	if (program.discard_word != shader::Program::kNoWord)
		out.outputs.insert(out.outputs.end(), interpreter.StageWord(program.discard_word),
		                   interpreter.StageWord(program.discard_word) + lanes);
	return out;
}

}  // namespace

TEST_CASE("every corpus shader gives the same bytes interpreted and compiled", "[jit][corpus]") {
	uint32_t compared = 0;
	std::vector<std::filesystem::path> files;
	for (const auto& entry : std::filesystem::directory_iterator(TESSERA_SHADER_DIR))
		if (entry.path().extension() == ".spv") files.push_back(entry.path());
	std::sort(files.begin(), files.end());
	for (const auto& path : files) {
		std::string name = path.filename().string();
		shader::Stage stage = shader::Stage::kCompute;
		if (name.ends_with(".vert.spv"))
			stage = shader::Stage::kVertex;
		else if (name.ends_with(".frag.spv"))
			stage = shader::Stage::kFragment;
		else if (name.find('.') != name.rfind('.'))
			continue;  // geometry and tessellation stages need their drivers' setup
		if (OrderDependent(name)) continue;
		spirv::CompileOptions options;
		options.rules.uniform_unsized_arrays = true;  // (uniform_unsized_array.spvasm)
		auto compiled = spirv::Compile(ReadWords(path), stage, "main", {}, options);
		if (!compiled) continue;  // needs specialization or features the plain compile lacks
		shader::Program program = std::move(compiled.value());
		if (!program.image_bindings.empty()) continue;
		bool runtime_array = false;
		for (const shader::BindingSlot& slot : program.bindings)
			runtime_array |= slot.array_element == shader::kRuntimeDescriptorArray;
		if (runtime_array) continue;
		// Device addresses are host pointers: random ones are not for running.
		if (std::any_of(program.regions.begin(), program.regions.end(),
		                [](const shader::Region& r) { return r.kind == shader::RegionKind::kPhysical; }))
			continue;

		uint32_t seed = static_cast<uint32_t>(std::hash<std::string>{}(name));
		shader::SetJitMode(shader::JitMode::kOff);
		Outcome interpreted = Run(program, seed);
		shader::SetJitMode(shader::JitMode::kSync);
		Outcome jitted = Run(program, seed);
		shader::SetJitMode(std::nullopt);
		INFO(name);
		REQUIRE(interpreted.status == jitted.status);
		if (interpreted.status != shader::RunStatus::kSuccess) continue;  // memory is undefined after a hang
		for (size_t b = 0; b < interpreted.buffers.size(); ++b) {
			INFO("buffer " << b);
			REQUIRE(interpreted.buffers[b] == jitted.buffers[b]);
		}
		REQUIRE(interpreted.outputs == jitted.outputs);
		++compared;
	}
	INFO(compared << " shaders compared");
	CHECK(compared >= 100);
	// A program LLVM refused would have run interpreted both times.
	CHECK(jit::InvalidIrCount() == 0);
}

// The corpus test above compares bytes; this one makes sure the programs
// that share workgroup memory through barriers are among those compiled
// whole (else the comparison would only test the interpreter twice).
TEST_CASE("compute shaders with barriers and shared memory compile whole", "[jit][corpus]") {
	for (const char* name : {"barriers.spv", "forever_barrier.spv", "matmul.spv", "reduce.spv"}) {
		INFO(name);
		auto program = spirv::Compile(ReadWords(std::filesystem::path(TESSERA_SHADER_DIR) / name),
		                              shader::Stage::kCompute, "main", {});
		REQUIRE(program);
		REQUIRE(program.value().uses_barriers);
		std::shared_ptr<const shader::CompiledProgram> compiled = jit::CompileProgram(program.value());
		REQUIRE(compiled);
		CHECK(compiled->program != nullptr);
	}
}

// The code caches in use: a program compiled once is taken from memory the
// second time, from the disk cache once memory has forgotten it (as in
// another process), compiled again when its file is corrupted, and gives the
// interpreter's bytes every time. A whole program (reduce) and one compiled
// as segments (its subgroup operations stay interpreted) both go through it.
TEST_CASE("programs from the code caches give the interpreter's bytes", "[jit][cache]") {
	auto folder = std::filesystem::temp_directory_path() / ("tessera-jit-cache-" + std::to_string(::getpid()));
	std::filesystem::remove_all(folder);
	jit::ResetCaches(jit::DiskCache(folder.string(), 64 << 20));
	for (const char* name : {"reduce.spv", "subgroup.spv"}) {
		INFO(name);
		auto compiled = spirv::Compile(ReadWords(std::filesystem::path(TESSERA_SHADER_DIR) / name),
		                               shader::Stage::kCompute, "main", {});
		REQUIRE(compiled);
		const shader::Program& program = compiled.value();
		const uint32_t seed = 7;
		shader::SetJitMode(shader::JitMode::kOff);
		const Outcome interpreted = Run(program, seed);
		shader::SetJitMode(shader::JitMode::kSync);
		auto expect = [&](const char* how, uint64_t jit::CacheStats::*counter) {
			INFO(how);
			const jit::CacheStats before = jit::GetCacheStats();
			Outcome out = Run(program, seed);
			const jit::CacheStats after = jit::GetCacheStats();
			CHECK(after.*counter == before.*counter + 1);
			REQUIRE(out.status == interpreted.status);
			CHECK(out.buffers == interpreted.buffers);
		};
		expect("first compile", &jit::CacheStats::compiles);
		expect("from memory", &jit::CacheStats::memory_hits);
		jit::ResetCaches(jit::DiskCache(folder.string(), 64 << 20));
		expect("from disk", &jit::CacheStats::disk_hits);
		jit::ResetCaches(jit::DiskCache(folder.string(), 64 << 20));
		for (const auto& entry : std::filesystem::directory_iterator(folder)) {
			std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
			file.seekp(100);
			file.put('\xff');
		}
		expect("compiled again after corruption", &jit::CacheStats::compiles);
		std::filesystem::remove_all(folder);
	}
	shader::SetJitMode(std::nullopt);
	jit::ResetCaches(jit::DiskCache::FromEnvironment());
}
