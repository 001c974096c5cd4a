// Tiled image layouts (ImageDescription::tile_shift): the offset formula,
// sizes rounded to whole tiles, which images may be tiled, and the
// conversions between tiled layers and rows of texels.
#include <catch2/catch.hpp>

#include <numeric>
#include <set>
#include <vector>

#include "texture/image_layout.h"
#include "texture/sample.h"

using namespace tessera::texture;

namespace {

ImageDescription Tiled(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t levels, uint32_t layers,
                       uint32_t samples = 1) {
	ImageDescription d{format, type, extent, levels, layers, samples};
	d.tile_shift = 2;
	return d;
}

}  // namespace

TEST_CASE("a tiled level stores 4x4 tiles in rows of tiles, sizes rounded to whole tiles", "[texture][layout][tiled]") {
	ImageLayout layout;
	REQUIRE(layout.Init(Tiled(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {37, 23, 1}, 3, 2)));
	REQUIRE(layout.Tiled());
	const SubresourceLayout& l0 = layout.Level(0, 0);
	REQUIRE(l0.tile_shift == 2);
	REQUIRE(l0.row_pitch == 10 * 16 * 4);         // ceil(37 / 4) tiles of 16 texels
	REQUIRE(l0.depth_pitch == 6 * l0.row_pitch);  // ceil(23 / 4) rows of tiles
	REQUIRE(l0.array_pitch >= l0.depth_pitch);
	// Texel (5, 6): tile (1, 1), row 2 and column 1 inside it.
	REQUIRE(layout.Offset(0, 0, 1, 5, 6, 0) == l0.offset + l0.array_pitch + l0.row_pitch + (16 + 2 * 4 + 1) * 4);
	// The last texel of the first tile row.
	REQUIRE(layout.Offset(0, 0, 0, 3, 3, 0) == l0.offset + 15 * 4);
	const SubresourceLayout& l2 = layout.Level(0, 2);  // 9 x 5
	REQUIRE(l2.row_pitch == 3 * 16 * 4);
	REQUIRE(l2.depth_pitch == 2 * l2.row_pitch);
	REQUIRE(layout.TotalSize() >= l2.offset + l2.size);
}

TEST_CASE("tiled offsets are one to one inside each level and layer", "[texture][layout][tiled]") {
	for (VkFormat format : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT}) {
		ImageLayout layout;
		REQUIRE(layout.Init(Tiled(format, VK_IMAGE_TYPE_2D, {13, 7, 1}, 4, 3)));
		std::set<uint64_t> seen;
		for (uint32_t mip = 0; mip < 4; ++mip) {
			const SubresourceLayout& l = layout.Level(0, mip);
			for (uint32_t layer = 0; layer < 3; ++layer)
				for (uint32_t y = 0; y < l.extent.height; ++y)
					for (uint32_t x = 0; x < l.extent.width; ++x) {
						uint64_t o = layout.Offset(0, mip, layer, x, y, 0);
						REQUIRE(o >= l.offset + layer * l.array_pitch);
						REQUIRE(o + l.element_size <= l.offset + layer * l.array_pitch + l.depth_pitch);
						REQUIRE(o % l.element_size == l.offset % l.element_size);
						REQUIRE(seen.insert(o).second);
					}
		}
	}
}

TEST_CASE("TiledOffset is the samplers' TexelOffset", "[texture][layout][tiled]") {
	ImageLayout layout;
	REQUIRE(layout.Init(Tiled(VK_FORMAT_R16G16_SFLOAT, VK_IMAGE_TYPE_2D, {19, 11, 1}, 2, 6)));
	std::vector<uint8_t> memory(layout.TotalSize());
	ImageViewState view;
	view.layout = &layout;
	view.memory = memory.data();
	view.format = VK_FORMAT_R16G16_SFLOAT;
	view.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	view.base_level = 0;
	view.level_count = 2;
	view.base_layer = 2;
	view.layer_count = 3;
	SampledImage image;
	REQUIRE(PrepareImage(view, &image));
	for (uint32_t mip = 0; mip < 2; ++mip) {
		const PreparedLevel& p = image.levels[mip];
		REQUIRE(p.tile_shift == 2);
		REQUIRE(p.row_pitch == layout.Level(0, mip).row_pitch);
		for (uint32_t layer = 0; layer < 3; ++layer)
			for (uint32_t y = 0; y < uint32_t(p.extent[1]); ++y)
				for (uint32_t x = 0; x < uint32_t(p.extent[0]); ++x)
					REQUIRE(p.base + layer * p.array_pitch + TexelOffset(p, x, y) ==
					        memory.data() + layout.Offset(0, mip, 2 + layer, x, y, 0));
	}
}

