// ASTC LDR decoding. Section names in comments are those of the Khronos
// Data Format Specification's ASTC chapter.
#include "texture/decode_astc.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

namespace tessera::texture {
namespace astc {
namespace {

constexpr uint16_t kErrorUnorm16[4] = {0xFFFF, 0, 0xFFFF, 0xFFFF};  // opaque magenta

// Bits [pos, pos + count) of a 128-bit little-endian stream; bits at or past
// end read as 0.
uint32_t ReadBits(const uint8_t stream[16], uint32_t pos, uint32_t count, uint32_t end = 128) {
	uint32_t value = 0;
	for (uint32_t i = 0; i < count; ++i) {
		uint32_t p = pos + i;
		if (p < end) value |= ((stream[p >> 3] >> (p & 7)) & 1u) << i;
	}
	return value;
}

// value (bits wide) widened to to_bits by repeating it from its MSB down.
uint32_t ReplicateBits(uint32_t value, uint32_t bits, uint32_t to_bits) {
	uint32_t result = 0;
	int32_t shift = static_cast<int32_t>(to_bits) - static_cast<int32_t>(bits);
	for (; shift > -static_cast<int32_t>(bits); shift -= static_cast<int32_t>(bits))
		result |= shift >= 0 ? value << shift : value >> -shift;
	return result & ((1u << to_bits) - 1);
}

// "Block Mode", weight range encodings: rho 2..7 for P = 0, then P = 1.
constexpr IseRange kWeightRanges[2][6] = {
    {{0, 0, 1}, {1, 0, 0}, {0, 0, 2}, {0, 1, 0}, {1, 0, 1}, {0, 0, 3}},  // 0..1 .. 0..7
    {{0, 1, 1}, {1, 0, 2}, {0, 0, 4}, {0, 1, 2}, {1, 0, 3}, {0, 0, 5}},  // 0..9 .. 0..31
};

// The color endpoint ranges from 0..255 down to 0..5, the smallest the
// "Illegal Encodings" list allows.
constexpr IseRange kColorRangesDescending[] = {
    {0, 0, 8}, {1, 0, 6}, {0, 1, 5}, {0, 0, 7}, {1, 0, 5}, {0, 1, 4}, {0, 0, 6}, {1, 0, 4}, {0, 1, 3},
    {0, 0, 5}, {1, 0, 3}, {0, 1, 2}, {0, 0, 4}, {1, 0, 2}, {0, 1, 1}, {0, 0, 3}, {1, 0, 1},
};

// The "ASTC color unquantization parameters" and "ASTC weight
// unquantization parameters" tables: B is written as the spec's bit layout,
// one letter per bit of the value's low bits m (a = bit 0, b = bit 1, ...).
struct UnquantizationRow {
	IseRange range;
	const char* b_layout;
	uint32_t c;
};
constexpr UnquantizationRow kColorUnquantization[] = {
    {{1, 0, 1}, "000000000", 204}, {{0, 1, 1}, "000000000", 113}, {{1, 0, 2}, "b000b0bb0", 93},
    {{0, 1, 2}, "b0000bb00", 54},  {{1, 0, 3}, "cb000cbcb", 44},  {{0, 1, 3}, "cb0000cbc", 26},
    {{1, 0, 4}, "dcb000dcb", 22},  {{0, 1, 4}, "dcb0000dc", 13},  {{1, 0, 5}, "edcb000ed", 11},
    {{0, 1, 5}, "edcb0000e", 6},   {{1, 0, 6}, "fedcb000f", 5},
};
constexpr UnquantizationRow kWeightUnquantization[] = {
    {{1, 0, 1}, "0000000", 50}, {{0, 1, 1}, "0000000", 28}, {{1, 0, 2}, "b000b0b", 23},
    {{0, 1, 2}, "b0000b0", 13}, {{1, 0, 3}, "cb000cb", 11},
};
// "ASTC weight unquantization values": trits and quints with no bits.
constexpr uint8_t kWeightTritOnly[3] = {0, 32, 63};
constexpr uint8_t kWeightQuintOnly[5] = {0, 16, 32, 47, 63};

bool SameRange(IseRange a, IseRange b) { return a.trits == b.trits && a.quints == b.quints && a.bits == b.bits; }

uint32_t LayoutValue(const char* layout, uint32_t m) {
	uint32_t length = static_cast<uint32_t>(std::strlen(layout)), value = 0;
	for (uint32_t k = 0; k < length; ++k)
		if (layout[k] != '0') value |= ((m >> (layout[k] - 'a')) & 1u) << (length - 1 - k);
	return value;
}

// The A/B/C/D procedure shared by colors (9-bit A, top bit 0x80) and
// weights (7-bit A, top bit 0x20).
uint32_t UnquantizeByTable(const UnquantizationRow* rows, size_t row_count, IseRange range, uint32_t value,
                           uint32_t a_all_ones, uint32_t top_bit) {
	for (size_t r = 0; r < row_count; ++r) {
		if (!SameRange(rows[r].range, range)) continue;
		uint32_t m = value & ((1u << range.bits) - 1), d = value >> range.bits;
		uint32_t a = (m & 1) ? a_all_ones : 0;
		uint32_t unq = d * rows[r].c + LayoutValue(rows[r].b_layout, m);
		unq ^= a;
		return (a & top_bit) | (unq >> 2);
	}
	return 0;  // not reached for the ranges the block modes produce
}

struct BlockMode {
	uint32_t grid_width, grid_height;
	IseRange weight_range;
	bool dual_plane;
};

// "ASTC 2D block mode layout"; false for the reserved rows.
bool DecodeBlockMode(uint32_t mode, BlockMode* out) {
	uint32_t precision = (mode >> 9) & 1, dual = (mode >> 10) & 1, rho;
	uint32_t a = (mode >> 5) & 3, b = (mode >> 7) & 3;
	uint32_t w, h;
	if (mode & 3) {
		rho = ((mode & 3) << 1) | ((mode >> 4) & 1);
		switch ((mode >> 2) & 3) {
		case 0: w = b + 4, h = a + 2; break;
		case 1: w = b + 8, h = a + 2; break;
		case 2: w = a + 2, h = b + 8; break;
		default:
			if (mode & 0x100)
				w = (b & 1) + 2, h = a + 2;
			else
				w = a + 2, h = (b & 1) + 6;
		}
	} else {
		rho = (((mode >> 2) & 3) << 1) | ((mode >> 4) & 1);
		if (((mode >> 2) & 3) == 0) return false;  // bits [3..0] = 0000
		switch (b) {
		case 0: w = 12, h = a + 2; break;
		case 1: w = a + 2, h = 12; break;
		case 2:
			w = a + 6, h = ((mode >> 9) & 3) + 6;
			dual = 0, precision = 0;
			break;
		default:
			if (a == 0)
				w = 6, h = 10;
			else if (a == 1)
				w = 10, h = 6;
			else
				return false;  // reserved (the void extent is handled before)
		}
	}
	out->grid_width = w;
	out->grid_height = h;
	out->weight_range = kWeightRanges[precision][rho - 2];
	out->dual_plane = dual != 0;
	return true;
}

void FillError(Unorm16Texel* texels, uint32_t count) {
	for (uint32_t i = 0; i < count; ++i) {
		std::memcpy(texels[i].c, kErrorUnorm16, sizeof(kErrorUnorm16));
		texels[i].error = true;
	}
}

// "Void-Extent Blocks", 2D layout.
void DecodeVoidExtent(const uint8_t block[16], Unorm16Texel* texels, uint32_t count) {
	bool hdr = ReadBits(block, 9, 1) != 0;
	bool reserved_ok = ReadBits(block, 10, 2) == 3;
	uint32_t min_s = ReadBits(block, 12, 13), max_s = ReadBits(block, 25, 13);
	uint32_t min_t = ReadBits(block, 38, 13), max_t = ReadBits(block, 51, 13);
	bool all_ones = min_s == 0x1FFF && max_s == 0x1FFF && min_t == 0x1FFF && max_t == 0x1FFF;
	bool extent_ok = all_ones || (min_s < max_s && min_t < max_t);
	// HDR void extents are reserved in the LDR profile.
	if (hdr || !reserved_ok || !extent_ok) return FillError(texels, count);
	Unorm16Texel texel{};
	for (uint32_t ch = 0; ch < 4; ++ch) texel.c[ch] = static_cast<uint16_t>(ReadBits(block, 64 + 16 * ch, 16));
	std::fill(texels, texels + count, texel);
}

void BlueContract(int32_t c[4]) {
	c[0] = (c[0] + c[2]) >> 1;
	c[1] = (c[1] + c[2]) >> 1;
}

void BitTransferSigned(int32_t& a, int32_t& b) {
	b >>= 1;
	b |= a & 0x80;
	a >>= 1;
	a &= 0x3F;
	if ((a & 0x20) != 0) a -= 0x40;
}

// "LDR Endpoint Decoding": v holds the unquantized values of one partition.
// False for the HDR endpoint modes.
bool DecodeLdrEndpoints(uint32_t cem, const uint8_t* values, int32_t e0[4], int32_t e1[4]) {
	int32_t v[8];
	for (uint32_t i = 0; i < 2 * ((cem >> 2) + 1); ++i) v[i] = values[i];
	auto set = [](int32_t e[4], int32_t r, int32_t g, int32_t b, int32_t a) { e[0] = r, e[1] = g, e[2] = b, e[3] = a; };
	auto clamp_unorm8 = [](int32_t e[4]) {
		for (int ch = 0; ch < 4; ++ch) e[ch] = std::clamp(e[ch], 0, 255);
	};
	switch (cem) {
	case 0:
		set(e0, v[0], v[0], v[0], 0xFF);
		set(e1, v[1], v[1], v[1], 0xFF);
		return true;
	case 1: {
		int32_t l0 = (v[0] >> 2) | (v[1] & 0xC0);
		int32_t l1 = std::min(l0 + (v[1] & 0x3F), 0xFF);
		set(e0, l0, l0, l0, 0xFF);
		set(e1, l1, l1, l1, 0xFF);
		return true;
	}
	case 4:
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[1], v[1], v[1], v[3]);
		return true;
	case 5:
		BitTransferSigned(v[1], v[0]);
		BitTransferSigned(v[3], v[2]);
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
		clamp_unorm8(e0);
		clamp_unorm8(e1);
		return true;
	case 6:
	case 10: {
		int32_t a0 = cem == 6 ? 0xFF : v[4], a1 = cem == 6 ? 0xFF : v[5];
		set(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, a0);
		set(e1, v[0], v[1], v[2], a1);
		return true;
	}
	case 8:
	case 12: {
		int32_t a0 = cem == 8 ? 0xFF : v[6], a1 = cem == 8 ? 0xFF : v[7];
		if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
			set(e0, v[0], v[2], v[4], a0);
			set(e1, v[1], v[3], v[5], a1);
		} else {
			set(e0, v[1], v[3], v[5], a1);
			set(e1, v[0], v[2], v[4], a0);
			BlueContract(e0);
			BlueContract(e1);
		}
		return true;
	}
	case 9:
	case 13: {
		BitTransferSigned(v[1], v[0]);
		BitTransferSigned(v[3], v[2]);
		BitTransferSigned(v[5], v[4]);
		if (cem == 13) BitTransferSigned(v[7], v[6]);
		int32_t a0 = cem == 9 ? 0xFF : v[6], a1 = cem == 9 ? 0xFF : v[6] + v[7];
		if (v[1] + v[3] + v[5] >= 0) {
			set(e0, v[0], v[2], v[4], a0);
			set(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
		} else {
			set(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
			set(e1, v[0], v[2], v[4], a0);
			BlueContract(e0);
			BlueContract(e1);
		}
		clamp_unorm8(e0);
		clamp_unorm8(e1);
		return true;
	}
	default: return false;  // 2, 3, 7, 11, 14, 15: HDR
	}
}

// "Weight Infill", 2D: the effective weight of texel (s, t) from a plane of
// grid_width * grid_height unquantized weights (padded past the end).
uint32_t InfillWeight(const uint8_t* plane, uint32_t s, uint32_t t, uint32_t block_width, uint32_t block_height,
                      uint32_t grid_width, uint32_t grid_height) {
	uint32_t ds = (1024 + block_width / 2) / (block_width - 1);
	uint32_t dt = (1024 + block_height / 2) / (block_height - 1);
	uint32_t gs = (ds * s * (grid_width - 1) + 32) >> 6;
	uint32_t gt = (dt * t * (grid_height - 1) + 32) >> 6;
	uint32_t js = gs >> 4, fs = gs & 0x0F;
	uint32_t jt = gt >> 4, ft = gt & 0x0F;
	uint32_t v0 = js + jt * grid_width;
	uint32_t p00 = plane[v0], p01 = plane[v0 + 1];
	uint32_t p10 = plane[v0 + grid_width], p11 = plane[v0 + grid_width + 1];
	uint32_t w11 = (fs * ft + 8) >> 4;
	uint32_t w10 = ft - w11;
	uint32_t w01 = fs - w11;
	uint32_t w00 = 16 - fs - ft + w11;
	return (p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11 + 8) >> 4;
}

}  // namespace

uint32_t IseBitCount(IseRange range, uint32_t count) {
	// "Data Size Determination": ceil(8 * count / 5) for trits, ceil(7 * count / 3) for quints.
	return (range.trits ? (8 * count + 4) / 5 : 0) + (range.quints ? (7 * count + 2) / 3 : 0) + count * range.bits;
}

void DecodeTritBlock(uint32_t t_bits, uint8_t trits[5]) {
	auto bit = [](uint32_t v, uint32_t i) { return (v >> i) & 1u; };
	uint32_t c;
	if (((t_bits >> 2) & 7) == 7) {
		c = (((t_bits >> 5) & 7) << 2) | (t_bits & 3);
		trits[4] = trits[3] = 2;
	} else {
		c = t_bits & 0x1F;
		if (((t_bits >> 5) & 3) == 3) {
			trits[4] = 2;
			trits[3] = static_cast<uint8_t>(bit(t_bits, 7));
		} else {
			trits[4] = static_cast<uint8_t>(bit(t_bits, 7));
			trits[3] = static_cast<uint8_t>((t_bits >> 5) & 3);
		}
	}
	if ((c & 3) == 3) {
		trits[2] = 2;
		trits[1] = static_cast<uint8_t>(bit(c, 4));
		trits[0] = static_cast<uint8_t>((bit(c, 3) << 1) | (bit(c, 2) & ~bit(c, 3) & 1));
	} else if (((c >> 2) & 3) == 3) {
		trits[2] = trits[1] = 2;
		trits[0] = static_cast<uint8_t>(c & 3);
	} else {
		trits[2] = static_cast<uint8_t>(bit(c, 4));
		trits[1] = static_cast<uint8_t>((c >> 2) & 3);
		trits[0] = static_cast<uint8_t>((bit(c, 1) << 1) | (bit(c, 0) & ~bit(c, 1) & 1));
	}
}

void DecodeQuintBlock(uint32_t q_bits, uint8_t quints[3]) {
	auto bit = [](uint32_t v, uint32_t i) { return (v >> i) & 1u; };
	if (((q_bits >> 1) & 3) == 3 && ((q_bits >> 5) & 3) == 0) {
		uint32_t q0 = bit(q_bits, 0);
		quints[2] = static_cast<uint8_t>((q0 << 2) | ((bit(q_bits, 4) & ~q0 & 1) << 1) | (bit(q_bits, 3) & ~q0 & 1));
		quints[1] = quints[0] = 4;
		return;
	}
	uint32_t c;
	if (((q_bits >> 1) & 3) == 3) {
		quints[2] = 4;
		c = (((q_bits >> 3) & 3) << 3) | ((~(q_bits >> 5) & 3) << 1) | bit(q_bits, 0);
	} else {
		quints[2] = static_cast<uint8_t>((q_bits >> 5) & 3);
		c = q_bits & 0x1F;
	}
	if ((c & 7) == 5) {
		quints[1] = 4;
		quints[0] = static_cast<uint8_t>((c >> 3) & 3);
	} else {
		quints[1] = static_cast<uint8_t>((c >> 3) & 3);
		quints[0] = static_cast<uint8_t>(c & 7);
	}
}

void DecodeIse(const uint8_t stream[16], uint32_t start, IseRange range, uint32_t count, uint8_t* values) {
	uint32_t end = start + IseBitCount(range, count), n = range.bits;
	auto read = [&](uint32_t pos, uint32_t bits) { return ReadBits(stream, pos, bits, end); };
	if (range.trits) {
		// "ASTC trit-based packing": m0 T1:0 m1 T3:2 m2 T4 m3 T6:5 m4 T7.
		for (uint32_t first = 0; first < count; first += 5) {
			uint32_t p = start + (first / 5) * (8 + 5 * n);
			uint32_t m[5], t_bits = 0;
			m[0] = read(p, n), p += n;
			t_bits |= read(p, 2), p += 2;
			m[1] = read(p, n), p += n;
			t_bits |= read(p, 2) << 2, p += 2;
			m[2] = read(p, n), p += n;
			t_bits |= read(p, 1) << 4, p += 1;
			m[3] = read(p, n), p += n;
			t_bits |= read(p, 2) << 5, p += 2;
			m[4] = read(p, n), p += n;
			t_bits |= read(p, 1) << 7;
			uint8_t trits[5];
			DecodeTritBlock(t_bits, trits);
			for (uint32_t i = 0; i < 5 && first + i < count; ++i)
				values[first + i] = static_cast<uint8_t>((trits[i] << n) | m[i]);
		}
	} else if (range.quints) {
		// "ASTC quint-based packing": m0 Q2:0 m1 Q4:3 m2 Q6:5.
		for (uint32_t first = 0; first < count; first += 3) {
			uint32_t p = start + (first / 3) * (7 + 3 * n);
			uint32_t m[3], q_bits = 0;
			m[0] = read(p, n), p += n;
			q_bits |= read(p, 3), p += 3;
			m[1] = read(p, n), p += n;
			q_bits |= read(p, 2) << 3, p += 2;
			m[2] = read(p, n), p += n;
			q_bits |= read(p, 2) << 5;
			uint8_t quints[3];
			DecodeQuintBlock(q_bits, quints);
			for (uint32_t i = 0; i < 3 && first + i < count; ++i)
				values[first + i] = static_cast<uint8_t>((quints[i] << n) | m[i]);
		}
	} else {
		for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<uint8_t>(read(start + i * n, n));
	}
}

uint32_t UnquantizeColor(IseRange range, uint32_t value) {
	if (!range.trits && !range.quints) return ReplicateBits(value, range.bits, 8);
	return UnquantizeByTable(kColorUnquantization, std::size(kColorUnquantization), range, value, 0x1FF, 0x80);
}

uint32_t UnquantizeWeight(IseRange range, uint32_t value) {
	uint32_t unq;
	if (!range.trits && !range.quints)
		unq = ReplicateBits(value, range.bits, 6);  // to 0..63
	else if (range.bits == 0)
		unq = range.trits ? kWeightTritOnly[value] : kWeightQuintOnly[value];
	else
		unq = UnquantizeByTable(kWeightUnquantization, std::size(kWeightUnquantization), range, value, 0x7F, 0x20);
	return unq > 32 ? unq + 1 : unq;
}

uint32_t Hash52(uint32_t p) {
	p ^= p >> 15;
	p -= p << 17;
	p += p << 7;
	p += p << 4;
	p ^= p >> 5;
	p += p << 16;
	p ^= p >> 7;
	p ^= p >> 3;
	p ^= p << 6;
	p ^= p >> 17;
	return p;
}

uint32_t SelectPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partition_count,
                         bool small_block) {
	if (small_block) x <<= 1, y <<= 1, z <<= 1;
	seed += (partition_count - 1) * 1024;
	uint32_t rnum = Hash52(seed);
	// seed1..seed12 of the spec: 4-bit fields of rnum, squared, then shifted.
	uint32_t s[13];
	constexpr uint32_t kFieldShift[13] = {0, 0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26, 0};
	for (int i = 1; i <= 11; ++i) s[i] = (rnum >> kFieldShift[i]) & 0xF;
	s[12] = ((rnum >> 30) | (rnum << 2)) & 0xF;
	for (int i = 1; i <= 12; ++i) s[i] *= s[i];
	uint32_t sh1, sh2;
	if (seed & 1) {
		sh1 = (seed & 2) ? 4 : 5;
		sh2 = partition_count == 3 ? 6 : 5;
	} else {
		sh1 = partition_count == 3 ? 6 : 5;
		sh2 = (seed & 2) ? 4 : 5;
	}
	uint32_t sh3 = (seed & 0x10) ? sh1 : sh2;
	for (int i = 1; i <= 8; ++i) s[i] >>= (i & 1) ? sh1 : sh2;
	for (int i = 9; i <= 12; ++i) s[i] >>= sh3;
	uint32_t a = (s[1] * x + s[2] * y + s[11] * z + (rnum >> 14)) & 0x3F;
	uint32_t b = (s[3] * x + s[4] * y + s[12] * z + (rnum >> 10)) & 0x3F;
	uint32_t c = (s[5] * x + s[6] * y + s[9] * z + (rnum >> 6)) & 0x3F;
	uint32_t d = (s[7] * x + s[8] * y + s[10] * z + (rnum >> 2)) & 0x3F;
	if (partition_count < 4) d = 0;
	if (partition_count < 3) c = 0;
	if (a >= b && a >= c && a >= d) return 0;
	if (b >= c && b >= d) return 1;
	if (c >= d) return 2;
	return 3;
}

float Unorm16ToFloat16Value(uint16_t c) {
	// "Weight Application": 65535 -> 1.0, else C / 65536 rounded toward zero
	// to FP16's 11 significant bits (values below 2^-14 are FP16 subnormals,
	// which hold C / 65536 exactly).
	if (c == 0xFFFF) return 1.0f;
	uint32_t value = c;
	int32_t top_bit = static_cast<int32_t>(std::bit_width(value | 1)) - 1;
	if (top_bit > 10) value &= ~((1u << (top_bit - 10)) - 1);
	return static_cast<float>(value) / 65536.0f;
}

bool DecodeBlockToUnorm16(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                          Unorm16Texel* texels) {
	if (!IsAstcFootprint(block_width, block_height)) return false;
	const uint32_t texel_count = block_width * block_height;
	const uint32_t mode = ReadBits(block, 0, 11);
	if ((mode & 0x1FF) == 0x1FC) {
		DecodeVoidExtent(block, texels, texel_count);
		return true;
	}
	BlockMode bm;
	if (!DecodeBlockMode(mode, &bm)) return FillError(texels, texel_count), true;
	const uint32_t partition_count = ReadBits(block, 11, 2) + 1;
	const uint32_t planes = bm.dual_plane ? 2 : 1;
	const uint32_t weight_count = bm.grid_width * bm.grid_height * planes;
	const uint32_t weight_bits = IseBitCount(bm.weight_range, weight_count);
	// "Illegal Encodings": weight count and size, grid size, dual plane with 4 partitions.
	if (weight_count > 64 || weight_bits < 24 || weight_bits > 96 || bm.grid_width > block_width ||
	    bm.grid_height > block_height || (bm.dual_plane && partition_count == 4))
		return FillError(texels, texel_count), true;

	// "Color Endpoint Mode" and "Data Size Determination".
	uint32_t cem[4], seed = 0, config_bits, extra_cem_bits = 0, color_start;
	if (partition_count == 1) {
		cem[0] = ReadBits(block, 13, 4);
		config_bits = color_start = 17;
	} else {
		seed = ReadBits(block, 13, 10);
		uint32_t field = ReadBits(block, 23, 6), selector = field & 3;
		color_start = 29;
		if (selector == 0) {
			for (uint32_t p = 0; p < partition_count; ++p) cem[p] = field >> 2;
			config_bits = 29;
		} else {
			// C bits then M fields, the high part just below the weights.
			extra_cem_bits = 3 * partition_count - 4;
			config_bits = 25 + 3 * partition_count;
			uint32_t bits = (field >> 2) | (ReadBits(block, 128 - weight_bits - extra_cem_bits, extra_cem_bits) << 4);
			for (uint32_t p = 0; p < partition_count; ++p) {
				uint32_t cem_class = selector - 1 + ((bits >> p) & 1);
				cem[p] = (cem_class << 2) | ((bits >> (partition_count + 2 * p)) & 3);
			}
		}
	}
	uint32_t ccs = 0;
	if (bm.dual_plane) {
		config_bits += 2;
		ccs = ReadBits(block, 128 - weight_bits - extra_cem_bits - 2, 2);
	}
	uint32_t color_value_count = 0;
	for (uint32_t p = 0; p < partition_count; ++p) color_value_count += 2 * ((cem[p] >> 2) + 1);
	const int32_t remaining_bits = 128 - static_cast<int32_t>(config_bits + weight_bits);
	if (color_value_count > 18 || remaining_bits < static_cast<int32_t>((13 * color_value_count + 4) / 5))
		return FillError(texels, texel_count), true;
	IseRange color_range{};
	for (IseRange r : kColorRangesDescending) {
		if (static_cast<int32_t>(IseBitCount(r, color_value_count)) <= remaining_bits) {
			color_range = r;
			break;
		}
	}

	// Endpoints ("Endpoint Unquantization", "LDR Endpoint Decoding").
	uint8_t color_values[18];
	DecodeIse(block, color_start, color_range, color_value_count, color_values);
	for (uint32_t i = 0; i < color_value_count; ++i)
		color_values[i] = static_cast<uint8_t>(UnquantizeColor(color_range, color_values[i]));
	int32_t e0[4][4], e1[4][4];
	bool partition_ok[4];
	for (uint32_t p = 0, first = 0; p < partition_count; ++p) {
		partition_ok[p] = DecodeLdrEndpoints(cem[p], color_values + first, e0[p], e1[p]);
		first += 2 * ((cem[p] >> 2) + 1);
	}

	// Weights ("Weight Decoding"): a stream from bit 127 downwards,
	// interleaved plane 0, plane 1 per grid point when dual plane.
	uint8_t reversed[16];
	for (uint32_t i = 0; i < 16; ++i) {
		uint8_t byte = block[15 - i], flipped = 0;
		for (uint32_t b = 0; b < 8; ++b) flipped |= static_cast<uint8_t>(((byte >> b) & 1) << (7 - b));
		reversed[i] = flipped;
	}
	uint8_t raw_weights[64];
	DecodeIse(reversed, 0, bm.weight_range, weight_count, raw_weights);
	uint8_t weights[2][64 + 16] = {};  // padded: infill reads one row and column past the grid with weight 0
	for (uint32_t i = 0; i < weight_count; ++i)
		weights[i % planes][i / planes] = static_cast<uint8_t>(UnquantizeWeight(bm.weight_range, raw_weights[i]));

	const bool small_block = texel_count < 31;
	for (uint32_t t = 0; t < block_height; ++t) {
		for (uint32_t s = 0; s < block_width; ++s) {
			Unorm16Texel& texel = texels[t * block_width + s];
			uint32_t p = partition_count > 1 ? SelectPartition(seed, s, t, 0, partition_count, small_block) : 0;
			if (!partition_ok[p]) {
				std::memcpy(texel.c, kErrorUnorm16, sizeof(kErrorUnorm16));
				texel.error = true;
				continue;
			}
			uint32_t w[2];
			for (uint32_t plane = 0; plane < planes; ++plane)
				w[plane] = InfillWeight(weights[plane], s, t, block_width, block_height, bm.grid_width, bm.grid_height);
			for (uint32_t ch = 0; ch < 4; ++ch) {
				uint32_t i = (bm.dual_plane && ch == ccs) ? w[1] : w[0];
				// "Weight Application", LDR endpoint modes.
				uint32_t c0 = static_cast<uint32_t>(e0[p][ch]), c1 = static_cast<uint32_t>(e1[p][ch]);
				if (srgb)
					c0 = (c0 << 8) | 0x80, c1 = (c1 << 8) | 0x80;
				else
					c0 = (c0 << 8) | c0, c1 = (c1 << 8) | c1;
				texel.c[ch] = static_cast<uint16_t>((c0 * (64 - i) + c1 * i + 32) / 64);
			}
			texel.error = false;
		}
	}
	return true;
}

}  // namespace astc

