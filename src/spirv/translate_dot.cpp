// SPIR-V to IR: integer dot products (SPIR-V 1.6 / SPV_KHR_integer_dot_product:
// OpSDot, OpUDot, OpSUDot and their AccSat forms). SPIR-V 1.6 §3.56.14:
// every component is sign- or zero-extended to the result's width N, the
// products are summed, and the result is the low N bits of the exact sum.
// The AccSat forms then add the accumulator with saturation (signed for
// SDot and SUDot, unsigned for UDot); an overflow before that final addition
// leaves the result undefined, so the sum is taken as its low N bits there too.
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {

struct DotForm {
	spv::Op spirv;
	bool signed1, signed2;  // how Vector 1 and Vector 2 extend
	bool accumulate;
};
constexpr DotForm kDotForms[] = {
    {spv::Op::OpSDot, true, true, false},        {spv::Op::OpUDot, false, false, false},
    {spv::Op::OpSUDot, true, false, false},      {spv::Op::OpSDotAccSat, true, true, true},
    {spv::Op::OpUDotAccSat, false, false, true}, {spv::Op::OpSUDotAccSat, true, false, true},
};

}  // namespace

bool Translator::TranslateDot(const Instruction& inst) {
	const DotForm* form = nullptr;
	for (const DotForm& f : kDotForms)
		if (f.spirv == inst.op) form = &f;
	if (!form) return false;
	result_types_[inst[2]] = inst[1];
	const uint32_t n = ScalarOf(inst[1]).width;
	const uint32_t input_type = result_types_.at(inst[3]);
	const ScalarInfo input = ScalarOf(input_type);
	const bool packed = TypeOf(input_type).op != spv::Op::OpTypeVector;
	// Optional operand after the vectors (and the accumulator): Packed Vector Format.
	if (packed) {
		uint32_t format_operand = form->accumulate ? 6 : 5;
		if (inst.n <= format_operand ||
		    inst[format_operand] != static_cast<uint32_t>(spv::PackedVectorFormat::PackedVectorFormat4x8Bit))
			Fail("%s: unsupported packed vector format", inst.OpName());
	}

	// The components of a vector, extended to N bits: one register (N <= 32)
	// or a (low, high) pair (N = 64).
	auto components = [&](uint32_t id, bool is_signed) {
		const std::vector<uint32_t>& regs = Regs(id);
		std::vector<uint32_t> lows, highs;
		if (packed) {  // PackedVectorFormat4x8Bit: component k is bits [8k, 8k + 8)
			for (uint32_t k = 0; k < 4; ++k)
				lows.push_back(
				    Emit(is_signed ? Op::kBitFieldSExtract : Op::kBitFieldUExtract, regs[0], Const(8 * k), Const(8)));
		} else if (input.width == 64) {
			for (size_t k = 0; k + 1 < regs.size(); k += 2) lows.push_back(regs[k]), highs.push_back(regs[k + 1]);
		} else {
			for (uint32_t reg : regs)
				lows.push_back(is_signed && input.width < 32 ? Emit(Op::kBitFieldSExtract, reg, 0, Const(input.width))
				                                             : reg);
		}
		if (n == 64 && highs.empty())
			for (uint32_t reg : lows) highs.push_back(is_signed ? Emit(Op::kShiftRightArithmetic, reg, Const(31)) : 0u);
		return std::make_pair(lows, highs);
	};
	auto [x, x_hi] = components(inst[3], form->signed1);
	auto [y, y_hi] = components(inst[4], form->signed2);
	// Valid modules give both operands one vector type; stay in bounds for
	// any other (the fuzzer found operands of different widths).
	if (x.size() != y.size() || (n == 64 && (x_hi.size() != x.size() || y_hi.size() != y.size())))
		Fail("%s: operands of different sizes", inst.OpName());

	if (n == 64) {
		uint32_t sum = 0, sum_hi = 0;
		for (size_t k = 0; k < x.size(); ++k) {
			uint32_t lo = Emit(Op::kIMul64Lo, x[k], x_hi[k], y[k], y_hi[k]);
			uint32_t hi = Emit(Op::kIMul64Hi, x[k], x_hi[k], y[k], y_hi[k]);
			if (k == 0) {
				sum = lo, sum_hi = hi;
				continue;
			}
			uint32_t next = Emit(Op::kIAdd64Lo, sum, sum_hi, lo, hi);
			sum_hi = Emit(Op::kIAdd64Hi, sum, sum_hi, lo, hi);
			sum = next;
		}
		if (form->accumulate) {
			const std::vector<uint32_t>& acc = Regs(inst[5]);
			// The accumulator has the result's type in a valid module; the
			// fuzzer found a 32-bit one with a 64-bit result.
			if (acc.size() != 2) Fail("%s: the accumulator is not the result's type", inst.OpName());
			bool saturate_signed = form->signed1;
			Op lo_op = saturate_signed ? Op::kSAddSat64Lo : Op::kUAddSat64Lo;
			Op hi_op = saturate_signed ? Op::kSAddSat64Hi : Op::kUAddSat64Hi;
			uint32_t lo = Emit(lo_op, acc[0], acc[1], sum, sum_hi);
			sum_hi = Emit(hi_op, acc[0], acc[1], sum, sum_hi);
			sum = lo;
		}
		Define(inst[2], {sum, sum_hi});
		return true;
	}

	// N <= 32: 32-bit wrapping arithmetic; the low N bits are the result.
	uint32_t sum = Emit(Op::kIMul, x[0], y[0]);
	for (size_t k = 1; k < x.size(); ++k) sum = Emit(Op::kIAdd, sum, Emit(Op::kIMul, x[k], y[k]));
	if (form->accumulate) {
		if (Regs(inst[5]).size() != 1) Fail("%s: the accumulator is not the result's type", inst.OpName());
		uint32_t acc = Regs(inst[5])[0];
		bool saturate_signed = form->signed1;
		if (n == 32) {
			sum = Emit(saturate_signed ? Op::kSAddSat : Op::kUAddSat, acc, sum);
		} else if (saturate_signed) {
			// Both N-bit values sign-extended: their exact sum fits in 32 bits.
			uint32_t total = Emit(Op::kIAdd, Emit(Op::kBitFieldSExtract, acc, 0, Const(n)),
			                      Emit(Op::kBitFieldSExtract, sum, 0, Const(n)));
			sum = Emit(Op::kSClamp, total, Const(~0u << (n - 1)), Const((1u << (n - 1)) - 1u));
		} else {
			uint32_t mask = Const((1u << n) - 1u);
			sum = Emit(Op::kUMin, Emit(Op::kIAdd, acc, Emit(Op::kAnd, sum, mask)), mask);
		}
	}
	Define(inst[2], {Canonical(sum, ScalarOf(inst[1]))});
	return true;
}

}  // namespace tessera::spirv
