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
    {Op::kFindILsb, Op::kFindILsb64},
    {Op::kFindUMsb, Op::kFindUMsb64},
    {Op::kFindSMsb, Op::kFindSMsb64},
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
			uint32_t value = Emit(single.op64, operand(0, 0), operand(0, 1), operand(1, 0), operand(1, 1));
			// A 64-bit result (bit count, FindILsb...) is small or -1: sign-extend it.
			if (result.width == 64 && !result.is_float)
				push({value, Emit(Op::kShiftRightArithmetic, value, Const(31))});
			else
				out.push_back(Canonical(value, result));
			done = true;
		}
		if (done) continue;
		switch (op) {
		case Op::kAnd:
		case Op::kOr:
		case Op::kXor: push({Emit(op, o[0][0], o[1][0]), Emit(op, o[0][1], o[1][1])}); break;
		case Op::kNot: push({Emit(op, o[0][0]), Emit(op, o[0][1])}); break;
		case Op::kBitReverse: push({Emit(op, o[0][1]), Emit(op, o[0][0])}); break;
		case Op::kBitFieldInsert:
		case Op::kBitFieldSExtract:
		case Op::kBitFieldUExtract: push(BitField64(op, o)); break;
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
		case Op::kSSign: {
			uint32_t nonzero = Emit(Op::kINotEqual64, o[0][0], o[0][1], 0, 0);
			uint32_t high = Emit(Op::kShiftRightArithmetic, o[0][1], Const(31));  // -1 when negative
			push({Emit(Op::kOr, high, nonzero), high});
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

// Bit-field ops on 64-bit bases, composed from 64-bit shifts. Offset and
// count are scalars of any width (their low words); a count of 0 gives 0
// (extract) or the base unchanged (insert).
std::vector<uint32_t> Translator::BitField64(Op op, const std::vector<std::vector<uint32_t>>& o) {
	auto shift = [&](Op lo, Op hi, const std::vector<uint32_t>& x, uint32_t amount) {
		return std::vector<uint32_t>{Emit(lo, x[0], x[1], amount), Emit(hi, x[0], x[1], amount)};
	};
	auto select = [&](uint32_t condition, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
		return std::vector<uint32_t>{Emit(Op::kSelect, condition, x[0], y[0]),
		                             Emit(Op::kSelect, condition, x[1], y[1])};
	};
	const std::vector<uint32_t>& base = o[0];
	bool insert = op == Op::kBitFieldInsert;
	uint32_t offset = o[insert ? 2 : 1][0], count = o[insert ? 3 : 2][0];
	uint32_t empty = Emit(Op::kIEqual, count, 0);
	uint32_t rest = Emit(Op::kISub, Const(64), count);  // 64 - count
	const std::vector<uint32_t> zero = {0, 0};
	if (op == Op::kBitFieldSExtract) {
		// (base << (64 - offset - count)) >> (64 - count), arithmetic.
		uint32_t up = Emit(Op::kISub, rest, offset);
		std::vector<uint32_t> high = shift(Op::kShiftLeft64Lo, Op::kShiftLeft64Hi, base, up);
		return select(empty, zero, shift(Op::kShiftRightArithmetic64Lo, Op::kShiftRightArithmetic64Hi, high, rest));
	}
	uint32_t ones = Const(~0u);
	std::vector<uint32_t> field =
	    select(empty, zero, shift(Op::kShiftRightLogical64Lo, Op::kShiftRightLogical64Hi, {ones, ones}, rest));
	if (op == Op::kBitFieldUExtract) {
		std::vector<uint32_t> down = shift(Op::kShiftRightLogical64Lo, Op::kShiftRightLogical64Hi, base, offset);
		return {Emit(Op::kAnd, down[0], field[0]), Emit(Op::kAnd, down[1], field[1])};
	}
	std::vector<uint32_t> mask = shift(Op::kShiftLeft64Lo, Op::kShiftLeft64Hi, field, offset);
	std::vector<uint32_t> moved = shift(Op::kShiftLeft64Lo, Op::kShiftLeft64Hi, o[1], offset);
	std::vector<uint32_t> out;
	for (int w = 0; w < 2; ++w)
		out.push_back(
		    Emit(Op::kOr, Emit(Op::kAnd, base[w], Emit(Op::kNot, mask[w])), Emit(Op::kAnd, moved[w], mask[w])));
	return out;
}

// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: two-member
// struct results, {low, carry/borrow/high} per component, at any width.
std::vector<uint32_t> Translator::ExtendedArithmetic(const Instruction& inst) {
	ScalarInfo scalar = ScalarOf(result_types_.at(inst[3]));
	const std::vector<uint32_t>& a = Regs(inst[3]);
	const std::vector<uint32_t>& b = Regs(inst[4]);
	std::vector<uint32_t> low, high;
	if (scalar.width == 64) {
		for (size_t k = 0; k + 1 < a.size(); k += 2) {
			uint32_t x0 = a[k], x1 = a[k + 1], y0 = b[k], y1 = b[k + 1];
			switch (inst.op) {
			case spv::Op::OpIAddCarry:
				low.push_back(Emit(Op::kIAdd64Lo, x0, x1, y0, y1));
				low.push_back(Emit(Op::kIAdd64Hi, x0, x1, y0, y1));
				high.push_back(Emit(Op::kULess64, low[k], low[k + 1], x0, x1));
				break;
			case spv::Op::OpISubBorrow:
				low.push_back(Emit(Op::kISub64Lo, x0, x1, y0, y1));
				low.push_back(Emit(Op::kISub64Hi, x0, x1, y0, y1));
				high.push_back(Emit(Op::kULess64, x0, x1, y0, y1));
				break;
			default: {
				bool is_signed = inst.op == spv::Op::OpSMulExtended;
				low.push_back(Emit(Op::kIMul64Lo, x0, x1, y0, y1));
				low.push_back(Emit(Op::kIMul64Hi, x0, x1, y0, y1));
				high.push_back(Emit(is_signed ? Op::kSMulHigh64Lo : Op::kUMulHigh64Lo, x0, x1, y0, y1));
				break;
			}
			}
			// The high word of the second member.
			bool mul = inst.op == spv::Op::OpUMulExtended || inst.op == spv::Op::OpSMulExtended;
			Op hi = inst.op == spv::Op::OpSMulExtended ? Op::kSMulHigh64Hi : Op::kUMulHigh64Hi;
			high.push_back(mul ? Emit(hi, x0, x1, y0, y1) : 0u);
		}
	} else {
		uint32_t width = scalar.width;
		for (size_t k = 0; k < a.size(); ++k) {
			uint32_t x = a[k], y = b[k];
			switch (inst.op) {
			case spv::Op::OpIAddCarry: {
				uint32_t sum = Emit(Op::kIAdd, x, y);
				low.push_back(Canonical(sum, scalar));
				// Narrow operands are zero-extended: the carry is bit `width` of the sum.
				high.push_back(width == 32 ? Emit(Op::kULess, sum, x)
				                           : Emit(Op::kShiftRightLogical, sum, Const(width)));
				break;
			}
			case spv::Op::OpISubBorrow:
				low.push_back(Canonical(Emit(Op::kISub, x, y), scalar));
				high.push_back(Emit(Op::kULess, x, y));
				break;
			case spv::Op::OpUMulExtended:
				low.push_back(Canonical(Emit(Op::kIMul, x, y), scalar));
				high.push_back(width == 32 ? Emit(Op::kUMulHigh, x, y)
				                           : Emit(Op::kShiftRightLogical, Emit(Op::kIMul, x, y), Const(width)));
				break;
			default:  // OpSMulExtended
				if (width == 32) {
					low.push_back(Emit(Op::kIMul, x, y));
					high.push_back(Emit(Op::kSMulHigh, x, y));
				} else {
					// The signed product of two sign-extended 8/16-bit values fits 32 bits.
					uint32_t product = Emit(Op::kIMul, Emit(Op::kBitFieldSExtract, x, 0, Const(width)),
					                        Emit(Op::kBitFieldSExtract, y, 0, Const(width)));
					low.push_back(Canonical(product, scalar));
					high.push_back(Canonical(Emit(Op::kShiftRightArithmetic, product, Const(width)), scalar));
				}
				break;
			}
		}
	}
	low.insert(low.end(), high.begin(), high.end());
	return low;
}

}  // namespace tessera::spirv
