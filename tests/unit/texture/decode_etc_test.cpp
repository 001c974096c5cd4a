// ETC2 and EAC block decoding, checked against the Khronos Data Format
// Specification 1.4 §22: blocks are built from its bit layout tables and
// the expected texels are its worked examples or follow its equations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "block_bits.h"
#include "texture/float_formats.h"

using namespace tessera::test;
using tessera::texture::SrgbDecode;

namespace {

// Pixel (x, y) is number 4x + y (a..p down the columns): its color index
// MSB is bit 16 + 4x + y and LSB bit 4x + y.
void SetColorIndex(EtcWord& w, int x, int y, int index) {
	w.Set(16 + 4 * x + y, 16 + 4 * x + y, index >> 1).Set(4 * x + y, 4 * x + y, index & 1);
}
// Its 3-bit EAC index is bits 47 - 3(4x + y) .. 45 - 3(4x + y).
void SetEacIndex(EtcWord& w, int x, int y, int index) {
	const int pixel = 4 * x + y;
	w.Set(47 - 3 * pixel, 45 - 3 * pixel, index);
}

DecodedBlock DecodeWord(VkFormat format, const EtcWord& w) {
	uint8_t bytes[8];
	w.Store(bytes);
	return Decode(format, bytes);
}

void CheckRgb255(const float* got, int r, int g, int b, int a = 255) {
	CHECK(got[0] * 255.0f == Approx(r).margin(1e-3));
	CHECK(got[1] * 255.0f == Approx(g).margin(1e-3));
	CHECK(got[2] * 255.0f == Approx(b).margin(1e-3));
	CHECK(got[3] * 255.0f == Approx(a).margin(1e-3));
}

int Clamp(int v) { return std::clamp(v, 0, 255); }

}  // namespace

TEST_CASE("ETC2 individual mode: 4-bit bases, modifier tables, side-by-side subblocks (DFS 22.1)", "[texture][etc]") {
	// The spec's example: R = 14, G = 3, B = 8 -> (238, 51, 136).
	EtcWord w;
	w.Set(63, 60, 14).Set(55, 52, 3).Set(47, 44, 8);  // subblock 1
	w.Set(59, 56, 4).Set(51, 48, 11).Set(43, 40, 9);  // subblock 2: (68, 187, 153)
	w.Set(39, 37, 2).Set(36, 34, 4).Set(33, 33, 0).Set(32, 32, 0);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetColorIndex(w, x, y, y);
	const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
	// Pixel index 0: +a, 1: +b, 2: -a, 3: -b; table 2 = {9, 29}, table 4 = {18, 60}.
	const int mod1[4] = {9, 29, -9, -29}, mod2[4] = {18, 60, -18, -60};
	for (int y = 0; y < 4; ++y) {
		CheckRgb255(d.at(0, y), Clamp(238 + mod1[y]), Clamp(51 + mod1[y]), Clamp(136 + mod1[y]));
		CheckRgb255(d.at(1, y), Clamp(238 + mod1[y]), Clamp(51 + mod1[y]), Clamp(136 + mod1[y]));
		CheckRgb255(d.at(2, y), Clamp(68 + mod2[y]), Clamp(187 + mod2[y]), Clamp(153 + mod2[y]));
		CheckRgb255(d.at(3, y), Clamp(68 + mod2[y]), Clamp(187 + mod2[y]), Clamp(153 + mod2[y]));
	}
}

TEST_CASE("ETC2 differential mode: 5-bit base plus 3-bit delta, flipped subblocks (DFS 22.1)", "[texture][etc]") {
	// The spec's example: (28, 4, 3) + (-4, 2, 0) -> (231, 33, 24) and (198, 49, 24).
	EtcWord w;
	w.Set(63, 59, 28).Set(58, 56, 4).Set(55, 51, 4).Set(50, 48, 2).Set(47, 43, 3).Set(42, 40, 0);
	w.Set(39, 37, 0).Set(36, 34, 7).Set(33, 33, 1).Set(32, 32, 1);  // flip: top and bottom
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetColorIndex(w, x, y, x);
	const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, w);
	const int mod1[4] = {2, 8, -2, -8}, mod2[4] = {47, 183, -47, -183};
	for (int x = 0; x < 4; ++x) {
		for (int y = 0; y < 2; ++y) CheckRgb255(d.at(x, y), Clamp(231 + mod1[x]), 33 + mod1[x], 24 + mod1[x]);
		for (int y = 2; y < 4; ++y)
			CheckRgb255(d.at(x, y), Clamp(198 + mod2[x]), Clamp(49 + mod2[x]), Clamp(24 + mod2[x]));
	}
}

