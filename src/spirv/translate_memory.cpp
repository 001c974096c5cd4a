// SPIR-V to IR: variables, pointers, access chains, loads, stores, atomics.
#include <cstring>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::Op;

uint32_t Translator::Const(uint32_t bits) {
	auto it = constant_regs_.find(bits);
	if (it != constant_regs_.end()) return it->second;
	uint32_t reg = NewReg();
	program_.constants.push_back({reg, bits});
	constant_regs_[bits] = reg;
	return reg;
}

// Arithmetic is pure: the same op on the same registers within a block is
// computed once (access chains to the same element, repeated indices).
uint32_t Translator::Emit(Op op, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
	auto key = std::make_tuple(op, a, b, c, d);
	auto it = value_numbers_.find(key);
	if (it != value_numbers_.end()) return it->second;
	uint32_t dst = NewReg();
	program_.insts.push_back({op, 0, dst, a, b, c, d, 0});
	value_numbers_[key] = dst;
	return dst;
}

uint32_t Translator::EmitMemory(Op op, const Pointer& pointer, uint32_t leaf_offset, uint32_t b, uint32_t c) {
	uint32_t dst = op == Op::kStore ? 0 : NewReg();
	shader::Inst inst{
	    op, static_cast<uint16_t>(pointer.region), dst, pointer.dynamic, b, c, pointer.descriptor_index, leaf_offset};
	program_.insts.push_back(inst);
	return dst;
}

const std::vector<uint32_t>& Translator::Regs(uint32_t id) {
	auto it = values_.find(id);
	if (it != values_.end()) return it->second;
	auto c = constants_.find(id);
	if (c == constants_.end()) Fail("use of id %u before its definition, or of an unsupported value", id);
	const Instruction& inst = c->second;
	std::vector<uint32_t> regs;
	switch (inst.op) {
	case spv::Op::OpConstant:
		CheckScalar(TypeOf(inst[1]));
		regs.push_back(Const(inst[3]));
		break;
	case spv::Op::OpConstantTrue:
	case spv::Op::OpSpecConstantTrue: regs.push_back(Const(1)); break;
	case spv::Op::OpConstantFalse:
	case spv::Op::OpSpecConstantFalse: regs.push_back(Const(0)); break;
	case spv::Op::OpSpecConstant:
		CheckScalar(TypeOf(inst[1]));
		regs.push_back(Const(inst[3]));
		break;
	case spv::Op::OpConstantNull:
	case spv::Op::OpUndef: regs.assign(LeafCount(inst[1]), 0); break;
	case spv::Op::OpConstantComposite:
		for (uint32_t i = 3; i < inst.n; ++i) {
			const std::vector<uint32_t>& part = Regs(inst[i]);
			regs.insert(regs.end(), part.begin(), part.end());
		}
		break;
	default: Fail("unsupported constant %s", inst.OpName());
	}
	return values_[id] = std::move(regs);
}

uint32_t Translator::Scalar(uint32_t id) {
	const std::vector<uint32_t>& regs = Regs(id);
	if (regs.size() != 1) Fail("id %u: expected a scalar", id);
	return regs[0];
}

