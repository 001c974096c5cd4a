// Shader engine throughput: SAXPY and a shared-memory reduction run by the
// interpreter, in invocations (lanes) per second and IR lane-operations per
// second (executed instructions, terminators included, x active lanes).
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "shader/interpreter.h"
#include "spirv/compile.h"

using namespace tessera;

namespace {

std::vector<uint32_t> LoadSpirv(const std::string& name) {
	std::ifstream file(std::string(TESSERA_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
	std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
	std::vector<uint32_t> words(bytes.size() / 4);
	memcpy(words.data(), bytes.data(), words.size() * 4);
	return words;
}

shader::Program Compile(const std::string& name, uint32_t workgroup_width = 0) {
	spirv::SpecializationEntry entry{0, 0, 4};
	spirv::Specialization spec;
	if (workgroup_width) spec = {{&entry, 1}, {reinterpret_cast<const uint8_t*>(&workgroup_width), 4}};
	auto program = spirv::Compile(LoadSpirv(name), spirv::Stage::kCompute, "main", spec);
	if (!program) {
		fprintf(stderr, "%s: %s\n", name.c_str(), program.error().message.c_str());
		abort();
	}
	return std::move(program.value());
}

// SAXPY over 1M elements; args: workgroup width, lane group width (0: whole workgroup).
void BM_Saxpy(benchmark::State& state) {
	uint32_t workgroup = static_cast<uint32_t>(state.range(0));
	shader::Program program = Compile("saxpy", workgroup);
	const uint32_t n = 1 << 20;
	std::vector<float> x(n, 1.5f), y(n, 2.0f);
	shader::BufferView views[] = {{x.data(), n * 4ull}, {y.data(), n * 4ull}};
	struct {
		float a;
		uint32_t n;
	} push{0.5f, n};
	shader::Resources resources{views, &push, sizeof(push)};
	shader::RunOptions options;
	options.lane_group_width = static_cast<uint32_t>(state.range(1));
	shader::Interpreter interpreter;
	shader::WorkgroupPosition position;
	position.count[0] = n / workgroup;
	for (auto _ : state) {
		position.id[0] = 0;
		interpreter.RunWorkgroups(program, resources, position, n / workgroup, options);
		benchmark::ClobberMemory();
	}
	uint64_t lanes = uint64_t{n} * state.iterations();
	state.counters["lanes/s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
	const shader::RunStats& stats = interpreter.stats();
	state.counters["lane_ops/s"] =
	    benchmark::Counter(static_cast<double>(stats.lane_instructions), benchmark::Counter::kIsRate);
	state.counters["lanes/step"] =
	    static_cast<double>(stats.lane_instructions) / static_cast<double>(stats.block_steps);
}
BENCHMARK(BM_Saxpy)
    ->Args({1, 0})
    ->Args({4, 0})
    ->Args({64, 0})
    ->Args({64, 8})
    ->Args({64, 16})
    ->Args({256, 0})
    ->Args({1024, 0})
    ->Args({1024, 256})
    ->Unit(benchmark::kMillisecond);

// A 256-wide workgroup reduction through shared memory with 9 barriers.
void BM_SharedReduction(benchmark::State& state) {
	shader::Program program = Compile("reduce");
	const uint32_t groups = 4096, n = groups * 256;
	std::vector<uint32_t> in(n, 3), sums(groups);
	shader::BufferView views[] = {{in.data(), n * 4ull}, {sums.data(), groups * 4ull}};
	shader::Resources resources{views};
	shader::Interpreter interpreter;
	shader::WorkgroupPosition position;
	position.count[0] = groups;
	for (auto _ : state) {
		for (uint32_t g = 0; g < groups; ++g) {
			position.id[0] = g;
			interpreter.RunWorkgroup(program, resources, position);
		}
		benchmark::ClobberMemory();
	}
	uint64_t lanes = uint64_t{n} * state.iterations();
	state.counters["lanes/s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
	state.counters["lane_ops/s"] =
	    benchmark::Counter(static_cast<double>(interpreter.stats().lane_instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SharedReduction)->Unit(benchmark::kMillisecond);

// Pipeline creation cost: validate, optimize, translate.
void BM_CompileSaxpy(benchmark::State& state) {
	std::vector<uint32_t> words = LoadSpirv("saxpy");
	for (auto _ : state) benchmark::DoNotOptimize(spirv::Compile(words, spirv::Stage::kCompute, "main"));
}
BENCHMARK(BM_CompileSaxpy)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
