// SPIR-V to IR: 64-bit floats (Float64). A double is two registers (low
// word, high word), like a 64-bit integer; each operation becomes the pair of
// IR ops computing the two words of its result (alu_ops.inc: DAdd64Lo/Hi,
// ...). Vulkan 1.3 §"Precision and Operation of SPIR-V Instructions": +, -,
// *, / and sqrt on doubles are correctly rounded here (host IEEE doubles);
// GLSL.std.450 allows doubles only for the non-transcendental functions.
#include <spirv/unified1/GLSL.std.450.h>

#include <functional>

#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

using Value = std::vector<uint32_t>;  // one double: {low word, high word}

namespace {

struct DoublePair {
	Op op, lo, hi;
};
// Two or four operand words in, a double out.
constexpr DoublePair kDoublePairs[] = {
    {Op::kFAdd, Op::kDAddLo, Op::kDAddHi},
    {Op::kFSub, Op::kDSubLo, Op::kDSubHi},
    {Op::kFMul, Op::kDMulLo, Op::kDMulHi},
    {Op::kFDiv, Op::kDDivLo, Op::kDDivHi},
    {Op::kFRem, Op::kDRemLo, Op::kDRemHi},
    {Op::kFMin, Op::kDMinLo, Op::kDMinHi},
    {Op::kFMax, Op::kDMaxLo, Op::kDMaxHi},
    {Op::kStep, Op::kDStepLo, Op::kDStepHi},
    {Op::kFloor, Op::kDFloorLo, Op::kDFloorHi},
    {Op::kCeil, Op::kDCeilLo, Op::kDCeilHi},
    {Op::kTrunc, Op::kDTruncLo, Op::kDTruncHi},
    {Op::kRound, Op::kDRoundLo, Op::kDRoundHi},
    {Op::kRoundEven, Op::kDRoundEvenLo, Op::kDRoundEvenHi},
    {Op::kFract, Op::kDFractLo, Op::kDFractHi},
    {Op::kSqrt, Op::kDSqrtLo, Op::kDSqrtHi},
    {Op::kInverseSqrt, Op::kDInverseSqrtLo, Op::kDInverseSqrtHi},
    {Op::kFSign, Op::kDSignLo, Op::kDSignHi},
};

struct DoubleSingle {
	Op op, op64;
};
// Double operands, a 32-bit (or bool) result.
constexpr DoubleSingle kDoubleSingles[] = {
    {Op::kFOrdEqual, Op::kDOrdEqual},
    {Op::kFOrdNotEqual, Op::kDOrdNotEqual},
    {Op::kFOrdLess, Op::kDOrdLess},
    {Op::kFOrdLessEqual, Op::kDOrdLessEqual},
    {Op::kFOrdGreater, Op::kDOrdGreater},
    {Op::kFOrdGreaterEqual, Op::kDOrdGreaterEqual},
    {Op::kFUnordEqual, Op::kDUnordEqual},
    {Op::kFUnordNotEqual, Op::kDUnordNotEqual},
    {Op::kFUnordLess, Op::kDUnordLess},
    {Op::kFUnordLessEqual, Op::kDUnordLessEqual},
    {Op::kFUnordGreater, Op::kDUnordGreater},
    {Op::kFUnordGreaterEqual, Op::kDUnordGreaterEqual},
    {Op::kIsNan, Op::kDIsNan},
    {Op::kIsInf, Op::kDIsInf},
};

}  // namespace

bool Translator::IsDouble(uint32_t id) {
	auto type = result_types_.find(id);
	if (type == result_types_.end()) return false;
	ScalarInfo scalar = ScalarOf(type->second);
	return scalar.is_float && scalar.width == 64;
}

