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

// SPV_KHR_float_controls2 (VK_KHR_shader_float_controls2), which the
// system's SPIRV-Tools (2023.1) and SPIR-V headers predate: the
// FloatControls2 capability, its extension, FPFastMathDefault execution
// modes and FPFastMathMode decorations are removed from a module that
// declares the capability. Each only permits an implementation to relax
// IEEE rules (contract, reassociate, assume no NaN, ...); Tessera relaxes
// none, so the module computes the same without them, and what remains is
// SPIR-V the validator and optimizer know. Returns whether it removed
// anything.
bool RemoveFloatControls2(std::vector<uint32_t>& words);

// SPV_KHR_maximal_reconvergence (VK_KHR_shader_maximal_reconvergence),
// newer than the system's SPIRV-Tools: its extension and
// MaximallyReconvergesKHR execution modes are removed. The mode asks for
// what Tessera's scheduler gives every module (lanes run together from
// where control flow splits to where it provably joins); nothing else in
// the module changes. Returns whether it removed anything.
bool RemoveMaximalReconvergence(std::vector<uint32_t>& words);

// SPV_KHR_quad_control (VK_KHR_shader_quad_control), newer than the
// system's SPIRV-Tools, rewritten into SPIR-V it knows:
// OpGroupNonUniformQuadAllKHR / QuadAnyKHR become
// OpGroupNonUniformLogicalAnd / LogicalOr ClusteredReduce over clusters of 4
// (a quad is 4 consecutive invocations of a subgroup, the same set), with
// the capabilities and constants that takes; the QuadControlKHR capability,
// the extension and the QuadDerivativesKHR / RequireFullQuadsKHR execution
// modes are removed (Tessera's fragment quads are always full, helpers
// included, and derivatives are taken within them). Returns whether it
// changed anything.
bool RewriteQuadControl(std::vector<uint32_t>& words);

// SPV_EXT_replicated_composites (VK_EXT_shader_replicated_composites),
// newer than the system's SPIRV-Tools: each OpConstantCompositeReplicateEXT,
// OpSpecConstantCompositeReplicateEXT and OpCompositeConstructReplicateEXT
// becomes the plain instruction with its one value repeated for every
// constituent of the result type (a vector's components, a matrix's
// columns, an array's elements, a structure's members); the capability and
// the extension are removed. An array whose length is not an OpConstant
// (a specialization constant) is left as it is, for the validator to
// refuse. Returns whether it changed anything.
bool ExpandReplicatedComposites(std::vector<uint32_t>& words);

// SPV_KHR_relaxed_extended_instruction
// (VK_KHR_shader_relaxed_extended_instruction), newer than the system's
// SPIRV-Tools: its one instruction, OpExtInstWithForwardRefsKHR, may only
// use non-semantic instruction sets, so every instruction of the module's
// non-semantic sets (debug information: nothing Tessera reads, and nothing
// else may use their results), their imports and the extension are
// removed. Returns whether it changed anything.
bool RemoveRelaxedExtendedInstructions(std::vector<uint32_t>& words);

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
