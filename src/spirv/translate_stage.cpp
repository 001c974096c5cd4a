// SPIR-V to IR: vertex and fragment stages. Input and Output variables are
// private regions whose words the caller fills and reads (ir.h,
// InterfaceWord); OpKill and demotion write Program::discard_word;
// derivatives are quad ops.
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <functional>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::InterfaceBuiltin;
using shader::Op;

namespace {

void ApplyInterpolation(shader::InterfaceWord& word, const InterfaceDecorations& d) {
	if (d.per_vertex) word.interpolation = shader::InterfaceInterpolation::kPerVertex;
	// (A per-vertex value is never interpolated, whatever else is said.)
	const bool per_vertex = word.interpolation == shader::InterfaceInterpolation::kPerVertex;
	if (d.flat && !per_vertex) word.interpolation = shader::InterfaceInterpolation::kFlat;
	if (d.no_perspective && !per_vertex) word.interpolation = shader::InterfaceInterpolation::kNoPerspective;
	word.centroid |= d.centroid;
	word.per_sample |= d.sample;
	if (d.stream) word.stream = static_cast<uint8_t>(d.stream);
}

// SPIR-V built-ins that are vertex or fragment interface words.
InterfaceBuiltin InterfaceBuiltinOf(uint32_t builtin) {
	switch (static_cast<spv::BuiltIn>(builtin)) {
	case spv::BuiltIn::VertexIndex: return InterfaceBuiltin::kVertexIndex;
	case spv::BuiltIn::InstanceIndex: return InterfaceBuiltin::kInstanceIndex;
	case spv::BuiltIn::BaseVertex: return InterfaceBuiltin::kBaseVertex;
	case spv::BuiltIn::BaseInstance: return InterfaceBuiltin::kBaseInstance;
	case spv::BuiltIn::DrawIndex: return InterfaceBuiltin::kDrawIndex;
	case spv::BuiltIn::Position: return InterfaceBuiltin::kPosition;
	case spv::BuiltIn::PointSize: return InterfaceBuiltin::kPointSize;
	case spv::BuiltIn::ClipDistance: return InterfaceBuiltin::kClipDistance;
	case spv::BuiltIn::CullDistance: return InterfaceBuiltin::kCullDistance;
	case spv::BuiltIn::FragCoord: return InterfaceBuiltin::kFragCoord;
	case spv::BuiltIn::FrontFacing: return InterfaceBuiltin::kFrontFacing;
	case spv::BuiltIn::PointCoord: return InterfaceBuiltin::kPointCoord;
	case spv::BuiltIn::SampleId: return InterfaceBuiltin::kSampleId;
	case spv::BuiltIn::SamplePosition: return InterfaceBuiltin::kSamplePosition;
	case spv::BuiltIn::HelperInvocation: return InterfaceBuiltin::kHelperInvocation;
	case spv::BuiltIn::PrimitiveId: return InterfaceBuiltin::kPrimitiveId;
	case spv::BuiltIn::Layer: return InterfaceBuiltin::kLayer;
	case spv::BuiltIn::ViewIndex: return InterfaceBuiltin::kViewIndex;
	case spv::BuiltIn::ViewportIndex: return InterfaceBuiltin::kViewportIndex;
	case spv::BuiltIn::FragDepth: return InterfaceBuiltin::kFragDepth;
	case spv::BuiltIn::SampleMask: return InterfaceBuiltin::kSampleMask;  // kSampleMaskIn for inputs
	case spv::BuiltIn::FragStencilRefEXT: return InterfaceBuiltin::kFragStencilRef;
	case spv::BuiltIn::InvocationId: return InterfaceBuiltin::kInvocationId;
	case spv::BuiltIn::TessLevelOuter: return InterfaceBuiltin::kTessLevelOuter;
	case spv::BuiltIn::TessLevelInner: return InterfaceBuiltin::kTessLevelInner;
	case spv::BuiltIn::TessCoord: return InterfaceBuiltin::kTessCoord;
	case spv::BuiltIn::PatchVertices: return InterfaceBuiltin::kPatchVertices;
	case spv::BuiltIn::BaryCoordKHR: return InterfaceBuiltin::kBaryCoord;
	case spv::BuiltIn::BaryCoordNoPerspKHR: return InterfaceBuiltin::kBaryCoordNoPersp;
	default: return InterfaceBuiltin::kNone;
	}
}

}  // namespace

bool Translator::IsInterfaceBuiltin(uint32_t builtin) const {
	return InterfaceBuiltinOf(builtin) != InterfaceBuiltin::kNone;
}

