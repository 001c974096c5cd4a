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

#include "shader/alu_scalar.inc"

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
