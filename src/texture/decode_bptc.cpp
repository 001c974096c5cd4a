// BPTC block decoding (BC6H, BC7): Khronos Data Format Specification 1.4
// §20. Everything here is integer arithmetic that the specification defines
// bit-exactly; the tables are transcribed from it.
#include <bit>
#include <utility>

#include "texture/decode_bc.h"
#include "texture/float_formats.h"

namespace tessera::texture::bc {
namespace {

// The 128-bit block as a little-endian bit string, read in increasing bit
// order (§20: "128 bits of texel data stored in little-endian order").
class BitReader {
public:
	explicit BitReader(const uint8_t* block) {
		for (int i = 7; i >= 0; --i) {
			low_ = low_ << 8 | block[i];
			high_ = high_ << 8 | block[8 + i];
		}
	}
	uint32_t Read(int count) {  // count <= 32
		const int p = position_;
		const uint64_t window = p >= 64 ? high_ >> (p - 64) : p == 0 ? low_ : low_ >> p | high_ << (64 - p);
		position_ += count;
		return uint32_t(window & ((uint64_t(1) << count) - 1));
	}
	void Seek(int position) { position_ = position; }

private:
	uint64_t low_ = 0, high_ = 0;
	int position_ = 0;
};

// Tables "Partition table for 2-subset BPTC" and "... 3-subset BPTC": the
// subset of texel (x, y) is bits 2 * (4 * y + x) of the entry.
constexpr uint32_t kPartitions2[64] = {
    0x50505050, 0x40404040, 0x54545454, 0x54505040, 0x50404000, 0x55545450, 0x55545040, 0x54504000,
    0x50400000, 0x55555450, 0x55544000, 0x54400000, 0x55555440, 0x55550000, 0x55555500, 0x55000000,
    0x55150100, 0x00004054, 0x15010000, 0x00405054, 0x00004050, 0x15050100, 0x05010000, 0x40505054,
    0x00404050, 0x05010100, 0x14141414, 0x05141450, 0x01155440, 0x00555500, 0x15014054, 0x05414150,
    0x44444444, 0x55005500, 0x11441144, 0x05055050, 0x05500550, 0x11114444, 0x41144114, 0x44111144,
    0x15055054, 0x01055040, 0x05041050, 0x05455150, 0x14414114, 0x50050550, 0x41411414, 0x00141400,
    0x00041504, 0x00105410, 0x10541000, 0x04150400, 0x50410514, 0x41051450, 0x05415014, 0x14054150,
    0x41050514, 0x41505014, 0x40011554, 0x54150140, 0x50505500, 0x00555050, 0x15151010, 0x54540404,
};
constexpr uint32_t kPartitions3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
    0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
    0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
    0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
    0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
    0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
};
// Anchor index tables: for the second subset of two, and the second and
// third subsets of three (the first subset's anchor is always texel 0).
constexpr uint8_t kAnchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2,  2, 8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8,  2, 2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15,
};
constexpr uint8_t kAnchor3Second[64] = {
    3, 3,  15, 15, 8, 3,  15, 15, 8,  8, 6,  6, 6,  5,  3,  3,  3, 3,  8, 15, 3, 3, 6, 10, 5, 8,  8, 6,  8,  5,  15, 15,
    8, 15, 3,  5,  6, 10, 8,  15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5,  5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3,  3,
};
constexpr uint8_t kAnchor3Third[64] = {
    15, 8, 8, 3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
    15, 8, 3, 15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
    3,  6, 6, 8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,
};

// Table "BPTC interpolation factors", by index bit count.
constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

int Weight(int index_bits, uint32_t index) {
	return index_bits == 2 ? kWeights2[index] : index_bits == 3 ? kWeights3[index] : kWeights4[index];
}

// "BPTC endpoint interpolation formula". Also used with BC6H's signed
// endpoints, where >> is the arithmetic shift of C++20.
int Interpolate(int e0, int e1, int weight) { return ((64 - weight) * e0 + weight * e1 + 32) >> 6; }

