// The draw commands (Vulkan 1.3 §21.3 "Programmable Primitive Shading"):
// vkCmdDraw, vkCmdDrawIndexed, their indirect and indirect-count forms, and
// vkCmdClearAttachments. A draw at execution:
//   1. combines the pipeline's state with the dynamic state into the
//      rasterizer's DrawState and the current attachments into a
//      raster::Framebuffer;
//   2. per instance, fetches vertex attributes and runs the vertex program in
//      lane groups of kVertexBatch vertices, in parallel (indexed draws shade
//      each vertex of the index range once when the range is compact);
//   3. hands clip-space positions and varyings to raster::Renderer, whose tile
//      workers call back into the fragment program one batch of quads at a
//      time (RunFragments), with one interpreter per thread.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "raster/primitive.h"
#include "raster/rasterizer.h"
#include "runtime/thread_pool.h"
#include "shader/interpreter.h"
#include "texture/float_formats.h"
#include "texture/texel.h"
#include "vk/action.h"
#include "vk/buffer.h"
#include "vk/cmd_render_pass.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/geometry_stage.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vk/shader_object.h"
#include "vk/shader_resources.h"
#include "vk/tessellation_stage.h"

namespace tessera::vk {

// One interpreter per thread for vertex, geometry and fragment work (the
// queue thread and the pool's workers).
shader::Interpreter& DrawInterpreter() {
	thread_local shader::Interpreter interpreter;
	return interpreter;
}

namespace {

constexpr uint32_t kNoWord = shader::Program::kNoWord;
constexpr uint32_t kVertexBatch = 128;  // vertices per lane group
constexpr uint32_t kRestart = 0xffffffffu;
// Indexed draws whose indices span at most this many vertices, and more
// than half as many as there are indices (a whole mesh names each vertex
// several times), shade only the vertices named (DrawScratch::slots).
constexpr uint64_t kSlotRange = uint64_t(1) << 16;
constexpr uint32_t kNoSlot = 0xffffffffu;

shader::Interpreter& ThreadInterpreter() { return DrawInterpreter(); }

// The values a draw's vertex and fragment work shares.
struct DrawJob {
	const GraphicsPipeline* pipeline = nullptr;
	const GraphicsContext* graphics = nullptr;
	const shader::Resources* vertex_resources = nullptr;
	const shader::Resources* fragment_resources = nullptr;
	// Vertex input: the pipeline's, or vkCmdSetVertexInputEXT's resolved.
	const VertexBindingDescription* bindings = nullptr;
	const VertexAttributeDescription* attributes = nullptr;
	uint32_t attribute_count = 0;
	shader::RunOptions options;
	std::atomic<bool> lost{false};
	// Per instance.
	uint32_t instance = 0;  // InstanceIndex: first_instance + the instance's number
	int32_t base_vertex = 0;
	uint32_t base_instance = 0;
	uint32_t draw_index = 0;
	// Transform feedback: each vertex's captured words (Program::xfb_words
	// order, xfb_count a vertex), or null when the draw captures nothing.
	uint32_t* xfb_values = nullptr;
	uint32_t xfb_count = 0;
	// With a geometry stage: per vertex, the vertex outputs it reads
	// (GraphicsPipeline::geometry_sources); the vertex stage writes nothing else.
	uint32_t* geometry_values = nullptr;
	// With tessellation: per vertex, the vertex outputs the control stage
	// reads (GraphicsPipeline::tess_sources); the evaluation stage then
	// writes the outputs above, one "vertex" per domain point of `tess`.
	uint32_t* tess_values = nullptr;
	const shader::Resources* tess_eval_resources = nullptr;
	const TessellationRun* tess = nullptr;
	// Without a geometry stage, the PrimitiveId of each vertex's primitive
	// when it is not the primitive's number (tessellation: the patch's).
	const uint32_t* vertex_primitive_ids = nullptr;
	uint32_t view_index = 0;  // ViewIndex: the view being drawn with multiview, else 0
	uint32_t samples = 1;     // rasterizationSamples
	// The fragment output Location each color attachment takes
	// (GraphicsContext::color_locations).
	uint8_t color_locations[raster::kMaxColorAttachments] = {0, 1, 2, 3, 4, 5, 6, 7};
	// Vertex ids of the vertices to shade (vertex i has id ids[i]), or, when
	// ids is null, first_id + i.
	const uint32_t* ids = nullptr;
	uint32_t first_id = 0;
	uint32_t vertex_count = 0;
	// Outputs, vertex-major.
	float* positions = nullptr;
	float* varyings = nullptr;
	float* clip_distances = nullptr;
	uint32_t clip_count = 0;
	float* cull_distances = nullptr;  // cull_count a vertex, vertex-major
	uint32_t cull_count = 0;
	float* point_sizes = nullptr;          // when the program writes PointSize and points are drawn
	uint32_t* layers = nullptr;            // when the program writes Layer (shaderOutputLayer)
	uint32_t* viewport_indices = nullptr;  // when the program writes ViewportIndex
	uint32_t viewport_index = 0;           // the viewport being drawn (fragment ViewportIndex input)
	uint32_t layer = 0;                    // the framebuffer layer being drawn (fragment Layer input)
	// VK_EXT_line_rasterization: with a stipple, the raster varying that
	// holds the distance along the line in pixels (kNoWord: no stipple).
	uint32_t stipple_varying = kNoWord;
	// Fragment shader invocations (live lanes run), counted for an active
	// pipeline statistics query.
	bool count_fragments = false;
	std::atomic<uint64_t> fragment_invocations{0};
};

// Vulkan 1.3 §22.4 "Vertex Attribute Address Calculation" and §22.5: the
// attribute's texel converted to the shader's 32-bit components. A texel
// outside the bound range reads zeros (robustBufferAccess, §22.4: zero or
// in-bounds values, with the missing components of the format as (0,0,0,1)).
void FetchAttribute(const DrawJob& job, const VertexAttributeDescription& a, uint32_t first, uint32_t lanes,
                    shader::Interpreter& interp) {
	const GraphicsPipeline& gp = *job.pipeline;
	const GraphicsContext::VertexBuffer& buffer = job.graphics->vertex_buffers[a.binding];
	const VertexBindingDescription& binding = job.bindings[a.binding];
	uint64_t stride = binding.stride;
	if ((gp.dynamic & Bit(Dynamic::kVertexInputBindingStride)) && buffer.has_stride) stride = buffer.stride;
	const texture::FormatInfo& format = *a.info;
	const uint32_t size = format.block_size;
	uint32_t* words[4];
	for (int c = 0; c < 4; ++c) words[c] = a.words[c] != kNoWord ? interp.StageWord(a.words[c]) : nullptr;
	const bool plain_float =
	    format.Numeric() == texture::NumericFormat::SFLOAT && !format.packed && format.components[0].bits == 32;
	for (uint32_t l = 0; l < lanes; ++l) {
		// Vulkan "Vertex Input Address Calculation": a per-instance binding
		// with divisor d reads element firstInstance + (instance - firstInstance) / d
		// (always firstInstance for d = 0).
		uint64_t element =
		    binding.per_instance
		        ? (binding.divisor == 1   ? job.instance
		           : binding.divisor == 0 ? job.base_instance
		                                  : job.base_instance + (job.instance - job.base_instance) / binding.divisor)
		        : (job.ids ? job.ids[first + l] : job.first_id + first + l);
		uint64_t offset = element * stride + a.offset;
		texture::TexelValue v;
		if (buffer.data && offset + size <= buffer.size) {
			if (plain_float) {
				v.f[0] = v.f[1] = v.f[2] = 0.0f;
				v.f[3] = 1.0f;
				// Constant sizes: a copy of a run-time size is a `rep movs`,
				// whose start-up costs more than the vertex.
				const uint8_t* from = buffer.data + offset;
				switch (size) {
				case 4: std::memcpy(v.f, from, 4); break;
				case 8: std::memcpy(v.f, from, 8); break;
				case 12: std::memcpy(v.f, from, 12); break;
				default: std::memcpy(v.f, from, 16); break;
				}
			} else {
				v = texture::UnpackTexel(format, buffer.data + offset);
			}
		} else {
			uint8_t zero[32] = {};
			v = texture::UnpackTexel(format, zero);
		}
		for (int c = 0; c < 4; ++c)
			if (words[c]) words[c][l] = v.u[c];
	}
}

void StoreVertexOutputs(DrawJob& job, shader::Interpreter& interp, uint32_t first, uint32_t lanes);

// The output words the next stage reads per vertex (`sources`) of vertices
// [first, first + lanes), vertex-major into out.
void KeepSources(shader::Interpreter& interp, const std::vector<uint32_t>& sources, uint32_t* out, uint32_t first,
                 uint32_t lanes) {
	const size_t n = sources.size();
	for (size_t k = 0; k < n; ++k) {
		const uint32_t* w = interp.StageWord(sources[k]);
		uint32_t* to = out + size_t(first) * n + k;
		for (uint32_t l = 0; l < lanes; ++l) to[size_t(l) * n] = w[l];
	}
}

// Shades vertices [first, first + lanes) of the job into its output arrays.
void ShadeVertices(DrawJob& job, uint32_t first, uint32_t lanes) {
	// Once a lane group has run past the step bound the draw is lost: the
	// other groups are not run (each could take as long).
	if (job.lost.load(std::memory_order_relaxed)) return;
	const GraphicsPipeline& gp = *job.pipeline;
	const shader::Program& vs = *gp.vertex;
	shader::Interpreter& interp = ThreadInterpreter();
	interp.BeginStage(vs, lanes);
	if (gp.vertex_index_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.vertex_index_word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = job.ids ? job.ids[first + l] : job.first_id + first + l;
	}
	auto fill = [&](uint32_t word, uint32_t value) {
		if (word == kNoWord) return;
		uint32_t* w = interp.StageWord(word);
		std::fill(w, w + lanes, value);
	};
	fill(gp.instance_index_word, job.instance);
	fill(gp.base_vertex_word, uint32_t(job.base_vertex));
	fill(gp.base_instance_word, job.base_instance);
	fill(gp.draw_index_word, job.draw_index);
	fill(gp.vertex_view_index_word, gp.pre_rasterization_view_from_device ? 0 : job.view_index);
	for (uint32_t i = 0; i < job.attribute_count; ++i) FetchAttribute(job, job.attributes[i], first, lanes, interp);
	if (interp.RunStage(vs, *job.vertex_resources, job.options) != shader::RunStatus::kSuccess)
		job.lost.store(true, std::memory_order_relaxed);
	if (gp.tess_control)
		KeepSources(interp, gp.tess_sources, job.tess_values, first, lanes);
	else
		StoreVertexOutputs(job, interp, first, lanes);
}

// The outputs of the last vertex-processing stage (vertex or tessellation
// evaluation) for vertices [first, first + lanes) into the job's arrays.
void StoreVertexOutputs(DrawJob& job, shader::Interpreter& interp, uint32_t first, uint32_t lanes) {
	const GraphicsPipeline& gp = *job.pipeline;
	const shader::Program& vs = gp.tess_eval ? *gp.tess_eval : *gp.vertex;
	if (gp.geometry) {
		KeepSources(interp, gp.geometry_sources, job.geometry_values, first, lanes);
		return;
	}
	for (int c = 0; c < 4; ++c) {
		float* out = job.positions + size_t(first) * 4 + c;
		if (gp.position_words[c] == kNoWord) {
			for (uint32_t l = 0; l < lanes; ++l) out[size_t(l) * 4] = c == 3 ? 1.0f : 0.0f;
			continue;
		}
		const uint32_t* w = interp.StageWord(gp.position_words[c]);
		for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&out[size_t(l) * 4], &w[l], 4);
	}
	const uint32_t n = gp.varying_count;
	for (uint32_t v = 0; v < n; ++v) {
		float* out = job.varyings + size_t(first) * n + v;
		if (gp.varyings[v].vertex_word == kNoWord) {
			for (uint32_t l = 0; l < lanes; ++l) out[size_t(l) * n] = 0.0f;
			continue;
		}
		const uint32_t* w = interp.StageWord(gp.varyings[v].vertex_word);
		for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&out[size_t(l) * n], &w[l], 4);
	}
	for (uint32_t k = 0; k < job.xfb_count; ++k) {
		const uint32_t* w = interp.StageWord(vs.xfb_words[k].word);
		uint32_t* out = job.xfb_values + size_t(first) * job.xfb_count + k;
		for (uint32_t l = 0; l < lanes; ++l) out[size_t(l) * job.xfb_count] = w[l];
	}
	if (job.point_sizes) {
		const uint32_t* w = interp.StageWord(gp.point_size_word);
		std::memcpy(job.point_sizes + first, w, lanes * 4);
	}
	if (job.layers) std::memcpy(job.layers + first, interp.StageWord(gp.layer_word), lanes * 4);
	if (job.viewport_indices)
		std::memcpy(job.viewport_indices + first, interp.StageWord(gp.viewport_index_word), lanes * 4);
	for (uint32_t d = 0; d < job.clip_count; ++d) {
		float* out = job.clip_distances + size_t(first) * job.clip_count + d;
		const uint32_t* w = interp.StageWord(gp.clip_distance_words[d]);
		for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&out[size_t(l) * job.clip_count], &w[l], 4);
	}
	for (uint32_t d = 0; d < job.cull_count; ++d) {
		float* out = job.cull_distances + size_t(first) * job.cull_count + d;
		if (gp.cull_distance_words[d] == kNoWord) {  // an element the program does not declare: keeps nothing out
			for (uint32_t l = 0; l < lanes; ++l) out[size_t(l) * job.cull_count] = 0.0f;
			continue;
		}
		const uint32_t* w = interp.StageWord(gp.cull_distance_words[d]);
		for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&out[size_t(l) * job.cull_count], &w[l], 4);
	}
}

