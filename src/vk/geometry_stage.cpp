// The geometry stage of a draw (geometry_stage.h). Each lane is one
// invocation for one input primitive, lane = primitive * invocations +
// invocation, so lane order is the order Vulkan "Geometry Shader Primitive
// Ordering" asks of the output: by input primitive, then by invocation.
#include "vk/geometry_stage.h"

#include <algorithm>
#include <cstring>

#include "runtime/thread_pool.h"

namespace tessera::vk {

namespace {

constexpr uint32_t kNoWord = shader::Program::kNoWord;
constexpr uint32_t kRestart = 0xffffffffu;
constexpr uint32_t kLanesPerGroup = 128;

// The primitives of one run of n vertices without restarts, v(i) the
// run's vertex i. With provoking_last, strip and fan triangles are rotated
// (winding kept: "Vertices may be in a different absolute order than
// specified by the topology") so that the last-vertex provoking vertex
// comes last, as it does for the rasterizer (raster::AssembleTriangles): a
// geometry shader that passes its input through then keeps the provoking
// vertex, as OpenGL, whose flat outputs come from the last vertex, expects
// of Zink.
template <class V>
void AssembleRun(VkPrimitiveTopology topology, uint32_t n, bool provoking_last, V v, std::vector<uint32_t>& out) {
	auto put = [&](std::initializer_list<uint32_t> vertices) {
		for (uint32_t k : vertices) out.push_back(v(k));
	};
	switch (topology) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
		for (uint32_t i = 0; i < n; ++i) put({i});
		break;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
		for (uint32_t i = 0; 2 * i + 1 < n; ++i) put({2 * i, 2 * i + 1});
		break;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
		for (uint32_t i = 0; i + 1 < n; ++i) put({i, i + 1});
		break;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
		for (uint32_t i = 0; 3 * i + 2 < n; ++i) put({3 * i, 3 * i + 1, 3 * i + 2});
		break;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
		for (uint32_t i = 0; i + 2 < n; ++i)
			if (provoking_last)
				put({i + i % 2, i + 1 - i % 2, i + 2});
			else
				put({i, i + 1 + i % 2, i + 2 - i % 2});
		break;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
		for (uint32_t i = 0; i + 2 < n; ++i)
			if (provoking_last)
				put({0, i + 1, i + 2});
			else
				put({i + 1, i + 2, 0});
		break;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
		for (uint32_t i = 0; 4 * i + 3 < n; ++i) put({4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3});
		break;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
		for (uint32_t i = 0; i + 3 < n; ++i) put({i, i + 1, i + 2, i + 3});
		break;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
		for (uint32_t i = 0; 6 * i + 5 < n; ++i) put({6 * i, 6 * i + 1, 6 * i + 2, 6 * i + 3, 6 * i + 4, 6 * i + 5});
		break;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
		// Vulkan "Triangle Strips With Adjacency": the table of vertices by
		// the primitive's place in the strip.
		const uint32_t count = n >= 4 ? (n - 4) / 2 : 0;
		if (count == 1) {
			put({0, 1, 2, 5, 4, 3});
			break;
		}
		for (uint32_t i = 0; i < count; ++i) {
			const uint32_t b = 2 * i;
			const bool last = i == count - 1;
			if (i == 0)
				put({b, b + 1, b + 2, b + 6, b + 4, b + 3});
			else if (i % 2 == 1)
				put({b, b + 3, b + 4, last ? b + 5 : b + 6, b + 2, b - 2});
			else
				put({b, b - 2, b + 2, last ? b + 5 : b + 6, b + 4, b + 3});
		}
		break;
	}
	default: break;  // patch lists: no tessellation stage
	}
}

// The main primitive of each adjacency primitive of one run (n vertices,
// v(i) the run's vertex i).
template <class V>
void AssembleMainRun(VkPrimitiveTopology topology, uint32_t n, bool provoking_last, V v, std::vector<uint32_t>& out) {
	std::vector<uint32_t> whole;
	AssembleRun(topology, n, false, v, whole);  // adjacency topologies: rotated below
	const bool lines = topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
	                   topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
	const size_t per = lines ? 4 : 6;
	const size_t count = whole.size() / per;
	for (size_t i = 0; i < count; ++i) {
		const uint32_t* p = &whole[i * per];
		if (lines) {
			out.insert(out.end(), {p[1], p[2]});
			continue;
		}
		// The strip's odd middle and last triangles list v(2i + 4), the
		// last-vertex provoking vertex, third of the main three: rotated
		// (winding kept) so that it comes last.
		const bool odd_strip =
		    topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY && count > 1 && i % 2 == 1;
		if (provoking_last && odd_strip)
			out.insert(out.end(), {p[4], p[0], p[2]});
		else
			out.insert(out.end(), {p[0], p[2], p[4]});
	}
}

