#include "raster/rasterizer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>

#include "texture/image_layout.h"

namespace tessera::raster {

// One draw set up and binned: its primitives in chunks (set up in
// parallel), and each busy tile's entries in submission order.
struct Renderer::Binned {
	struct Entry {
		uint32_t chunk;
		uint32_t triangle;
	};
	struct Chunk {
		TriangleSetupOutput setup;
		std::vector<uint64_t> bins;  // (tile << 32) | triangle, in triangle order
		uint64_t area = 0;           // pixels of the triangles' bounding boxes
	};
	CompiledDraw draw;
	Framebuffer fb;
	bool points = false;  // the draw makes point primitives (gl_PointCoord to fill)
	uint32_t tiles_x = 0;
	uint32_t chunk_count = 0;
	std::vector<Chunk> chunks;         // [0, chunk_count) in use
	std::vector<uint32_t> busy;        // tiles with entries, ascending
	std::vector<uint32_t> busy_begin;  // busy.size() + 1 offsets into entries
	// Per busy tile: its first entry covers the region the draw may write
	// there (only for draws that Hides()), so nothing earlier shows through.
	std::vector<uint8_t> covered;
	std::vector<Entry> entries;  // by tile, then submission order
	uint64_t area = 0;           // pixels of the primitives' bounding boxes
	uint64_t primitives = 0;     // primitives in
	// Queued draws: the first of the consecutive draws up to this one that
	// do the same fragment work (SameFragmentWork), by queue index; their
	// quads in a tile are shaded in shared batches.
	uint32_t run = 0;

	const SetupTriangle& Triangle(const Entry& e) const { return chunks[e.chunk].setup.triangles[e.triangle]; }
	const float* Planes(const Entry& e) const {
		const TriangleSetupOutput& setup = chunks[e.chunk].setup;
		return setup.varying_planes.data() + setup.triangles[e.triangle].varying_offset;
	}
	size_t Bytes() const {
		size_t bytes = sizeof(Binned) + chunks.capacity() * sizeof(Chunk) +
		               (busy.capacity() + busy_begin.capacity()) * sizeof(uint32_t) +
		               entries.capacity() * sizeof(Entry);
		for (const Chunk& c : chunks)
			bytes += c.bins.capacity() * sizeof(uint64_t) + c.setup.triangles.capacity() * sizeof(SetupTriangle) +
			         c.setup.varying_planes.capacity() * sizeof(float);
		return bytes;
	}
};

namespace {

constexpr SampleLocation kOneSample[1] = {{128, 128}};
constexpr SampleLocation kFourSamples[4] = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};
constexpr uint32_t kTriangleChunk = 512;  // input triangles per setup task
// Draws whose triangles' bounding boxes hold at most this many pixels are
// rasterized on the calling thread (about what a wake-up of the pool costs).
constexpr uint64_t kInlinePixels = 4096;
// Items of a tile's work that RasterizeWorkTile runs together, at most.
constexpr uint32_t kMostRun = 64;
// A bin entry's flag: the primitive covers every pixel of the tile that the
// draw may write (CompiledDraw::overwrites).
constexpr uint64_t kCoversTile = uint64_t(1) << 31;

enum class RectCoverage { Outside, Partial, Inside };

// Trivial reject / accept of the samples of a pixel rectangle from the edge
// functions at the four corners of their hull (fixed point, corners
// inclusive): a half-plane holds every sample when it holds those corners.
// The hull, not the pixels' outer corners: an edge along the rectangle's
// border (a full-screen quad's, on the screen's last column and row) runs
// through the outer corners but holds every sample.
// How many corners of the rectangle edge e holds.
int CornersIn(const SetupTriangle& t, int e, int64_t X0, int64_t Y0, int64_t X1, int64_t Y1) {
	const int64_t bias = t.edge_bias[e];
	return (EdgeAt(t, e, X0, Y0) >= bias) + (EdgeAt(t, e, X1, Y0) >= bias) + (EdgeAt(t, e, X0, Y1) >= bias) +
	       (EdgeAt(t, e, X1, Y1) >= bias);
}

// The hull of a pixel's samples, in 1/256 pixel from its top-left corner:
// the pixel center, or 0.125 to 0.875 for the four standard locations.
struct SampleHull {
	int32_t min_x, min_y, max_x, max_y;
};
constexpr SampleHull HullOf(uint32_t samples) {
	return samples == 4 ? SampleHull{32, 32, 224, 224} : SampleHull{128, 128, 128, 128};
}

// The samples of pixels x0..x1, y0..y1 (inclusive) as a fixed-point
// rectangle with inclusive corners.
struct FixedRect {
	int64_t x0, y0, x1, y1;
};
constexpr FixedRect SampleRect(int32_t x0, int32_t y0, int32_t x1, int32_t y1, uint32_t samples) {
	const SampleHull h = HullOf(samples);
	return {(int64_t(x0) << kSubPixelBits) + h.min_x, (int64_t(y0) << kSubPixelBits) + h.min_y,
	        (int64_t(x1) << kSubPixelBits) + h.max_x, (int64_t(y1) << kSubPixelBits) + h.max_y};
}
// The primitive's box holds every pixel of r: a Bresenham line's box bounds
// it along its major axis (a triangle's edges keep it inside its box).
bool BoxHolds(const SetupTriangle& t, const FixedRect& r) {
	return t.min_x <= (r.x0 >> kSubPixelBits) && t.max_x >= (r.x1 >> kSubPixelBits) &&
	       t.min_y <= (r.y0 >> kSubPixelBits) && t.max_y >= (r.y1 >> kSubPixelBits);
}

RectCoverage ClassifyRect(const SetupTriangle& t, const FixedRect& r) {
	bool inside = true;
	for (int e = 0; e < 3; ++e) {
		const int in = CornersIn(t, e, r.x0, r.y0, r.x1, r.y1);
		if (in == 0) return RectCoverage::Outside;
		inside &= in == 4;
	}
	return inside ? RectCoverage::Inside : RectCoverage::Partial;
}

// The samples of a tile that a draw may write (the tile inside the
// scissor); false when there are none.
bool TileRegion(const PrimitiveSetupState& setup, uint32_t samples, int32_t tile_x, int32_t tile_y, FixedRect* out) {
	const int32_t x0 = std::max(tile_x, setup.scissor_min_x), y0 = std::max(tile_y, setup.scissor_min_y);
	const int32_t x1 = std::min(tile_x + int32_t(kTileSize) - 1, setup.scissor_max_x);
	const int32_t y1 = std::min(tile_y + int32_t(kTileSize) - 1, setup.scissor_max_y);
	if (x0 > x1 || y0 > y1) return false;
	*out = SampleRect(x0, y0, x1, y1, samples);
	return true;
}

// Bits of the samples of each lane: lane mask (4 bits) -> sample mask.
inline uint32_t ExpandLanes(uint32_t lanes, uint32_t samples) {
	if (samples == 1) return lanes;
	uint32_t m = 0;
	for (uint32_t l = 0; l < 4; ++l)
		if (lanes & (1u << l)) m |= ((1u << samples) - 1) << (l * samples);
	return m;
}

// Vulkan "Discard Rectangles Test" over a box of pixels: whether it keeps
// them all, none, or must look at each quad, with the rectangles that meet
// the box for that. (The test is per pixel: the rectangles have whole-pixel
// corners, and a sample's framebuffer coordinates are its pixel's.)
struct DiscardTest {
	enum class Outcome : uint8_t { KeepAll, DropAll, PerQuad };
	Outcome outcome = Outcome::KeepAll;
	bool inclusive = false;
	uint32_t count = 0;
	int64_t x0[kMaxDiscardRectangles], y0[kMaxDiscardRectangles];  // inclusive
	int64_t x1[kMaxDiscardRectangles], y1[kMaxDiscardRectangles];  // exclusive

