// SPIR-V to IR: the module, types and layouts, memory, and control flow.
// Value operations (arithmetic, composites, GLSL.std.450) are in
// translate_ops.cpp.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include "spirv/translator.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>

#include "shader/register_allocation.h"
#include "spirv/names.h"

namespace tessera::spirv {

using shader::Op;

void Fail(const char* format, ...) {
	char buffer[512];
	va_list args;
	va_start(args, format);
	vsnprintf(buffer, sizeof(buffer), format, args);
	va_end(args);
	throw TranslateError{buffer};
}

const char* Instruction::OpName() const { return OpcodeName(static_cast<uint32_t>(op)); }

namespace {

// The capabilities whose every instruction the translator handles.
constexpr spv::Capability kSupportedCapabilities[] = {
    spv::Capability::Shader,
    spv::Capability::Matrix,
    spv::Capability::VulkanMemoryModel,
    spv::Capability::VulkanMemoryModelDeviceScope,
    spv::Capability::GroupNonUniform,
    spv::Capability::GroupNonUniformVote,
    spv::Capability::GroupNonUniformArithmetic,
    spv::Capability::GroupNonUniformBallot,
    spv::Capability::GroupNonUniformShuffle,
    spv::Capability::GroupNonUniformShuffleRelative,
    spv::Capability::GroupNonUniformClustered,
    spv::Capability::GroupNonUniformQuad,
    // SPV_KHR_subgroup_rotate (translate_subgroup.cpp).
    spv::Capability::GroupNonUniformRotateKHR,
    // SPV_KHR_expect_assume (translate_ops.cpp).
    spv::Capability::ExpectAssumeKHR,
    // SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote (translate_subgroup.cpp).
    spv::Capability::SubgroupBallotKHR,
    spv::Capability::SubgroupVoteKHR,
    // 8/16-bit values: held widened in 32-bit registers.
    spv::Capability::Int8,
    spv::Capability::Int16,
    spv::Capability::Int64,
    spv::Capability::Int64Atomics,
    // OpAtomicF{Add,Min,Max}EXT on buffers, workgroup memory, device
    // addresses and R32_SFLOAT images and texel buffers.
    spv::Capability::AtomicFloat32AddEXT,
    spv::Capability::AtomicFloat64AddEXT,
    spv::Capability::AtomicFloat32MinMaxEXT,
    spv::Capability::AtomicFloat64MinMaxEXT,
    spv::Capability::Float64,
    spv::Capability::Float16,
    spv::Capability::StorageBuffer16BitAccess,
    spv::Capability::UniformAndStorageBuffer16BitAccess,
    spv::Capability::StoragePushConstant16,
    spv::Capability::StorageInputOutput16,
    spv::Capability::StorageBuffer8BitAccess,
    spv::Capability::UniformAndStorageBuffer8BitAccess,
    spv::Capability::StoragePushConstant8,
    spv::Capability::PhysicalStorageBufferAddresses,
    // Workgroup Blocks: explicit layout, all at byte 0 (translate_memory.cpp).
    spv::Capability::WorkgroupMemoryExplicitLayoutKHR,
    spv::Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR,
    spv::Capability::WorkgroupMemoryExplicitLayout16BitAccessKHR,
    // Variable pointers (translate_pointers.cpp).
    spv::Capability::VariablePointersStorageBuffer,
    spv::Capability::VariablePointers,
    // Float controls: the interpreter and the compiled tier compute IEEE
    // results rounded to nearest even, with no fast-math assumption, so
    // signed zeros, infinities and NaNs are kept and RTE is the rounding
    // (halves are computed as floats and rounded once: exact for +, -, *, /
    // and sqrt, since 24 >= 2 * 11 + 2 bits). Denormal modes are not taken.
    spv::Capability::SignedZeroInfNanPreserve,
    spv::Capability::RoundingModeRTE,
    // Vertex and fragment stages (translate_stage.cpp).
    spv::Capability::ClipDistance,
    spv::Capability::CullDistance,
    spv::Capability::SampleRateShading,
    spv::Capability::InterpolationFunction,
    spv::Capability::DerivativeControl,
    // Derivatives, implicit LOD and quads in compute shaders
    // (VK_KHR_compute_shader_derivatives; Program::derivative_group).
    spv::Capability::ComputeDerivativeGroupQuadsNV,
    spv::Capability::ComputeDerivativeGroupLinearNV,
    spv::Capability::DemoteToHelperInvocation,
    // VK_EXT_fragment_shader_interlock (Program::interlock).
    spv::Capability::FragmentShaderPixelInterlockEXT,
    spv::Capability::FragmentShaderSampleInterlockEXT,
    // VK_KHR_fragment_shader_barycentric: BaryCoord* and PerVertexKHR
    // inputs (vk/draw.cpp, ExpandPrimitives).
    spv::Capability::FragmentBarycentricKHR,
    spv::Capability::DrawParameters,
    spv::Capability::MultiView,
    // Layer written by the vertex stage (shaderOutputLayer; vk/draw.cpp
    // DrawLayers) and read by the fragment stage.
    spv::Capability::ShaderLayer,
    // Geometry stage (translate_stage.cpp; geometryShader), PointSize
    // written there (shaderTessellationAndGeometryPointSize).
    spv::Capability::Geometry,
    spv::Capability::GeometryPointSize,
    // Vertex streams 0..3 (geometryStreams): stream 0, or the pipeline's
    // rasterization stream, is drawn; every stream can be captured.
    spv::Capability::GeometryStreams,
    // Tessellation control and evaluation stages (vk/tessellation_stage.cpp;
    // tessellationShader), PointSize written there.
    spv::Capability::Tessellation,
    spv::Capability::TessellationPointSize,
    // ViewportIndex written by the vertex stage (shaderOutputViewportIndex)
    // and read by the fragment stage; both Layer and ViewportIndex
    // (VK_EXT_shader_viewport_index_layer); several viewports.
    spv::Capability::ShaderViewportIndex,
    spv::Capability::ShaderViewportIndexLayerEXT,
    spv::Capability::MultiViewport,
    // Outputs captured by transform feedback (Program::xfb_words; vk/draw.cpp
    // CaptureTransformFeedback). GeometryStreams is not: stream 0 only.
    spv::Capability::TransformFeedback,
    spv::Capability::StencilExportEXT,
    // OpReadClockKHR (translate_stage.cpp).
    spv::Capability::ShaderClockKHR,
    // PostDepthCoverage (raster::FragmentShader::post_depth_coverage).
    spv::Capability::SampleMaskPostDepthCoverage,
    // BuiltIn DeviceIndex: one physical device per device group, always 0.
    spv::Capability::DeviceGroup,
    // Integer dot products (translate_dot.cpp).
    spv::Capability::DotProductInputAll,
    spv::Capability::DotProductInput4x8Bit,
    spv::Capability::DotProductInput4x8BitPacked,
    spv::Capability::DotProduct,
    // Images, samplers and texel buffers (translate_image.cpp).
    spv::Capability::Sampled1D,
    spv::Capability::Image1D,
    spv::Capability::SampledBuffer,
    spv::Capability::ImageBuffer,
    spv::Capability::SampledCubeArray,
    spv::Capability::ImageCubeArray,
    spv::Capability::ImageQuery,
    spv::Capability::InputAttachment,
    spv::Capability::ImageGatherExtended,
    spv::Capability::MinLod,
    spv::Capability::SparseResidency,
    spv::Capability::StorageImageExtendedFormats,
    spv::Capability::StorageImageMultisample,
    spv::Capability::ImageMSArray,
    spv::Capability::StorageImageReadWithoutFormat,
    spv::Capability::StorageImageWriteWithoutFormat,
    spv::Capability::SampledImageArrayDynamicIndexing,
    spv::Capability::StorageImageArrayDynamicIndexing,
    spv::Capability::UniformTexelBufferArrayDynamicIndexing,
    spv::Capability::StorageTexelBufferArrayDynamicIndexing,
    spv::Capability::InputAttachmentArrayDynamicIndexing,
    // Descriptor arrays indexed per lane (buffers: Interpreter::
    // ExecuteDescriptorArray; images, input attachments included: lanes
    // batched by element in Interpreter::ExecuteImage), so an index may
    // differ between the lanes of one lane group: the NonUniform decoration
    // needs nothing more.
    spv::Capability::UniformBufferArrayDynamicIndexing,
    spv::Capability::StorageBufferArrayDynamicIndexing,
    spv::Capability::ShaderNonUniform,
    spv::Capability::UniformBufferArrayNonUniformIndexing,
    spv::Capability::StorageBufferArrayNonUniformIndexing,
    spv::Capability::SampledImageArrayNonUniformIndexing,
    spv::Capability::StorageImageArrayNonUniformIndexing,
    spv::Capability::UniformTexelBufferArrayNonUniformIndexing,
    spv::Capability::StorageTexelBufferArrayNonUniformIndexing,
    spv::Capability::InputAttachmentArrayNonUniformIndexing,
    // Runtime-sized descriptor arrays: sized from the pipeline layout at
    // pipeline creation (LinkRuntimeDescriptorArrays).
    spv::Capability::RuntimeDescriptorArray,
};

std::string LiteralString(const Instruction& inst, uint32_t first) {
	std::string s;
	for (uint32_t i = first; i < inst.n; ++i) {
		char chunk[5] = {};
		memcpy(chunk, &inst.w[i], 4);
		s += chunk;
		if (strlen(chunk) < 4) break;
	}
	return s;
}

}  // namespace

Translator::Translator(std::span<const uint32_t> words, shader::Stage stage, std::string_view entry_point,
                       shader::Program& program)
    : words_(words), stage_(stage), entry_point_(entry_point), program_(program) {}

void Translator::Run() {
	program_ = {};
	program_.constants.push_back({0, 0});  // register 0 reads zero everywhere
	constant_regs_[0] = 0;
	program_.stage = stage_;
	ParseModule();
	if (!entry_function_)
		Fail("no %s entry point named '%s'",
		     stage_ == shader::Stage::kCompute       ? "GLCompute"
		     : stage_ == shader::Stage::kVertex      ? "Vertex"
		     : stage_ == shader::Stage::kGeometry    ? "Geometry"
		     : stage_ == shader::Stage::kTessControl ? "TessellationControl"
		     : stage_ == shader::Stage::kTessEval    ? "TessellationEvaluation"
		                                             : "Fragment",
		     entry_point_.c_str());
	ParseFunction(entry_function_);
	if (stage_ != shader::Stage::kCompute) SetUpStage();
	auto size_constant = [&](uint32_t id) {
		auto c = constants_.find(id);
		if (c == constants_.end() || c->second.op != spv::Op::OpConstant)
			Fail("workgroup size %u is not a constant", id);
		return c->second[3];
	};
	for (int i = 0; i < 3; ++i)
		if (local_size_id_[i]) program_.workgroup_size[i] = size_constant(local_size_id_[i]);
	for (auto& [id, deco] : decorations_)
		if (deco.builtin == static_cast<int32_t>(spv::BuiltIn::WorkgroupSize) && constants_.count(id)) {
			const Instruction& c = constants_.at(id);
			if (c.op != spv::Op::OpConstantComposite || c.n < 6) Fail("WorkgroupSize is not a constant vector");
			for (int k = 0; k < 3; ++k) program_.workgroup_size[k] = size_constant(c[3 + k]);
		}
	// maxComputeWorkGroupSize is 1024 x 1024 x 1024: bounding each dimension
	// first keeps the product from wrapping around.
	if (program_.workgroup_size[0] > 1024 || program_.workgroup_size[1] > 1024 || program_.workgroup_size[2] > 1024 ||
	    program_.InvocationsPerWorkgroup() == 0 || program_.InvocationsPerWorkgroup() > 1024)
		Fail("workgroup size %ux%ux%u is outside what the device supports", program_.workgroup_size[0],
		     program_.workgroup_size[1], program_.workgroup_size[2]);
	// VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151 and -LinearKHR-10152:
	// whole quads, which the lane layout (Interpreter::RunLanes) relies on.
	if (stage_ != shader::Stage::kCompute) program_.derivative_group = shader::DerivativeGroup::kNone;
	if (program_.derivative_group == shader::DerivativeGroup::kQuads &&
	    (program_.workgroup_size[0] % 2 != 0 || program_.workgroup_size[1] % 2 != 0))
		Fail("DerivativeGroupQuadsKHR with workgroup size %ux%u: both must be multiples of 2",
		     program_.workgroup_size[0], program_.workgroup_size[1]);
	if (program_.derivative_group == shader::DerivativeGroup::kLinear && program_.InvocationsPerWorkgroup() % 4 != 0)
		Fail("DerivativeGroupLinearKHR with %u invocations per workgroup: not a multiple of 4",
		     program_.InvocationsPerWorkgroup());
	std::vector<uint32_t> order = StructuredOrder();
	const std::vector<uint8_t> reachable = ReachableByEdges();
	for (uint32_t i = 0; i < order.size(); ++i) block_index_[blocks_[order[i]].label] = i;
	// Phis get their registers before any block runs: an operand can come
	// from a later block (a loop's back edge).
	for (const SourceBlock& block : blocks_)
		for (const Instruction& inst : block.body)
			if (inst.op == spv::Op::OpPhi) {
				uint32_t leaves = LeafCount(inst[1]);
				std::vector<uint32_t> regs, shadows;
				for (uint32_t k = 0; k < leaves; ++k) regs.push_back(NewReg()), shadows.push_back(NewReg());
				result_types_[inst[2]] = inst[1];
				Define(inst[2], regs);
				phi_shadows_[inst[2]] = shadows;
			}
	NoteVariablePointerPhis();
	for (uint32_t i = 0; i < order.size(); ++i) {
		if (reachable[order[i]]) {
			EmitBlock(blocks_[order[i]], i == 0);
			continue;
		}
		shader::Block never_runs;  // an exit with no instructions
		never_runs.inst_begin = static_cast<uint32_t>(program_.insts.size());
		never_runs.terminator.edge_begin = static_cast<uint32_t>(program_.edges.size());
		program_.blocks.push_back(never_runs);
	}
	ResolveEdges();
	DropUnusedInputs();
	shader::AllocateRegisters(program_);
}

// Built-in components and constants nobody reads need not be filled per run.
void Translator::DropUnusedInputs() {
	std::vector<uint8_t> used(program_.register_count, 0);
	used[0] = 1;
	for (const shader::Inst& inst : program_.insts) {
		used[inst.a] = used[inst.d] = 1;            // d: arithmetic operand or descriptor array element
		if (inst.op == Op::kArrayLength) continue;  // its b is a literal stride
		used[inst.b] = used[inst.c] = 1;
	}
	for (const shader::PhiCopy& copy : program_.copies) used[copy.src] = 1;
	for (const shader::Block& block : program_.blocks) used[block.terminator.selector] = 1;
	std::erase_if(program_.builtins, [&](const shader::BuiltinInput& input) { return !used[input.reg]; });
	std::erase_if(program_.constants, [&](const shader::Constant& constant) { return !used[constant.reg]; });
}

void Translator::CheckCapability(uint32_t capability) {
	for (spv::Capability supported : kSupportedCapabilities)
		if (static_cast<uint32_t>(supported) == capability) return;
	Fail("unsupported SPIR-V capability %s", CapabilityName(capability));
}

void Translator::ParseModule() {
	if (words_.size() < 5) Fail("not a SPIR-V module");
	size_t pos = 5;
	uint32_t current_function = 0;
	size_t function_begin = 0;
	while (pos < words_.size()) {
		uint32_t count = words_[pos] >> 16;
		if (count == 0 || pos + count > words_.size()) Fail("malformed instruction at word %zu", pos);
		Instruction inst{static_cast<spv::Op>(words_[pos] & 0xffff), &words_[pos], count};
		pos += count;
		switch (inst.op) {
		case spv::Op::OpCapability: CheckCapability(inst[1]); break;
		case spv::Op::OpExtInstImport: {
			std::string name = LiteralString(inst, 2);
			if (name == "GLSL.std.450")
				glsl_ = inst[1];
			else if (name.rfind("NonSemantic.", 0) == 0)
				ignored_ext_sets_.push_back(inst[1]);
			else
				Fail("unsupported extended instruction set %s", name.c_str());
			break;
		}
		case spv::Op::OpMemoryModel:
			if (inst[1] != static_cast<uint32_t>(spv::AddressingModel::Logical) &&
			    inst[1] != static_cast<uint32_t>(spv::AddressingModel::PhysicalStorageBuffer64))
				Fail("only the Logical and PhysicalStorageBuffer64 addressing models are supported");
			break;
		case spv::Op::OpEntryPoint: {
			spv::ExecutionModel model =
			    stage_ == shader::Stage::kVertex        ? spv::ExecutionModel::Vertex
			    : stage_ == shader::Stage::kFragment    ? spv::ExecutionModel::Fragment
			    : stage_ == shader::Stage::kGeometry    ? spv::ExecutionModel::Geometry
			    : stage_ == shader::Stage::kTessControl ? spv::ExecutionModel::TessellationControl
			    : stage_ == shader::Stage::kTessEval    ? spv::ExecutionModel::TessellationEvaluation
			                                            : spv::ExecutionModel::GLCompute;
			std::string name = LiteralString(inst, 3);
			if (inst[1] != static_cast<uint32_t>(model) || name != entry_point_ || entry_function_) break;
			entry_function_ = inst[2];
			// The interface ids follow the name (nul-terminated, padded to words).
			entry_interface_.assign(inst.w + std::min<uint32_t>(inst.n, 3 + static_cast<uint32_t>(name.size()) / 4 + 1),
			                        inst.w + inst.n);
			break;
		}
		case spv::Op::OpExecutionMode:
		case spv::Op::OpExecutionModeId:
			if (!entry_function_ || inst[1] != entry_function_) break;  // another entry point's
			if (ParseExecutionMode(inst)) break;
			if (inst[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
				for (int i = 0; i < 3; ++i) program_.workgroup_size[i] = inst[3 + i];
			} else if (inst[2] == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId)) {
				for (int i = 0; i < 3; ++i) local_size_id_[i] = inst[3 + i];
			}
			break;
		case spv::Op::OpDecorate: {
			Decorations& d = decorations_[inst[1]];
			switch (static_cast<spv::Decoration>(inst[2])) {
			case spv::Decoration::BuiltIn: d.builtin = static_cast<int32_t>(inst[3]); break;
			case spv::Decoration::ArrayStride: d.array_stride = inst[3]; break;
			case spv::Decoration::DescriptorSet: d.set = inst[3]; break;
			case spv::Decoration::Binding: d.binding = inst[3]; break;
			case spv::Decoration::Block: d.block = true; break;
			case spv::Decoration::BufferBlock: d.buffer_block = true; break;
			case spv::Decoration::Location: d.interface.location = inst[3]; break;
			case spv::Decoration::Component: d.interface.component = inst[3]; break;
			case spv::Decoration::Index: d.interface.index = inst[3]; break;
			case spv::Decoration::Stream: d.interface.stream = inst[3]; break;
			case spv::Decoration::Patch: d.interface.patch = true; break;
			case spv::Decoration::Flat: d.interface.flat = true; break;
			case spv::Decoration::NoPerspective: d.interface.no_perspective = true; break;
			case spv::Decoration::Centroid: d.interface.centroid = true; break;
			case spv::Decoration::Sample: d.interface.sample = true; break;
			case spv::Decoration::PerVertexKHR: d.interface.per_vertex = true; break;
			case spv::Decoration::FPRoundingMode:
				d.round_toward_zero = inst[3] == static_cast<uint32_t>(spv::FPRoundingMode::RTZ);
				break;
			case spv::Decoration::Offset: d.xfb.offset = inst[3]; break;
			case spv::Decoration::XfbBuffer: d.xfb.buffer = static_cast<int32_t>(inst[3]); break;
			case spv::Decoration::XfbStride: d.xfb.stride = inst[3]; break;
			default: break;
			}
			break;
		}
		case spv::Op::OpMemberDecorate: {
			MemberDecorations& d = member_decorations_[{inst[1], inst[2]}];
			switch (static_cast<spv::Decoration>(inst[3])) {
			case spv::Decoration::Offset: d.offset = inst[4]; break;
			case spv::Decoration::MatrixStride: d.matrix_stride = inst[4]; break;
			case spv::Decoration::RowMajor: d.row_major = true; break;
			case spv::Decoration::BuiltIn: d.builtin = static_cast<int32_t>(inst[4]); break;
			case spv::Decoration::Location: d.interface.location = inst[4]; break;
			case spv::Decoration::Component: d.interface.component = inst[4]; break;
			case spv::Decoration::Stream: d.interface.stream = inst[4]; break;
			case spv::Decoration::Patch: d.interface.patch = true; break;
			case spv::Decoration::Flat: d.interface.flat = true; break;
			case spv::Decoration::NoPerspective: d.interface.no_perspective = true; break;
			case spv::Decoration::Centroid: d.interface.centroid = true; break;
			case spv::Decoration::Sample: d.interface.sample = true; break;
			case spv::Decoration::PerVertexKHR: d.interface.per_vertex = true; break;
			case spv::Decoration::XfbBuffer: d.xfb.buffer = static_cast<int32_t>(inst[4]); break;
			case spv::Decoration::XfbStride: d.xfb.stride = inst[4]; break;
			default: break;
			}
			break;
		}
		case spv::Op::OpTypeVoid:
		case spv::Op::OpTypeBool:
		case spv::Op::OpTypeFunction: types_[inst[1]] = {inst.op}; break;
		case spv::Op::OpTypeInt:
			types_[inst[1]] = {inst.op, inst[2]};
			types_[inst[1]].is_signed = inst[3] != 0;
			break;
		case spv::Op::OpTypeFloat: types_[inst[1]] = {inst.op, inst[2]}; break;
		case spv::Op::OpTypeVector:
		case spv::Op::OpTypeMatrix: types_[inst[1]] = {inst.op, 0, inst[2], inst[3]}; break;
		case spv::Op::OpTypeArray: types_[inst[1]] = {inst.op, 0, inst[2], 0}; break;
		case spv::Op::OpTypeRuntimeArray: types_[inst[1]] = {inst.op, 0, inst[2], 0}; break;
		case spv::Op::OpTypeStruct: {
			Type t{inst.op};
			t.members.assign(inst.w + 2, inst.w + inst.n);
			types_[inst[1]] = t;
			break;
		}
		case spv::Op::OpTypePointer: {
			Type t{inst.op, 0, inst[3]};
			t.storage = static_cast<spv::StorageClass>(inst[2]);
			types_[inst[1]] = t;
			break;
		}
		case spv::Op::OpConstant:
		case spv::Op::OpConstantTrue:
		case spv::Op::OpConstantFalse:
		case spv::Op::OpConstantNull:
		case spv::Op::OpConstantComposite:
		case spv::Op::OpUndef:
		case spv::Op::OpSpecConstant:
		case spv::Op::OpSpecConstantTrue:
		case spv::Op::OpSpecConstantFalse:
		case spv::Op::OpSpecConstantComposite:
		case spv::Op::OpSpecConstantOp:
			if (current_function) break;  // OpUndef inside a function: handled with the body
			if (inst.op == spv::Op::OpConstant) inst = RepairFoldedBitcast(inst);
			constants_[inst[2]] = inst;
			result_types_[inst[2]] = inst[1];
			if (inst.op == spv::Op::OpSpecConstantOp) spec_constant_ops_.push_back(inst);
			break;
		case spv::Op::OpVariable:
			if (!current_function) {
				globals_[inst[2]] = inst;
				result_types_[inst[2]] = inst[1];
			}
			break;
		case spv::Op::OpFunction:
			current_function = inst[2];
			function_begin = pos - count;
			break;
		case spv::Op::OpFunctionEnd:
			functions_[current_function] = {function_begin, pos};
			current_function = 0;
			break;
		default: break;
		}
		if (inst.op == spv::Op::OpTypeImage || inst.op == spv::Op::OpTypeSampler ||
		    inst.op == spv::Op::OpTypeSampledImage)
			types_[inst[1]] = {inst.op};
		if (inst.op == spv::Op::OpTypeArray) {
			auto it = constants_.find(inst[3]);
			if (it == constants_.end() || it->second.op != spv::Op::OpConstant) Fail("array length is not a constant");
			types_[inst[1]].count = it->second[3];
		}
	}
}

// SPIRV-Tools 2023 folds an OpBitcast of a vector of 8/16-bit constants to a
// wider scalar into an OpConstant with one literal word per component (fixed
// upstream in KhronosGroup/SPIRV-Tools#6321). Pack the components back into
// the scalar's words, the lowest-numbered component in the lowest bits (the
// rule of OpBitcast between different component counts).
Instruction Translator::RepairFoldedBitcast(const Instruction& constant) {
	auto type = types_.find(constant[1]);
	if (type == types_.end() || (type->second.op != spv::Op::OpTypeInt && type->second.op != spv::Op::OpTypeFloat))
		return constant;
	const uint32_t width = type->second.width, words = constant.n - 3, expected = width == 64 ? 2 : 1;
	if (words <= expected || width % words != 0 || width / words > 16) return constant;
	const uint32_t component = width / words;
	std::vector<uint32_t>& repaired = repaired_constants_.emplace_back(constant.w, constant.w + 3);
	repaired[0] = (3 + expected) << 16 | (constant.w[0] & 0xffffu);
	uint64_t bits = 0;
	for (uint32_t k = 0; k < words; ++k)
		bits |= (constant.w[3 + k] & ((uint64_t{1} << component) - 1)) << (k * component);
	repaired.push_back(static_cast<uint32_t>(bits));
	if (expected == 2) repaired.push_back(static_cast<uint32_t>(bits >> 32));
	return {constant.op, repaired.data(), static_cast<uint32_t>(repaired.size())};
}

// OpSpecConstantOp that spirv-opt could not fold (it folds only some opcodes
// and widths: not shifts of 8/16/64-bit values, FConvert, shuffles with
// undefined components...). The values are frozen by now, so each one is
// the instruction it names applied to constants (SPIR-V 1.6, OpSpecConstantOp): run
// it once at the top of the entry block, in module order (operands first).
void Translator::EmitSpecConstantOps() {
	for (const Instruction& spec : spec_constant_ops_) {
		if (spec.n < 4) Fail("OpSpecConstantOp %u has no opcode", spec.n > 2 ? spec[2] : 0);
		std::vector<uint32_t> words = {(spec.n - 1) << 16 | (spec[3] & 0xffffu), spec[1], spec[2]};
		words.insert(words.end(), spec.w + 4, spec.w + spec.n);
		Instruction inst{static_cast<spv::Op>(spec[3] & 0xffffu), words.data(), static_cast<uint32_t>(words.size())};
		TranslateMemoryOrValue(inst);
		if (!values_.count(spec[2])) Fail("OpSpecConstantOp %s is not supported", inst.OpName());
	}
}

// Words per OpSwitch case literal: 2 for a 64-bit selector.
uint32_t Translator::SwitchLiteralWords(const Instruction& t) {
	auto type = result_types_.find(t[1]);
	if (type == result_types_.end()) {
		auto constant = constants_.find(t[1]);
		if (constant == constants_.end()) Fail("OpSwitch selector %u has no known type", t[1]);
		return ScalarOf(constant->second[1]).width == 64 ? 2 : 1;
	}
	return ScalarOf(type->second).width == 64 ? 2 : 1;
}

void Translator::ParseFunction(uint32_t function_id) {
	auto [begin, end] = functions_.at(function_id);
	SourceBlock* block = nullptr;
	for (size_t pos = begin; pos < end;) {
		uint32_t count = words_[pos] >> 16;
		Instruction inst{static_cast<spv::Op>(words_[pos] & 0xffff), &words_[pos], count};
		pos += count;
		// Types of the function's values are known before translation (a
		// switch's literals are as wide as its selector).
		bool has_result = false, has_type = false;
		spv::HasResultAndType(inst.op, &has_result, &has_type);
		if (has_result && has_type && inst.n > 2) result_types_[inst[2]] = inst[1];
		switch (inst.op) {
		case spv::Op::OpFunction:
		case spv::Op::OpFunctionEnd: break;
		// Debug line information may stand anywhere in a function, between
		// blocks and before the first label too (SPIR-V 1.6 §2.4 "Logical
		// Layout of a Module"); it has no effect on execution.
		case spv::Op::OpLine:
		case spv::Op::OpNoLine: break;
		case spv::Op::OpFunctionParameter: Fail("the entry point has parameters"); break;
		case spv::Op::OpLabel:
			blocks_.push_back({inst[1]});
			block = &blocks_.back();
			break;
		case spv::Op::OpSelectionMerge:
			if (block) block->merge = inst[1];
			break;
		case spv::Op::OpLoopMerge:
			if (block) block->merge = inst[1], block->continue_target = inst[2];
			break;
		case spv::Op::OpBranch:
		case spv::Op::OpBranchConditional:
		case spv::Op::OpSwitch:
		case spv::Op::OpReturn:
		case spv::Op::OpReturnValue:
		case spv::Op::OpKill:
		case spv::Op::OpTerminateInvocation:
		case spv::Op::OpUnreachable:
			if (!block) Fail("instruction outside a block");
			block->terminator = inst;
			block = nullptr;
			break;
		case spv::Op::OpFunctionCall: {
			// The optimizer's WrapOpKill pass turns a kill inside a called
			// function into a call to a function that only kills, so that
			// the function can be inlined into a continue construct; the
			// call to it stays. Such a call ends the invocation where it
			// stands (SPIR-V 1.6 OpKill, OpTerminateInvocation): the block
			// ends there, and what followed becomes a block no edge enters.
			std::optional<Instruction> end = InvocationEndingCallee(inst[3]);
			if (!end) Fail("function calls remain after inlining (recursion is not allowed)");
			if (!block) Fail("instruction outside a block");
			block->terminator = *end;
			if (!next_split_label_) next_split_label_ = words_[3];  // the module's id bound
			blocks_.push_back({next_split_label_++});
			block = &blocks_.back();
			break;
		}
		default:
			if (!block) Fail("instruction outside a block");
			block->body.push_back(inst);
			break;
		}
	}
	for (const SourceBlock& b : blocks_) source_blocks_[b.label] = &b;
}

// A function whose body is one block that only ends the invocation (OpKill
// or OpTerminateInvocation): that terminator; none otherwise.
std::optional<Instruction> Translator::InvocationEndingCallee(uint32_t function_id) {
	auto range = functions_.find(function_id);
	if (range == functions_.end()) return std::nullopt;
	std::vector<Instruction> body;
	for (size_t pos = range->second.first; pos < range->second.second;) {
		uint32_t count = words_[pos] >> 16;
		Instruction inst{static_cast<spv::Op>(words_[pos] & 0xffff), &words_[pos], count};
		pos += count;
		if (inst.op != spv::Op::OpFunction && inst.op != spv::Op::OpFunctionParameter &&
		    inst.op != spv::Op::OpFunctionEnd)
			body.push_back(inst);
	}
	if (body.size() != 2 || body[0].op != spv::Op::OpLabel) return std::nullopt;
	if (body[1].op != spv::Op::OpKill && body[1].op != spv::Op::OpTerminateInvocation) return std::nullopt;
	return body[1];
}

// Which blocks a path of branches from the entry block reaches. A merge
// block or continue target may be reached by none (its construct always ends
// the invocation, as after a call that kills). Such a block never runs, and
// it may read values defined after such a call, which no block defines any
// more: Run emits it empty.
std::vector<uint8_t> Translator::ReachableByEdges() {
	std::unordered_map<uint32_t, uint32_t> index;
	for (uint32_t i = 0; i < blocks_.size(); ++i) index[blocks_[i].label] = i;
	std::vector<uint8_t> reached(blocks_.size(), 0);
	std::vector<uint32_t> stack = {0};
	reached[0] = 1;
	auto visit = [&](uint32_t label) {
		auto it = index.find(label);
		if (it == index.end() || reached[it->second]) return;
		reached[it->second] = 1;
		stack.push_back(it->second);
	};
	while (!stack.empty()) {
		const Instruction& t = blocks_[stack.back()].terminator;
		stack.pop_back();
		switch (t.op) {
		case spv::Op::OpBranch: visit(t[1]); break;
		case spv::Op::OpBranchConditional: visit(t[2]), visit(t[3]); break;
		case spv::Op::OpSwitch: {
			uint32_t stride = SwitchLiteralWords(t) + 1;
			visit(t[2]);
			for (uint32_t i = 3 + stride - 1; i < t.n; i += stride) visit(t[i]);
			break;
		}
		default: break;
		}
	}
	return reached;
}

// Reverse post-order of a depth-first walk that visits a header's merge
// block first and its continue target second: every block comes after the
// blocks that branch to it (back edges aside), and a construct's merge block
// after every block inside the construct. Unreachable blocks are dropped.
std::vector<uint32_t> Translator::StructuredOrder() {
	std::unordered_map<uint32_t, uint32_t> index;
	for (uint32_t i = 0; i < blocks_.size(); ++i) index[blocks_[i].label] = i;
	std::vector<uint8_t> visited(blocks_.size(), 0);
	std::vector<uint32_t> post_order;
	auto successors = [&](const SourceBlock& b) {
		std::vector<uint32_t> s;
		const Instruction& t = b.terminator;
		if (b.merge) s.push_back(b.merge);
		if (b.continue_target) s.push_back(b.continue_target);
		switch (t.op) {
		case spv::Op::OpBranch: s.push_back(t[1]); break;
		case spv::Op::OpBranchConditional: s.push_back(t[3]), s.push_back(t[2]); break;
		case spv::Op::OpSwitch: {
			uint32_t stride = SwitchLiteralWords(t) + 1;
			for (uint32_t i = 3 + stride - 1; i < t.n; i += stride) s.push_back(t[i]);
			std::reverse(s.end() - (t.n - 3) / stride, s.end());
			s.push_back(t[2]);
			break;
		}
		default: break;
		}
		return s;
	};
	// Iterative DFS: (block, successors, next successor).
	struct Frame {
		uint32_t block;
		std::vector<uint32_t> successors;
		size_t next = 0;
	};
	std::vector<Frame> stack;
	visited[0] = 1;
	stack.push_back({0, successors(blocks_[0])});
	while (!stack.empty()) {
		Frame& frame = stack.back();
		if (frame.next < frame.successors.size()) {
			uint32_t label = frame.successors[frame.next++];
			auto it = index.find(label);
			if (it == index.end()) Fail("branch to unknown block %u", label);
			if (!visited[it->second]) {
				visited[it->second] = 1;
				stack.push_back({it->second, successors(blocks_[it->second])});
			}
		} else {
			post_order.push_back(frame.block);
			stack.pop_back();
		}
	}
	std::reverse(post_order.begin(), post_order.end());
	return post_order;
}

void Translator::EmitBlock(const SourceBlock& block, bool entry) {
	shader::Block out;
	out.inst_begin = static_cast<uint32_t>(program_.insts.size());
	value_numbers_.clear();  // a value computed in this block is reused only inside it
	// Phis first: copy the values the incoming edge left in the shadows.
	for (const Instruction& inst : block.body)
		if (inst.op == spv::Op::OpPhi) {
			const std::vector<uint32_t>& regs = values_.at(inst[2]);
			const std::vector<uint32_t>& shadows = phi_shadows_.at(inst[2]);
			for (size_t k = 0; k < regs.size(); ++k) program_.insts.push_back({Op::kCopy, 0, regs[k], shadows[k]});
		}
	if (entry && stage_ == shader::Stage::kTessControl) {
		// The lane's patch record: its patch number in the group (the
		// caller's word) times the record's size.
		uint32_t index = NewReg();
		program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(patch_index_region_), index});
		program_.insts.push_back({Op::kIMul, 0, patch_base_reg_, index, Const(patch_record_bytes_)});
	}
	if (entry) {
		CanonicalNarrowInputs();
		EmitSpecConstantOps();
		// Private (and stage Output) variables with initializers start with their values.
		for (auto& [id, var] : globals_) {
			auto storage = static_cast<spv::StorageClass>(var[3]);
			bool output = storage == spv::StorageClass::Output && stage_ != shader::Stage::kCompute;
			if ((storage == spv::StorageClass::Private || output) && var.n > 4) Store(PointerOf(id), Regs(var[4]));
		}
	}
	for (const Instruction& inst : block.body) {
		if (inst.op == spv::Op::OpPhi) continue;
		if (inst.op == spv::Op::OpControlBarrier) {
			program_.uses_barriers = true;
			out.has_barrier = true;
			// Lanes of the group run each instruction together: they all reach
			// the barrier in the same step, so nothing is left to do but note
			// where it was (for the compiled tier).
			program_.barriers.push_back(
			    {static_cast<uint32_t>(program_.blocks.size()), static_cast<uint32_t>(program_.insts.size())});
			continue;
		}
		TranslateMemoryOrValue(inst);
		if (!pointer_phi_operands_.empty() && inst.n > 2) DefinePointerValue(inst[2]);
	}
	if (block.terminator.op == spv::Op::OpReturn || block.terminator.op == spv::Op::OpReturnValue)
		SignExtendNarrowOutputs();
	// Fragment: OpKill and OpTerminateInvocation mark the lane discarded, then end it.
	if (block.terminator.op == spv::Op::OpKill || block.terminator.op == spv::Op::OpTerminateInvocation) EmitDiscard();
	EmitTerminator(block, out);
	out.inst_count = static_cast<uint32_t>(program_.insts.size()) - out.inst_begin;
	program_.blocks.push_back(out);
}