// Execution modes of entry points but a compute shader's size; false for the others.
bool Translator::ParseExecutionMode(const Instruction& inst) {
	const bool tessellation = stage_ == shader::Stage::kTessControl || stage_ == shader::Stage::kTessEval;
	shader::TessellationInfo& t = program_.tessellation;
	if (tessellation) {
		// Vulkan "Tessellation": either stage may declare these.
		switch (static_cast<spv::ExecutionMode>(inst[2])) {
		case spv::ExecutionMode::Triangles: t.domain = 1; return true;
		case spv::ExecutionMode::Quads: t.domain = 2; return true;
		case spv::ExecutionMode::Isolines: t.domain = 3; return true;
		case spv::ExecutionMode::SpacingEqual: t.spacing = 1; return true;
		case spv::ExecutionMode::SpacingFractionalEven: t.spacing = 2; return true;
		case spv::ExecutionMode::SpacingFractionalOdd: t.spacing = 3; return true;
		case spv::ExecutionMode::VertexOrderCw: t.order = 1; return true;
		case spv::ExecutionMode::VertexOrderCcw: t.order = 2; return true;
		case spv::ExecutionMode::PointMode: t.point_mode = true; return true;
		case spv::ExecutionMode::OutputVertices:
			if (inst[3] == 0 || inst[3] > 32)
				Fail("OutputVertices %u is outside 1..32 (maxTessellationPatchSize)", inst[3]);
			t.output_vertices = inst[3];
			return true;
		default: break;
		}
	}
	switch (static_cast<spv::ExecutionMode>(inst[2])) {
	case spv::ExecutionMode::OriginUpperLeft: program_.origin_upper_left = true; return true;
	// Vulkan 1.3 appendix "Validation Rules within a Module": OriginLowerLeft and
	// PixelCenterInteger must not be used (VUID-StandaloneSpirv-OriginLowerLeft-04653).
	case spv::ExecutionMode::OriginLowerLeft: Fail("execution mode OriginLowerLeft is not allowed by Vulkan");
	case spv::ExecutionMode::PixelCenterInteger: Fail("execution mode PixelCenterInteger is not allowed by Vulkan");
	case spv::ExecutionMode::EarlyFragmentTests: program_.early_fragment_tests = true; return true;
	case spv::ExecutionMode::PostDepthCoverage: program_.post_depth_coverage = true; return true;
	// VK_EXT_fragment_shader_interlock: the rasterizer keeps invocations
	// of one pixel (sample) out of each other's way (raster::FragmentShader
	// ::interlock), so the critical section's bounds need no code.
	case spv::ExecutionMode::PixelInterlockOrderedEXT:
	case spv::ExecutionMode::PixelInterlockUnorderedEXT: program_.interlock = shader::Interlock::kPixel; return true;
	case spv::ExecutionMode::SampleInterlockOrderedEXT:
	case spv::ExecutionMode::SampleInterlockUnorderedEXT: program_.interlock = shader::Interlock::kSample; return true;
	case spv::ExecutionMode::DepthReplacing: program_.depth_replacing = true; return true;
	case spv::ExecutionMode::DepthGreater:
	case spv::ExecutionMode::DepthLess:
	case spv::ExecutionMode::DepthUnchanged:
	case spv::ExecutionMode::StencilRefReplacingEXT: return true;  // hints; the written values say it all
	case spv::ExecutionMode::Xfb: program_.xfb_mode = true; return true;
	// Compute derivative groups (SPV_KHR_compute_shader_derivatives; the
	// NV modes have the same values): how the workgroup's lanes form quads.
	case spv::ExecutionMode::DerivativeGroupQuadsNV:
		program_.derivative_group = shader::DerivativeGroup::kQuads;
		return true;
	case spv::ExecutionMode::DerivativeGroupLinearNV:
		program_.derivative_group = shader::DerivativeGroup::kLinear;
		return true;
	// What every program gets (see kSupportedCapabilities).
	case spv::ExecutionMode::SignedZeroInfNanPreserve:
	case spv::ExecutionMode::RoundingModeRTE:
	// Lanes always reconverge at merge blocks (StructuredOrder), which
	// subgroup uniform control flow asks for.
	case spv::ExecutionMode::SubgroupUniformControlFlowKHR: return true;
	// Geometry (Vulkan "Geometry Shading").
	case spv::ExecutionMode::Invocations:
		if (inst[3] == 0 || inst[3] > shader::kMaxGeometryInvocations)
			Fail("Invocations %u is outside 1..%u (maxGeometryShaderInvocations)", inst[3],
			     shader::kMaxGeometryInvocations);
		program_.geometry.invocations = inst[3];
		return true;
	case spv::ExecutionMode::InputPoints: program_.geometry.input_vertices = 1; return true;
	case spv::ExecutionMode::InputLines: program_.geometry.input_vertices = 2; return true;
	case spv::ExecutionMode::InputLinesAdjacency: program_.geometry.input_vertices = 4; return true;
	case spv::ExecutionMode::Triangles: program_.geometry.input_vertices = 3; return true;
	case spv::ExecutionMode::InputTrianglesAdjacency: program_.geometry.input_vertices = 6; return true;
	case spv::ExecutionMode::OutputPoints: program_.geometry.output = shader::GeometryOutput::kPoints; return true;
	case spv::ExecutionMode::OutputLineStrip:
		program_.geometry.output = shader::GeometryOutput::kLineStrip;
		return true;
	case spv::ExecutionMode::OutputTriangleStrip:
		program_.geometry.output = shader::GeometryOutput::kTriangleStrip;
		return true;
	case spv::ExecutionMode::OutputVertices:
		if (inst[3] == 0 || inst[3] > 256)
			Fail("OutputVertices %u is outside 1..256 (maxGeometryOutputVertices)", inst[3]);
		program_.geometry.max_vertices = inst[3];
		return true;
	default: return false;
	}
}

// Before the blocks are emitted: the fragment stage's helper and discard
// words, and every output variable (a vertex output the program never
// writes is still an interface word the next stage may read).
void Translator::SetUpStage() {
	if (stage_ == shader::Stage::kFragment) {
		// Always present: the caller marks helper lanes here, and the
		// interpreter drops their buffer writes (a bool, 0 or 1).
		helper_region_ = StageWord(InterfaceBuiltin::kHelperInvocation, &program_.inputs);
		bool discards = false;
		for (const SourceBlock& block : blocks_) {
			discards |= block.terminator.op == spv::Op::OpKill || block.terminator.op == spv::Op::OpTerminateInvocation;
			for (const Instruction& inst : block.body) discards |= inst.op == spv::Op::OpDemoteToHelperInvocation;
		}
		if (discards) {
			discard_region_ = StageWord(InterfaceBuiltin::kNone, nullptr);
			program_.discard_word = program_.regions[discard_region_].base;
		}
	}
	if (stage_ == shader::Stage::kTessControl) {
		if (program_.tessellation.output_vertices == 0) Fail("a tessellation control shader without OutputVertices");
		patch_base_reg_ = NewReg();
		patch_index_region_ = StageWord(InterfaceBuiltin::kNone, nullptr);
		program_.tessellation.patch_index_word = program_.regions[patch_index_region_].base;
	}
	// Whether the stage runs per sample is decided from the module before
	// optimization (InterfaceRequestsSampleShading).
	// Outputs get their words now; inputs when first used, except 16-bit
	// ones, which the program's start makes exact (CanonicalNarrowInputs).
	std::function<bool(uint32_t)> narrow = [&](uint32_t type) {
		const Type& t = TypeOf(type);
		switch (t.op) {
		case spv::Op::OpTypeInt:
		case spv::Op::OpTypeFloat: return t.width == 16;
		case spv::Op::OpTypeVector:
		case spv::Op::OpTypeMatrix:
		case spv::Op::OpTypeArray: return narrow(t.element);
		case spv::Op::OpTypeStruct: return std::any_of(t.members.begin(), t.members.end(), narrow);
		default: return false;
		}
	};
	for (uint32_t id : entry_interface_) {
		auto var = globals_.find(id);
		if (var == globals_.end()) continue;
		const auto storage = static_cast<spv::StorageClass>(var->second[3]);
		if (storage == spv::StorageClass::Output ||
		    (storage == spv::StorageClass::Input && narrow(TypeOf(var->second[1]).element)))
			PointerOf(id);
	}
	if (stage_ == shader::Stage::kGeometry) SetUpGeometry();
	if (stage_ == shader::Stage::kTessControl) SetUpTessControl();
}

