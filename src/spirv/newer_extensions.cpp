// Rewrites of newer extensions' SPIR-V (newer_extensions.h).
#include "spirv/newer_extensions.h"

#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tessera::spirv {
namespace {

constexpr uint32_t kHeaderWords = 5;

uint32_t Opcode(spv::Op op) { return static_cast<uint32_t>(op); }

// Whether the instruction at w (count words) is OpExtension `name`.
bool IsExtension(const uint32_t* w, uint32_t count, const char* name) {
	return (w[0] & 0xffffu) == Opcode(spv::Op::OpExtension) && count >= 2 &&
	       std::strncmp(reinterpret_cast<const char*>(w + 1), name, (count - 1) * sizeof(uint32_t)) == 0;
}

// Whether the module declares the capability, or the extension. Both come
// first in a module (SPIR-V 1.6 §2.4, capabilities then extensions), so
// only those are read: the rewrites below cost nothing to modules that
// use none of what they rewrite.
bool DeclaresCapability(const std::vector<uint32_t>& words, uint32_t capability) {
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size() || opcode != Opcode(spv::Op::OpCapability)) return false;
		if (count == 2 && words[i + 1] == capability) return true;
		i += count;
	}
	return false;
}
bool DeclaresExtension(const std::vector<uint32_t>& words, const char* name) {
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;
		if (opcode != Opcode(spv::Op::OpCapability) && opcode != Opcode(spv::Op::OpExtension)) return false;
		if (IsExtension(&words[i], count, name)) return true;
		i += count;
	}
	return false;
}

// A module rewritten instruction by instruction: rewrite(w, count, out)
// either appends to `out` what replaces the instruction at w (count words;
// nothing drops it) and returns true, or returns false to keep it as it is.
// The header is copied (a rewrite that adds ids raises its bound, word 3,
// itself); from a malformed instruction on, the words are copied unchanged,
// for the validator to refuse.
template <typename Rewrite>
std::vector<uint32_t> RewriteInstructions(const std::vector<uint32_t>& words, Rewrite rewrite) {
	std::vector<uint32_t> out(words.begin(), words.begin() + std::min<size_t>(kHeaderWords, words.size()));
	out.reserve(words.size());
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16;
		if (count == 0 || i + count > words.size()) {
			out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(i), words.end());
			break;
		}
		const uint32_t* w = &words[i];
		if (!rewrite(w, count, out)) out.insert(out.end(), w, w + count);
		i += count;
	}
	return out;
}

}  // namespace

bool RewriteNewerExtensions(std::vector<uint32_t>& words) {
	bool changed = RemoveFloatControls2(words);
	changed |= RemoveMaximalReconvergence(words);
	changed |= RewriteQuadControl(words);
	changed |= ExpandReplicatedComposites(words);
	changed |= RemoveRelaxedExtendedInstructions(words);
	changed |= RenameComputeShaderDerivatives(words);
	return changed;
}

