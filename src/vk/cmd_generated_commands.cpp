// VK_EXT_device_generated_commands' commands (Vulkan "Device-Generated
// Commands"): vkCmdExecuteGeneratedCommandsEXT records one command that, when
// it executes on the queue thread, reads the application's indirect buffer
// through its device address and performs each sequence's tokens against the
// ExecutionContext as the commands they stand for (vkCmdBindPipeline,
// vkCmdPushConstants, vkCmdBindIndexBuffer, vkCmdBindVertexBuffers2, the
// draws and the dispatch). Nothing is generated ahead: the preprocess buffer
// Tessera asks for is empty and vkCmdPreprocessGeneratedCommandsEXT records
// nothing, so a preprocessed execution reads the same input at execution.
//
// Application memory is read only where the device's live allocations hold
// it (Device::BytesInMemoryFrom): a sequence whose data or addresses lie
// outside skips its action and stops the command, reported through the
// debug-utils messengers.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "icd/vulkan_newer.h"
#include "vk/action.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/indirect_commands_layout.h"
#include "vk/indirect_execution_set.h"
#include "vk/physical_device.h"
#include "vk/pipeline.h"

namespace tessera::vk {

namespace {

// DXGI_FORMAT values of D3D12_INDEX_BUFFER_VIEW::Format, which the DXGI
// input mode reads in place of a VkIndexType.
constexpr uint32_t kDxgiR32Uint = 42;
constexpr uint32_t kDxgiR16Uint = 57;
constexpr uint32_t kDxgiR8Uint = 62;

// The host pointer behind a device address when `bytes` from it lie in one
// live allocation (device addresses are host pointers), else null.
const uint8_t* CheckedAddress(const Device& device, VkDeviceAddress address, uint64_t bytes) {
	if (!address) return nullptr;
	const auto* pointer = reinterpret_cast<const uint8_t*>(address);
	return device.BytesInMemoryFrom(pointer) >= bytes ? pointer : nullptr;
}

template <typename T>
T Load(const uint8_t* from) {
	T value;
	std::memcpy(&value, from, sizeof value);
	return value;
}

struct GeneratedCommands {
	const IndirectToken* tokens;
	uint32_t token_count;
	uint32_t stride;
	uint32_t extent;                            // bytes of a sequence the tokens read
	const IndirectExecutionSet* execution_set;  // null without an execution set token
	VkDeviceAddress indirect_address;
	VkDeviceAddress sequence_count_address;  // 0: max_sequence_count sequences
	uint32_t max_sequence_count;
	uint32_t max_draw_count;  // clamps the count tokens' commandCount
};

class SequenceRunner {
public:
	SequenceRunner(ExecutionContext& context, const GeneratedCommands& commands)
	    : context_(context), device_(*context.device), commands_(commands) {}

	void Run() {
		uint32_t count = commands_.max_sequence_count;
		if (commands_.sequence_count_address) {
			const uint8_t* stored = CheckedAddress(device_, commands_.sequence_count_address, sizeof(uint32_t));
			if (!stored) return Fail("sequenceCountAddress is outside every allocation; nothing executed");
			count = std::min(count, Load<uint32_t>(stored));
		}
		if (count == 0) return;
		const auto* base = reinterpret_cast<const uint8_t*>(commands_.indirect_address);
		const uint64_t available = base ? device_.BytesInMemoryFrom(base) : 0;
		for (uint32_t s = 0; s < count; ++s) {
			const uint64_t at = uint64_t(s) * commands_.stride;
			if (at + commands_.extent > available)
				return Fail("sequence %u lies past the allocation of indirectAddress; it and the rest skipped", s);
			if (!RunSequence(base + at, s)) return;
			if (device_.IsLost()) return;  // §5.2.3: the rest does not run
		}
	}

private:
	void Fail(const char* format, ...) __attribute__((format(printf, 2, 3))) {
		char message[256];
		va_list args;
		va_start(args, format);
		std::vsnprintf(message, sizeof message, format, args);
		va_end(args);
		device_.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		               "vkCmdExecuteGeneratedCommandsEXT: %s", message);
	}

