// VK_EXT_conditional_rendering (Vulkan 1.3 §21.x "Conditional Rendering"):
// between begin and end, draws, dispatches and vkCmdClearAttachments run
// only when the 32-bit predicate in a buffer is non-zero (zero with
// VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT). The predicate is read once,
// when the begin executes: the spec lets an implementation latch it. A
// secondary command buffer runs with its primary's context, so the
// condition reaches it (inheritedConditionalRendering).
#include <cstring>

#include "vk/buffer.h"
#include "vk/command_buffer.h"

namespace tessera::vk {

namespace {

struct BeginConditionalRenderingCommand : Command {
	const uint8_t* predicate;  // null: outside the buffer (invalid use), read as zero
	bool inverted;
	void Execute(ExecutionContext& context) const {
		uint32_t value = 0;
		if (predicate) std::memcpy(&value, predicate, 4);
		context.conditional_discard = inverted ? value != 0 : value == 0;
	}
};

struct EndConditionalRenderingCommand : Command {
	void Execute(ExecutionContext& context) const { context.conditional_discard = false; }
};

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;

VKAPI_ATTR void VKAPI_CALL CmdBeginConditionalRenderingEXT(
    VkCommandBuffer commandBuffer, const VkConditionalRenderingBeginInfoEXT* pConditionalRenderingBegin) {
	const vk::Buffer* buffer = vk::Buffer::Cast(pConditionalRenderingBegin->buffer);
	const VkDeviceSize offset = pConditionalRenderingBegin->offset;
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::BeginConditionalRenderingCommand>()) {
		cmd->predicate = vk::RangeOf(buffer, offset).At(0, 4);
		cmd->inverted = (pConditionalRenderingBegin->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) != 0;
	}
}

// VK_KHR_device_address_commands: the predicate at an address.
VKAPI_ATTR void VKAPI_CALL CmdBeginConditionalRendering2EXT(
    VkCommandBuffer commandBuffer, const VkConditionalRenderingBeginInfo2EXT* pConditionalRenderingBegin) {
	const VkDeviceAddressRangeKHR& range = pConditionalRenderingBegin->addressRange;
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::BeginConditionalRenderingCommand>()) {
		cmd->predicate = vk::RangeOf(range.address, range.size).At(0, 4);
		cmd->inverted = (pConditionalRenderingBegin->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) != 0;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndConditionalRenderingEXT(VkCommandBuffer commandBuffer) {
	CommandBuffer::Cast(commandBuffer)->Add<vk::EndConditionalRenderingCommand>();
}

}  // namespace tessera::entry