bool RemoveFloatControls2(std::vector<uint32_t>& words) {
	// SPIR-V registry values (spirv.core.grammar.json of SPIR-V 1.6 rev. 4).
	constexpr uint32_t kFloatControls2 = 6029, kFPFastMathDefault = 6028;
	constexpr uint32_t kFPFastMathMode = uint32_t(spv::Decoration::FPFastMathMode);
	constexpr char kExtension[] = "SPV_KHR_float_controls2";
	if (!DeclaresCapability(words, kFloatControls2)) return false;
	// Without AllowContract an operation may not be fused with another, and
	// without NSZ, NotInf, NotNaN a rewrite may not change zeros'
	// signs, infinities or NaNs; SPIRV-Tools' simplification does both
	// ((a * b) + c into Fma, x + 0 into x) unless the operation is
	// NoContraction. So every floating-point arithmetic result is marked
	// NoContraction, which forbids nothing the module asked for.
	constexpr uint32_t kNoContraction = uint32_t(spv::Decoration::NoContraction);
	auto arithmetic = [](uint32_t opcode) {
		switch (spv::Op(opcode)) {
		case spv::Op::OpFNegate:
		case spv::Op::OpFAdd:
		case spv::Op::OpFSub:
		case spv::Op::OpFMul:
		case spv::Op::OpFDiv:
		case spv::Op::OpFRem:
		case spv::Op::OpFMod:
		case spv::Op::OpVectorTimesScalar:
		case spv::Op::OpMatrixTimesScalar:
		case spv::Op::OpVectorTimesMatrix:
		case spv::Op::OpMatrixTimesVector:
		case spv::Op::OpMatrixTimesMatrix:
		case spv::Op::OpDot: return true;
		default: return false;
		}
	};
	// Where the annotations end: the first instruction past the
	// preamble, debug and annotation sections.
	auto preamble = [](uint32_t opcode) {
		switch (spv::Op(opcode)) {
		case spv::Op::OpCapability:
		case spv::Op::OpExtension:
		case spv::Op::OpExtInstImport:
		case spv::Op::OpMemoryModel:
		case spv::Op::OpEntryPoint:
		case spv::Op::OpExecutionMode:
		case spv::Op::OpExecutionModeId:
		case spv::Op::OpSourceContinued:
		case spv::Op::OpSource:
		case spv::Op::OpSourceExtension:
		case spv::Op::OpName:
		case spv::Op::OpMemberName:
		case spv::Op::OpString:
		case spv::Op::OpModuleProcessed:
		case spv::Op::OpDecorate:
		case spv::Op::OpMemberDecorate:
		case spv::Op::OpDecorationGroup:
		case spv::Op::OpGroupDecorate:
		case spv::Op::OpGroupMemberDecorate:
		case spv::Op::OpDecorateId:
		case spv::Op::OpDecorateString:
		case spv::Op::OpMemberDecorateString: return true;
		default: return false;
		}
	};
	std::vector<uint32_t> no_contraction;
	std::unordered_set<uint32_t> decorated;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) break;
		if (arithmetic(opcode) && count >= 3) no_contraction.push_back(words[i + 2]);
		if (opcode == Opcode(spv::Op::OpDecorate) && count >= 3 && words[i + 2] == kNoContraction)
			decorated.insert(words[i + 1]);
		i += count;
	}
	bool inserted = false;
	words = RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>& out) {
		const uint32_t opcode = w[0] & 0xffffu;
		if (!inserted && !preamble(opcode)) {
			for (uint32_t id : no_contraction)
				if (!decorated.count(id))
					out.insert(out.end(), {3u << 16 | Opcode(spv::Op::OpDecorate), id, kNoContraction});
			inserted = true;
		}
		if (opcode == Opcode(spv::Op::OpCapability)) return count == 2 && w[1] == kFloatControls2;
		if (opcode == Opcode(spv::Op::OpExtension)) return IsExtension(w, count, kExtension);
		if (opcode == Opcode(spv::Op::OpExecutionMode) || opcode == Opcode(spv::Op::OpExecutionModeId))
			return count >= 3 && w[2] == kFPFastMathDefault;
		if (opcode == Opcode(spv::Op::OpDecorate)) return count >= 3 && w[2] == kFPFastMathMode;
		return false;
	});
	return true;
}

bool RemoveMaximalReconvergence(std::vector<uint32_t>& words) {
	constexpr uint32_t kMaximallyReconverges = 6023;  // SPIR-V registry: ExecutionModeMaximallyReconvergesKHR
	constexpr char kExtension[] = "SPV_KHR_maximal_reconvergence";
	if (!DeclaresExtension(words, kExtension)) return false;
	bool removed = false;
	std::vector<uint32_t> out =
	    RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>&) {
		    const uint32_t opcode = w[0] & 0xffffu;
		    const bool dropped = IsExtension(w, count, kExtension) || (opcode == Opcode(spv::Op::OpExecutionMode) &&
		                                                               count >= 3 && w[2] == kMaximallyReconverges);
		    removed |= dropped;
		    return dropped;
	    });
	if (removed) words = std::move(out);
	return removed;
}