// OpConvert{S,U}ToF to a double, OpConvertFTo{S,U} from one, OpFConvert
// either way: one component at a time. toward_zero: a conversion to binary16
// decorated FPRoundingMode RTZ.
std::vector<uint32_t> Translator::ConvertDouble(uint32_t value_id, uint32_t result_type, bool is_signed,
                                                bool toward_zero) {
	ScalarInfo from = ScalarOf(result_types_.at(value_id));
	ScalarInfo to = ScalarOf(result_type);
	const std::vector<uint32_t>& regs = Regs(value_id);
	uint32_t f = from.width == 64 ? 2 : 1;
	std::vector<uint32_t> out;
	for (size_t k = 0; k < regs.size(); k += f) {
		uint32_t x = regs[k], x_hi = f == 2 ? regs[k + 1] : 0;
		if (to.is_float && to.width == 64) {
			if (from.is_float && from.width == 64) {
				out.push_back(x), out.push_back(x_hi);
			} else if (from.is_float) {  // halves are held as floats of the same value
				out.push_back(Emit(Op::kFloatToDoubleLo, x)), out.push_back(Emit(Op::kFloatToDoubleHi, x));
			} else if (from.width == 64) {
				Op lo = is_signed ? Op::kSigned64ToDoubleLo : Op::kUnsigned64ToDoubleLo;
				Op hi = is_signed ? Op::kSigned64ToDoubleHi : Op::kUnsigned64ToDoubleHi;
				out.push_back(Emit(lo, x, x_hi)), out.push_back(Emit(hi, x, x_hi));
			} else {
				if (is_signed && from.width < 32) x = Emit(Op::kBitFieldSExtract, x, 0, Const(from.width));
				Op lo = is_signed ? Op::kSignedToDoubleLo : Op::kUnsignedToDoubleLo;
				Op hi = is_signed ? Op::kSignedToDoubleHi : Op::kUnsignedToDoubleHi;
				out.push_back(Emit(lo, x)), out.push_back(Emit(hi, x));
			}
			continue;
		}
		// From a double.
		if (to.is_float) {
			Op op = to.width == 32 ? Op::kDoubleToFloat : toward_zero ? Op::kDoubleToHalfTowardZero : Op::kDoubleToHalf;
			out.push_back(Emit(op, x, x_hi));
		} else if (to.width == 64) {
			Op lo = is_signed ? Op::kDoubleToSigned64Lo : Op::kDoubleToUnsigned64Lo;
			Op hi = is_signed ? Op::kDoubleToSigned64Hi : Op::kDoubleToUnsigned64Hi;
			out.push_back(Emit(lo, x, x_hi)), out.push_back(Emit(hi, x, x_hi));
		} else {
			out.push_back(Canonical(Emit(is_signed ? Op::kDoubleToSigned : Op::kDoubleToUnsigned, x, x_hi), to));
		}
	}
	return out;
}