// Runs the tessellation evaluation program over domain points
// [first, first + lanes) of job.tess, each reading its patch's record.
void ShadeEvaluation(DrawJob& job, uint32_t first, uint32_t lanes) {
	if (job.lost.load(std::memory_order_relaxed)) return;
	const GraphicsPipeline& gp = *job.pipeline;
	const shader::Program& tes = *gp.tess_eval;
	const TessellationRun& run = *job.tess;
	const size_t words = gp.tess_control->tessellation.patch_bytes / 4;
	shader::Interpreter& interp = ThreadInterpreter();
	interp.BeginStage(tes, lanes);
	for (int c = 0; c < 3; ++c) {
		if (gp.tess_coord_words[c] == kNoWord) continue;
		uint32_t* w = interp.StageWord(gp.tess_coord_words[c]);
		for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&w[l], &run.coords[size_t(first + l) * 3 + c], 4);
	}
	for (const PatchInput& input : gp.tess_eval_inputs) {
		if (input.record_word == kNoWord || input.record_word >= words) continue;  // zero
		uint32_t* w = interp.StageWord(input.word);
		for (uint32_t l = 0; l < lanes; ++l)
			w[l] = run.records[size_t(run.point_patch[first + l]) * words + input.record_word];
	}
	if (gp.eval_primitive_id_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.eval_primitive_id_word);
		std::memcpy(w, &run.point_patch[first], lanes * 4);
	}
	if (gp.eval_patch_vertices_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.eval_patch_vertices_word);
		std::fill(w, w + lanes, gp.tess_control->tessellation.output_vertices);
	}
	if (gp.eval_view_index_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.eval_view_index_word);
		std::fill(w, w + lanes, gp.pre_rasterization_view_from_device ? 0 : job.view_index);
	}
	if (interp.RunStage(tes, *job.tess_eval_resources, job.options) != shader::RunStatus::kSuccess)
		job.lost.store(true, std::memory_order_relaxed);
	StoreVertexOutputs(job, interp, first, lanes);
}

// raster::FragmentShader::begin: this thread's interpreter begins the stage
// for the batch, and the batch's varyings point at their input words.
void BeginFragments(const void* user, raster::FragmentBatch& b) {
	const auto& job = *static_cast<const DrawJob*>(user);
	const GraphicsPipeline& gp = *job.pipeline;
	shader::Interpreter& interp = ThreadInterpreter();
	// One layout for all batches (kMaxBatchLanes): the words stay put.
	interp.BeginStage(*gp.fragment, b.quad_count * 4, raster::kMaxBatchLanes, gp.fragment_filled_words);
	for (uint32_t v = 0; v < gp.varying_count; ++v)
		b.varyings[v] = reinterpret_cast<float*>(interp.StageWord(gp.varyings[v].fragment_word));
	// Those an earlier draw pointed and this one does not (the rasterizer's
	// own, a line stipple's, after the pipeline's) go back to the batch.
	for (uint32_t v = gp.varying_count; v < b.varyings_pointed; ++v) b.varyings[v] = b.varying_storage[v];
	b.varyings_pointed = gp.varying_count;
}

// The rasterizer's fragment stage: one batch of quads through the fragment
// program (raster::FragmentShader::run).
void RunFragments(const void* user, raster::FragmentBatch& b) {
	auto& job = *static_cast<DrawJob*>(const_cast<void*>(user));
	const GraphicsPipeline& gp = *job.pipeline;
	const shader::Program& fs = *gp.fragment;
	const uint32_t lanes = b.quad_count * 4;
	// The draw is lost once one batch has run past the step bound (an
	// endless loop): later batches write nothing instead of each running to
	// the bound, so a full-screen endless loop ends in about one batch's time.
	if (job.lost.load(std::memory_order_relaxed)) {
		b.abandoned = true;
		return;
	}
	// BeginFragments began the stage and the rasterizer wrote the varyings
	// into its input words.
	shader::Interpreter& interp = ThreadInterpreter();
	for (int c = 0; c < 4; ++c)
		if (gp.frag_coord_words[c] != kNoWord)
			std::memcpy(interp.StageWord(gp.frag_coord_words[c]), b.frag_coord[c], lanes * 4);
	if (gp.front_facing_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.front_facing_word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = b.front_facing[l] ? 1 : 0;
	}
	if (gp.helper_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.helper_word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = b.live[l] ? 0 : 1;
	}
	for (int c = 0; c < 2; ++c) {
		if (gp.point_coord_words[c] != kNoWord)
			std::memcpy(interp.StageWord(gp.point_coord_words[c]), b.point_coord[c], lanes * 4);
		if (gp.sample_position_words[c] != kNoWord)
			std::memcpy(interp.StageWord(gp.sample_position_words[c]), b.sample_position[c], lanes * 4);
	}
	if (gp.sample_id_word != kNoWord) std::memcpy(interp.StageWord(gp.sample_id_word), b.sample_id, lanes * 4);
	if (gp.sample_mask_in_word != kNoWord)
		std::memcpy(interp.StageWord(gp.sample_mask_in_word), b.sample_mask_in, lanes * 4);
	if (gp.sample_count_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.sample_count_word);
		std::fill(w, w + lanes, job.samples);
	}
	if (gp.fragment_view_index_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.fragment_view_index_word);
		std::fill(w, w + lanes, gp.fragment_view_from_device ? 0 : job.view_index);
	}
	if (gp.fragment_layer_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.fragment_layer_word);
		std::fill(w, w + lanes, job.layer);
	}
	if (gp.fragment_viewport_index_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.fragment_viewport_index_word);
		std::fill(w, w + lanes, job.viewport_index);
	}
	if (job.count_fragments) {
		uint64_t live = 0;
		for (uint32_t l = 0; l < lanes; ++l) live += b.live[l] != 0;
		job.fragment_invocations.fetch_add(live, std::memory_order_relaxed);
	}
	if (interp.RunStage(fs, *job.fragment_resources, job.options) != shader::RunStatus::kSuccess) {
		job.lost.store(true, std::memory_order_relaxed);
		b.abandoned = true;
		return;
	}
	// The outputs are read where the shader left them: this thread's
	// interpreter runs nothing else before the batch is written. (The
	// engine stores them as uint32_t, the output merger loads them as
	// float: no function sees both, so type-based alias analysis cannot
	// reorder the two; an LTO build would have to revisit this.)
	// Attachment a takes the outputs of Location job.color_locations[a]
	// (its own index unless VK_KHR_dynamic_rendering_local_read remaps it;
	// an attachment without one is not written: ComposeState).
	for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a) {
		const uint8_t l = job.color_locations[a];
		for (int c = 0; c < 4; ++c) {
			const uint32_t word = l < raster::kMaxColorAttachments ? gp.color_words[l][c] : kNoWord;
			b.color[a][c] = word != kNoWord ? reinterpret_cast<float*>(interp.StageWord(word)) : b.color_storage[a][c];
		}
	}
	if (gp.frag_depth_word != kNoWord) std::memcpy(b.frag_depth, interp.StageWord(gp.frag_depth_word), lanes * 4);
	if (gp.frag_stencil_ref_word != kNoWord)
		std::memcpy(b.stencil_ref, interp.StageWord(gp.frag_stencil_ref_word), lanes * 4);
	if (gp.sample_mask_word != kNoWord) std::memcpy(b.sample_mask, interp.StageWord(gp.sample_mask_word), lanes * 4);
	if (fs.discard_word != kNoWord) {
		const uint32_t* w = interp.StageWord(fs.discard_word);
		for (uint32_t l = 0; l < lanes; ++l) b.discarded[l] = w[l] != 0;
	}
}

// The pipeline's state with the dynamic state applied (§10.2).
raster::DrawState ComposeState(const GraphicsPipeline& gp, const GraphicsContext& g, bool* discard,
                               VkPrimitiveTopology* topology, bool* restart) {
	raster::DrawState s = gp.state;
	auto dyn = [&](Dynamic d) { return (gp.dynamic & Bit(d)) != 0; };
	if (dyn(Dynamic::kViewport) || dyn(Dynamic::kViewportWithCount)) s.raster.viewport = g.viewports[0];
	if (dyn(Dynamic::kScissor) || dyn(Dynamic::kScissorWithCount)) s.raster.scissor = g.scissors[0];
	if (dyn(Dynamic::kDepthBias)) {
		s.raster.depth_bias_constant = g.depth_bias_constant;
		s.raster.depth_bias_clamp = g.depth_bias_clamp;
		s.raster.depth_bias_slope = g.depth_bias_slope;
		s.raster.depth_bias_representation = g.depth_bias_representation;
	}
	if (dyn(Dynamic::kBlendConstants)) std::copy(g.blend_constants, g.blend_constants + 4, s.blend.constants);
	if (dyn(Dynamic::kLogicOp)) s.blend.logic_op = g.logic_op;
	// VK_EXT_extended_dynamic_state3, the states from kDepthClampEnable on:
	// one test for pipelines without any (this runs for every draw).
	constexpr uint64_t kState3 = (Bit(Dynamic::kCount) - 1) & ~(Bit(Dynamic::kDepthClampEnable) - 1);
	if (gp.dynamic & kState3) {
		raster::RasterState& r = s.raster;
		if (dyn(Dynamic::kDepthClampEnable)) {
			r.depth_clamp = g.depth_clamp;
			if (!gp.explicit_depth_clip) r.depth_clip = !g.depth_clamp;
		}
		if (dyn(Dynamic::kDepthClipEnable)) r.depth_clip = g.depth_clip;
		if (dyn(Dynamic::kDepthClipNegativeOneToOne)) r.depth_negative_one_to_one = g.depth_negative_one_to_one;
		if (dyn(Dynamic::kDepthClampRange)) {
			r.depth_clamp_user_range = g.depth_clamp_user_range;
			r.depth_clamp_min = g.depth_clamp_min, r.depth_clamp_max = g.depth_clamp_max;
		}
		// VK_EXT_discard_rectangles: a dynamic enable turns on the
		// pipeline's rectangles, or, where they are dynamic and it has none,
		// all maxDiscardRectangles (Vulkan "Discard Rectangles Test").
		if (dyn(Dynamic::kDiscardRectangle) || dyn(Dynamic::kDiscardRectangleEnable) ||
		    dyn(Dynamic::kDiscardRectangleMode)) {
			const bool dynamic_rectangles = dyn(Dynamic::kDiscardRectangle);
			const uint32_t count = gp.discard_rectangle_count ? gp.discard_rectangle_count
			                       : dynamic_rectangles       ? raster::kMaxDiscardRectangles
			                                                  : 0;
			if (dyn(Dynamic::kDiscardRectangleEnable))
				r.discard_rectangle_count = g.discard_rectangle_enable ? count : 0;
			if (dyn(Dynamic::kDiscardRectangleMode)) r.discard_inclusive = g.discard_inclusive;
			if (dynamic_rectangles) std::copy(g.discard_rectangles, g.discard_rectangles + count, r.discard_rectangles);
		}
		if (dyn(Dynamic::kConservativeRasterizationMode)) r.conservative_mode = g.conservative_mode;
		if (dyn(Dynamic::kExtraPrimitiveOverestimationSize)) r.extra_overestimation = g.extra_overestimation;
		if (dyn(Dynamic::kPolygonMode)) r.polygon_mode = g.polygon_mode;
		if (dyn(Dynamic::kSampleMask)) r.sample_mask = g.sample_mask;
		if (dyn(Dynamic::kRasterizationSamples)) r.samples = g.rasterization_samples;
		if (dyn(Dynamic::kAlphaToCoverageEnable)) r.alpha_to_coverage = g.alpha_to_coverage;
		if (dyn(Dynamic::kAlphaToOneEnable)) r.alpha_to_one = g.alpha_to_one;
		if (dyn(Dynamic::kProvokingVertexMode)) r.provoking_vertex_last = g.provoking_vertex_last;
		if (dyn(Dynamic::kLogicOpEnable)) s.blend.logic_op_enable = g.logic_op_enable;
		for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a) {
			raster::BlendAttachmentState& b = s.blend.attachments[a];
			if (dyn(Dynamic::kColorBlendEnable)) b.blend_enable = (g.blend_enables >> a & 1) != 0;
			if (dyn(Dynamic::kColorBlendEquation)) {
				const GraphicsContext::BlendEquation& e = g.blend_equations[a];
				b.src_color = e.src_color, b.dst_color = e.dst_color, b.color_op = e.color_op;
				b.src_alpha = e.src_alpha, b.dst_alpha = e.dst_alpha, b.alpha_op = e.alpha_op;
			}
			if (dyn(Dynamic::kColorWriteMask)) b.write_mask = gp.written_attachments >> a & 1 ? g.write_masks[a] : 0;
		}
	}
	// VK_EXT_color_write_enable: a disabled attachment is not written, as
	// with a zero color write mask.
	const uint32_t enables = dyn(Dynamic::kColorWriteEnable) ? g.color_write_enables : gp.color_write_enables;
	for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a)
		if (!(enables >> a & 1)) s.blend.attachments[a].write_mask = 0;
	// Vulkan "Fragment Output Interface": an attachment whose Location has
	// no output variable, or that takes no Location
	// (VK_KHR_dynamic_rendering_local_read), keeps its values.
	if (gp.fragment)
		for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a) {
			const uint8_t l = g.color_locations[a];
			if (l == GraphicsContext::kUnusedLocation || !(gp.output_locations >> l & 1))
				s.blend.attachments[a].write_mask = 0;
		}
	// VK_EXT_attachment_feedback_loop_dynamic_state: a feedback loop set at
	// draw time makes the draw read attachments, as the pipeline flags do
	// (graphics_pipeline.cpp): never queued behind or hidden by others.
	if (dyn(Dynamic::kAttachmentFeedbackLoopEnable) && g.feedback_loop_aspects) s.shader.reads_attachments = true;
	raster::DepthStencilState& ds = s.depth_stencil;
	for (auto [face, dynamic_face] : {std::pair{&ds.front, &g.front}, std::pair{&ds.back, &g.back}}) {
		if (dyn(Dynamic::kStencilCompareMask)) face->compare_mask = dynamic_face->compare_mask;
		if (dyn(Dynamic::kStencilWriteMask)) face->write_mask = dynamic_face->write_mask;
		if (dyn(Dynamic::kStencilReference)) face->reference = dynamic_face->reference;
		if (dyn(Dynamic::kStencilOp)) {
			face->fail_op = dynamic_face->fail_op;
			face->pass_op = dynamic_face->pass_op;
			face->depth_fail_op = dynamic_face->depth_fail_op;
			face->compare_op = dynamic_face->compare_op;
		}
	}
	if (dyn(Dynamic::kCullMode)) s.raster.cull_mode = g.cull_mode;
	if (dyn(Dynamic::kFrontFace)) s.raster.front_face = g.front_face;
	if (dyn(Dynamic::kDepthTestEnable)) ds.depth_test = g.depth_test;
	if (dyn(Dynamic::kDepthWriteEnable)) ds.depth_write = g.depth_write;
	if (dyn(Dynamic::kDepthCompareOp)) ds.depth_compare = g.depth_compare;
	if (dyn(Dynamic::kStencilTestEnable)) ds.stencil_test = g.stencil_test;
	if (dyn(Dynamic::kDepthBiasEnable)) s.raster.depth_bias_enable = g.depth_bias_enable;
	if (dyn(Dynamic::kLineWidth)) s.raster.line_width = g.line_width;
	if (dyn(Dynamic::kLineRasterizationMode)) s.raster.line_mode = g.line_mode;
	if (dyn(Dynamic::kDepthBoundsTestEnable)) ds.depth_bounds_test = g.depth_bounds_test;
	if (dyn(Dynamic::kDepthBounds)) {
		ds.min_depth_bounds = g.min_depth_bounds;
		ds.max_depth_bounds = g.max_depth_bounds;
	}
	*discard = dyn(Dynamic::kRasterizerDiscardEnable) ? g.rasterizer_discard : gp.rasterizer_discard;
	*topology = dyn(Dynamic::kPrimitiveTopology) ? g.topology : gp.topology;
	*restart = dyn(Dynamic::kPrimitiveRestartEnable) ? g.primitive_restart : gp.primitive_restart;
	// Vulkan 1.3 §29.2: the depth test is off without a depth attachment
	// (the rasterizer checks the attachment pointer); a depth write needs
	// the test enabled.
	if (!ds.depth_test) ds.depth_write = false;
	return s;
}

