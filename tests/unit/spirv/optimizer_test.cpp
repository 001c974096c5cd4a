// What the front end must do around spirv-opt: instructions its folding
// leaves, forms it does not rewrite, and constants it folds wrongly.
#include <bit>
#include <cstddef>

#include "../shader/run_shader.h"
#include "spirv/compile.h"

using namespace tessera;

TEST_CASE("OpSpecConstantOp that spirv-opt cannot fold runs as its instruction", "[spirv][spec]") {
	struct Data {
		int8_t a8 = -84, s8 = 1;
		int16_t a16 = -168;
		int32_t x = 21;
		int64_t a64 = -168;
		float f = -11200.5f;
	} data;
	spirv::SpecializationEntry entries[] = {
	    {0, offsetof(Data, a8), 1},  {1, offsetof(Data, s8), 1}, {2, offsetof(Data, a16), 2},
	    {3, offsetof(Data, a64), 8}, {4, offsetof(Data, x), 4},  {5, offsetof(Data, f), 4},
	};
	spirv::Specialization spec{entries, {reinterpret_cast<const uint8_t*>(&data), sizeof(data)}};
	shader::Program program = test::CompileShader("spec_constant_ops", spec);
	std::vector<uint32_t> out(9, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(static_cast<int32_t>(out[0]) == -42);
	CHECK(out[1] == 0xacu >> 1);
	CHECK(static_cast<int32_t>(out[2]) == -336);
	CHECK(static_cast<int32_t>(out[3]) == -84);
	CHECK(out[4] == 42u);
	CHECK(std::bit_cast<double>(uint64_t{out[6]} << 32 | out[5]) == -11200.5);
	CHECK(out[7] == 21u);
	CHECK(out[8] == 21u);
}

TEST_CASE("decorations given through decoration groups apply to every target", "[spirv]") {
	shader::Program program = test::CompileShader("decoration_groups");
	std::vector<uint32_t> in = {1, 2, 3, 4}, out(4, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(in == std::vector<uint32_t>{1, 2, 3, 4});
	CHECK(out == std::vector<uint32_t>{2, 4, 6, 8});
}

TEST_CASE("bitcasts of constant 8/16-bit vectors to wider scalars keep every component", "[spirv]") {
	shader::Program program = test::CompileShader("folded_bitcasts");
	std::vector<uint32_t> out(3, 0xdeadbeef);
	std::vector<uint64_t> out64(1, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, out);
	bindings.Bind(1, out64);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(out[0] == 0x42004000u);  // binary16 3.0, 2.0
	CHECK(out[1] == 0x0005fffeu);  // int16 5, -2
	CHECK(out[2] == 0xf4030281u);
	CHECK(out64[0] == 0x3800bc0042004000u);  // binary16 0.5, -1.0, 3.0, 2.0
}

TEST_CASE("debug line instructions between blocks and before the first label are accepted", "[spirv]") {
	// The CTS's spirv_assembly.instruction.graphics.opline cases failed with
	// "instruction outside a block" before.
	shader::Program program = test::CompileShader("op_line");
	std::vector<uint32_t> out(8, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(out == std::vector<uint32_t>{10, 11, 12, 13, 24, 25, 26, 27});
}

TEST_CASE("OpSpecConstantOp QuantizeToF16 flushes binary16 subnormals like the instruction", "[spirv]") {
	// SPIRV-Tools folds it to the binary16 value, subnormal or not; the CTS's
	// opquantize.spec_const_too_small cases caught it.
	shader::Program program = test::CompileShader("quantize_spec");
	std::vector<float> out(4, -1.0f);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	CHECK(out[0] == 0.0f);
	CHECK(out[1] == 0.333251953125f);  // 1/3 rounded to binary16
	CHECK(out[2] == 0.0f);
	CHECK(out[3] == 3.0f);
}

TEST_CASE("structs with no members pass through variables, calls and OpCopyLogical", "[spirv]") {
	// SPIRV-Tools' dead-insert elimination crashed the process on such a
	// module (the CTS's spirv_assembly.instruction.compute.empty_struct.*):
	// it now runs without that pass when a struct has no members.
	shader::Program program = test::CompileShader("empty_struct");
	std::vector<uint32_t> out(8, 0xdeadbeef);
	test::Bindings bindings;
	bindings.Bind(0, out);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 8; ++i) CHECK(out[i] == 2 * i + 1 + (i & 1) * 7);
}
