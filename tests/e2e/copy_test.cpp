// Image copies on Tessera compared byte for byte with lavapipe (Vulkan 1.3
// §20.3 and §20.4 leave them no freedom): depth and stencil aspects,
// compressed formats in blocks, 3D images, layers <-> slices and copies
// between size-compatible formats.
#include <catch2/catch.hpp>

#include "image_helpers.h"

using namespace tessera::test;
using namespace tessera::test::transfer;

namespace {

constexpr VkImageAspectFlags kDepthStencil = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;

struct DepthFormat {
	VkFormat format;
	VkImageAspectFlags aspects;
	Fill fill;  // of the depth aspect
};

const DepthFormat kDepthFormats[] = {
    {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Bytes},
    {VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Depth24},
    {VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT, Fill::Depth32},
    {VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, Fill::Bytes},
    {VK_FORMAT_D16_UNORM_S8_UINT, kDepthStencil, Fill::Bytes},
    {VK_FORMAT_D24_UNORM_S8_UINT, kDepthStencil, Fill::Depth24},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, kDepthStencil, Fill::Depth32},
};

void Append(std::vector<uint8_t>& to, const std::vector<uint8_t>& bytes) {
	to.insert(to.end(), bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("depth and stencil aspects copy through buffers and between images", "[copy][depth]") {
	DriverPair drivers;
	for (const DepthFormat& f : kDepthFormats) {
		CAPTURE(f.format);
		CompareWithLavapipe(drivers, [&](Context& ctx) -> std::vector<uint8_t> {
			if (!Supports(ctx, f.format, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
				return {};
			const uint32_t w = 13, h = 9;
			ImageSpec spec{f.format, {w, h, 1}, VK_IMAGE_TYPE_2D, 2, 2, f.aspects};
			TestImage a = MakeImage(ctx, spec), b = MakeImage(ctx, spec);
			TestBuffer up_a = ctx.CreateBuffer(1 << 16), up_b = ctx.CreateBuffer(1 << 16);
			TestBuffer part = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 17);
			VkDeviceSize size_a = 0, size_b = 0;
			ctx.Submit([&](VkCommandBuffer cb) {
				RecordUpload(ctx, cb, a, spec, up_a, 4, f.fill, 11);
				RecordUpload(ctx, cb, b, spec, up_b, 4, f.fill, 12);
				ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				               f.aspects);
				// A part of each aspect of layer 1 again, with a row length and
				// image height in texels and an offset into the buffer (§20.4).
				std::vector<VkBufferImageCopy> regions;
				VkDeviceSize offset = 0;
				for (VkImageAspectFlags left = f.aspects; left; left &= left - 1) {
					auto aspect = VkImageAspectFlagBits(left & (~left + 1));
					uint32_t bytes = AspectBytes(f.format, aspect, 4);
					VkBufferImageCopy r{};
					r.bufferOffset = offset + 4 * bytes;
					r.bufferRowLength = w + 3;
					r.bufferImageHeight = h + 1;
					r.imageSubresource = {VkImageAspectFlags(aspect), 0, 1, 1};
					r.imageOffset = {2, 1, 0};
					r.imageExtent = {w - 4, h - 3, 1};
					VkDeviceSize size = VkDeviceSize(w + 3) * (h + 1) * bytes + 4 * bytes;
					FillTexels(part.data + offset, size, aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? Fill::Bytes : f.fill,
					           20 + aspect);
					regions.push_back(r);
					offset = (offset + size + 15) / 16 * 16;
				}
				vkCmdCopyBufferToImage(cb, part.buffer, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				                       uint32_t(regions.size()), regions.data());
				ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
				               f.aspects);
				ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				               f.aspects);
				// All aspects in one image-to-image region, both layers, and a
				// second region from mip 1.
				VkImageCopy copies[2]{};
				copies[0].srcSubresource = {f.aspects, 0, 0, 2};
				copies[0].srcOffset = {1, 2, 0};
				copies[0].dstSubresource = {f.aspects, 0, 0, 2};
				copies[0].dstOffset = {3, 0, 0};
				copies[0].extent = {w - 4, h - 3, 1};
				copies[1].srcSubresource = {f.aspects, 1, 1, 1};
				copies[1].dstSubresource = {f.aspects, 1, 0, 1};
				copies[1].dstOffset = {1, 1, 0};
				copies[1].extent = {5, 3, 1};
				vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
				               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, copies);
				ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
				               f.aspects);
				size_a = RecordReadback(cb, a, spec, 0, out, 4);
				size_b = RecordReadback(cb, b, spec, 0, out, 4, 1, 1 << 16);
				ctx.TransferBarrier(cb);
			});
			std::vector<uint8_t> bytes = TakeBytes(out, size_a, spec);
			TestBuffer second = out;
			second.data += 1 << 16;
			Append(bytes, TakeBytes(second, size_b - (1 << 16), spec));
			for (TestBuffer* buffer : {&up_a, &up_b, &part, &out}) ctx.Destroy(*buffer);
			ctx.Destroy(a);
			ctx.Destroy(b);
			return bytes;
		});
	}
}