	// Bit l: the test keeps pixel (qx + (l & 1), qy + (l >> 1)).
	uint32_t Lanes(int32_t qx, int32_t qy) const {
		uint32_t inside = 0;
		for (uint32_t k = 0; k < count; ++k)
			for (uint32_t l = 0; l < 4; ++l) {
				const int64_t x = qx + int32_t(l & 1), y = qy + int32_t(l >> 1);
				inside |= uint32_t(x >= x0[k] && x < x1[k] && y >= y0[k] && y < y1[k]) << l;
			}
		return inclusive ? inside : ~inside & 0xf;
	}
};

// The test of pixels [x0, x1] x [y0, y1] (inclusive bounds).
DiscardTest ClassifyDiscard(const RasterState& r, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
	DiscardTest t;
	if (r.discard_rectangle_count == 0) return t;
	t.inclusive = r.discard_inclusive;
	for (uint32_t k = 0; k < r.discard_rectangle_count; ++k) {
		const Rect& d = r.discard_rectangles[k];
		const int64_t rx0 = d.x, ry0 = d.y, rx1 = rx0 + int64_t(d.width), ry1 = ry0 + int64_t(d.height);
		if (rx1 <= x0 || rx0 > x1 || ry1 <= y0 || ry0 > y1) continue;  // misses the box
		if (rx0 <= x0 && rx1 > x1 && ry0 <= y0 && ry1 > y1) {          // holds it
			t.outcome = t.inclusive ? DiscardTest::Outcome::KeepAll : DiscardTest::Outcome::DropAll;
			return t;
		}
		t.x0[t.count] = rx0, t.y0[t.count] = ry0, t.x1[t.count] = rx1, t.y1[t.count] = ry1;
		++t.count;
	}
	if (t.count > 0)
		t.outcome = DiscardTest::Outcome::PerQuad;
	else  // inside no rectangle
		t.outcome = t.inclusive ? DiscardTest::Outcome::DropAll : DiscardTest::Outcome::KeepAll;
	return t;
}

// A triangle's constants inside one tile: plane values at the tile's
// origin, per-sample depth offsets.
struct TilePrimitive {
	const SetupTriangle* tri;
	const float* planes;  // varying planes
	float depth_base, inv_w_base;
	float depth_offset[16];  // of each (lane, sample) from the quad's corner
	float varying_base[kMaxVaryings];
	// gl_PointCoord's s and t of a point; a smooth line's distances across
	// and along it (the two planes after the varyings).
	float extra_base[2];
};

// Copies what a primitive's varying_count varyings use of it (the whole
// record is over 600 bytes).
void MovePrimitive(TilePrimitive& to, const TilePrimitive& from, uint32_t varying_count) {
	to.tri = from.tri;
	to.planes = from.planes;
	to.depth_base = from.depth_base;
	to.inv_w_base = from.inv_w_base;
	std::copy(std::begin(from.depth_offset), std::end(from.depth_offset), to.depth_offset);
	std::copy(from.varying_base, from.varying_base + varying_count, to.varying_base);
	to.extra_base[0] = from.extra_base[0];
	to.extra_base[1] = from.extra_base[1];
}

// One worker's state for one tile: the batch being gathered, whose quads
// may come from several triangles (in submission order).
struct TileContext {
	// (Only what is read before it is written: the arrays below hold over
	// 20 KiB, and a tile may take a context for each of many small draws.)
	TileContext(const CompiledDraw& d, const Framebuffer& f, int32_t x, int32_t y, FragmentBatch& b, bool p)
	    : draw(d), fb(f), tile_x(x), tile_y(y), batch(b), points(p) {}
	const CompiledDraw& draw;
	const Framebuffer& fb;
	int32_t tile_x, tile_y;  // pixels
	FragmentBatch& batch;
	bool points;  // fill gl_PointCoord
	uint32_t coverage[kMaxBatchQuads];
	// Each quad's coverage before the early tests (SampleMaskIn without
	// PostDepthCoverage, centroid locations).
	uint32_t raster_coverage[kMaxBatchQuads];
	uint8_t quad_primitive[kMaxBatchQuads];  // index into primitives
	uint8_t quad_sample[kMaxBatchQuads];     // the sample shaded, with sample shading
	uint32_t primitive_count = 0;
	TilePrimitive primitives[kMaxBatchQuads];
	uint64_t samples_passed = 0;  // when draw.count_samples
};

// Depth of each sample of a quad (index lane * samples + sample).
// kSamples: the sample count when known at compile time (the per-quad early
// tests inline this with their loops unrolled), 0 to read it from the draw.
template <uint32_t kSamples = 0>
[[gnu::always_inline]] inline void SampleDepths(const TileContext& t, const TilePrimitive& p, int32_t qx, int32_t qy,
                                                const float* lane_depth, float* out) {
	const uint32_t samples = kSamples ? kSamples : t.draw.ops.samples, count = 4 * samples;
	if (lane_depth) {
		for (uint32_t k = 0; k < count; ++k) out[k] = lane_depth[k / samples];
	} else {
		const float quad =
		    p.depth_base + p.tri->depth[0] * float(qx - t.tile_x) + p.tri->depth[1] * float(qy - t.tile_y);
		for (uint32_t k = 0; k < count; ++k) out[k] = quad + p.depth_offset[k];
	}
	// Vulkan 1.3 §28.9 (depth clamp): z_f is clamped to the viewport's depth range.
	if (t.draw.ops.depth_clamp)
		for (uint32_t k = 0; k < count; ++k) out[k] = std::clamp(out[k], t.draw.ops.depth_min, t.draw.ops.depth_max);
}

// Vulkan 1.3 "Multisample Coverage", after the fragment shader:
// alpha to coverage ANDs each fragment's coverage with a mask from the
// alpha of color output 0, then alpha to one sets every output's alpha to 1
// (integer attachments keep theirs).
void MultisampleCoverage(TileContext& t) {
	FragmentBatch& b = t.batch;
	const FragmentOps& ops = t.draw.ops;
	const RasterState& r = t.draw.state.raster;
	const uint32_t samples = ops.samples, lanes = 4 * b.quad_count;
	if (r.alpha_to_coverage) {
		for (uint32_t q = 0; q < b.quad_count; ++q) {
			uint32_t mask = 0;
			for (uint32_t l = 0; l < 4; ++l)
				mask |= AlphaToCoverageMask(b.color[0][3][4 * q + l], samples) << (l * samples);
			t.coverage[q] &= mask;
		}
	}
	if (r.alpha_to_one) {
		for (uint32_t a = 0; a < ops.color_count; ++a) {
			const ColorOps& c = ops.color[a];
			if (!c.format || c.integer) continue;
			std::fill(b.color[a][3], b.color[a][3] + lanes, 1.0f);
			if (c.dual_source) std::fill(b.color[1][3], b.color[1][3] + lanes, 1.0f);
		}
	}
}

// Vulkan "Line Stipple": bit floor(s / factor) mod 16 of the pattern.
inline bool StippleBit(const RasterState& r, float s) {
	const uint64_t k = s > 0.0f ? uint64_t(s) : 0;
	return (r.stipple_pattern >> (k / r.stipple_factor % 16)) & 1;
}

// A smooth line's coverage along it: the length of the pixel's extent
// along the line, [a - 1/2, a + 1/2], that lies in the segment [0, length]
// and, with a stipple, in the unit rectangles it keeps ("the rectangular
// region is subdivided into adjacent unit-length rectangles"); s is the
// stipple's distance at a (the segment spans [s - a, s - a + length]).
inline float SmoothAlong(const RasterState& r, float a, float length, float s) {
	const float lo = std::max(a - 0.5f, 0.0f), hi = std::min(a + 0.5f, length);
	if (!(hi > lo)) return 0.0f;
	if (r.stipple_varying == kNoVarying) return hi - lo;
	const float from = s - a + lo, to = s - a + hi;
	float kept = 0.0f;
	for (float k = std::floor(from); k < to; k += 1.0f)
		if (StippleBit(r, k)) kept += std::min(to, k + 1.0f) - std::max(from, k);
	return kept;
}

// Vulkan "Multisample Coverage": the alpha of color output 0 of a smooth
// line's fragment is multiplied by its coverage (SetupSmoothLine), before
// alpha to coverage (as there, an integer attachment's bits stay as they
// are). lx, ly: each lane's position in the tile.
void SmoothLineCoverage(TileContext& t, const uint32_t* run_begin, uint32_t run_count, const float* lx,
                        const float* ly) {
	FragmentBatch& b = t.batch;
	if (!t.draw.ops.color_count || t.draw.ops.color[0].integer || !b.color[0][3]) return;
	const RasterState& r = t.draw.state.raster;
	float* alpha = b.color[0][3];
	for (uint32_t k = 0; k < run_count; ++k) {
		const TilePrimitive& p = t.primitives[t.quad_primitive[run_begin[k]]];
		if (p.tri->kind != PrimitiveKind::SmoothLine) continue;
		const float* across = p.planes + 3 * r.varying_count;
		const float* along = across + 3;
		const float half = 0.5f * t.draw.setup.line_width + 0.5f;
		const float length = along[3];  // the segment's, after the along plane
		const bool stippled = r.stipple_varying != kNoVarying;
		const float* stipple = stippled ? p.planes + 3 * r.stipple_varying : nullptr;
		for (uint32_t i = 4 * run_begin[k]; i < 4 * run_begin[k + 1]; ++i) {
			const float d = p.extra_base[0] + across[0] * lx[i] + across[1] * ly[i];
			const float a = p.extra_base[1] + along[0] * lx[i] + along[1] * ly[i];
			const float s =
			    stippled ? p.varying_base[r.stipple_varying] + stipple[0] * lx[i] + stipple[1] * ly[i] : 0.0f;
			alpha[i] *= std::clamp(half - std::abs(d), 0.0f, 1.0f) * SmoothAlong(r, a, length, s);
		}
	}
}

// A quad's four lanes as one vector (GCC's vector extension: each
// operator is the scalar one per lane).
using QuadFloats = float __attribute__((vector_size(16)));
[[gnu::always_inline]] inline QuadFloats LoadQuad(const float* p) {
	QuadFloats v;
	std::memcpy(&v, p, sizeof v);
	return v;
}
[[gnu::always_inline]] inline void StoreQuad(float* p, QuadFloats v) { std::memcpy(p, &v, sizeof v); }

// out[i] = base + a * x[i] + b * y[i] (times w[i] when given) for the
// lanes [begin, end) of a run: a plane at each lane's position. Through
// restrict pointers from the run's first lane, so that the loop becomes
// whole vectors: indexed from `begin` with the arrays possibly overlapping,
// the compiler kept it scalar.
[[gnu::always_inline]] inline void PlaneLanes(float* out, float base, float a, float b, const float* x, const float* y,
                                              const float* w, uint32_t begin, uint32_t end) {
	float* __restrict o = out + begin;
	const float* __restrict px = x + begin;
	const float* __restrict py = y + begin;
	const uint32_t n = end - begin;
	// 16 lanes at a time, then a quad at a time (a small triangle's run
	// is a quad or two, which a loop of unknown length ran as scalars;
	// the compiler does not see that a quad's four lanes are a vector).
	const uint32_t wide = n & ~15u;
	if (w) {
		const float* __restrict pw = w + begin;
		for (uint32_t i = 0; i < wide; ++i) o[i] = (base + a * px[i] + b * py[i]) * pw[i];
		for (uint32_t q = wide; q < n; q += 4)
			StoreQuad(o + q, (base + a * LoadQuad(px + q) + b * LoadQuad(py + q)) * LoadQuad(pw + q));
	} else {
		for (uint32_t i = 0; i < wide; ++i) o[i] = base + a * px[i] + b * py[i];
		for (uint32_t q = wide; q < n; q += 4) StoreQuad(o + q, base + a * LoadQuad(px + q) + b * LoadQuad(py + q));
	}
}

// Hot path: interpolation, the fragment stage, late tests and color writes
// for the batch gathered so far.
// Built for AVX-512 and AVX2 as well, picked at load time where the CPU
// has them: the lane arrays it writes are read back with 64-byte loads
// (memcpy, the compiled shader), which 32-byte stores cannot forward to.
__attribute__((target_clones("avx512f", "avx2", "default"))) void FlushBatch(TileContext& t) {
	FragmentBatch& b = t.batch;
	const uint32_t lanes = 4 * b.quad_count;
	if (!lanes) return;
	const CompiledDraw& d = t.draw;
	const uint32_t samples = d.ops.samples;
	// Runs of quads from one primitive: the lane loops below go over a run.
	// Slots are taken in order, so quad_primitive never decreases: equal
	// ends make one run, without reading back each byte just stored.
	uint32_t run_begin[kMaxBatchQuads + 1], run_count = 0;
	if (t.quad_primitive[0] == t.quad_primitive[b.quad_count - 1])
		run_begin[run_count++] = 0;
	else
		for (uint32_t q = 0; q < b.quad_count; ++q)
			if (q == 0 || t.quad_primitive[q] != t.quad_primitive[q - 1]) run_begin[run_count++] = q;
	run_begin[run_count] = b.quad_count;
	const RasterState& r = d.state.raster;
	const FragmentShader& shader = d.state.shader;
	if (shader.begin) {
		shader.begin(shader.user, b);
	} else {  // (a batch an earlier draw's shader pointed elsewhere)
		for (uint32_t v = 0; v < b.varyings_pointed; ++v) b.varyings[v] = b.varying_storage[v];
		b.varyings_pointed = 0;
	}
	alignas(64) float lx[kMaxBatchLanes], ly[kMaxBatchLanes];
	uint32_t lane_samples[4];
	for (uint32_t l = 0; l < 4; ++l) lane_samples[l] = ((1u << samples) - 1) << (l * samples);
	for (uint32_t q = 0; q < b.quad_count; ++q) {
		const uint32_t coverage = t.coverage[q];
		const float x = float(b.quad_x[q] - t.tile_x) + 0.5f, y = float(b.quad_y[q] - t.tile_y) + 0.5f;
		for (uint32_t l = 0; l < 4; ++l) {
			const uint32_t i = 4 * q + l;
			lx[i] = x + float(l & 1);
			ly[i] = y + float(l >> 1);
			b.live[i] = (coverage & lane_samples[l]) != 0;
		}
	}
	if (shader.reads_frag_coord_xy || d.per_sample) {
		const float x = float(t.tile_x), y = float(t.tile_y);  // exact: small integers plus halves
		for (uint32_t i = 0; i < lanes; ++i) {
			b.frag_coord[0][i] = lx[i] + x;
			b.frag_coord[1][i] = ly[i] + y;
		}
	}
	if (shader.may_discard) std::fill_n(b.discarded, lanes, uint8_t(0));
	if (shader.reads_sample_mask_in) {
		const uint32_t* covered = shader.post_depth_coverage ? t.coverage : t.raster_coverage;
		for (uint32_t q = 0; q < b.quad_count; ++q)
			for (uint32_t l = 0; l < 4; ++l)
				b.sample_mask_in[4 * q + l] = (covered[q] & lane_samples[l]) >> (l * samples);
	}
	if (d.per_sample) {
		// Inputs are interpolated at the sample's location ("Sample
		// Shading": undecorated inputs may use any position in the
		// fragment, Sample ones must use this one), and FragCoord's x and y
		// are that location too (the FragCoord built-in: "when Sample
		// Shading is enabled, the x and y components reflect the location
		// of one of the samples"). Exact: the terms are multiples of 1/256
		// far below 2^24.
		const SampleLocation* loc = StandardSampleLocations(samples);
		for (uint32_t q = 0; q < b.quad_count; ++q) {
			const uint32_t s = t.quad_sample[q];
			const float ox = float(loc[s].x) * (1.0f / 256), oy = float(loc[s].y) * (1.0f / 256);
			for (uint32_t i = 4 * q; i < 4 * q + 4; ++i) {
				lx[i] += ox - 0.5f;
				ly[i] += oy - 0.5f;
				b.frag_coord[0][i] += ox - 0.5f;
				b.frag_coord[1][i] += oy - 0.5f;
				b.sample_id[i] = s;
				b.sample_position[0][i] = ox;
				b.sample_position[1][i] = oy;
			}
		}
	} else if (d.state.shader.per_sample) {
		// A shader that reads SampleId or SamplePosition on a single-sample
		// framebuffer: sample 0, at the pixel's center (the batch memory
		// holds whatever an earlier draw left).
		std::fill_n(b.sample_id, 4 * b.quad_count, 0u);
		std::fill_n(b.sample_position[0], 4 * b.quad_count, 0.5f);
		std::fill_n(b.sample_position[1], 4 * b.quad_count, 0.5f);
	}
	// 1/w_c: read by the shader, and what smooth varyings divide by.
	const bool inv_w = shader.reads_frag_coord_w || d.smooth_varyings;
	for (uint32_t k = 0; k < run_count; ++k) {
		const TilePrimitive& p = t.primitives[t.quad_primitive[run_begin[k]]];
		const SetupTriangle& tri = *p.tri;
		const uint32_t begin = 4 * run_begin[k], end = 4 * run_begin[k + 1];
		if (shader.reads_frag_coord_z)
			PlaneLanes(b.frag_coord[2], p.depth_base, tri.depth[0], tri.depth[1], lx, ly, nullptr, begin, end);
		if (inv_w) PlaneLanes(b.frag_coord[3], p.inv_w_base, tri.inv_w[0], tri.inv_w[1], lx, ly, nullptr, begin, end);
		if (shader.reads_front_facing)
			std::fill(b.front_facing + begin, b.front_facing + end, uint8_t(tri.front_facing));
	}
	alignas(64) float w[kMaxBatchLanes];
	if (inv_w)
		for (uint32_t i = 0; i < lanes; ++i) w[i] = 1.0f / b.frag_coord[3][i];
	// Vulkan 1.3 §15.1.x "Interpolation Decorations": a Centroid input is
	// interpolated at a location inside both the pixel and the primitive.
	// A fully covered pixel (and a helper lane, which covers nothing) uses
	// the pixel center like the other inputs; a partly covered one uses its
	// lowest-numbered covered sample. With sample shading every input is
	// already at a covered sample.
	alignas(64) float cx[kMaxBatchLanes], cy[kMaxBatchLanes], cw[kMaxBatchLanes];
	if (d.centroid_inputs) {
		const SampleLocation* loc = StandardSampleLocations(samples);
		const uint32_t full = (1u << samples) - 1;
		for (uint32_t i = 0; i < lanes; ++i) {
			cx[i] = lx[i], cy[i] = ly[i];
			const uint32_t m = (t.raster_coverage[i / 4] & lane_samples[i % 4]) >> (i % 4 * samples);
			if (m == 0 || m == full) continue;
			const uint32_t s = uint32_t(std::countr_zero(m));
			cx[i] += float(loc[s].x) * (1.0f / 256) - 0.5f;
			cy[i] += float(loc[s].y) * (1.0f / 256) - 0.5f;
		}
		for (uint32_t k = 0; k < run_count; ++k) {
			const TilePrimitive& p = t.primitives[t.quad_primitive[run_begin[k]]];
			const SetupTriangle& tri = *p.tri;
			for (uint32_t i = 4 * run_begin[k]; i < 4 * run_begin[k + 1]; ++i)
				cw[i] = 1.0f / (p.inv_w_base + tri.inv_w[0] * cx[i] + tri.inv_w[1] * cy[i]);
		}
	}
	for (uint32_t v = 0; v < r.varying_count; ++v) {
		float* out = b.varyings[v];
		const bool centroid = d.centroid_inputs && r.centroid[v];
		const float* vx = centroid ? cx : lx;
		const float* vy = centroid ? cy : ly;
		const float* vw = centroid ? cw : w;
		for (uint32_t k = 0; k < run_count; ++k) {
			const TilePrimitive& p = t.primitives[t.quad_primitive[run_begin[k]]];
			const float a = p.planes[3 * v], bb = p.planes[3 * v + 1], base = p.varying_base[v];
			const uint32_t begin = 4 * run_begin[k], end = 4 * run_begin[k + 1];
			// Points carry the vertex's values as constants.
			const bool smooth = r.interpolation[v] == Interpolation::Smooth && p.tri->kind != PrimitiveKind::Point;
			if (r.interpolation[v] == Interpolation::Flat)  // copied, not computed: integer bits survive
				for (uint32_t i = begin; i < end; ++i) std::memcpy(&out[i], &base, 4);
			else  // (a/w) / (1/w), both linear in screen space; flat planes are constant, noperspective ones plain
				PlaneLanes(out, base, a, bb, vx, vy, smooth ? vw : nullptr, begin, end);
		}
	}
	if (t.points) {
		for (uint32_t k = 0; k < run_count; ++k) {
			const TilePrimitive& p = t.primitives[t.quad_primitive[run_begin[k]]];
			const uint32_t begin = 4 * run_begin[k], end = 4 * run_begin[k + 1];
			for (int c = 0; c < 2; ++c) {
				float* out = b.point_coord[c];
				if (p.tri->kind != PrimitiveKind::Point) {
					std::fill(out + begin, out + end, 0.0f);
					continue;
				}
				const float* plane = p.planes + 3 * (r.varying_count + c);
				PlaneLanes(out, p.extra_base[c], plane[0], plane[1], lx, ly, nullptr, begin, end);
			}
		}
	}
	if (d.count_samples && d.count_before_shading)
		for (uint32_t q = 0; q < b.quad_count; ++q) t.samples_passed += uint32_t(__builtin_popcount(t.coverage[q]));
	b.abandoned = false;
	if (shader.run) shader.run(shader.user, b);
	if (b.abandoned) {  // the draw was lost (an endless loop): nothing more is written
		b.quad_count = 0;
		t.primitive_count = 0;
		return;
	}
	if (shader.may_discard) {
		for (uint32_t q = 0; q < b.quad_count; ++q)
			for (uint32_t l = 0; l < 4; ++l)
				if (b.discarded[4 * q + l]) t.coverage[q] &= ~(((1u << samples) - 1) << (l * samples));
	}
	if (shader.writes_sample_mask) {
		for (uint32_t q = 0; q < b.quad_count; ++q)
			for (uint32_t l = 0; l < 4; ++l) {
				const uint32_t keep = (b.sample_mask[4 * q + l] << (l * samples)) & lane_samples[l];
				t.coverage[q] &= ~lane_samples[l] | keep;
			}
	}
	if (r.line_mode == LineMode::Smooth && shader.run) SmoothLineCoverage(t, run_begin, run_count, lx, ly);
	if (r.alpha_to_coverage || r.alpha_to_one) MultisampleCoverage(t);
	if (!d.early_tests && d.has_tests) {
		// In batch order, which is submission order: overlapping quads of
		// different triangles test against each other's results.
		for (uint32_t q = 0; q < b.quad_count; ++q) {
			if (!t.coverage[q]) continue;
			const TilePrimitive& p = t.primitives[t.quad_primitive[q]];
			float depth[16];
			SampleDepths(t, p, b.quad_x[q], b.quad_y[q], shader.writes_depth ? &b.frag_depth[4 * q] : nullptr, depth);
			t.coverage[q] =
			    DepthStencilTests(d.ops, t.fb, b.quad_x[q], b.quad_y[q], depth, t.coverage[q], p.tri->front_facing,
			                      shader.writes_stencil_ref ? &b.stencil_ref[4 * q] : nullptr);
		}
	}
	// Occlusion queries count the samples that passed every test (Vulkan 1.3
	// §18.3 "Occlusion Queries"), whatever is then written.
	if (d.count_samples && !d.count_before_shading)
		for (uint32_t q = 0; q < b.quad_count; ++q) t.samples_passed += uint32_t(__builtin_popcount(t.coverage[q]));
	// Quads of different triangles may cover the same pixels: color goes out
	// in runs without a repeated quad, so each reads what the one before
	// wrote, unless every write just stores in order.
	bool in_order = true;
	for (uint32_t i = 0; i < d.ops.color_count; ++i) in_order &= !d.ops.color[i].write || d.ops.color[i].in_order;
	if (run_count == 1 || in_order) {  // one primitive's quads never repeat
		for (uint32_t i = 0; i < d.ops.color_count; ++i) {
			const ColorOps& c = d.ops.color[i];
			if (c.write) c.write(c, t.fb.color[i], samples, b, i, t.coverage, 0, b.quad_count);
		}
		b.quad_count = 0;
		t.primitive_count = 0;
		return;
	}
	uint64_t seen[kTileSize / 2 * kTileSize / 2 / 64] = {};
	uint32_t write_begin = 0;
	for (uint32_t q = 0; q <= b.quad_count; ++q) {
		uint32_t bit = 0;
		if (q < b.quad_count) {
			bit = uint32_t((b.quad_y[q] - t.tile_y) / 2 * (kTileSize / 2) + (b.quad_x[q] - t.tile_x) / 2);
			if (!(seen[bit / 64] & (uint64_t(1) << (bit % 64)))) {
				seen[bit / 64] |= uint64_t(1) << (bit % 64);
				continue;
			}
		}
		for (uint32_t i = 0; i < d.ops.color_count; ++i) {
			const ColorOps& c = d.ops.color[i];
			if (c.write) c.write(c, t.fb.color[i], samples, b, i, t.coverage, write_begin, q);
		}
		write_begin = q;
		std::fill(std::begin(seen), std::end(seen), 0);
		if (q < b.quad_count) seen[bit / 64] |= uint64_t(1) << (bit % 64);
	}
	b.quad_count = 0;
	t.primitive_count = 0;
}

// kSamples: the draw's sample count (1 or 4), a constant so that the
// per-quad loops over samples unroll.
template <uint32_t kSamples>
void RasterizeTriangleInTile(TileContext& t, const SetupTriangle& tri, const float* planes) {
	const CompiledDraw& d = t.draw;
	constexpr uint32_t samples = kSamples;
	const int32_t x0 = std::max(tri.min_x, t.tile_x), y0 = std::max(tri.min_y, t.tile_y);
	const int32_t x1 = std::min(tri.max_x, t.tile_x + int32_t(kTileSize) - 1);
	const int32_t y1 = std::min(tri.max_y, t.tile_y + int32_t(kTileSize) - 1);
	if (x0 > x1 || y0 > y1) return;
	const RectCoverage rect = ClassifyRect(tri, SampleRect(x0, y0, x1, y1, kSamples));
	if (rect == RectCoverage::Outside) return;
	const DiscardTest discard_test = ClassifyDiscard(d.state.raster, x0, y0, x1, y1);
	if (discard_test.outcome == DiscardTest::Outcome::DropAll) return;
	const bool discards = discard_test.outcome == DiscardTest::Outcome::PerQuad;
	const bool accept_all = rect == RectCoverage::Inside;

	// This triangle's slot in the batch (taken for good once a quad uses it).
	uint32_t slot = t.primitive_count;
	TilePrimitive* p = &t.primitives[slot];
	p->tri = &tri;
	p->planes = planes;
	// Plane values at the tile's origin; lanes add their offsets in float.
	const double ox = double(t.tile_x) - tri.ref_x, oy = double(t.tile_y) - tri.ref_y;
	p->depth_base = float(tri.depth[2] + tri.depth[0] * ox + tri.depth[1] * oy);
	p->inv_w_base = float(tri.inv_w[2] + tri.inv_w[0] * ox + tri.inv_w[1] * oy);
	for (uint32_t v = 0; v < d.state.raster.varying_count; ++v) {
		const float* plane = planes + 3 * v;
		if (d.state.raster.interpolation[v] == Interpolation::Flat)
			std::memcpy(&p->varying_base[v], &plane[2], 4);  // the provoking vertex's bits
		else
			p->varying_base[v] = float(plane[2] + plane[0] * ox + plane[1] * oy);
	}
	if (tri.kind == PrimitiveKind::Point || tri.kind == PrimitiveKind::SmoothLine) {
		for (uint32_t c = 0; c < 2; ++c) {
			const float* plane = planes + 3 * (d.state.raster.varying_count + c);
			p->extra_base[c] = float(plane[2] + plane[0] * ox + plane[1] * oy);
		}
	}

	// Edge offsets of each (lane, sample) from the quad's top-left corner;
	// every sample of a whole-pixel primitive tests the pixel's center.
	const SampleLocation* loc = StandardSampleLocations(samples);
	const bool whole_pixels = tri.kind == PrimitiveKind::BresenhamLine || tri.kind == PrimitiveKind::SmoothLine ||
	                          tri.kind == PrimitiveKind::ConservativeTriangle;
	constexpr uint32_t bits = 4 * samples;
	int64_t offset[3][16];
	for (int e = 0; e < 3; ++e)
		for (uint32_t l = 0; l < 4; ++l)
			for (uint32_t s = 0; s < samples; ++s)
				offset[e][l * samples + s] =
				    tri.edge_a[e] * ((int64_t(l & 1) << kSubPixelBits) + (whole_pixels ? 128 : loc[s].x)) +
				    tri.edge_b[e] * ((int64_t(l >> 1) << kSubPixelBits) + (whole_pixels ? 128 : loc[s].y)) -
				    tri.edge_bias[e];
	for (uint32_t l = 0; l < 4; ++l)
		for (uint32_t s = 0; s < samples; ++s)
			p->depth_offset[l * samples + s] = tri.depth[0] * (float(l & 1) + float(loc[s].x) * (1.0f / 256)) +
			                                   tri.depth[1] * (float(l >> 1) + float(loc[s].y) * (1.0f / 256));
	// Vulkan "Line Stipple": the lanes of a quad whose pixel center the
	// stipple keeps (a smooth line's: whose extent along it keeps some).
	const RasterState& r = d.state.raster;
	const bool stippled = r.stipple_varying < r.varying_count &&
	                      (tri.kind == PrimitiveKind::Line || tri.kind == PrimitiveKind::BresenhamLine ||
	                       tri.kind == PrimitiveKind::SmoothLine);
	auto stipple_lanes = [&](int32_t qx, int32_t qy) {
		const float* sp = planes + 3 * r.stipple_varying;
		const float* along = planes + 3 * r.varying_count + 3;
		const float x = float(qx - t.tile_x) + 0.5f, y = float(qy - t.tile_y) + 0.5f;
		uint32_t keep = 0;
		for (uint32_t l = 0; l < 4; ++l) {
			const float lx = x + float(l & 1), ly = y + float(l >> 1);
			const float s = p->varying_base[r.stipple_varying] + sp[0] * lx + sp[1] * ly;
			// A rectangle's edge through the center goes to the rectangle that
			// begins there: 1/1024 pixel, below the sub-pixel grid.
			const bool kept = tri.kind == PrimitiveKind::SmoothLine
			                      ? SmoothAlong(r, p->extra_base[1] + along[0] * lx + along[1] * ly, along[3], s) > 0
			                      : StippleBit(r, s + 1.0f / 1024.0f);
			keep |= uint32_t(kept) << l;
		}
		return ExpandLanes(keep, samples);
	};
	uint32_t sample_mask = d.state.raster.sample_mask & ((1u << samples) - 1);
	uint32_t quad_sample_mask = 0;
	for (uint32_t l = 0; l < 4; ++l) quad_sample_mask |= sample_mask << (l * samples);

	// The largest offset of each edge: a quad fails every sample of edge e
	// when its corner value plus this is negative.
	// The smallest: every sample of the quad passes edge e when its corner
	// value plus this is at least 0.
	int64_t max_offset[3], min_offset[3];
	for (int e = 0; e < 3; ++e) {
		max_offset[e] = *std::max_element(offset[e], offset[e] + bits);
		min_offset[e] = *std::min_element(offset[e], offset[e] + bits);
	}

	const int32_t qx0 = x0 & ~1, qy0 = y0 & ~1;
	// Only a depth test: straight to it, without the stencil and bounds checks.
	const DepthTestFn depth_only = d.ops.stencil || d.ops.depth_bounds ? nullptr : d.ops.depth_test;
	// And with one sample, every sample on, nothing else per quad: runs of
	// whole quads take it together (depth_test_run).
	const DepthRunFn depth_run = kSamples == 1 && depth_only && d.early_tests && !d.per_sample && !stippled &&
	                                     !discards && quad_sample_mask == 0xf
	                                 ? d.ops.depth_test_run
	                                 : nullptr;
	float depth[16];
	bool slot_used = false;
	// The batch's quad count, kept here and stored when the batch is shaded
	// and at the end: the byte stores below may alias anything, and reading
	// it back after each quad's stores waited on them.
	uint32_t count = t.batch.quad_count;
	// A batch that filled is shaded; this triangle goes on in slot 0 of the next.
	auto flush_full = [&] {
		t.batch.quad_count = count;
		FlushBatch(t);  // reads the primitives, never changes them
		count = 0;
		if (slot != 0) MovePrimitive(t.primitives[0], *p, d.state.raster.varying_count);
		slot = 0;
		p = &t.primitives[0];
		slot_used = false;
	};
	auto use_slot = [&] {  // taken for good once a quad uses it
		if (!slot_used) {
			slot_used = true;
			++t.primitive_count;
		}
	};
	// Pixel interlock with sample shading: a quad's samples, which follow
	// each other, go to batches of their own.
	const bool sample_apart = d.per_sample && d.state.shader.interlock == FragmentShader::Interlock::kPixel;
	// covered: the quad's coverage before the early tests.
	auto add = [&](int32_t qx, int32_t qy, uint32_t quad_mask, uint32_t sample, uint32_t covered) {
		if (sample_apart && count && t.batch.quad_x[count - 1] == qx && t.batch.quad_y[count - 1] == qy) flush_full();
		use_slot();
		FragmentBatch& b = t.batch;
		const uint32_t n = count;
		b.quad_x[n] = qx;
		b.quad_y[n] = qy;
		t.coverage[n] = quad_mask;
		t.raster_coverage[n] = covered;
		t.quad_primitive[n] = uint8_t(slot);
		t.quad_sample[n] = uint8_t(sample);
		count = n + 1;
		if (count == kMaxBatchQuads) flush_full();
	};
	// A box the triangle covers whole, with nothing to test per quad: each
	// row's inner quads (both columns inside the box) all take the row's
	// mask and go into the batch a run at a time; only the end quads of a
	// row that straddle the box's edge take the loop below.
	const bool whole_rows = accept_all && !d.per_sample && !(d.early_tests && d.has_tests) && !stippled && !discards;
	for (int32_t qy = qy0; qy <= y1; qy += 2) {
		uint32_t row_lanes = 0xf;
		if (qy < y0) row_lanes &= 0xc;  // top row of the quad above the rectangle
		if (qy + 1 > y1) row_lanes &= 0x3;
		if (whole_rows) {
			int32_t qx = qx0;
			if (qx < x0) {  // left column outside the box
				const uint32_t mask = ExpandLanes(row_lanes & 0xa, samples) & quad_sample_mask;
				if (mask) add(qx, qy, mask, 0, mask);
				qx += 2;
			}
			const uint32_t mask = ExpandLanes(row_lanes, samples) & quad_sample_mask;
			while (qx + 1 <= x1) {
				const uint32_t quads = uint32_t(x1 + 1 - qx) / 2;
				if (!mask) {
					qx += 2 * int32_t(quads);
					break;
				}
				use_slot();
				FragmentBatch& b = t.batch;
				const uint32_t n = count, run = std::min(quads, kMaxBatchQuads - n);
				// (Restrict: the arrays do not overlap, so the loop vectorizes.)
				int32_t* __restrict xs = b.quad_x + n;
				int32_t* __restrict ys = b.quad_y + n;
				uint32_t* __restrict coverage = t.coverage + n;
				uint32_t* __restrict raster_coverage = t.raster_coverage + n;
				uint8_t* __restrict primitive = t.quad_primitive + n;
				for (uint32_t k = 0; k < run; ++k) {
					xs[k] = qx + 2 * int32_t(k);
					ys[k] = qy;
					coverage[k] = mask;
					raster_coverage[k] = mask;
					primitive[k] = uint8_t(slot);
				}
				count = n + run;
				qx += 2 * int32_t(run);
				if (count == kMaxBatchQuads) flush_full();
			}
			if (qx <= x1) {  // right column outside the box
				const uint32_t last = ExpandLanes(row_lanes & 0x5, samples) & quad_sample_mask;
				if (last) add(qx, qy, last, 0, last);
			}
			continue;
		}
		int64_t e0 = EdgeAt(tri, 0, int64_t(qx0) << kSubPixelBits, int64_t(qy) << kSubPixelBits);
		int64_t e1 = EdgeAt(tri, 1, int64_t(qx0) << kSubPixelBits, int64_t(qy) << kSubPixelBits);
		int64_t e2 = EdgeAt(tri, 2, int64_t(qx0) << kSubPixelBits, int64_t(qy) << kSubPixelBits);
		const int64_t s0 = int64_t(tri.edge_a[0]) * 512, s1 = int64_t(tri.edge_a[1]) * 512,
		              s2 = int64_t(tri.edge_a[2]) * 512;
		int32_t qx = qx0;
		if (!accept_all) {
			// Skip the quads left of the triangle at once: those that fail
			// every sample of an edge rising to the right (they would give
			// an empty mask, and none of them can end the row early that a
			// later quad would not end the same way).
			const int64_t e[3] = {e0, e1, e2}, step[3] = {s0, s1, s2};
			int64_t skip = 0;
			for (int k = 0; k < 3; ++k) {
				const int64_t v = e[k] + max_offset[k];
				if (step[k] > 0 && v < 0) skip = std::max(skip, (-v + step[k] - 1) / step[k]);
			}
			skip = std::min<int64_t>(skip, (x1 - qx0) / 2 + 1);
			qx += 2 * int32_t(skip);
			e0 += skip * s0, e1 += skip * s1, e2 += skip * s2;
		}
		for (; qx <= x1; qx += 2, e0 += s0, e1 += s1, e2 += s2) {
			if (depth_run && row_lanes == 0xf && qx >= x0 &&
			    (accept_all || (e0 + min_offset[0] >= 0 && e1 + min_offset[1] >= 0 && e2 + min_offset[2] >= 0))) {
				// This quad and the next ones with every sample inside each
				// edge and both columns inside the box, up to the first whose
				// falling edge leaves it.
				uint32_t quads = uint32_t(x1 + 1 - qx) / 2;
				if (!accept_all) {
					const int64_t e[3] = {e0, e1, e2}, step[3] = {s0, s1, s2};
					for (int k = 0; k < 3; ++k)
						if (step[k] < 0)
							quads = uint32_t(std::min<int64_t>(quads, (e[k] + min_offset[k]) / -step[k] + 1));
				}
				if (quads > 1) {
					alignas(64) float run_depth[2 * kTileSize];
					uint32_t pass[kTileSize / 2];
					for (uint32_t k = 0; k < quads; ++k)
						SampleDepths<1>(t, *p, qx + 2 * int32_t(k), qy, nullptr, run_depth + 4 * k);
					depth_run(t.fb.depth, qx, qy, quads, run_depth, pass);
					for (uint32_t k = 0; k < quads; ++k)
						if (pass[k]) add(qx + 2 * int32_t(k), qy, pass[k], 0, 0xf);
					const int32_t skipped = int32_t(quads) - 1;  // the loop steps past the last
					qx += 2 * skipped, e0 += skipped * s0, e1 += skipped * s1, e2 += skipped * s2;
					continue;
				}
			}
			uint32_t lanes = row_lanes;
			if (qx < x0) lanes &= 0xa;
			if (qx + 1 > x1) lanes &= 0x5;
			uint32_t mask = ExpandLanes(lanes, samples) & quad_sample_mask;
			// A quad with all its samples inside every edge (most of a large
			// triangle's) skips the per-sample tests.
			if (!accept_all && !(e0 + min_offset[0] >= 0 && e1 + min_offset[1] >= 0 && e2 + min_offset[2] >= 0)) {
				uint32_t in0 = 0, in1 = 0, in2 = 0;
				for (uint32_t k = 0; k < bits; ++k) {
					in0 |= uint32_t(e0 + offset[0][k] >= 0) << k;
					in1 |= uint32_t(e1 + offset[1][k] >= 0) << k;
					in2 |= uint32_t(e2 + offset[2][k] >= 0) << k;
				}
				// Past the triangle: an edge whose function falls to the right
				// fails every sample of this quad, so it fails all quads after it.
				if ((!in0 && tri.edge_a[0] <= 0) || (!in1 && tri.edge_a[1] <= 0) || (!in2 && tri.edge_a[2] <= 0)) break;
				mask &= in0 & in1 & in2;
			}
			if (stippled) mask &= stipple_lanes(qx, qy);
			if (discards) mask &= ExpandLanes(discard_test.Lanes(qx, qy), samples);
			if (!mask) continue;
			const uint32_t covered = mask;
			if (d.early_tests && d.has_tests) {
				SampleDepths<kSamples>(t, *p, qx, qy, nullptr, depth);
				mask = depth_only ? depth_only(t.fb.depth, samples, qx, qy, depth, mask)
				                  : DepthStencilTests(d.ops, t.fb, qx, qy, depth, mask, tri.front_facing);
				if (!mask) continue;
			}
			if (!d.per_sample) {
				add(qx, qy, mask, 0, covered);
				continue;
			}
			// Sample shading: one batch quad a sample index (of 4), its
			// coverage that sample's bits.
			for (uint32_t s = 0; s < samples; ++s)
				if (mask & (0x1111u << s)) add(qx, qy, mask & (0x1111u << s), s, covered & (0x1111u << s));
		}
	}
	t.batch.quad_count = count;
}

}  // namespace