void Translator::EmitTerminator(const SourceBlock& block, shader::Block& out) {
	const Instruction& t = block.terminator;
	shader::Terminator& term = out.terminator;
	term.edge_begin = static_cast<uint32_t>(program_.edges.size());
	auto add_edge = [&](uint32_t label) {
		pending_edges_.push_back({static_cast<uint32_t>(program_.edges.size()), block.label, label});
		auto it = block_index_.find(label);
		if (it == block_index_.end()) Fail("branch to unknown block %u", label);
		program_.edges.push_back({it->second});
		term.edge_count++;
	};
	switch (t.op) {
	case spv::Op::OpBranch:
		term.kind = shader::TerminatorKind::kBranch;
		add_edge(t[1]);
		break;
	case spv::Op::OpBranchConditional:
		if (t[2] == t[3]) {
			term.kind = shader::TerminatorKind::kBranch;
			add_edge(t[2]);
			break;
		}
		term.kind = shader::TerminatorKind::kConditional;
		term.selector = Scalar(t[1]);
		add_edge(t[2]);
		add_edge(t[3]);
		break;
	case spv::Op::OpSwitch: {
		ScalarInfo selector_type = ScalarOf(result_types_.at(t[1]));
		term.kind = shader::TerminatorKind::kSwitch;
		term.case_begin = static_cast<uint32_t>(program_.case_values.size());
		add_edge(t[2]);
		if (selector_type.width == 64) {
			// Case literals take two words. The selector becomes the number of
			// the matching case (1, 2, ...; 0 for the default).
			const std::vector<uint32_t>& selector = Regs(t[1]);
			uint32_t index = 0;
			for (uint32_t i = 3, k = 1; i + 2 < t.n; i += 3, ++k) {
				uint32_t match = Emit(Op::kIEqual64, selector[0], selector[1], Const(t[i]), Const(t[i + 1]));
				index = Emit(Op::kSelect, match, Const(k), index);
				program_.case_values.push_back(k);
				add_edge(t[i + 2]);
			}
			term.selector = index;
			break;
		}
		term.selector = Scalar(t[1]);
		for (uint32_t i = 3; i + 1 < t.n; i += 2) {
			program_.case_values.push_back(ConstantBits(t[i], selector_type));
			add_edge(t[i + 1]);
		}
		break;
	}
	case spv::Op::OpReturn:
	case spv::Op::OpReturnValue:
	case spv::Op::OpKill:
	case spv::Op::OpTerminateInvocation:
	case spv::Op::OpUnreachable: term.kind = shader::TerminatorKind::kExit; break;
	default: Fail("block %u has no terminator", block.label);
	}
}

