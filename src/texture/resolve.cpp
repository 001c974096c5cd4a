// Multisample resolve. The generic path unpacks every sample to float
// through the format table and packs the average back; the common formats
// of render targets take paths that skip the table: 8-bit UNORM and sRGB
// bytes, 16-bit and 32-bit floats. Each gives what the generic path gives,
// except UNORM bytes, which are averaged in integers and rounded to nearest
// exactly (ties up) where the float sum may land either side of a tie (both
// allowed: §3.10.2 lets a conversion return either nearest value).
#include "texture/resolve.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "runtime/thread_pool.h"
#include "texture/float_formats.h"
#include "texture/resolve_simd.h"
#include "texture/texel.h"

namespace tessera::texture {

namespace {

// How each byte of an element resolves, for formats made of 8-bit UNORM or
// sRGB components at byte offsets.
enum class ByteKind : uint8_t { kUnorm, kSrgb };

bool ByteComponents(const FormatInfo& format, ByteKind kinds[4]) {
	if (format.packed || format.IsCompressed() || format.IsMultiPlanar() ||
	    format.component_count != format.block_size || format.block_size > 4)
		return false;
	for (uint32_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		if (comp.bits != 8 || comp.offset % 8 != 0 || comp.offset / 8 >= format.block_size) return false;
		// An sRGB format's alpha is linear (§3.9 "sRGB"): a UNORM byte.
		if (comp.numeric == NumericFormat::UNORM || (comp.numeric == NumericFormat::SRGB && comp.name == 'A'))
			kinds[comp.offset / 8] = ByteKind::kUnorm;
		else if (comp.numeric == NumericFormat::SRGB)
			kinds[comp.offset / 8] = ByteKind::kSrgb;
		else
			return false;
	}
	return true;
}

// sRGB bytes: the linear values UnpackTexel gives (the byte PackTexel gives
// for an averaged linear value: SrgbEncoding, texel.h).
const std::array<float, 256>& SrgbToLinearTable() {
	static const std::array<float, 256> table = [] {
		std::array<float, 256> t{};
		const FormatInfo& r8 = *FindFormat(VK_FORMAT_R8_SRGB);
		for (uint32_t c = 0; c < 256; ++c) {
			const uint8_t byte = uint8_t(c);
			t[c] = UnpackTexel(r8, &byte).f[0];
		}
		return t;
	}();
	return table;
}

}  // namespace

namespace {

// Hot path: a row of UNORM bytes, each the rounded average of its samples;
// with the element size and sample count known the loops vectorize.
// kSize 0: `count` bytes of elements of `size` bytes, sizes known at run time.
template <uint32_t kSize, uint32_t kSamples>
void UnormRow(const uint8_t* in, uint8_t* out, uint32_t count, uint32_t n, uint32_t size = kSize) {
	if constexpr (kSize != 0) {
		for (uint32_t x = 0; x < count; ++x)
			for (uint32_t b = 0; b < kSize; ++b) {
				uint32_t sum = 0;
				for (uint32_t s = 0; s < kSamples; ++s) sum += in[(x * kSamples + s) * kSize + b];
				out[x * kSize + b] = uint8_t((sum + kSamples / 2) / kSamples);
			}
	} else {
		for (uint32_t i = 0; i < count; ++i) {
			const uint8_t* texel = in + uint64_t(i / size) * size * n + i % size;
			uint32_t sum = 0;
			for (uint32_t s = 0; s < n; ++s) sum += texel[s * size];
			out[i] = uint8_t((sum + n / 2) / n);
		}
	}
}

// A row of 4-byte texels with sRGB bytes, 4 samples each (a BGRA8 or RGBA8
// sRGB target at 4x, the antialiased WebGL frame). A texel whose four
// samples are the same word resolves to that word: the generic path's
// average of four equal linear values packs to the byte they came from
// (the unit tests check every byte), and so does the UNORM alpha's. Edge
// texels average byte by byte as below.
void SrgbRow4x4(const ByteKind kinds[4], const std::array<float, 256>& srgb, const SrgbEncoding& encoding,
                const uint8_t* in, uint8_t* out, uint32_t width) {
	for (uint32_t x = 0; x < width; ++x, in += 16, out += 4) {
		uint32_t w[4];
		std::memcpy(w, in, 16);
		if (w[0] == w[1] && w[0] == w[2] && w[0] == w[3]) {
			std::memcpy(out, w, 4);
			continue;
		}
		for (uint32_t b = 0; b < 4; ++b) {
			if (kinds[b] == ByteKind::kUnorm) {
				const uint32_t sum = uint32_t(in[b]) + in[4 + b] + in[8 + b] + in[12 + b];
				out[b] = uint8_t((sum + 2) / 4);
			} else {
				const float sum = ((srgb[in[b]] + srgb[in[4 + b]]) + srgb[in[8 + b]]) + srgb[in[12 + b]];
				out[b] = encoding.Encode(sum * 0.25f);
			}
		}
	}
}

void ResolveBytes(const ByteKind kinds[4], uint32_t size, const ResolveRect& rect) {
	const uint32_t n = rect.samples;
	const uint64_t texel_stride = uint64_t(size) * n;
	const std::array<float, 256>& srgb = SrgbToLinearTable();
	const float scale = 1.0f / float(n);
	bool any_srgb = false;
	for (uint32_t b = 0; b < size; ++b) any_srgb |= kinds[b] == ByteKind::kSrgb;
	// Its tables take a few milliseconds to make, once: only for sRGB.
	const SrgbEncoding* encoding = any_srgb ? &SrgbEncoding::Get() : nullptr;
	for (uint32_t y = 0; y < rect.height; ++y) {
		const uint8_t* in = rect.src + y * rect.src_row_pitch;
		uint8_t* out = rect.dst + y * rect.dst_row_pitch;
		if (!any_srgb) {
			if (size == 4 && n == 4)
				UnormRow<4, 4>(in, out, rect.width, n);
			else if (size == 4 && n == 2)
				UnormRow<4, 2>(in, out, rect.width, n);
			else
				UnormRow<0, 0>(in, out, rect.width * size, n, size);
			continue;
		}
		if (size == 4 && n == 4) {
			SrgbRow4x4(kinds, srgb, *encoding, in, out, rect.width);
			continue;
		}
		for (uint32_t x = 0; x < rect.width; ++x, in += texel_stride, out += size)
			for (uint32_t b = 0; b < size; ++b) {
				if (kinds[b] == ByteKind::kUnorm) {
					uint32_t sum = 0;
					for (uint32_t s = 0; s < n; ++s) sum += in[s * size + b];
					out[b] = uint8_t((sum + n / 2) / n);
				} else {
					float sum = 0;
					for (uint32_t s = 0; s < n; ++s) sum += srgb[in[s * size + b]];
					out[b] = encoding->Encode(sum * scale);
				}
			}
	}
}

// Floats of 32 or 16 bits, every component: the average in float. With
// kComponents and kSamples known (4 and 4: RGBA targets at 4x) the loops
// unroll; 0 reads them from the arguments.
template <bool kHalf, uint32_t kComponents, uint32_t kSamples>
void ResolveFloats(uint32_t components, const ResolveRect& rect) {
	using Stored = std::conditional_t<kHalf, uint16_t, float>;
	const uint32_t n = kSamples ? kSamples : rect.samples;
	const uint32_t count = kComponents ? kComponents : components;
	const float scale = 1.0f / float(n);
	for (uint32_t y = 0; y < rect.height; ++y) {
		const Stored* in = reinterpret_cast<const Stored*>(rect.src + y * rect.src_row_pitch);
		Stored* out = reinterpret_cast<Stored*>(rect.dst + y * rect.dst_row_pitch);
		for (uint32_t x = 0; x < rect.width; ++x, in += size_t(n) * count, out += count)
			for (uint32_t c = 0; c < count; ++c) {
				float sum = 0;
				for (uint32_t s = 0; s < n; ++s) {
					if constexpr (kHalf)
						sum += HalfToFloatFast(in[s * count + c]);
					else
						sum += in[s * count + c];
				}
				if constexpr (kHalf)
					out[c] = FloatToHalfFast(sum * scale);
				else
					out[c] = sum * scale;
			}
	}
}

template <bool kHalf>
void ResolveFloatFormat(uint32_t components, const ResolveRect& rect) {
	if (kHalf && components == 4) {
		for (uint32_t y = 0; y < rect.height; ++y)
			ResolveHalf4Row(reinterpret_cast<const uint16_t*>(rect.src + y * rect.src_row_pitch),
			                reinterpret_cast<uint16_t*>(rect.dst + y * rect.dst_row_pitch), rect.width, rect.samples);
		return;
	}
	if (components == 4 && rect.samples == 4) return ResolveFloats<kHalf, 4, 4>(components, rect);
	ResolveFloats<kHalf, 0, 0>(components, rect);
}

// Whether every component is SFLOAT of `bits`, unpacked, in R, G, B, A order.
bool PlainFloats(const FormatInfo& format, uint32_t bits) {
	if (format.packed || format.IsCompressed() || format.IsMultiPlanar() ||
	    format.block_size != format.component_count * bits / 8)
		return false;
	for (uint32_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		if (comp.bits != bits || comp.numeric != NumericFormat::SFLOAT || comp.offset != c * bits) return false;
	}
	return true;
}

}  // namespace

void ResolveSamples(const FormatInfo& format, const ResolveRect& rect) {
	// Vulkan 1.3 §20.7: integer formats take one sample (sample 0 here).
	bool take_sample_0 = format.IsInteger() || rect.samples == 1;
	uint64_t texel_stride = uint64_t(rect.element_size) * rect.samples;
	if (take_sample_0) {
		for (uint32_t y = 0; y < rect.height; ++y) {
			const uint8_t* in = rect.src + y * rect.src_row_pitch;
			uint8_t* out = rect.dst + y * rect.dst_row_pitch;
			for (uint32_t x = 0; x < rect.width; ++x, in += texel_stride, out += rect.element_size)
				std::memcpy(out, in, rect.element_size);
		}
		return;
	}
	ByteKind kinds[4];
	if (rect.element_size == format.block_size && ByteComponents(format, kinds))
		return ResolveBytes(kinds, format.block_size, rect);
	if (rect.element_size == format.block_size && PlainFloats(format, 32))
		return ResolveFloatFormat<false>(format.component_count, rect);
	if (rect.element_size == format.block_size && PlainFloats(format, 16))
		return ResolveFloatFormat<true>(format.component_count, rect);
	float scale = 1.0f / float(rect.samples);
	for (uint32_t y = 0; y < rect.height; ++y) {
		const uint8_t* in = rect.src + y * rect.src_row_pitch;
		uint8_t* out = rect.dst + y * rect.dst_row_pitch;
		// Per texel: unpack each sample, average, pack.
		for (uint32_t x = 0; x < rect.width; ++x, in += texel_stride, out += rect.element_size) {
			float sum[4] = {0, 0, 0, 0};
			for (uint32_t s = 0; s < rect.samples; ++s) {
				TexelValue v = UnpackTexel(format, in + s * rect.element_size);
				for (int c = 0; c < 4; ++c) sum[c] += v.f[c];
			}
			TexelValue average;
			for (int c = 0; c < 4; ++c) average.f[c] = sum[c] * scale;
			PackTexel(format, average, out);
		}
	}
}

void ResolveSamples(runtime::ThreadPool& pool, const FormatInfo& format, const ResolveRect& rect) {
	constexpr uint64_t kMinParallelTexels = 64 * 1024;
	const uint64_t min_rows = std::max<uint64_t>(1, kMinParallelTexels / std::max(rect.width, 1u));
	runtime::ParallelRanges(pool, rect.height, 1, min_rows, [&](uint64_t begin, uint64_t end) {
		ResolveRect part = rect;
		part.src += begin * rect.src_row_pitch;
		part.dst += begin * rect.dst_row_pitch;
		part.height = uint32_t(end - begin);
		ResolveSamples(format, part);
	});
}

}  // namespace tessera::texture
