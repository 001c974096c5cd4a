// Images for the transfer tests: creation of any type, upload of
// deterministic texel data and read-back of whole levels through buffers.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "transfer_compare.h"

namespace tessera::test::transfer {

// How to fill texels so that every driver reads the same values: raw bytes
// for formats where any bit pattern is a value, or valid numbers.
enum class Fill { Bytes, Half, Float32, Snorm8, Depth24, Depth32 };

struct ImageSpec {
	VkFormat format;
	VkExtent3D extent;
	VkImageType type = VK_IMAGE_TYPE_2D;
	uint32_t layers = 1;
	uint32_t mips = 1;
	VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT;  // all aspects of the format
	uint32_t block_width = 1, block_height = 1;              // texel block of compressed formats
};

inline TestImage MakeImage(Context& ctx, const ImageSpec& s) {
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = s.type;
	ici.format = s.format;
	ici.extent = s.extent;
	ici.mipLevels = s.mips;
	ici.arrayLayers = s.layers;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	return ctx.CreateImage(ici);
}

inline void FillTexels(uint8_t* data, size_t size, Fill fill, uint32_t seed) {
	FillRandom(data, size, seed);
	switch (fill) {
	case Fill::Bytes: break;
	case Fill::Snorm8:  // -128 and -127 both mean -1.0 (Fixed-Point Data Conversions)
		for (size_t i = 0; i < size; ++i)
			if (data[i] == 0x80) data[i] = 0x81;
		break;
	case Fill::Half:  // finite halves of magnitude below 4
		for (size_t i = 0; i + 1 < size; i += 2) {
			uint16_t h;
			std::memcpy(&h, data + i, 2);
			uint16_t exponent = uint16_t(((h >> 10) & 0x1f) % 17);  // 2^-15 .. 2^1
			h = uint16_t((h & 0x83ff) | exponent << 10);
			std::memcpy(data + i, &h, 2);
		}
		break;
	case Fill::Float32:  // values in [-0.5, 1.5)
		for (size_t i = 0; i + 3 < size; i += 4) {
			uint32_t r;
			std::memcpy(&r, data + i, 4);
			float f = float(r >> 8) / float(1 << 24) * 2.0f - 0.5f;
			std::memcpy(data + i, &f, 4);
		}
		break;
	case Fill::Depth24:  // 24-bit depth in the low bits
		for (size_t i = 3; i < size; i += 4) data[i] = 0;
		break;
	case Fill::Depth32:  // depth in [0, 1] (outside it D32 values are undefined)
		for (size_t i = 0; i + 3 < size; i += 4) {
			uint32_t r;
			std::memcpy(&r, data + i, 4);
			float f = float(r >> 8) / float((1 << 24) - 1);
			std::memcpy(data + i, &f, 4);
		}
		break;
	}
}

// Bytes of one texel of an aspect in a buffer (§20.4).
inline uint32_t AspectBytes(VkFormat format, VkImageAspectFlagBits aspect, uint32_t color_bytes) {
	if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return 1;
	if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT)
		return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT ? 2 : 4;
	return color_bytes;
}

inline VkExtent3D MipExtent(const ImageSpec& s, uint32_t mip) {
	return {std::max(1u, s.extent.width >> mip), std::max(1u, s.extent.height >> mip),
	        std::max(1u, s.extent.depth >> mip)};
}

// Regions covering mip `mip` of all layers of one aspect, tightly packed
// from offset; returns the bytes they take.
inline VkDeviceSize WholeLevel(const ImageSpec& s, uint32_t mip, VkImageAspectFlagBits aspect, uint32_t texel_bytes,
                               VkDeviceSize offset, VkBufferImageCopy* region) {
	VkExtent3D e = MipExtent(s, mip);
	*region = {};
	region->bufferOffset = offset;
	region->imageSubresource = {VkImageAspectFlags(aspect), mip, 0, s.layers};
	region->imageExtent = e;
	VkDeviceSize blocks = VkDeviceSize((e.width + s.block_width - 1) / s.block_width) *
	                      ((e.height + s.block_height - 1) / s.block_height);
	return blocks * e.depth * s.layers * texel_bytes;
}

// Records an upload of every level and aspect of the image (left in
// TRANSFER_DST_OPTIMAL) from the buffer, filled here; color_bytes is the
// size of a color texel, fills the fill per aspect (color or depth, stencil).
inline void RecordUpload(Context& ctx, VkCommandBuffer cb, const TestImage& image, const ImageSpec& s,
                         TestBuffer& staging, uint32_t color_bytes, Fill fill, uint32_t seed) {
	ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, s.aspects);
	std::vector<VkBufferImageCopy> regions;
	VkDeviceSize offset = 0;
	for (VkImageAspectFlags left = s.aspects; left; left &= left - 1) {
		auto aspect = VkImageAspectFlagBits(left & (~left + 1));
		uint32_t bytes = AspectBytes(s.format, aspect, color_bytes);
		for (uint32_t mip = 0; mip < s.mips; ++mip) {
			VkBufferImageCopy r;
			VkDeviceSize size = WholeLevel(s, mip, aspect, bytes, offset, &r);
			REQUIRE(offset + size <= staging.size);
			FillTexels(staging.data + offset, size, aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? Fill::Bytes : fill,
			           seed + mip * 7 + uint32_t(aspect));
			regions.push_back(r);
			offset = (offset + size + 15) / 16 * 16;
		}
	}
	vkCmdCopyBufferToImage(cb, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	                       uint32_t(regions.size()), regions.data());
}

// Records a read-back of mip `mip` of every aspect (image in
// TRANSFER_SRC_OPTIMAL) into the buffer; returns the byte count. Bits the
// spec leaves undefined (the top byte of D24 depth) read as zero.
inline VkDeviceSize RecordReadback(VkCommandBuffer cb, const TestImage& image, const ImageSpec& s, uint32_t mip,
                                   const TestBuffer& out, uint32_t color_bytes, uint32_t mip_count = 1,
                                   VkDeviceSize offset = 0) {
	std::vector<VkBufferImageCopy> regions;
	for (VkImageAspectFlags left = s.aspects; left; left &= left - 1) {
		auto aspect = VkImageAspectFlagBits(left & (~left + 1));
		for (uint32_t m = mip; m < mip + mip_count; ++m) {
			VkBufferImageCopy r;
			offset += WholeLevel(s, m, aspect, AspectBytes(s.format, aspect, color_bytes), offset, &r);
			regions.push_back(r);
		}
	}
	REQUIRE(offset <= out.size);
	vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, uint32_t(regions.size()),
	                       regions.data());
	return offset;
}

inline std::vector<uint8_t> TakeBytes(const TestBuffer& buffer, VkDeviceSize size, const ImageSpec& s,
                                      uint32_t mip_count = 1) {
	std::vector<uint8_t> bytes(buffer.data, buffer.data + size);
	bool d24 = (s.format == VK_FORMAT_X8_D24_UNORM_PACK32 || s.format == VK_FORMAT_D24_UNORM_S8_UINT) &&
	           (s.aspects & VK_IMAGE_ASPECT_DEPTH_BIT);
	if (d24) {
		// Depth comes first in the read-back; §20.4: the top 8 bits are undefined.
		size_t depth_bytes = 0;
		for (uint32_t m = 0; m < mip_count; ++m) {
			VkExtent3D e = MipExtent(s, m);
			depth_bytes += size_t(e.width) * e.height * e.depth * s.layers * 4;
		}
		for (size_t i = 3; i < depth_bytes && i < bytes.size(); i += 4) bytes[i] = 0;
	}
	return bytes;
}

}  // namespace tessera::test::transfer