void Translator::ResolveEdges() {
	for (const PendingEdge& pending : pending_edges_) {
		shader::Edge& edge = program_.edges[pending.edge];
		edge.copy_begin = static_cast<uint32_t>(program_.copies.size());
		const SourceBlock* target = source_blocks_.at(pending.to_label);
		for (const Instruction& phi : target->body) {
			if (phi.op != spv::Op::OpPhi) continue;
			uint32_t value = 0;
			for (uint32_t i = 3; i + 1 < phi.n; i += 2)
				if (phi[i + 1] == pending.from_label) value = phi[i];
			if (!value) Fail("OpPhi %u has no operand for block %u", phi[2], pending.from_label);
			if (!values_.count(value) && VariablePointerClass(phi[1]) >= 0) {
				// A variable itself (its value is constants): nothing to emit here, past every block.
				size_t before = program_.insts.size();
				Define(value, PointerValue(PointerOf(value), VariablePointerClass(phi[1])));
				if (program_.insts.size() != before)
					Fail("pointer %u has no value where OpPhi %u needs it", value, phi[2]);
			}
			const std::vector<uint32_t>& src = Regs(value);
			const std::vector<uint32_t>& shadows = phi_shadows_.at(phi[2]);
			for (size_t k = 0; k < shadows.size(); ++k) program_.copies.push_back({shadows[k], src[k]});
		}
		edge.copy_count = static_cast<uint32_t>(program_.copies.size()) - edge.copy_begin;
	}
}

