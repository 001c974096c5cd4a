// SPIR-V of extensions newer than the system's SPIRV-Tools (Debian 12:
// 2023.1) and SPIR-V headers, rewritten into SPIR-V they know before the
// module is validated, so that Tessera can offer the Vulkan extensions
// (ShaderModule::Init runs RewriteNewerExtensions on every module). Each
// rewrite reads only a module's capability and extension declarations
// unless the module declares what it rewrites. The words are not validated
// yet: every read is bounds-checked, and a malformed module is left as it
// is for the validator to refuse.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

// All of the rewrites below; whether any changed the module.
bool RewriteNewerExtensions(std::vector<uint32_t>& words);

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

// SPV_KHR_compute_shader_derivatives (VK_KHR_compute_shader_derivatives),
// newer than the system's SPIRV-Tools, which knows its predecessor
// SPV_NV_compute_shader_derivatives: the KHR extension promoted the NV one
// to compute, mesh and task shaders with the same capability and execution
// mode values (ComputeDerivativeGroupQuadsKHR = ...QuadsNV = 5288, ...), so
// its OpExtension is renamed to the NV one, which the validator then holds
// the module to for compute shaders. Returns whether it changed anything.
bool RenameComputeShaderDerivatives(std::vector<uint32_t>& words);

// For the validator, not the optimizer: VK_KHR_maintenance8 lets
// OpImageSample* and OpImageFetch (and their sparse forms) take the Offset
// image operand, a per-invocation offset, which Vulkan otherwise allows on
// gathers alone and SPIRV-Tools 2023.1 refuses everywhere else (its
// allow-offset-texture-operand option is of 2025). `words` is not validated
// yet: every read is bounds-checked. Each such operand must name an integer
// scalar or vector value defined before the instruction (what the validator
// would have checked); then *stripped is the module without these operands,
// for the validator to check the rest, and the result is empty. Otherwise
// the result says what is wrong. A module without them is copied as it is.
std::string WithoutSampleOffsets(std::span<const uint32_t> words, std::vector<uint32_t>* stripped);

// For the validator, not the translator: VK_EXT_shader_uniform_buffer_unsized_array
// lets the last member of a Block struct in the Uniform storage class be an
// OpTypeRuntimeArray, which SPIRV-Tools 2023.1 allows only in storage
// buffers. Each such runtime array type (used nowhere else: not in another
// struct, not behind a pointer of another storage class, its Block not
// one either) becomes an
// OpTypeArray of length 1 under the same id, so the validator checks the
// rest of the module, layouts included (it does not bound constant indices
// by an array's length). `words` is not validated yet: a malformed module
// is left for the validator. Returns whether *sized holds a rewritten
// module; false: the module has no such array.
bool WithSizedUniformArrays(std::span<const uint32_t> words, std::vector<uint32_t>* sized);

}  // namespace tessera::spirv
