#include "shader/program_serialize.h"

#include <cstring>
#include <type_traits>

#include "runtime/sha256.h"

namespace tessera::shader {

namespace {

constexpr uint32_t kMagic = 0x52505354;  // "TSPR" little-endian
constexpr size_t kDigestSize = 32;

// Sizes a forged program may not exceed, so that reading one cannot ask for
// unbounded memory at dispatch time; the translator's own limits are lower
// (src/spirv/translator.h) except for registers, which only a program of
// millions of instructions could need. A larger program is recompiled, never
// read from a cache.
constexpr uint32_t kMaxRegisters = 1u << 20;
constexpr uint64_t kMaxPrivateBytes = 64 * 1024;
constexpr uint64_t kMaxWorkgroupMemory = 64 * 1024;
constexpr uint32_t kMaxInvocations = 1024;

// Tripwires: a field added to one of these structures must be added to
// Fields() below and kProgramFormatVersion bumped.
static_assert(sizeof(Inst) == 44 && sizeof(Region) == 20 && sizeof(BindingSlot) == 16 && sizeof(BuiltinInput) == 12 &&
              sizeof(Edge) == 12 && sizeof(Block) == 32 && sizeof(InterfaceWord) == 28 && sizeof(Constant) == 8 &&
              sizeof(PhiCopy) == 8 && sizeof(BarrierPoint) == 8 && sizeof(ImageBindingSlot) == 16 &&
              sizeof(ImageOperation) == 68);

class Writer {
public:
	explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
	void U32(uint32_t value) {
		for (int i = 0; i < 4; ++i) out_.push_back(uint8_t(value >> (8 * i)));
	}
	void Field(uint32_t& value) { U32(value); }
	void Field(uint16_t& value) { out_.insert(out_.end(), {uint8_t(value), uint8_t(value >> 8)}); }
	void Field(bool& value) { out_.push_back(value ? 1 : 0); }
	void Byte(uint8_t& value) { out_.push_back(value); }
	template <class E>
	void Enum(E& value, E) {
		out_.push_back(uint8_t(value));
	}
	void Enum(Op& value, Op) {
		uint16_t raw = uint16_t(value);
		Field(raw);
	}
	template <class T>
	void Vector(std::vector<T>& values);

private:
	std::vector<uint8_t>& out_;
};

// Bounds-checked: past the end, or on an invalid value, it stops reading and
// every later field reads as zero.
class Reader {
public:
	explicit Reader(std::span<const uint8_t> in) : in_(in) {}
	bool ok() const { return ok_; }
	bool AtEnd() const { return at_ == in_.size(); }
	uint32_t U32() {
		if (!Take(4)) return 0;
		const uint8_t* p = in_.data() + at_ - 4;
		return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
	}
	void Field(uint32_t& value) { value = U32(); }
	void Field(uint16_t& value) { value = Take(2) ? uint16_t(in_[at_ - 2] | in_[at_ - 1] << 8) : 0; }
	void Field(bool& value) {
		uint8_t byte = Take(1) ? in_[at_ - 1] : 0;
		if (byte > 1) ok_ = false;
		value = byte == 1;
	}
	void Byte(uint8_t& value) { value = Take(1) ? in_[at_ - 1] : 0; }
	// Enums are checked against their last enumerator.
	template <class E>
	void Enum(E& value, E last) {
		uint8_t byte = Take(1) ? in_[at_ - 1] : 0;
		if (byte > uint8_t(last)) ok_ = false;
		value = ok_ ? E(byte) : E{};
	}
	void Enum(Op& value, Op last) {
		uint16_t raw = 0;
		Field(raw);
		if (raw > uint16_t(last)) ok_ = false;
		value = ok_ ? Op(raw) : Op{};
	}
	template <class T>
	void Vector(std::vector<T>& values);

private:
	bool Take(size_t bytes) {
		if (!ok_ || in_.size() - at_ < bytes) {
			ok_ = false;
			return false;
		}
		at_ += bytes;
		return true;
	}

