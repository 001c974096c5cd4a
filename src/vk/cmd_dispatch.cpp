// vkCmdBindPipeline, vkCmdBindShadersEXT and the compute dispatches (Vulkan
// 1.3 §29 "Dispatching Commands"). At execution, the pipeline's buffer
// bindings are resolved through the bound descriptor sets to plain pointers
// and sizes, and the workgroups run on the device's thread pool
// (shader::RunDispatch).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "shader/dispatch.h"
#include "vk/action.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vk/shader_object.h"
#include "vk/shader_resources.h"

namespace tessera::vk {

namespace {

struct BindPipelineCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	BindPoint bind_point;
	const Pipeline* pipeline;
	void Execute(ExecutionContext& context) const {
		context.pipelines[size_t(bind_point)] = pipeline;
		// Vulkan "Interaction With Pipelines": the bind point's shader
		// objects are unbound (the compute one is held as its pipeline).
		if (bind_point == BindPoint::Graphics)
			std::fill(std::begin(context.graphics_shaders), std::end(context.graphics_shaders), nullptr);
	}
};

// VK_EXT_shader_object: each stage takes its shader, or none.
struct BindShadersCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	uint32_t count;
	const VkShaderStageFlagBits* stages;
	const Shader* const* shaders;  // null: none for every stage
	void Execute(ExecutionContext& context) const {
		for (uint32_t i = 0; i < count; ++i) {
			const Shader* shader = shaders ? shaders[i] : nullptr;
			if (stages[i] == VK_SHADER_STAGE_COMPUTE_BIT) {
				context.pipelines[size_t(BindPoint::Compute)] = shader ? shader->ComputePipeline() : nullptr;
				continue;
			}
			bool graphics;
			const GraphicsStage stage = ToGraphicsStage(stages[i], &graphics);
			if (!graphics) continue;  // a stage Tessera has no shader for (task, mesh): none bound
			context.graphics_shaders[size_t(stage)] = shader;
			// Vulkan "Interaction With Pipelines": the graphics pipeline is disturbed.
			context.pipelines[size_t(BindPoint::Graphics)] = nullptr;
		}
	}
};

}  // namespace

void Dispatch(ExecutionContext& context, const shader::DispatchSize& size) {
	const shader::RunOptions& options = context.device->ShaderRunOptions();
	const Pipeline* pipeline = context.pipelines[size_t(BindPoint::Compute)];
	if (!pipeline || size.count[0] == 0 || size.count[1] == 0 || size.count[2] == 0) return;
	if (context.conditional_discard) return;  // VK_EXT_conditional_rendering
	// §5.2.3: after a loss, the rest of the command buffer does not run.
	if (context.device->IsLost()) return;
	const shader::Program& program = pipeline->ComputeProgram();
	BoundResources bound;
	if (!ResolveResources(context, BindPoint::Compute, *pipeline, program, "vkCmdDispatch", bound)) return;
	const shader::Resources& resources = bound.resources;
	if (QueryPool* statistics = context.graphics.statistics_pool)
		statistics->AddStatistic(
		    context.graphics.statistics_query, Statistic::kComputeShaderInvocations,
		    uint64_t(size.count[0]) * size.count[1] * size.count[2] * program.InvocationsPerWorkgroup());
	if (shader::RunDispatch(program, resources, size, &context.device->ThreadPool(), options) ==
	    shader::RunStatus::kDeviceLost) {
		context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_PIPELINE,
		                       uint64_t(const_cast<Pipeline*>(pipeline)->ToHandle()),
		                       "vkCmdDispatch: a workgroup ran past the execution bound (an endless loop?); "
		                       "the device is lost");
		context.device->MarkLost();
	}
}

namespace {

struct DispatchCommand : Command {
	shader::DispatchSize size;
	void Execute(ExecutionContext& context) const { Dispatch(context, size); }
};

struct DispatchIndirectCommand : Command {
	const uint8_t* counts;  // null: outside the buffer or address range (invalid use), nothing dispatched
	void Execute(ExecutionContext& context) const {
		if (!this->counts) return;
		VkDispatchIndirectCommand counts;
		std::memcpy(&counts, this->counts, sizeof counts);
		shader::DispatchSize size;
		size.count[0] = counts.x;
		size.count[1] = counts.y;
		size.count[2] = counts.z;
		Dispatch(context, size);
	}
};

void RecordDispatch(VkCommandBuffer commandBuffer, uint32_t base_x, uint32_t base_y, uint32_t base_z, uint32_t x,
                    uint32_t y, uint32_t z) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DispatchCommand>()) {
		cmd->size.base[0] = base_x;
		cmd->size.base[1] = base_y;
		cmd->size.base[2] = base_z;
		cmd->size.count[0] = x;
		cmd->size.count[1] = y;
		cmd->size.count[2] = z;
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<BindPipelineCommand>()) {
		cmd->bind_point =
		    pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? BindPoint::Compute : BindPoint::Graphics;
		cmd->pipeline = Pipeline::Cast(pipeline);
	}
}

VKAPI_ATTR void VKAPI_CALL CmdBindShadersEXT(VkCommandBuffer commandBuffer, uint32_t stageCount,
                                             const VkShaderStageFlagBits* pStages, const VkShaderEXT* pShaders) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const VkShaderStageFlagBits* stages = cb->Copy(pStages, stageCount);
	const Shader** shaders = pShaders ? cb->AllocateArray<const Shader*>(stageCount) : nullptr;
	if (!stages || (pShaders && !shaders)) return;
	for (uint32_t i = 0; shaders && i < stageCount; ++i) shaders[i] = Shader::Cast(pShaders[i]);
	if (auto* cmd = cb->Add<BindShadersCommand>()) {
		cmd->count = stageCount;
		cmd->stages = stages;
		cmd->shaders = shaders;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                       uint32_t groupCountZ) {
	RecordDispatch(commandBuffer, 0, 0, 0, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
                                           uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
                                           uint32_t groupCountZ) {
	RecordDispatch(commandBuffer, baseGroupX, baseGroupY, baseGroupZ, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DispatchIndirectCommand>())
		cmd->counts = RangeOf(Buffer::Cast(buffer), offset).At(0, sizeof(VkDispatchIndirectCommand));
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect2KHR(VkCommandBuffer commandBuffer,
                                                   const VkDispatchIndirect2InfoKHR* pInfo) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DispatchIndirectCommand>())
		cmd->counts =
		    RangeOf(pInfo->addressRange.address, pInfo->addressRange.size).At(0, sizeof(VkDispatchIndirectCommand));
}

}  // namespace tessera::entry
