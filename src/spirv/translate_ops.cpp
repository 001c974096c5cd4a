// SPIR-V to IR: value operations. Vector and matrix operations become one IR
// instruction per component; the component-wise ones are tables.
#include <spirv/unified1/GLSL.std.450.h>

#include <functional>
#include <unordered_map>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {

struct CoreMapping {
	spv::Op spirv;
	Op ir;
};
// SPIR-V instructions that apply one IR op to each component: operands from word 3 on.
constexpr CoreMapping kComponentWise[] = {
    {spv::Op::OpIAdd, Op::kIAdd},
    {spv::Op::OpISub, Op::kISub},
    {spv::Op::OpIMul, Op::kIMul},
    {spv::Op::OpUDiv, Op::kUDiv},
    {spv::Op::OpSDiv, Op::kSDiv},
    {spv::Op::OpUMod, Op::kUMod},
    {spv::Op::OpSRem, Op::kSRem},
    {spv::Op::OpSMod, Op::kSMod},
    {spv::Op::OpSNegate, Op::kSNegate},
    {spv::Op::OpNot, Op::kNot},
    {spv::Op::OpBitwiseAnd, Op::kAnd},
    {spv::Op::OpBitwiseOr, Op::kOr},
    {spv::Op::OpBitwiseXor, Op::kXor},
    {spv::Op::OpShiftLeftLogical, Op::kShiftLeft},
    {spv::Op::OpShiftRightLogical, Op::kShiftRightLogical},
    {spv::Op::OpShiftRightArithmetic, Op::kShiftRightArithmetic},
    {spv::Op::OpBitCount, Op::kBitCount},
    {spv::Op::OpBitReverse, Op::kBitReverse},
    {spv::Op::OpBitFieldInsert, Op::kBitFieldInsert},
    {spv::Op::OpBitFieldSExtract, Op::kBitFieldSExtract},
    {spv::Op::OpBitFieldUExtract, Op::kBitFieldUExtract},
    {spv::Op::OpIEqual, Op::kIEqual},
    {spv::Op::OpINotEqual, Op::kINotEqual},
    {spv::Op::OpULessThan, Op::kULess},
    {spv::Op::OpULessThanEqual, Op::kULessEqual},
    {spv::Op::OpUGreaterThan, Op::kUGreater},
    {spv::Op::OpUGreaterThanEqual, Op::kUGreaterEqual},
    {spv::Op::OpSLessThan, Op::kSLess},
    {spv::Op::OpSLessThanEqual, Op::kSLessEqual},
    {spv::Op::OpSGreaterThan, Op::kSGreater},
    {spv::Op::OpSGreaterThanEqual, Op::kSGreaterEqual},
    {spv::Op::OpLogicalNot, Op::kLogicalNot},
    {spv::Op::OpLogicalAnd, Op::kLogicalAnd},
    {spv::Op::OpLogicalOr, Op::kLogicalOr},
    {spv::Op::OpLogicalEqual, Op::kLogicalEqual},
    {spv::Op::OpLogicalNotEqual, Op::kLogicalNotEqual},
    {spv::Op::OpSelect, Op::kSelect},
    {spv::Op::OpFAdd, Op::kFAdd},
    {spv::Op::OpFSub, Op::kFSub},
    {spv::Op::OpFMul, Op::kFMul},
    {spv::Op::OpFDiv, Op::kFDiv},
    {spv::Op::OpFRem, Op::kFRem},
    {spv::Op::OpFMod, Op::kFMod},
    {spv::Op::OpFNegate, Op::kFNegate},
    {spv::Op::OpFOrdEqual, Op::kFOrdEqual},
    {spv::Op::OpFOrdNotEqual, Op::kFOrdNotEqual},
    {spv::Op::OpFOrdLessThan, Op::kFOrdLess},
    {spv::Op::OpFOrdLessThanEqual, Op::kFOrdLessEqual},
    {spv::Op::OpFOrdGreaterThan, Op::kFOrdGreater},
    {spv::Op::OpFOrdGreaterThanEqual, Op::kFOrdGreaterEqual},
    {spv::Op::OpFUnordEqual, Op::kFUnordEqual},
    {spv::Op::OpFUnordNotEqual, Op::kFUnordNotEqual},
    {spv::Op::OpFUnordLessThan, Op::kFUnordLess},
    {spv::Op::OpFUnordLessThanEqual, Op::kFUnordLessEqual},
    {spv::Op::OpFUnordGreaterThan, Op::kFUnordGreater},
    {spv::Op::OpFUnordGreaterThanEqual, Op::kFUnordGreaterEqual},
    {spv::Op::OpIsNan, Op::kIsNan},
    {spv::Op::OpIsInf, Op::kIsInf},
    {spv::Op::OpConvertFToS, Op::kFloatToSigned},
    {spv::Op::OpConvertFToU, Op::kFloatToUnsigned},
    {spv::Op::OpConvertSToF, Op::kSignedToFloat},
    {spv::Op::OpConvertUToF, Op::kUnsignedToFloat},
    {spv::Op::OpQuantizeToF16, Op::kQuantizeToF16FlushDenormals},
};

