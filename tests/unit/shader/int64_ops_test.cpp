// 64-bit integers beyond arithmetic (FindLSB/FindMSB, bit counts, edges of
// division and shifts, conversions to narrow types and floats), the 64-bit
// instructions glslang does not emit (OpSwitch selectors, bit-field ops,
// extended arithmetic on 8/16/64-bit), and 64-bit atomics.
#include <algorithm>
#include <bit>
#include <limits>

#include "run_shader.h"

using namespace tessera;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// Pairs (x, y) of edge values and a spread of ordinary ones.
std::vector<uint64_t> EdgeInputs(uint32_t n) {
	const uint64_t edges[][2] = {
	    {static_cast<uint64_t>(kMin), ~0ull},  // INT64_MIN / -1
	    {static_cast<uint64_t>(kMax), 63},     // shift by 63
	    {0, 0},
	    {~0ull, 1},
	    {1, 0x3f3f},
	    {0x100000000ull, 0x100000000ull},
	    {static_cast<uint64_t>(kMin), 63},
	    {0x8000000000000001ull, static_cast<uint64_t>(-7)},
	    {999, 1000},
	    {5, 0x2020},
	    {0xffffffffull, 0x1ffffffffull},
	    {static_cast<uint64_t>(-5), 3},
	};
	std::vector<uint64_t> in(2 * n);
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	for (uint32_t i = 0; i < n; ++i) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		in[2 * i] = seed ^ (seed >> (i % 60));
		in[2 * i + 1] = (seed >> (i % 64)) * (i % 2 ? 1 : ~0ull);
	}
	for (size_t k = 0; k < std::size(edges) && k < n; ++k) in[2 * k] = edges[k][0], in[2 * k + 1] = edges[k][1];
	return in;
}

uint64_t FindMsb(uint64_t x) { return x ? 63 - std::countl_zero(x) : ~0ull; }

}  // namespace

TEST_CASE("64-bit integers: bit count, division edges, shifts by 63, conversions", "[shader][types][int64]") {
	std::string variant = GENERATE(as<std::string>{}, "", "_vk10");
	shader::Program program = test::CompileShader("int64_bits" + variant);
	const uint32_t n = 32, outputs = 22;
	std::vector<uint64_t> in = EdgeInputs(n), out(n * outputs, 0xdeadbeefdeadbeefull);
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(program, bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		uint64_t x = in[2 * i], y = in[2 * i + 1];
		int64_t sx = static_cast<int64_t>(x), sy = static_cast<int64_t>(y);
		INFO("invocation " << i << " x " << x << " y " << y);
		const uint64_t* o = &out[i * outputs];
		uint32_t off = y & 63, cnt = std::min<uint32_t>((y >> 8) & 63, 64 - off);
		CHECK(o[0] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(sx >> 40))));
		uint32_t low = static_cast<uint32_t>(x), middle = static_cast<uint32_t>(sx >> 20);
		CHECK(o[1] == static_cast<uint64_t>(low ? std::countr_zero(low) : -1));
		CHECK(o[2] == static_cast<uint64_t>(middle ? std::countr_zero(middle) : -1));
		CHECK(o[3] == static_cast<uint64_t>(x >> 32 ? std::countr_zero(x >> 32) : -1));
		CHECK(o[4] == static_cast<uint64_t>(std::popcount(x)));
		CHECK(o[5] == (x ^ (y >> 1)));
		CHECK(o[6] == x >> off);
		CHECK(o[7] == static_cast<uint64_t>(sx >> (63 - cnt)));
		CHECK(o[8] == x << cnt);
		// SDiv/SMod: INT64_MIN / -1 wraps (the engine's choice; SPIR-V leaves it undefined).
		uint64_t quotient = sy == 0 ? 0 : sy == -1 ? 0 - x : static_cast<uint64_t>(sx / sy);
		CHECK(o[9] == quotient);
		int64_t mod = (sy == 0 || sy == -1) ? 0 : sx % sy;
		if (mod != 0 && (mod < 0) != (sy < 0)) mod += sy;
		CHECK(o[10] == static_cast<uint64_t>(mod));
		CHECK(o[11] == x << (y & 63));
		CHECK(o[12] == static_cast<uint64_t>(sx >> (y & 63)));
		CHECK(o[13] == (static_cast<uint64_t>(static_cast<int8_t>(sx)) ^ (uint64_t{static_cast<uint16_t>(x)} << 16) ^
		                (static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(sx))) << 1)));
		CHECK(o[14] == static_cast<uint64_t>(static_cast<int64_t>(static_cast<float>(sx >> 2))));
		CHECK(o[15] == (x < 1000 ? 1u : 0u) + (static_cast<float>(x) == static_cast<float>(y) ? 2u : 0u));
		CHECK(o[16] == (sx < 0 ? 0 - x : x) + static_cast<uint64_t>(sy > 0 ? 1 : sy < 0 ? -1 : 0));
		uint64_t sclamp = static_cast<uint64_t>(std::min(std::max(sx, int64_t{-1000}), sy));
		uint64_t uclamp = std::min(std::max(x, uint64_t{7}), y | 8);
		CHECK(o[17] == (sclamp ^ uclamp));
		CHECK(o[18] == ((x == y ? 1u : 0u) | (sx < sy ? 2u : 0u) | (x >= y ? 4u : 0u) | (sx >= sy ? 8u : 0u)));
		CHECK(o[19] == (static_cast<uint64_t>(std::min(sx, sy)) ^ std::max(x, y)));
		CHECK(o[20] == (~x & (y | 0xff00ff00ff00ff00ull)));
		CHECK(o[21] == 0 - x);
	}
}

