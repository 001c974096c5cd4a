// Sampled-only textures, which Tessera stores in 4x4 texel tiles (vk/image.cpp),
// through every command that reads or writes their memory: buffer copies
// with row lengths and offsets, copies to and from images kept in rows
// (color attachments), blits both ways and mip generation, clears of a
// sub-range, texelFetch. Compared with lavapipe: bit-exact except LINEAR
// blits (one unit per blit, as in blit_test.cpp: §20.6 filtering precision).
#include <catch2/catch.hpp>

#include <numeric>

#include "image_helpers.h"
#include "image_scene.h"

using namespace tessera::test;
using transfer::CompareWithLavapipe;
using transfer::DriverPair;
using transfer::Fill;

namespace {

constexpr VkImageUsageFlags kTexture =
    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
// A render target: kept in rows of texels.
constexpr VkImageUsageFlags kTarget =
    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

TestImage Make(Context& ctx, const transfer::ImageSpec& s, VkImageUsageFlags usage) {
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = s.format;
	ici.extent = s.extent;
	ici.mipLevels = s.mips;
	ici.arrayLayers = s.layers;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = usage;
	ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	return ctx.CreateImage(ici);
}

// Transfer writes before, transfer reads and writes after; layout unchanged
// (GENERAL: the same image is source and destination in some commands).
void Barrier(VkCommandBuffer cb) {
	VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0, nullptr, 0,
	                     nullptr);
}

// Every level and layer to the buffer, tightly packed from offset; returns the end.
VkDeviceSize ReadAll(VkCommandBuffer cb, const TestImage& image, const transfer::ImageSpec& s, const TestBuffer& out,
                     uint32_t texel_bytes, VkDeviceSize offset) {
	std::vector<VkBufferImageCopy> regions(s.mips);
	for (uint32_t m = 0; m < s.mips; ++m)
		offset += transfer::WholeLevel(s, m, VK_IMAGE_ASPECT_COLOR_BIT, texel_bytes, offset, &regions[m]);
	REQUIRE(offset <= out.size);
	vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, s.mips, regions.data());
	return offset;
}

// Every level and layer from random bytes in the staging buffer.
void UploadAll(Context& ctx, VkCommandBuffer cb, const TestImage& image, const transfer::ImageSpec& s,
               TestBuffer& staging, uint32_t texel_bytes, uint32_t seed) {
	transfer::RecordUpload(ctx, cb, image, s, staging, texel_bytes, Fill::Bytes, seed);
	ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
}

}  // namespace

TEST_CASE("odd-sized tiled textures round-trip through buffers with row lengths and offsets", "[tiled][transfer]") {
	DriverPair drivers;
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8_UINT, VK_FORMAT_R32G32B32A32_UINT}) {
		CAPTURE(format);
		const uint32_t bytes = format == VK_FORMAT_R8_UINT ? 1 : format == VK_FORMAT_R8G8B8A8_UNORM ? 4 : 16;
		CompareWithLavapipe(drivers, [&](Context& ctx) {
			transfer::ImageSpec s{format, {37, 23, 1}, VK_IMAGE_TYPE_2D, 3, 4};
			TestImage image = Make(ctx, s, kTexture);
			TestBuffer src = ctx.CreateBuffer(1 << 16), dst = ctx.CreateBuffer(1 << 17);
			transfer::FillRandom(src.data, src.size, 5);
			std::fill(dst.data, dst.data + dst.size, uint8_t(0xab));
			VkDeviceSize size = 0;
			ctx.Submit([&](VkCommandBuffer cb) {
				ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
				VkClearColorValue color{};
				color.uint32[0] = 3;
				color.uint32[1] = 200;
				color.float32[2] = 0.5f;
				VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 4, 0, 3};
				vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &all);
				Barrier(cb);
				VkBufferImageCopy up[3]{};
				up[0].bufferOffset = 4 * bytes;  // a multiple of the texel size (and of 4)
				up[0].bufferRowLength = 41;
				up[0].bufferImageHeight = 25;
				up[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 2};
				up[0].imageOffset = {3, 5, 0};
				up[0].imageExtent = {29, 15, 1};
				up[1].bufferOffset = 100 * bytes;
				up[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 3};
				up[1].imageOffset = {1, 1, 0};
				up[1].imageExtent = {7, 3, 1};
				up[2].bufferOffset = 1000 * bytes;
				up[2].bufferRowLength = 19;
				up[2].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
				up[2].imageOffset = {0, 0, 0};
				up[2].imageExtent = {18, 11, 1};
				vkCmdCopyBufferToImage(cb, src.buffer, image.image, VK_IMAGE_LAYOUT_GENERAL, 3, up);
				Barrier(cb);
				size = ReadAll(cb, image, s, dst, bytes, 0);
				// And a region read back with a row length and an offset.
				VkBufferImageCopy down{};
				down.bufferOffset = size + 8 * bytes;
				down.bufferRowLength = 13;
				down.bufferImageHeight = 9;
				down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 3};
				down.imageOffset = {22, 13, 0};
				down.imageExtent = {11, 7, 1};
				vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, dst.buffer, 1, &down);
				size = down.bufferOffset + 13 * 9 * 3 * bytes;
				ctx.TransferBarrier(cb);
			});
			REQUIRE(size <= dst.size);
			std::vector<uint8_t> out(dst.data, dst.data + size);
			ctx.Destroy(src);
			ctx.Destroy(dst);
			ctx.Destroy(image);
			return out;
		});
	}
}

