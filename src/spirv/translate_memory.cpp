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
namespace {
// IEEE binary16 bits to the binary32 bits of the same value (exact).
uint32_t HalfToFloatBits(uint32_t h) {
	uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
	if (exponent == 0x1f) return sign | 0x7f800000u | (mantissa << 13);
	if (exponent == 0) {
		if (mantissa == 0) return sign;
		exponent = 113;  // normalize the subnormal
		while (!(mantissa & 0x400u)) mantissa <<= 1, exponent--;
		return sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
	}
	return sign | ((exponent + 112) << 23) | (mantissa << 13);
}
}  // namespace

// A literal as the register holds it: SPIR-V puts narrow values in the low
// bits (sign-extended for signed types); registers keep them zero-extended,
// halves as floats.
uint32_t Translator::ConstantBits(uint32_t literal, const ScalarInfo& scalar) {
	if (scalar.is_float && scalar.width == 16) return HalfToFloatBits(literal & 0xffffu);
	if (!scalar.is_float && !scalar.is_bool && scalar.width < 32) return literal & ((1u << scalar.width) - 1u);
	return literal;
}

uint32_t Translator::Canonical(uint32_t reg, const ScalarInfo& scalar) {
	if (scalar.is_bool || scalar.width >= 32) return reg;
	if (scalar.is_float) return Emit(Op::kQuantizeToF16, reg);
	return Emit(Op::kAnd, reg, Const((1u << scalar.width) - 1u));
}

std::vector<uint32_t> Translator::Canonical(std::vector<uint32_t> regs, uint32_t type) {
	ScalarInfo scalar = ScalarOf(type);
	for (uint32_t& reg : regs) reg = Canonical(reg, scalar);
	return regs;
}

uint32_t Translator::Emit(Op op, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
	auto key = std::make_tuple(op, a, b, c, d);
	auto it = value_numbers_.find(key);
	if (it != value_numbers_.end()) return it->second;
	uint32_t dst = NewReg();
	program_.insts.push_back({op, 0, dst, a, b, c, d, 0});
	value_numbers_[key] = dst;
	return dst;
}

// `finish` completes the instruction (atomics' high words); a variable
// pointer makes one instruction per candidate.
uint32_t Translator::EmitMemory(Op op, const Pointer& pointer, uint32_t leaf_offset, uint32_t b, uint32_t c,
                                const std::function<void(shader::Inst&)>& finish) {
	if (pointer.variable_class >= 0) return EmitVariableMemory(op, pointer, leaf_offset, b, c, finish);
	uint32_t dst = op == Op::kStore ? 0 : NewReg();
	uint32_t d = IsPhysical(pointer) ? pointer.address_hi : pointer.descriptor_index;
	shader::Inst inst{op, static_cast<uint16_t>(pointer.region), dst, pointer.dynamic, b, c, d, leaf_offset};
	program_.insts.push_back(inst);
	if (finish) finish(program_.insts.back());
	return program_.insts.back().dst;
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
		regs.push_back(Const(ConstantBits(inst[3], ScalarOf(inst[1]))));
		if (ScalarOf(inst[1]).width == 64) regs.push_back(Const(inst[4]));
		break;
	case spv::Op::OpConstantTrue:
	case spv::Op::OpSpecConstantTrue: regs.push_back(Const(1)); break;
	case spv::Op::OpConstantFalse:
	case spv::Op::OpSpecConstantFalse: regs.push_back(Const(0)); break;
	case spv::Op::OpSpecConstant:
		CheckScalar(TypeOf(inst[1]));
		regs.push_back(Const(ConstantBits(inst[3], ScalarOf(inst[1]))));
		if (ScalarOf(inst[1]).width == 64) regs.push_back(Const(inst[4]));
		break;
	case spv::Op::OpConstantNull:
	case spv::Op::OpUndef: regs.assign(LeafCount(inst[1]), 0); break;
	case spv::Op::OpConstantComposite:
	case spv::Op::OpSpecConstantComposite:  // one that spirv-opt left unfolded (an OpUndef member...)
		for (uint32_t i = 3; i < inst.n; ++i) {
			const std::vector<uint32_t>& part = Regs(inst[i]);
			regs.insert(regs.end(), part.begin(), part.end());
		}
		break;
	default: Fail("unsupported constant %s", inst.OpName());
	}
	return values_[id] = std::move(regs);
}

