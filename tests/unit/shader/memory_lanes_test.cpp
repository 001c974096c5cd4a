// LoadLanes / StoreLanes against a per-lane reference: runs of consecutive
// words (the vector fast path) that start, end or straddle the buffer's
// bounds, constant offsets, broken runs, repeated addresses.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "shader/alu.h"

using namespace tessera;

namespace {

constexpr uint32_t kLanes = 100;  // not a multiple of any vector width

std::vector<std::vector<uint32_t>> AddressPatterns(uint32_t size) {
	std::vector<std::vector<uint32_t>> patterns;
	for (uint32_t start : {0u, 4u, 2u, size - 4 * kLanes, size - 4 * kLanes + 4, size - 64, size, 0xfffffff0u}) {
		std::vector<uint32_t> run(kLanes);
		for (uint32_t i = 0; i < kLanes; ++i) run[i] = start + 4 * i;
		patterns.push_back(run);
		run[37] += 8;  // one lane out of step
		patterns.push_back(run);
	}
	std::vector<uint32_t> same(kLanes, 12), reversed(kLanes);
	for (uint32_t i = 0; i < kLanes; ++i) reversed[i] = 4 * (kLanes - 1 - i);
	patterns.push_back(same);
	patterns.push_back(std::vector<uint32_t>(kLanes, size - 4));  // uniform, in bounds only without imm
	patterns.push_back(reversed);
	return patterns;
}

}  // namespace

TEST_CASE("LoadLanes and StoreLanes match a per-lane bounds-checked reference", "[shader][memory]") {
	const uint32_t size = 4 * 150;
	std::vector<uint8_t> memory(size);
	for (uint32_t i = 0; i < size; ++i) memory[i] = uint8_t(i * 7 + 1);
	std::vector<uint32_t> value(kLanes);
	for (uint32_t i = 0; i < kLanes; ++i) value[i] = 0xa0000000u + i;
	for (uint32_t imm : {0u, 4u, 12u, 1u, size - 4, size}) {
		for (const std::vector<uint32_t>& address : AddressPatterns(size)) {
			CAPTURE(imm, address[0], address[37]);
			std::vector<uint32_t> loaded(kLanes, 0xdead), expected(kLanes);
			shader::LoadLanes(loaded.data(), memory.data(), size, address.data(), imm, kLanes);
			for (uint32_t i = 0; i < kLanes; ++i) {
				uint64_t offset = uint64_t{address[i]} + imm;
				expected[i] = 0;
				if (offset + 4 <= size) std::memcpy(&expected[i], memory.data() + offset, 4);
			}
			CHECK(loaded == expected);

			std::vector<uint8_t> stored = memory, reference = memory;
			shader::StoreLanes(stored.data(), size, address.data(), imm, value.data(), kLanes);
			for (uint32_t i = 0; i < kLanes; ++i) {
				uint64_t offset = uint64_t{address[i]} + imm;
				if (offset + 4 <= size) std::memcpy(reference.data() + offset, &value[i], 4);
			}
			CHECK(stored == reference);
		}
	}
}
