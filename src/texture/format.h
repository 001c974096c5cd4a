// Format descriptions, generated from vk.xml (see gen_formats.py), and the
// questions the rest of the driver asks of a format.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

namespace tessera::texture {

enum class NumericFormat : uint8_t { UNORM, SNORM, USCALED, SSCALED, UINT, SINT, UFLOAT, SFLOAT, SRGB };
enum class Compression : uint8_t { None, BC, ETC2, EAC, ASTC_LDR, ASTC_HDR, PVRTC };

struct FormatComponent {
	char name;       // 'R', 'G', 'B', 'A', 'D', 'S'
	uint8_t bits;    // 0 for compressed formats
	uint8_t offset;  // bit offset inside the block, or inside its plane's element (0 when compressed)
	NumericFormat numeric;
	uint8_t plane;
};

struct FormatPlane {
	uint8_t width_divisor;
	uint8_t height_divisor;
	VkFormat compatible;  // the single-plane format of this plane's elements
};

struct FormatInfo {
	VkFormat format;
	const char* name;                 // without the VK_FORMAT_ prefix
	const char* compatibility_class;  // vk.xml's class: same class = copy compatible
	uint8_t block_size;               // bytes per texel block
	uint8_t block_extent[3];          // texels per block in x, y, z
	uint8_t packed;                   // 0, or the width in bits of the packed word(s)
	Compression compression;
	// vk.xml's chroma attribute: a Y'CbCr format that needs a sampler Y'CbCr
	// conversion (Vulkan 1.3 "Formats Requiring Sampler Y′CBCR Conversion"). Despite the name, this includes the
	// 4:4:4 formats (R10X6G10X6B10X6A10X6_UNORM_4PACK16); whether texels are
	// really subsampled is TexelsPerBlock() > 1 or a plane's divisors.
	bool chroma_subsampled;
	uint8_t component_count;
	FormatComponent components[4];
	uint8_t plane_count;  // 0 for single-plane formats
	FormatPlane planes[3];

	bool IsCompressed() const { return compression != Compression::None; }
	bool IsMultiPlanar() const { return plane_count > 0; }
	bool NeedsYcbcrConversion() const { return chroma_subsampled; }
	uint32_t TexelsPerBlock() const { return uint32_t(block_extent[0]) * block_extent[1] * block_extent[2]; }
	bool HasDepth() const;
	bool HasStencil() const;
	bool IsDepthOrStencil() const { return HasDepth() || HasStencil(); }
	bool IsColor() const { return !IsDepthOrStencil(); }
	const FormatComponent* Find(char name) const;
	// Width in bits of a component, 0 when the format has none of that name.
	uint32_t ComponentBits(char name) const;
	// The numeric format shared by the color components (UNORM for BC1; the
	// depth's for depth/stencil formats, whose stencil is always UINT).
	NumericFormat Numeric() const { return components[0].numeric; }
	bool IsInteger() const;  // UINT or SINT: cleared and read through int32/uint32
	bool IsFloat() const { return Numeric() == NumericFormat::SFLOAT || Numeric() == NumericFormat::UFLOAT; }
	bool IsNormalized() const;  // UNORM, SNORM or SRGB
	bool IsScaled() const { return Numeric() == NumericFormat::USCALED || Numeric() == NumericFormat::SSCALED; }
	bool IsSigned() const;  // SNORM, SSCALED, SINT or SFLOAT
	bool IsSrgb() const { return Numeric() == NumericFormat::SRGB; }
	bool Has64BitComponents() const { return component_count > 0 && components[0].bits == 64; }
	// A color format that OpImage*Dref* instructions may sample
	// (VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT): the one-
	// component formats laid out as D16_UNORM and D32_SFLOAT, whose red
	// component is then the texel's depth D_tex, as a depth view's D is.
	bool ComparesAsDepth() const { return format == VK_FORMAT_R16_UNORM || format == VK_FORMAT_R32_SFLOAT; }
};

// Returns nullptr for VK_FORMAT_UNDEFINED and values vk.xml does not know.
const FormatInfo* FindFormat(VkFormat format);

// Bytes of one element of the given aspect as it is copied to or from a
// buffer (Vulkan 1.3 §20.4, "depth/stencil aspect" copies): D24 depth is 4
// bytes, stencil is 1 byte, color aspects are the block size.
uint32_t AspectElementSize(const FormatInfo& info, VkImageAspectFlagBits aspect);

// The VkFormat used for one aspect of a format on its own (D32S8 depth ->
// D32_SFLOAT, D24S8 stencil -> S8_UINT, plane 1 of a 2-plane format -> its
// compatible format). Color formats return themselves.
VkFormat AspectFormat(VkFormat format, VkImageAspectFlagBits aspect);

extern const FormatInfo kFormatTable[];
extern const size_t kFormatTableSize;

}  // namespace tessera::texture
