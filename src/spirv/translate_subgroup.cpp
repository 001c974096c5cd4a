// SPIR-V to IR: subgroup operations (OpGroupNonUniform*) and the subgroup
// built-ins. A subgroup is shader::kSubgroupSize consecutive lanes of a
// workgroup; ballots fit in the first word of their uvec4.
#include <algorithm>
#include <bit>
#include <cmath>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {

// One arithmetic group operation: the IR op that combines two values, and
// its identity (SPIR-V 1.6 §3.56.24: the value that leaves the other operand
// unchanged), per width. 8/16-bit integers are combined widened (signed
// min/max on sign-extended values) and masked after; halves (held as floats)
// with ops that round to binary16; 64-bit values with Lo/Hi op pairs.
enum class Kind { kInt, kSigned, kFloat, kBool };
struct SubgroupArithmetic {
	spv::Op spirv;
	Kind kind;
	Op combine;    // 8/16/32-bit integers and 32-bit floats
	Op combine64;  // 64-bit: the Lo op (Hi follows it); kCopy: combine each word alone
	Op combine16;  // 16-bit floats
};
constexpr SubgroupArithmetic kArithmetic[] = {
    {spv::Op::OpGroupNonUniformIAdd, Kind::kInt, Op::kIAdd, Op::kIAdd64Lo, Op::kIAdd},
    {spv::Op::OpGroupNonUniformFAdd, Kind::kFloat, Op::kFAdd, Op::kDAddLo, Op::kHAdd},
    {spv::Op::OpGroupNonUniformIMul, Kind::kInt, Op::kIMul, Op::kIMul64Lo, Op::kIMul},
    {spv::Op::OpGroupNonUniformFMul, Kind::kFloat, Op::kFMul, Op::kDMulLo, Op::kHMul},
    {spv::Op::OpGroupNonUniformSMin, Kind::kSigned, Op::kSMin, Op::kSMin64Lo, Op::kSMin},
    {spv::Op::OpGroupNonUniformUMin, Kind::kInt, Op::kUMin, Op::kUMin64Lo, Op::kUMin},
    {spv::Op::OpGroupNonUniformFMin, Kind::kFloat, Op::kFMin, Op::kDMinLo, Op::kFMin},
    {spv::Op::OpGroupNonUniformSMax, Kind::kSigned, Op::kSMax, Op::kSMax64Lo, Op::kSMax},
    {spv::Op::OpGroupNonUniformUMax, Kind::kInt, Op::kUMax, Op::kUMax64Lo, Op::kUMax},
    {spv::Op::OpGroupNonUniformFMax, Kind::kFloat, Op::kFMax, Op::kDMaxLo, Op::kFMax},
    {spv::Op::OpGroupNonUniformBitwiseAnd, Kind::kInt, Op::kAnd, Op::kCopy, Op::kAnd},
    {spv::Op::OpGroupNonUniformBitwiseOr, Kind::kInt, Op::kOr, Op::kCopy, Op::kOr},
    {spv::Op::OpGroupNonUniformBitwiseXor, Kind::kInt, Op::kXor, Op::kCopy, Op::kXor},
    {spv::Op::OpGroupNonUniformLogicalAnd, Kind::kBool, Op::kLogicalAnd, Op::kCopy, Op::kLogicalAnd},
    {spv::Op::OpGroupNonUniformLogicalOr, Kind::kBool, Op::kLogicalOr, Op::kCopy, Op::kLogicalOr},
    {spv::Op::OpGroupNonUniformLogicalXor, Kind::kBool, Op::kLogicalNotEqual, Op::kCopy, Op::kLogicalNotEqual},
};

