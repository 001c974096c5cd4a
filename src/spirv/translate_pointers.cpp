// SPIR-V to IR: variable pointers (SPV_KHR_variable_pointers, capabilities
// VariablePointersStorageBuffer and VariablePointers).
//
// A variable pointer is one that OpSelect, OpPhi, OpLoad, OpPtrAccessChain,
// OpCopyObject or OpConstantNull made (SPIR-V 1.6 §2.2.2): which variable it
// points into may differ from lane to lane and be known only at run time.
// Only StorageBuffer and Workgroup pointers may be dereferenced so (§2.16.1).
//
// As a value a variable pointer is three words: `which` (1 + the index of
// its variable among the candidates of its storage class, 0 for a null
// pointer), the descriptor index (an array of buffer blocks), and the byte
// offset. The candidates of a class are every variable of that class the
// entry point's code names, each with its region; a descriptor array is one
// arrayed region. A load, store or atomic through a variable pointer is one
// access per candidate: lanes that point elsewhere get an offset past any
// buffer or workgroup memory, so their loads read zero and their stores and
// atomics are dropped, as robustBufferAccess does with any out-of-bounds
// access; the loads' results are OR-ed. Fixed pointers (the usual kind) are
// untouched: a fixed pointer becomes a value only where it meets a variable
// one (a select, a phi, a store to memory, a comparison).
#include <algorithm>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

namespace {
// An offset no buffer (maxStorageBufferRange is 2^30) or workgroup memory
// reaches, even with an access chain's constant added.
constexpr uint32_t kNowhere = 0xffffffffu;
}  // namespace

int8_t Translator::VariablePointerClass(uint32_t pointer_type) {
	auto it = types_.find(pointer_type);
	if (it == types_.end() || it->second.op != spv::Op::OpTypePointer) return -1;
	switch (it->second.storage) {
	case spv::StorageClass::StorageBuffer: return kStorageBufferPointers;
	case spv::StorageClass::Workgroup: return kWorkgroupPointers;
	default: return -1;
	}
}

uint32_t Translator::PointerTypeOf(uint32_t id) {
	auto it = result_types_.find(id);
	if (it != result_types_.end()) return it->second;
	auto global = globals_.find(id);
	if (global != globals_.end()) return global->second[1];
	auto constant = constants_.find(id);
	if (constant != constants_.end()) return constant->second[1];
	return 0;
}

const Translator::PointerCandidates& Translator::Candidates(int8_t pointer_class) {
	PointerCandidates& candidates = pointer_candidates_[pointer_class];
	if (candidates.built) return candidates;
	candidates.built = true;
	const spv::StorageClass storage =
	    pointer_class == kStorageBufferPointers ? spv::StorageClass::StorageBuffer : spv::StorageClass::Workgroup;
	// The variables the code names (an operand word that only looks like
	// one adds a candidate no lane points at, nothing worse).
	auto named = [&](uint32_t id) {
		auto it = globals_.find(id);
		return it != globals_.end() && static_cast<spv::StorageClass>(it->second[3]) == storage;
	};
	for (const SourceBlock& block : blocks_)
		for (const Instruction& inst : block.body)
			for (uint32_t i = 1; i < inst.n; ++i)
				if (named(inst.w[i])) candidates.variables.push_back(inst.w[i]);
	std::sort(candidates.variables.begin(), candidates.variables.end());
	candidates.variables.erase(std::unique(candidates.variables.begin(), candidates.variables.end()),
	                           candidates.variables.end());
	for (uint32_t variable : candidates.variables) {
		Pointer p = PointerOf(variable);
		if (p.descriptor_variable) {
			const Type& array = TypeOf(p.pointee);
			uint32_t count = array.op == spv::Op::OpTypeArray ? array.count : shader::kRuntimeDescriptorArray;
			p.region = BufferRegion(variable, 0, array.element, count);
		}
		candidates.regions.push_back(p.region);
	}
	return candidates;
}