const SampleLocation* StandardSampleLocations(uint32_t samples) { return samples == 4 ? kFourSamples : kOneSample; }

namespace {

// The binning hid what one primitive covering the tile overwrites; two can
// cover it together: the two triangles of a quad, on the tiles its
// diagonal crosses. Two triangles share an edge when one has the other's
// edge function negated (the same two vertices, SetupEdges): every sample
// on that line belongs to exactly one of them (the biases are
// complementary), so a sample inside both triangles' other four edges lies
// in one or the other. The region (the tile inside the scissor) is covered
// when its corners hold those four edges. Consecutive entries near the end
// are checked; returns the first entry a later pair does not wholly hide.
uint32_t FirstVisible(const Renderer::Binned& b, int32_t tile_x, int32_t tile_y, uint32_t begin, uint32_t end) {
	constexpr uint32_t kMostPairs = 4;
	FixedRect r;
	if (!TileRegion(b.draw.setup, b.draw.ops.samples, tile_x, tile_y, &r)) return begin;
	auto holds = [&](const SetupTriangle& t, int e) { return CornersIn(t, e, r.x0, r.y0, r.x1, r.y1) == 4; };
	for (uint32_t k = end - 1, pairs = 0; k > begin && pairs < kMostPairs; --k, ++pairs) {
		const SetupTriangle& p = b.Triangle(b.entries[k - 1]);
		const SetupTriangle& q = b.Triangle(b.entries[k]);
		// (A Bresenham line's box bounds it too; it is never one of such a pair.)
		if (p.kind == PrimitiveKind::BresenhamLine || q.kind == PrimitiveKind::BresenhamLine) continue;
		for (int i = 0; i < 3; ++i)
			for (int j = 0; j < 3; ++j) {
				if (p.edge_a[i] != -q.edge_a[j] || p.edge_b[i] != -q.edge_b[j] || p.edge_c[i] != -q.edge_c[j] ||
				    p.edge_bias[i] + q.edge_bias[j] != 1 || (p.edge_a[i] == 0 && p.edge_b[i] == 0))
					continue;
				if (holds(p, (i + 1) % 3) && holds(p, (i + 2) % 3) && holds(q, (j + 1) % 3) && holds(q, (j + 2) % 3))
					return k - 1;
			}
	}
	return begin;
}

// The targets of the rasterizer's tile at (x0, y0) as rows of texels: a
// tiled color target (ColorTarget::tile_shift) becomes its tile that holds
// the rasterizer's, rows of 2^s texels, based so that pixel (x, y) of the
// tile is at base + y * row_pitch + x * size as in any target.
Framebuffer LocalTargets(const Framebuffer& fb, uint32_t x0, uint32_t y0) {
	Framebuffer local = fb;
	for (uint32_t i = 0; i < fb.color_count; ++i) {
		const ColorTarget& c = fb.color[i];
		if (!c.base || !c.tile_shift) continue;
		const uint32_t s = c.tile_shift, side = 1u << s, size = texture::FindFormat(c.format)->block_size;
		assert(side >= kTileSize);
		const uint32_t tx = x0 & ~(side - 1), ty = y0 & ~(side - 1);
		const uintptr_t tile = uintptr_t(c.base) + uintptr_t(texture::TiledOffset(c.row_pitch, size, s, tx, ty));
		// (An address outside the tile that only the sums with y and x bring
		// back into it.)
		local.color[i].base = reinterpret_cast<uint8_t*>(tile - (uintptr_t(ty) * side + tx) * size);
		local.color[i].row_pitch = uint64_t(side) * size;
		local.color[i].tile_shift = 0;
	}
	local.tiled_colors = false;
	return local;
}

// The primitives of busy tile `busy` of a binned draw, in order, into the
// tile's batch (flushed as it fills).
void RasterizeEntries(TileContext& context, const Renderer::Binned& b, uint32_t busy) {
	const CompiledDraw& draw = b.draw;
	const uint32_t end = b.busy_begin[busy + 1];
	uint32_t begin = b.busy_begin[busy];
	if (draw.Hides() && end - begin > 1) begin = FirstVisible(b, context.tile_x, context.tile_y, begin, end);
	// A batch holds quads of up to kMaxBatchQuads triangles; with ordered
	// attachment reads, of one (its quads do not overlap), so each
	// triangle's shader reads what the triangles before it wrote.
	// Likewise with fragment shader interlock (FragmentShader::interlock).
	const uint32_t batch_primitives =
	    draw.state.shader.ordered_attachment_reads || draw.state.shader.interlock != FragmentShader::Interlock::kNone
	        ? 1
	        : kMaxBatchQuads;
	for (uint32_t k = begin; k < end; ++k) {
		// A tile's triangles lie anywhere in the setup arrays: fetch ahead.
		if (k + 4 < end) __builtin_prefetch(&b.Triangle(b.entries[k + 4]));
		if (k + 2 < end) __builtin_prefetch(b.Planes(b.entries[k + 2]));
		const SetupTriangle& tri = b.Triangle(b.entries[k]);
		if (context.primitive_count == batch_primitives) FlushBatch(context);
		const float* planes = b.Planes(b.entries[k]);
		if (draw.ops.samples == 1)
			RasterizeTriangleInTile<1>(context, tri, planes);
		else
			RasterizeTriangleInTile<4>(context, tri, planes);
	}
}

// Busy tiles of consecutive binned draws that do the same fragment work
// (Binned::run; one draw in Renderer::Draw), all in one tile: their
// primitives in order, through one batch, so the quads of many small draws
// share its flushes. `busy[k]`: draw k's busy tile index. Returns the
// samples that passed when the draws count them.
uint64_t RasterizeTile(const Renderer::Binned* const* draws, const uint32_t* busy, uint32_t count) {
	const Renderer::Binned& first = *draws[0];
	const uint32_t tile = first.busy[busy[0]];
	FragmentBatch batch;
	batch.quad_count = 0;
	const int32_t tile_x = int32_t(tile % first.tiles_x * kTileSize),
	              tile_y = int32_t(tile / first.tiles_x * kTileSize);
	// (Only tiled targets need a copy made for the tile.)
	std::optional<Framebuffer> local;
	if (first.fb.tiled_colors) local = LocalTargets(first.fb, uint32_t(tile_x), uint32_t(tile_y));
	TileContext context{first.draw, local ? *local : first.fb, tile_x, tile_y, batch, first.points};
	for (uint32_t k = 0; k < count; ++k) RasterizeEntries(context, *draws[k], busy[k]);
	FlushBatch(context);
	return context.samples_passed;
}

uint64_t RasterizeTile(const Renderer::Binned& b, uint32_t busy) {
	const Renderer::Binned* draws[1] = {&b};
	return RasterizeTile(draws, &busy, 1);
}

// Whether a draw queued right after `a` does the same fragment work (the
// same targets, CompiledDraw and primitive kind), so that its quads may
// share a batch with a's: the compiled setup and fragment operations are
// made from the state and the targets alone. The state's floats must
// match bit for bit (== takes -0 for 0, and a blend constant or a depth
// range of -0 can leave a -0 in a float attachment).
bool SameFragmentWork(const Renderer::Binned& a, const Renderer::Binned& b) {
	const DrawState &x = a.draw.state, &y = b.draw.state;
	if (!(x == y && a.fb == b.fb && a.points == b.points && a.draw.count_samples == b.draw.count_samples &&
	      a.draw.overwrites == b.draw.overwrites))
		return false;
	auto floats = [](const DrawState& s) {
		const RasterState& r = s.raster;
		const Viewport& v = r.viewport;
		const float* c = s.blend.constants;
		return std::array{r.depth_bias_constant,
		                  r.depth_bias_clamp,
		                  r.depth_bias_slope,
		                  v.x,
		                  v.y,
		                  v.width,
		                  v.height,
		                  v.min_depth,
		                  v.max_depth,
		                  r.line_width,
		                  r.min_sample_shading,
		                  s.depth_stencil.min_depth_bounds,
		                  s.depth_stencil.max_depth_bounds,
		                  c[0],
		                  c[1],
		                  c[2],
		                  c[3]};
	};
	const auto fx = floats(x), fy = floats(y);
	return std::equal(fx.begin(), fx.end(), fy.begin(),
	                  [](float p, float q) { return std::bit_cast<uint32_t>(p) == std::bit_cast<uint32_t>(q); });
}

// Fetches a tile's attachment memory into the cache before its primitives
// are drawn: the tile's rows lie a row pitch apart, which the hardware
// prefetchers do not follow, and otherwise the first quad to reach each
// row waits for it (the depth loads of a full-screen pass of small
// triangles were a fifth of their time).
void PrefetchTile(const Framebuffer& fb, uint32_t tile, uint32_t tiles_x) {
	const uint32_t x0 = tile % tiles_x * kTileSize, y0 = tile / tiles_x * kTileSize;
	const uint32_t width = std::min(kTileSize, fb.width - x0), height = std::min(kTileSize, fb.height - y0);
	auto rows = [&](const uint8_t* base, uint64_t pitch, uint32_t bytes_per_pixel) {
		if (!base) return;
		const uint64_t bytes = uint64_t(width) * bytes_per_pixel;
		const uint8_t* row = base + uint64_t(y0) * pitch + uint64_t(x0) * bytes_per_pixel;
		for (uint32_t y = 0; y < height; ++y, row += pitch)
			for (uint64_t k = 0; k < bytes; k += 64) __builtin_prefetch(row + k, 1);
	};
	const uint32_t samples = fb.samples;
	if (fb.depth.base)
		rows(fb.depth.base, fb.depth.row_pitch, samples * (fb.depth.format == VK_FORMAT_D16_UNORM ? 2 : 4));
	rows(fb.stencil.base, fb.stencil.row_pitch, samples);
	for (uint32_t i = 0; i < fb.color_count; ++i) {
		const texture::FormatInfo* f = fb.color[i].base ? texture::FindFormat(fb.color[i].format) : nullptr;
		if (f && !fb.color[i].tile_shift) rows(fb.color[i].base, fb.color[i].row_pitch, samples * f->block_size);
	}
}

bool SameTargets(const Framebuffer& a, const Framebuffer& b) {
	if (a.width != b.width || a.height != b.height || a.samples != b.samples || a.color_count != b.color_count ||
	    a.depth.base != b.depth.base || a.depth.format != b.depth.format || a.stencil.base != b.stencil.base)
		return false;
	for (uint32_t i = 0; i < a.color_count; ++i)
		if (a.color[i].base != b.color[i].base || a.color[i].format != b.color[i].format ||
		    a.color[i].row_pitch != b.color[i].row_pitch || a.color[i].tile_shift != b.color[i].tile_shift)
			return false;
	return true;
}

}  // namespace

