// The interpreter. Lanes keep their own program counter (a block index); each
// step runs the lowest block any live lane waits at, for exactly the lanes
// waiting there. Blocks are in structured order (see ir.h), so lanes that
// diverged meet again at the merge block before it runs, loops run until
// their last lane leaves, and a barrier in uniform control flow is reached by
// all lanes in the same step. See README.md.
#include "shader/interpreter.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "shader/alu.h"
#include "shader/memory_ops.h"

namespace tessera::shader {
namespace {

constexpr uint32_t kDone = UINT32_MAX;

struct MemorySpan {
	uint8_t* data = nullptr;
	uint64_t size = 0;
};

}  // namespace

uint32_t AtomicApply(Op op, uint32_t* word, uint32_t value, uint32_t comparator) {
	std::atomic_ref<uint32_t> ref(*word);
	switch (op) {
	case Op::kAtomicLoad: return ref.load();
	case Op::kAtomicStore: ref.store(value); return 0;
	case Op::kAtomicExchange: return ref.exchange(value);
	case Op::kAtomicCompareExchange: {
		uint32_t expected = comparator;
		ref.compare_exchange_strong(expected, value);
		return expected;
	}
	case Op::kAtomicIAdd: return ref.fetch_add(value);
	case Op::kAtomicISub: return ref.fetch_sub(value);
	case Op::kAtomicAnd: return ref.fetch_and(value);
	case Op::kAtomicOr: return ref.fetch_or(value);
	case Op::kAtomicXor: return ref.fetch_xor(value);
	default: break;
	}
	// Min, max and float add: a compare-exchange loop.
	uint32_t old = ref.load();
	for (;;) {
		uint32_t next = old;
		switch (op) {
		case Op::kAtomicFAdd:
			next = std::bit_cast<uint32_t>(std::bit_cast<float>(old) + std::bit_cast<float>(value));
			break;
		case Op::kAtomicFMin:
			next = std::bit_cast<uint32_t>(std::fmin(std::bit_cast<float>(old), std::bit_cast<float>(value)));
			break;
		case Op::kAtomicFMax:
			next = std::bit_cast<uint32_t>(std::fmax(std::bit_cast<float>(old), std::bit_cast<float>(value)));
			break;
		case Op::kAtomicUMin: next = std::min(old, value); break;
		case Op::kAtomicUMax: next = std::max(old, value); break;
		case Op::kAtomicSMin:
			next = static_cast<uint32_t>(std::min(static_cast<int32_t>(old), static_cast<int32_t>(value)));
			break;
		case Op::kAtomicSMax:
			next = static_cast<uint32_t>(std::max(static_cast<int32_t>(old), static_cast<int32_t>(value)));
			break;
		default: break;
		}
		if (next == old || ref.compare_exchange_weak(old, next)) return old;
	}
}

// VK_KHR_shader_clock (see ir.h, kReadClock).
void Interpreter::ExecuteReadClock(const Inst& inst, uint32_t lanes, bool full) {
	const uint64_t now = uint64_t(
	    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
	        .count());
	uint32_t *lo = Reg(inst.dst), *hi = Reg(inst.dst_hi);
	for (uint32_t i = 0; i < lanes; ++i)
		if (full || active_[i]) lo[i] = uint32_t(now), hi[i] = uint32_t(now >> 32);
}

RunStatus Interpreter::RunWorkgroup(const Program& program, const Resources& resources,
                                    const WorkgroupPosition& position, const RunOptions& options) {
	return RunWorkgroups(program, resources, position, 1, options);
}

RunStatus Interpreter::RunWorkgroups(const Program& program, const Resources& resources, const WorkgroupPosition& first,
                                     uint32_t count, const RunOptions& options) {
	uint32_t invocations = program.InvocationsPerWorkgroup();
	// Invocations of different workgroups can share a lane group only when
	// nothing ties a workgroup's lanes together.
	bool independent = !program.uses_barriers && !program.uses_subgroups && program.workgroup_memory_size == 0;
	if (!independent) {
		WorkgroupPosition position = first;
		for (uint32_t g = 0; g < count; ++g, ++position.id[0]) {
			// Workgroup memory starts undefined in SPIR-V; zero it so runs repeat exactly.
			workgroup_memory_.assign(program.workgroup_memory_size, 0);
			if (RunLanes(program, resources, position, 0, invocations, options.max_block_steps) != RunStatus::kSuccess)
				return RunStatus::kDeviceLost;
		}
		return RunStatus::kSuccess;
	}
	uint64_t total = uint64_t{invocations} * count;
	uint32_t group =
	    options.lane_group_width ? options.lane_group_width : std::max(invocations, options.packed_lane_group_width);
	for (uint64_t begin = 0; begin < total; begin += group) {
		uint32_t lanes = static_cast<uint32_t>(std::min<uint64_t>(group, total - begin));
		if (RunLanes(program, resources, first, begin, lanes, options.max_block_steps) != RunStatus::kSuccess)
			return RunStatus::kDeviceLost;
	}
	return RunStatus::kSuccess;
}

// Runs `lanes` invocations starting at flat index first_invocation, counted
// across consecutive workgroups along x from `position`
// (flat = workgroup offset * invocations per workgroup + local index).
RunStatus Interpreter::RunLanes(const Program& program, const Resources& resources, const WorkgroupPosition& position,
                                uint64_t first_invocation, uint32_t lanes, uint64_t max_steps) {
	PrepareLanes(program, lanes);
	private_memory_.assign(static_cast<size_t>(program.private_words) * stride_, 0);
	guard_writes_ = false;
	// As RunStage: constants keep registers no instruction writes (a
	// compiled program's barriers save live registers, never constants'),
	// so a run of the program with this stride finds them filled.
	if (constants_serial_ != program.serial.value || constants_stride_ != stride_) {
		FillConstants(program);
		constants_serial_ = program.serial.value;
		constants_stride_ = stride_;
	}

	// Built-ins: ids counted up lane by lane (no division per lane).
	const uint32_t* size = program.workgroup_size;
	uint32_t invocations = program.InvocationsPerWorkgroup();
	local_ids_.resize(6 * static_cast<size_t>(lanes));
	uint32_t* local[3] = {local_ids_.data(), local_ids_.data() + lanes, local_ids_.data() + 2 * lanes};
	uint32_t* local_index = local_ids_.data() + 3 * lanes;
	uint32_t* group_x = local_ids_.data() + 4 * lanes;  // WorkgroupId.x per lane
	// The lane's place in its workgroup: LocalInvocationIndex but with
	// DerivativeGroupQuadsKHR; subgroups are runs of it.
	uint32_t* place = local_index;
	uint32_t index = static_cast<uint32_t>(first_invocation % invocations);
	uint32_t group = position.id[0] + static_cast<uint32_t>(first_invocation / invocations);
	if (program.derivative_group == DerivativeGroup::kQuads) {
		// Lane 4q + 2dy + dx of a workgroup is invocation (2qx + dx, 2qy + dy, z)
		// of quad q = qx + (qy + z * size.y / 2) * size.x / 2 (the sizes are even:
		// the translator checks).
		place = local_ids_.data() + 5 * lanes;
		const uint32_t quads_x = size[0] / 2, quads_xy = quads_x * (size[1] / 2);
		for (uint32_t i = 0; i < lanes; ++i) {
			const uint32_t quad = index / 4, corner = index % 4;
			const uint32_t x = 2 * (quad % quads_x) + (corner & 1u);
			const uint32_t y = 2 * (quad % quads_xy / quads_x) + (corner >> 1);
			const uint32_t z = quad / quads_xy;
			local[0][i] = x, local[1][i] = y, local[2][i] = z;
			local_index[i] = x + size[0] * (y + size[1] * z);
			place[i] = index, group_x[i] = group;
			if (++index == invocations) index = 0, ++group;
		}
	} else if (size[1] == 1 && size[2] == 1) {  // 1D workgroups, the common case: one run of ids per workgroup
		for (uint32_t i = 0; i < lanes; index = 0, ++group) {
			uint32_t run = std::min(lanes - i, invocations - index);
			for (uint32_t k = 0; k < run; ++k) local[0][i + k] = index + k;  // one store a loop: it vectorizes
			for (uint32_t k = 0; k < run; ++k) local_index[i + k] = index + k;
			std::fill_n(group_x + i, run, group);
			i += run;
		}
		std::fill_n(local[1], lanes, 0u);
		std::fill_n(local[2], lanes, 0u);
	} else {
		// 2D and 3D workgroups: runs of one workgroup's ids, copied.
		if (!std::equal(size, size + 3, workgroup_ids_size_)) {
			workgroup_ids_.resize(4 * size_t(invocations));
			uint32_t* ids = workgroup_ids_.data();
			uint32_t n = 0;
			for (uint32_t z = 0; z < size[2]; ++z)
				for (uint32_t y = 0; y < size[1]; ++y)
					for (uint32_t x = 0; x < size[0]; ++x, ++n) {
						ids[n] = x, ids[invocations + n] = y, ids[2 * size_t(invocations) + n] = z;
						ids[3 * size_t(invocations) + n] = n;
					}
			std::copy(size, size + 3, workgroup_ids_size_);
		}
		const uint32_t* ids = workgroup_ids_.data();
		for (uint32_t i = 0; i < lanes; index = 0, ++group) {
			const uint32_t run = std::min(lanes - i, invocations - index);
			for (uint32_t c = 0; c < 3; ++c) std::copy_n(ids + c * size_t(invocations) + index, run, local[c] + i);
			std::copy_n(ids + 3 * size_t(invocations) + index, run, local_index + i);
			std::fill_n(group_x + i, run, group);
			i += run;
		}
	}
	for (const BuiltinInput& input : program.builtins) {
		uint32_t* dst = Reg(input.reg);
		uint32_t c = input.component;
		switch (input.builtin) {
		case Builtin::kLocalInvocationId: std::copy_n(local[c], lanes, dst); break;
		case Builtin::kGlobalInvocationId:
			if (c == 0)
				for (uint32_t i = 0; i < lanes; ++i) dst[i] = group_x[i] * size[0] + local[0][i];
			else
				for (uint32_t i = 0; i < lanes; ++i) dst[i] = position.id[c] * size[c] + local[c][i];
			break;
		case Builtin::kWorkgroupId:
			if (c == 0)
				std::copy_n(group_x, lanes, dst);
			else
				std::fill_n(dst, lanes, position.id[c]);
			break;
		case Builtin::kNumWorkgroups: std::fill_n(dst, lanes, position.count[c]); break;
		case Builtin::kLocalInvocationIndex: std::copy_n(local_index, lanes, dst); break;
		case Builtin::kSubgroupLocalInvocationId:
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = place[i] % kSubgroupSize;
			break;
		case Builtin::kSubgroupId:
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = place[i] / kSubgroupSize;
			break;
		}
	}
	return Execute(program, resources, lanes, max_steps);
}

void Interpreter::PrepareLanes(const Program& program, uint32_t lanes, uint32_t layout_lanes) {
	lanes_ = lanes;
	padded_lanes_ = (lanes + kSegmentLanes - 1) / kSegmentLanes * kSegmentLanes;
	stride_ = std::max(padded_lanes_, (layout_lanes + kSegmentLanes - 1) / kSegmentLanes * kSegmentLanes);
	registers_.resize(static_cast<size_t>(program.register_count) * stride_);
	scratch_.resize(lanes);
	active_.resize(stride_);
	edge_.resize(lanes);
	pc_.resize(padded_lanes_);  // a compiled workgroup program's pcs are whole vectors
}

void Interpreter::FillConstants(const Program& program) {
	// The whole row (padding lanes too): a later run whose lane count rounds
	// to the same stride finds them filled.
	for (const Constant& constant : program.constants) std::fill_n(Reg(constant.reg), stride_, constant.bits);
}

RunStatus Interpreter::Execute(const Program& program, const Resources& resources, uint32_t lanes, uint64_t max_steps) {
	// Two modes. Converged: every lane waits at `current` (pc_ is not kept up
	// to date), so a block runs unmasked and a uniform branch just jumps.
	// Diverged: pc_ holds each lane's block and each step runs the lowest.
	// The compiled tier's code, when the program has some (compiled.h):
	// fixed for the whole run.
	const CompiledProgram* compiled = CompiledCodeFor(program);
	if (compiled && compiled->program) return RunCompiled(program, *compiled, resources, lanes, max_steps);
	uint64_t before = stats_.lane_instructions;
	RunStatus status = Interpret(program, resources, lanes, max_steps, compiled);
	if (!compiled) NoteInterpretedWork(program, stats_.lane_instructions - before);
	return status;
}

RunStatus Interpreter::Interpret(const Program& program, const Resources& resources, uint32_t lanes, uint64_t max_steps,
                                 const CompiledProgram* compiled) {
	// No operand register named by an earlier run (of a program that did
	// not reach its kImage) outlives it: the registers may move between runs.
	// (A slot counts only while its bit is set.)
	image_arg_set_ = 0;
	uint32_t current = 0;
	bool converged = true;
	uint64_t steps = 0;
	for (;;) {
		if (++steps > max_steps) return RunStatus::kDeviceLost;
		const Block& block = program.blocks[current];
		bool full = converged;
		uint32_t active_count = lanes;
		if (!converged) {
			active_count = 0;
			for (uint32_t i = 0; i < lanes; ++i) {
				active_[i] = pc_[i] == current;
				active_count += active_[i];
			}
			full = active_count == lanes;
		}
		if (compiled) {
			const CompiledSegment* segments = compiled->segments.data();
			ExecuteBlock(program, block, resources, lanes, full, segments + compiled->block_first[current],
			             segments + compiled->block_first[current + 1]);
		} else {
			ExecuteBlock(program, block, resources, lanes, full, nullptr, nullptr);
		}
		stats_.block_steps++;
		stats_.lane_instructions += uint64_t{active_count} * (block.inst_count + 1);  // + the terminator

		const Terminator& t = block.terminator;
		if (t.kind == TerminatorKind::kExit) {
			if (full) return RunStatus::kSuccess;
			for (uint32_t i = 0; i < lanes; ++i) pc_[i] = active_[i] ? kDone : pc_[i];
		} else {
			// Which edge each lane takes; uniform when all active lanes agree.
			const uint32_t* selector = Reg(t.selector);
			uint32_t uniform_edge = 0;
			bool uniform = true;
			if (t.kind == TerminatorKind::kConditional) {
				uint32_t taken = 0;  // active lanes taking the true edge
				if (full) {
					for (uint32_t i = 0; i < lanes; ++i) {
						uint32_t edge = selector[i] ? 0u : 1u;
						edge_[i] = edge;
						taken += edge ^ 1u;
					}
				} else {
					for (uint32_t i = 0; i < lanes; ++i) {
						uint32_t edge = selector[i] ? 0u : 1u;
						edge_[i] = edge;
						taken += active_[i] & (edge ^ 1u);
					}
				}
				uniform = taken == 0 || taken == active_count;
				uniform_edge = taken == 0 ? 1u : 0u;
			} else if (t.kind == TerminatorKind::kSwitch) {
				for (uint32_t i = 0; i < lanes; ++i) {
					uint32_t edge = 0;
					for (uint32_t k = 0; k + 1 < t.edge_count; ++k)
						if (program.case_values[t.case_begin + k] == selector[i]) {
							edge = k + 1;
							break;
						}
					edge_[i] = edge;
				}
				bool first = true;
				for (uint32_t i = 0; i < lanes; ++i) {
					if (!full && !active_[i]) continue;
					if (first)
						uniform_edge = edge_[i], first = false;
					else if (edge_[i] != uniform_edge)
						uniform = false;
				}
			}
			if (uniform) {
				const Edge& edge = program.edges[t.edge_begin + uniform_edge];
				CopyPhis(program, edge, lanes, full, false, 0);
				if (converged) {
					current = edge.block;  // a uniform branch jumps
					continue;
				}
				uint32_t target = edge.block;
				for (uint32_t i = 0; i < lanes; ++i) pc_[i] = active_[i] ? target : pc_[i];
			} else {
				if (t.kind == TerminatorKind::kBranch) std::fill_n(edge_.data(), lanes, 0u);
				if (converged) {
					std::fill_n(active_.data(), lanes, 1u);
					std::fill_n(pc_.data(), lanes, current);
					converged = false;
				}
				for (uint32_t e = 0; e < t.edge_count; ++e)
					CopyPhis(program, program.edges[t.edge_begin + e], lanes, false, true, e);
				if (t.kind == TerminatorKind::kConditional) {
					uint32_t on_true = program.edges[t.edge_begin].block,
					         on_false = program.edges[t.edge_begin + 1].block;
					for (uint32_t i = 0; i < lanes; ++i) pc_[i] = active_[i] ? (edge_[i] ? on_false : on_true) : pc_[i];
				} else {
					const Edge* edges = program.edges.data() + t.edge_begin;
					for (uint32_t i = 0; i < lanes; ++i) pc_[i] = active_[i] ? edges[edge_[i]].block : pc_[i];
				}
			}
		}
		// The next block: the lowest one any live lane waits at. When all
		// lanes wait at the same one they have reconverged.
		uint32_t lowest = kDone, highest = 0;
		for (uint32_t i = 0; i < lanes; ++i) {
			lowest = std::min(lowest, pc_[i]);
			highest = std::max(highest, pc_[i]);
		}
		if (lowest == kDone) return RunStatus::kSuccess;
		converged = lowest == highest;
		current = lowest;
	}
}

// A whole compiled program (compiled.h) in place of Execute: the same
// registers and private memory, the regions resolved as ExecuteMemory does.
RunStatus Interpreter::RunCompiled(const Program& program, const CompiledProgram& compiled, const Resources& resources,
                                   uint32_t lanes, uint64_t max_steps) {
	spans_.assign(program.regions.size(), RegionSpan{});
	for (size_t r = 0; r < program.regions.size(); ++r) {
		const Region& region = program.regions[r];
		if ((region.kind == RegionKind::kStorageBuffer || region.kind == RegionKind::kUniformBuffer) &&
		    region.binding < resources.buffers.size()) {
			const BufferView& view = resources.buffers[region.binding];
			spans_[r] = {static_cast<const uint8_t*>(view.data), view.data ? view.size : 0};
		} else if (region.kind == RegionKind::kPushConstant && resources.push_constants) {
			spans_[r] = {static_cast<const uint8_t*>(resources.push_constants), resources.push_constant_size};
		} else if (region.kind == RegionKind::kWorkgroup && workgroup_memory_.size() >= region.base) {
			spans_[r] = {workgroup_memory_.data() + region.base,
			             std::min<uint64_t>(region.size, workgroup_memory_.size() - region.base)};
		}
	}
	ProgramEnvironment environment;
	environment.private_memory = private_memory_.data();
	environment.spans = spans_.data();
	environment.lanes = lanes;
	environment.max_steps = max_steps;
	environment.pcs = pc_.data();
	uint32_t status = compiled.program(registers_.data(), stride_, &environment);
	stats_.block_steps += environment.steps;
	return status == 0 ? RunStatus::kSuccess : RunStatus::kDeviceLost;
}

// Phi copies along one edge, for the active lanes (or all lanes when full);
// by_edge restricts them to lanes whose edge_ is `edge_index`.
void Interpreter::CopyPhis(const Program& program, const Edge& edge, uint32_t lanes, bool full, bool by_edge,
                           uint32_t edge_index) {
	for (uint32_t k = 0; k < edge.copy_count; ++k) {
		const PhiCopy& copy = program.copies[edge.copy_begin + k];
		uint32_t* dst = Reg(copy.dst);
		const uint32_t* src = Reg(copy.src);
		if (full) {
			std::copy_n(src, lanes, dst);
		} else if (by_edge) {
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = (active_[i] && edge_[i] == edge_index) ? src[i] : dst[i];
		} else {
			for (uint32_t i = 0; i < lanes; ++i) dst[i] = active_[i] ? src[i] : dst[i];
		}
	}
}

// Hot path: one call per executed block.
void Interpreter::ExecuteBlock(const Program& program, const Block& block, const Resources& resources, uint32_t lanes,
                               bool full, const CompiledSegment* segment, const CompiledSegment* segments_end) {
	const Inst* first = program.insts.data();
	const Inst* inst = first + block.inst_begin;
	const Inst* end = inst + block.inst_count;
	const AluKernel* kernels = AluKernelTable();  // once a block, not once an instruction
	for (; inst != end; ++inst) {
		if (segment != segments_end && inst == first + segment->inst_begin) {
			// A compiled run of arithmetic: one call for all of it.
			segment->function(registers_.data(), stride_, padded_lanes_, full ? nullptr : active_.data());
			inst = first + segment->inst_end - 1;
			++segment;
			continue;
		}
		if (inst->op >= Op::kAluCount) {
			if (IsSubgroup(inst->op))
				ExecuteSubgroup(*inst, lanes, full);
			else if (IsDerivative(inst->op))
				ExecuteDerivative(*inst, lanes, full);
			else if (IsImage(inst->op) && guard_writes_ && WritesImage(program, *inst))
				ExecuteGuarded(program, *inst, resources, lanes, full);
			else if (IsImage(inst->op))
				ExecuteImage(program, *inst, resources, lanes, full);
			else if (inst->op == Op::kReadClock)
				ExecuteReadClock(*inst, lanes, full);
			else
				ExecuteMemory(program, *inst, resources, lanes, full);
			continue;
		}
		AluKernel kernel = kernels[static_cast<size_t>(inst->op)];
		uint32_t* dst = Reg(inst->dst);
		if (full) {
			kernel(dst, Reg(inst->a), Reg(inst->b), Reg(inst->c), Reg(inst->d), lanes);
		} else {
			// Lanes outside the mask keep their value: it may still be live
			// (defined by an earlier trip through this block).
			kernel(scratch_.data(), Reg(inst->a), Reg(inst->b), Reg(inst->c), Reg(inst->d), lanes);
			BlendLanes(dst, scratch_.data(), active_.data(), lanes);
		}
	}
}

void Interpreter::ExecuteMemory(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
                                bool full) {
	if (guard_writes_ && WritesBuffer(program, inst)) {
		ExecuteGuarded(program, inst, resources, lanes, full);
		return;
	}
	if (inst.wide) {
		ExecuteAtomic64(program, inst, resources, lanes, full);
		return;
	}
	const Region& region = program.regions[inst.region];
	if (region.kind == RegionKind::kPhysical) return ExecutePhysical(inst, resources, lanes, full);
	const uint32_t* address = Reg(inst.a);
	uint32_t* dst = Reg(inst.dst);

	if (region.kind == RegionKind::kPrivate) {
		// One copy per lane, word-major: word w of lane i at [w * stride_ + i].
		const uint32_t* value = Reg(inst.b);
		// A constant address (register 0 is zero): one word for all lanes, a
		// plain copy (stage interface words, constant-indexed arrays).
		if (inst.a == 0 && inst.imm % 4 == 0 && uint64_t{inst.imm} + 4 <= region.size &&
		    (inst.op == Op::kLoad || inst.op == Op::kStore)) {
			uint32_t* word = &private_memory_[(region.base + size_t(inst.imm) / 4) * stride_];
			uint32_t* to = inst.op == Op::kLoad ? dst : word;
			const uint32_t* from = inst.op == Op::kLoad ? word : value;
			if (full)
				std::copy_n(from, lanes, to);
			else
				BlendLanes(to, from, active_.data(), lanes);
			return;
		}
		for (uint32_t i = 0; i < lanes; ++i) {
			if (!full && !active_[i]) continue;
			uint64_t offset = uint64_t{address[i]} + inst.imm;
			bool inside = offset + 4 <= region.size && offset % 4 == 0;
			uint32_t* word = inside ? &private_memory_[(region.base + offset / 4) * stride_ + i] : nullptr;
			if (inst.op == Op::kLoad) {
				dst[i] = word ? *word : 0;
			} else if (inst.op == Op::kStore) {
				if (word) *word = value[i];
			} else if (IsAtomic(inst.op)) {
				dst[i] = word ? AtomicApply(inst.op, word, value[i], Reg(inst.c)[i]) : 0;
			}
		}
		return;
	}

	if (region.descriptor_count > 1) {
		ExecuteDescriptorArray(inst, region, resources, lanes, full);
		return;
	}

	MemorySpan span;
	switch (region.kind) {
	case RegionKind::kStorageBuffer:
	case RegionKind::kUniformBuffer:
		if (region.binding < resources.buffers.size()) {
			const BufferView& view = resources.buffers[region.binding];
			span = {static_cast<uint8_t*>(view.data), view.data ? view.size : 0};
		}
		break;
	case RegionKind::kPushConstant:
		span = {static_cast<uint8_t*>(const_cast<void*>(resources.push_constants)),
		        resources.push_constants ? resources.push_constant_size : 0u};
		break;
	case RegionKind::kWorkgroup: span = {workgroup_memory_.data() + region.base, region.size}; break;
	case RegionKind::kPrivate:
	case RegionKind::kPhysical: break;
	}

	// robustBufferAccess (Vulkan 1.3 §15.9.1 / §34.1): out-of-bounds loads read
	// zero, out-of-bounds stores and atomics are dropped.
	switch (inst.op) {
	case Op::kLoad:
		if (full) {
			LoadLanes(dst, span.data, span.size, address, inst.imm, lanes);
		} else {
			// Inactive lanes' addresses may be stale: still bounds-checked, then discarded.
			LoadLanes(scratch_.data(), span.data, span.size, address, inst.imm, lanes);
			BlendLanes(dst, scratch_.data(), active_.data(), lanes);
		}
		break;
	case Op::kStore: {
		const uint32_t* value = Reg(inst.b);
		if (full) {
			StoreLanes(span.data, span.size, address, inst.imm, value, lanes);
			break;
		}
		for (uint32_t i = 0; i < lanes; ++i) {
			if (!full && !active_[i]) continue;
			uint64_t offset = uint64_t{address[i]} + inst.imm;
			if (offset + 4 <= span.size) memcpy(span.data + offset, &value[i], 4);
		}
		break;
	}
	case Op::kLoad16:
	case Op::kLoad8: {
		uint32_t width = inst.op == Op::kLoad16 ? 2 : 1;
		for (uint32_t i = 0; i < lanes; ++i) {
			if (!full && !active_[i]) continue;
			uint64_t offset = uint64_t{address[i]} + inst.imm;
			uint32_t value = 0;
			if (offset + width <= span.size) memcpy(&value, span.data + offset, width);  // little-endian
			dst[i] = value;
		}
		break;
	}
	case Op::kStore16:
	case Op::kStore8: {
		uint32_t width = inst.op == Op::kStore16 ? 2 : 1;
		const uint32_t* value = Reg(inst.b);
		for (uint32_t i = 0; i < lanes; ++i) {
			if (!full && !active_[i]) continue;
			uint64_t offset = uint64_t{address[i]} + inst.imm;
			if (offset + width <= span.size) memcpy(span.data + offset, &value[i], width);
		}
		break;
	}
	case Op::kArrayLength: {
		// inst.b is the array stride (a literal).
		uint32_t length = span.size > inst.imm ? static_cast<uint32_t>((span.size - inst.imm) / inst.b) : 0u;
		for (uint32_t i = 0; i < lanes; ++i)
			if (full || active_[i]) dst[i] = length;
		break;
	}
	default: {
		// Atomics, lane by lane in lane order (deterministic within a group).
		const uint32_t* value = Reg(inst.b);
		const uint32_t* comparator = Reg(inst.c);
		for (uint32_t i = 0; i < lanes; ++i) {
			if (!full && !active_[i]) continue;
			uint64_t offset = uint64_t{address[i]} + inst.imm;
			uint32_t old = 0;
			if (offset + 4 <= span.size && offset % 4 == 0)
				old = AtomicApply(inst.op, reinterpret_cast<uint32_t*>(span.data + offset), value[i], comparator[i]);
			if (inst.op != Op::kAtomicStore) dst[i] = old;
		}
		break;
	}
	}
}

// A buffer access through an array of descriptors indexed at run time: each
// lane finds its own descriptor. An index past the array reads 0 / drops the
// store, as an out-of-bounds access would.
void Interpreter::ExecuteDescriptorArray(const Inst& inst, const Region& region, const Resources& resources,
                                         uint32_t lanes, bool full) {
	const uint32_t* address = Reg(inst.a);
	const uint32_t* value = Reg(inst.b);
	const uint32_t* comparator = Reg(inst.c);
	const uint32_t* element = Reg(inst.d);
	uint32_t* dst = Reg(inst.dst);
	for (uint32_t i = 0; i < lanes; ++i) {
		if (!full && !active_[i]) continue;
		MemorySpan span;
		uint64_t slot = uint64_t{region.binding} + element[i];
		if (element[i] < region.descriptor_count && slot < resources.buffers.size()) {
			const BufferView& view = resources.buffers[slot];
			span = {static_cast<uint8_t*>(view.data), view.data ? view.size : 0};
		}
		uint64_t offset = uint64_t{address[i]} + inst.imm;
		uint32_t width = (inst.op == Op::kLoad16 || inst.op == Op::kStore16) ? 2
		                 : (inst.op == Op::kLoad8 || inst.op == Op::kStore8) ? 1
		                                                                     : 4;
		bool inside = offset + width <= span.size;
		switch (inst.op) {
		case Op::kLoad16:
		case Op::kLoad8: {
			uint32_t loaded = 0;
			if (inside) memcpy(&loaded, span.data + offset, width);
			dst[i] = loaded;
			break;
		}
		case Op::kStore16:
		case Op::kStore8:
			if (inside) memcpy(span.data + offset, &value[i], width);
			break;
		case Op::kLoad: {
			uint32_t loaded = 0;
			if (inside) memcpy(&loaded, span.data + offset, 4);
			dst[i] = loaded;
			break;
		}
		case Op::kStore:
			if (inside) memcpy(span.data + offset, &value[i], 4);
			break;
		case Op::kArrayLength:
			dst[i] = span.size > inst.imm ? static_cast<uint32_t>((span.size - inst.imm) / inst.b) : 0u;
			break;
		default: {
			uint32_t old = 0;
			if (inside && offset % 4 == 0)
				old = AtomicApply(inst.op, reinterpret_cast<uint32_t*>(span.data + offset), value[i], comparator[i]);
			if (inst.op != Op::kAtomicStore) dst[i] = old;
			break;
		}
		}
	}
}

// Cross-lane operations within each subgroup (kSubgroupSize consecutive
// lanes; the lane group starts at a workgroup's first invocation).
void Interpreter::ExecuteSubgroup(const Inst& inst, uint32_t lanes, bool full) {
	const uint32_t* a = Reg(inst.a);
	const uint32_t* b = Reg(inst.b);
	uint32_t* dst = Reg(inst.dst);
	auto active = [&](uint32_t i) { return full || active_[i] != 0; };
	AluKernel combine = inst.op == Op::kSubgroupReduce ? GetAluKernel(static_cast<Op>(inst.region)) : nullptr;
	const uint32_t zero = 0;
	auto combined = [&](uint32_t x, uint32_t y) {
		uint32_t out;
		combine(&out, &x, &y, &zero, &zero, 1);
		return out;
	};
	for (uint32_t first = 0; first < lanes; first += kSubgroupSize) {
		uint32_t end = std::min(first + kSubgroupSize, lanes);
		uint32_t lowest = end;
		uint32_t ballot = 0;
		for (uint32_t i = first; i < end; ++i)
			if (active(i)) {
				lowest = std::min(lowest, i);
				if (inst.op == Op::kSubgroupBallot && a[i]) ballot |= 1u << (i - first);
			}
		if (lowest == end) continue;  // no active lane here
		switch (inst.op) {
		case Op::kSubgroupElect:
			for (uint32_t i = first; i < end; ++i)
				if (active(i)) dst[i] = i == lowest;
			break;
		case Op::kSubgroupBallot:
			for (uint32_t i = first; i < end; ++i)
				if (active(i)) dst[i] = ballot;
			break;
		case Op::kSubgroupBroadcastFirst: {
			uint32_t value = a[lowest];
			for (uint32_t i = first; i < end; ++i)
				if (active(i)) dst[i] = value;
			break;
		}
		case Op::kSubgroupShuffle: {
			// Read every source before writing: dst may not alias a (allocator rule), but be safe.
			uint32_t values[kSubgroupSize];
			for (uint32_t i = first; i < end; ++i) {
				uint32_t source = first + b[i];
				values[i - first] = (b[i] < end - first && active(source)) ? a[source] : a[i];
			}
			for (uint32_t i = first; i < end; ++i)
				if (active(i)) dst[i] = values[i - first];
			break;
		}
		case Op::kSubgroupReduce: {
			uint32_t operation = inst.imm & 0xff;
			uint32_t identity = b[lowest];
			uint32_t cluster = operation == 3 ? std::max(inst.imm >> 8, 1u) : kSubgroupSize;
			for (uint32_t start = first; start < end; start += cluster) {
				uint32_t stop = std::min(start + cluster, end);
				uint32_t total = identity;
				for (uint32_t i = start; i < stop; ++i)
					if (active(i)) {
						uint32_t before = total;
						total = combined(total, a[i]);
						if (operation == 1) dst[i] = total;
						if (operation == 2) dst[i] = before;
					}
				if (operation == 0 || operation == 3)
					for (uint32_t i = start; i < stop; ++i)
						if (active(i)) dst[i] = total;
			}
			break;
		}
		case Op::kSubgroupReduce64: {
			// Pairs of words: value (a, b), identity (c, d), result (dst, dst_hi).
			const uint32_t* c = Reg(inst.c);
			const uint32_t* d = Reg(inst.d);
			uint32_t* dst_hi = Reg(inst.dst_hi);
			AluKernel lo_kernel = GetAluKernel(static_cast<Op>(inst.region));
			AluKernel hi_kernel = GetAluKernel(static_cast<Op>(inst.region + 1));
			auto combined64 = [&](uint64_t x, uint64_t y) {
				uint32_t x_lo = static_cast<uint32_t>(x), x_hi = static_cast<uint32_t>(x >> 32);
				uint32_t y_lo = static_cast<uint32_t>(y), y_hi = static_cast<uint32_t>(y >> 32);
				uint32_t lo, hi;
				lo_kernel(&lo, &x_lo, &x_hi, &y_lo, &y_hi, 1);
				hi_kernel(&hi, &x_lo, &x_hi, &y_lo, &y_hi, 1);
				return uint64_t{hi} << 32 | lo;
			};
			auto value = [&](uint32_t i) { return uint64_t{b[i]} << 32 | a[i]; };
			auto write = [&](uint32_t i, uint64_t v) {
				dst[i] = static_cast<uint32_t>(v);
				dst_hi[i] = static_cast<uint32_t>(v >> 32);
			};
			uint32_t operation = inst.imm & 0xff;
			uint64_t identity = uint64_t{d[lowest]} << 32 | c[lowest];
			uint32_t cluster = operation == 3 ? std::max(inst.imm >> 8, 1u) : kSubgroupSize;
			for (uint32_t start = first; start < end; start += cluster) {
				uint32_t stop = std::min(start + cluster, end);
				uint64_t total = identity;
				for (uint32_t i = start; i < stop; ++i)
					if (active(i)) {
						uint64_t before = total;
						total = combined64(total, value(i));
						if (operation == 1) write(i, total);
						if (operation == 2) write(i, before);
					}
				if (operation == 0 || operation == 3)
					for (uint32_t i = start; i < stop; ++i)
						if (active(i)) write(i, total);
			}
			break;
		}
		default: break;
		}
	}
}

}  // namespace tessera::shader
