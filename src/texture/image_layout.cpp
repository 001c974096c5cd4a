#include "texture/image_layout.h"

#include <algorithm>
#include <cstring>

namespace tessera::texture {

namespace {

uint64_t AlignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

bool ImageLayout::Init(const ImageDescription& description) {
	const FormatInfo* info = FindFormat(description.format);
	if (!info || description.mip_levels > kMaxLevels || description.mip_levels == 0) return false;
	description_ = description;

	// (format of the plane's elements, width divisor, height divisor)
	struct Plane {
		VkFormat format;
		uint32_t width_divisor, height_divisor;
	} planes[kMaxPlanes];
	if (info->plane_count > 0) {
		plane_count_ = info->plane_count;
		for (uint32_t p = 0; p < plane_count_; ++p)
			planes[p] = {info->planes[p].compatible, info->planes[p].width_divisor, info->planes[p].height_divisor};
	} else if (info->HasDepth() && info->HasStencil()) {
		plane_count_ = 2;
		planes[0] = {AspectFormat(info->format, VK_IMAGE_ASPECT_DEPTH_BIT), 1, 1};
		planes[1] = {VK_FORMAT_S8_UINT, 1, 1};
	} else {
		plane_count_ = 1;
		planes[0] = {info->format, 1, 1};
	}

	bool is_3d = description.type == VK_IMAGE_TYPE_3D;
	const uint32_t tile_shift = description.tile_shift && CanTile(description) ? description.tile_shift : 0;
	uint64_t offset = 0;
	for (uint32_t p = 0; p < plane_count_; ++p) {
		const FormatInfo* plane_info = FindFormat(planes[p].format);
		uint32_t bw = plane_info->block_extent[0], bh = plane_info->block_extent[1];
		uint32_t element = plane_info->block_size;
		if (plane_info->format == VK_FORMAT_X8_D24_UNORM_PACK32 || plane_info->format == VK_FORMAT_D32_SFLOAT)
			element = 4;
		for (uint32_t mip = 0; mip < description.mip_levels; ++mip) {
			SubresourceLayout& l = levels_[p][mip];
			l.format = planes[p].format;
			l.element_size = element;
			l.block_extent = {bw, bh, 1};
			l.extent = {MipExtent(description.extent.width / planes[p].width_divisor, mip),
			            MipExtent(description.extent.height / planes[p].height_divisor, mip),
			            is_3d ? MipExtent(description.extent.depth, mip) : 1};
			uint64_t blocks_x = (l.extent.width + bw - 1) / bw;
			uint64_t blocks_y = (l.extent.height + bh - 1) / bh;
			if (tile_shift) {
				// Whole tiles: row_pitch spans a row of tiles (2^s rows of texels).
				const uint64_t tile = uint64_t(1) << tile_shift;
				l.tile_shift = tile_shift;
				l.row_pitch = (blocks_x + tile - 1) / tile * tile * tile * element;
				l.depth_pitch = l.row_pitch * ((blocks_y + tile - 1) / tile);
			} else {
				l.tile_shift = 0;
				l.row_pitch = blocks_x * element * description.samples;
				l.depth_pitch = l.row_pitch * blocks_y;
			}
			uint64_t layer_size = l.depth_pitch * l.extent.depth;
			l.array_pitch = AlignUp(layer_size, 16);
			offset = AlignUp(offset, kAlignment);
			l.offset = offset;
			l.size = is_3d ? layer_size : l.array_pitch * description.array_layers;
			offset += l.size;
		}
	}
	total_size_ = AlignUp(offset, kAlignment);
	return true;
}

bool ImageLayout::CanTile(const ImageDescription& description) {
	const FormatInfo* info = FindFormat(description.format);
	return info && description.type == VK_IMAGE_TYPE_2D && description.samples == 1 && info->plane_count == 0 &&
	       !info->HasDepth() && !info->HasStencil() && !info->IsCompressed() && !info->chroma_subsampled &&
	       info->block_extent[0] == 1 && info->block_extent[1] == 1 && description.tile_shift <= 4;
}

uint32_t ImageLayout::PlaneOf(VkImageAspectFlagBits aspect) const {
	switch (aspect) {
	case VK_IMAGE_ASPECT_STENCIL_BIT: {
		const FormatInfo* info = FindFormat(description_.format);
		return info->HasDepth() ? 1 : 0;
	}
	case VK_IMAGE_ASPECT_PLANE_1_BIT:
	case VK_IMAGE_ASPECT_MEMORY_PLANE_1_BIT_EXT: return 1;
	case VK_IMAGE_ASPECT_PLANE_2_BIT:
	case VK_IMAGE_ASPECT_MEMORY_PLANE_2_BIT_EXT: return 2;
	default: return 0;
	}
}

namespace {

// Calls run(layer_offset, rows_offset, bytes) for the contiguous runs of a
// layer of a level, in the order of rows of texels.
template <typename Run>
void ForEachLayerRun(const SubresourceLayout& level, Run run) {
	const uint32_t bw = level.block_extent.width, bh = level.block_extent.height;
	const uint32_t width = (level.extent.width + bw - 1) / bw, height = (level.extent.height + bh - 1) / bh;
	const uint64_t row_bytes = uint64_t(width) * level.element_size;
	for (uint32_t z = 0; z < level.extent.depth; ++z)
		for (uint32_t y = 0; y < height; ++y) {
			const uint64_t rows = (uint64_t(z) * height + y) * row_bytes;
			if (!level.Tiled()) {
				run(z * level.depth_pitch + y * level.row_pitch, rows, row_bytes);
				continue;
			}
			for (uint32_t x = 0; x < width;) {
				const uint32_t n = std::min(width - x, level.RunFrom(x));
				run(z * level.depth_pitch + TiledOffset(level.row_pitch, level.element_size, level.tile_shift, x, y),
				    rows + uint64_t(x) * level.element_size, uint64_t(n) * level.element_size);
				x += n;
			}
		}
}

}  // namespace

void LayerToRows(const SubresourceLayout& level, const uint8_t* layer, uint8_t* rows) {
	ForEachLayerRun(level, [&](uint64_t in_layer, uint64_t in_rows, uint64_t bytes) {
		std::memcpy(rows + in_rows, layer + in_layer, bytes);
	});
}

void RowsToLayer(const SubresourceLayout& level, const uint8_t* rows, uint8_t* layer) {
	ForEachLayerRun(level, [&](uint64_t in_layer, uint64_t in_rows, uint64_t bytes) {
		std::memcpy(layer + in_layer, rows + in_rows, bytes);
	});
}

}  // namespace tessera::texture
