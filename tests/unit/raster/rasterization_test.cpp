// Rasterization rules: shared edges hit once, no gaps, the top-left rule,
// sub-pixel snapping, degenerate and huge triangles, sample locations.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <random>

#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

// Every pixel's count, as a string of digits for readable failures.
uint32_t CountMismatches(const Target& t, float expected) {
	uint32_t bad = 0;
	for (uint32_t y = 0; y < t.height; ++y)
		for (uint32_t x = 0; x < t.width; ++x)
			for (uint32_t s = 0; s < t.samples; ++s) bad += t.At(x, y, 0, s) != expected;
	return bad;
}

// The triangles of a grid of (nx + 1) x (ny + 1) vertices (gx, gy: pixel
// coordinates, row by row), two a cell, alternating the diagonal and the
// winding from cell to cell.
Mesh GridMesh(const Target& t, const std::vector<double>& gx, const std::vector<double>& gy, int nx, int ny) {
	Mesh m;
	for (int j = 0; j < ny; ++j)
		for (int i = 0; i < nx; ++i) {
			int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
			int tri[2][3] = {{a, b, d}, {a, d, c}};
			if ((i + j) & 1) tri[0][0] = a, tri[0][1] = b, tri[0][2] = c, tri[1][0] = b, tri[1][1] = c, tri[1][2] = d;
			for (auto& k : tri)
				for (int v : k) m.Add(t, gx[v], gy[v]);
		}
	return m;
}

}  // namespace

TEST_CASE("raster: a jittered grid of triangles covers every pixel exactly once", "[raster]") {
	for (uint32_t samples : {1u, 4u}) {
		Target t(128, 96, VK_FORMAT_R32_SFLOAT, samples);
		std::mt19937 rng(7);
		std::uniform_real_distribution<double> jitter(-3.0, 3.0);
		const int nx = 9, ny = 7;
		std::vector<double> gx((nx + 1) * (ny + 1)), gy((nx + 1) * (ny + 1));
		for (int j = 0; j <= ny; ++j) {
			for (int i = 0; i <= nx; ++i) {
				// The rim lies beyond the target; inner vertices move by sub-pixel amounts.
				double x = i == 0 ? -8 : i == nx ? 140 : i * 128.0 / nx + jitter(rng);
				double y = j == 0 ? -8 : j == ny ? 110 : j * 96.0 / ny + jitter(rng);
				gx[j * (nx + 1) + i] = x;
				gy[j * (nx + 1) + i] = y;
			}
		}
		const Mesh m = GridMesh(t, gx, gy, nx, ny);
		Draw(CountingState(t), t, m.Input());
		CHECK(CountMismatches(t, 1.0f) == 0);
	}
}

TEST_CASE("raster: a mesh of pixel-sized triangles covers every pixel exactly once", "[raster]") {
	// Cells of 0.4 to 2 pixels, jittered by up to a third of one: many
	// triangles hold no pixel center (setup drops those before binning,
	// SetupOne) and the others must still cover each center once.
	for (double cell : {0.4, 0.9, 1.3, 2.0}) {
		Target t(64, 48, VK_FORMAT_R32_SFLOAT, 1);
		std::mt19937 rng(uint32_t(cell * 10));
		std::uniform_real_distribution<double> jitter(-cell / 3, cell / 3);
		const int nx = int(64 / cell) + 2, ny = int(48 / cell) + 2;
		std::vector<double> gx((nx + 1) * (ny + 1)), gy((nx + 1) * (ny + 1));
		for (int j = 0; j <= ny; ++j)
			for (int i = 0; i <= nx; ++i) {
				const bool rim = i == 0 || j == 0 || i == nx || j == ny;
				gx[j * (nx + 1) + i] = (i - 1) * cell + (rim ? 0 : jitter(rng));
				gy[j * (nx + 1) + i] = (j - 1) * cell + (rim ? 0 : jitter(rng));
			}
		const Mesh m = GridMesh(t, gx, gy, nx, ny);
		Draw(CountingState(t), t, m.Input());
		INFO("cell " << cell);
		CHECK(CountMismatches(t, 1.0f) == 0);
	}
}

TEST_CASE("raster: a fan around a point covers every pixel exactly once", "[raster]") {
	// Centers on a pixel center, a pixel corner and an odd sub-pixel spot.
	for (auto [cx, cy] : {std::pair{32.5, 32.5}, {32.0, 32.0}, {31.37109375, 20.00390625}}) {
		Target t(64, 64);
		Mesh m;
		const int n = 37;
		for (int i = 0; i < n; ++i) {
			double a0 = 2 * M_PI * i / n, a1 = 2 * M_PI * (i + 1) / n;
			m.Add(t, cx, cy);
			m.Add(t, cx + 200 * std::cos(a0), cy + 200 * std::sin(a0));
			m.Add(t, cx + 200 * std::cos(a1), cy + 200 * std::sin(a1));
		}
		Draw(CountingState(t), t, m.Input());
		INFO("center " << cx << "," << cy);
		for (uint32_t y = 0; y < 64; ++y)
			for (uint32_t x = 0; x < 64; ++x)
				if (t.At(x, y) != 1.0f) UNSCOPED_INFO(x << "," << y << "=" << t.At(x, y));
		CHECK(CountMismatches(t, 1.0f) == 0);
	}
}

