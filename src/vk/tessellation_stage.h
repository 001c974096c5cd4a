// The tessellation stages of a draw (Vulkan "Tessellation"): the control
// program over each patch of shaded vertices, in lane groups of whole
// patches whose invocations share their outputs, then the fixed-function
// tessellator (raster/tessellator.h) over each patch's levels. draw.cpp
// then runs the evaluation program once per domain point and draws the
// tessellator's primitives.
#pragma once

#include <cstdint>
#include <vector>

#include "shader/interpreter.h"
#include "vk/graphics_state.h"

namespace tessera::runtime {
class ThreadPool;
}

namespace tessera::vk {

// maxTessellationPatchSize: the most vertices a patch takes.
constexpr uint32_t kMaxPatchControlPoints = 32;

// One instance's tessellation work.
struct TessellationRun {
	const GraphicsPipeline* pipeline = nullptr;
	const shader::Resources* resources = nullptr;  // the control program's
	shader::RunOptions options;
	// Per shaded vertex, the vertex outputs the control stage reads
	// (GraphicsPipeline::tess_sources order).
	const uint32_t* values = nullptr;
	// The patches: patch_control_points indices into the shaded vertices
	// each (the pipeline's, or the dynamic state's).
	const uint32_t* patches = nullptr;
	uint32_t patch_control_points = 0;
	bool lower_left = false;  // the domain origin: the pipeline's, or the dynamic state's
	uint32_t patch_count = 0;
	uint32_t view_index = 0;  // ViewIndex (multiview)
	bool lost = false;
	// Out: each patch's record of control outputs (patch_bytes / 4 words).
	std::vector<uint32_t> records;
	// Out: the domain points of every patch that is not discarded (u, v, w
	// each), the patch of each, and the primitives over them (indices into
	// the points, `per` a primitive), patch after patch.
	std::vector<float> coords;
	std::vector<uint32_t> point_patch;
	std::vector<uint32_t> primitives;
	uint32_t per = 3;
	uint64_t patches_drawn = 0;  // not discarded
};

// Runs the control stage on the pool and tessellates every patch.
void RunTessellation(TessellationRun& run, runtime::ThreadPool* pool);

}  // namespace tessera::vk
