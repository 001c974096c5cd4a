// vkCmdResolveImage and vkCmdResolveImage2 (Vulkan 1.3 §20.7). The
// per-texel work is texture::ResolveSamples. The source is multisampled, so
// rows of texels; the destination may be tiled (ImageLayout).
#include <algorithm>

#include "texture/resolve.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/image.h"

namespace tessera::vk {

namespace {

struct ResolveImageCommand : Command {
	Image* src;
	Image* dst;
	const VkImageResolve2* regions;
	uint32_t region_count;

	void Execute(ExecutionContext& context) const {
		runtime::ThreadPool& pool = context.device->ThreadPool();
		const texture::FormatInfo& format = src->FormatInfo();
		for (uint32_t i = 0; i < region_count; ++i) {
			const VkImageResolve2& r = regions[i];
			uint32_t layers = r.srcSubresource.layerCount == VK_REMAINING_ARRAY_LAYERS
			                      ? src->ArrayLayers() - r.srcSubresource.baseArrayLayer
			                      : r.srcSubresource.layerCount;
			const texture::SubresourceLayout& from = src->Layout().Level(0, r.srcSubresource.mipLevel);
			const texture::SubresourceLayout& to = dst->Layout().Level(0, r.dstSubresource.mipLevel);
			for (uint32_t l = 0; l < layers; ++l) {
				for (uint32_t z = 0; z < r.extent.depth; ++z) {
					const uint32_t src_layer = r.srcSubresource.baseArrayLayer + l, src_z = uint32_t(r.srcOffset.z) + z;
					const uint32_t dst_layer = r.dstSubresource.baseArrayLayer + l, dst_z = uint32_t(r.dstOffset.z) + z;
					texture::ResolveRect rect;
					rect.src_row_pitch = from.row_pitch;
					rect.dst_row_pitch = to.row_pitch;
					rect.samples = uint32_t(src->Samples());
					rect.element_size = from.element_size;
					if (!to.Tiled()) {
						rect.src = src->Texel(VK_IMAGE_ASPECT_COLOR_BIT, r.srcSubresource.mipLevel, src_layer,
						                      uint32_t(r.srcOffset.x), uint32_t(r.srcOffset.y), src_z);
						rect.dst = dst->Texel(VK_IMAGE_ASPECT_COLOR_BIT, r.dstSubresource.mipLevel, dst_layer,
						                      uint32_t(r.dstOffset.x), uint32_t(r.dstOffset.y), dst_z);
						rect.width = r.extent.width;
						rect.height = r.extent.height;
						texture::ResolveSamples(pool, format, rect);
						continue;
					}
					// A tiled destination (a sampled-only image): runs of a row
					// that are contiguous in its tiles.
					rect.height = 1;
					for (uint32_t y = 0; y < r.extent.height; ++y)
						for (uint32_t x = 0; x < r.extent.width; x += rect.width) {
							const uint32_t dx = uint32_t(r.dstOffset.x) + x;
							rect.width = std::min(r.extent.width - x, to.RunFrom(dx));
							rect.src = src->Texel(VK_IMAGE_ASPECT_COLOR_BIT, r.srcSubresource.mipLevel, src_layer,
							                      uint32_t(r.srcOffset.x) + x, uint32_t(r.srcOffset.y) + y, src_z);
							rect.dst = dst->Texel(VK_IMAGE_ASPECT_COLOR_BIT, r.dstSubresource.mipLevel, dst_layer, dx,
							                      uint32_t(r.dstOffset.y) + y, dst_z);
							texture::ResolveSamples(format, rect);
						}
				}
			}
		}
	}
};

VkImageResolve2 Convert(const VkImageResolve& r) {
	return {VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2,
	        nullptr,
	        r.srcSubresource,
	        r.srcOffset,
	        r.dstSubresource,
	        r.dstOffset,
	        r.extent};
}

VkImageResolve2 Convert(const VkImageResolve2& r) {
	VkImageResolve2 copy = r;
	copy.pNext = nullptr;  // the chain is not ours to keep
	return copy;
}

template <typename Region>
void RecordResolve(VkCommandBuffer commandBuffer, VkImage srcImage, VkImage dstImage, uint32_t count,
                   const Region* regions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<ResolveImageCommand>();
	if (!cmd) return;
	cmd->src = Image::Cast(srcImage);
	cmd->dst = Image::Cast(dstImage);
	cb->RecordRegions(cmd, regions, count, [](const Region& r) { return Convert(r); });
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                           VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                           const VkImageResolve* pRegions) {
	RecordResolve(commandBuffer, srcImage, dstImage, regionCount, pRegions);
}

VKAPI_ATTR void VKAPI_CALL CmdResolveImage2(VkCommandBuffer commandBuffer,
                                            const VkResolveImageInfo2* pResolveImageInfo) {
	RecordResolve(commandBuffer, pResolveImageInfo->srcImage, pResolveImageInfo->dstImage,
	              pResolveImageInfo->regionCount, pResolveImageInfo->pRegions);
}

}  // namespace tessera::entry