int Subset(int subset_count, uint32_t partition, int texel) {
	if (subset_count == 1) return 0;
	const uint32_t pattern = subset_count == 2 ? kPartitions2[partition] : kPartitions3[partition];
	return pattern >> (2 * texel) & 3;
}

bool IsAnchor(int subset_count, uint32_t partition, int texel) {
	if (texel == 0) return true;
	if (subset_count == 2) return texel == kAnchor2[partition];
	if (subset_count == 3) return texel == kAnchor3Second[partition] || texel == kAnchor3Third[partition];
	return false;
}

// Reads 16 indices of `bits` bits each; anchor texels store one bit less
// (their top bit is zero).
void ReadIndices(BitReader& reader, int bits, int subset_count, uint32_t partition, uint8_t indices[16]) {
	for (int t = 0; t < 16; ++t)
		indices[t] = uint8_t(reader.Read(IsAnchor(subset_count, partition, t) ? bits - 1 : bits));
}

// ---------------------------------------------------------------- BC7 ---

// Table "Mode-dependent BPTC parameters".
struct Bc7Mode {
	uint8_t subsets;         // NS
	uint8_t partition_bits;  // PB
	uint8_t rotation_bits;   // RB
	uint8_t selection_bits;  // ISB
	uint8_t color_bits;      // CB
	uint8_t alpha_bits;      // AB
	uint8_t endpoint_pbits;  // EPB: one P-bit per endpoint
	uint8_t shared_pbits;    // SPB: one P-bit per subset
	uint8_t index_bits;      // IB
	uint8_t index_bits2;     // IB2
};
constexpr Bc7Mode kBc7Modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

// An endpoint channel of `bits` bits (P-bit included) widened to 8 bits by
// replicating its top bits into the low bits.
int Widen(uint32_t value, int bits) {
	if (bits >= 8) return int(value);
	return int(value << (8 - bits) | value >> (2 * bits - 8));
}

// ---------------------------------------------------------------- BC6H ---

// Table "Endpoint and partition parameters for BPTC block modes".
struct Bc6Mode {
	uint8_t mode;
	bool transformed;
	uint8_t partition_bits;
	uint8_t endpoint_bits;
	uint8_t delta_bits[3];
};
constexpr Bc6Mode kBc6Modes[14] = {
    {0, true, 5, 10, {5, 5, 5}},  {1, true, 5, 7, {6, 6, 6}},      {2, true, 5, 11, {5, 4, 4}},
    {6, true, 5, 11, {4, 5, 4}},  {10, true, 5, 11, {4, 4, 5}},    {14, true, 5, 9, {5, 5, 5}},
    {18, true, 5, 8, {6, 5, 5}},  {22, true, 5, 8, {5, 6, 5}},     {26, true, 5, 8, {5, 5, 6}},
    {30, false, 5, 6, {6, 6, 6}}, {3, false, 0, 10, {10, 10, 10}}, {7, true, 0, 11, {9, 9, 9}},
    {11, true, 0, 12, {8, 8, 8}}, {15, true, 0, 16, {4, 4, 4}},
};