// Once every output has its place in the patch record: how many patches a
// lane group holds, and each output region sized to reach the last one.
void Translator::SetUpTessControl() {
	shader::TessellationInfo& t = program_.tessellation;
	const uint32_t bytes = std::max(4u, (patch_record_bytes_ + 3) / 4 * 4);
	if (uint64_t{bytes} > kMaxWorkgroupMemory) Fail("a tessellation control patch of %u bytes is too large", bytes);
	t.patch_bytes = bytes;
	t.patches_per_group =
	    std::max(1u, std::min<uint32_t>(128 / t.output_vertices, uint32_t(kMaxWorkgroupMemory / bytes)));
	for (const auto& [region, size] : patch_output_regions_)
		program_.regions[region].size = (t.patches_per_group - 1) * bytes + size;
	program_.workgroup_memory_size = t.patches_per_group * bytes;
	// The constant patch_record_bytes_ was fixed before the outputs were
	// known: it is the record size only when they are all registered here.
	patch_record_bytes_ = bytes;
}

// The geometry stage's emit region (ir.h, GeometryInfo), once every output
// word is known.
void Translator::SetUpGeometry() {
	shader::GeometryInfo& g = program_.geometry;
	if (g.input_vertices == 0) Fail("a geometry shader without an input primitive execution mode");
	if (g.max_vertices == 0) Fail("a geometry shader without OutputVertices");
	for (const shader::InterfaceWord& w : program_.outputs) emit_sources_.push_back(InterfaceWordPlace(w.word));
	for (const shader::InterfaceWord& w : program_.outputs)
		if (w.stream >= shader::kMaxVertexStreams) Fail("vertex stream %u is not below 4", unsigned(w.stream));
	g.record_words = static_cast<uint32_t>(program_.outputs.size()) + 2;
	// The records plus a spare one for vertices past OutputVertices.
	const uint64_t words = uint64_t(g.max_vertices + 1) * g.record_words;
	if ((uint64_t{program_.private_words} + words + 1 + shader::kMaxVertexStreams) * 4 > kMaxPrivateBytes)
		Fail("a geometry shader emitting %u vertices of %u words needs more than %llu bytes per invocation",
		     g.max_vertices, g.record_words - 1, static_cast<unsigned long long>(kMaxPrivateBytes));
	emitted_region_ = StageWord(InterfaceBuiltin::kNone, nullptr);
	for (uint32_t& cut : cut_regions_) cut = StageWord(InterfaceBuiltin::kNone, nullptr);
	g.emitted_word = program_.regions[emitted_region_].base;
	program_.regions.push_back({shader::RegionKind::kPrivate, 0, program_.private_words, uint32_t(words * 4)});
	emit_region_ = static_cast<uint32_t>(program_.regions.size() - 1);
	g.emit_word = program_.private_words;
	program_.private_words += uint32_t(words);
}

// OpEmitVertex (stream 0) and OpEmitStreamVertex: the outputs' current
// values into the next record.
void Translator::EmitGeometryVertex(uint32_t stream) {
	const shader::GeometryInfo& g = program_.geometry;
	auto load = [&](uint32_t region, uint32_t a, uint32_t offset) {
		uint32_t dst = NewReg();
		shader::Inst inst{Op::kLoad, static_cast<uint16_t>(region), dst, a};
		inst.imm = offset;
		program_.insts.push_back(inst);
		return dst;
	};
	auto store = [&](uint32_t region, uint32_t a, uint32_t offset, uint32_t value) {
		shader::Inst inst{Op::kStore, static_cast<uint16_t>(region), 0, a, value};
		inst.imm = offset;
		program_.insts.push_back(inst);
	};
	const uint32_t count = load(emitted_region_, 0, 0);
	const uint32_t slot = Emit(Op::kUMin, count, Const(g.max_vertices));
	const uint32_t address = Emit(Op::kIMul, slot, Const(g.record_words * 4));
	for (uint32_t j = 0; j < emit_sources_.size(); ++j)
		store(emit_region_, address, j * 4, load(emit_sources_[j].first, 0, emit_sources_[j].second));
	store(emit_region_, address, (g.record_words - 2) * 4, load(cut_regions_[stream], 0, 0));
	store(emit_region_, address, (g.record_words - 1) * 4, Const(stream));
	store(cut_regions_[stream], 0, 0, Const(0));
	store(emitted_region_, 0, 0, Emit(Op::kUMin, Emit(Op::kIAdd, count, Const(1)), Const(g.max_vertices)));
}

// The region of an interface variable that holds `word`, and the word's
// byte offset in it.
std::pair<uint32_t, uint32_t> Translator::InterfaceWordPlace(uint32_t word) {
	for (const auto& [variable, r] : stage_regions_) {
		const shader::Region& region = program_.regions[r];
		if (word >= region.base && word < region.base + region.size / 4) return {r, (word - region.base) * 4};
	}
	Fail("interface word %u has no region", word);
}

// Replaces interface word `word` by rewrite(its value).
void Translator::RewriteInterfaceWord(uint32_t word, const std::function<uint32_t(uint32_t)>& rewrite) {
	auto [region, offset] = InterfaceWordPlace(word);
	uint32_t value = NewReg();
	shader::Inst load{Op::kLoad, static_cast<uint16_t>(region), value};
	load.imm = offset;
	program_.insts.push_back(load);
	shader::Inst store{Op::kStore, static_cast<uint16_t>(region), 0, 0, rewrite(value)};
	store.imm = offset;
	program_.insts.push_back(store);
}

