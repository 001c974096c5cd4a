// BC1-BC7 block decoding, checked against the Khronos Data Format
// Specification 1.4 (§18 S3TC, §19 RGTC, §20 BPTC): blocks are built bit by
// bit from the spec's layouts and the expected texels are worked from its
// equations.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <utility>

#include "block_bits.h"
#include "texture/float_formats.h"

using namespace tessera::test;
using tessera::texture::HalfToFloat;
using tessera::texture::SrgbDecode;

namespace {

constexpr double kEps = 1e-6;

std::array<uint8_t, 8> Bc1Block(uint16_t color0, uint16_t color1, uint32_t codes) {
	std::array<uint8_t, 8> b{};
	b[0] = uint8_t(color0), b[1] = uint8_t(color0 >> 8), b[2] = uint8_t(color1), b[3] = uint8_t(color1 >> 8);
	for (int i = 0; i < 4; ++i) b[4 + i] = uint8_t(codes >> (8 * i));
	return b;
}

uint16_t Rgb565(int r, int g, int b) { return uint16_t(r << 11 | g << 5 | b); }

// Codes for texel t = t % 4 (2 bits) or t % 8 (3 bits).
uint32_t CyclingCodes2() {
	uint32_t bits = 0;
	for (int t = 0; t < 16; ++t) bits |= uint32_t(t % 4) << (2 * t);
	return bits;
}
void PutCyclingCodes3(uint8_t* six_bytes) {
	uint64_t bits = 0;
	for (int t = 0; t < 16; ++t) bits |= uint64_t(t % 8) << (3 * t);
	for (int i = 0; i < 6; ++i) six_bytes[i] = uint8_t(bits >> (8 * i));
}

void CheckRgba(const float* got, double r, double g, double b, double a) {
	CHECK(got[0] == Approx(r).margin(kEps));
	CHECK(got[1] == Approx(g).margin(kEps));
	CHECK(got[2] == Approx(b).margin(kEps));
	CHECK(got[3] == Approx(a).margin(kEps));
}

}  // namespace

TEST_CASE("BC1 four-color block: endpoints and thirds (DFS 18.1)", "[texture][bc]") {
	// The spec's Figure-bc1 example: (29, 60, 1) and (20, 2, 30).
	const auto block = Bc1Block(Rgb565(29, 60, 1), Rgb565(20, 2, 30), CyclingCodes2());
	for (VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK}) {
		const DecodedBlock d = Decode(format, block.data());
		for (int t = 0; t < 16; t += 4) {
			CheckRgba(d.texel[t].f, 29 / 31.0, 60 / 63.0, 1 / 31.0, 1);
			CheckRgba(d.texel[t + 1].f, 20 / 31.0, 2 / 63.0, 30 / 31.0, 1);
			CheckRgba(d.texel[t + 2].f, (2 * 29 / 31.0 + 20 / 31.0) / 3, (2 * 60 / 63.0 + 2 / 63.0) / 3,
			          (2 * 1 / 31.0 + 30 / 31.0) / 3, 1);
			CheckRgba(d.texel[t + 3].f, (29 / 31.0 + 2 * 20 / 31.0) / 3, (60 / 63.0 + 2 * 2 / 63.0) / 3,
			          (1 / 31.0 + 2 * 30 / 31.0) / 3, 1);
		}
	}
}

TEST_CASE("BC1 color0 <= color1: three colors and black, transparent with alpha (DFS 18.1, 18.2)", "[texture][bc]") {
	for (bool equal : {false, true}) {
		const uint16_t c0 = Rgb565(20, 2, 30), c1 = equal ? c0 : Rgb565(29, 60, 1);
		const auto block = Bc1Block(c0, c1, CyclingCodes2());
		const DecodedBlock rgb = Decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block.data());
		const DecodedBlock rgba = Decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, block.data());
		const double r1 = equal ? 20 : 29, g1 = equal ? 2 : 60, b1 = equal ? 30 : 1;
		CheckRgba(rgb.texel[2].f, (20 / 31.0 + r1 / 31.0) / 2, (2 / 63.0 + g1 / 63.0) / 2, (30 / 31.0 + b1 / 31.0) / 2,
		          1);
		CheckRgba(rgb.texel[3].f, 0, 0, 0, 1);   // opaque black
		CheckRgba(rgba.texel[3].f, 0, 0, 0, 0);  // transparent black
		CheckRgba(rgba.texel[1].f, r1 / 31.0, g1 / 63.0, b1 / 31.0, 1);
	}
}