// Table "Block descriptions for BC6H block modes", after the mode bits:
// each field v^a..b takes |a - b| + 1 block bits, the first into bit b of
// v, then towards a (so a < b reads the bits reversed). Fields 0-11 are
// endpoint * 3 + channel (R0, G0, B0, R1, ... B3), 12 is the partition.
struct Bc6Field {
	uint8_t field, a, b;
};
struct Bc6Layout {
	uint8_t mode;
	uint8_t field_count;
	Bc6Field fields[24];
};
// clang-format off
constexpr Bc6Layout kBc6Layouts[14] = {
	{0, 20, {{7, 4, 4}, {8, 4, 4}, {11, 4, 4}, {0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0},
	         {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0},
	         {11, 3, 3}, {12, 4, 0}}},
	{1, 24, {{7, 5, 5}, {10, 4, 4}, {10, 5, 5}, {0, 6, 0}, {11, 0, 0}, {11, 1, 1}, {8, 4, 4}, {1, 6, 0}, {8, 5, 5},
	         {11, 2, 2}, {7, 4, 4}, {2, 6, 0}, {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0},
	         {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}, {12, 4, 0}}},
	{2, 19, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 4, 0}, {0, 10, 10}, {7, 3, 0}, {4, 3, 0}, {1, 10, 10}, {11, 0, 0},
	         {10, 3, 0}, {5, 3, 0}, {2, 10, 10}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3},
	         {12, 4, 0}}},
	{6, 21, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {1, 10, 10},
	         {10, 3, 0}, {5, 3, 0}, {2, 10, 10}, {11, 1, 1}, {8, 3, 0}, {6, 3, 0}, {11, 0, 0}, {11, 2, 2}, {9, 3, 0},
	         {7, 4, 4}, {11, 3, 3}, {12, 4, 0}}},
	{10, 21, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {8, 4, 4}, {7, 3, 0}, {4, 3, 0}, {1, 10, 10},
	         {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {2, 10, 10}, {8, 3, 0}, {6, 3, 0}, {11, 1, 1}, {11, 2, 2}, {9, 3, 0},
	         {11, 4, 4}, {11, 3, 3}, {12, 4, 0}}},
	{14, 20, {{0, 8, 0}, {8, 4, 4}, {1, 8, 0}, {7, 4, 4}, {2, 8, 0}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0},
	         {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0},
	         {11, 3, 3}, {12, 4, 0}}},
	{18, 20, {{0, 7, 0}, {10, 4, 4}, {8, 4, 4}, {1, 7, 0}, {11, 2, 2}, {7, 4, 4}, {2, 7, 0}, {11, 3, 3}, {11, 4, 4},
	         {3, 5, 0}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 5, 0},
	         {9, 5, 0}, {12, 4, 0}}},
	{22, 22, {{0, 7, 0}, {11, 0, 0}, {8, 4, 4}, {1, 7, 0}, {7, 5, 5}, {7, 4, 4}, {2, 7, 0}, {10, 5, 5}, {11, 4, 4},
	         {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 5, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0},
	         {11, 2, 2}, {9, 4, 0}, {11, 3, 3}, {12, 4, 0}}},
	{26, 22, {{0, 7, 0}, {11, 1, 1}, {8, 4, 4}, {1, 7, 0}, {8, 5, 5}, {7, 4, 4}, {2, 7, 0}, {11, 5, 5}, {11, 4, 4},
	         {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 4, 0},
	         {11, 2, 2}, {9, 4, 0}, {11, 3, 3}, {12, 4, 0}}},
	{30, 24, {{0, 5, 0}, {10, 4, 4}, {11, 0, 0}, {11, 1, 1}, {8, 4, 4}, {1, 5, 0}, {7, 5, 5}, {8, 5, 5}, {11, 2, 2},
	         {7, 4, 4}, {2, 5, 0}, {10, 5, 5}, {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0},
	         {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}, {12, 4, 0}}},
	{3, 6, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 9, 0}, {4, 9, 0}, {5, 9, 0}}},
	{7, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 8, 0}, {0, 10, 10}, {4, 8, 0}, {1, 10, 10}, {5, 8, 0}, {2, 10, 10}}},
	{11, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 7, 0}, {0, 10, 11}, {4, 7, 0}, {1, 10, 11}, {5, 7, 0}, {2, 10, 11}}},
	{15, 9, {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 15}, {4, 3, 0}, {1, 10, 15}, {5, 3, 0}, {2, 10, 15}}},
};
// clang-format on

constexpr bool LayoutsFollowModes() {
	for (int i = 0; i < 14; ++i)
		if (kBc6Layouts[i].mode != kBc6Modes[i].mode) return false;
	return true;
}
static_assert(LayoutsFollowModes());

int SignExtend(int value, int bits) {
	const int shift = 32 - bits;
	return int(uint32_t(value) << shift) >> shift;
}