namespace {
uint64_t ReverseBits64(uint64_t x) {
	uint64_t r = 0;
	for (int b = 0; b < 64; ++b) r |= ((x >> b) & 1) << (63 - b);
	return r;
}
}  // namespace

TEST_CASE(
    "64-bit switch selectors, FindILsb/FindUMsb/FindSMsb, bit count, bit-field ops and extended arithmetic on "
    "8/16/64-bit "
    "values",
    "[shader][types][int64]") {
	// The module uses the bit ops on 64-bit values, which Vulkan 1.3 rejects
	// (VUID-StandaloneSpirv-Base-04781): compiled without the validator.
	std::vector<uint32_t> words = test::LoadSpirv("int64_ops");
	CHECK(spirv::Validate(words).find("04781") != std::string::npos);
	spirv::CompileOptions options;
	options.validated = true;
	auto compiled = spirv::Compile(words, spirv::Stage::kCompute, "main", {}, options);
	if (!compiled) FAIL(compiled.error().message);
	const uint32_t n = 32, outputs = 19;
	std::vector<uint64_t> in = EdgeInputs(n), out(n * outputs, 0xdeadbeefdeadbeefull);
	in[2 * 20] = 0x7fffffffffffffffull, in[2 * 21] = 5, in[2 * 22] = ~0ull, in[2 * 23] = 0x100000000ull;
	in[2 * 24] = 0x5ull | (1ull << 32);  // low word matches case 5, high word does not
	test::Bindings bindings;
	bindings.Bind(0, in);
	bindings.Bind(1, out);
	REQUIRE(test::Dispatch(compiled.value(), bindings, n / 16) == shader::RunStatus::kSuccess);
	for (uint32_t i = 0; i < n; ++i) {
		uint64_t x = in[2 * i], y = in[2 * i + 1];
		int64_t sx = static_cast<int64_t>(x), sy = static_cast<int64_t>(y);
		INFO("invocation " << i << " x " << x << " y " << y);
		const uint64_t* o = &out[i * outputs];
		uint64_t expected_case = sx == -1 ? 10 : sx == 0x100000000ll ? 11 : sx == kMax ? 12 : sx == 5 ? 13 : 14;
		CHECK(o[0] == expected_case);
		CHECK(o[1] == ReverseBits64(x));
		uint32_t off = y & 63, cnt = std::min<uint32_t>((y >> 8) & 63, 64 - off);
		uint64_t field = cnt == 64 ? ~0ull : (1ull << cnt) - 1;
		CHECK(o[2] == ((x >> off) & field));
		int64_t sextract = cnt == 0 ? 0 : static_cast<int64_t>(x << (64 - off - cnt)) >> (64 - cnt);
		CHECK(o[3] == static_cast<uint64_t>(sextract));
		CHECK(o[4] == ((x & ~(field << off)) | ((y << off) & (field << off))));
		CHECK(o[5] == x + y);
		CHECK(o[6] == (x + y < x ? 1u : 0u));
		CHECK(o[7] == x - y);
		CHECK(o[8] == (x < y ? 1u : 0u));
		unsigned __int128 up = static_cast<unsigned __int128>(x) * y;
		CHECK(o[9] == static_cast<uint64_t>(up));
		CHECK(o[10] == static_cast<uint64_t>(up >> 64));
		__int128 sp = static_cast<__int128>(sx) * sy;
		CHECK(o[11] == static_cast<uint64_t>(sp));
		CHECK(o[12] == static_cast<uint64_t>(static_cast<unsigned __int128>(sp) >> 64));
		uint32_t x8 = x & 0xff, y8 = y & 0xff, x16 = x & 0xffff, y16 = y & 0xffff;
		uint64_t narrow1 = ((x8 + y8) & 0xff) | (uint64_t{(x8 + y8) >> 8} << 8) |
		                   (uint64_t{(x16 - y16) & 0xffff} << 16) | (uint64_t{x16 < y16 ? 1u : 0u} << 32);
		CHECK(o[13] == narrow1);
		uint32_t p8 = x8 * y8;
		int32_t p16 = int32_t{static_cast<int16_t>(x16)} * static_cast<int16_t>(y16);
		// {low, high} halves of each product.
		uint64_t narrow2 = (p8 & 0xff) | (uint64_t{p8 >> 8} << 8) |
		                   (uint64_t{static_cast<uint32_t>(p16) & 0xffff} << 16) |
		                   (uint64_t{static_cast<uint32_t>(p16 >> 16) & 0xffff} << 32);
		CHECK(o[14] == narrow2);
		CHECK(o[15] == FindMsb(x));
		CHECK(o[16] == FindMsb(sx < 0 ? ~x : x));
		CHECK(o[17] == static_cast<uint64_t>(std::popcount(x)));
		CHECK(o[18] == (x ? std::countr_zero(x) : ~0ull));
	}
}