TEST_CASE("only single-sampled single-plane uncompressed 2D and 3D color images are tiled",
          "[texture][layout][tiled]") {
	struct Case {
		ImageDescription d;
		bool tiled;
	} cases[] = {
	    {Tiled(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 6), true},
	    {Tiled(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1, 4), false},
	    {Tiled(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, {8, 1, 1}, 1, 1), false},
	    {Tiled(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, {8, 8, 8}, 1, 1), true},
	    {Tiled(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1), false},
	    {Tiled(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1), false},
	    {Tiled(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1), false},
	    {Tiled(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1), false},
	    {Tiled(VK_FORMAT_G8B8G8R8_422_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1), false},
	};
	for (const Case& c : cases) {
		INFO("format " << c.d.format << " type " << c.d.type << " samples " << c.d.samples);
		REQUIRE(ImageLayout::CanTile(c.d) == c.tiled);
		ImageLayout layout;
		REQUIRE(layout.Init(c.d));
		REQUIRE(layout.Tiled() == c.tiled);
		for (uint32_t p = 0; p < layout.PlaneCount(); ++p) REQUIRE(layout.Level(p, 0).Tiled() == c.tiled);
	}
	// Without a request, nothing is tiled.
	ImageLayout rows;
	REQUIRE(rows.Init({VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1, 1}));
	REQUIRE_FALSE(rows.Tiled());
	REQUIRE(rows.Level(0, 0).row_pitch == 32);
}

TEST_CASE("3D images tile each slice", "[texture][layout][tiled]") {
	ImageLayout layout;
	REQUIRE(layout.Init(Tiled(VK_FORMAT_R16_UINT, VK_IMAGE_TYPE_3D, {9, 6, 5}, 2, 1)));
	const SubresourceLayout& l0 = layout.Level(0, 0);
	REQUIRE(l0.tile_shift == 2);
	REQUIRE(l0.row_pitch == 3 * 16 * 2);
	REQUIRE(l0.depth_pitch == 2 * l0.row_pitch);
	REQUIRE(l0.size == 5 * l0.depth_pitch);
	REQUIRE(layout.Offset(0, 0, 0, 5, 2, 3) == l0.offset + 3 * l0.depth_pitch + (16 + 2 * 4 + 1) * 2);
	const SubresourceLayout& l1 = layout.Level(0, 1);  // 4 x 3 x 2
	REQUIRE(l1.extent.depth == 2);
	REQUIRE(l1.depth_pitch == 16 * 2);
	REQUIRE(layout.Offset(0, 1, 0, 3, 2, 1) == l1.offset + l1.depth_pitch + (2 * 4 + 3) * 2);
}

TEST_CASE("runs of a tiled row end at tile edges", "[texture][layout][tiled]") {
	ImageLayout layout;
	REQUIRE(layout.Init(Tiled(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1)));
	const SubresourceLayout& l = layout.Level(0, 0);
	REQUIRE(l.RunFrom(0) == 4);
	REQUIRE(l.RunFrom(5) == 3);
	REQUIRE(l.RunFrom(7) == 1);
	// Inside a run the texels are adjacent.
	for (uint32_t x = 4; x < 7; ++x)
		REQUIRE(layout.Offset(0, 0, 0, x + 1, 9, 0) == layout.Offset(0, 0, 0, x, 9, 0) + 1);
	ImageLayout rows;
	REQUIRE(rows.Init({VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1, 1}));
	REQUIRE(rows.Level(0, 0).RunFrom(5) == UINT32_MAX);
}

TEST_CASE("rectangles copy between rows and tiles texel by texel", "[texture][layout][tiled]") {
	for (VkFormat format : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT}) {
		ImageLayout layout;
		REQUIRE(layout.Init(Tiled(format, VK_IMAGE_TYPE_2D, {23, 14, 1}, 1, 1)));
		const SubresourceLayout& l = layout.Level(0, 0);
		const uint32_t e = l.element_size;
		struct Rect {
			uint32_t x, y, w, h;
		} rects[] = {{0, 0, 23, 14}, {3, 5, 17, 6}, {4, 4, 4, 4}, {22, 13, 1, 1}, {1, 2, 2, 11}};
		for (const Rect& r : rects) {
			INFO("format " << format << " rect " << r.x << "," << r.y << " " << r.w << "x" << r.h);
			const uint64_t pitch = uint64_t(r.w + 3) * e;  // a row pitch wider than the rectangle
			std::vector<uint8_t> rows(pitch * r.h + 7);
			std::iota(rows.begin(), rows.end(), uint8_t(1));
			std::vector<uint8_t> memory(layout.TotalSize(), 0);
			RowsToTiles(l, memory.data() + l.offset, r.x, r.y, r.w, r.h, rows.data(), pitch);
			uint64_t written = 0;
			for (uint32_t y = 0; y < l.extent.height; ++y)
				for (uint32_t x = 0; x < l.extent.width; ++x) {
					const bool inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
					const uint8_t* t = memory.data() + layout.Offset(0, 0, 0, x, y, 0);
					for (uint32_t b = 0; b < e; ++b) {
						const uint8_t expected = inside ? rows[(y - r.y) * pitch + (x - r.x) * e + b] : 0;
						REQUIRE(t[b] == expected);
					}
					written += inside;
				}
			REQUIRE(written == uint64_t(r.w) * r.h);
			std::vector<uint8_t> back(rows.size(), 0);
			TilesToRows(l, memory.data() + l.offset, r.x, r.y, r.w, r.h, back.data(), pitch);
			for (uint32_t y = 0; y < r.h; ++y)
				for (uint64_t b = 0; b < uint64_t(r.w) * e; ++b) REQUIRE(back[y * pitch + b] == rows[y * pitch + b]);
		}
	}
}
