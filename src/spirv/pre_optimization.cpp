// Word-level rewrites before the optimizer (pre_optimization.h). The words
// are validated: instructions are well formed, annotations come before the
// types and variables, and those before the functions.
#include "spirv/pre_optimization.h"

#include <spirv/unified1/spirv.hpp11>

#include <unordered_set>
#include <utility>

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

}  // namespace tessera::spirv