struct GlslMapping {
	GLSLstd450 glsl;
	Op ir;
};
// GLSL.std.450 instructions that apply one IR op to each component.
constexpr GlslMapping kGlslComponentWise[] = {
    {GLSLstd450Round, Op::kRound},       {GLSLstd450RoundEven, Op::kRoundEven},
    {GLSLstd450Trunc, Op::kTrunc},       {GLSLstd450FAbs, Op::kFAbs},
    {GLSLstd450SAbs, Op::kSAbs},         {GLSLstd450FSign, Op::kFSign},
    {GLSLstd450SSign, Op::kSSign},       {GLSLstd450Floor, Op::kFloor},
    {GLSLstd450Ceil, Op::kCeil},         {GLSLstd450Fract, Op::kFract},
    {GLSLstd450Radians, Op::kRadians},   {GLSLstd450Degrees, Op::kDegrees},
    {GLSLstd450Sin, Op::kSin},           {GLSLstd450Cos, Op::kCos},
    {GLSLstd450Tan, Op::kTan},           {GLSLstd450Asin, Op::kAsin},
    {GLSLstd450Acos, Op::kAcos},         {GLSLstd450Atan, Op::kAtan},
    {GLSLstd450Sinh, Op::kSinh},         {GLSLstd450Cosh, Op::kCosh},
    {GLSLstd450Tanh, Op::kTanh},         {GLSLstd450Asinh, Op::kAsinh},
    {GLSLstd450Acosh, Op::kAcosh},       {GLSLstd450Atanh, Op::kAtanh},
    {GLSLstd450Atan2, Op::kAtan2},       {GLSLstd450Pow, Op::kPow},
    {GLSLstd450Exp, Op::kExp},           {GLSLstd450Log, Op::kLog},
    {GLSLstd450Exp2, Op::kExp2},         {GLSLstd450Log2, Op::kLog2},
    {GLSLstd450Sqrt, Op::kSqrt},         {GLSLstd450InverseSqrt, Op::kInverseSqrt},
    {GLSLstd450FMin, Op::kFMin},         {GLSLstd450UMin, Op::kUMin},
    {GLSLstd450SMin, Op::kSMin},         {GLSLstd450FMax, Op::kFMax},
    {GLSLstd450UMax, Op::kUMax},         {GLSLstd450SMax, Op::kSMax},
    {GLSLstd450FClamp, Op::kFClamp},     {GLSLstd450UClamp, Op::kUClamp},
    {GLSLstd450SClamp, Op::kSClamp},     {GLSLstd450FMix, Op::kFMix},
    {GLSLstd450Step, Op::kStep},         {GLSLstd450SmoothStep, Op::kSmoothStep},
    {GLSLstd450Fma, Op::kFma},           {GLSLstd450FindILsb, Op::kFindILsb},
    {GLSLstd450FindSMsb, Op::kFindSMsb}, {GLSLstd450FindUMsb, Op::kFindUMsb},
    {GLSLstd450NMin, Op::kFMin},         {GLSLstd450NMax, Op::kFMax},
    {GLSLstd450NClamp, Op::kFClamp},
};

const std::unordered_map<uint32_t, Op>& CoreTable() {
	static const std::unordered_map<uint32_t, Op> map = [] {
		std::unordered_map<uint32_t, Op> m;
		for (const CoreMapping& entry : kComponentWise) m[static_cast<uint32_t>(entry.spirv)] = entry.ir;
		return m;
	}();
	return map;
}

const std::unordered_map<uint32_t, Op>& GlslTable() {
	static const std::unordered_map<uint32_t, Op> map = [] {
		std::unordered_map<uint32_t, Op> m;
		for (const GlslMapping& entry : kGlslComponentWise) m[static_cast<uint32_t>(entry.glsl)] = entry.ir;
		return m;
	}();
	return map;
}

}  // namespace

namespace {
// Ops that read their integer operands as signed: narrow operands are
// sign-extended first (registers hold them zero-extended).
bool ReadsSigned(Op op) {
	switch (op) {
	case Op::kSDiv:
	case Op::kSRem:
	case Op::kSMod:
	case Op::kSLess:
	case Op::kSLessEqual:
	case Op::kSGreater:
	case Op::kSGreaterEqual:
	case Op::kShiftRightArithmetic:
	case Op::kSMin:
	case Op::kSMax:
	case Op::kSClamp:
	case Op::kSAbs:
	case Op::kSSign:
	case Op::kFindSMsb:
	case Op::kSignedToFloat: return true;
	default: return false;
	}
}
}  // namespace

