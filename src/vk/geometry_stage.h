// The geometry stage of a draw (Vulkan "Geometry Shading"): input
// primitives assembled from the shaded vertices, the geometry program run
// over them in lane groups on the pool, and the emitted vertices gathered,
// in primitive order, into the arrays the rasterizer reads. draw.cpp runs
// it between the vertex stage and rasterization.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "raster/primitive.h"
#include "shader/interpreter.h"
#include "vk/graphics_state.h"

namespace tessera::runtime {
class ThreadPool;
}

namespace tessera::vk {

// The interpreter of the calling thread for draw work (draw.cpp).
shader::Interpreter& DrawInterpreter();

// The per-vertex inputs of a stage whose lane l is one invocation of
// primitive first + l / invocations (geometry primitives, tessellation
// patches): each input word gets, from the previous stage's values kept per
// vertex (`sources` words a vertex), its slot for vertex `input.vertex` of
// the lane's primitive (`per` vertex indices a primitive in `primitives`).
// Words without a source, or past the primitive's vertices, stay as
// BeginStage left them (zero).
void FillPerVertexInputs(shader::Interpreter& interp, const std::vector<GeometryInput>& inputs, const uint32_t* values,
                         size_t sources, const uint32_t* primitives, uint32_t per, uint32_t first, uint32_t invocations,
                         uint32_t lanes);

// Vulkan "Primitive Topologies": the primitives of `count` vertices
// (indices into the shaded vertices when given, else 0..count-1; restart
// values end a strip or the current list primitive) as the geometry stage
// sees them, each its vertices in the order the topology's equations give
// (adjacency vertices included), or with provoking_last, strip and fan
// triangles rotated so that the provoking vertex comes last. Appends to out.
void AssembleGeometryInput(VkPrimitiveTopology topology, const uint32_t* indices, uint32_t count, bool restart,
                           bool provoking_last, std::vector<uint32_t>& out);

// Without a geometry stage, the adjacency topologies draw their main
// primitives (Vulkan "Primitive Topologies": a line is the second and third
// vertices, a triangle the first, third and fifth), as a line or triangle
// list with the provoking vertex where the topology puts it. Appends to
// out; false when the topology has no adjacency.
bool AssembleAdjacencyMain(VkPrimitiveTopology topology, const uint32_t* indices, uint32_t count, bool restart,
                           bool provoking_last, std::vector<uint32_t>& out);

// One instance's geometry work.
struct GeometryRun {
	const GraphicsPipeline* pipeline = nullptr;
	const shader::Resources* resources = nullptr;
	shader::RunOptions options;
	// Per shaded vertex, the vertex outputs the geometry stage reads
	// (GraphicsPipeline::geometry_sources order).
	const uint32_t* values = nullptr;
	// The input primitives (input_vertices indices each); the first one's
	// PrimitiveId is primitive_base (a draw's primitives may run in parts).
	const uint32_t* primitives = nullptr;
	uint32_t primitive_count = 0;
	uint32_t primitive_base = 0;
	uint32_t view_index = 0;  // ViewIndex (multiview)
	// Set when a lane group ran past the step bound.
	bool lost = false;
	// Out: each lane group's emitted records (GeometryInfo), strip flags set
	// on each invocation's first vertex.
	std::vector<runtime::ScratchVector<uint32_t>> batches;
};
void RunGeometry(GeometryRun& run, runtime::ThreadPool* pool);

// The emitted vertices as the rasterizer takes them (as the vertex stage
// would leave them without a geometry stage), and their strips.
struct GeometryVertices {
	// (Resized without zeroing: every element is written before it is read.)
	runtime::ScratchVector<float> positions, varyings, clip_distances, cull_distances, point_sizes;
	runtime::ScratchVector<uint32_t> layers, viewport_indices, xfb_values;
	runtime::ScratchVector<uint32_t> indices;  // vertex numbers, strips cut by restart values
	uint32_t vertex_count = 0;
};
struct GeometryWants {
	uint32_t clip_count = 0, cull_count = 0, xfb_count = 0;
	bool point_sizes = false, layers = false, viewport_indices = false;
};
// Of the vertices emitted to `stream`; the batches in parallel on `pool`
// (null: on this thread).
void GatherGeometryOutput(const GraphicsPipeline& gp, const GeometryRun& run, uint32_t stream,
                          const GeometryWants& wants, GeometryVertices& out, runtime::ThreadPool* pool);

// The primitives emitted to each vertex stream (strips taken apart).
void CountGeometryPrimitives(const GraphicsPipeline& gp, const GeometryRun& run,
                             uint64_t (&primitives)[shader::kMaxVertexStreams]);

// The rasterizer's topology for the program's output (strips with restart).
raster::Topology GeometryTopology(const shader::Program& geometry);

}  // namespace tessera::vk
