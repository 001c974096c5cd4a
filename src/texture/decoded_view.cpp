#include "texture/decoded_view.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "texture/compressed.h"
#include "texture/float_formats.h"

namespace tessera::texture {

bool NeedsDecodedView(const ImageViewState& view) {
	const FormatInfo* format = FindFormat(view.format);
	return format && format->IsCompressed() && CanDecodeBlock(*format);
}

namespace {

// The narrowest format that holds every value DecodeBlock gives a format
// exactly (SrgbDecode::Keep for sRGB: the bytes, linearized when sampled,
// as R8G8B8A8_SRGB's decode tables do, to the same floats):
// - BC7 and ETC2 RGB8 / RGB8A1 / RGBA8 decode to k / 255 (Khronos Data
//   Format Specification 1.4 §20.1, §22.1-22.3), ASTC sRGB to the top
//   byte of its UNORM16 result / 255: R8G8B8A8_UNORM or _SRGB;
// - BC6H decodes to half-float values (§20.2) and ASTC LDR to
//   decode_float16 values (Vulkan's default ASTC decode mode): binary16,
//   R16G16B16A16_SFLOAT;
// - the rest (BC1-BC5, EAC: endpoints over 31, 63, 7 x 255 ... interpolated
//   in real arithmetic) keep 32-bit floats.
// Sampled values are bit for bit those of R32G32B32A32_SFLOAT copies; a
// quarter or half the memory, and the sampler's fast path reads them.
VkFormat NarrowFormat(const FormatInfo& format) {
	switch (format.format) {
	case VK_FORMAT_BC7_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK: return VK_FORMAT_R8G8B8A8_UNORM;
	case VK_FORMAT_BC7_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK:
	case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: return VK_FORMAT_R8G8B8A8_SRGB;
	case VK_FORMAT_BC6H_UFLOAT_BLOCK:
	case VK_FORMAT_BC6H_SFLOAT_BLOCK: return VK_FORMAT_R16G16B16A16_SFLOAT;
	default: break;
	}
	if (format.compression == Compression::ASTC_LDR)
		return IsSrgbBlockFormat(format) ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R16G16B16A16_SFLOAT;
	return VK_FORMAT_R32G32B32A32_SFLOAT;
}

// One decoded texel in `format`; false when a value does not fit exactly
// (NarrowFormat's claims are checked on every texel, so a decoder that
// breaks them costs memory, never a wrong value).
bool StoreTexel(VkFormat format, const TexelValue& v, uint8_t* out) {
	switch (format) {
	case VK_FORMAT_R8G8B8A8_UNORM:
	case VK_FORMAT_R8G8B8A8_SRGB:
		for (int c = 0; c < 4; ++c) {
			const float scaled = v.f[c] * 255.0f;
			if (!(scaled >= 0.0f && scaled <= 255.0f)) return false;
			const uint8_t byte = uint8_t(std::lrint(scaled));
			if (std::bit_cast<uint32_t>(float(byte) / 255.0f) != v.u[c]) return false;
			out[c] = byte;
		}
		return true;
	case VK_FORMAT_R16G16B16A16_SFLOAT:
		for (int c = 0; c < 4; ++c) {
			const uint16_t half = FloatToHalf(v.f[c]);
			if (std::bit_cast<uint32_t>(HalfToFloat(half)) != v.u[c]) return false;
			std::memcpy(out + 2 * c, &half, 2);
		}
		return true;
	default: std::memcpy(out, v.f, 16); return true;
	}
}

bool DecodeAs(const ImageViewState& view, VkFormat decoded_format, DecodedView* out) {
	const FormatInfo& format = *FindFormat(view.format);
	const ImageLayout& source = *view.layout;
	const ImageDescription& d = source.Description();
	const bool volume = d.type == VK_IMAGE_TYPE_3D;
	ImageDescription decoded;
	decoded.format = decoded_format;
	decoded.type = d.type;
	const SubresourceLayout& base = source.Level(0, view.base_level);
	decoded.extent = base.extent;
	decoded.mip_levels = view.level_count;
	decoded.array_layers = volume ? 1 : view.layer_count;
	if (!out->layout.Init(decoded)) return false;
	out->memory.assign(out->layout.TotalSize(), 0);

	const SrgbDecode srgb = decoded_format == VK_FORMAT_R8G8B8A8_SRGB ? SrgbDecode::Keep : SrgbDecode::Linearize;
	const uint32_t bw = format.block_extent[0], bh = format.block_extent[1];
	TexelValue texels[kMaxDecodedTexels];
	for (uint32_t l = 0; l < view.level_count; ++l) {
		const SubresourceLayout& level = source.Level(0, view.base_level + l);
		const uint32_t width = level.extent.width, height = level.extent.height, depth = level.extent.depth;
		for (uint32_t layer = 0; layer < decoded.array_layers; ++layer)
			for (uint32_t z = 0; z < depth; ++z)
				for (uint32_t by = 0; by * bh < height; ++by)
					for (uint32_t bx = 0; bx * bw < width; ++bx) {
						const uint8_t* block =
						    view.memory + source.Offset(0, view.base_level + l, view.base_layer + layer, bx, by, z);
						if (!DecodeBlock(format, block, texels, srgb)) return false;
						for (uint32_t y = by * bh; y < std::min(height, (by + 1) * bh); ++y)
							for (uint32_t x = bx * bw; x < std::min(width, (bx + 1) * bw); ++x)
								if (!StoreTexel(decoded_format, texels[(y - by * bh) * bw + (x - bx * bw)],
								                out->memory.data() + out->layout.Offset(0, l, layer, x, y, z)))
									return false;
					}
	}
	out->view = view;
	out->view.layout = &out->layout;
	out->view.memory = out->memory.data();
	out->view.format = decoded_format;
	out->view.source_format = view.format;
	out->view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	out->view.base_level = 0;
	out->view.base_layer = 0;
	return true;
}

}  // namespace

VkFormat DecodedFormat(const ImageViewState& view) {
	const FormatInfo* format = FindFormat(view.format);
	return format ? NarrowFormat(*format) : VK_FORMAT_UNDEFINED;
}

bool DecodeView(const ImageViewState& view, DecodedView* out) {
	if (!NeedsDecodedView(view) || !view.layout || !view.memory) return false;
	const ImageDescription& d = view.layout->Description();
	if (view.level_count == 0 || view.base_level + view.level_count > d.mip_levels) return false;
	const bool volume = d.type == VK_IMAGE_TYPE_3D;
	if (volume ? (view.base_layer != 0 || view.layer_count != 1)
	           : (view.layer_count == 0 || view.base_layer + view.layer_count > d.array_layers))
		return false;
	const VkFormat narrow = DecodedFormat(view);
	if (DecodeAs(view, narrow, out)) return true;
	return narrow != VK_FORMAT_R32G32B32A32_SFLOAT && DecodeAs(view, VK_FORMAT_R32G32B32A32_SFLOAT, out);
}

}  // namespace tessera::texture
