// Rewrites of the module's words before the optimizer runs, where a rule of
// SPIR-V would otherwise be lost to a SPIRV-Tools pass or stop it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

// Every function's DontInline control cleared: the engine runs one inlined
// body, and the optimizer's inliner honours DontInline, so a call to such a
// function would remain (SPIR-V 1.6 §3.24: the control is a hint the
// implementation may ignore).
void ClearDontInline(std::vector<uint32_t>& words);

// Every OpLoad of the HelperInvocation built-in becomes OpIsHelperInvocationEXT.
// SPIR-V 1.6 makes HelperInvocation Volatile (a load after
// OpDemoteToHelperInvocation sees the demotion), but SPIRV-Tools 2023 takes
// loads of an Input variable for one value and merges them. The query is
// what a Volatile load reads, the current state; the optimizer keeps each
// one. The translator answers both alike, so older modules lose nothing.
void LoadHelperInvocationAsQuery(std::vector<uint32_t>& words);

// The composite indices of OpSpecConstantOp CompositeExtract, CompositeInsert
// and VectorShuffle, which the validator does not check but SPIRV-Tools'
// spec-constant folding follows (found by the fuzzer: a read far past a
// vector): a message for the first out of range, empty when all are in.
std::string CheckSpecConstantOpIndices(const std::vector<uint32_t>& words);

// The operands of OpExecutionModeId (LocalSizeId, ...), which must be
// constant instructions: the validator lets others through, on which
// SPIRV-Tools' dead code elimination crashes (found by the fuzzer: a
// function parameter as a LocalSizeId size). A message, or empty.
std::string CheckExecutionModeIdOperands(const std::vector<uint32_t>& words);

// Whether the module has an OpSpecConstantOp QuantizeToF16.
bool HasSpecConstantQuantize(const std::vector<uint32_t>& words);

// Each OpSpecConstantOp QuantizeToF16 of a 32-bit float constant (scalar,
// or a composite of scalar constants, frozen or not) becomes the plain constant it
// evaluates to. Runs after the spec constants are frozen: SPIRV-Tools folds
// this opcode to the binary16 value without flushing binary16 subnormals to
// zero, which OpQuantizeToF16 requires (SPIR-V 1.6). Returns whether it
// changed anything.
bool FoldSpecConstantQuantize(std::vector<uint32_t>& words);

// Whether the module has an OpBitcast to or from a scalar or vector type
// with components narrower than 32 bits (f16vec2 to uint, uint to u8vec4).
// SPIRV-Tools 2023.1 folds such a bitcast of constants wrongly: a float
// constant of the first component's bits alone, or a malformed constant of
// a word per component (fixed upstream in 2025,
// KhronosGroup/SPIRV-Tools#6321); the optimizer then runs without its
// constant-folding passes.
bool HasNarrowBitcast(const std::vector<uint32_t>& words);

// Whether the module declares a struct with no members (SPIR-V allows them:
// the CTS's spirv_assembly.*.empty_struct.* pass them to functions and copy
// them with OpCopyLogical). SPIRV-Tools 2023.1's dead-insert elimination
// crashes on their composites (DeadInsertElimPass::MarkInsertChain); the
// optimizer then runs without that pass.
bool HasEmptyStruct(const std::vector<uint32_t>& words);

}  // namespace tessera::spirv
