// Liveness over the block graph, an interference graph, and greedy colouring.
//
// Masked execution does not change the rules: a lane's slot of a register is
// written only while that lane is active, so each lane sees the scalar
// program along its own path, and scalar liveness is exact per lane.
// Two extra interferences keep the interpreter's loops valid: an
// instruction's result never shares a register with its operands (the kernels
// take __restrict pointers), and the phi copies at the end of a block act as
// one parallel copy (no copy may overwrite another's source).
#include "shader/register_allocation.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tessera::shader {
namespace {

class Bits {
public:
	explicit Bits(uint32_t size = 0) : words_((size + 63) / 64, 0) {}
	bool Get(uint32_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
	void Set(uint32_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
	void Clear(uint32_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
	bool Merge(const Bits& other) {  // this |= other; true when this changed
		bool changed = false;
		for (size_t w = 0; w < words_.size(); ++w) {
			uint64_t merged = words_[w] | other.words_[w];
			changed |= merged != words_[w];
			words_[w] = merged;
		}
		return changed;
	}
	template <class F>
	void ForEach(F f) const {
		for (size_t w = 0; w < words_.size(); ++w)
			for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
				f(static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits)));
	}

private:
	std::vector<uint64_t> words_;
};

bool Defines(const Inst& inst) { return inst.op != Op::kStore && inst.op != Op::kAtomicStore; }

template <class F>
void ForEachUse(const Inst& inst, F f) {
	const uint32_t operands[4] = {inst.a, inst.b, inst.c, inst.d};
	for (uint32_t k = 0; k < OpArity(inst.op); ++k) f(operands[k]);
	if (IsMemory(inst.op)) f(inst.d);  // the descriptor array element
	if (inst.wide) f(inst.b_hi), f(inst.c_hi);
}

// Walks a block backwards from the registers live at its end (including the
// phi copies on its out-edges), calling on_def(reg, live after the def).
template <class OnDef>
Bits LiveIn(const Program& p, const Block& block, const Bits& live_out_of_successors, OnDef on_def) {
	Bits live = live_out_of_successors;
	const Terminator& t = block.terminator;
	// The out-edges' phi copies: one parallel copy.
	std::vector<uint32_t> copy_dsts, copy_srcs;
	for (uint32_t e = 0; e < t.edge_count; ++e) {
		const Edge& edge = p.edges[t.edge_begin + e];
		for (uint32_t k = 0; k < edge.copy_count; ++k) {
			copy_dsts.push_back(p.copies[edge.copy_begin + k].dst);
			copy_srcs.push_back(p.copies[edge.copy_begin + k].src);
		}
	}
	for (uint32_t dst : copy_dsts) {
		Bits conflicts = live;
		for (uint32_t src : copy_srcs) conflicts.Set(src);
		for (uint32_t other : copy_dsts) conflicts.Set(other);
		on_def(dst, conflicts);
	}
	for (uint32_t dst : copy_dsts) live.Clear(dst);
	for (uint32_t src : copy_srcs) live.Set(src);
	if (t.kind == TerminatorKind::kConditional || t.kind == TerminatorKind::kSwitch) live.Set(t.selector);
	for (uint32_t i = block.inst_begin + block.inst_count; i-- > block.inst_begin;) {
		const Inst& inst = p.insts[i];
		if (Defines(inst)) {
			Bits conflicts = live;
			ForEachUse(inst, [&](uint32_t reg) { conflicts.Set(reg); });
			if (inst.wide) {  // two results, live together
				Bits low = conflicts;
				low.Set(inst.dst_hi);
				on_def(inst.dst, low);
				conflicts.Set(inst.dst);
				on_def(inst.dst_hi, conflicts);
				live.Clear(inst.dst_hi);
			} else {
				on_def(inst.dst, conflicts);
			}
			live.Clear(inst.dst);
		}
		ForEachUse(inst, [&](uint32_t reg) { live.Set(reg); });
	}
	return live;
}

}  // namespace

void AllocateRegisters(Program& p) {
	const uint32_t count = p.register_count;
	std::vector<uint8_t> pinned(count, 0);
	pinned[0] = 1;
	for (const Constant& c : p.constants) pinned[c.reg] = 1;
	for (const BuiltinInput& b : p.builtins) pinned[b.reg] = 1;

	// Liveness to a fixed point (loops feed back).
	std::vector<Bits> live_in(p.blocks.size(), Bits(count));
	auto successors_live = [&](const Block& block) {
		Bits live(count);
		for (uint32_t e = 0; e < block.terminator.edge_count; ++e)
			live.Merge(live_in[p.edges[block.terminator.edge_begin + e].block]);
		return live;
	};
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t b = p.blocks.size(); b-- > 0;) {
			Bits in = LiveIn(p, p.blocks[b], successors_live(p.blocks[b]), [](uint32_t, const Bits&) {});
			changed |= live_in[b].Merge(in);
		}
	}

	// Interference between registers that are not pinned.
	std::vector<std::vector<uint32_t>> neighbours(count);
	std::vector<uint8_t> defined(count, 0);
	for (const Block& block : p.blocks)
		LiveIn(p, block, successors_live(block), [&](uint32_t def, const Bits& conflicts) {
			defined[def] = 1;
			if (pinned[def]) return;
			conflicts.ForEach([&](uint32_t other) {
				if (other == def || pinned[other]) return;
				neighbours[def].push_back(other);
				neighbours[other].push_back(def);
			});
		});

	// Pinned registers first, then greedy colours in definition order.
	std::vector<uint32_t> colour(count, UINT32_MAX);
	uint32_t next = 0;
	for (uint32_t r = 0; r < count; ++r)
		if (pinned[r]) colour[r] = next++;
	const uint32_t first_free = next;
	std::vector<uint32_t> taken_by;  // colour -> the register that last claimed a conflict with it
	auto assign = [&](uint32_t reg) {
		if (colour[reg] != UINT32_MAX) return;
		taken_by.resize(std::max<size_t>(taken_by.size(), next + 1), UINT32_MAX);
		for (uint32_t other : neighbours[reg])
			if (colour[other] != UINT32_MAX) taken_by[colour[other]] = reg;
		uint32_t c = first_free;
		while (c < next && taken_by[c] == reg) ++c;
		colour[reg] = c;
		next = std::max(next, c + 1);
	};
	for (const Block& block : p.blocks) {
		for (uint32_t i = block.inst_begin; i < block.inst_begin + block.inst_count; ++i)
			if (Defines(p.insts[i])) {
				assign(p.insts[i].dst);
				if (p.insts[i].wide) assign(p.insts[i].dst_hi);
			}
		for (uint32_t e = 0; e < block.terminator.edge_count; ++e) {
			const Edge& edge = p.edges[block.terminator.edge_begin + e];
			for (uint32_t k = 0; k < edge.copy_count; ++k) assign(p.copies[edge.copy_begin + k].dst);
		}
	}
	// Read but never written (an undefined value): any register of its own.
	for (uint32_t r = 0; r < count; ++r)
		if (colour[r] == UINT32_MAX) colour[r] = next++;

	for (Inst& inst : p.insts) {
		uint32_t* operands[4] = {&inst.a, &inst.b, &inst.c, &inst.d};
		for (uint32_t k = 0; k < OpArity(inst.op); ++k) *operands[k] = colour[*operands[k]];
		if (IsMemory(inst.op)) inst.d = colour[inst.d];
		inst.dst = Defines(inst) ? colour[inst.dst] : 0;
		if (inst.wide) {
			inst.b_hi = colour[inst.b_hi], inst.c_hi = colour[inst.c_hi];
			inst.dst_hi = Defines(inst) ? colour[inst.dst_hi] : 0;
		}
	}
	for (PhiCopy& copy : p.copies) copy.dst = colour[copy.dst], copy.src = colour[copy.src];
	for (Block& block : p.blocks) block.terminator.selector = colour[block.terminator.selector];
	for (Constant& c : p.constants) c.reg = colour[c.reg];
	for (BuiltinInput& b : p.builtins) b.reg = colour[b.reg];
	p.register_count = next;
}

}  // namespace tessera::shader
