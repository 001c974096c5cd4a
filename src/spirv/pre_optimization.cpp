// Word-level rewrites before the optimizer (pre_optimization.h). The words
// are validated: instructions are well formed, annotations come before the
// types and variables, and those before the functions.
#include "spirv/pre_optimization.h"

#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "shader/alu.h"

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

}  // namespace

void ClearDontInline(std::vector<uint32_t>& words) {
	constexpr uint32_t kDontInline = uint32_t(spv::FunctionControlMask::DontInline);
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) break;  // validated modules never end so
		if (opcode == Opcode(spv::Op::OpFunction) && count >= 5) words[i + 3] &= ~kDontInline;
		i += count;
	}
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
	std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
	bool inserted = false;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) {  // malformed: left for the validator
			out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(i), words.end());
			break;
		}
		if (!inserted && !preamble(opcode)) {
			for (uint32_t id : no_contraction)
				if (!decorated.count(id))
					out.insert(out.end(), {3u << 16 | Opcode(spv::Op::OpDecorate), id, kNoContraction});
			inserted = true;
		}
		const uint32_t* w = &words[i];
		bool drop = false;
		if (opcode == Opcode(spv::Op::OpCapability))
			drop = count == 2 && w[1] == kFloatControls2;
		else if (opcode == Opcode(spv::Op::OpExtension))
			drop = count >= 2 &&
			       std::strncmp(reinterpret_cast<const char*>(w + 1), kExtension, (count - 1) * sizeof(uint32_t)) == 0;
		else if (opcode == Opcode(spv::Op::OpExecutionMode) || opcode == Opcode(spv::Op::OpExecutionModeId))
			drop = count >= 3 && w[2] == kFPFastMathDefault;
		else if (opcode == Opcode(spv::Op::OpDecorate))
			drop = count >= 3 && w[2] == kFPFastMathMode;
		if (!drop) out.insert(out.end(), w, w + count);
		i += count;
	}
	words = std::move(out);
	return true;
}

bool RemoveMaximalReconvergence(std::vector<uint32_t>& words) {
	constexpr uint32_t kMaximallyReconverges = 6023;  // SPIR-V registry: ExecutionModeMaximallyReconvergesKHR
	constexpr char kExtension[] = "SPV_KHR_maximal_reconvergence";
	if (!DeclaresExtension(words, kExtension)) return false;
	auto dropped = [&](const uint32_t* w, uint32_t count, uint32_t opcode) {
		if (opcode == Opcode(spv::Op::OpExtension))
			return count >= 2 &&
			       std::strncmp(reinterpret_cast<const char*>(w + 1), kExtension, (count - 1) * sizeof(uint32_t)) == 0;
		return opcode == Opcode(spv::Op::OpExecutionMode) && count >= 3 && w[2] == kMaximallyReconverges;
	};
	std::vector<uint32_t> out(words.begin(), words.begin() + std::min<size_t>(kHeaderWords, words.size()));
	bool removed = false;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) {  // malformed: left for the validator
			out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(i), words.end());
			break;
		}
		if (dropped(&words[i], count, opcode))
			removed = true;
		else
			out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(i),
			           words.begin() + static_cast<ptrdiff_t>(i + count));
		i += count;
	}
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
	std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
	out[3] = bound;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		const uint32_t* w = &words[i];
		if (i == first_function) out.insert(out.end(), globals.begin(), globals.end());
		if (opcode == Opcode(spv::Op::OpCapability) && count == 2 && w[1] == kQuadControl) {
			for (spv::Capability c : {spv::Capability::GroupNonUniform, spv::Capability::GroupNonUniformArithmetic,
			                          spv::Capability::GroupNonUniformClustered})
				if (capabilities.insert(uint32_t(c)).second)
					out.insert(out.end(), {2u << 16 | Opcode(spv::Op::OpCapability), uint32_t(c)});
		} else if (opcode == Opcode(spv::Op::OpExtension) && count >= 2 &&
		           std::strncmp(reinterpret_cast<const char*>(w + 1), kExtension, (count - 1) * sizeof(uint32_t)) ==
		               0) {
		} else if (opcode == Opcode(spv::Op::OpExecutionMode) && count >= 3 &&
		           (w[2] == kQuadDerivatives || w[2] == kRequireFullQuads)) {
		} else if ((opcode == kQuadAll || opcode == kQuadAny) && count == 4) {
			const spv::Op logical =
			    opcode == kQuadAll ? spv::Op::OpGroupNonUniformLogicalAnd : spv::Op::OpGroupNonUniformLogicalOr;
			out.insert(out.end(), {7u << 16 | Opcode(logical), w[1], w[2], subgroup,
			                       uint32_t(spv::GroupOperation::ClusteredReduce), w[3], four});
		} else {
			out.insert(out.end(), w, w + count);
		}
		i += count;
	}
	words = std::move(out);
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
	std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		const uint32_t* w = &words[i];
		i += count;
		if ((opcode == Opcode(spv::Op::OpCapability) && count == 2 && w[1] == kCapability) ||
		    IsExtension(w, count, "SPV_EXT_replicated_composites"))
			continue;
		if ((opcode == kConstant || opcode == kSpecConstant || opcode == kConstruct) && count == 4) {
			auto n = constituents.find(w[1]);
			if (n != constituents.end() && n->second + 3 < kMaxConstituents) {
				const spv::Op plain = opcode == kConstant       ? spv::Op::OpConstantComposite
				                      : opcode == kSpecConstant ? spv::Op::OpSpecConstantComposite
				                                                : spv::Op::OpCompositeConstruct;
				out.insert(out.end(), {(n->second + 3) << 16 | Opcode(plain), w[1], w[2]});
				out.insert(out.end(), n->second, w[3]);
				continue;
			}
		}
		out.insert(out.end(), w, w + count);
	}
	words = std::move(out);
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
	std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		const uint32_t* w = &words[i];
		i += count;
		if (IsExtension(w, count, "SPV_KHR_relaxed_extended_instruction")) continue;
		if (opcode == Opcode(spv::Op::OpExtInstImport) && count >= 2 && non_semantic.count(w[1])) continue;
		if ((opcode == Opcode(spv::Op::OpExtInst) || opcode == kExtInstWithForwardRefs) && count >= 5 &&
		    non_semantic.count(w[3]))
			continue;
		out.insert(out.end(), w, w + count);
	}
	words = std::move(out);
	return true;
}

