// ETC2 and EAC block decoding: Khronos Data Format Specification 1.4 §22.
// Blocks are big-endian 64-bit words ("int64bit" in the specification).
// Texels are named a..p down the columns: texel (x, y) is pixel number
// 4 * x + y, whose 2-bit color index has its LSB at bit 4x+y and its MSB
// at bit 16+4x+y, and whose 3-bit EAC index is bits 47-3(4x+y)..45-3(4x+y).
#include "texture/decode_etc.h"

#include <algorithm>

namespace tessera::texture::etc {
namespace {

uint64_t LoadBigEndian(const uint8_t* bytes) {
	uint64_t value = 0;
	for (int i = 0; i < 8; ++i) value = value << 8 | bytes[i];
	return value;
}

// Bits hi..lo of a block word.
int Bits(uint64_t word, int hi, int lo) { return int(word >> lo & ((uint64_t(1) << (hi - lo + 1)) - 1)); }

int SignExtend3(int value) { return value >= 4 ? value - 8 : value; }
int Extend4(int v) { return v << 4 | v; }
int Extend5(int v) { return v << 3 | v >> 2; }
int Extend6(int v) { return v << 2 | v >> 4; }
int Extend7(int v) { return v << 1 | v >> 6; }
int Clamp255(int v) { return std::clamp(v, 0, 255); }

// Table "ETC2 intensity modifier sets for `individual' and `differential'
// modes": the small (a) and large (b) modifier of each table codeword.
constexpr int kModifiers[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// Table "Distance table for ETC2 `T' and `H' modes".
constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// Table "Intensity modifier sets for RGBA ETC2 alpha component", shared
// by EAC R11/RG11.
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8},
};

int ColorIndex(uint64_t word, int x, int y) {
	const int pixel = 4 * x + y;
	return int(word >> (16 + pixel) & 1) << 1 | int(word >> pixel & 1);
}

int EacIndex(uint64_t word, int x, int y) { return int(word >> (45 - 3 * (4 * x + y)) & 7); }

struct Rgb {
	int c[3];
};

Rgb AddClamped(const Rgb& base, int amount) {
	return Rgb{{Clamp255(base.c[0] + amount), Clamp255(base.c[1] + amount), Clamp255(base.c[2] + amount)}};
}

void Store(TexelValue& out, const Rgb& color, bool transparent) {
	for (int c = 0; c < 3; ++c) out.f[c] = transparent ? 0.0f : float(color.c[c]) / 255.0f;
	out.f[3] = transparent ? 0.0f : 1.0f;
}

// `Individual' and `differential' modes: two subblocks, each a base color
// and a modifier table. Without `opaque' (punch-through only), index 2 is
// transparent black and index 0 has no modifier.
void DecodeSubblocks(uint64_t word, bool differential, bool opaque, TexelValue out[16]) {
	Rgb base[2];
	if (differential) {
		for (int c = 0; c < 3; ++c) {
			const int value = Bits(word, 63 - 8 * c, 59 - 8 * c);
			const int delta = SignExtend3(Bits(word, 58 - 8 * c, 56 - 8 * c));
			base[0].c[c] = Extend5(value);
			base[1].c[c] = Extend5(value + delta);
		}
	} else {
		for (int c = 0; c < 3; ++c) {
			base[0].c[c] = Extend4(Bits(word, 63 - 8 * c, 60 - 8 * c));
			base[1].c[c] = Extend4(Bits(word, 59 - 8 * c, 56 - 8 * c));
		}
	}
	const int table[2] = {Bits(word, 39, 37), Bits(word, 36, 34)};
	const bool flip = Bits(word, 32, 32);
	for (int y = 0; y < 4; ++y) {
		for (int x = 0; x < 4; ++x) {
			const int subblock = flip ? y >> 1 : x >> 1;
			const int index = ColorIndex(word, x, y);
			const int a = kModifiers[table[subblock]][0], b = kModifiers[table[subblock]][1];
			// Tables "Mapping from pixel index values to modifier values".
			int modifier;
			switch (index) {
			case 0: modifier = opaque ? a : 0; break;
			case 1: modifier = b; break;
			case 2: modifier = opaque ? -a : 0; break;
			default: modifier = -b; break;
			}
			Store(out[4 * y + x], AddClamped(base[subblock], modifier), !opaque && index == 2);
		}
	}
}

// `T' and `H' modes: four paint colors from two 4-bit base colors.
void DecodeTH(uint64_t word, bool h_mode, bool opaque, TexelValue out[16]) {
	Rgb base[2];
	int distance_index;
	if (!h_mode) {
		base[0] = Rgb{{Extend4(Bits(word, 60, 59) << 2 | Bits(word, 57, 56)), Extend4(Bits(word, 55, 52)),
		               Extend4(Bits(word, 51, 48))}};
		base[1] = Rgb{{Extend4(Bits(word, 47, 44)), Extend4(Bits(word, 43, 40)), Extend4(Bits(word, 39, 36))}};
		distance_index = Bits(word, 35, 34) << 1 | Bits(word, 32, 32);
	} else {
		base[0] = Rgb{{Extend4(Bits(word, 62, 59)), Extend4(Bits(word, 58, 56) << 1 | Bits(word, 52, 52)),
		               Extend4(Bits(word, 51, 51) << 3 | Bits(word, 49, 47))}};
		base[1] = Rgb{{Extend4(Bits(word, 46, 43)), Extend4(Bits(word, 42, 39)), Extend4(Bits(word, 38, 35))}};
		// The distance index's LSB is (base color 1 >= base color 2), the
		// colors compared as (R << 16) + (G << 8) + B.
		const auto value = [](const Rgb& c) { return c.c[0] << 16 | c.c[1] << 8 | c.c[2]; };
		distance_index = Bits(word, 34, 34) << 2 | Bits(word, 32, 32) << 1 | (value(base[0]) >= value(base[1]));
	}
	const int d = kDistances[distance_index];
	Rgb paint[4];
	if (!h_mode) {
		paint[0] = base[0];
		paint[1] = AddClamped(base[1], d);
		paint[2] = base[1];
		paint[3] = AddClamped(base[1], -d);
	} else {
		paint[0] = AddClamped(base[0], d);
		paint[1] = AddClamped(base[0], -d);
		paint[2] = AddClamped(base[1], d);
		paint[3] = AddClamped(base[1], -d);
	}
	for (int y = 0; y < 4; ++y) {
		for (int x = 0; x < 4; ++x) {
			const int index = ColorIndex(word, x, y);
			Store(out[4 * y + x], paint[index], !opaque && index == 2);
		}
	}
}

// `Planar' mode: a plane through three RGB676 colors (always opaque).
void DecodePlanar(uint64_t word, TexelValue out[16]) {
	const Rgb origin{{Extend6(Bits(word, 62, 57)), Extend7(Bits(word, 56, 56) << 6 | Bits(word, 54, 49)),
	                  Extend6(Bits(word, 48, 48) << 5 | Bits(word, 44, 43) << 3 | Bits(word, 41, 39))}};
	const Rgb h{{Extend6(Bits(word, 38, 34) << 1 | Bits(word, 32, 32)), Extend7(Bits(word, 31, 25)),
	             Extend6(Bits(word, 24, 19))}};
	const Rgb v{{Extend6(Bits(word, 18, 13)), Extend7(Bits(word, 12, 6)), Extend6(Bits(word, 5, 0))}};
	for (int y = 0; y < 4; ++y) {
		for (int x = 0; x < 4; ++x) {
			Rgb color;
			for (int c = 0; c < 3; ++c) {
				const int o = origin.c[c];
				// Rounded to nearest, ties up: (... + 2) >> 2 (arithmetic).
				color.c[c] = Clamp255((x * (h.c[c] - o) + y * (v.c[c] - o) + 4 * o + 2) >> 2);
			}
			Store(out[4 * y + x], color, false);
		}
	}
}

// One channel of RGBA ETC2's alpha: clamp255(base + modifier * multiplier).
void DecodeEtc2Alpha(uint64_t word, TexelValue out[16]) {
	const int base = Bits(word, 63, 56), multiplier = Bits(word, 55, 52);
	const int* modifiers = kEacModifiers[Bits(word, 51, 48)];
	for (int y = 0; y < 4; ++y)
		for (int x = 0; x < 4; ++x)
			out[4 * y + x].f[3] = float(Clamp255(base + modifiers[EacIndex(word, x, y)] * multiplier)) / 255.0f;
}

}  // namespace

