// runtime::ScratchVector: a vector whose growth without a value does not
// zero trivial elements, and which otherwise behaves as std::vector.
#include <catch2/catch.hpp>

#include <string>

#include "runtime/scratch_vector.h"

namespace {

using tessera::runtime::ScratchVector;

struct Pair {
	int a, b;
};

TEST_CASE("ScratchVector constructs from arguments and copies as std::vector does", "[runtime][scratch_vector]") {
	ScratchVector<Pair> pairs;
	pairs.push_back({1, 2});
	pairs.emplace_back(Pair{3, 4});
	pairs.resize(4, Pair{5, 6});  // with a value: filled with it
	REQUIRE(pairs.size() == 4);
	CHECK(pairs[0].a == 1);
	CHECK(pairs[1].b == 4);
	CHECK(pairs[2].a == 5);
	CHECK(pairs[3].b == 6);
	ScratchVector<Pair> copy = pairs;
	CHECK(copy[3].a == 5);
	// A type with a constructor keeps it: default-initialization runs it.
	ScratchVector<std::string> names(2);
	CHECK(names[0].empty());
	names.emplace_back(3, 'x');
	CHECK(names[2] == "xxx");
}

TEST_CASE("ScratchVector growth keeps the elements already written", "[runtime][scratch_vector]") {
	ScratchVector<float> values;
	for (int round = 0; round < 3; ++round) {
		values.clear();
		for (int i = 0; i < 1000; ++i) {
			values.resize(values.size() + 3);  // uninitialized, written below
			for (int k = 0; k < 3; ++k) values[values.size() - 3 + k] = float(3 * i + k + round);
		}
		REQUIRE(values.size() == 3000);
		for (int i = 0; i < 3000; ++i) REQUIRE(values[i] == float(i + round));
	}
}

}  // namespace