// Vulkan "16-bit storage" (StorageInputOutput16): a 16-bit input reads the
// value the previous stage wrote, or the attribute, as its own type. The
// words hold it widened but possibly inexact (an interpolated float, a
// sign-extended attribute), so the program starts by making it what a
// register of the type holds.
void Translator::CanonicalNarrowInputs() {
	for (const shader::InterfaceWord& w : program_.inputs) {
		if (w.width != 16) continue;
		ScalarInfo scalar;
		scalar.width = 16;
		scalar.is_float = w.kind == shader::ScalarKind::kFloat;
		RewriteInterfaceWord(w.word, [&](uint32_t value) { return Canonical(value, scalar); });
	}
}

void Translator::SignExtendNarrowOutputs() {
	if (stage_ != shader::Stage::kFragment) return;  // the next stage reads 16 bits
	for (const shader::InterfaceWord& w : program_.outputs)
		if (w.width == 16 && w.kind == shader::ScalarKind::kSint)
			RewriteInterfaceWord(w.word,
			                     [&](uint32_t value) { return Emit(Op::kBitFieldSExtract, value, 0, Const(16)); });
}

// A one-word private region that no variable declares (an interface word
// when list is given).
uint32_t Translator::StageWord(InterfaceBuiltin builtin, std::vector<shader::InterfaceWord>* list) {
	if (uint64_t{program_.private_words} * 4 + 4 > kMaxPrivateBytes)
		Fail("more than %llu bytes of private memory per invocation",
		     static_cast<unsigned long long>(kMaxPrivateBytes));
	program_.regions.push_back({shader::RegionKind::kPrivate, 0, program_.private_words, 4});
	program_.private_words += 1;
	auto region = static_cast<uint32_t>(program_.regions.size() - 1);
	if (list) {
		shader::InterfaceWord word;
		word.word = program_.regions[region].base;
		word.builtin = builtin;
		word.kind =
		    builtin == InterfaceBuiltin::kHelperInvocation ? shader::ScalarKind::kBool : shader::ScalarKind::kUint;
		word.interpolation = shader::InterfaceInterpolation::kFlat;
		list->push_back(word);
	}
	return region;
}

namespace {
shader::ScalarKind KindOf(const Type& scalar) {
	if (scalar.op == spv::Op::OpTypeBool) return shader::ScalarKind::kBool;
	if (scalar.op == spv::Op::OpTypeFloat) return shader::ScalarKind::kFloat;
	return scalar.is_signed ? shader::ScalarKind::kSint : shader::ScalarKind::kUint;
}
}  // namespace

// The private region of an Input or Output variable of a vertex or fragment
// stage, with its interface words appended to Program::inputs / outputs.
uint32_t Translator::InterfaceRegion(uint32_t variable) {
	auto cached = stage_regions_.find(variable);
	if (cached != stage_regions_.end()) return cached->second;
	const Instruction& var = globals_.at(variable);
	bool output = static_cast<spv::StorageClass>(var[3]) == spv::StorageClass::Output;
	uint32_t type = TypeOf(var[1]).element;
	const Decorations& d = decorations_[variable];
	if (d.builtin == static_cast<int32_t>(spv::BuiltIn::HelperInvocation) && helper_region_ != kNoRegion)
		return stage_regions_[variable] = helper_region_;
	// Tessellation control outputs: the patch's invocations share them, in a
	// record of workgroup memory (TessellationInfo); the region's size is
	// set once every output is known (SetUpTessControl).
	const bool patch_record = output && stage_ == shader::Stage::kTessControl;
	uint32_t region;
	if (patch_record) {
		const uint32_t size = Size(type);
		if (uint64_t{patch_record_bytes_} + size > kMaxWorkgroupMemory)
			Fail("tessellation control outputs of more than %llu bytes",
			     static_cast<unsigned long long>(kMaxWorkgroupMemory));
		program_.regions.push_back({shader::RegionKind::kWorkgroup, 0, patch_record_bytes_, size});
		region = static_cast<uint32_t>(program_.regions.size() - 1);
		patch_output_regions_.push_back({region, size});
		patch_record_bytes_ += (size + 3) / 4 * 4;
	} else {
		region = NewPrivateRegion(type);
	}
	uint32_t word = patch_record ? program_.regions[region].base / 4 : program_.regions[region].base;
	std::vector<shader::InterfaceWord>& out = output ? program_.outputs : program_.inputs;
	shader::InterfaceWord proto;
	ApplyInterpolation(proto, d.interface);
	// The words of one value of the variable (of a geometry input, one
	// vertex's element of the per-vertex array).
	auto words_of = [&](uint32_t value_type, const shader::InterfaceWord& first) {
		const Type& t = TypeOf(value_type);
		bool builtin_block = t.op == spv::Op::OpTypeStruct && member_decorations_.count({value_type, 0}) &&
		                     member_decorations_.at({value_type, 0}).builtin >= 0;
		if (d.builtin >= 0) {
			BuiltinWords(static_cast<uint32_t>(d.builtin), value_type, first, word, out);
		} else if (builtin_block) {  // gl_PerVertex: a block of built-ins
			for (uint32_t m = 0; m < t.members.size(); ++m) {
				auto it = member_decorations_.find({value_type, m});
				if (it == member_decorations_.end() || it->second.builtin < 0)
					Fail("a block mixes built-in and user members");
				BuiltinWords(static_cast<uint32_t>(it->second.builtin), t.members[m], first, word, out);
			}
		} else {
			bool member_locations = t.op == spv::Op::OpTypeStruct && member_decorations_.count({value_type, 0}) &&
			                        member_decorations_.at({value_type, 0}).interface.location >= 0;
			if (d.interface.location < 0 && !member_locations)
				Fail("interface variable %u has no Location decoration", variable);
			uint32_t location = d.interface.location < 0 ? 0 : static_cast<uint32_t>(d.interface.location);
			shader::InterfaceWord user = first;
			user.index = d.interface.index;  // Index 1: the second source of dual-source blending
			InterfaceWords(value_type, location, d.interface.component, user, word, out);
		}
	};
	// Vulkan "Geometry Shader Input Variables", "Tessellation Control Shader
	// Input/Output Variables", "Tessellation Evaluation Shader Input
	// Variables": the per-vertex values are arrays with an element per vertex
	// of the primitive or patch; per-primitive built-ins and Patch variables
	// are not.
	auto is = [&](spv::BuiltIn b) { return d.builtin == static_cast<int32_t>(b); };
	// A Patch block may carry the decoration on its members instead.
	auto member_patch = [&] {
		auto it = member_decorations_.find({type, 0});
		return TypeOf(type).op == spv::Op::OpTypeStruct && it != member_decorations_.end() &&
		       it->second.interface.patch;
	};
	const bool patch =
	    d.interface.patch || member_patch() || is(spv::BuiltIn::TessLevelOuter) || is(spv::BuiltIn::TessLevelInner);
	const bool per_primitive = patch || is(spv::BuiltIn::PrimitiveId) || is(spv::BuiltIn::InvocationId) ||
	                           is(spv::BuiltIn::ViewIndex) || is(spv::BuiltIn::TessCoord) ||
	                           is(spv::BuiltIn::PatchVertices);
	// VK_KHR_fragment_shader_barycentric "Barycentric Interpolation": a
	// PerVertexKHR fragment input (or a block whose members are) is an array
	// of the primitive's three vertices' values, none interpolated.
	auto member_per_vertex = [&] {
		const Type& t = TypeOf(type);
		const uint32_t block = t.op == spv::Op::OpTypeArray ? t.element : type;
		auto it = member_decorations_.find({block, 0});
		return TypeOf(block).op == spv::Op::OpTypeStruct && it != member_decorations_.end() &&
		       it->second.interface.per_vertex;
	};
	const bool per_vertex =
	    stage_ == shader::Stage::kFragment && !output && (d.interface.per_vertex || member_per_vertex());
	if (per_vertex) proto.interpolation = shader::InterfaceInterpolation::kPerVertex;
	const bool arrayed = stage_ == shader::Stage::kGeometry      ? !output
	                     : stage_ == shader::Stage::kTessControl ? true
	                     : stage_ == shader::Stage::kTessEval    ? !output
	                                                             : per_vertex;
	proto.patch = patch;
	if (arrayed && !per_primitive) {
		const Type& array = TypeOf(type);
		if (array.op != spv::Op::OpTypeArray) Fail("interface variable %u is not a per-vertex array", variable);
		for (uint32_t k = 0; k < array.count; ++k) {
			shader::InterfaceWord element = proto;
			element.vertex = k;
			words_of(array.element, element);
		}
	} else {
		words_of(type, proto);
	}
	const shader::Region& r = program_.regions[region];
	const uint32_t first_word = patch_record ? r.base / 4 : r.base;
	if (word != first_word + r.size / 4) Fail("interface variable %u: words do not match its type", variable);
	if (output && program_.xfb_mode) XfbWords(variable, type, r.base);
	return stage_regions_[variable] = region;
}

