#include <catch2/catch.hpp>

#include "texture/image_layout.h"

using namespace tessera::texture;

TEST_CASE("a 2D color image is levels of tightly packed rows", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 8, 1}, 3, 2, 1}));
	REQUIRE(layout.PlaneCount() == 1);
	const SubresourceLayout& l0 = layout.Level(0, 0);
	REQUIRE(l0.row_pitch == 64);
	REQUIRE(l0.depth_pitch == 64 * 8);
	REQUIRE(l0.array_pitch == 64 * 8);
	const SubresourceLayout& l2 = layout.Level(0, 2);
	REQUIRE(l2.extent.width == 4);
	REQUIRE(l2.extent.height == 2);
	REQUIRE(l2.offset % ImageLayout::kAlignment == 0);
	REQUIRE(layout.Offset(0, 2, 1, 1, 1, 0) == l2.offset + l2.array_pitch + l2.row_pitch + 4);
	REQUIRE(layout.TotalSize() >= l2.offset + l2.size);
}

TEST_CASE("combined depth/stencil formats keep depth and stencil in separate planes", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, {5, 3, 1}, 1, 1, 1}));
	REQUIRE(layout.PlaneCount() == 2);
	REQUIRE(layout.PlaneOf(VK_IMAGE_ASPECT_DEPTH_BIT) == 0);
	REQUIRE(layout.PlaneOf(VK_IMAGE_ASPECT_STENCIL_BIT) == 1);
	REQUIRE(layout.Level(0, 0).element_size == 4);
	REQUIRE(layout.Level(1, 0).element_size == 1);
	REQUIRE(layout.Level(1, 0).row_pitch == 5);

	ImageLayout d32s8;
	REQUIRE(d32s8.Init({VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, 1}));
	REQUIRE(d32s8.Level(0, 0).element_size == 4);
	REQUIRE(d32s8.Level(1, 0).element_size == 1);
}

TEST_CASE("compressed images are addressed in blocks, partial blocks included", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {10, 6, 1}, 2, 1, 1}));
	const SubresourceLayout& l0 = layout.Level(0, 0);
	REQUIRE(l0.block_extent.width == 4);
	REQUIRE(l0.row_pitch == 3 * 8);        // ceil(10 / 4) blocks of 8 bytes
	REQUIRE(l0.depth_pitch == 2 * 3 * 8);  // ceil(6 / 4) rows
	const SubresourceLayout& l1 = layout.Level(0, 1);
	REQUIRE(l1.extent.width == 5);
	REQUIRE(l1.row_pitch == 2 * 8);
}

TEST_CASE("3D images have slices, not layers", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, {4, 4, 4}, 2, 1, 1}));
	REQUIRE(layout.Level(0, 0).size == 4 * 4 * 4 * 4);
	REQUIRE(layout.Level(0, 1).extent.depth == 2);
	REQUIRE(layout.Offset(0, 0, 0, 0, 0, 3) == layout.Level(0, 0).offset + 3 * 64);
}

TEST_CASE("multisampled texels keep their samples adjacent", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1, 4}));
	REQUIRE(layout.Level(0, 0).row_pitch == 4 * 4 * 4);
	REQUIRE(layout.Offset(0, 0, 0, 1, 0, 0, 2) == layout.Level(0, 0).offset + (1 * 4 + 2) * 4);
}

TEST_CASE("2-plane 4:2:0 images halve the chroma plane", "[texture][layout]") {
	ImageLayout layout;
	REQUIRE(layout.Init({VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_TYPE_2D, {8, 4, 1}, 1, 1, 1}));
	REQUIRE(layout.PlaneCount() == 2);
	REQUIRE(layout.Level(0, 0).row_pitch == 8);
	REQUIRE(layout.Level(1, 0).extent.width == 4);
	REQUIRE(layout.Level(1, 0).extent.height == 2);
	REQUIRE(layout.Level(1, 0).row_pitch == 8);  // 4 texels of R8G8
}