// §20.2 unquantization of an endpoint channel to 16 bits.
int Unquantize(int x, int bits, bool is_signed) {
	if (!is_signed) {
		if (bits >= 15) return x;
		if (x == 0) return 0;
		if (x == (1 << bits) - 1) return 0xFFFF;
		return ((x << 15) + 0x4000) >> (bits - 1);
	}
	if (bits >= 16) return x;
	const bool negative = x < 0;
	if (negative) x = -x;
	int unq;
	if (x == 0)
		unq = 0;
	else if (x >= (1 << (bits - 1)) - 1)
		unq = 0x7FFF;
	else
		unq = ((x << 15) + 0x4000) >> (bits - 1);
	return negative ? -unq : unq;
}

// §20.2 final unquantization: the interpolated integer to a half's bits.
uint16_t FinishUnquantize(int i, bool is_signed) {
	if (!is_signed) return uint16_t((i * 31) >> 6);
	return uint16_t(i < 0 ? (((-i) * 31) >> 5) | 0x8000 : (i * 31) >> 5);
}

}  // namespace

void DecodeBc7(const uint8_t* block, TexelValue out[16]) {
	// §20.1: a low byte of 0 is reserved; decoders "should return 0 for all
	// channels of all texels".
	if (block[0] == 0) {
		for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 0.0f}};
		return;
	}
	const int mode_number = std::countr_zero(uint32_t(block[0]));
	const Bc7Mode& mode = kBc7Modes[mode_number];
	BitReader reader(block);
	reader.Seek(mode_number + 1);
	const uint32_t partition = reader.Read(mode.partition_bits);
	const uint32_t rotation = reader.Read(mode.rotation_bits);
	const uint32_t selection = reader.Read(mode.selection_bits);
	const int endpoints = 2 * mode.subsets;
	uint32_t raw[6][4] = {};  // [endpoint = subset * 2 + end][channel]
	for (int c = 0; c < 3; ++c)
		for (int e = 0; e < endpoints; ++e) raw[e][c] = reader.Read(mode.color_bits);
	if (mode.alpha_bits)
		for (int e = 0; e < endpoints; ++e) raw[e][3] = reader.Read(mode.alpha_bits);
	uint32_t pbit[6] = {};
	if (mode.endpoint_pbits)
		for (int e = 0; e < endpoints; ++e) pbit[e] = reader.Read(1);
	if (mode.shared_pbits)
		for (int s = 0; s < mode.subsets; ++s) pbit[2 * s] = pbit[2 * s + 1] = reader.Read(1);
	const bool has_pbits = mode.endpoint_pbits || mode.shared_pbits;
	int endpoint[6][4];
	for (int e = 0; e < endpoints; ++e) {
		for (int c = 0; c < 3; ++c)
			endpoint[e][c] =
			    has_pbits ? Widen(raw[e][c] << 1 | pbit[e], mode.color_bits + 1) : Widen(raw[e][c], mode.color_bits);
		if (!mode.alpha_bits)
			endpoint[e][3] = 255;
		else
			endpoint[e][3] =
			    has_pbits ? Widen(raw[e][3] << 1 | pbit[e], mode.alpha_bits + 1) : Widen(raw[e][3], mode.alpha_bits);
	}
	uint8_t primary[16], secondary[16] = {};
	ReadIndices(reader, mode.index_bits, mode.subsets, partition, primary);
	if (mode.index_bits2) ReadIndices(reader, mode.index_bits2, 1, 0, secondary);
	// Color from the secondary indices when the selection bit is 1, alpha
	// from them when the mode has them and the bit is 0.
	const bool color_secondary = selection == 1;
	const bool alpha_secondary = mode.index_bits2 && selection == 0;
	const int color_bits = color_secondary ? mode.index_bits2 : mode.index_bits;
	const int alpha_bits = alpha_secondary ? mode.index_bits2 : mode.index_bits;
	for (int t = 0; t < 16; ++t) {
		const int s = Subset(mode.subsets, partition, t);
		const int* e0 = endpoint[2 * s];
		const int* e1 = endpoint[2 * s + 1];
		const int color_weight = Weight(color_bits, color_secondary ? secondary[t] : primary[t]);
		const int alpha_weight = Weight(alpha_bits, alpha_secondary ? secondary[t] : primary[t]);
		int rgba[4];
		for (int c = 0; c < 3; ++c) rgba[c] = Interpolate(e0[c], e1[c], color_weight);
		rgba[3] = Interpolate(e0[3], e1[3], alpha_weight);
		// Table "BPTC Rotation bits": 1, 2, 3 swap A with R, G, B.
		if (rotation) std::swap(rgba[3], rgba[rotation - 1]);
		for (int c = 0; c < 4; ++c) out[t].f[c] = float(rgba[c]) / 255.0f;
	}
}