// The identity of an operation on `width`-bit values, as a 64-bit pattern
// (narrow integers: sign-extended for signed min/max; halves: as floats).
uint64_t Identity(spv::Op op, uint32_t width) {
	const uint64_t ones = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
	const uint64_t int_max = ones >> 1;  // the largest signed value
	const uint64_t int_min = ~int_max;   // the smallest, sign-extended to 64 bits
	auto float_bits = [&](double value) -> uint64_t {
		if (width == 64) return std::bit_cast<uint64_t>(value);
		return std::bit_cast<uint32_t>(static_cast<float>(value));  // halves live as floats
	};
	switch (op) {
	case spv::Op::OpGroupNonUniformIMul: return 1;
	case spv::Op::OpGroupNonUniformFMul: return float_bits(1.0);
	case spv::Op::OpGroupNonUniformSMin: return int_max;
	case spv::Op::OpGroupNonUniformUMin:
	case spv::Op::OpGroupNonUniformBitwiseAnd: return ones;
	case spv::Op::OpGroupNonUniformSMax: return width == 64 ? int_min : int_min & 0xffffffffu;
	case spv::Op::OpGroupNonUniformFMin: return float_bits(HUGE_VAL);
	case spv::Op::OpGroupNonUniformFMax: return float_bits(-HUGE_VAL);
	case spv::Op::OpGroupNonUniformLogicalAnd: return 1;
	default: return 0;  // IAdd, FAdd (+0), UMax, Or, Xor, LogicalOr, LogicalXor
	}
}

}  // namespace

uint32_t Translator::EmitSubgroup(Op op, uint32_t a, uint32_t b, uint16_t combine, uint32_t imm) {
	program_.uses_subgroups = true;
	uint32_t dst = NewReg();
	program_.insts.push_back({op, combine, dst, a, b, 0, 0, imm});
	return dst;
}

// The subgroup mask built-ins (uvec4, only the first word can be non-zero).
std::vector<uint32_t> Translator::SubgroupMask(spv::BuiltIn builtin) {
	uint32_t id = BuiltinRegisters(static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId))[0];
	uint32_t ones = Const(0xffffffffu);
	uint32_t ge = Emit(Op::kShiftLeft, ones, id);
	uint32_t gt = Emit(Op::kShiftLeft, ge, Const(1));  // two shifts: id + 1 may be 32
	uint32_t word = 0;
	switch (builtin) {
	case spv::BuiltIn::SubgroupEqMask: word = Emit(Op::kShiftLeft, Const(1), id); break;
	case spv::BuiltIn::SubgroupGeMask: word = ge; break;
	case spv::BuiltIn::SubgroupGtMask: word = gt; break;
	case spv::BuiltIn::SubgroupLeMask: word = Emit(Op::kNot, gt); break;
	case spv::BuiltIn::SubgroupLtMask: word = Emit(Op::kNot, ge); break;
	default: Fail("unsupported built-in %s", BuiltInName(static_cast<uint32_t>(builtin)));
	}
	return {word, 0, 0, 0};
}

// SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (VK_EXT_shader_subgroup_ballot,
// VK_EXT_shader_subgroup_vote; GL_ARB_shader_ballot and
// GL_ARB_shader_group_vote through Zink): the same operations as their
// OpGroupNonUniform* successors over the same subgroups, without a scope
// operand. OpSubgroupReadInvocationKHR's index is dynamically uniform.
bool Translator::TranslateSubgroupKhr(const Instruction& inst) {
	switch (inst.op) {
	case spv::Op::OpSubgroupBallotKHR:
	case spv::Op::OpSubgroupFirstInvocationKHR:
	case spv::Op::OpSubgroupReadInvocationKHR:
	case spv::Op::OpSubgroupAllKHR:
	case spv::Op::OpSubgroupAnyKHR:
	case spv::Op::OpSubgroupAllEqualKHR: break;
	default: return false;
	}
	result_types_[inst[2]] = inst[1];
	program_.uses_subgroups = true;
	auto per_leaf = [&](uint32_t value_id, auto f) {
		std::vector<uint32_t> out;
		for (uint32_t reg : Regs(value_id)) out.push_back(f(reg));
		return out;
	};
	const uint32_t everyone = EmitSubgroup(Op::kSubgroupBallot, Const(1));
	switch (inst.op) {
	case spv::Op::OpSubgroupBallotKHR:
		Define(inst[2], {EmitSubgroup(Op::kSubgroupBallot, Scalar(inst[3])), 0, 0, 0});
		break;
	case spv::Op::OpSubgroupFirstInvocationKHR:
		Define(inst[2], per_leaf(inst[3], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupBroadcastFirst, r); }));
		break;
	case spv::Op::OpSubgroupReadInvocationKHR: {
		const uint32_t source = Scalar(inst[4]);
		Define(inst[2], per_leaf(inst[3], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupShuffle, r, source); }));
		break;
	}
	case spv::Op::OpSubgroupAllKHR:
		Define(inst[2], {Emit(Op::kIEqual, EmitSubgroup(Op::kSubgroupBallot, Scalar(inst[3])), everyone)});
		break;
	case spv::Op::OpSubgroupAnyKHR:
		Define(inst[2], {Emit(Op::kINotEqual, EmitSubgroup(Op::kSubgroupBallot, Scalar(inst[3])), 0)});
		break;
	default: {  // OpSubgroupAllEqualKHR
		uint32_t all = 0;
		for (uint32_t reg : Regs(inst[3])) {
			uint32_t same = Emit(Op::kIEqual, reg, EmitSubgroup(Op::kSubgroupBroadcastFirst, reg));
			all = all ? Emit(Op::kLogicalAnd, all, same) : same;
		}
		Define(inst[2], {Emit(Op::kIEqual, EmitSubgroup(Op::kSubgroupBallot, all), everyone)});
		break;
	}
	}
	return true;
}

