// vkCmdBlitImage and vkCmdBlitImage2 (Vulkan 1.3 §20.6 "Image Blits").
// The conversion between the two formats is chosen at record time; the
// sampling and filtering are texture::BlitSurfaceRegion's (rows of texels
// or tiles alike).
#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/thread_pool.h"
#include "texture/blit.h"
#include "texture/compressed.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/image.h"

namespace tessera::vk {

namespace {

texture::BlitSurface SurfaceOf(const Image& image, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer) {
	const texture::ImageLayout& layout = image.Layout();
	const texture::SubresourceLayout& level = layout.Level(layout.PlaneOf(aspect), mip);
	texture::BlitSurface s;
	s.data = image.Data() + level.offset + layer * level.array_pitch;
	s.row_pitch = level.row_pitch;
	s.tile_shift = level.tile_shift;
	s.slice_pitch = level.depth_pitch;
	s.width = level.extent.width;
	s.height = level.extent.height;
	s.depth = level.extent.depth;
	s.format = texture::FindFormat(level.format);
	s.element_size = level.element_size;
	return s;
}

// A compressed source is decoded to 32-bit float RGBA first (sRGB formats to
// linear, as a blit reads them, §20.6), then blitted like any float image.
const texture::FormatInfo& DecodedFormat() { return *texture::FindFormat(VK_FORMAT_R32G32B32A32_SFLOAT); }

bool DecodeSurface(const texture::BlitSurface& compressed, std::vector<float>& storage, texture::BlitSurface* decoded) {
	const texture::FormatInfo& format = *compressed.format;
	uint32_t bw = format.block_extent[0], bh = format.block_extent[1];
	uint64_t row_floats = uint64_t(compressed.width) * 4;
	try {
		storage.assign(row_floats * compressed.height * compressed.depth, 0.0f);
	} catch (const std::bad_alloc&) {
		return false;
	}
	texture::TexelValue block[texture::kMaxDecodedTexels];
	for (uint32_t z = 0; z < compressed.depth; ++z)
		for (uint32_t by = 0; by * bh < compressed.height; ++by)
			for (uint32_t bx = 0; bx * bw < compressed.width; ++bx) {
				const uint8_t* source = compressed.data + z * compressed.slice_pitch + by * compressed.row_pitch +
				                        bx * compressed.element_size;
				texture::DecodeBlock(format, source, block);
				for (uint32_t y = 0; y < bh && by * bh + y < compressed.height; ++y)
					for (uint32_t x = 0; x < bw && bx * bw + x < compressed.width; ++x)
						std::memcpy(&storage[(z * compressed.height + by * bh + y) * row_floats + (bx * bw + x) * 4],
						            block[y * bw + x].f, 16);
			}
	*decoded = compressed;
	decoded->data = reinterpret_cast<uint8_t*>(storage.data());
	decoded->format = &DecodedFormat();
	decoded->element_size = 16;
	decoded->tile_shift = 0;  // (compressed images are never tiled)
	decoded->row_pitch = row_floats * 4;
	decoded->slice_pitch = decoded->row_pitch * compressed.height;
	return true;
}

// Below this many destination texels a region runs on the queue thread alone.
constexpr uint64_t kMinParallelTexels = 64 * 1024;

struct BlitImageCommand : Command {
	Image* src;
	Image* dst;
	const VkImageBlit2* regions;
	uint32_t region_count;
	texture::BlitFilter filter;
	texture::BlitConversion color_conversion;