void DecodeBc6h(const uint8_t* block, bool is_signed, TexelValue out[16]) {
	uint32_t mode_number = block[0] & 3;
	if (mode_number >= 2) mode_number = block[0] & 31;
	int m = 0;
	while (m < 14 && kBc6Modes[m].mode != mode_number) ++m;
	if (m == 14) {  // reserved modes 19, 23, 27, 31: (0, 0, 0, 1)
		for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 1.0f}};
		return;
	}
	const Bc6Mode& mode = kBc6Modes[m];
	BitReader reader(block);
	reader.Seek(mode_number < 2 ? 2 : 5);
	int value[13] = {};
	for (int f = 0; f < kBc6Layouts[m].field_count; ++f) {
		const Bc6Field& field = kBc6Layouts[m].fields[f];
		const int step = field.a >= field.b ? 1 : -1;
		for (int bit = field.b;; bit += step) {
			value[field.field] |= int(reader.Read(1)) << bit;
			if (bit == field.a) break;
		}
	}
	const int subsets = mode.partition_bits ? 2 : 1;
	const uint32_t partition = uint32_t(value[12]);
	const int endpoint_count = 2 * subsets;
	const int bits = mode.endpoint_bits;
	int endpoint[4][3];
	for (int e = 0; e < endpoint_count; ++e)
		for (int c = 0; c < 3; ++c) endpoint[e][c] = value[e * 3 + c];
	// E0 is sign-extended for signed formats; E1-E3 are deltas from E0 in
	// modes with transformed endpoints (sign-extended at the delta width,
	// added, wrapped to the endpoint width) and then read like E0.
	for (int c = 0; c < 3; ++c) {
		if (is_signed) endpoint[0][c] = SignExtend(endpoint[0][c], bits);
		for (int e = 1; e < endpoint_count; ++e) {
			if (mode.transformed) {
				const int delta = SignExtend(endpoint[e][c], mode.delta_bits[c]);
				endpoint[e][c] = (endpoint[0][c] + delta) & ((1 << bits) - 1);
			}
			if (is_signed) endpoint[e][c] = SignExtend(endpoint[e][c], bits);
		}
	}
	for (int e = 0; e < endpoint_count; ++e)
		for (int c = 0; c < 3; ++c) endpoint[e][c] = Unquantize(endpoint[e][c], bits, is_signed);
	// Index bits follow the endpoint data: at bit 65 (one subset, 4 bits
	// per index) or 82 (two subsets, 3 bits, partitions from the first half
	// of the 2-subset table).
	reader.Seek(subsets == 1 ? 65 : 82);
	const int index_bits = subsets == 1 ? 4 : 3;
	uint8_t indices[16];
	ReadIndices(reader, index_bits, subsets, partition, indices);
	for (int t = 0; t < 16; ++t) {
		const int s = Subset(subsets, partition, t);
		const int weight = Weight(index_bits, indices[t]);
		for (int c = 0; c < 3; ++c) {
			const int i = Interpolate(endpoint[2 * s][c], endpoint[2 * s + 1][c], weight);
			out[t].f[c] = HalfToFloat(FinishUnquantize(i, is_signed));
		}
		out[t].f[3] = 1.0f;
	}
}

}  // namespace tessera::texture::bc