namespace {

// The spec's T and H examples: base colors (13, 1, 8) and (4, 12, 13),
// distance index 5 (d = 32).
EtcWord TBlock() {
	EtcWord w;
	// R + Rd must leave [0, 31]: bits 63..61 = 111 and bit 58 = 0 make
	// R = 11111b, Rd = 0 R^1..0 = 1.
	w.Set(63, 61, 7).Set(60, 59, 13 >> 2).Set(58, 58, 0).Set(57, 56, 13 & 3).Set(55, 52, 1).Set(51, 48, 8);
	w.Set(47, 44, 4).Set(43, 40, 12).Set(39, 36, 13).Set(35, 34, 5 >> 1).Set(33, 33, 1).Set(32, 32, 5 & 1);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetColorIndex(w, x, y, (x + y) % 4);
	return w;
}

EtcWord HBlock() {
	EtcWord w;
	// R + Rd stays in range (bit 63 = 0); G + Gd leaves it: bits 55..53 = 0
	// and bit 50 = 1 give G = 00011b, Gd = 100b = -4.
	w.Set(63, 63, 0).Set(62, 59, 13).Set(58, 56, 1 >> 1).Set(55, 53, 0).Set(52, 52, 1 & 1);
	w.Set(51, 51, 8 >> 3).Set(50, 50, 1).Set(49, 47, 8 & 7);
	w.Set(46, 43, 4).Set(42, 39, 12).Set(38, 35, 13);
	// Distance index 5 = 101b: da = 1, db = 0, and its LSB is base 1 >= base 2.
	w.Set(34, 34, 1).Set(33, 33, 1).Set(32, 32, 0);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetColorIndex(w, x, y, (x + y) % 4);
	return w;
}

}  // namespace

TEST_CASE("ETC2 T mode: the spec's example paint colors (DFS 22.1)", "[texture][etc]") {
	const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, TBlock());
	const int paint[4][3] = {{221, 17, 136}, {100, 236, 253}, {68, 204, 221}, {36, 172, 189}};
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) {
			const int* p = paint[(x + y) % 4];
			CheckRgb255(d.at(x, y), p[0], p[1], p[2]);
		}
}

TEST_CASE("ETC2 H mode: the spec's example paint colors, G clamped to 0 (DFS 22.1)", "[texture][etc]") {
	const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, HBlock());
	const int paint[4][3] = {{253, 49, 168}, {189, 0, 104}, {100, 236, 253}, {36, 172, 189}};
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) {
			const int* p = paint[(x + y) % 4];
			CheckRgb255(d.at(x, y), p[0], p[1], p[2]);
		}
}

namespace {

// The spec's planar example: origin (12, 64, 62), horizontal (50, 5, 37),
// vertical (40, 112, 45) in RGB676.
EtcWord PlanarBlock() {
	const int r = 12, g = 64, b = 62, rh = 50, gh = 5, bh = 37, rv = 40, gv = 112, bv = 45;
	EtcWord w;
	w.Set(62, 57, r).Set(56, 56, g >> 6).Set(54, 49, g & 63).Set(48, 48, b >> 5);
	// B + Bd must leave [0, 31]: bits 47..45 = 111 and bit 42 = 0.
	w.Set(47, 45, 7).Set(44, 43, (b >> 3) & 3).Set(42, 42, 0).Set(41, 39, b & 7);
	w.Set(38, 34, rh >> 1).Set(33, 33, 1).Set(32, 32, rh & 1);
	w.Set(31, 25, gh).Set(24, 19, bh).Set(18, 13, rv).Set(12, 6, gv).Set(5, 0, bv);
	return w;
}

}  // namespace