std::vector<uint32_t> Translator::ComponentWise(Op op, uint32_t result_type, std::span<const uint32_t> operand_ids) {
	bool is_double = ScalarOf(result_type).is_float && ScalarOf(result_type).width == 64;
	for (uint32_t id : operand_ids) is_double |= IsDouble(id);
	if (is_double) return ComponentWiseDouble(op, result_type, operand_ids);
	// Shift amounts and bit-field offsets and counts may have another width
	// than the value (SPIR-V "Bit Instructions"); only their low bits
	// matter, so a 64-bit one of a narrow value is taken by its low words.
	const bool amounts = op == Op::kShiftLeft || op == Op::kShiftRightLogical || op == Op::kShiftRightArithmetic ||
	                     op == Op::kBitFieldInsert || op == Op::kBitFieldSExtract || op == Op::kBitFieldUExtract;
	const uint32_t value_operands = op == Op::kBitFieldInsert ? 2 : 1;  // the others are amounts
	auto is_wide = [&](uint32_t id) {
		auto type = result_types_.find(id);
		return type != result_types_.end() && ScalarOf(type->second).width == 64;
	};
	bool wide = ScalarOf(result_type).width == 64;
	for (size_t o = 0; o < operand_ids.size(); ++o)
		wide |= is_wide(operand_ids[o]) && !(amounts && o >= value_operands);
	if (wide) return ComponentWise64(op, result_type, operand_ids);
	uint32_t n = LeafCount(result_type);
	std::vector<std::vector<uint32_t>> operands;
	for (size_t o = 0; o < operand_ids.size(); ++o) {
		const uint32_t id = operand_ids[o];
		operands.push_back(Regs(id));
		if (amounts && o >= value_operands && is_wide(id)) {  // the low word of each component
			std::vector<uint32_t>& regs = operands.back();
			for (size_t k = 0; 2 * k < regs.size(); ++k) regs[k] = regs[2 * k];
			regs.resize(regs.size() / 2);
		}
		auto type = result_types_.find(id);
		if (!ReadsSigned(op) || type == result_types_.end()) continue;
		ScalarInfo scalar = ScalarOf(type->second);
		if (scalar.is_float || scalar.is_bool || scalar.width == 32) continue;
		for (uint32_t& reg : operands.back()) reg = Emit(Op::kBitFieldSExtract, reg, 0, Const(scalar.width));
	}
	ScalarInfo result = ScalarOf(result_type);
	std::vector<uint32_t> out;
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t r[4] = {0, 0, 0, 0};
		for (size_t o = 0; o < operands.size() && o < 4; ++o) {
			const std::vector<uint32_t>& regs = operands[o];
			r[o] = regs.size() == 1 ? regs[0] : regs.at(k);  // a scalar operand applies to every component
		}
		uint32_t value = Emit(op, r[0], r[1], r[2], r[3]);
		if (op == Op::kBitReverse && result.width < 32)
			value = Emit(Op::kShiftRightLogical, value, Const(32 - result.width));
		out.push_back(Canonical(value, result));
	}
	return out;
}

// OpBitcast: the same bits seen as another type, also between vectors of
// different component counts (u32 <-> f16vec2, u8vec4, ...).
std::vector<uint32_t> Translator::Bitcast(uint32_t value_id, uint32_t result_type) {
	ScalarInfo from = ScalarOf(result_types_.at(value_id));
	ScalarInfo to = ScalarOf(result_type);
	// 64-bit values are already held as 32-bit words, low word first.
	from.width = std::min(from.width, 32u);
	to.width = std::min(to.width, 32u);
	std::vector<uint32_t> raw = Regs(value_id);
	if (from.is_float && from.width == 16)
		for (uint32_t& reg : raw) reg = Emit(Op::kFloatToHalfBits, reg);
	std::vector<uint32_t> out;
	if (to.width == from.width) {
		out = raw;
	} else if (to.width > from.width) {
		uint32_t parts = to.width / from.width;
		for (size_t k = 0; k + parts <= raw.size(); k += parts) {
			uint32_t word = raw[k];
			for (uint32_t t = 1; t < parts; ++t)
				word = Emit(Op::kOr, word, Emit(Op::kShiftLeft, raw[k + t], Const(t * from.width)));
			out.push_back(word);
		}
	} else {
		uint32_t parts = from.width / to.width, mask = (1u << to.width) - 1u;
		for (uint32_t word : raw)
			for (uint32_t t = 0; t < parts; ++t)
				out.push_back(
				    Emit(Op::kAnd, t ? Emit(Op::kShiftRightLogical, word, Const(t * to.width)) : word, Const(mask)));
	}
	if (to.is_float && to.width == 16)
		for (uint32_t& reg : out) reg = Emit(Op::kHalfBitsToFloat, reg);
	if (out.size() != LeafCount(result_type)) Fail("OpBitcast between types of different sizes");
	return out;
}

namespace {
// Sum of products a[i] * b[i], as IR instructions.
template <class EmitFn>
uint32_t DotProduct(EmitFn emit, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
	uint32_t sum = emit(Op::kFMul, a[0], b[0]);
	for (size_t i = 1; i < a.size(); ++i) sum = emit(Op::kFAdd, sum, emit(Op::kFMul, a[i], b[i]));
	return sum;
}
}  // namespace

