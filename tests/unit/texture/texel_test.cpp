// PackTexel/UnpackTexel over every format they handle: bytes -> value ->
// bytes is the identity wherever the encoding is one-to-one, value -> bytes
// -> value stays within the format's rounding, and the edge values of each
// numeric class land on the bits the spec gives them.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "texture/float_formats.h"
#include "texture/texel.h"

using namespace tessera::texture;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

uint64_t Field(const uint8_t* block, uint32_t offset, uint32_t bits) {
	uint64_t v = 0;
	for (uint32_t b = 0; b < bits; ++b) v |= uint64_t((block[(offset + b) / 8] >> ((offset + b) % 8)) & 1) << b;
	return v;
}

void SetField(uint8_t* block, uint32_t offset, uint32_t bits, uint64_t v) {
	for (uint32_t b = 0; b < bits; ++b) {
		uint8_t bit = uint8_t(1u << ((offset + b) % 8));
		block[(offset + b) / 8] = uint8_t((block[(offset + b) / 8] & ~bit) | (((v >> b) & 1) ? bit : 0));
	}
}

int Slot(char name) {
	switch (name) {
	case 'R':
	case 'D': return 0;
	case 'G':
	case 'S': return 1;
	case 'B': return 2;
	default: return 3;
	}
}

// What bytes -> value -> bytes must give back: the same bits, except where
// two encodings mean one value or the value cannot be carried. Written from
// the spec, independently of texel.cpp.
std::vector<uint8_t> Canonical(const FormatInfo& format, const uint8_t* in) {
	std::vector<uint8_t> out(format.block_size, 0);  // X bits are written as 0
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		uint64_t raw = Field(in, comp.offset, comp.bits);
		uint64_t sign = comp.bits < 64 ? uint64_t(1) << (comp.bits - 1) : 0;
		if (comp.numeric == NumericFormat::SNORM && raw == sign) raw = sign + 1;  // -2^(b-1) reads as -1.0
		if (comp.bits == 16 && comp.numeric == NumericFormat::SFLOAT && (raw & 0x7c00) == 0x7c00 && (raw & 0x3ff))
			raw |= 0x200;  // NaN comes back quiet
		if (comp.numeric == NumericFormat::UFLOAT && comp.bits < 16) {
			uint32_t m = comp.bits - 5;
			if ((raw >> m) == 31 && (raw & ((1u << m) - 1))) raw = (31u << m) | 1;  // one NaN
		}
		if (comp.bits == 64 && Slot(comp.name) > 1) raw = 0;  // B and A of 64-bit formats are not carried
		SetField(out.data(), comp.offset, comp.bits, raw);
	}
	return out;
}

std::vector<uint8_t> Pack(VkFormat format, TexelValue value) {
	const FormatInfo& info = *FindFormat(format);
	std::vector<uint8_t> out(info.block_size, 0xcd);
	PackTexel(info, value, out.data());
	return out;
}

uint64_t PackWord(VkFormat format, TexelValue value) {
	std::vector<uint8_t> bytes = Pack(format, value);
	uint64_t word = 0;
	std::memcpy(&word, bytes.data(), std::min<size_t>(bytes.size(), 8));
	return word;
}

TexelValue Unpack(VkFormat format, uint64_t word) {
	uint8_t bytes[32] = {};
	std::memcpy(bytes, &word, 8);
	return UnpackTexel(*FindFormat(format), bytes);
}

TexelValue F(float r, float g = 0, float b = 0, float a = 0) { return TexelValue{.f = {r, g, b, a}}; }
TexelValue U(uint32_t r, uint32_t g = 0, uint32_t b = 0, uint32_t a = 0) { return TexelValue{.u = {r, g, b, a}}; }
TexelValue I(int32_t r, int32_t g = 0, int32_t b = 0, int32_t a = 0) { return TexelValue{.i = {r, g, b, a}}; }

double SrgbReference(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055; }

}  // namespace

