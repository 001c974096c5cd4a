// A draw from clip-space triangles to attachment memory: primitive
// processing in parallel chunks, binning into 64x64 tiles, then one worker
// per tile walking 2x2 quads, running the fragment stage in batches of quads
// and the per-sample operations. Deterministic: a tile is owned by one
// worker and sees its triangles in submission order, so the bytes written do
// not depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/fragment_ops.h"
#include "raster/primitive.h"
#include "raster/state.h"
#include "runtime/thread_pool.h"

namespace tessera::raster {

// Everything decided once from the state and the attachments' formats and
// size (a pipeline + render pass + dynamic state, later).
struct CompiledDraw {
	DrawState state;
	PrimitiveSetupState setup;
	FragmentOps ops;
	bool early_tests = false;
	bool has_tests = false;      // a depth bounds, stencil or depth test to run
	bool count_samples = false;  // an occlusion query is active: Renderer::Draw counts passing samples
	bool per_sample = false;     // sample shading: the shader runs once a covered sample
	// Every covered sample ends up with the latest primitive's values alone:
	// no tests, blending, logic op, partial write mask, discard, sample mask
	// or side effect, and nobody counts fragments. A primitive that covers
	// a whole tile then leaves nothing of the draw's earlier primitives
	// visible there, and Renderer::Draw drops them from the tile's list.
	// Cleared by whoever counts fragment invocations (statistics queries).
	bool overwrites = false;
	bool centroid_inputs = false;  // multisampled, one pixel one invocation, some input Centroid
	bool smooth_varyings = false;  // some varying divides by w (the batch then needs 1/w_c)

	// Whether the rasterizer may drop what later primitives overwrite:
	// an occlusion query counts the hidden samples too.
	bool Hides() const { return overwrites && !count_samples; }
};

CompiledDraw CompileDraw(const DrawState& state, const Framebuffer& fb);

// Standard sample locations (Vulkan 1.3 §28.4, table "Standard sample
// locations"), in 1/256 pixel from the pixel's top-left corner.
struct SampleLocation {
	int32_t x, y;
};
const SampleLocation* StandardSampleLocations(uint32_t samples);

class Renderer {
public:
	// pool: the threads to use; nullptr runs everything on the caller.
	explicit Renderer(runtime::ThreadPool* pool) : pool_(pool) {}

	// Returns the samples that passed every test and reached the color
	// stage when draw.count_samples is set (occlusion queries), else 0.
	uint64_t Draw(const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input);

	// Bytes the renderer keeps between draws (bins, set-up triangles), which
	// grow with the largest draw it ran.
	size_t ScratchBytes() const;

private:
	struct BinEntry {
		uint32_t chunk;
		uint32_t triangle;
	};
	struct Chunk {
		TriangleSetupOutput setup;
		std::vector<uint64_t> bins;  // (tile << 32) | triangle, in triangle order
		uint64_t area = 0;           // pixels of the triangles' bounding boxes
	};
	void ParallelFor(uint32_t count, const std::function<void(uint32_t)>& body);
	uint64_t RasterizeTile(const CompiledDraw& draw, const Framebuffer& fb, uint32_t tile) const;
	uint32_t FirstVisible(const PrimitiveSetupState& setup, int32_t tile_x, int32_t tile_y, uint32_t begin,
	                      uint32_t end) const;

	runtime::ThreadPool* pool_;
	bool points_ = false;  // this draw makes point primitives (gl_PointCoord to fill)
	uint32_t tiles_x_ = 0, tiles_y_ = 0;
	std::vector<Chunk> chunks_;
	std::vector<uint32_t> tile_begin_;   // tile_count + 1 offsets into bins_
	std::vector<uint32_t> tile_hidden_;  // per tile: entries before its last covering primitive (overwrites)
	std::vector<uint32_t> tile_seen_;
	std::vector<BinEntry> bins_;
	std::vector<uint32_t> busy_tiles_;
	std::vector<uint64_t> tile_samples_;  // per busy tile: samples passed (occlusion queries)
	std::vector<uint32_t> assembled_;     // vertex indices of strips and fans as a list
};

}  // namespace tessera::raster