// The current attachments as plain memory: the view's base level, and its
// layer `layer` (the view index with multiview). A view without that layer,
// or with another sample count than the pipeline rasterizes with (invalid
// use), is left out rather than written past.
raster::Framebuffer MakeFramebuffer(const GraphicsContext& g, uint32_t samples, uint32_t layer) {
	raster::Framebuffer fb;
	fb.width = g.width;
	fb.height = g.height;
	fb.samples = samples;
	auto clamp_to = [&](const ImageView& view, uint32_t plane) {
		const texture::SubresourceLayout& level = view.GetImage()->Layout().Level(plane, view.Range().baseMipLevel);
		fb.width = std::min(fb.width, level.extent.width);
		fb.height = std::min(fb.height, level.extent.height);
		return level;
	};
	// (Color attachments may be tiled: partially resident images,
	// raster::ColorTarget.)
	auto base = [layer, samples](const ImageView& view, uint32_t plane) -> uint8_t* {
		const Image& image = *view.GetImage();
		if (layer >= view.Range().layerCount || uint32_t(image.Samples()) != samples) return nullptr;
		return image.Data() + view.LayerOffset(plane, layer);
	};
	fb.color_count = g.color_count;
	for (uint32_t i = 0; i < g.color_count; ++i) {
		const ImageView* view = g.colors[i];
		if (!view || !view->GetImage()->Data()) continue;
		const texture::SubresourceLayout& level = clamp_to(*view, 0);
		fb.color[i] = {base(*view, 0), level.row_pitch, view->Format(), level.tile_shift};
		fb.tiled_colors |= level.tile_shift != 0;
	}
	if (const ImageView* view = g.depth; view && view->GetImage()->Data()) {
		const Image& image = *view->GetImage();
		uint32_t plane = image.Layout().PlaneOf(VK_IMAGE_ASPECT_DEPTH_BIT);
		const texture::SubresourceLayout& level = clamp_to(*view, plane);
		fb.depth = {base(*view, plane), level.row_pitch, level.format};
	}
	if (const ImageView* view = g.stencil; view && view->GetImage()->Data()) {
		const Image& image = *view->GetImage();
		uint32_t plane = image.Layout().PlaneOf(VK_IMAGE_ASPECT_STENCIL_BIT);
		const texture::SubresourceLayout& level = clamp_to(*view, plane);
		fb.stencil = {base(*view, plane), level.row_pitch};
	}
	return fb;
}

bool ToRasterTopology(VkPrimitiveTopology topology, raster::Topology* out) {
	switch (topology) {
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: *out = raster::Topology::TriangleList; return true;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: *out = raster::Topology::TriangleStrip; return true;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: *out = raster::Topology::TriangleFan; return true;
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: *out = raster::Topology::PointList; return true;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: *out = raster::Topology::LineList; return true;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: *out = raster::Topology::LineStrip; return true;
	default: return false;
	}
}

// Reads index i of the bound index buffer; out of range reads 0
// (robustBufferAccess). Restart values become kRestart.
uint32_t ReadIndex(const GraphicsContext& g, uint64_t i, bool restart) {
	uint32_t size = g.index_type == VK_INDEX_TYPE_UINT32 ? 4 : g.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1 : 2;
	if (!g.index_data || (i + 1) * size > g.index_size) return 0;
	uint32_t v = 0;
	std::memcpy(&v, g.index_data + i * size, size);
	if (restart && v == (size == 4 ? 0xffffffffu : size == 2 ? 0xffffu : 0xffu)) return kRestart;
	return v;
}

// A draw whose fragments wait in the renderer's queue (Renderer::Queue):
// what RunFragments reads, kept until the queue is flushed. Consecutive
// draws whose fragment stages would read the same share one.
struct QueuedFragments {
	DrawJob job;
	BoundResources bound;  // job.fragment_resources
	alignas(16) uint8_t push_constants[kMaxPushConstantsSize];
	const Pipeline* pipeline = nullptr;
};

// Whether a draw of `pipeline` would run its fragment stage with what q
// holds: the same pipeline, resources and push constants, sample count and
// color locations (what RunFragments reads of the job besides the device's
// options).
bool SameFragments(const QueuedFragments& q, const ExecutionContext& context, const Pipeline& pipeline,
                   uint32_t samples, const uint8_t* color_locations) {
	const DrawJob& job = q.job;
	return q.pipeline == &pipeline && job.samples == samples &&
	       std::equal(std::begin(job.color_locations), std::end(job.color_locations), color_locations) &&
	       SameResources(context, BindPoint::Graphics, pipeline, *pipeline.Graphics().fragment, q.bound,
	                     q.push_constants);
}

struct DrawScratch {
	std::unique_ptr<raster::Renderer> renderer;
	// The fragment stages of the draws in the renderer's queue, in order.
	std::vector<std::shared_ptr<QueuedFragments>> queued;
	// Those of flushed draws, kept for the next ones: a scene of many small
	// draws queues thousands a frame, and each holds vectors of bindings.
	std::vector<std::shared_ptr<QueuedFragments>> spare;
	runtime::ThreadPool* pool = nullptr;
	std::vector<uint32_t> ids, indices, layers, viewport_indices, assembled, xfb_values, xfb_primitives;
	std::vector<uint32_t> slots;      // an indexed draw's vertex slots, by index - lowest index
	std::vector<uint32_t> instanced;  // raster indices of a draw's instances rasterized together
	std::vector<float> positions, varyings, clip_distances, cull_distances, point_sizes;
	std::vector<std::vector<uint32_t>> by_layer;  // layered draws: list indices per layer
	// The geometry stage's inputs and outputs (geometry_stage.h).
	std::vector<uint32_t> geometry_values, geometry_primitives;
	std::vector<uint32_t> adjacency;  // adjacency topologies without a geometry stage: the main primitives
	// Tessellation (tessellation_stage.h): the vertex outputs the control
	// stage reads, the patches, the instance's run.
	std::vector<uint32_t> tess_values, patches;
	TessellationRun tess_run;
	GeometryRun geometry_run;
	GeometryVertices geometry_vertices;
	GeometryVertices expanded;         // ExpandPrimitives
	GeometryVertices geometry_stream;  // a geometry stage's stream that is not rasterized
};

// The draw scratch of the calling thread (the queue thread runs draws).
DrawScratch& ThisThreadScratch() {
	thread_local DrawScratch scratch;
	return scratch;
}

DrawScratch& ThreadScratch(runtime::ThreadPool* pool) {
	DrawScratch& scratch = ThisThreadScratch();
	if (!scratch.renderer || scratch.pool != pool) {
		scratch.renderer = std::make_unique<raster::Renderer>(pool);
		scratch.pool = pool;
	}
	return scratch;
}

}  // namespace

void ReleaseDrawScratch(size_t keep_bytes) {
	DrawScratch& scratch = ThisThreadScratch();
	size_t bytes = scratch.renderer ? scratch.renderer->ScratchBytes() : 0;
	for (const auto* v :
	     {&scratch.ids, &scratch.indices, &scratch.slots, &scratch.layers, &scratch.viewport_indices,
	      &scratch.assembled, &scratch.instanced, &scratch.geometry_values, &scratch.geometry_primitives})
		bytes += v->capacity() * sizeof(uint32_t);
	bytes += scratch.geometry_vertices.indices.capacity() * sizeof(uint32_t);
	for (const auto& v : scratch.geometry_run.batches) bytes += v.capacity() * sizeof(uint32_t);
	bytes += (scratch.geometry_vertices.positions.capacity() + scratch.geometry_vertices.varyings.capacity()) * 4;
	for (const auto& v : scratch.by_layer) bytes += v.capacity() * sizeof(uint32_t);
	for (const auto* v : {&scratch.positions, &scratch.varyings, &scratch.clip_distances, &scratch.cull_distances,
	                      &scratch.point_sizes})
		bytes += v->capacity() * sizeof(float);
	if (bytes > keep_bytes) scratch = DrawScratch{};
}

namespace {

void ReportPipeline(ExecutionContext& context, const Pipeline& pipeline, const char* message) {
	context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_PIPELINE,
	                       uint64_t(const_cast<Pipeline&>(pipeline).ToHandle()), "%s", message);
}

}  // namespace

void FlushQueuedDraws(ExecutionContext& context) {
	context.queued_draws = false;
	DrawScratch& scratch = ThisThreadScratch();
	if (!scratch.renderer) return;
	try {
		scratch.renderer->Flush();
	} catch (const std::bad_alloc&) {
		context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		                       "vkCmdDraw*: out of memory rasterizing the queued draws; they are skipped");
	}
	constexpr size_t kMostSpare = 4096;  // raster::Renderer::kMaxQueuedDraws
	for (auto& q : scratch.queued) {
		if (q->job.lost) {
			ReportPipeline(context, *q->pipeline,
			               "vkCmdDraw*: a shader ran past the execution bound (an endless loop?); the device is lost");
			context.device->MarkLost();
		}
		if (q.use_count() == 1 && scratch.spare.size() < kMostSpare) {
			q->bound.images.Release();  // (what it holds alive goes now)
			q->bound.address_ranges.reset();
			scratch.spare.push_back(std::move(q));
		}
	}
	scratch.queued.clear();
}