TEST_CASE("bytes -> value -> bytes is the identity for every format, up to equivalent encodings", "[texture][texel]") {
	std::mt19937_64 random(1234);
	int formats = 0;
	for (size_t f = 0; f < kFormatTableSize; ++f) {
		const FormatInfo& info = kFormatTable[f];
		if (!CanConvertTexels(info) || info.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) continue;
		++formats;
		CAPTURE(info.name);
		std::vector<std::vector<uint8_t>> inputs;
		inputs.push_back(std::vector<uint8_t>(info.block_size, 0x00));
		inputs.push_back(std::vector<uint8_t>(info.block_size, 0xff));
		for (int i = 0; i < 2000; ++i) {
			std::vector<uint8_t> block(info.block_size);
			for (uint8_t& b : block) b = uint8_t(random());
			inputs.push_back(block);
		}
		// Each component at its special encodings: 0, 1, all ones, the sign
		// bit alone (SNORM's second -1, -0, the most negative integer), and
		// the float specials' exponent patterns.
		for (uint8_t c = 0; c < info.component_count; ++c) {
			const FormatComponent& comp = info.components[c];
			uint64_t all = comp.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << comp.bits) - 1;
			uint64_t sign = uint64_t(1) << (comp.bits - 1);
			for (uint64_t v :
			     {uint64_t(0), uint64_t(1), all, sign, sign + 1, all >> 1, all - 1, uint64_t(0x7c00), uint64_t(0xfc00),
			      uint64_t(0x7c01), uint64_t(0x7e00), uint64_t(0x7c0), uint64_t(0x3e0), uint64_t(0x7f800000),
			      uint64_t(0x7f800001), uint64_t(0xff800000), uint64_t(0x80000000)}) {
				std::vector<uint8_t> block(info.block_size);
				for (uint8_t& b : block) b = uint8_t(random());
				SetField(block.data(), comp.offset, comp.bits, v & all);
				inputs.push_back(block);
			}
		}
		for (const std::vector<uint8_t>& in : inputs) {
			TexelValue value = UnpackTexel(info, in.data());
			std::vector<uint8_t> out(info.block_size, 0xcd);
			PackTexel(info, value, out.data());
			std::vector<uint8_t> expected = Canonical(info, in.data());
			if (out == expected) continue;  // CAPTURE formats eagerly: only on failure
			CAPTURE(in, out, expected);
			REQUIRE(out == expected);
		}
	}
	CHECK(formats > 120);  // every uncompressed single-plane format of one texel per block
}