Renderer::Renderer(runtime::ThreadPool* pool) : pool_(pool) {}
Renderer::~Renderer() { FinishFlight(); }

size_t Renderer::ScratchBytes() const {
	size_t bytes = (tile_begin_.capacity() + tile_hidden_.capacity() + tile_seen_.capacity() + assembled_.capacity()) *
	                   sizeof(uint32_t) +
	               tile_samples_.capacity() * sizeof(uint64_t);
	for (const Work* w : {&work_, &flight_work_})
		bytes +=
		    (w->begin.capacity() + w->tiles.capacity()) * sizeof(uint32_t) + w->items.capacity() * sizeof(TileWork);
	for (const Draws* draws : {&binned_, &flight_}) {
		bytes += draws->capacity() * sizeof(binned_[0]);
		for (const auto& b : *draws) bytes += b->Bytes();
	}
	return bytes;
}

CompiledDraw CompileDraw(const DrawState& state, const Framebuffer& fb) {
	CompiledDraw d;
	d.state = state;
	d.state.raster.samples = fb.samples;
	d.setup = MakePrimitiveSetupState(d.state.raster, fb.width, fb.height,
	                                  fb.depth.base ? fb.depth.format : VK_FORMAT_UNDEFINED);
	d.ops = CompileFragmentOps(d.state, fb);
	// Vulkan 1.3 §29.4 (early fragment tests): without the execution mode,
	// tests may still run early when the shader can neither discard, write
	// depth nor write memory, as nothing can then tell the difference.
	const FragmentShader& s = state.shader;
	// Alpha to coverage removes samples after shading, before the tests
	// ("Multisample Coverage"), so it too keeps them late unless the shader asks for early.
	d.early_tests = s.early_fragment_tests ||
	                (!s.writes_depth && !s.writes_stencil_ref && !s.may_discard && !s.writes_sample_mask &&
	                 !s.writes_memory && !s.reads_attachments && !state.raster.alpha_to_coverage);
	d.has_tests = d.ops.depth_test || d.ops.stencil || d.ops.depth_bounds;
	d.count_before_shading = s.early_fragment_tests;
	// Vulkan 1.3 "Sample Shading": at least
	// max(ceil(minSampleShading * samples), 1) invocations a fragment; more
	// than one means one a sample here. SampleId / SamplePosition in the
	// shader ask for 1.0.
	const uint32_t samples = fb.samples;
	d.per_sample =
	    samples > 1 &&
	    (s.per_sample || (state.raster.sample_shading && state.raster.min_sample_shading * float(samples) > 1.0f));
	const RasterState& r = state.raster;
	d.centroid_inputs =
	    samples > 1 && !d.per_sample && std::any_of(r.centroid, r.centroid + r.varying_count, [](bool c) { return c; });
	d.smooth_varyings = std::any_of(r.interpolation, r.interpolation + r.varying_count,
	                                [](Interpolation i) { return i == Interpolation::Smooth; });
	const uint32_t all_samples = (1u << samples) - 1;
	d.overwrites = !d.has_tests && !s.may_discard && !s.writes_sample_mask && !s.writes_memory &&
	               !s.reads_attachments && !state.raster.alpha_to_coverage && r.stipple_varying == kNoVarying &&
	               r.discard_rectangle_count == 0 && (state.raster.sample_mask & all_samples) == all_samples;
	for (uint32_t i = 0; i < d.ops.color_count; ++i) {
		const ColorOps& c = d.ops.color[i];
		if (c.write && (c.blend.blend_enable || c.logic_op || !c.full_write)) d.overwrites = false;
	}
	return d;
}

