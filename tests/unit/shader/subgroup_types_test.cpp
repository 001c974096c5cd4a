// Subgroup arithmetic on 8/16/64-bit integers and 16/64-bit floats
// (shaderSubgroupExtendedTypes), against the host reference of
// tests/support/subgroup_reference.h with Tessera's subgroup size.
#include <random>

#include "../../support/subgroup_reference.h"
#include "run_shader.h"

using namespace tessera;

namespace {

template <class T>
void CheckIntShader(const char* name, uint32_t seed) {
	shader::Program program = test::CompileShader(name);
	const uint32_t n = 128;  // two workgroups
	std::mt19937_64 rng(seed);
	std::vector<T> in(n), out(n * test::kSubgroupIntOutputs, T{0x5a});
	for (T& v : in) v = static_cast<T>(rng());
	in[1] = std::numeric_limits<T>::min(), in[2] = std::numeric_limits<T>::max(), in[3] = T{-1}, in[5] = T{0};
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 2) == shader::RunStatus::kSuccess);
	std::vector<std::optional<T>> expected = test::ExpectedSubgroupInts(in, shader::kSubgroupSize);
	for (size_t k = 0; k < out.size(); ++k) {
		INFO(name << " invocation " << k / test::kSubgroupIntOutputs << " output " << k % test::kSubgroupIntOutputs);
		CHECK(static_cast<int64_t>(out[k]) == static_cast<int64_t>(expected[k].value_or(T{0x5a})));
	}
}

}  // namespace

TEST_CASE("subgroup arithmetic on 8-bit integers", "[shader][subgroup]") { CheckIntShader<int8_t>("subgroup_i8", 1); }
TEST_CASE("subgroup arithmetic on 16-bit integers", "[shader][subgroup]") {
	CheckIntShader<int16_t>("subgroup_i16", 2);
}
TEST_CASE("subgroup arithmetic on 64-bit integers", "[shader][subgroup]") {
	CheckIntShader<int64_t>("subgroup_i64", 3);
}

TEST_CASE("subgroup arithmetic on 16-bit and 64-bit floats", "[shader][subgroup]") {
	const uint32_t n = 128;
	std::vector<double> in = test::SubgroupFloatInputs(n, 4);
	std::vector<std::optional<double>> expected = test::ExpectedSubgroupFloats(in, shader::kSubgroupSize);
	const double sentinel = 1000.0;
	SECTION("float16") {
		shader::Program program = test::CompileShader("subgroup_f16");
		std::vector<uint16_t> in16(2 * n), out(n * test::kSubgroupFloatOutputs, test::HalfBits(sentinel));
		for (uint32_t k = 0; k < 2 * n; ++k) in16[k] = test::HalfBits(in[k]);
		test::Bindings bindings;
		bindings.Bind(0, in16);
		bindings.Bind(1, out);
		REQUIRE(test::Dispatch(program, bindings, 2) == shader::RunStatus::kSuccess);
		for (size_t k = 0; k < out.size(); ++k) {
			INFO("invocation " << k / test::kSubgroupFloatOutputs << " output " << k % test::kSubgroupFloatOutputs);
			CHECK(test::HalfValue(out[k]) == expected[k].value_or(sentinel));
		}
	}
	SECTION("float64") {
		shader::Program program = test::CompileShader("subgroup_f64");
		std::vector<double> out(n * test::kSubgroupFloatOutputs, sentinel);
		test::Bindings bindings;
		bindings.Bind(0, in);
		bindings.Bind(1, out);
		REQUIRE(test::Dispatch(program, bindings, 2) == shader::RunStatus::kSuccess);
		for (size_t k = 0; k < out.size(); ++k) {
			INFO("invocation " << k / test::kSubgroupFloatOutputs << " output " << k % test::kSubgroupFloatOutputs);
			CHECK(out[k] == expected[k].value_or(sentinel));
		}
	}
}

TEST_CASE("clustered subgroup reductions on 8/16/32/64-bit integers and 16/32/64-bit floats", "[shader][subgroup]") {
	shader::Program program = test::CompileShader("subgroup_clustered");
	const uint32_t n = 128;
	std::mt19937_64 rng(5);
	std::vector<int64_t> ints(n);
	for (int64_t& v : ints) v = static_cast<int64_t>(rng());
	std::vector<double> pairs = test::SubgroupFloatInputs(n, 6), floats(n);
	for (uint32_t k = 0; k < n; ++k) floats[k] = pairs[2 * k];  // the x values (k / 4)
	std::vector<int64_t> int_out(n * 16, 0x5a), int_expected;
	std::vector<double> float_out(n * 9, 1000.0), float_expected;
	test::Bindings bindings;
	bindings.Bind(0, ints);
	bindings.Bind(1, floats);
	bindings.Bind(2, int_out);
	bindings.Bind(3, float_out);
	REQUIRE(test::Dispatch(program, bindings, 2) == shader::RunStatus::kSuccess);
	test::ExpectedClustered(ints, floats, int_expected, float_expected);
	for (size_t k = 0; k < int_out.size(); ++k) {
		INFO("invocation " << k / 16 << " integer output " << k % 16);
		CHECK(int_out[k] == int_expected[k]);
	}
	for (size_t k = 0; k < float_out.size(); ++k) {
		INFO("invocation " << k / 9 << " float output " << k % 9);
		CHECK(float_out[k] == float_expected[k]);
	}
}