// Runs primitives [first, first + count) as one lane group; records
// becomes the emitted records (resized without zeroing: every word is
// written below; the vectors are kept from draw to draw).
bool ShadeGeometry(const GeometryRun& run, uint32_t first, uint32_t count, runtime::ScratchVector<uint32_t>& records) {
	const GraphicsPipeline& gp = *run.pipeline;
	const shader::Program& gs = *gp.geometry;
	const shader::GeometryInfo& info = gs.geometry;
	const uint32_t invocations = info.invocations, per = info.input_vertices;
	const uint32_t lanes = count * invocations;
	const size_t sources = gp.geometry_sources.size();
	shader::Interpreter& interp = DrawInterpreter();
	interp.BeginStage(gs, lanes);
	FillPerVertexInputs(interp, gp.geometry_inputs, run.values, sources, run.primitives, per, first, invocations,
	                    lanes);
	if (gp.geometry_primitive_id_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.geometry_primitive_id_word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = run.primitive_base + first + l / invocations;
	}
	if (gp.geometry_view_index_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.geometry_view_index_word);
		std::fill(w, w + lanes, gp.pre_rasterization_view_from_device ? 0 : run.view_index);
	}
	if (gp.geometry_invocation_id_word != kNoWord) {
		uint32_t* w = interp.StageWord(gp.geometry_invocation_id_word);
		for (uint32_t l = 0; l < lanes; ++l) w[l] = l % invocations;
	}
	if (interp.RunStage(gs, *run.resources, run.options) != shader::RunStatus::kSuccess) return false;
	const uint32_t* emitted = interp.StageWord(info.emitted_word);
	const uint32_t words = info.record_words;
	// The records are the transpose of the emit words (one row of lanes per
	// word of each emitted vertex): copied 16 lanes at a time, so that both
	// the rows read and the records written stay in cache (lane by lane, a
	// record's words each came from another row: 14% of an amplifying
	// geometry stage's draw).
	size_t total = 0;
	for (uint32_t l = 0; l < lanes; ++l) total += emitted[l];
	records.resize(total * words);
	uint32_t* out = records.data();
	constexpr uint32_t kBlock = 16;
	for (uint32_t l0 = 0; l0 < lanes; l0 += kBlock) {
		const uint32_t n = std::min(kBlock, lanes - l0);
		uint32_t* lane_out[kBlock];
		uint32_t block_emitted = 0;
		for (uint32_t i = 0; i < n; ++i) {
			lane_out[i] = out;
			out += size_t(emitted[l0 + i]) * words;
			block_emitted = std::max(block_emitted, emitted[l0 + i]);
		}
		for (uint32_t k = 0; k < block_emitted; ++k)
			for (uint32_t j = 0; j < words; ++j) {
				const uint32_t* row = interp.StageWord(info.emit_word + k * words + j) + l0;
				for (uint32_t i = 0; i < n; ++i)
					if (k < emitted[l0 + i]) lane_out[i][k * words + j] = row[i];
			}
	}
	// Each invocation's output begins a strip in each stream.
	uint32_t* fix = records.data();
	for (uint32_t l = 0; l < lanes; ++l) {
		bool started[shader::kMaxVertexStreams] = {};
		for (uint32_t k = 0; k < emitted[l]; ++k, fix += words) {
			const uint32_t stream = fix[words - 1] % shader::kMaxVertexStreams;
			fix[words - 1] = stream;
			if (!started[stream]) fix[words - 2] = 1;
			started[stream] = true;
		}
	}
	return true;
}

}  // namespace

void FillPerVertexInputs(shader::Interpreter& interp, const std::vector<GeometryInput>& inputs, const uint32_t* values,
                         size_t sources, const uint32_t* primitives, uint32_t per, uint32_t first, uint32_t invocations,
                         uint32_t lanes) {
	// 16 lanes at a time, every input of those lanes: their vertices' values
	// stay in cache while each input's row takes its 16 words. (Input by
	// input over every lane, each vertex's values were fetched again for
	// each input: a tenth of an amplifying geometry stage's draw.)
	constexpr uint32_t kBlock = 16;
	for (uint32_t l0 = 0; l0 < lanes; l0 += kBlock) {
		const uint32_t n = std::min(kBlock, lanes - l0);
		const uint32_t* lane_vertices[kBlock];  // each lane's primitive's vertices
		for (uint32_t i = 0; i < n; ++i) lane_vertices[i] = primitives + size_t(first + (l0 + i) / invocations) * per;
		for (const GeometryInput& input : inputs) {
			if (input.slot == kNoWord || input.vertex >= per) continue;
			uint32_t* w = interp.StageWord(input.word) + l0;
			for (uint32_t i = 0; i < n; ++i)
				w[i] = values[size_t(lane_vertices[i][input.vertex]) * sources + input.slot];
		}
	}
}

