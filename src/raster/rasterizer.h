// A draw from clip-space triangles to attachment memory: primitive
// processing in parallel chunks, binning into 64x64 tiles, then one worker
// per tile walking 2x2 quads, running the fragment stage in batches of quads
// and the per-sample operations. Deterministic: a tile is owned by one
// worker and sees its triangles in submission order, so the bytes written do
// not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
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
	// The shader declares EarlyFragmentTests: samples are counted after the
	// early tests, before shading and the multisample coverage operations
	// (Vulkan "Fragment Operations"), so a discard or a written sample mask
	// does not change the count.
	bool count_before_shading = false;
	bool per_sample = false;  // sample shading: the shader runs once a covered sample
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
	explicit Renderer(runtime::ThreadPool* pool);
	~Renderer();

	// Rasterizes a draw now (after any queued ones). Returns the samples
	// that passed every test and reached the color stage when
	// draw.count_samples is set (occlusion queries), else 0.
	uint64_t Draw(const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input);

	// Deferred rendering of the draws of a render pass: Queue sets up and
	// bins a draw now (the vertex input may then be reused) and Flush
	// rasterizes every queued draw, tile by tile, each tile running its
	// draws in submission order. The bytes written are those of drawing
	// each at once; small draws then share the workers, and a tile's pixels
	// stay in cache across draws. The draw's fragment shader (state.shader)
	// must stay callable until Flush, and must not count samples.
	// CanQueue: whether a draw of `primitives` primitives into fb may join
	// the queue (the same attachments, and room); when it may not, Flush first.
	// With workers, whenever none are being rasterized and the queue holds
	// more than a few pixels, Queue starts rasterizing it on the workers
	// while the caller goes on setting up the next draws (their tiles wait
	// for these); Flush finishes them first. Until Flush, the
	// caller must leave the attachments and the queued fragment shaders'
	// resources alone, and use the pool only through ParallelFor (which
	// waits for them).
	bool CanQueue(const Framebuffer& fb, uint64_t primitives) const;
	void Queue(const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input);
	void Flush();
	bool HasQueued() const { return queued_count_ != 0 || flight_count_ != 0; }

	// Bytes the renderer keeps between draws (bins, set-up triangles), which
	// grow with the largest draw it ran.
	size_t ScratchBytes() const;

	// The queue's bounds: Flush when either would be passed. Setup keeps
	// about 200 bytes a primitive.
	static constexpr uint64_t kMaxQueuedPrimitives = uint64_t(1) << 16;
	// Draw sets up and rasterizes a larger draw this many primitives at a
	// time (set_pass_primitives: the tests' smaller passes).
	static constexpr uint32_t kMaxPassPrimitives = uint32_t(1) << 16;
	void set_pass_primitives(uint32_t primitives) { pass_primitives_ = std::max(primitives, 1u); }
	static constexpr uint32_t kMaxQueuedDraws = 4096;

	struct Binned;  // one draw set up and binned (rasterizer.cpp)

private:
	void ParallelFor(uint32_t count, const std::function<void(uint32_t)>& body);
	// The input's primitives as a list (strips, fans and restarts
	// assembled into assembled_), the input itself when it is one.
	VertexInput AsList(const CompiledDraw& draw, const VertexInput& vertex_input);
	// Sets up and bins a draw's primitives, given as a list (AsList), into
	// b (which keeps copies of draw and fb).
	void Bin(Binned& b, const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input);

	runtime::ThreadPool* pool_;
	uint32_t pass_primitives_ = kMaxPassPrimitives;

	struct TileWork {
		uint32_t draw;  // index into the pass's draws
		uint32_t busy;  // index into its busy tiles
	};
	using Draws = std::vector<std::unique_ptr<Binned>>;
	// A flush's work: each busy tile's (draw, busy tile) items in submission order.
	struct Work {
		std::vector<uint32_t> begin;  // tile i's items: [begin[i - 1], begin[i]) (from 0 for tile 0)
		std::vector<TileWork> items;
		std::vector<uint32_t> tiles;  // tiles with work
		uint64_t area = 0;            // pixels of the draws' bounding boxes
	};
	static void Plan(const Draws& draws, uint32_t count, Work& work);
	static void RasterizeWorkTile(const Draws& draws, const Work& work, uint32_t i);
	static void HiddenDraws(const Draws& draws, const Work& work, uint32_t tile, uint32_t begin, uint32_t end,
	                        uint32_t* from, uint32_t* to);
	// Moves the queue to the workers (Queue); FinishFlight waits for them.
	void StartFlight();
	void FinishFlight();

	// Scratch of Bin, per tile.
	std::vector<uint32_t> tile_begin_, tile_hidden_, tile_seen_;
	std::vector<uint8_t> tile_covered_;
	struct SortedEntry {
		uint64_t bin;  // Chunk::bins entry
		uint32_t chunk;
	};
	std::vector<SortedEntry> sorted_;                  // Bin of a small draw
	std::vector<uint32_t> assembled_;                  // vertex indices of strips and fans as a list
	runtime::ScratchVector<PreparedVertex> prepared_;  // Bin of a mesh whose triangles share vertices
	Draws binned_;                                     // [0, queued_count_): the queue; the rest kept for reuse
	uint32_t queued_count_ = 0;
	uint64_t queued_primitives_ = 0, queued_area_ = 0;
	Work work_;  // Flush's
	// The draws being rasterized on the workers (StartFlight): [0, flight_count_)
	// of flight_; the rest kept for reuse.
	Draws flight_;
	uint32_t flight_count_ = 0;
	Work flight_work_;
	std::function<void(uint32_t)> flight_body_;
	std::vector<uint64_t> tile_samples_;  // Draw: per busy tile, samples passed (occlusion queries)
};

}  // namespace tessera::raster
