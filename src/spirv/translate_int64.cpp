// SPIR-V to IR: 64-bit integer arithmetic. A 64-bit scalar is two registers
// (low word, high word); each operation becomes the pair of IR ops that
// compute the two words of its result (alu_ops.inc), or is composed from
// 32-bit ops where the words are independent.
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {

struct PairOps {
	Op op, lo, hi;
};
constexpr PairOps kPairs[] = {
    {Op::kIAdd, Op::kIAdd64Lo, Op::kIAdd64Hi},
    {Op::kISub, Op::kISub64Lo, Op::kISub64Hi},
    {Op::kIMul, Op::kIMul64Lo, Op::kIMul64Hi},
    {Op::kUDiv, Op::kUDiv64Lo, Op::kUDiv64Hi},
    {Op::kSDiv, Op::kSDiv64Lo, Op::kSDiv64Hi},
    {Op::kUMod, Op::kUMod64Lo, Op::kUMod64Hi},
    {Op::kSRem, Op::kSRem64Lo, Op::kSRem64Hi},
    {Op::kSMod, Op::kSMod64Lo, Op::kSMod64Hi},
    {Op::kSNegate, Op::kSNegate64Lo, Op::kSNegate64Hi},
    {Op::kShiftLeft, Op::kShiftLeft64Lo, Op::kShiftLeft64Hi},
    {Op::kShiftRightLogical, Op::kShiftRightLogical64Lo, Op::kShiftRightLogical64Hi},
    {Op::kShiftRightArithmetic, Op::kShiftRightArithmetic64Lo, Op::kShiftRightArithmetic64Hi},
    {Op::kFloatToSigned, Op::kFloatToSigned64Lo, Op::kFloatToSigned64Hi},
    {Op::kFloatToUnsigned, Op::kFloatToUnsigned64Lo, Op::kFloatToUnsigned64Hi},
};

struct SingleOp {
	Op op, op64;
};
// 64-bit operands, 32-bit (or bool) result.
constexpr SingleOp kSingles[] = {
    {Op::kIEqual, Op::kIEqual64},
    {Op::kINotEqual, Op::kINotEqual64},
    {Op::kULess, Op::kULess64},
    {Op::kULessEqual, Op::kULessEqual64},
    {Op::kUGreater, Op::kUGreater64},
    {Op::kUGreaterEqual, Op::kUGreaterEqual64},
    {Op::kSLess, Op::kSLess64},
    {Op::kSLessEqual, Op::kSLessEqual64},
    {Op::kSGreater, Op::kSGreater64},
    {Op::kSGreaterEqual, Op::kSGreaterEqual64},
    {Op::kBitCount, Op::kBitCount64},
    {Op::kSignedToFloat, Op::kSigned64ToFloat},
    {Op::kUnsignedToFloat, Op::kUnsigned64ToFloat},
};

}  // namespace

std::vector<uint32_t> Translator::ComponentWise64(Op op, uint32_t result_type, std::span<const uint32_t> ids) {
	const Type& type = TypeOf(result_type);
	uint32_t components = type.op == spv::Op::OpTypeVector ? type.count : 1;
	ScalarInfo result = ScalarOf(result_type);
	// The registers of component k of an operand (a scalar operand serves every component).
	auto component = [&](uint32_t id, uint32_t k) {
		const std::vector<uint32_t>& regs = Regs(id);
		uint32_t f = ScalarOf(result_types_.at(id)).width == 64 ? 2 : 1;
		uint32_t c = regs.size() == f ? 0 : k;
		return std::vector<uint32_t>(regs.begin() + c * f, regs.begin() + c * f + f);
	};
	auto less = [&](bool is_signed, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
		return Emit(is_signed ? Op::kSLess64 : Op::kULess64, x[0], x[1], y[0], y[1]);
	};
	auto select = [&](uint32_t condition, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
		return std::vector<uint32_t>{Emit(Op::kSelect, condition, x[0], y[0]),
		                             Emit(Op::kSelect, condition, x[1], y[1])};
	};
	std::vector<uint32_t> out;
	for (uint32_t k = 0; k < components; ++k) {
		std::vector<std::vector<uint32_t>> o;
		for (uint32_t id : ids) o.push_back(component(id, k));
		auto push = [&](const std::vector<uint32_t>& regs) { out.insert(out.end(), regs.begin(), regs.end()); };
		auto operand = [&](size_t i, size_t word) { return i < o.size() && word < o[i].size() ? o[i][word] : 0u; };
		bool done = false;
		// Shifts of a 32-bit value by a 64-bit amount stay 32-bit.
		bool shift = op == Op::kShiftLeft || op == Op::kShiftRightLogical || op == Op::kShiftRightArithmetic;
		if (shift && result.width != 64) {
			out.push_back(Canonical(Emit(op, o[0][0], o[1][0]), result));
			continue;
		}
		for (const PairOps& pair : kPairs) {
			if (pair.op != op || result.width != 64) continue;
			if (shift) {
				push({Emit(pair.lo, o[0][0], o[0][1], o[1][0]), Emit(pair.hi, o[0][0], o[0][1], o[1][0])});
			} else {
				push({Emit(pair.lo, operand(0, 0), operand(0, 1), operand(1, 0), operand(1, 1)),
				      Emit(pair.hi, operand(0, 0), operand(0, 1), operand(1, 0), operand(1, 1))});
			}
			done = true;
		}
		for (const SingleOp& single : kSingles) {
			if (single.op != op || done) continue;
			out.push_back(
			    Canonical(Emit(single.op64, operand(0, 0), operand(0, 1), operand(1, 0), operand(1, 1)), result));
			done = true;
		}
		if (done) continue;
		switch (op) {
		case Op::kAnd:
		case Op::kOr:
		case Op::kXor: push({Emit(op, o[0][0], o[1][0]), Emit(op, o[0][1], o[1][1])}); break;
		case Op::kNot: push({Emit(op, o[0][0]), Emit(op, o[0][1])}); break;
		case Op::kSelect: push(select(o[0][0], o[1], o[2])); break;
		case Op::kSMin:
		case Op::kUMin: push(select(less(op == Op::kSMin, o[0], o[1]), o[0], o[1])); break;
		case Op::kSMax:
		case Op::kUMax: push(select(less(op == Op::kSMax, o[0], o[1]), o[1], o[0])); break;
		case Op::kSClamp:
		case Op::kUClamp: {
			bool is_signed = op == Op::kSClamp;
			std::vector<uint32_t> low = select(less(is_signed, o[0], o[1]), o[1], o[0]);
			push(select(less(is_signed, o[2], low), o[2], low));
			break;
		}
		case Op::kSAbs: {
			std::vector<uint32_t> negated = {Emit(Op::kSNegate64Lo, o[0][0], o[0][1]),
			                                 Emit(Op::kSNegate64Hi, o[0][0], o[0][1])};
			push(select(Emit(Op::kSLess64, o[0][0], o[0][1], 0, 0), negated, o[0]));
			break;
		}
		default: Fail("%s on 64-bit integers is not supported yet", shader::OpName(op));
		}
	}
	return out;
}

}  // namespace tessera::spirv
