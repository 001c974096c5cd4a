// S3TC (BC1-BC3) and RGTC (BC4, BC5) block decoding: Khronos Data Format
// Specification 1.4 §18 and §19. The specification defines the palette
// entries as real-valued combinations of the endpoints (e.g. (2 RGB0 +
// RGB1) / 3 with RGB0 = c / 31); they are computed here in double and
// rounded once to float, so the result is the spec's value to float
// precision. Hardware decoders round through 8 bits and differ from it by
// up to about 1/255 (see the note in §18 on GPU BCn decoding).
#include "texture/decode_bc.h"

namespace tessera::texture::bc {
namespace {

uint64_t LoadLittleEndian(const uint8_t* bytes, int count) {
	uint64_t value = 0;
	for (int i = count - 1; i >= 0; --i) value = value << 8 | bytes[i];
	return value;
}

// §18.1: the 8-byte RGB part shared by BC1, BC2 and BC3. four_color_only
// is BC2/BC3's rule that codes are read as if color0 > color1.
void DecodeS3tcColor(const uint8_t* block, bool four_color_only, bool has_alpha, TexelValue out[16]) {
	const uint32_t color0 = block[0] | block[1] << 8;
	const uint32_t color1 = block[2] | block[3] << 8;
	const uint32_t bits = uint32_t(LoadLittleEndian(block + 4, 4));
	// Endpoint channels as integers with their denominators 31, 63, 31.
	const double denominators[3] = {31.0, 63.0, 31.0};
	const uint32_t c0[3] = {color0 >> 11, (color0 >> 5) & 63, color0 & 31};
	const uint32_t c1[3] = {color1 >> 11, (color1 >> 5) & 63, color1 & 31};
	const bool four_colors = four_color_only || color0 > color1;
	float palette[4][4];
	for (int c = 0; c < 3; ++c) {
		const double d = denominators[c];
		palette[0][c] = float(c0[c] / d);
		palette[1][c] = float(c1[c] / d);
		if (four_colors) {
			palette[2][c] = float((2.0 * c0[c] + c1[c]) / (3.0 * d));
			palette[3][c] = float((c0[c] + 2.0 * c1[c]) / (3.0 * d));
		} else {
			palette[2][c] = float((double(c0[c]) + c1[c]) / (2.0 * d));
			palette[3][c] = 0.0f;  // BLACK
		}
	}
	for (int i = 0; i < 4; ++i) palette[i][3] = 1.0f;
	// §18.2 (BC1 with alpha): code 3 of a 3-color block is alpha 0.
	if (!four_colors && has_alpha) palette[3][3] = 0.0f;
	for (int t = 0; t < 16; ++t) {
		const uint32_t code = (bits >> (2 * t)) & 3;
		for (int c = 0; c < 4; ++c) out[t].f[c] = palette[code][c];
	}
}

// §18.4 (BC3 alpha) and §19.1 (BC4 unsigned): 8 palette entries from two
// 8-bit endpoints. For signed RGTC (§19.2) the endpoints are two's
// complement, -128 reads as -1.0 and the 6-value mode's extremes are -1, 1.
void DecodeEightValueChannel(const uint8_t* block, bool is_signed, int channel, TexelValue out[16]) {
	double e0, e1, lowest;
	bool eight_values;
	if (is_signed) {
		const int r0 = int8_t(block[0]), r1 = int8_t(block[1]);
		e0 = r0 == -128 ? -1.0 : r0 / 127.0;
		e1 = r1 == -128 ? -1.0 : r1 / 127.0;
		eight_values = r0 > r1;  // undefined for (-127, -128), see §19.2
		lowest = -1.0;
	} else {
		e0 = block[0] / 255.0;
		e1 = block[1] / 255.0;
		eight_values = block[0] > block[1];
		lowest = 0.0;
	}
	float palette[8];
	palette[0] = float(e0);
	palette[1] = float(e1);
	if (eight_values) {
		for (int i = 2; i < 8; ++i) palette[i] = float(((8 - i) * e0 + (i - 1) * e1) / 7.0);
	} else {
		for (int i = 2; i < 6; ++i) palette[i] = float(((6 - i) * e0 + (i - 1) * e1) / 5.0);
		palette[6] = float(lowest);
		palette[7] = 1.0f;
	}
	const uint64_t bits = LoadLittleEndian(block + 2, 6);
	for (int t = 0; t < 16; ++t) out[t].f[channel] = palette[(bits >> (3 * t)) & 7];
}

}  // namespace

void DecodeBc1(const uint8_t* block, bool has_alpha, TexelValue out[16]) {
	DecodeS3tcColor(block, false, has_alpha, out);
}

void DecodeBc2(const uint8_t* block, TexelValue out[16]) {
	DecodeS3tcColor(block + 8, true, false, out);
	// §18.3: explicit 4-bit alpha, alpha / 15.
	const uint64_t alpha = LoadLittleEndian(block, 8);
	for (int t = 0; t < 16; ++t) out[t].f[3] = float(((alpha >> (4 * t)) & 15) / 15.0);
}

void DecodeBc3(const uint8_t* block, TexelValue out[16]) {
	DecodeS3tcColor(block + 8, true, false, out);
	DecodeEightValueChannel(block, false, 3, out);
}

void DecodeRgtcChannel(const uint8_t* block, bool is_signed, int channel, TexelValue out[16]) {
	DecodeEightValueChannel(block, is_signed, channel, out);
}

void DecodeBc4(const uint8_t* block, bool is_signed, TexelValue out[16]) {
	for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 1.0f}};
	DecodeEightValueChannel(block, is_signed, 0, out);
}

void DecodeBc5(const uint8_t* block, bool is_signed, TexelValue out[16]) {
	for (int t = 0; t < 16; ++t) out[t] = TexelValue{{0.0f, 0.0f, 0.0f, 1.0f}};
	DecodeEightValueChannel(block, is_signed, 0, out);
	DecodeEightValueChannel(block + 8, is_signed, 1, out);
}

}  // namespace tessera::texture::bc