namespace {
// What shaders/atomics64.comp computes, on the host.
struct Atomics64Expected {
	std::vector<uint64_t> counters;  // add, sub, umin, umax, and, or, xor, exch (unchecked), cas, ticket, smin, smax
	std::vector<uint64_t> groups;    // 7 per workgroup
	std::vector<uint64_t> values;    // v per invocation
};
Atomics64Expected ExpectAtomics64(uint32_t invocations, const std::vector<uint64_t>& initial) {
	Atomics64Expected e{initial, {}, {}};
	uint64_t* c = e.counters.data();
	for (uint32_t i = 0; i < invocations; ++i) {
		uint64_t v = (uint64_t{i * 2654435761u} << 29) ^ uint64_t { i * 40503u } ^ (uint64_t{i & 7u} << 61);
		int64_t sv = static_cast<int64_t>(v - 0x4000000000000000ull);
		e.values.push_back(v);
		c[0] += v, c[1] += 0 - v, c[2] = std::min(c[2], v | 1), c[3] = std::max(c[3], v);
		c[4] &= ~(1ull << (i & 63)), c[5] |= 1ull << ((i * 7) & 63), c[6] ^= v;
		c[8] += i + 0x100000000ull, c[9] += 1;
		c[10] = static_cast<uint64_t>(std::min(static_cast<int64_t>(c[10]), sv));
		c[11] = static_cast<uint64_t>(std::max(static_cast<int64_t>(c[11]), sv));
		uint32_t l = i % 64;
		if (l == 0) e.groups.insert(e.groups.end(), {0, 0, ~0ull, static_cast<uint64_t>(kMax), 0, 0, 0});
		uint64_t* g = &e.groups[e.groups.size() - 7];
		g[0] += static_cast<uint64_t>(sv >> 4), g[1] = std::max(g[1], v), g[2] = std::min(g[2], v);
		g[3] = static_cast<uint64_t>(std::min(static_cast<int64_t>(g[3]), sv));
		g[4] |= v, g[5] ^= v, g[6] += l * 0x100000001ull;
	}
	return e;
}
}  // namespace

TEST_CASE("64-bit atomics on storage buffers and shared memory", "[shader][atomics][int64]") {
	shader::Program program = test::CompileShader("atomics64");
	const uint32_t groups = 4, n = groups * 64;
	std::vector<uint64_t> counters = {
	    5, 7, ~0ull, 0, ~0ull, 0, 0x1234, 77, 0, 0, static_cast<uint64_t>(kMax), static_cast<uint64_t>(kMin)};
	Atomics64Expected expected = ExpectAtomics64(n, counters);
	std::vector<uint64_t> per(n * 4, 0), group(groups * 7, 0);
	test::Bindings bindings;
	bindings.Bind(0, counters);
	bindings.Bind(1, per);
	bindings.Bind(2, group);
	REQUIRE(test::Dispatch(program, bindings, groups) == shader::RunStatus::kSuccess);
	for (size_t k = 0; k < counters.size(); ++k) {
		INFO("counter " << k);
		if (k != 7) CHECK(counters[k] == expected.counters[k]);
	}
	CHECK(group == expected.groups);
	// Tickets form a permutation; exchanged values chain from the initial value.
	std::vector<uint64_t> tickets, chain = {counters[7]}, written = {77};
	for (uint32_t i = 0; i < n; ++i) {
		tickets.push_back(per[i * 4]);
		chain.push_back(per[i * 4 + 1]);
		written.push_back(expected.values[i]);
		CHECK(per[i * 4 + 2] == (expected.values[i] ^ 0x5555555555555555ull));
		CHECK(per[i * 4 + 3] == (expected.values[i] ^ 0x5555555555555555ull));
	}
	std::sort(tickets.begin(), tickets.end());
	for (uint32_t i = 0; i < n; ++i) CHECK(tickets[i] == i);
	std::sort(chain.begin(), chain.end());
	std::sort(written.begin(), written.end());
	CHECK(chain == written);
}

TEST_CASE("64-bit atomics out of bounds are dropped and return 0", "[shader][atomics][int64]") {
	shader::Program program = test::CompileShader("atomics64");
	// Counters buffer too short for all but the first two members.
	std::vector<uint64_t> counters = {5, 7}, per(64 * 4, 0), group(7, 0);
	test::Bindings bindings;
	bindings.Bind(0, counters);
	bindings.Bind(1, per);
	bindings.Bind(2, group);
	REQUIRE(test::Dispatch(program, bindings, 1) == shader::RunStatus::kSuccess);
	Atomics64Expected expected = ExpectAtomics64(64, {5, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
	CHECK(counters[0] == expected.counters[0]);
	CHECK(counters[1] == expected.counters[1]);
	for (uint32_t i = 0; i < 64; ++i) CHECK(per[i * 4] == 0);  // tickets from a dropped atomic
}