	std::span<const uint8_t> in_;
	size_t at_ = 0;
	bool ok_ = true;
};

// One description of each structure's fields serves both directions.
template <class IO>
void Fields(IO& io, Inst& x) {
	io.Enum(x.op, Op(uint16_t(Op::kCount) - 1));
	io.Field(x.region);
	io.Field(x.dst), io.Field(x.a), io.Field(x.b), io.Field(x.c), io.Field(x.d), io.Field(x.imm);
	io.Field(x.wide);
	io.Field(x.dst_hi), io.Field(x.b_hi), io.Field(x.c_hi);
}
template <class IO>
void Fields(IO& io, Region& x) {
	io.Enum(x.kind, RegionKind::kPhysical);
	io.Field(x.binding), io.Field(x.base), io.Field(x.size), io.Field(x.descriptor_count);
}
template <class IO>
void Fields(IO& io, BindingSlot& x) {
	io.Field(x.set), io.Field(x.binding), io.Field(x.array_element), io.Field(x.storage);
}
template <class IO>
void Fields(IO& io, BuiltinInput& x) {
	io.Field(x.reg);
	io.Enum(x.builtin, Builtin::kSubgroupId);
	io.Field(x.component);
}
template <class IO>
void Fields(IO& io, Constant& x) {
	io.Field(x.reg), io.Field(x.bits);
}
template <class IO>
void Fields(IO& io, BarrierPoint& x) {
	io.Field(x.block), io.Field(x.inst);
}
template <class IO>
void Fields(IO& io, PhiCopy& x) {
	io.Field(x.dst), io.Field(x.src);
}
template <class IO>
void Fields(IO& io, Edge& x) {
	io.Field(x.block), io.Field(x.copy_begin), io.Field(x.copy_count);
}
template <class IO>
void Fields(IO& io, Block& x) {
	io.Field(x.inst_begin), io.Field(x.inst_count);
	io.Enum(x.terminator.kind, TerminatorKind::kExit);
	io.Field(x.terminator.selector), io.Field(x.terminator.edge_begin), io.Field(x.terminator.edge_count);
	io.Field(x.terminator.case_begin);
	io.Field(x.has_barrier);
}
template <class IO>
void Fields(IO& io, InterfaceWord& x) {
	io.Field(x.word);
	io.Enum(x.builtin, InterfaceBuiltin::kBaryCoordNoPersp);
	io.Byte(x.stream);
	io.Field(x.patch);
	io.Field(x.location), io.Field(x.component), io.Field(x.index);
	io.Enum(x.kind, ScalarKind::kBool);
	io.Enum(x.interpolation, InterfaceInterpolation::kPerVertex);
	io.Field(x.centroid), io.Field(x.per_sample);
	io.Field(x.vertex);
	io.Byte(x.width);
}
template <class IO>
void Fields(IO& io, ImageBindingSlot& x) {
	io.Field(x.set), io.Field(x.binding), io.Field(x.array_element);
	io.Enum(x.kind, ImageDescriptorKind::kStorageTexelBuffer);
}
template <class IO>
void Fields(IO& io, ImageOperation& x) {
	io.Enum(x.kind, ImageOpKind::kResidency);
	io.Field(x.image), io.Field(x.image_count), io.Field(x.sampler), io.Field(x.sampler_count);
	io.Field(x.has_lod), io.Field(x.has_bias), io.Field(x.has_grad), io.Field(x.has_offset), io.Field(x.has_min_lod);
	io.Field(x.has_dref), io.Field(x.has_sample), io.Field(x.implicit_lod), io.Field(x.has_const_offsets);
	io.Byte(x.component);
	io.Enum(x.lookup, ImageOpKind::kResidency);
	for (auto& offset : x.const_offsets)
		for (int32_t& v : offset) {
			uint32_t bits = uint32_t(v);
			io.Field(bits);
			v = int32_t(bits);
		}
	io.Enum(x.atomic, Op(uint16_t(Op::kCount) - 1));
}
template <class IO>
void Fields(IO& io, uint32_t& x) {
	io.Field(x);
}
template <class IO>
void Fields(IO& io, XfbWord& x) {
	io.Field(x.word), io.Field(x.buffer), io.Field(x.offset), io.Field(x.stream);
	io.Byte(x.bytes), io.Field(x.half);
}
template <class IO>
void Fields(IO& io, Program& p) {
	io.Enum(p.stage, Stage::kTessEval);
	io.Vector(p.inputs), io.Vector(p.outputs);
	io.Field(p.xfb_mode);
	io.Vector(p.xfb_words);
	for (uint32_t& stride : p.xfb_strides) io.Field(stride);
	io.Field(p.discard_word);
	io.Field(p.writes_depth), io.Field(p.early_fragment_tests), io.Field(p.post_depth_coverage);
	io.Field(p.depth_replacing);
	io.Field(p.uses_derivatives), io.Field(p.sample_shading), io.Field(p.origin_upper_left);
	io.Field(p.pixel_center_integer);
	io.Enum(p.derivative_group, DerivativeGroup::kQuads);
	io.Enum(p.interlock, Interlock::kSample);
	io.Field(p.geometry.input_vertices), io.Field(p.geometry.invocations), io.Field(p.geometry.max_vertices);
	io.Enum(p.geometry.output, GeometryOutput::kTriangleStrip);
	io.Field(p.geometry.emit_word), io.Field(p.geometry.record_words), io.Field(p.geometry.emitted_word);
	io.Byte(p.tessellation.domain), io.Byte(p.tessellation.spacing), io.Byte(p.tessellation.order);
	io.Field(p.tessellation.point_mode), io.Field(p.tessellation.output_vertices);
	io.Field(p.tessellation.patch_bytes), io.Field(p.tessellation.patches_per_group);
	io.Field(p.tessellation.patch_index_word);
	io.Vector(p.insts), io.Vector(p.blocks), io.Vector(p.edges), io.Vector(p.copies), io.Vector(p.case_values);
	io.Vector(p.regions), io.Vector(p.bindings), io.Vector(p.builtins), io.Vector(p.constants);
	io.Field(p.register_count);
	for (uint32_t& size : p.workgroup_size) io.Field(size);
	io.Field(p.workgroup_memory_size), io.Field(p.private_words), io.Field(p.push_constant_size);
	io.Field(p.uses_barriers), io.Field(p.uses_subgroups);
	io.Vector(p.barriers);
	io.Vector(p.image_bindings), io.Vector(p.image_ops);
}

template <class T>
void Writer::Vector(std::vector<T>& values) {
	U32(uint32_t(values.size()));
	for (T& value : values) Fields(*this, value);
}

template <class T>
void Reader::Vector(std::vector<T>& values) {
	uint32_t count = U32();
	// Every element takes at least 4 bytes: a count larger than the bytes
	// left is corrupt, and checking it first bounds the allocation.
	if (!ok_ || count > (in_.size() - at_) / 4) {
		ok_ = false;
		values.clear();
		return;
	}
	values.resize(count);
	for (T& value : values) Fields(*this, value);
}

bool Within(uint64_t begin, uint64_t count, size_t size) { return begin + count <= size; }

// Slots a descriptor count takes in a program as translated (cached
// programs are not linked yet: a runtime-sized array is one slot).
uint64_t SlotCount(uint32_t count) { return count == kRuntimeDescriptorArray ? 1 : count; }

}  // namespace

std::vector<uint8_t> SerializeProgram(const Program& program) {
	std::vector<uint8_t> out;
	out.reserve(64 + program.insts.size() * 40 + program.blocks.size() * 25);
	Writer writer(out);
	writer.U32(kMagic);
	writer.U32(kProgramFormatVersion);
	Fields(writer, const_cast<Program&>(program));  // the Writer only reads
	Sha256Digest digest = Sha256Of(out);
	out.insert(out.end(), digest.begin(), digest.end());
	return out;
}

bool DeserializeProgram(std::span<const uint8_t> bytes, Program& out) {
	if (bytes.size() < 8 + kDigestSize) return false;
	std::span<const uint8_t> body = bytes.first(bytes.size() - kDigestSize);
	Sha256Digest digest = Sha256Of(body);
	if (std::memcmp(digest.data(), bytes.data() + body.size(), kDigestSize) != 0) return false;
	Reader reader(body);
	if (reader.U32() != kMagic || reader.U32() != kProgramFormatVersion) return false;
	Fields(reader, out);
	return reader.ok() && reader.AtEnd() && CheckProgram(out).empty();
}

std::string CheckProgram(const Program& p) {
	auto reg = [&](uint32_t r) { return r < p.register_count; };
	if (p.register_count == 0 || p.register_count > kMaxRegisters) return "register count out of range";
	if (uint64_t{p.private_words} * 4 > kMaxPrivateBytes) return "too much private memory";
	if (p.workgroup_memory_size > kMaxWorkgroupMemory) return "too much workgroup memory";
	uint64_t invocations = uint64_t{p.workgroup_size[0]} * p.workgroup_size[1] * p.workgroup_size[2];
	if (invocations == 0 || invocations > kMaxInvocations) return "workgroup size out of range";
	if (p.discard_word != Program::kNoWord && p.discard_word >= p.private_words) return "discard word out of range";
	for (const auto* words : {&p.inputs, &p.outputs})
		for (const InterfaceWord& w : *words)
			if ((w.word >= p.private_words && !(words == &p.outputs && p.stage == Stage::kTessControl)) ||
			    w.stream >= kMaxVertexStreams)
				return "interface word out of range";
	for (const XfbWord& w : p.xfb_words)
		if (w.word >= p.private_words || w.buffer >= kMaxXfbBuffers || w.stream >= kMaxVertexStreams ||
		    (w.bytes != 2 && w.bytes != 4))
			return "transform feedback word out of range";
	if (p.stage == Stage::kTessControl) {
		const TessellationInfo& t = p.tessellation;
		if (t.output_vertices == 0 || t.output_vertices > 32 || t.patches_per_group == 0 ||
		    uint64_t{t.patch_bytes} * t.patches_per_group > p.workgroup_memory_size ||
		    t.patch_index_word >= p.private_words)
			return "tessellation control patch out of range";
		for (const InterfaceWord& w : p.outputs)
			if (uint64_t{w.word} * 4 + 4 > t.patch_bytes) return "tessellation control output out of range";
	}
	if (p.stage == Stage::kGeometry) {
		const GeometryInfo& g = p.geometry;
		if (g.invocations == 0 || g.invocations > kMaxGeometryInvocations || g.max_vertices == 0 ||
		    g.max_vertices > 256 || g.record_words != p.outputs.size() + 2 || g.emitted_word >= p.private_words ||
		    uint64_t{g.emit_word} + uint64_t{g.max_vertices + 1} * g.record_words > p.private_words)
			return "geometry emit region out of range";
		const uint32_t v = g.input_vertices;
		if (v != 1 && v != 2 && v != 3 && v != 4 && v != 6) return "geometry input primitive out of range";
	}

	for (const Inst& inst : p.insts) {
		// kArrayLength's b is a literal stride (a divisor), not a register.
		bool b_ok = inst.op == Op::kArrayLength ? inst.b != 0 : reg(inst.b);
		if (!reg(inst.dst) || !reg(inst.a) || !b_ok || !reg(inst.c) || !reg(inst.d) || !reg(inst.dst_hi) ||
		    !reg(inst.b_hi) || !reg(inst.c_hi))
			return std::string("operand out of range in ") + OpName(inst.op);
		if (IsMemory(inst.op) && inst.region >= p.regions.size())
			return std::string("region out of range in ") + OpName(inst.op);
		// Subgroup reductions name their combining ALU op(s) in `region`.
		if (inst.op == Op::kSubgroupReduce && inst.region >= uint16_t(Op::kAluCount))
			return "reduction op out of range";
		if (inst.op == Op::kSubgroupReduce64 && inst.region + 1 >= uint16_t(Op::kAluCount))
			return "reduction op out of range";
		if (inst.wide && !IsAtomic(inst.op) && inst.op != Op::kSubgroupReduce64 && inst.op != Op::kReadClock)
			return std::string("wide ") + OpName(inst.op);
		// Image instructions: an operand slot, an image_ops entry, a result slot.
		if (inst.op == Op::kImageArg && inst.imm >= kImageArgCount) return "image operand slot out of range";
		if (inst.op == Op::kImage && inst.imm >= p.image_ops.size()) return "image operation out of range";
		if (inst.op == Op::kImageResult && inst.imm >= 4) return "image result out of range";
	}
	if (p.blocks.empty()) return "no blocks";
	for (const BarrierPoint& barrier : p.barriers)
		if (barrier.block >= p.blocks.size() || barrier.inst < p.blocks[barrier.block].inst_begin ||
		    barrier.inst - p.blocks[barrier.block].inst_begin > p.blocks[barrier.block].inst_count)
			return "barrier out of range";
	for (const Block& block : p.blocks) {
		const Terminator& t = block.terminator;
		if (!Within(block.inst_begin, block.inst_count, p.insts.size())) return "block instructions out of range";
		if (!reg(t.selector) || !Within(t.edge_begin, t.edge_count, p.edges.size())) return "terminator out of range";
		switch (t.kind) {
		case TerminatorKind::kBranch:
			if (t.edge_count != 1) return "branch without one edge";
			break;
		case TerminatorKind::kConditional:
			if (t.edge_count != 2) return "conditional branch without two edges";
			break;
		case TerminatorKind::kSwitch:
			if (t.edge_count == 0 || !Within(t.case_begin, t.edge_count - 1, p.case_values.size()))
				return "switch cases out of range";
			break;
		case TerminatorKind::kExit: break;
		}
	}
	for (const Edge& edge : p.edges)
		if (edge.block >= p.blocks.size() || !Within(edge.copy_begin, edge.copy_count, p.copies.size()))
			return "edge out of range";
	for (const PhiCopy& copy : p.copies)
		if (!reg(copy.dst) || !reg(copy.src)) return "phi copy register out of range";
	for (const Region& region : p.regions) {
		switch (region.kind) {
		case RegionKind::kStorageBuffer:
		case RegionKind::kUniformBuffer:
			// An unlinked runtime-sized array has one slot (kRuntimeDescriptorArray).
			if (region.descriptor_count == 0 ||
			    !Within(region.binding, SlotCount(region.descriptor_count), p.bindings.size()))
				return "region binding out of range";
			break;
		case RegionKind::kWorkgroup:
			if (!Within(region.base, region.size, p.workgroup_memory_size)) return "workgroup region out of range";
			break;
		case RegionKind::kPrivate:
			if (!Within(region.base, region.size / 4, p.private_words)) return "private region out of range";
			break;
		case RegionKind::kPushConstant:
		case RegionKind::kPhysical: break;
		}
	}
	for (const BuiltinInput& input : p.builtins)
		if (!reg(input.reg) || input.component >= 3) return "built-in input out of range";
	for (const Constant& constant : p.constants)
		if (!reg(constant.reg)) return "constant register out of range";
	for (const ImageOperation& op : p.image_ops) {
		if (op.image_count == 0 || !Within(op.image, SlotCount(op.image_count), p.image_bindings.size()))
			return "image binding out of range";
		if (op.sampler != ImageOperation::kNone &&
		    (op.sampler_count == 0 || !Within(op.sampler, SlotCount(op.sampler_count), p.image_bindings.size())))
			return "sampler binding out of range";
		if (op.component > 3) return "gather component out of range";
		if (op.kind == ImageOpKind::kAtomic && !IsAtomic(op.atomic)) return "image atomic op out of range";
		if (op.kind == ImageOpKind::kResidency && op.lookup != ImageOpKind::kSample &&
		    op.lookup != ImageOpKind::kGather && op.lookup != ImageOpKind::kFetch && op.lookup != ImageOpKind::kRead)
			return "residency of no lookup";
	}
	return {};
}

}  // namespace tessera::shader
