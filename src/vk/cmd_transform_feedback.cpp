// VK_EXT_transform_feedback's state commands (Vulkan 1.3 §26.1 "Transform
// Feedback"): binding the buffers, and beginning and ending capture with the
// byte counters that let a later capture resume where this one stopped.
// Draws do the capturing (vk/draw.cpp, CaptureTransformFeedback); the stream
// queries are ordinary queries (vk/query_pool.cpp).
#include <algorithm>
#include <cstring>

#include "vk/buffer.h"
#include "vk/command_buffer.h"

namespace tessera::vk {

namespace {

constexpr uint32_t kMaxXfbBuffers = shader::kMaxXfbBuffers;

struct BindXfbBuffersCommand : Command {
	uint32_t first, count;
	const GraphicsContext::XfbBuffer* buffers;
	void Execute(ExecutionContext& context) const {
		std::copy(buffers, buffers + count, context.graphics.xfb_buffers + first);
	}
};

// One counter buffer location of a begin or end: binding `binding`'s count
// of captured bytes, 4 bytes at data (null: none given).
struct XfbCounter {
	uint32_t binding;
	uint8_t* data;
};

struct BeginXfbCommand : Command {
	const XfbCounter* counters;
	uint32_t count;
	void Execute(ExecutionContext& context) const {
		GraphicsContext& g = context.graphics;
		g.xfb_active = true;
		// Without a counter a binding captures from its start; with one,
		// after the bytes the counter holds.
		std::fill(std::begin(g.xfb_written), std::end(g.xfb_written), 0);
		for (uint32_t i = 0; i < count; ++i) {
			uint32_t bytes = 0;
			if (counters[i].data) std::memcpy(&bytes, counters[i].data, 4);
			g.xfb_written[counters[i].binding] = bytes;
		}
	}
};

struct EndXfbCommand : Command {
	const XfbCounter* counters;
	uint32_t count;
	void Execute(ExecutionContext& context) const {
		GraphicsContext& g = context.graphics;
		g.xfb_active = false;
		for (uint32_t i = 0; i < count; ++i) {
			if (!counters[i].data) continue;
			const uint32_t bytes = uint32_t(g.xfb_written[counters[i].binding]);
			std::memcpy(counters[i].data, &bytes, 4);
		}
	}
};

// The counter locations of a begin or end, resolved at record time:
// range_of(i) is counter i's memory (none: no counter).
template <typename RangeOf>
const XfbCounter* RecordCounters(CommandBuffer& cb, uint32_t first, uint32_t& count, bool given, RangeOf range_of) {
	if (first >= kMaxXfbBuffers || !given) {
		count = 0;
		return nullptr;
	}
	count = std::min(count, kMaxXfbBuffers - first);
	XfbCounter* counters = cb.AllocateArray<XfbCounter>(count);
	if (!counters) {
		count = 0;
		return nullptr;
	}
	for (uint32_t i = 0; i < count; ++i) counters[i] = {first + i, range_of(i).At(0, 4)};
	return counters;
}

const XfbCounter* RecordCounters(CommandBuffer& cb, uint32_t first, uint32_t& count, const VkBuffer* buffers,
                                 const VkDeviceSize* offsets) {
	return RecordCounters(cb, first, count, buffers != nullptr,
	                      [&](uint32_t i) { return RangeOf(Buffer::Cast(buffers[i]), offsets ? offsets[i] : 0); });
}

// VK_KHR_device_address_commands: a counter is a range of at least 4
// bytes; size 0 (or no infos) names none.
const XfbCounter* RecordCounters(CommandBuffer& cb, uint32_t first, uint32_t& count,
                                 const VkBindTransformFeedbackBuffer2InfoEXT* infos) {
	return RecordCounters(cb, first, count, infos != nullptr, [&](uint32_t i) {
		return infos[i].addressRange.size ? RangeOf(infos[i].addressRange.address, infos[i].addressRange.size)
		                                  : MemoryRange{};
	});
}

template <typename Command>
void RecordCounterCommand(CommandBuffer& cb, const XfbCounter* counters, uint32_t count) {
	if (auto* cmd = cb.Add<Command>()) {
		cmd->counters = counters;
		cmd->count = count;
	}
}

// Bindings first.. of the ranges range_of(i) gives (size: how much of the
// range capture may use).
template <typename RangeOf>
void RecordBindings(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count, RangeOf range_of) {
	if (first >= kMaxXfbBuffers) return;
	count = std::min(count, kMaxXfbBuffers - first);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* buffers = cb->AllocateArray<GraphicsContext::XfbBuffer>(count);
	if (!buffers) return;
	for (uint32_t i = 0; i < count; ++i) {
		const MemoryRange range = range_of(i);
		buffers[i] = {range.data, range.data ? range.size : 0};
	}
	if (auto* cmd = cb->Add<BindXfbBuffersCommand>()) {
		cmd->first = first;
		cmd->count = count;
		cmd->buffers = buffers;
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;

VKAPI_ATTR void VKAPI_CALL CmdBindTransformFeedbackBuffersEXT(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                              uint32_t bindingCount, const VkBuffer* pBuffers,
                                                              const VkDeviceSize* pOffsets,
                                                              const VkDeviceSize* pSizes) {
	vk::RecordBindings(commandBuffer, firstBinding, bindingCount, [&](uint32_t i) {
		// §26.1: the size given, or the rest of the buffer, whichever is less.
		vk::MemoryRange range = vk::RangeOf(vk::Buffer::Cast(pBuffers[i]), pOffsets[i]);
		if (pSizes && pSizes[i] != VK_WHOLE_SIZE) range.size = std::min<uint64_t>(range.size, pSizes[i]);
		return range;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdBeginTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                        uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                        const VkDeviceSize* pCounterBufferOffsets) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters =
	    vk::RecordCounters(*cb, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
	vk::RecordCounterCommand<vk::BeginXfbCommand>(*cb, counters, counterBufferCount);
}

VKAPI_ATTR void VKAPI_CALL CmdEndTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                      uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                      const VkDeviceSize* pCounterBufferOffsets) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters =
	    vk::RecordCounters(*cb, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
	vk::RecordCounterCommand<vk::EndXfbCommand>(*cb, counters, counterBufferCount);
}

// VK_KHR_device_address_commands: the same with address ranges.
VKAPI_ATTR void VKAPI_CALL
CmdBindTransformFeedbackBuffers2EXT(VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
                                    const VkBindTransformFeedbackBuffer2InfoEXT* pBindingInfos) {
	vk::RecordBindings(commandBuffer, firstBinding, bindingCount, [&](uint32_t i) {
		return vk::RangeOf(pBindingInfos[i].addressRange.address, pBindingInfos[i].addressRange.size);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdBeginTransformFeedback2EXT(VkCommandBuffer commandBuffer, uint32_t firstCounterRange,
                                                         uint32_t counterRangeCount,
                                                         const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfos) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters = vk::RecordCounters(*cb, firstCounterRange, counterRangeCount, pCounterInfos);
	vk::RecordCounterCommand<vk::BeginXfbCommand>(*cb, counters, counterRangeCount);
}

VKAPI_ATTR void VKAPI_CALL CmdEndTransformFeedback2EXT(VkCommandBuffer commandBuffer, uint32_t firstCounterRange,
                                                       uint32_t counterRangeCount,
                                                       const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfos) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters = vk::RecordCounters(*cb, firstCounterRange, counterRangeCount, pCounterInfos);
	vk::RecordCounterCommand<vk::EndXfbCommand>(*cb, counters, counterRangeCount);
}

}  // namespace tessera::entry
