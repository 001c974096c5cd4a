// The SPIR-V to IR translator (internal to src/spirv). It expects a module
// that SPIRV-Tools has validated and optimized: one function left after
// inlining, variables mostly turned into SSA values, constants folded.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shader/ir.h"

namespace tessera::spirv {

// Thrown inside the translator only; Compile turns it into an Error.
struct TranslateError {
	std::string message;
};
[[noreturn]] void Fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

// One instruction of the module: w[0] is the opcode word, w[1..n) the operands.
struct Instruction {
	spv::Op op = spv::Op::OpNop;
	const uint32_t* w = nullptr;
	uint32_t n = 0;
	uint32_t operator[](uint32_t i) const {
		if (i >= n) Fail("%s: missing operand %u", OpName(), i);
		return w[i];
	}
	const char* OpName() const;
};

struct Type {
	spv::Op op = spv::Op::OpTypeVoid;
	uint32_t width = 0;    // int, float
	uint32_t element = 0;  // vector, matrix (column type), array, pointer (pointee)
	uint32_t count = 0;    // vector components, matrix columns, array length (0: runtime array)
	std::vector<uint32_t> members;
	spv::StorageClass storage = spv::StorageClass::Function;  // pointer
	bool is_signed = false;                                   // int
};

// Stage interface decorations (variables and block members).
struct InterfaceDecorations {
	int64_t location = -1;
	uint32_t component = 0;
	uint32_t index = 0;   // fragment outputs: dual-source blending's Index
	uint32_t stream = 0;  // geometry outputs: the vertex stream (Stream)
	bool patch = false;   // tessellation: Patch
	bool flat = false, no_perspective = false, centroid = false, sample = false;
	bool per_vertex = false;  // fragment inputs: PerVertexKHR
};

// Transform feedback (Xfb execution mode): the buffer, the byte offset in a
// vertex's record (Offset on an output variable), and the buffer's stride.
struct XfbDecorations {
	int64_t offset = -1;
	int32_t buffer = -1;
	uint32_t stride = 0;
};

struct Decorations {
	XfbDecorations xfb;
	int32_t builtin = -1;
	uint32_t array_stride = 0;
	uint32_t set = 0, binding = 0;
	bool block = false, buffer_block = false;
	bool round_toward_zero = false;  // FPRoundingMode RTZ
	InterfaceDecorations interface;
};

struct MemberDecorations {
	XfbDecorations xfb;  // buffer and stride (the member's Offset is `offset`)
	int64_t offset = -1;
	uint32_t matrix_stride = 0;
	bool row_major = false;
	int32_t builtin = -1;  // gl_PerVertex members
	InterfaceDecorations interface;
};

// How a matrix or vector lies in memory where the pointer points.
struct MemoryLayout {
	bool explicit_layout = false;  // buffers and push constants: decorations and natural scalar sizes
	uint32_t matrix_stride = 0;    // 0: tightly packed columns
	bool row_major = false;
	uint32_t component_stride = 0;  // 0: the scalar's slot; a row-major matrix's column has strided components
};

struct ScalarInfo {
	bool is_float = false;
	bool is_bool = false;
	uint32_t width = 32;
};

// One scalar of a value in memory.
struct Leaf {
	uint32_t offset = 0;
	ScalarInfo scalar;
};

constexpr uint32_t kNoRegion = UINT32_MAX;

// Bounds on what a module may ask of the interpreter, so that sizes cannot
// wrap around in 32 bits and scratch memory stays allocatable: workgroup
// memory is what the device reports (maxComputeSharedMemorySize); private
// memory (Function and Private variables left in memory) is kept per lane,
// up to 1024 lanes at once; values are split into at most kMaxLeaves scalars;
// buffer descriptor arrays are what the device reports per stage.
constexpr uint64_t kMaxWorkgroupMemory = 65536;
constexpr uint64_t kMaxPrivateBytes = 64 * 1024;
constexpr uint64_t kMaxTypeSize = uint64_t{1} << 30;
constexpr uint64_t kMaxLeaves = 1 << 16;
constexpr uint64_t kMaxDescriptors = 1 << 20;  // maxPerStageDescriptorStorageBuffers

// A pointer value: which region, and where in it per lane.
struct Pointer {
	uint32_t region = kNoRegion;
	uint32_t pointee = 0;  // type id
	uint32_t dynamic = 0;  // register with a per-lane byte offset (0: none)
	uint32_t offset = 0;   // constant byte offset added to it
	MemoryLayout layout;
	uint32_t builtin_variable = 0;     // an Input variable decorated BuiltIn
	uint32_t descriptor_variable = 0;  // an array of buffer blocks, not yet indexed
	uint32_t descriptor_index = 0;     // register: the element of an arrayed region
	uint32_t address_hi = 0;           // device addresses (kPhysical): register with the high word
	// A variable pointer (translate_pointers.cpp): region is kNoRegion and
	// `which` holds, per lane, 1 + the index of the variable pointed into
	// among the storage class's candidates (0: a null pointer);
	// descriptor_index and dynamic are then always registers.
	int8_t variable_class = -1;  // kStorageBufferPointers, kWorkgroupPointers; -1: a fixed pointer
	uint32_t which = 0;
};

// The storage classes whose pointers may be variable pointers (SPIR-V 1.6
// §2.16.1: only these may be loaded from or stored to through one).
constexpr int8_t kStorageBufferPointers = 0;
constexpr int8_t kWorkgroupPointers = 1;

struct SourceBlock {
	uint32_t label = 0;
	std::vector<Instruction> body;  // without OpLabel, merges and the terminator
	Instruction terminator;
	uint32_t merge = 0, continue_target = 0;
};

class Translator {
public:
	Translator(std::span<const uint32_t> words, shader::Stage stage, std::string_view entry_point,
	           shader::Program& program);
	void Run();
	struct ImageState;  // translate_image.cpp

private:
	// translator.cpp: module, types, memory, control flow.
	void ParseModule();
	void CheckCapability(uint32_t capability);
	void ParseFunction(uint32_t function_id);
	std::optional<Instruction> InvocationEndingCallee(uint32_t function_id);
	std::vector<uint32_t> StructuredOrder();
	std::vector<uint8_t> ReachableByEdges();
	uint32_t SwitchLiteralWords(const Instruction& terminator);
	void EmitBlock(const SourceBlock& block, bool entry);
	void EmitTerminator(const SourceBlock& block, shader::Block& out);
	void ResolveEdges();
	void DropUnusedInputs();
	void TranslateMemoryOrValue(const Instruction& inst);
	void EmitSpecConstantOps();
	Instruction RepairFoldedBitcast(const Instruction& constant);

