// The draw and the dispatch as commands execute them, for the commands that
// perform them on another's behalf: the indirect forms read their parameters
// from buffers, and vkCmdExecuteGeneratedCommandsEXT from each sequence of an
// indirect commands layout (vk/cmd_generated_commands.cpp).
#pragma once

#include <cstdint>

#include "shader/dispatch.h"
#include "vk/command_buffer.h"

namespace tessera::vk {

// One draw's parameters (vkCmdDraw, vkCmdDrawIndexed and their records in
// indirect buffers).
struct DrawParams {
	uint32_t count = 0;  // vertices, or indices when indexed
	uint32_t instance_count = 0;
	uint32_t first = 0;  // first vertex, or first index
	int32_t vertex_offset = 0;
	uint32_t first_instance = 0;
	uint32_t draw_index = 0;  // DrawIndex: the draw's place in a multi-draw
	bool indexed = false;
};

// Draws with the bound graphics pipeline and state (vk/draw.cpp); nothing
// without a pipeline or a render pass instance, or under a discarding
// conditional rendering.
void Draw(ExecutionContext& context, const DrawParams& params);

// Dispatches with the bound compute pipeline (vk/cmd_dispatch.cpp), under the
// same conditions.
void Dispatch(ExecutionContext& context, const shader::DispatchSize& size);

}  // namespace tessera::vk