TEST_CASE("value -> bytes -> value stays within each format's rounding", "[texture][texel]") {
	std::mt19937 random(99);
	std::uniform_real_distribution<float> unit(0.0f, 1.0f), signed_unit(-1.0f, 1.0f);
	for (size_t f = 0; f < kFormatTableSize; ++f) {
		const FormatInfo& info = kFormatTable[f];
		if (!CanConvertTexels(info) || info.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) continue;
		CAPTURE(info.name);
		for (int i = 0; i < 500; ++i) {
			TexelValue in{};
			for (uint8_t c = 0; c < info.component_count; ++c) {
				const FormatComponent& comp = info.components[c];
				int slot = Slot(comp.name);
				int64_t max = comp.bits >= 64 ? 0 : (int64_t(1) << comp.bits) - 1;
				switch (comp.numeric) {
				case NumericFormat::UNORM:
				case NumericFormat::SRGB: in.f[slot] = unit(random); break;
				case NumericFormat::SNORM: in.f[slot] = signed_unit(random); break;
				case NumericFormat::USCALED: in.f[slot] = float(random() % (max + 1)); break;
				case NumericFormat::SSCALED: in.f[slot] = float(int64_t(random() % (max + 1)) - (max + 1) / 2); break;
				case NumericFormat::UINT:
					if (comp.bits == 64) {
						// R and G of 64-bit formats take two words each; B and A
						// have no words left in VkClearColorValue.
						if (slot < 2) {
							in.u[2 * slot] = random();
							in.u[2 * slot + 1] = random();
						}
					} else {
						in.u[slot] = uint32_t(random() & max);
					}
					break;
				case NumericFormat::SINT:
					if (comp.bits == 64) {
						// R and G of 64-bit formats take two words each; B and A
						// have no words left in VkClearColorValue.
						if (slot < 2) {
							in.u[2 * slot] = random();
							in.u[2 * slot + 1] = random();
						}
					} else {
						in.i[slot] = int32_t(int64_t(random() % (max + 1)) - (max + 1) / 2);
					}
					break;
				case NumericFormat::UFLOAT: in.f[slot] = std::ldexp(unit(random), int(random() % 30) - 14); break;
				case NumericFormat::SFLOAT:
					if (comp.bits == 64) {
						double d = std::ldexp(double(signed_unit(random)), int(random() % 200) - 100);
						if (slot < 2) std::memcpy(&in.u[2 * slot], &d, 8);
					} else {
						in.f[slot] = std::ldexp(signed_unit(random), int(random() % 30) - 14);
					}
					break;
				}
			}
			std::vector<uint8_t> bytes(info.block_size);
			PackTexel(info, in, bytes.data());
			TexelValue out = UnpackTexel(info, bytes.data());
			for (uint8_t c = 0; c < info.component_count; ++c) {
				const FormatComponent& comp = info.components[c];
				int slot = Slot(comp.name);
				double max = std::ldexp(1.0, comp.bits) - 1;
				bool ok = true;
				if (comp.bits == 64) {
					ok = slot > 1 || (out.u[2 * slot] == in.u[2 * slot] && out.u[2 * slot + 1] == in.u[2 * slot + 1]);
				} else {
					switch (comp.numeric) {
					case NumericFormat::UNORM:
						// Round to nearest: at most half a step away.
						ok = std::abs(double(out.f[slot]) - in.f[slot]) <= 0.5 / max + 1e-7;
						break;
					case NumericFormat::SRGB: {
						uint64_t code = Field(bytes.data(), comp.offset, comp.bits);
						double exact = (slot == 3 ? double(in.f[slot]) : SrgbReference(in.f[slot])) * max;
						ok = std::abs(double(code) - exact) <= 0.5 + 1e-6;
						break;
					}
					case NumericFormat::SNORM:
						ok = std::abs(double(out.f[slot]) - in.f[slot]) <= 0.5 / (max / 2 - 0.5) + 1e-7;
						break;
					case NumericFormat::USCALED:
					case NumericFormat::SSCALED:
					case NumericFormat::UINT:
					case NumericFormat::SINT: ok = out.u[slot] == in.u[slot]; break;
					case NumericFormat::UFLOAT:
					case NumericFormat::SFLOAT: {
						// Relative error of half an ULP, or half the smallest denormal.
						int mantissa_bits = comp.bits == 32 ? 23 : comp.bits == 16 ? 10 : comp.bits - 5;
						double tolerance = std::max(std::abs(double(in.f[slot])) * std::ldexp(1.0, -mantissa_bits - 1),
						                            std::ldexp(1.0, -15 - mantissa_bits));
						ok = std::abs(double(out.f[slot]) - in.f[slot]) <= tolerance;
						break;
					}
					}
				}
				if (ok) continue;  // Catch2 v2 formats INFO eagerly: only on failure
				INFO(comp.name << ": in " << in.f[slot] << " (0x" << std::hex << in.u[slot] << "), out " << out.f[slot]
				               << " (0x" << out.u[slot] << std::dec << ")");
				CHECK(ok);
			}
		}
	}
}

TEST_CASE("UNORM: endpoints exact, out of range clamps, NaN is 0", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_UNORM, F(0.0f, 1.0f, 0.5f, 0.2f)) == 0x33'80'ff'00);  // 127.5 -> 128, 51
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_UNORM, F(-1.0f, 2.0f, kNaN, kInf)) == 0xff'00'ff'00);
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_UNORM, F(-kInf, -0.0f, 1.0f / 255, 0.5f / 255 - 1e-6f)) == 0x00'01'00'00);
	CHECK(PackWord(VK_FORMAT_R16_UNORM, F(1.0f)) == 0xffff);
	CHECK(PackWord(VK_FORMAT_R16_UNORM, F(0.5f)) == 0x8000);  // 32767.5: ties away from zero
	CHECK(PackWord(VK_FORMAT_A1R5G5B5_UNORM_PACK16, F(0, 0, 0, 0.5f)) == 0x8000);
	CHECK(PackWord(VK_FORMAT_B8G8R8A8_UNORM, F(1.0f, 0.0f, 0.0f, 0.0f)) == 0x00'ff'00'00);
	CHECK(Unpack(VK_FORMAT_R8_UNORM, 0xff).f[0] == 1.0f);
	CHECK(Unpack(VK_FORMAT_R8_UNORM, 0x80).f[0] == float(128.0 / 255.0));
	CHECK(Unpack(VK_FORMAT_R16_UNORM, 0x1).f[0] == float(1.0 / 65535.0));
	CHECK(Unpack(VK_FORMAT_R8_UNORM, 0).f[3] == 1.0f);  // missing alpha reads 1
}

