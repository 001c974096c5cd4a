// The compiled tier against the interpreter, operation by operation: every
// ALU op of the IR compiled into one segment must give the interpreter
// kernel's bits on every lane, special values included (zeros of both
// signs, infinities, NaNs with payloads, denormals, integer extremes, and
// 64-bit values split into low and high words), with and without a lane mask.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "jit/jit.h"
#include "shader/alu.h"
#include "shader/ir.h"

using namespace tessera;
using shader::Op;

namespace {

constexpr uint32_t kAluOps = static_cast<uint32_t>(Op::kAluCount);

// Words that make operations misbehave, as 32-bit floats, integers, and
// halves of doubles.
std::vector<uint32_t> SpecialWords() {
	std::vector<uint32_t> words = {
	    0u,          0x80000000u, 1u,          0xffffffffu, 0x7fffffffu, 2u,          31u,         32u,
	    33u,         63u,         64u,         0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
	    0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x4f000000u, 0xcf000000u, 0x4f800000u,
	    0x477ff000u, 0x38800000u, 0x33000000u, 0x7ff00000u, 0xfff80000u, 0x3ff00000u, 0xbff00000u, 0x00100000u,
	    0x41dfffffu, 0xc1e00000u, 0x43e00000u, 0x7e00u,     0xfc00u,     0x3c00u,     0x0001u,     0x8000u};
	return words;
}

struct Case {
	std::vector<uint32_t> a, b, c, d;
};

Case MakeCases(uint32_t lanes) {
	std::mt19937 rng(11);
	std::vector<uint32_t> special = SpecialWords();
	std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
	auto word = [&]() -> uint32_t {
		switch (rng() % 4) {
		case 0: return special[rng() % special.size()];
		case 1: return std::bit_cast<uint32_t>(real(rng));
		case 2: return rng() % 64;
		default: return rng();
		}
	};
	Case out;
	for (auto* v : {&out.a, &out.b, &out.c, &out.d}) {
		v->resize(lanes);
		for (uint32_t& w : *v) w = word();
	}
	return out;
}

}  // namespace

TEST_CASE("compiled arithmetic gives the interpreter's bits for every ALU op", "[jit][ir]") {
	// Registers: 0 zero, 1..4 the operands, 5 + k the result of op k; then a
	// copy of the last result so the one block is a single segment.
	const uint32_t lanes = 1024;
	shader::Program program;
	program.register_count = 5 + kAluOps + 1;
	program.constants = {{0, 0}};
	for (uint32_t k = 0; k < kAluOps; ++k) {
		shader::Inst inst;
		inst.op = static_cast<Op>(k);
		inst.dst = 5 + k;
		inst.a = 1, inst.b = 2, inst.c = 3, inst.d = 4;
		program.insts.push_back(inst);
	}
	program.insts.push_back({Op::kCopy, 0, 5 + kAluOps, 5 + kAluOps - 1});
	program.blocks = {{0, static_cast<uint32_t>(program.insts.size()), {shader::TerminatorKind::kExit}}};
	program.uses_subgroups = true;  // compiled as segments, not as a whole program

	std::shared_ptr<const shader::CompiledProgram> compiled = jit::CompileProgram(program);
	REQUIRE(compiled);
	REQUIRE(compiled->segments.size() == 1);
	REQUIRE(compiled->segments[0].inst_end - compiled->segments[0].inst_begin == kAluOps + 1);

	Case cases = MakeCases(lanes);
	const uint64_t stride = lanes;
	std::vector<uint32_t> registers(program.register_count * stride, 0xdeadbeefu);
	auto row = [&](uint32_t reg) { return registers.data() + reg * stride; };
	std::copy(cases.a.begin(), cases.a.end(), row(1));
	std::copy(cases.b.begin(), cases.b.end(), row(2));
	std::copy(cases.c.begin(), cases.c.end(), row(3));
	std::copy(cases.d.begin(), cases.d.end(), row(4));
	std::fill_n(row(0), lanes, 0u);

	SECTION("every lane active") {
		compiled->segments[0].function(registers.data(), stride, lanes, nullptr);
		std::vector<uint32_t> expected(lanes);
		for (uint32_t k = 0; k < kAluOps; ++k) {
			shader::GetAluKernel(static_cast<Op>(k))(expected.data(), row(1), row(2), row(3), row(4), lanes);
			for (uint32_t i = 0; i < lanes; ++i) {
				INFO(shader::OpName(static_cast<Op>(k))
				     << " lane " << i << ": operands " << std::hex << cases.a[i] << " " << cases.b[i] << " "
				     << cases.c[i] << " " << cases.d[i] << " interpreter " << expected[i] << " compiled "
				     << row(5 + k)[i]);
				REQUIRE(row(5 + k)[i] == expected[i]);
			}
		}
	}
	SECTION("inactive lanes keep their registers") {
		std::vector<uint32_t> active(lanes);
		for (uint32_t i = 0; i < lanes; ++i) active[i] = (i * 7 + i / 5) % 3 == 0;
		compiled->segments[0].function(registers.data(), stride, lanes, active.data());
		std::vector<uint32_t> expected(lanes);
		for (uint32_t k = 0; k < kAluOps; ++k) {
			shader::GetAluKernel(static_cast<Op>(k))(expected.data(), row(1), row(2), row(3), row(4), lanes);
			for (uint32_t i = 0; i < lanes; ++i) {
				INFO(shader::OpName(static_cast<Op>(k)) << " lane " << i);
				REQUIRE(row(5 + k)[i] == (active[i] ? expected[i] : 0xdeadbeefu));
			}
		}
	}
}
