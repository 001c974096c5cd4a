#include "run_shader.h"

using namespace tessera;

namespace {

// std430 layout of the shader's Node: the next pointer, then the value.
struct Node {
	uint64_t next;
	uint32_t value;
	uint32_t pad;
};

struct Push {
	uint64_t head, words, counter;
	uint32_t stride;
};

struct Out {
	uint32_t sum[16], count[16], loaded[16];
	uint32_t at[16][2];
	uint32_t ticket[16];
};

uint64_t Address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

TEST_CASE("Device addresses: a list walk, pointer arithmetic, stores and atomics through pointers",
          "[shader][memory]") {
	// The same program with addresses as uvec2 (OpBitcast) and as uint64_t
	// (OpConvertUToPtr / OpConvertPtrToU; `at` then holds the same bytes).
	std::string name = GENERATE(as<std::string>{}, "buffer_reference", "buffer_reference_int64");
	shader::Program program = test::CompileShader(name);
	std::vector<Node> nodes(16);
	for (uint32_t k = 0; k < 16; ++k) nodes[k] = {k + 1 < 16 ? Address(&nodes[k + 1]) : 0, (k + 1) * 7, 0};
	std::vector<uint32_t> words(80);
	for (uint32_t j = 0; j < 80; ++j) words[j] = j * 11 + 5;
	uint32_t counter = 0;
	std::vector<Out> out(1);
	memset(out.data(), 0xcd, sizeof(Out));

	test::Bindings bindings;
	bindings.Bind(0, out);
	bindings.Push(Push{Address(nodes.data()), Address(words.data()), Address(&counter), 8});
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);

	uint32_t ticket = 0;
	for (uint32_t i = 0; i < 16; ++i) {
		INFO("invocation " << i);
		uint32_t sum = 0;
		for (uint32_t k = i; k < 16; ++k) sum += (k + 1) * 7;
		CHECK(out[0].sum[i] == sum);
		CHECK(out[0].count[i] == 16 - i);
		CHECK(((uint64_t{out[0].at[i][1]} << 32) | out[0].at[i][0]) == Address(&nodes[i]));
		CHECK(out[0].loaded[i] == (2 * i) * 11 + 5);
		CHECK(words[64 + i] == ((2 * i) * 11 + 5) * 3);
		// Atomics run lane by lane in lane order.
		CHECK(out[0].ticket[i] == ticket);
		ticket += i + 1;
	}
	CHECK(counter == 136);
}

TEST_CASE("Device addresses: checked against the live ranges when asked", "[shader][memory]") {
	shader::Program program = test::CompileShader("buffer_reference");
	// A list whose second node points into memory that is not device memory:
	// with the check on, that access reads 0 (a null next pointer ends the walk).
	std::vector<Node> nodes(2);
	static uint64_t outside[4] = {0, 0, 0, 0};
	nodes[0] = {Address(&nodes[1]), 5, 0};
	nodes[1] = {Address(outside), 6, 0};
	outside[0] = 0, outside[1] = 1000;  // a node: next = null, value = 1000 (never read)
	std::vector<uint32_t> words(80, 1);
	uint32_t counter = 0;
	std::vector<Out> out(1);
	std::vector<shader::BufferView> views{{out.data(), sizeof(Out)}};
	Push push{Address(nodes.data()), Address(words.data()), Address(&counter), 4};
	std::vector<shader::AddressRange> ranges{{Address(nodes.data()), Address(nodes.data() + 2)},
	                                         {Address(words.data()), Address(words.data() + 80)},
	                                         {Address(&counter), Address(&counter + 1)}};
	std::sort(ranges.begin(), ranges.end(), [](auto& a, auto& b) { return a.begin < b.begin; });
	shader::Resources resources{views, &push, sizeof(push)};
	resources.check_device_addresses = true;
	resources.device_memory = ranges;
	shader::Interpreter interpreter;
	REQUIRE(interpreter.RunWorkgroup(program, resources, {}) == shader::RunStatus::kSuccess);
	CHECK(out[0].sum[0] == 5 + 6);
	CHECK(out[0].count[0] == 3);  // the third node's fields read 0: its value adds nothing, its next ends the list
	CHECK(out[0].sum[1] == 6);
	CHECK(counter == 136);

	// Without the check the same walk reaches the outside node.
	resources.check_device_addresses = false;
	REQUIRE(interpreter.RunWorkgroup(program, resources, {}) == shader::RunStatus::kSuccess);
	CHECK(out[0].sum[0] == 5 + 6 + 1000);
}

TEST_CASE("Device addresses: OpPtrAccessChain with ArrayStride, negative and constant elements", "[shader][memory]") {
	shader::Program program = test::CompileShader("ptr_access_chain");
	std::vector<uint32_t> pairs(16);
	for (uint32_t k = 0; k < 8; ++k) pairs[2 * k] = k * 5 + 2, pairs[2 * k + 1] = 0xdeadbeefu;
	struct {
		uint64_t base, out;
	} push{Address(&pairs[2]), Address(&pairs[3])};
	test::Bindings bindings;
	bindings.Push(push);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < 8; ++i) {
		INFO("invocation " << i);
		CHECK(pairs[2 * i + 1] == pairs[2 * i] * 3 + pairs[0]);
	}
}

TEST_CASE("Device addresses: 64-bit atomics through a pointer", "[shader][memory]") {
	shader::Program program = test::CompileShader("buffer_reference_atomic64");
	struct Cells {
		uint64_t total, highest, swapped, last;
	};
	struct Out64 {
		uint64_t ticket[16], seen[16];
	};
	// total starts past 2^32, so a 32-bit add would show.
	std::vector<Cells> cells{{0x1'0000'0007ull, 0, 0, 0}};
	std::vector<Out64> out(1);
	test::Bindings bindings;
	bindings.Bind(0, out);
	bindings.Push(Address(cells.data()));
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);

	// Lane by lane in lane order: each add sees the sum of those before it,
	// and the compare-exchange chain 0 -> 1 -> ... -> 16 succeeds each time.
	uint64_t total = 0x1'0000'0007ull, highest = 0;
	for (uint32_t i = 0; i < 16; ++i) {
		INFO("invocation " << i);
		const uint64_t big = (uint64_t{i + 1} << 33) + i;
		CHECK(out[0].ticket[i] == total);
		CHECK(out[0].seen[i] == i);
		total += big;
		highest = std::max<uint64_t>(highest, big ^ 0x5555000000000000ull);
	}
	CHECK(cells[0].total == total);
	CHECK(cells[0].highest == highest);
	CHECK(cells[0].swapped == 16);
	CHECK(cells[0].last == (uint64_t{16} << 33) + 15);
}
