// Lane-wise arithmetic kernels: one loop over the lanes per IR op.
#pragma once

#include <cstdint>

#include "shader/ir.h"

namespace tessera::shader {

// Computes dst[i] = op(a[i], b[i], c[i], d[i]) for i in [0, lanes).
// Hot path: runs once per executed instruction for the whole lane group.
using AluKernel = void (*)(uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c, const uint32_t* d,
                           uint32_t lanes);

// The kernel of an arithmetic op (op < Op::kAluCount).
AluKernel GetAluKernel(Op op);
// All of them, indexed by op: for loops that look up one an instruction.
const AluKernel* AluKernelTable();

// OpQuantizeToF16's value for one float (binary16 subnormals flushed to
// zero), as the kernel computes it; for folding constants.
float QuantizeToF16(float value);

// Hot path: dst[i] = active[i] ? src[i] : dst[i] (active is 0 or 1 per lane).
void BlendLanes(uint32_t* dst, const uint32_t* src, const uint32_t* active, uint32_t lanes);

// Hot path: dst[i] = the 32-bit word at byte address[i] + imm of
// [base, base + size) for every lane, 0 where that is out of bounds.
void LoadLanes(uint32_t* dst, const uint8_t* base, uint64_t size, const uint32_t* address, uint32_t imm,
               uint32_t lanes);

// Hot path: the 32-bit word at byte address[i] + imm of [base, base + size) =
// value[i] for every lane in lane order, dropped where out of bounds.
void StoreLanes(uint8_t* base, uint64_t size, const uint32_t* address, uint32_t imm, const uint32_t* value,
                uint32_t lanes);

}  // namespace tessera::shader
