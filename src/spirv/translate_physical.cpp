// SPIR-V to IR: device addresses (PhysicalStorageBuffer pointers, capability
// PhysicalStorageBufferAddresses, GLSL GL_EXT_buffer_reference).
//
// A physical pointer is a 64-bit value like any other (two registers, low
// word first): it is loaded from and stored to memory, passed through phis
// and selects, converted to and from integers (OpConvertUToPtr,
// OpConvertPtrToU, OpBitcast). Used as a pointer it becomes a Pointer into
// the program's one kPhysical region: `dynamic` is the low word of the
// address, `address_hi` the high word, `offset` a constant added by the
// memory op. Access chains add their dynamic indices to the 64-bit address
// and fold constant ones into `offset`; the result is also defined as a value
// (the 64-bit sum) for the uses that need one.
#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

bool Translator::IsPhysicalPointerType(uint32_t type_id) {
	auto it = types_.find(type_id);
	return it != types_.end() && it->second.op == spv::Op::OpTypePointer &&
	       it->second.storage == spv::StorageClass::PhysicalStorageBuffer;
}

bool Translator::IsPhysical(const Pointer& p) const {
	return p.region != kNoRegion && program_.regions[p.region].kind == shader::RegionKind::kPhysical;
}

bool Translator::PhysicalPointer(uint32_t id, Pointer& out) {
	auto type = result_types_.find(id);
	if (type == result_types_.end() || !IsPhysicalPointerType(type->second)) return false;
	if (!values_.count(id) && !constants_.count(id)) return false;
	const std::vector<uint32_t>& regs = Regs(id);
	if (regs.size() != 2) Fail("id %u: a device address is not 64 bits", id);
	if (physical_region_ == kNoRegion) {
		program_.regions.push_back({shader::RegionKind::kPhysical});
		physical_region_ = static_cast<uint32_t>(program_.regions.size() - 1);
	}
	out = {};
	out.region = physical_region_;
	out.pointee = TypeOf(type->second).element;
	out.dynamic = regs[0];
	out.address_hi = regs[1];
	out.layout.explicit_layout = true;
	return true;
}

// address += index * stride, the index a signed 32-bit or 64-bit integer.
void Translator::AddPhysicalOffset(Pointer& p, uint32_t index_id, uint32_t stride) {
	const std::vector<uint32_t>& index = Regs(index_id);
	uint32_t lo = 0, hi = 0;
	if (index.size() == 2) {
		lo = Emit(Op::kIMul64Lo, index[0], index[1], Const(stride), 0);
		hi = Emit(Op::kIMul64Hi, index[0], index[1], Const(stride), 0);
	} else {
		// SPIR-V indices are signed: a 32-bit index is sign-extended.
		lo = Emit(Op::kIMul, index.at(0), Const(stride));
		hi = Emit(Op::kSMulHigh, index.at(0), Const(stride));
	}
	uint32_t sum_lo = Emit(Op::kIAdd64Lo, p.dynamic, p.address_hi, lo, hi);
	p.address_hi = Emit(Op::kIAdd64Hi, p.dynamic, p.address_hi, lo, hi);
	p.dynamic = sum_lo;
}

// The 64-bit value of a physical pointer with its constant offset added.
std::vector<uint32_t> Translator::PhysicalAddress(const Pointer& p) {
	if (!p.offset) return {p.dynamic, p.address_hi};
	uint32_t offset = Const(p.offset);
	return {Emit(Op::kIAdd64Lo, p.dynamic, p.address_hi, offset, 0),
	        Emit(Op::kIAdd64Hi, p.dynamic, p.address_hi, offset, 0)};
}

// OpPtrAccessChain's Element operand: whole elements of the pointee, the
// stride is the ArrayStride decoration of the base's pointer type (SPIR-V
// 1.6 §3.42.8). Besides device addresses, storage buffer and workgroup
// pointers can be indexed so (variable pointers); a workgroup pointer's type
// need not be decorated, and then its elements are packed.
void Translator::PtrElement(Pointer& p, uint32_t base_id, uint32_t element_id) {
	const uint32_t type = PointerTypeOf(base_id);
	auto d = decorations_.find(type);
	uint32_t stride = d != decorations_.end() ? d->second.array_stride : 0;
	if (!IsPhysical(p)) {
		int8_t pointer_class = VariablePointerClass(type);
		if (pointer_class < 0)
			Fail("OpPtrAccessChain on a pointer that is not into a storage buffer or workgroup memory");
		if (!stride && pointer_class == kWorkgroupPointers && !p.layout.explicit_layout) stride = Size(p.pointee);
		if (!stride) Fail("OpPtrAccessChain through a pointer type without ArrayStride");
		uint32_t scaled = Emit(Op::kIMul, IndexReg(element_id), Const(stride));
		p.dynamic = p.dynamic ? Emit(Op::kIAdd, p.dynamic, scaled) : scaled;
		return;
	}
	if (!stride) Fail("OpPtrAccessChain through a pointer type without ArrayStride");
	std::vector<uint32_t> address = PhysicalAddress(p);
	p.dynamic = address[0], p.address_hi = address[1], p.offset = 0;
	AddPhysicalOffset(p, element_id, stride);
}

bool Translator::TranslatePhysical(const Instruction& inst) {
	switch (inst.op) {
	case spv::Op::OpConvertUToPtr: {
		// A narrower integer is zero-extended (SPIR-V 1.6 §3.42.11).
		std::vector<uint32_t> regs = Regs(inst[3]);
		if (regs.size() == 1) regs.push_back(0);
		result_types_[inst[2]] = inst[1];
		Define(inst[2], regs);
		return true;
	}
	case spv::Op::OpConvertPtrToU: {
		std::vector<uint32_t> regs = Regs(inst[3]);
		if (LeafCount(inst[1]) == 1) regs.resize(1);  // a 32-bit result keeps the low word
		result_types_[inst[2]] = inst[1];
		Define(inst[2], Canonical(regs, inst[1]));
		return true;
	}
	default: return false;
	}
}

}  // namespace tessera::spirv