bool Translator::TranslateValue(const Instruction& inst) {
	auto emit = [this](Op op, uint32_t a, uint32_t b = 0) { return Emit(op, a, b); };
	auto core = CoreTable().find(static_cast<uint32_t>(inst.op));
	if (core != CoreTable().end()) {
		result_types_[inst[2]] = inst[1];
		Define(inst[2], ComponentWise(core->second, inst[1], {inst.w + 3, inst.w + inst.n}));
		return true;
	}
	if (TranslateSubgroup(inst)) return true;
	if (TranslateDot(inst)) return true;
	switch (inst.op) {
	case spv::Op::OpExtInst: {
		result_types_[inst[2]] = inst[1];
		if (inst[3] == glsl_ && glsl_) {
			TranslateGlsl(inst);
			// 16-bit results computed in 32 bits: round (or mask) once more.
			if (ScalarOf(inst[1]).width < 32) values_[inst[2]] = Canonical(values_.at(inst[2]), inst[1]);
			return true;
		}
		for (uint32_t set : ignored_ext_sets_)
			if (inst[3] == set) return true;  // non-semantic: debug info and the like
		return false;
	}
	// SPV_KHR_expect_assume: OpExpectKHR is its Value (ExpectedValue is a
	// hint), OpAssumeTrueKHR a promise that lets nothing be skipped here.
	case spv::Op::OpExpectKHR:
		result_types_[inst[2]] = inst[1];
		Define(inst[2], Regs(inst[3]));
		return true;
	case spv::Op::OpAssumeTrueKHR: return true;
	case spv::Op::OpUndef:
		result_types_[inst[2]] = inst[1];
		Define(inst[2], std::vector<uint32_t>(LeafCount(inst[1]), 0));
		return true;
	case spv::Op::OpCopyObject:
	case spv::Op::OpCopyLogical:
	case spv::Op::OpBitcast:
	case spv::Op::OpSConvert:
	case spv::Op::OpUConvert:
	case spv::Op::OpFConvert: {
		result_types_[inst[2]] = inst[1];
		if (pointers_.count(inst[3]) && !IsPhysical(pointers_[inst[3]])) {  // device addresses are values
			pointers_[inst[2]] = pointers_[inst[3]];
			return true;
		}
		if (inst.op == spv::Op::OpCopyObject || inst.op == spv::Op::OpCopyLogical) {
			Define(inst[2], Regs(inst[3]));
			return true;
		}
		if (inst.op == spv::Op::OpBitcast) {
			Define(inst[2], Bitcast(inst[3], inst[1]));
			return true;
		}
		// Width conversions. Registers hold narrow integers zero-extended and
		// halves as floats: widening is free except for the sign.
		ScalarInfo from = ScalarOf(result_types_.at(inst[3]));
		ScalarInfo to = ScalarOf(inst[1]);
		// FPRoundingMode RTZ on a conversion to binary16 (RTE, the other mode
		// Vulkan allows, is the default: VUID-StandaloneSpirv-FPRoundingMode-04675).
		auto rounding = decorations_.find(inst[2]);
		bool toward_zero = inst.op == spv::Op::OpFConvert && to.width == 16 && rounding != decorations_.end() &&
		                   rounding->second.round_toward_zero;
		if (inst.op == spv::Op::OpFConvert && (from.width == 64 || to.width == 64)) {
			Define(inst[2], ConvertDouble(inst[3], inst[1], false, toward_zero));
			return true;
		}
		if (toward_zero) {
			std::vector<uint32_t> regs;
			for (uint32_t reg : Regs(inst[3])) regs.push_back(Emit(Op::kHalfTowardZero, reg));
			Define(inst[2], regs);
			return true;
		}
		std::vector<uint32_t> regs = Regs(inst[3]);
		if (from.width == 64) {  // keep the low words
			std::vector<uint32_t> low;
			for (size_t k = 0; k < regs.size(); k += 2) low.push_back(regs[k]);
			regs = low;
		}
		if (inst.op == spv::Op::OpSConvert && from.width < 32)
			for (uint32_t& reg : regs) reg = Emit(Op::kBitFieldSExtract, reg, 0, Const(from.width));
		if (to.width == 64 && from.width != 64) {  // add high words
			std::vector<uint32_t> wide;
			for (uint32_t reg : regs) {
				wide.push_back(reg);
				wide.push_back(inst.op == spv::Op::OpSConvert ? Emit(Op::kShiftRightArithmetic, reg, Const(31)) : 0u);
			}
			regs = wide;
		}
		Define(inst[2], Canonical(regs, inst[1]));
		return true;
	}
	case spv::Op::OpCompositeConstruct: {
		std::vector<uint32_t> regs;
		for (uint32_t i = 3; i < inst.n; ++i) {
			const std::vector<uint32_t>& part = Regs(inst[i]);
			regs.insert(regs.end(), part.begin(), part.end());
		}
		result_types_[inst[2]] = inst[1];
		Define(inst[2], regs);
		return true;
	}
	case spv::Op::OpCompositeExtract:
	case spv::Op::OpCompositeInsert: {
		bool insert = inst.op == spv::Op::OpCompositeInsert;
		uint32_t composite = insert ? inst[4] : inst[3];
		uint32_t type = result_types_.at(composite);
		uint32_t first = 0;
		for (uint32_t i = insert ? 5 : 4; i < inst.n; ++i) {
			const Type& t = TypeOf(type);
			if (t.op == spv::Op::OpTypeStruct) {
				for (uint32_t m = 0; m < inst[i]; ++m) first += LeafCount(t.members.at(m));
				type = t.members.at(inst[i]);
			} else {
				first += inst[i] * LeafCount(t.element);
				type = t.element;
			}
		}
		uint32_t count = LeafCount(type);
		std::vector<uint32_t> regs = Regs(composite);
		// The validator checks the indices of OpCompositeExtract/Insert, but
		// not those inside an OpSpecConstantOp (found by the fuzzer).
		const size_t written = insert ? Regs(inst[3]).size() : count;
		if (uint64_t(first) + written > regs.size()) Fail("%s: index outside the composite", inst.OpName());
		result_types_[inst[2]] = inst[1];
		if (insert) {
			const std::vector<uint32_t>& object = Regs(inst[3]);
			std::copy(object.begin(), object.end(), regs.begin() + first);
			Define(inst[2], regs);
		} else {
			Define(inst[2], {regs.begin() + first, regs.begin() + first + count});
		}
		return true;
	}
	case spv::Op::OpVectorShuffle: {
		std::vector<uint32_t> both = Regs(inst[3]);
		const std::vector<uint32_t>& second = Regs(inst[4]);
		both.insert(both.end(), second.begin(), second.end());
		std::vector<uint32_t> regs;
		uint32_t f = LeafCount(TypeOf(inst[1]).element);  // registers per component (2 for 64-bit)
		for (uint32_t i = 5; i < inst.n; ++i)
			for (uint32_t h = 0; h < f; ++h) regs.push_back(inst[i] == 0xffffffffu ? 0 : both.at(inst[i] * f + h));
		result_types_[inst[2]] = inst[1];
		Define(inst[2], regs);
		return true;
	}
	case spv::Op::OpVectorExtractDynamic: {
		const std::vector<uint32_t>& v = Regs(inst[3]);
		uint32_t index = IndexReg(inst[4]);
		uint32_t f = LeafCount(inst[1]);
		std::vector<uint32_t> out;
		for (uint32_t h = 0; h < f; ++h) {
			uint32_t r = v[h];
			for (uint32_t k = 1; k * f < v.size(); ++k)
				r = Emit(Op::kSelect, Emit(Op::kIEqual, index, Const(k)), v[k * f + h], r);
			out.push_back(r);
		}
		result_types_[inst[2]] = inst[1];
		Define(inst[2], out);
		return true;
	}
	case spv::Op::OpVectorInsertDynamic: {
		std::vector<uint32_t> v = Regs(inst[3]);
		const std::vector<uint32_t>& component = Regs(inst[4]);
		uint32_t index = IndexReg(inst[5]);
		uint32_t f = static_cast<uint32_t>(component.size());
		for (uint32_t k = 0; k < v.size(); ++k)
			v[k] = Emit(Op::kSelect, Emit(Op::kIEqual, index, Const(k / f)), component[k % f], v[k]);
		result_types_[inst[2]] = inst[1];
		Define(inst[2], v);
		return true;
	}
	case spv::Op::OpIAddCarry:
	case spv::Op::OpISubBorrow:
	case spv::Op::OpUMulExtended:
	case spv::Op::OpSMulExtended: {
		result_types_[inst[2]] = inst[1];
		Define(inst[2], ExtendedArithmetic(inst));
		return true;
	}
	case spv::Op::OpAny:
	case spv::Op::OpAll: {
		const std::vector<uint32_t>& v = Regs(inst[3]);
		Op op = inst.op == spv::Op::OpAny ? Op::kLogicalOr : Op::kLogicalAnd;
		uint32_t r = v[0];
		for (size_t k = 1; k < v.size(); ++k) r = Emit(op, r, v[k]);
		result_types_[inst[2]] = inst[1];
		Define(inst[2], {r});
		return true;
	}
	case spv::Op::OpDot:
		result_types_[inst[2]] = inst[1];
		if (IsDouble(inst[3])) {
			MatrixDouble(inst);
			return true;
		}
		Define(inst[2], Canonical({DotProduct(emit, Regs(inst[3]), Regs(inst[4]))}, inst[1]));
		return true;
	case spv::Op::OpVectorTimesScalar:
	case spv::Op::OpMatrixTimesScalar:
	case spv::Op::OpMatrixTimesVector:
	case spv::Op::OpVectorTimesMatrix:
	case spv::Op::OpMatrixTimesMatrix:
	case spv::Op::OpOuterProduct:
	case spv::Op::OpTranspose:
		result_types_[inst[2]] = inst[1];
		if (IsDouble(inst[3]))
			MatrixDouble(inst);
		else
			Matrix(inst);
		return true;
	default: return false;
	}
}

