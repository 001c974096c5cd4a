// ASTC LDR decoding on blocks built bit by bit, with expectations worked
// from the Khronos Data Format Specification's ASTC chapter.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "texture/decode_astc.h"

using namespace tessera::texture;
using astc::IseRange;

namespace {

constexpr uint32_t kFootprints[][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                       {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};

// Every ISE range the format uses (weights 0..1 .. 0..31, colors 0..5 .. 0..255).
constexpr IseRange kAllRanges[] = {{0, 0, 1}, {1, 0, 0}, {0, 0, 2}, {0, 1, 0}, {1, 0, 1}, {0, 0, 3}, {0, 1, 1},
                                   {1, 0, 2}, {0, 0, 4}, {0, 1, 2}, {1, 0, 3}, {0, 0, 5}, {0, 1, 3}, {1, 0, 4},
                                   {0, 0, 6}, {0, 1, 4}, {1, 0, 5}, {0, 0, 7}, {0, 1, 5}, {1, 0, 6}, {0, 0, 8}};

// The encoder side of the trit and quint packings: for each tuple, the
// smallest code the spec's decoding maps to it.
struct PackingTables {
	std::map<std::vector<uint8_t>, uint32_t> trit_code, quint_code;
	PackingTables() {
		for (uint32_t code = 256; code-- > 0;) {
			uint8_t t[5];
			astc::DecodeTritBlock(code, t);
			trit_code[std::vector<uint8_t>(t, t + 5)] = code;
		}
		for (uint32_t code = 128; code-- > 0;) {
			uint8_t q[3];
			astc::DecodeQuintBlock(code, q);
			quint_code[std::vector<uint8_t>(q, q + 3)] = code;
		}
	}
};
const PackingTables& Tables() {
	static const PackingTables tables;
	return tables;
}

// Integer sequence encoding of values, as a list of bits (stream order).
std::vector<uint8_t> EncodeIse(const std::vector<uint8_t>& values, IseRange range) {
	std::vector<uint8_t> bits;
	const uint32_t n = range.bits;
	auto put = [&](uint32_t value, uint32_t count) {
		for (uint32_t i = 0; i < count; ++i) bits.push_back((value >> i) & 1);
	};
	auto m = [&](size_t i) { return i < values.size() ? values[i] & ((1u << n) - 1) : 0u; };
	auto high = [&](size_t i) { return i < values.size() ? static_cast<uint8_t>(values[i] >> n) : uint8_t{0}; };
	if (range.trits) {
		for (size_t first = 0; first < values.size(); first += 5) {
			uint32_t t = Tables().trit_code.at(
			    {high(first), high(first + 1), high(first + 2), high(first + 3), high(first + 4)});
			put(m(first), n), put(t, 2), put(m(first + 1), n), put(t >> 2, 2), put(m(first + 2), n);
			put(t >> 4, 1), put(m(first + 3), n), put(t >> 5, 2), put(m(first + 4), n), put(t >> 7, 1);
		}
	} else if (range.quints) {
		for (size_t first = 0; first < values.size(); first += 3) {
			uint32_t q = Tables().quint_code.at({high(first), high(first + 1), high(first + 2)});
			put(m(first), n), put(q, 3), put(m(first + 1), n), put(q >> 3, 2), put(m(first + 2), n), put(q >> 5, 2);
		}
	} else {
		for (size_t i = 0; i < values.size(); ++i) put(values[i], n);
	}
	// The stream stops at IseBitCount; what a partial final block leaves
	// out must be zero bits for the decoder's zero fill to restore it.
	const uint32_t length = astc::IseBitCount(range, static_cast<uint32_t>(values.size()));
	for (size_t i = length; i < bits.size(); ++i) REQUIRE(bits[i] == 0);
	bits.resize(length);
	return bits;
}

// A block assembled field by field.
struct BlockBuilder {
	uint8_t bytes[16] = {};
	BlockBuilder& Put(uint32_t pos, uint32_t count, uint32_t value) {
		for (uint32_t i = 0; i < count; ++i) {
			uint32_t p = pos + i;
			bytes[p >> 3] = static_cast<uint8_t>((bytes[p >> 3] & ~(1u << (p & 7))) | (((value >> i) & 1) << (p & 7)));
		}
		return *this;
	}
	BlockBuilder& PutIse(uint32_t start, const std::vector<uint8_t>& values, IseRange range) {
		// The encoder pads the last trit/quint group; only the sequence's own
		// bits ("Data Size Determination") belong in the block.
		std::vector<uint8_t> bits = EncodeIse(values, range);
		size_t used = astc::IseBitCount(range, static_cast<uint32_t>(values.size()));
		for (size_t i = 0; i < used && i < bits.size(); ++i) Put(start + static_cast<uint32_t>(i), 1, bits[i]);
		return *this;
	}
	// "Weight Decoding": the weight stream's bit n is block bit 127 - n.
	BlockBuilder& PutWeights(const std::vector<uint8_t>& values, IseRange range) {
		std::vector<uint8_t> bits = EncodeIse(values, range);
		for (size_t i = 0; i < bits.size(); ++i) Put(127 - static_cast<uint32_t>(i), 1, bits[i]);
		return *this;
	}
};

// 2D block modes ("ASTC 2D block mode layout").
// A W x H grid with 4 <= W <= 7, 2 <= H <= 5 (first row), weights 0..7.
uint32_t ModeGrid(uint32_t w, uint32_t h, bool dual) {
	return 0x13 | ((h - 2) << 5) | ((w - 4) << 7) | (dual ? 0x400 : 0);  // rho = 111, P = 0
}
// A 2 x 2 grid (fifth row: bit 8 set, W = bit 7 + 2, H = bits 6..5 + 2), weights 0..7.
uint32_t Mode2x2(bool dual) { return 0x11F | (dual ? 0x400 : 0); }

constexpr IseRange kBits3{0, 0, 3};
constexpr IseRange kBits8{0, 0, 8};

BlockBuilder VoidExtent(uint16_t r, uint16_t g, uint16_t b, uint16_t a) {
	BlockBuilder block;
	block.Put(0, 9, 0x1FC).Put(9, 1, 0).Put(10, 2, 3);
	block.Put(12, 26, 0x3FFFFFF).Put(38, 26, 0x3FFFFFF);  // no extent: all coordinates all-1s
	block.Put(64, 16, r).Put(80, 16, g).Put(96, 16, b).Put(112, 16, a);
	return block;
}

bool IsMagenta(const float* rgba) { return rgba[0] == 1.0f && rgba[1] == 0.0f && rgba[2] == 1.0f && rgba[3] == 1.0f; }

bool AllMagenta(const BlockBuilder& block, uint32_t w, uint32_t h) {
	float out[kAstcMaxBlockTexels * 4];
	if (DecodeAstcBlock(block.bytes, w, h, false, out)) return false;
	for (uint32_t i = 0; i < w * h; ++i)
		if (!IsMagenta(out + 4 * i)) return false;
	uint8_t out8[kAstcMaxBlockTexels * 4];
	if (DecodeAstcBlockUnorm8(block.bytes, w, h, true, out8)) return false;
	for (uint32_t i = 0; i < w * h; ++i)
		if (out8[4 * i] != 255 || out8[4 * i + 1] != 0 || out8[4 * i + 2] != 255 || out8[4 * i + 3] != 255)
			return false;
	return true;
}

// A single-partition block: CEM 0 (luminance direct) from l0 to l1, a 4x4
// 0..7 weight grid.
BlockBuilder LuminanceBlock(uint8_t l0, uint8_t l1, const std::vector<uint8_t>& weights) {
	BlockBuilder block;
	block.Put(0, 11, ModeGrid(4, 4, false)).Put(11, 2, 0).Put(13, 4, 0);
	// 128 - 17 - 48 weight bits leaves 63 bits: two 8-bit values.
	block.PutIse(17, {l0, l1}, kBits8).PutWeights(weights, kBits3);
	return block;
}

}  // namespace

TEST_CASE("ASTC trit and quint decoding follows the spec's bit manipulations", "[texture][astc]") {
	// Worked by hand from "Integer Sequence Encoding".
	uint8_t t[5], q[3];
	astc::DecodeTritBlock(0x00, t);
	CHECK(std::vector<uint8_t>(t, t + 5) == std::vector<uint8_t>{0, 0, 0, 0, 0});
	astc::DecodeTritBlock(0xFF, t);  // T[4:2] = 111: C = 11111, t4 = t3 = 2; C[1:0] = 11: t2 = 2, t1 = 1, t0 = 10
	CHECK(std::vector<uint8_t>(t, t + 5) == std::vector<uint8_t>{2, 1, 2, 2, 2});
	astc::DecodeTritBlock(0x6D, t);  // C = 01101, T[6:5] = 11: t4 = 2, t3 = T7 = 0; C[3:2] = 11: t2 = t1 = 2, t0 = 01
	CHECK(std::vector<uint8_t>(t, t + 5) == std::vector<uint8_t>{1, 2, 2, 0, 2});
	astc::DecodeTritBlock(0x92, t);  // C = 10010, t4 = 1, t3 = 00; t2 = 1, t1 = 00, t0 = {1, 0&~1} = 10
	CHECK(std::vector<uint8_t>(t, t + 5) == std::vector<uint8_t>{2, 0, 1, 0, 1});
	astc::DecodeQuintBlock(0x7F, q);  // Q[2:1] = 11, Q[6:5] = 11: q2 = 4, C = {11, 00, 1}: q1 = 3, q0 = 001
	CHECK(std::vector<uint8_t>(q, q + 3) == std::vector<uint8_t>{1, 3, 4});
	astc::DecodeQuintBlock(0x1E, q);  // Q[2:1] = 11, Q[6:5] = 00: q2 = {0, 1, 1} = 3, q1 = q0 = 4
	CHECK(std::vector<uint8_t>(q, q + 3) == std::vector<uint8_t>{4, 4, 3});
	astc::DecodeQuintBlock(0x2D, q);  // q2 = 01, C = 01101: C[2:0] = 101: q1 = 4, q0 = 01
	CHECK(std::vector<uint8_t>(q, q + 3) == std::vector<uint8_t>{1, 4, 1});
	// Every tuple has a code, so every sequence can be encoded.
	CHECK(Tables().trit_code.size() == 243);
	CHECK(Tables().quint_code.size() == 125);
}

TEST_CASE("ASTC integer sequences round-trip through encoding for every range and length", "[texture][astc]") {
	std::mt19937 rng(5);
	for (IseRange range : kAllRanges) {
		for (uint32_t count = 1; count <= 64; ++count) {
			// Start at an odd position, with ones around the sequence, to check its bounds.
			const uint32_t start = 3;
			if (start + astc::IseBitCount(range, count) > 128) break;
			INFO("levels " << range.Levels() << " count " << count);
			std::vector<uint8_t> values(count);
			for (auto& v : values) v = static_cast<uint8_t>(rng() % range.Levels());
			BlockBuilder block;
			for (uint32_t i = 0; i < 128; ++i) block.Put(i, 1, 1);
			block.PutIse(start, values, range);
			std::vector<uint8_t> decoded(count);
			astc::DecodeIse(block.bytes, start, range, count, decoded.data());
			CHECK(decoded == values);
		}
	}
	// Sizes from "Data Size Determination".
	CHECK(astc::IseBitCount({1, 0, 0}, 5) == 8);
	CHECK(astc::IseBitCount({1, 0, 2}, 7) == 12 + 14);
	CHECK(astc::IseBitCount({0, 1, 0}, 3) == 7);
	CHECK(astc::IseBitCount({0, 1, 3}, 4) == 10 + 12);
}

TEST_CASE("ASTC unquantization follows the spec's tables", "[texture][astc]") {
	// Colors: bit replication, and the A/B/C/D procedure worked by hand.
	CHECK(astc::UnquantizeColor({0, 0, 8}, 0xA5) == 0xA5);
	CHECK(astc::UnquantizeColor({0, 0, 3}, 5) == 0xB6);  // 101 -> 101 101 10
	CHECK(astc::UnquantizeColor({0, 0, 1}, 1) == 0xFF);
	CHECK(astc::UnquantizeColor({1, 0, 1}, 1) == 255);   // 0..5: D = 0, a = 1: (0 ^ 0x1FF) >> 2 | 0x80
	CHECK(astc::UnquantizeColor({1, 0, 1}, 3) == 204);   // D = 1, a = 1: (204 ^ 0x1FF) >> 2 | 0x80
	CHECK(astc::UnquantizeColor({1, 0, 1}, 4) == 102);   // D = 2, a = 0: 408 >> 2
	CHECK(astc::UnquantizeColor({0, 1, 2}, 13) == 215);  // 0..19: D = 3, ba = 01: (162 ^ 0x1FF) >> 2 | 0x80
	CHECK(astc::UnquantizeColor({1, 0, 2}, 6) == 92);    // 0..11: D = 1, ba = 10: (93 + 0x116) >> 2
	// Weights.
	CHECK(astc::UnquantizeWeight({0, 0, 3}, 4) == 37);  // 100 -> 100100 = 36, > 32 -> 37
	CHECK(astc::UnquantizeWeight({0, 0, 5}, 31) == 64);
	CHECK(astc::UnquantizeWeight({1, 0, 0}, 1) == 32);
	CHECK(astc::UnquantizeWeight({0, 1, 0}, 3) == 48);  // table 47 -> 48
	CHECK(astc::UnquantizeWeight({1, 0, 1}, 3) == 52);  // 0..5: D = 1, a = 1: (50 ^ 0x7F) >> 2 | 0x20 = 51 -> 52
	CHECK(astc::UnquantizeWeight({0, 1, 2}, 6) == 19);  // 0..19: D = 1, ba = 10: (13 + 0x42) >> 2
	// Every range reaches both ends with distinct values.
	for (IseRange range : kAllRanges) {
		INFO("levels " << range.Levels());
		std::set<uint32_t> colors, weights;
		for (uint32_t v = 0; v < range.Levels(); ++v) colors.insert(astc::UnquantizeColor(range, v));
		if (range.Levels() >= 6) {
			CHECK(colors.size() == range.Levels());
			CHECK(*colors.begin() == 0);
			CHECK(*colors.rbegin() == 255);
		}
		if (range.Levels() > 32) continue;
		for (uint32_t v = 0; v < range.Levels(); ++v) weights.insert(astc::UnquantizeWeight(range, v));
		CHECK(weights.size() == range.Levels());
		CHECK(*weights.begin() == 0);
		CHECK(*weights.rbegin() == 64);
	}
}

TEST_CASE("ASTC partition selection matches the spec's function worked independently", "[texture][astc]") {
	// Values from a separate transcription of hash52() and select_partition().
	CHECK(astc::Hash52(0) == 0u);
	CHECK(astc::Hash52(1) == 0x0C46F563u);
	CHECK(astc::Hash52(1024) == 0xBD3D4343u);
	CHECK(astc::Hash52(2047) == 0x94F75EB7u);
	CHECK(astc::Hash52(3071) == 0x824DF797u);
	struct Case {
		uint32_t seed, partitions, width, height;
		std::vector<const char*> rows;
	};
	const Case cases[] = {
	    {37, 2, 4, 4, {"1110", "1110", "0110", "0100"}},
	    {555, 3, 6, 6, {"000222", "000222", "000222", "002222", "002222", "002222"}},
	    {1023,
	     4,
	     8,
	     8,
	     {"33333311", "33333331", "33333331", "33333333", "22222222", "22222233", "22333331", "33333011"}},
	    {881, 3, 5, 4, {"00000", "00000", "20000", "00000"}},
	    {100,
	     4,
	     12,
	     12,
	     {"122222222021", "222222222011", "222222200013", "222220001033", "222311110033", "233111330031",
	      "331113333011", "311133300011", "113330000011", "133000000011", "300000000011", "000000000013"}},
	};
	for (const Case& c : cases) {
		INFO("seed " << c.seed << " partitions " << c.partitions);
		for (uint32_t y = 0; y < c.height; ++y)
			for (uint32_t x = 0; x < c.width; ++x)
				CHECK(astc::SelectPartition(c.seed, x, y, 0, c.partitions, c.width * c.height < 31) ==
				      static_cast<uint32_t>(c.rows[y][x] - '0'));
	}
}

TEST_CASE("ASTC void-extent blocks give their UNORM16 color through the decode modes", "[texture][astc]") {
	float out[kAstcMaxBlockTexels * 4];
	uint8_t out8[kAstcMaxBlockTexels * 4];
	BlockBuilder block = VoidExtent(0x1237, 0xFFFF, 0x0000, 0x8000);
	for (const auto& f : kFootprints) {
		INFO(f[0] << "x" << f[1]);
		REQUIRE(DecodeAstcBlock(block.bytes, f[0], f[1], false, out));
		for (uint32_t i = 0; i < f[0] * f[1]; ++i) {
			// decode_float16: 0x1237 / 65536 toward zero to 11 significant bits is 0x1234 / 65536.
			CHECK(out[4 * i + 0] == 0x1234 / 65536.0f);
			CHECK(out[4 * i + 1] == 1.0f);
			CHECK(out[4 * i + 2] == 0.0f);
			CHECK(out[4 * i + 3] == 0.5f);
		}
		REQUIRE(DecodeAstcBlock(block.bytes, f[0], f[1], true, out));
		CHECK(out[0] == 0x12 / 255.0f);  // sRGB: the top 8 bits, still encoded
		CHECK(out[3] == 0x80 / 255.0f);
		REQUIRE(DecodeAstcBlockUnorm8(block.bytes, f[0], f[1], false, out8));
		CHECK((out8[0] == 0x12 && out8[1] == 0xFF && out8[2] == 0 && out8[3] == 0x80));
	}
	// A real extent (min < max) is only a hint: the same color.
	BlockBuilder extent = VoidExtent(0, 0, 0, 0xFFFF);
	extent.Put(12, 13, 5).Put(25, 13, 100).Put(38, 13, 7).Put(51, 13, 8);
	REQUIRE(DecodeAstcBlock(extent.bytes, 4, 4, false, out));
	CHECK((out[0] == 0.0f && out[3] == 1.0f));
	// Illegal or reserved in the LDR profile: the error color.
	CHECK(AllMagenta(BlockBuilder(extent).Put(25, 13, 5), 4, 4));  // min s == max s
	CHECK(AllMagenta(BlockBuilder(extent).Put(51, 13, 3), 4, 4));  // min t > max t
	CHECK(AllMagenta(BlockBuilder(block).Put(10, 1, 0), 6, 6));    // reserved bit 10 not 1
	CHECK(AllMagenta(BlockBuilder(block).Put(11, 1, 0), 6, 6));    // reserved bit 11 not 1
	CHECK(AllMagenta(BlockBuilder(block).Put(9, 1, 1), 8, 8));     // HDR void extent
}

TEST_CASE("ASTC single-partition luminance block decodes to hand-computed texels", "[texture][astc]") {
	// 4x4 grid on a 4x4 block (infill is the identity), weight q at texel
	// (x, y) = (x + 4y) % 8, unquantized 0, 9, 18, 27, 37, 46, 55, 64;
	// endpoints 0x20 and 0xE0 replicate to 0x2020 and 0xE0E0, and
	// C = (0x2020 * (64 - i) + 0xE0E0 * i + 32) / 64.
	std::vector<uint8_t> weights(16);
	for (uint32_t i = 0; i < 16; ++i) weights[i] = static_cast<uint8_t>(i % 8);
	BlockBuilder block = LuminanceBlock(0x20, 0xE0, weights);
	const uint8_t kUnorm8[8] = {32, 59, 86, 113, 143, 170, 197, 224};  // C >> 8
	// decode_float16: C / 65536 truncated to 11 significant bits.
	const float kFloat16[8] = {0.12548828125f, 0.2313232421875f, 0.337158203125f, 0.443115234375f,
	                           0.560546875f,   0.66650390625f,   0.7724609375f,   0.87841796875f};
	float out[16 * 4];
	uint8_t out8[16 * 4];
	REQUIRE(DecodeAstcBlock(block.bytes, 4, 4, false, out));
	REQUIRE(DecodeAstcBlockUnorm8(block.bytes, 4, 4, false, out8));
	for (uint32_t i = 0; i < 16; ++i) {
		INFO("texel " << i);
		for (uint32_t ch = 0; ch < 3; ++ch) {
			CHECK(out[4 * i + ch] == kFloat16[i % 8]);
			CHECK(out8[4 * i + ch] == kUnorm8[i % 8]);
		}
		CHECK(out[4 * i + 3] == 1.0f);
	}
	// sRGB expands endpoints as (e << 8) | 0x80: weight 37 gives
	// (0x2080 * 27 + 0xE080 * 37 + 32) / 64 = 0x8F20, top byte 0x8F.
	REQUIRE(DecodeAstcBlockUnorm8(block.bytes, 4, 4, true, out8));
	CHECK(out8[4 * 4] == 0x8F);
	CHECK(out8[0] == 0x20);
	CHECK(out8[7 * 4] == 0xE0);
}

TEST_CASE("ASTC weight infill and dual-plane component selection", "[texture][astc]") {
	// 2x2 grid on a 4x4 block: Ds = 342, gs = (342 s + 32) >> 6 = 0, 5, 11, 16
	// (16 = next grid column); with grid columns 0 and 64 the weights are
	// (64 fs + 8) >> 4 = 0, 20, 44, 64 along x, whatever the row.
	// Plane 0 has those weights, plane 1 all 0; CEM 4: L 0 -> 255, A 255 -> 0.
	const uint16_t kC[4] = {0, 20480, 45055, 65535};  // (65535 i + 32) / 64
	const float kFloat16[4] = {0.0f, 0.3125f, 45024 / 65536.0f, 1.0f};
	for (uint32_t ccs = 0; ccs < 4; ++ccs) {
		INFO("CCS " << ccs);
		BlockBuilder block;
		block.Put(0, 11, Mode2x2(true)).Put(11, 2, 0).Put(13, 4, 4);
		// 8 weights of 3 bits; 128 - 19 - 24 = 85 bits for 4 8-bit values.
		block.PutIse(17, {0, 255, 255, 0}, kBits8).PutWeights({0, 0, 7, 0, 0, 0, 7, 0}, kBits3);
		block.Put(128 - 24 - 2, 2, ccs);  // CCS, just below the weights
		astc::Unorm16Texel texels[16];
		REQUIRE(astc::DecodeBlockToUnorm16(block.bytes, 4, 4, false, texels));
		float out[16 * 4];
		REQUIRE(DecodeAstcBlock(block.bytes, 4, 4, false, out));
		for (uint32_t y = 0; y < 4; ++y) {
			for (uint32_t x = 0; x < 4; ++x) {
				INFO("texel " << x << "," << y);
				const astc::Unorm16Texel& t = texels[y * 4 + x];
				for (uint32_t ch = 0; ch < 3; ++ch) {
					// The CCS channel uses plane 1 (weight 0: endpoint 0).
					CHECK(t.c[ch] == (ch == ccs ? 0 : kC[x]));
					CHECK(out[(y * 4 + x) * 4 + ch] == (ch == ccs ? 0.0f : kFloat16[x]));
				}
				CHECK(t.c[3] == (ccs == 3 ? 65535 : 65535 - kC[x]));
			}
		}
	}
}

TEST_CASE("ASTC multi-partition blocks: shared and per-partition endpoint modes", "[texture][astc]") {
	const uint32_t seed = 37;  // 4x4, 2 partitions: rows 1110 1110 0110 0100
	// All weights 0: every texel is its partition's endpoint 0.
	std::vector<uint8_t> zero_weights(16, 0);
	SECTION("one CEM for both partitions") {
		BlockBuilder block;
		block.Put(0, 11, ModeGrid(4, 4, false)).Put(11, 2, 1).Put(13, 10, seed).Put(23, 2, 0).Put(25, 4, 0);
		// 128 - 29 - 48 = 51 bits for 4 values: 8 bits each (32) fits.
		block.PutIse(29, {0x40, 0, 0x80, 0}, kBits8).PutWeights(zero_weights, kBits3);
		float out[16 * 4];
		REQUIRE(DecodeAstcBlock(block.bytes, 4, 4, false, out));
		for (uint32_t i = 0; i < 16; ++i) {
			uint32_t p = astc::SelectPartition(seed, i % 4, i / 4, 0, 2, true);
			CHECK(out[4 * i] == (p == 0 ? 0x4040 / 65536.0f : 0x8080 / 65536.0f));
		}
		CHECK(out[0] == 0x8080 / 65536.0f);  // texel (0,0) is in partition 1
		CHECK(out[3 * 4] == 0x4040 / 65536.0f);
	}
	SECTION("CEM 0 and CEM 4, the high M bits below the weights") {
		BlockBuilder block;
		// Selector 01 (classes 0 and 1), C0 = 0, C1 = 1, M0 = 00; M1 = 00 lies in the 2 extra bits.
		block.Put(0, 11, ModeGrid(4, 4, false)).Put(11, 2, 1).Put(13, 10, seed).Put(23, 2, 1);
		block.Put(25, 1, 0).Put(26, 1, 1).Put(27, 2, 0).Put(128 - 48 - 2, 2, 0);
		// 128 - 31 - 48 = 49 bits for 2 + 4 values: 8 bits each is 48.
		block.PutIse(29, {0x20, 0, 0x40, 0, 0x80, 0}, kBits8).PutWeights(zero_weights, kBits3);
		float out[16 * 4];
		REQUIRE(DecodeAstcBlock(block.bytes, 4, 4, false, out));
		for (uint32_t i = 0; i < 16; ++i) {
			bool p1 = astc::SelectPartition(seed, i % 4, i / 4, 0, 2, true) == 1;
			CHECK(out[4 * i] == (p1 ? 0x4040 / 65536.0f : 0x2020 / 65536.0f));
			CHECK(out[4 * i + 3] == (p1 ? 0x8080 / 65536.0f : 1.0f));
		}
		BlockBuilder hdr(block);
		hdr.Put(128 - 48 - 2, 2, 3);  // CEM 7: HDR RGB base+scale
		REQUIRE_FALSE(DecodeAstcBlock(hdr.bytes, 4, 4, false, out));
		for (uint32_t i = 0; i < 16; ++i) {
			bool p1 = astc::SelectPartition(seed, i % 4, i / 4, 0, 2, true) == 1;
			// Only the HDR partition's texels get the error color ("Illegal Encodings").
			CHECK(IsMagenta(out + 4 * i) == p1);
		}
	}
}

TEST_CASE("ASTC illegal and reserved encodings decode to magenta", "[texture][astc]") {
	std::vector<uint8_t> weights(16, 3);
	BlockBuilder good = LuminanceBlock(10, 200, weights);
	float out[kAstcMaxBlockTexels * 4];
	REQUIRE(DecodeAstcBlock(good.bytes, 4, 4, false, out));
	CHECK_FALSE(AllMagenta(good, 4, 4));
	// Reserved block modes: bits [3..0] = 0000; bits [8..5] = 111x but not a void extent.
	CHECK(AllMagenta(BlockBuilder(good).Put(0, 4, 0), 4, 4));
	CHECK(AllMagenta(BlockBuilder(good).Put(0, 11, 0x1E0 | 0x10 | 0x0C), 4, 4));
	// Weight grid wider than the block: 5x4 grid on a 4x4 block (legal on 5x4).
	BlockBuilder wide;
	wide.Put(0, 11, ModeGrid(5, 4, false)).Put(13, 4, 0).PutIse(17, {0, 255}, kBits8);
	wide.PutWeights(std::vector<uint8_t>(20, 1), kBits3);
	CHECK(AllMagenta(wide, 4, 4));
	CHECK(DecodeAstcBlock(wide.bytes, 5, 4, false, out));
	// More than 96 weight bits (6x5 grid, dual plane: 60 weights x 3 bits = 180).
	CHECK(AllMagenta(BlockBuilder().Put(0, 11, ModeGrid(6, 5, true)), 12, 12));
	// More than 64 weights: a 9x9 grid (row "W+6, H+6", rho 010: 1 bit each, 81 bits).
	CHECK(AllMagenta(BlockBuilder().Put(0, 11, 0x04 | (3 << 5) | (2 << 7) | (3 << 9)), 12, 12));
	// 8x8 in that row is legal (64 weights, 64 bits).
	CHECK(DecodeAstcBlock(BlockBuilder().Put(0, 11, 0x04 | (2 << 5) | (2 << 7) | (2 << 9)).bytes, 12, 12, false, out));
	// Fewer than 24 weight bits: a 4x2 grid of 1-bit weights (rho 010 from bits 1..0 = 01): 8 bits.
	CHECK(AllMagenta(BlockBuilder().Put(0, 11, 0x01), 4, 4));
	// Dual plane with 4 partitions.
	CHECK(AllMagenta(BlockBuilder(good).Put(10, 1, 1).Put(11, 2, 3), 12, 12));
	// More than 18 color values: 4 partitions of CEM 12 (32 values).
	CHECK(AllMagenta(BlockBuilder(good).Put(11, 2, 3).Put(23, 6, 12 << 2), 4, 4));
	// Too few bits for 0..5 endpoints: 3 partitions of CEM 8, dual plane (18 values need 47 bits,
	// 128 - 31 - 96 = 1 left).
	BlockBuilder tight;
	tight.Put(0, 11, ModeGrid(4, 4, true)).Put(11, 2, 2).Put(23, 6, 8 << 2);
	CHECK(AllMagenta(tight, 4, 4));
	// HDR endpoint modes in a single partition.
	for (uint32_t cem : {2u, 3u, 7u, 11u, 14u, 15u}) {
		INFO("CEM " << cem);
		CHECK(AllMagenta(BlockBuilder(good).Put(13, 4, cem), 4, 4));
	}
	// Not an ASTC footprint: nothing decoded.
	CHECK_FALSE(DecodeAstcBlock(good.bytes, 4, 5, false, out));
	CHECK_FALSE(IsAstcFootprint(7, 7));
}

TEST_CASE("ASTC decodes every block footprint, edges exactly on the endpoints", "[texture][astc]") {
	// A 4x4 grid with weight columns 0, 2, 5, 7 (0, 18, 46, 64): on every
	// footprint the first texel column is endpoint 0, the last endpoint 1,
	// and luminance does not decrease along x.
	std::vector<uint8_t> weights;
	for (uint32_t y = 0; y < 4; ++y) weights.insert(weights.end(), {0, 2, 5, 7});
	BlockBuilder block = LuminanceBlock(0, 255, weights);
	for (const auto& f : kFootprints) {
		INFO(f[0] << "x" << f[1]);
		float out[kAstcMaxBlockTexels * 4];
		REQUIRE(DecodeAstcBlock(block.bytes, f[0], f[1], false, out));
		for (uint32_t y = 0; y < f[1]; ++y) {
			const float* row = out + 4 * y * f[0];
			CHECK(row[0] == 0.0f);
			CHECK(row[4 * (f[0] - 1)] == 1.0f);
			for (uint32_t x = 1; x < f[0]; ++x) CHECK(row[4 * x] >= row[4 * (x - 1)]);
			for (uint32_t x = 0; x < f[0]; ++x) CHECK(row[4 * x] == out[4 * x]);  // rows equal
		}
	}
}

TEST_CASE("ASTC decode_float16 conversion rounds toward zero to FP16", "[texture][astc]") {
	CHECK(astc::Unorm16ToFloat16Value(0xFFFF) == 1.0f);
	CHECK(astc::Unorm16ToFloat16Value(0xFFFE) == 0xFFE0 / 65536.0f);
	CHECK(astc::Unorm16ToFloat16Value(0) == 0.0f);
	CHECK(astc::Unorm16ToFloat16Value(3) == 3 / 65536.0f);  // FP16 subnormal, exact
	CHECK(astc::Unorm16ToFloat16Value(0x0FFF) == 0x0FFE / 65536.0f);
	CHECK(astc::Unorm16ToFloat16Value(0x07FF) == 0x07FF / 65536.0f);  // 11 bits: exact
}