TEST_CASE("BC2: explicit 4-bit alpha, colors always four-color (DFS 18.3)", "[texture][bc]") {
	std::array<uint8_t, 16> block{};
	for (int t = 0; t < 16; ++t) block[t / 2] |= uint8_t(t << (4 * (t % 2)));
	// color0 < color1 would be a 3-color BC1 block; BC2 still interpolates.
	const auto color = Bc1Block(Rgb565(20, 2, 30), Rgb565(29, 60, 1), CyclingCodes2());
	std::memcpy(block.data() + 8, color.data(), 8);
	const DecodedBlock d = Decode(VK_FORMAT_BC2_UNORM_BLOCK, block.data());
	for (int t = 0; t < 16; ++t) CHECK(d.texel[t].f[3] == Approx(t / 15.0).margin(kEps));
	CheckRgba(d.texel[3].f, (20 / 31.0 + 2 * 29 / 31.0) / 3, (2 / 63.0 + 2 * 60 / 63.0) / 3,
	          (30 / 31.0 + 2 * 1 / 31.0) / 3, 3 / 15.0);
}

TEST_CASE("BC3 alpha and BC4 unsigned: 8-value and 6-value modes (DFS 18.4, 19.1)", "[texture][bc]") {
	for (bool eight : {true, false}) {
		const int a0 = eight ? 200 : 50, a1 = eight ? 50 : 200;
		std::array<uint8_t, 16> block{};
		block[0] = uint8_t(a0), block[1] = uint8_t(a1);
		PutCyclingCodes3(block.data() + 2);
		const auto color = Bc1Block(Rgb565(31, 63, 31), Rgb565(0, 0, 0), 0);
		std::memcpy(block.data() + 8, color.data(), 8);
		double expected[8] = {a0 / 255.0, a1 / 255.0};
		for (int k = 2; k < 8; ++k)
			expected[k] = eight    ? ((8 - k) * a0 + (k - 1) * a1) / (7 * 255.0)
			              : k < 6  ? ((6 - k) * a0 + (k - 1) * a1) / (5 * 255.0)
			              : k == 6 ? 0.0
			                       : 1.0;
		const DecodedBlock bc3 = Decode(VK_FORMAT_BC3_UNORM_BLOCK, block.data());
		const DecodedBlock bc4 = Decode(VK_FORMAT_BC4_UNORM_BLOCK, block.data());
		for (int t = 0; t < 16; ++t) {
			CheckRgba(bc3.texel[t].f, 1, 1, 1, expected[t % 8]);
			CheckRgba(bc4.texel[t].f, expected[t % 8], 0, 0, 1);
		}
	}
}

TEST_CASE("BC4 signed: -128 and -127 read as -1, 6-value extremes -1 and 1 (DFS 19.2)", "[texture][bc]") {
	struct Case {
		int8_t r0, r1;
		double e0, e1;
	};
	for (const Case c : {Case{127, -128, 1.0, -1.0}, Case{-128, 127, -1.0, 1.0}, Case{-127, 127, -1.0, 1.0},
	                     Case{0, -64, 0.0, -64 / 127.0}}) {
		std::array<uint8_t, 8> block{};
		block[0] = uint8_t(c.r0), block[1] = uint8_t(c.r1);
		PutCyclingCodes3(block.data() + 2);
		const bool eight = c.r0 > c.r1;
		double expected[8] = {c.e0, c.e1};
		for (int k = 2; k < 8; ++k)
			expected[k] = eight    ? ((8 - k) * c.e0 + (k - 1) * c.e1) / 7
			              : k < 6  ? ((6 - k) * c.e0 + (k - 1) * c.e1) / 5
			              : k == 6 ? -1.0
			                       : 1.0;
		const DecodedBlock d = Decode(VK_FORMAT_BC4_SNORM_BLOCK, block.data());
		for (int t = 0; t < 16; ++t) CheckRgba(d.texel[t].f, expected[t % 8], 0, 0, 1);
		if (c.r0 == 0) CHECK(d.texel[0].f[0] == 0.0f);  // SNORM zero is exact
	}
}