TEST_CASE("copies between tiled textures and row images, also of other formats, match lavapipe", "[tiled][copy]") {
	CompareWithLavapipe([](Context& ctx) {
		// (format, extent, type, layers, levels)
		transfer::ImageSpec ts{VK_FORMAT_R8G8B8A8_UNORM, {37, 23, 1}, VK_IMAGE_TYPE_2D, 3, 2};
		transfer::ImageSpec rs{VK_FORMAT_R32_UINT, {29, 31, 1}, VK_IMAGE_TYPE_2D, 2, 2};  // same texel size
		TestImage tiled = Make(ctx, ts, kTexture), rows = Make(ctx, rs, kTarget);
		TestImage tiled2 = Make(ctx, ts, kTexture);
		TestBuffer staging = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 17);
		std::fill(out.data, out.data + out.size, uint8_t(0xab));
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			UploadAll(ctx, cb, tiled, ts, staging, 4, 21);
			Barrier(cb);
			UploadAll(ctx, cb, rows, rs, staging, 4, 22);
			Barrier(cb);
			UploadAll(ctx, cb, tiled2, ts, staging, 4, 23);
			Barrier(cb);
			auto sub = [](uint32_t mip, uint32_t layer, uint32_t count) {
				return VkImageSubresourceLayers{VK_IMAGE_ASPECT_COLOR_BIT, mip, layer, count};
			};
			// tiled -> rows, odd offsets and sizes, two layers.
			VkImageCopy a{sub(0, 1, 2), {5, 2, 0}, sub(0, 0, 2), {1, 7, 0}, {27, 19, 1}};
			vkCmdCopyImage(cb, tiled.image, VK_IMAGE_LAYOUT_GENERAL, rows.image, VK_IMAGE_LAYOUT_GENERAL, 1, &a);
			// rows -> tiled (level 1 of the rows into level 0 of the tiles).
			VkImageCopy b{sub(1, 0, 1), {3, 1, 0}, sub(0, 0, 1), {30, 9, 0}, {7, 13, 1}};
			vkCmdCopyImage(cb, rows.image, VK_IMAGE_LAYOUT_GENERAL, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1, &b);
			// tiled -> tiled, unaligned to tiles on both sides, other levels.
			VkImageCopy c{sub(1, 2, 1), {1, 2, 0}, sub(0, 1, 1), {6, 3, 0}, {17, 9, 1}};
			vkCmdCopyImage(cb, tiled.image, VK_IMAGE_LAYOUT_GENERAL, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &c);
			// Within one tiled image, between layers.
			VkImageCopy d{sub(0, 0, 1), {0, 0, 0}, sub(0, 2, 1), {4, 4, 0}, {33, 19, 1}};
			Barrier(cb);
			vkCmdCopyImage(cb, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, tiled2.image, VK_IMAGE_LAYOUT_GENERAL, 1, &d);
			Barrier(cb);
			size = ReadAll(cb, tiled, ts, out, 4, 0);
			size = ReadAll(cb, rows, rs, out, 4, size);
			size = ReadAll(cb, tiled2, ts, out, 4, size);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		ctx.Destroy(staging);
		ctx.Destroy(out);
		ctx.Destroy(tiled);
		ctx.Destroy(tiled2);
		ctx.Destroy(rows);
		return bytes;
	});
}

