// Conversion between a format's bytes and texel values, exactly as the
// Vulkan spec's "Fixed-Point Data Conversions" (§3.10), "Floating-Point
// Format Conversions" and the Data Format Specification's sRGB and small
// float rules define it.
//
// A texel value holds four components (R, G, B, A; depth in [0], stencil in
// [1]) in the type the component's numeric format calls for: float for
// UNORM, SNORM, SCALED, FLOAT and SRGB, int32 for SINT and uint32 for UINT -
// the same interpretation as VkClearColorValue. Missing components read as
// (0, 0, 0, 1). Components of 64 bits follow VkClearColorValue's rule
// (Vulkan 1.3 §19.3 "Clear Values", since 1.3.287): R is words 0-1 and G words 2-3 as one
// little-endian 64-bit value (a double for SFLOAT); B and A of 64-bit
// formats cannot be carried, they pack as 0 and unpack to nothing.
#pragma once

#include <cstdint>

#include "texture/format.h"

namespace tessera::texture {

union TexelValue {
	float f[4];
	int32_t i[4];
	uint32_t u[4];
};

// Writes one texel (block_size bytes, unused X bits zero) of an
// uncompressed, single-plane format of one texel per block.
// UNORM/SNORM/SCALED clamp to the format's range and round to nearest
// (NaN -> 0); SRGB encodes the linear value; UINT/SINT keep the low bits,
// as "casting to the smaller type" in §19.3 says.
void PackTexel(const FormatInfo& format, const TexelValue& value, void* out);
// Reads one texel of such a format. SRGB components decode to linear;
// SNORM's most negative value reads as -1.0.
TexelValue UnpackTexel(const FormatInfo& format, const void* in);

// Depth aspect as it is stored in an image's depth plane (D16: 2 bytes,
// D24: the low 24 bits of 4, the high 8 zero; D32: the float as given).
void PackDepth(VkFormat depth_plane_format, float depth, void* out);
float UnpackDepth(VkFormat depth_plane_format, const void* in);

// True for formats PackTexel/UnpackTexel handle.
bool CanConvertTexels(const FormatInfo& format);

}  // namespace tessera::texture