bool IsAstcFootprint(uint32_t block_width, uint32_t block_height) {
	constexpr uint32_t kFootprints[][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
	                                       {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};
	for (const auto& f : kFootprints)
		if (f[0] == block_width && f[1] == block_height) return true;
	return false;
}

bool DecodeAstcBlock(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb, float* rgba_out) {
	astc::Unorm16Texel texels[kAstcMaxBlockTexels];
	if (!astc::DecodeBlockToUnorm16(block, block_width, block_height, srgb, texels)) return false;
	bool ok = true;
	for (uint32_t i = 0; i < block_width * block_height; ++i) {
		for (uint32_t ch = 0; ch < 4; ++ch) {
			uint16_t c = texels[i].c[ch];
			// Error texels hold magenta as 0xFFFF / 0, which both paths map to 1.0 / 0.0.
			rgba_out[4 * i + ch] = srgb ? static_cast<float>(c >> 8) / 255.0f : astc::Unorm16ToFloat16Value(c);
		}
		ok &= !texels[i].error;
	}
	return ok;
}

bool DecodeAstcBlockUnorm8(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                           uint8_t* rgba_out) {
	astc::Unorm16Texel texels[kAstcMaxBlockTexels];
	if (!astc::DecodeBlockToUnorm16(block, block_width, block_height, srgb, texels)) return false;
	bool ok = true;
	for (uint32_t i = 0; i < block_width * block_height; ++i) {
		for (uint32_t ch = 0; ch < 4; ++ch) rgba_out[4 * i + ch] = static_cast<uint8_t>(texels[i].c[ch] >> 8);
		ok &= !texels[i].error;
	}
	return ok;
}

}  // namespace tessera::texture