TEST_CASE("compressed images copy in whole blocks, partial blocks at the edges", "[copy][compressed]") {
	struct Compressed {
		VkFormat format;
		uint32_t block_width, block_height, block_bytes;
		VkFormat same_size;  // an uncompressed format with one texel per block
	};
	const Compressed formats[] = {
	    {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 4, 4, 8, VK_FORMAT_R32G32_UINT},
	    {VK_FORMAT_BC3_SRGB_BLOCK, 4, 4, 16, VK_FORMAT_R32G32B32A32_UINT},
	    {VK_FORMAT_BC7_UNORM_BLOCK, 4, 4, 16, VK_FORMAT_R32G32B32A32_SFLOAT},
	    {VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 4, 4, 16, VK_FORMAT_R32G32B32A32_UINT},
	    {VK_FORMAT_EAC_R11_UNORM_BLOCK, 4, 4, 8, VK_FORMAT_R16G16B16A16_UINT},
	    {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, 16, VK_FORMAT_R32G32B32A32_UINT},
	    {VK_FORMAT_ASTC_8x6_SRGB_BLOCK, 8, 6, 16, VK_FORMAT_R32G32B32A32_UINT},
	};
	DriverPair drivers;
	for (const Compressed& f : formats) {
		CAPTURE(f.format);
		CompareWithLavapipe(drivers, [&](Context& ctx) -> std::vector<uint8_t> {
			VkFormatFeatureFlags transfer = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
			if (!Supports(ctx, f.format, transfer) || !Supports(ctx, f.same_size, transfer)) return {};
			const uint32_t bw = f.block_width, bh = f.block_height;
			// Not a whole number of blocks: the last column and row are partial.
			ImageSpec spec{f.format, {3 * bw + 1, 2 * bh + 3, 1}, VK_IMAGE_TYPE_2D, 2, 3, VK_IMAGE_ASPECT_COLOR_BIT, bw,
			               bh};
			ImageSpec plain{f.same_size, {4, 3, 1}, VK_IMAGE_TYPE_2D, 2, 1};
			TestImage a = MakeImage(ctx, spec), b = MakeImage(ctx, spec), u = MakeImage(ctx, plain);
			TestBuffer up_a = ctx.CreateBuffer(1 << 16), up_b = ctx.CreateBuffer(1 << 16),
			           up_u = ctx.CreateBuffer(1 << 16), part = ctx.CreateBuffer(1 << 16),
			           out = ctx.CreateBuffer(1 << 18);
			VkDeviceSize size = 0;
			ctx.Submit([&](VkCommandBuffer cb) {
				RecordUpload(ctx, cb, a, spec, up_a, f.block_bytes, Fill::Bytes, 31);
				RecordUpload(ctx, cb, b, spec, up_b, f.block_bytes, Fill::Bytes, 32);
				RecordUpload(ctx, cb, u, plain, up_u, f.block_bytes, Fill::Bytes, 33);
				ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				// From the second block column and row to the edge of level 0 of
				// layer 1, with row length and image height in texels.
				FillRandom(part.data, part.size, 34);
				VkBufferImageCopy r{};
				r.bufferOffset = 2 * f.block_bytes;
				r.bufferRowLength = 5 * bw;
				r.bufferImageHeight = 4 * bh;
				r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1};
				r.imageOffset = {int32_t(bw), int32_t(bh), 0};
				r.imageExtent = {2 * bw + 1, bh + 3, 1};
				vkCmdCopyBufferToImage(cb, part.buffer, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
				ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
				ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				ctx.Transition(cb, u.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
				// Compressed -> compressed, to the partial edge blocks; the
				// whole of mip 2 (smaller than one block).
				VkImageCopy copies[2]{};
				copies[0].srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
				copies[0].srcOffset = {int32_t(bw), int32_t(bh), 0};
				copies[0].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
				copies[0].dstOffset = {int32_t(bw), int32_t(bh), 0};
				copies[0].extent = {2 * bw + 1, bh + 3, 1};
				VkExtent3D mip2 = MipExtent(spec, 2);
				copies[1].srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 1, 1};
				copies[1].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 1};
				copies[1].extent = mip2;
				vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
				               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, copies);
				// Uncompressed -> compressed: the extent is in source texels,
				// one texel per block (§20.3).
				VkImageCopy to_blocks{};
				to_blocks.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
				to_blocks.srcOffset = {1, 0, 0};
				to_blocks.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1};
				to_blocks.extent = {1, 1, 1};
				vkCmdCopyImage(cb, u.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
				               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &to_blocks);
				to_blocks.srcOffset = {0, 1, 0};
				to_blocks.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1};
				to_blocks.dstOffset = {int32_t(bw), 0, 0};
				to_blocks.extent = {2, 2, 1};
				vkCmdCopyImage(cb, u.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
				               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &to_blocks);
				ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
				ctx.Transition(cb, u.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
				// Compressed -> uncompressed: the extent is in source texels
				// (partial blocks included).
				VkImageCopy from_blocks{};
				from_blocks.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
				from_blocks.srcOffset = {int32_t(2 * bw), 0, 0};
				from_blocks.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
				from_blocks.dstOffset = {2, 0, 0};
				from_blocks.extent = {bw + 1, 2 * bh + 3, 1};
				vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, u.image,
				               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &from_blocks);
				ctx.Transition(cb, u.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
				VkDeviceSize end = RecordReadback(cb, a, spec, 0, out, f.block_bytes, 3);
				end = RecordReadback(cb, b, spec, 0, out, f.block_bytes, 3, end);
				size = RecordReadback(cb, u, plain, 0, out, f.block_bytes, 1, end);
				ctx.TransferBarrier(cb);
			});
			std::vector<uint8_t> bytes(out.data, out.data + size);
			for (TestBuffer* buffer : {&up_a, &up_b, &up_u, &part, &out}) ctx.Destroy(*buffer);
			ctx.Destroy(a);
			ctx.Destroy(b);
			ctx.Destroy(u);
			return bytes;
		});
	}
}