namespace {

// Gives each primitive of `list` (per vertices each) its own copies of its
// vertices, rewriting `input` and `list` to them, for what differs between
// primitives that share a vertex:
// - Vulkan "PrimitiveId" without a geometry stage: the primitive's number
//   (from 0 in draw order; restarts do not reset it) in the raster varying
//   gp.primitive_id_varying, flat, so every vertex holds it;
// - Vulkan "Line Stipple": each line vertex's distance in pixels from the
//   start of its strip (a line list's segments each start at 0) in the
//   raster varying job.stipple_varying, interpolated linearly, so a
//   fragment reads the distance of its projection on the line. A strip
//   carries the remainder of its last rectangle over to the next segment.
//   Bresenham lines count fragments instead: a segment's start holds the
//   fragments of the strip's segments before it (setup counts on from
//   there along the major axis);
// - Vulkan "Barycentric Interpolation": the BaryCoord weights and the
//   PerVertexKHR inputs, by the vertex's place in the primitive
//   (gp.place_varyings; `list` holds each primitive's vertices in the
//   order of the spec's table).
void ExpandPrimitives(const GraphicsPipeline& gp, const DrawJob& job, const raster::RasterState& raster,
                      bool line_strip, uint32_t per, std::vector<uint32_t>& list, GeometryVertices& out,
                      raster::VertexInput& input) {
	const size_t count = list.size();
	const uint32_t n = gp.varying_count, out_n = raster.varying_count;
	const uint32_t clips = job.clip_count, culls = job.cull_count;
	std::vector<float> distance;
	if (job.stipple_varying != kNoWord && per == 2) {
		distance.resize(count);
		const raster::Viewport& vp = raster.viewport;
		auto window = [&](uint32_t v, float* xy) {
			const float* p = &input.positions[size_t(v) * 4];
			const float w = p[3] > 1e-20f ? p[3] : 1e-20f;
			xy[0] = vp.x + vp.width * 0.5f * (p[0] / w + 1.0f);
			xy[1] = vp.y + vp.height * 0.5f * (p[1] / w + 1.0f);
		};
		const raster::PrimitiveSetupState setup = raster::MakePrimitiveSetupState(raster, 0, 0);
		const bool bresenham = raster.line_mode == raster::LineMode::Bresenham;
		double s = 0;
		for (size_t i = 0; i + 1 < count; i += 2) {
			if (!(line_strip && i > 0 && list[i] == list[i - 1])) s = 0;
			distance[i] = float(s);
			if (bresenham) {
				int32_t a[2], b[2];
				raster::SnapToFramebuffer(setup, &input.positions[size_t(list[i]) * 4], &a[0], &a[1]);
				raster::SnapToFramebuffer(setup, &input.positions[size_t(list[i + 1]) * 4], &b[0], &b[1]);
				s += raster::BresenhamMajorRun(a[0], a[1], b[0], b[1], uint32_t(setup.line_width)).count;
			} else {
				float a[2], b[2];
				window(list[i], a);
				window(list[i + 1], b);
				s += std::hypot(double(b[0]) - a[0], double(b[1]) - a[1]);
			}
			distance[i + 1] = float(s);
		}
	}
	out.positions.resize(count * 4);
	out.varyings.resize(count * out_n);
	out.clip_distances.resize(count * clips);
	out.cull_distances.resize(count * culls);
	out.point_sizes.resize(input.point_sizes ? count : 0);
	out.layers.resize(job.layers ? count : 0);
	out.viewport_indices.resize(job.viewport_indices ? count : 0);
	// (The arrays grow without zeroing: varyings with nothing to copy from
	// read as zero.)
	if (out_n && !(n && input.varyings)) std::fill(out.varyings.begin(), out.varyings.end(), 0.0f);
	for (size_t i = 0; i < count; ++i) {
		const size_t v = list[i];
		std::memcpy(&out.positions[i * 4], &input.positions[v * 4], 16);
		// (No varyings without a fragment stage: input.varyings is null then.)
		if (n) std::memcpy(&out.varyings[i * out_n], &input.varyings[v * n], size_t(n) * 4);
		if (gp.primitive_id_varying != kNoWord && !gp.geometry) {
			const uint32_t primitive = job.vertex_primitive_ids ? job.vertex_primitive_ids[v] : uint32_t(i / per);
			std::memcpy(&out.varyings[i * out_n + gp.primitive_id_varying], &primitive, 4);
		}
		if (job.stipple_varying != kNoWord)
			out.varyings[i * out_n + job.stipple_varying] = distance.empty() ? 0.0f : distance[i];
		const uint32_t place = uint32_t(i % per);
		const size_t first = i - place;  // the primitive's vertex 0
		for (const PlaceVarying& p : gp.place_varyings) {
			float& value = out.varyings[i * out_n + p.varying];
			if (p.source == kNoWord) {
				value = place == p.vertex ? 1.0f : 0.0f;
				continue;
			}
			// (No varyings came, none are read: they are all zero.)
			if (!n || !input.varyings) continue;
			const size_t from = list[first + std::min(p.vertex, per - 1)];
			std::memcpy(&value, &input.varyings[from * n + p.source], 4);
		}
		if (clips) std::memcpy(&out.clip_distances[i * clips], &input.clip_distances[v * clips], size_t(clips) * 4);
		if (culls) std::memcpy(&out.cull_distances[i * culls], &job.cull_distances[v * culls], size_t(culls) * 4);
		if (input.point_sizes) out.point_sizes[i] = input.point_sizes[v];
		if (job.layers) out.layers[i] = job.layers[v];
		if (job.viewport_indices) out.viewport_indices[i] = job.viewport_indices[v];
	}
	for (size_t i = 0; i < count; ++i) list[i] = uint32_t(i);
	input.positions = out.positions.data();
	input.varyings = out.varyings.data();
	input.clip_distances = clips ? out.clip_distances.data() : nullptr;
	input.point_sizes = input.point_sizes ? out.point_sizes.data() : nullptr;
	input.indices = nullptr;
	input.vertex_count = uint32_t(count);
}

// A draw whose vertex program writes Layer, ViewportIndex or CullDistance:
// its primitives, assembled into lists. Vulkan "Primitive Clipping" (cull
// distances): a primitive all of whose vertices have a negative cull
// distance for the same plane is dropped. Vulkan "Layer" and
// "ViewportIndex": the rest are grouped by the layer and viewport of their
// first vertex (every vertex of a primitive writes the same ones), each
// group drawn into its layer through its viewport and scissor; primitives
// past the framebuffer's layers or the viewports are dropped (their
// framebuffer values would be undefined). Without Layer everything goes to
// `fb`, without ViewportIndex through viewport 0 (`compiled`). Returns the
// samples that passed.
uint64_t DrawAssembled(const GraphicsPipeline& gp, const GraphicsContext& g, const raster::DrawState& state,
                       const raster::CompiledDraw& compiled, const raster::Framebuffer& fb,
                       const raster::VertexInput& input, DrawJob& job, DrawScratch& scratch) {
	const raster::RasterState& raster = state.raster;
	std::vector<uint32_t>& list = scratch.assembled;
	raster::VertexInput source = input;
	const uint32_t* layer_of = job.layers;
	const uint32_t* viewport_of = job.viewport_indices;
	const float* cull_of = job.cull_distances;
	list.clear();
	raster::Topology topology = input.topology;
	uint32_t per = 1;  // vertices a primitive
	switch (input.topology) {
	case raster::Topology::TriangleStrip:
	case raster::Topology::TriangleFan:
		raster::AssembleTriangles(input, raster.provoking_vertex_last, list);
		topology = raster::Topology::TriangleList;
		per = 3;
		break;
	case raster::Topology::LineStrip:
		raster::AssembleLines(input, list);
		topology = raster::Topology::LineList;
		per = 2;
		break;
	default:
		per = raster::ListVertexCount(input.topology);
		raster::AssembleList(input, per, list);
		break;
	}
	if ((gp.primitive_id_varying != kNoWord && !gp.geometry) || job.stipple_varying != kNoWord ||
	    !gp.place_varyings.empty()) {
		ExpandPrimitives(gp, job, raster, input.topology == raster::Topology::LineStrip, per, list, scratch.expanded,
		                 source);
		GeometryVertices& e = scratch.expanded;
		layer_of = job.layers ? e.layers.data() : nullptr;
		viewport_of = job.viewport_indices ? e.viewport_indices.data() : nullptr;
		cull_of = e.cull_distances.data();
	}
	auto culled = [&](const uint32_t* vertices) {
		for (uint32_t d = 0; d < job.cull_count; ++d) {
			bool all_negative = true;
			for (uint32_t k = 0; k < per && all_negative; ++k)
				all_negative = cull_of[size_t(vertices[k]) * job.cull_count + d] < 0.0f;
			if (all_negative) return true;
		}
		return false;
	};
	const uint32_t layers = job.layers ? std::max(g.layers, 1u) : 1;
	auto dyn = [&](Dynamic d) { return (gp.dynamic & Bit(d)) != 0; };
	const uint32_t viewports = !job.viewport_indices              ? 1
	                           : dyn(Dynamic::kViewportWithCount) ? g.viewport_count
	                                                              : gp.viewport_count;
	const uint32_t groups = layers * viewports;  // group = layer * viewports + viewport
	if (scratch.by_layer.size() < groups) scratch.by_layer.resize(groups);
	for (uint32_t k = 0; k < groups; ++k) scratch.by_layer[k].clear();
	for (size_t p = 0; p + per <= list.size(); p += per) {
		if (culled(&list[p])) continue;
		const uint32_t layer = layer_of ? layer_of[list[p]] : 0;
		const uint32_t viewport = viewport_of ? viewport_of[list[p]] : 0;
		if (layer >= layers || viewport >= viewports) continue;
		std::vector<uint32_t>& group = scratch.by_layer[layer * viewports + viewport];
		group.insert(group.end(), &list[p], &list[p] + per);
	}
	uint64_t passed = 0;
	for (uint32_t viewport = 0; viewport < viewports; ++viewport) {
		bool any = false;
		for (uint32_t l = 0; l < layers; ++l) any |= !scratch.by_layer[l * viewports + viewport].empty();
		if (!any) continue;
		// Viewport 0 is what `compiled` was made with; another recompiles
		// with its viewport and scissor (dynamic or the pipeline's).
		raster::CompiledDraw other;
		const raster::CompiledDraw* draw = &compiled;
		if (viewport > 0) {
			raster::DrawState s = state;
			const bool dynamic_viewport = dyn(Dynamic::kViewport) || dyn(Dynamic::kViewportWithCount);
			const bool dynamic_scissor = dyn(Dynamic::kScissor) || dyn(Dynamic::kScissorWithCount);
			s.raster.viewport = dynamic_viewport ? g.viewports[viewport] : gp.viewports[viewport];
			s.raster.scissor = dynamic_scissor ? g.scissors[viewport] : gp.scissors[viewport];
			other = raster::CompileDraw(s, fb);
			other.count_samples = compiled.count_samples;
			other.overwrites = other.overwrites && compiled.overwrites;
			draw = &other;
		}
		job.viewport_index = viewport;
		for (uint32_t l = 0; l < layers; ++l) {
			const std::vector<uint32_t>& indices = scratch.by_layer[l * viewports + viewport];
			if (indices.empty()) continue;
			raster::VertexInput part = source;
			part.topology = topology;
			part.indices = indices.data();
			part.vertex_count = uint32_t(indices.size());
			part.primitive_restart = false;
			if (!job.layers) {
				passed += scratch.renderer->Draw(*draw, fb, part);
				continue;
			}
			job.layer = l;
			passed += scratch.renderer->Draw(*draw, MakeFramebuffer(g, raster.samples, l), part);
		}
	}
	job.viewport_index = 0;
	return passed;
}

// Primitives the input assembler makes of `count` vertices (indices, when
// given, with restart values ending a strip or the current list primitive).
uint64_t CountPrimitives(raster::Topology topology, const uint32_t* indices, uint32_t count, bool restart) {
	auto in_run = [topology](uint64_t n) -> uint64_t {
		switch (topology) {
		case raster::Topology::TriangleList: return n / 3;
		case raster::Topology::TriangleStrip:
		case raster::Topology::TriangleFan: return n >= 3 ? n - 2 : 0;
		case raster::Topology::LineList: return n / 2;
		case raster::Topology::LineStrip: return n >= 2 ? n - 1 : 0;
		default: return n;
		}
	};
	if (!restart || !indices) return in_run(count);
	uint64_t total = 0, run = 0;
	for (uint32_t i = 0; i < count; ++i) {
		if (indices[i] == kRestart) {
			total += in_run(run);
			run = 0;
		} else {
			++run;
		}
	}
	return total + in_run(run);
}

// Vulkan 1.3 §26.1 "Transform Feedback": appends the vertices of one
// instance's vertex stream `stream` (shaded, or emitted by the geometry
// stage) to the bound transform feedback buffers that stream writes,
// primitive after primitive in draw order, strips and fans taken apart into
// independent primitives. Each primitive's vertices keep the topology's
// winding and its provoking vertex first, or last in last-vertex mode
// (transformFeedbackPreservesProvokingVertex, §26.1): AssembleTriangles
// orders strip and fan triangles so, and lists and line strips already are.
// A primitive that does not fit in every buffer it writes is not captured,
// nor counted as written; the stream's active query counts written and
// needed primitives.
void CaptureTransformFeedback(GraphicsContext& g, const shader::Program& vs, const DrawJob& job,
                              const raster::VertexInput& input, bool provoking_last, DrawScratch& scratch,
                              uint32_t stream = 0) {
	std::vector<uint32_t>& list = scratch.xfb_primitives;
	list.clear();
	uint32_t per = 1;
	switch (input.topology) {
	case raster::Topology::TriangleStrip:
	case raster::Topology::TriangleFan:
		raster::AssembleTriangles(input, provoking_last, list);
		per = 3;
		break;
	case raster::Topology::LineStrip:
		raster::AssembleLines(input, list);
		per = 2;
		break;
	case raster::Topology::TriangleList: per = 3; [[fallthrough]];
	case raster::Topology::LineList:
		if (input.topology == raster::Topology::LineList) per = 2;
		[[fallthrough]];
	default: raster::AssembleList(input, per, list); break;
	}
	// The buffers this stream writes: declared by the program for words of
	// the stream, and bound.
	uint32_t used = 0;
	for (const shader::XfbWord& word : vs.xfb_words)
		if (word.stream == stream && vs.xfb_strides[word.buffer] && g.xfb_buffers[word.buffer].data)
			used |= 1u << word.buffer;
	const uint64_t primitives = list.size() / per;
	uint64_t written = 0;
	for (uint64_t p = 0; p < primitives; ++p) {
		bool fits = true;
		for (uint32_t b = 0; b < shader::kMaxXfbBuffers; ++b)
			if (used >> b & 1) fits &= g.xfb_written[b] + uint64_t(per) * vs.xfb_strides[b] <= g.xfb_buffers[b].size;
		if (!fits) continue;
		for (uint32_t k = 0; k < per; ++k) {
			const uint32_t* values = job.xfb_values + size_t(list[p * per + k]) * job.xfb_count;
			for (uint32_t w = 0; w < job.xfb_count; ++w) {
				const shader::XfbWord& word = vs.xfb_words[w];
				if (word.stream != stream || !(used >> word.buffer & 1) ||
				    uint64_t(word.offset) + word.bytes > vs.xfb_strides[word.buffer])
					continue;
				uint8_t* record = g.xfb_buffers[word.buffer].data + g.xfb_written[word.buffer] +
				                  uint64_t(k) * vs.xfb_strides[word.buffer];
				// A 16-bit output: the half (its word holds it as a float, exact)
				// or the integer's low bits.
				const uint32_t value = word.half ? texture::FloatToHalf(std::bit_cast<float>(values[w])) : values[w];
				std::memcpy(record + word.offset, &value, word.bytes);
			}
		}
		for (uint32_t b = 0; b < shader::kMaxXfbBuffers; ++b)
			if (used >> b & 1) g.xfb_written[b] += uint64_t(per) * vs.xfb_strides[b];
		++written;
	}
	if (g.xfb_query_pool[stream])
		g.xfb_query_pool[stream]->AddTransformFeedback(g.xfb_query[stream], written, primitives);
}

// DrawGeometryStage for input primitives [first, first + count) of the
// instance.
uint64_t DrawGeometryPart(GraphicsContext& g, const GraphicsPipeline& gp, const raster::DrawState& state,
                          const raster::CompiledDraw& compiled, const raster::Framebuffer& fb,
                          const shader::Resources& resources, bool capture, bool discard, uint32_t drawn, DrawJob& job,
                          DrawScratch& scratch, uint32_t first, uint32_t count,
                          uint64_t (&emitted)[shader::kMaxVertexStreams]) {
	const shader::Program& gs = *gp.geometry;
	GeometryRun& run = scratch.geometry_run;
	run.pipeline = &gp;
	run.resources = &resources;
	run.options = job.options;
	run.values = job.geometry_values;
	run.primitives = scratch.geometry_primitives.data() + size_t(first) * gs.geometry.input_vertices;
	run.primitive_count = count;
	run.primitive_base = first;
	run.view_index = job.view_index;
	RunGeometry(run, scratch.pool);
	if (run.lost) {
		job.lost.store(true, std::memory_order_relaxed);
		return 0;
	}
	const raster::Topology topology = GeometryTopology(gs);
	uint64_t counted[shader::kMaxVertexStreams] = {};
	CountGeometryPrimitives(gp, run, counted);
	for (uint32_t stream = 0; stream < shader::kMaxVertexStreams; ++stream) emitted[stream] += counted[stream];
	auto stream_input = [&](const GeometryVertices& out) {
		raster::VertexInput input;
		input.topology = topology;
		input.primitive_restart = true;
		input.indices = out.indices.data();
		input.vertex_count = uint32_t(out.indices.size());
		input.positions = out.positions.data();
		input.varyings = out.varyings.data();
		return input;
	};
	// The streams other than the rasterized one: counted, and captured.
	for (uint32_t stream = 0; stream < shader::kMaxVertexStreams; ++stream) {
		if (stream == drawn) continue;
		const bool captured = capture && std::any_of(gs.xfb_words.begin(), gs.xfb_words.end(),
		                                             [&](const shader::XfbWord& w) { return w.stream == stream; });
		if (!captured) continue;  // counted above
		GeometryWants wants;
		wants.xfb_count = captured ? uint32_t(gs.xfb_words.size()) : 0;
		GeometryVertices& out = scratch.geometry_stream;
		GatherGeometryOutput(gp, run, stream, wants, out, scratch.pool);
		const raster::VertexInput input = stream_input(out);
		if (captured) {
			job.xfb_values = out.xfb_values.data();
			job.xfb_count = wants.xfb_count;
			CaptureTransformFeedback(g, gs, job, input, state.raster.provoking_vertex_last, scratch, stream);
		}
	}
	GeometryWants wants;
	wants.clip_count = job.clip_count;
	wants.cull_count = gp.cull_distance_count;
	wants.xfb_count = capture ? uint32_t(gs.xfb_words.size()) : 0;
	wants.point_sizes =
	    gp.point_size_word != kNoWord &&
	    (topology == raster::Topology::PointList ||
	     (state.raster.polygon_mode == VK_POLYGON_MODE_POINT && topology == raster::Topology::TriangleStrip));
	wants.layers = gp.layer_word != kNoWord && g.view_mask == 0;
	wants.viewport_indices = gp.viewport_index_word != kNoWord;
	GeometryVertices& out = scratch.geometry_vertices;
	GatherGeometryOutput(gp, run, drawn, wants, out, scratch.pool);
	raster::VertexInput input = stream_input(out);
	input.clip_distances = wants.clip_count ? out.clip_distances.data() : nullptr;
	input.point_sizes = wants.point_sizes ? out.point_sizes.data() : nullptr;
	if (capture) {
		job.xfb_values = out.xfb_values.data();
		job.xfb_count = wants.xfb_count;
		CaptureTransformFeedback(g, gs, job, input, state.raster.provoking_vertex_last, scratch, drawn);
	}
	if (discard || out.vertex_count == 0) return 0;
	job.cull_distances = out.cull_distances.data();
	job.cull_count = wants.cull_count;
	job.layers = wants.layers ? out.layers.data() : nullptr;
	job.viewport_indices = wants.viewport_indices ? out.viewport_indices.data() : nullptr;
	const bool assembled = wants.layers || wants.viewport_indices || wants.cull_count > 0 ||
	                       job.stipple_varying != kNoWord || !gp.place_varyings.empty();
	return assembled ? DrawAssembled(gp, g, state, compiled, fb, input, job, scratch)
	                 : scratch.renderer->Draw(compiled, fb, input);
}

// With a geometry stage (geometry_stage.h): runs it over the instance's
// input primitives, captures each vertex stream when `capture`, and draws
// stream `drawn` (the rasterization stream) unless `discard`. Adds the
// primitives emitted to each stream to emitted[stream]; returns the
// samples that passed.
// The input primitives go in parts, each run, captured and drawn before
// the next: the emitted records and their gathered copies are then held
// for one part instead of the whole draw (a stage that amplifies emits
// many times its input; drawn whole, 131k triangles made three each held
// some 70 MB more than lavapipe). Parts keep the draw's order, the
// primitives' PrimitiveId and every count (transform feedback appends,
// queries add). A part is about kGeometryPartBytes of records at most, as
// OutputVertices bounds them.
uint64_t DrawGeometryStage(GraphicsContext& g, const GraphicsPipeline& gp, const raster::DrawState& state,
                           const raster::CompiledDraw& compiled, const raster::Framebuffer& fb,
                           const shader::Resources& resources, bool capture, bool discard, uint32_t drawn, DrawJob& job,
                           DrawScratch& scratch, uint64_t (&emitted)[shader::kMaxVertexStreams]) {
	const shader::GeometryInfo& info = gp.geometry->geometry;
	constexpr uint64_t kGeometryPartBytes = uint64_t(16) << 20;
	constexpr uint64_t kGeometryPartMinPrimitives = 256;  // lane groups enough for every thread
	const uint64_t most_bytes = uint64_t(info.invocations) * std::max(info.max_vertices, 1u) * info.record_words * 4;
	const uint32_t part = uint32_t(std::clamp<uint64_t>(kGeometryPartBytes / std::max<uint64_t>(most_bytes, 1),
	                                                    kGeometryPartMinPrimitives, uint64_t(1) << 20));
	const uint32_t total = uint32_t(scratch.geometry_primitives.size() / info.input_vertices);
	uint64_t samples = 0;
	for (uint32_t first = 0; first == 0 || first < total; first += part) {
		samples += DrawGeometryPart(g, gp, state, compiled, fb, resources, capture, discard, drawn, job, scratch, first,
		                            std::min(part, total - first), emitted);
		if (job.lost.load(std::memory_order_relaxed)) break;
	}
	return samples;
}

// The job's position, varying, clip and cull distance arrays for n
// vertices of the last vertex-processing stage, in scratch.
void SizeVertexArrays(DrawJob& job, DrawScratch& scratch, uint32_t n) {
	const GraphicsPipeline& gp = *job.pipeline;
	scratch.positions.resize(size_t(n) * 4);
	scratch.varyings.resize(size_t(n) * gp.varying_count);
	scratch.clip_distances.resize(size_t(n) * job.clip_count);
	scratch.cull_distances.resize(size_t(n) * job.cull_count);
	job.positions = scratch.positions.data();
	job.varyings = scratch.varyings.data();
	job.clip_distances = scratch.clip_distances.data();
	job.cull_distances = scratch.cull_distances.data();
}

// Tessellation of one instance (tessellation_stage.h), then the evaluation
// stage over every domain point into the job's arrays (with a geometry
// stage, into its inputs); `input` becomes the tessellator's primitives over
// those points.
void TessellateInstance(const GraphicsPipeline& gp, DrawJob& job, raster::Topology topology,
                        const shader::Resources& control, const shader::Resources& evaluation, uint32_t patch_count,
                        uint32_t patch_size, bool lower_left, bool points, bool layered, bool viewported, bool capture,
                        DrawScratch& scratch, raster::VertexInput& input) {
	TessellationRun& run = scratch.tess_run;
	run.pipeline = &gp;
	run.resources = &control;
	run.options = job.options;
	run.values = job.tess_values;
	run.patches = scratch.patches.data();
	run.patch_count = patch_count;
	run.patch_control_points = patch_size;
	run.lower_left = lower_left;
	run.view_index = job.view_index;
	RunTessellation(run, scratch.pool);
	if (run.lost) {
		job.lost.store(true, std::memory_order_relaxed);
		return;
	}
	const uint32_t m = uint32_t(run.point_patch.size());
	job.tess = &run;
	job.tess_eval_resources = &evaluation;
	if (gp.geometry) {
		scratch.geometry_values.resize(size_t(m) * gp.geometry_sources.size());
		job.geometry_values = scratch.geometry_values.data();
		// The geometry stage's input primitive must be what the tessellator makes.
		if (gp.geometry->geometry.input_vertices == run.per)
			scratch.geometry_primitives = run.primitives;
		else
			scratch.geometry_primitives.clear();
	} else {
		SizeVertexArrays(job, scratch, m);
		job.point_sizes = nullptr;
		if (points && gp.point_size_word != kNoWord) {
			scratch.point_sizes.resize(m);
			job.point_sizes = scratch.point_sizes.data();
		}
		if (layered) {
			scratch.layers.resize(m);
			job.layers = scratch.layers.data();
		}
		if (viewported) {
			scratch.viewport_indices.resize(m);
			job.viewport_indices = scratch.viewport_indices.data();
		}
		if (capture) {
			scratch.xfb_values.resize(size_t(m) * job.xfb_count);
			job.xfb_values = scratch.xfb_values.data();
		}
		// Vulkan "PrimitiveId": what the evaluation stage reads, the patch's.
		job.vertex_primitive_ids = run.point_patch.data();
	}
	const uint32_t batches = (m + kVertexBatch - 1) / kVertexBatch;
	auto shade = [&](uint32_t batch) {
		const uint32_t first = batch * kVertexBatch;
		ShadeEvaluation(job, first, std::min(kVertexBatch, m - first));
	};
	if (batches > 1)
		scratch.pool->ParallelFor(batches, shade);
	else if (batches == 1)
		shade(0);
	input.topology = topology;
	input.indices = run.primitives.data();
	input.vertex_count = uint32_t(run.primitives.size());
	input.primitive_restart = false;
	input.positions = job.positions;
	input.varyings = job.varyings;
	input.clip_distances = job.clip_count ? job.clip_distances : nullptr;
	input.point_sizes = job.point_sizes;
}

}  // namespace