std::vector<uint32_t>& Translator::BuiltinRegisters(uint32_t builtin) {
	auto it = builtin_regs_.find(builtin);
	if (it != builtin_regs_.end()) return it->second;
	shader::Builtin kind;
	uint32_t components = 3;
	switch (static_cast<spv::BuiltIn>(builtin)) {
	case spv::BuiltIn::LocalInvocationId: kind = shader::Builtin::kLocalInvocationId; break;
	case spv::BuiltIn::GlobalInvocationId: kind = shader::Builtin::kGlobalInvocationId; break;
	case spv::BuiltIn::WorkgroupId: kind = shader::Builtin::kWorkgroupId; break;
	case spv::BuiltIn::NumWorkgroups: kind = shader::Builtin::kNumWorkgroups; break;
	case spv::BuiltIn::LocalInvocationIndex:
		kind = shader::Builtin::kLocalInvocationIndex;
		components = 1;
		break;
	case spv::BuiltIn::SubgroupLocalInvocationId:
		kind = shader::Builtin::kSubgroupLocalInvocationId;
		components = 1;
		program_.uses_subgroups = true;
		break;
	case spv::BuiltIn::SubgroupId:
		kind = shader::Builtin::kSubgroupId;
		components = 1;
		program_.uses_subgroups = true;
		break;
	case spv::BuiltIn::SubgroupSize: return builtin_regs_[builtin] = {Const(shader::kSubgroupSize)};
	case spv::BuiltIn::NumSubgroups:
		return builtin_regs_[builtin] = {
		           Const((program_.InvocationsPerWorkgroup() + shader::kSubgroupSize - 1) / shader::kSubgroupSize)};
	default: Fail("unsupported built-in %s", BuiltInName(builtin));
	}
	std::vector<uint32_t> regs;
	for (uint32_t c = 0; c < components; ++c) {
		regs.push_back(NewReg());
		program_.builtins.push_back({regs.back(), kind, c});
	}
	return builtin_regs_[builtin] = regs;
}

uint32_t Translator::NewPrivateRegion(uint32_t type) {
	shader::Region region{shader::RegionKind::kPrivate, 0, program_.private_words, Size(type)};
	program_.private_words += (region.size + 3) / 4;
	program_.regions.push_back(region);
	return static_cast<uint32_t>(program_.regions.size() - 1);
}

// One descriptor (count 1), or a whole descriptor array indexed at run time
// (element 0, count = the array length).
uint32_t Translator::BufferRegion(uint32_t variable, uint32_t element, uint32_t block_type, uint32_t count) {
	auto key = std::make_tuple(variable, count > 1 ? UINT32_MAX : element);
	auto it = buffer_regions_.find(key);
	if (it != buffer_regions_.end()) return it->second;
	const Decorations& var = decorations_[variable];
	const Decorations& block = decorations_[block_type];
	auto storage = static_cast<spv::StorageClass>(globals_.at(variable)[3]);
	// SPIR-V 1.0-1.2 modules spell storage buffers as Uniform + BufferBlock.
	bool is_storage = storage == spv::StorageClass::StorageBuffer || block.buffer_block;
	shader::Region region{is_storage ? shader::RegionKind::kStorageBuffer : shader::RegionKind::kUniformBuffer,
	                      static_cast<uint32_t>(program_.bindings.size())};
	region.descriptor_count = count;
	for (uint32_t k = 0; k < count; ++k) program_.bindings.push_back({var.set, var.binding, element + k, is_storage});
	program_.regions.push_back(region);
	return buffer_regions_[key] = static_cast<uint32_t>(program_.regions.size() - 1);
}