	uint32_t LeafCount(uint32_t type);
	uint32_t Size(uint32_t type);
	uint32_t ExplicitSize(uint32_t type, const MemoryLayout& layout);
	uint32_t SlotSize(uint32_t scalar_type, bool explicit_layout);
	uint32_t ArrayStride(uint32_t array_type, bool explicit_layout);
	uint32_t MemberOffset(uint32_t struct_type, uint32_t member, bool explicit_layout);
	void MemoryLeaves(uint32_t type, uint32_t offset, const MemoryLayout& layout, std::vector<Leaf>& out);
	ScalarInfo ScalarOf(uint32_t type_id);
	// The canonical form of 8/16-bit values after arithmetic: masked integers, rounded halves.
	uint32_t Canonical(uint32_t reg, const ScalarInfo& scalar);
	std::vector<uint32_t> Canonical(std::vector<uint32_t> regs, uint32_t type);
	std::vector<uint32_t> Bitcast(uint32_t value_id, uint32_t result_type);
	uint32_t ConstantBits(uint32_t literal, const ScalarInfo& scalar);
	const Type& TypeOf(uint32_t type_id);
	void CheckScalar(const Type& type);

	Pointer& PointerOf(uint32_t id);
	Pointer VariablePointer(uint32_t variable);
	uint32_t BufferRegion(uint32_t variable, uint32_t element, uint32_t block_type, uint32_t count = 1);
	uint32_t NewPrivateRegion(uint32_t type);
	void SetUpGeometry();
	void SetUpTessControl();
	void EmitGeometryVertex(uint32_t stream);
	void AccessChain(const Instruction& inst, bool ptr_chain = false);
	std::vector<uint32_t> Load(const Pointer& pointer);
	void Store(const Pointer& pointer, const std::vector<uint32_t>& values);
	void Atomic(const Instruction& inst);
	std::vector<uint32_t>& BuiltinRegisters(uint32_t builtin);