void Draw(ExecutionContext& context, const DrawParams& given) {
	const shader::RunOptions& options = context.device->ShaderRunOptions();
	DrawParams p = given;
	const GraphicsContext& g = context.graphics;
	if (!g.rendering || p.count == 0 || p.instance_count == 0 || context.conditional_discard) return;
	// §5.2.3: after a loss, the rest of the command buffer does not run.
	if (context.device->IsLost()) return;
	const Pipeline* pipeline = context.pipelines[size_t(BindPoint::Graphics)];
	// VK_EXT_shader_object: the bound shaders, linked (or found linked) into
	// a pipeline with every state dynamic (vk/shader_object.h).
	if (!pipeline) pipeline = Shader::LinkedPipeline(context.graphics_shaders);
	if (!pipeline) return;
	const GraphicsPipeline& gp = pipeline->Graphics();
	bool discard, restart;
	VkPrimitiveTopology vk_topology;
	raster::DrawState state = ComposeState(gp, g, &discard, &vk_topology, &restart);
	state.depth_stencil.depth_unrestricted =
	    context.device->IsEnabled(entry::DeviceExtension::EXT_depth_range_unrestricted);
	const bool line_stipple =
	    (gp.dynamic & Bit(Dynamic::kLineStippleEnable)) != 0 ? g.line_stipple_enable : gp.line_stipple;
	// VK_EXT_transform_feedback: the vertex stream whose primitives are
	// rasterized, the pipeline's or vkCmdSetRasterizationStreamEXT's.
	const uint32_t rasterization_stream = (gp.dynamic & Bit(Dynamic::kRasterizationStream)) != 0
	                                          ? g.rasterization_stream % shader::kMaxVertexStreams
	                                          : gp.rasterization_stream;
	// Rasterizer discard drops primitives after the vertex stage (§27.1):
	// a vertex program with side effects still runs, and so does one whose
	// outputs transform feedback captures (before rasterization, §26.1).
	const shader::Program& last = gp.geometry    ? *gp.geometry  // before rasterization
	                              : gp.tess_eval ? *gp.tess_eval
	                                             : *gp.vertex;
	const bool capture = g.xfb_active && last.xfb_mode && !last.xfb_words.empty();
	const bool side_effects = gp.vertex_writes_memory || gp.geometry_writes_memory || gp.tess_writes_memory;
	const bool generated = std::any_of(std::begin(g.generated_pool), std::end(g.generated_pool),
	                                   [](const QueryPool* pool) { return pool != nullptr; });
	if (discard && !side_effects && !capture && !generated) return;
	raster::Topology topology = raster::Topology::PointList;  // with a geometry stage, its output's
	// Adjacency without a geometry stage: the main primitives, as a list.
	const bool adjacency = !gp.geometry && (vk_topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
	                                        vk_topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ||
	                                        vk_topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY ||
	                                        vk_topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY);
	// Tessellation: patches in, the tessellator's triangles, lines or points out.
	const bool tessellated = gp.tess_control != nullptr;
	// The vertices of a patch: the pipeline's, or vkCmdSetPatchControlPointsEXT's.
	const uint32_t patch_size =
	    (gp.dynamic & Bit(Dynamic::kPatchControlPoints)) != 0 ? g.patch_control_points : gp.patch_control_points;
	// And the domain's origin: the pipeline's, or vkCmdSetTessellationDomainOriginEXT's.
	const bool lower_left = (gp.dynamic & Bit(Dynamic::kTessellationDomainOrigin)) != 0 ? g.domain_origin_lower_left
	                                                                                    : gp.tessellation.lower_left;
	if (tessellated) {
		if (vk_topology != VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) return;         // invalid: nothing to tessellate
		if (patch_size == 0 || patch_size > kMaxPatchControlPoints) return;  // invalid: not set or too large
		topology = gp.tessellation.point_mode                                ? raster::Topology::PointList
		           : gp.tessellation.domain == raster::TessDomain::kIsolines ? raster::Topology::LineList
		                                                                     : raster::Topology::TriangleList;
	} else if (adjacency) {
		topology = vk_topology <= VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ? raster::Topology::LineList
		                                                                          : raster::Topology::TriangleList;
	} else if (!gp.geometry && !ToRasterTopology(vk_topology, &topology)) {
		ReportPipeline(context, *pipeline,
		               "vkCmdDraw*: patch lists without tessellation shaders draw nothing; draw skipped");
		return;
	}
	// A draw whose rasterization may wait in the renderer's queue, to run
	// tile by tile with the pass's other draws (Renderer::Queue): nothing of
	// it is counted, captured or written outside the attachments, and it
	// takes the plain path to the rasterizer. Any other draw comes after
	// what waits.
	const bool may_queue = !discard && !gp.geometry && !tessellated && !capture && !side_effects && !generated &&
	                       g.view_mask == 0 && !g.occlusion_pool && !g.statistics_pool && !state.shader.writes_memory &&
	                       !state.shader.reads_attachments && gp.layer_word == kNoWord &&
	                       gp.viewport_index_word == kNoWord && gp.cull_distance_count == 0 &&
	                       gp.primitive_id_varying == kNoWord && gp.place_varyings.empty() && !line_stipple;
	if (!may_queue && context.queued_draws) FlushQueuedDraws(context);
	// A draw that stores to memory (or captures vertices into buffers) may
	// change what a decoded view was made from: noted when it has run.
	struct NoteWritesWhenDone {
		bool writes;
		~NoteWritesWhenDone() {
			if (writes) texture::NoteMemoryWrites();
		}
	} note_writes{side_effects || capture || state.shader.writes_memory};
	try {
		BoundResources vertex_bound, geometry_bound, fragment_bound, control_bound, evaluation_bound;
		if (!ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.vertex, "vkCmdDraw", vertex_bound)) return;
		if (tessellated &&
		    (!ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.tess_control, "vkCmdDraw", control_bound) ||
		     !ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.tess_eval, "vkCmdDraw", evaluation_bound)))
			return;
		if (gp.geometry &&
		    !ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.geometry, "vkCmdDraw", geometry_bound))
			return;
		// A queued draw's fragment stage keeps its resources and push
		// constants until the queue is flushed.
		std::shared_ptr<QueuedFragments> queued;
		bool shared_fragments = false;
		DrawScratch& spares = ThisThreadScratch();
		if (gp.fragment && may_queue && !spares.queued.empty() &&
		    SameFragments(*spares.queued.back(), context, *pipeline, state.raster.samples, g.color_locations)) {
			// The draw before it in the queue shades its fragments the same
			// way: they share the stage, so the renderer may shade both
			// draws' quads in one batch (Renderer::Queue).
			queued = spares.queued.back();
			shared_fragments = true;
		} else if (gp.fragment && may_queue) {
			if (spares.spare.empty()) {
				queued = std::make_shared<QueuedFragments>();
			} else {  // (ResolveResources below refills its bindings)
				queued = std::move(spares.spare.back());
				spares.spare.pop_back();
				std::destroy_at(&queued->job);  // (its atomics cannot be assigned)
				std::construct_at(&queued->job);
			}
			if (!ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.fragment, "vkCmdDraw", queued->bound))
				return;
			std::memcpy(queued->push_constants, context.push_constants, kMaxPushConstantsSize);
			queued->bound.resources.push_constants = queued->push_constants;
			queued->pipeline = pipeline;
		} else if (gp.fragment && !ResolveResources(context, BindPoint::Graphics, *pipeline, *gp.fragment, "vkCmdDraw",
		                                            fragment_bound)) {
			return;
		}
		runtime::ThreadPool* pool = &context.device->ThreadPool();
		DrawScratch& scratch = ThreadScratch(pool);
		DrawJob job;
		job.pipeline = &gp;
		job.graphics = &g;
		job.vertex_resources = &vertex_bound.resources;
		job.fragment_resources = gp.fragment ? &fragment_bound.resources : nullptr;
		job.options = options;
		job.draw_index = p.draw_index;
		job.base_instance = p.first_instance;
		job.bindings = gp.bindings;
		job.attributes = gp.attributes;
		job.attribute_count = gp.attribute_count;
		VertexAttributeDescription dynamic_attributes[kMaxVertexAttributes];
		if ((gp.dynamic & Bit(Dynamic::kVertexInput)) && g.vertex_input) {
			// The attributes the program reads, with its words for their locations.
			const DynamicVertexInput& vi = *g.vertex_input;
			job.bindings = vi.bindings;
			job.attributes = dynamic_attributes;
			job.attribute_count = 0;
			for (uint32_t i = 0; i < vi.attribute_count; ++i) {
				VertexAttributeDescription a = vi.attributes[i];
				if (a.location >= kMaxVertexAttributes || !a.info) continue;
				std::copy(std::begin(gp.input_words[a.location]), std::end(gp.input_words[a.location]), a.words);
				if (std::any_of(std::begin(a.words), std::end(a.words), [](uint32_t w) { return w != kNoWord; }))
					dynamic_attributes[job.attribute_count++] = a;
			}
		}
		job.clip_count = state.raster.clip_distance_count;
		job.samples = state.raster.samples;
		std::copy(std::begin(g.color_locations), std::end(g.color_locations), job.color_locations);
		if (gp.fragment) {
			state.shader.run = RunFragments;
			state.shader.begin = BeginFragments;
			state.shader.user = &job;
		}
		if (shared_fragments) {  // as it is (workers may be reading it)
			state.shader.user = &queued->job;
		} else if (queued) {  // what RunFragments reads of the job (one view, layer 0)
			DrawJob& fragments = queued->job;
			fragments.pipeline = &gp;
			fragments.fragment_resources = &queued->bound.resources;
			fragments.options = options;
			fragments.samples = job.samples;
			std::copy(std::begin(job.color_locations), std::end(job.color_locations), fragments.color_locations);
			state.shader.user = &fragments;
		}
		// VK_EXT_line_rasterization: a stipple on the lines the draw makes
		// (the rasterizer drops the fragments, before tests and shading).
		const bool lines = gp.geometry
		                       ? gp.geometry->geometry.output == shader::GeometryOutput::kLineStrip
		                       : topology == raster::Topology::LineList || topology == raster::Topology::LineStrip;
		if (line_stipple && lines && state.raster.varying_count < raster::kMaxVaryings) {
			const bool dynamic_stipple = (gp.dynamic & Bit(Dynamic::kLineStipple)) != 0;
			job.stipple_varying = state.raster.varying_count++;
			state.raster.stipple_varying = job.stipple_varying;
			state.raster.interpolation[job.stipple_varying] = raster::Interpolation::NoPerspective;
			state.raster.centroid[job.stipple_varying] = false;
			state.raster.stipple_factor = dynamic_stipple ? g.line_stipple_factor : gp.line_stipple_factor;
			state.raster.stipple_pattern = dynamic_stipple ? g.line_stipple_pattern : gp.line_stipple_pattern;
		}
		// Vulkan 1.3 §8.1 (multiview): each draw is broadcast to the views of
		// the subpass's view mask, view i rendering into layer i of the
		// attachments with ViewIndex i. Without multiview: one view, layer 0.
		uint32_t views[32] = {0};
		uint32_t view_count = 0;
		for (uint32_t mask = g.view_mask; mask; mask &= mask - 1) views[view_count++] = std::countr_zero(mask);
		if (view_count == 0) view_count = 1;
		raster::Framebuffer fb = MakeFramebuffer(g, state.raster.samples, views[0]);
		// The compiled draw depends on the extent and formats only, which all
		// layers share.
		raster::CompiledDraw compiled = raster::CompileDraw(state, fb);
		compiled.count_samples = g.occlusion_pool != nullptr;
		// A statistics query counts the fragments of hidden primitives too.
		if (g.statistics_pool) compiled.overwrites = false;

		// Which vertices to shade, and the rasterizer's indices into them.
		raster::VertexInput input;
		input.topology = topology;
		input.primitive_restart = restart;
		const uint32_t* raster_indices = nullptr;
		if (p.indexed) {
			// VUID-vkCmdDrawIndexed-robustBufferAccess2-07825 (and its
			// indirect forms): without robustBufferAccess2 every index lies in
			// the bound buffer. Indices past it are dropped, so an indexCount
			// from an application's buffer cannot size the scratch beyond the
			// index buffer. With robustBufferAccess2 they are drawn, each read
			// as zero (ReadIndex), as far as a draw's memory allows; so are
			// those of a null index buffer (VK_KHR_maintenance6) with
			// nullDescriptor.
			const uint32_t index_bytes = g.index_type == VK_INDEX_TYPE_UINT32      ? 4
			                             : g.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1
			                                                                       : 2;
			const uint64_t in_buffer = g.index_data ? g.index_size / index_bytes : 0;
			const bool zeros =
			    context.device->RobustBufferAccess2() || (!g.index_data && context.device->NullDescriptor());
			if (!zeros) {
				p.count = uint32_t(std::min<uint64_t>(p.count, in_buffer > p.first ? in_buffer - p.first : 0));
			} else if (uint64_t(p.count) * 2 * sizeof(uint32_t) > context.device->DrawMemoryBudget()) {
				char message[192];
				std::snprintf(message, sizeof message,
				              "vkCmdDrawIndexed*: %u indices need more memory than a draw may take (%llu MiB); "
				              "draw skipped",
				              p.count, static_cast<unsigned long long>(context.device->DrawMemoryBudget() >> 20));
				ReportPipeline(context, *pipeline, message);
				return;
			}
			if (p.count == 0) return;
			job.base_vertex = p.vertex_offset;
			scratch.indices.resize(p.count);
			uint32_t lo = UINT32_MAX, hi = 0;
			uint32_t read = 0;  // indices read so far
			if (g.index_type == VK_INDEX_TYPE_UINT32 && !restart && g.index_data &&
			    (uint64_t(p.first) + p.count) * 4 <= g.index_size) {
				// 32-bit indices in range, no restart: a copy and a min/max
				// loop that vectorizes, the same values as ReadIndex.
				std::memcpy(scratch.indices.data(), g.index_data + uint64_t(p.first) * 4, size_t(p.count) * 4);
				for (uint32_t index : scratch.indices) {
					lo = std::min(lo, index);
					hi = std::max(hi, index);
				}
				read = p.count;
			}
			for (uint32_t i = read; i < p.count; ++i) {
				uint32_t index = ReadIndex(g, uint64_t(p.first) + i, restart);
				scratch.indices[i] = index;
				if (restart && index == kRestart) continue;
				lo = std::min(lo, index);
				hi = std::max(hi, index);
			}
			if (lo > hi) return;  // only restarts
			const uint64_t range = uint64_t(hi - lo) + 1;
			uint32_t unique = 0;
			if (range <= kSlotRange && range * 2 > p.count) {
				// A small range: each vertex that an index names takes a slot
				// in first-use order. A draw of part of a shared mesh (a few
				// cells of a grid) names a few vertices of a range that spans
				// whole rows of it.
				scratch.slots.assign(range, kNoSlot);
				for (uint32_t index : scratch.indices) {
					if (restart && index == kRestart) continue;
					uint32_t& slot = scratch.slots[index - lo];
					if (slot == kNoSlot) slot = unique++;
				}
			}
			if (unique && unique < range) {
				// Shade those vertices alone, once each.
				scratch.ids.resize(unique);
				for (uint32_t k = 0; k < range; ++k)
					if (scratch.slots[k] != kNoSlot) scratch.ids[scratch.slots[k]] = lo + k + uint32_t(p.vertex_offset);
				for (uint32_t& index : scratch.indices)
					if (!restart || index != kRestart) index = scratch.slots[index - lo];
				job.ids = scratch.ids.data();
				job.vertex_count = unique;
			} else if (range <= uint64_t(p.count) * 2 + 64) {
				// Compact range: shade each vertex of it once.
				job.ids = nullptr;
				job.first_id = lo + uint32_t(p.vertex_offset);
				job.vertex_count = hi - lo + 1;
				for (uint32_t& index : scratch.indices)
					if (!restart || index != kRestart) index -= lo;
			} else {
				// Scattered: shade each index occurrence.
				scratch.ids.resize(p.count);
				for (uint32_t i = 0; i < p.count; ++i) {
					uint32_t index = scratch.indices[i];
					const bool cut = restart && index == kRestart;
					scratch.ids[i] = cut ? 0 : index + uint32_t(p.vertex_offset);
					if (!cut) scratch.indices[i] = i;
				}
				job.ids = scratch.ids.data();
				job.vertex_count = p.count;
			}
			raster_indices = scratch.indices.data();
		} else {
			job.base_vertex = int32_t(p.first);
			job.first_id = p.first;
			job.vertex_count = p.count;
		}
		const uint32_t n = job.vertex_count;
		job.cull_count = gp.cull_distance_count;
		job.xfb_count = capture && !gp.geometry ? uint32_t(last.xfb_words.size()) : 0;
		const uint64_t vertex_bytes =
		    tessellated   ? 4 * uint64_t(gp.tess_sources.size())
		    : gp.geometry ? 4 * uint64_t(gp.geometry_sources.size())
		                  : 4 * (4 + uint64_t(gp.varying_count) + job.clip_count + job.cull_count + 2 + job.xfb_count);
		if (uint64_t(n) * vertex_bytes > context.device->DrawMemoryBudget()) {
			char message[192];
			std::snprintf(message, sizeof message,
			              "vkCmdDraw*: %u vertices need %llu MiB of vertex results, more than a draw may take "
			              "(%llu MiB); draw skipped",
			              n, static_cast<unsigned long long>(uint64_t(n) * vertex_bytes >> 20),
			              static_cast<unsigned long long>(context.device->DrawMemoryBudget() >> 20));
			ReportPipeline(context, *pipeline, message);
			return;
		}
		if (gp.geometry) {
			scratch.geometry_values.resize(size_t(n) * gp.geometry_sources.size());
			job.geometry_values = scratch.geometry_values.data();
			scratch.geometry_primitives.clear();
			if (!tessellated)
				AssembleGeometryInput(vk_topology, raster_indices, p.count, restart, state.raster.provoking_vertex_last,
				                      scratch.geometry_primitives);
		}
		// Tessellation: the vertex stage keeps what the control stage reads;
		// patch i is vertices [i P, i P + P) of the draw (Vulkan "Patch Lists").
		// A restart index (primitiveTopologyPatchListRestart) drops the
		// incomplete patch before it and starts counting again after it
		// (Vulkan "Primitive Topologies": restarting discards an incomplete
		// primitive); so does the draw's end.
		uint32_t patch_count = 0;
		if (tessellated) {
			scratch.tess_values.resize(size_t(n) * gp.tess_sources.size());
			job.tess_values = scratch.tess_values.data();
			const uint32_t per = patch_size;
			scratch.patches.clear();
			uint32_t pending = 0;  // vertices of the incomplete patch
			for (uint32_t i = 0; i < p.count; ++i) {
				const uint32_t v = raster_indices ? raster_indices[i] : i;
				if (raster_indices && restart && v == kRestart) {
					scratch.patches.resize(scratch.patches.size() - pending);
					pending = 0;
					continue;
				}
				scratch.patches.push_back(v);
				pending = pending + 1 == per ? 0 : pending + 1;
			}
			scratch.patches.resize(scratch.patches.size() - pending);
			patch_count = uint32_t(scratch.patches.size() / per);
		}
		// With a geometry or tessellation stage the vertex stage keeps only
		// what that stage reads; the arrays are the later stage's.
		if (!tessellated && !gp.geometry) SizeVertexArrays(job, scratch, n);
		input.positions = job.positions;
		input.varyings = job.varyings;
		input.clip_distances = job.clip_count ? job.clip_distances : nullptr;
		// Vulkan 1.3 §28.6: the point size comes from PointSize (1.0 when the
		// last pre-rasterization stage does not write it); it matters for
		// point topologies and polygon mode POINT.
		const bool points =
		    topology == raster::Topology::PointList ||
		    (state.raster.polygon_mode == VK_POLYGON_MODE_POINT && topology <= raster::Topology::TriangleFan);
		if (points && gp.point_size_word != kNoWord && !tessellated && !gp.geometry) {
			scratch.point_sizes.resize(n);
			job.point_sizes = scratch.point_sizes.data();
			input.point_sizes = job.point_sizes;
		}
		input.indices = raster_indices;
		input.vertex_count = p.count;
		if (adjacency) {
			scratch.adjacency.clear();
			AssembleAdjacencyMain(vk_topology, raster_indices, p.count, restart, state.raster.provoking_vertex_last,
			                      scratch.adjacency);
			input.indices = scratch.adjacency.data();
			input.vertex_count = uint32_t(scratch.adjacency.size());
			input.primitive_restart = false;
		}
		// The primitives the input assembler makes of one instance.
		const uint64_t instance_primitives =
		    tessellated   ? patch_count
		    : gp.geometry ? scratch.geometry_primitives.size() / gp.geometry->geometry.input_vertices
		                  : CountPrimitives(topology, input.indices, input.vertex_count, input.primitive_restart);
		// Layered rendering (shaderOutputLayer): the vertex program picks each
		// primitive's layer; without multiview the primitives are sorted by
		// it and each layer drawn as a list.
		const bool layered = gp.layer_word != kNoWord && g.view_mask == 0 && !gp.geometry;
		const bool viewported = gp.viewport_index_word != kNoWord && !gp.geometry;
		const bool assembled = layered || viewported || job.cull_count > 0 || gp.primitive_id_varying != kNoWord ||
		                       job.stipple_varying != kNoWord || !gp.place_varyings.empty();
		// (With tessellation, TessellateInstance sizes these per instance.)
		if (layered && !tessellated) {
			scratch.layers.resize(n);
			job.layers = scratch.layers.data();
		}
		if (viewported && !tessellated) {
			scratch.viewport_indices.resize(n);
			job.viewport_indices = scratch.viewport_indices.data();
		}
		if (capture && !gp.geometry && !tessellated) {
			scratch.xfb_values.resize(size_t(n) * job.xfb_count);
			job.xfb_values = scratch.xfb_values.data();
		}

		// The rasterizer's part of `primitives` primitives: now, or queued.
		bool was_queued = false;
		auto rasterize = [&](const raster::VertexInput& in, uint64_t primitives) -> uint64_t {
			raster::Renderer& renderer = *scratch.renderer;
			if (!may_queue || primitives > raster::Renderer::kMaxQueuedPrimitives) {
				if (context.queued_draws) FlushQueuedDraws(context);
				return renderer.Draw(compiled, fb, in);
			}
			if (!renderer.CanQueue(fb, primitives)) FlushQueuedDraws(context);
			if (queued && (scratch.queued.empty() || scratch.queued.back() != queued)) scratch.queued.push_back(queued);
			renderer.Queue(compiled, fb, in);
			context.queued_draws = was_queued = true;
			return 0;  // nothing counts samples
		};
		const uint32_t batches = (n + kVertexBatch - 1) / kVertexBatch;
		QueryPool* statistics = g.statistics_pool;
		job.count_fragments = statistics != nullptr;
		uint64_t shaded = 0;                               // vertex shader invocations
		uint64_t tess_patches = 0, tess_points = 0;        // tessellation control patches, evaluation invocations
		uint64_t tess_primitives = 0;                      // primitives the tessellator made
		uint64_t geometry_runs = 0;                        // geometry stage runs
		uint64_t emitted[shader::kMaxVertexStreams] = {};  // primitives it emitted to each stream
		// The vertex stage over the n vertices, for the job's current
		// instance and view, into its output arrays.
		auto shade_all = [&] {
			auto shade = [&](uint32_t batch) {
				const uint32_t first = batch * kVertexBatch;
				ShadeVertices(job, first, std::min(kVertexBatch, n - first));
			};
			if (batches > 1)
				pool->ParallelFor(batches, shade);
			else
				shade(0);
		};
		// Instances of a plain list draw go to the rasterizer as one draw:
		// their primitives in order, one binning pass, and a primitive that
		// covers a tile hides the earlier instances' there (overwrites).
		const bool lists = topology == raster::Topology::TriangleList || topology == raster::Topology::LineList ||
		                   topology == raster::Topology::PointList;
		const uint32_t per = raster::ListVertexCount(topology);
		const uint64_t together_bytes = uint64_t(n) * p.instance_count * vertex_bytes +
		                                (raster_indices ? uint64_t(p.count) * p.instance_count * 4 : 0);
		const bool together = p.instance_count > 1 && lists && !restart && !adjacency && !tessellated && !gp.geometry &&
		                      !assembled && !capture && !discard && view_count == 1 && p.count % per == 0 &&
		                      uint64_t(p.count) * p.instance_count <= UINT32_MAX &&
		                      together_bytes <= context.device->DrawMemoryBudget();
		if (together) {
			const uint32_t instances = p.instance_count;
			job.view_index = views[0];
			SizeVertexArrays(job, scratch, n * instances);
			if (job.point_sizes) scratch.point_sizes.resize(size_t(n) * instances);
			float* const positions = job.positions;
			float* const varyings = job.varyings;
			float* const clip_distances = job.clip_distances;
			for (uint32_t instance = 0; instance < instances && !job.lost; ++instance) {
				job.instance = p.first_instance + instance;
				const size_t first = size_t(instance) * n;
				job.positions = positions + first * 4;
				job.varyings = varyings + first * gp.varying_count;
				job.clip_distances = clip_distances + first * job.clip_count;
				if (job.point_sizes) job.point_sizes = scratch.point_sizes.data() + first;
				shade_all();
				shaded += n;
			}
			raster::VertexInput all = input;
			all.positions = positions;
			all.varyings = varyings;
			all.clip_distances = job.clip_count ? clip_distances : nullptr;
			all.point_sizes = job.point_sizes ? scratch.point_sizes.data() : nullptr;
			all.vertex_count = p.count * instances;
			if (raster_indices) {
				scratch.instanced.resize(size_t(p.count) * instances);
				for (uint32_t instance = 0; instance < instances; ++instance)
					for (uint32_t i = 0; i < p.count; ++i)
						scratch.instanced[size_t(instance) * p.count + i] = raster_indices[i] + instance * n;
				all.indices = scratch.instanced.data();
			}
			job.layer = views[0];
			if (!job.lost) {
				const uint64_t passed = rasterize(all, instance_primitives * instances);
				if (g.occlusion_pool) g.occlusion_pool->AddSamples(g.occlusion_query, passed);
			}
		}
		for (uint32_t instance = 0; instance < p.instance_count && !together && !job.lost; ++instance) {
			job.instance = p.first_instance + instance;
			for (uint32_t v = 0; v < view_count && !job.lost; ++v) {
				job.view_index = views[v];
				// The vertices of the other views differ only when the
				// vertex program reads ViewIndex.
				if (v == 0 || gp.vertex_view_index_word != kNoWord) {
					shade_all();
					shaded += n;
					if (job.lost) break;
				}
				// Multiview: the tessellation stages run again for a view when a
				// stage before rasterization reads ViewIndex.
				const bool view_dependent = gp.vertex_view_index_word != kNoWord ||
				                            gp.tess_view_index_word != kNoWord || gp.eval_view_index_word != kNoWord;
				if (tessellated && (v == 0 || view_dependent)) {
					TessellateInstance(gp, job, topology, control_bound.resources, evaluation_bound.resources,
					                   patch_count, patch_size, lower_left, points, layered, viewported, capture,
					                   scratch, input);
					tess_patches += patch_count;
					tess_points += scratch.tess_run.point_patch.size();
					tess_primitives += scratch.tess_run.primitives.size() / scratch.tess_run.per;
					if (job.lost) break;
				}
				if (v == 0 && capture && !gp.geometry)
					CaptureTransformFeedback(context.graphics, last, job, input, state.raster.provoking_vertex_last,
					                         scratch);
				if (view_count > 1) fb = MakeFramebuffer(g, state.raster.samples, views[v]);
				job.layer = views[v];
				if (gp.geometry) {
					uint64_t passed =
					    DrawGeometryStage(context.graphics, gp, state, compiled, fb, geometry_bound.resources,
					                      capture && v == 0, discard, rasterization_stream, job, scratch, emitted);
					++geometry_runs;
					if (g.occlusion_pool) g.occlusion_pool->AddSamples(g.occlusion_query, passed);
					continue;
				}
				if (discard) continue;
				// §18.4 lets a query in a multiview pass report the total of
				// all views in its first query.
				uint64_t passed = assembled ? DrawAssembled(gp, g, state, compiled, fb, input, job, scratch)
				                            : rasterize(input, instance_primitives);
				if (g.occlusion_pool) g.occlusion_pool->AddSamples(g.occlusion_query, passed);
			}
		}
		if (statistics) {
			// Vulkan "Pipeline Statistics Queries". The input assembler runs
			// once an instance; clipping sees every primitive of every view
			// (each counted once, which the counter allows for primitives
			// clipping removes); fragments are the live lanes run.
			// With a geometry stage, clipping sees what it emits.
			const uint32_t q = g.statistics_query;
			const uint64_t primitives = instance_primitives * p.instance_count;
			statistics->AddStatistic(q, Statistic::kInputAssemblyVertices, uint64_t(p.count) * p.instance_count);
			statistics->AddStatistic(q, Statistic::kInputAssemblyPrimitives, primitives);
			statistics->AddStatistic(q, Statistic::kVertexShaderInvocations, shaded);
			if (tessellated) {
				statistics->AddStatistic(q, Statistic::kTessellationControlPatches, tess_patches);
				statistics->AddStatistic(q, Statistic::kTessellationEvaluationInvocations, tess_points);
			}
			if (gp.geometry) {
				const uint64_t in = scratch.geometry_primitives.size() / gp.geometry->geometry.input_vertices;
				statistics->AddStatistic(q, Statistic::kGeometryShaderInvocations,
				                         in * gp.geometry->geometry.invocations * geometry_runs);
				uint64_t all = 0;
				for (uint64_t count : emitted) all += count;
				statistics->AddStatistic(q, Statistic::kGeometryShaderPrimitives, all);
			}
			const uint64_t clipped = gp.geometry   ? emitted[rasterization_stream]
			                         : tessellated ? tess_primitives * view_count
			                                       : primitives * view_count;
			if (!discard) {
				statistics->AddStatistic(q, Statistic::kClippingInvocations, clipped);
				statistics->AddStatistic(q, Statistic::kClippingPrimitives, clipped);
			}
			statistics->AddStatistic(q, Statistic::kFragmentShaderInvocations, job.fragment_invocations.load());
		}
		for (uint32_t stream = 0; stream < shader::kMaxVertexStreams; ++stream) {
			// VK_EXT_primitives_generated_query: every primitive that reaches
			// the transform feedback stage in the query's stream, of every
			// instance and view, rasterizer discard or not (without a
			// geometry stage, all are stream 0's).
			QueryPool* generated = g.generated_pool[stream];
			if (!generated) continue;
			const uint64_t primitives = gp.geometry   ? emitted[stream]
			                            : stream != 0 ? 0
			                            : tessellated ? tess_primitives * view_count
			                                          : instance_primitives * p.instance_count * view_count;
			generated->AddPrimitivesGenerated(g.generated_query[stream], primitives);
		}
		// (A queued fragment stage's loss is found when the queue is flushed.)
		if (job.lost || (queued && !was_queued && queued->job.lost)) {
			ReportPipeline(context, *pipeline,
			               "vkCmdDraw*: a shader ran past the execution bound (an endless loop?); the device is lost");
			context.device->MarkLost();
		}
	} catch (const std::bad_alloc&) {
		ReportPipeline(context, *pipeline, "vkCmdDraw*: out of memory; draw skipped");
	}
}