bool RewriteQuadControl(std::vector<uint32_t>& words) {
	// SPIR-V registry values (SPV_KHR_quad_control).
	constexpr uint32_t kQuadControl = 5087, kQuadDerivatives = 5088, kRequireFullQuads = 5089;
	constexpr uint32_t kQuadAll = 5110, kQuadAny = 5111;
	constexpr char kExtension[] = "SPV_KHR_quad_control";
	if (!DeclaresCapability(words, kQuadControl)) return false;
	bool declared = false;
	uint32_t uint_type = 0;
	std::unordered_set<uint32_t> capabilities;
	size_t first_function = words.size();
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;  // malformed: left for the validator
		const uint32_t* w = &words[i];
		if (opcode == Opcode(spv::Op::OpCapability) && count == 2) {
			capabilities.insert(w[1]);
			declared |= w[1] == kQuadControl;
		}
		if (opcode == Opcode(spv::Op::OpTypeInt) && count == 4 && w[2] == 32 && w[3] == 0 && !uint_type)
			uint_type = w[1];
		if (opcode == Opcode(spv::Op::OpFunction) && first_function == words.size()) first_function = i;
		i += count;
	}
	if (!declared) return false;
	uint32_t bound = words[3];
	std::vector<uint32_t> globals;  // inserted before the first function
	if (!uint_type) {
		uint_type = bound++;
		globals.insert(globals.end(), {4u << 16 | Opcode(spv::Op::OpTypeInt), uint_type, 32, 0});
	}
	const uint32_t subgroup = bound++, four = bound++;
	globals.insert(globals.end(),
	               {4u << 16 | Opcode(spv::Op::OpConstant), uint_type, subgroup, uint32_t(spv::Scope::Subgroup),
	                4u << 16 | Opcode(spv::Op::OpConstant), uint_type, four, 4});
	const uint32_t* function = words.data() + first_function;
	words = RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>& out) {
		const uint32_t opcode = w[0] & 0xffffu;
		if (w == function) out.insert(out.end(), globals.begin(), globals.end());
		if (opcode == Opcode(spv::Op::OpCapability) && count == 2 && w[1] == kQuadControl) {
			for (spv::Capability c : {spv::Capability::GroupNonUniform, spv::Capability::GroupNonUniformArithmetic,
			                          spv::Capability::GroupNonUniformClustered})
				if (capabilities.insert(uint32_t(c)).second)
					out.insert(out.end(), {2u << 16 | Opcode(spv::Op::OpCapability), uint32_t(c)});
			return true;
		}
		if (IsExtension(w, count, kExtension)) return true;
		if (opcode == Opcode(spv::Op::OpExecutionMode) && count >= 3 &&
		    (w[2] == kQuadDerivatives || w[2] == kRequireFullQuads))
			return true;
		if ((opcode == kQuadAll || opcode == kQuadAny) && count == 4) {
			const spv::Op logical =
			    opcode == kQuadAll ? spv::Op::OpGroupNonUniformLogicalAnd : spv::Op::OpGroupNonUniformLogicalOr;
			out.insert(out.end(), {7u << 16 | Opcode(logical), w[1], w[2], subgroup,
			                       uint32_t(spv::GroupOperation::ClusteredReduce), w[3], four});
			return true;
		}
		return false;
	});
	words[3] = bound;
	return true;
}