TEST_CASE("ETC2 planar mode: the spec's example block, all 16 texels (DFS 22.1)", "[texture][etc]") {
	const int expected[16][5] = {
	    {0, 0, 48, 129, 251},  {1, 0, 87, 99, 226},   {2, 0, 126, 70, 201},  {3, 0, 164, 40, 175},
	    {0, 1, 77, 153, 234},  {1, 1, 115, 123, 209}, {2, 1, 154, 94, 183},  {3, 1, 193, 64, 158},
	    {0, 2, 105, 177, 217}, {1, 2, 144, 147, 191}, {2, 2, 183, 118, 166}, {3, 2, 221, 88, 141},
	    {0, 3, 134, 201, 199}, {1, 3, 172, 171, 174}, {2, 3, 211, 142, 149}, {3, 3, 250, 112, 124},
	};
	const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, PlanarBlock());
	for (const auto& e : expected) {
		INFO("x " << e[0] << " y " << e[1]);
		CheckRgb255(d.at(e[0], e[1]), e[2], e[3], e[4]);
	}
	// Punch-through alpha: planar blocks are opaque whatever bit 33 says.
	EtcWord transparent = PlanarBlock();
	transparent.Set(33, 33, 0);
	const DecodedBlock p = DecodeWord(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, transparent);
	for (const auto& e : expected) CheckRgb255(p.at(e[0], e[1]), e[2], e[3], e[4], 255);
}

TEST_CASE("ETC2 punch-through: opaque bit, index 2 transparent black, index 0 unmodified (DFS 22.9)",
          "[texture][etc]") {
	EtcWord w;
	w.Set(63, 59, 28).Set(58, 56, 4).Set(55, 51, 4).Set(50, 48, 2).Set(47, 43, 3).Set(42, 40, 0);
	w.Set(39, 37, 2).Set(36, 34, 2).Set(32, 32, 0);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetColorIndex(w, x, y, y);
	for (int opaque = 0; opaque < 2; ++opaque) {
		w.Set(33, 33, opaque);
		const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, w);
		const int mod[4] = {opaque ? 9 : 0, 29, opaque ? -9 : 0, -29};
		for (int y = 0; y < 4; ++y) {
			if (!opaque && y == 2) {
				CheckRgb255(d.at(0, y), 0, 0, 0, 0);
				CheckRgb255(d.at(3, y), 0, 0, 0, 0);
				continue;
			}
			CheckRgb255(d.at(0, y), Clamp(231 + mod[y]), Clamp(33 + mod[y]), Clamp(24 + mod[y]));
			CheckRgb255(d.at(3, y), Clamp(198 + mod[y]), Clamp(49 + mod[y]), Clamp(24 + mod[y]));
		}
	}
	// T and H blocks without the opaque bit: index 2 is transparent black.
	for (EtcWord th : {TBlock(), HBlock()}) {
		th.Set(33, 33, 0);
		const DecodedBlock d = DecodeWord(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, th);
		const DecodedBlock opaque = DecodeWord(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, th.Set(33, 33, 1));
		for (int x = 0; x < 4; ++x)
			for (int y = 0; y < 4; ++y) {
				if ((x + y) % 4 == 2) {
					CheckRgb255(d.at(x, y), 0, 0, 0, 0);
				} else {
					const float* o = opaque.at(x, y);
					CheckRgb255(d.at(x, y), int(o[0] * 255 + 0.5f), int(o[1] * 255 + 0.5f), int(o[2] * 255 + 0.5f));
				}
			}
	}
}

TEST_CASE("ETC2 RGBA8: EAC alpha example and a zero multiplier (DFS 22.3)", "[texture][etc]") {
	// base 103, table 13, multiplier 2, pixel index 3 -> 103 - 20 = 83.
	for (int multiplier : {2, 0}) {
		EtcWord alpha;
		alpha.Set(63, 56, 103).Set(55, 52, multiplier).Set(51, 48, 13);
		for (int x = 0; x < 4; ++x)
			for (int y = 0; y < 4; ++y) SetEacIndex(alpha, x, y, (4 * x + y) % 8);
		uint8_t block[16];
		alpha.Store(block);
		EtcWord color;  // individual mode, grey base, no modifier beyond +2
		color.Set(63, 60, 8).Set(55, 52, 8).Set(47, 44, 8).Set(59, 56, 8).Set(51, 48, 8).Set(43, 40, 8);
		color.Store(block + 8);
		const DecodedBlock d = Decode(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, block);
		const int table[8] = {-1, -2, -3, -10, 0, 1, 2, 9};
		for (int x = 0; x < 4; ++x)
			for (int y = 0; y < 4; ++y)
				CheckRgb255(d.at(x, y), 138, 138, 138, Clamp(103 + table[(4 * x + y) % 8] * multiplier));
		if (multiplier == 2) CHECK(d.at(0, 3)[3] * 255.0f == Approx(83).margin(1e-3));  // pixel d: index 3
	}
}