std::vector<uint32_t> Translator::ComponentWiseDouble(Op op, uint32_t result_type, std::span<const uint32_t> ids) {
	switch (op) {
	case Op::kSignedToFloat:
	case Op::kFloatToSigned: return ConvertDouble(ids[0], result_type, true);
	case Op::kUnsignedToFloat:
	case Op::kFloatToUnsigned: return ConvertDouble(ids[0], result_type, false);
	default: break;
	}
	ScalarInfo result = ScalarOf(result_type);
	uint32_t components = LeafCount(result_type) / (result.width == 64 ? 2 : 1);  // vectors and matrices
	// The registers of component k of an operand (a scalar operand serves every component).
	auto component = [&](uint32_t id, uint32_t k) {
		const std::vector<uint32_t>& regs = Regs(id);
		uint32_t f = ScalarOf(result_types_.at(id)).width == 64 ? 2 : 1;
		uint32_t c = regs.size() == f ? 0 : k;
		return Value(regs.begin() + c * f, regs.begin() + c * f + f);
	};
	auto pair = [&](Op lo, Op hi, const Value& x, const Value& y) {
		uint32_t y0 = y.empty() ? 0 : y[0], y1 = y.size() > 1 ? y[1] : 0;
		return Value{Emit(lo, x[0], x[1], y0, y1), Emit(hi, x[0], x[1], y0, y1)};
	};
	auto binary = [&](Op ir, const Value& x, const Value& y) {
		for (const DoublePair& p : kDoublePairs)
			if (p.op == ir) return pair(p.lo, p.hi, x, y);
		Fail("%s on 64-bit floats is not supported", shader::OpName(ir));
	};
	auto select = [&](uint32_t condition, const Value& x, const Value& y) {
		return Value{Emit(Op::kSelect, condition, x[0], y[0]), Emit(Op::kSelect, condition, x[1], y[1])};
	};
	std::vector<uint32_t> out;
	for (uint32_t k = 0; k < components; ++k) {
		std::vector<Value> o;
		for (uint32_t id : ids) o.push_back(component(id, k));
		auto push = [&](const Value& v) { out.insert(out.end(), v.begin(), v.end()); };
		bool done = false;
		for (const DoubleSingle& single : kDoubleSingles) {
			if (single.op != op) continue;
			uint32_t c = o.size() > 1 ? o[1][0] : 0, d = o.size() > 1 ? o[1][1] : 0;
			out.push_back(Canonical(Emit(single.op64, o[0][0], o[0][1], c, d), result));
			done = true;
		}
		if (done) continue;
		switch (op) {
		case Op::kSelect: push(select(o[0][0], o[1], o[2])); break;
		case Op::kFNegate: push({o[0][0], Emit(Op::kXor, o[0][1], Const(0x80000000u))}); break;
		case Op::kFAbs: push({o[0][0], Emit(Op::kAnd, o[0][1], Const(0x7fffffffu))}); break;
		case Op::kFClamp: push(binary(Op::kFMin, binary(Op::kFMax, o[0], o[1]), o[2])); break;
		case Op::kFMix:  // x + (y - x) * a
			push(binary(Op::kFAdd, o[0], binary(Op::kFMul, binary(Op::kFSub, o[1], o[0]), o[2])));
			break;
		case Op::kFMod:  // x - y * floor(x / y), in separate ops: never contracted to an fma
			push(binary(Op::kFSub, o[0],
			            binary(Op::kFMul, o[1], binary(Op::kFloor, binary(Op::kFDiv, o[0], o[1]), {}))));
			break;
		case Op::kFma:  // Vulkan: fma's precision is inherited from OpFMul and OpFAdd
			push(binary(Op::kFAdd, binary(Op::kFMul, o[0], o[1]), o[2]));
			break;
		case Op::kSmoothStep: {  // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)
			Value t = binary(Op::kFDiv, binary(Op::kFSub, o[2], o[0]), binary(Op::kFSub, o[1], o[0]));
			t = binary(Op::kFMin, binary(Op::kFMax, t, {0, 0}), {0, Const(0x3ff00000u)});
			Value three_minus = binary(Op::kFSub, {0, Const(0x40080000u)}, binary(Op::kFAdd, t, t));
			push(binary(Op::kFMul, binary(Op::kFMul, t, t), three_minus));
			break;
		}
		default: push(binary(op, o[0], o.size() > 1 ? o[1] : Value{})); break;
		}
	}
	return out;
}

// Double arithmetic on single values, for the composite operations.
Value Translator::DoubleOp(Op op, const Value& x, const Value& y) {
	for (const DoublePair& p : kDoublePairs)
		if (p.op == op) {
			uint32_t y0 = y.empty() ? 0 : y[0], y1 = y.size() > 1 ? y[1] : 0;
			return {Emit(p.lo, x[0], x[1], y0, y1), Emit(p.hi, x[0], x[1], y0, y1)};
		}
	Fail("%s on 64-bit floats is not supported", shader::OpName(op));
}

namespace {
std::vector<Value> Split(const std::vector<uint32_t>& regs) {
	std::vector<Value> out;
	for (size_t k = 0; k + 1 < regs.size(); k += 2) out.push_back({regs[k], regs[k + 1]});
	return out;
}
void Append(std::vector<uint32_t>& out, const Value& v) { out.insert(out.end(), v.begin(), v.end()); }
}  // namespace

Value Translator::DoubleDot(const std::vector<Value>& a, const std::vector<Value>& b) {
	Value sum = DoubleOp(Op::kFMul, a[0], b[0]);
	for (size_t i = 1; i < a.size(); ++i) sum = DoubleOp(Op::kFAdd, sum, DoubleOp(Op::kFMul, a[i], b[i]));
	return sum;
}

