#include "texture/blit.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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
	if (filter == BlitFilter::Nearest) {
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
	// becomes -1.0 and packs as the next one up (§3.9.1), and shared-exponent
	// texels are renormalized.
	bool round_trips = src.Numeric() != NumericFormat::SNORM && src.format != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
	if (src.format == dst.format && filter == BlitFilter::Nearest && round_trips) return BlitConversion::Copy;
	return BlitConversion::Float;
}

namespace {

struct Float4 {
	float v[4];
};

// Byte offsets of each tap's texels along one axis.
struct AxisOffsets {
	std::vector<uint64_t> first, second;
};

AxisOffsets OffsetsOf(const std::vector<BlitTap>& taps, uint64_t pitch) {
	AxisOffsets o;
	o.first.reserve(taps.size());
	o.second.reserve(taps.size());
	for (const BlitTap& t : taps) {
		o.first.push_back(t.i0 * pitch);
		o.second.push_back(t.i1 * pitch);
	}
	return o;
}

struct Plan {
	const BlitSurface& src;
	const BlitSurface& dst;
	std::vector<BlitTap> x, y, z;
	uint32_t dst_x, dst_y, dst_z;  // first destination texel of each axis

	uint8_t* DstRow(uint32_t k, uint32_t j) const {
		return dst.data + (dst_z + k) * dst.slice_pitch + (dst_y + j) * dst.row_pitch +
		       uint64_t(dst_x) * dst.element_size;
	}
	const uint8_t* SrcRow(uint32_t slice, uint32_t row) const {
		return src.data + slice * src.slice_pitch + row * src.row_pitch;
	}
};

// Hot path (per texel): NEAREST between identical formats is a gather of
// fixed-size elements.
template <uint32_t kSize>
void CopyNearest(const Plan& p) {
	AxisOffsets columns = OffsetsOf(p.x, kSize);
	for (uint32_t k = 0; k < p.z.size(); ++k) {
		for (uint32_t j = 0; j < p.y.size(); ++j) {
			const uint8_t* src_row = p.SrcRow(p.z[k].i0, p.y[j].i0);
			uint8_t* out = p.DstRow(k, j);
			for (size_t i = 0; i < columns.first.size(); ++i, out += kSize)
				std::memcpy(out, src_row + columns.first[i], kSize);
		}
	}
}

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

void IntegerNearest(const Plan& p) {
	AxisOffsets columns = OffsetsOf(p.x, p.src.element_size);
	IntegerRange range = RangeOf(*p.dst.format);
	bool is_signed = p.src.format->Numeric() == NumericFormat::SINT;
	for (uint32_t k = 0; k < p.z.size(); ++k) {
		for (uint32_t j = 0; j < p.y.size(); ++j) {
			const uint8_t* src_row = p.SrcRow(p.z[k].i0, p.y[j].i0);
			uint8_t* out = p.DstRow(k, j);
			for (size_t i = 0; i < columns.first.size(); ++i, out += p.dst.element_size) {
				TexelValue v = UnpackTexel(*p.src.format, src_row + columns.first[i]);
				for (int c = 0; c < 4; ++c) {
					int64_t wide = is_signed ? int64_t(v.i[c]) : int64_t(v.u[c]);
					wide = std::clamp(wide, range.min[c], range.max[c]);
					v.i[c] = int32_t(uint32_t(uint64_t(wide)));
				}
				PackTexel(*p.dst.format, v, out);
			}
		}
	}
}

void FloatNearest(const Plan& p) {
	AxisOffsets columns = OffsetsOf(p.x, p.src.element_size);
	for (uint32_t k = 0; k < p.z.size(); ++k) {
		for (uint32_t j = 0; j < p.y.size(); ++j) {
			const uint8_t* src_row = p.SrcRow(p.z[k].i0, p.y[j].i0);
			uint8_t* out = p.DstRow(k, j);
			for (size_t i = 0; i < columns.first.size(); ++i, out += p.dst.element_size)
				PackTexel(*p.dst.format, UnpackTexel(*p.src.format, src_row + columns.first[i]), out);
		}
	}
}

// LINEAR: the (up to four) source rows a destination row needs are blended
// first, over the span of source columns the region reads; each destination
// texel then blends two entries of that row. Consecutive destination rows
// with the same taps reuse the blended row.
void FloatLinear(const Plan& p) {
	uint32_t first_column = UINT32_MAX, last_column = 0;
	for (const BlitTap& t : p.x) {
		first_column = std::min(first_column, std::min(t.i0, t.i1));
		last_column = std::max(last_column, std::max(t.i0, t.i1));
	}
	if (p.x.empty()) return;
	uint32_t span = last_column - first_column + 1;
	std::vector<Float4> blended(span);
	std::vector<uint32_t> left, right;
	std::vector<float> weight;
	for (const BlitTap& t : p.x) {
		left.push_back(t.i0 - first_column);
		right.push_back(t.i1 - first_column);
		weight.push_back(t.weight);
	}
	const BlitTap* cached_y = nullptr;
	const BlitTap* cached_z = nullptr;
	for (uint32_t k = 0; k < p.z.size(); ++k) {
		const BlitTap& tz = p.z[k];
		for (uint32_t j = 0; j < p.y.size(); ++j) {
			const BlitTap& ty = p.y[j];
			bool same = cached_y && cached_y->i0 == ty.i0 && cached_y->i1 == ty.i1 && cached_y->weight == ty.weight &&
			            cached_z->i0 == tz.i0 && cached_z->i1 == tz.i1 && cached_z->weight == tz.weight;
			if (!same) {
				struct {
					const uint8_t* row;
					float w;
				} rows[4] = {{p.SrcRow(tz.i0, ty.i0), (1 - tz.weight) * (1 - ty.weight)},
				             {p.SrcRow(tz.i0, ty.i1), (1 - tz.weight) * ty.weight},
				             {p.SrcRow(tz.i1, ty.i0), tz.weight * (1 - ty.weight)},
				             {p.SrcRow(tz.i1, ty.i1), tz.weight * ty.weight}};
				std::fill(blended.begin(), blended.end(), Float4{});
				for (const auto& r : rows) {
					if (r.w == 0.0f) continue;
					const uint8_t* texel = r.row + uint64_t(first_column) * p.src.element_size;
					for (uint32_t c = 0; c < span; ++c, texel += p.src.element_size) {
						TexelValue v = UnpackTexel(*p.src.format, texel);
						for (int n = 0; n < 4; ++n) blended[c].v[n] += r.w * v.f[n];
					}
				}
				cached_y = &ty;
				cached_z = &tz;
			}
			uint8_t* out = p.DstRow(k, j);
			for (size_t i = 0; i < left.size(); ++i, out += p.dst.element_size) {
				const Float4& a = blended[left[i]];
				const Float4& b = blended[right[i]];
				float w = weight[i];
				TexelValue v;
				for (int n = 0; n < 4; ++n) v.f[n] = a.v[n] + (b.v[n] - a.v[n]) * w;
				PackTexel(*p.dst.format, v, out);
			}
		}
	}
}

}  // namespace