bool ExpandReplicatedComposites(std::vector<uint32_t>& words) {
	// SPIR-V registry values (SPV_EXT_replicated_composites).
	constexpr uint32_t kCapability = 6024, kConstant = 4461, kSpecConstant = 4462, kConstruct = 4463;
	if (!DeclaresCapability(words, kCapability)) return false;
	std::unordered_map<uint32_t, uint32_t> constituents;  // composite type -> constituent count
	std::unordered_map<uint32_t, uint32_t> constants;     // 32-bit OpConstant -> value
	bool declared = false;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;  // malformed: left for the validator
		const uint32_t* w = &words[i];
		if (opcode == Opcode(spv::Op::OpCapability) && count == 2 && w[1] == kCapability) declared = true;
		if ((opcode == Opcode(spv::Op::OpTypeVector) || opcode == Opcode(spv::Op::OpTypeMatrix)) && count == 4)
			constituents[w[1]] = w[3];
		if (opcode == Opcode(spv::Op::OpTypeStruct) && count >= 2) constituents[w[1]] = count - 2;
		if (opcode == Opcode(spv::Op::OpConstant) && count == 4) constants[w[2]] = w[3];
		if (opcode == Opcode(spv::Op::OpTypeArray) && count == 4 && constants.count(w[3]))
			constituents[w[1]] = constants[w[3]];
		i += count;
	}
	if (!declared) return false;
	constexpr uint32_t kMaxConstituents = 1u << 16;  // the word count of one instruction
	words = RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>& out) {
		const uint32_t opcode = w[0] & 0xffffu;
		if ((opcode == Opcode(spv::Op::OpCapability) && count == 2 && w[1] == kCapability) ||
		    IsExtension(w, count, "SPV_EXT_replicated_composites"))
			return true;
		if ((opcode == kConstant || opcode == kSpecConstant || opcode == kConstruct) && count == 4) {
			auto n = constituents.find(w[1]);
			// (Compared so that a count near 2^32, an array length the
			// module may declare, cannot wrap around.)
			if (n != constituents.end() && n->second < kMaxConstituents - 3) {
				const spv::Op plain = opcode == kConstant       ? spv::Op::OpConstantComposite
				                      : opcode == kSpecConstant ? spv::Op::OpSpecConstantComposite
				                                                : spv::Op::OpCompositeConstruct;
				out.insert(out.end(), {(n->second + 3) << 16 | Opcode(plain), w[1], w[2]});
				out.insert(out.end(), n->second, w[3]);
				return true;
			}
		}
		return false;
	});
	return true;
}

bool RemoveRelaxedExtendedInstructions(std::vector<uint32_t>& words) {
	constexpr uint32_t kExtInstWithForwardRefs = 4433;  // SPV_KHR_relaxed_extended_instruction
	if (!DeclaresExtension(words, "SPV_KHR_relaxed_extended_instruction")) return false;
	bool declared = false;
	std::unordered_set<uint32_t> non_semantic;  // OpExtInstImport ids of NonSemantic.* sets
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;  // malformed: left for the validator
		const uint32_t* w = &words[i];
		declared |= IsExtension(w, count, "SPV_KHR_relaxed_extended_instruction");
		if (opcode == Opcode(spv::Op::OpExtInstImport) && count >= 3 &&
		    std::strncmp(reinterpret_cast<const char*>(w + 2), "NonSemantic.", 12) == 0)
			non_semantic.insert(w[1]);
		i += count;
	}
	if (!declared) return false;
	words = RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>&) {
		const uint32_t opcode = w[0] & 0xffffu;
		if (IsExtension(w, count, "SPV_KHR_relaxed_extended_instruction")) return true;
		if (opcode == Opcode(spv::Op::OpExtInstImport) && count >= 2 && non_semantic.count(w[1])) return true;
		return (opcode == Opcode(spv::Op::OpExtInst) || opcode == kExtInstWithForwardRefs) && count >= 5 &&
		       non_semantic.count(w[3]) != 0;
	});
	return true;
}

bool RenameComputeShaderDerivatives(std::vector<uint32_t>& words) {
	constexpr char kExtension[] = "SPV_KHR_compute_shader_derivatives";
	constexpr char kSystemName[] = "SPV_NV_compute_shader_derivatives";
	if (!DeclaresExtension(words, kExtension)) return false;
	// The NV extension's OpExtension, nul-terminated and padded to words.
	std::vector<uint32_t> renamed(1 + (sizeof(kSystemName) + 3) / 4, 0);
	std::memcpy(renamed.data() + 1, kSystemName, sizeof(kSystemName));
	renamed[0] = static_cast<uint32_t>(renamed.size()) << 16 | Opcode(spv::Op::OpExtension);
	const bool declares_nv = DeclaresExtension(words, kSystemName);
	words = RewriteInstructions(words, [&](const uint32_t* w, uint32_t count, std::vector<uint32_t>& out) {
		if (!IsExtension(w, count, kExtension)) return false;
		if (!declares_nv) out.insert(out.end(), renamed.begin(), renamed.end());
		return true;
	});
	return true;
}

