// vkCmdCopyBuffer, vkCmdCopyImage, vkCmdCopyBufferToImage,
// vkCmdCopyImageToBuffer and their *2 forms (Vulkan 1.3 §20 "Copy Commands").
// Copies move whole texel blocks; the regions are converted to the *2
// structures at record time and copied into the command buffer. Tiled
// images (ImageLayout) are copied tile by tile (texture::RowsToTiles), or
// between two tiled images in runs contiguous in both.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "icd/vulkan_newer.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/image.h"
#include "vk/parallel_bytes.h"

namespace tessera::vk {

namespace {

VkImageAspectFlagBits SingleAspect(VkImageAspectFlags mask) {
	// Copies name one aspect per region (color, depth, stencil or one plane).
	return static_cast<VkImageAspectFlagBits>(mask & (~mask + 1));
}

uint32_t DivideRoundUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// vkCmdCopyBuffer (src and dst: the buffers' first bytes) and
// vkCmdCopyMemoryKHR (one command a region, at its addresses).
struct CopyBufferCommand : Command {
	const uint8_t* src;
	uint8_t* dst;
	const VkBufferCopy2* regions;
	uint32_t region_count;

	void Execute(ExecutionContext& context) const {
		if (!src || !dst) return;
		for (uint32_t i = 0; i < region_count; ++i) {
			const VkBufferCopy2& r = regions[i];
			ParallelCopy(context, dst + r.dstOffset, src + r.srcOffset, r.size);
		}
	}
};

// One buffer <-> image region, expressed in texel blocks of the aspect.
struct BufferImageRegion {
	uint8_t* buffer;  // first block of the region in the buffer
	uint64_t buffer_row_pitch;
	uint64_t buffer_slice_pitch;  // between z slices and array layers alike
	VkImageAspectFlagBits aspect;
	uint32_t mip, base_layer, layer_count;
	uint32_t x, y, z;               // in blocks
	uint32_t width, height, depth;  // in blocks
	uint32_t element_size;
};

BufferImageRegion MakeRegion(const Image& image, uint8_t* buffer, const VkBufferImageCopy2& r) {
	VkImageAspectFlagBits aspect = SingleAspect(r.imageSubresource.aspectMask);
	const texture::ImageLayout& layout = image.Layout();
	const texture::SubresourceLayout& level = layout.Level(layout.PlaneOf(aspect), r.imageSubresource.mipLevel);
	uint32_t bw = level.block_extent.width, bh = level.block_extent.height;
	uint32_t row_texels = r.bufferRowLength ? r.bufferRowLength : r.imageExtent.width;
	uint32_t height_texels = r.bufferImageHeight ? r.bufferImageHeight : r.imageExtent.height;
	BufferImageRegion region;
	region.element_size = level.element_size;
	region.buffer = buffer + r.bufferOffset;
	region.buffer_row_pitch = uint64_t(DivideRoundUp(row_texels, bw)) * level.element_size;
	region.buffer_slice_pitch = region.buffer_row_pitch * DivideRoundUp(height_texels, bh);
	region.aspect = aspect;
	region.mip = r.imageSubresource.mipLevel;
	region.base_layer = r.imageSubresource.baseArrayLayer;
	region.layer_count = r.imageSubresource.layerCount == VK_REMAINING_ARRAY_LAYERS
	                         ? image.ArrayLayers() - region.base_layer
	                         : r.imageSubresource.layerCount;
	region.x = uint32_t(r.imageOffset.x) / bw;
	region.y = uint32_t(r.imageOffset.y) / bh;
	region.z = uint32_t(r.imageOffset.z);
	region.width = DivideRoundUp(r.imageExtent.width, bw);
	region.height = DivideRoundUp(r.imageExtent.height, bh);
	region.depth = r.imageExtent.depth;
	return region;
}

// Zeroes the eight high bits of `texels` X8_D24 words.
void ClearD24Padding(uint8_t* row, uint32_t texels) {
	for (uint32_t i = 0; i < texels; ++i) row[4 * i + 3] = 0;
}

// Copies a region between the buffer and the image (kToImage: into the
// image): row by row for rows of texels, tile by tile for a tiled level.
// Vulkan 1.3 §20.4 "Copying Data Between Buffers and Images": a D24 depth
// aspect's buffer texels are 32-bit words whose eight high bits are
// undefined; copied into the image they are stored as zero, so the
// image's bytes depend on its depth values alone (an image and a copy of
// its layout filled alike hold the same bytes). Depth images are never
// tiled (ImageLayout::CanTile).
template <bool kToImage>
void CopyBufferRegion(const Image& image, const BufferImageRegion& r) {
	const texture::ImageLayout& layout = image.Layout();
	const texture::SubresourceLayout& level = layout.Level(layout.PlaneOf(r.aspect), r.mip);
	const bool d24 = kToImage && level.format == VK_FORMAT_X8_D24_UNORM_PACK32;
	uint64_t row_bytes = uint64_t(r.width) * r.element_size;
	uint8_t* buffer_slice = r.buffer;
	for (uint32_t layer = 0; layer < r.layer_count; ++layer) {
		for (uint32_t z = 0; z < r.depth; ++z, buffer_slice += r.buffer_slice_pitch) {
			if (level.Tiled()) {
				uint8_t* tiles = image.Texel(r.aspect, r.mip, r.base_layer + layer, 0, 0, r.z + z);
				if (kToImage)
					texture::RowsToTiles(level, tiles, r.x, r.y, r.width, r.height, buffer_slice, r.buffer_row_pitch);
				else
					texture::TilesToRows(level, tiles, r.x, r.y, r.width, r.height, buffer_slice, r.buffer_row_pitch);
				continue;
			}
			for (uint32_t y = 0; y < r.height; ++y) {
				uint8_t* image_row = image.Texel(r.aspect, r.mip, r.base_layer + layer, r.x, r.y + y, r.z + z);
				uint8_t* buffer_row = buffer_slice + y * r.buffer_row_pitch;
				if (kToImage) {
					std::memcpy(image_row, buffer_row, row_bytes);
					if (d24) ClearD24Padding(image_row, r.width);
				} else
					std::memcpy(buffer_row, image_row, row_bytes);
			}
		}
	}
}

// src (dst in CopyImageToBufferCommand): the buffer's first byte, or the
// address of a vkCmdCopyMemoryToImageKHR region (one command a region).
struct CopyBufferToImageCommand : Command {
	uint8_t* src;
	Image* dst;
	const VkBufferImageCopy2* regions;
	uint32_t region_count;