TEST_CASE("raster: top-left rule at exact pixel centers", "[raster]") {
	// A square with its edges through pixel centers: x, y in [2.5, 6.5].
	// Left and top edges take the centers on them, right and bottom do not
	// (the top-left rule: our tie-break for a sample on an edge, which
	// Vulkan 1.3 §28.7.1 leaves open beyond "exactly one of two triangles
	// sharing the edge"), for both diagonals and both windings.
	for (int variant = 0; variant < 4; ++variant) {
		Target t(16, 16);
		Mesh m;
		double x0 = 2.5, y0 = 2.5, x1 = 6.5, y1 = 6.5;
		if (variant & 1) {
			m.Add(t, x0, y0), m.Add(t, x1, y0), m.Add(t, x1, y1);
			m.Add(t, x0, y0), m.Add(t, x1, y1), m.Add(t, x0, y1);
		} else {
			m.Add(t, x0, y0), m.Add(t, x0, y1), m.Add(t, x1, y0);
			m.Add(t, x1, y0), m.Add(t, x0, y1), m.Add(t, x1, y1);
		}
		if (variant & 2) {  // reverse the winding of both
			for (size_t k = 0; k < m.positions.size(); k += 12)
				for (int c = 0; c < 4; ++c) std::swap(m.positions[k + 4 + c], m.positions[k + 8 + c]);
		}
		Draw(CountingState(t), t, m.Input());
		for (uint32_t y = 0; y < 16; ++y)
			for (uint32_t x = 0; x < 16; ++x) {
				float expected = (x >= 2 && x <= 5 && y >= 2 && y <= 5) ? 1.0f : 0.0f;
				INFO("variant " << variant << " pixel " << x << "," << y);
				CHECK(t.At(x, y) == expected);
			}
	}
}

TEST_CASE("raster: vertices snap to 1/256 pixel", "[raster]") {
	// A left edge a little right of a pixel center: less than half a
	// sub-pixel step snaps onto the center (covered), more moves past it.
	for (auto [offset, covered] : {std::pair{0.001, true}, {0.0019, true}, {0.0021, false}, {0.003, false}}) {
		Target t(16, 16);
		Mesh m;
		double x0 = 4.5 + offset;
		m.Add(t, x0, 1), m.Add(t, 12, 1), m.Add(t, x0, 12);
		Draw(CountingState(t), t, m.Input());
		INFO("offset " << offset);
		CHECK((t.At(4, 5) == 1.0f) == covered);
		CHECK(t.At(5, 5) == 1.0f);
	}
}

TEST_CASE("raster: zero-area triangles produce nothing", "[raster]") {
	Target t(32, 32);
	Mesh m;
	m.Add(t, 4.5, 4.5), m.Add(t, 20.5, 20.5), m.Add(t, 12.5, 12.5);  // collinear through centers
	m.Add(t, 8.5, 3), m.Add(t, 8.5, 30), m.Add(t, 8.5, 10);          // vertical line
	m.Add(t, 5, 5), m.Add(t, 5, 5), m.Add(t, 5, 5);                  // a point
	m.Add(t, 10.5, 7.5), m.Add(t, 25.5, 7.5), m.Add(t, 10.5, 7.5);   // repeated vertex
	Draw(CountingState(t), t, m.Input());
	CHECK(CountMismatches(t, 0.0f) == 0);
}

TEST_CASE("raster: huge triangles beyond the guard band cover the viewport once", "[raster]") {
	// Vertices far outside the guard band are clipped in x/y; the two
	// triangles share their diagonal.
	for (float scale : {10.0f, 1000.0f, 1e6f}) {
		Target t(100, 70);
		Mesh m;
		auto add = [&](float xd, float yd) { m.positions.insert(m.positions.end(), {xd, yd, 0.5f, 1.0f}); };
		add(-scale, -scale), add(scale, -scale * 0.9f), add(scale * 0.8f, scale);
		add(-scale, -scale), add(scale * 0.8f, scale), add(-scale * 1.1f, scale);
		Draw(CountingState(t), t, m.Input());
		INFO("scale " << scale);
		CHECK(CountMismatches(t, 1.0f) == 0);
	}
}

TEST_CASE("raster: 4x MSAA covers the standard sample locations", "[raster]") {
	// A vertical left edge at x = 0.5 inside pixel 0 and a horizontal top edge
	// at y = 0.5 in row 0: of the standard locations (0.375,0.125),
	// (0.875,0.375), (0.125,0.625), (0.625,0.875) (Vulkan 1.3 §28.4), pixel
	// (0,0) covers only samples right of and below the edges.
	Target t(8, 8, VK_FORMAT_R32_SFLOAT, 4);
	Mesh m;
	m.Add(t, 0.5, 0.5), m.Add(t, 20, 0.5), m.Add(t, 0.5, 20);
	Draw(CountingState(t), t, m.Input());
	CHECK(t.At(0, 0, 0, 0) == 0.0f);  // x 0.375 < 0.5
	CHECK(t.At(0, 0, 0, 1) == 0.0f);  // y 0.375 < 0.5
	CHECK(t.At(0, 0, 0, 2) == 0.0f);  // x 0.125
	CHECK(t.At(0, 0, 0, 3) == 1.0f);  // (0.625, 0.875)
	CHECK(t.At(1, 0, 0, 0) == 0.0f);  // y 0.125 < 0.5
	CHECK(t.At(1, 0, 0, 1) == 0.0f);  // y 0.375
	CHECK(t.At(1, 0, 0, 2) == 1.0f);
	CHECK(t.At(1, 0, 0, 3) == 1.0f);
	for (uint32_t s = 0; s < 4; ++s) CHECK(t.At(2, 2, 0, s) == 1.0f);
	// The sample mask removes samples.
	Target t2(8, 8, VK_FORMAT_R32_SFLOAT, 4);
	DrawState state = CountingState(t2);
	state.raster.sample_mask = 0x5;
	Draw(state, t2, m.Input());
	CHECK(t2.At(2, 2, 0, 0) == 1.0f);
	CHECK(t2.At(2, 2, 0, 1) == 0.0f);
	CHECK(t2.At(2, 2, 0, 2) == 1.0f);
	CHECK(t2.At(2, 2, 0, 3) == 0.0f);
}