TEST_CASE("BC5: red from the first half, green from the second (DFS 19.3, 19.4)", "[texture][bc]") {
	std::array<uint8_t, 16> block{};
	block[0] = 255, block[1] = 0;  // red: 8-value, texel code 0 -> 1.0
	block[8] = 0, block[9] = 255;  // green: 6-value
	PutCyclingCodes3(block.data() + 10);
	const DecodedBlock d = Decode(VK_FORMAT_BC5_UNORM_BLOCK, block.data());
	for (int t = 0; t < 16; ++t) {
		const int k = t % 8;
		const double g = k < 6 ? (k == 0 ? 0.0 : k == 1 ? 1.0 : (k - 1) * 255 / (5 * 255.0)) : k == 6 ? 0.0 : 1.0;
		CheckRgba(d.texel[t].f, 1, g, 0, 1);
	}
	block[8] = 0x80, block[9] = 0x7f;  // signed green -128, 127: 6-value
	const DecodedBlock s = Decode(VK_FORMAT_BC5_SNORM_BLOCK, block.data());
	CHECK(s.texel[0].f[1] == -1.0f);
	CHECK(s.texel[1].f[1] == 1.0f);
	CHECK(s.texel[0].f[0] == Approx(-1 / 127.0).margin(kEps));  // red0 = 255 = -1 as int8
}

TEST_CASE("sRGB BC formats: Keep gives the encoded value, Linearize applies the EOTF to RGB only",
          "[texture][bc][srgb]") {
	const auto block = Bc1Block(Rgb565(29, 60, 1), Rgb565(20, 2, 30), CyclingCodes2());
	const DecodedBlock keep = Decode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, block.data(), SrgbDecode::Keep);
	const DecodedBlock linear = Decode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, block.data(), SrgbDecode::Linearize);
	const DecodedBlock unorm = Decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, block.data());
	for (int t = 0; t < 16; ++t) {
		for (int c = 0; c < 3; ++c) {
			CHECK(keep.texel[t].f[c] == unorm.texel[t].f[c]);
			CHECK(linear.texel[t].f[c] == tessera::texture::SrgbToLinear(keep.texel[t].f[c]));
		}
		CHECK(linear.texel[t].f[3] == keep.texel[t].f[3]);
	}
}

TEST_CASE("Only the sRGB block formats linearize (vk.xml 239 marks BC4/BC5 SNORM SRGB)", "[texture][bc][srgb]") {
	for (VkFormat f : {VK_FORMAT_BC4_SNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK, VK_FORMAT_BC4_UNORM_BLOCK,
	                   VK_FORMAT_BC6H_SFLOAT_BLOCK, VK_FORMAT_EAC_R11_SNORM_BLOCK}) {
		INFO(tessera::texture::FindFormat(f)->name);
		CHECK(!tessera::texture::IsSrgbBlockFormat(*tessera::texture::FindFormat(f)));
	}
	for (VkFormat f : {VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK})
		CHECK(tessera::texture::IsSrgbBlockFormat(*tessera::texture::FindFormat(f)));
	std::array<uint8_t, 16> block{};
	block[0] = 0x80, block[1] = 0x40, block[8] = 0x40, block[9] = 0x80;  // -128 and 64
	const DecodedBlock linear = Decode(VK_FORMAT_BC5_SNORM_BLOCK, block.data(), SrgbDecode::Linearize);
	CHECK(linear.texel[0].f[0] == -1.0f);
	CHECK(linear.texel[0].f[1] == Approx(64 / 127.0).margin(kEps));
}

// ------------------------------------------------------------------ BC7 --