Pointer Translator::VariablePointer(uint32_t variable) {
	const Instruction& var = globals_.at(variable);
	Pointer p;
	p.pointee = TypeOf(var[1]).element;
	auto storage = static_cast<spv::StorageClass>(var[3]);
	switch (storage) {
	case spv::StorageClass::StorageBuffer:
	case spv::StorageClass::Uniform: {
		const Type& t = TypeOf(p.pointee);
		if (t.op == spv::Op::OpTypeArray || t.op == spv::Op::OpTypeRuntimeArray)
			p.descriptor_variable = variable;
		else
			p.region = BufferRegion(variable, 0, p.pointee);
		break;
	}
	case spv::StorageClass::PushConstant:
		program_.regions.push_back({shader::RegionKind::kPushConstant});
		p.region = static_cast<uint32_t>(program_.regions.size() - 1);
		program_.push_constant_size = std::max(program_.push_constant_size, Size(p.pointee));
		break;
	case spv::StorageClass::Workgroup: {
		uint32_t base = (program_.workgroup_memory_size + 15) & ~15u;
		uint32_t size = Size(p.pointee);
		program_.regions.push_back({shader::RegionKind::kWorkgroup, 0, base, size});
		program_.workgroup_memory_size = base + size;
		p.region = static_cast<uint32_t>(program_.regions.size() - 1);
		// VK_KHR_zero_initialize_workgroup_memory: a null initializer. Workgroup
		// memory is zeroed before every workgroup already.
		if (var.n > 4 && !(constants_.count(var[4]) && constants_.at(var[4]).op == spv::Op::OpConstantNull))
			Fail("Workgroup variable initializers other than null are not supported");
		break;
	}
	case spv::StorageClass::Private: p.region = NewPrivateRegion(p.pointee); break;
	case spv::StorageClass::Input: {
		auto it = decorations_.find(variable);
		if (it == decorations_.end() || it->second.builtin < 0)
			Fail("compute shader input variable %u is not a built-in", variable);
		p.builtin_variable = variable;
		break;
	}
	case spv::StorageClass::UniformConstant: Fail("images and samplers are not supported yet");
	default: Fail("variables in storage class %s are not supported", StorageClassName(var[3]));
	}
	return p;
}

Pointer& Translator::PointerOf(uint32_t id) {
	auto it = pointers_.find(id);
	if (it != pointers_.end()) return it->second;
	if (!globals_.count(id)) Fail("id %u is not a pointer the translator knows", id);
	return pointers_[id] = VariablePointer(id);
}

void Translator::AccessChain(const Instruction& inst) {
	Pointer p = PointerOf(inst[3]);
	uint32_t type = p.pointee;
	for (uint32_t i = 4; i < inst.n; ++i) {
		uint32_t index = inst[i];
		auto c = constants_.find(index);
		bool constant = c != constants_.end() && c->second.op == spv::Op::OpConstant;
		uint32_t constant_index = constant ? c->second[3] : 0;
		if (p.descriptor_variable) {
			// Vulkan 1.3 §15.6: an array of buffer blocks is an array of descriptors.
			const Type& array = TypeOf(type);
			type = array.element;
			if (constant) {
				p.region = BufferRegion(p.descriptor_variable, constant_index, type);
			} else {
				if (array.op != spv::Op::OpTypeArray) Fail("runtime-sized descriptor arrays are not supported yet");
				p.region = BufferRegion(p.descriptor_variable, 0, type, array.count);
				p.descriptor_index = Scalar(index);
			}
			p.descriptor_variable = 0;
			continue;
		}
		const Type& t = TypeOf(type);
		uint32_t stride = 0;
		switch (t.op) {
		case spv::Op::OpTypeStruct: {
			if (!constant) Fail("struct member index is not a constant");
			p.offset += MemberOffset(type, constant_index);
			p.layout = {};
			auto m = member_decorations_.find({type, constant_index});
			if (m != member_decorations_.end())
				p.layout.matrix_stride = m->second.matrix_stride, p.layout.row_major = m->second.row_major;
			type = t.members.at(constant_index);
			continue;
		}
		case spv::Op::OpTypeArray:
		case spv::Op::OpTypeRuntimeArray:
			stride = ArrayStride(type);
			p.layout.component_stride = 4;
			break;
		case spv::Op::OpTypeMatrix: {
			uint32_t rows = TypeOf(t.element).count;
			uint32_t matrix_stride = p.layout.matrix_stride ? p.layout.matrix_stride : rows * 4;
			stride = p.layout.row_major ? 4 : matrix_stride;
			p.layout.component_stride = p.layout.row_major ? matrix_stride : 4;
			break;
		}
		case spv::Op::OpTypeVector: stride = p.layout.component_stride; break;
		default: Fail("access chain into a %s", OpcodeName(static_cast<uint32_t>(t.op)));
		}
		type = t.element;
		if (constant) {
			p.offset += constant_index * stride;
		} else if (p.builtin_variable) {
			Fail("dynamic index into a built-in");
		} else {
			uint32_t scaled = stride == 1 ? Scalar(index) : Emit(Op::kIMul, Scalar(index), Const(stride));
			p.dynamic = p.dynamic ? Emit(Op::kIAdd, p.dynamic, scaled) : scaled;
		}
	}
	p.pointee = type;
	pointers_[inst[2]] = p;
}