TEST_CASE("raster: the scissor limits coverage", "[raster]") {
	Target t(64, 64);
	DrawState state = CountingState(t);
	state.raster.scissor = Rect{5, 7, 20, 30};
	Mesh m;
	m.Add(t, -10, -10), m.Add(t, 200, -10), m.Add(t, -10, 200);
	Draw(state, t, m.Input());
	for (uint32_t y = 0; y < 64; ++y)
		for (uint32_t x = 0; x < 64; ++x) {
			bool inside = x >= 5 && x < 25 && y >= 7 && y < 37;
			if ((t.At(x, y) == 1.0f) != inside) FAIL("pixel " << x << "," << y);
		}
}

TEST_CASE("raster: a box a triangle covers whole fills exactly, at odd edges and with a sample mask", "[raster]") {
	// The quads of a covered box go into the batch a row at a time; the
	// columns at odd box edges and the sample mask must still hold.
	for (uint32_t samples : {1u, 4u})
		for (Rect scissor : {Rect{4, 3, 21, 8}, Rect{5, 6, 20, 9}, Rect{0, 0, 64, 64}}) {
			Target t(64, 64, VK_FORMAT_R32_SFLOAT, samples);
			DrawState state = CountingState(t);
			state.raster.scissor = scissor;
			state.raster.sample_mask = samples == 4 ? 0x5u : 0x1u;
			Mesh m;
			m.Add(t, -10, -10), m.Add(t, 200, -10), m.Add(t, -10, 200);
			Draw(state, t, m.Input());
			uint32_t wrong = 0;
			for (uint32_t y = 0; y < 64; ++y)
				for (uint32_t x = 0; x < 64; ++x)
					for (uint32_t s = 0; s < samples; ++s) {
						const bool inside = int32_t(x) >= scissor.x && x < scissor.x + scissor.width &&
						                    int32_t(y) >= scissor.y && y < scissor.y + scissor.height &&
						                    (state.raster.sample_mask >> s & 1);
						wrong += (t.At(x, y, 0, s) == 1.0f) != inside;
					}
			INFO("samples " << samples << ", scissor at " << scissor.x << "," << scissor.y);
			CHECK(wrong == 0);
		}
}

TEST_CASE("raster: output bytes do not depend on the thread count", "[raster]") {
	auto render = [](tessera::runtime::ThreadPool* pool) {
		Target t(300, 200, VK_FORMAT_R8G8B8A8_UNORM);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		DrawState state = BlendedDepthState(t, VK_BLEND_FACTOR_SRC_ALPHA);
		std::mt19937 rng(3);
		std::uniform_real_distribution<float> pos(-40, 340), unit(0, 1);
		Mesh m;
		for (int i = 0; i < 3000; ++i) {
			float cx = pos(rng), cy = pos(rng) * 0.66f;
			for (int k = 0; k < 3; ++k)
				m.Add(t, cx + unit(rng) * 60, cy + unit(rng) * 60, unit(rng), 0.5f + unit(rng),
				      {unit(rng), unit(rng), unit(rng), unit(rng)});
		}
		Draw(state, t, m.Input(), pool);
		return t.color;
	};
	std::vector<uint8_t> single = render(nullptr);
	tessera::runtime::ThreadPool pool4(4), pool3(3);
	CHECK(render(&pool4) == single);
	CHECK(render(&pool3) == single);
	size_t nonzero = 0;
	for (uint8_t v : single) nonzero += v != 0;
	CHECK(nonzero > single.size() / 2);
}

namespace {

struct LaneCounts {
	uint32_t live = 0, helpers = 0, batches = 0;
	int32_t quad_x = -1, quad_y = -1;
};

void CountLanes(const void* user, FragmentBatch& b) {
	auto* c = static_cast<LaneCounts*>(const_cast<void*>(user));
	++c->batches;
	c->quad_x = b.quad_x[0], c->quad_y = b.quad_y[0];
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) (b.live[i] ? c->live : c->helpers)++;
}

}  // namespace

TEST_CASE("raster: fragments run in 2x2 quads with helper lanes flagged", "[raster]") {
	// A sliver covering only the center of pixel (5, 5): its quad is
	// (4..5, 4..5), with lane 3 live and the other three helpers.
	Target t(16, 16);
	LaneCounts counts;
	DrawState state = MakeState(t);
	state.shader.run = CountLanes;
	state.shader.user = &counts;
	Mesh m;
	m.Add(t, 5.2, 5.2), m.Add(t, 5.9, 5.2), m.Add(t, 5.2, 5.9);
	Draw(state, t, m.Input());
	CHECK(counts.batches == 1);
	CHECK(counts.quad_x == 4);
	CHECK(counts.quad_y == 4);
	CHECK(counts.live == 1);
	CHECK(counts.helpers == 3);
}