	void Execute(ExecutionContext& context) const {
		runtime::ThreadPool& pool = context.device->ThreadPool();
		std::vector<float> decoded_storage;  // a compressed source's texels, decoded
		for (uint32_t i = 0; i < region_count; ++i) {
			const VkImageBlit2& r = regions[i];
			texture::BlitRegion region;
			for (int n = 0; n < 2; ++n) {
				region.src_offsets[n][0] = r.srcOffsets[n].x;
				region.src_offsets[n][1] = r.srcOffsets[n].y;
				region.src_offsets[n][2] = r.srcOffsets[n].z;
				region.dst_offsets[n][0] = r.dstOffsets[n].x;
				region.dst_offsets[n][1] = r.dstOffsets[n].y;
				region.dst_offsets[n][2] = r.dstOffsets[n].z;
			}
			// Layers pair up one to one; 3D images have one (§20.6), which
			// VK_KHR_maintenance8 may pair with any layer of the other image:
			// the slices between the z offsets are that layer's depth.
			uint32_t layers = r.srcSubresource.layerCount == VK_REMAINING_ARRAY_LAYERS
			                      ? src->ArrayLayers() - r.srcSubresource.baseArrayLayer
			                      : r.srcSubresource.layerCount;
			for (VkImageAspectFlags aspects = r.srcSubresource.aspectMask; aspects; aspects &= aspects - 1) {
				auto aspect = VkImageAspectFlagBits(aspects & (~aspects + 1));
				// Depth and stencil blits are between identical formats (NEAREST).
				texture::BlitConversion conversion =
				    aspect == VK_IMAGE_ASPECT_COLOR_BIT ? color_conversion : texture::BlitConversion::Copy;
				for (uint32_t l = 0; l < layers; ++l) {
					texture::BlitSurface from =
					    SurfaceOf(*src, aspect, r.srcSubresource.mipLevel, r.srcSubresource.baseArrayLayer + l);
					if (from.format->IsCompressed() && !DecodeSurface(from, decoded_storage, &from)) {
						context.device->Report(
						    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_IMAGE,
						    uint64_t(src->ToHandle()),
						    "vkCmdBlitImage: out of memory decoding a compressed source; region skipped");
						continue;
					}
					texture::BlitSurface to =
					    SurfaceOf(*dst, aspect, r.dstSubresource.mipLevel, r.dstSubresource.baseArrayLayer + l);
					// Rows of the destination are independent: spread them over
					// the workers once a region has enough texels to pay for it.
					texture::BlitPlan plan(from, to, region, filter, conversion);
					uint32_t width = uint32_t(std::abs(r.dstOffsets[1].x - r.dstOffsets[0].x));
					uint64_t min_rows = std::max<uint64_t>(1, kMinParallelTexels / std::max(width, 1u));
					runtime::ParallelRanges(pool, plan.RowCount(), 1, min_rows, [&](uint64_t begin, uint64_t end) {
						plan.Run(uint32_t(begin), uint32_t(end));
					});
				}
			}
		}
	}
};

VkImageBlit2 Convert(const VkImageBlit& r) {
	return {VK_STRUCTURE_TYPE_IMAGE_BLIT_2,     nullptr,          r.srcSubresource,
	        {r.srcOffsets[0], r.srcOffsets[1]}, r.dstSubresource, {r.dstOffsets[0], r.dstOffsets[1]}};
}

VkImageBlit2 Convert(const VkImageBlit2& r) {
	VkImageBlit2 copy = r;
	copy.pNext = nullptr;  // the chain is not ours to keep
	return copy;
}

template <typename Region>
void RecordBlit(VkCommandBuffer commandBuffer, VkImage srcImage, VkImage dstImage, uint32_t count,
                const Region* regions, VkFilter filter) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<BlitImageCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(srcImage);
	cmd->dst = Image::Cast(dstImage);
	cmd->filter = filter == VK_FILTER_LINEAR      ? texture::BlitFilter::Linear
	              : filter == VK_FILTER_CUBIC_EXT ? texture::BlitFilter::Cubic
	                                              : texture::BlitFilter::Nearest;
	const texture::FormatInfo& source =
	    cmd->src->FormatInfo().IsCompressed() ? DecodedFormat() : cmd->src->FormatInfo();
	cmd->color_conversion = texture::ChooseBlitConversion(source, cmd->dst->FormatInfo(), cmd->filter);
	cb->RecordRegions(cmd, regions, count, [](const Region& r) { return Convert(r); });
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                        VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                        const VkImageBlit* pRegions, VkFilter filter) {
	RecordBlit(commandBuffer, srcImage, dstImage, regionCount, pRegions, filter);
}

VKAPI_ATTR void VKAPI_CALL CmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2* pBlitImageInfo) {
	RecordBlit(commandBuffer, pBlitImageInfo->srcImage, pBlitImageInfo->dstImage, pBlitImageInfo->regionCount,
	           pBlitImageInfo->pRegions, pBlitImageInfo->filter);
}

}  // namespace tessera::entry