void BlitSurfaceRegion(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
                       BlitConversion conversion) {
	const auto& so = region.src_offsets;
	const auto& d = region.dst_offsets;
	Plan p{src, dst, {}, {}, {}, 0, 0, 0};
	p.x = ComputeBlitTaps({so[0][0], so[1][0], d[0][0], d[1][0], src.width}, filter);
	p.y = ComputeBlitTaps({so[0][1], so[1][1], d[0][1], d[1][1], src.height}, filter);
	p.z = ComputeBlitTaps({so[0][2], so[1][2], d[0][2], d[1][2], src.depth}, filter);
	p.dst_x = uint32_t(std::min(d[0][0], d[1][0]));
	p.dst_y = uint32_t(std::min(d[0][1], d[1][1]));
	p.dst_z = uint32_t(std::min(d[0][2], d[1][2]));
	switch (conversion) {
	case BlitConversion::Copy:
		switch (src.element_size) {
		case 1: CopyNearest<1>(p); break;
		case 2: CopyNearest<2>(p); break;
		case 3: CopyNearest<3>(p); break;
		case 4: CopyNearest<4>(p); break;
		case 6: CopyNearest<6>(p); break;
		case 8: CopyNearest<8>(p); break;
		case 12: CopyNearest<12>(p); break;
		case 16: CopyNearest<16>(p); break;
		default: break;
		}
		break;
	case BlitConversion::Integer: IntegerNearest(p); break;
	case BlitConversion::Float:
		if (filter == BlitFilter::Linear)
			FloatLinear(p);
		else
			FloatNearest(p);
		break;
	case BlitConversion::Invalid: break;
	}
}

}  // namespace tessera::texture
