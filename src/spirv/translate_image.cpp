// Images, samplers and texel buffers: UniformConstant variables (and arrays
// of them) become Program::image_bindings slots, loaded images and samplers
// become handles (slot + per-lane array index), and each image instruction
// becomes kImageArg copies of its operands, one kImage (Program::image_ops)
// and kImageResult reads of its result components. See shader/README.md.
#include <algorithm>
#include <cstring>

#include "spirv/names.h"
#include "spirv/translator.h"

namespace tessera::spirv {

using shader::ImageOperation;
using shader::ImageOpKind;
using shader::Op;

namespace {

struct ImageType {
	uint32_t sampled_type = 0;
	spv::Dim dim = spv::Dim::Dim2D;
	uint32_t depth = 0;
	bool arrayed = false;
	bool multisampled = false;
	uint32_t sampled = 0;  // 1: sampled, 2: storage
};

// A loaded image, sampler or sampled image: which descriptors it names.
struct Handle {
	uint32_t image_type = 0;  // OpTypeImage id (0 for a sampler)
	uint32_t slot = 0, count = 1, index = 0;
	uint32_t sampler = ImageOperation::kNone, sampler_count = 1, sampler_index = 0;
};

// A pointer into a UniformConstant variable, possibly indexed.
struct HandlePointer {
	uint32_t variable = 0;
	uint32_t element = 0;  // constant element
	uint32_t index = 0;    // register: dynamic element (0: none)
	bool indexed = false;  // an element was chosen
};

struct TexelPointer {
	Handle image;
	std::vector<uint32_t> coord;
	uint32_t sample = 0;
};

// The number of coordinates that address a texel in a layer.
uint32_t Dimensions(spv::Dim dim) {
	switch (dim) {
	case spv::Dim::Dim1D:
	case spv::Dim::Buffer: return 1;
	case spv::Dim::Dim3D:
	case spv::Dim::Cube: return 3;
	default: return 2;
	}
}

}  // namespace

struct Translator::ImageState {
	bool parsed = false;
	std::unordered_map<uint32_t, ImageType> image_types;
	std::unordered_map<uint32_t, uint32_t> sampled_image_types;             // OpTypeSampledImage -> OpTypeImage
	std::unordered_map<uint32_t, uint32_t> sampler_types;                   // OpTypeSampler ids (value unused)
	std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> variables;  // variable -> (first slot, count)
	std::unordered_map<uint32_t, HandlePointer> pointers;
	std::unordered_map<uint32_t, Handle> handles;
	std::unordered_map<uint32_t, TexelPointer> texel_pointers;
	uint32_t frag_coord_regions[2] = {kNoRegion, kNoRegion};  // subpass inputs: FragCoord x, y words
	uint32_t view_index_region = kNoRegion;                   // subpass inputs: the layer read
};

namespace {

void ParseImageTypes(std::span<const uint32_t> words, Translator::ImageState& s) {
	for (size_t pos = 5; pos < words.size();) {
		uint32_t count = words[pos] >> 16;
		if (count == 0 || pos + count > words.size()) break;
		auto op = static_cast<spv::Op>(words[pos] & 0xffff);
		const uint32_t* w = &words[pos];
		if (op == spv::Op::OpTypeImage && count >= 9) {
			ImageType t;
			t.sampled_type = w[2];
			t.dim = static_cast<spv::Dim>(w[3]);
			t.depth = w[4];
			t.arrayed = w[5] != 0;
			t.multisampled = w[6] != 0;
			t.sampled = w[7];
			s.image_types[w[1]] = t;
		} else if (op == spv::Op::OpTypeSampledImage && count >= 3) {
			s.sampled_image_types[w[1]] = w[2];
		} else if (op == spv::Op::OpTypeSampler && count >= 2) {
			s.sampler_types[w[1]] = 1;
		} else if (op == spv::Op::OpFunction) {
			break;  // types come before functions
		}
		pos += count;
	}
	s.parsed = true;
}

}  // namespace

bool Translator::TranslateImage(const Instruction& inst) {
	if (!images_) images_ = std::make_shared<ImageState>();
	ImageState& s = *images_;
	if (!s.parsed) ParseImageTypes(words_, s);

	// The image type behind a type id (image, sampled image) or 0.
	auto image_type_of = [&](uint32_t type) -> uint32_t {
		if (s.image_types.count(type)) return type;
		auto it = s.sampled_image_types.find(type);
		return it != s.sampled_image_types.end() ? it->second : 0;
	};
	auto is_handle_type = [&](uint32_t type) {
		return s.image_types.count(type) || s.sampled_image_types.count(type) || s.sampler_types.count(type);
	};
	// A UniformConstant variable holding images or samplers: its slots.
	auto variable_slots = [&](uint32_t variable) -> std::pair<uint32_t, uint32_t> {
		auto it = s.variables.find(variable);
		if (it != s.variables.end()) return it->second;
		const Instruction& var = globals_.at(variable);
		uint32_t type = TypeOf(var[1]).element;
		uint32_t count = 1;
		const Type& t = TypeOf(type);
		const bool runtime = t.op == spv::Op::OpTypeRuntimeArray;
		if (t.op == spv::Op::OpTypeArray || runtime) {
			// A runtime-sized array: one slot until pipeline creation gives it
			// the layout's count (shader::kRuntimeDescriptorArray).
			count = runtime ? shader::kRuntimeDescriptorArray : t.count;
			type = t.element;
		}
		if (!is_handle_type(type)) Fail("UniformConstant variable %u is not an image or sampler", variable);
		if (!runtime && (count == 0 || count > kMaxDescriptors)) Fail("descriptor array of %u elements", count);
		shader::ImageDescriptorKind kind = shader::ImageDescriptorKind::kSampler;
		if (s.sampled_image_types.count(type)) {
			kind = shader::ImageDescriptorKind::kCombinedImageSampler;
		} else if (auto image = s.image_types.find(type); image != s.image_types.end()) {
			bool buffer = image->second.dim == spv::Dim::Buffer;
			// Subpass inputs (VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) are read
			// like storage images.
			if (image->second.sampled == 2 || image->second.dim == spv::Dim::SubpassData)
				kind = buffer ? shader::ImageDescriptorKind::kStorageTexelBuffer
				              : shader::ImageDescriptorKind::kStorageImage;
			else
				kind = buffer ? shader::ImageDescriptorKind::kUniformTexelBuffer
				              : shader::ImageDescriptorKind::kSampledImage;
		}
		const Decorations& d = decorations_[variable];
		uint32_t first = static_cast<uint32_t>(program_.image_bindings.size());
		if (runtime)
			program_.image_bindings.push_back({d.set, d.binding, shader::kRuntimeDescriptorArray, kind});
		else
			for (uint32_t k = 0; k < count; ++k) program_.image_bindings.push_back({d.set, d.binding, k, kind});
		return s.variables[variable] = {first, count};
	};
	auto is_uniform_constant = [&](uint32_t id) {
		auto it = globals_.find(id);
		return it != globals_.end() &&
		       static_cast<spv::StorageClass>(it->second[3]) == spv::StorageClass::UniformConstant;
	};
	auto pointer_of = [&](uint32_t id) -> const HandlePointer* {
		auto it = s.pointers.find(id);
		if (it != s.pointers.end()) return &it->second;
		if (!is_uniform_constant(id)) return nullptr;
		return &(s.pointers[id] = HandlePointer{id});
	};
	auto handle_of = [&](uint32_t id) -> const Handle& {
		auto it = s.handles.find(id);
		if (it == s.handles.end()) Fail("id %u is not an image or sampler the translator knows", id);
		return it->second;
	};
	// (The first kImageArg of this instruction: a sparse lookup repeats them.)
	size_t first_image_arg = SIZE_MAX;
	auto arg = [&](uint32_t slot, uint32_t reg) {
		first_image_arg = std::min(first_image_arg, program_.insts.size());
		program_.insts.push_back({Op::kImageArg, 0, 0, reg, 0, 0, 0, slot});
	};
	auto coordinates = [&](uint32_t id) {
		std::vector<uint32_t> regs = Regs(id);
		return regs;
	};
	// Emits the operation; returns its result registers (count of them).
	auto emit = [&](ImageOperation op, const Handle& h, uint32_t results) {
		op.image = h.slot;
		op.image_count = h.count;
		op.sampler = h.sampler;
		op.sampler_count = h.sampler_count;
		if (h.count > 1) arg(shader::kArgImageIndex, h.index);
		if (h.sampler != ImageOperation::kNone && h.sampler_count > 1) arg(shader::kArgSamplerIndex, h.sampler_index);
		uint32_t index = static_cast<uint32_t>(program_.image_ops.size());
		program_.image_ops.push_back(op);
		std::vector<uint32_t> regs;
		uint32_t first = NewReg();
		program_.insts.push_back({Op::kImage, 0, first, 0, 0, 0, 0, index});
		regs.push_back(first);
		for (uint32_t c = 1; c < results; ++c) {
			uint32_t reg = NewReg();
			program_.insts.push_back({Op::kImageResult, 0, reg, 0, 0, 0, 0, c});
			regs.push_back(reg);
		}
		return regs;
	};
	auto result_components = [&](uint32_t type) {
		const Type& t = TypeOf(type);
		if (ScalarOf(type).width != 32) Fail("%s: only 32-bit image results are supported", inst.OpName());
		return t.op == spv::Op::OpTypeVector ? t.count : 1u;
	};
	auto constant_value = [&](uint32_t id) -> uint32_t {
		auto c = constants_.find(id);
		if (c == constants_.end() || c->second.op != spv::Op::OpConstant)
			Fail("%s: operand is not a constant", inst.OpName());
		return c->second[3];
	};

	switch (inst.op) {
	case spv::Op::OpAccessChain:
	case spv::Op::OpInBoundsAccessChain: {
		const HandlePointer* base = pointer_of(inst[3]);
		if (!base) return false;
		HandlePointer p = *base;
		if (inst.n > 5 || p.indexed) Fail("arrays of arrays of images are not supported");
		if (inst.n == 5) {
			p.indexed = true;
			auto c = constants_.find(inst[4]);
			if (c != constants_.end() && c->second.op == spv::Op::OpConstant)
				p.element = c->second[3];
			else
				p.index = Scalar(inst[4]);
		}
		s.pointers[inst[2]] = p;
		return true;
	}
	case spv::Op::OpLoad: {
		const HandlePointer* p = pointer_of(inst[3]);
		if (!p) return false;
		auto [first, count] = variable_slots(p->variable);
		Handle h;
		h.image_type = image_type_of(inst[1]);
		if (p->index) {
			h.slot = first, h.count = count, h.index = p->index;
		} else if (count == shader::kRuntimeDescriptorArray) {
			h.slot = first, h.count = count, h.index = Const(p->element);  // slots come at pipeline creation
		} else {
			// A constant element past the array names no descriptor (reads zero).
			h.slot = p->element < count ? first + p->element : static_cast<uint32_t>(~0u >> 1);
			h.count = 1;
		}
		if (s.sampler_types.count(inst[1])) h.image_type = 0;
		s.handles[inst[2]] = h;
		return true;
	}
	case spv::Op::OpCopyObject:
		if (!s.handles.count(inst[3])) return false;
		s.handles[inst[2]] = s.handles[inst[3]];
		return true;
	case spv::Op::OpSampledImage: {
		Handle h = handle_of(inst[3]);
		const Handle& sampler = handle_of(inst[4]);
		h.sampler = sampler.slot, h.sampler_count = sampler.count, h.sampler_index = sampler.index;
		s.handles[inst[2]] = h;
		return true;
	}
	case spv::Op::OpImage: {
		Handle h = handle_of(inst[3]);
		h.sampler = ImageOperation::kNone;
		h.image_type = image_type_of(inst[1]);
		s.handles[inst[2]] = h;
		return true;
	}
	case spv::Op::OpImageTexelPointer: {
		const HandlePointer* p = pointer_of(inst[3]);
		if (!p) Fail("OpImageTexelPointer on an unknown image");
		auto [first, count] = variable_slots(p->variable);
		TexelPointer t;
		if (p->index)
			t.image.slot = first, t.image.count = count, t.image.index = p->index;
		else if (count == shader::kRuntimeDescriptorArray)
			t.image.slot = first, t.image.count = count, t.image.index = Const(p->element);
		else
			t.image.slot = p->element < count ? first + p->element : static_cast<uint32_t>(~0u >> 1);
		t.coord = coordinates(inst[4]);
		t.sample = Scalar(inst[5]);
		s.texel_pointers[inst[2]] = t;
		return true;
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
	case spv::Op::OpAtomicFMaxEXT: {
		// (R32_SFLOAT texels hold float bits: the float ops and load, store
		// and exchange apply to them as to buffer words.)
		bool store = inst.op == spv::Op::OpAtomicStore;
		uint32_t pointer = store ? inst[1] : inst[3];
		auto it = s.texel_pointers.find(pointer);
		if (it == s.texel_pointers.end()) return false;
		const TexelPointer& t = it->second;
		if (!store && ScalarOf(inst[1]).width != 32) Fail("64-bit image atomics are not supported");
		ImageOperation op;
		op.kind = ImageOpKind::kAtomic;
		op.has_sample = true;
		uint32_t value = 0, comparator = 0;
		switch (inst.op) {
		case spv::Op::OpAtomicLoad: op.atomic = Op::kAtomicLoad; break;
		case spv::Op::OpAtomicStore: op.atomic = Op::kAtomicStore, value = Scalar(inst[4]); break;
		case spv::Op::OpAtomicExchange: op.atomic = Op::kAtomicExchange, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicCompareExchange:
			op.atomic = Op::kAtomicCompareExchange, value = Scalar(inst[7]), comparator = Scalar(inst[8]);
			break;
		case spv::Op::OpAtomicIIncrement: op.atomic = Op::kAtomicIAdd, value = Const(1); break;
		case spv::Op::OpAtomicIDecrement: op.atomic = Op::kAtomicISub, value = Const(1); break;
		case spv::Op::OpAtomicIAdd: op.atomic = Op::kAtomicIAdd, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicISub: op.atomic = Op::kAtomicISub, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicSMin: op.atomic = Op::kAtomicSMin, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicUMin: op.atomic = Op::kAtomicUMin, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicSMax: op.atomic = Op::kAtomicSMax, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicUMax: op.atomic = Op::kAtomicUMax, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicAnd: op.atomic = Op::kAtomicAnd, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicOr: op.atomic = Op::kAtomicOr, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicXor: op.atomic = Op::kAtomicXor, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicFAddEXT: op.atomic = Op::kAtomicFAdd, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicFMinEXT: op.atomic = Op::kAtomicFMin, value = Scalar(inst[6]); break;
		case spv::Op::OpAtomicFMaxEXT: op.atomic = Op::kAtomicFMax, value = Scalar(inst[6]); break;
		default: break;
		}
		for (uint32_t c = 0; c < t.coord.size() && c < 4; ++c) arg(shader::kArgCoord + c, t.coord[c]);
		arg(shader::kArgSample, t.sample);
		arg(shader::kArgValue, value);
		arg(shader::kArgComparator, comparator);
		std::vector<uint32_t> regs = emit(op, t.image, 1);
		if (!store) Define(inst[2], regs);
		return true;
	}
	default: break;
	}

	// The image instructions proper. A sparse lookup (OpImageSparse*, the
	// same operands) is its lookup plus a kResidency operation, its result
	// the struct (residency code, texel).
	spv::Op opcode = inst.op;
	bool sparse = true;
	switch (inst.op) {
	case spv::Op::OpImageSparseSampleImplicitLod: opcode = spv::Op::OpImageSampleImplicitLod; break;
	case spv::Op::OpImageSparseSampleExplicitLod: opcode = spv::Op::OpImageSampleExplicitLod; break;
	case spv::Op::OpImageSparseSampleDrefImplicitLod: opcode = spv::Op::OpImageSampleDrefImplicitLod; break;
	case spv::Op::OpImageSparseSampleDrefExplicitLod: opcode = spv::Op::OpImageSampleDrefExplicitLod; break;
	case spv::Op::OpImageSparseFetch: opcode = spv::Op::OpImageFetch; break;
	case spv::Op::OpImageSparseGather: opcode = spv::Op::OpImageGather; break;
	case spv::Op::OpImageSparseDrefGather: opcode = spv::Op::OpImageDrefGather; break;
	case spv::Op::OpImageSparseRead: opcode = spv::Op::OpImageRead; break;
	case spv::Op::OpImageSparseTexelsResident:
		// Resident: code 0 (ImageOpKind::kResidency).
		Define(inst[2], {Emit(Op::kIEqual, Scalar(inst[3]), Const(0))});
		return true;
	default: sparse = false; break;
	}
	bool proj = false, dref = false, implicit = false;
	ImageOperation op;
	uint32_t operands_at = 0;  // word of the Image Operands mask (0: none)
	switch (opcode) {
	case spv::Op::OpImageSampleProjImplicitLod: proj = true; [[fallthrough]];
	case spv::Op::OpImageSampleImplicitLod: implicit = true, op.kind = ImageOpKind::kSample, operands_at = 5; break;
	case spv::Op::OpImageSampleProjExplicitLod: proj = true; [[fallthrough]];
	case spv::Op::OpImageSampleExplicitLod: op.kind = ImageOpKind::kSample, operands_at = 5; break;
	case spv::Op::OpImageSampleProjDrefImplicitLod: proj = true; [[fallthrough]];
	case spv::Op::OpImageSampleDrefImplicitLod:
		implicit = true, dref = true, op.kind = ImageOpKind::kSample, operands_at = 6;
		break;
	case spv::Op::OpImageSampleProjDrefExplicitLod: proj = true; [[fallthrough]];
	case spv::Op::OpImageSampleDrefExplicitLod: dref = true, op.kind = ImageOpKind::kSample, operands_at = 6; break;
	case spv::Op::OpImageFetch: op.kind = ImageOpKind::kFetch, operands_at = 5; break;
	case spv::Op::OpImageRead: op.kind = ImageOpKind::kRead, operands_at = 5; break;
	case spv::Op::OpImageWrite: op.kind = ImageOpKind::kWrite, operands_at = 4; break;
	case spv::Op::OpImageGather: op.kind = ImageOpKind::kGather, operands_at = 6; break;
	case spv::Op::OpImageDrefGather: dref = true, op.kind = ImageOpKind::kGather, operands_at = 6; break;
	case spv::Op::OpImageQuerySizeLod:
	case spv::Op::OpImageQuerySize: op.kind = ImageOpKind::kQuerySize; break;
	case spv::Op::OpImageQueryLevels: op.kind = ImageOpKind::kQueryLevels; break;
	case spv::Op::OpImageQuerySamples: op.kind = ImageOpKind::kQuerySamples; break;
	case spv::Op::OpImageQueryLod: implicit = true, op.kind = ImageOpKind::kQueryLod; break;
	default: return false;
	}
	const bool write = op.kind == ImageOpKind::kWrite;
	const Handle& h = handle_of(write ? inst[1] : inst[3]);
	auto type = s.image_types.find(h.image_type);
	if (type == s.image_types.end()) Fail("%s: not an image", inst.OpName());
	const ImageType& image = type->second;
	const uint32_t dims = Dimensions(image.dim);
	op.implicit_lod = implicit;

	if (op.kind == ImageOpKind::kQuerySize || op.kind == ImageOpKind::kQueryLevels ||
	    op.kind == ImageOpKind::kQuerySamples) {
		if (inst.op == spv::Op::OpImageQuerySizeLod) {
			op.has_lod = true;
			arg(shader::kArgLod, Scalar(inst[4]));
		}
		Define(inst[2], emit(op, h, result_components(inst[1])));
		return true;
	}

	// Coordinates (and the projective division, Vulkan 1.3 §16.2.1: s, t, r
	// and Dref divided by q, the component after the coordinates).
	std::vector<uint32_t> coord = coordinates(write ? inst[2] : inst[4]);
	uint32_t needed = dims + (image.arrayed ? 1 : 0);
	if (op.kind == ImageOpKind::kQueryLod) needed = dims;
	// Storage reads and writes of cube images address (x, y, face), a cube
	// array's face being layer * 6 + face: three coordinates, arrayed or not
	// (Vulkan "Cube Map Face Selection": the face layer of image operations
	// that take integer coordinates).
	if (image.dim == spv::Dim::Cube && (op.kind == ImageOpKind::kRead || write)) needed = 3;
	uint32_t q = 0;
	if (proj) {
		if (coord.size() <= dims) Fail("%s: no q component", inst.OpName());
		q = coord[dims];
		needed = dims;
	}
	if (coord.size() < needed) Fail("%s: %zu coordinates, %u needed", inst.OpName(), coord.size(), needed);
	coord.resize(std::min<size_t>(needed, 4));
	if (proj)
		for (uint32_t& c : coord) c = Emit(Op::kFDiv, c, q);
	if (image.dim == spv::Dim::SubpassData) {
		// Vulkan 1.3 §16.1 "Input Attachments" (OpImageRead of SubpassData):
		// the texel at the fragment's integer (x, y) (FragCoord truncated)
		// plus the coordinate operand (a constant, 0 in GLSL).
		// The layer is the view index (multiview reads layer ViewIndex of an
		// arrayed attachment view; ViewIndex is 0 without multiview).
		if (stage_ != shader::Stage::kFragment) Fail("subpass inputs outside a fragment shader");
		for (uint32_t c = 0; c < 2; ++c) {
			uint32_t frag = NewReg();
			program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(FragCoordRegion(c)), frag});
			coord[c] = Emit(Op::kIAdd, coord[c], Emit(Op::kFloatToSigned, frag));
		}
		ImageState& state = *images_;
		if (state.view_index_region == kNoRegion)
			state.view_index_region = BuiltinInputRegion(spv::BuiltIn::ViewIndex, shader::InterfaceBuiltin::kViewIndex,
			                                             0, shader::ScalarKind::kUint);
		uint32_t layer = NewReg();
		program_.insts.push_back({Op::kLoad, static_cast<uint16_t>(state.view_index_region), layer});
		coord.push_back(layer);
	}
	// Every operand is computed before the first kImageArg: the operation
	// reads its operands' registers in place, so no instruction may write a
	// register between them and it (a projective Dref's division there could
	// take a coordinate's register, which register allocation sees free).
	uint32_t reference = 0;
	if (dref) {
		op.has_dref = true;
		reference = Scalar(inst[5]);
		if (proj) reference = Emit(Op::kFDiv, reference, q);
	}
	for (uint32_t c = 0; c < coord.size(); ++c) arg(shader::kArgCoord + c, coord[c]);
	if (dref) arg(shader::kArgDref, reference);
	if (op.kind == ImageOpKind::kGather && !dref) op.component = static_cast<uint8_t>(constant_value(inst[5]) & 3);
	if (write) {
		std::vector<uint32_t> texel = Regs(inst[3]);
		for (uint32_t c = 0; c < 4; ++c) arg(shader::kArgTexel + c, c < texel.size() ? texel[c] : 0);
	}