namespace {
int64_t AlignUp(int64_t value, int64_t alignment) { return (value + alignment - 1) / alignment * alignment; }
}  // namespace

// Vulkan 1.3 §26.1: each component at an offset aligned to its size, so a
// value containing 64-bit scalars is aligned to 8 bytes, others to 4.
uint32_t Translator::XfbAlignment(uint32_t type) {
	const Type& t = TypeOf(type);
	switch (t.op) {
	case spv::Op::OpTypeVector:
	case spv::Op::OpTypeMatrix:
	case spv::Op::OpTypeArray: return XfbAlignment(t.element);
	case spv::Op::OpTypeStruct: {
		uint32_t alignment = 4;
		for (uint32_t m : t.members) alignment = std::max(alignment, XfbAlignment(m));
		return alignment;
	}
	default: return t.width == 64 ? 8 : t.width == 16 ? 2 : 4;
	}
}

int64_t Translator::XfbOffsets(uint32_t type, int64_t offset, std::vector<int64_t>& out) {
	const Type& t = TypeOf(type);
	if (offset < 0) {  // not captured
		out.insert(out.end(), LeafCount(type), -1);
		return -1;
	}
	offset = AlignUp(offset, XfbAlignment(type));
	switch (t.op) {
	case spv::Op::OpTypeBool:
	case spv::Op::OpTypeInt:
	case spv::Op::OpTypeFloat:
	case spv::Op::OpTypeVector:
		// Components in order; a 64-bit scalar is its low word, then its
		// high word (little-endian, as the buffer holds it); a 16-bit one
		// takes 2 bytes.
		{
			const Type& scalar = t.op == spv::Op::OpTypeVector ? TypeOf(t.element) : t;
			const int64_t size = scalar.width == 16 ? 2 : 4;
			for (uint32_t k = 0; k < LeafCount(type); ++k) out.push_back(offset + size * int64_t(k));
			return offset + size * int64_t(LeafCount(type));
		}
	case spv::Op::OpTypeMatrix:
	case spv::Op::OpTypeArray:
		// Columns and elements one after another, each aligned.
		for (uint32_t k = 0; k < t.count; ++k) offset = XfbOffsets(t.element, offset, out);
		return offset;
	case spv::Op::OpTypeStruct: {
		int64_t next = offset;
		for (uint32_t m = 0; m < t.members.size(); ++m) {
			auto it = member_decorations_.find({type, m});
			// A block member's own Offset places it; other members follow.
			const int64_t at =
			    it != member_decorations_.end() && it->second.offset >= 0 ? offset + it->second.offset : next;
			next = XfbOffsets(t.members[m], at, out);
		}
		return AlignUp(next, XfbAlignment(type));
	}
	default: Fail("transform feedback of %s outputs", OpcodeName(static_cast<uint32_t>(t.op)));
	}
}

