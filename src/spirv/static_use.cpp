// Facts decided from the module as the application gave it (static_use.h).
#include "spirv/static_use.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::spirv {
namespace {

constexpr uint32_t kHeaderWords = 5;

bool IsSampleDecoration(uint32_t decoration, uint32_t value) {
	if (decoration == uint32_t(spv::Decoration::Sample)) return true;
	return decoration == uint32_t(spv::Decoration::BuiltIn) &&
	       (value == uint32_t(spv::BuiltIn::SampleId) || value == uint32_t(spv::BuiltIn::SamplePosition));
}

// The entry point's name, a nul-terminated string packed into words.
std::string LiteralString(const uint32_t* words, uint32_t count) {
	std::string s;
	for (uint32_t i = 0; i < count; ++i) {
		char chunk[5] = {};
		memcpy(chunk, &words[i], 4);
		s += chunk;
		if (strlen(chunk) < 4) break;
	}
	return s;
}

}  // namespace

bool InterfaceRequestsSampleShading(std::span<const uint32_t> words, std::string_view entry_point) {
	std::vector<uint32_t> interface;
	std::unordered_set<uint32_t> sample_ids;  // variables, structs (a member is) and decoration groups
	std::unordered_map<uint32_t, uint32_t> pointee;
	std::unordered_map<uint32_t, uint32_t> input_variable_type;  // Input variables: their pointer type
	bool found = false;
	for (size_t i = kHeaderWords; i < words.size();) {
		const uint32_t count = words[i] >> 16;
		const auto op = static_cast<spv::Op>(words[i] & 0xffffu);
		if (count == 0 || i + count > words.size()) return false;
		const uint32_t* w = &words[i];
		i += count;
		switch (op) {
		case spv::Op::OpEntryPoint: {
			if (count < 4 || w[1] != uint32_t(spv::ExecutionModel::Fragment) || found) break;
			std::string name = LiteralString(w + 3, count - 3);
			if (name != entry_point) break;
			found = true;
			interface.assign(w + std::min<size_t>(count, 3 + name.size() / 4 + 1), w + count);
			break;
		}
		case spv::Op::OpDecorate:
			if (count >= 3 && IsSampleDecoration(w[2], count > 3 ? w[3] : 0)) sample_ids.insert(w[1]);
			break;
		case spv::Op::OpMemberDecorate:
			if (count >= 4 && IsSampleDecoration(w[3], count > 4 ? w[4] : 0)) sample_ids.insert(w[1]);
			break;
		case spv::Op::OpGroupDecorate:
			if (count >= 2 && sample_ids.count(w[1])) sample_ids.insert(w + 2, w + count);
			break;
		case spv::Op::OpGroupMemberDecorate:  // (struct, member) pairs
			if (count >= 2 && sample_ids.count(w[1]))
				for (uint32_t k = 2; k + 1 < count; k += 2) sample_ids.insert(w[k]);
			break;
		case spv::Op::OpTypePointer:
			if (count >= 4) pointee[w[1]] = w[3];
			break;
		case spv::Op::OpTypeArray:
		case spv::Op::OpTypeRuntimeArray:
			if (count >= 3) pointee[w[1]] = w[2];  // an array of blocks: its element
			break;
		case spv::Op::OpVariable:
			if (count >= 4 && w[3] == uint32_t(spv::StorageClass::Input)) input_variable_type[w[2]] = w[1];
			break;
		default: break;
		}
	}
	for (uint32_t id : interface) {
		auto variable = input_variable_type.find(id);
		if (variable == input_variable_type.end()) continue;
		if (sample_ids.count(id)) return true;
		// A block with a Sample member: through the pointer and any arrays.
		uint32_t type = variable->second;
		for (int depth = 0; depth < 8 && pointee.count(type); ++depth) {
			type = pointee.at(type);
			if (sample_ids.count(type)) return true;
		}
	}
	return false;
}

}  // namespace tessera::spirv
