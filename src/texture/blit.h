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
#include <vector>

#include "texture/format.h"

namespace tessera::texture {

enum class BlitFilter : uint8_t { Nearest, Linear };

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
// in increasing order.
std::vector<BlitTap> ComputeBlitTaps(const BlitAxis& axis, BlitFilter filter);

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
	uint64_t row_pitch = 0;
	uint64_t slice_pitch = 0;                   // between 3D slices (unused for one-slice images)
	uint32_t width = 1, height = 1, depth = 1;  // of the level; depth 1 for 1D/2D images
	const FormatInfo* format = nullptr;         // of the plane's elements
	uint32_t element_size = 0;
};

struct BlitRegion {
	int32_t src_offsets[2][3];
	int32_t dst_offsets[2][3];
};

// Blits one region between two surfaces (one array layer each; the caller
// steps through layers). filter and conversion are the command's.
void BlitSurfaceRegion(const BlitSurface& src, const BlitSurface& dst, const BlitRegion& region, BlitFilter filter,
                       BlitConversion conversion);

}  // namespace tessera::texture