// --- Types and layouts ---

const Type& Translator::TypeOf(uint32_t type_id) {
	auto it = types_.find(type_id);
	if (it == types_.end()) Fail("unknown type %u", type_id);
	return it->second;
}

void Translator::CheckScalar(const Type& type) {
	bool supported = type.op == spv::Op::OpTypeInt
	                     ? (type.width == 8 || type.width == 16 || type.width == 32 || type.width == 64)
	                 : type.op == spv::Op::OpTypeFloat ? (type.width == 16 || type.width == 32 || type.width == 64)
	                                                   : true;
	if (!supported)
		Fail("%u-bit %s values are not supported yet", type.width, type.op == spv::Op::OpTypeInt ? "integer" : "float");
}

// 8/16-bit integers live zero-extended in 32-bit registers; 16-bit floats as
// the 32-bit float of the same value (see README.md).
ScalarInfo Translator::ScalarOf(uint32_t type_id) {
	const Type* t = &TypeOf(type_id);
	while (t->op == spv::Op::OpTypeVector || t->op == spv::Op::OpTypeMatrix || t->op == spv::Op::OpTypeArray)
		t = &TypeOf(t->element);
	ScalarInfo info;
	info.is_float = t->op == spv::Op::OpTypeFloat;
	info.is_bool = t->op == spv::Op::OpTypeBool;
	info.width = (t->op == spv::Op::OpTypeInt || t->op == spv::Op::OpTypeFloat) ? t->width
	             : t->op == spv::Op::OpTypePointer                              ? 64  // device addresses
	                                                                            : 32;
	return info;
}