void Translator::XfbWords(uint32_t variable, uint32_t type, uint32_t first_word) {
	const Decorations& d = decorations_[variable];
	auto stride = [&](int32_t buffer, uint32_t value) {
		if (buffer < 0 || value == 0) return;
		if (uint32_t(buffer) >= shader::kMaxXfbBuffers) Fail("XfbBuffer %d is not below 4", buffer);
		program_.xfb_strides[buffer] = value;
	};
	// Each word's buffer and offset: the variable's, or its block member's.
	std::vector<int64_t> offsets;
	std::vector<int32_t> buffers;
	// A block's words: members with an Offset are captured, into the
	// block's buffer or the member's own.
	auto block = [&](uint32_t block_type, int32_t buffer, uint32_t block_stride) {
		const Type& b = TypeOf(block_type);
		stride(buffer, block_stride);
		for (uint32_t m = 0; m < b.members.size(); ++m) {
			auto it = member_decorations_.find({block_type, m});
			int64_t at = -1;
			int32_t member_buffer = buffer;
			if (it != member_decorations_.end()) {
				at = it->second.offset;
				if (it->second.xfb.buffer >= 0) member_buffer = it->second.xfb.buffer;
				stride(member_buffer, it->second.xfb.stride);
			}
			XfbOffsets(b.members[m], member_buffer >= 0 ? at : -1, offsets);
			buffers.resize(offsets.size(), member_buffer);
		}
	};
	const Type& t = TypeOf(type);
	const bool block_array = t.op == spv::Op::OpTypeArray && TypeOf(t.element).op == spv::Op::OpTypeStruct;
	if (t.op == spv::Op::OpTypeStruct && d.xfb.offset < 0) {
		block(type, d.xfb.buffer, d.xfb.stride);
	} else if (block_array && d.xfb.offset < 0) {
		// An array of blocks: element k is captured into buffer XfbBuffer + k,
		// with the same stride and member offsets (GLSL's block arrays).
		for (uint32_t k = 0; k < t.count; ++k)
			block(t.element, d.xfb.buffer < 0 ? -1 : d.xfb.buffer + int32_t(k), d.xfb.stride);
	} else {
		stride(d.xfb.buffer, d.xfb.stride);
		XfbOffsets(type, d.xfb.buffer >= 0 ? d.xfb.offset : -1, offsets);
		buffers.resize(offsets.size(), d.xfb.buffer);
	}
	for (size_t k = 0; k < offsets.size(); ++k) {
		if (offsets[k] < 0 || buffers[k] < 0) continue;
		if (uint32_t(buffers[k]) >= shader::kMaxXfbBuffers) Fail("XfbBuffer %d is not below 4", buffers[k]);
		if (offsets[k] > int64_t(UINT32_MAX) - 4) Fail("transform feedback offset out of range");
		// The output word's vertex stream (its variable's or block member's)
		// and width.
		shader::XfbWord x{first_word + uint32_t(k), uint32_t(buffers[k]), uint32_t(offsets[k]), 0};
		for (const shader::InterfaceWord& w : program_.outputs)
			if (w.word == x.word) {
				x.stream = w.stream;
				x.bytes = w.width == 16 ? 2 : 4;
				x.half = w.width == 16 && w.kind == shader::ScalarKind::kFloat;
			}
		program_.xfb_words.push_back(x);
	}
}

// A user variable's words by Location and Component (Vulkan 1.3 §15.1.4
// "Location Assignment"): a scalar or vector takes one location (64-bit
// three- and four-component vectors two), two components per 64-bit scalar;
// matrix columns, array elements and struct members take consecutive
// locations. Returns the locations consumed.
uint32_t Translator::InterfaceWords(uint32_t type, uint32_t location, uint32_t component,
                                    const shader::InterfaceWord& proto, uint32_t& word,
                                    std::vector<shader::InterfaceWord>& out) {
	const Type& t = TypeOf(type);
	switch (t.op) {
	case spv::Op::OpTypeBool:
	case spv::Op::OpTypeInt:
	case spv::Op::OpTypeFloat:
	case spv::Op::OpTypeVector: {
		const Type& scalar = t.op == spv::Op::OpTypeVector ? TypeOf(t.element) : t;
		CheckScalar(scalar);
		uint32_t count = t.op == spv::Op::OpTypeVector ? t.count : 1;
		uint32_t per = scalar.width == 64 ? 2 : 1;
		for (uint32_t k = 0; k < count * per; ++k) {
			shader::InterfaceWord w = proto;
			w.word = word++;
			uint32_t c = component + k;
			w.location = location + c / 4;
			w.component = c % 4;
			// 64-bit scalars are raw words (low, high); they are never interpolated.
			w.kind = per == 2 ? shader::ScalarKind::kUint : KindOf(scalar);
			w.width = scalar.width == 16 ? 16 : 32;
			out.push_back(w);
		}
		return (component + count * per + 3) / 4;
	}
	case spv::Op::OpTypeMatrix:
	case spv::Op::OpTypeArray: {
		uint32_t used = 0;
		for (uint32_t k = 0; k < t.count; ++k)
			used += InterfaceWords(t.element, location + used, component, proto, word, out);
		return used;
	}
	case spv::Op::OpTypeStruct: {
		uint32_t next = location, end = location;
		for (uint32_t m = 0; m < t.members.size(); ++m) {
			shader::InterfaceWord member = proto;
			uint32_t at = next, member_component = 0;
			auto it = member_decorations_.find({type, m});
			if (it != member_decorations_.end()) {
				const InterfaceDecorations& md = it->second.interface;
				if (md.location >= 0) at = static_cast<uint32_t>(md.location);
				member_component = md.component;
				ApplyInterpolation(member, md);
			}
			next = at + InterfaceWords(t.members[m], at, member_component, member, word, out);
			end = std::max(end, next);
		}
		return end - location;
	}
	default: Fail("interface variables of type %s are not supported", OpcodeName(static_cast<uint32_t>(t.op)));
	}
}