	// Performs one sequence's tokens; false (reported) when its data is bad,
	// which ends the command.
	bool RunSequence(const uint8_t* sequence, uint32_t s) {
		for (uint32_t t = 0; t < commands_.token_count; ++t) {
			const IndirectToken& token = commands_.tokens[t];
			const uint8_t* in = sequence + token.offset;
			switch (token.type) {
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT: {
				const uint32_t index = Load<uint32_t>(in);
				const Pipeline* pipeline = commands_.execution_set ? commands_.execution_set->At(index) : nullptr;
				if (!pipeline) {
					Fail("sequence %u: execution set index %u holds no pipeline", s, index);
					return false;
				}
				const bool compute = pipeline->BindPoint() == VK_PIPELINE_BIND_POINT_COMPUTE;
				context_.pipelines[size_t(compute ? BindPoint::Compute : BindPoint::Graphics)] = pipeline;
				break;
			}
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT:
				std::memcpy(context_.push_constants + token.push_offset, in, token.push_size);
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT:
				std::memcpy(context_.push_constants + token.push_offset, &s, sizeof s);
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT:
				if (!BindIndexBuffer(token, Load<VkBindIndexBufferIndirectCommandEXT>(in), s)) return false;
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT:
				if (!BindVertexBuffer(token, Load<VkBindVertexBufferIndirectCommandEXT>(in), s)) return false;
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT: {
				const auto c = Load<VkDrawIndirectCommand>(in);
				DrawParams p;
				p.count = c.vertexCount;
				p.instance_count = c.instanceCount;
				p.first = c.firstVertex;
				p.first_instance = c.firstInstance;
				Draw(context_, p);
				break;
			}
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT:
				Draw(context_, IndexedParams(Load<VkDrawIndexedIndirectCommand>(in), 0));
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT:
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT:
				if (!DrawCount(Load<VkDrawIndirectCountIndirectCommandEXT>(in),
				               token.type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT, s))
					return false;
				break;
			case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT: {
				const auto c = Load<VkDispatchIndirectCommand>(in);
				shader::DispatchSize size;
				size.count[0] = c.x;
				size.count[1] = c.y;
				size.count[2] = c.z;
				Dispatch(context_, size);
				break;
			}
			default: break;  // refused at layout creation
			}
		}
		return true;
	}

	static DrawParams IndexedParams(const VkDrawIndexedIndirectCommand& c, uint32_t draw_index) {
		DrawParams p;
		p.indexed = true;
		p.count = c.indexCount;
		p.instance_count = c.instanceCount;
		p.first = c.firstIndex;
		p.vertex_offset = c.vertexOffset;
		p.first_instance = c.firstInstance;
		p.draw_index = draw_index;
		return p;
	}

	// vkCmdBindIndexBuffer2 of the record's range; address 0 binds none
	// (indices read as zeros with nullDescriptor, VK_KHR_maintenance6).
	bool BindIndexBuffer(const IndirectToken& token, const VkBindIndexBufferIndirectCommandEXT& c, uint32_t s) {
		VkIndexType type = c.indexType;
		if (token.dxgi_index_type) {
			switch (uint32_t(c.indexType)) {
			case kDxgiR32Uint: type = VK_INDEX_TYPE_UINT32; break;
			case kDxgiR16Uint: type = VK_INDEX_TYPE_UINT16; break;
			case kDxgiR8Uint: type = VK_INDEX_TYPE_UINT8_EXT; break;
			default:
				Fail("sequence %u: DXGI index format %u is not R8, R16 or R32_UINT", s, uint32_t(c.indexType));
				return false;
			}
		} else if (type != VK_INDEX_TYPE_UINT16 && type != VK_INDEX_TYPE_UINT32 && type != VK_INDEX_TYPE_UINT8_EXT) {
			Fail("sequence %u: index type %u is not a VkIndexType of indices", s, uint32_t(type));
			return false;
		}
		GraphicsContext& g = context_.graphics;
		g.index_type = type;
		g.index_data = nullptr;
		g.index_size = 0;
		if (!c.bufferAddress) return true;
		const uint8_t* data = CheckedAddress(device_, c.bufferAddress, 1);
		if (!data) {
			Fail("sequence %u: the index buffer address is outside every allocation", s);
			return false;
		}
		g.index_data = data;
		g.index_size = std::min<uint64_t>(c.size, device_.BytesInMemoryFrom(data));
		return true;
	}

	// vkCmdBindVertexBuffers2 of one binding with the record's size and
	// stride (the stride counts where the pipeline's is dynamic, draw.cpp).
	bool BindVertexBuffer(const IndirectToken& token, const VkBindVertexBufferIndirectCommandEXT& c, uint32_t s) {
		GraphicsContext::VertexBuffer b;
		b.stride = c.stride;
		b.has_stride = true;
		if (c.bufferAddress) {
			const uint8_t* data = CheckedAddress(device_, c.bufferAddress, 1);
			if (!data) {
				Fail("sequence %u: the vertex buffer address of binding %u is outside every allocation", s,
				     token.vertex_binding);
				return false;
			}
			b.data = data;
			b.size = std::min<uint64_t>(c.size, device_.BytesInMemoryFrom(data));
		}
		context_.graphics.vertex_buffers[token.vertex_binding] = b;
		return true;
	}