// OpDot and the matrix instructions on doubles: as Matrix(), one double at a time.
void Translator::MatrixDouble(const Instruction& inst) {
	const Type& result = TypeOf(inst[1]);
	std::vector<uint32_t> out;
	auto rows_of = [&](uint32_t matrix_type) { return TypeOf(TypeOf(matrix_type).element).count; };
	switch (inst.op) {
	case spv::Op::OpDot: Append(out, DoubleDot(Split(Regs(inst[3])), Split(Regs(inst[4])))); break;
	case spv::Op::OpVectorTimesScalar:
	case spv::Op::OpMatrixTimesScalar: out = ComponentWiseDouble(Op::kFMul, inst[1], {inst.w + 3, 2}); break;
	case spv::Op::OpMatrixTimesVector: {
		std::vector<Value> m = Split(Regs(inst[3])), v = Split(Regs(inst[4]));
		uint32_t rows = result.count;
		for (uint32_t r = 0; r < rows; ++r) {
			std::vector<Value> row;
			for (uint32_t c = 0; c < v.size(); ++c) row.push_back(m[c * rows + r]);
			Append(out, DoubleDot(row, v));
		}
		break;
	}
	case spv::Op::OpVectorTimesMatrix: {
		std::vector<Value> v = Split(Regs(inst[3])), m = Split(Regs(inst[4]));
		uint32_t rows = static_cast<uint32_t>(v.size());
		for (uint32_t c = 0; c < result.count; ++c)
			Append(out, DoubleDot(v, {m.begin() + c * rows, m.begin() + (c + 1) * rows}));
		break;
	}
	case spv::Op::OpMatrixTimesMatrix: {
		std::vector<Value> a = Split(Regs(inst[3])), b = Split(Regs(inst[4]));
		uint32_t rows = rows_of(inst[1]);
		uint32_t inner = TypeOf(result_types_.at(inst[3])).count;
		for (uint32_t c = 0; c < result.count; ++c)
			for (uint32_t r = 0; r < rows; ++r) {
				std::vector<Value> row, column;
				for (uint32_t k = 0; k < inner; ++k) row.push_back(a[k * rows + r]), column.push_back(b[c * inner + k]);
				Append(out, DoubleDot(row, column));
			}
		break;
	}
	case spv::Op::OpOuterProduct: {
		std::vector<Value> a = Split(Regs(inst[3])), b = Split(Regs(inst[4]));
		for (uint32_t c = 0; c < b.size(); ++c)
			for (uint32_t r = 0; r < a.size(); ++r) Append(out, DoubleOp(Op::kFMul, a[r], b[c]));
		break;
	}
	case spv::Op::OpTranspose: {
		std::vector<Value> m = Split(Regs(inst[3]));
		uint32_t rows = rows_of(inst[1]), columns = result.count;
		for (uint32_t c = 0; c < columns; ++c)
			for (uint32_t r = 0; r < rows; ++r) Append(out, m[r * columns + c]);
		break;
	}
	default: Fail("%s on 64-bit floats is not supported", inst.OpName());
	}
	Define(inst[2], out);
}