// [which, descriptor index, byte offset] of a pointer of `pointer_class`.
std::vector<uint32_t> Translator::PointerValue(const Pointer& p, int8_t pointer_class) {
	auto offset = [&] {
		if (!p.dynamic) return Const(p.offset);
		return p.offset ? Emit(Op::kIAdd, p.dynamic, Const(p.offset)) : p.dynamic;
	};
	if (p.layout.matrix_stride || p.layout.row_major || p.layout.component_stride)
		Fail("a variable pointer into a matrix");  // SPIR-V 1.6 §2.16.1 forbids it
	if (p.variable_class >= 0) {
		if (p.variable_class != pointer_class) Fail("a variable pointer changes storage class");
		return {p.which, p.descriptor_index, offset()};
	}
	if (p.descriptor_variable) Fail("a variable pointer to an array of buffer blocks");
	auto origin = region_origins_.find(p.region);
	if (p.region == kNoRegion || origin == region_origins_.end())
		Fail("a pointer that cannot be a variable pointer (not into a storage buffer or workgroup variable)");
	const PointerCandidates& candidates = Candidates(pointer_class);
	auto it = std::find(candidates.variables.begin(), candidates.variables.end(), origin->second.first);
	if (it == candidates.variables.end()) Fail("a variable pointer into a variable the code does not name");
	uint32_t which = Const(static_cast<uint32_t>(it - candidates.variables.begin()) + 1);
	uint32_t element = origin->second.second;
	uint32_t index = element != UINT32_MAX ? Const(element) : p.descriptor_index ? p.descriptor_index : Const(0);
	return {which, index, offset()};
}

Pointer Translator::PointerFromValue(const std::vector<uint32_t>& regs, uint32_t pointer_type) {
	int8_t pointer_class = VariablePointerClass(pointer_type);
	if (pointer_class < 0 || regs.size() != 3)
		Fail("a variable pointer that is not into a storage buffer or workgroup");
	Pointer p;
	p.variable_class = pointer_class;
	p.which = regs[0];
	p.descriptor_index = regs[1];
	p.dynamic = regs[2];
	p.pointee = TypeOf(pointer_type).element;
	p.layout.explicit_layout = pointer_class == kStorageBufferPointers;
	return p;
}

uint32_t Translator::EmitVariableMemory(Op op, const Pointer& pointer, uint32_t leaf_offset, uint32_t b, uint32_t c,
                                        const std::function<void(shader::Inst&)>& finish) {
	const PointerCandidates& candidates = Candidates(pointer.variable_class);
	uint32_t result = 0;
	for (size_t k = 0; k < candidates.regions.size(); ++k) {
		Pointer target = pointer;
		target.variable_class = -1;
		target.region = candidates.regions[k];
		uint32_t here = Emit(Op::kIEqual, pointer.which, Const(static_cast<uint32_t>(k) + 1));
		target.dynamic = Emit(Op::kSelect, here, pointer.dynamic, Const(kNowhere));
		uint32_t dst = EmitMemory(op, target, leaf_offset, b, c, finish);
		if (dst) result = result ? Emit(Op::kOr, result, dst) : dst;
	}
	return result;
}

// Phis of pointers get their registers before any block is emitted: note
// them as variable pointers, and which pointers flow into them, so that
// those get their values in their own blocks.
void Translator::NoteVariablePointerPhis() {
	for (const SourceBlock& block : blocks_)
		for (const Instruction& inst : block.body) {
			if (inst.op != spv::Op::OpPhi || VariablePointerClass(inst[1]) < 0) continue;
			pointers_[inst[2]] = PointerFromValue(values_.at(inst[2]), inst[1]);
			for (uint32_t i = 3; i + 1 < inst.n; i += 2) pointer_phi_operands_[inst[i]] = inst[1];
		}
}

void Translator::DefinePointerValue(uint32_t id) {
	auto it = pointer_phi_operands_.find(id);
	if (it == pointer_phi_operands_.end() || values_.count(id) || !pointers_.count(id)) return;
	Define(id, PointerValue(pointers_.at(id), VariablePointerClass(it->second)));
}