	// translate_physical.cpp: device addresses (PhysicalStorageBuffer).
	bool IsPhysicalPointerType(uint32_t type_id);
	bool IsPhysical(const Pointer& p) const;
	bool PhysicalPointer(uint32_t id, Pointer& out);
	void AddPhysicalOffset(Pointer& p, uint32_t index_id, uint32_t stride);
	std::vector<uint32_t> PhysicalAddress(const Pointer& p);
	void PtrElement(Pointer& p, uint32_t base_id, uint32_t element_id);
	bool TranslatePhysical(const Instruction& inst);

	// translate_pointers.cpp: variable pointers (VariablePointers and
	// VariablePointersStorageBuffer).
	struct PointerCandidates {
		bool built = false;
		std::vector<uint32_t> variables;  // by id
		std::vector<uint32_t> regions;    // each variable's region (a descriptor array: all of it)
	};
	int8_t VariablePointerClass(uint32_t pointer_type);
	const PointerCandidates& Candidates(int8_t pointer_class);
	std::vector<uint32_t> PointerValue(const Pointer& p, int8_t pointer_class);
	Pointer PointerFromValue(const std::vector<uint32_t>& regs, uint32_t pointer_type);
	uint32_t EmitVariableMemory(shader::Op op, const Pointer& pointer, uint32_t leaf_offset, uint32_t b, uint32_t c,
	                            const std::function<void(shader::Inst&)>& finish);
	void NoteVariablePointerPhis();
	void DefinePointerValue(uint32_t id);
	uint32_t PointerTypeOf(uint32_t id);
	bool TranslateVariablePointer(const Instruction& inst);

	// translate_ops.cpp: values.
	bool TranslateValue(const Instruction& inst);
	void TranslateGlsl(const Instruction& inst);
	std::vector<uint32_t> Ldexp(uint32_t significand_id, uint32_t exponent_id);
	std::vector<uint32_t> ComponentWise(shader::Op op, uint32_t result_type, std::span<const uint32_t> operand_ids);
	void Matrix(const Instruction& inst);

	// translate_stage.cpp: vertex and fragment stages (interface variables,
	// discard and helper invocations, derivatives).
	bool ParseExecutionMode(const Instruction& inst);
	void SetUpStage();
	bool IsInterfaceBuiltin(uint32_t builtin) const;
	uint32_t InterfaceRegion(uint32_t variable);
	// Transform feedback: the captured words of an output variable's region.
	void XfbWords(uint32_t variable, uint32_t type, uint32_t first_word);
	// Byte offsets, in a vertex's record, of each word of `type` laid out
	// from `offset` (Vulkan 1.3 §26.1 "Transform Feedback": members,
	// elements, columns and components in order, each component aligned to
	// its size); -1 where not captured.
	// Returns the end of the value (-1 when offset is -1).
	int64_t XfbOffsets(uint32_t type, int64_t offset, std::vector<int64_t>& out);
	uint32_t XfbAlignment(uint32_t type);
	uint32_t InterfaceWords(uint32_t type, uint32_t location, uint32_t component, const shader::InterfaceWord& proto,
	                        uint32_t& word, std::vector<shader::InterfaceWord>& out);
	void BuiltinWords(uint32_t builtin, uint32_t type, shader::InterfaceWord proto, uint32_t& word,
	                  std::vector<shader::InterfaceWord>& out);
	uint32_t StageWord(shader::InterfaceBuiltin builtin, std::vector<shader::InterfaceWord>* list);
	// StorageInputOutput16: the 16-bit input words made exact at the start
	// (a half, a zero-extended integer), the signed 16-bit fragment outputs
	// sign-extended at the end (integer attachments read 32 bits).
	void CanonicalNarrowInputs();
	void SignExtendNarrowOutputs();
	std::pair<uint32_t, uint32_t> InterfaceWordPlace(uint32_t word);  // region, byte offset
	void RewriteInterfaceWord(uint32_t word, const std::function<uint32_t(uint32_t)>& rewrite);
	// translate_image.cpp, subpass inputs: FragCoord's x or y, and any
	// built-in input component, as a private region.
	uint32_t FragCoordRegion(uint32_t component);
	uint32_t BuiltinInputRegion(spv::BuiltIn builtin, shader::InterfaceBuiltin interface, uint32_t index,
	                            shader::ScalarKind kind);
	uint32_t HelperValue();
	void EmitDiscard();
	bool TranslateStageOp(const Instruction& inst);
	std::vector<uint32_t> Derivatives(shader::Op op, uint32_t value_id);
	// translate_dot.cpp: integer dot products (OpSDot, OpUDot, OpSUDot, *AccSat).
	bool TranslateDot(const Instruction& inst);

