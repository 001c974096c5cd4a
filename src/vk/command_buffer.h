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
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "runtime/arena.h"
#include "vk/cmd_render_pass.h"
#include "vk/graphics_state.h"
#include "vk/object.h"

namespace tessera::texture {
void NoteMemoryWrites();  // texture/decoded_view_cache.h
}  // namespace tessera::texture

namespace tessera::vk {

class CommandPool;
class DescriptorSet;
class Device;

// Sizes of the state below; the physical device reports the same limits
// (maxPushConstantsSize, maxBoundDescriptorSets).
constexpr uint32_t kMaxPushConstantsSize = 256;
constexpr uint32_t kMaxBoundDescriptorSets = 8;
// maxDescriptorSetUniformBuffersDynamic and
// maxDescriptorSetStorageBuffersDynamic (lavapipe's figures). No state
// grows with them: a bound set points at the offsets its bind command holds.
constexpr uint32_t kMaxDynamicUniformBuffers = 256;
constexpr uint32_t kMaxDynamicStorageBuffers = 256;

// maxDescriptorBufferBindings (VK_EXT_descriptor_buffer), each of which may
// hold samplers and resources alike.
constexpr uint32_t kMaxDescriptorBufferBindings = 32;

// The descriptor sets bound to one bind point (vkCmdBindDescriptorSets), or
// the sets' places in descriptor buffers (vkCmdSetDescriptorBufferOffsetsEXT).
struct BoundDescriptorSets {
	// Each set's memory (see descriptor_set.h); null where none is bound.
	const uint8_t* sets[kMaxBoundDescriptorSets];
	// Descriptors the variable-count binding of each set holds: the
	// allocated count of a descriptor set, the layout's upper bound in a
	// descriptor buffer.
	uint32_t variable_counts[kMaxBoundDescriptorSets];
	// Bytes of each set's memory that may be read: a descriptor set's size,
	// or what is left of a descriptor buffer's allocation after the set's
	// offset. Descriptors past it read as none (see shader_resources.cpp), so an
	// application's short descriptor buffer cannot send a read outside its
	// memory.
	uint64_t sizes[kMaxBoundDescriptorSets];
	// Dynamic offsets of each set, in the order of its layout's dynamic
	// buffers (DescriptorBinding::dynamic_index): dynamic_counts[s] of them
	// at dynamic_offsets[s], in the memory of the command buffer that bound
	// the set (which outlives the execution of its commands).
	const uint32_t* dynamic_offsets[kMaxBoundDescriptorSets];
	uint32_t dynamic_counts[kMaxBoundDescriptorSets];
};

enum class BindPoint : uint32_t { Graphics, Compute, Count };

// What a command sees while it executes on the queue thread: the state that
// earlier commands of the same submission set. Zeroed at the start of each
// primary command buffer (Vulkan 1.3 §6.1: no state carries
// over between command buffers; secondaries run with the primary's context,
// whose state is undefined after them).
class Pipeline;
class Shader;

// VK_EXT_shader_object: the graphics stages a shader may be bound to
// (vertex, tessellation control and evaluation, geometry, fragment: in the
// order of GraphicsStage, vk/pipeline_library.h).
constexpr size_t kShaderObjectGraphicsStages = 5;

struct ExecutionContext {
	Device* device;
	// vkCmdBindPipeline, and vkCmdBindShadersEXT's compute shader (its
	// pipeline). Binding graphics shaders unbinds the graphics pipeline, and
	// binding a graphics pipeline unbinds them (Vulkan "Interaction With
	// Pipelines"): a draw uses the one of the two that is bound.
	const Pipeline* pipelines[size_t(BindPoint::Count)];
	const Shader* graphics_shaders[kShaderObjectGraphicsStages];  // vkCmdBindShadersEXT
	alignas(16) uint8_t push_constants[kMaxPushConstantsSize];
	BoundDescriptorSets descriptor_sets[size_t(BindPoint::Count)];
	// vkCmdBindDescriptorBuffersEXT: the buffers' addresses (host pointers).
	const uint8_t* descriptor_buffers[kMaxDescriptorBufferBindings];
	GraphicsContext graphics;  // vertex/index buffers, dynamic state, the render pass instance
	const struct RenderPassInstance* render_pass = nullptr;  // vkCmdBeginRenderPass's (cmd_render_pass.h)
	uint32_t subpass = 0;
	const struct RenderingInstance* rendering = nullptr;  // vkCmdBeginRendering's
	// The implicit multisampled attachments of the subpass or rendering
	// that is current, if it renders to single-sampled attachments.
	std::unique_ptr<ImplicitAttachments, ImplicitAttachmentsDeleter> implicit_attachments;
	// VK_EXT_conditional_rendering: draws, dispatches and
	// vkCmdClearAttachments are skipped (vk/cmd_conditional_rendering.cpp).
	bool conditional_discard = false;
	// Draws wait in the queue thread's renderer to be rasterized together
	// (vk/draw.cpp); FlushQueuedDraws writes them out.
	bool queued_draws = false;
	// Secondary command buffers being run inside one another
	// (VK_EXT_nested_command_buffer): 0 in a primary's own commands.
	uint32_t nesting = 0;
};

// VK_EXT_nested_command_buffer's maxCommandBufferNestingLevel: how deep
// secondaries may run inside secondaries (each level a recursion of
// CommandBuffer::ExecuteCommands).
constexpr uint32_t kMaxCommandBufferNesting = 16;

// Rasterizes the draws that wait (ExecutionContext::queued_draws). Runs
// before every command that does not declare
//     static constexpr bool kKeepsQueuedDraws = true;
// (it only sets state, or is a draw that orders itself after them), and at
// the end of each command buffer.
void FlushQueuedDraws(ExecutionContext& context);

template <typename T>
concept KeepsQueuedDraws = requires {
	requires T::kKeepsQueuedDraws;
};

struct Command {
	void (*execute)(const Command& command, ExecutionContext& context);
	Command* next;
};

class CommandBuffer : public DispatchableObject<CommandBuffer, VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER> {
public:
	enum class State { Initial, Recording, Executable, Pending, Invalid };

