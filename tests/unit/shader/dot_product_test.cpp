// Integer dot products (OpSDot, OpUDot, OpSUDot and the AccSat forms) in the
// interpreter, against the host reference of tests/support/dot_reference.h.
#include "../../support/dot_reference.h"
#include "run_shader.h"

using namespace tessera;

TEST_CASE("integer dot products on packed, 8, 16 and 64-bit vectors, saturating accumulation", "[shader][dot]") {
	shader::Program program = test::CompileShader("dot");
	const uint32_t n = 256;
	std::vector<test::DotInput> inputs = test::DotInputs(n, 21);
	std::vector<uint64_t> out(n * test::kDotOutputs, 0x5a5a5a5a5a5a5a5aull);
	test::Bindings bindings;
	bindings.Bind(0, inputs);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, n / 64) == shader::RunStatus::kSuccess);
	std::vector<uint64_t> expected = test::ExpectedDots(inputs);
	uint32_t saturated[test::kDotOutputs] = {};
	for (size_t k = 0; k < out.size(); ++k) {
		INFO("invocation " << k / test::kDotOutputs << " output " << k % test::kDotOutputs);
		CHECK(out[k] == expected[k]);
	}
	// The inputs reach the saturation bounds (else the test could not fail there).
	for (uint32_t i = 0; i < n; ++i) {
		const uint64_t* e = &expected[i * test::kDotOutputs];
		saturated[3] += e[3] == 0x7fffffffu || e[3] == 0xffffffff80000000ull;
		saturated[4] += e[4] == 0xffffffffu;
		saturated[7] += e[7] == 0x7fffu || e[7] == 0xffffffffffff8000ull;
		saturated[8] += e[8] == 0xffu;
		saturated[13] += e[13] == 0x7fffffffffffffffull || e[13] == 0x8000000000000000ull;
		saturated[14] += e[14] == ~0ull;
		saturated[16] += e[16] == 0xffffu;
		saturated[17] += e[17] == 0x7fu || e[17] == 0xffffffffffffff80ull;
	}
	for (uint32_t k : {3u, 4u, 7u, 8u, 13u, 14u, 16u, 17u}) {
		INFO("output " << k);
		CHECK(saturated[k] > 0);
	}
}
