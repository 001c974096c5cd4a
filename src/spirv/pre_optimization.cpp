// Word-level rewrites before the optimizer (pre_optimization.h). The words
// are validated: instructions are well formed, annotations come before the
// types and variables, and those before the functions.
#include "spirv/pre_optimization.h"

#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "shader/alu.h"

namespace tessera::spirv {
namespace {

constexpr uint32_t kHeaderWords = 5;

uint32_t Opcode(spv::Op op) { return static_cast<uint32_t>(op); }

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