	void Execute(ExecutionContext&) const {
		for (uint32_t i = 0; i < region_count && src; ++i) {
			BufferImageRegion r = MakeRegion(*dst, src, regions[i]);
			CopyBufferRegion<true>(*dst, r);
		}
	}
};

struct CopyImageToBufferCommand : Command {
	Image* src;
	uint8_t* dst;
	const VkBufferImageCopy2* regions;
	uint32_t region_count;

	void Execute(ExecutionContext&) const {
		for (uint32_t i = 0; i < region_count && dst; ++i) {
			BufferImageRegion r = MakeRegion(*src, dst, regions[i]);
			CopyBufferRegion<false>(*src, r);
		}
	}
};

// Copies regions between two images (vkCmdCopyImage, vkCopyImageToImageEXT).
struct ImageCopier {
	const Image* src;
	const Image* dst;

	void Copy(const VkImageCopy2& r) const {
		// Vulkan 1.3 §20.3: a region between depth/stencil images may name
		// both aspects; each is copied on its own plane. Between a color
		// aspect and a plane of a multi-planar format the masks differ, and
		// between one depth or stencil aspect and a color format of its size
		// (VK_KHR_maintenance8: D32/D24 <-> R32, D16 <-> R16, S8 <-> R8; the
		// D24 plane's texels are 4 bytes, the depth in the low 24 bits).
		VkImageAspectFlags src_aspects = r.srcSubresource.aspectMask, dst_aspects = r.dstSubresource.aspectMask;
		if (src_aspects == dst_aspects) {
			for (VkImageAspectFlags left = src_aspects; left; left &= left - 1)
				CopyRegion(r, SingleAspect(left), SingleAspect(left));
		} else {
			CopyRegion(r, SingleAspect(src_aspects), SingleAspect(dst_aspects));
		}
	}