namespace {

struct DrawCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // Draw orders itself after them
	DrawParams params;
	void Execute(ExecutionContext& context) const { Draw(context, params); }
};

// vkCmdDrawMultiEXT / vkCmdDrawMultiIndexedEXT (VK_EXT_multi_draw): draws
// in order, DrawIndex counting them from 0.
struct MultiDrawCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // Draw orders itself after them
	const DrawParams* draws;
	uint32_t count;
	void Execute(ExecutionContext& context) const {
		for (uint32_t i = 0; i < count; ++i) Draw(context, draws[i]);
	}
};

// Records a multi-draw; info(i) gives draw i's parameters.
template <typename Info>
void RecordMultiDraw(VkCommandBuffer commandBuffer, uint32_t draw_count, Info info) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	DrawParams* draws = cb->AllocateArray<DrawParams>(draw_count);
	if (!draws) return;
	for (uint32_t i = 0; i < draw_count; ++i) {
		draws[i] = info(i);
		draws[i].draw_index = i;
	}
	if (auto* cmd = cb->Add<MultiDrawCommand>()) {
		cmd->draws = draws;
		cmd->count = draw_count;
	}
}

// vkCmdDrawIndirectByteCountEXT (VK_EXT_transform_feedback): as many
// vertices as the bytes a transform feedback counter holds past byte_offset
// make whole records of `stride` bytes, read when the draw executes.
struct DrawByteCountCommand : Command {
	const uint8_t* counter;  // null: no counter in range, read as 0 bytes
	uint32_t byte_offset, stride;
	uint32_t instance_count, first_instance;
	void Execute(ExecutionContext& context) const {
		uint32_t bytes = 0;
		if (counter) std::memcpy(&bytes, counter, 4);
		DrawParams p;
		p.count = stride && bytes > byte_offset ? (bytes - byte_offset) / stride : 0;
		p.instance_count = instance_count;
		p.first_instance = first_instance;
		Draw(context, p);
	}
};

