// SPIR-V to IR: subgroup operations (OpGroupNonUniform*) and the subgroup
// built-ins. A subgroup is shader::kSubgroupSize consecutive lanes of a
// workgroup; ballots fit in the first word of their uvec4.
#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {

struct SubgroupArithmetic {
	spv::Op spirv;
	Op combine;
	uint32_t identity;
};
constexpr SubgroupArithmetic kArithmetic[] = {
    {spv::Op::OpGroupNonUniformIAdd, Op::kIAdd, 0},
    {spv::Op::OpGroupNonUniformFAdd, Op::kFAdd, 0},
    {spv::Op::OpGroupNonUniformIMul, Op::kIMul, 1},
    {spv::Op::OpGroupNonUniformFMul, Op::kFMul, 0x3f800000u},
    {spv::Op::OpGroupNonUniformSMin, Op::kSMin, 0x7fffffffu},
    {spv::Op::OpGroupNonUniformUMin, Op::kUMin, 0xffffffffu},
    {spv::Op::OpGroupNonUniformFMin, Op::kFMin, 0x7f800000u},
    {spv::Op::OpGroupNonUniformSMax, Op::kSMax, 0x80000000u},
    {spv::Op::OpGroupNonUniformUMax, Op::kUMax, 0},
    {spv::Op::OpGroupNonUniformFMax, Op::kFMax, 0xff800000u},
    {spv::Op::OpGroupNonUniformBitwiseAnd, Op::kAnd, 0xffffffffu},
    {spv::Op::OpGroupNonUniformBitwiseOr, Op::kOr, 0},
    {spv::Op::OpGroupNonUniformBitwiseXor, Op::kXor, 0},
    {spv::Op::OpGroupNonUniformLogicalAnd, Op::kLogicalAnd, 1},
    {spv::Op::OpGroupNonUniformLogicalOr, Op::kLogicalOr, 0},
    {spv::Op::OpGroupNonUniformLogicalXor, Op::kLogicalNotEqual, 0},
};

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

bool Translator::TranslateSubgroup(const Instruction& inst) {
	const uint32_t op = static_cast<uint32_t>(inst.op);
	if (op < static_cast<uint32_t>(spv::Op::OpGroupNonUniformElect) ||
	    op > static_cast<uint32_t>(spv::Op::OpGroupNonUniformQuadSwap))
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
		if (ScalarOf(inst[1]).width != 32)
			Fail("%s on %u-bit values is not supported yet", inst.OpName(), ScalarOf(inst[1]).width);
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
		uint32_t identity = Const(arithmetic.identity);
		Define(inst[2], per_leaf(inst[5], [&](uint32_t r) {
			       return EmitSubgroup(Op::kSubgroupReduce, r, identity, static_cast<uint16_t>(arithmetic.combine),
			                           operation);
		       }));
		return true;
	}
	Fail("unsupported SPIR-V instruction %s", inst.OpName());
}

}  // namespace tessera::spirv