	// Image Operands, in the order of their mask bits.
	if (operands_at && inst.n > operands_at) {
		uint32_t mask = inst[operands_at];
		uint32_t at = operands_at + 1;
		auto next = [&] { return inst[at++]; };
		auto vector_arg = [&](uint32_t first_slot, uint32_t id) {
			const std::vector<uint32_t>& regs = Regs(id);
			for (uint32_t c = 0; c < 3; ++c) arg(first_slot + c, c < regs.size() && c < dims ? regs[c] : 0);
		};
		using M = spv::ImageOperandsMask;
		auto has = [&](M bit) { return (mask & static_cast<uint32_t>(bit)) != 0; };
		if (has(M::Bias)) op.has_bias = true, arg(shader::kArgLod, Scalar(next()));
		if (has(M::Lod)) {
			op.has_lod = true, op.implicit_lod = false;
			arg(shader::kArgLod, Scalar(next()));
		}
		if (has(M::Grad)) {
			op.has_grad = true, op.implicit_lod = false;
			vector_arg(shader::kArgDdx, next());
			vector_arg(shader::kArgDdy, next());
		}
		if (has(M::ConstOffset)) op.has_offset = true, vector_arg(shader::kArgOffset, next());
		if (has(M::Offset)) op.has_offset = true, vector_arg(shader::kArgOffset, next());
		if (has(M::ConstOffsets)) {
			// A constant array of four ivec2.
			uint32_t id = next();
			auto c = constants_.find(id);
			if (c == constants_.end() || c->second.op != spv::Op::OpConstantComposite || c->second.n < 7)
				Fail("ConstOffsets is not a constant array");
			op.has_const_offsets = true;
			for (uint32_t k = 0; k < 4; ++k) {
				auto v = constants_.find(c->second[3 + k]);
				if (v == constants_.end() || v->second.op != spv::Op::OpConstantComposite || v->second.n < 5)
					Fail("ConstOffsets element is not a constant vector");
				op.const_offsets[k][0] = static_cast<int32_t>(constant_value(v->second[3]));
				op.const_offsets[k][1] = static_cast<int32_t>(constant_value(v->second[4]));
			}
		}
		if (has(M::Sample)) op.has_sample = true, arg(shader::kArgSample, Scalar(next()));
		if (has(M::MinLod)) op.has_min_lod = true, arg(shader::kArgMinLod, Scalar(next()));
		if (has(M::MakeTexelAvailable)) next();  // scope: memory is coherent already
		if (has(M::MakeTexelVisible)) next();
		if (has(M::Offsets)) Fail("the Offsets image operand is not supported");
	}
	if (op.implicit_lod) program_.uses_derivatives = true;