void RecordDrawByteCount(VkCommandBuffer commandBuffer, uint32_t instance_count, uint32_t first_instance,
                         const MemoryRange& counter, uint32_t counter_offset, uint32_t vertex_stride) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DrawByteCountCommand>()) {
		cmd->counter = counter.At(0, 4);
		cmd->byte_offset = counter_offset;
		cmd->stride = vertex_stride;
		cmd->instance_count = instance_count;
		cmd->first_instance = first_instance;
	}
}

// vkCmdDraw*Indirect(Count) and their VK_KHR_device_address_commands forms:
// the parameters come from memory at execution. Records past the end of
// the range (a buffer's end, or the address range's size) are not drawn.
struct DrawIndirectCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // Draw orders itself after them
	MemoryRange records;
	bool has_count;        // false: draw_count is the count
	const uint8_t* count;  // has_count: the 32-bit count (null: outside its range, read as 0)
	uint32_t draw_count;
	uint32_t stride;
	bool indexed;
	void Execute(ExecutionContext& context) const {
		uint32_t n = draw_count;
		if (has_count) {
			uint32_t stored = 0;
			if (count) std::memcpy(&stored, count, 4);
			n = std::min(n, stored);
		}
		const size_t record = indexed ? sizeof(VkDrawIndexedIndirectCommand) : sizeof(VkDrawIndirectCommand);
		for (uint32_t i = 0; i < n; ++i) {
			const uint8_t* at = records.At(uint64_t(i) * stride, record);
			if (!at) break;
			DrawParams p;
			p.indexed = indexed;
			p.draw_index = i;
			if (indexed) {
				VkDrawIndexedIndirectCommand c;
				std::memcpy(&c, at, sizeof c);
				p.count = c.indexCount;
				p.instance_count = c.instanceCount;
				p.first = c.firstIndex;
				p.vertex_offset = c.vertexOffset;
				p.first_instance = c.firstInstance;
			} else {
				VkDrawIndirectCommand c;
				std::memcpy(&c, at, sizeof c);
				p.count = c.vertexCount;
				p.instance_count = c.instanceCount;
				p.first = c.firstVertex;
				p.first_instance = c.firstInstance;
			}
			Draw(context, p);
		}
	}
};