bool Translator::TranslateVariablePointer(const Instruction& inst) {
	switch (inst.op) {
	case spv::Op::OpSelect: {
		int8_t pointer_class = VariablePointerClass(inst[1]);
		if (pointer_class < 0) return false;
		const Pointer a = PointerOf(inst[4]), b = PointerOf(inst[5]);
		std::vector<uint32_t> x = PointerValue(a, pointer_class), y = PointerValue(b, pointer_class);
		uint32_t condition = Scalar(inst[3]);
		std::vector<uint32_t> regs;
		for (size_t k = 0; k < 3; ++k) regs.push_back(x[k] == y[k] ? x[k] : Emit(Op::kSelect, condition, x[k], y[k]));
		result_types_[inst[2]] = inst[1];
		Define(inst[2], regs);
		pointers_[inst[2]] = PointerFromValue(regs, inst[1]);
		return true;
	}
	case spv::Op::OpLoad: {  // a pointer kept in a Function or Private variable
		if (VariablePointerClass(inst[1]) < 0) return false;
		result_types_[inst[2]] = inst[1];
		Define(inst[2], Load(PointerOf(inst[3])));
		pointers_[inst[2]] = PointerFromValue(values_.at(inst[2]), inst[1]);
		return true;
	}
	case spv::Op::OpStore: {
		int8_t pointer_class = VariablePointerClass(PointerTypeOf(inst[2]));
		if (pointer_class < 0) return false;
		Store(PointerOf(inst[1]), PointerValue(PointerOf(inst[2]), pointer_class));
		return true;
	}
	case spv::Op::OpCopyObject:
	case spv::Op::OpCopyLogical: {
		if (VariablePointerClass(inst[1]) < 0) return false;
		result_types_[inst[2]] = inst[1];
		pointers_[inst[2]] = PointerOf(inst[3]);
		if (values_.count(inst[3])) Define(inst[2], values_.at(inst[3]));
		return true;
	}
	case spv::Op::OpPtrEqual:
	case spv::Op::OpPtrNotEqual: {
		int8_t pointer_class = VariablePointerClass(PointerTypeOf(inst[3]));
		if (pointer_class < 0)
			Fail("%s on pointers that are not into storage buffers or workgroup memory", inst.OpName());
		std::vector<uint32_t> x = PointerValue(PointerOf(inst[3]), pointer_class);
		std::vector<uint32_t> y = PointerValue(PointerOf(inst[4]), pointer_class);
		uint32_t equal = Emit(Op::kLogicalAnd, Emit(Op::kIEqual, x[0], y[0]),
		                      Emit(Op::kLogicalAnd, Emit(Op::kIEqual, x[1], y[1]), Emit(Op::kIEqual, x[2], y[2])));
		result_types_[inst[2]] = inst[1];
		Define(inst[2], {inst.op == spv::Op::OpPtrEqual ? equal : Emit(Op::kLogicalNot, equal)});
		return true;
	}
	case spv::Op::OpPtrDiff: {
		// Elements between the two (SPIR-V 1.6 §3.42.8): the byte distance
		// over the element's stride, the pointer type's ArrayStride where
		// decorated.
		uint32_t type = PointerTypeOf(inst[3]);
		int8_t pointer_class = VariablePointerClass(type);
		if (pointer_class < 0) Fail("OpPtrDiff on pointers that are not into storage buffers or workgroup memory");
		auto decorated = decorations_.find(type);
		uint32_t stride = decorated != decorations_.end() ? decorated->second.array_stride : 0;
		uint32_t pointee = TypeOf(type).element;
		if (!stride)
			stride =
			    pointer_class == kStorageBufferPointers ? ExplicitSize(pointee, MemoryLayout{true}) : Size(pointee);
		if (!stride) Fail("OpPtrDiff on pointers to a type of no size");
		std::vector<uint32_t> x = PointerValue(PointerOf(inst[3]), pointer_class);
		std::vector<uint32_t> y = PointerValue(PointerOf(inst[4]), pointer_class);
		uint32_t elements = Emit(Op::kSDiv, Emit(Op::kISub, x[2], y[2]), Const(stride));
		result_types_[inst[2]] = inst[1];
		if (ScalarOf(inst[1]).width == 64)
			Define(inst[2], {elements, Emit(Op::kShiftRightArithmetic, elements, Const(31))});
		else
			Define(inst[2], Canonical({elements}, inst[1]));
		return true;
	}
	default: return false;
	}
}

}  // namespace tessera::spirv