TEST_CASE("SNORM: -1 is -(2^(b-1) - 1), the most negative code reads -1", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SNORM, F(-1.0f, 1.0f, 0.0f, -0.5f)) == 0xc0'00'7f'81);  // -63.5 -> -64
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SNORM, F(-2.0f, 5.0f, kNaN, -kInf)) == 0x81'00'7f'81);
	CHECK(PackWord(VK_FORMAT_R8_SNORM, F(-0.0f)) == 0);
	CHECK(PackWord(VK_FORMAT_R16_SNORM, F(-1.0f)) == 0x8001);
	CHECK(Unpack(VK_FORMAT_R8_SNORM, 0x80).f[0] == -1.0f);
	CHECK(Unpack(VK_FORMAT_R8_SNORM, 0x81).f[0] == -1.0f);
	CHECK(Unpack(VK_FORMAT_R8_SNORM, 0x7f).f[0] == 1.0f);
	CHECK(Unpack(VK_FORMAT_R16_SNORM, 0x8000).f[0] == -1.0f);
	CHECK(Unpack(VK_FORMAT_R8_SNORM, 0xc0).f[0] == float(-64.0 / 127.0));
	// 2-bit alpha of A2B10G10R10_SNORM: -1 -> 0b11, 1 -> 0b01, 0b10 reads -1.
	CHECK(PackWord(VK_FORMAT_A2B10G10R10_SNORM_PACK32, F(-1.0f, 0.0f, 0.0f, -1.0f)) == (3u << 30 | 0x201));
	CHECK(PackWord(VK_FORMAT_A2B10G10R10_SNORM_PACK32, F(0.0f, 0.0f, 1.0f, 1.0f)) == (1u << 30 | 0x1ffu << 20));
	CHECK(PackWord(VK_FORMAT_A2B10G10R10_SNORM_PACK32, F(0, 0, 0, -0.5f)) == 3u << 30);  // tie: away from 0
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 2u << 30).f[3] == -1.0f);
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 0x200).f[0] == -1.0f);
}

TEST_CASE("sRGB: linear values encode through the inverse EOTF, alpha stays linear", "[texture][texel]") {
	// 0.5 -> 0.7353 * 255 = 187.5 -> 188; alpha 0.5 -> 128.
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SRGB, F(0.0f, 1.0f, 0.5f, 0.5f)) == 0x80'bc'ff'00);
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SRGB, F(kNaN, 2.0f, -1.0f, 1.0f)) == 0xff'00'ff'00);
	// Tiny values are on the linear segment: 1e-6 * 12.92 * 255 = 0.0033 -> 0;
	// 0.0031308 * 12.92 * 255 = 10.31 -> 10.
	CHECK(PackWord(VK_FORMAT_R8_SRGB, F(1e-6f)) == 0);
	CHECK(PackWord(VK_FORMAT_R8_SRGB, F(0.0031308f)) == 10);
	CHECK(PackWord(VK_FORMAT_B8G8R8A8_SRGB, F(1.0f, 0.0f, 0.0f, 0.0f)) == 0x00'ff'00'00);
	CHECK(Unpack(VK_FORMAT_R8G8B8A8_SRGB, 0xff'ff'00'00).f[0] == 0.0f);
	CHECK(Unpack(VK_FORMAT_R8G8B8A8_SRGB, 0xff'ff'00'00).f[2] == 1.0f);
	CHECK(Unpack(VK_FORMAT_R8G8B8A8_SRGB, 0x80'00'00'00).f[3] == float(128.0 / 255.0));
	// Every 8-bit code decodes to the EOTF of code / 255.
	for (uint32_t code = 0; code < 256; ++code) {
		double e = code / 255.0;
		double linear = e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4);
		CHECK(Unpack(VK_FORMAT_R8_SRGB, code).f[0] == Approx(linear).epsilon(1e-6).margin(1e-9));
	}
}

TEST_CASE("SCALED: the float as an integer, clamped and rounded to nearest", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_USCALED, F(3.0f, 300.0f, -5.0f, 3.6f)) == 0x04'00'ff'03);
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SSCALED, F(-128.0f, -200.0f, 127.0f, kNaN)) == 0x00'7f'80'80);
	CHECK(PackWord(VK_FORMAT_R16_SSCALED, F(-1.0f)) == 0xffff);
	CHECK(Unpack(VK_FORMAT_R16_SSCALED, 0x8000).f[0] == -32768.0f);
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_USCALED_PACK32, 3u << 30 | 1023).f[3] == 3.0f);
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_USCALED_PACK32, 3u << 30 | 1023).f[0] == 1023.0f);
}