TEST_CASE("3D images copy slices through buffers and between images", "[copy][3d]") {
	CompareWithLavapipe([](Context& ctx) {
		ImageSpec spec{VK_FORMAT_R8G8B8A8_UINT, {9, 7, 5}, VK_IMAGE_TYPE_3D, 1, 2};
		TestImage a = MakeImage(ctx, spec), b = MakeImage(ctx, spec);
		TestBuffer up_a = ctx.CreateBuffer(1 << 16), up_b = ctx.CreateBuffer(1 << 16), part = ctx.CreateBuffer(1 << 16),
		           out = ctx.CreateBuffer(1 << 16);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			RecordUpload(ctx, cb, a, spec, up_a, 4, Fill::Bytes, 41);
			RecordUpload(ctx, cb, b, spec, up_b, 4, Fill::Bytes, 42);
			ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			FillRandom(part.data, part.size, 43);
			VkBufferImageCopy r{};
			r.bufferOffset = 12;
			r.bufferRowLength = 11;
			r.bufferImageHeight = 8;
			r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			r.imageOffset = {1, 2, 1};
			r.imageExtent = {6, 4, 3};
			vkCmdCopyBufferToImage(cb, part.buffer, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
			ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkImageCopy copies[2]{};
			copies[0].srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			copies[0].srcOffset = {0, 1, 2};
			copies[0].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			copies[0].dstOffset = {3, 0, 0};
			copies[0].extent = {6, 6, 3};
			copies[1].srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
			copies[1].dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
			copies[1].dstOffset = {1, 0, 1};
			copies[1].extent = {3, 3, 1};
			vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, copies);
			ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkDeviceSize end = RecordReadback(cb, a, spec, 0, out, 4, 2);
			// A sub-box of b read back with a row length and image height.
			VkBufferImageCopy down{};
			down.bufferOffset = end + 8;
			down.bufferRowLength = 10;
			down.bufferImageHeight = 7;
			down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			down.imageOffset = {2, 1, 1};
			down.imageExtent = {7, 6, 4};
			std::fill(out.data + end, out.data + out.size, uint8_t(0xcd));
			vkCmdCopyImageToBuffer(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &down);
			size = end + 8 + 10 * 7 * 4 * 4;
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		for (TestBuffer* buffer : {&up_a, &up_b, &part, &out}) ctx.Destroy(*buffer);
		ctx.Destroy(a);
		ctx.Destroy(b);
		return bytes;
	});
}