namespace {

// Reference coverage of one triangle given in normalized device
// coordinates (w = 1), sample by sample with no tiles, quads or spans:
// snap as the viewport transform does, orient, and test every sample of
// every pixel with the top-left rule written out from its definition.
void ReferenceCoverage(const Target& t, const float* xy, std::vector<uint32_t>& counts) {
	const float half_w = t.width * 0.5f, half_h = t.height * 0.5f;
	int64_t X[3], Y[3];
	for (int i = 0; i < 3; ++i) {
		X[i] = int64_t(std::floor((double(half_w) * xy[2 * i] + half_w) * 256 + 0.5));
		Y[i] = int64_t(std::floor((double(half_h) * xy[2 * i + 1] + half_h) * 256 + 0.5));
	}
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
	if (area == 0) return;
	if (area < 0) std::swap(X[1], X[2]), std::swap(Y[1], Y[2]);
	const SampleLocation* loc = StandardSampleLocations(t.samples);
	for (uint32_t py = 0; py < t.height; ++py) {
		for (uint32_t px = 0; px < t.width; ++px) {
			for (uint32_t s = 0; s < t.samples; ++s) {
				int64_t sx = int64_t(px) * 256 + loc[s].x, sy = int64_t(py) * 256 + loc[s].y;
				bool inside = true;
				for (int e = 0; e < 3; ++e) {
					int64_t ax = X[e], ay = Y[e], bx = X[(e + 1) % 3], by = Y[(e + 1) % 3];
					int64_t value = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax);
					// With y down and the inside on the left of a->b (value > 0):
					// a top edge runs right (inside below), a left edge runs up.
					bool top = by == ay && bx > ax;
					bool left = by < ay;
					inside &= value > 0 || (value == 0 && (top || left));
				}
				counts[(size_t(py) * t.width + px) * t.samples + s] += inside;
			}
		}
	}
}

}  // namespace

TEST_CASE("raster: random triangles match a per-sample reference", "[raster]") {
	// Sizes from slivers to several tiles, on 1 and 4 samples; vertices on
	// the sub-pixel grid and off it, some on pixel centers.
	for (uint32_t samples : {1u, 4u}) {
		Target t(200, 150, VK_FORMAT_R32_SFLOAT, samples);
		std::mt19937 rng(samples * 17 + 5);
		std::uniform_real_distribution<float> center(-1.2f, 1.2f), unit(-1, 1);
		std::vector<float> xy;
		Mesh m;
		for (int i = 0; i < 400; ++i) {
			float cx = center(rng), cy = center(rng);
			float size = i % 4 == 0 ? 1.5f : i % 4 == 1 ? 0.3f : i % 4 == 2 ? 0.05f : 0.01f;
			for (int k = 0; k < 3; ++k) {
				float x = cx + unit(rng) * size, y = cy + unit(rng) * size;
				if (i % 5 == 0) {  // snap onto pixel centers: ties decided by the rule
					x = (std::floor((x + 1) * 100) + 0.5f) / 100 - 1;
					y = (std::floor((y + 1) * 75) + 0.5f) / 75 - 1;
				}
				if (i % 7 == 0 && k == 2) x = xy[xy.size() - 2];  // vertical edges
				xy.insert(xy.end(), {x, y});
				m.positions.insert(m.positions.end(), {x, y, 0.5f, 1.0f});
			}
		}
		Draw(CountingState(t), t, m.Input());
		std::vector<uint32_t> expected(size_t(t.width) * t.height * samples, 0);
		for (size_t i = 0; i < xy.size(); i += 6) ReferenceCoverage(t, &xy[i], expected);
		uint32_t bad = 0;
		for (uint32_t py = 0; py < t.height; ++py)
			for (uint32_t px = 0; px < t.width; ++px)
				for (uint32_t s = 0; s < samples; ++s)
					if (t.At(px, py, 0, s) != float(expected[(size_t(py) * t.width + px) * samples + s])) {
						if (bad++ < 5) UNSCOPED_INFO("pixel " << px << "," << py << " sample " << s);
					}
		INFO("samples " << samples);
		CHECK(bad == 0);
	}
}

namespace {

struct BatchLog {
	std::vector<uint32_t> quads_per_batch;
	std::vector<uint8_t> facing;  // of lane 0 of each quad
};

void LogBatch(const void* user, FragmentBatch& b) {
	auto* log = static_cast<BatchLog*>(const_cast<void*>(user));
	log->quads_per_batch.push_back(b.quad_count);
	for (uint32_t q = 0; q < b.quad_count; ++q) log->facing.push_back(b.front_facing[4 * q]);
}

}  // namespace