TEST_CASE("NEAREST blits from and to tiled textures match lavapipe exactly", "[tiled][blit]") {
	CompareWithLavapipe([](Context& ctx) {
		transfer::ImageSpec ts{VK_FORMAT_R8G8B8A8_UNORM, {37, 23, 1}, VK_IMAGE_TYPE_2D, 2, 2};
		transfer::ImageSpec rs{VK_FORMAT_R8G8B8A8_UNORM, {45, 17, 1}, VK_IMAGE_TYPE_2D, 2, 2};
		TestImage tiled = Make(ctx, ts, kTexture), rows = Make(ctx, rs, kTarget);
		TestBuffer staging = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			UploadAll(ctx, cb, tiled, ts, staging, 4, 31);
			Barrier(cb);
			UploadAll(ctx, cb, rows, rs, staging, 4, 32);
			Barrier(cb);
			VkImageBlit up{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2},
			               {{2, 1, 0}, {35, 22, 1}},
			               {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2},
			               {{44, 0, 0}, {1, 16, 1}}};  // scaled and mirrored in x
			vkCmdBlitImage(cb, tiled.image, VK_IMAGE_LAYOUT_GENERAL, rows.image, VK_IMAGE_LAYOUT_GENERAL, 1, &up,
			               VK_FILTER_NEAREST);
			VkImageBlit down{{VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1},
			                 {{0, 0, 0}, {22, 8, 1}},
			                 {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
			                 {{3, 21, 0}, {30, 2, 1}}};  // into part of the tiles, flipped in y
			vkCmdBlitImage(cb, rows.image, VK_IMAGE_LAYOUT_GENERAL, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1, &down,
			               VK_FILTER_NEAREST);
			Barrier(cb);
			size = ReadAll(cb, tiled, ts, out, 4, 0);
			size = ReadAll(cb, rows, rs, out, 4, size);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		ctx.Destroy(staging);
		ctx.Destroy(out);
		ctx.Destroy(tiled);
		ctx.Destroy(rows);
		return bytes;
	});
}

TEST_CASE("a mip chain of an odd-sized tiled texture generated by LINEAR blits matches lavapipe", "[tiled][blit]") {
	// One unit per blit (kRgba8OneUlp in blit_test.cpp), carried from level to level.
	const uint32_t levels = 6;
	CompareWithLavapipe(
	    [&](Context& ctx) {
		    transfer::ImageSpec s{VK_FORMAT_R8G8B8A8_UNORM, {37, 23, 1}, VK_IMAGE_TYPE_2D, 2, levels};
		    TestImage image = Make(ctx, s, kTexture);
		    TestBuffer staging = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
		    VkDeviceSize size = 0;
		    ctx.Submit([&](VkCommandBuffer cb) {
			    transfer::ImageSpec base = s;
			    base.mips = 1;
			    UploadAll(ctx, cb, image, base, staging, 4, 41);
			    for (uint32_t mip = 1; mip < levels; ++mip) {
				    Barrier(cb);
				    VkExtent3D from = transfer::MipExtent(s, mip - 1), to = transfer::MipExtent(s, mip);
				    VkImageBlit r{{VK_IMAGE_ASPECT_COLOR_BIT, mip - 1, 0, 2},
				                  {{0, 0, 0}, {int32_t(from.width), int32_t(from.height), 1}},
				                  {VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, 2},
				                  {{0, 0, 0}, {int32_t(to.width), int32_t(to.height), 1}}};
				    vkCmdBlitImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, image.image, VK_IMAGE_LAYOUT_GENERAL, 1,
				                   &r, VK_FILTER_LINEAR);
			    }
			    Barrier(cb);
			    size = ReadAll(cb, image, s, out, 4, 0);
			    ctx.TransferBarrier(cb);
		    });
		    std::vector<uint8_t> bytes(out.data, out.data + size);
		    ctx.Destroy(staging);
		    ctx.Destroy(out);
		    ctx.Destroy(image);
		    return bytes;
	    },
	    transfer::Channels(4, 8, levels - 1));
}