TEST_CASE("UINT/SINT: the value cast to the smaller type", "[texture][texel]") {
	// Vulkan 1.3 §19.3: "casting to the integer type with fewer bits".
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_UINT, U(1, 255, 300, 0xffffffff)) == 0xff'2c'ff'01);
	CHECK(PackWord(VK_FORMAT_R8G8B8A8_SINT, I(-1, -128, 127, 0)) == 0x00'7f'80'ff);
	CHECK(PackWord(VK_FORMAT_R32_SINT, I(INT32_MIN)) == 0x80000000);
	CHECK(PackWord(VK_FORMAT_A2R10G10B10_UINT_PACK32, U(1023, 5, 7, 3)) == (3u << 30 | 1023u << 20 | 5u << 10 | 7u));
	CHECK(PackWord(VK_FORMAT_A2B10G10R10_SINT_PACK32, I(-1, 0, 0, -2)) == (2u << 30 | 0x3ff));
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_SINT_PACK32, 2u << 30 | 0x200).i[0] == -512);
	CHECK(Unpack(VK_FORMAT_A2B10G10R10_SINT_PACK32, 2u << 30 | 0x200).i[3] == -2);
	CHECK(Unpack(VK_FORMAT_R16_SINT, 0x8000).i[0] == -32768);
	CHECK(Unpack(VK_FORMAT_R16_UINT, 0x8000).u[0] == 0x8000);
	CHECK(Unpack(VK_FORMAT_R16_UINT, 0).u[3] == 1);  // missing alpha reads integer 1
}