TEST_CASE("raster: a batch gathers quads of several triangles of a tile in order", "[raster]") {
	// Two one-pixel slivers in one tile, the second wound the other way: one
	// shader call with two quads, facing given per lane.
	Target t(16, 16);
	BatchLog log;
	DrawState state = MakeState(t);
	state.shader.run = LogBatch;
	state.shader.user = &log;
	Mesh m;
	m.Add(t, 5.2, 5.2), m.Add(t, 5.9, 5.2), m.Add(t, 5.2, 5.9);  // clockwise: back
	m.Add(t, 9.2, 9.2), m.Add(t, 9.2, 9.9), m.Add(t, 9.9, 9.2);  // counter-clockwise: front
	Draw(state, t, m.Input());
	REQUIRE(log.quads_per_batch.size() == 1);
	CHECK(log.quads_per_batch[0] == 2);
	REQUIRE(log.facing.size() == 2);
	CHECK(log.facing[0] == 0);
	CHECK(log.facing[1] == 1);
}

namespace {
// Counts the live lanes shaded for primitives whose varying 0 is 1.
void CountMarked(const void* user, FragmentBatch& b) {
	int& count = *static_cast<int*>(const_cast<void*>(user));
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		count += b.live[i] && b.varyings[0][i] == 1.0f;
		for (uint32_t c = 0; c < 4; ++c) b.color[0][c][i] = 0.5f;
	}
}
}  // namespace

TEST_CASE("raster: a primitive covering a tile hides the draw's earlier ones there, unless they show through",
          "[raster]") {
	// Two tiles side by side. A marked sliver in each, then a big triangle
	// that covers all of tile 0 and part of tile 1: the sliver in tile 0
	// need not be shaded, the one in tile 1 must.
	Target t(128, 64, VK_FORMAT_R8G8B8A8_UNORM);
	int marked = 0;
	DrawState state = MakeState(t);
	state.shader.run = CountMarked;
	state.shader.user = &marked;
	state.raster.varying_count = 1;
	state.raster.interpolation[0] = Interpolation::Flat;
	auto mesh = [&](double big) {
		Mesh m;
		m.Add(t, 10, 10, 0.5f, 1, {1}), m.Add(t, 20, 10, 0.5f, 1, {1}), m.Add(t, 10, 20, 0.5f, 1, {1});
		m.Add(t, 70, 10, 0.5f, 1, {1}), m.Add(t, 80, 10, 0.5f, 1, {1}), m.Add(t, 70, 20, 0.5f, 1, {1});
		m.Add(t, 0, 0, 0.5f, 1, {0}), m.Add(t, big, 0, 0.5f, 1, {0}), m.Add(t, 0, big, 0.5f, 1, {0});
		return m;
	};
	const Mesh covering = mesh(130);
	auto run = [&](const DrawState& s, const Mesh& m) {
		marked = 0;
		Draw(s, t, m.Input());
		return marked;
	};
	// The slivers alone (the big triangle empty), to know their size.
	const int both = run(state, mesh(0)), sliver = both / 2;
	REQUIRE(sliver > 0);
	SECTION("opaque: the covered tile's sliver is hidden") { CHECK(run(state, covering) == sliver); }
	SECTION("blending shows it") {
		DrawState s = state;
		s.blend.attachment_count = 1;
		s.blend.attachments[0].blend_enable = true;
		CHECK(run(s, covering) == both);
	}
	SECTION("a partial write mask keeps it") {
		DrawState s = state;
		s.blend.attachment_count = 1;
		s.blend.attachments[0].write_mask = 0x7;
		CHECK(run(s, covering) == both);
	}
	SECTION("a shader that may discard keeps it") {
		DrawState s = state;
		s.shader.may_discard = true;
		CHECK(run(s, covering) == both);
	}
	SECTION("a depth test keeps it") {
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		DrawState s = state;
		s.depth_stencil.depth_test = true;
		s.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
		CHECK(run(s, covering) == both);
	}
	SECTION("two triangles that cover the tile together hide it too") {
		// A quad over tile 0 whose diagonal crosses it: neither triangle
		// covers the tile alone.
		Mesh m = mesh(0);
		m.Add(t, 0, 0, 0.5f, 1, {0}), m.Add(t, 66, 0, 0.5f, 1, {0}), m.Add(t, 0, 66, 0.5f, 1, {0});
		m.Add(t, 66, 0, 0.5f, 1, {0}), m.Add(t, 66, 66, 0.5f, 1, {0}), m.Add(t, 0, 66, 0.5f, 1, {0});
		CHECK(run(state, m) == sliver);
		// Without the second triangle the sliver shows.
		Mesh half = mesh(0);
		half.Add(t, 0, 0, 0.5f, 1, {0}), half.Add(t, 66, 0, 0.5f, 1, {0}), half.Add(t, 0, 66, 0.5f, 1, {0});
		CHECK(run(state, half) == both);
	}
	SECTION("a quad whose right and bottom edges are the target's hides the tiles on them") {
		// The edges run through the last pixels' outer corners, which are
		// outside them; every pixel center is inside.
		Mesh m = mesh(0);
		m.Add(t, 0, 0, 0.5f, 1, {0}), m.Add(t, 128, 0, 0.5f, 1, {0}), m.Add(t, 0, 64, 0.5f, 1, {0});
		m.Add(t, 128, 0, 0.5f, 1, {0}), m.Add(t, 128, 64, 0.5f, 1, {0}), m.Add(t, 0, 64, 0.5f, 1, {0});
		CHECK(run(state, m) == 0);
	}
	SECTION("inside a scissor, covering the scissored part of the tile is enough") {
		DrawState s = state;
		s.raster.scissor = Rect{0, 0, 40, 40};
		// Only the sliver in tile 0 lies inside the scissor.
		CHECK(run(s, mesh(90)) == 0);
		CHECK(run(s, mesh(0)) == sliver);
		// A triangle that leaves a corner of the scissor uncovered hides nothing.
		CHECK(run(s, mesh(75)) == sliver);
	}
}

