// The shader front end: SPIR-V words in, a shader::Program out.
//
// Compile validates the module with SPIRV-Tools (Vulkan 1.3 environment:
// SPIR-V 1.0 to 1.6), applies specialization constants, runs an optimization
// pipeline (inline, SSA rewrite, scalar replacement, folding, dead-code
// elimination) and translates the entry point to the IR. Everything it cannot
// run is rejected with a message that names the capability or instruction.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "shader/ir.h"

namespace tessera::spirv {

struct Error {
	std::string message;
};

// A value or the error that prevented it (std::expected is C++23).
template <class T>
class Expected {
public:
	Expected(T value) : state_(std::move(value)) {}
	Expected(Error error) : state_(std::move(error)) {}
	bool ok() const { return state_.index() == 0; }
	explicit operator bool() const { return ok(); }
	T& value() { return std::get<0>(state_); }
	const T& value() const { return std::get<0>(state_); }
	T* operator->() { return &value(); }
	const T* operator->() const { return &value(); }
	const Error& error() const { return std::get<1>(state_); }

private:
	std::variant<T, Error> state_;
};

using Stage = shader::Stage;

// VkSpecializationInfo as plain data.
struct SpecializationEntry {
	uint32_t constant_id = 0;
	uint32_t offset = 0;
	uint32_t size = 0;
};
struct Specialization {
	std::span<const SpecializationEntry> entries;
	std::span<const uint8_t> data;
};

// What the application enabled on the device that changes which modules are
// valid (Vulkan 1.3 appendix A "Validation Rules within a Module" and §15.6.4
// "Offset and Stride Assignment"). Relaxed block layout needs no flag: every
// Vulkan 1.1+ device has it, and the validator's Vulkan 1.3 environment
// applies it, as it allows LocalSizeId (maintenance4, core in 1.3).
struct ValidationRules {
	bool uniform_buffer_standard_layout = false;  // uniformBufferStandardLayout: std430 uniform blocks
	bool scalar_block_layout = false;             // scalarBlockLayout: scalar alignment in every block
	bool sample_offsets = false;  // maintenance8: the Offset image operand on OpImageSample* and OpImageFetch
	// workgroupMemoryExplicitLayoutScalarBlockLayout: scalar alignment in Workgroup Blocks.
	bool workgroup_scalar_block_layout = false;
	// shaderUniformBufferUnsizedArray: a runtime array last in a Uniform Block.
	bool uniform_unsized_arrays = false;
	// The rules as bits, for keys of remembered validation results (a new
	// rule takes a new bit).
	uint32_t Bits() const {
		return uint32_t(uniform_buffer_standard_layout) | uint32_t(scalar_block_layout) << 1 |
		       uint32_t(sample_offsets) << 2 | uint32_t(workgroup_scalar_block_layout) << 3 |
		       uint32_t(uniform_unsized_arrays) << 4;
	}
};

// vkCreateShaderModule: is this valid SPIR-V for Vulkan 1.3 on a device with
// the given features enabled? Empty on success.
std::string Validate(std::span<const uint32_t> words, const ValidationRules& rules = {});

struct CompileOptions {
	// The words already passed Validate (at vkCreateShaderModule): skip the
	// second validation, a quarter of the compile time.
	bool validated = false;
	ValidationRules rules;  // for the validation when not yet validated
};

// Pipeline creation: the entry point named entry_point of the given stage,
// specialized and translated.
Expected<shader::Program> Compile(std::span<const uint32_t> words, Stage stage, std::string_view entry_point,
                                  const Specialization& specialization = {}, const CompileOptions& options = {});

// The descriptorCount of (set, binding) in a pipeline layout; 0 when the
// layout has no such binding.
using DescriptorCountFn = std::function<uint32_t(uint32_t set, uint32_t binding)>;

// Pipeline creation: gives each runtime-sized descriptor array of a compiled
// program (shader::kRuntimeDescriptorArray) one slot per descriptor its
// binding may hold in the pipeline layout (for a variable-count binding, the
// most a set may allocate; the set's own count bounds what is read). A
// program must be linked before it runs.
void LinkRuntimeDescriptorArrays(shader::Program& program, const DescriptorCountFn& count_of);

}  // namespace tessera::spirv