bool Translator::TranslateSubgroup(const Instruction& inst) {
	const uint32_t op = static_cast<uint32_t>(inst.op);
	if (TranslateSubgroupKhr(inst)) return true;
	if ((op < static_cast<uint32_t>(spv::Op::OpGroupNonUniformElect) ||
	     op > static_cast<uint32_t>(spv::Op::OpGroupNonUniformQuadSwap)) &&
	    inst.op != spv::Op::OpGroupNonUniformRotateKHR)
		return false;
	result_types_[inst[2]] = inst[1];
	auto scope = constants_.find(inst[3]);
	if (scope == constants_.end() || scope->second[3] != static_cast<uint32_t>(spv::Scope::Subgroup))
		Fail("%s: only Subgroup scope is supported", inst.OpName());
	uint32_t lane = BuiltinRegisters(static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId))[0];
	auto per_leaf = [&](uint32_t value_id, auto f) {
		std::vector<uint32_t> out;
		for (uint32_t reg : Regs(value_id)) out.push_back(f(reg));
		return out;
	};
	auto bit_of = [&](uint32_t ballot_id, uint32_t index) {
		// Bit `index` of a uvec4 ballot: words 1..3 are always 0 for us.
		const std::vector<uint32_t>& words = Regs(ballot_id);
		uint32_t in_first = Emit(Op::kULess, index, Const(32));
		uint32_t bit = Emit(Op::kAnd, Emit(Op::kShiftRightLogical, words[0], index), Const(1));
		return Emit(Op::kSelect, in_first, bit, 0);
	};
	switch (inst.op) {
	case spv::Op::OpGroupNonUniformElect: Define(inst[2], {EmitSubgroup(Op::kSubgroupElect, 0)}); return true;
	case spv::Op::OpGroupNonUniformAll:
	case spv::Op::OpGroupNonUniformAny: {
		uint32_t ballot = EmitSubgroup(Op::kSubgroupBallot, Scalar(inst[4]));
		if (inst.op == spv::Op::OpGroupNonUniformAny) {
			Define(inst[2], {Emit(Op::kINotEqual, ballot, 0)});
		} else {
			uint32_t everyone = EmitSubgroup(Op::kSubgroupBallot, Const(1));
			Define(inst[2], {Emit(Op::kIEqual, ballot, everyone)});
		}
		return true;
	}
	case spv::Op::OpGroupNonUniformAllEqual: {
		uint32_t all = 0;
		for (uint32_t reg : Regs(inst[4])) {
			uint32_t same = Emit(Op::kIEqual, reg, EmitSubgroup(Op::kSubgroupBroadcastFirst, reg));
			all = all ? Emit(Op::kLogicalAnd, all, same) : same;
		}
		uint32_t everyone = EmitSubgroup(Op::kSubgroupBallot, Const(1));
		Define(inst[2], {Emit(Op::kIEqual, EmitSubgroup(Op::kSubgroupBallot, all), everyone)});
		return true;
	}
	case spv::Op::OpGroupNonUniformBroadcast:
	case spv::Op::OpGroupNonUniformShuffle: {
		uint32_t source = Scalar(inst[5]);
		Define(inst[2], per_leaf(inst[4], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupShuffle, r, source); }));
		return true;
	}
	case spv::Op::OpGroupNonUniformShuffleXor:
	case spv::Op::OpGroupNonUniformShuffleUp:
	case spv::Op::OpGroupNonUniformShuffleDown: {
		Op index_op = inst.op == spv::Op::OpGroupNonUniformShuffleXor  ? Op::kXor
		              : inst.op == spv::Op::OpGroupNonUniformShuffleUp ? Op::kISub
		                                                               : Op::kIAdd;
		uint32_t source = Emit(index_op, lane, Scalar(inst[5]));
		Define(inst[2], per_leaf(inst[4], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupShuffle, r, source); }));
		return true;
	}
	case spv::Op::OpGroupNonUniformRotateKHR: {
		// SPV_KHR_subgroup_rotate: the Value of invocation
		// ((id + Delta) & (size - 1)) + (id & ~(size - 1)), size being
		// ClusterSize (a constant power of two) or the subgroup's. A cluster
		// larger than the subgroup is invalid only when it runs (shaders
		// switch over sizes up to gl_SubgroupSize): it rotates the subgroup.
		uint32_t size = shader::kSubgroupSize;
		if (inst.n > 6) {
			auto cluster = constants_.find(inst[6]);
			if (cluster == constants_.end() || cluster->second.op != spv::Op::OpConstant ||
			    !std::has_single_bit(cluster->second[3]))
				Fail("%s: ClusterSize is not a constant power of two", inst.OpName());
			size = std::min(cluster->second[3], shader::kSubgroupSize);
		}
		const uint32_t within = Emit(Op::kAnd, Emit(Op::kIAdd, lane, Scalar(inst[5])), Const(size - 1));
		const uint32_t source = Emit(Op::kOr, within, Emit(Op::kAnd, lane, Const(~(size - 1))));
		Define(inst[2], per_leaf(inst[4], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupShuffle, r, source); }));
		return true;
	}
	case spv::Op::OpGroupNonUniformQuadBroadcast:
	case spv::Op::OpGroupNonUniformQuadSwap: {
		// Quads are aligned groups of 4 lanes of the subgroup.
		uint32_t source = inst.op == spv::Op::OpGroupNonUniformQuadBroadcast
		                      ? Emit(Op::kIAdd, Emit(Op::kAnd, lane, Const(~3u)), Scalar(inst[5]))
		                      : Emit(Op::kXor, lane, Emit(Op::kIAdd, Scalar(inst[5]), Const(1)));
		Define(inst[2], per_leaf(inst[4], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupShuffle, r, source); }));
		return true;
	}
	case spv::Op::OpGroupNonUniformBroadcastFirst:
		Define(inst[2], per_leaf(inst[4], [&](uint32_t r) { return EmitSubgroup(Op::kSubgroupBroadcastFirst, r); }));
		return true;
	case spv::Op::OpGroupNonUniformBallot:
		Define(inst[2], {EmitSubgroup(Op::kSubgroupBallot, Scalar(inst[4])), 0, 0, 0});
		return true;
	case spv::Op::OpGroupNonUniformInverseBallot: Define(inst[2], {bit_of(inst[4], lane)}); return true;
	case spv::Op::OpGroupNonUniformBallotBitExtract: Define(inst[2], {bit_of(inst[4], Scalar(inst[5]))}); return true;
	case spv::Op::OpGroupNonUniformBallotBitCount: {
		uint32_t word = Regs(inst[5])[0];
		switch (static_cast<spv::GroupOperation>(inst[4])) {
		case spv::GroupOperation::Reduce: break;
		case spv::GroupOperation::InclusiveScan:
			word = Emit(Op::kAnd, word, SubgroupMask(spv::BuiltIn::SubgroupLeMask)[0]);
			break;
		case spv::GroupOperation::ExclusiveScan:
			word = Emit(Op::kAnd, word, SubgroupMask(spv::BuiltIn::SubgroupLtMask)[0]);
			break;
		default: Fail("unsupported group operation %u", inst[4]);
		}
		Define(inst[2], {Emit(Op::kBitCount, word)});
		return true;
	}
	case spv::Op::OpGroupNonUniformBallotFindLSB: Define(inst[2], {Emit(Op::kFindILsb, Regs(inst[4])[0])}); return true;
	case spv::Op::OpGroupNonUniformBallotFindMSB: Define(inst[2], {Emit(Op::kFindUMsb, Regs(inst[4])[0])}); return true;
	default: break;
	}
	for (const SubgroupArithmetic& arithmetic : kArithmetic) {
		if (arithmetic.spirv != inst.op) continue;
		uint32_t operation = inst[4];
		switch (static_cast<spv::GroupOperation>(operation)) {
		case spv::GroupOperation::Reduce:
		case spv::GroupOperation::InclusiveScan:
		case spv::GroupOperation::ExclusiveScan: break;
		case spv::GroupOperation::ClusteredReduce: {
			auto size = constants_.find(inst[6]);
			if (size == constants_.end()) Fail("cluster size is not a constant");
			operation = 3 | (size->second[3] << 8);
			break;
		}
		default: Fail("unsupported group operation %u", operation);
		}
		ScalarInfo scalar = ScalarOf(inst[1]);
		uint32_t width = scalar.is_bool ? 32 : scalar.width;
		uint64_t identity = Identity(inst.op, width);
		const std::vector<uint32_t>& values = Regs(inst[5]);
		std::vector<uint32_t> out;
		if (width == 64 && arithmetic.combine64 != Op::kCopy) {
			// Register pairs: one wide instruction per component.
			program_.uses_subgroups = true;
			uint32_t id_lo = Const(static_cast<uint32_t>(identity)),
			         id_hi = Const(static_cast<uint32_t>(identity >> 32));
			for (size_t k = 0; k + 1 < values.size(); k += 2) {
				shader::Inst wide{Op::kSubgroupReduce64,
				                  static_cast<uint16_t>(arithmetic.combine64),
				                  NewReg(),
				                  values[k],
				                  values[k + 1],
				                  id_lo,
				                  id_hi,
				                  operation};
				wide.wide = true;
				wide.dst_hi = NewReg();
				program_.insts.push_back(wide);
				out.push_back(wide.dst);
				out.push_back(wide.dst_hi);
			}
			Define(inst[2], out);
			return true;
		}
		// 32-bit registers: 64-bit bitwise ops word by word (same identity in both words).
		Op combine = scalar.is_float && width == 16 ? arithmetic.combine16 : arithmetic.combine;
		uint32_t identity_reg = Const(static_cast<uint32_t>(identity));
		bool sign_extend = arithmetic.kind == Kind::kSigned && width < 32;
		for (uint32_t reg : values) {
			if (sign_extend) reg = Emit(Op::kBitFieldSExtract, reg, 0, Const(width));
			uint32_t result =
			    EmitSubgroup(Op::kSubgroupReduce, reg, identity_reg, static_cast<uint16_t>(combine), operation);
			// Narrow integers: back to their canonical zero-extended form.
			if (!scalar.is_float && !scalar.is_bool && width < 32) result = Canonical(result, scalar);
			out.push_back(result);
		}
		Define(inst[2], out);
		return true;
	}
	Fail("unsupported SPIR-V instruction %s", inst.OpName());
}

}  // namespace tessera::spirv