TEST_CASE("raster: queued draws write the bytes of drawing each at once", "[raster]") {
	// Many small draws in different states (depth tested and blended,
	// opaque, another blend constant), some covering whole tiles, then one
	// draw too big for the queue: queued and flushed, on one thread or
	// several, they give the bytes of drawing them one by one.
	struct Part {
		DrawState state;
		Mesh mesh;
	};
	auto scene = [](Target& t) {
		std::vector<Part> parts;
		std::mt19937 rng(11);
		std::uniform_real_distribution<float> pos(-20, 250), unit(0, 1);
		for (int d = 0; d < 300; ++d) {
			Part p{MakeState(t), {}};
			p.state.shader.run = VaryingColorShader;
			p.state.raster.varying_count = 4;
			if (d % 3 != 1) {
				p.state.depth_stencil.depth_test = true;
				p.state.depth_stencil.depth_write = true;
				p.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
				p.state.blend.attachment_count = 1;
				BlendAttachmentState& b = p.state.blend.attachments[0];
				b.blend_enable = true;
				b.src_color = d % 3 ? VK_BLEND_FACTOR_CONSTANT_COLOR : VK_BLEND_FACTOR_SRC_ALPHA;
				b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
				p.state.blend.constants[0] = p.state.blend.constants[1] = float(d % 7) / 7;
			}
			const bool big = d % 50 == 7;  // covers tiles: hides what came before there
			const int triangles = big ? 2 : 1 + d % 4;
			for (int i = 0; i < triangles; ++i) {
				const float cx = big ? -10.0f + 10 * float(i) : pos(rng), cy = big ? -10.0f : pos(rng) * 0.7f;
				const float size = big ? 400.0f : 40.0f;
				for (int k = 0; k < 3; ++k)
					p.mesh.Add(t, cx + (k == 1 ? size : unit(rng) * 8), cy + (k == 2 ? size : unit(rng) * 8), unit(rng),
					           0.5f + unit(rng), {unit(rng), unit(rng), unit(rng), unit(rng)});
			}
			parts.push_back(std::move(p));
		}
		// Past the queue's bound: drawn at once, after what waits.
		Part last{MakeState(t), {}};
		last.state.shader.run = VaryingColorShader;
		last.state.raster.varying_count = 4;
		const uint32_t many = uint32_t(Renderer::kMaxQueuedPrimitives) + 1;
		for (uint32_t i = 0; i < many; ++i)
			for (int k = 0; k < 3; ++k)
				last.mesh.Add(t, 100 + (k == 1) * 0.3 + i % 7, 50 + (k == 2) * 0.3, 0.5f, 1, {1, 0, 0, 1});
		parts.push_back(std::move(last));
		return parts;
	};
	auto render = [&](bool queue, tessera::runtime::ThreadPool* pool) {
		Target t(250, 180, VK_FORMAT_R8G8B8A8_UNORM);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		const std::vector<Part> parts = scene(t);
		Renderer r(pool);
		const Framebuffer fb = t.Get();
		for (const Part& p : parts) {
			const CompiledDraw d = CompileDraw(p.state, fb);
			const VertexInput in = p.mesh.Input();
			const uint64_t primitives = in.vertex_count / 3;
			if (!queue || primitives > Renderer::kMaxQueuedPrimitives) {
				r.Draw(d, fb, in);
				continue;
			}
			if (!r.CanQueue(fb, primitives)) r.Flush();
			r.Queue(d, fb, in);
			CHECK(r.HasQueued());
		}
		r.Flush();
		CHECK_FALSE(r.HasQueued());
		return std::make_pair(t.color, t.depth);
	};
	const auto once = render(false, nullptr);
	size_t nonzero = 0;
	for (uint8_t v : once.first) nonzero += v != 0;
	CHECK(nonzero > once.first.size() / 2);
	tessera::runtime::ThreadPool pool3(3);
	CHECK(render(true, nullptr) == once);
	CHECK(render(true, &pool3) == once);
}

namespace {
// VaryingColorShader that counts its calls (user: an atomic counter).
void CountedVaryingColorShader(const void* user, FragmentBatch& b) {
	static_cast<std::atomic<int>*>(const_cast<void*>(user))->fetch_add(1, std::memory_order_relaxed);
	VaryingColorShader(nullptr, b);
}
}  // namespace

