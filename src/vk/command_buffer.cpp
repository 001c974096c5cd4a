#include "vk/command_buffer.h"

#include <algorithm>

#include "vk/device.h"

namespace tessera::vk {

namespace {

runtime::ChunkSource PoolMemory(const VkAllocationCallbacks* callbacks) {
	runtime::ChunkSource source;
	source.user = const_cast<VkAllocationCallbacks*>(callbacks);
	source.allocate = [](void* user, size_t size, size_t alignment) {
		return Allocate(static_cast<const VkAllocationCallbacks*>(user), size, alignment,
		                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	};
	source.free = [](void* user, void* memory) { Free(static_cast<const VkAllocationCallbacks*>(user), memory); };
	return source;
}

}  // namespace

CommandBuffer::CommandBuffer(Device* device, CommandPool* pool, VkCommandBufferLevel level)
    : device_(device), pool_(pool), level_(level), arena_(16 * 1024, PoolMemory(pool->Allocator())) {}

VkResult CommandBuffer::Begin(const VkCommandBufferBeginInfo& info) {
	// vkBeginCommandBuffer on a recorded buffer resets it implicitly (the
	// pool must allow it, which the validation layer checks).
	if (state_ != State::Initial) Reset(false);
	// Vulkan 1.3 §6.4: a primary ignores pInheritanceInfo; a secondary's
	// inherited render pass state is used by the graphics stage when it lands.
	usage_ = info.flags;
	state_ = State::Recording;
	return VK_SUCCESS;
}

VkResult CommandBuffer::End() {
	if (record_result_ != VK_SUCCESS) {
		state_ = State::Invalid;
		return record_result_;
	}
	state_ = State::Executable;
	return VK_SUCCESS;
}

void CommandBuffer::Reset(bool release_resources) {
	if (release_resources)
		arena_.Release();
	else
		arena_.Reset();
	first_ = last_ = nullptr;
	std::fill_n(&last_push_sets_[0][0], std::size(last_push_sets_) * kMaxBoundDescriptorSets, nullptr);
	record_result_ = VK_SUCCESS;
	usage_ = 0;
	state_ = State::Initial;
}

void CommandBuffer::Trim() {
	if (state_ == State::Initial) arena_.Release();
}

void CommandBuffer::MarkPending() {
	pending_.fetch_add(1, std::memory_order_relaxed);
	state_ = State::Pending;
}

void CommandBuffer::Completed() {
	// Vulkan 1.3 §6.4: after its last pending submission a one-time-submit
	// buffer is invalid; others are executable again.
	if (pending_.load(std::memory_order_relaxed) > 0 && pending_.fetch_sub(1, std::memory_order_acq_rel) > 1) return;
	state_ = (usage_ & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) ? State::Invalid : State::Executable;
}

void CommandBuffer::ExecuteCommands(ExecutionContext& context) const {
	for (const Command* c = first_; c; c = c->next) c->execute(*c, context);
}

void CommandBuffer::Execute() {
	ExecutionContext context{};
	context.device = device_;
	ExecuteCommands(context);
	if (context.queued_draws) FlushQueuedDraws(context);
	Completed();
}

CommandPool::~CommandPool() {
	for (CommandBuffer* cb : buffers_) Delete(Allocator(), cb);
}

VkResult CommandPool::Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out) {
	uint32_t made = 0;
	try {
		buffers_.reserve(buffers_.size() + info.commandBufferCount);
		for (; made < info.commandBufferCount; ++made) {
			auto* cb = New<CommandBuffer>(Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device_, this, info.level);
			if (!cb) break;
			buffers_.push_back(cb);
			out[made] = cb->ToHandle();
		}
	} catch (const std::bad_alloc&) {}
	if (made == info.commandBufferCount) return VK_SUCCESS;
	// Leave nothing half-made: free what this call allocated.
	Free(made, out);
	for (uint32_t i = 0; i < info.commandBufferCount; ++i) out[i] = VK_NULL_HANDLE;
	return VK_ERROR_OUT_OF_HOST_MEMORY;
}

void CommandPool::Free(uint32_t count, const VkCommandBuffer* buffers) {
	for (uint32_t i = 0; i < count; ++i) {
		CommandBuffer* cb = CommandBuffer::Cast(buffers[i]);
		if (!cb) continue;
		buffers_.erase(std::remove(buffers_.begin(), buffers_.end(), cb), buffers_.end());
		Delete(Allocator(), cb);
	}
}

void CommandPool::Reset(bool release_resources) {
	for (CommandBuffer* cb : buffers_) cb->Reset(release_resources);
}

void CommandPool::Trim() {
	for (CommandBuffer* cb : buffers_) cb->Trim();
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;
using vk::CommandPool;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkCommandPool* pCommandPool) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	auto* pool = vk::New<CommandPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, *pCreateInfo, allocator);
	if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pCommandPool = pool->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                              const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), CommandPool::Cast(commandPool));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolResetFlags flags) {
	CommandPool::Cast(commandPool)->Reset((flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) != 0);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL TrimCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolTrimFlags) {
	// Reset command buffers keep one chunk of memory each for the next
	// recording; trimming gives those back.
	CommandPool::Cast(commandPool)->Trim();
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
	return CommandPool::Cast(pAllocateInfo->commandPool)->Allocate(*pAllocateInfo, pCommandBuffers);
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
	CommandPool::Cast(commandPool)->Free(commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
	return CommandBuffer::Cast(commandBuffer)->Begin(*pBeginInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
	return CommandBuffer::Cast(commandBuffer)->End();
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags) {
	CommandBuffer::Cast(commandBuffer)->Reset((flags & VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT) != 0);
	return VK_SUCCESS;
}

namespace {

struct ExecuteCommandsCommand : vk::Command {
	const VkCommandBuffer* buffers;
	uint32_t count;
	void Execute(vk::ExecutionContext& context) const {
		// A primary runs secondaries at nesting 1, a secondary at one more
		// than its own (VK_EXT_nested_command_buffer: the call from a
		// secondary at nesting n is of level n). Deeper than the limit is
		// invalid (a buffer that runs itself would never end): the buffers
		// are skipped, with a message.
		if (context.nesting > vk::kMaxCommandBufferNesting) {
			context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_COMMAND_BUFFER, 0,
			                       "vkCmdExecuteCommands: secondary command buffers nested deeper than "
			                       "maxCommandBufferNestingLevel (%u); skipped",
			                       vk::kMaxCommandBufferNesting);
			return;
		}
		++context.nesting;
		for (uint32_t i = 0; i < count; ++i) {
			CommandBuffer* secondary = CommandBuffer::Cast(buffers[i]);
			secondary->ExecuteCommands(context);
			// Vulkan 1.3 §6.7: a one-time-submit secondary is invalid once
			// the primary has run it.
			if (secondary->Usage() & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) secondary->Invalidate();
		}
		--context.nesting;
	}
};

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	if (auto* cmd = cb->Add<ExecuteCommandsCommand>()) {
		cmd->buffers = cb->Copy(pCommandBuffers, commandBufferCount);
		cmd->count = commandBufferCount;
	}
}

}  // namespace tessera::entry
