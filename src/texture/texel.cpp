#include "texture/texel.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "texture/float_formats.h"

namespace tessera::texture {

namespace {

// Components are stored either as bitfields of packed words or as whole
// bytes in memory order; both read as a little-endian bit stream.
uint64_t LoadBits(const uint8_t* base, uint32_t offset, uint32_t bits) {
	uint64_t word = 0;
	std::memcpy(&word, base + offset / 8, (offset % 8 + bits + 7) / 8);
	word >>= offset % 8;
	return bits == 64 ? word : word & ((uint64_t(1) << bits) - 1);
}

int ComponentSlot(char name) {
	switch (name) {
	case 'R':
	case 'D': return 0;
	case 'G':
	case 'S': return 1;
	case 'B': return 2;
	case 'A': return 3;
	default: return -1;
	}
}

uint64_t Mask(uint32_t bits) { return bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

int64_t SignExtend(uint64_t v, uint32_t bits) {
	uint64_t sign = uint64_t(1) << (bits - 1);
	return int64_t((v ^ sign) - sign);
}

// §3.10.1 "Conversion From Normalized Fixed-Point to Floating-Point":
// f = c / (2^b - 1), and for SNORM f = max(c / (2^(b-1) - 1), -1.0). The
// quotient is computed in double, so the float is the correctly rounded one.
float UnormToFloat(uint64_t c, uint32_t bits) { return float(double(c) / double(Mask(bits))); }
float SnormToFloat(int64_t c, uint32_t bits) {
	double f = double(c) / double(Mask(bits - 1));
	return float(f < -1.0 ? -1.0 : f);
}

// §3.10.2 "Conversion From Floating-Point to Normalized Fixed-Point": clamp,
// scale by 2^b - 1 (exact in double for b <= 24 and float input), round to
// nearest as the spec recommends (integers stay exact). Exact ties happen
// only at f = +-0.5; they go away from zero, as lavapipe's do (to-even would
// differ for 1-bit UNORM and 2-bit SNORM). NaN -> 0.
uint64_t FloatToUnorm(double f, uint32_t bits) {
	if (!(f > 0.0)) return 0;
	if (f >= 1.0) return Mask(bits);
	return uint64_t(std::round(f * double(Mask(bits))));
}
// SNORM: clamp to [-1, 1], so -1.0 is -(2^(b-1) - 1), never -2^(b-1).
uint64_t FloatToSnorm(float f, uint32_t bits) {
	double max = double(Mask(bits - 1));
	double v = std::isnan(f) ? 0.0 : f >= 1.0f ? max : f <= -1.0f ? -max : std::round(f * max);
	return uint64_t(int64_t(v)) & Mask(bits);
}
// SCALED: the float as an integer, clamped to the component's range and
// rounded to nearest. NaN -> 0.
uint64_t FloatToUscaled(float f, uint32_t bits) {
	double max = double(Mask(bits));
	return !(f > 0.0f) ? 0 : f >= max ? Mask(bits) : uint64_t(std::round(f));
}
uint64_t FloatToSscaled(float f, uint32_t bits) {
	double max = double(Mask(bits - 1)), min = -max - 1.0;
	double v = std::isnan(f) ? 0.0 : f >= max ? max : f <= min ? min : std::round(f);
	return uint64_t(int64_t(v)) & Mask(bits);
}

float DecodeFloat(uint64_t v, uint32_t bits) {
	switch (bits) {
	case 16: return HalfToFloat(uint16_t(v));
	case 32: return std::bit_cast<float>(uint32_t(v));
	case 11: return Uf11ToFloat(uint32_t(v));
	case 10: return Uf10ToFloat(uint32_t(v));
	default: return 0.0f;
	}
}

uint64_t EncodeFloat(float f, uint32_t bits) {
	switch (bits) {
	case 16: return FloatToHalf(f);
	case 32: return std::bit_cast<uint32_t>(f);
	case 11: return FloatToUf11(f);
	case 10: return FloatToUf10(f);
	default: return 0;
	}
}

// A 64-bit component of the value: words 2*slot and 2*slot+1 (R and G only).
uint64_t Load64(const TexelValue& value, int slot) {
	if (slot > 1) return 0;
	return uint64_t(value.u[2 * slot]) | uint64_t(value.u[2 * slot + 1]) << 32;
}
void Store64(TexelValue& value, int slot, uint64_t raw) {
	if (slot > 1) return;
	value.u[2 * slot] = uint32_t(raw);
	value.u[2 * slot + 1] = uint32_t(raw >> 32);
}

}  // namespace

bool CanConvertTexels(const FormatInfo& format) {
	return !format.IsCompressed() && format.plane_count == 0 && format.TexelsPerBlock() == 1 &&
	       format.component_count > 0;
}

TexelValue UnpackTexel(const FormatInfo& format, const void* in) {
	TexelValue out{};
	auto* base = static_cast<const uint8_t*>(in);
	if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
		uint32_t word;
		std::memcpy(&word, base, 4);
		Rgb9e5ToFloat(word, out.f);
		out.f[3] = 1.0f;
		return out;
	}
	// Missing alpha reads 1 (not for 64-bit formats, whose words 2-3 are G).
	if (format.IsInteger() && !format.Has64BitComponents())
		out.u[3] = 1;
	else if (!format.Has64BitComponents())
		out.f[3] = 1.0f;
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		int slot = ComponentSlot(comp.name);
		if (slot < 0) continue;
		uint64_t raw = LoadBits(base, comp.offset, comp.bits);
		if (comp.bits == 64) {
			Store64(out, slot, raw);
			continue;
		}
		switch (comp.numeric) {
		case NumericFormat::UNORM: out.f[slot] = UnormToFloat(raw, comp.bits); break;
		case NumericFormat::SNORM: out.f[slot] = SnormToFloat(SignExtend(raw, comp.bits), comp.bits); break;
		case NumericFormat::USCALED: out.f[slot] = float(raw); break;
		case NumericFormat::SSCALED: out.f[slot] = float(SignExtend(raw, comp.bits)); break;
		case NumericFormat::UINT: out.u[slot] = uint32_t(raw); break;
		case NumericFormat::SINT: out.i[slot] = int32_t(SignExtend(raw, comp.bits)); break;
		case NumericFormat::UFLOAT:
		case NumericFormat::SFLOAT: out.f[slot] = DecodeFloat(raw, comp.bits); break;
		case NumericFormat::SRGB:
			// Only R, G and B are sRGB-encoded; alpha is UNORM.
			out.f[slot] = slot == 3 ? UnormToFloat(raw, comp.bits) : SrgbToLinear(UnormToFloat(raw, comp.bits));
			break;
		}
	}
	return out;
}