// Matrices are columns of leaves: element (column c, row r) is leaf c * rows + r.
void Translator::Matrix(const Instruction& inst) {
	auto emit = [this](Op op, uint32_t a, uint32_t b = 0) { return Emit(op, a, b); };
	const Type& result = TypeOf(inst[1]);
	std::vector<uint32_t> out;
	auto rows_of = [&](uint32_t matrix_type) { return TypeOf(TypeOf(matrix_type).element).count; };
	switch (inst.op) {
	case spv::Op::OpVectorTimesScalar:
	case spv::Op::OpMatrixTimesScalar: out = ComponentWise(Op::kFMul, inst[1], {inst.w + 3, 2}); break;
	case spv::Op::OpMatrixTimesVector: {
		const std::vector<uint32_t>& m = Regs(inst[3]);
		const std::vector<uint32_t>& v = Regs(inst[4]);
		uint32_t rows = result.count;
		for (uint32_t r = 0; r < rows; ++r) {
			std::vector<uint32_t> row;
			for (uint32_t c = 0; c < v.size(); ++c) row.push_back(m[c * rows + r]);
			out.push_back(DotProduct(emit, row, v));
		}
		break;
	}
	case spv::Op::OpVectorTimesMatrix: {
		const std::vector<uint32_t>& v = Regs(inst[3]);
		const std::vector<uint32_t>& m = Regs(inst[4]);
		uint32_t rows = static_cast<uint32_t>(v.size());
		for (uint32_t c = 0; c < result.count; ++c)
			out.push_back(DotProduct(emit, v, {m.begin() + c * rows, m.begin() + (c + 1) * rows}));
		break;
	}
	case spv::Op::OpMatrixTimesMatrix: {
		const std::vector<uint32_t>& a = Regs(inst[3]);
		const std::vector<uint32_t>& b = Regs(inst[4]);
		uint32_t rows = rows_of(inst[1]);
		uint32_t inner = TypeOf(result_types_.at(inst[3])).count;
		for (uint32_t c = 0; c < result.count; ++c)
			for (uint32_t r = 0; r < rows; ++r) {
				std::vector<uint32_t> row, column;
				for (uint32_t k = 0; k < inner; ++k) row.push_back(a[k * rows + r]), column.push_back(b[c * inner + k]);
				out.push_back(DotProduct(emit, row, column));
			}
		break;
	}
	case spv::Op::OpOuterProduct: {
		const std::vector<uint32_t>& a = Regs(inst[3]);
		const std::vector<uint32_t>& b = Regs(inst[4]);
		for (uint32_t c = 0; c < b.size(); ++c)
			for (uint32_t r = 0; r < a.size(); ++r) out.push_back(Emit(Op::kFMul, a[r], b[c]));
		break;
	}
	case spv::Op::OpTranspose: {
		const std::vector<uint32_t>& m = Regs(inst[3]);
		uint32_t rows = rows_of(inst[1]);  // of the result = columns of the operand
		uint32_t columns = result.count;
		for (uint32_t c = 0; c < columns; ++c)
			for (uint32_t r = 0; r < rows; ++r) out.push_back(m[r * columns + c]);
		break;
	}
	default: break;
	}
	Define(inst[2], Canonical(out, inst[1]));
}