TEST_CASE("2D array layers copy to 3D slices and back", "[copy][3d]") {
	CompareWithLavapipe([](Context& ctx) {
		ImageSpec array{VK_FORMAT_R16G16_UINT, {8, 6, 1}, VK_IMAGE_TYPE_2D, 5};
		ImageSpec volume{VK_FORMAT_R16G16_UINT, {8, 6, 4}, VK_IMAGE_TYPE_3D};
		TestImage a = MakeImage(ctx, array), v = MakeImage(ctx, volume), c = MakeImage(ctx, array);
		TestBuffer up_a = ctx.CreateBuffer(1 << 16), up_v = ctx.CreateBuffer(1 << 16), up_c = ctx.CreateBuffer(1 << 16),
		           out = ctx.CreateBuffer(1 << 16);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			RecordUpload(ctx, cb, a, array, up_a, 4, Fill::Bytes, 51);
			RecordUpload(ctx, cb, v, volume, up_v, 4, Fill::Bytes, 52);
			RecordUpload(ctx, cb, c, array, up_c, 4, Fill::Bytes, 53);
			ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			ctx.Transition(cb, v.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			// Layers 1..3 -> slices 1..3 (maintenance1: depth counts layers).
			VkImageCopy to_volume{};
			to_volume.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 3};
			to_volume.srcOffset = {1, 1, 0};
			to_volume.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			to_volume.dstOffset = {0, 2, 1};
			to_volume.extent = {6, 4, 3};
			vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, v.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &to_volume);
			ctx.Transition(cb, v.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			ctx.Transition(cb, c.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			// Slices 0..1 -> layers 3..4.
			VkImageCopy to_layers{};
			to_layers.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			to_layers.srcOffset = {0, 0, 0};
			to_layers.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 2};
			to_layers.dstOffset = {2, 0, 0};
			to_layers.extent = {5, 6, 2};
			vkCmdCopyImage(cb, v.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &to_layers);
			ctx.Transition(cb, c.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkDeviceSize end = RecordReadback(cb, v, volume, 0, out, 4);
			size = RecordReadback(cb, c, array, 0, out, 4, 1, end);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		for (TestBuffer* buffer : {&up_a, &up_v, &up_c, &out}) ctx.Destroy(*buffer);
		ctx.Destroy(a);
		ctx.Destroy(v);
		ctx.Destroy(c);
		return bytes;
	});
}

TEST_CASE("copies between size-compatible uncompressed formats move bytes", "[copy]") {
	CompareWithLavapipe([](Context& ctx) {
		ImageSpec rgba{VK_FORMAT_R8G8B8A8_UNORM, {10, 7, 1}, VK_IMAGE_TYPE_2D, 2};
		ImageSpec word{VK_FORMAT_R32_UINT, {6, 9, 1}, VK_IMAGE_TYPE_2D, 2};
		TestImage a = MakeImage(ctx, rgba), b = MakeImage(ctx, word);
		TestBuffer up_a = ctx.CreateBuffer(1 << 16), up_b = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
		VkDeviceSize size = 0;
		ctx.Submit([&](VkCommandBuffer cb) {
			RecordUpload(ctx, cb, a, rgba, up_a, 4, Fill::Bytes, 61);
			RecordUpload(ctx, cb, b, word, up_b, 4, Fill::Bytes, 62);
			ctx.Transition(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VkImageCopy r{};
			r.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
			r.srcOffset = {4, 1, 0};
			r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2};
			r.dstOffset = {1, 3, 0};
			r.extent = {5, 6, 1};
			vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
			ctx.Transition(cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			size = RecordReadback(cb, b, word, 0, out, 4);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + size);
		for (TestBuffer* buffer : {&up_a, &up_b, &out}) ctx.Destroy(*buffer);
		ctx.Destroy(a);
		ctx.Destroy(b);
		return bytes;
	});
}

// Formats lavapipe lacks (ETC2, EAC, ASTC, D16S8) cannot be compared with
// it; on Tessera, every level, layer and aspect must come back from a
// buffer -> image -> buffer round trip as it went in.
TEST_CASE("formats lavapipe lacks round-trip through buffers on Tessera", "[copy][compressed]") {
	struct Case {
		VkFormat format;
		uint32_t block_width, block_height, bytes;
		VkImageAspectFlags aspects;
	};
	const Case cases[] = {
	    {VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, 4, 4, 16, VK_IMAGE_ASPECT_COLOR_BIT},
	    {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 4, 4, 8, VK_IMAGE_ASPECT_COLOR_BIT},
	    {VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 4, 4, 16, VK_IMAGE_ASPECT_COLOR_BIT},
	    {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, 16, VK_IMAGE_ASPECT_COLOR_BIT},
	    {VK_FORMAT_ASTC_12x10_SRGB_BLOCK, 12, 10, 16, VK_IMAGE_ASPECT_COLOR_BIT},
	    {VK_FORMAT_D16_UNORM_S8_UINT, 1, 1, 2, kDepthStencil},
	};
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	for (const Case& c : cases) {
		CAPTURE(c.format);
		REQUIRE(Supports(*ctx, c.format, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT));
		ImageSpec spec{c.format,
		               {2 * c.block_width + 3, c.block_height + 1, 1},
		               VK_IMAGE_TYPE_2D,
		               3,
		               3,
		               c.aspects,
		               c.block_width,
		               c.block_height};
		TestImage image = MakeImage(*ctx, spec);
		TestBuffer in = ctx->CreateBuffer(1 << 16), out = ctx->CreateBuffer(1 << 16);
		std::vector<VkBufferImageCopy> regions;
		std::vector<std::pair<VkDeviceSize, VkDeviceSize>> ranges;
		VkDeviceSize offset = 0;
		for (VkImageAspectFlags left = c.aspects; left; left &= left - 1) {
			auto aspect = VkImageAspectFlagBits(left & (~left + 1));
			for (uint32_t mip = 0; mip < spec.mips; ++mip) {
				VkBufferImageCopy r;
				VkDeviceSize size = WholeLevel(spec, mip, aspect, AspectBytes(c.format, aspect, c.bytes), offset, &r);
				ranges.push_back({offset, size});
				regions.push_back(r);
				offset = (offset + size + 15) / 16 * 16;
			}
		}
		FillRandom(in.data, in.size, 81);
		std::fill(out.data, out.data + out.size, uint8_t(0));
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                c.aspects);
			vkCmdCopyBufferToImage(cb, in.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                       uint32_t(regions.size()), regions.data());
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			                c.aspects);
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer,
			                       uint32_t(regions.size()), regions.data());
			ctx->TransferBarrier(cb);
		});
		for (auto [start, size] : ranges) REQUIRE(std::memcmp(in.data + start, out.data + start, size) == 0);
		ctx->Destroy(in);
		ctx->Destroy(out);
		ctx->Destroy(image);
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("a D24 depth aspect copied in from a buffer stores its padding bits as zero", "[copy][depth]") {
	// Vulkan 1.3 §20.4: the eight high bits of a D24 buffer texel are
	// undefined. Tessera stores them as zero, so an image's bytes depend
	// only on its depth values (CTS
	// image.host_image_copy.identical_memory_layout.*.d24_unorm_s8_uint
	// compares two images' memory after copies from buffers whose padding
	// differs): read back, the words carry the depth and zero above it.
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	for (VkFormat format : {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT}) {
		CAPTURE(format);
		const uint32_t w = 19, h = 7;
		const VkImageAspectFlags aspects =
		    format == VK_FORMAT_D24_UNORM_S8_UINT ? kDepthStencil : VK_IMAGE_ASPECT_DEPTH_BIT;
		TestImage image = ctx->CreateImage2D(format, w, h);
		TestBuffer in = ctx->CreateBuffer(w * h * 4), out = ctx->CreateBuffer(w * h * 4);
		for (uint32_t i = 0; i < w * h; ++i) {
			const uint32_t word = (i * 2654435761u) >> 8 | 0xa5000000u;  // depth bits, and padding
			std::memcpy(in.data + 4 * i, &word, 4);
		}
		std::fill(out.data, out.data + out.size, uint8_t(0xcd));
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
		region.imageExtent = {w, h, 1};
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, aspects);
			vkCmdCopyBufferToImage(cb, in.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			                aspects);
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
			ctx->TransferBarrier(cb);
		});
		for (uint32_t i = 0; i < w * h; ++i) {
			uint32_t sent, got;
			std::memcpy(&sent, in.data + 4 * i, 4);
			std::memcpy(&got, out.data + 4 * i, 4);
			INFO("texel " << i);
			REQUIRE(got == (sent & 0x00ffffffu));
		}
		CHECK(ctx->validation_errors() == 0);
		ctx->Destroy(in);
		ctx->Destroy(out);
		ctx->Destroy(image);
	}
}