void LoadHelperInvocationAsQuery(std::vector<uint32_t>& words) {
	std::unordered_set<uint32_t> helper;  // variables decorated BuiltIn HelperInvocation
	std::vector<uint32_t> out;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return;
		const uint32_t* w = &words[i];
		if (opcode == Opcode(spv::Op::OpDecorate) && count >= 4 && w[2] == uint32_t(spv::Decoration::BuiltIn) &&
		    w[3] == uint32_t(spv::BuiltIn::HelperInvocation))
			helper.insert(w[1]);  // the variable, or a decoration group
		if (opcode == Opcode(spv::Op::OpGroupDecorate) && count >= 2 && helper.count(w[1]))
			helper.insert(w + 2, w + count);
		if (opcode == Opcode(spv::Op::OpLoad) && count >= 4 && helper.count(w[3])) {
			if (out.empty()) out.assign(words.begin(), words.begin() + static_cast<ptrdiff_t>(i));
			out.insert(out.end(), {3u << 16 | Opcode(spv::Op::OpIsHelperInvocationEXT), w[1], w[2]});
		} else if (!out.empty()) {
			out.insert(out.end(), w, w + count);
		}
		i += count;
	}
	if (!out.empty()) words = std::move(out);
}

std::string CheckSpecConstantOpIndices(const std::vector<uint32_t>& words) {
	struct Composite {
		std::vector<uint32_t> members;  // member types (structs), or one element type
		uint64_t count = 0;             // elements; 0: unknown (a spec-constant array length)
	};
	std::unordered_map<uint32_t, Composite> composites;  // composite types
	std::unordered_map<uint32_t, uint32_t> types;        // value id -> its type
	std::unordered_map<uint32_t, uint64_t> values;       // 32-bit integer constants
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return {};
		const uint32_t* w = &words[i];
		i += count;
		switch (static_cast<spv::Op>(opcode)) {
		case spv::Op::OpTypeVector:
		case spv::Op::OpTypeMatrix:
			if (count >= 4) composites[w[1]] = {{w[2]}, w[3]};
			break;
		case spv::Op::OpTypeArray:
			if (count >= 4) composites[w[1]] = {{w[2]}, values.count(w[3]) ? values[w[3]] : 0};
			break;
		case spv::Op::OpTypeStruct: composites[w[1]] = {std::vector<uint32_t>(w + 2, w + count), count - 2}; break;
		case spv::Op::OpConstant:
			if (count == 4) values[w[2]] = w[3];
			[[fallthrough]];
		case spv::Op::OpConstantTrue:
		case spv::Op::OpConstantFalse:
		case spv::Op::OpConstantComposite:
		case spv::Op::OpConstantNull:
		case spv::Op::OpSpecConstant:
		case spv::Op::OpSpecConstantTrue:
		case spv::Op::OpSpecConstantFalse:
		case spv::Op::OpSpecConstantComposite:
		case spv::Op::OpUndef:
			if (count >= 3) types[w[2]] = w[1];
			break;
		case spv::Op::OpSpecConstantOp: {
			if (count < 4) break;
			types[w[2]] = w[1];
			const auto op = static_cast<spv::Op>(w[3]);
			auto walk = [&](uint32_t composite, const uint32_t* index, const uint32_t* end) -> bool {
				auto t = types.find(composite);
				if (t == types.end()) return true;
				uint32_t type = t->second;
				for (; index < end; ++index) {
					auto c = composites.find(type);
					if (c == composites.end()) return false;  // an index into a scalar
					if (c->second.count && *index >= c->second.count) return false;
					type = c->second.members.size() > 1
					           ? c->second.members[std::min<size_t>(*index, c->second.members.size() - 1)]
					           : c->second.members[0];
				}
				return true;
			};
			bool ok = true;
			if (op == spv::Op::OpCompositeExtract && count >= 5) ok = walk(w[4], w + 5, w + count);
			if (op == spv::Op::OpCompositeInsert && count >= 6) ok = walk(w[5], w + 6, w + count);
			if (op == spv::Op::OpVectorShuffle && count >= 6) {
				uint64_t available = 0;  // 0: a vector of unknown size; no check
				for (uint32_t v : {w[4], w[5]}) {
					auto t = types.find(v);
					auto c = t == types.end() ? composites.end() : composites.find(t->second);
					if (c == composites.end()) {
						available = 0;
						break;
					}
					available += c->second.count;
				}
				for (const uint32_t* k = w + 6; k < w + count && available; ++k)
					ok &= *k == 0xffffffffu || *k < available;
			}
			if (!ok) return "OpSpecConstantOp " + std::to_string(w[2]) + ": a composite index outside its composite";
			break;
		}
		default: break;
		}
	}
	return {};
}

