#include "texture/decoded_view.h"

#include <algorithm>
#include <cstring>

#include "texture/compressed.h"

namespace tessera::texture {

bool NeedsDecodedView(const ImageViewState& view) {
	const FormatInfo* format = FindFormat(view.format);
	return format && format->IsCompressed() && CanDecodeBlock(*format);
}

bool DecodeView(const ImageViewState& view, DecodedView* out) {
	if (!NeedsDecodedView(view) || !view.layout || !view.memory) return false;
	const FormatInfo& format = *FindFormat(view.format);
	const ImageLayout& source = *view.layout;
	const ImageDescription& d = source.Description();
	if (view.level_count == 0 || view.base_level + view.level_count > d.mip_levels) return false;
	const bool volume = d.type == VK_IMAGE_TYPE_3D;
	if (volume ? (view.base_layer != 0 || view.layer_count != 1)
	           : (view.layer_count == 0 || view.base_layer + view.layer_count > d.array_layers))
		return false;

	ImageDescription decoded;
	decoded.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	decoded.type = d.type;
	const SubresourceLayout& base = source.Level(0, view.base_level);
	decoded.extent = base.extent;
	decoded.mip_levels = view.level_count;
	decoded.array_layers = volume ? 1 : view.layer_count;
	if (!out->layout.Init(decoded)) return false;
	out->memory.assign(out->layout.TotalSize(), 0);

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
						if (!DecodeBlock(format, block, texels, SrgbDecode::Linearize)) return false;
						for (uint32_t y = by * bh; y < std::min(height, (by + 1) * bh); ++y)
							for (uint32_t x = bx * bw; x < std::min(width, (bx + 1) * bw); ++x)
								std::memcpy(out->memory.data() + out->layout.Offset(0, l, layer, x, y, z),
								            texels[(y - by * bh) * bw + (x - bx * bw)].f, 16);
					}
	}
	out->view = view;
	out->view.layout = &out->layout;
	out->view.memory = out->memory.data();
	out->view.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	out->view.source_format = view.format;
	out->view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	out->view.base_level = 0;
	out->view.base_layer = 0;
	return true;
}

}  // namespace tessera::texture
