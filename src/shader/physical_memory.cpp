// Loads, stores and atomics through device addresses (SPIR-V
// PhysicalStorageBuffer, GLSL GL_EXT_buffer_reference). A device address is
// the host pointer of the buffer memory (vkGetBufferDeviceAddress).
//
// Vulkan 1.3 §15.9.1: robustBufferAccess does not apply to these accesses,
// and an access outside any buffer is undefined behaviour for the
// application. The host process must still survive it where that is cheap:
// with Resources::check_device_addresses each access is looked up in the
// sorted list of live device-memory ranges (a binary search per lane) and
// dropped when it falls outside (loads read 0, like robustness); without it
// only the null page is refused. Unaligned addresses (the Aligned operand is
// a promise the application makes) are accessed with memcpy, which is fine
// on the host; atomics need 4-byte alignment and are dropped otherwise.
#include <algorithm>
#include <cstring>

#include "shader/interpreter.h"
#include "shader/memory_ops.h"

namespace tessera::shader {
namespace {

constexpr uint64_t kNullPage = 4096;

}  // namespace

bool DeviceAddressReachable(const Resources& resources, uint64_t address, uint32_t width) {
	if (address < kNullPage || address > UINT64_MAX - width) return false;
	if (!resources.check_device_addresses) return true;
	std::span<const AddressRange> ranges = resources.device_memory;
	// The last range that begins at or before the address.
	auto it = std::upper_bound(ranges.begin(), ranges.end(), address,
	                           [](uint64_t a, const AddressRange& r) { return a < r.begin; });
	if (it == ranges.begin()) return false;
	--it;
	return address + width <= it->end;
}

namespace {

uint32_t Width(Op op) {
	switch (op) {
	case Op::kLoad8:
	case Op::kStore8: return 1;
	case Op::kLoad16:
	case Op::kStore16: return 2;
	default: return 4;
	}
}

}  // namespace

void Interpreter::ExecutePhysical(const Inst& inst, const Resources& resources, uint32_t lanes, bool full) {
	const uint32_t* low = Reg(inst.a);
	const uint32_t* high = Reg(inst.d);
	const uint32_t* value = Reg(inst.b);
	const uint32_t* comparator = Reg(inst.c);
	uint32_t* dst = Reg(inst.dst);
	const uint32_t width = Width(inst.op);
	for (uint32_t i = 0; i < lanes; ++i) {
		if (!full && !active_[i]) continue;
		uint64_t address = ((uint64_t{high[i]} << 32) | low[i]) + inst.imm;
		bool reachable = DeviceAddressReachable(resources, address, width);
		auto* bytes = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address));
		switch (inst.op) {
		case Op::kLoad:
		case Op::kLoad16:
		case Op::kLoad8: {
			uint32_t loaded = 0;
			if (reachable) memcpy(&loaded, bytes, width);  // little-endian
			dst[i] = loaded;
			break;
		}
		case Op::kStore:
		case Op::kStore16:
		case Op::kStore8:
			if (reachable) memcpy(bytes, &value[i], width);
			break;
		case Op::kArrayLength: dst[i] = 0; break;  // the front end never emits it here
		default: {
			uint32_t old = 0;
			if (reachable && address % 4 == 0)
				old = AtomicApply(inst.op, reinterpret_cast<uint32_t*>(bytes), value[i], comparator[i]);
			if (inst.op != Op::kAtomicStore) dst[i] = old;
			break;
		}
		}
	}
}

}  // namespace tessera::shader
