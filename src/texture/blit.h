// Scaled, filtered and format-converting copies between images
// (Vulkan 1.3 §20.6 "Image Blits"), on plain descriptions of the images.
//
// A blit maps each destination texel center back into the source with the
// spec's scaling rule, then samples the source as a sampler with
// unnormalized coordinates and CLAMP_TO_EDGE would: NEAREST takes one texel,
// LINEAR blends two per axis. Source coordinates and weights are computed
// once per column, row and slice of a region (BlitTaps); the conversion
// (byte copy, float or integer) is chosen once per command (BlitConversion).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "texture/format.h"
#include "texture/texel.h"

namespace tessera::texture {

enum class BlitFilter : uint8_t { Nearest, Linear, Cubic };  // Cubic: VK_EXT_filter_cubic, 2D sources

// One axis of a region: destination texel d (dst0 <= d < dst1 or the
// reverse when flipped) samples the source near src0 + (d + 0.5 - dst0) *
// (src1 - src0) / (dst1 - dst0).
struct BlitAxis {
	int32_t src0, src1;
	int32_t dst0, dst1;
	uint32_t src_size;  // texels of the source level along this axis (for clamping)
};

// Where one destination texel reads along one axis: texel i0 with weight
// 1 - weight and texel i1 with weight (NEAREST: i0 == i1, weight 0).
struct BlitTap {
	uint32_t i0, i1;
	float weight;
};

// Vulkan 1.3 §20.6: the unnormalized source coordinate of the center of
// destination texel dst (an absolute texel index).
double BlitSourceCoordinate(const BlitAxis& axis, int32_t dst);
// §16 "Texel Filtering" with unnormalized coordinates and CLAMP_TO_EDGE:
// NEAREST is floor(u); LINEAR blends floor(u - 0.5) and the texel after it
// by frac(u - 0.5); texel indices are clamped to [0, size - 1].
BlitTap BlitTapAt(double u, uint32_t src_size, BlitFilter filter);
// The taps of the destination texels min(dst0, dst1) ... max(dst0, dst1) - 1
// in increasing order (Cubic: as NEAREST; CubicBlitTaps has its texels).
std::vector<BlitTap> ComputeBlitTaps(const BlitAxis& axis, BlitFilter filter);

// VK_EXT_filter_cubic along one axis: texels floor(u - 3/2) .. + 3
// (clamped to [0, size - 1], CLAMP_TO_EDGE) with their Catmull-Rom weights
// of frac(u - 1/2) ("Texel Cubic Filtering"), for the same destination texels.
struct CubicBlitTap {
	uint32_t i[4];
	float weights[4];
};
std::vector<CubicBlitTap> CubicBlitTaps(const BlitAxis& axis);

// How texels travel from source to destination, chosen once per command.
enum class BlitConversion : uint8_t {
	Copy,     // same format and NEAREST: texel bytes are copied unchanged
	Float,    // unpack to float (sRGB decoded), filter, pack (sRGB encoded)
	Integer,  // unpack to 32-bit integers, NEAREST only, clamp to the destination's range, pack
	Invalid,
};
// Vulkan 1.3 §20.6: integer formats convert only to integer formats of the
// same signedness; depth/stencil formats only to themselves, with NEAREST.
BlitConversion ChooseBlitConversion(const FormatInfo& src, const FormatInfo& dst, BlitFilter filter);

// One mip level and aspect of an image (one plane), starting at a base layer.
struct BlitSurface {
	uint8_t* data = nullptr;  // texel (0, 0) of slice 0 or of the base layer
	uint64_t row_pitch = 0;   // between rows of texels, or of tiles when tiled
	// 0: rows of texels; s > 0: 2^s x 2^s tiles (image_layout.h TiledOffset).
	uint32_t tile_shift = 0;
	uint64_t slice_pitch = 0;                   // between 3D slices (unused for one-slice images)
	uint32_t width = 1, height = 1, depth = 1;  // of the level; depth 1 for 1D/2D images
	const FormatInfo* format = nullptr;         // of the plane's elements
	uint32_t element_size = 0;
};

struct BlitRegion {
	int32_t src_offsets[2][3];
	int32_t dst_offsets[2][3];
};

// One region of a blit between two surfaces (one array layer each; the
// caller steps through layers), with its per-axis taps computed once.
// Destination rows are independent, so ranges of them may run in parallel.
// Converts texels of one format to and from four floats, chosen once per
// plan, for formats whose components are aligned 8- or 16-bit UNORM, SNORM,
// SRGB (8-bit) or SFLOAT (16-bit) fields (RGBA8, BGRA8 sRGB, RGBA16F...):
// 8-bit fields go through tables built with UnpackTexel, 16-bit ones through
// inlined conversions that round as PackTexel does. Other formats call
// UnpackTexel/PackTexel.
struct FastTexelCodec {
	struct Component {
		uint8_t byte;  // offset in the texel
		uint8_t bits;  // 8 or 16
		uint8_t slot;  // R, G, B, A
		NumericFormat numeric;
	};
	uint8_t count = 0;
	bool all_bytes = true;  // every field is 8 bits: the table-only loop
	Component components[4] = {};
	float defaults[4] = {0, 0, 0, 1};
	float table[4][256] = {};  // unpacked value of each byte value (8-bit fields, unpacking only)
};

class BlitPlan {
public:
	// Rows converted byte by byte (raw_bytes_ below).
	enum class RawBytes : uint8_t { kNone, kUnorm, kSrgb };

