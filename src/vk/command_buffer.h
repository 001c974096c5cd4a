// VkCommandPool and VkCommandBuffer. Recording appends commands to an arena
// as a singly linked list of small structs; vkQueueSubmit hands the list to
// the queue thread, which runs each command's Execute in order.
//
// A command is a struct deriving from Command with a member
//     void Execute(ExecutionContext& context) const;
// Its data, including any arrays (copied into the arena with Copy()), must
// be trivially destructible: the arena is dropped whole on reset.
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "runtime/arena.h"
#include "vk/object.h"

namespace tessera::vk {

class CommandPool;
class Device;

// What a command sees while it executes on the queue thread.
struct ExecutionContext {
	Device* device;
};

struct Command {
	void (*execute)(const Command& command, ExecutionContext& context);
	Command* next;
};

class CommandBuffer : public DispatchableObject<CommandBuffer, VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER> {
public:
	enum class State { Initial, Recording, Executable, Pending, Invalid };

	CommandBuffer(Device* device, CommandPool* pool, VkCommandBufferLevel level)
	    : device_(device), pool_(pool), level_(level) {}

	Device* GetDevice() const { return device_; }
	CommandPool* Pool() const { return pool_; }
	VkCommandBufferLevel Level() const { return level_; }

	VkResult Begin(const VkCommandBufferBeginInfo& info);
	VkResult End();
	void Reset(bool release_resources);

	// Appends a command; returns nullptr (and makes vkEndCommandBuffer fail
	// with VK_ERROR_OUT_OF_HOST_MEMORY) when memory runs out.
	template <typename T>
	T* Add() {
		void* memory = arena_.Allocate(sizeof(T), alignof(T));
		if (!memory) return Fail();
		T* command = new (memory) T{};
		command->execute = [](const Command& c, ExecutionContext& context) {
			static_cast<const T&>(c).Execute(context);
		};
		Append(command);
		return command;
	}
	// Copies an array into the command buffer's memory.
	template <typename T>
	const T* Copy(const T* source, size_t count) {
		if (count == 0) return nullptr;
		const T* copy = arena_.Copy(source, count);
		if (!copy) Fail();
		return copy;
	}

	// Uninitialized room for count elements in the command buffer's memory.
	template <typename T>
	T* AllocateArray(size_t count) {
		static_assert(std::is_trivially_destructible_v<T>);
		if (count == 0) return nullptr;
		void* memory = arena_.Allocate(sizeof(T) * count, alignof(T));
		if (!memory) Fail();
		return static_cast<T*>(memory);
	}

	// Queue side.
	void MarkPending() { state_ = State::Pending; }
	void Execute();
	// Runs the commands with a given context (vkCmdExecuteCommands).
	void ExecuteCommands(ExecutionContext& context) const;

private:
	std::nullptr_t Fail() {
		record_result_ = VK_ERROR_OUT_OF_HOST_MEMORY;
		return nullptr;
	}
	void Append(Command* command) {
		if (last_)
			last_->next = command;
		else
			first_ = command;
		last_ = command;
	}

	Device* device_;
	CommandPool* pool_;
	VkCommandBufferLevel level_;
	std::atomic<State> state_{State::Initial};
	VkCommandBufferUsageFlags usage_ = 0;
	VkResult record_result_ = VK_SUCCESS;
	runtime::Arena arena_;
	Command* first_ = nullptr;
	Command* last_ = nullptr;
};

class CommandPool : public Object<CommandPool, VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL> {
public:
	CommandPool(Device* device, const VkCommandPoolCreateInfo& info) : device_(device), flags_(info.flags) {}
	~CommandPool();

	VkResult Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out);
	void Free(uint32_t count, const VkCommandBuffer* buffers);
	void Reset(bool release_resources);
	VkCommandPoolCreateFlags Flags() const { return flags_; }

private:
	Device* device_;
	VkCommandPoolCreateFlags flags_;
	std::vector<CommandBuffer*> buffers_;
};

}  // namespace tessera::vk