TEST_CASE("EAC R11 unsigned: the spec's examples 668 and 818 of 2047, clamping (DFS 22.5)", "[texture][eac]") {
	EtcWord w;
	w.Set(63, 56, 103).Set(55, 52, 2).Set(51, 48, 13);
	SetEacIndex(w, 0, 1, 3);  // pixel b
	CHECK(DecodeWord(VK_FORMAT_EAC_R11_UNORM_BLOCK, w).at(0, 1)[0] == Approx(668 / 2047.0).margin(1e-7));
	w.Set(55, 52, 0);  // multiplier 0 means 1/8
	const DecodedBlock d = DecodeWord(VK_FORMAT_EAC_R11_UNORM_BLOCK, w);
	CHECK(d.at(0, 1)[0] == Approx(818 / 2047.0).margin(1e-7));
	CHECK(d.at(0, 0)[0] == Approx((103 * 8 + 4 - 1) / 2047.0).margin(1e-7));  // index 0: -1
	CHECK(d.at(0, 0)[3] == 1.0f);
	// base 255, table 15, multiplier 1: index 7 (+8) clamps to 2047 -> 1.0.
	EtcWord top;
	top.Set(63, 56, 255).Set(55, 52, 1).Set(51, 48, 15);
	SetEacIndex(top, 2, 2, 7);
	const DecodedBlock t = DecodeWord(VK_FORMAT_EAC_R11_UNORM_BLOCK, top);
	CHECK(t.at(2, 2)[0] == 1.0f);
	CHECK(t.at(0, 0)[0] == Approx((255 * 8 + 4 - 24) / 2047.0).margin(1e-7));  // index 0: -3 * 8
}

TEST_CASE("EAC R11 signed: the spec's examples, -128 read as -127, clamp to -1023 (DFS 22.7)", "[texture][eac]") {
	EtcWord w;
	w.Set(63, 56, 60).Set(55, 52, 2).Set(51, 48, 13);
	SetEacIndex(w, 0, 1, 3);
	CHECK(DecodeWord(VK_FORMAT_EAC_R11_SNORM_BLOCK, w).at(0, 1)[0] == Approx(320 / 1023.0).margin(1e-7));
	w.Set(55, 52, 0);
	CHECK(DecodeWord(VK_FORMAT_EAC_R11_SNORM_BLOCK, w).at(0, 1)[0] == Approx(470 / 1023.0).margin(1e-7));
	// base -128 (0x80) is -127: -1016 with modifier 0 (table 13, index 4).
	EtcWord low;
	low.Set(63, 56, 0x80).Set(55, 52, 1).Set(51, 48, 13);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetEacIndex(low, x, y, 4);
	SetEacIndex(low, 3, 3, 3);  // -10 * 8 -> -1096, clamped to -1023
	const DecodedBlock d = DecodeWord(VK_FORMAT_EAC_R11_SNORM_BLOCK, low);
	CHECK(d.at(0, 0)[0] == Approx(-1016 / 1023.0).margin(1e-7));
	CHECK(d.at(3, 3)[0] == -1.0f);
	// Zero is exact in the signed format (no +4).
	EtcWord zero;
	zero.Set(51, 48, 13);
	for (int x = 0; x < 4; ++x)
		for (int y = 0; y < 4; ++y) SetEacIndex(zero, x, y, 4);
	CHECK(DecodeWord(VK_FORMAT_EAC_R11_SNORM_BLOCK, zero).at(1, 1)[0] == 0.0f);
}

