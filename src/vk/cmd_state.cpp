// Commands that set state for later commands of the same submission:
// vkCmdPushConstants and vkCmdBindDescriptorSets (Vulkan 1.3 §14.2.7,
// §14.2.10). They copy into ExecutionContext when they execute, so state
// follows command order even across secondary command buffers.
#include <algorithm>
#include <cstring>

#include "vk/command_buffer.h"
#include "vk/descriptor_set.h"

namespace tessera::vk {

namespace {

struct PushConstantsCommand : Command {
	uint32_t offset;
	uint32_t size;
	const uint8_t* bytes;

	void Execute(ExecutionContext& context) const { std::memcpy(context.push_constants + offset, bytes, size); }
};

// One set of a vkCmdBindDescriptorSets call, resolved at record time.
struct SetBinding {
	const uint8_t* data;
	uint32_t dynamic_first;  // into BindDescriptorSetsCommand::dynamic_offsets
	uint32_t dynamic_count;
};

struct BindDescriptorSetsCommand : Command {
	BindPoint bind_point;
	uint32_t first_set;
	uint32_t set_count;
	const SetBinding* sets;
	const uint32_t* dynamic_offsets;

	void Execute(ExecutionContext& context) const {
		BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
		for (uint32_t i = 0; i < set_count; ++i) {
			bound.sets[first_set + i] = sets[i].data;
			// dynamic_offsets is null when the call passed none.
			if (sets[i].dynamic_count)
				std::memcpy(bound.dynamic_offsets[first_set + i], dynamic_offsets + sets[i].dynamic_first,
				            sets[i].dynamic_count * sizeof(uint32_t));
		}
	}
};

bool ToBindPoint(VkPipelineBindPoint point, BindPoint* out) {
	switch (point) {
	case VK_PIPELINE_BIND_POINT_GRAPHICS: *out = BindPoint::Graphics; return true;
	case VK_PIPELINE_BIND_POINT_COMPUTE: *out = BindPoint::Compute; return true;
	default: return false;  // ray tracing is not offered
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags,
                                            uint32_t offset, uint32_t size, const void* pValues) {
	// Valid use keeps offset + size within maxPushConstantsSize; clamp so
	// that invalid use cannot write past the block.
	if (offset >= vk::kMaxPushConstantsSize) return;
	size = std::min(size, vk::kMaxPushConstantsSize - offset);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const uint8_t* bytes = cb->Copy(static_cast<const uint8_t*>(pValues), size);
	if (!bytes) return;
	if (auto* cmd = cb->Add<vk::PushConstantsCommand>()) {
		cmd->offset = offset;
		cmd->size = size;
		cmd->bytes = bytes;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                 VkPipelineLayout, uint32_t firstSet, uint32_t descriptorSetCount,
                                                 const VkDescriptorSet* pDescriptorSets, uint32_t dynamicOffsetCount,
                                                 const uint32_t* pDynamicOffsets) {
	vk::BindPoint bind_point;
	if (!vk::ToBindPoint(pipelineBindPoint, &bind_point)) return;
	if (firstSet >= vk::kMaxBoundDescriptorSets) return;
	descriptorSetCount = std::min(descriptorSetCount, vk::kMaxBoundDescriptorSets - firstSet);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	vk::SetBinding* sets = cb->AllocateArray<vk::SetBinding>(descriptorSetCount);
	if (!sets) return;
	// Vulkan 1.3 §14.2.7: pDynamicOffsets holds each set's dynamic
	// descriptors in order of set, then binding, then array element.
	uint32_t consumed = 0;
	for (uint32_t i = 0; i < descriptorSetCount; ++i) {
		const vk::DescriptorSet* set = vk::DescriptorSet::Cast(pDescriptorSets[i]);
		uint32_t dynamic = set ? std::min(set->Layout().DynamicCount(), vk::kMaxDynamicBuffers) : 0;
		dynamic = std::min(dynamic, dynamicOffsetCount - consumed);
		sets[i] = {set ? set->Data() : nullptr, consumed, dynamic};
		consumed += dynamic;
	}
	const uint32_t* offsets = cb->Copy(pDynamicOffsets, consumed);
	if (consumed && !offsets) return;
	if (auto* cmd = cb->Add<vk::BindDescriptorSetsCommand>()) {
		cmd->bind_point = bind_point;
		cmd->first_set = firstSet;
		cmd->set_count = descriptorSetCount;
		cmd->sets = sets;
		cmd->dynamic_offsets = offsets;
	}
}

}  // namespace tessera::entry