// GLSL.std.450 on doubles beyond the component-wise table. Returns false
// for the instructions it does not handle.
bool Translator::GlslDouble(const Instruction& inst, uint32_t instruction) {
	const Value one = {0, Const(0x3ff00000u)}, zero = {0, 0};
	auto operand = [&](uint32_t i) { return Split(Regs(inst[i])); };
	auto sub = [&](const std::vector<Value>& a, const std::vector<Value>& b) {
		std::vector<Value> out;
		for (size_t k = 0; k < a.size(); ++k) out.push_back(DoubleOp(Op::kFSub, a[k], b[k]));
		return out;
	};
	auto scale = [&](const std::vector<Value>& v, const Value& s) {
		std::vector<Value> out;
		for (const Value& x : v) out.push_back(DoubleOp(Op::kFMul, x, s));
		return out;
	};
	auto define = [&](const std::vector<Value>& values) {
		std::vector<uint32_t> regs;
		for (const Value& v : values) Append(regs, v);
		Define(inst[2], regs);
	};
	switch (instruction) {
	case GLSLstd450PackDouble2x32:  // the words are already the double's
	case GLSLstd450UnpackDouble2x32: Define(inst[2], Regs(inst[5])); return true;
	case GLSLstd450Length: {
		std::vector<Value> v = operand(5);
		define({DoubleOp(Op::kSqrt, DoubleDot(v, v), {})});
		return true;
	}
	case GLSLstd450Distance: {
		std::vector<Value> d = sub(operand(5), operand(6));
		define({DoubleOp(Op::kSqrt, DoubleDot(d, d), {})});
		return true;
	}
	case GLSLstd450Normalize: {
		std::vector<Value> v = operand(5);
		define(scale(v, DoubleOp(Op::kInverseSqrt, DoubleDot(v, v), {})));
		return true;
	}
	case GLSLstd450Cross: {
		std::vector<Value> a = operand(5), b = operand(6), out;
		for (uint32_t k = 0; k < 3; ++k) {
			uint32_t i = (k + 1) % 3, j = (k + 2) % 3;
			out.push_back(DoubleOp(Op::kFSub, DoubleOp(Op::kFMul, a[i], b[j]), DoubleOp(Op::kFMul, a[j], b[i])));
		}
		define(out);
		return true;
	}
	case GLSLstd450Reflect: {  // I - 2 dot(N, I) N
		std::vector<Value> i = operand(5), n = operand(6);
		Value d = DoubleDot(n, i);
		define(sub(i, scale(n, DoubleOp(Op::kFAdd, d, d))));
		return true;
	}
	case GLSLstd450FaceForward: {  // dot(Nref, I) < 0 ? N : -N
		std::vector<Value> n = operand(5), out;
		Value d = DoubleDot(operand(7), operand(6));
		uint32_t front = Emit(Op::kDOrdLess, d[0], d[1], 0, 0);
		for (const Value& x : n)
			out.push_back({x[0], Emit(Op::kSelect, front, x[1], Emit(Op::kXor, x[1], Const(0x80000000u)))});
		define(out);
		return true;
	}
	case GLSLstd450Refract: {
		// k = 1 - eta^2 (1 - dot(N,I)^2); k < 0 ? 0 : eta I - (eta dot(N,I) + sqrt(k)) N
		std::vector<Value> i = operand(5), n = operand(6);
		Value eta = Split(Regs(inst[7]))[0];
		Value d = DoubleDot(n, i);
		Value k = DoubleOp(
		    Op::kFSub, one,
		    DoubleOp(Op::kFMul, DoubleOp(Op::kFMul, eta, eta), DoubleOp(Op::kFSub, one, DoubleOp(Op::kFMul, d, d))));
		Value factor = DoubleOp(Op::kFAdd, DoubleOp(Op::kFMul, eta, d), DoubleOp(Op::kSqrt, k, {}));
		uint32_t total = Emit(Op::kDOrdLess, k[0], k[1], 0, 0);
		std::vector<Value> out = sub(scale(i, eta), scale(n, factor));
		for (Value& x : out) x = {Emit(Op::kSelect, total, 0, x[0]), Emit(Op::kSelect, total, 0, x[1])};
		define(out);
		return true;
	}
	case GLSLstd450Frexp:
	case GLSLstd450FrexpStruct: {
		std::vector<Value> x = operand(5);
		std::vector<uint32_t> mantissa, exponent;
		for (const Value& v : x) {
			Append(mantissa, {Emit(Op::kDFrexpMantissaLo, v[0], v[1]), Emit(Op::kDFrexpMantissaHi, v[0], v[1])});
			exponent.push_back(Emit(Op::kDFrexpExponent, v[0], v[1]));
		}
		if (instruction == GLSLstd450Frexp) {
			Store(PointerOf(inst[6]), exponent);
		} else {
			mantissa.insert(mantissa.end(), exponent.begin(), exponent.end());
		}
		Define(inst[2], mantissa);
		return true;
	}
	case GLSLstd450Modf:
	case GLSLstd450ModfStruct: {
		// As the 32-bit form (translate_ops.cpp): the fraction keeps x's
		// sign and is 0 for an infinity.
		std::vector<uint32_t> fraction, whole;
		for (const Value& v : operand(5)) {
			Value w = DoubleOp(Op::kTrunc, v, {});
			Append(whole, w);
			Value d = DoubleOp(Op::kFSub, v, w);
			const uint32_t infinite =
			    Emit(Op::kAnd, Emit(Op::kIEqual, Emit(Op::kAnd, v[1], Const(0x7fffffffu)), Const(0x7ff00000u)),
			         Emit(Op::kIEqual, v[0], Const(0)));
			const uint32_t hi = Emit(Op::kSelect, infinite, Const(0), d[1]);
			Append(fraction,
			       {Emit(Op::kSelect, infinite, Const(0), d[0]),
			        Emit(Op::kOr, Emit(Op::kAnd, hi, Const(0x7fffffffu)), Emit(Op::kAnd, v[1], Const(0x80000000u)))});
		}
		if (instruction == GLSLstd450Modf)
			Store(PointerOf(inst[6]), whole);
		else
			fraction.insert(fraction.end(), whole.begin(), whole.end());
		Define(inst[2], fraction);
		return true;
	}
	case GLSLstd450Determinant:
	case GLSLstd450MatrixInverse: {
		std::vector<Value> m = operand(5);
		uint32_t size = TypeOf(result_types_.at(inst[5])).count;
		// Laplace expansion along the first listed row (n <= 4), as for floats.
		std::function<Value(const std::vector<uint32_t>&, const std::vector<uint32_t>&)> det =
		    [&](const std::vector<uint32_t>& columns, const std::vector<uint32_t>& rows) -> Value {
			auto at = [&](uint32_t c, uint32_t r) { return m[columns[c] * size + rows[r]]; };
			if (columns.size() == 1) return at(0, 0);
			if (columns.size() == 2)
				return DoubleOp(Op::kFSub, DoubleOp(Op::kFMul, at(0, 0), at(1, 1)),
				                DoubleOp(Op::kFMul, at(1, 0), at(0, 1)));
			std::vector<uint32_t> rest_rows(rows.begin() + 1, rows.end());
			Value sum;
			for (uint32_t j = 0; j < columns.size(); ++j) {
				std::vector<uint32_t> rest_columns;
				for (uint32_t k = 0; k < columns.size(); ++k)
					if (k != j) rest_columns.push_back(columns[k]);
				Value term = DoubleOp(Op::kFMul, at(j, 0), det(rest_columns, rest_rows));
				sum = sum.empty() ? term : DoubleOp(j % 2 ? Op::kFSub : Op::kFAdd, sum, term);
			}
			return sum;
		};
		std::vector<uint32_t> all;
		for (uint32_t k = 0; k < size; ++k) all.push_back(k);
		Value determinant = det(all, all);
		if (instruction == GLSLstd450Determinant) {
			define({determinant});
			return true;
		}
		// inverse = adjugate / determinant: element (column c, row r) is the
		// cofactor of (column r, row c).
		Value reciprocal = DoubleOp(Op::kFDiv, one, determinant);
		std::vector<Value> out;
		for (uint32_t c = 0; c < size; ++c)
			for (uint32_t r = 0; r < size; ++r) {
				std::vector<uint32_t> columns, rows;
				for (uint32_t k = 0; k < size; ++k) {
					if (k != r) columns.push_back(k);
					if (k != c) rows.push_back(k);
				}
				Value minor = size == 1 ? one : det(columns, rows);
				if ((r + c) % 2) minor = {minor[0], Emit(Op::kXor, minor[1], Const(0x80000000u))};
				out.push_back(DoubleOp(Op::kFMul, minor, reciprocal));
			}
		define(out);
		return true;
	}
	default: (void)zero; return false;
	}
}

}  // namespace tessera::spirv