TEST_CASE("packed formats put each component where the spec's name says", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_R5G6B5_UNORM_PACK16, F(1, 0, 0, 0)) == 0xf800);
	CHECK(PackWord(VK_FORMAT_R5G6B5_UNORM_PACK16, F(0, 1, 0, 0)) == 0x07e0);
	CHECK(PackWord(VK_FORMAT_B5G6R5_UNORM_PACK16, F(1, 0, 0, 0)) == 0x001f);
	CHECK(PackWord(VK_FORMAT_A1R5G5B5_UNORM_PACK16, F(1, 0, 0, 1)) == 0xfc00);
	CHECK(PackWord(VK_FORMAT_A1R5G5B5_UNORM_PACK16, F(0, 0, 1, 0.4f)) == 0x001f);  // 1-bit alpha: 0.4 -> 0
	CHECK(PackWord(VK_FORMAT_R5G5B5A1_UNORM_PACK16, F(0, 0, 0, 1)) == 0x0001);
	CHECK(PackWord(VK_FORMAT_B5G5R5A1_UNORM_PACK16, F(1, 0, 0, 0)) == 0x003e);
	CHECK(PackWord(VK_FORMAT_B5G5R5A1_UNORM_PACK16, F(0, 1, 0, 0)) == 0x07c0);
	CHECK(PackWord(VK_FORMAT_R4G4_UNORM_PACK8, F(1, 0, 0, 0)) == 0xf0);
	CHECK(PackWord(VK_FORMAT_R4G4B4A4_UNORM_PACK16, F(1, 0, 0, 0)) == 0xf000);
	CHECK(PackWord(VK_FORMAT_B4G4R4A4_UNORM_PACK16, F(1, 0, 0, 0)) == 0x00f0);
	CHECK(PackWord(VK_FORMAT_A4R4G4B4_UNORM_PACK16, F(0, 0, 0, 1)) == 0xf000);
	CHECK(PackWord(VK_FORMAT_A4R4G4B4_UNORM_PACK16, F(1, 0, 0, 0)) == 0x0f00);
	CHECK(PackWord(VK_FORMAT_A4B4G4R4_UNORM_PACK16, F(1, 0, 0, 0)) == 0x000f);
	CHECK(PackWord(VK_FORMAT_A4B4G4R4_UNORM_PACK16, F(0, 0, 1, 0)) == 0x0f00);
	CHECK(PackWord(VK_FORMAT_A8B8G8R8_UNORM_PACK32, F(1, 0, 0, 0)) == 0x000000ff);
	CHECK(PackWord(VK_FORMAT_A2R10G10B10_UNORM_PACK32, F(1, 0, 0, 0)) == 0x3ff00000);
	CHECK(PackWord(VK_FORMAT_A2B10G10R10_UNORM_PACK32, F(1, 0, 0, 1)) == 0xc00003ff);
	// The "X" bits of 10X6 / 12X4 formats are the low bits of each 16-bit word, written 0.
	CHECK(PackWord(VK_FORMAT_R10X6_UNORM_PACK16, F(1)) == 0xffc0);
	CHECK(PackWord(VK_FORMAT_R10X6G10X6_UNORM_2PACK16, F(0, 1)) == 0xffc0'0000);
	CHECK(PackWord(VK_FORMAT_R12X4G12X4B12X4A12X4_UNORM_4PACK16, F(0, 0, 0, 1)) == 0xfff0'0000'0000'0000);
	CHECK(PackWord(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16, F(1, 0, 1, 0)) == 0x0000'ffc0'0000'ffc0);
	CHECK(Unpack(VK_FORMAT_R10X6_UNORM_PACK16, 0xffff).f[0] == 1.0f);  // X bits are ignored
	// B10G11R11: R in bits 0-10, G 11-21, B 22-31 (1.0 = exponent 15).
	CHECK(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, F(1, 0, 0, 0)) == 0x3c0);
	CHECK(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, F(0, 1, 0, 0)) == 0x3c0u << 11);
	CHECK(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, F(0, 0, 1, 0)) == 0x1e0u << 22);
	CHECK(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, F(-1, kInf, kNaN, 0)) == (0x7c0u << 11 | 0x3e1u << 22));
	// E5B9G9R9: exponent in the top 5 bits.
	CHECK(PackWord(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, F(1, 1, 1, 0)) == (16u << 27 | 256u << 18 | 256u << 9 | 256u));
	CHECK(Unpack(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 16u << 27 | 256u).f[0] == 1.0f);
	CHECK(Unpack(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 0).f[3] == 1.0f);
}

TEST_CASE("float formats keep NaN, Inf, -0 and denormals", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_R16G16B16A16_SFLOAT, F(kInf, -kInf, -0.0f, 65504.0f)) == 0x7bff'8000'fc00'7c00);
	CHECK(PackWord(VK_FORMAT_R16_SFLOAT, F(1e5f)) == 0x7c00);
	CHECK(PackWord(VK_FORMAT_R16_SFLOAT, F(std::ldexp(1.0f, -24))) == 0x0001);
	uint64_t nan16 = PackWord(VK_FORMAT_R16_SFLOAT, F(kNaN));
	CHECK((nan16 & 0x7c00) == 0x7c00);
	CHECK((nan16 & 0x3ff) != 0);
	CHECK(std::isnan(Unpack(VK_FORMAT_R16_SFLOAT, 0x7c01).f[0]));
	CHECK(Unpack(VK_FORMAT_R16_SFLOAT, 0x0001).f[0] == std::ldexp(1.0f, -24));
	CHECK(std::signbit(Unpack(VK_FORMAT_R16_SFLOAT, 0x8000).f[0]));
	// 32-bit floats are stored bit for bit, NaN payloads and denormals included.
	CHECK(PackWord(VK_FORMAT_R32G32_SFLOAT, U(0x7f800123, 1)) == (0x7f800123ull | 1ull << 32));
	CHECK(std::bit_cast<uint32_t>(Unpack(VK_FORMAT_R32_SFLOAT, 0xff800000).f[0]) == 0xff800000);
}

