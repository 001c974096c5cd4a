// vkCmdFillBuffer, vkCmdUpdateBuffer, vkCmdClearColorImage and
// vkCmdClearDepthStencilImage (Vulkan 1.3 §19 "Clear Commands" and §20
// "Copy Commands"). The clear value is packed once at record time; execution
// is a pattern fill per layer of each level.
#include <cstring>

#include "texture/fill.h"
#include "texture/texel.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/image.h"
#include "vk/parallel_bytes.h"

namespace tessera::vk {

namespace {

// vkCmdFillBuffer and vkCmdFillMemoryKHR.
struct FillBufferCommand : Command {
	uint8_t* dst;
	VkDeviceSize size;
	uint32_t data;

	void Execute(ExecutionContext& context) const {
		if (dst) ParallelFill(context, dst, size, reinterpret_cast<const uint8_t*>(&data), 4);
	}
};

// vkCmdUpdateBuffer and vkCmdUpdateMemoryKHR.
struct UpdateBufferCommand : Command {
	uint8_t* dst;
	VkDeviceSize size;
	const uint8_t* data;

	void Execute(ExecutionContext&) const {
		if (dst) std::memcpy(dst, data, size);
	}
};

void RecordFill(VkCommandBuffer commandBuffer, uint8_t* dst, VkDeviceSize size, uint32_t data) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<FillBufferCommand>()) {
		cmd->dst = dst;
		cmd->size = size;
		cmd->data = data;
	}
}

void RecordUpdate(VkCommandBuffer commandBuffer, uint8_t* dst, VkDeviceSize size, const void* data) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<UpdateBufferCommand>();
	if (!cmd) return;
	cmd->dst = dst;
	cmd->data = cb->Copy(static_cast<const uint8_t*>(data), size);
	cmd->size = cmd->data ? size : 0;
}

// Fills every texel of the given levels and layers of one plane with a
// packed value (one element, repeated over the samples).
void FillSubresources(ExecutionContext& context, const Image& image, uint32_t plane,
                      const VkImageSubresourceRange& range, const uint8_t* element, uint32_t element_size) {
	const texture::ImageLayout& layout = image.Layout();
	uint32_t levels =
	    range.levelCount == VK_REMAINING_MIP_LEVELS ? image.MipLevels() - range.baseMipLevel : range.levelCount;
	uint32_t layers =
	    range.layerCount == VK_REMAINING_ARRAY_LAYERS ? image.ArrayLayers() - range.baseArrayLayer : range.layerCount;
	bool is_3d = image.Type() == VK_IMAGE_TYPE_3D;
	for (uint32_t mip = range.baseMipLevel; mip < range.baseMipLevel + levels; ++mip) {
		const texture::SubresourceLayout& level = layout.Level(plane, mip);
		uint64_t layer_bytes = level.depth_pitch * level.extent.depth;
		for (uint32_t layer = range.baseArrayLayer; layer < range.baseArrayLayer + (is_3d ? 1 : layers); ++layer) {
			uint8_t* start = image.Data() + level.offset + layer * level.array_pitch;
			ParallelFill(context, start, layer_bytes, element, element_size);
		}
	}
}

struct ClearColorImageCommand : Command {
	Image* image;
	uint8_t element[32];  // one texel, packed (R64G64B64A64 is the largest)
	const VkImageSubresourceRange* ranges;
	uint32_t range_count;

	void Execute(ExecutionContext& context) const {
		uint32_t size = image->Layout().Level(0, 0).element_size;
		for (uint32_t i = 0; i < range_count; ++i) FillSubresources(context, *image, 0, ranges[i], element, size);
	}
};

struct ClearDepthStencilImageCommand : Command {
	Image* image;
	uint8_t depth[4];
	uint8_t stencil;
	const VkImageSubresourceRange* ranges;
	uint32_t range_count;

	void Execute(ExecutionContext& context) const {
		const texture::ImageLayout& layout = image->Layout();
		for (uint32_t i = 0; i < range_count; ++i) {
			const VkImageSubresourceRange& r = ranges[i];
			if (r.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) {
				uint32_t plane = layout.PlaneOf(VK_IMAGE_ASPECT_DEPTH_BIT);
				FillSubresources(context, *image, plane, r, depth, layout.Level(plane, 0).element_size);
			}
			if (r.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT)
				FillSubresources(context, *image, layout.PlaneOf(VK_IMAGE_ASPECT_STENCIL_BIT), r, &stencil, 1);
		}
	}
};

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                         VkDeviceSize size, uint32_t data) {
	const MemoryRange range = RangeOf(Buffer::Cast(dstBuffer), dstOffset);
	// VK_WHOLE_SIZE fills to the end, rounded down to a multiple of 4.
	RecordFill(commandBuffer, range.data, size == VK_WHOLE_SIZE ? range.size & ~VkDeviceSize(3) : size, data);
}

VKAPI_ATTR void VKAPI_CALL CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                           VkDeviceSize dataSize, const void* pData) {
	RecordUpdate(commandBuffer, RangeOf(Buffer::Cast(dstBuffer), dstOffset).data, dataSize, pData);
}

// VK_KHR_device_address_commands: a fill covers the whole range; an update
// writes dataSize bytes at its start.
VKAPI_ATTR void VKAPI_CALL CmdFillMemoryKHR(VkCommandBuffer commandBuffer, const VkDeviceAddressRangeKHR* pDstRange,
                                            VkAddressCommandFlagsKHR, uint32_t data) {
	const MemoryRange range = RangeOf(pDstRange->address, pDstRange->size);
	RecordFill(commandBuffer, range.data, range.size, data);
}

VKAPI_ATTR void VKAPI_CALL CmdUpdateMemoryKHR(VkCommandBuffer commandBuffer, const VkDeviceAddressRangeKHR* pDstRange,
                                              VkAddressCommandFlagsKHR, VkDeviceSize dataSize, const void* pData) {
	RecordUpdate(commandBuffer, RangeOf(pDstRange->address, pDstRange->size).data, dataSize, pData);
}

VKAPI_ATTR void VKAPI_CALL CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                              const VkClearColorValue* pColor, uint32_t rangeCount,
                                              const VkImageSubresourceRange* pRanges) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<ClearColorImageCommand>();
	if (!cmd) return;
	Image* target = Image::Cast(image);
	cmd->image = target;
	texture::TexelValue value;
	std::memcpy(&value, pColor, sizeof value);
	texture::PackTexel(target->FormatInfo(), value, cmd->element);
	cmd->ranges = cb->Copy(pRanges, rangeCount);
	cmd->range_count = cmd->ranges ? rangeCount : 0;
}

VKAPI_ATTR void VKAPI_CALL CmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                                     const VkClearDepthStencilValue* pDepthStencil, uint32_t rangeCount,
                                                     const VkImageSubresourceRange* pRanges) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* cmd = cb->Add<ClearDepthStencilImageCommand>();
	if (!cmd) return;
	Image* target = Image::Cast(image);
	cmd->image = target;
	if (target->FormatInfo().HasDepth())
		texture::PackDepth(texture::AspectFormat(target->Format(), VK_IMAGE_ASPECT_DEPTH_BIT), pDepthStencil->depth,
		                   cmd->depth);
	cmd->stencil = uint8_t(pDepthStencil->stencil);
	cmd->ranges = cb->Copy(pRanges, rangeCount);
	cmd->range_count = cmd->ranges ? rangeCount : 0;
}

}  // namespace tessera::entry