// A built-in variable or gl_PerVertex member: one word per scalar, index =
// vector component or array element.
void Translator::BuiltinWords(uint32_t builtin, uint32_t type, shader::InterfaceWord proto, uint32_t& word,
                              std::vector<shader::InterfaceWord>& out) {
	InterfaceBuiltin kind = InterfaceBuiltinOf(builtin);
	bool input = &out == &program_.inputs;
	if (kind == InterfaceBuiltin::kNone) Fail("unsupported built-in %s", BuiltInName(builtin));
	if (kind == InterfaceBuiltin::kSampleMask && input) kind = InterfaceBuiltin::kSampleMaskIn;
	if (kind == InterfaceBuiltin::kFragDepth) program_.writes_depth = true;
	const Type* scalar = &TypeOf(type);
	while (scalar->op == spv::Op::OpTypeVector || scalar->op == spv::Op::OpTypeArray) scalar = &TypeOf(scalar->element);
	proto.builtin = kind;
	proto.kind = KindOf(*scalar);
	if (proto.kind != shader::ScalarKind::kFloat) proto.interpolation = shader::InterfaceInterpolation::kFlat;
	if (kind == InterfaceBuiltin::kBaryCoord) proto.interpolation = shader::InterfaceInterpolation::kSmooth;
	if (kind == InterfaceBuiltin::kBaryCoordNoPersp)
		proto.interpolation = shader::InterfaceInterpolation::kNoPerspective;
	uint32_t count = LeafCount(type);
	for (uint32_t k = 0; k < count; ++k) {
		shader::InterfaceWord w = proto;
		w.word = word++;
		w.index = k;
		out.push_back(w);
	}
}

// HelperInvocation / OpIsHelperInvocationEXT: the caller's helper word, or
// demoted (Vulkan 1.3 "Helper Invocations": a demoted invocation is one).
uint32_t Translator::HelperValue() {
	uint32_t helper = NewReg();
	program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(helper_region_), helper});
	if (discard_region_ == kNoRegion) return helper;
	uint32_t discarded = NewReg();
	program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(discard_region_), discarded});
	return Emit(Op::kOr, helper, discarded);
}

void Translator::EmitDiscard() {
	if (discard_region_ == kNoRegion) Fail("OpKill outside a fragment shader");
	program_.insts.push_back({Op::kStore, static_cast<uint16_t>(discard_region_), 0, 0, Const(1)});
}

std::vector<uint32_t> Translator::Derivatives(Op op, uint32_t value_id) {
	if (stage_ != shader::Stage::kFragment && program_.derivative_group == shader::DerivativeGroup::kNone)
		Fail("derivatives outside a fragment shader or a compute shader with a derivative group");
	program_.uses_derivatives = true;
	uint32_t type = result_types_.at(value_id);
	ScalarInfo scalar = ScalarOf(type);
	if (!scalar.is_float || scalar.width == 64) Fail("derivatives of %u-bit values", scalar.width);
	std::vector<uint32_t> out;
	for (uint32_t reg : Regs(value_id)) out.push_back(Canonical(Emit(op, reg), scalar));
	return out;
}

