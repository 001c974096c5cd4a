// The arithmetic kernels, generated from the table in alu_ops.inc.
//
// The file is compiled once per SIMD target by Highway (foreach_target.h:
// SSE4, AVX2, AVX-512, ...) and the best one for the running CPU is chosen at
// run time (HWY_DYNAMIC_DISPATCH). The kernels are plain lane loops; each
// target's compilation vectorizes them with that target's instructions.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "shader/alu.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "shader/alu.h"
#include "shader/fast_math.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::shader {
namespace HWY_NAMESPACE {
namespace {

inline float F(uint32_t x) { return std::bit_cast<float>(x); }
inline int32_t S(uint32_t x) { return static_cast<int32_t>(x); }

inline uint32_t ToBits(uint32_t x) { return x; }
inline uint32_t ToBits(int32_t x) { return static_cast<uint32_t>(x); }
inline uint32_t ToBits(bool x) { return x ? 1u : 0u; }
inline uint32_t ToBits(float x) { return std::bit_cast<uint32_t>(x); }

inline int32_t SafeSDiv(int32_t a, int32_t b) {
	if (b == 0) return 0;
	if (b == -1) return static_cast<int32_t>(0u - static_cast<uint32_t>(a));  // INT_MIN / -1 wraps
	return a / b;
}
inline int32_t SafeSRem(int32_t a, int32_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
// SPIR-V OpSMod: the sign of the result follows the divisor.
inline int32_t SafeSMod(int32_t a, int32_t b) {
	int32_t r = SafeSRem(a, b);
	return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

inline uint64_t U64(uint32_t lo, uint32_t hi) { return (uint64_t{hi} << 32) | lo; }
inline int64_t S64(uint32_t lo, uint32_t hi) { return static_cast<int64_t>(U64(lo, hi)); }
inline uint32_t Lo(uint64_t x) { return static_cast<uint32_t>(x); }
inline uint32_t Hi(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
inline uint32_t FindILsb64(uint64_t x) { return x ? static_cast<uint32_t>(__builtin_ctzll(x)) : ~0u; }
inline uint32_t FindUMsb64(uint64_t x) { return x ? 63u - static_cast<uint32_t>(__builtin_clzll(x)) : ~0u; }
inline uint64_t UMulHigh64(uint64_t a, uint64_t b) {
	return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline uint64_t SMulHigh64(int64_t a, int64_t b) {
	return static_cast<uint64_t>(static_cast<unsigned __int128>(static_cast<__int128>(a) * b) >> 64);
}
inline int64_t SafeSDiv64(int64_t a, int64_t b) {
	if (b == 0) return 0;
	if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
	return a / b;
}
inline int64_t SafeSRem64(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
inline int64_t SafeSMod64(int64_t a, int64_t b) {
	int64_t r = SafeSRem64(a, b);
	return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
// Saturating additions (OpSDotAccSat, OpUDotAccSat, OpSUDotAccSat): the
// exact sum clamped to the type's range.
inline int32_t SAddSat(int32_t a, int32_t b) {
	int64_t sum = int64_t{a} + b;
	return static_cast<int32_t>(sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : sum));
}
inline uint32_t UAddSat(uint32_t a, uint32_t b) { return a + b < a ? UINT32_MAX : a + b; }
inline int64_t SAddSat64(int64_t a, int64_t b) {
	int64_t sum = 0;
	if (__builtin_add_overflow(a, b, &sum)) return a < 0 ? INT64_MIN : INT64_MAX;
	return sum;
}
inline uint64_t UAddSat64(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
inline int64_t FloatToSigned64(float f) {
	if (!(f == f)) return 0;
	if (f >= 9223372036854775808.0f) return INT64_MAX;
	if (f <= -9223372036854775808.0f) return INT64_MIN;
	return static_cast<int64_t>(f);
}
inline uint64_t FloatToUnsigned64(float f) {
	if (!(f > 0.0f)) return 0;
	if (f >= 18446744073709551616.0f) return UINT64_MAX;
	return static_cast<uint64_t>(f);
}

// 64-bit floats: two registers (low word, high word) read as one double.
inline double F64(uint32_t lo, uint32_t hi) { return std::bit_cast<double>(U64(lo, hi)); }
inline uint32_t DLo(double x) { return Lo(std::bit_cast<uint64_t>(x)); }
inline uint32_t DHi(double x) { return Hi(std::bit_cast<uint64_t>(x)); }
inline int32_t DoubleToSigned(double f) {
	if (!(f == f)) return 0;
	if (f >= 2147483648.0) return INT32_MAX;
	if (f <= -2147483649.0) return INT32_MIN;
	return static_cast<int32_t>(f);
}
inline uint32_t DoubleToUnsigned(double f) {
	if (!(f > 0.0)) return 0;
	if (f >= 4294967296.0) return UINT32_MAX;
	return static_cast<uint32_t>(f);
}
inline int64_t DoubleToSigned64(double f) {
	if (!(f == f)) return 0;
	if (f >= 9223372036854775808.0) return INT64_MAX;
	if (f <= -9223372036854775808.0) return INT64_MIN;
	return static_cast<int64_t>(f);
}
inline uint64_t DoubleToUnsigned64(double f) {
	if (!(f > 0.0)) return 0;
	if (f >= 18446744073709551616.0) return UINT64_MAX;
	return static_cast<uint64_t>(f);
}
// double -> float rounded to odd: rounding that float again (to binary16)
// gives the correctly rounded result, with no double rounding.
inline float DoubleToFloatOdd(double d) {
	float f = static_cast<float>(d);
	if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);  // toward zero
	if (static_cast<double>(f) != d && d == d) f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
	return f;
}
inline double DoubleSign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
inline double DoubleFrexpMantissa(double x) {
	int e = 0;
	return std::isfinite(x) ? std::frexp(x, &e) : x;
}
inline int32_t DoubleFrexpExponent(double x) {
	int e = 0;
	if (std::isfinite(x)) std::frexp(x, &e);
	return e;
}
inline int DoubleClampExponent(int32_t e) { return e < -2200 ? -2200 : (e > 2200 ? 2200 : e); }

inline uint32_t ReverseBits(uint32_t x) {
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(x);
}

// SPIR-V: offset and count outside [0, 32] are undefined; clamp them.
inline uint32_t FieldMask(uint32_t offset, uint32_t count) {
	if (offset > 32) offset = 32;
	if (count > 32 - offset) count = 32 - offset;
	uint32_t bits = count == 32 ? ~0u : ((1u << count) - 1u);
	return offset == 32 ? 0u : bits << offset;
}
inline uint32_t BitFieldInsert(uint32_t base, uint32_t insert, uint32_t offset, uint32_t count) {
	uint32_t mask = FieldMask(offset, count);
	uint32_t shifted = offset >= 32 ? 0u : insert << offset;
	return (base & ~mask) | (shifted & mask);
}
inline uint32_t BitFieldUExtract(uint32_t base, uint32_t offset, uint32_t count) {
	uint32_t mask = FieldMask(offset, count);
	return offset >= 32 ? 0u : (base & mask) >> offset;
}
inline uint32_t BitFieldSExtract(uint32_t base, uint32_t offset, uint32_t count) {
	if (count == 0 || offset >= 32) return 0;
	if (count > 32 - offset) count = 32 - offset;
	uint32_t field = BitFieldUExtract(base, offset, count);
	uint32_t sign = 1u << (count - 1);
	return (field ^ sign) - sign;
}
inline uint32_t FindSMsb(uint32_t a) {
	uint32_t v = S(a) < 0 ? ~a : a;
	return v ? 31u - static_cast<uint32_t>(__builtin_clz(v)) : ~0u;
}

inline float SmoothStep(float edge0, float edge1, float x) {
	float t = std::fmin(std::fmax((x - edge0) / (edge1 - edge0), 0.0f), 1.0f);
	return t * t * (3.0f - 2.0f * t);
}

inline float FrexpMantissa(float x) {
	int e = 0;
	return std::isfinite(x) ? std::frexp(x, &e) : x;
}
inline int32_t FrexpExponent(float x) {
	int e = 0;
	if (std::isfinite(x)) std::frexp(x, &e);
	return e;
}

inline int ClampExponent(int32_t e) { return e < -300 ? -300 : (e > 300 ? 300 : e); }

// SPIR-V leaves out-of-range conversions undefined; C++ would too, so saturate.
inline int32_t FloatToSigned(float f) {
	if (!(f == f)) return 0;
	if (f >= 2147483648.0f) return INT32_MAX;
	if (f <= -2147483648.0f) return INT32_MIN;
	return static_cast<int32_t>(f);
}
inline uint32_t FloatToUnsigned(float f) {
	if (!(f > 0.0f)) return 0;
	if (f >= 4294967296.0f) return UINT32_MAX;
	return static_cast<uint32_t>(f);
}

// A binary32 NaN as a binary16 NaN: the sign and the top payload bits
// kept, quieted, so a half NaN widened to a register and stored again keeps
// its bits (a specialization constant's NaN among them).
inline uint32_t NanToHalf(uint32_t sign, uint32_t abs) { return sign | 0x7e00u | ((abs >> 13) & 0x3ffu); }

// IEEE binary16 conversions, round to nearest even.
inline uint32_t FloatToHalf(float value) {
	uint32_t x = std::bit_cast<uint32_t>(value);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t abs = x & 0x7fffffffu;
	if (abs > 0x7f800000u) return NanToHalf(sign, abs);
	if (abs >= 0x477ff000u) return sign | 0x7c00u;  // overflow to infinity
	if (abs < 0x38800000u) {                        // subnormal half or zero
		if (abs < 0x33000000u) return sign;
		uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
		uint32_t shift = 126 - (abs >> 23);  // 14..24
		uint32_t half = mantissa >> shift;
		uint32_t rest = mantissa & ((1u << shift) - 1u);
		uint32_t halfway = 1u << (shift - 1);
		if (rest > halfway || (rest == halfway && (half & 1u))) half++;
		return sign | half;
	}
	uint32_t half = ((abs - 0x38000000u) >> 13);
	uint32_t rest = abs & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
	return sign | half;
}
// binary16 rounded toward zero (FPRoundingMode RTZ): finite values past the
// largest half give the largest half, not infinity.
inline uint32_t FloatToHalfTowardZero(float value) {
	uint32_t x = std::bit_cast<uint32_t>(value);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t abs = x & 0x7fffffffu;
	if (abs > 0x7f800000u) return NanToHalf(sign, abs);
	if (abs == 0x7f800000u) return sign | 0x7c00u;  // infinity
	if (abs >= 0x47800000u) return sign | 0x7bffu;  // 65536 and more: 65504
	if (abs < 0x38800000u) {                        // subnormal half or zero
		if (abs < 0x33800000u) return sign;         // below 2^-24
		uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
		return sign | (mantissa >> (126 - (abs >> 23)));
	}
	return sign | ((abs - 0x38000000u) >> 13);
}
inline float HalfToFloat(uint32_t h) {
	uint32_t sign = (h & 0x8000u) << 16;
	uint32_t exponent = (h >> 10) & 0x1fu;
	uint32_t mantissa = h & 0x3ffu;
	if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
	if (exponent == 0) {
		float m = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // 2^-24
		return sign ? -m : m;
	}
	return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// OpQuantizeToF16: a magnitude too small for a normal binary16 gives +0 or
// -0 (SPIR-V 1.6, OpQuantizeToF16), so binary16 subnormals flush to zero.
inline float QuantizeToF16FlushDenormals(float value) {
	uint32_t h = FloatToHalf(value);
	if ((h & 0x7c00u) == 0) h &= 0x8000u;
	return HalfToFloat(h);
}

#define OP(name, arity, expr)                                                                               \
	void Kernel##name(uint32_t* __restrict dst, const uint32_t* __restrict A, const uint32_t* __restrict B, \
	                  const uint32_t* __restrict C, const uint32_t* __restrict D, uint32_t lanes) {         \
		(void)A, (void)B, (void)C, (void)D;                                                                 \
		for (uint32_t i = 0; i < lanes; ++i) {                                                              \
			[[maybe_unused]] uint32_t a = A[i], b = B[i], c = C[i], d = D[i];                               \
			dst[i] = ToBits(expr);                                                                          \
		}                                                                                                   \
	}
#include "shader/alu_ops.inc"
#undef OP

}  // namespace

// Bounds-checked loads for all lanes: dst[i] = the word at byte
// address[i] + imm of [base, base + size), or 0 outside it (robustBufferAccess).
// A vector of lanes reading consecutive words inside the bounds (the usual
// data[gl_GlobalInvocationID.x]) is one plain load, a vector of lanes reading
// one word (push constants, uniforms) one scalar load; others a gather per
// vector where the target has one.
void LoadLanes(uint32_t* HWY_RESTRICT dst, const uint8_t* base, uint64_t size, const uint32_t* HWY_RESTRICT address,
               uint32_t imm, uint32_t lanes) {
	namespace hn = hwy::HWY_NAMESPACE;
	uint32_t i = 0;
	if (size >= 4 && size <= INT32_MAX && imm <= size - 4) {
		const hn::ScalableTag<int32_t> d;
		const size_t n = hn::Lanes(d);
		const int32_t bound = static_cast<int32_t>(size - 4 - imm);  // inside: 0 <= address <= bound
		const auto vbound = hn::Set(d, bound);
		const auto vimm = hn::Set(d, static_cast<int32_t>(imm));
		const auto zero = hn::Zero(d);
		const int32_t* words = reinterpret_cast<const int32_t*>(base);
		const auto consecutive = hn::ShiftLeft<2>(hn::Iota(d, 0));       // 0, 4, 8, ... bytes
		const int64_t last_first = int64_t{bound} - 4 * int64_t(n - 1);  // highest in-bounds first address
		for (; i + n <= lanes; i += n) {
			const auto a = hn::LoadU(d, reinterpret_cast<const int32_t*>(address + i));
			const int64_t first = address[i];
			if (first <= last_first && hn::AllTrue(d, hn::Eq(a, hn::Add(hn::Set(d, int32_t(first)), consecutive)))) {
				hn::StoreU(hn::LoadU(d, reinterpret_cast<const int32_t*>(base + first + imm)), d,
				           reinterpret_cast<int32_t*>(dst + i));
				continue;
			}
			if (first <= bound && hn::AllTrue(d, hn::Eq(a, hn::Set(d, int32_t(first))))) {  // a uniform address
				int32_t word;
				memcpy(&word, base + first + imm, 4);
				hn::StoreU(hn::Set(d, word), d, reinterpret_cast<int32_t*>(dst + i));
				continue;
			}
			const auto inside = hn::AndNot(hn::Or(hn::VecFromMask(d, a > vbound), hn::VecFromMask(d, zero > a)),
			                               hn::VecFromMask(d, hn::Eq(a, a)));
			const auto mask = hn::MaskFromVec(inside);
			const auto offset = hn::IfThenElseZero(mask, hn::Add(a, vimm));
			const auto loaded = hn::IfThenElseZero(mask, hn::GatherOffset(d, words, offset));
			hn::StoreU(loaded, d, reinterpret_cast<int32_t*>(dst + i));
		}
	}
	for (; i < lanes; ++i) {
		uint64_t offset = uint64_t{address[i]} + imm;
		uint32_t value = 0;
		if (offset + 4 <= size) memcpy(&value, base + offset, 4);
		dst[i] = value;
	}
}

// Bounds-checked stores for all lanes, in lane order: the word at byte
// address[i] + imm of [base, base + size) = value[i], dropped outside it
// (robustBufferAccess). Consecutive in-bounds words are one vector store.
void StoreLanes(uint8_t* base, uint64_t size, const uint32_t* HWY_RESTRICT address, uint32_t imm,
                const uint32_t* HWY_RESTRICT value, uint32_t lanes) {
	namespace hn = hwy::HWY_NAMESPACE;
	uint32_t i = 0;
	if (size >= 4 && size <= INT32_MAX && imm <= size - 4) {
		const hn::ScalableTag<int32_t> d;
		const size_t n = hn::Lanes(d);
		const int64_t bound = int64_t(size - 4 - imm);
		const auto consecutive = hn::ShiftLeft<2>(hn::Iota(d, 0));
		const int64_t last_first = bound - 4 * int64_t(n - 1);
		for (; i + n <= lanes; i += n) {
			const auto a = hn::LoadU(d, reinterpret_cast<const int32_t*>(address + i));
			const int64_t first = address[i];
			if (first <= last_first && hn::AllTrue(d, hn::Eq(a, hn::Add(hn::Set(d, int32_t(first)), consecutive)))) {
				hn::StoreU(hn::LoadU(d, reinterpret_cast<const int32_t*>(value + i)), d,
				           reinterpret_cast<int32_t*>(base + first + imm));
				continue;
			}
			for (size_t k = i; k < i + n; ++k) {
				uint64_t offset = uint64_t{address[k]} + imm;
				if (offset + 4 <= size) memcpy(base + offset, &value[k], 4);
			}
		}
	}
	for (; i < lanes; ++i) {
		uint64_t offset = uint64_t{address[i]} + imm;
		if (offset + 4 <= size) memcpy(base + offset, &value[i], 4);
	}
}

// dst[i] = active[i] ? src[i] : dst[i]: the write-back of a masked instruction.
void BlendLanes(uint32_t* HWY_RESTRICT dst, const uint32_t* HWY_RESTRICT src, const uint32_t* HWY_RESTRICT active,
                uint32_t lanes) {
	namespace hn = hwy::HWY_NAMESPACE;
	const hn::ScalableTag<uint32_t> d;
	const size_t n = hn::Lanes(d);
	const auto zero = hn::Zero(d);
	uint32_t i = 0;
	for (; i + n <= lanes; i += n) {
		const auto mask = hn::Ne(hn::LoadU(d, active + i), zero);
		hn::StoreU(hn::IfThenElse(mask, hn::LoadU(d, src + i), hn::LoadU(d, dst + i)), d, dst + i);
	}
	for (; i < lanes; ++i) dst[i] = active[i] ? src[i] : dst[i];
}

const AluKernel* KernelTable() {
	static constexpr AluKernel kKernels[] = {
#define OP(name, arity, expr) &Kernel##name,
#include "shader/alu_ops.inc"
#undef OP
	};
	return kKernels;
}

}  // namespace HWY_NAMESPACE
}  // namespace tessera::shader
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::shader {
namespace {

struct OpInfo {
	const char* name;
	uint32_t arity;
};
constexpr OpInfo kOpInfo[] = {
#define OP(name, arity, expr) {#name, arity},
#include "shader/alu_ops.inc"
#undef OP
    {"Load", 1},
    {"Store", 2},
    {"ArrayLength", 0},
    {"Load16", 1},
    {"Load8", 1},
    {"Store16", 2},
    {"Store8", 2},
    {"AtomicLoad", 1},
    {"AtomicStore", 2},
    {"AtomicExchange", 2},
    {"AtomicCompareExchange", 3},
    {"AtomicIAdd", 2},
    {"AtomicISub", 2},
    {"AtomicSMin", 2},
    {"AtomicUMin", 2},
    {"AtomicSMax", 2},
    {"AtomicUMax", 2},
    {"AtomicAnd", 2},
    {"AtomicOr", 2},
    {"AtomicXor", 2},
    {"SubgroupElect", 0},
    {"SubgroupBallot", 1},
    {"SubgroupBroadcastFirst", 1},
    {"SubgroupShuffle", 2},
    {"SubgroupReduce", 2},
    {"SubgroupReduce64", 4},
    {"DerivativeFineX", 1},
    {"DerivativeFineY", 1},
    {"DerivativeCoarseX", 1},
    {"DerivativeCoarseY", 1},
    {"ImageArg", 1},
    {"Image", 0},
    {"ImageResult", 0},
};
static_assert(sizeof(kOpInfo) / sizeof(kOpInfo[0]) == static_cast<size_t>(Op::kCount));

}  // namespace

HWY_EXPORT(KernelTable);
HWY_EXPORT(LoadLanes);
HWY_EXPORT(StoreLanes);
HWY_EXPORT(BlendLanes);

void BlendLanes(uint32_t* dst, const uint32_t* src, const uint32_t* active, uint32_t lanes) {
	HWY_DYNAMIC_DISPATCH(BlendLanes)(dst, src, active, lanes);
}

void LoadLanes(uint32_t* dst, const uint8_t* base, uint64_t size, const uint32_t* address, uint32_t imm,
               uint32_t lanes) {
	HWY_DYNAMIC_DISPATCH(LoadLanes)(dst, base, size, address, imm, lanes);
}

void StoreLanes(uint8_t* base, uint64_t size, const uint32_t* address, uint32_t imm, const uint32_t* value,
                uint32_t lanes) {
	HWY_DYNAMIC_DISPATCH(StoreLanes)(base, size, address, imm, value, lanes);
}

const AluKernel* AluKernelTable() {
	static const AluKernel* table = HWY_DYNAMIC_DISPATCH(KernelTable)();
	return table;
}
AluKernel GetAluKernel(Op op) { return AluKernelTable()[static_cast<size_t>(op)]; }
const char* OpName(Op op) { return kOpInfo[static_cast<size_t>(op)].name; }
uint32_t OpArity(Op op) { return kOpInfo[static_cast<size_t>(op)].arity; }

std::string Program::Dump() const {
	std::string out;
	char line[160];
	for (size_t bi = 0; bi < blocks.size(); ++bi) {
		const Block& block = blocks[bi];
		snprintf(line, sizeof(line), "block %zu:\n", bi);
		out += line;
		for (uint32_t i = block.inst_begin; i < block.inst_begin + block.inst_count; ++i) {
			const Inst& inst = insts[i];
			snprintf(line, sizeof(line), "  r%u = %s r%u r%u r%u r%u region=%u imm=%u\n", inst.dst, OpName(inst.op),
			         inst.a, inst.b, inst.c, inst.d, inst.region, inst.imm);
			out += line;
		}
		const Terminator& t = block.terminator;
		snprintf(line, sizeof(line), "  terminator kind=%u selector=r%u ->", static_cast<unsigned>(t.kind), t.selector);
		out += line;
		for (uint32_t e = 0; e < t.edge_count; ++e) out += " " + std::to_string(edges[t.edge_begin + e].block);
		out += "\n";
	}
	return out;
}

}  // namespace tessera::shader
#endif  // HWY_ONCE