// count: null for a draw_count without a count in memory.
void RecordIndirect(VkCommandBuffer commandBuffer, const MemoryRange& records, const MemoryRange* count,
                    uint32_t draw_count, uint32_t stride, bool indexed) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DrawIndirectCommand>()) {
		cmd->records = records;
		cmd->has_count = count != nullptr;
		cmd->count = count ? count->At(0, 4) : nullptr;
		cmd->draw_count = draw_count;
		// §21.3.x: stride is ignored when drawCount <= 1.
		cmd->stride = draw_count <= 1 && !count
		                  ? uint32_t(indexed ? sizeof(VkDrawIndexedIndirectCommand) : sizeof(VkDrawIndirectCommand))
		                  : stride;
		cmd->indexed = indexed;
	}
}

void RecordIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset, VkBuffer count_buffer,
                    VkDeviceSize count_offset, uint32_t draw_count, uint32_t stride, bool indexed) {
	const MemoryRange count = RangeOf(Buffer::Cast(count_buffer), count_offset);
	RecordIndirect(commandBuffer, RangeOf(Buffer::Cast(buffer), offset), count_buffer ? &count : nullptr, draw_count,
	               stride, indexed);
}

void RecordIndirect2(VkCommandBuffer commandBuffer, const VkDrawIndirect2InfoKHR& info, bool indexed) {
	const VkStridedDeviceAddressRangeKHR& r = info.addressRange;
	RecordIndirect(commandBuffer, RangeOf(r.address, r.size), nullptr, info.drawCount, uint32_t(r.stride), indexed);
}

void RecordIndirectCount2(VkCommandBuffer commandBuffer, const VkDrawIndirectCount2InfoKHR& info, bool indexed) {
	const VkStridedDeviceAddressRangeKHR& r = info.addressRange;
	const MemoryRange count = RangeOf(info.countAddressRange.address, info.countAddressRange.size);
	RecordIndirect(commandBuffer, RangeOf(r.address, r.size), &count, info.maxDrawCount, uint32_t(r.stride), indexed);
}

// vkCmdClearAttachments (§19.4): clears rectangles of the current subpass's
// attachments, on the given layers.
struct ClearAttachmentsCommand : Command {
	const VkClearAttachment* attachments;
	uint32_t attachment_count;
	const VkClearRect* rects;
	uint32_t rect_count;
	void Execute(ExecutionContext& context) const {
		const GraphicsContext& g = context.graphics;
		if (!g.rendering || context.conditional_discard) return;
		for (uint32_t i = 0; i < attachment_count; ++i) {
			const VkClearAttachment& a = attachments[i];
			for (uint32_t r = 0; r < rect_count; ++r) {
				const VkClearRect& rect = rects[r];
				auto clear = [&](const ImageView* view, VkImageAspectFlags aspects) {
					if (!view) return;
					// The rect's layers are relative to the view's base
					// layer. With multiview the rect names layer 0 and the
					// clear applies to each view of the subpass (§19.4).
					if (g.view_mask == 0) {
						ClearView(context.device->ThreadPool(), *view, aspects, a.clearValue, rect.rect,
						          rect.baseArrayLayer, rect.layerCount);
						return;
					}
					for (uint32_t mask = g.view_mask; mask; mask &= mask - 1)
						ClearView(context.device->ThreadPool(), *view, aspects, a.clearValue, rect.rect,
						          uint32_t(std::countr_zero(mask)), 1);
				};
				if (a.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
					if (a.colorAttachment < g.color_count)
						clear(g.colors[a.colorAttachment], VK_IMAGE_ASPECT_COLOR_BIT);
				} else {
					if (a.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) clear(g.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
					if (a.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) clear(g.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
				}
			}
		}
	}
};

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount, uint32_t instanceCount,
                                   uint32_t firstVertex, uint32_t firstInstance) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DrawCommand>()) {
		cmd->params.count = vertexCount;
		cmd->params.instance_count = instanceCount;
		cmd->params.first = firstVertex;
		cmd->params.first_instance = firstInstance;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount,
                                          uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<DrawCommand>()) {
		cmd->params.count = indexCount;
		cmd->params.instance_count = instanceCount;
		cmd->params.first = firstIndex;
		cmd->params.vertex_offset = vertexOffset;
		cmd->params.first_instance = firstInstance;
		cmd->params.indexed = true;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                           const VkMultiDrawInfoEXT* pVertexInfo, uint32_t instanceCount,
                                           uint32_t firstInstance, uint32_t stride) {
	auto* bytes = reinterpret_cast<const uint8_t*>(pVertexInfo);
	RecordMultiDraw(commandBuffer, drawCount, [&](uint32_t i) {
		VkMultiDrawInfoEXT info;
		std::memcpy(&info, bytes + uint64_t(i) * stride, sizeof info);
		DrawParams p;
		p.count = info.vertexCount;
		p.instance_count = instanceCount;
		p.first = info.firstVertex;
		p.first_instance = firstInstance;
		return p;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawMultiIndexedEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                                  const VkMultiDrawIndexedInfoEXT* pIndexInfo, uint32_t instanceCount,
                                                  uint32_t firstInstance, uint32_t stride,
                                                  const int32_t* pVertexOffset) {
	auto* bytes = reinterpret_cast<const uint8_t*>(pIndexInfo);
	RecordMultiDraw(commandBuffer, drawCount, [&](uint32_t i) {
		VkMultiDrawIndexedInfoEXT info;
		std::memcpy(&info, bytes + uint64_t(i) * stride, sizeof info);
		DrawParams p;
		p.count = info.indexCount;
		p.instance_count = instanceCount;
		p.first = info.firstIndex;
		// A given pVertexOffset replaces every draw's own.
		p.vertex_offset = pVertexOffset ? *pVertexOffset : info.vertexOffset;
		p.first_instance = firstInstance;
		p.indexed = true;
		return p;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectByteCountEXT(VkCommandBuffer commandBuffer, uint32_t instanceCount,
                                                       uint32_t firstInstance, VkBuffer counterBuffer,
                                                       VkDeviceSize counterBufferOffset, uint32_t counterOffset,
                                                       uint32_t vertexStride) {
	RecordDrawByteCount(commandBuffer, instanceCount, firstInstance,
	                    RangeOf(Buffer::Cast(counterBuffer), counterBufferOffset), counterOffset, vertexStride);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectByteCount2EXT(VkCommandBuffer commandBuffer, uint32_t instanceCount,
                                                        uint32_t firstInstance,
                                                        const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfo,
                                                        uint32_t counterOffset, uint32_t vertexStride) {
	RecordDrawByteCount(commandBuffer, instanceCount, firstInstance,
	                    RangeOf(pCounterInfo->addressRange.address, pCounterInfo->addressRange.size), counterOffset,
	                    vertexStride);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                           uint32_t drawCount, uint32_t stride) {
	RecordIndirect(commandBuffer, buffer, offset, VK_NULL_HANDLE, 0, drawCount, stride, false);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                  uint32_t drawCount, uint32_t stride) {
	RecordIndirect(commandBuffer, buffer, offset, VK_NULL_HANDLE, 0, drawCount, stride, true);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                VkBuffer countBuffer, VkDeviceSize countBufferOffset,
                                                uint32_t maxDrawCount, uint32_t stride) {
	RecordIndirect(commandBuffer, buffer, offset, countBuffer, countBufferOffset, maxDrawCount, stride, false);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                       VkDeviceSize offset, VkBuffer countBuffer,
                                                       VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
                                                       uint32_t stride) {
	RecordIndirect(commandBuffer, buffer, offset, countBuffer, countBufferOffset, maxDrawCount, stride, true);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect2KHR(VkCommandBuffer commandBuffer, const VkDrawIndirect2InfoKHR* pInfo) {
	RecordIndirect2(commandBuffer, *pInfo, false);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect2KHR(VkCommandBuffer commandBuffer,
                                                      const VkDrawIndirect2InfoKHR* pInfo) {
	RecordIndirect2(commandBuffer, *pInfo, true);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectCount2KHR(VkCommandBuffer commandBuffer,
                                                    const VkDrawIndirectCount2InfoKHR* pInfo) {
	RecordIndirectCount2(commandBuffer, *pInfo, false);
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirectCount2KHR(VkCommandBuffer commandBuffer,
                                                           const VkDrawIndirectCount2InfoKHR* pInfo) {
	RecordIndirectCount2(commandBuffer, *pInfo, true);
}

VKAPI_ATTR void VKAPI_CALL CmdClearAttachments(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                               const VkClearAttachment* pAttachments, uint32_t rectCount,
                                               const VkClearRect* pRects) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const VkClearAttachment* attachments = cb->Copy(pAttachments, attachmentCount);
	const VkClearRect* rects = cb->Copy(pRects, rectCount);
	if (!attachments || !rects) return;
	if (auto* cmd = cb->Add<ClearAttachmentsCommand>()) {
		cmd->attachments = attachments;
		cmd->attachment_count = attachmentCount;
		cmd->rects = rects;
		cmd->rect_count = rectCount;
	}
}

}  // namespace tessera::entry