void PackTexel(const FormatInfo& format, const TexelValue& value, void* out) {
	// Built aside and copied once: a texel zeroed in place, then filled,
	// reads as zero meanwhile to any thread loading it, even when the value
	// stored is the one it already held (workgroups storing the same value
	// to one storage texel and reading it back, on two threads).
	// The bits gather in four 64-bit words (little-endian, as the texel's
	// bytes), in registers: storing each component into a byte buffer to be
	// read back wider cost a stalled store-to-load forward per component.
	uint64_t words[4] = {};  // the widest texel (R64G64B64A64); X (padding) bits are zero
	if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
		uint32_t word = FloatToRgb9e5(value.f);
		std::memcpy(out, &word, 4);
		return;
	}
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		int slot = ComponentSlot(comp.name);
		if (slot < 0) continue;
		uint32_t bits = comp.bits;
		float f = value.f[slot];
		uint64_t raw = 0;
		if (bits == 64) {
			raw = Load64(value, slot);
		} else {
			switch (comp.numeric) {
			case NumericFormat::UNORM: raw = FloatToUnorm(f, bits); break;
			case NumericFormat::SNORM: raw = FloatToSnorm(f, bits); break;
			case NumericFormat::USCALED: raw = FloatToUscaled(f, bits); break;
			case NumericFormat::SSCALED: raw = FloatToSscaled(f, bits); break;
			case NumericFormat::UINT: raw = value.u[slot] & Mask(bits); break;
			case NumericFormat::SINT: raw = uint64_t(int64_t(value.i[slot])) & Mask(bits); break;
			case NumericFormat::UFLOAT:
			case NumericFormat::SFLOAT: raw = EncodeFloat(f, bits); break;
			case NumericFormat::SRGB: raw = FloatToUnorm(slot == 3 ? double(f) : LinearToSrgb(f), bits); break;
			}
		}
		const uint32_t word = comp.offset / 64, shift = comp.offset % 64;
		words[word] |= raw << shift;
		if (shift + bits > 64) words[word + 1] |= raw >> (64 - shift);  // (no format has one)
	}
	static_assert(std::endian::native == std::endian::little);
	switch (format.block_size) {  // (copies of a constant size, not a call)
	case 1: std::memcpy(out, words, 1); break;
	case 2: std::memcpy(out, words, 2); break;
	case 4: std::memcpy(out, words, 4); break;
	case 8: std::memcpy(out, words, 8); break;
	case 16: std::memcpy(out, words, 16); break;
	default: std::memcpy(out, words, format.block_size); break;
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

uint8_t PackSrgb8(float linear) {
	static const FormatInfo& r8 = *FindFormat(VK_FORMAT_R8_SRGB);
	TexelValue v{};
	v.f[0] = linear;
	uint8_t bytes[16] = {};  // room for any texel: GCC warns of the wider formats' stores
	PackTexel(r8, v, bytes);
	return bytes[0];
}

// PackSrgb8 is monotonic in the linear value, so byte k is reached at a
// threshold, found by bisecting float bit patterns.
const SrgbEncoding& SrgbEncoding::Get() {
	static const SrgbEncoding encoding = [] {
		SrgbEncoding e{};
		for (uint32_t k = 1; k < 256; ++k) {
			uint32_t lo = 0, hi = std::bit_cast<uint32_t>(1.0f);  // PackSrgb8(hi) = 255 >= k
			while (hi - lo > 1) {
				const uint32_t mid = lo + (hi - lo) / 2;
				(PackSrgb8(std::bit_cast<float>(mid)) >= k ? hi : lo) = mid;
			}
			e.thresholds[k] = std::bit_cast<float>(hi);
		}
		for (uint32_t b = 0; b < kBins; ++b) {
			const float start = std::bit_cast<float>((kFirstBin + b) << 15);
			uint32_t k = 0;
			while (k < 255 && e.thresholds[k + 1] <= start) ++k;
			e.first[b] = uint8_t(k);
		}
		return e;
	}();
	return encoding;
}

}  // namespace tessera::texture