TEST_CASE("clearing a sub-range of a tiled texture leaves the rest", "[tiled][clear]") {
	CompareWithLavapipe([](Context& ctx) {
		transfer::ImageSpec s{VK_FORMAT_R16G16B16A16_UINT, {37, 23, 1}, VK_IMAGE_TYPE_2D, 4, 4};
		TestImage image = Make(ctx, s, kTexture);
		TestBuffer staging = ctx.CreateBuffer(1 << 17), out = ctx.CreateBuffer(1 << 17);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			UploadAll(ctx, cb, image, s, staging, 8, 51);
			Barrier(cb);
			VkClearColorValue color{};
			color.uint32[0] = 1;
			color.uint32[1] = 65535;
			color.uint32[2] = 300;
			color.uint32[3] = 7;
			VkImageSubresourceRange ranges[2] = {{VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 1, 2},
			                                     {VK_IMAGE_ASPECT_COLOR_BIT, 3, 1, 3, 1}};
			vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &color, 2, ranges);
			Barrier(cb);
			size = ReadAll(cb, image, s, out, 8, 0);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		ctx.Destroy(staging);
		ctx.Destroy(out);
		ctx.Destroy(image);
		return bytes;
	});
}

TEST_CASE("texelFetch and size queries of an odd-sized tiled texture match lavapipe exactly", "[tiled][image]") {
	image::Scene scene{"tiled_fetch.spv"};
	image::ImageSpec tex;
	tex.format = VK_FORMAT_R8G8B8A8_UINT;
	tex.extent = {37, 23, 1};
	tex.mips = 3;
	tex.layers = 2;
	tex.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	tex.data = image::RandomBytes(image::ImageBytes(tex), 61);
	scene.images = {tex};
	scene.samplers = {image::Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(6 * 37 * 23 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	scene.groups[0] = (37 * 23 + 63) / 64;
	auto [ours, reference] = image::RunBoth(scene);
	REQUIRE(ours.buffers[0].size() == reference.buffers[0].size());
	REQUIRE(ours.buffers[0] == reference.buffers[0]);
}

TEST_CASE("resolving into a tiled texture matches lavapipe", "[tiled][resolve]") {
	CompareWithLavapipe([](Context& ctx) {
		VkImageCreateInfo ms{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		ms.imageType = VK_IMAGE_TYPE_2D;
		ms.format = VK_FORMAT_R8G8B8A8_UNORM;
		ms.extent = {29, 19, 1};
		ms.mipLevels = 1;
		ms.arrayLayers = 2;
		ms.samples = VK_SAMPLE_COUNT_4_BIT;
		ms.tiling = VK_IMAGE_TILING_OPTIMAL;
		ms.usage =
		    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
		ms.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		TestImage source = ctx.CreateImage(ms);
		transfer::ImageSpec ts{VK_FORMAT_R8G8B8A8_UNORM, {37, 23, 1}, VK_IMAGE_TYPE_2D, 2, 2};
		TestImage tiled = Make(ctx, ts, kTexture), rows = Make(ctx, ts, kTarget);
		TestBuffer staging = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			UploadAll(ctx, cb, tiled, ts, staging, 4, 71);
			Barrier(cb);
			UploadAll(ctx, cb, rows, ts, staging, 4, 71);
			ctx.Transition(cb, source.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
			for (uint32_t layer = 0; layer < 2; ++layer) {
				VkClearColorValue color{{0.25f + 0.5f * float(layer), 0.5f, 1.0f - 0.5f * float(layer), 1.0f}};
				VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
				vkCmdClearColorImage(cb, source.image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
			}
			Barrier(cb);
			VkImageResolve r{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2},
			                 {3, 2, 0},
			                 {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2},
			                 {5, 7, 0},
			                 {21, 13, 1}};
			vkCmdResolveImage(cb, source.image, VK_IMAGE_LAYOUT_GENERAL, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1, &r);
			VkImageResolve level1{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1},
			                      {0, 0, 0},
			                      {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1},
			                      {1, 2, 0},
			                      {17, 9, 1}};
			vkCmdResolveImage(cb, source.image, VK_IMAGE_LAYOUT_GENERAL, tiled.image, VK_IMAGE_LAYOUT_GENERAL, 1,
			                  &level1);
			vkCmdResolveImage(cb, source.image, VK_IMAGE_LAYOUT_GENERAL, rows.image, VK_IMAGE_LAYOUT_GENERAL, 1, &r);
			Barrier(cb);
			size = ReadAll(cb, tiled, ts, out, 4, 0);
			size = ReadAll(cb, rows, ts, out, 4, size);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		ctx.Destroy(staging);
		ctx.Destroy(out);
		ctx.Destroy(source);
		ctx.Destroy(tiled);
		ctx.Destroy(rows);
		return bytes;
	});
}