TEST_CASE("EAC RG11: red from the first word, green from the second (DFS 22.6, 22.8)", "[texture][eac]") {
	EtcWord r, g;
	r.Set(63, 56, 103).Set(55, 52, 2).Set(51, 48, 13);
	g.Set(63, 56, 60).Set(55, 52, 2).Set(51, 48, 13);
	SetEacIndex(r, 0, 1, 3);
	SetEacIndex(g, 0, 1, 3);
	uint8_t block[16];
	r.Store(block);
	g.Store(block + 8);
	const DecodedBlock u = Decode(VK_FORMAT_EAC_R11G11_UNORM_BLOCK, block);
	CHECK(u.at(0, 1)[0] == Approx(668 / 2047.0).margin(1e-7));
	CHECK(u.at(0, 1)[1] == Approx((60 * 8 + 4 - 160) / 2047.0).margin(1e-7));
	CHECK(u.at(0, 1)[2] == 0.0f);
	CHECK(u.at(0, 1)[3] == 1.0f);
	const DecodedBlock s = Decode(VK_FORMAT_EAC_R11G11_SNORM_BLOCK, block);
	CHECK(s.at(0, 1)[1] == Approx(320 / 1023.0).margin(1e-7));
}

TEST_CASE("ETC2 sRGB formats decode like UNORM, then the EOTF on RGB when linearizing", "[texture][etc][srgb]") {
	uint8_t block[8];
	TBlock().Store(block);
	const DecodedBlock unorm = Decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, block);
	const DecodedBlock keep = Decode(VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, block, SrgbDecode::Keep);
	const DecodedBlock linear = Decode(VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, block, SrgbDecode::Linearize);
	for (int t = 0; t < 16; ++t) {
		for (int c = 0; c < 3; ++c) {
			CHECK(keep.texel[t].f[c] == unorm.texel[t].f[c]);
			CHECK(linear.texel[t].f[c] == tessera::texture::SrgbToLinear(unorm.texel[t].f[c]));
		}
		CHECK(linear.texel[t].f[3] == 1.0f);
	}
}

TEST_CASE("ETC2/EAC: 1024 random blocks per format decode as Mesa's GL decoder does", "[texture][etc][eac]") {
	// Reference hashes from an independent decoder: Mesa 22.3.6's OpenGL
	// (llvmpipe) ETC2/EAC decode, read with glCompressedTexImage2D and
	// glGetTexImage(GL_RGBA, GL_FLOAT) of the same blocks (sRGB values kept
	// encoded). Each value is quantized to the format's exact steps (k/255,
	// k/2047 or k/1023, which Mesa's 16-bit EAC results round back to) and
	// hashed with FNV-1a over its 4 little-endian bytes, blocks in order,
	// texels row-major, components RGBA. Random blocks cover all five ETC2
	// modes (about 4% each of T, H and planar) and all EAC tables.
	struct Case {
		VkFormat format;
		uint64_t hash;
	};
	const Case cases[] = {
	    {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 0xf2d4df984b91f883},
	    {VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, 0xc8a21a48d1e4d1ed},
	    {VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, 0x9f81e9fce97c4448},
	    {VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, 0x54c3611ce74a68ef},
	    {VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 0x76b09159f56347fc},
	    {VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, 0x70afc1749a592771},
	    {VK_FORMAT_EAC_R11_UNORM_BLOCK, 0x72fa736749552f1b},
	    {VK_FORMAT_EAC_R11_SNORM_BLOCK, 0xb25093bb237c0b79},
	    {VK_FORMAT_EAC_R11G11_UNORM_BLOCK, 0x7a3cc65a1ea10a16},
	    {VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 0x17021ba55c75f31d},
	};
	for (const Case& c : cases) {
		const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(c.format);
		std::vector<uint8_t> data(1024 * info.block_size);
		std::mt19937 rng(uint32_t(c.format));
		for (uint8_t& b : data) b = uint8_t(rng());
		const double scale =
		    info.compression == tessera::texture::Compression::EAC ? (info.IsSigned() ? 1023.0 : 2047.0) : 255.0;
		uint64_t hash = 1469598103934665603ull;
		for (size_t block = 0; block < 1024; ++block) {
			const DecodedBlock d = Decode(c.format, &data[block * info.block_size]);
			for (const auto& texel : d.texel)
				for (float v : texel.f) {
					const int32_t q = int32_t(std::lround(v * scale));
					for (int k = 0; k < 4; ++k) {
						hash ^= uint8_t(uint32_t(q) >> (8 * k));
						hash *= 1099511628211ull;
					}
				}
		}
		INFO(info.name);
		CHECK(hash == c.hash);
	}
}