	// Recorded commands live in memory from the pool's allocation callbacks.
	CommandBuffer(Device* device, CommandPool* pool, VkCommandBufferLevel level);

	Device* GetDevice() const { return device_; }
	CommandPool* Pool() const { return pool_; }
	VkCommandBufferLevel Level() const { return level_; }

	VkResult Begin(const VkCommandBufferBeginInfo& info);
	VkResult End();
	void Reset(bool release_resources);
	// vkTrimCommandPool: gives back the memory a reset buffer kept.
	void Trim();
	void Invalidate() { state_ = State::Invalid; }

	// Appends a command; returns nullptr (and makes vkEndCommandBuffer fail
	// with VK_ERROR_OUT_OF_HOST_MEMORY) when memory runs out.
	template <typename T>
	T* Add() {
		void* memory = arena_.Allocate(sizeof(T), alignof(T));
		if (!memory) return Fail();
		T* command = new (memory) T{};
		command->execute = [](const Command& c, ExecutionContext& context) {
			if constexpr (!KeepsQueuedDraws<T>)
				if (context.queued_draws) FlushQueuedDraws(context);
			static_cast<const T&>(c).Execute(context);
			// Any command but those may have written memory that a decoded
			// view was made from (draws with side effects note it themselves).
			if constexpr (!KeepsQueuedDraws<T>) texture::NoteMemoryWrites();
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

	// Recording side of vkCmdPushDescriptorSetKHR: the push set that the last
	// push to a set number of a bind point made, or null (none since Begin).
	const DescriptorSet*& LastPushSet(BindPoint bind_point, uint32_t set) {
		return last_push_sets_[size_t(bind_point)][set];
	}

	State GetState() const { return state_; }
	VkCommandBufferUsageFlags Usage() const { return usage_; }
	// Bytes of recording memory the buffer holds.
	size_t RecordingMemory() const { return arena_.Capacity(); }

	// Stores a command's regions in the command buffer, each converted by
	// convert (e.g. to its *2 form, pNext dropped): sets command->regions and
	// command->region_count (0 when memory runs out).
	template <typename RecordedCommand, typename Region, typename Converter>
	void RecordRegions(RecordedCommand* command, const Region* regions, uint32_t count, Converter convert) {
		using Converted = std::remove_cv_t<std::remove_reference_t<decltype(convert(regions[0]))>>;
		Converted* out = AllocateArray<Converted>(count);
		if (!out) count = 0;
		for (uint32_t i = 0; i < count; ++i) out[i] = convert(regions[i]);
		command->regions = out;
		command->region_count = count;
	}

	// Queue side. A submission marks the buffer pending; when it has run,
	// Completed() returns it to executable, or invalid if it was recorded
	// for one submission (Vulkan 1.3 §6.4). With SIMULTANEOUS_USE it may be
	// pending several times at once.
	void MarkPending();
	void Execute();
	void Completed();
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
	std::atomic<uint32_t> pending_{0};
	VkCommandBufferUsageFlags usage_ = 0;
	VkResult record_result_ = VK_SUCCESS;
	runtime::Arena arena_;
	Command* first_ = nullptr;
	Command* last_ = nullptr;
	const DescriptorSet* last_push_sets_[size_t(BindPoint::Count)][kMaxBoundDescriptorSets] = {};
};

class CommandPool : public Object<CommandPool, VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL> {
public:
	CommandPool(Device* device, const VkCommandPoolCreateInfo& info, const VkAllocationCallbacks* allocator)
	    : device_(device), flags_(info.flags) {
		if (allocator) {
			allocator_ = *allocator;
			has_allocator_ = true;
		}
	}
	~CommandPool();

	VkResult Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out);
	void Free(uint32_t count, const VkCommandBuffer* buffers);
	void Reset(bool release_resources);
	void Trim();
	VkCommandPoolCreateFlags Flags() const { return flags_; }
	// Command buffers are made with the pool's callbacks (Vulkan 1.3 §6.3).
	const VkAllocationCallbacks* Allocator() const { return has_allocator_ ? &allocator_ : nullptr; }

private:
	Device* device_;
	VkCommandPoolCreateFlags flags_;
	VkAllocationCallbacks allocator_{};
	bool has_allocator_ = false;
	std::vector<CommandBuffer*> buffers_;
};

// Frees the calling thread's draw scratch (vertex results, bins, set-up
// triangles; vk/draw.cpp) when it holds more than keep_bytes: a large draw
// grows it, and the queue thread calls this once it has been out of work
// for a while (vk/queue.cpp), so an idle application does not keep that
// memory and one that waits for each frame does not fault it in anew.
void ReleaseDrawScratch(size_t keep_bytes);

}  // namespace tessera::vk
