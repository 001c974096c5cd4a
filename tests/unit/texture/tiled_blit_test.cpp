// Blits read and write tiled surfaces (BlitSurface::tile_shift) in place:
// each conversion path gives the same texels as between rows of texels.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "texture/blit.h"
#include "texture/image_layout.h"

using namespace tessera::texture;

namespace {

// One level of a 2D image in rows or tiles, with texel access through ImageLayout.
struct Surface {
	ImageLayout layout;
	std::vector<uint8_t> bytes;
	BlitSurface view;
	Surface(VkFormat format, uint32_t w, uint32_t h, bool tiled) {
		ImageDescription d{format, VK_IMAGE_TYPE_2D, {w, h, 1}, 1, 1, 1};
		d.tile_shift = tiled ? 2 : 0;
		REQUIRE(layout.Init(d));
		REQUIRE(layout.Tiled() == tiled);
		bytes.assign(layout.TotalSize(), 0);
		const SubresourceLayout& l = layout.Level(0, 0);
		view.data = bytes.data() + l.offset;
		view.row_pitch = l.row_pitch;
		view.tile_shift = l.tile_shift;
		view.slice_pitch = l.depth_pitch;
		view.width = w;
		view.height = h;
		view.format = FindFormat(format);
		view.element_size = l.element_size;
	}
	uint8_t* At(uint32_t x, uint32_t y) { return bytes.data() + layout.Offset(0, 0, 0, x, y, 0); }
};

void Fill(Surface& s, uint32_t seed) {
	uint32_t v = seed * 2654435761u + 1;
	for (uint32_t y = 0; y < s.view.height; ++y)
		for (uint32_t x = 0; x < s.view.width; ++x)
			for (uint32_t b = 0; b < s.view.element_size; ++b) {
				v ^= v << 13, v ^= v >> 17, v ^= v << 5;
				s.At(x, y)[b] = uint8_t(v >> 24);
			}
}

}  // namespace

TEST_CASE("blits from and to tiled surfaces match blits between rows", "[texture][blit][tiled]") {
	struct Case {
		VkFormat src, dst;
		BlitFilter filter;
	} cases[] = {
	    {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, BlitFilter::Nearest},  // Copy
	    {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, BlitFilter::Linear},   // Float, fast codec
	    {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT, BlitFilter::Nearest},
	    {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R16G16_UINT, BlitFilter::Nearest},  // Integer
	    {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R8_UNORM, BlitFilter::Linear},
	};
	const BlitRegion regions[] = {
	    {{{0, 0, 0}, {37, 23, 1}}, {{0, 0, 0}, {18, 11, 1}}},  // a mip level
	    {{{2, 1, 0}, {35, 22, 1}}, {{44, 1, 0}, {1, 16, 1}}},  // scaled up and flipped in x
	    {{{30, 20, 0}, {3, 2, 1}}, {{5, 3, 0}, {13, 17, 1}}},  // flipped source
	};
	for (const Case& c : cases)
		for (const BlitRegion& region : regions) {
			INFO("formats " << c.src << " -> " << c.dst << " filter " << int(c.filter));
			BlitConversion conversion = ChooseBlitConversion(*FindFormat(c.src), *FindFormat(c.dst), c.filter);
			REQUIRE(conversion != BlitConversion::Invalid);
			Surface src_rows(c.src, 37, 23, false), src_tiles(c.src, 37, 23, true);
			// The reference (rows to rows), then tiles to tiles, tiles to rows, rows to tiles.
			Surface dst_rows(c.dst, 45, 17, false), dst_tt(c.dst, 45, 17, true), dst_tr(c.dst, 45, 17, false),
			    dst_rt(c.dst, 45, 17, true);
			if (c.src == VK_FORMAT_R32_SFLOAT) {  // finite floats in [0, 1)
				for (uint32_t y = 0; y < 23; ++y)
					for (uint32_t x = 0; x < 37; ++x) {
						float f = float((x * 7 + y * 13) % 64) / 64.0f;
						std::memcpy(src_rows.At(x, y), &f, 4);
					}
			} else {
				Fill(src_rows, 1);
			}
			Fill(dst_rows, 2);
			const uint32_t se = src_rows.view.element_size, de = dst_rows.view.element_size;
			for (uint32_t y = 0; y < 23; ++y)
				for (uint32_t x = 0; x < 37; ++x) std::memcpy(src_tiles.At(x, y), src_rows.At(x, y), se);
			for (Surface* d : {&dst_tt, &dst_tr, &dst_rt})
				for (uint32_t y = 0; y < 17; ++y)
					for (uint32_t x = 0; x < 45; ++x) std::memcpy(d->At(x, y), dst_rows.At(x, y), de);
			BlitSurfaceRegion(src_rows.view, dst_rows.view, region, c.filter, conversion);
			BlitSurfaceRegion(src_tiles.view, dst_tt.view, region, c.filter, conversion);
			BlitSurfaceRegion(src_tiles.view, dst_tr.view, region, c.filter, conversion);
			BlitSurfaceRegion(src_rows.view, dst_rt.view, region, c.filter, conversion);
			for (Surface* d : {&dst_tt, &dst_tr, &dst_rt})
				for (uint32_t y = 0; y < 17; ++y)
					for (uint32_t x = 0; x < 45; ++x) REQUIRE(std::memcmp(d->At(x, y), dst_rows.At(x, y), de) == 0);
		}
}

TEST_CASE("blits between rows and tiles go both ways", "[texture][blit][tiled]") {
	Surface rows(VK_FORMAT_R8G8B8A8_UNORM, 37, 23, false), tiles(VK_FORMAT_R8G8B8A8_UNORM, 37, 23, true);
	Fill(rows, 3);
	const BlitRegion whole{{{0, 0, 0}, {37, 23, 1}}, {{0, 0, 0}, {37, 23, 1}}};
	BlitSurfaceRegion(rows.view, tiles.view, whole, BlitFilter::Nearest, BlitConversion::Copy);
	for (uint32_t y = 0; y < 23; ++y)
		for (uint32_t x = 0; x < 37; ++x) REQUIRE(std::memcmp(tiles.At(x, y), rows.At(x, y), 4) == 0);
	Surface back(VK_FORMAT_R8G8B8A8_UNORM, 37, 23, false);
	BlitSurfaceRegion(tiles.view, back.view, whole, BlitFilter::Linear, BlitConversion::Float);
	for (uint32_t y = 0; y < 23; ++y)
		for (uint32_t x = 0; x < 37; ++x) REQUIRE(std::memcmp(back.At(x, y), rows.At(x, y), 4) == 0);
}
