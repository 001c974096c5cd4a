// Conversion between a format's bytes and texel values, exactly as the
// Vulkan spec's "Fixed-Point Data Conversions", "Floating Point Formats" and
// "sRGB" rules define it.
//
// A texel value holds four components (R, G, B, A; D in [0]) in the type the
// format's numeric class calls for: float for UNORM, SNORM, SCALED, FLOAT and
// SRGB formats, int32 for SINT and uint32 for UINT - the same interpretation
// as VkClearColorValue. Missing components read as (0, 0, 0, 1).
#pragma once

#include <cstdint>

#include "texture/format.h"

namespace tessera::texture {

union TexelValue {
	float f[4];
	int32_t i[4];
	uint32_t u[4];
};

// Writes one texel (block_size bytes) of an uncompressed, single-plane color
// or depth format. SRGB formats encode the linear value; UNORM/SNORM round to
// nearest and clamp; integer formats keep the low bits (as clears do).
void PackTexel(const FormatInfo& format, const TexelValue& value, void* out);
// Reads one texel of an uncompressed, single-plane color or depth format.
// SRGB formats decode to linear.
TexelValue UnpackTexel(const FormatInfo& format, const void* in);

// Depth aspect as it is stored in an image's depth plane (D16: 2 bytes,
// D24: low 24 bits of 4 bytes, D32: float with values clamped to [0, 1]
// only where the format is UNORM).
void PackDepth(VkFormat depth_plane_format, float depth, void* out);
float UnpackDepth(VkFormat depth_plane_format, const void* in);

// True for formats PackTexel/UnpackTexel handle.
bool CanConvertTexels(const FormatInfo& format);

}  // namespace tessera::texture