void Renderer::ParallelFor(uint32_t count, const std::function<void(uint32_t)>& body) {
	if (pool_)
		pool_->ParallelFor(count, body);
	else
		for (uint32_t i = 0; i < count; ++i) body(i);
}

namespace {

// Primitives [first, first + count) of a list of primitives of
// per_primitive vertices.
VertexInput Slice(const RasterState& r, const VertexInput& list, uint32_t per_primitive, uint32_t first,
                  uint32_t count) {
	VertexInput part = list;
	const size_t vertex = size_t(first) * per_primitive;
	part.vertex_count = count * per_primitive;
	if (list.indices) {
		part.indices += vertex;
		return part;
	}
	part.positions += 4 * vertex;
	if (part.varyings) part.varyings += r.varying_count * vertex;
	if (part.clip_distances) part.clip_distances += r.clip_distance_count * vertex;
	if (part.point_sizes) part.point_sizes += vertex;
	return part;
}

}  // namespace

VertexInput Renderer::AsList(const CompiledDraw& draw, const VertexInput& vertex_input) {
	VertexInput input = vertex_input;
	if (input.topology == Topology::TriangleStrip || input.topology == Topology::TriangleFan) {
		assembled_.clear();
		AssembleTriangles(input, draw.state.raster.provoking_vertex_last, assembled_);
		input.indices = assembled_.data();
		input.vertex_count = uint32_t(assembled_.size());
		input.topology = Topology::TriangleList;
	} else if (input.topology == Topology::LineStrip) {
		assembled_.clear();
		AssembleLines(input, assembled_);
		input.indices = assembled_.data();
		input.vertex_count = uint32_t(assembled_.size());
		input.topology = Topology::LineList;
	} else if (input.primitive_restart && input.indices) {
		assembled_.clear();
		AssembleList(input, ListVertexCount(input.topology), assembled_);
		input.indices = assembled_.data();
		input.vertex_count = uint32_t(assembled_.size());
		input.primitive_restart = false;
	}
	return input;
}