std::vector<uint32_t> Translator::Load(const Pointer& p) {
	if (p.builtin_variable) {
		auto builtin = static_cast<spv::BuiltIn>(decorations_.at(p.builtin_variable).builtin);
		// The masks are computed where they are loaded (not cached: the block
		// computing them need not dominate the next load).
		bool mask = builtin == spv::BuiltIn::SubgroupEqMask || builtin == spv::BuiltIn::SubgroupGeMask ||
		            builtin == spv::BuiltIn::SubgroupGtMask || builtin == spv::BuiltIn::SubgroupLeMask ||
		            builtin == spv::BuiltIn::SubgroupLtMask;
		std::vector<uint32_t> masks;
		if (mask) masks = SubgroupMask(builtin);
		const std::vector<uint32_t>& all = mask ? masks : BuiltinRegisters(decorations_.at(p.builtin_variable).builtin);
		uint32_t first = p.offset / 4, count = LeafCount(p.pointee);
		if (first + count > all.size()) Fail("built-in access out of range");
		return {all.begin() + first, all.begin() + first + count};
	}
	if (p.region == kNoRegion) Fail("load through an unresolved pointer");
	std::vector<uint32_t> offsets;
	MemoryLeaves(p.pointee, p.offset, p.layout, offsets);
	std::vector<uint32_t> regs;
	for (uint32_t offset : offsets) regs.push_back(EmitMemory(Op::kLoad, p, offset));
	return regs;
}

void Translator::Store(const Pointer& p, const std::vector<uint32_t>& values) {
	if (p.region == kNoRegion) Fail("store through a pointer the translator cannot write");
	shader::RegionKind kind = program_.regions[p.region].kind;
	if (kind == shader::RegionKind::kUniformBuffer || kind == shader::RegionKind::kPushConstant)
		Fail("store to read-only memory");
	std::vector<uint32_t> offsets;
	MemoryLeaves(p.pointee, p.offset, p.layout, offsets);
	if (offsets.size() != values.size()) Fail("store of a value that does not match its pointer");
	for (size_t k = 0; k < offsets.size(); ++k) EmitMemory(Op::kStore, p, offsets[k], values[k]);
}

void Translator::Atomic(const Instruction& inst) {
	// OpAtomicStore has no result; the others: result type, result, pointer, scope, semantics...
	bool store = inst.op == spv::Op::OpAtomicStore;
	const Pointer& p = PointerOf(store ? inst[1] : inst[3]);
	if (p.region == kNoRegion) Fail("atomic through an unresolved pointer");
	if (LeafCount(p.pointee) != 1) Fail("atomic on a composite");
	if (!store) result_types_[inst[2]] = inst[1];
	Op op = Op::kAtomicLoad;
	uint32_t value = 0, comparator = 0;
	switch (inst.op) {
	case spv::Op::OpAtomicLoad: break;
	case spv::Op::OpAtomicStore: op = Op::kAtomicStore, value = Scalar(inst[4]); break;
	case spv::Op::OpAtomicExchange: op = Op::kAtomicExchange, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicCompareExchange:
		op = Op::kAtomicCompareExchange, value = Scalar(inst[7]), comparator = Scalar(inst[8]);
		break;
	case spv::Op::OpAtomicIIncrement: op = Op::kAtomicIAdd, value = Const(1); break;
	case spv::Op::OpAtomicIDecrement: op = Op::kAtomicISub, value = Const(1); break;
	case spv::Op::OpAtomicIAdd: op = Op::kAtomicIAdd, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicISub: op = Op::kAtomicISub, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicSMin: op = Op::kAtomicSMin, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicUMin: op = Op::kAtomicUMin, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicSMax: op = Op::kAtomicSMax, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicUMax: op = Op::kAtomicUMax, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicAnd: op = Op::kAtomicAnd, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicOr: op = Op::kAtomicOr, value = Scalar(inst[6]); break;
	case spv::Op::OpAtomicXor: op = Op::kAtomicXor, value = Scalar(inst[6]); break;
	default: Fail("unsupported atomic %s", inst.OpName());
	}
	std::vector<uint32_t> offsets;
	MemoryLeaves(p.pointee, p.offset, p.layout, offsets);
	uint32_t old = EmitMemory(op, p, offsets[0], value, comparator);
	if (store)
		program_.insts.back().dst = 0;
	else
		Define(inst[2], {old});
}

