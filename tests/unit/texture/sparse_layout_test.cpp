// Partially resident image layouts (ImageDescription::sparse_residency,
// texture::SparseBlock): the block shapes, and that each block is 64 KiB of
// whole pages holding exactly the texels of its rectangle, so that a
// residency bind (vkQueueBindSparse, vk/image.cpp) maps one block's memory
// and nothing else.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "texture/image_layout.h"

using namespace tessera::texture;

namespace {

constexpr uint64_t kPage = 4096;

struct Shape {
	VkFormat format;
	VkImageType type;
	VkExtent3D block;
	bool standard;
};

// The standard 2D shapes (Vulkan "Standard Sparse Image Block Shapes") and
// the custom 3D ones: tiles of 64x64 texels in 16 to 1 slices.
constexpr Shape kShapes[] = {
    {VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {256, 256, 1}, true},
    {VK_FORMAT_R16_SFLOAT, VK_IMAGE_TYPE_2D, {256, 128, 1}, true},
    {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {128, 128, 1}, true},
    {VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_TYPE_2D, {128, 64, 1}, true},
    {VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_TYPE_2D, {64, 64, 1}, true},
    {VK_FORMAT_R8_UINT, VK_IMAGE_TYPE_3D, {64, 64, 16}, false},
    {VK_FORMAT_R8G8_UNORM, VK_IMAGE_TYPE_3D, {64, 64, 8}, false},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_IMAGE_TYPE_3D, {64, 64, 4}, false},
    {VK_FORMAT_R32G32_SFLOAT, VK_IMAGE_TYPE_3D, {64, 64, 2}, false},
    {VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_3D, {64, 64, 1}, false},
};

}  // namespace

TEST_CASE("sparse blocks have the standard shapes in 2D, and 64x64 tiles in 3D", "[texture][layout][sparse]") {
	for (const Shape& shape : kShapes) {
		INFO("format " << shape.format << " type " << shape.type);
		SparseBlock block;
		REQUIRE(ImageLayout::SparseBlockOf(shape.format, shape.type, &block));
		CHECK(block.extent.width == shape.block.width);
		CHECK(block.extent.height == shape.block.height);
		CHECK(block.extent.depth == shape.block.depth);
		CHECK(block.standard == shape.standard);
	}
	SparseBlock block;
	// No block: 1D, depth/stencil, compressed, multi-planar, 3-byte and
	// 32-byte texels.
	CHECK_FALSE(ImageLayout::SparseBlockOf(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, &block));
	for (VkFormat format :
	     {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
	      VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R64G64B64A64_SFLOAT}) {
		INFO("format " << format);
		CHECK_FALSE(ImageLayout::SparseBlockOf(format, VK_IMAGE_TYPE_2D, &block));
	}
}

TEST_CASE("each sparse block is 64 KiB of whole pages holding exactly its texels", "[texture][layout][sparse]") {
	// Extents that are and are not multiples of the blocks, several levels
	// (down to 1x1) and layers.
	for (const Shape& shape : kShapes) {
		const bool is_3d = shape.type == VK_IMAGE_TYPE_3D;
		for (const VkExtent3D extent :
		     {VkExtent3D{shape.block.width * 2, shape.block.height, is_3d ? shape.block.depth : 1},
		      VkExtent3D{shape.block.width + 3, shape.block.height * 2 - 5, is_3d ? 19u : 1u}}) {
			INFO("format " << shape.format << " type " << shape.type << " extent " << extent.width << "x"
			               << extent.height << "x" << extent.depth);
			ImageDescription d{shape.format, shape.type, extent, 4, is_3d ? 1u : 3u, 1};
			d.sparse_residency = true;
			ImageLayout layout;
			REQUIRE(layout.Init(d));
			REQUIRE(layout.Sparse());
			REQUIRE(layout.TotalSize() % SparseBlock::kSize == 0);
			const SparseBlock& block = *layout.Sparse();
			// Page -> the block that holds it (level, layer, x, y, z).
			std::map<uint64_t, std::vector<uint32_t>> owner;
			for (uint32_t mip = 0; mip < d.mip_levels; ++mip) {
				const SubresourceLayout& level = layout.Level(0, mip);
				CHECK(level.offset % SparseBlock::kSize == 0);
				const VkExtent3D count = layout.SparseBlockCount(mip);
				for (uint32_t layer = 0; layer < d.array_layers; ++layer)
					for (uint32_t bz = 0; bz < count.depth; ++bz)
						for (uint32_t by = 0; by < count.height; ++by)
							for (uint32_t bx = 0; bx < count.width; ++bx) {
								const SparseBlockBytes bytes = layout.BlockBytes(mip, layer, bx, by, bz);
								REQUIRE(bytes.size * bytes.count == SparseBlock::kSize);
								REQUIRE(bytes.size % kPage == 0);
								for (uint32_t c = 0; c < bytes.count; ++c) {
									const uint64_t run = bytes.offset + c * bytes.stride;
									REQUIRE(run % kPage == 0);
									REQUIRE(run + bytes.size <= layout.TotalSize());
									for (uint64_t page = run; page < run + bytes.size; page += kPage) {
										INFO("page " << page << " of level " << mip << " layer " << layer << " block "
										             << bx << "," << by << "," << bz);
										REQUIRE(
										    owner.emplace(page, std::vector<uint32_t>{mip, layer, bx, by, bz}).second);
									}
								}
							}
				// Every texel of the level lies in its block's pages.
				for (uint32_t layer = 0; layer < d.array_layers; ++layer)
					for (uint32_t z = 0; z < level.extent.depth; ++z)
						for (uint32_t y = 0; y < level.extent.height; ++y)
							for (uint32_t x = 0; x < level.extent.width; ++x) {
								const uint64_t offset = layout.Offset(0, mip, layer, x, y, z);
								const auto it = owner.find(offset / kPage * kPage);
								REQUIRE(it != owner.end());
								const std::vector<uint32_t> expected{mip, layer, x / block.extent.width,
								                                     y / block.extent.height, z / block.extent.depth};
								if (it->second != expected) {
									INFO("texel " << x << "," << y << "," << z << " of level " << mip << " layer "
									              << layer);
									REQUIRE(it->second == expected);
								}
							}
			}
		}
	}
}
