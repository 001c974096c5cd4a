// Pipeline barriers and events inside command buffers (Vulkan 1.3 §7).
//
// The queue thread executes commands one after another, and a command that
// spreads work over the thread pool joins it before it returns, so every
// execution and memory dependency a barrier can express already holds.
// Images keep one memory layout whatever their VkImageLayout, so layout
// transitions move no bytes. Barriers therefore record nothing: neither the
// access flags of VkMemoryBarrierAccessFlags3KHR nor the stages that
// VK_DEPENDENCY_QUEUE_FAMILY_OWNERSHIP_TRANSFER_USE_ALL_STAGES_BIT_KHR makes
// count in an ownership transfer (VK_KHR_maintenance8) ask for more: all
// memory is the host's, and an ownership transfer moves nothing.
#include "vk/command_buffer.h"
#include "vk/sync.h"

namespace tessera::vk {

namespace {

struct SetEventCommand : Command {
	Event* event;
	bool set;
	void Execute(ExecutionContext&) const { event->Set(set); }
};

// The host may set the event later (vkSetEvent), so the queue waits for it.
struct WaitEventsCommand : Command {
	const VkEvent* events;
	uint32_t count;
	void Execute(ExecutionContext&) const {
		for (uint32_t i = 0; i < count; ++i) Event::Cast(events[i])->WaitSet();
	}
};

void RecordSetEvent(VkCommandBuffer commandBuffer, VkEvent event, bool set) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<SetEventCommand>()) {
		cmd->event = Event::Cast(event);
		cmd->set = set;
	}
}

void RecordWaitEvents(VkCommandBuffer commandBuffer, uint32_t count, const VkEvent* events) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	if (auto* cmd = cb->Add<WaitEventsCommand>()) {
		cmd->events = cb->Copy(events, count);
		cmd->count = cmd->events ? count : 0;
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags,
                                              VkDependencyFlags, uint32_t, const VkMemoryBarrier*, uint32_t,
                                              const VkBufferMemoryBarrier*, uint32_t, const VkImageMemoryBarrier*) {}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer, const VkDependencyInfo*) {}

VKAPI_ATTR void VKAPI_CALL CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
	vk::RecordSetEvent(commandBuffer, event, true);
}

VKAPI_ATTR void VKAPI_CALL CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event, const VkDependencyInfo*) {
	vk::RecordSetEvent(commandBuffer, event, true);
}

VKAPI_ATTR void VKAPI_CALL CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
	vk::RecordSetEvent(commandBuffer, event, false);
}

VKAPI_ATTR void VKAPI_CALL CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags2) {
	vk::RecordSetEvent(commandBuffer, event, false);
}

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                         VkPipelineStageFlags, VkPipelineStageFlags, uint32_t, const VkMemoryBarrier*,
                                         uint32_t, const VkBufferMemoryBarrier*, uint32_t,
                                         const VkImageMemoryBarrier*) {
	vk::RecordWaitEvents(commandBuffer, eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                          const VkDependencyInfo*) {
	vk::RecordWaitEvents(commandBuffer, eventCount, pEvents);
}

}  // namespace tessera::entry
