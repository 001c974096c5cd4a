// The tessellation control stage and the tessellator (tessellation_stage.h).
// A lane group holds up to TessellationInfo::patches_per_group whole
// patches, lane = patch * output_vertices + invocation: the patch's
// invocations share its record of outputs in workgroup memory, and run
// each instruction together, so a barrier between them needs nothing more.
#include "vk/tessellation_stage.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "raster/tessellator.h"
#include "runtime/thread_pool.h"
#include "vk/geometry_stage.h"

namespace tessera::vk {

namespace {

constexpr uint32_t kNoWord = shader::Program::kNoWord;

// Runs patches [first, first + count) as one lane group and copies their
// records into run.records.
bool ShadeControl(TessellationRun& run, uint32_t first, uint32_t count) {
	const GraphicsPipeline& gp = *run.pipeline;
	const shader::Program& tcs = *gp.tess_control;
	const shader::TessellationInfo& info = tcs.tessellation;
	const uint32_t invocations = info.output_vertices, per = run.patch_control_points;
	const uint32_t lanes = count * invocations;
	const size_t sources = gp.tess_sources.size();
	shader::Interpreter& interp = DrawInterpreter();
	interp.BeginStage(tcs, lanes);
	FillPerVertexInputs(interp, gp.tess_control_inputs, run.values, sources, run.patches, per, first, invocations,
	                    lanes);
	auto fill = [&](uint32_t word, auto value) {
		if (word == kNoWord) return;
		uint32_t* w = interp.StageWord(word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = value(l);
	};
	fill(info.patch_index_word, [&](uint32_t l) { return l / invocations; });
	fill(gp.tess_invocation_id_word, [&](uint32_t l) { return l % invocations; });
	fill(gp.tess_primitive_id_word, [&](uint32_t l) { return first + l / invocations; });
	fill(gp.tess_patch_vertices_word, [&](uint32_t) { return per; });
	fill(gp.tess_view_index_word, [&](uint32_t) { return gp.pre_rasterization_view_from_device ? 0 : run.view_index; });
	if (interp.RunStage(tcs, *run.resources, run.options) != shader::RunStatus::kSuccess) return false;
	const size_t words = info.patch_bytes / 4;
	std::memcpy(run.records.data() + size_t(first) * words, interp.StageWorkgroupMemory(), count * words * 4);
	return true;
}

float Level(const uint32_t* record, uint32_t word) {
	if (word == kNoWord) return 0.0f;
	float f;
	std::memcpy(&f, &record[word], 4);
	return f;
}

}  // namespace

void RunTessellation(TessellationRun& run, runtime::ThreadPool* pool) {
	const GraphicsPipeline& gp = *run.pipeline;
	const shader::TessellationInfo& info = gp.tess_control->tessellation;
	const size_t words = info.patch_bytes / 4;
	run.records.assign(size_t(run.patch_count) * words, 0);
	const uint32_t per_group = info.patches_per_group;
	const uint32_t groups = (run.patch_count + per_group - 1) / per_group;
	std::atomic<bool> lost{false};
	auto shade = [&](uint32_t group) {
		if (lost.load(std::memory_order_relaxed)) return;
		const uint32_t first = group * per_group;
		if (!ShadeControl(run, first, std::min(per_group, run.patch_count - first)))
			lost.store(true, std::memory_order_relaxed);
	};
	if (groups > 1)
		pool->ParallelFor(groups, shade);
	else if (groups == 1)
		shade(0);
	run.lost = lost.load();
	run.coords.clear();
	run.point_patch.clear();
	run.primitives.clear();
	run.patches_drawn = 0;
	raster::TessellationState state = gp.tessellation;
	state.lower_left = run.lower_left;
	run.per = state.point_mode ? 1 : state.domain == raster::TessDomain::kIsolines ? 2 : 3;
	if (run.lost) return;
	// Patch after patch, so that their primitives keep the patches' order
	// (Vulkan "Tessellation Primitive Ordering").
	raster::Tessellation t;
	for (uint32_t p = 0; p < run.patch_count; ++p) {
		const uint32_t* record = run.records.data() + size_t(p) * words;
		const float outer[4] = {Level(record, gp.tess_outer_words[0]), Level(record, gp.tess_outer_words[1]),
		                        Level(record, gp.tess_outer_words[2]), Level(record, gp.tess_outer_words[3])};
		const float inner[2] = {Level(record, gp.tess_inner_words[0]), Level(record, gp.tess_inner_words[1])};
		if (!raster::Tessellate(state, outer, inner, t)) continue;
		++run.patches_drawn;
		const uint32_t base = uint32_t(run.point_patch.size());
		run.coords.insert(run.coords.end(), t.coords.begin(), t.coords.end());
		run.point_patch.insert(run.point_patch.end(), t.coords.size() / 3, p);
		for (uint32_t index : t.indices) run.primitives.push_back(base + index);
	}
}

}  // namespace tessera::vk