uint32_t Translator::LeafCount(uint32_t type_id) {
	const Type& t = TypeOf(type_id);
	switch (t.op) {
	case spv::Op::OpTypeBool:
	case spv::Op::OpTypeInt:
	case spv::Op::OpTypeFloat: CheckScalar(t); return t.width == 64 ? 2 : 1;  // 64-bit: low and high word
	case spv::Op::OpTypePointer:
		if (t.storage == spv::StorageClass::PhysicalStorageBuffer) return 2;  // a device address
		if (VariablePointerClass(type_id) >= 0) return 3;  // a variable pointer (translate_pointers.cpp)
		Fail("pointers into %s as values are not supported", StorageClassName(static_cast<uint32_t>(t.storage)));
	case spv::Op::OpTypeVector:
	case spv::Op::OpTypeMatrix:
	case spv::Op::OpTypeArray: {
		uint64_t n = uint64_t{t.count} * LeafCount(t.element);
		if (n > kMaxLeaves) Fail("a value of %llu scalars is too large", static_cast<unsigned long long>(n));
		return static_cast<uint32_t>(n);
	}
	case spv::Op::OpTypeStruct: {
		uint64_t n = 0;
		for (uint32_t m : t.members) n += LeafCount(m);
		if (n > kMaxLeaves) Fail("a value of %llu scalars is too large", static_cast<unsigned long long>(n));
		return static_cast<uint32_t>(n);
	}
	case spv::Op::OpTypeImage:
	case spv::Op::OpTypeSampler:
	case spv::Op::OpTypeSampledImage: Fail("images and samplers are not supported yet");
	default: Fail("values of type %s are not supported", OpcodeName(static_cast<uint32_t>(t.op)));
	}
}

