// Where each texel of an image lives in its memory.
//
// An image is one or more planes: color formats have one; combined
// depth/stencil formats keep depth (plane 0, 2 or 4 bytes a texel) and
// stencil (plane 1, 1 byte) apart so that depth tests and stencil ops touch
// only their own bytes; multi-planar YCbCr formats have their 2 or 3 planes.
// Inside a plane, mip levels follow one another; inside a level, array layers
// (or 3D slices) follow one another; inside a layer, rows of texel blocks; the
// samples of one texel are adjacent.
//
// A tiled image (ImageDescription::tile_shift s > 0, only single-sampled,
// single-plane, uncompressed 2D or 3D images) stores each layer or 3D slice
// as square tiles of 2^s x 2^s texels instead: a tile's rows follow one
// another, tiles follow one another in rows of tiles, and row_pitch is the
// bytes between rows of tiles (TiledOffset). Sizes are rounded up to whole
// tiles.
#pragma once

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdint>

#include "texture/format.h"

namespace tessera::texture {

struct ImageDescription {
	VkFormat format = VK_FORMAT_UNDEFINED;
	VkImageType type = VK_IMAGE_TYPE_2D;
	VkExtent3D extent{1, 1, 1};
	uint32_t mip_levels = 1;
	uint32_t array_layers = 1;
	uint32_t samples = 1;
	// Requested tiling (log2 of the tile side, 0: rows of texels). Init
	// applies it only where the layout can be tiled (CanTile).
	uint32_t tile_shift = 0;
	// VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT: the layout of SparseBlockOf's
	// tiles instead (tile_shift is then ignored), where the image has one.
	bool sparse_residency = false;
};

// The sparse block of a partially resident image: 64 KiB of its texels that
// one residency bind maps (Vulkan "Sparse Resources"). The image is stored in
// tiles of 2^tile_shift x 2^tile_shift texels, each tile's bytes contiguous,
// so a block is whole tiles: in 2D, one tile or two side by side (tiles of a
// row follow one another), the standard block shape of the texel size; in
// 3D, the same tile of `extent.depth` consecutive slices, each a whole
// number of pages (custom shapes: SparseBlockOf). Tiles are at least 64
// texels on a side.
struct SparseBlock {
	static constexpr uint64_t kSize = 65536;
	VkExtent3D extent{};  // in texels: VkSparseImageFormatProperties::imageGranularity
	uint32_t tile_shift = 0;
	bool standard = false;  // the standard shape (§"Standard Sparse Image Block Shapes")
};

// Where one sparse block lies in an image's bytes: `count` runs of `size`
// bytes, run c at offset + c * stride; the runs hold the block's 64 KiB of
// memory in order.
struct SparseBlockBytes {
	uint64_t offset = 0, stride = 0, size = 0;
	uint32_t count = 0;
};

// Byte offset of texel (x, y) in one layer of a tiled level from its first
// byte: the canonical formula (texture::TexelOffset in sample.h is the same
// for the samplers). With tile_shift 0 it is y * row_pitch + x * element_size.
inline uint64_t TiledOffset(uint64_t row_pitch, uint32_t element_size, uint32_t tile_shift, uint32_t x, uint32_t y) {
	const uint32_t s = tile_shift, m = (1u << s) - 1u;
	const uint64_t in_row = (uint64_t(x >> s) << (2 * s)) | (uint64_t(y & m) << s) | (x & m);
	return uint64_t(y >> s) * row_pitch + in_row * element_size;
}

struct SubresourceLayout {
	uint64_t offset = 0;  // of layer 0, from the start of the image's memory
	uint64_t size = 0;    // of all layers (one layer for 3D images)
	uint64_t row_pitch = 0;
	uint64_t depth_pitch = 0;   // between 3D slices
	uint64_t array_pitch = 0;   // between array layers
	uint32_t element_size = 0;  // bytes per block (per sample)
	VkExtent3D extent{};        // of this level, in texels of this plane
	VkExtent3D block_extent{1, 1, 1};
	VkFormat format = VK_FORMAT_UNDEFINED;  // format of this plane's elements
	// 0: rows of texels. s > 0: 2^s x 2^s tiles (TiledOffset); row_pitch is
	// then the bytes between rows of tiles and depth_pitch a whole slice.
	uint32_t tile_shift = 0;

	bool Tiled() const { return tile_shift != 0; }
	// Texels from x to the end of its contiguous run in a row (the end of its
	// tile row when tiled; unbounded for rows of texels).
	uint32_t RunFrom(uint32_t x) const {
		return tile_shift ? (1u << tile_shift) - (x & ((1u << tile_shift) - 1u)) : UINT32_MAX;
	}
};

class ImageLayout {
public:
	static constexpr uint32_t kMaxPlanes = 3;
	static constexpr uint32_t kMaxLevels = 16;
	static constexpr uint64_t kAlignment = 64;