void AssembleGeometryInput(VkPrimitiveTopology topology, const uint32_t* indices, uint32_t count, bool restart,
                           bool provoking_last, std::vector<uint32_t>& out) {
	if (!indices) {
		AssembleRun(
		    topology, count, provoking_last, [](uint32_t i) { return i; }, out);
		return;
	}
	uint32_t begin = 0;
	for (uint32_t i = 0; i <= count; ++i) {
		if (i < count && !(restart && indices[i] == kRestart)) continue;
		AssembleRun(
		    topology, i - begin, provoking_last, [&](uint32_t k) { return indices[begin + k]; }, out);
		begin = i + 1;
	}
}

bool AssembleAdjacencyMain(VkPrimitiveTopology topology, const uint32_t* indices, uint32_t count, bool restart,
                           bool provoking_last, std::vector<uint32_t>& out) {
	switch (topology) {
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: break;
	default: return false;
	}
	if (!indices) {
		AssembleMainRun(
		    topology, count, provoking_last, [](uint32_t i) { return i; }, out);
		return true;
	}
	uint32_t begin = 0;
	for (uint32_t i = 0; i <= count; ++i) {
		if (i < count && !(restart && indices[i] == kRestart)) continue;
		AssembleMainRun(
		    topology, i - begin, provoking_last, [&](uint32_t k) { return indices[begin + k]; }, out);
		begin = i + 1;
	}
	return true;
}

void RunGeometry(GeometryRun& run, runtime::ThreadPool* pool) {
	const shader::GeometryInfo& info = run.pipeline->geometry->geometry;
	const uint32_t per_group = std::max(1u, kLanesPerGroup / info.invocations);
	const uint32_t groups = (run.primitive_count + per_group - 1) / per_group;
	run.batches.resize(groups);
	std::atomic<bool> lost{false};
	auto shade = [&](uint32_t group) {
		runtime::ScratchVector<uint32_t>& records = run.batches[group];
		const uint32_t first = group * per_group;
		if (lost.load(std::memory_order_relaxed) ||
		    !ShadeGeometry(run, first, std::min(per_group, run.primitive_count - first), records)) {
			records.clear();
			lost.store(true, std::memory_order_relaxed);
		}
	};
	if (groups > 1)
		pool->ParallelFor(groups, shade);
	else if (groups == 1)
		shade(0);
	run.lost = lost.load();
}