namespace {

// Table "Mode-dependent BPTC parameters" (NS, PB, RB, ISB, CB, AB, EPB,
// SPB, IB, IB2), the test's own transcription.
struct Bc7Params {
	int ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2;
};
constexpr Bc7Params kBc7[8] = {{3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
                               {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
                               {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
                               {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};
constexpr int kW2[4] = {0, 21, 43, 64}, kW3[8] = {0, 9, 18, 27, 37, 46, 55, 64},
              kW4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
int W(int bits, int index) { return bits == 2 ? kW2[index] : bits == 3 ? kW3[index] : kW4[index]; }

// Partitions the tests use, copied from the spec's tables: subset of each
// texel (row-major) and the anchor texels of subsets 1 and 2.
struct Partition {
	int subset[16];
	int anchor1, anchor2;
};
const Partition kSingle{{}, -1, -1};
const Partition kTwo0{{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, 15, -1};
const Partition kTwo17{{0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, 2, -1};
const Partition kThree0{{0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 1, 2, 2, 2, 2}, 3, 15};
const Partition kThree6{{0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1}, 15, 3};

struct Bc7Block {
	int mode = 0, partition = 0, rotation = 0, isb = 0;
	const Partition* part = &kSingle;
	uint32_t endpoint[6][4] = {};  // [subset * 2 + end][R, G, B, A], CB/AB bits
	uint32_t pbit[6] = {};         // per endpoint (shared: both ends of a subset)
	int index[16] = {}, index2[16] = {};

	bool Anchor(int t) const { return t == 0 || t == part->anchor1 || t == part->anchor2; }

	BitWriter Encode() const {
		const Bc7Params& p = kBc7[mode];
		BitWriter w;
		w.Put(1u << mode, mode + 1).Put(partition, p.pb).Put(rotation, p.rb).Put(isb, p.isb);
		for (int c = 0; c < 3; ++c)
			for (int e = 0; e < 2 * p.ns; ++e) w.Put(endpoint[e][c], p.cb);
		if (p.ab)
			for (int e = 0; e < 2 * p.ns; ++e) w.Put(endpoint[e][3], p.ab);
		if (p.epb)
			for (int e = 0; e < 2 * p.ns; ++e) w.Put(pbit[e], 1);
		if (p.spb)
			for (int s = 0; s < p.ns; ++s) w.Put(pbit[2 * s], 1);
		for (int t = 0; t < 16; ++t) w.Put(index[t], Anchor(t) ? p.ib - 1 : p.ib);
		if (p.ib2)
			for (int t = 0; t < 16; ++t) w.Put(index2[t], t == 0 ? p.ib2 - 1 : p.ib2);
		REQUIRE(w.position() == 128);
		return w;
	}

	// The spec's decode of texel t, as 8-bit RGBA.
	std::array<int, 4> Expected(int t) const {
		const Bc7Params& p = kBc7[mode];
		const bool pbits = p.epb || p.spb;
		const auto expand = [&](uint32_t v, int bits, int e) {
			if (pbits) {
				v = v << 1 | pbit[e];
				++bits;
			}
			v <<= 8 - bits;
			return int(v | v >> bits);  // replicate the top bits into the rest
		};
		const int s = part->subset[t];
		const bool color2 = p.ib2 && isb == 1, alpha2 = p.ib2 && isb == 0;
		const int cw = color2 ? W(p.ib2, index2[t]) : W(p.ib, index[t]);
		const int aw = alpha2 ? W(p.ib2, index2[t]) : W(p.ib, index[t]);
		std::array<int, 4> out{};
		for (int c = 0; c < 4; ++c) {
			int e0 = 255, e1 = 255;
			if (c < 3 || p.ab) {
				const int bits = c < 3 ? p.cb : p.ab;
				e0 = expand(endpoint[2 * s][c], bits, 2 * s);
				e1 = expand(endpoint[2 * s + 1][c], bits, 2 * s + 1);
			}
			const int w = c < 3 ? cw : aw;
			out[c] = ((64 - w) * e0 + w * e1 + 32) >> 6;
		}
		if (rotation) std::swap(out[3], out[rotation - 1]);
		return out;
	}

	void Check() const {
		const BitWriter w = Encode();
		const DecodedBlock d = Decode(VK_FORMAT_BC7_UNORM_BLOCK, w.data());
		for (int t = 0; t < 16; ++t) {
			const std::array<int, 4> e = Expected(t);
			INFO("mode " << mode << " texel " << t);
			for (int c = 0; c < 4; ++c) CHECK(d.texel[t].f[c] * 255.0f == Approx(e[c]).margin(1e-3));
		}
	}
};

// Fills endpoints with distinct values and indices with a pattern that
// keeps each anchor's top bit zero.
Bc7Block MakeBc7(int mode, const Partition& part, int partition, uint32_t seed) {
	const Bc7Params& p = kBc7[mode];
	Bc7Block b;
	b.mode = mode, b.part = &part, b.partition = partition;
	std::mt19937 rng(seed);
	for (int e = 0; e < 2 * p.ns; ++e) {
		for (int c = 0; c < 3; ++c) b.endpoint[e][c] = rng() & ((1u << p.cb) - 1);
		if (p.ab) b.endpoint[e][3] = rng() & ((1u << p.ab) - 1);
		b.pbit[e] = rng() & 1;
	}
	if (p.spb)
		for (int s = 0; s < p.ns; ++s) b.pbit[2 * s + 1] = b.pbit[2 * s];
	for (int t = 0; t < 16; ++t) {
		b.index[t] = int(rng() & ((1u << (b.Anchor(t) ? p.ib - 1 : p.ib)) - 1));
		if (p.ib2) b.index2[t] = int(rng() & ((1u << (t == 0 ? p.ib2 - 1 : p.ib2)) - 1));
	}
	return b;
}

}  // namespace

TEST_CASE("BC7 every mode decodes as the spec's equations say (DFS 20.1)", "[texture][bc][bc7]") {
	MakeBc7(0, kThree0, 0, 1).Check();  // 3 subsets, 4-bit + unique P-bits, 3-bit indices
	MakeBc7(1, kTwo17, 17, 2).Check();  // shared P-bits, anchor at texel 2
	MakeBc7(2, kThree6, 6, 3).Check();  // 3 subsets, anchors 15 and 3
	MakeBc7(3, kTwo0, 0, 4).Check();    // 7-bit + P-bit
	for (int rotation = 0; rotation < 4; ++rotation)
		for (int isb = 0; isb < 2; ++isb) {
			Bc7Block b = MakeBc7(4, kSingle, 0, 5 + rotation);
			b.rotation = rotation, b.isb = isb;
			b.Check();  // rotation and index selection
		}
	for (int rotation = 0; rotation < 4; ++rotation) {
		Bc7Block b = MakeBc7(5, kSingle, 0, 9 + rotation);
		b.rotation = rotation;
		b.Check();
	}
	MakeBc7(6, kSingle, 0, 13).Check();  // RGBA 7+1 bits, 4-bit indices
	MakeBc7(7, kTwo17, 17, 14).Check();  // RGBA 5+1 bits, 2 subsets
}

TEST_CASE("BC7 mode 2 example: texel (1, 2) of partition 6 reads block bits 115-116 (DFS 20.1)", "[texture][bc][bc7]") {
	Bc7Block b;
	b.mode = 2, b.partition = 6, b.part = &kThree6;
	for (int c = 0; c < 3; ++c) b.endpoint[3][c] = 31;  // subset 1's second endpoint: white
	std::array<uint8_t, 16> bytes = b.Encode().bytes();
	bytes[115 / 8] |= uint8_t(1 << (115 % 8));
	bytes[116 / 8] |= uint8_t(1 << (116 % 8));
	const DecodedBlock d = Decode(VK_FORMAT_BC7_UNORM_BLOCK, bytes.data());
	for (int t = 0; t < 16; ++t) {
		INFO("texel " << t);
		CHECK(d.texel[t].f[0] == (t == 9 ? 1.0f : 0.0f));
		CHECK(d.texel[t].f[3] == 1.0f);
	}
}

TEST_CASE("BC7 reserved low byte 0 decodes to 0 (DFS 20.1)", "[texture][bc][bc7]") {
	std::array<uint8_t, 16> block;
	block.fill(0xA5);
	block[0] = 0;
	const DecodedBlock d = Decode(VK_FORMAT_BC7_UNORM_BLOCK, block.data());
	for (int t = 0; t < 16; ++t) CheckRgba(d.texel[t].f, 0, 0, 0, 0);
}

// ----------------------------------------------------------------- BC6H --

namespace {

// §20.2 unquantization and final scaling, for the expected values.
int UnquantizeU(int x, int bits) {
	if (bits >= 15) return x;
	if (x == 0) return 0;
	if (x == (1 << bits) - 1) return 0xFFFF;
	return ((x << 15) + 0x4000) >> (bits - 1);
}
float FinishU(int e0, int e1, int w) { return HalfToFloat(uint16_t(((((64 - w) * e0 + w * e1 + 32) >> 6) * 31) >> 6)); }

}  // namespace

TEST_CASE("BC6H mode 3 unsigned: 10-bit endpoints, 4-bit indices (DFS 20.2)", "[texture][bc][bc6h]") {
	const int e0[3] = {0, 512, 1023}, e1[3] = {1023, 0, 100};
	BitWriter w;
	w.Put(3, 5);
	for (int c = 0; c < 3; ++c) w.Put(e0[c], 10);
	for (int c = 0; c < 3; ++c) w.Put(e1[c], 10);
	REQUIRE(w.position() == 65);
	for (int t = 0; t < 16; ++t) w.Put(t, t == 0 ? 3 : 4);
	const DecodedBlock d = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.data());
	CHECK(UnquantizeU(512, 10) == 32800);
	for (int t = 0; t < 16; ++t)
		for (int c = 0; c < 3; ++c) {
			INFO("texel " << t << " channel " << c);
			CHECK(d.texel[t].f[c] == FinishU(UnquantizeU(e0[c], 10), UnquantizeU(e1[c], 10), kW4[t]));
		}
	CHECK(d.texel[15].f[0] == 65504.0f);  // 0xFFFF * 31/64 = 0x7BFF, the largest half
	CHECK(d.texel[0].f[0] == 0.0f);
	CHECK(d.texel[0].f[3] == 1.0f);
}

TEST_CASE("BC6H mode 0: two subsets, 5-bit deltas scattered as the block description says (DFS 20.2)",
          "[texture][bc][bc6h]") {
	// E0 = (100, 200, 300); deltas E1 = (5, -3, 0), E2 = (-16, 15, 1),
	// E3 = (0, -1, 7), 5 bits each, added to E0 (unsigned: no sign
	// extension of the results). Partition 17, whose second anchor is
	// texel 2.
	const int r[4] = {100, 5, 16, 0}, g[4] = {200, 29, 15, 31}, b[4] = {300, 0, 1, 7};
	const auto bit = [](int v, int n) { return uint32_t(v >> n & 1); };
	BitWriter w;
	// Table "Block descriptions for BC6H block modes", mode 0.
	w.Put(0, 2).Put(bit(g[2], 4), 1).Put(bit(b[2], 4), 1).Put(bit(b[3], 4), 1);
	w.Put(r[0], 10).Put(g[0], 10).Put(b[0], 10);
	w.Put(r[1], 5).Put(bit(g[3], 4), 1).Put(g[2] & 15, 4);
	w.Put(g[1], 5).Put(bit(b[3], 0), 1).Put(g[3] & 15, 4);
	w.Put(b[1], 5).Put(bit(b[3], 1), 1).Put(b[2] & 15, 4);
	w.Put(r[2], 5).Put(bit(b[3], 2), 1).Put(r[3], 5).Put(bit(b[3], 3), 1).Put(17, 5);
	REQUIRE(w.position() == 82);
	const int subset[16] = {0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};  // partition 17
	int index[16];
	for (int t = 0; t < 16; ++t) {
		const bool anchor = t == 0 || t == 2;
		index[t] = anchor ? t % 4 : t % 8;
		w.Put(index[t], anchor ? 2 : 3);
	}
	REQUIRE(w.position() == 128);
	const int endpoint[4][3] = {{100, 200, 300}, {105, 197, 300}, {84, 215, 301}, {100, 199, 307}};
	const DecodedBlock d = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.data());
	for (int t = 0; t < 16; ++t)
		for (int c = 0; c < 3; ++c) {
			INFO("texel " << t << " channel " << c);
			const int s = subset[t];
			CHECK(d.texel[t].f[c] ==
			      FinishU(UnquantizeU(endpoint[2 * s][c], 10), UnquantizeU(endpoint[2 * s + 1][c], 10), kW3[index[t]]));
		}
}

TEST_CASE("BC6H mode 3 signed: sign extension and the -0x7FFF..0x7FFF range (DFS 20.2)", "[texture][bc][bc6h]") {
	BitWriter w;
	w.Put(3, 5).Put(0x200, 10).Put(1, 10).Put(0, 10);  // E0 = (-512, 1, 0)
	w.Put(0x1FF, 10).Put(0x3FF, 10).Put(0, 10);        // E1 = (511, -1, 0)
	for (int t = 0; t < 16; ++t) w.Put(t == 15 ? 15 : 0, t == 0 ? 3 : 4);
	const DecodedBlock d = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, w.data());
	CHECK(d.texel[0].f[0] == -65504.0f);  // |-512| >= 511: -0x7FFF -> 0xFBFF
	CHECK(d.texel[15].f[0] == 65504.0f);
	// G: 1 -> ((1 << 15) + 0x4000) >> 9 = 96 -> 96 * 31 >> 5 = 93, a denormal half.
	CHECK(d.texel[0].f[1] == HalfToFloat(93));
	CHECK(d.texel[15].f[1] == -HalfToFloat(93));
	CHECK(d.texel[0].f[2] == 0.0f);
}

TEST_CASE("BC6H mode 11: transformed endpoints wrap at 12 bits, reversed bit fields (DFS 20.2)",
          "[texture][bc][bc6h]") {
	// R0 = 0x800: R0^10..11 is stored reversed, bit 11 first. R1 is the
	// 8-bit delta -1, so E1.R = (0x800 - 1) & 0xFFF = 0x7FF.
	BitWriter w;
	w.Put(11, 5).Put(0, 10).Put(0, 10).Put(0, 10);
	w.Put(0xFF, 8).Put(1, 1).Put(0, 1);  // R1 delta, R0^11 = 1, R0^10 = 0
	w.Put(0, 8).Put(0, 2);
	w.Put(0, 8).Put(0, 2);
	REQUIRE(w.position() == 65);
	for (int t = 0; t < 16; ++t) w.Put(t == 15 ? 15 : 0, t == 0 ? 3 : 4);
	const DecodedBlock u = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.data());
	CHECK(u.texel[0].f[0] == FinishU(UnquantizeU(0x800, 12), 0, 0));
	CHECK(u.texel[15].f[0] == FinishU(0, UnquantizeU(0x7FF, 12), 64));
	// Signed: E0.R = -2048 -> -0x7FFF; E1.R = 0x7FF = 2047 -> 0x7FFF.
	const DecodedBlock s = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, w.data());
	CHECK(s.texel[0].f[0] == -65504.0f);
	CHECK(s.texel[15].f[0] == 65504.0f);
}

TEST_CASE("BC6H mode 15 signed: endpoint -0x8000 decodes to -Inf as the spec notes (DFS 20.2)", "[texture][bc][bc6h]") {
	BitWriter w;
	w.Put(15, 5).Put(0, 10).Put(0, 10).Put(0, 10);
	w.Put(0, 4).Put(1, 1).Put(0, 5);  // R0^10..15 is reversed: the first bit is R0^15
	w.Put(0, 4).Put(0, 6).Put(0, 4).Put(0, 6);
	REQUIRE(w.position() == 65);
	const DecodedBlock d = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, w.data());
	CHECK(std::isinf(d.texel[5].f[0]));
	CHECK(d.texel[5].f[0] < 0);
	CHECK(d.texel[5].f[1] == 0.0f);
}