// GLSL.std.450 Ldexp: the exponent is a signed integer of any width (8/16-bit
// ones are held zero-extended; a 64-bit one saturates to 32 bits, far past
// any finite result), the significand a 16/32/64-bit float.
std::vector<uint32_t> Translator::Ldexp(uint32_t significand_id, uint32_t exponent_id) {
	ScalarInfo exponent_type = ScalarOf(result_types_.at(exponent_id));
	const std::vector<uint32_t>& exponent = Regs(exponent_id);
	std::vector<uint32_t> exponents;
	if (exponent_type.width == 64) {
		for (size_t k = 0; k + 1 < exponent.size(); k += 2) {
			uint32_t lo = exponent[k], hi = exponent[k + 1];
			uint32_t below = Emit(Op::kSLess64, lo, hi, Const(0x80000000u), Const(~0u));
			uint32_t above = Emit(Op::kSLess64, Const(0x7fffffffu), 0, lo, hi);
			exponents.push_back(
			    Emit(Op::kSelect, below, Const(0x80000000u), Emit(Op::kSelect, above, Const(0x7fffffffu), lo)));
		}
	} else {
		for (uint32_t reg : exponent)
			exponents.push_back(
			    exponent_type.width < 32 ? Emit(Op::kBitFieldSExtract, reg, 0, Const(exponent_type.width)) : reg);
	}
	const std::vector<uint32_t>& x = Regs(significand_id);
	std::vector<uint32_t> out;
	if (IsDouble(significand_id)) {
		for (size_t k = 0; k < exponents.size(); ++k) {
			uint32_t lo = x[2 * k], hi = x[2 * k + 1];
			out.push_back(Emit(Op::kDLdexpLo, lo, hi, exponents[k]));
			out.push_back(Emit(Op::kDLdexpHi, lo, hi, exponents[k]));
		}
		return out;
	}
	for (size_t k = 0; k < exponents.size(); ++k) out.push_back(Emit(Op::kLdexp, x[k], exponents[k]));
	return out;
}