void DecodeEtc2Rgb(const uint8_t* block, bool punch_through, TexelValue out[16]) {
	const uint64_t word = LoadBigEndian(block);
	const bool flag = Bits(word, 33, 33);  // `diff bit', or `opaque' with punch-through
	if (!punch_through && !flag) return DecodeSubblocks(word, false, true, out);
	const bool opaque = punch_through ? flag : true;
	// The mode is chosen by which of R + Rd, G + Gd, B + Bd leaves [0, 31].
	const auto overflows = [&](int c) {
		const int sum = Bits(word, 63 - 8 * c, 59 - 8 * c) + SignExtend3(Bits(word, 58 - 8 * c, 56 - 8 * c));
		return sum < 0 || sum > 31;
	};
	if (overflows(0)) return DecodeTH(word, false, opaque, out);
	if (overflows(1)) return DecodeTH(word, true, opaque, out);
	if (overflows(2)) return DecodePlanar(word, out);
	DecodeSubblocks(word, true, opaque, out);
}

void DecodeEtc2Rgba(const uint8_t* block, TexelValue out[16]) {
	DecodeEtc2Rgb(block + 8, false, out);
	DecodeEtc2Alpha(LoadBigEndian(block), out);
}

void DecodeEacChannel(const uint8_t* block, bool is_signed, int channel, TexelValue out[16]) {
	const uint64_t word = LoadBigEndian(block);
	const int multiplier = Bits(word, 55, 52);
	const int* modifiers = kEacModifiers[Bits(word, 51, 48)];
	int base;
	if (is_signed) {
		base = int8_t(Bits(word, 63, 56));
		if (base == -128) base = -127;  // "must be treated as -127"
		base *= 8;
	} else {
		base = Bits(word, 63, 56) * 8 + 4;
	}
	for (int y = 0; y < 4; ++y) {
		for (int x = 0; x < 4; ++x) {
			const int modifier = modifiers[EacIndex(word, x, y)];
			// A multiplier of 0 means 1/8: the modifier is added unscaled.
			const int value = base + (multiplier ? modifier * multiplier * 8 : modifier);
			out[4 * y + x].f[channel] = is_signed ? float(std::clamp(value, -1023, 1023)) / 1023.0f
			                                      : float(std::clamp(value, 0, 2047)) / 2047.0f;
		}
	}
}

void DecodeEacR11(const uint8_t* block, bool is_signed, TexelValue out[16]) {
	for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 1.0f}};
	DecodeEacChannel(block, is_signed, 0, out);
}

void DecodeEacRg11(const uint8_t* block, bool is_signed, TexelValue out[16]) {
	for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 1.0f}};
	DecodeEacChannel(block, is_signed, 0, out);
	DecodeEacChannel(block + 8, is_signed, 1, out);
}

}  // namespace tessera::texture::etc