	if (write) {
		emit(op, h, 1);
		return true;
	}
	const size_t first_arg = first_image_arg == SIZE_MAX ? program_.insts.size() : first_image_arg;
	if (sparse && (TypeOf(inst[1]).op != spv::Op::OpTypeStruct || TypeOf(inst[1]).members.size() != 2))
		Fail("%s: the result is not a struct of a code and a texel", inst.OpName());
	uint32_t results = result_components(sparse ? TypeOf(inst[1]).members[1] : inst[1]);
	std::vector<uint32_t> regs = emit(op, h, std::max(results, 1u));
	regs.resize(results);
	if (sparse) {
		// The residency operation reads the same operand registers: their
		// kImageArg instructions again (emit adds the descriptor indices).
		const size_t end = program_.insts.size();
		for (size_t i = first_arg; i < end; ++i) {
			const auto inst_copy = program_.insts[i];
			if (inst_copy.op == Op::kImageArg && inst_copy.imm != shader::kArgImageIndex &&
			    inst_copy.imm != shader::kArgSamplerIndex)
				program_.insts.push_back(inst_copy);
		}
		ImageOperation residency = op;
		residency.kind = ImageOpKind::kResidency;
		residency.lookup = op.kind;
		regs.insert(regs.begin(), emit(residency, h, 1).front());
	}
	Define(inst[2], regs);
	return true;
}

