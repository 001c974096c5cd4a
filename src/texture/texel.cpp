#include "texture/texel.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "texture/float_formats.h"

namespace tessera::texture {

namespace {

// Components are stored either as bitfields of a packed word or as whole
// bytes in memory order; both cases read as a little-endian bit stream.
uint64_t LoadBits(const uint8_t* base, uint32_t offset, uint32_t bits) {
	uint64_t word = 0;
	std::memcpy(&word, base + offset / 8, (offset % 8 + bits + 7) / 8);
	word >>= offset % 8;
	return bits == 64 ? word : word & ((uint64_t(1) << bits) - 1);
}

void StoreBits(uint8_t* base, uint32_t offset, uint32_t bits, uint64_t value) {
	uint32_t bytes = (offset % 8 + bits + 7) / 8;
	uint64_t word = 0;
	std::memcpy(&word, base + offset / 8, bytes);
	uint64_t mask = (bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1) << (offset % 8);
	word = (word & ~mask) | ((value << (offset % 8)) & mask);
	std::memcpy(base + offset / 8, &word, bytes);
}

int ComponentSlot(char name) {
	switch (name) {
	case 'R': case 'D': return 0;
	case 'G': case 'S': return 1;
	case 'B': return 2;
	case 'A': return 3;
	default: return -1;
	}
}

// Vulkan 1.3 §3.9.1 "Conversion from Normalized Fixed-Point to Floating-Point".
float UnormToFloat(uint64_t v, uint32_t bits) { return float(double(v) / double((uint64_t(1) << bits) - 1)); }
float SnormToFloat(int64_t v, uint32_t bits) {
	float f = float(double(v) / double((int64_t(1) << (bits - 1)) - 1));
	return f < -1.0f ? -1.0f : f;
}
// §3.9.2 "Conversion from Floating-Point to Normalized Fixed-Point": clamp,
// then round to nearest (ties away from zero, as lavapipe does).
uint64_t FloatToUnorm(float f, uint32_t bits) {
	if (!(f > 0.0f)) return 0;  // also NaN -> 0
	if (f >= 1.0f) return (uint64_t(1) << bits) - 1;
	return uint64_t(std::llround(double(f) * double((uint64_t(1) << bits) - 1)));
}
int64_t FloatToSnorm(float f, uint32_t bits) {
	double max = double((int64_t(1) << (bits - 1)) - 1);
	if (std::isnan(f)) return 0;
	if (f >= 1.0f) return int64_t(max);
	if (f <= -1.0f) return -int64_t(max);
	return std::llround(double(f) * max);
}

int64_t SignExtend(uint64_t v, uint32_t bits) {
	if (bits == 64) return int64_t(v);
	uint64_t sign = uint64_t(1) << (bits - 1);
	return int64_t((v ^ sign) - sign);
}

float DecodeFloat(uint64_t v, uint32_t bits, bool is_signed) {
	switch (bits) {
	case 16: return HalfToFloat(uint16_t(v));
	case 32: return std::bit_cast<float>(uint32_t(v));
	case 64: return float(std::bit_cast<double>(v));
	case 11: return Uf11ToFloat(uint32_t(v));
	case 10: return Uf10ToFloat(uint32_t(v));
	default: (void)is_signed; return 0.0f;
	}
}

uint64_t EncodeFloat(float f, uint32_t bits) {
	switch (bits) {
	case 16: return FloatToHalf(f);
	case 32: return std::bit_cast<uint32_t>(f);
	case 64: return std::bit_cast<uint64_t>(double(f));
	case 11: return FloatToUf11(f);
	case 10: return FloatToUf10(f);
	default: return 0;
	}
}

}  // namespace

bool CanConvertTexels(const FormatInfo& format) {
	return !format.IsCompressed() && format.plane_count == 0 && !format.chroma_subsampled &&
	       format.component_count > 0;
}

TexelValue UnpackTexel(const FormatInfo& format, const void* in) {
	TexelValue out{};
	bool integer = format.IsInteger();
	if (integer)
		out.u[3] = 1;
	else
		out.f[3] = 1.0f;
	auto* base = static_cast<const uint8_t*>(in);
	if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
		uint32_t word;
		std::memcpy(&word, base, 4);
		Rgb9e5ToFloat(word, out.f);
		return out;
	}
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		int slot = ComponentSlot(comp.name);
		if (slot < 0) continue;
		uint64_t raw = LoadBits(base, comp.offset, comp.bits);
		switch (comp.numeric) {
		case NumericFormat::UNORM: out.f[slot] = UnormToFloat(raw, comp.bits); break;
		case NumericFormat::SNORM: out.f[slot] = SnormToFloat(SignExtend(raw, comp.bits), comp.bits); break;
		case NumericFormat::USCALED: out.f[slot] = float(raw); break;
		case NumericFormat::SSCALED: out.f[slot] = float(SignExtend(raw, comp.bits)); break;
		case NumericFormat::UINT: out.u[slot] = uint32_t(raw); break;
		case NumericFormat::SINT: out.i[slot] = int32_t(SignExtend(raw, comp.bits)); break;
		case NumericFormat::UFLOAT:
		case NumericFormat::SFLOAT: out.f[slot] = DecodeFloat(raw, comp.bits, comp.numeric == NumericFormat::SFLOAT); break;
		case NumericFormat::SRGB:
			// §3.9: only R, G, B are sRGB-encoded; alpha is UNORM.
			out.f[slot] = slot == 3 ? UnormToFloat(raw, comp.bits) : SrgbToLinear(UnormToFloat(raw, comp.bits));
			break;
		}
	}
	return out;
}