std::string WithoutSampleOffsets(std::span<const uint32_t> words, std::vector<uint32_t>* stripped) {
	stripped->assign(words.begin(), words.end());
	std::unordered_map<uint32_t, bool> integer_types;    // OpTypeInt and vectors of them: true
	std::unordered_map<uint32_t, uint32_t> value_types;  // result id -> result type
	std::vector<uint32_t> out;
	bool changed = false;
	size_t copied = 0;  // words[0, copied) are in `out`
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) break;  // for the validator to refuse
		const auto op = static_cast<spv::Op>(opcode);
		if (op == spv::Op::OpTypeInt && count >= 2) integer_types[words[i + 1]] = true;
		if (op == spv::Op::OpTypeVector && count >= 3 && integer_types.count(words[i + 2]))
			integer_types[words[i + 1]] = true;
		bool has_result = false, has_type = false;
		spv::HasResultAndType(op, &has_result, &has_type);
		if (has_result && has_type && count >= 3) value_types[words[i + 2]] = words[i + 1];
		// Where the image operands mask is: after the coordinate, and after
		// the depth reference of the Dref forms.
		uint32_t mask_at = 0;
		switch (op) {
		case spv::Op::OpImageSampleImplicitLod:
		case spv::Op::OpImageSampleExplicitLod:
		case spv::Op::OpImageSampleProjImplicitLod:
		case spv::Op::OpImageSampleProjExplicitLod:
		case spv::Op::OpImageFetch:
		case spv::Op::OpImageSparseSampleImplicitLod:
		case spv::Op::OpImageSparseSampleExplicitLod:
		case spv::Op::OpImageSparseSampleProjImplicitLod:
		case spv::Op::OpImageSparseSampleProjExplicitLod:
		case spv::Op::OpImageSparseFetch: mask_at = 5; break;
		case spv::Op::OpImageSampleDrefImplicitLod:
		case spv::Op::OpImageSampleDrefExplicitLod:
		case spv::Op::OpImageSampleProjDrefImplicitLod:
		case spv::Op::OpImageSampleProjDrefExplicitLod:
		case spv::Op::OpImageSparseSampleDrefImplicitLod:
		case spv::Op::OpImageSparseSampleDrefExplicitLod:
		case spv::Op::OpImageSparseSampleProjDrefImplicitLod:
		case spv::Op::OpImageSparseSampleProjDrefExplicitLod: mask_at = 6; break;
		default: break;
		}
		constexpr uint32_t kOffset = uint32_t(spv::ImageOperandsMask::Offset);
		if (mask_at && count > mask_at && (words[i + mask_at] & kOffset)) {
			const uint32_t mask = words[i + mask_at];
			// Operands follow the mask in the order of its bits: Bias, Lod,
			// Grad (two), ConstOffset, then Offset.
			const uint32_t before = (mask & uint32_t(spv::ImageOperandsMask::Bias) ? 1 : 0) +
			                        (mask & uint32_t(spv::ImageOperandsMask::Lod) ? 1 : 0) +
			                        (mask & uint32_t(spv::ImageOperandsMask::Grad) ? 2 : 0) +
			                        (mask & uint32_t(spv::ImageOperandsMask::ConstOffset) ? 1 : 0);
			const size_t offset_at = i + mask_at + 1 + before;
			if (offset_at >= i + count) break;  // too short: for the validator to refuse
			auto type = value_types.find(words[offset_at]);
			if (type == value_types.end() || !integer_types.count(type->second))
				return "the Offset image operand of the instruction at word " + std::to_string(i) +
				       " is not an integer scalar or vector defined before it";
			out.insert(out.end(), words.begin() + copied, words.begin() + i);
			out.push_back(((count - 1) << 16) | opcode);
			for (size_t w = i + 1; w < i + count; ++w) {
				if (w == offset_at) continue;
				out.push_back(w == i + mask_at ? (mask & ~kOffset) : words[w]);
			}
			copied = i + count;
			changed = true;
		}
		i += count;
	}
	if (changed) {
		out.insert(out.end(), words.begin() + copied, words.end());
		*stripped = std::move(out);
	}
	return {};
}