void Translator::TranslateGlsl(const Instruction& inst) {
	auto emit = [this](Op op, uint32_t a, uint32_t b = 0) { return Emit(op, a, b); };
	uint32_t instruction = inst[4];
	if (instruction == GLSLstd450Ldexp) {  // the result is rounded to 16 bits by the caller
		Define(inst[2], Ldexp(inst[5], inst[6]));
		return;
	}
	auto mapped = GlslTable().find(instruction);
	if (mapped != GlslTable().end()) {
		Define(inst[2], ComponentWise(mapped->second, inst[1], {inst.w + 5, inst.w + inst.n}));
		return;
	}
	ScalarInfo result = ScalarOf(inst[1]);
	bool on_doubles = inst.n > 5 && (IsDouble(inst[5]) || (result.is_float && result.width == 64));
	if (on_doubles && GlslDouble(inst, instruction)) return;
	auto scale = [&](const std::vector<uint32_t>& v, uint32_t s) {
		std::vector<uint32_t> out;
		for (uint32_t x : v) out.push_back(Emit(Op::kFMul, x, s));
		return out;
	};
	auto sub = [&](const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
		std::vector<uint32_t> out;
		for (size_t k = 0; k < a.size(); ++k) out.push_back(Emit(Op::kFSub, a[k], b[k]));
		return out;
	};
	auto pack = [&](Op op, uint32_t bits) {
		const std::vector<uint32_t>& v = Regs(inst[5]);
		uint32_t r = 0;
		for (uint32_t k = 0; k < v.size(); ++k) {
			uint32_t part = Emit(op, v[k]);
			r = r ? Emit(Op::kOr, r, k ? Emit(Op::kShiftLeft, part, Const(k * bits)) : part) : part;
		}
		Define(inst[2], {r});
	};
	auto unpack = [&](Op op, uint32_t bits, uint32_t count) {
		uint32_t x = Scalar(inst[5]);
		std::vector<uint32_t> out;
		for (uint32_t k = 0; k < count; ++k)
			out.push_back(Emit(op, k ? Emit(Op::kShiftRightLogical, x, Const(k * bits)) : x));
		Define(inst[2], out);
	};
	switch (instruction) {
	case GLSLstd450Length: {
		const std::vector<uint32_t>& v = Regs(inst[5]);
		Define(inst[2], {Emit(Op::kSqrt, DotProduct(emit, v, v))});
		return;
	}
	case GLSLstd450Distance: {
		std::vector<uint32_t> d = sub(Regs(inst[5]), Regs(inst[6]));
		Define(inst[2], {Emit(Op::kSqrt, DotProduct(emit, d, d))});
		return;
	}
	case GLSLstd450Normalize: {
		const std::vector<uint32_t>& v = Regs(inst[5]);
		Define(inst[2], scale(v, Emit(Op::kInverseSqrt, DotProduct(emit, v, v))));
		return;
	}
	case GLSLstd450Cross: {
		const std::vector<uint32_t>& a = Regs(inst[5]);
		const std::vector<uint32_t>& b = Regs(inst[6]);
		std::vector<uint32_t> out;
		for (uint32_t k = 0; k < 3; ++k) {
			uint32_t i = (k + 1) % 3, j = (k + 2) % 3;
			out.push_back(Emit(Op::kFSub, Emit(Op::kFMul, a[i], b[j]), Emit(Op::kFMul, a[j], b[i])));
		}
		Define(inst[2], out);
		return;
	}
	case GLSLstd450Reflect: {
		// I - 2 * dot(N, I) * N
		const std::vector<uint32_t>& i = Regs(inst[5]);
		const std::vector<uint32_t>& n = Regs(inst[6]);
		uint32_t twice = Emit(Op::kFMul, DotProduct(emit, n, i), Const(0x40000000u));  // 2.0f
		Define(inst[2], sub(i, scale(n, twice)));
		return;
	}
	case GLSLstd450FaceForward: {
		// dot(Nref, I) < 0 ? N : -N
		const std::vector<uint32_t>& n = Regs(inst[5]);
		uint32_t front = Emit(Op::kFOrdLess, DotProduct(emit, Regs(inst[7]), Regs(inst[6])), 0);
		std::vector<uint32_t> out;
		for (uint32_t x : n) out.push_back(Emit(Op::kSelect, front, x, Emit(Op::kFNegate, x)));
		Define(inst[2], out);
		return;
	}
	case GLSLstd450Refract: {
		// k = 1 - eta^2 (1 - dot(N,I)^2); k < 0 ? 0 : eta I - (eta dot(N,I) + sqrt(k)) N
		const std::vector<uint32_t>& i = Regs(inst[5]);
		const std::vector<uint32_t>& n = Regs(inst[6]);
		uint32_t eta = Scalar(inst[7]);
		uint32_t one = Const(0x3f800000u);
		uint32_t d = DotProduct(emit, n, i);
		uint32_t k = Emit(Op::kFSub, one,
		                  Emit(Op::kFMul, Emit(Op::kFMul, eta, eta), Emit(Op::kFSub, one, Emit(Op::kFMul, d, d))));
		uint32_t factor = Emit(Op::kFAdd, Emit(Op::kFMul, eta, d), Emit(Op::kSqrt, k));
		uint32_t total = Emit(Op::kFOrdLess, k, 0);
		std::vector<uint32_t> out = sub(scale(i, eta), scale(n, factor));
		for (uint32_t& x : out) x = Emit(Op::kSelect, total, 0, x);
		Define(inst[2], out);
		return;
	}
	case GLSLstd450Determinant:
	case GLSLstd450MatrixInverse: {
		const std::vector<uint32_t>& m = Regs(inst[5]);
		uint32_t size = TypeOf(result_types_.at(inst[5])).count;
		// Laplace expansion along the first listed row (n <= 4).
		std::function<uint32_t(const std::vector<uint32_t>&, const std::vector<uint32_t>&)> det =
		    [&](const std::vector<uint32_t>& columns, const std::vector<uint32_t>& rows) -> uint32_t {
			auto at = [&](uint32_t c, uint32_t r) { return m[columns[c] * size + rows[r]]; };
			if (columns.size() == 1) return at(0, 0);
			if (columns.size() == 2)
				return Emit(Op::kFSub, Emit(Op::kFMul, at(0, 0), at(1, 1)), Emit(Op::kFMul, at(1, 0), at(0, 1)));
			std::vector<uint32_t> rest_rows(rows.begin() + 1, rows.end());
			uint32_t sum = 0;
			for (uint32_t j = 0; j < columns.size(); ++j) {
				std::vector<uint32_t> rest_columns;
				for (uint32_t k = 0; k < columns.size(); ++k)
					if (k != j) rest_columns.push_back(columns[k]);
				uint32_t term = Emit(Op::kFMul, at(j, 0), det(rest_columns, rest_rows));
				sum = !sum ? term : Emit(j % 2 ? Op::kFSub : Op::kFAdd, sum, term);
			}
			return sum;
		};
		std::vector<uint32_t> all;
		for (uint32_t k = 0; k < size; ++k) all.push_back(k);
		uint32_t determinant = det(all, all);
		if (instruction == GLSLstd450Determinant) {
			Define(inst[2], {determinant});
			return;
		}
		// inverse = adjugate / determinant: element (column c, row r) is the
		// cofactor of (column r, row c).
		uint32_t reciprocal = Emit(Op::kFDiv, Const(0x3f800000u), determinant);
		std::vector<uint32_t> out;
		for (uint32_t c = 0; c < size; ++c)
			for (uint32_t r = 0; r < size; ++r) {
				std::vector<uint32_t> columns, rows;
				for (uint32_t k = 0; k < size; ++k) {
					if (k != r) columns.push_back(k);
					if (k != c) rows.push_back(k);
				}
				uint32_t minor = size == 1 ? Const(0x3f800000u) : det(columns, rows);
				if ((r + c) % 2) minor = Emit(Op::kFNegate, minor);
				out.push_back(Emit(Op::kFMul, minor, reciprocal));
			}
		Define(inst[2], out);
		return;
	}
	case GLSLstd450FrexpStruct:
	case GLSLstd450Frexp: {
		const std::vector<uint32_t>& x = Regs(inst[5]);
		std::vector<uint32_t> mantissa, exponent;
		for (uint32_t v : x) {
			mantissa.push_back(Emit(Op::kFrexpMantissa, v));
			exponent.push_back(Emit(Op::kFrexpExponent, v));
		}
		if (instruction == GLSLstd450Frexp) {
			Store(PointerOf(inst[6]), exponent);
			Define(inst[2], mantissa);
		} else {
			mantissa.insert(mantissa.end(), exponent.begin(), exponent.end());
			Define(inst[2], mantissa);
		}
		return;
	}
	case GLSLstd450ModfStruct:
	case GLSLstd450Modf: {
		// Whole part trunc(x); fraction x - trunc(x), with x's sign (-1 gives
		// -0, -0 gives -0) and 0 for an infinity, as C's modf: the results
		// SPV_KHR_float_controls2 asks for when signed zeros and infinities
		// are kept, which Tessera always does.
		const std::vector<uint32_t>& x = Regs(inst[5]);
		std::vector<uint32_t> fraction, whole;
		for (uint32_t v : x) {
			whole.push_back(Emit(Op::kTrunc, v));
			const uint32_t d = Emit(Op::kSelect, Emit(Op::kIsInf, v), Const(0), Emit(Op::kFSub, v, whole.back()));
			fraction.push_back(
			    Emit(Op::kOr, Emit(Op::kAnd, d, Const(0x7fffffffu)), Emit(Op::kAnd, v, Const(0x80000000u))));
		}
		if (instruction == GLSLstd450Modf)
			Store(PointerOf(inst[6]), whole);
		else
			fraction.insert(fraction.end(), whole.begin(), whole.end());
		Define(inst[2], fraction);
		return;
	}
	case GLSLstd450PackUnorm4x8: pack(Op::kPackUnorm8, 8); return;
	case GLSLstd450PackSnorm4x8: pack(Op::kPackSnorm8, 8); return;
	case GLSLstd450PackUnorm2x16: pack(Op::kPackUnorm16, 16); return;
	case GLSLstd450PackSnorm2x16: pack(Op::kPackSnorm16, 16); return;
	case GLSLstd450PackHalf2x16: pack(Op::kFloatToHalfBits, 16); return;
	case GLSLstd450UnpackUnorm4x8: unpack(Op::kUnpackUnorm8, 8, 4); return;
	case GLSLstd450UnpackSnorm4x8: unpack(Op::kUnpackSnorm8, 8, 4); return;
	case GLSLstd450UnpackUnorm2x16: unpack(Op::kUnpackUnorm16, 16, 2); return;
	case GLSLstd450UnpackSnorm2x16: unpack(Op::kUnpackSnorm16, 16, 2); return;
	case GLSLstd450UnpackHalf2x16: unpack(Op::kHalfBitsToFloat, 16, 2); return;
	default: Fail("unsupported GLSL.std.450 instruction %s", GlslInstructionName(instruction));
	}
}

}  // namespace tessera::spirv
