#include "texture/blit.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "texture/float_formats.h"
#include "texture/image_layout.h"
#include "texture/sampling_math.h"
#include "texture/texel.h"

namespace tessera::texture {

double BlitSourceCoordinate(const BlitAxis& axis, int32_t dst) {
	// Vulkan 1.3 §20.6: u_base = (dst + 0.5) - dstOffsets[0], scale_u =
	// (srcOffsets[1] - srcOffsets[0]) / (dstOffsets[1] - dstOffsets[0]),
	// u = srcOffsets[0] + u_base * scale_u. Reversed offsets flip the axis.
	double scale = double(axis.src1 - axis.src0) / double(axis.dst1 - axis.dst0);
	return double(axis.src0) + (double(dst) + 0.5 - double(axis.dst0)) * scale;
}

BlitTap BlitTapAt(double u, uint32_t src_size, BlitFilter filter) {
	auto clamp = [src_size](double i) {
		// CLAMP_TO_EDGE on the whole source level, not the region.
		return uint32_t(std::clamp(i, 0.0, double(src_size) - 1.0));
	};
	if (filter != BlitFilter::Linear) {
		uint32_t i = clamp(std::floor(u));
		return {i, i, 0.0f};
	}
	double shifted = u - 0.5;
	double i0 = std::floor(shifted);
	return {clamp(i0), clamp(i0 + 1.0), float(shifted - i0)};
}

std::vector<BlitTap> ComputeBlitTaps(const BlitAxis& axis, BlitFilter filter) {
	int32_t first = std::min(axis.dst0, axis.dst1), last = std::max(axis.dst0, axis.dst1);
	std::vector<BlitTap> taps;
	taps.reserve(size_t(last - first));
	for (int32_t d = first; d < last; ++d)
		taps.push_back(BlitTapAt(BlitSourceCoordinate(axis, d), axis.src_size, filter));
	return taps;
}

std::vector<CubicBlitTap> CubicBlitTaps(const BlitAxis& axis) {
	int32_t first = std::min(axis.dst0, axis.dst1), last = std::max(axis.dst0, axis.dst1);
	std::vector<CubicBlitTap> taps;
	taps.reserve(size_t(last - first));
	for (int32_t d = first; d < last; ++d) {
		const double shifted = BlitSourceCoordinate(axis, d) - 0.5, i0 = std::floor(shifted) - 1.0;
		CubicBlitTap t;
		CatmullRomWeights(float(shifted - std::floor(shifted)), t.weights);
		for (int k = 0; k < 4; ++k) t.i[k] = uint32_t(std::clamp(i0 + k, 0.0, double(axis.src_size) - 1.0));
		taps.push_back(t);
	}
	return taps;
}

BlitConversion ChooseBlitConversion(const FormatInfo& src, const FormatInfo& dst, BlitFilter filter) {
	if (src.IsDepthOrStencil() || dst.IsDepthOrStencil())
		return src.format == dst.format && filter == BlitFilter::Nearest ? BlitConversion::Copy
		                                                                 : BlitConversion::Invalid;
	if (!CanConvertTexels(src) || !CanConvertTexels(dst)) return BlitConversion::Invalid;
	if (src.IsInteger() || dst.IsInteger()) {
		if (src.Numeric() != dst.Numeric() || filter != BlitFilter::Nearest) return BlitConversion::Invalid;
		return src.format == dst.format ? BlitConversion::Copy : BlitConversion::Integer;
	}
	// Same format with NEAREST moves bytes unchanged, except where unpacking
	// and packing again is not the identity: SNORM's most negative value
	// becomes -1.0 and packs as the next one up (Vulkan 1.3 "Fixed-Point
	// Data Conversions"), and shared-exponent texels are renormalized.
	bool round_trips = src.Numeric() != NumericFormat::SNORM && src.format != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
	if (src.format == dst.format && filter == BlitFilter::Nearest && round_trips) return BlitConversion::Copy;
	return BlitConversion::Float;
}

namespace {

// Clamps unpacked integers to what each destination component can hold.
struct IntegerRange {
	int64_t min[4], max[4];
};

IntegerRange RangeOf(const FormatInfo& format) {
	IntegerRange r;
	bool is_signed = format.Numeric() == NumericFormat::SINT;
	for (int c = 0; c < 4; ++c) {
		r.min[c] = is_signed ? INT32_MIN : 0;
		r.max[c] = is_signed ? INT32_MAX : UINT32_MAX;
	}
	static constexpr char kNames[4] = {'R', 'G', 'B', 'A'};
	for (int c = 0; c < 4; ++c) {
		const FormatComponent* comp = format.Find(kNames[c]);
		if (!comp || comp->bits >= 32) continue;
		r.min[c] = is_signed ? -(int64_t(1) << (comp->bits - 1)) : 0;
		r.max[c] = is_signed ? (int64_t(1) << (comp->bits - 1)) - 1 : (int64_t(1) << comp->bits) - 1;
	}
	return r;
}

// Byte offset of column i from the start of its row (SrcRow/DstRow): tiled
// surfaces keep 2^s texels of a row together, then skip to the next tile.
inline uint64_t ColumnOffset(const BlitSurface& s, uint32_t i) {
	return TiledOffset(0, s.element_size, s.tile_shift, i, 0);
}

// Address of column 0 of row y of slice z.
inline uint8_t* RowStart(const BlitSurface& s, uint32_t z, uint32_t y) {
	return s.data + z * s.slice_pitch + TiledOffset(s.row_pitch, s.element_size, s.tile_shift, 0, y);
}

// Regions smaller than this use the generic texel functions: building the
// 8-bit tables costs about as much as converting this many texels.
constexpr uint64_t kMinTexelsForTables = 4096;

int SlotOf(char name) {
	switch (name) {
	case 'R': return 0;
	case 'G': return 1;
	case 'B': return 2;
	case 'A': return 3;
	default: return -1;
	}
}

// A codec for the formats FastTexelCodec covers; null for the others.
std::unique_ptr<FastTexelCodec> MakeFastCodec(const FormatInfo& format, bool unpack) {
	if (!CanConvertTexels(format) || format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) return nullptr;
	auto codec = std::make_unique<FastTexelCodec>();
	codec->count = format.component_count;
	for (uint8_t c = 0; c < format.component_count; ++c) {
		const FormatComponent& comp = format.components[c];
		int slot = SlotOf(comp.name);
		bool covered = false;
		if (comp.bits == 8)
			covered = comp.numeric == NumericFormat::UNORM || comp.numeric == NumericFormat::SNORM ||
			          comp.numeric == NumericFormat::SRGB;
		else if (comp.bits == 16)
			covered = comp.numeric == NumericFormat::UNORM || comp.numeric == NumericFormat::SNORM ||
			          comp.numeric == NumericFormat::SFLOAT;
		if (!covered || comp.offset % comp.bits != 0 || slot < 0) return nullptr;
		codec->components[c] = {uint8_t(comp.offset / 8), comp.bits, uint8_t(slot), comp.numeric};
		codec->all_bytes = codec->all_bytes && comp.bits == 8;
	}
	if (unpack) {
		// The tables hold exactly what UnpackTexel returns for each byte.
		uint8_t texel[16];
		for (uint32_t value = 0; value < 256; ++value) {
			std::memset(texel, int(value), sizeof texel);
			TexelValue v = UnpackTexel(format, texel);
			for (uint8_t c = 0; c < codec->count; ++c)
				if (codec->components[c].bits == 8) codec->table[c][value] = v.f[codec->components[c].slot];
		}
	}
	return codec;
}

// Hot path (per texel). Vulkan 1.3 "Fixed-Point Data Conversions" for the
// 16-bit normalized fields.
inline void UnpackFast(const FastTexelCodec& codec, const uint8_t* in, float out[4]) {
	for (int n = 0; n < 4; ++n) out[n] = codec.defaults[n];
	if (codec.all_bytes) {
		for (uint8_t c = 0; c < codec.count; ++c)
			out[codec.components[c].slot] = codec.table[c][in[codec.components[c].byte]];
		return;
	}
	for (uint8_t c = 0; c < codec.count; ++c) {
		const FastTexelCodec::Component& comp = codec.components[c];
		if (comp.bits == 8) {
			out[comp.slot] = codec.table[c][in[comp.byte]];
			continue;
		}
		uint16_t v;
		std::memcpy(&v, in + comp.byte, 2);
		switch (comp.numeric) {
		case NumericFormat::UNORM: out[comp.slot] = float(double(v) / 65535.0); break;
		case NumericFormat::SNORM: out[comp.slot] = std::max(-1.0f, float(double(int16_t(v)) / 32767.0)); break;
		default: out[comp.slot] = HalfToFloat(v); break;
		}
	}
}

// Rounds as PackTexel does (Vulkan 1.3 "Fixed-Point Data Conversions":
// clamp, then round to nearest, ties away from zero). f * max is exact in
// double, so adding 0.5 and truncating rounds a positive value half away from
// zero.
inline uint32_t PackUnorm(float f, double max) {
	return !(f > 0.0f) ? 0u : f >= 1.0f ? uint32_t(max) : uint32_t(double(f) * max + 0.5);
}
inline int32_t PackSnorm(float f, double max) {
	return std::isnan(f) ? 0
	       : f >= 1.0f   ? int32_t(max)
	       : f <= -1.0f  ? -int32_t(max)
	                     : int32_t(std::round(double(f) * max));
}

// PackUnorm(f, 255.0)'s byte in 32-bit integer operations that vectorize
// (RoundUnorm8; NaN and negatives give 0).
[[gnu::always_inline]] inline uint8_t PackUnorm8(float f) {
	return uint8_t(RoundUnorm8(f > 0.0f ? std::min(f, 1.0f) : 0.0f));
}

// Hot path (per texel).
inline void PackFast(const FastTexelCodec& codec, const SrgbEncoding* srgb, const float in[4], uint8_t* out) {
	for (uint8_t c = 0; c < codec.count; ++c) {
		const FastTexelCodec::Component& comp = codec.components[c];
		float f = in[comp.slot];
		if (comp.bits == 8) {
			uint8_t raw;
			switch (comp.numeric) {
			case NumericFormat::SNORM: raw = uint8_t(int8_t(PackSnorm(f, 127.0))); break;
			case NumericFormat::SRGB: raw = comp.slot == 3 ? PackUnorm8(f) : srgb->Encode(f); break;
			default: raw = PackUnorm8(f); break;
			}
			out[comp.byte] = raw;
			continue;
		}
		uint16_t raw;
		switch (comp.numeric) {
		case NumericFormat::UNORM: raw = uint16_t(PackUnorm(f, 65535.0)); break;
		case NumericFormat::SNORM: raw = uint16_t(int16_t(PackSnorm(f, 32767.0))); break;
		default: raw = FloatToHalf(f); break;
		}
		std::memcpy(out + comp.byte, &raw, 2);
	}
}

// Both codecs four 8-bit UNORM or sRGB fields alike (bytes, channels,
// encodings), and the UNORM tables byte / 255 (what RawUnorm8Unpack
// computes): kUnorm or kSrgb (some sRGB); else kNone.
BlitPlan::RawBytes SameBytes8x4(const FastTexelCodec& unpack, const FastTexelCodec& pack) {
	using RawBytes = BlitPlan::RawBytes;
	if (!unpack.all_bytes || !pack.all_bytes || unpack.count != 4 || pack.count != 4) return RawBytes::kNone;
	bool srgb = false;
	for (int c = 0; c < 4; ++c) {
		const FastTexelCodec::Component &u = unpack.components[c], &p = pack.components[c];
		if (u.numeric != p.numeric || u.byte != p.byte || u.slot != p.slot) return RawBytes::kNone;
		if (u.numeric == NumericFormat::SRGB) {
			srgb = true;
			continue;
		}
		if (u.numeric != NumericFormat::UNORM) return RawBytes::kNone;
		for (uint32_t v = 0; v < 256; ++v)
			if (unpack.table[c][v] != float(v) / 255.0f) return RawBytes::kNone;
	}
	return srgb ? RawBytes::kSrgb : RawBytes::kUnorm;
}

// Hot path (per byte): PackFast's and the tables' results for 8-bit UNORM
// fields.
__attribute__((target_clones("avx512f", "avx2", "default"))) void RawUnorm8Unpack(const uint8_t* __restrict in,
                                                                                  size_t count, float* __restrict out) {
	for (size_t i = 0; i < count; ++i) out[i] = float(in[i]) / 255.0f;
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void RawUnorm8Pack(const float* __restrict in,
                                                                                size_t count, uint8_t* __restrict out) {
	for (size_t i = 0; i < count; ++i) out[i] = PackUnorm8(in[i]);
}

// Hot path (per float): out[i] = 0 + w[0] * rows[0][i] + w[1] * rows[1][i]
// + ..., added in that order (the bits of a running sum from 0).
template <int kRows>
[[gnu::always_inline]] inline void WeightedSum(const float* const* rows, const float* w, size_t count,
                                               float* __restrict out) {
	for (size_t i = 0; i < count; ++i) {
		float sum = 0.0f;
		for (int k = 0; k < kRows; ++k) sum += w[k] * rows[k][i];
		out[i] = sum;
	}
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void WeightedRowSum(const float* const* rows,
                                                                                 const float* weights, int count_rows,
                                                                                 size_t count, float* out) {
	switch (count_rows) {
	case 1: return WeightedSum<1>(rows, weights, count, out);
	case 2: return WeightedSum<2>(rows, weights, count, out);
	case 3: return WeightedSum<3>(rows, weights, count, out);
	default: return WeightedSum<4>(rows, weights, count, out);
	}
}

}  // namespace

BlitPlan::BlitPlan(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
                   BlitConversion conversion)
    : src_(src), dst_(dst), filter_(filter), conversion_(conversion) {
	const auto& so = region.src_offsets;
	const auto& d = region.dst_offsets;
	x_ = ComputeBlitTaps({so[0][0], so[1][0], d[0][0], d[1][0], src.width}, filter);
	y_ = ComputeBlitTaps({so[0][1], so[1][1], d[0][1], d[1][1], src.height}, filter);
	z_ = ComputeBlitTaps({so[0][2], so[1][2], d[0][2], d[1][2], src.depth}, filter);
	dst_x_ = uint32_t(std::min(d[0][0], d[1][0]));
	dst_y_ = uint32_t(std::min(d[0][1], d[1][1]));
	dst_z_ = uint32_t(std::min(d[0][2], d[1][2]));
	if (conversion == BlitConversion::Float && x_.size() * y_.size() * z_.size() >= kMinTexelsForTables) {
		unpack_ = MakeFastCodec(*src.format, true);
		pack_ = MakeFastCodec(*dst.format, false);
		if (unpack_ && pack_ && src.element_size == 4 && dst.element_size == 4)
			raw_bytes_ = SameBytes8x4(*unpack_, *pack_);
		if (raw_bytes_ == RawBytes::kSrgb) {
			for (int c = 0; c < 4; ++c) {
				const FastTexelCodec::Component& component = unpack_->components[c];
				byte_tables_[component.byte] = unpack_->table[c];
				// PackFast's rule: an sRGB format's alpha is UNORM.
				srgb_byte_[component.byte] = component.numeric == NumericFormat::SRGB && component.slot != 3;
			}
		}
	}
	if (dst.tile_shift) {
		dst_columns_.reserve(x_.size());
		for (uint32_t i = 0; i < x_.size(); ++i) dst_columns_.push_back(ColumnOffset(dst, dst_x_ + i));
	}
	if (filter == BlitFilter::Nearest) {
		column_offsets_.reserve(x_.size());
		for (const BlitTap& t : x_) column_offsets_.push_back(ColumnOffset(src, t.i0));
		return;
	}
	if (x_.empty()) return;
	if (filter == BlitFilter::Cubic) {
		cubic_x_ = CubicBlitTaps({so[0][0], so[1][0], d[0][0], d[1][0], src.width});
		cubic_y_ = CubicBlitTaps({so[0][1], so[1][1], d[0][1], d[1][1], src.height});
		uint32_t last_column = 0;
		first_column_ = UINT32_MAX;
		for (const CubicBlitTap& t : cubic_x_) {
			first_column_ = std::min(first_column_, t.i[0]);
			last_column = std::max(last_column, t.i[3]);
		}
		span_ = last_column - first_column_ + 1;
		return;
	}
	uint32_t last_column = 0;
	first_column_ = UINT32_MAX;
	for (const BlitTap& t : x_) {
		first_column_ = std::min(first_column_, t.i0);
		last_column = std::max(last_column, t.i1);
	}
	span_ = last_column - first_column_ + 1;
	for (const BlitTap& t : x_) {
		left_.push_back(t.i0 - first_column_);
		right_.push_back(t.i1 - first_column_);
	}
}

// Hot path (per row): the codec check is hoisted out of the texel loops.
void BlitPlan::UnpackRow(const uint8_t* in, uint32_t count, float* out) const {
	uint32_t stride = src_.element_size;
	if (!unpack_) {
		for (uint32_t i = 0; i < count; ++i, in += stride, out += 4) {
			TexelValue v = UnpackTexel(*src_.format, in);
			std::memcpy(out, v.f, sizeof v.f);
		}
		return;
	}
	if (raw_bytes_ == RawBytes::kUnorm) return RawUnorm8Unpack(in, size_t(count) * 4, out);
	if (raw_bytes_ == RawBytes::kSrgb) {
		for (uint32_t i = 0; i < count; ++i, in += 4, out += 4)
			for (int b = 0; b < 4; ++b) out[b] = byte_tables_[b][in[b]];
		return;
	}
	const FastTexelCodec& codec = *unpack_;
	if (codec.all_bytes && codec.count == 4) {
		// RGBA8, BGRA8 and their sRGB and SNORM forms: four table reads.
		const FastTexelCodec::Component* c = codec.components;
		for (uint32_t i = 0; i < count; ++i, in += stride, out += 4) {
			out[c[0].slot] = codec.table[0][in[c[0].byte]];
			out[c[1].slot] = codec.table[1][in[c[1].byte]];
			out[c[2].slot] = codec.table[2][in[c[2].byte]];
			out[c[3].slot] = codec.table[3][in[c[3].byte]];
		}
		return;
	}
	for (uint32_t i = 0; i < count; ++i, in += stride, out += 4) UnpackFast(codec, in, out);
}

void BlitPlan::PackRow(const float* in, uint32_t count, uint8_t* out) const {
	uint32_t stride = dst_.element_size;
	if (!pack_) {
		for (uint32_t i = 0; i < count; ++i, in += 4, out += stride) {
			TexelValue v;
			std::memcpy(v.f, in, sizeof v.f);
			PackTexel(*dst_.format, v, out);
		}
		return;
	}
	if (raw_bytes_ == RawBytes::kUnorm) return RawUnorm8Pack(in, size_t(count) * 4, out);
	if (raw_bytes_ == RawBytes::kSrgb) {
		const SrgbEncoding& srgb = SrgbEncoding::Get();
		for (uint32_t i = 0; i < count; ++i, in += 4, out += 4)
			for (int b = 0; b < 4; ++b) out[b] = srgb_byte_[b] ? srgb.Encode(in[b]) : PackUnorm8(in[b]);
		return;
	}
	const FastTexelCodec& codec = *pack_;
	// The encoder's tables take a few milliseconds to make, once: only for
	// sRGB formats.
	bool any_srgb = false;
	for (uint8_t c = 0; c < codec.count; ++c) any_srgb |= codec.components[c].numeric == NumericFormat::SRGB;
	const SrgbEncoding* srgb = any_srgb ? &SrgbEncoding::Get() : nullptr;
	for (uint32_t i = 0; i < count; ++i, in += 4, out += stride) PackFast(codec, srgb, in, out);
}

uint8_t* BlitPlan::DstRow(uint32_t row) const {
	uint32_t k = row / uint32_t(y_.size()), j = row % uint32_t(y_.size());
	uint8_t* start = RowStart(dst_, dst_z_ + k, dst_y_ + j);
	return dst_.tile_shift ? start : start + uint64_t(dst_x_) * dst_.element_size;
}

const uint8_t* BlitPlan::SrcRow(uint32_t slice, uint32_t row) const { return RowStart(src_, slice, row); }

namespace {

// Copies count texels of a tiled row from column first on into contiguous
// memory (kGather) or back, in runs that stay within one tile.
template <bool kGather>
void MoveTiledSpan(const BlitSurface& s, uint8_t* row, uint32_t first, uint32_t count, uint8_t* packed) {
	const uint32_t side = 1u << s.tile_shift, e = s.element_size;
	for (uint32_t i = 0; i < count;) {
		const uint32_t c = first + i, n = std::min(count - i, side - (c & (side - 1)));
		uint8_t* tiled = row + ColumnOffset(s, c);
		if (kGather)
			std::memcpy(packed + uint64_t(i) * e, tiled, uint64_t(n) * e);
		else
			std::memcpy(tiled, packed + uint64_t(i) * e, uint64_t(n) * e);
		i += n;
	}
}

}  // namespace

void BlitPlan::UnpackSpan(const uint8_t* src_row, uint32_t first, uint32_t count, float* out,
                          std::vector<uint8_t>& scratch) const {
	if (!src_.tile_shift) return UnpackRow(src_row + uint64_t(first) * src_.element_size, count, out);
	scratch.resize(size_t(count) * src_.element_size);
	MoveTiledSpan<true>(src_, const_cast<uint8_t*>(src_row), first, count, scratch.data());
	UnpackRow(scratch.data(), count, out);
}

void BlitPlan::PackDstRow(uint32_t row, const float* in, std::vector<uint8_t>& scratch) const {
	const uint32_t count = uint32_t(x_.size());
	uint8_t* out = DstRow(row);
	if (!dst_.tile_shift) return PackRow(in, count, out);
	scratch.resize(size_t(count) * dst_.element_size);
	PackRow(in, count, scratch.data());
	MoveTiledSpan<false>(dst_, out, dst_x_, count, scratch.data());
}

// Hot path (per texel): NEAREST between identical formats is a gather of
// fixed-size elements.
template <uint32_t kSize>
void BlitPlan::CopyNearest(uint32_t begin, uint32_t end) const {
	for (uint32_t row = begin; row < end; ++row) {
		const uint8_t* src_row = SrcRow(z_[row / y_.size()].i0, y_[row % y_.size()].i0);
		uint8_t* out = DstRow(row);
		if (!dst_columns_.empty()) {
			for (size_t i = 0; i < column_offsets_.size(); ++i)
				std::memcpy(out + dst_columns_[i], src_row + column_offsets_[i], kSize);
			continue;
		}
		for (uint64_t offset : column_offsets_) {
			std::memcpy(out, src_row + offset, kSize);
			out += kSize;
		}
	}
}

void BlitPlan::IntegerNearest(uint32_t begin, uint32_t end) const {
	IntegerRange range = RangeOf(*dst_.format);
	bool is_signed = src_.format->Numeric() == NumericFormat::SINT;
	for (uint32_t row = begin; row < end; ++row) {
		const uint8_t* src_row = SrcRow(z_[row / y_.size()].i0, y_[row % y_.size()].i0);
		uint8_t* out = DstRow(row);
		for (size_t i = 0; i < column_offsets_.size(); ++i) {
			TexelValue v = UnpackTexel(*src_.format, src_row + column_offsets_[i]);
			for (int c = 0; c < 4; ++c) {
				int64_t wide = is_signed ? int64_t(v.i[c]) : int64_t(v.u[c]);
				wide = std::clamp(wide, range.min[c], range.max[c]);
				v.i[c] = int32_t(uint32_t(uint64_t(wide)));
			}
			PackTexel(*dst_.format, v, out + DstColumn(uint32_t(i)));
		}
	}
}

void BlitPlan::FloatNearest(uint32_t begin, uint32_t end) const {
	std::vector<float> values(column_offsets_.size() * 4);
	std::vector<uint8_t> scratch;  // a tiled destination row, packed
	for (uint32_t row = begin; row < end; ++row) {
		const uint8_t* src_row = SrcRow(z_[row / y_.size()].i0, y_[row % y_.size()].i0);
		for (size_t i = 0; i < column_offsets_.size(); ++i) UnpackRow(src_row + column_offsets_[i], 1, &values[i * 4]);
		PackDstRow(row, values.data(), scratch);
	}
}

// LINEAR: each source row a destination row needs is unpacked once into
// floats over the span of source columns the region reads, and kept while
// later destination rows still use it (a 4-row cache: two rows by two
// slices). The (up to four) rows are blended with their weights, then each
// destination texel blends two entries of that row. Consecutive destination
// rows with the same taps reuse the blended row.
void BlitPlan::FloatLinear(uint32_t begin, uint32_t end) const {
	if (span_ == 0) return;
	struct CachedRow {
		uint32_t slice = UINT32_MAX, row = UINT32_MAX;
		std::vector<float> texels;  // four floats a texel
	};
	CachedRow cache[4];
	for (CachedRow& c : cache) c.texels.resize(size_t(span_) * 4);
	std::vector<float> blended(size_t(span_) * 4), values(x_.size() * 4);
	std::vector<uint8_t> scratch;  // a tiled row, packed
	const BlitTap* cached_y = nullptr;
	const BlitTap* cached_z = nullptr;
	auto same = [](const BlitTap* a, const BlitTap& b) {
		return a && a->i0 == b.i0 && a->i1 == b.i1 && a->weight == b.weight;
	};
	for (uint32_t row = begin; row < end; ++row) {
		const BlitTap& tz = z_[row / y_.size()];
		const BlitTap& ty = y_[row % y_.size()];
		if (!same(cached_y, ty) || !same(cached_z, tz)) {
			struct Need {
				uint32_t slice, row;
				float w;
				const float* texels;
			} needs[4] = {{tz.i0, ty.i0, (1 - tz.weight) * (1 - ty.weight), nullptr},
			              {tz.i0, ty.i1, (1 - tz.weight) * ty.weight, nullptr},
			              {tz.i1, ty.i0, tz.weight * (1 - ty.weight), nullptr},
			              {tz.i1, ty.i1, tz.weight * ty.weight, nullptr}};
			bool keep[4] = {false, false, false, false};
			for (Need& n : needs)
				for (int c = 0; c < 4; ++c)
					if (n.w != 0.0f && cache[c].slice == n.slice && cache[c].row == n.row) {
						n.texels = cache[c].texels.data();
						keep[c] = true;
					}
			for (Need& n : needs) {
				if (n.w == 0.0f || n.texels) continue;
				int slot = 0;
				while (keep[slot]) ++slot;
				keep[slot] = true;
				CachedRow& c = cache[slot];
				c.slice = n.slice;
				c.row = n.row;
				UnpackSpan(SrcRow(n.slice, n.row), first_column_, span_, c.texels.data(), scratch);
				n.texels = c.texels.data();
				// Another need may name the same row.
				for (Need& other : needs)
					if (other.w != 0.0f && !other.texels && other.slice == n.slice && other.row == n.row)
						other.texels = n.texels;
			}
			const float* rows[4];
			float weights[4];
			int count_rows = 0;
			for (const Need& n : needs) {
				if (n.w == 0.0f) continue;
				rows[count_rows] = n.texels;
				weights[count_rows++] = n.w;
			}
			if (count_rows == 0)
				std::fill(blended.begin(), blended.end(), 0.0f);
			else
				WeightedRowSum(rows, weights, count_rows, blended.size(), blended.data());
			cached_y = &ty;
			cached_z = &tz;
		}
		for (size_t i = 0; i < left_.size(); ++i) {
			const float* a = &blended[size_t(left_[i]) * 4];
			const float* b = &blended[size_t(right_[i]) * 4];
			float w = x_[i].weight;
			for (int k = 0; k < 4; ++k) values[i * 4 + k] = a[k] + (b[k] - a[k]) * w;
		}
		PackDstRow(row, values.data(), scratch);
	}
}

// Each destination texel: the 4 x 4 source texels of its slice (z as
// NEAREST: cubic blits are of 2D images), each weighted by the product of
// its column's and row's weights, summed row by row.
void BlitPlan::FloatCubic(uint32_t begin, uint32_t end) const {
	if (span_ == 0) return;
	std::vector<float> rows[4], values(cubic_x_.size() * 4);
	for (auto& r : rows) r.resize(size_t(span_) * 4);
	std::vector<uint8_t> scratch;  // a tiled row, packed
	for (uint32_t row = begin; row < end; ++row) {
		const BlitTap& tz = z_[row / y_.size()];
		const CubicBlitTap& ty = cubic_y_[row % y_.size()];
		for (int k = 0; k < 4; ++k) UnpackSpan(SrcRow(tz.i0, ty.i[k]), first_column_, span_, rows[k].data(), scratch);
		for (size_t x = 0; x < cubic_x_.size(); ++x) {
			const CubicBlitTap& tx = cubic_x_[x];
			float sum[4] = {0, 0, 0, 0};
			for (int k = 0; k < 4; ++k)
				for (int i = 0; i < 4; ++i) {
					const float w = tx.weights[i] * ty.weights[k];
					const float* texel = rows[k].data() + size_t(tx.i[i] - first_column_) * 4;
					for (int c = 0; c < 4; ++c) sum[c] += w * texel[c];
				}
			std::memcpy(&values[x * 4], sum, sizeof sum);
		}
		PackDstRow(row, values.data(), scratch);
	}
}

void BlitPlan::Run(uint32_t begin, uint32_t end) const {
	switch (conversion_) {
	case BlitConversion::Copy:
		switch (src_.element_size) {
		case 1: CopyNearest<1>(begin, end); break;
		case 2: CopyNearest<2>(begin, end); break;
		case 3: CopyNearest<3>(begin, end); break;
		case 4: CopyNearest<4>(begin, end); break;
		case 6: CopyNearest<6>(begin, end); break;
		case 8: CopyNearest<8>(begin, end); break;
		case 12: CopyNearest<12>(begin, end); break;
		case 16: CopyNearest<16>(begin, end); break;
		default: break;
		}
		break;
	case BlitConversion::Integer: IntegerNearest(begin, end); break;
	case BlitConversion::Float:
		if (filter_ == BlitFilter::Linear)
			FloatLinear(begin, end);
		else if (filter_ == BlitFilter::Cubic)
			FloatCubic(begin, end);
		else
			FloatNearest(begin, end);
		break;
	case BlitConversion::Invalid: break;
	}
}

void BlitSurfaceRegion(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
                       BlitConversion conversion) {
	BlitPlan plan(src, dst, region, filter, conversion);
	plan.Run(0, plan.RowCount());
}

}  // namespace tessera::texture
