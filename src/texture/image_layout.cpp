#include "texture/image_layout.h"

#include <algorithm>
#include <bit>
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
	sparse_ = {};
	if (description.sparse_residency && description.samples == 1 && plane_count_ == 1)
		SparseBlockOf(description.format, description.type, &sparse_);
	const uint32_t tile_shift = sparse_.tile_shift                               ? sparse_.tile_shift
	                            : description.tile_shift && CanTile(description) ? description.tile_shift
	                                                                             : 0;
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
				// Whole tiles: row_pitch spans a row of tiles (2^s rows of
				// texels); a partially resident image's rows of tiles are
				// whole 2D blocks (one or two tiles each).
				const uint64_t tile = uint64_t(1) << tile_shift;
				const uint64_t row_tiles = sparse_.tile_shift && !is_3d ? sparse_.extent.width >> tile_shift : 1;
				l.tile_shift = tile_shift;
				l.row_pitch = AlignUp((blocks_x + tile - 1) / tile, row_tiles) * tile * tile * element;
				l.depth_pitch = l.row_pitch * ((blocks_y + tile - 1) / tile);
			} else {
				l.tile_shift = 0;
				l.row_pitch = blocks_x * element * description.samples;
				l.depth_pitch = l.row_pitch * blocks_y;
			}
			// (3D blocks span whole groups of extent.depth slices.)
			uint64_t layer_size =
			    l.depth_pitch * (sparse_.tile_shift ? AlignUp(l.extent.depth, sparse_.extent.depth) : l.extent.depth);
			l.array_pitch = AlignUp(layer_size, 16);
			offset = AlignUp(offset, sparse_.tile_shift ? SparseBlock::kSize : kAlignment);
			l.offset = offset;
			l.size = is_3d ? layer_size : l.array_pitch * description.array_layers;
			offset += l.size;
		}
	}
	total_size_ = AlignUp(offset, sparse_.tile_shift ? SparseBlock::kSize : kAlignment);
	return true;
}

// 2D blocks are the standard shapes (§"Standard Sparse Image Block
// Shapes"), 256x256 texels of 1 byte down to 64x64 of 16 bytes: one square
// tile, or two side by side. A 3D block is one tile of 64x64 texels in as
// many slices as make 64 KiB (16 of 1 byte down to 1 of 16 bytes): a bind
// maps pages, so a block's part of each slice must be whole pages, which
// the standard shapes' 2 KiB slices of 1- and 2-byte texels are not; and
// tiles of 64 texels hold whole tiles of the rasterizer when a slice is
// drawn to (raster::ColorTarget). All 3D shapes are custom.
bool ImageLayout::SparseBlockOf(VkFormat format, VkImageType type, SparseBlock* block) {
	const FormatInfo* info = FindFormat(format);
	if (!info || info->plane_count != 0 || info->IsDepthOrStencil() || info->IsCompressed() ||
	    info->chroma_subsampled || info->block_extent[0] != 1 || info->block_extent[1] != 1 ||
	    !std::has_single_bit(uint32_t(info->block_size)) || info->block_size > 16)
		return false;
	const uint32_t size_shift = std::countr_zero(uint32_t(info->block_size));  // 0 to 4
	if (type == VK_IMAGE_TYPE_2D) {
		// 1, 2, 4, 8, 16 bytes: tiles of 256, 128, 128, 64, 64 texels; two
		// of them in a 256x128 (2 bytes) or 128x64 (8 bytes) block.
		static constexpr uint32_t kShift[] = {8, 7, 7, 6, 6}, kTiles[] = {1, 2, 1, 2, 1};
		const uint32_t s = kShift[size_shift];
		block->extent = {kTiles[size_shift] << s, 1u << s, 1};
		block->tile_shift = s;
		block->standard = true;
		return true;
	}
	if (type == VK_IMAGE_TYPE_3D) {
		const uint32_t s = 6;
		const uint64_t slice_bytes = uint64_t(info->block_size) << (2 * s);
		block->extent = {1u << s, 1u << s, uint32_t(SparseBlock::kSize / slice_bytes)};
		block->tile_shift = s;
		block->standard = false;
		return true;
	}
	return false;
}

VkExtent3D ImageLayout::SparseBlockCount(uint32_t mip) const {
	const SubresourceLayout& l = levels_[0][mip];
	const VkExtent3D& b = sparse_.extent;
	return {(l.extent.width + b.width - 1) / b.width, (l.extent.height + b.height - 1) / b.height,
	        (l.extent.depth + b.depth - 1) / b.depth};
}