uint32_t Translator::FragCoordRegion(uint32_t c) {
	if (!images_) images_ = std::make_shared<ImageState>();  // (interpolateAt* reads it too)
	ImageState& s = *images_;
	if (s.frag_coord_regions[c] != kNoRegion) return s.frag_coord_regions[c];
	return s.frag_coord_regions[c] = BuiltinInputRegion(spv::BuiltIn::FragCoord, shader::InterfaceBuiltin::kFragCoord,
	                                                    c, shader::ScalarKind::kFloat);
}

// A private region holding component `index` of a built-in input: the word
// of the shader's own variable when it declares one (the pipeline fills one
// word per component), else a new input word.
uint32_t Translator::BuiltinInputRegion(spv::BuiltIn builtin, shader::InterfaceBuiltin interface, uint32_t index,
                                        shader::ScalarKind kind) {
	// Lay out the shader's variable first, if it declares one.
	for (uint32_t id : entry_interface_) {
		auto var = globals_.find(id);
		if (var == globals_.end() || static_cast<spv::StorageClass>(var->second[3]) != spv::StorageClass::Input)
			continue;
		if (decorations_[id].builtin == static_cast<int32_t>(builtin)) PointerOf(id);
	}
	for (const shader::InterfaceWord& w : program_.inputs)
		if (w.builtin == interface && w.index == index) {
			program_.regions.push_back({shader::RegionKind::kPrivate, 0, w.word, 4});
			return static_cast<uint32_t>(program_.regions.size() - 1);
		}
	const uint32_t region = StageWord(interface, &program_.inputs);
	program_.inputs.back().index = index;
	program_.inputs.back().kind = kind;
	return region;
}

}  // namespace tessera::spirv