std::string CheckExecutionModeIdOperands(const std::vector<uint32_t>& words) {
	std::unordered_set<uint32_t> constants;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return {};
		switch (static_cast<spv::Op>(opcode)) {
		case spv::Op::OpConstantTrue:
		case spv::Op::OpConstantFalse:
		case spv::Op::OpConstant:
		case spv::Op::OpConstantComposite:
		case spv::Op::OpConstantNull:
		case spv::Op::OpSpecConstantTrue:
		case spv::Op::OpSpecConstantFalse:
		case spv::Op::OpSpecConstant:
		case spv::Op::OpSpecConstantComposite:
		case spv::Op::OpSpecConstantOp:
			if (count >= 3) constants.insert(words[i + 2]);
			break;
		default: break;
		}
		i += count;
	}
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (static_cast<spv::Op>(opcode) == spv::Op::OpExecutionModeId)
			for (uint32_t k = 3; k < count; ++k)
				if (!constants.count(words[i + k]))
					return "OpExecutionModeId: operand " + std::to_string(words[i + k]) + " is not a constant";
		i += count;
	}
	return {};
}

bool HasSpecConstantQuantize(const std::vector<uint32_t>& words) {
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;
		if (opcode == Opcode(spv::Op::OpSpecConstantOp) && count >= 4 &&
		    words[i + 3] == Opcode(spv::Op::OpQuantizeToF16))
			return true;
		if (opcode == Opcode(spv::Op::OpFunction)) return false;  // constants come before functions
		i += count;
	}
	return false;
}