TEST_CASE("raster: consecutive queued draws in one state share batches and write the bytes of each drawn at once",
          "[raster]") {
	// Runs of 1 to 9 small overlapping draws in one state (depth tested and
	// blended, so the order of the quads shows), the state changing between
	// runs (the blend constant, the shader's user pointer, the scissor):
	// queued, a tile's quads of a run are shaded together, in fewer shader
	// calls than drawn one by one, with the same bytes.
	auto render = [](bool queue, tessera::runtime::ThreadPool* pool, int* calls) {
		Target t(200, 140, VK_FORMAT_R8G8B8A8_UNORM);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		std::atomic<int> counters[2] = {0, 0};
		std::mt19937 rng(17);
		std::uniform_real_distribution<float> pos(0, 180), unit(0, 1);
		std::uniform_int_distribution<int> run_length(1, 9);
		Renderer r(pool);
		const Framebuffer fb = t.Get();
		for (int run = 0; run < 60; ++run) {
			DrawState state = BlendedDepthState(t, VK_BLEND_FACTOR_CONSTANT_COLOR);
			state.shader.run = CountedVaryingColorShader;
			state.shader.user = &counters[run % 2];
			state.blend.constants[0] = state.blend.constants[1] = float(run % 5 + 1) / 5;
			if (run % 7 == 3) state.raster.scissor = {20, 10, 150, 100};
			const CompiledDraw d = CompileDraw(state, fb);
			for (int k = run_length(rng); k > 0; --k) {
				Mesh m;
				for (int i = 0; i < 2; ++i) {
					const float cx = pos(rng) * 0.5f + 40, cy = pos(rng) * 0.3f + 40;
					for (int v = 0; v < 3; ++v)
						m.Add(t, cx + (v == 1 ? 16 : unit(rng) * 6), cy + (v == 2 ? 14 : unit(rng) * 6), unit(rng),
						      0.5f + unit(rng), {unit(rng), unit(rng), unit(rng), 0.7f});
				}
				const VertexInput in = m.Input();
				if (!queue) {
					r.Draw(d, fb, in);
					continue;
				}
				if (!r.CanQueue(fb, 2)) r.Flush();
				r.Queue(d, fb, in);
			}
		}
		r.Flush();
		*calls = counters[0] + counters[1];
		return std::make_pair(t.color, t.depth);
	};
	int once_calls = 0, queued_calls = 0, pooled_calls = 0;
	const auto once = render(false, nullptr, &once_calls);
	size_t nonzero = 0;
	for (uint8_t v : once.first) nonzero += v != 0;
	CHECK(nonzero > once.first.size() / 8);
	tessera::runtime::ThreadPool pool3(3);
	CHECK(render(true, nullptr, &queued_calls) == once);
	CHECK(render(true, &pool3, &pooled_calls) == once);
	// Shared batches: about one call a tile a run rather than a tile a draw.
	CAPTURE(once_calls, queued_calls, pooled_calls);
	CHECK(queued_calls * 2 < once_calls);
	CHECK(pooled_calls < once_calls);
}

TEST_CASE("raster: a queued draw covering a tile hides the earlier queued draws there, unless they show through",
          "[raster]") {
	// Two tiles side by side. A first draw marks a sliver in each; a second
	// covers all of tile 0 and part of tile 1. Queued together, the first
	// draw's sliver in tile 0 need not be shaded, the one in tile 1 must.
	Target t(128, 64, VK_FORMAT_R8G8B8A8_UNORM);
	t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
	int marked = 0;
	DrawState state = MakeState(t);
	state.shader.run = CountMarked;
	state.shader.user = &marked;
	state.raster.varying_count = 1;
	state.raster.interpolation[0] = Interpolation::Flat;
	Mesh slivers, cover;
	slivers.Add(t, 10, 10, 0.5f, 1, {1}), slivers.Add(t, 20, 10, 0.5f, 1, {1}), slivers.Add(t, 10, 20, 0.5f, 1, {1});
	slivers.Add(t, 70, 10, 0.5f, 1, {1}), slivers.Add(t, 80, 10, 0.5f, 1, {1}), slivers.Add(t, 70, 20, 0.5f, 1, {1});
	cover.Add(t, 0, 0, 0.5f, 1, {0}), cover.Add(t, 130, 0, 0.5f, 1, {0}), cover.Add(t, 0, 130, 0.5f, 1, {0});
	const Framebuffer fb = t.Get();
	auto run = [&](const DrawState& first, const DrawState& second) {
		marked = 0;
		Renderer r(nullptr);
		r.Queue(CompileDraw(first, fb), fb, slivers.Input());
		r.Queue(CompileDraw(second, fb), fb, cover.Input());
		r.Flush();
		return marked;
	};
	marked = 0;
	Draw(state, t, slivers.Input());
	const int both = marked, sliver = both / 2;
	REQUIRE(sliver > 0);
	SECTION("opaque: the covered tile's sliver is hidden") { CHECK(run(state, state) == sliver); }
	SECTION("a depth test in the first draw keeps it (its depth writes show)") {
		DrawState tested = state;
		tested.depth_stencil.depth_test = tested.depth_stencil.depth_write = true;
		tested.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
		CHECK(run(tested, state) == both);
	}
	SECTION("blending in the covering draw keeps it") {
		DrawState blended = state;
		blended.blend.attachment_count = 1;
		blended.blend.attachments[0].blend_enable = true;
		CHECK(run(state, blended) == both);
	}
	SECTION("a first draw reaching outside the covering draw's scissor keeps it") {
		DrawState narrow = state;
		narrow.raster.scissor = Rect{0, 0, 60, 64};  // tile 0 less four columns
		CHECK(run(state, narrow) == both);
	}
}