	// translate_subgroup.cpp: OpGroupNonUniform*.
	bool TranslateSubgroup(const Instruction& inst);
	bool TranslateSubgroupKhr(const Instruction& inst);
	std::vector<uint32_t> SubgroupMask(spv::BuiltIn builtin);
	uint32_t EmitSubgroup(shader::Op op, uint32_t a, uint32_t b = 0, uint16_t combine = 0, uint32_t imm = 0);

	// translate_image.cpp: images, samplers, texel buffers.
	bool TranslateImage(const Instruction& inst);

	// Registers and values.
	const std::vector<uint32_t>& Regs(uint32_t id);
	uint32_t Scalar(uint32_t id);
	uint32_t IndexReg(uint32_t id);
	std::vector<uint32_t> ComponentWise64(shader::Op op, uint32_t result_type, std::span<const uint32_t> operand_ids);
	// translate_float64.cpp: 64-bit floats.
	bool IsDouble(uint32_t id);
	std::vector<uint32_t> ComponentWiseDouble(shader::Op op, uint32_t result_type,
	                                          std::span<const uint32_t> operand_ids);
	std::vector<uint32_t> ConvertDouble(uint32_t value_id, uint32_t result_type, bool is_signed,
	                                    bool toward_zero = false);
	std::vector<uint32_t> DoubleOp(shader::Op op, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y);
	std::vector<uint32_t> DoubleDot(const std::vector<std::vector<uint32_t>>& a,
	                                const std::vector<std::vector<uint32_t>>& b);
	void MatrixDouble(const Instruction& inst);
	bool GlslDouble(const Instruction& inst, uint32_t instruction);
	std::vector<uint32_t> BitField64(shader::Op op, const std::vector<std::vector<uint32_t>>& operands);
	std::vector<uint32_t> ExtendedArithmetic(const Instruction& inst);
	uint32_t Const(uint32_t bits);
	uint32_t NewReg() { return program_.register_count++; }
	uint32_t Emit(shader::Op op, uint32_t a, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0);
	uint32_t EmitMemory(shader::Op op, const Pointer& pointer, uint32_t leaf_offset, uint32_t b = 0, uint32_t c = 0,
	                    const std::function<void(shader::Inst&)>& finish = nullptr);
	void Define(uint32_t id, std::vector<uint32_t> regs) { values_[id] = std::move(regs); }

	std::span<const uint32_t> words_;
	shader::Stage stage_;
	std::string entry_point_;
	shader::Program& program_;