bool WithSizedUniformArrays(std::span<const uint32_t> words, std::vector<uint32_t>* sized) {
	if (words.size() < kHeaderWords) return false;
	constexpr uint32_t kBlock = uint32_t(spv::Decoration::Block);
	constexpr uint32_t kUniform = uint32_t(spv::StorageClass::Uniform);
	std::unordered_set<uint32_t> blocks, runtime_arrays;
	std::unordered_map<uint32_t, std::vector<uint32_t>> structs;  // id -> member types
	std::unordered_map<uint32_t, uint32_t> elements;              // array id -> element type
	std::unordered_map<uint32_t, size_t> runtime_array_at;        // id -> word index
	std::vector<std::pair<uint32_t, uint32_t>> pointers;          // (storage class, pointee)
	size_t uint_at = 0;                                           // OpTypeInt 32 0, when there is one
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16;
		if (count == 0 || i + count > words.size()) return false;  // for the validator to refuse
		const uint32_t* w = &words[i];
		switch (static_cast<spv::Op>(w[0] & 0xffffu)) {
		case spv::Op::OpDecorate:
			if (count >= 3 && w[2] == kBlock) blocks.insert(w[1]);
			break;
		case spv::Op::OpTypeStruct:
			if (count >= 2) structs[w[1]].assign(w + 2, w + count);
			break;
		case spv::Op::OpTypeArray:
			if (count >= 3) elements[w[1]] = w[2];
			break;
		case spv::Op::OpTypeRuntimeArray:
			if (count == 3) {
				elements[w[1]] = w[2];
				runtime_arrays.insert(w[1]);
				runtime_array_at[w[1]] = i;
			}
			break;
		case spv::Op::OpTypePointer:
			if (count == 4) pointers.emplace_back(w[2], w[3]);
			break;
		case spv::Op::OpTypeInt:
			if (count == 4 && w[2] == 32 && w[3] == 0 && !uint_at) uint_at = i;
			break;
		default: break;
		}
		i += count;
	}
	// The runtime arrays ending a Uniform Block (behind arrays of blocks
	// too), but for a Block that another storage class uses as well.
	auto pointee = [&](uint32_t type) {
		for (auto e = elements.find(type); e != elements.end(); e = elements.find(type)) type = e->second;
		return type;
	};
	std::unordered_set<uint32_t> candidates, block_structs, other_structs;
	for (auto [storage, type] : pointers)
		if (storage != kUniform) other_structs.insert(pointee(type));
	for (auto [storage, type] : pointers) {
		if (storage != kUniform) continue;
		type = pointee(type);
		auto s = structs.find(type);
		if (s == structs.end() || !blocks.count(type) || other_structs.count(type) || s->second.empty()) continue;
		block_structs.insert(type);
		if (runtime_arrays.count(s->second.back())) candidates.insert(s->second.back());
	}
	// Not those another struct or pointer also uses.
	for (const auto& [id, members] : structs)
		if (!block_structs.count(id))
			for (uint32_t m : members) candidates.erase(m);
	for (auto [storage, type] : pointers)
		if (storage != kUniform) candidates.erase(type);
	if (candidates.empty()) return false;

	// The length: a new constant 1 of the module's 32-bit unsigned type
	// (moved, or made, before the first array; it depends on nothing).
	size_t first = words.size();
	for (uint32_t id : candidates) first = std::min(first, runtime_array_at[id]);
	uint32_t bound = words[3];
	const uint32_t uint_id = uint_at ? words[uint_at + 1] : bound++;
	const uint32_t one = bound++;
	std::vector<uint32_t>& out = *sized;
	out.assign(words.begin(), words.begin() + kHeaderWords);
	out[3] = bound;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16;
		if (i == first) {
			if (!uint_at || uint_at > first)
				out.insert(out.end(), {4u << 16 | Opcode(spv::Op::OpTypeInt), uint_id, 32, 0});
			out.insert(out.end(), {4u << 16 | Opcode(spv::Op::OpConstant), uint_id, one, 1});
		}
		if (i == uint_at && uint_at > first) {  // moved before `first`
			i += count;
			continue;
		}
		if ((words[i] & 0xffffu) == Opcode(spv::Op::OpTypeRuntimeArray) && count == 3 &&
		    candidates.count(words[i + 1])) {
			out.insert(out.end(), {4u << 16 | Opcode(spv::Op::OpTypeArray), words[i + 1], words[i + 2], one});
		} else {
			out.insert(out.end(), words.begin() + i, words.begin() + i + count);
		}
		i += count;
	}
	return true;
}

}  // namespace tessera::spirv