void Renderer::Bin(Binned& b, const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input) {
	b.draw = draw;
	b.fb = fb;
	b.chunk_count = 0;
	b.busy.clear();
	b.busy_begin.assign(1, 0);
	b.covered.clear();
	b.entries.clear();
	b.area = 0;
	b.primitives = 0;
	auto process = &ProcessTriangle;
	uint32_t vertices_per_primitive = 3;
	if (input.topology == Topology::LineList) process = &ProcessLine, vertices_per_primitive = 2;
	if (input.topology == Topology::PointList) process = &ProcessPoint, vertices_per_primitive = 1;
	b.points = input.topology == Topology::PointList ||
	           (vertices_per_primitive == 3 && draw.state.raster.polygon_mode == VK_POLYGON_MODE_POINT);
	// Primitives, triangles or not, go through setup and the tiles alike.
	const uint32_t triangle_count = input.vertex_count / vertices_per_primitive;
	b.primitives = triangle_count;
	if (!triangle_count || fb.width == 0 || fb.height == 0) return;
	b.tiles_x = (fb.width + kTileSize - 1) / kTileSize;
	const uint32_t tiles_x = b.tiles_x, tiles_y = (fb.height + kTileSize - 1) / kTileSize;
	const uint32_t tile_count = tiles_x * tiles_y;
	const uint32_t chunk_count = (triangle_count + kTriangleChunk - 1) / kTriangleChunk;
	if (b.chunks.size() < chunk_count) b.chunks.resize(chunk_count);
	b.chunk_count = chunk_count;

	// Primitive processing and binning, chunk by chunk in parallel.
	const PrimitiveSetupState& setup = draw.setup;
	// An indexed mesh names each vertex several times (a grid's about six):
	// its vertices' screen positions and outcodes are made once each, in
	// parallel, instead of once for every triangle that uses them.
	const PreparedVertex* prepared = nullptr;
	uint32_t prepared_first = 0;  // the vertex prepared[0] is
	if (process == &ProcessTriangle && input.indices && draw.state.raster.polygon_mode == VK_POLYGON_MODE_FILL &&
	    triangle_count >= 4 * kTriangleChunk) {
		// (A large draw's pass names a band of the mesh's vertices.)
		const uint32_t index_count = 3 * triangle_count;
		uint32_t lowest = UINT32_MAX, highest = 0;
		for (uint32_t i = 0; i < index_count; ++i) {
			lowest = std::min(lowest, input.indices[i]);
			highest = std::max(highest, input.indices[i]);
		}
		const uint64_t vertices = uint64_t(highest) - lowest + 1;
		if (vertices * 2 <= index_count) {
			prepared_.resize(vertices);
			constexpr uint32_t kBlock = 4096;
			const uint32_t blocks = uint32_t((vertices + kBlock - 1) / kBlock);
			ParallelFor(blocks, [&](uint32_t k) {
				const uint32_t first = k * kBlock;
				PrepareVertices(setup, input, lowest + first, uint32_t(std::min<uint64_t>(kBlock, vertices - first)),
				                prepared_.data() + first);
			});
			prepared = prepared_.data();
			prepared_first = lowest;
		}
	}
	const bool hides = draw.Hides();
	const uint32_t samples = draw.ops.samples;
	ParallelFor(chunk_count, [&](uint32_t c) {
		Binned::Chunk& chunk = b.chunks[c];
		chunk.setup.Clear();
		chunk.bins.clear();
		uint32_t end = std::min(triangle_count, (c + 1) * kTriangleChunk);
		if (prepared)
			for (uint32_t i = c * kTriangleChunk; i < end; ++i)
				ProcessPreparedTriangle(setup, input, prepared, prepared_first, i, chunk.setup);
		else
			for (uint32_t i = c * kTriangleChunk; i < end; ++i) process(setup, input, i, chunk.setup);
		const auto& tris = chunk.setup.triangles;
		chunk.area = 0;
		for (uint32_t i = 0; i < tris.size(); ++i) {
			const SetupTriangle& t = tris[i];
			chunk.area += uint64_t(t.max_x - t.min_x + 1) * uint64_t(t.max_y - t.min_y + 1);
			uint32_t tx0 = uint32_t(t.min_x) / kTileSize, tx1 = uint32_t(t.max_x) / kTileSize;
			uint32_t ty0 = uint32_t(t.min_y) / kTileSize, ty1 = uint32_t(t.max_y) / kTileSize;
			bool single = tx0 == tx1 && ty0 == ty1;
			for (uint32_t ty = ty0; ty <= ty1; ++ty) {
				for (uint32_t tx = tx0; tx <= tx1; ++tx) {
					if (!single) {
						const int32_t x = int32_t(tx * kTileSize), y = int32_t(ty * kTileSize);
						const FixedRect tile =
						    SampleRect(x, y, x + int32_t(kTileSize) - 1, y + int32_t(kTileSize) - 1, samples);
						if (ClassifyRect(t, tile) == RectCoverage::Outside) continue;
					}
					uint64_t entry = (uint64_t(ty * tiles_x + tx) << 32) | i;
					// (The region lies inside the scissor.)
					FixedRect r;
					if (hides && TileRegion(setup, samples, int32_t(tx * kTileSize), int32_t(ty * kTileSize), &r) &&
					    ClassifyRect(t, r) == RectCoverage::Inside && BoxHolds(t, r))
						entry |= kCoversTile;
					chunk.bins.push_back(entry);
				}
			}
		}
	});

	// Per-tile lists, chunks in order: submission order within every tile.
	// Entries before a tile's last covering primitive are dropped.
	uint64_t entry_count = 0;
	for (uint32_t c = 0; c < chunk_count; ++c) {
		b.area += b.chunks[c].area;
		entry_count += b.chunks[c].bins.size();
	}
	if (entry_count * 4 <= tile_count) {
		// Few entries (a small draw): sorted by tile, in submission order
		// within one, instead of counted over every tile of the framebuffer.
		sorted_.clear();
		for (uint32_t c = 0; c < chunk_count; ++c)
			for (uint64_t e : b.chunks[c].bins) sorted_.push_back(SortedEntry{e, c});
		// (Tile, chunk, triangle) is unique and orders a tile's entries as submitted.
		std::sort(sorted_.begin(), sorted_.end(), [](const SortedEntry& x, const SortedEntry& y) {
			const uint64_t xt = x.bin >> 32, yt = y.bin >> 32;
			if (xt != yt) return xt < yt;
			if (x.chunk != y.chunk) return x.chunk < y.chunk;
			return (uint32_t(x.bin) & ~uint32_t(kCoversTile)) < (uint32_t(y.bin) & ~uint32_t(kCoversTile));
		});
		for (size_t k = 0; k < sorted_.size();) {
			const uint32_t tile = uint32_t(sorted_[k].bin >> 32);
			size_t end = k, first = k;
			bool covers = false;
			for (; end < sorted_.size() && uint32_t(sorted_[end].bin >> 32) == tile; ++end)
				if (sorted_[end].bin & kCoversTile) first = end, covers = true;
			for (size_t i = first; i < end; ++i)
				b.entries.push_back(Binned::Entry{sorted_[i].chunk, uint32_t(sorted_[i].bin) & ~uint32_t(kCoversTile)});
			b.busy.push_back(tile);
			b.busy_begin.push_back(uint32_t(b.entries.size()));
			b.covered.push_back(covers);
			k = end;
		}
		return;
	}
	tile_begin_.assign(tile_count + 1, 0);
	tile_hidden_.assign(tile_count, 0);
	if (hides) tile_covered_.assign(tile_count, 0);
	for (uint32_t c = 0; c < chunk_count; ++c) {
		for (uint64_t e : b.chunks[c].bins) {
			const uint32_t tile = uint32_t(e >> 32);
			if (e & kCoversTile) tile_hidden_[tile] = tile_begin_[tile + 1], tile_covered_[tile] = 1;
			++tile_begin_[tile + 1];
		}
	}
	for (uint32_t i = 0; i < tile_count; ++i) {
		const uint32_t kept = tile_begin_[i + 1] - tile_hidden_[i];
		tile_begin_[i + 1] = tile_begin_[i] + kept;
		if (kept) {
			b.busy.push_back(i);
			b.busy_begin.push_back(tile_begin_[i + 1]);
			b.covered.push_back(hides && tile_covered_[i]);
		}
	}
	b.entries.resize(tile_begin_[tile_count]);
	tile_seen_.assign(tile_count, 0);
	for (uint32_t c = 0; c < chunk_count; ++c)
		for (uint64_t e : b.chunks[c].bins) {
			const uint32_t tile = uint32_t(e >> 32);
			if (tile_seen_[tile]++ < tile_hidden_[tile]) continue;
			b.entries[tile_begin_[tile]++] = Binned::Entry{c, uint32_t(e) & ~uint32_t(kCoversTile)};
		}
}