	ImageLayout() = default;
	// Returns false for a format that has no layout (unknown).
	bool Init(const ImageDescription& description);
	// Whether a description can have a tiled layout: 2D or 3D (each slice
	// tiled), one sample, one plane, an uncompressed color format.
	static bool CanTile(const ImageDescription& description);
	// The sparse block of partially resident images of a format and type:
	// single-sampled 2D and 3D images of an uncompressed one-plane color
	// format whose texels are 1, 2, 4, 8 or 16 bytes. False for others.
	static bool SparseBlockOf(VkFormat format, VkImageType type, SparseBlock* block);

	const ImageDescription& Description() const { return description_; }
	uint64_t TotalSize() const { return total_size_; }
	uint32_t PlaneCount() const { return plane_count_; }
	// Whether the levels are tiled (all of them or none).
	bool Tiled() const { return levels_[0][0].tile_shift != 0; }
	// A partially resident image's block (null for others). Each level
	// starts on a block, and so does each array layer of a 2D level.
	const SparseBlock* Sparse() const { return sparse_.tile_shift ? &sparse_ : nullptr; }
	// Sparse blocks of a level, along x, y and z (the last ones partly
	// outside the level where its extent is not a multiple of the block's).
	VkExtent3D SparseBlockCount(uint32_t mip) const;
	// The bytes of block (bx, by, bz) of a level and array layer (Sparse()
	// only).
	SparseBlockBytes BlockBytes(uint32_t mip, uint32_t layer, uint32_t bx, uint32_t by, uint32_t bz) const;

	// The plane holding an aspect (color/depth -> 0, stencil -> 1 when the
	// format has depth, plane N -> N).
	uint32_t PlaneOf(VkImageAspectFlagBits aspect) const;
	const SubresourceLayout& Level(uint32_t plane, uint32_t mip) const { return levels_[plane][mip]; }

	// Byte offset of a texel block: x, y in blocks, z the slice (3D) and
	// layer the array layer.
	uint64_t Offset(uint32_t plane, uint32_t mip, uint32_t layer, uint32_t x, uint32_t y, uint32_t z,
	                uint32_t sample = 0) const {
		const SubresourceLayout& l = levels_[plane][mip];
		if (l.tile_shift)
			return l.offset + layer * l.array_pitch + z * l.depth_pitch +
			       TiledOffset(l.row_pitch, l.element_size, l.tile_shift, x, y);
		return l.offset + layer * l.array_pitch + z * l.depth_pitch + y * l.row_pitch +
		       (uint64_t(x) * description_.samples + sample) * l.element_size;
	}

private:
	ImageDescription description_;
	uint32_t plane_count_ = 0;
	uint64_t total_size_ = 0;
	SparseBlock sparse_;  // tile_shift 0: not partially resident
	SubresourceLayout levels_[kMaxPlanes][kMaxLevels];
};

// Copies a rectangle of texel blocks (x, y, width, height in blocks) between
// one slice of a tiled level (tiles: the slice's first byte) and rows of
// blocks (rows: block (x, y) of the rectangle; rows_pitch bytes between its
// rows). Walks the tiles in memory order.
void RowsToTiles(const SubresourceLayout& level, uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width,
                 uint32_t height, const uint8_t* rows, uint64_t rows_pitch);
void TilesToRows(const SubresourceLayout& level, const uint8_t* tiles, uint32_t x, uint32_t y, uint32_t width,
                 uint32_t height, uint8_t* rows, uint64_t rows_pitch);

// Calls fn(x, y, width, height, row_pitch) for rectangles that cover
// [x0, x1) x [y0, y1) of a level, each one whose rows are `row_pitch` bytes
// apart in memory: the whole rectangle for rows of texels; for a tiled
// level, its part in each tile (rows of 2^s texels).
template <typename Fn>
void ForEachRowRect(const SubresourceLayout& level, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, Fn&& fn) {
	if (!level.tile_shift) {
		if (x0 < x1 && y0 < y1) fn(x0, y0, x1 - x0, y1 - y0, level.row_pitch);
		return;
	}
	const uint32_t m = (1u << level.tile_shift) - 1u;
	const uint64_t pitch = uint64_t(m + 1) * level.element_size;
	for (uint32_t y = y0, h; y < y1; y += h) {
		h = std::min(y1 - y, (m + 1) - (y & m));
		for (uint32_t x = x0, w; x < x1; x += w) {
			w = std::min(x1 - x, (m + 1) - (x & m));
			fn(x, y, w, h, pitch);
		}
	}
}

// Size of a level: max(1, extent >> mip).
inline uint32_t MipExtent(uint32_t extent, uint32_t mip) {
	uint32_t e = extent >> mip;
	return e ? e : 1;
}

}  // namespace tessera::texture