// Explicit layouts (buffers, push constants) follow the decorations and the
// scalars' own sizes; the others (Function, Private, Workgroup) are packed
// with every scalar in a 4-byte slot, whatever the decorations say.
uint32_t Translator::ArrayStride(uint32_t array_type, bool explicit_layout) {
	auto it = decorations_.find(array_type);
	if (explicit_layout && it != decorations_.end() && it->second.array_stride) return it->second.array_stride;
	return Size(TypeOf(array_type).element);
}

uint32_t Translator::MemberOffset(uint32_t struct_type, uint32_t member, bool explicit_layout) {
	auto it = member_decorations_.find({struct_type, member});
	if (explicit_layout && it != member_decorations_.end() && it->second.offset >= 0)
		return static_cast<uint32_t>(it->second.offset);
	const Type& t = TypeOf(struct_type);
	uint32_t offset = 0;
	for (uint32_t m = 0; m < member; ++m) offset += Size(t.members[m]);
	return offset;
}

uint32_t Translator::SlotSize(uint32_t scalar_type, bool explicit_layout) {
	ScalarInfo scalar = ScalarOf(scalar_type);
	if (scalar.width == 64) return 8;
	return explicit_layout && !scalar.is_bool ? scalar.width / 8 : 4;
}

// Bytes of a value in the packed (non-explicit) layout.
uint32_t Translator::Size(uint32_t type_id) {
	const Type& t = TypeOf(type_id);
	switch (t.op) {
	case spv::Op::OpTypeStruct: {
		uint64_t size = 0;
		for (uint32_t m : t.members) size += Size(m);
		if (size > kMaxTypeSize) Fail("type %u is too large", type_id);
		return static_cast<uint32_t>(size);
	}
	case spv::Op::OpTypeArray: {
		uint64_t size = uint64_t{t.count} * Size(t.element);
		if (size > kMaxTypeSize) Fail("type %u is too large", type_id);
		return static_cast<uint32_t>(size);
	}
	case spv::Op::OpTypeRuntimeArray: return 0;
	default: return 4 * LeafCount(type_id);
	}
}

