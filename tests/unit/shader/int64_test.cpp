#include "run_shader.h"

using namespace tessera;

TEST_CASE("64-bit integers: arithmetic, shifts, comparisons, conversions, buffer layout", "[shader][types]") {
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("int64" + variant);
	const uint32_t n = 32;
	std::vector<uint64_t> a(n), out(n * 12, 0xdeadbeefdeadbeefull);
	std::vector<int64_t> b(n * 2);
	std::vector<uint32_t> out32(n * 4, 0xdeadbeefu);
	for (uint32_t i = 0; i < n; ++i) {
		a[i] = 0x0123456789abcdefull * (i + 1) + (uint64_t{i} << 40);
		b[2 * i] = static_cast<int64_t>(0x7654321012345678ull >> (i % 40)) * (i % 3 == 0 ? -1 : 1);
		b[2 * i + 1] = static_cast<int64_t>(i % 5) - 2;
	}
	a[3] = 0;
	test::Bindings bindings;
	bindings.Bind(0, a);
	bindings.Bind(1, b);
	bindings.Bind(2, out);
	bindings.Bind(3, out32);
	REQUIRE(test::Dispatch(program, bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		INFO("invocation " << i);
		uint64_t x = a[i];
		int64_t y0 = b[2 * i], y1 = b[2 * i + 1];
		const uint64_t* o = &out[i * 12];
		CHECK(o[0] == x + static_cast<uint64_t>(y0));
		CHECK(o[1] == x - static_cast<uint64_t>(y1));
		CHECK(o[2] == x * 0x9E3779B97F4A7C15ull);
		CHECK(o[3] == (y1 != 0 ? static_cast<uint64_t>(y0 / y1) : 0));
		CHECK(o[4] == x % (i + 3));
		CHECK(o[5] == x << ((i * 5) & 63));
		CHECK(o[6] == static_cast<uint64_t>(y0 >> ((i * 3) & 63)));
		CHECK(o[7] == x >> ((i * 7) & 63));
		CHECK(o[8] == static_cast<uint64_t>(std::min(y0, y1)));
		CHECK(o[9] == std::max<uint64_t>(x, 12345678901ull));
		CHECK(o[10] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(i) - 8)));
		CHECK(o[11] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<float>(y0))));
		const uint32_t* w = &out32[i * 4];
		CHECK(w[0] == ((x < static_cast<uint64_t>(y0)) ? 1u : 0u) + (y0 < y1 ? 2u : 0u) + (x == 0 ? 4u : 0u));
		CHECK(w[1] == static_cast<uint32_t>(x >> 32));
		CHECK(w[2] == static_cast<uint32_t>(x >> 32));
		CHECK(w[3] == static_cast<uint32_t>(y0));
	}
}
