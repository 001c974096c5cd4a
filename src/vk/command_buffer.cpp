#include "vk/command_buffer.h"

#include <algorithm>

#include "vk/device.h"

namespace tessera::vk {

VkResult CommandBuffer::Begin(const VkCommandBufferBeginInfo& info) {
	// vkBeginCommandBuffer on a recorded buffer resets it implicitly (the
	// pool must allow it, which the validation layer checks).
	if (state_ != State::Initial) Reset(false);
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
	record_result_ = VK_SUCCESS;
	state_ = State::Initial;
}

void CommandBuffer::ExecuteCommands(ExecutionContext& context) const {
	for (const Command* c = first_; c; c = c->next) c->execute(*c, context);
}

void CommandBuffer::Execute() {
	ExecutionContext context{device_};
	ExecuteCommands(context);
	state_ = (usage_ & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) ? State::Invalid : State::Executable;
}

CommandPool::~CommandPool() {
	for (CommandBuffer* cb : buffers_) Delete(device_->Allocator(), cb);
}

VkResult CommandPool::Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out) {
	uint32_t made = 0;
	try {
		buffers_.reserve(buffers_.size() + info.commandBufferCount);
		for (; made < info.commandBufferCount; ++made) {
			auto* cb = New<CommandBuffer>(device_->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device_, this,
			                              info.level);
			if (!cb) break;
			buffers_.push_back(cb);
			out[made] = cb->ToHandle();
		}
	} catch (const std::bad_alloc&) {
	}
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
		Delete(device_->Allocator(), cb);
	}
}

void CommandPool::Reset(bool release_resources) {
	for (CommandBuffer* cb : buffers_) cb->Reset(release_resources);
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;
using vk::CommandPool;
using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator,
                                                 VkCommandPool* pCommandPool) {
	Device* self = Device::Cast(device);
	auto* pool = vk::New<CommandPool>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self,
	                                  *pCreateInfo);
	if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pCommandPool = pool->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                              const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), CommandPool::Cast(commandPool));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool commandPool,
                                                VkCommandPoolResetFlags flags) {
	CommandPool::Cast(commandPool)->Reset((flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) != 0);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL TrimCommandPool(VkDevice, VkCommandPool, VkCommandPoolTrimFlags) {
	// Arenas of reset command buffers keep one chunk each; nothing more to trim.
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
		for (uint32_t i = 0; i < count; ++i) CommandBuffer::Cast(buffers[i])->ExecuteCommands(context);
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