void GatherGeometryOutput(const GraphicsPipeline& gp, const GeometryRun& run, uint32_t stream,
                          const GeometryWants& wants, GeometryVertices& out, runtime::ThreadPool* pool) {
	const shader::Program& gs = *gp.geometry;
	const uint32_t words = gs.geometry.record_words;
	const bool strips = gs.geometry.output != shader::GeometryOutput::kPoints;
	auto record = [&](uint32_t word) { return word < gp.geometry_record.size() ? gp.geometry_record[word] : kNoWord; };
	// Each batch's vertices of the stream and its strip restarts (before
	// each strip but the output's first), then where its vertices and
	// indices begin in the output: the batches are gathered in parallel.
	const uint32_t batches = uint32_t(run.batches.size());
	std::vector<size_t> first_vertex(batches + 1, 0), first_index(batches + 1, 0);
	std::vector<uint8_t> leading_strip(batches, 0);  // the batch's first vertex begins a strip
	for (uint32_t b = 0; b < batches; ++b) {
		const runtime::ScratchVector<uint32_t>& batch = run.batches[b];
		size_t vertices = 0, starts = 0;
		for (size_t at = 0; at + words <= batch.size(); at += words) {
			if (batch[at + words - 1] != stream) continue;
			const bool start = batch[at + words - 2] != 0;
			if (vertices == 0) leading_strip[b] = start;
			starts += start;
			++vertices;
		}
		const bool first_of_output = first_vertex[b] == 0;
		const size_t restarts = !strips ? 0 : starts - (first_of_output && vertices > 0 && leading_strip[b] ? 1 : 0);
		first_vertex[b + 1] = first_vertex[b] + vertices;
		first_index[b + 1] = first_index[b] + vertices + restarts;
	}
	const size_t total = first_vertex[batches];
	const uint32_t n = gp.varying_count;
	out.vertex_count = uint32_t(total);
	out.positions.resize(total * 4);
	out.varyings.resize(total * n);
	out.clip_distances.resize(total * wants.clip_count);
	out.cull_distances.resize(total * wants.cull_count);
	out.point_sizes.resize(wants.point_sizes ? total : 0);
	out.layers.resize(wants.layers ? total : 0);
	out.viewport_indices.resize(wants.viewport_indices ? total : 0);
	out.xfb_values.resize(total * wants.xfb_count);
	out.indices.resize(first_index[batches]);
	// Each value's place in a record (kNoWord: not written, read as 0, or
	// w = 1 for the position).
	uint32_t position[4], varying[raster::kMaxVaryings], clip[raster::kMaxClipDistances],
	    cull[raster::kMaxClipDistances];
	for (int c = 0; c < 4; ++c) position[c] = record(gp.position_words[c]);
	for (uint32_t v = 0; v < n; ++v) varying[v] = record(gp.varyings[v].vertex_word);
	for (uint32_t d = 0; d < wants.clip_count; ++d) clip[d] = record(gp.clip_distance_words[d]);
	for (uint32_t d = 0; d < wants.cull_count; ++d) cull[d] = record(gp.cull_distance_words[d]);
	const uint32_t point_size = record(gp.point_size_word), layer = record(gp.layer_word),
	               viewport = record(gp.viewport_index_word);
	std::vector<uint32_t> xfb(wants.xfb_count);
	for (uint32_t k = 0; k < wants.xfb_count; ++k) xfb[k] = record(gs.xfb_words[k].word);
	auto value = [](const uint32_t* r, uint32_t at) -> uint32_t { return at == kNoWord ? 0 : r[at]; };
	auto as_float = [](uint32_t bits) {
		float f;
		std::memcpy(&f, &bits, 4);
		return f;
	};
	auto gather = [&](uint32_t b) {
		const runtime::ScratchVector<uint32_t>& batch = run.batches[b];
		size_t o = first_vertex[b];
		uint32_t* index = out.indices.data() + first_index[b];
		for (size_t at = 0; at + words <= batch.size(); at += words) {
			const uint32_t* r = &batch[at];
			if (r[words - 1] != stream) continue;
			if (strips && o > 0 && r[words - 2]) *index++ = kRestart;
			*index++ = uint32_t(o);
			for (int c = 0; c < 4; ++c)
				out.positions[o * 4 + c] = position[c] == kNoWord ? (c == 3 ? 1.0f : 0.0f) : as_float(r[position[c]]);
			for (uint32_t v = 0; v < n; ++v) out.varyings[o * n + v] = as_float(value(r, varying[v]));
			for (uint32_t d = 0; d < wants.clip_count; ++d)
				out.clip_distances[o * wants.clip_count + d] = as_float(value(r, clip[d]));
			for (uint32_t d = 0; d < wants.cull_count; ++d)
				out.cull_distances[o * wants.cull_count + d] = as_float(value(r, cull[d]));
			if (wants.point_sizes) out.point_sizes[o] = point_size == kNoWord ? 1.0f : as_float(r[point_size]);
			if (wants.layers) out.layers[o] = value(r, layer);
			if (wants.viewport_indices) out.viewport_indices[o] = value(r, viewport);
			for (uint32_t k = 0; k < wants.xfb_count; ++k) out.xfb_values[o * wants.xfb_count + k] = value(r, xfb[k]);
			++o;
		}
	};
	if (pool && batches > 1 && total >= 1024)
		pool->ParallelFor(batches, gather);
	else
		for (uint32_t b = 0; b < batches; ++b) gather(b);
}

void CountGeometryPrimitives(const GraphicsPipeline& gp, const GeometryRun& run,
                             uint64_t (&primitives)[shader::kMaxVertexStreams]) {
	const shader::GeometryInfo& info = gp.geometry->geometry;
	const uint32_t words = info.record_words;
	const uint64_t needs = info.output == shader::GeometryOutput::kPoints      ? 1
	                       : info.output == shader::GeometryOutput::kLineStrip ? 2
	                                                                           : 3;
	uint64_t strip[shader::kMaxVertexStreams] = {};  // vertices in each stream's current strip
	auto close = [&](uint32_t stream) {
		if (strip[stream] >= needs) primitives[stream] += strip[stream] - needs + 1;
		strip[stream] = 0;
	};
	for (const runtime::ScratchVector<uint32_t>& batch : run.batches)
		for (size_t at = 0; at + words <= batch.size(); at += words) {
			const uint32_t stream = batch[at + words - 1];
			if (batch[at + words - 2]) close(stream);
			++strip[stream];
		}
	for (uint32_t stream = 0; stream < shader::kMaxVertexStreams; ++stream) close(stream);
}

raster::Topology GeometryTopology(const shader::Program& geometry) {
	switch (geometry.geometry.output) {
	case shader::GeometryOutput::kPoints: return raster::Topology::PointList;
	case shader::GeometryOutput::kLineStrip: return raster::Topology::LineStrip;
	default: return raster::Topology::TriangleStrip;
	}
}

}  // namespace tessera::vk