// Fragment-stage instructions: demotion, helper queries, derivatives and
// GLSL.std.450 InterpolateAt*. False when inst is none of them.
bool Translator::TranslateStageOp(const Instruction& inst) {
	Op x = Op::kDerivativeFineX, y = Op::kDerivativeFineY;
	switch (inst.op) {
	case spv::Op::OpReadClockKHR: {
		// VK_KHR_shader_clock: a 64-bit integer or a uvec2 (low word first),
		// the same two registers either way; subgroup or device scope read
		// one clock (shader/ir.h, kReadClock).
		result_types_[inst[2]] = inst[1];
		const uint32_t lo = NewReg(), hi = NewReg();
		shader::Inst clock{Op::kReadClock};
		clock.dst = lo;
		clock.wide = true;
		clock.dst_hi = hi;
		program_.insts.push_back(clock);
		Define(inst[2], {lo, hi});
		return true;
	}
	case spv::Op::OpEmitVertex:
	case spv::Op::OpEndPrimitive:
	case spv::Op::OpEmitStreamVertex:
	case spv::Op::OpEndStreamPrimitive: {
		if (stage_ != shader::Stage::kGeometry) Fail("%s outside a geometry shader", inst.OpName());
		uint32_t stream = 0;
		if (inst.op == spv::Op::OpEmitStreamVertex || inst.op == spv::Op::OpEndStreamPrimitive) {
			// SPIR-V: Stream must be a constant instruction.
			auto c = constants_.find(inst[1]);
			if (c == constants_.end() || c->second.op != spv::Op::OpConstant ||
			    c->second[3] >= shader::kMaxVertexStreams)
				Fail("%s: the stream is not a constant below 4", inst.OpName());
			stream = c->second[3];
		}
		if (inst.op == spv::Op::OpEmitVertex || inst.op == spv::Op::OpEmitStreamVertex)
			EmitGeometryVertex(stream);
		else
			program_.insts.push_back({Op::kStore, static_cast<uint16_t>(cut_regions_[stream]), 0, 0, Const(1)});
		return true;
	}
	case spv::Op::OpDemoteToHelperInvocation: EmitDiscard(); return true;
	// The critical section's bounds: the rasterizer already runs the
	// invocations it orders apart (the Interlock execution modes above).
	case spv::Op::OpBeginInvocationInterlockEXT:
	case spv::Op::OpEndInvocationInterlockEXT:
		if (stage_ != shader::Stage::kFragment) Fail("%s outside a fragment shader", inst.OpName());
		return true;
	case spv::Op::OpIsHelperInvocationEXT:
		if (helper_region_ == kNoRegion) Fail("OpIsHelperInvocationEXT outside a fragment shader");
		result_types_[inst[2]] = inst[1];
		Define(inst[2], {HelperValue()});
		return true;
	// Vulkan allows OpDPdx to be either; fine is the more accurate.
	case spv::Op::OpDPdx:
	case spv::Op::OpDPdxFine: x = Op::kDerivativeFineX; break;
	case spv::Op::OpDPdxCoarse: x = Op::kDerivativeCoarseX; break;
	case spv::Op::OpDPdy:
	case spv::Op::OpDPdyFine: x = Op::kDerivativeFineY; break;
	case spv::Op::OpDPdyCoarse: x = Op::kDerivativeCoarseY; break;
	case spv::Op::OpFwidth:
	case spv::Op::OpFwidthFine: break;
	case spv::Op::OpFwidthCoarse: x = Op::kDerivativeCoarseX, y = Op::kDerivativeCoarseY; break;
	case spv::Op::OpExtInst: {
		if (inst[3] != glsl_) return false;
		uint32_t instruction = inst[4];
		if (instruction != GLSLstd450InterpolateAtCentroid && instruction != GLSLstd450InterpolateAtSample &&
		    instruction != GLSLstd450InterpolateAtOffset)
			return false;
		if (stage_ != shader::Stage::kFragment) Fail("%s outside a fragment shader", GlslInstructionName(instruction));
		result_types_[inst[2]] = inst[1];
		const Pointer& p = PointerOf(inst[5]);
		std::vector<uint32_t> value = Load(p);
		// An input array indexed per lane (the index may differ within a
		// quad): each place the index may name is loaded for every lane,
		// so its gradient is taken over one element; InterpolateElements
		// then picks each lane's.
		std::vector<std::vector<uint32_t>> elements;  // by byte offset / 4
		const bool per_lane = instruction != GLSLstd450InterpolateAtCentroid && p.dynamic && p.region != kNoRegion &&
		                      p.variable_class < 0;
		if (per_lane) {
			const uint32_t words = program_.regions.at(p.region).size / 4, count = uint32_t(value.size());
			for (uint32_t k = 0; p.offset / 4 + k + count <= words; ++k) {
				Pointer at = p;
				at.dynamic = 0;
				at.offset = p.offset + 4 * k;
				elements.push_back(Load(at));
			}
		}
		if (instruction == GLSLstd450InterpolateAtCentroid) {
			// The loaded value: for a Centroid input already at a covered
			// sample; for others the pixel center (right when the pixel is
			// fully covered, an approximation at a primitive's edge).
			Define(inst[2], value);
			return true;
		}
		// InterpolateAtOffset and AtSample: the value at the pixel center
		// plus the screen-space gradient (fine derivatives) times the offset
		// from the center. Under sample shading the input as loaded is
		// already at the invocation's sample, as FragCoord's x and y are
		// (raster/rasterizer.cpp); without it both are at the center: so the
		// gradient moves the loaded value by the wanted offset less
		// fract(FragCoord.xy) - 1/2. (A Centroid input of a partly covered
		// pixel without sample shading stays at its covered sample: there the
		// result is off by that sample's offset.)
		program_.uses_derivatives = true;
		uint32_t offset_x = 0, offset_y = 0;
		if (instruction == GLSLstd450InterpolateAtOffset) {
			const std::vector<uint32_t>& offset = Regs(inst[6]);
			offset_x = offset.at(0), offset_y = offset.at(1);
		} else {
			// Vulkan 1.3 "Multisampling", standard sample locations; the device offers 1
			// and 4 samples (with one sample, every sample is the center).
			if (sample_count_region_ == kNoRegion)
				sample_count_region_ = StageWord(InterfaceBuiltin::kSampleCount, &program_.inputs);
			uint32_t count = NewReg();
			program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(sample_count_region_), count});
			uint32_t four = Emit(Op::kIEqual, count, Const(4));
			uint32_t sample = Emit(Op::kAnd, Scalar(inst[6]), Const(3));
			const float positions[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
			offset_x = Const(std::bit_cast<uint32_t>(positions[3][0] - 0.5f));
			offset_y = Const(std::bit_cast<uint32_t>(positions[3][1] - 0.5f));
			for (uint32_t k = 3; k-- > 0;) {
				uint32_t match = Emit(Op::kIEqual, sample, Const(k));
				offset_x = Emit(Op::kSelect, match, Const(std::bit_cast<uint32_t>(positions[k][0] - 0.5f)), offset_x);
				offset_y = Emit(Op::kSelect, match, Const(std::bit_cast<uint32_t>(positions[k][1] - 0.5f)), offset_y);
			}
			offset_x = Emit(Op::kSelect, four, offset_x, Const(0));
			offset_y = Emit(Op::kSelect, four, offset_y, Const(0));
		}
		// (Computed at each call: a register kept from an earlier call would
		// not be written for lanes that call's control flow left out.)
		for (uint32_t c = 0; c < 2; ++c) {
			uint32_t frag = NewReg();
			program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(FragCoordRegion(c)), frag});
			const uint32_t loaded_at =
			    Emit(Op::kFSub, Emit(Op::kFSub, frag, Emit(Op::kFloor, frag)), Const(std::bit_cast<uint32_t>(0.5f)));
			uint32_t& offset = c ? offset_y : offset_x;
			offset = Emit(Op::kFSub, offset, loaded_at);
		}
		auto interpolate = [&](const std::vector<uint32_t>& at) {
			std::vector<uint32_t> out;
			for (uint32_t reg : at) {
				uint32_t dx = Emit(Op::kDerivativeFineX, reg), dy = Emit(Op::kDerivativeFineY, reg);
				uint32_t moved = Emit(Op::kFAdd, reg, Emit(Op::kFMul, dx, offset_x));
				out.push_back(Emit(Op::kFAdd, moved, Emit(Op::kFMul, dy, offset_y)));
			}
			return out;
		};
		std::vector<uint32_t> out = interpolate(value);
		for (uint32_t k = 0; k < elements.size(); ++k) {
			const std::vector<uint32_t> moved = interpolate(elements[k]);
			const uint32_t here = Emit(Op::kIEqual, p.dynamic, Const(4 * k));
			for (size_t j = 0; j < out.size(); ++j) out[j] = Emit(Op::kSelect, here, moved[j], out[j]);
		}
		Define(inst[2], Canonical(out, inst[1]));  // a 16-bit input's value is a half
		return true;
	}
	default: return false;
	}
	result_types_[inst[2]] = inst[1];
	bool fwidth =
	    inst.op == spv::Op::OpFwidth || inst.op == spv::Op::OpFwidthFine || inst.op == spv::Op::OpFwidthCoarse;
	if (!fwidth) {
		Define(inst[2], Derivatives(x, inst[3]));
		return true;
	}
	std::vector<uint32_t> dx = Derivatives(x, inst[3]), dy = Derivatives(y, inst[3]);
	ScalarInfo scalar = ScalarOf(inst[1]);
	for (size_t k = 0; k < dx.size(); ++k)
		dx[k] = Canonical(Emit(Op::kFAdd, Emit(Op::kFAbs, dx[k]), Emit(Op::kFAbs, dy[k])), scalar);
	Define(inst[2], dx);
	return true;
}

}  // namespace tessera::spirv
