// Vertex and fragment stages: one lane group per run, the interface in the
// lanes' private memory (see ir.h, InterfaceWord), quad derivatives, and
// helper lanes whose buffer writes are dropped.
#include <algorithm>
#include <bit>

#include "shader/interpreter.h"

namespace tessera::shader {

void Interpreter::BeginStage(const Program& program, uint32_t lanes, uint32_t layout_lanes,
                             std::span<const uint32_t> filled) {
	PrepareLanes(program, lanes, layout_lanes);
	private_memory_.resize(static_cast<size_t>(program.private_words) * stride_);
	// Every word reads as zero but the caller's part of the filled ones
	// (a full batch's interface words are most of a fragment stage's), and
	// a geometry stage's emit region: OpEmitVertex writes each word of a
	// record, and only the records emitted are read (ShadeGeometry), so
	// nothing there is read before it is written (its rows: OutputVertices
	// + 1 records of every lane group). Up to the padded lane count: the
	// compiled segments run that many lanes, and nothing reads a row past
	// it (a fragment stage's rows are a full batch long, and most batches
	// of small triangles fill a fraction of them).
	uint32_t* memory = private_memory_.data();
	auto next = filled.begin();
	uint32_t unread_begin = 0, unread_end = 0;
	if (program.stage == Stage::kGeometry) {
		unread_begin = program.geometry.emit_word;
		unread_end = unread_begin + (program.geometry.max_vertices + 1) * program.geometry.record_words;
	}
	for (uint32_t word = 0; word < program.private_words; ++word) {
		if (word >= unread_begin && word < unread_end) continue;
		uint32_t* w = memory + size_t(word) * stride_;
		while (next != filled.end() && *next < word) ++next;
		const uint32_t keep = next != filled.end() && *next == word ? lanes : 0;
		std::fill(w + keep, w + padded_lanes_, 0u);
	}
	// A tessellation control stage's patch records (TessellationInfo).
	workgroup_memory_.assign(program.workgroup_memory_size, 0);
}

RunStatus Interpreter::RunStage(const Program& program, const Resources& resources, const RunOptions& options) {
	const uint32_t lanes = lanes_;
	if (lanes == 0) return RunStatus::kSuccess;
	// Constants keep registers of their own that no instruction writes
	// (register_allocation.h): after a run of this program with these lanes
	// they still hold their values.
	if (constants_serial_ != program.serial.value || constants_stride_ != stride_) {
		FillConstants(program);
		constants_serial_ = program.serial.value;
		constants_stride_ = stride_;
	}
	// Compute built-ins a graphics stage may read: the subgroup ones (the
	// lane group is cut into subgroups of kSubgroupSize lanes).
	for (const BuiltinInput& input : program.builtins) {
		uint32_t* dst = Reg(input.reg);
		switch (input.builtin) {
		case Builtin::kSubgroupLocalInvocationId:
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = i % kSubgroupSize;
			break;
		case Builtin::kSubgroupId:
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = i / kSubgroupSize;
			break;
		case Builtin::kLocalInvocationIndex:
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = i;
			break;
		default: std::fill_n(dst, lanes, 0u); break;
		}
	}
	helper_word_ = Program::kNoWord;
	discard_word_ = Program::kNoWord;
	if (program.stage == Stage::kFragment) {
		for (const InterfaceWord& input : program.inputs)
			if (input.builtin == InterfaceBuiltin::kHelperInvocation) helper_word_ = input.word;
		discard_word_ = program.discard_word;
	}
	guard_writes_ = helper_word_ != Program::kNoWord || discard_word_ != Program::kNoWord;
	RunStatus status = Execute(program, resources, lanes, options.max_block_steps);
	guard_writes_ = false;
	return status;
}

// Quad derivatives. Every lane of the quad is read, active or not: in
// uniform control flow (where derivatives are defined) all four computed the
// value, helper lanes included. A quad cut short by the end of the lane
// group borrows a neighbour's value (a difference of zero).
void Interpreter::ExecuteDerivative(const Inst& inst, uint32_t lanes, bool full) {
	const uint32_t* a = Reg(inst.a);
	uint32_t* dst = Reg(inst.dst);
	// Which two pixels of the quad each lane (dx, dy) = (k & 1, k >> 1) differences.
	static constexpr uint8_t kFrom[4][2][4] = {
	    {{1, 1, 3, 3}, {0, 0, 2, 2}},  // fine x: its row
	    {{2, 3, 2, 3}, {0, 1, 0, 1}},  // fine y: its column
	    {{1, 1, 1, 1}, {0, 0, 0, 0}},  // coarse x: the top row
	    {{2, 2, 2, 2}, {0, 0, 0, 0}},  // coarse y: the left column
	};
	const auto& from = kFrom[static_cast<uint32_t>(inst.op) - static_cast<uint32_t>(Op::kDerivativeFineX)];
	for (uint32_t q = 0; q < lanes; q += 4) {
		uint32_t n = std::min(4u, lanes - q);
		float v[4];
		for (uint32_t k = 0; k < 4; ++k) {
			uint32_t lane = k < n ? k : (k ^ 1u) < n ? (k ^ 1u) : (k ^ 2u) < n ? (k ^ 2u) : 0u;
			v[k] = std::bit_cast<float>(a[q + lane]);
		}
		for (uint32_t k = 0; k < n; ++k)
			if (full || active_[q + k]) dst[q + k] = std::bit_cast<uint32_t>(v[from[0][k]] - v[from[1][k]]);
	}
}

bool Interpreter::WritesBuffer(const Program& program, const Inst& inst) const {
	bool write = inst.op == Op::kStore || inst.op == Op::kStore8 || inst.op == Op::kStore16 ||
	             (IsAtomic(inst.op) && inst.op != Op::kAtomicLoad);
	if (!write) return false;
	RegionKind kind = program.regions[inst.region].kind;
	return kind == RegionKind::kStorageBuffer || kind == RegionKind::kPhysical;
}

// Image writes and atomics (kImage running a kWrite or kAtomic operation).
bool Interpreter::WritesImage(const Program& program, const Inst& inst) const {
	if (inst.op != Op::kImage || inst.imm >= program.image_ops.size()) return false;
	ImageOpKind kind = program.image_ops[inst.imm].kind;
	return kind == ImageOpKind::kWrite || kind == ImageOpKind::kAtomic;
}

// A buffer or image store or atomic in a fragment stage: helper lanes (the
// HelperInvocation input word set by the caller, or demoted) take no part
// (Vulkan 1.3 "Helper Invocations": they have no side effects).
void Interpreter::ExecuteGuarded(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
                                 bool full) {
	const uint32_t* helper =
	    helper_word_ != Program::kNoWord ? private_memory_.data() + size_t(helper_word_) * stride_ : nullptr;
	const uint32_t* discard =
	    discard_word_ != Program::kNoWord ? private_memory_.data() + size_t(discard_word_) * stride_ : nullptr;
	guard_mask_.resize(lanes);
	for (uint32_t i = 0; i < lanes; ++i) {
		bool live = full || active_[i];
		if (helper && helper[i]) live = false;
		if (discard && discard[i]) live = false;
		guard_mask_[i] = live ? 1u : 0u;
	}
	active_.swap(guard_mask_);
	guard_writes_ = false;
	if (IsImage(inst.op))
		ExecuteImage(program, inst, resources, lanes, false);
	else
		ExecuteMemory(program, inst, resources, lanes, false);
	guard_writes_ = true;
	active_.swap(guard_mask_);
}

}  // namespace tessera::shader