TEST_CASE("raster: the queue takes draws into the same attachments only", "[raster]") {
	Target a(64, 64, VK_FORMAT_R8G8B8A8_UNORM), b(64, 64, VK_FORMAT_R8G8B8A8_UNORM);
	const float red[4] = {1, 0, 0, 1};
	DrawState state = MakeState(a);
	state.shader.run = ConstantColorShader;
	state.shader.user = red;
	Mesh m;
	m.Add(a, 0, 0), m.Add(a, 64, 0), m.Add(a, 0, 64);
	Renderer r(nullptr);
	const Framebuffer fa = a.Get(), fb = b.Get();
	CHECK(r.CanQueue(fa, 1));
	r.Queue(CompileDraw(state, fa), fa, m.Input());
	CHECK(r.CanQueue(fa, 1));
	CHECK_FALSE(r.CanQueue(fb, 1));
	CHECK_FALSE(r.CanQueue(fa, Renderer::kMaxQueuedPrimitives));
	CHECK(a.At(1, 1) == 0.0f);                      // nothing written before Flush
	r.Draw(CompileDraw(state, fb), fb, m.Input());  // Draw flushes first
	CHECK(a.At(1, 1) == 1.0f);
	CHECK(b.At(1, 1) == 1.0f);
	CHECK_FALSE(r.HasQueued());
}

TEST_CASE("raster: a draw rasterized a pass of primitives at a time writes the bytes of one pass", "[raster]") {
	// Renderer::Draw sets up and rasterizes a large draw a pass of
	// primitives at a time. Small passes (1, 7 and 64 primitives) must give
	// the bytes and the sample count of the whole draw in one pass: for
	// lists, strips with restarts, fans, line strips and points, indexed or
	// not, with depth tests and blending, a clip distance, and opaque
	// primitives that hide earlier ones in a tile (within a pass only).
	Target ref(200, 150, VK_FORMAT_R8G8B8A8_UNORM);
	std::mt19937 rng(5);
	std::uniform_real_distribution<float> pos(-30, 230), unit(0, 1);
	Mesh mesh;
	std::vector<float> clip, sizes;
	for (int v = 0; v < 600; ++v) {
		mesh.Add(ref, pos(rng), pos(rng) * 0.75f, unit(rng), 0.5f + unit(rng),
		         {unit(rng), unit(rng), unit(rng), unit(rng)});
		clip.push_back(unit(rng) - 0.1f);
		sizes.push_back(1 + 6 * unit(rng));
	}
	std::vector<uint32_t> indices, restarted;  // restarted: strips cut by the restart index
	for (int i = 0; i < 900; ++i) {
		indices.push_back(uint32_t(rng() % 600));
		restarted.push_back(i % 97 == 13 ? 0xffffffffu : indices.back());
	}
	struct Case {
		const char* name;
		Topology topology;
		bool indexed;
		int state;  // 0: depth tested and blended; 1: opaque (hides); 2: counted with a clip distance
	};
	const Case cases[] = {
	    {"list", Topology::TriangleList, false, 0},        {"indexed list", Topology::TriangleList, true, 1},
	    {"strip", Topology::TriangleStrip, true, 0},       {"fan", Topology::TriangleFan, false, 2},
	    {"line strip", Topology::LineStrip, true, 0},      {"points", Topology::PointList, false, 2},
	    {"opaque list", Topology::TriangleList, false, 1},
	};
	for (const Case& c : cases) {
		DYNAMIC_SECTION(c.name) {
			auto render = [&](uint32_t pass, uint64_t* samples) {
				Target t(200, 150, VK_FORMAT_R8G8B8A8_UNORM);
				t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
				DrawState s = MakeState(t);
				s.shader.run = VaryingColorShader;
				s.raster.varying_count = 4;
				if (c.state == 0) {
					s.depth_stencil.depth_test = true;
					s.depth_stencil.depth_write = true;
					s.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
					s.blend.attachment_count = 1;
					BlendAttachmentState& b = s.blend.attachments[0];
					b.blend_enable = true;
					b.src_color = VK_BLEND_FACTOR_SRC_ALPHA;
					b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
				}
				if (c.state == 2) s.raster.clip_distance_count = 1;
				VertexInput in = mesh.Input();
				in.topology = c.topology;
				if (c.indexed) {
					in.primitive_restart = c.topology == Topology::TriangleStrip || c.topology == Topology::LineStrip;
					in.indices = in.primitive_restart ? restarted.data() : indices.data();
					in.vertex_count = uint32_t(indices.size());
				}
				if (c.state == 2) in.clip_distances = clip.data();
				if (c.topology == Topology::PointList) in.point_sizes = sizes.data();
				const Framebuffer fb = t.Get();
				CompiledDraw d = CompileDraw(s, fb);
				d.count_samples = c.state == 2;
				if (c.state == 1) REQUIRE(d.Hides());
				Renderer r(nullptr);
				r.set_pass_primitives(pass);
				*samples = r.Draw(d, fb, in);
				return std::make_pair(t.color, t.depth);
			};
			uint64_t whole_samples = 0;
			const auto whole = render(Renderer::kMaxPassPrimitives, &whole_samples);
			size_t written = 0;
			for (uint8_t v : whole.first) written += v != 0;
			CHECK(written > whole.first.size() / 20);
			CHECK((c.state != 2 || whole_samples > 100));
			for (uint32_t pass : {1u, 7u, 64u}) {
				uint64_t samples = 0;
				CHECK(render(pass, &samples) == whole);
				CHECK(samples == whole_samples);
			}
		}
	}
}