TEST_CASE("BC6H reserved modes decode to (0, 0, 0, 1) (DFS 20.2)", "[texture][bc][bc6h]") {
	for (uint8_t mode : {19, 23, 27, 31}) {
		std::array<uint8_t, 16> block;
		block.fill(0xFF);
		block[0] = uint8_t(0xE0 | mode);
		for (VkFormat f : {VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK}) {
			const DecodedBlock d = Decode(f, block.data());
			for (int t = 0; t < 16; ++t) CheckRgba(d.texel[t].f, 0, 0, 0, 1);
		}
	}
}

TEST_CASE("BC6H random blocks: UFLOAT is finite and >= 0, SFLOAT has no NaN and no Inf but mode 15's",
          "[texture][bc][bc6h]") {
	// Counted rather than CHECKed texel by texel, to keep the test fast.
	std::mt19937 rng(7);
	const uint8_t modes[14] = {0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15};
	int bad_unsigned = 0, bad_signed = 0;
	for (int i = 0; i < 14 * 200; ++i) {
		const uint8_t mode = modes[i % 14];
		std::array<uint8_t, 16> block;
		for (auto& b : block) b = uint8_t(rng());
		block[0] = uint8_t((block[0] & (mode < 2 ? 0xFC : 0xE0)) | mode);
		const DecodedBlock u = Decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, block.data());
		const DecodedBlock s = Decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, block.data());
		for (int t = 0; t < 16; ++t)
			for (int c = 0; c < 3; ++c) {
				const float fu = u.texel[t].f[c], fs = s.texel[t].f[c];
				bad_unsigned += !(std::isfinite(fu) && fu >= 0.0f && fu <= 65504.0f);
				bad_signed += std::isnan(fs) || (mode != 15 && !std::isfinite(fs));
			}
	}
	CHECK(bad_unsigned == 0);
	CHECK(bad_signed == 0);
}