// Bytes a value spans in an explicit layout (how much push constant data it reads).
uint32_t Translator::ExplicitSize(uint32_t type_id, const MemoryLayout& layout) {
	std::vector<Leaf> leaves;
	MemoryLeaves(type_id, 0, layout, leaves);
	uint32_t end = 0;
	for (const Leaf& leaf : leaves)
		end = std::max(end, leaf.offset + (leaf.scalar.is_bool ? 4 : leaf.scalar.width / 8));
	return end;
}

void Translator::MemoryLeaves(uint32_t type_id, uint32_t offset, const MemoryLayout& layout, std::vector<Leaf>& out) {
	if (out.size() > kMaxLeaves)
		Fail("a value of more than %llu scalars is too large", static_cast<unsigned long long>(kMaxLeaves));
	const Type& t = TypeOf(type_id);
	const bool explicit_layout = layout.explicit_layout;
	switch (t.op) {
	case spv::Op::OpTypeBool:
	case spv::Op::OpTypeInt:
	case spv::Op::OpTypeFloat:
	case spv::Op::OpTypePointer:
		if (t.op == spv::Op::OpTypePointer && LeafCount(type_id) == 3) {  // a variable pointer's three words
			for (uint32_t k = 0; k < 3; ++k) out.push_back({offset + 4 * k, ScalarInfo{}});
			break;
		}
		if (t.op != spv::Op::OpTypePointer) CheckScalar(t);
		if (t.width == 64 || t.op == spv::Op::OpTypePointer) {  // two words, low first (little-endian)
			out.push_back({offset, ScalarInfo{}});
			out.push_back({offset + 4, ScalarInfo{}});
			break;
		}
		out.push_back({offset, ScalarOf(type_id)});
		break;
	case spv::Op::OpTypeVector: {
		uint32_t stride = layout.component_stride ? layout.component_stride : SlotSize(t.element, explicit_layout);
		for (uint32_t k = 0; k < t.count; ++k) MemoryLeaves(t.element, offset + k * stride, layout, out);
		break;
	}
	case spv::Op::OpTypeMatrix: {
		const Type& column = TypeOf(t.element);
		uint32_t rows = column.count;
		uint32_t element = SlotSize(column.element, explicit_layout);
		uint32_t stride = layout.matrix_stride && explicit_layout ? layout.matrix_stride : rows * element;
		for (uint32_t c = 0; c < t.count; ++c)
			for (uint32_t r = 0; r < rows; ++r) {
				uint32_t at = layout.row_major && explicit_layout ? offset + r * stride + c * element
				                                                  : offset + c * stride + r * element;
				if (element == 8) {  // doubles: two words, low first
					out.push_back({at, ScalarInfo{}});
					out.push_back({at + 4, ScalarInfo{}});
				} else {
					out.push_back({at, ScalarOf(column.element)});
				}
			}
		break;
	}
	case spv::Op::OpTypeArray: {
		uint32_t stride = ArrayStride(type_id, explicit_layout);
		MemoryLayout element_layout = layout;
		element_layout.component_stride = 0;
		for (uint32_t k = 0; k < t.count; ++k) MemoryLeaves(t.element, offset + k * stride, element_layout, out);
		break;
	}
	case spv::Op::OpTypeStruct:
		for (uint32_t m = 0; m < t.members.size(); ++m) {
			MemoryLayout member_layout;
			member_layout.explicit_layout = explicit_layout;
			auto it = member_decorations_.find({type_id, m});
			if (it != member_decorations_.end())
				member_layout.matrix_stride = it->second.matrix_stride, member_layout.row_major = it->second.row_major;
			MemoryLeaves(t.members[m], offset + MemberOffset(type_id, m, explicit_layout), member_layout, out);
		}
		break;
	default: Fail("cannot load or store a value of type %s", OpcodeName(static_cast<uint32_t>(t.op)));
	}
}

}  // namespace tessera::spirv
