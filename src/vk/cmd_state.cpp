// Commands that set state for later commands of the same submission:
// vkCmdPushConstants, vkCmdBindDescriptorSets and the push descriptor
// commands of VK_KHR_push_descriptor (Vulkan 1.3 §14.2.7, §14.2.10). They
// copy into ExecutionContext when they execute, so state follows command
// order even across secondary command buffers.
//
// A push writes a new set in the command buffer's memory: a copy of the set
// the previous push to that set number made, with the push's writes applied,
// then binds it like vkCmdBindDescriptorSets. Draws recorded between two
// pushes keep seeing the first set, as the spec's incremental updates ask.
#include <algorithm>
#include <cstring>

#include "vk/command_buffer.h"
#include "vk/descriptor_set.h"
#include "vk/descriptor_update_template.h"
#include "vk/device.h"
#include "vk/pipeline_layout.h"

namespace tessera::vk {

namespace {

struct PushConstantsCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	uint32_t offset;
	uint32_t size;
	const uint8_t* bytes;

	void Execute(ExecutionContext& context) const { std::memcpy(context.push_constants + offset, bytes, size); }
};

// One set of a vkCmdBindDescriptorSets call, resolved at record time.
struct SetBinding {
	const uint8_t* data;
	uint64_t size;  // bytes of data
	uint32_t variable_count;
	uint32_t dynamic_first;  // into BindDescriptorSetsCommand::dynamic_offsets
	uint32_t dynamic_count;
};

struct BindDescriptorSetsCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	BindPoint bind_point;
	uint32_t first_set;
	uint32_t set_count;
	const SetBinding* sets;
	const uint32_t* dynamic_offsets;

	void Execute(ExecutionContext& context) const {
		BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
		for (uint32_t i = 0; i < set_count; ++i) {
			bound.sets[first_set + i] = sets[i].data;
			bound.sizes[first_set + i] = sets[i].size;
			bound.variable_counts[first_set + i] = sets[i].variable_count;
			// dynamic_offsets is null when the call passed none.
			bound.dynamic_offsets[first_set + i] =
			    sets[i].dynamic_count ? dynamic_offsets + sets[i].dynamic_first : nullptr;
			bound.dynamic_counts[first_set + i] = sets[i].dynamic_count;
		}
	}
};

// vkCmdBindDescriptorBuffersEXT: the buffers bound from index 0 on; those
// past them are unbound (Vulkan 1.3 §14.3.2).
struct BindDescriptorBuffersCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	uint32_t count;
	const uint8_t* const* addresses;

	void Execute(ExecutionContext& context) const {
		for (uint32_t i = 0; i < kMaxDescriptorBufferBindings; ++i)
			context.descriptor_buffers[i] = i < count ? addresses[i] : nullptr;
	}
};

// One set of a vkCmdSetDescriptorBufferOffsetsEXT call: a place in a bound
// descriptor buffer, or (vkCmdBindDescriptorBufferEmbeddedSamplersEXT) a
// layout's embedded samplers copied into the command buffer.
struct BufferSetBinding {
	uint32_t buffer_index;  // kEmbedded: `embedded` holds the set
	uint32_t variable_count;
	uint64_t offset;  // into the buffer; for kEmbedded, the bytes at `embedded`
	const uint8_t* embedded;
	static constexpr uint32_t kEmbedded = ~0u;
};

struct SetDescriptorBufferOffsetsCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	BindPoint bind_point;
	uint32_t first_set;
	uint32_t set_count;
	const BufferSetBinding* sets;

	void Execute(ExecutionContext& context) const {
		BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
		for (uint32_t i = 0; i < set_count; ++i) {
			const BufferSetBinding& set = sets[i];
			const uint32_t s = first_set + i;
			bound.dynamic_offsets[s] = nullptr;  // descriptor buffer layouts have no dynamic buffers
			bound.dynamic_counts[s] = 0;
			bound.variable_counts[s] = set.variable_count;
			if (set.buffer_index == BufferSetBinding::kEmbedded) {
				bound.sets[s] = set.embedded;
				bound.sizes[s] = set.offset;
				continue;
			}
			const uint8_t* buffer = set.buffer_index < kMaxDescriptorBufferBindings
			                            ? context.descriptor_buffers[set.buffer_index]
			                            : nullptr;
			// Shaders read no further than the allocation the set lies in.
			const uint8_t* data = buffer ? buffer + set.offset : nullptr;
			bound.sizes[s] = data ? context.device->BytesInMemoryFrom(data) : 0;
			bound.sets[s] = bound.sizes[s] ? data : nullptr;
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

// Command buffer memory for a set: 16-byte aligned, as descriptor_set.h asks.
void* AllocateAligned(CommandBuffer& cb, size_t bytes) {
	struct alignas(16) Block {
		uint8_t bytes[16];
	};
	static_assert(sizeof(DescriptorSet) % sizeof(Block) == 0);
	return cb.AllocateArray<Block>((bytes + 15) / 16);
}

// Whether descriptors pushed with one layout are still defined under
// another: the same object, or one that places the same bindings the same way.
bool SameShape(const DescriptorSetLayout& a, const DescriptorSetLayout& b) {
	if (&a == &b) return true;
	if (a.Bindings().size() != b.Bindings().size() || a.SetSize(0) != b.SetSize(0)) return false;
	for (size_t i = 0; i < a.Bindings().size(); ++i) {
		const DescriptorBinding &x = a.Bindings()[i], &y = b.Bindings()[i];
		if (x.binding != y.binding || x.type != y.type || x.count != y.count || x.offset != y.offset) return false;
	}
	return true;
}

// The set a push to set number `set` writes into and binds, or null (an
// invalid set number or layout, or no memory).
DescriptorSet* BeginPush(CommandBuffer& cb, BindPoint bind_point, VkPipelineLayout pipeline_layout, uint32_t set) {
	const PipelineLayout* layout = PipelineLayout::Cast(pipeline_layout);
	if (!layout || set >= layout->SetCount() || set >= kMaxBoundDescriptorSets) return nullptr;
	const DescriptorSetLayout* set_layout = layout->SetLayout(set);
	if (!set_layout) return nullptr;
	const uint64_t size = set_layout->SetSize(0);
	void* memory = AllocateAligned(cb, DescriptorSet::AllocationSize(size));
	if (!memory) return nullptr;
	const DescriptorSet*& last = cb.LastPushSet(bind_point, set);
	const DescriptorSet* previous = last && SameShape(last->Layout(), *set_layout) ? last : nullptr;
	DescriptorSet* pushed = DescriptorSet::PlacePushSet(memory, *set_layout, uint32_t(size), previous);
	last = pushed;
	return pushed;
}

void BindPushSet(CommandBuffer& cb, BindPoint bind_point, uint32_t set, const DescriptorSet& pushed) {
	SetBinding* binding = cb.AllocateArray<SetBinding>(1);
	if (!binding) return;
	*binding = {pushed.Data(), pushed.Size(), 0, 0, 0};  // a push layout has no variable-count binding, no dynamic
	                                                     // buffers
	if (auto* cmd = cb.Add<BindDescriptorSetsCommand>()) {
		cmd->bind_point = bind_point;
		cmd->first_set = set;
		cmd->set_count = 1;
		cmd->sets = binding;
		cmd->dynamic_offsets = nullptr;
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
		// Valid use passes one offset per dynamic buffer; fewer leave the
		// rest at zero (shader_resources.cpp, ResolveBuffer).
		const uint32_t dynamic = std::min(set ? set->Layout().DynamicCount() : 0, dynamicOffsetCount - consumed);
		sets[i] = {set ? set->Data() : nullptr, set ? set->Size() : 0, set ? set->VariableCount() : 0, consumed,
		           dynamic};
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

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                   VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                                                   const VkWriteDescriptorSet* pDescriptorWrites) {
	vk::BindPoint bind_point;
	if (!vk::ToBindPoint(pipelineBindPoint, &bind_point)) return;
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	vk::DescriptorSet* pushed = vk::BeginPush(*cb, bind_point, layout, set);
	if (!pushed) return;
	for (uint32_t i = 0; i < descriptorWriteCount; ++i) vk::WriteDescriptors(*pushed, pDescriptorWrites[i]);
	vk::BindPushSet(*cb, bind_point, set, *pushed);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                               VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                               VkPipelineLayout layout, uint32_t set,
                                                               const void* pData) {
	const auto* update_template = vk::DescriptorUpdateTemplate::Cast(descriptorUpdateTemplate);
	vk::BindPoint bind_point;
	if (!vk::ToBindPoint(update_template->PipelineBindPoint(), &bind_point)) return;
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	vk::DescriptorSet* pushed = vk::BeginPush(*cb, bind_point, layout, set);
	if (!pushed) return;
	update_template->Update(*pushed, pData);
	vk::BindPushSet(*cb, bind_point, set, *pushed);
}

// VK_EXT_descriptor_buffer (Vulkan 1.3 §14.3). Addresses are host
// pointers (vkGetBufferDeviceAddress), so a set's memory in a descriptor
// buffer is read like a descriptor set's.
VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorBuffersEXT(VkCommandBuffer commandBuffer, uint32_t bufferCount,
                                                       const VkDescriptorBufferBindingInfoEXT* pBindingInfos) {
	bufferCount = std::min(bufferCount, vk::kMaxDescriptorBufferBindings);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const uint8_t** addresses = cb->AllocateArray<const uint8_t*>(bufferCount);
	if (bufferCount && !addresses) return;
	for (uint32_t i = 0; i < bufferCount; ++i)
		addresses[i] = reinterpret_cast<const uint8_t*>(uintptr_t(pBindingInfos[i].address));
	if (auto* cmd = cb->Add<vk::BindDescriptorBuffersCommand>()) {
		cmd->count = bufferCount;
		cmd->addresses = addresses;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdSetDescriptorBufferOffsetsEXT(VkCommandBuffer commandBuffer,
                                                            VkPipelineBindPoint pipelineBindPoint,
                                                            VkPipelineLayout layout, uint32_t firstSet,
                                                            uint32_t setCount, const uint32_t* pBufferIndices,
                                                            const VkDeviceSize* pOffsets) {
	vk::BindPoint bind_point;
	if (!vk::ToBindPoint(pipelineBindPoint, &bind_point)) return;
	if (firstSet >= vk::kMaxBoundDescriptorSets) return;
	setCount = std::min(setCount, vk::kMaxBoundDescriptorSets - firstSet);
	const vk::PipelineLayout* pipeline_layout = vk::PipelineLayout::Cast(layout);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	vk::BufferSetBinding* sets = cb->AllocateArray<vk::BufferSetBinding>(setCount);
	if (setCount && !sets) return;
	for (uint32_t i = 0; i < setCount; ++i) {
		// A variable-count binding is read up to the layout's bound; the
		// application decides how many of those it writes (Vulkan 1.3 §14.3.1).
		const uint32_t set = firstSet + i;
		const vk::DescriptorSetLayout* set_layout =
		    pipeline_layout && set < pipeline_layout->SetCount() ? pipeline_layout->SetLayout(set) : nullptr;
		const vk::DescriptorBinding* variable = set_layout ? set_layout->VariableBinding() : nullptr;
		sets[i] = {pBufferIndices[i], variable ? variable->count : 0, pOffsets[i], nullptr};
	}
	if (auto* cmd = cb->Add<vk::SetDescriptorBufferOffsetsCommand>()) {
		cmd->bind_point = bind_point;
		cmd->first_set = firstSet;
		cmd->set_count = setCount;
		cmd->sets = sets;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorBufferEmbeddedSamplersEXT(VkCommandBuffer commandBuffer,
                                                                      VkPipelineBindPoint pipelineBindPoint,
                                                                      VkPipelineLayout layout, uint32_t set) {
	vk::BindPoint bind_point;
	if (!vk::ToBindPoint(pipelineBindPoint, &bind_point)) return;
	const vk::PipelineLayout* pipeline_layout = vk::PipelineLayout::Cast(layout);
	if (!pipeline_layout || set >= pipeline_layout->SetCount() || set >= vk::kMaxBoundDescriptorSets) return;
	const vk::DescriptorSetLayout* set_layout = pipeline_layout->SetLayout(set);
	if (!set_layout) return;
	// Copied: the layouts may be destroyed once recording ends.
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const size_t size = set_layout->EmbeddedSamplersSize();
	void* memory = size ? vk::AllocateAligned(*cb, size) : nullptr;
	vk::BufferSetBinding* binding = cb->AllocateArray<vk::BufferSetBinding>(1);
	if ((size && !memory) || !binding) return;
	if (size) std::memcpy(memory, set_layout->EmbeddedSamplers(), size);
	*binding = {vk::BufferSetBinding::kEmbedded, 0, size, reinterpret_cast<const uint8_t*>(memory)};
	if (auto* cmd = cb->Add<vk::SetDescriptorBufferOffsetsCommand>()) {
		cmd->bind_point = bind_point;
		cmd->first_set = set;
		cmd->set_count = 1;
		cmd->sets = binding;
	}
}

// VK_KHR_maintenance6: the binding commands with their parameters in a
// structure, the bind points named by shader stages: the compute one for
// VK_SHADER_STAGE_COMPUTE_BIT, the graphics one for any graphics stage
// (both when both are named).
namespace {

template <typename Bind>
void ForBindPoints(VkShaderStageFlags stages, Bind bind) {
	if (stages & VK_SHADER_STAGE_ALL_GRAPHICS) bind(VK_PIPELINE_BIND_POINT_GRAPHICS);
	if (stages & VK_SHADER_STAGE_COMPUTE_BIT) bind(VK_PIPELINE_BIND_POINT_COMPUTE);
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets2KHR(VkCommandBuffer commandBuffer,
                                                     const VkBindDescriptorSetsInfoKHR* pBindDescriptorSetsInfo) {
	const VkBindDescriptorSetsInfoKHR& info = *pBindDescriptorSetsInfo;
	ForBindPoints(info.stageFlags, [&](VkPipelineBindPoint point) {
		CmdBindDescriptorSets(commandBuffer, point, info.layout, info.firstSet, info.descriptorSetCount,
		                      info.pDescriptorSets, info.dynamicOffsetCount, info.pDynamicOffsets);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants2KHR(VkCommandBuffer commandBuffer,
                                                const VkPushConstantsInfoKHR* pPushConstantsInfo) {
	// Push constants are one block for every bind point.
	const VkPushConstantsInfoKHR& info = *pPushConstantsInfo;
	CmdPushConstants(commandBuffer, info.layout, info.stageFlags, info.offset, info.size, info.pValues);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSet2KHR(VkCommandBuffer commandBuffer,
                                                    const VkPushDescriptorSetInfoKHR* pPushDescriptorSetInfo) {
	const VkPushDescriptorSetInfoKHR& info = *pPushDescriptorSetInfo;
	ForBindPoints(info.stageFlags, [&](VkPipelineBindPoint point) {
		CmdPushDescriptorSetKHR(commandBuffer, point, info.layout, info.set, info.descriptorWriteCount,
		                        info.pDescriptorWrites);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplate2KHR(
    VkCommandBuffer commandBuffer, const VkPushDescriptorSetWithTemplateInfoKHR* pPushDescriptorSetWithTemplateInfo) {
	// The template names its bind point.
	const VkPushDescriptorSetWithTemplateInfoKHR& info = *pPushDescriptorSetWithTemplateInfo;
	CmdPushDescriptorSetWithTemplateKHR(commandBuffer, info.descriptorUpdateTemplate, info.layout, info.set,
	                                    info.pData);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDescriptorBufferOffsets2EXT(
    VkCommandBuffer commandBuffer, const VkSetDescriptorBufferOffsetsInfoEXT* pSetDescriptorBufferOffsetsInfo) {
	const VkSetDescriptorBufferOffsetsInfoEXT& info = *pSetDescriptorBufferOffsetsInfo;
	ForBindPoints(info.stageFlags, [&](VkPipelineBindPoint point) {
		CmdSetDescriptorBufferOffsetsEXT(commandBuffer, point, info.layout, info.firstSet, info.setCount,
		                                 info.pBufferIndices, info.pOffsets);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorBufferEmbeddedSamplers2EXT(
    VkCommandBuffer commandBuffer,
    const VkBindDescriptorBufferEmbeddedSamplersInfoEXT* pBindDescriptorBufferEmbeddedSamplersInfo) {
	const VkBindDescriptorBufferEmbeddedSamplersInfoEXT& info = *pBindDescriptorBufferEmbeddedSamplersInfo;
	ForBindPoints(info.stageFlags, [&](VkPipelineBindPoint point) {
		CmdBindDescriptorBufferEmbeddedSamplersEXT(commandBuffer, point, info.layout, info.set);
	});
}

}  // namespace tessera::entry