uint64_t Renderer::Draw(const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& vertex_input) {
	Flush();  // what was queued comes first
	if (binned_.empty()) binned_.push_back(std::make_unique<Binned>());
	Binned& b = *binned_[0];
	// A large draw is set up, binned and rasterized pass_primitives_ at a
	// time, in order: its set-up triangles (120 bytes each, and 12 bytes a
	// varying of planes) never need to be held all at once. (A pass's tile
	// hiding sees only its own primitives; the earlier passes' are drawn by
	// then.)
	const VertexInput input = AsList(draw, vertex_input);
	const uint32_t per_primitive = ListVertexCount(input.topology);
	const uint32_t primitives = input.vertex_count / per_primitive;
	uint64_t samples = 0;
	for (uint64_t first = 0; first == 0 || first < primitives; first += pass_primitives_) {
		const uint32_t count = uint32_t(std::min<uint64_t>(primitives - first, pass_primitives_));
		Bin(b, draw, fb, Slice(draw.state.raster, input, per_primitive, uint32_t(first), count));
		tile_samples_.assign(b.busy.size(), 0);
		// A small draw runs on the caller: waking the workers costs more than
		// its pixels (many small meshes are drawn one draw each).
		auto rasterize = [&](uint32_t i) {
			PrefetchTile(b.fb, b.busy[i], b.tiles_x);
			tile_samples_[i] = RasterizeTile(b, i);
		};
		if (b.area <= kInlinePixels)
			for (uint32_t i = 0; i < b.busy.size(); ++i) rasterize(i);
		else
			ParallelFor(uint32_t(b.busy.size()), rasterize);
		for (uint64_t n : tile_samples_) samples += n;
	}
	return samples;
}