SparseBlockBytes ImageLayout::BlockBytes(uint32_t mip, uint32_t layer, uint32_t bx, uint32_t by, uint32_t bz) const {
	const SubresourceLayout& l = levels_[0][mip];
	const uint32_t s = sparse_.tile_shift;
	const uint64_t start = l.offset + layer * l.array_pitch;
	// A 2D block's tiles are contiguous in their row of tiles (rows of tiles
	// are whole blocks); a 3D block is tile (bx, by) of each of its slices.
	if (description_.type != VK_IMAGE_TYPE_3D)
		return {start + by * l.row_pitch + bx * SparseBlock::kSize, SparseBlock::kSize, SparseBlock::kSize, 1};
	const uint64_t tile_bytes = uint64_t(l.element_size) << (2 * s);
	return {start + uint64_t(bz) * sparse_.extent.depth * l.depth_pitch + by * l.row_pitch + bx * tile_bytes,
	        l.depth_pitch, tile_bytes, sparse_.extent.depth};
}

bool ImageLayout::CanTile(const ImageDescription& description) {
	const FormatInfo* info = FindFormat(description.format);
	return info && description.type != VK_IMAGE_TYPE_1D && description.samples == 1 && info->plane_count == 0 &&
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

// One direction of RowsToTiles/TilesToRows, for elements of kSize bytes (0:
// element_size, known at run time). A full tile row is one fixed-size copy.
template <bool kToTiles, uint32_t kSize>
void CopyTiled(const SubresourceLayout& level, uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
               uint8_t* rows, uint64_t rows_pitch) {
	const uint32_t e = kSize ? kSize : level.element_size;
	const uint32_t s = level.tile_shift, side = 1u << s, m = side - 1u;
	const uint64_t tile_bytes = uint64_t(e) << (2 * s);
	const uint32_t x_end = x + width, y_end = y + height;
	for (uint32_t ty = y >> s; ty <= (y_end - 1) >> s; ++ty) {
		const uint32_t j0 = std::max(y, ty << s), j1 = std::min(y_end, (ty + 1) << s);
		uint8_t* tile_row = tiles + ty * level.row_pitch;
		for (uint32_t tx = x >> s; tx <= (x_end - 1) >> s; ++tx) {
			const uint32_t i0 = std::max(x, tx << s), i1 = std::min(x_end, (tx + 1) << s);
			const uint64_t bytes = uint64_t(i1 - i0) * e;
			uint8_t* tile = tile_row + tx * tile_bytes;
			for (uint32_t j = j0; j < j1; ++j) {
				uint8_t* t = tile + ((uint64_t(j & m) << s) + (i0 & m)) * e;
				uint8_t* r = rows + uint64_t(j - y) * rows_pitch + uint64_t(i0 - x) * e;
				uint8_t* to = kToTiles ? t : r;
				const uint8_t* from = kToTiles ? r : t;
				if (kSize && side == 4 && i1 - i0 == 4)
					std::memcpy(to, from, 4 * kSize);
				else
					std::memcpy(to, from, bytes);
			}
		}
	}
}

template <bool kToTiles>
void CopyTiled(const SubresourceLayout& level, uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
               uint8_t* rows, uint64_t rows_pitch) {
	if (width == 0 || height == 0) return;
	switch (level.element_size) {
	case 1: return CopyTiled<kToTiles, 1>(level, tiles, x, y, width, height, rows, rows_pitch);
	case 2: return CopyTiled<kToTiles, 2>(level, tiles, x, y, width, height, rows, rows_pitch);
	case 4: return CopyTiled<kToTiles, 4>(level, tiles, x, y, width, height, rows, rows_pitch);
	case 8: return CopyTiled<kToTiles, 8>(level, tiles, x, y, width, height, rows, rows_pitch);
	case 16: return CopyTiled<kToTiles, 16>(level, tiles, x, y, width, height, rows, rows_pitch);
	default: return CopyTiled<kToTiles, 0>(level, tiles, x, y, width, height, rows, rows_pitch);
	}
}

}  // namespace

void RowsToTiles(const SubresourceLayout& level, uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width,
                 uint32_t height, const uint8_t* rows, uint64_t rows_pitch) {
	CopyTiled<true>(level, tiles, x, y, width, height, const_cast<uint8_t*>(rows), rows_pitch);
}

void TilesToRows(const SubresourceLayout& level, const uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width,
                 uint32_t height, uint8_t* rows, uint64_t rows_pitch) {
	CopyTiled<false>(level, const_cast<uint8_t*>(tiles), x, y, width, height, rows, rows_pitch);
}

}  // namespace tessera::texture