	// Vulkan 1.3 §20.3: the extent is in source texels; between compressed
	// and uncompressed size-compatible formats one block maps to one texel.
	// Between 2D arrays and 3D images, layers map to slices (maintenance1).
	void CopyRegion(const VkImageCopy2& r, VkImageAspectFlagBits src_aspect, VkImageAspectFlagBits dst_aspect) const {
		const texture::SubresourceLayout& sl =
		    src->Layout().Level(src->Layout().PlaneOf(src_aspect), r.srcSubresource.mipLevel);
		const texture::SubresourceLayout& dl =
		    dst->Layout().Level(dst->Layout().PlaneOf(dst_aspect), r.dstSubresource.mipLevel);
		uint32_t sbw = sl.block_extent.width, sbh = sl.block_extent.height;
		uint32_t dbw = dl.block_extent.width, dbh = dl.block_extent.height;
		uint32_t width = DivideRoundUp(r.extent.width, sbw);
		uint32_t height = DivideRoundUp(r.extent.height, sbh);

		bool src_3d = src->Type() == VK_IMAGE_TYPE_3D, dst_3d = dst->Type() == VK_IMAGE_TYPE_3D;
		uint32_t src_layers = r.srcSubresource.layerCount == VK_REMAINING_ARRAY_LAYERS
		                          ? src->ArrayLayers() - r.srcSubresource.baseArrayLayer
		                          : r.srcSubresource.layerCount;
		uint32_t slices = src_3d ? r.extent.depth : src_layers;
		size_t row_bytes = size_t(width) * sl.element_size * uint32_t(src->Samples());

		for (uint32_t s = 0; s < slices; ++s) {
			uint32_t src_layer = src_3d ? 0 : r.srcSubresource.baseArrayLayer + s;
			uint32_t src_z = src_3d ? uint32_t(r.srcOffset.z) + s : 0;
			uint32_t dst_layer = dst_3d ? 0 : r.dstSubresource.baseArrayLayer + s;
			uint32_t dst_z = dst_3d ? uint32_t(r.dstOffset.z) + s : 0;
			const uint32_t sx = uint32_t(r.srcOffset.x) / sbw, sy = uint32_t(r.srcOffset.y) / sbh;
			const uint32_t dx = uint32_t(r.dstOffset.x) / dbw, dy = uint32_t(r.dstOffset.y) / dbh;
			if (sl.Tiled() != dl.Tiled()) {  // tiles <-> rows (single-sampled), tile by tile
				if (sl.Tiled())
					texture::TilesToRows(sl, src->Texel(src_aspect, r.srcSubresource.mipLevel, src_layer, 0, 0, src_z),
					                     sx, sy, width, height,
					                     dst->Texel(dst_aspect, r.dstSubresource.mipLevel, dst_layer, dx, dy, dst_z),
					                     dl.row_pitch);
				else
					texture::RowsToTiles(dl, dst->Texel(dst_aspect, r.dstSubresource.mipLevel, dst_layer, 0, 0, dst_z),
					                     dx, dy, width, height,
					                     src->Texel(src_aspect, r.srcSubresource.mipLevel, src_layer, sx, sy, src_z),
					                     sl.row_pitch);
				continue;
			}
			for (uint32_t y = 0; y < height; ++y) {
				if (!sl.Tiled()) {
					std::memmove(dst->Texel(dst_aspect, r.dstSubresource.mipLevel, dst_layer, dx, dy + y, dst_z),
					             src->Texel(src_aspect, r.srcSubresource.mipLevel, src_layer, sx, sy + y, src_z),
					             row_bytes);
					continue;
				}
				// Tiles on both sides: runs contiguous in both.
				for (uint32_t x = 0; x < width;) {
					uint32_t n = std::min({width - x, sl.RunFrom(sx + x), dl.RunFrom(dx + x)});
					std::memmove(dst->Texel(dst_aspect, r.dstSubresource.mipLevel, dst_layer, dx + x, dy + y, dst_z),
					             src->Texel(src_aspect, r.srcSubresource.mipLevel, src_layer, sx + x, sy + y, src_z),
					             size_t(n) * sl.element_size);
					x += n;
				}
			}
		}
	}
};

struct CopyImageCommand : Command {
	Image* src;
	Image* dst;
	const VkImageCopy2* regions;
	uint32_t region_count;