bool Renderer::CanQueue(const Framebuffer& fb, uint64_t primitives) const {
	if (queued_count_ == 0) return primitives <= kMaxQueuedPrimitives;
	return queued_count_ < kMaxQueuedDraws && queued_primitives_ + primitives <= kMaxQueuedPrimitives &&
	       SameTargets(binned_[0]->fb, fb);
}

void Renderer::Queue(const CompiledDraw& draw, const Framebuffer& fb, const VertexInput& input) {
	if (queued_count_ == binned_.size()) binned_.push_back(std::make_unique<Binned>());
	Binned& b = *binned_[queued_count_];
	Bin(b, draw, fb, AsList(draw, input));
	if (b.busy.empty()) return;  // nothing to draw: the slot stays free
	const Binned* before = queued_count_ ? binned_[queued_count_ - 1].get() : nullptr;
	b.run = before && SameFragmentWork(*before, b) ? before->run : queued_count_;
	++queued_count_;
	queued_primitives_ += b.primitives;
	queued_area_ += b.area;
	// Many draws, each set up here in turn: a worker rasterizes those queued
	// so far meanwhile, and takes the next ones once it is done. (Started
	// at once, it keeps pace: it takes more draws each time, as rasterizing
	// a draw costs more than setting it up.)
	if (flight_count_ && !pool_->Started()) FinishFlight();
	if (!flight_count_ && pool_ && pool_->ThreadCount() > 1 && queued_area_ > kInlinePixels) {
		try {
			StartFlight();
		} catch (const std::bad_alloc&) {
			// No room for the flight's work lists: the draws wait for Flush.
		}
	}
}

// Each tile's work, draws in submission order.
void Renderer::Plan(const Draws& draws, uint32_t count, Work& work) {
	const Framebuffer& fb = draws[0]->fb;
	const uint32_t tile_count = ((fb.width + kTileSize - 1) / kTileSize) * ((fb.height + kTileSize - 1) / kTileSize);
	work.begin.assign(tile_count + 1, 0);
	work.area = 0;
	for (uint32_t d = 0; d < count; ++d) {
		work.area += draws[d]->area;
		for (uint32_t tile : draws[d]->busy) ++work.begin[tile + 1];
	}
	work.tiles.clear();
	for (uint32_t i = 0; i < tile_count; ++i) {
		if (work.begin[i + 1]) work.tiles.push_back(i);
		work.begin[i + 1] += work.begin[i];
	}
	work.items.resize(work.begin[tile_count]);
	for (uint32_t d = 0; d < count; ++d) {
		const std::vector<uint32_t>& busy = draws[d]->busy;
		for (uint32_t k = 0; k < busy.size(); ++k) work.items[work.begin[busy[k]]++] = TileWork{d, k};
	}
	// (The fill advanced each tile's begin to its end: tile i's work now
	// starts at begin[i - 1].)
}

// A draw whose first entry in a tile covers the region it may write there,
// and which overwrites (CompiledDraw::Hides), hides the earlier draws of the
// tile that leave nothing else behind: no depth, stencil or bounds test (so
// no depth or stencil writes), no side effect, no sample count, color only
// in attachments the covering draw writes, and pixels only inside its
// region (their scissor inside its). Sets the work items of the
// tile's work [begin, end) that need not run, [*from, *to) (empty: from ==
// to == end).
void Renderer::HiddenDraws(const Draws& draws, const Work& work, uint32_t tile, uint32_t begin, uint32_t end,
                           uint32_t* from, uint32_t* to) {
	*from = *to = end;
	for (uint32_t w = end; w-- > begin + 1;) {
		const Binned& k = *draws[work.items[w].draw];
		if (!k.covered[work.items[w].busy]) continue;
		const int32_t x = int32_t(tile % k.tiles_x * kTileSize), y = int32_t(tile / k.tiles_x * kTileSize);
		FixedRect region;
		if (!TileRegion(k.draw.setup, k.draw.ops.samples, x, y, &region)) return;
		auto hidden = [&](const Binned& e) {
			const CompiledDraw& d = e.draw;
			if (d.has_tests || d.count_samples || d.state.shader.writes_memory) return false;
			for (uint32_t a = 0; a < d.ops.color_count; ++a)
				if (d.ops.color[a].write && !k.draw.ops.color[a].write) return false;
			FixedRect r;
			if (!TileRegion(d.setup, k.draw.ops.samples, x, y, &r)) return true;  // nothing of it in this tile
			return r.x0 >= region.x0 && r.y0 >= region.y0 && r.x1 <= region.x1 && r.y1 <= region.y1;
		};
		uint32_t first = w;
		while (first > begin && hidden(*draws[work.items[first - 1].draw])) --first;
		if (first < w) *from = first, *to = w;
		return;
	}
}

// The i-th tile with work: its draws in order.
void Renderer::RasterizeWorkTile(const Draws& draws, const Work& work, uint32_t i) {
	const uint32_t tile = work.tiles[i];
	const uint32_t begin = tile ? work.begin[tile - 1] : 0, end = work.begin[tile];
	uint32_t hidden_begin, hidden_end;
	HiddenDraws(draws, work, tile, begin, end, &hidden_begin, &hidden_end);
	PrefetchTile(draws[0]->fb, tile, draws[0]->tiles_x);
	const Binned* run[kMostRun];
	uint32_t busy[kMostRun];
	for (uint32_t w = begin; w < end;) {
		if (w == hidden_begin) w = hidden_end;
		// The items of a run of draws that do the same fragment work, together.
		uint32_t count = 0;
		const uint32_t first_run = draws[work.items[w].draw]->run;
		do {
			run[count] = draws[work.items[w].draw].get();
			busy[count++] = work.items[w++].busy;
		} while (w < end && w != hidden_begin && count < kMostRun && draws[work.items[w].draw]->run == first_run);
		RasterizeTile(run, busy, count);
	}
}

void Renderer::StartFlight() {
	Plan(binned_, queued_count_, flight_work_);  // (may throw bad_alloc: nothing has moved yet)
	// The queue flies; the next draws take the spare slots of the last flight.
	std::swap(binned_, flight_);
	flight_count_ = queued_count_;
	queued_count_ = 0, queued_primitives_ = 0, queued_area_ = 0;
	flight_body_ = [this](uint32_t i) { RasterizeWorkTile(flight_, flight_work_, i); };
	pool_->Start(uint32_t(flight_work_.tiles.size()), flight_body_);
}

void Renderer::FinishFlight() {
	if (!flight_count_) return;
	pool_->Wait();
	flight_count_ = 0;
}

void Renderer::Flush() {
	FinishFlight();
	if (!queued_count_) return;
	struct EmptyAfter {  // the queue, even when memory runs out below
		Renderer* r;
		~EmptyAfter() { r->queued_count_ = 0, r->queued_primitives_ = 0, r->queued_area_ = 0; }
	} empty_after{this};
	Plan(binned_, queued_count_, work_);
	auto rasterize = [&](uint32_t i) { RasterizeWorkTile(binned_, work_, i); };
	if (work_.area <= kInlinePixels)
		for (uint32_t i = 0; i < work_.tiles.size(); ++i) rasterize(i);
	else
		ParallelFor(uint32_t(work_.tiles.size()), rasterize);
}

}  // namespace tessera::raster
