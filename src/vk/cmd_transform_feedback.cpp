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

// The counter locations of a begin or end, resolved at record time.
const XfbCounter* RecordCounters(CommandBuffer& cb, uint32_t first, uint32_t& count, const VkBuffer* buffers,
                                 const VkDeviceSize* offsets) {
	if (first >= kMaxXfbBuffers || !buffers) {
		count = 0;
		return nullptr;
	}
	count = std::min(count, kMaxXfbBuffers - first);
	XfbCounter* counters = cb.AllocateArray<XfbCounter>(count);
	if (!counters) {
		count = 0;
		return nullptr;
	}
	for (uint32_t i = 0; i < count; ++i) {
		const Buffer* buffer = Buffer::Cast(buffers[i]);
		const VkDeviceSize offset = offsets ? offsets[i] : 0;
		const bool fits = buffer && buffer->Data() && offset + 4 <= buffer->Size();
		counters[i] = {first + i, fits ? buffer->Data() + offset : nullptr};
	}
	return counters;
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;

VKAPI_ATTR void VKAPI_CALL CmdBindTransformFeedbackBuffersEXT(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                              uint32_t bindingCount, const VkBuffer* pBuffers,
                                                              const VkDeviceSize* pOffsets,
                                                              const VkDeviceSize* pSizes) {
	if (firstBinding >= vk::kMaxXfbBuffers) return;
	bindingCount = std::min(bindingCount, vk::kMaxXfbBuffers - firstBinding);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* buffers = cb->AllocateArray<vk::GraphicsContext::XfbBuffer>(bindingCount);
	if (!buffers) return;
	for (uint32_t i = 0; i < bindingCount; ++i) {
		buffers[i] = {};
		const vk::Buffer* buffer = vk::Buffer::Cast(pBuffers[i]);
		if (!buffer || !buffer->Data() || pOffsets[i] > buffer->Size()) continue;
		// §26.1: the size given, or the rest of the buffer, whichever is less.
		uint64_t size = buffer->Size() - pOffsets[i];
		if (pSizes && pSizes[i] != VK_WHOLE_SIZE) size = std::min<uint64_t>(size, pSizes[i]);
		buffers[i] = {buffer->Data() + pOffsets[i], size};
	}
	if (auto* cmd = cb->Add<vk::BindXfbBuffersCommand>()) {
		cmd->first = firstBinding;
		cmd->count = bindingCount;
		cmd->buffers = buffers;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdBeginTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                        uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                        const VkDeviceSize* pCounterBufferOffsets) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters =
	    vk::RecordCounters(*cb, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
	if (auto* cmd = cb->Add<vk::BeginXfbCommand>()) {
		cmd->counters = counters;
		cmd->count = counterBufferCount;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                      uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                      const VkDeviceSize* pCounterBufferOffsets) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const vk::XfbCounter* counters =
	    vk::RecordCounters(*cb, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
	if (auto* cmd = cb->Add<vk::EndXfbCommand>()) {
		cmd->counters = counters;
		cmd->count = counterBufferCount;
	}
}

}  // namespace tessera::entry
