// 64-bit atomics (Int64Atomics): OpAtomic* on 64-bit integers in storage
// buffers, workgroup memory and through device addresses. The value lives in two registers (low and
// high word, Inst::dst/dst_hi, b/b_hi, c/c_hi).
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <mutex>

#include "shader/interpreter.h"
#include "shader/memory_ops.h"

namespace tessera::shader {
namespace {

// The value an atomic op leaves in memory, from the old one.
uint64_t Next(Op op, uint64_t old, uint64_t value, uint64_t comparator) {
	switch (op) {
	case Op::kAtomicLoad: return old;
	case Op::kAtomicStore:
	case Op::kAtomicExchange: return value;
	case Op::kAtomicCompareExchange: return old == comparator ? value : old;
	case Op::kAtomicIAdd: return old + value;
	case Op::kAtomicISub: return old - value;
	case Op::kAtomicSMin: return static_cast<int64_t>(value) < static_cast<int64_t>(old) ? value : old;
	case Op::kAtomicUMin: return value < old ? value : old;
	case Op::kAtomicSMax: return static_cast<int64_t>(value) > static_cast<int64_t>(old) ? value : old;
	case Op::kAtomicUMax: return value > old ? value : old;
	case Op::kAtomicAnd: return old & value;
	case Op::kAtomicOr: return old | value;
	case Op::kAtomicXor: return old ^ value;
	case Op::kAtomicFAdd: return std::bit_cast<uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(value));
	case Op::kAtomicFMin:
		return std::bit_cast<uint64_t>(std::fmin(std::bit_cast<double>(old), std::bit_cast<double>(value)));
	case Op::kAtomicFMax:
		return std::bit_cast<uint64_t>(std::fmax(std::bit_cast<double>(old), std::bit_cast<double>(value)));
	default: return old;
	}
}

// Buffers may be shared with other threads: std::atomic_ref where the
// address is 8-byte aligned (std430/std140 place 64-bit scalars on 8-byte
// offsets), else under a lock.
uint64_t ApplyShared(Op op, uint8_t* address, uint64_t value, uint64_t comparator) {
	if (reinterpret_cast<uintptr_t>(address) % alignof(uint64_t) == 0) {
		std::atomic_ref<uint64_t> ref(*reinterpret_cast<uint64_t*>(address));
		uint64_t old = ref.load();
		for (;;) {
			uint64_t next = Next(op, old, value, comparator);
			if (op == Op::kAtomicLoad || (next == old && op != Op::kAtomicStore) ||
			    ref.compare_exchange_weak(old, next))
				return old;
		}
	}
	static std::mutex lock;
	std::lock_guard guard(lock);
	uint64_t old;
	memcpy(&old, address, 8);
	uint64_t next = Next(op, old, value, comparator);
	memcpy(address, &next, 8);
	return old;
}

}  // namespace

void Interpreter::ExecuteAtomic64(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
                                  bool full) {
	const Region& region = program.regions[inst.region];
	const uint32_t* address = Reg(inst.a);
	const uint32_t *value_lo = Reg(inst.b), *value_hi = Reg(inst.b_hi);
	const uint32_t *comparator_lo = Reg(inst.c), *comparator_hi = Reg(inst.c_hi);
	const uint32_t* element = Reg(inst.d);
	uint32_t *dst_lo = Reg(inst.dst), *dst_hi = Reg(inst.dst_hi);
	bool store = inst.op == Op::kAtomicStore;
	// Lane by lane in lane order, like the 32-bit atomics.
	for (uint32_t i = 0; i < lanes; ++i) {
		if (!full && !active_[i]) continue;
		uint64_t value = (uint64_t{value_hi[i]} << 32) | value_lo[i];
		uint64_t comparator = (uint64_t{comparator_hi[i]} << 32) | comparator_lo[i];
		uint64_t offset = uint64_t{address[i]} + inst.imm;
		uint64_t old = 0;
		if (region.kind == RegionKind::kPrivate) {
			// Word-major private memory: the two words are `lanes` apart. One lane owns it.
			if (offset + 8 <= region.size && offset % 4 == 0) {
				uint32_t* lo = &private_memory_[(region.base + offset / 4) * stride_ + i];
				uint32_t* hi = lo + lanes;
				old = (uint64_t{*hi} << 32) | *lo;
				uint64_t next = Next(inst.op, old, value, comparator);
				*lo = static_cast<uint32_t>(next), *hi = static_cast<uint32_t>(next >> 32);
			}
		} else if (region.kind == RegionKind::kWorkgroup) {
			// One thread runs the whole workgroup: no other thread sees this memory.
			if (offset + 8 <= region.size && offset % 4 == 0) {
				uint8_t* at = workgroup_memory_.data() + region.base + offset;
				memcpy(&old, at, 8);
				uint64_t next = Next(inst.op, old, value, comparator);
				memcpy(at, &next, 8);
			}
		} else if (region.kind == RegionKind::kPhysical) {
			// A device address (physical_memory.cpp): its high word is operand d.
			const uint64_t at = ((uint64_t{element[i]} << 32) | address[i]) + inst.imm;
			if (DeviceAddressReachable(resources, at, 8) && at % 4 == 0)
				old = ApplyShared(inst.op, reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(at)), value, comparator);
		} else {
			uint8_t* data = nullptr;
			uint64_t size = 0;
			uint64_t slot = uint64_t{region.binding} + (region.descriptor_count > 1 ? element[i] : 0);
			bool in_array = region.descriptor_count == 1 || element[i] < region.descriptor_count;
			if (in_array && slot < resources.buffers.size() && resources.buffers[slot].data) {
				data = static_cast<uint8_t*>(resources.buffers[slot].data);
				size = resources.buffers[slot].size;
			}
			// robustBufferAccess: out-of-bounds atomics are dropped and return 0.
			if (data && offset + 8 <= size && offset % 4 == 0)
				old = ApplyShared(inst.op, data + offset, value, comparator);
		}
		if (!store) dst_lo[i] = static_cast<uint32_t>(old), dst_hi[i] = static_cast<uint32_t>(old >> 32);
	}
}

}  // namespace tessera::shader