// An index operand: a 64-bit index uses its low word (larger ones are out of
// bounds anyway, and bounds checks catch them).
uint32_t Translator::IndexReg(uint32_t id) { return Regs(id).at(0); }

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
	// Vulkan 1.3 built-in DeviceIndex: the index of the physical device in
	// its device group, and Tessera's groups hold one device.
	case spv::BuiltIn::DeviceIndex: return builtin_regs_[builtin] = {Const(0)};
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

uint32_t Translator::AliasedWorkgroupSize() {
	if (aliased_workgroup_size_) return *aliased_workgroup_size_;
	uint32_t size = 0;
	for (const auto& [id, var] : globals_) {
		if (var.op != spv::Op::OpVariable || static_cast<spv::StorageClass>(var[3]) != spv::StorageClass::Workgroup)
			continue;
		const uint32_t pointee = TypeOf(var[1]).element;
		if (!decorations_.count(pointee) || !decorations_.at(pointee).block) continue;
		MemoryLayout layout;
		layout.explicit_layout = true;
		size = std::max(size, ExplicitSize(pointee, layout));
	}
	aliased_workgroup_size_ = size;
	return size;
}

uint32_t Translator::NewPrivateRegion(uint32_t type) {
	shader::Region region{shader::RegionKind::kPrivate, 0, program_.private_words, Size(type)};
	if ((uint64_t{program_.private_words} * 4 + region.size) > kMaxPrivateBytes)
		Fail("more than %llu bytes of private memory per invocation",
		     static_cast<unsigned long long>(kMaxPrivateBytes));
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
	// A runtime-sized array takes one slot until pipeline creation
	// (shader::kRuntimeDescriptorArray).
	const bool runtime = count == shader::kRuntimeDescriptorArray;
	if (program_.bindings.size() + uint64_t{runtime ? 1 : count} > kMaxDescriptors)
		Fail("more than %llu buffer descriptors", static_cast<unsigned long long>(kMaxDescriptors));
	region.descriptor_count = count;
	region_origins_[static_cast<uint32_t>(program_.regions.size())] = {variable, count > 1 ? UINT32_MAX : element};
	if (runtime)
		program_.bindings.push_back({var.set, var.binding, shader::kRuntimeDescriptorArray, is_storage});
	else
		for (uint32_t k = 0; k < count; ++k)
			program_.bindings.push_back({var.set, var.binding, element + k, is_storage});
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
		p.layout.explicit_layout = true;
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
		p.layout.explicit_layout = true;
		program_.push_constant_size = std::max(program_.push_constant_size, ExplicitSize(p.pointee, p.layout));
		break;
	case spv::StorageClass::Workgroup: {
		// VK_KHR_workgroup_memory_explicit_layout (SPV_KHR_workgroup_memory_
		// explicit_layout): variables of a Block type are laid out by their
		// Offset and ArrayStride decorations, and all of them share the same
		// storage: each starts at byte 0. Other Workgroup variables (a valid
		// module has none beside them) follow the largest.
		const bool block = decorations_.count(p.pointee) && decorations_.at(p.pointee).block;
		if (block) p.layout.explicit_layout = true;
		const uint32_t aliased = AliasedWorkgroupSize();
		uint32_t base = block ? 0 : (std::max(program_.workgroup_memory_size, aliased) + 15) & ~15u;
		uint32_t size = block ? ExplicitSize(p.pointee, p.layout) : Size(p.pointee);
		if (uint64_t{base} + size > kMaxWorkgroupMemory)
			Fail("more than %llu bytes of workgroup memory (maxComputeSharedMemorySize)",
			     static_cast<unsigned long long>(kMaxWorkgroupMemory));
		program_.regions.push_back({shader::RegionKind::kWorkgroup, 0, base, size});
		program_.workgroup_memory_size = std::max(program_.workgroup_memory_size, base + size);
		p.region = static_cast<uint32_t>(program_.regions.size() - 1);
		region_origins_[p.region] = {variable, 0};
		// VK_KHR_zero_initialize_workgroup_memory: a null initializer. Workgroup
		// memory is zeroed before every workgroup already.
		if (var.n > 4 && !(constants_.count(var[4]) && constants_.at(var[4]).op == spv::Op::OpConstantNull))
			Fail("Workgroup variable initializers other than null are not supported");
		break;
	}
	case spv::StorageClass::Private: p.region = NewPrivateRegion(p.pointee); break;
	case spv::StorageClass::Input:
	case spv::StorageClass::Output: {
		auto it = decorations_.find(variable);
		bool builtin = it != decorations_.end() && it->second.builtin >= 0;
		// Vertex and fragment interface variables live in private memory
		// (translate_stage.cpp); compute built-ins (and subgroup ones in any
		// stage) are registers filled before the run.
		if (stage_ != shader::Stage::kCompute && (storage == spv::StorageClass::Output || !builtin ||
		                                          IsInterfaceBuiltin(static_cast<uint32_t>(it->second.builtin)))) {
			p.region = InterfaceRegion(variable);
			// Tessellation control outputs: in the lane's patch record.
			if (stage_ == shader::Stage::kTessControl && storage == spv::StorageClass::Output)
				p.dynamic = patch_base_reg_;
			break;
		}
		if (storage == spv::StorageClass::Output) Fail("compute shaders have no output variables");
		if (!builtin) Fail("compute shader input variable %u is not a built-in", variable);
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
	if (Pointer physical; PhysicalPointer(id, physical)) return pointers_[id] = physical;
	if (constants_.count(id) && VariablePointerClass(constants_.at(id)[1]) >= 0)  // OpConstantNull: which is 0
		return pointers_[id] = PointerFromValue(Regs(id), constants_.at(id)[1]);
	if (!globals_.count(id)) Fail("id %u is not a pointer the translator knows", id);
	return pointers_[id] = VariablePointer(id);
}

void Translator::AccessChain(const Instruction& inst, bool ptr_chain) {
	Pointer p = PointerOf(inst[3]);
	uint32_t type = p.pointee;
	if (ptr_chain) PtrElement(p, inst[3], inst[4]);
	for (uint32_t i = ptr_chain ? 5 : 4; i < inst.n; ++i) {
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
				uint32_t count = array.op == spv::Op::OpTypeArray ? array.count : shader::kRuntimeDescriptorArray;
				p.region = BufferRegion(p.descriptor_variable, 0, type, count);
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
			bool explicit_layout = p.layout.explicit_layout;
			p.offset += MemberOffset(type, constant_index, explicit_layout);
			p.layout = {};
			p.layout.explicit_layout = explicit_layout;
			auto m = member_decorations_.find({type, constant_index});
			if (m != member_decorations_.end())
				p.layout.matrix_stride = m->second.matrix_stride, p.layout.row_major = m->second.row_major;
			type = t.members.at(constant_index);
			continue;
		}
		case spv::Op::OpTypeArray:
		case spv::Op::OpTypeRuntimeArray:
			stride = ArrayStride(type, p.layout.explicit_layout);
			p.layout.component_stride = 0;
			break;
		case spv::Op::OpTypeMatrix: {
			const Type& column = TypeOf(t.element);
			uint32_t element = SlotSize(column.element, p.layout.explicit_layout);
			bool row_major = p.layout.row_major && p.layout.explicit_layout;
			uint32_t matrix_stride =
			    p.layout.matrix_stride && p.layout.explicit_layout ? p.layout.matrix_stride : column.count * element;
			stride = row_major ? element : matrix_stride;
			p.layout.component_stride = row_major ? matrix_stride : 0;
			break;
		}
		case spv::Op::OpTypeVector:
			stride =
			    p.layout.component_stride ? p.layout.component_stride : SlotSize(t.element, p.layout.explicit_layout);
			break;
		default: Fail("access chain into a %s", OpcodeName(static_cast<uint32_t>(t.op)));
		}
		type = t.element;
		if (constant) {
			p.offset += constant_index * stride;
		} else if (IsPhysical(p)) {
			AddPhysicalOffset(p, index, stride);
		} else {
			uint32_t scaled = stride == 1 ? IndexReg(index) : Emit(Op::kIMul, IndexReg(index), Const(stride));
			p.dynamic = p.dynamic ? Emit(Op::kIAdd, p.dynamic, scaled) : scaled;
		}
	}
	p.pointee = type;
	pointers_[inst[2]] = p;
	if (IsPhysical(p)) {  // also a 64-bit value (stored, converted, passed through phis)
		result_types_[inst[2]] = inst[1];
		Define(inst[2], PhysicalAddress(p));
	}
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
		std::vector<uint32_t> out(all.begin() + first, all.begin() + first + count);
		// A dynamic index (p.dynamic, in bytes; glslang's copy of a mask into
		// an array indexed by the invocation, once the optimizer forwards it):
		// each leaf selected among the places the index may name.
		if (p.dynamic)
			for (uint32_t k = 1; first + k + count <= all.size(); ++k) {
				const uint32_t here = Emit(Op::kIEqual, p.dynamic, Const(4 * k));
				for (uint32_t j = 0; j < count; ++j) out[j] = Emit(Op::kSelect, here, all[first + k + j], out[j]);
			}
		return out;
	}
	if (p.region == kNoRegion && p.variable_class < 0) Fail("load through an unresolved pointer");
	if (p.region != kNoRegion && p.region == helper_region_) return {HelperValue()};  // the HelperInvocation built-in
	std::vector<Leaf> leaves;
	MemoryLeaves(p.pointee, p.offset, p.layout, leaves);
	std::vector<uint32_t> regs;
	for (const Leaf& leaf : leaves) {
		uint32_t width = p.layout.explicit_layout ? leaf.scalar.width : 32;
		uint32_t reg = EmitMemory(width == 8 ? Op::kLoad8 : width == 16 ? Op::kLoad16 : Op::kLoad, p, leaf.offset);
		if (width == 16 && leaf.scalar.is_float) reg = Emit(Op::kHalfBitsToFloat, reg);
		regs.push_back(reg);
	}
	return regs;
}

