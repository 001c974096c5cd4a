#include <algorithm>

#include "run_shader.h"

using namespace tessera;

TEST_CASE("subgroup operations combine the active lanes of each subgroup", "[shader][subgroup]") {
	shader::Program program = test::CompileShader("subgroup");
	REQUIRE(program.uses_subgroups);
	const uint32_t n = 64, s = shader::kSubgroupSize;
	std::vector<uint32_t> in(n), out(n * 16, 0xabcdu);
	for (uint32_t i = 0; i < n; ++i) in[i] = (i * 37u + 5u) % 101u;
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		const uint32_t* o = &out[i * 16];
		uint32_t first = i / s * s, lane = i % s;
		INFO("invocation " << i);
		uint32_t sum = 0, inclusive = 0, exclusive_max = 0, ballot = 0;
		for (uint32_t k = first; k < first + s; ++k) {
			sum += in[k];
			if (k <= i) inclusive += in[k];
			if (k < i) exclusive_max = std::max(exclusive_max, in[k]);
			if (in[k] > 50u) ballot |= 1u << (k - first);
		}
		uint32_t cluster_min = *std::min_element(&in[i / 4 * 4], &in[i / 4 * 4 + 4]);
		CHECK(o[0] == s);
		CHECK(o[1] == lane + 100u * (i / s) + 10000u * (n / s));
		CHECK(o[2] == sum);
		CHECK(o[3] == inclusive);
		CHECK(o[4] == exclusive_max);
		CHECK(o[5] == ballot);
		CHECK(o[6] == in[i ^ 1u]);
		CHECK(o[7] == cluster_min);
		CHECK(o[8] == (1u << lane) - 1u);
		if ((in[i] & 3u) == 0u) {
			for (uint32_t k = 9; k < 16; ++k) CHECK(o[k] == 0xabcdu);
			continue;
		}
		// The active lanes of this subgroup in the divergent part.
		std::vector<uint32_t> active;
		for (uint32_t k = first; k < first + s; ++k)
			if ((in[k] & 3u) != 0u) active.push_back(k);
		bool all = true, any = false;
		for (uint32_t k : active) all &= in[k] > 2u, any |= in[k] > 90u;
		CHECK(o[9] == (i == active[0] ? 1u : 0u));
		CHECK(o[10] == in[active[0]]);
		CHECK(o[11] == active.size());
		CHECK(o[12] == (all ? 1u : 0u) + (any ? 2u : 0u));
		CHECK(o[13] == active.size());
		bool five_active = (in[first + 5] & 3u) != 0u, three_active = (in[first + 3] & 3u) != 0u;
		if (five_active) CHECK(o[14] == in[first + 5]);  // reading an inactive lane is undefined
		if (three_active) CHECK(o[15] == in[first + 3]);
	}
}

TEST_CASE("quad operations exchange values within aligned groups of four lanes", "[shader][subgroup]") {
	shader::Program program = test::CompileShader("quad");
	std::vector<uint32_t> out(32 * 4);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	auto x = [](uint32_t lane) { return lane * 3u + 1u; };
	for (uint32_t i = 0; i < 32; ++i) {
		INFO("lane " << i);
		REQUIRE(out[i * 4 + 0] == x((i & ~3u) + 2u));
		REQUIRE(out[i * 4 + 1] == x(i ^ 1u));
		REQUIRE(out[i * 4 + 2] == x(i ^ 2u));
		REQUIRE(out[i * 4 + 3] == x(i ^ 3u));
	}
}

TEST_CASE("subgroup rotations read the invocation delta further on within the cluster", "[shader][subgroup]") {
	// SPV_KHR_subgroup_rotate: invocation ((id + delta) & (size - 1)) +
	// (id & ~(size - 1)) of the subgroup, size being the cluster's or the
	// subgroup's; SPV_KHR_expect_assume's OpExpectKHR is its value.
	shader::Program program = test::CompileShader("subgroup_rotate");
	const uint32_t n = 64, s = shader::kSubgroupSize;
	std::vector<uint32_t> in(n), out(n * 4, 0xabcdu);
	for (uint32_t i = 0; i < n; ++i) in[i] = i * 7u + 100u;
	in[0] = 13;  // the rotation of the third result, dynamically uniform
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	auto rotated = [&](uint32_t i, uint32_t delta, uint32_t size) {
		const uint32_t first = i / s * s, id = i % s;
		return in[first + (((id + delta) & (size - 1)) | (id & ~(size - 1)))];
	};
	for (uint32_t i = 0; i < n; ++i) {
		INFO("invocation " << i);
		CHECK(out[i * 4 + 0] == rotated(i, 3, s));
		CHECK(out[i * 4 + 1] == rotated(i, 1, 4));
		CHECK(out[i * 4 + 2] == rotated(i, 13, 8));
		CHECK(out[i * 4 + 3] == in[i] + 1);
	}
}

TEST_CASE("a dynamic index into a subgroup mask built-in picks the word per lane", "[shader][subgroup]") {
	// The CTS's subgroups.ballot_mask.ext_shader_subgroup_ballot.* index
	// gl_SubgroupEqMaskARB's words with the invocation's index; the
	// translator refused any dynamic index into a built-in.
	shader::Program program = test::CompileShader("builtin_dynamic_index");
	const uint32_t n = 64, s = shader::kSubgroupSize;
	std::vector<uint32_t> out(n * 2, 0xabcdu);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		const uint32_t lane = i % s;
		INFO("invocation " << i);
		CHECK(out[2 * i] == ((lane & 3) == 0 ? 1u << lane : 0u));  // words 1-3 of the mask are 0
		CHECK(out[2 * i + 1] == ((lane & 1) == 0 ? ~0u << lane : 0u));
	}
}