	void Execute(ExecutionContext&) const {
		for (uint32_t i = 0; i < region_count; ++i) ImageCopier{src, dst}.Copy(regions[i]);
	}
};

// Stores the regions in the command buffer, converted to their *2 form.
VkBufferCopy2 Convert(const VkBufferCopy& r) {
	return {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, r.srcOffset, r.dstOffset, r.size};
}
VkBufferImageCopy2 Convert(const VkBufferImageCopy& r) {
	return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
	        nullptr,
	        r.bufferOffset,
	        r.bufferRowLength,
	        r.bufferImageHeight,
	        r.imageSubresource,
	        r.imageOffset,
	        r.imageExtent};
}
VkImageCopy2 Convert(const VkImageCopy& r) {
	return {VK_STRUCTURE_TYPE_IMAGE_COPY_2,
	        nullptr,
	        r.srcSubresource,
	        r.srcOffset,
	        r.dstSubresource,
	        r.dstOffset,
	        r.extent};
}
template <typename T>
T Same(const T& r) {
	T copy = r;
	copy.pNext = nullptr;  // the chain is not ours to keep
	return copy;
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkBuffer dstBuffer,
                                         uint32_t regionCount, const VkBufferCopy* pRegions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyBufferCommand>();
	if (!cmd) return;
	cmd->src = Buffer::Cast(srcBuffer)->Data();
	cmd->dst = Buffer::Cast(dstBuffer)->Data();
	cb->RecordRegions(cmd, pRegions, regionCount, [](const VkBufferCopy& r) { return Convert(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2* pInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyBufferCommand>();
	if (!cmd) return;
	cmd->src = Buffer::Cast(pInfo->srcBuffer)->Data();
	cmd->dst = Buffer::Cast(pInfo->dstBuffer)->Data();
	cb->RecordRegions(cmd, pInfo->pRegions, pInfo->regionCount, [](const VkBufferCopy2& r) { return Same(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkImage dstImage,
                                                VkImageLayout, uint32_t regionCount,
                                                const VkBufferImageCopy* pRegions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyBufferToImageCommand>();
	if (!cmd) return;
	cmd->src = Buffer::Cast(srcBuffer)->Data();
	cmd->dst = Image::Cast(dstImage);
	cb->RecordRegions(cmd, pRegions, regionCount, [](const VkBufferImageCopy& r) { return Convert(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage2(VkCommandBuffer commandBuffer, const VkCopyBufferToImageInfo2* pInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyBufferToImageCommand>();
	if (!cmd) return;
	cmd->src = Buffer::Cast(pInfo->srcBuffer)->Data();
	cmd->dst = Image::Cast(pInfo->dstImage);
	cb->RecordRegions(cmd, pInfo->pRegions, pInfo->regionCount, [](const VkBufferImageCopy2& r) { return Same(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                VkBuffer dstBuffer, uint32_t regionCount,
                                                const VkBufferImageCopy* pRegions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyImageToBufferCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(srcImage);
	cmd->dst = Buffer::Cast(dstBuffer)->Data();
	cb->RecordRegions(cmd, pRegions, regionCount, [](const VkBufferImageCopy& r) { return Convert(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer, const VkCopyImageToBufferInfo2* pInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyImageToBufferCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(pInfo->srcImage);
	cmd->dst = Buffer::Cast(pInfo->dstBuffer)->Data();
	cb->RecordRegions(cmd, pInfo->pRegions, pInfo->regionCount, [](const VkBufferImageCopy2& r) { return Same(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                        VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                        const VkImageCopy* pRegions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyImageCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(srcImage);
	cmd->dst = Image::Cast(dstImage);
	cb->RecordRegions(cmd, pRegions, regionCount, [](const VkImageCopy& r) { return Convert(r); });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2* pInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<CopyImageCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(pInfo->srcImage);
	cmd->dst = Image::Cast(pInfo->dstImage);
	cb->RecordRegions(cmd, pInfo->pRegions, pInfo->regionCount, [](const VkImageCopy2& r) { return Same(r); });
}

// VK_KHR_device_address_commands: the same copies with address ranges for
// buffers, one command a region (each region names its own memory).
// vkCmdCopyMemoryKHR copies srcRange.size bytes.
VKAPI_ATTR void VKAPI_CALL CmdCopyMemoryKHR(VkCommandBuffer commandBuffer,
                                            const VkCopyDeviceMemoryInfoKHR* pCopyMemoryInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	for (uint32_t i = 0; i < pCopyMemoryInfo->regionCount; ++i) {
		const VkDeviceMemoryCopyKHR& region = pCopyMemoryInfo->pRegions[i];
		auto* cmd = cb->Add<CopyBufferCommand>();
		if (!cmd) return;
		cmd->src = RangeOf(region.srcRange.address, region.srcRange.size).data;
		cmd->dst = RangeOf(region.dstRange.address, region.dstRange.size).data;
		cb->RecordRegions(cmd, &region, 1, [](const VkDeviceMemoryCopyKHR& r) {
			return VkBufferCopy2{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 0, 0, r.srcRange.size};
		});
	}
}

namespace {

VkBufferImageCopy2 AtAddress(const VkDeviceMemoryImageCopyKHR& r) {
	return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
	        nullptr,
	        0,
	        r.addressRowLength,
	        r.addressImageHeight,
	        r.imageSubresource,
	        r.imageOffset,
	        r.imageExtent};
}

// One CopyBufferToImageCommand or CopyImageToBufferCommand a region, its
// memory the region's address.
template <typename CopyCommand>
void RecordMemoryImageCopies(VkCommandBuffer commandBuffer, const VkCopyDeviceMemoryImageInfoKHR& info) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	for (uint32_t i = 0; i < info.regionCount; ++i) {
		const VkDeviceMemoryImageCopyKHR& region = info.pRegions[i];
		auto* cmd = cb->Add<CopyCommand>();
		if (!cmd) return;
		uint8_t* memory = RangeOf(region.addressRange.address, region.addressRange.size).data;
		Image* image = Image::Cast(info.image);
		if constexpr (std::is_same_v<CopyCommand, CopyBufferToImageCommand>)
			cmd->src = memory, cmd->dst = image;
		else
			cmd->src = image, cmd->dst = memory;
		cb->RecordRegions(cmd, &region, 1, AtAddress);
	}
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdCopyMemoryToImageKHR(VkCommandBuffer commandBuffer,
                                                   const VkCopyDeviceMemoryImageInfoKHR* pCopyMemoryInfo) {
	RecordMemoryImageCopies<CopyBufferToImageCommand>(commandBuffer, *pCopyMemoryInfo);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToMemoryKHR(VkCommandBuffer commandBuffer,
                                                   const VkCopyDeviceMemoryImageInfoKHR* pCopyMemoryInfo) {
	RecordMemoryImageCopies<CopyImageToBufferCommand>(commandBuffer, *pCopyMemoryInfo);
}

}  // namespace tessera::entry

// VK_EXT_host_image_copy: the same copies, run by the host during the call
// (the image's memory is host memory). With VK_HOST_IMAGE_COPY_MEMCPY_EXT
// the host's bytes are the subresources' own (tiles included), one layer
// after the other, each as large as vkGetImageSubresourceLayout2EXT's
// VkSubresourceHostMemcpySizeEXT says; the regions then cover whole
// subresources (VUID-VkCopyMemoryToImageInfo-flags-09393 and its kin).
// Decoded views made from the image notice the writes at the next
// submission, as with any host write (vk/queue.cpp).
namespace tessera::vk {

namespace {

template <bool kToImage, typename Copy>
void HostCopy(const Image& image, VkHostImageCopyFlagsEXT flags, const Copy& c) {
	const uint8_t* host = static_cast<const uint8_t*>(c.pHostPointer);
	VkImageSubresource sub{c.imageSubresource.aspectMask, c.imageSubresource.mipLevel,
	                       c.imageSubresource.baseArrayLayer};
	const uint32_t layers = c.imageSubresource.layerCount == VK_REMAINING_ARRAY_LAYERS
	                            ? image.ArrayLayers() - sub.arrayLayer
	                            : c.imageSubresource.layerCount;
	if (flags & VK_HOST_IMAGE_COPY_MEMCPY_EXT) {
		const VkDeviceSize size = image.SubresourceLayout(sub).size;
		const auto aspect = SingleAspect(sub.aspectMask);
		for (uint32_t i = 0; i < layers; ++i) {
			uint8_t* bytes = image.Texel(aspect, sub.mipLevel, sub.arrayLayer + i, 0, 0, 0);
			uint8_t* memory = const_cast<uint8_t*>(host) + i * size;
			if (kToImage)
				std::memcpy(bytes, memory, size);
			else
				std::memcpy(memory, bytes, size);
		}
		return;
	}
	// A buffer <-> image region whose buffer is the host's memory.
	const VkBufferImageCopy2 region{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
	                                nullptr,
	                                0,
	                                c.memoryRowLength,
	                                c.memoryImageHeight,
	                                c.imageSubresource,
	                                c.imageOffset,
	                                c.imageExtent};
	CopyBufferRegion<kToImage>(image, MakeRegion(image, const_cast<uint8_t*>(host), region));
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Image;

VKAPI_ATTR VkResult VKAPI_CALL CopyMemoryToImageEXT(VkDevice,
                                                    const VkCopyMemoryToImageInfoEXT* pCopyMemoryToImageInfo) {
	const VkCopyMemoryToImageInfoEXT& info = *pCopyMemoryToImageInfo;
	const Image& image = *Image::Cast(info.dstImage);
	for (uint32_t i = 0; i < info.regionCount; ++i) vk::HostCopy<true>(image, info.flags, info.pRegions[i]);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CopyImageToMemoryEXT(VkDevice,
                                                    const VkCopyImageToMemoryInfoEXT* pCopyImageToMemoryInfo) {
	const VkCopyImageToMemoryInfoEXT& info = *pCopyImageToMemoryInfo;
	const Image& image = *Image::Cast(info.srcImage);
	for (uint32_t i = 0; i < info.regionCount; ++i) vk::HostCopy<false>(image, info.flags, info.pRegions[i]);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CopyImageToImageEXT(VkDevice, const VkCopyImageToImageInfoEXT* pCopyImageToImageInfo) {
	const VkCopyImageToImageInfoEXT& info = *pCopyImageToImageInfo;
	// With MEMCPY the regions are whole subresources of images of the same
	// format: the byte copy the tiles-aware copy makes anyway.
	const vk::ImageCopier copier{Image::Cast(info.srcImage), Image::Cast(info.dstImage)};
	for (uint32_t i = 0; i < info.regionCount; ++i) copier.Copy(info.pRegions[i]);
	return VK_SUCCESS;
}

// Images keep one memory layout whatever their VkImageLayout (cmd_sync.cpp).
VKAPI_ATTR VkResult VKAPI_CALL TransitionImageLayoutEXT(VkDevice, uint32_t, const VkHostImageLayoutTransitionInfoEXT*) {
	return VK_SUCCESS;
}

}  // namespace tessera::entry