void PackTexel(const FormatInfo& format, const TexelValue& value, void* out) {
	auto* base = static_cast<uint8_t*>(out);
	if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
		uint32_t word = FloatToRgb9e5(value.f);
		std::memcpy(base, &word, 4);
		return;
	}
	if (format.packed == 0) std::memset(base, 0, format.block_size);
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		int slot = ComponentSlot(comp.name);
		if (slot < 0) continue;
		uint64_t raw = 0;
		uint64_t mask = comp.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << comp.bits) - 1;
		switch (comp.numeric) {
		case NumericFormat::UNORM: raw = FloatToUnorm(value.f[slot], comp.bits); break;
		case NumericFormat::SNORM: raw = uint64_t(FloatToSnorm(value.f[slot], comp.bits)) & mask; break;
		case NumericFormat::USCALED: {
			float f = value.f[slot];
			double max = double(mask);
			raw = !(f > 0.0f) ? 0 : f >= max ? mask : uint64_t(std::nearbyint(f));
			break;
		}
		case NumericFormat::SSCALED: {
			double f = value.f[slot];
			double max = double(mask >> 1), min = -max - 1.0;
			int64_t v = std::isnan(f) ? 0 : f >= max ? int64_t(max) : f <= min ? int64_t(min) : int64_t(std::nearbyint(f));
			raw = uint64_t(v) & mask;
			break;
		}
		case NumericFormat::UINT: raw = value.u[slot] & mask; break;
		case NumericFormat::SINT: raw = uint64_t(int64_t(value.i[slot])) & mask; break;
		case NumericFormat::UFLOAT:
		case NumericFormat::SFLOAT: raw = EncodeFloat(value.f[slot], comp.bits); break;
		case NumericFormat::SRGB:
			raw = FloatToUnorm(slot == 3 ? value.f[slot] : LinearToSrgb(value.f[slot]), comp.bits);
			break;
		}
		StoreBits(base, comp.offset, comp.bits, raw);
	}
}

void PackDepth(VkFormat format, float depth, void* out) {
	switch (format) {
	case VK_FORMAT_D16_UNORM: {
		uint16_t v = uint16_t(FloatToUnorm(depth, 16));
		std::memcpy(out, &v, 2);
		break;
	}
	case VK_FORMAT_X8_D24_UNORM_PACK32: {
		uint32_t v = uint32_t(FloatToUnorm(depth, 24));
		std::memcpy(out, &v, 4);
		break;
	}
	default: std::memcpy(out, &depth, 4); break;
	}
}

float UnpackDepth(VkFormat format, const void* in) {
	switch (format) {
	case VK_FORMAT_D16_UNORM: {
		uint16_t v;
		std::memcpy(&v, in, 2);
		return UnormToFloat(v, 16);
	}
	case VK_FORMAT_X8_D24_UNORM_PACK32: {
		uint32_t v;
		std::memcpy(&v, in, 4);
		return UnormToFloat(v & 0xffffff, 24);
	}
	default: {
		float f;
		std::memcpy(&f, in, 4);
		return f;
	}
	}
}

}  // namespace tessera::texture