	std::unordered_map<uint32_t, Type> types_;
	std::unordered_map<uint32_t, Decorations> decorations_;
	std::map<std::pair<uint32_t, uint32_t>, MemberDecorations> member_decorations_;
	std::unordered_map<uint32_t, Instruction> constants_;   // id -> defining instruction
	std::vector<Instruction> spec_constant_ops_;            // OpSpecConstantOp left unfolded, in module order
	std::deque<std::vector<uint32_t>> repaired_constants_;  // words of RepairFoldedBitcast's constants
	std::unordered_map<uint32_t, Instruction> globals_;     // module-scope OpVariable
	std::unordered_map<uint32_t, uint32_t> result_types_;
	std::unordered_map<uint32_t, std::pair<size_t, size_t>> functions_;  // id -> word range
	std::vector<Instruction> instructions_;
	uint32_t glsl_ = 0;
	std::vector<uint32_t> ignored_ext_sets_;
	uint32_t entry_function_ = 0;
	uint32_t local_size_id_[3] = {0, 0, 0};

	std::unordered_map<uint32_t, std::vector<uint32_t>> values_;
	std::unordered_map<uint32_t, Pointer> pointers_;
	std::unordered_map<uint32_t, uint32_t> constant_regs_;
	std::map<std::tuple<uint32_t, uint32_t>, uint32_t> buffer_regions_;
	std::map<uint32_t, std::vector<uint32_t>> builtin_regs_;
	std::unordered_map<uint32_t, uint32_t> global_regions_;  // Workgroup and Private variables
	// The bytes the module's Block-typed Workgroup variables share (the
	// largest of them; VK_KHR_workgroup_memory_explicit_layout), once known.
	std::optional<uint32_t> aliased_workgroup_size_;
	uint32_t AliasedWorkgroupSize();
	uint32_t physical_region_ = kNoRegion;  // device addresses
	// Variable pointers: the candidates of each class, what variable (and
	// which element of a descriptor array; UINT32_MAX: any) each buffer and
	// workgroup region is, and the pointers that flow into pointer phis
	// (their values are made where they are defined).
	PointerCandidates pointer_candidates_[2];
	std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> region_origins_;
	std::unordered_map<uint32_t, uint32_t> pointer_phi_operands_;  // id -> the phi's pointer type
	// Vertex and fragment stages.
	std::vector<uint32_t> entry_interface_;                 // the entry point's interface variables
	std::unordered_map<uint32_t, uint32_t> stage_regions_;  // Input/Output variable -> private region
	uint32_t helper_region_ = kNoRegion;                    // fragment: the HelperInvocation input word
	uint32_t discard_region_ = kNoRegion;                   // fragment: Program::discard_word
	uint32_t sample_count_region_ = kNoRegion;              // fragment: InterfaceBuiltin::kSampleCount
	// Geometry: the emit region, the count of records, the pending strip cut,
	// and where each output word lives (region, byte offset in it).
	uint32_t emit_region_ = kNoRegion, emitted_region_ = kNoRegion;
	uint32_t cut_regions_[shader::kMaxVertexStreams] = {kNoRegion, kNoRegion, kNoRegion, kNoRegion};
	std::vector<std::pair<uint32_t, uint32_t>> emit_sources_;
	// Tessellation control: the register holding the lane's patch record
	// offset in workgroup memory (patch index x patch bytes), the word the
	// caller puts the patch index in, and the output regions and sizes.
	uint32_t patch_base_reg_ = 0;
	uint32_t patch_index_region_ = kNoRegion;
	uint32_t patch_record_bytes_ = 0;
	std::vector<std::pair<uint32_t, uint32_t>> patch_output_regions_;  // region, the variable's bytes
	std::shared_ptr<ImageState> images_;                               // translate_image.cpp

	std::vector<SourceBlock> blocks_;
	uint32_t next_split_label_ = 0;                                    // labels past the module's bound
	std::unordered_map<uint32_t, uint32_t> block_index_;               // label -> index into program_.blocks
	std::unordered_map<uint32_t, std::vector<uint32_t>> phi_shadows_;  // phi id -> shadow registers
	struct PendingEdge {
		uint32_t edge, from_label, to_label;
	};
	std::vector<PendingEdge> pending_edges_;
	std::unordered_map<uint32_t, const SourceBlock*> source_blocks_;
	std::map<std::tuple<shader::Op, uint32_t, uint32_t, uint32_t, uint32_t>, uint32_t> value_numbers_;
};

}  // namespace tessera::spirv