void Translator::TranslateMemoryOrValue(const Instruction& inst) {
	switch (inst.op) {
	case spv::Op::OpVariable: {
		// Function-scope variable: one private copy per lane.
		result_types_[inst[2]] = inst[1];
		Pointer p;
		p.pointee = TypeOf(inst[1]).element;
		p.region = NewPrivateRegion(p.pointee);
		pointers_[inst[2]] = p;
		if (inst.n > 4) Store(p, Regs(inst[4]));
		return;
	}
	case spv::Op::OpAccessChain:
	case spv::Op::OpInBoundsAccessChain: AccessChain(inst); return;
	case spv::Op::OpLoad:
		result_types_[inst[2]] = inst[1];
		Define(inst[2], Load(PointerOf(inst[3])));
		return;
	case spv::Op::OpStore: Store(PointerOf(inst[1]), Regs(inst[2])); return;
	case spv::Op::OpCopyMemory: {
		const Pointer& source = PointerOf(inst[2]);
		Store(PointerOf(inst[1]), Load(source));
		return;
	}
	case spv::Op::OpArrayLength: {
		result_types_[inst[2]] = inst[1];
		Pointer p = PointerOf(inst[3]);
		uint32_t member = inst[4];
		uint32_t array_type = TypeOf(p.pointee).members.at(member);
		uint32_t dst = EmitMemory(Op::kArrayLength, p, p.offset + MemberOffset(p.pointee, member));
		program_.insts.back().a = 0;
		program_.insts.back().b = ArrayStride(array_type);
		Define(inst[2], {dst});
		return;
	}
	case spv::Op::OpAtomicLoad:
	case spv::Op::OpAtomicStore:
	case spv::Op::OpAtomicExchange:
	case spv::Op::OpAtomicCompareExchange:
	case spv::Op::OpAtomicIIncrement:
	case spv::Op::OpAtomicIDecrement:
	case spv::Op::OpAtomicIAdd:
	case spv::Op::OpAtomicISub:
	case spv::Op::OpAtomicSMin:
	case spv::Op::OpAtomicUMin:
	case spv::Op::OpAtomicSMax:
	case spv::Op::OpAtomicUMax:
	case spv::Op::OpAtomicAnd:
	case spv::Op::OpAtomicOr:
	case spv::Op::OpAtomicXor: Atomic(inst); return;
	case spv::Op::OpMemoryBarrier:
		// One thread runs a workgroup and buffer atomics are sequentially
		// consistent: memory is already ordered.
	case spv::Op::OpNop:
	case spv::Op::OpLine:
	case spv::Op::OpNoLine:
	case spv::Op::OpName:
	case spv::Op::OpMemberName:
	case spv::Op::OpLoopMerge:
	case spv::Op::OpSelectionMerge: return;
	default: break;
	}
	if (!TranslateValue(inst)) Fail("unsupported SPIR-V instruction %s", inst.OpName());
}

}  // namespace tessera::spirv