void Translator::Store(const Pointer& p, const std::vector<uint32_t>& values) {
	if (p.region == kNoRegion && p.variable_class < 0) Fail("store through a pointer the translator cannot write");
	shader::RegionKind kind =
	    p.variable_class >= 0 ? shader::RegionKind::kStorageBuffer : program_.regions[p.region].kind;
	if (kind == shader::RegionKind::kUniformBuffer || kind == shader::RegionKind::kPushConstant)
		Fail("store to read-only memory");
	std::vector<Leaf> leaves;
	MemoryLeaves(p.pointee, p.offset, p.layout, leaves);
	if (leaves.size() != values.size())
		Fail("store of a value that does not match its pointer (%zu words into %zu)", values.size(), leaves.size());
	for (size_t k = 0; k < leaves.size(); ++k) {
		uint32_t width = p.layout.explicit_layout ? leaves[k].scalar.width : 32;
		uint32_t value = values[k];
		if (width == 16 && leaves[k].scalar.is_float) value = Emit(Op::kFloatToHalfBits, value);
		EmitMemory(width == 8 ? Op::kStore8 : width == 16 ? Op::kStore16 : Op::kStore, p, leaves[k].offset, value);
	}
}

void Translator::Atomic(const Instruction& inst) {
	// OpAtomicStore has no result; the others: result type, result, pointer, scope, semantics...
	bool store = inst.op == spv::Op::OpAtomicStore;
	const Pointer& p = PointerOf(store ? inst[1] : inst[3]);
	if (p.region == kNoRegion && p.variable_class < 0) Fail("atomic through an unresolved pointer");
	ScalarInfo scalar = ScalarOf(p.pointee);
	// Floats (VK_EXT_shader_atomic_float and float2): load, store and
	// exchange move the bits as integers do; OpAtomicF{Add,Min,Max}EXT.
	const spv::Op type = TypeOf(p.pointee).op;
	const bool float_op = inst.op == spv::Op::OpAtomicLoad || inst.op == spv::Op::OpAtomicStore ||
	                      inst.op == spv::Op::OpAtomicExchange || inst.op == spv::Op::OpAtomicFAddEXT ||
	                      inst.op == spv::Op::OpAtomicFMinEXT || inst.op == spv::Op::OpAtomicFMaxEXT;
	if ((type != spv::Op::OpTypeInt && !(type == spv::Op::OpTypeFloat && float_op)) ||
	    (scalar.width != 32 && scalar.width != 64))
		Fail("atomics on %u-bit values are not supported", scalar.width);
	if (!store) result_types_[inst[2]] = inst[1];
	Op op = Op::kAtomicLoad;
	// Operand registers: low word, high word (64-bit).
	std::vector<uint32_t> value = {0, 0}, comparator = {0, 0};
	auto operand = [&](uint32_t id) {
		std::vector<uint32_t> regs = Regs(id);
		regs.resize(2, 0);
		return regs;
	};
	switch (inst.op) {
	case spv::Op::OpAtomicLoad: break;
	case spv::Op::OpAtomicStore: op = Op::kAtomicStore, value = operand(inst[4]); break;
	case spv::Op::OpAtomicExchange: op = Op::kAtomicExchange, value = operand(inst[6]); break;
	case spv::Op::OpAtomicCompareExchange:
		op = Op::kAtomicCompareExchange, value = operand(inst[7]), comparator = operand(inst[8]);
		break;
	case spv::Op::OpAtomicIIncrement: op = Op::kAtomicIAdd, value = {Const(1), 0}; break;
	case spv::Op::OpAtomicIDecrement: op = Op::kAtomicISub, value = {Const(1), 0}; break;
	case spv::Op::OpAtomicIAdd: op = Op::kAtomicIAdd, value = operand(inst[6]); break;
	case spv::Op::OpAtomicISub: op = Op::kAtomicISub, value = operand(inst[6]); break;
	case spv::Op::OpAtomicSMin: op = Op::kAtomicSMin, value = operand(inst[6]); break;
	case spv::Op::OpAtomicUMin: op = Op::kAtomicUMin, value = operand(inst[6]); break;
	case spv::Op::OpAtomicSMax: op = Op::kAtomicSMax, value = operand(inst[6]); break;
	case spv::Op::OpAtomicUMax: op = Op::kAtomicUMax, value = operand(inst[6]); break;
	case spv::Op::OpAtomicAnd: op = Op::kAtomicAnd, value = operand(inst[6]); break;
	case spv::Op::OpAtomicOr: op = Op::kAtomicOr, value = operand(inst[6]); break;
	case spv::Op::OpAtomicXor: op = Op::kAtomicXor, value = operand(inst[6]); break;
	case spv::Op::OpAtomicFAddEXT: op = Op::kAtomicFAdd, value = operand(inst[6]); break;
	case spv::Op::OpAtomicFMinEXT: op = Op::kAtomicFMin, value = operand(inst[6]); break;
	case spv::Op::OpAtomicFMaxEXT: op = Op::kAtomicFMax, value = operand(inst[6]); break;
	default: Fail("unsupported atomic %s", inst.OpName());
	}
	std::vector<Leaf> leaves;
	MemoryLeaves(p.pointee, p.offset, p.layout, leaves);
	std::vector<uint32_t> highs;  // one per instruction (a variable pointer's candidates)
	auto finish = [&](shader::Inst& emitted) {
		if (store) emitted.dst = 0;
		if (scalar.width != 64) return;
		emitted.wide = true;
		emitted.b_hi = value[1], emitted.c_hi = comparator[1];
		emitted.dst_hi = store ? 0 : NewReg();
		if (!store) highs.push_back(emitted.dst_hi);
	};
	uint32_t old = EmitMemory(op, p, leaves[0].offset, value[0], comparator[0], finish);
	uint32_t old_hi = 0;
	for (uint32_t high : highs) old_hi = old_hi ? Emit(Op::kOr, old_hi, high) : high;
	if (store) return;
	if (scalar.width == 64)
		Define(inst[2], {old, old_hi});
	else
		Define(inst[2], {old});
}

void Translator::TranslateMemoryOrValue(const Instruction& inst) {
	if (TranslateImage(inst)) return;
	if (TranslateVariablePointer(inst)) return;
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
	case spv::Op::OpPtrAccessChain:
	case spv::Op::OpInBoundsPtrAccessChain: AccessChain(inst, true); return;
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
		if (p.variable_class >= 0) Fail("OpArrayLength through a variable pointer");  // SPIR-V 1.6 §2.16.1
		uint32_t dst = EmitMemory(Op::kArrayLength, p, p.offset + MemberOffset(p.pointee, member, true));
		program_.insts.back().a = 0;
		program_.insts.back().b = ArrayStride(array_type, true);
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
	case spv::Op::OpAtomicXor:
	case spv::Op::OpAtomicFAddEXT:
	case spv::Op::OpAtomicFMinEXT:
	case spv::Op::OpAtomicFMaxEXT: Atomic(inst); return;
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
	if (TranslatePhysical(inst)) return;
	if (TranslateStageOp(inst)) return;
	if (!TranslateValue(inst)) Fail("unsupported SPIR-V instruction %s", inst.OpName());
}

}  // namespace tessera::spirv