	// vkCmdDraw(Indexed)Indirect of min(commandCount, maxDrawCount) records
	// at bufferAddress, DrawIndex counting them.
	bool DrawCount(const VkDrawIndirectCountIndirectCommandEXT& c, bool indexed, uint32_t s) {
		const uint32_t count = std::min(c.commandCount, commands_.max_draw_count);
		if (count == 0) return true;
		const uint64_t record = indexed ? sizeof(VkDrawIndexedIndirectCommand) : sizeof(VkDrawIndirectCommand);
		const auto* base = reinterpret_cast<const uint8_t*>(c.bufferAddress);
		const uint64_t available = base ? device_.BytesInMemoryFrom(base) : 0;
		for (uint32_t i = 0; i < count; ++i) {
			const uint64_t at = uint64_t(i) * c.stride;
			if (at + record > available) {
				Fail("sequence %u: draw %u of the count token lies outside every allocation", s, i);
				return false;
			}
			if (indexed) {
				Draw(context_, IndexedParams(Load<VkDrawIndexedIndirectCommand>(base + at), i));
			} else {
				const auto d = Load<VkDrawIndirectCommand>(base + at);
				DrawParams p;
				p.count = d.vertexCount;
				p.instance_count = d.instanceCount;
				p.first = d.firstVertex;
				p.first_instance = d.firstInstance;
				p.draw_index = i;
				Draw(context_, p);
			}
		}
		return true;
	}

	ExecutionContext& context_;
	const Device& device_;
	const GeneratedCommands& commands_;
};

// Draw layouts leave waiting draws queued (each Draw orders itself after
// them); dispatch layouts rasterize them first, like vkCmdDispatch.
struct ExecuteGeneratedDrawsCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // Draw orders itself after them
	GeneratedCommands commands;
	void Execute(ExecutionContext& context) const { SequenceRunner(context, commands).Run(); }
};

struct ExecuteGeneratedDispatchesCommand : Command {
	GeneratedCommands commands;
	void Execute(ExecutionContext& context) const { SequenceRunner(context, commands).Run(); }
};

template <typename RecordedCommand>
void RecordGenerated(CommandBuffer& cb, const GeneratedCommands& commands) {
	if (auto* cmd = cb.Add<RecordedCommand>()) cmd->commands = commands;
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

// Tessera generates nothing ahead (the tokens run as they are read), so no
// preprocess memory is needed: size 0, which tells the application it may
// skip preprocessing; otherwise a buffer's requirements (any memory type).
VKAPI_ATTR void VKAPI_CALL GetGeneratedCommandsMemoryRequirementsEXT(
    VkDevice, const VkGeneratedCommandsMemoryRequirementsInfoEXT*, VkMemoryRequirements2* pMemoryRequirements) {
	VkMemoryRequirements& r = pMemoryRequirements->memoryRequirements;
	r.size = 0;
	r.alignment = Buffer::kAlignment;
	r.memoryTypeBits = (1u << PhysicalDevice::kMemoryTypeCount) - 1;
	if (auto* dedicated = FindInChain<VkMemoryDedicatedRequirements>(pMemoryRequirements->pNext,
	                                                                 VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS)) {
		dedicated->prefersDedicatedAllocation = VK_FALSE;
		dedicated->requiresDedicatedAllocation = VK_FALSE;
	}
}

// Nothing to prepare: the execution reads the same input and the state
// bound at its own point, which valid use makes equal to
// stateCommandBuffer's.
VKAPI_ATTR void VKAPI_CALL CmdPreprocessGeneratedCommandsEXT(VkCommandBuffer, const VkGeneratedCommandsInfoEXT*,
                                                             VkCommandBuffer) {}

VKAPI_ATTR void VKAPI_CALL CmdExecuteGeneratedCommandsEXT(VkCommandBuffer commandBuffer, VkBool32,
                                                          const VkGeneratedCommandsInfoEXT* pGeneratedCommandsInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const VkGeneratedCommandsInfoEXT& info = *pGeneratedCommandsInfo;
	const IndirectCommandsLayout* layout = IndirectCommandsLayout::Cast(info.indirectCommandsLayout);
	GeneratedCommands commands{};
	// The tokens are copied into the command buffer like every recorded
	// array; the execution set is read when the command executes, so that
	// updates made before the submission count (valid use keeps them out of
	// pending work).
	commands.token_count = uint32_t(layout->Tokens().size());
	commands.tokens = cb->Copy(layout->Tokens().data(), commands.token_count);
	if (!commands.tokens) return;
	commands.stride = layout->Stride();
	commands.extent = layout->Extent();
	commands.execution_set =
	    layout->HasExecutionSet() ? IndirectExecutionSet::Cast(info.indirectExecutionSet) : nullptr;
	commands.indirect_address = info.indirectAddress;
	commands.sequence_count_address = info.sequenceCountAddress;
	commands.max_sequence_count = std::min(info.maxSequenceCount, kMaxIndirectSequenceCount);
	commands.max_draw_count = info.maxDrawCount;
	if (layout->Compute())
		RecordGenerated<ExecuteGeneratedDispatchesCommand>(*cb, commands);
	else
		RecordGenerated<ExecuteGeneratedDrawsCommand>(*cb, commands);
}

}  // namespace tessera::entry