TEST_CASE("64-bit components take two words of the value, as VkClearColorValue does", "[texture][texel]") {
	// Vulkan 1.3 §19.3 (since 1.3.287): R is uint32[0..1], G is uint32[2..3] as one 64-bit value.
	double d = -1.5;
	TexelValue value{};
	std::memcpy(&value.u[0], &d, 8);
	value.u[2] = 0x89abcdef;
	value.u[3] = 0x01234567;
	const FormatInfo& r64g64 = *FindFormat(VK_FORMAT_R64G64_UINT);
	uint8_t bytes[16];
	PackTexel(r64g64, value, bytes);
	uint64_t r, g;
	std::memcpy(&r, bytes, 8);
	std::memcpy(&g, bytes + 8, 8);
	CHECK(r == std::bit_cast<uint64_t>(d));
	CHECK(g == 0x0123456789abcdefull);
	std::vector<uint8_t> f64 = Pack(VK_FORMAT_R64_SFLOAT, value);
	CHECK(std::memcmp(f64.data(), &d, 8) == 0);
	// B and A of four-component 64-bit formats cannot be carried: written as 0.
	std::vector<uint8_t> rgba = Pack(VK_FORMAT_R64G64B64A64_SINT, value);
	CHECK(std::vector<uint8_t>(rgba.begin() + 16, rgba.end()) == std::vector<uint8_t>(16, 0));
	TexelValue back = UnpackTexel(r64g64, bytes);
	CHECK(std::memcmp(&back, &value, 16) == 0);
}

TEST_CASE("depth and stencil: D24 is the low 24 bits, stencil the byte above", "[texture][texel]") {
	CHECK(PackWord(VK_FORMAT_X8_D24_UNORM_PACK32, F(1.0f)) == 0x00ffffff);
	CHECK(PackWord(VK_FORMAT_D24_UNORM_S8_UINT, TexelValue{.u = {std::bit_cast<uint32_t>(1.0f), 0xab}}) == 0xabffffff);
	CHECK(PackWord(VK_FORMAT_D16_UNORM_S8_UINT, TexelValue{.u = {std::bit_cast<uint32_t>(0.5f), 7}}) == 0x07'8000);
	CHECK(PackWord(VK_FORMAT_D32_SFLOAT_S8_UINT, TexelValue{.u = {std::bit_cast<uint32_t>(0.25f), 0xff}}) ==
	      (0xffull << 32 | std::bit_cast<uint32_t>(0.25f)));
	CHECK(Unpack(VK_FORMAT_X8_D24_UNORM_PACK32, 0xff000000).f[0] == 0.0f);  // X bits ignored

	uint32_t word = 0xdeadbeef;
	PackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, 1.0f, &word);
	CHECK(word == 0x00ffffff);
	PackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, 0.5f, &word);
	CHECK(word == 0x00800000);  // 8388607.5 -> away from zero
	CHECK(UnpackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, &word) == float(8388608.0 / 16777215.0));
	word = 0xff000000;
	CHECK(UnpackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, &word) == 0.0f);
	uint16_t d16 = 0;
	PackDepth(VK_FORMAT_D16_UNORM, 1.0f, &d16);
	CHECK(d16 == 0xffff);
	PackDepth(VK_FORMAT_D16_UNORM, 0.0f, &d16);
	CHECK(d16 == 0);
	float d32 = 0;
	PackDepth(VK_FORMAT_D32_SFLOAT, 0.75f, &d32);
	CHECK(d32 == 0.75f);
	CHECK(UnpackDepth(VK_FORMAT_D32_SFLOAT, &d32) == 0.75f);
}

TEST_CASE("formats PackTexel cannot handle are refused", "[texture][texel]") {
	CHECK_FALSE(CanConvertTexels(*FindFormat(VK_FORMAT_BC1_RGB_UNORM_BLOCK)));
	CHECK_FALSE(CanConvertTexels(*FindFormat(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM)));
	CHECK_FALSE(CanConvertTexels(*FindFormat(VK_FORMAT_G8B8G8R8_422_UNORM)));
	CHECK(CanConvertTexels(*FindFormat(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16)));
	CHECK(CanConvertTexels(*FindFormat(VK_FORMAT_D32_SFLOAT_S8_UINT)));
	CHECK(CanConvertTexels(*FindFormat(VK_FORMAT_A4B4G4R4_UNORM_PACK16)));
}