	BlitPlan(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
	         BlitConversion conversion);

	// Rows of the destination region over all its slices.
	uint32_t RowCount() const { return uint32_t(y_.size() * z_.size()); }
	// Writes rows [begin, end): row r is row r % height of slice r / height.
	void Run(uint32_t begin, uint32_t end) const;

private:
	template <uint32_t kSize>
	void CopyNearest(uint32_t begin, uint32_t end) const;
	void IntegerNearest(uint32_t begin, uint32_t end) const;
	void FloatNearest(uint32_t begin, uint32_t end) const;
	void FloatLinear(uint32_t begin, uint32_t end) const;
	void FloatCubic(uint32_t begin, uint32_t end) const;
	// count texels, four floats each.
	void UnpackRow(const uint8_t* in, uint32_t count, float* out) const;
	void PackRow(const float* in, uint32_t count, uint8_t* out) const;
	// Row r of the destination region: its column 0 (texel dst_x_ when not
	// tiled; for tiled surfaces columns are at DstColumn).
	uint8_t* DstRow(uint32_t row) const;
	uint64_t DstColumn(uint32_t i) const {
		return dst_columns_.empty() ? uint64_t(i) * dst_.element_size : dst_columns_[i];
	}
	// Row `row` of a source slice: the address of column 0 (add ColumnOffset).
	const uint8_t* SrcRow(uint32_t slice, uint32_t row) const;
	// Unpacks count source texels from column first of a row. scratch:
	// the caller's, for a tiled row's texels gathered.
	void UnpackSpan(const uint8_t* src_row, uint32_t first, uint32_t count, float* out,
	                std::vector<uint8_t>& scratch) const;
	// Packs the destination row's texels (four floats each).
	void PackDstRow(uint32_t row, const float* in, std::vector<uint8_t>& scratch) const;

	BlitSurface src_, dst_;
	BlitFilter filter_;
	BlitConversion conversion_;
	std::vector<BlitTap> x_, y_, z_;
	std::vector<CubicBlitTap> cubic_x_, cubic_y_;  // BlitFilter::Cubic
	uint32_t dst_x_, dst_y_, dst_z_;               // first destination texel of each axis
	// Per destination column: byte offsets of the source texels (NEAREST),
	// or indices into the span of source columns LINEAR reads.
	std::vector<uint64_t> column_offsets_;
	// Tiled destinations: byte offset of destination column i from DstRow.
	std::vector<uint64_t> dst_columns_;
	std::vector<uint32_t> left_, right_;
	uint32_t first_column_ = 0, span_ = 0;
	std::unique_ptr<FastTexelCodec> unpack_, pack_;  // null: the generic functions
	// Both formats are four 8-bit UNORM or sRGB bytes in the same order
	// (RGBA8 to RGBA8, BGRA8 sRGB to BGRA8 sRGB): rows are unpacked and
	// packed byte by byte in stored order (filtering treats the four
	// channels alike), with the codecs' results; all-UNORM rows in vector
	// loops.
	RawBytes raw_bytes_ = RawBytes::kNone;
	const float* byte_tables_[4] = {};  // kSrgb: the unpacking table of each byte of a texel
	bool srgb_byte_[4] = {};            // kSrgb: the bytes sRGB-encoded (the color ones)
};

// Blits one region on the calling thread.
void BlitSurfaceRegion(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
                       BlitConversion conversion);

}  // namespace tessera::texture
