// The interpreter on hand-built programs: no SPIR-V involved.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <thread>

#include "run_shader.h"
#include "shader/interpreter.h"

using namespace tessera;
using shader::Op;

namespace {

// A one-block program: r1 = local index, r2 = constant, r3 = op(r1, r2), stored to binding 0 at lane * 4.
shader::Program LaneProgram(Op op, uint32_t constant, uint32_t lanes) {
	shader::Program p;
	p.workgroup_size[0] = lanes;
	p.register_count = 6;
	p.constants = {{0, 0}, {2, constant}, {4, 4}};
	p.builtins = {{1, shader::Builtin::kLocalInvocationIndex, 0}};
	p.bindings = {{0, 0, 0, true}};
	p.regions = {{shader::RegionKind::kStorageBuffer, 0}};
	p.insts = {{op, 0, 3, 1, 2}, {Op::kIMul, 0, 5, 1, 4}, {Op::kStore, 0, 0, 5, 3}};
	p.blocks = {{0, 3, {shader::TerminatorKind::kExit}}};
	return p;
}

std::vector<uint32_t> Run(const shader::Program& program, uint32_t lanes) {
	std::vector<uint32_t> out(lanes, 0);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	return out;
}

}  // namespace

TEST_CASE("IR ops that SPIR-V leaves undefined give a value, never a trap", "[shader][ir]") {
	auto div = Run(LaneProgram(Op::kSDiv, 0, 8), 8);  // x / 0
	for (uint32_t v : div) REQUIRE(v == 0);
	auto shift = Run(LaneProgram(Op::kShiftLeft, 33, 4), 4);  // shift past the width: masked to 1
	for (uint32_t i = 0; i < 4; ++i) REQUIRE(shift[i] == i << 1);
	auto convert = Run(LaneProgram(Op::kFloatToSigned, 0, 1), 1);
	REQUIRE(convert[0] == 0);
}

TEST_CASE("float to int conversions saturate and half conversions round to nearest even", "[shader][ir]") {
	// A program is not changed once it has run (its constants may be
	// compiled in): each value gets its own copy.
	auto run_with = [](Op op, float value) {
		shader::Program p = LaneProgram(op, 0, 1);
		p.insts[0] = {op, 0, 3, 2};
		p.constants[1].bits = std::bit_cast<uint32_t>(value);
		return Run(p, 1)[0];
	};
	for (float f : {1.0f, 0.1f, 65504.0f, 70000.0f, 1e-8f, -2.5f}) {
		float q = std::bit_cast<float>(run_with(Op::kQuantizeToF16, f));
		if (f == 70000.0f)
			REQUIRE(std::isinf(q));
		else if (f == 1e-8f)
			REQUIRE(q == 0.0f);
		else
			REQUIRE(std::fabs(q - f) <= std::fabs(f) * 0.001f);
	}
	REQUIRE(run_with(Op::kFloatToSigned, 3e9f) == 0x7fffffffu);
	REQUIRE(run_with(Op::kFloatToSigned, -3e9f) == 0x80000000u);
}

TEST_CASE("a divergent branch runs each side under its mask and keeps inactive lanes' values", "[shader][ir]") {
	// block 0: r3 = lane & 1; branch r3 ? block 1 : block 2
	// block 1: r5 = lane * 10       block 2: r5 = lane + 100
	// block 3 (merge): store r5 at lane * 4
	shader::Program p;
	p.workgroup_size[0] = 16;
	p.register_count = 8;
	p.constants = {{0, 0}, {2, 1}, {4, 10}, {6, 100}, {7, 4}};
	p.builtins = {{1, shader::Builtin::kLocalInvocationIndex, 0}};
	p.bindings = {{0, 0, 0, true}};
	p.regions = {{shader::RegionKind::kStorageBuffer, 0}};
	p.insts = {{Op::kAnd, 0, 3, 1, 2},
	           {Op::kIMul, 0, 5, 1, 4},
	           {Op::kIAdd, 0, 5, 1, 6},
	           {Op::kIMul, 0, 3, 1, 7},
	           {Op::kStore, 0, 0, 3, 5}};
	p.edges = {{1}, {2}, {3}, {3}};
	p.blocks = {{0, 1, {shader::TerminatorKind::kConditional, 3, 0, 2}},
	            {1, 1, {shader::TerminatorKind::kBranch, 0, 2, 1}},
	            {2, 1, {shader::TerminatorKind::kBranch, 0, 3, 1}},
	            {3, 2, {shader::TerminatorKind::kExit}}};
	std::vector<uint32_t> out = Run(p, 16);
	for (uint32_t i = 0; i < 16; ++i) REQUIRE(out[i] == (i & 1 ? i * 10 : i + 100));
}

TEST_CASE("workgroups on several threads share buffers through atomics", "[shader][memory]") {
	shader::Program program = test::CompileShader("atomics");
	const uint32_t groups = 32, invocations = groups * 128;
	std::vector<uint32_t> counters(6 + groups, 0);
	counters[2] = 0x7fffffffu;
	shader::BufferView view{counters.data(), counters.size() * 4};
	shader::Resources resources{{&view, 1}};
	std::vector<std::thread> threads;
	for (uint32_t t = 0; t < 4; ++t)
		threads.emplace_back([&, t] {
			shader::Interpreter interpreter;
			shader::WorkgroupPosition position;
			position.count[0] = groups;
			for (uint32_t g = t; g < groups; g += 4) {
				position.id[0] = g;
				interpreter.RunWorkgroup(program, resources, position);
			}
		});
	for (std::thread& thread : threads) thread.join();
	REQUIRE(counters[0] == invocations * (invocations - 1) / 2);
	REQUIRE(counters[1] == (invocations - 1) * 3);
	for (uint32_t g = 0; g < groups; ++g) REQUIRE(counters[6 + g] == 256u);
}