bool FoldSpecConstantQuantize(std::vector<uint32_t>& words) {
	const shader::AluKernel quantize = shader::GetAluKernel(shader::Op::kQuantizeToF16FlushDenormals);
	auto fold = [&](uint32_t bits) {
		uint32_t result = 0, zero = 0;
		quantize(&result, &bits, &zero, &zero, &zero, 1);
		return result;
	};
	struct Scalar {
		uint32_t type, bits;
	};
	std::unordered_set<uint32_t> float32_types;
	std::unordered_map<uint32_t, Scalar> scalars;                    // OpConstant of a 32-bit float
	std::unordered_map<uint32_t, std::vector<uint32_t>> composites;  // (Spec)ConstantComposite: constituents
	std::vector<uint32_t> out;
	uint32_t bound = words.size() > 3 ? words[3] : 0;
	auto constant = [&](uint32_t type, uint32_t id, uint32_t bits) {
		out.insert(out.end(), {4u << 16 | Opcode(spv::Op::OpConstant), type, id, bits});
		scalars[id] = {type, bits};
	};
	bool changed = false;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;
		const uint32_t* w = &words[i];
		if (opcode == Opcode(spv::Op::OpTypeFloat) && count >= 3 && w[2] == 32) float32_types.insert(w[1]);
		if (opcode == Opcode(spv::Op::OpConstant) && count == 4 && float32_types.count(w[1]))
			scalars[w[2]] = {w[1], w[3]};
		// Freezing leaves OpSpecConstantComposite as it is; of frozen
		// constituents it is a constant too.
		if ((opcode == Opcode(spv::Op::OpConstantComposite) || opcode == Opcode(spv::Op::OpSpecConstantComposite)) &&
		    count >= 3)
			composites[w[2]].assign(w + 3, w + count);
		bool foldable = false;
		std::vector<uint32_t> components;  // of a composite operand, when each is a float constant
		if (opcode == Opcode(spv::Op::OpSpecConstantOp) && count == 5 && w[3] == Opcode(spv::Op::OpQuantizeToF16)) {
			foldable = scalars.count(w[4]) != 0;
			if (auto c = composites.find(w[4]); !foldable && c != composites.end() && !c->second.empty()) {
				components = c->second;
				foldable = std::all_of(components.begin(), components.end(),
				                       [&](uint32_t id) { return scalars.count(id) != 0; });
			}
		}
		if (foldable && !changed) {
			out.assign(words.begin(), words.begin() + static_cast<ptrdiff_t>(i));
			changed = true;
		}
		if (foldable) {
			const uint32_t type = w[1], result = w[2];
			if (components.empty()) {
				constant(type, result, fold(scalars[w[4]].bits));
			} else {
				// A new scalar constant per component, then the composite.
				std::vector<uint32_t> ids;
				for (uint32_t id : components) {
					ids.push_back(bound++);
					constant(scalars[id].type, ids.back(), fold(scalars[id].bits));
				}
				out.insert(out.end(),
				           {uint32_t(3 + ids.size()) << 16 | Opcode(spv::Op::OpConstantComposite), type, result});
				out.insert(out.end(), ids.begin(), ids.end());
				composites[result] = ids;
			}
		} else if (changed) {
			out.insert(out.end(), w, w + count);
		}
		i += count;
	}
	if (!changed) return false;
	out[3] = bound;
	words = std::move(out);
	return true;
}

bool HasNarrowBitcast(const std::vector<uint32_t>& words) {
	std::unordered_map<uint32_t, uint32_t> widths;       // scalar and vector types: their components' bits
	std::unordered_map<uint32_t, uint32_t> value_types;  // result id -> result type
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;
		const auto op = static_cast<spv::Op>(opcode);
		if ((op == spv::Op::OpTypeInt || op == spv::Op::OpTypeFloat) && count >= 3) widths[words[i + 1]] = words[i + 2];
		if (op == spv::Op::OpTypeVector && count >= 3 && widths.count(words[i + 2]))
			widths[words[i + 1]] = widths[words[i + 2]];
		bool has_result = false, has_type = false;
		spv::HasResultAndType(op, &has_result, &has_type);
		if (has_result && has_type && count >= 3) value_types[words[i + 2]] = words[i + 1];
		if (op == spv::Op::OpBitcast && count >= 4) {
			auto narrow = [&](uint32_t type) {
				auto width = widths.find(type);
				return width != widths.end() && width->second < 32;
			};
			auto operand = value_types.find(words[i + 3]);
			if (narrow(words[i + 1]) || (operand != value_types.end() && narrow(operand->second))) return true;
		}
		i += count;
	}
	return false;
}

bool HasEmptyStruct(const std::vector<uint32_t>& words) {
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
		if (count == 0 || i + count > words.size()) return false;
		if (static_cast<spv::Op>(opcode) == spv::Op::OpTypeStruct && count == 2) return true;  // the result id alone
		i += count;
	}
	return false;
}

}  // namespace tessera::spirv
