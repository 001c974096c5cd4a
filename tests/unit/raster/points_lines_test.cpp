// Points, lines and the polygon modes LINE and POINT: coverage against
// per-sample references, gl_PointCoord, interpolation along lines,
// clipping, strips with restart, and polygon edges/vertices as lines/points.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

uint32_t Total(const Target& t) {
	double sum = 0;
	for (uint32_t y = 0; y < t.height; ++y)
		for (uint32_t x = 0; x < t.width; ++x)
			for (uint32_t s = 0; s < t.samples; ++s) sum += t.At(x, y, 0, s);
	return uint32_t(sum);
}

// gl_PointCoord, varying 0 and z_f into an RGBA32F attachment.
void PointCoordShader(const void*, FragmentBatch& b) {
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		b.color[0][0][i] = b.point_coord[0][i];
		b.color[0][1][i] = b.point_coord[1][i];
		b.color[0][2][i] = b.varyings[0][i];
		b.color[0][3][i] = b.frag_coord[2][i];
	}
}

// (varying 0, 0, 0, 1).
void FirstVaryingShader(const void*, FragmentBatch& b) {
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		b.color[0][0][i] = b.varyings[0][i];
		b.color[0][1][i] = b.color[0][2][i] = 0;
		b.color[0][3][i] = 1;
	}
}

VertexInput Points(const Mesh& m, const std::vector<float>& sizes) {
	VertexInput in = m.Input();
	in.topology = Topology::PointList;
	in.point_sizes = sizes.empty() ? nullptr : sizes.data();
	return in;
}

}  // namespace

TEST_CASE("raster: a point covers the samples inside its square", "[raster]") {
	// Vulkan 1.3 §28.6.1: a square of side size centered at the vertex;
	// samples on its edges follow the top-left rule (left/top in).
	struct Case {
		double x, y;
		float size;
		int x0, x1, y0, y1;  // pixels covered, inclusive
	};
	for (const Case& c : {Case{5.5, 3.5, 1, 5, 5, 3, 3}, Case{5.0, 3.0, 1, 4, 4, 2, 2}, Case{8, 8, 4, 6, 9, 6, 9},
	                      Case{8.5, 8.5, 3, 7, 9, 7, 9}, Case{8.5, 8.5, 0.25f, 8, 8, 8, 8},
	                      Case{8.5, 8.5, std::nanf(""), 8, 8, 8, 8}, Case{10.25, 6.75, 2.5f, 9, 10, 5, 7}}) {
		Target t(24, 16);
		Mesh m;
		m.Add(t, c.x, c.y);
		std::vector<float> sizes = {c.size};
		Draw(CountingState(t), t, Points(m, sizes));
		INFO("point " << c.x << "," << c.y << " size " << c.size);
		for (uint32_t y = 0; y < t.height; ++y)
			for (uint32_t x = 0; x < t.width; ++x) {
				float expected = int(x) >= c.x0 && int(x) <= c.x1 && int(y) >= c.y0 && int(y) <= c.y1 ? 1.0f : 0.0f;
				INFO("pixel " << x << "," << y);
				CHECK(t.At(x, y) == expected);
			}
	}
}

TEST_CASE("raster: random points match a per-sample reference", "[raster]") {
	for (uint32_t samples : {1u, 4u}) {
		std::mt19937 rng(11);
		// Centers and sizes on the 1/256 grid: corners need no snapping.
		std::uniform_int_distribution<int> pos(0, 40 * 256), size(1 * 256, 12 * 256);
		for (int iter = 0; iter < 40; ++iter) {
			Target t(40, 40, VK_FORMAT_R32_SFLOAT, samples);
			double cx = pos(rng) / 256.0, cy = pos(rng) / 256.0, sz = size(rng) / 256.0;
			Mesh m;
			m.Add(t, cx, cy);
			std::vector<float> sizes = {float(sz)};
			Draw(CountingState(t), t, Points(m, sizes));
			const SampleLocation* loc = StandardSampleLocations(samples);
			uint32_t bad = 0;
			for (uint32_t y = 0; y < t.height; ++y)
				for (uint32_t x = 0; x < t.width; ++x)
					for (uint32_t s = 0; s < samples; ++s) {
						double px = x + loc[s].x / 256.0, py = y + loc[s].y / 256.0;
						bool in = px >= cx - sz / 2 && px < cx + sz / 2 && py >= cy - sz / 2 && py < cy + sz / 2;
						bad += t.At(x, y, 0, s) != (in ? 1.0f : 0.0f);
					}
			INFO("samples " << samples << " point " << cx << "," << cy << " size " << sz);
			CHECK(bad == 0);
		}
	}
}

TEST_CASE("raster: gl_PointCoord, constant varyings and depth of points", "[raster]") {
	Target t(16, 16, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = MakeState(t);
	state.shader.run = PointCoordShader;
	state.raster.varying_count = 1;
	for (Interpolation mode : {Interpolation::Smooth, Interpolation::NoPerspective, Interpolation::Flat}) {
		state.raster.interpolation[0] = mode;
		Mesh m;
		m.Add(t, 8, 8, 0.25f, 3.0f, {0.3f});  // w = 3: smooth values still exact
		std::vector<float> sizes = {4};
		Draw(state, t, Points(m, sizes));
		for (uint32_t y = 6; y < 10; ++y)
			for (uint32_t x = 6; x < 10; ++x) {
				// §28.6.1: s = 1/2 + (x_p - x_f) / size at the pixel center.
				CHECK(t.At(x, y, 0) == 0.5f + (x + 0.5f - 8.0f) / 4.0f);
				CHECK(t.At(x, y, 1) == 0.5f + (y + 0.5f - 8.0f) / 4.0f);
				CHECK(t.At(x, y, 2) == 0.3f);
				CHECK(t.At(x, y, 3) == 0.25f);
			}
	}
}

TEST_CASE("raster: points outside any clip plane are discarded", "[raster]") {
	// VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES (Vulkan 1.3 §27.2).
	Target t(32, 32);
	Mesh m;
	m.Add(t, 16, 16, 0.5f);   // inside
	m.Add(t, 33, 16, 0.5f);   // right of the view volume, square reaching in
	m.Add(t, 8, 8, -0.25f);   // in front of the near plane
	m.Add(t, 24, 24, 0.75f);  // inside, clipped by its clip distance
	std::vector<float> sizes = {2, 8, 2, 2};
	std::vector<float> clip = {1, 1, 1, -0.5f};
	VertexInput in = Points(m, sizes);
	in.clip_distances = clip.data();
	DrawState state = CountingState(t);
	state.raster.clip_distance_count = 1;
	Draw(state, t, in);
	CHECK(Total(t) == 4);
	CHECK(t.At(16, 16) == 1.0f);
	// Depth clamp keeps the one before the near plane (§27.2).
	Target c(32, 32);
	state.raster.depth_clamp = true;
	state.raster.depth_clip = false;  // as the pipeline sets it without VK_EXT_depth_clip_enable
	Draw(state, c, in);
	CHECK(Total(c) == 8);
	CHECK(c.At(8, 8) == 1.0f);
}

TEST_CASE("raster: a 1-pixel line covers the centers inside its rectangle", "[raster]") {
	// Vulkan 1.3 §28.7.1 (strictLines): the rectangle a-b, 1 wide; the
	// centers on its end edges follow the top-left rule.
	for (bool reverse : {false, true}) {
		Target t(16, 8);
		Mesh m;
		if (reverse)
			m.Add(t, 5.5, 2.5), m.Add(t, 0.5, 2.5);
		else
			m.Add(t, 0.5, 2.5), m.Add(t, 5.5, 2.5);
		VertexInput in = m.Input();
		in.topology = Topology::LineList;
		Draw(CountingState(t), t, in);
		for (uint32_t y = 0; y < t.height; ++y)
			for (uint32_t x = 0; x < t.width; ++x) {
				INFO("reverse " << reverse << " pixel " << x << "," << y);
				CHECK(t.At(x, y) == (y == 2 && x <= 4 ? 1.0f : 0.0f));
			}
	}
}

TEST_CASE("raster: random lines match the rectangle rule away from its edges", "[raster]") {
	for (uint32_t samples : {1u, 4u}) {
		for (float width : {1.0f, 2.5f}) {
			std::mt19937 rng(5);
			std::uniform_real_distribution<double> pos(-4, 44);
			for (int iter = 0; iter < 40; ++iter) {
				Target t(40, 40, VK_FORMAT_R32_SFLOAT, samples);
				double ax = pos(rng), ay = pos(rng), bx = pos(rng), by = pos(rng);
				Mesh m;
				m.Add(t, ax, ay), m.Add(t, bx, by);
				VertexInput in = m.Input();
				in.topology = Topology::LineList;
				DrawState state = CountingState(t);
				state.raster.line_width = width;
				Draw(state, t, in);
				const SampleLocation* loc = StandardSampleLocations(samples);
				const double dx = bx - ax, dy = by - ay, len = std::sqrt(dx * dx + dy * dy);
				uint32_t bad = 0;
				for (uint32_t y = 0; y < t.height; ++y)
					for (uint32_t x = 0; x < t.width; ++x)
						for (uint32_t s = 0; s < samples; ++s) {
							double px = x + loc[s].x / 256.0 - ax, py = y + loc[s].y / 256.0 - ay;
							double along = (px * dx + py * dy) / len, across = std::abs(px * dy - py * dx) / len;
							// Distance to the rectangle's boundary (negative outside).
							double d = std::min({along, len - along, width / 2 - across});
							if (std::abs(d) < 0.02) continue;  // snapping decides these
							bad += t.At(x, y, 0, s) != (d > 0 ? 1.0f : 0.0f);
						}
				INFO("samples " << samples << " width " << width << " line " << ax << "," << ay << " - " << bx << ","
				                << by);
				CHECK(bad == 0);
			}
		}
	}
}

TEST_CASE("raster: a straight line strip covers each pixel once", "[raster]") {
	// Vertices on the 1/256 grid, so that the segments run exactly one way.
	for (auto dir : {std::pair{1.0, 0.0}, {0.0, 1.0}, {2.0, 1.0}, {-1.0, 3.0}}) {
		Target t(64, 64);
		Mesh m;
		const double x0 = 24.25 - 10 * dir.first, y0 = 7.5;
		for (double k : {0.0, 2.0625, 6.0, 11.25, 16.5}) m.Add(t, x0 + k * dir.first, y0 + k * dir.second, 0.5f);
		VertexInput in = m.Input();
		in.topology = Topology::LineStrip;
		Draw(CountingState(t), t, in);
		Target one(64, 64);
		Mesh single;
		single.Add(one, x0, y0);
		single.Add(one, x0 + 16.5 * dir.first, y0 + 16.5 * dir.second);
		VertexInput line = single.Input();
		line.topology = Topology::LineList;
		Draw(CountingState(one), one, line);
		INFO("direction " << dir.first << "," << dir.second);
		uint32_t max = 0;
		for (uint32_t y = 0; y < 64; ++y)
			for (uint32_t x = 0; x < 64; ++x) max = std::max(max, uint32_t(t.At(x, y)));
		CHECK(max == 1);
		// The same pixels as one segment from end to end, give or take the
		// snapping of the inner vertices.
		CHECK(std::abs(int(Total(t)) - int(Total(one))) <= 1);
	}
}

TEST_CASE("raster: line strips restart and lines take flat values from the provoking vertex", "[raster]") {
	Target t(32, 8, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = MakeState(t);
	state.shader.run = FirstVaryingShader;
	state.raster.varying_count = 1;
	state.raster.interpolation[0] = Interpolation::Flat;
	Mesh m;
	m.Add(t, 0.5, 1.5, 0.5f, 1, {1}), m.Add(t, 10.5, 1.5, 0.5f, 1, {2}), m.Add(t, 20.5, 1.5, 0.5f, 1, {3});
	m.Add(t, 0.5, 5.5, 0.5f, 1, {4}), m.Add(t, 10.5, 5.5, 0.5f, 1, {5});
	std::vector<uint32_t> indices = {0, 1, 2, 0xffffffff, 3, 4};
	VertexInput in = m.Input();
	in.topology = Topology::LineStrip;
	in.indices = indices.data();
	in.vertex_count = uint32_t(indices.size());
	in.primitive_restart = true;
	for (bool last : {false, true}) {
		state.raster.provoking_vertex_last = last;
		Draw(state, t, in);
		CHECK(t.At(5, 1) == (last ? 2.0f : 1.0f));
		CHECK(t.At(15, 1) == (last ? 3.0f : 2.0f));
		CHECK(t.At(5, 5) == (last ? 5.0f : 4.0f));
		CHECK(t.At(15, 5) == 0.0f);  // no segment across the restart
	}
}

TEST_CASE("raster: values along a line follow t, perspective-correct or linear", "[raster]") {
	// Vulkan 1.3 §28.7.1: t = (p - a).(b - a) / |b - a|^2; depth linear,
	// smooth varyings f = ((1-t) f_a/w_a + t f_b/w_b) / ((1-t)/w_a + t/w_b).
	Target t(32, 4, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = MakeState(t);
	state.shader.run = [](const void*, FragmentBatch& b) {
		for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
			b.color[0][0][i] = b.varyings[0][i];
			b.color[0][1][i] = b.varyings[1][i];
			b.color[0][2][i] = b.frag_coord[2][i];
			b.color[0][3][i] = b.frag_coord[3][i];
		}
	};
	state.raster.varying_count = 2;
	state.raster.interpolation[0] = Interpolation::Smooth;
	state.raster.interpolation[1] = Interpolation::NoPerspective;
	Mesh m;
	const float wa = 1, wb = 3;
	m.Add(t, 0.5, 1.5, 0.0f, wa, {0, 0}), m.Add(t, 30.5, 1.5, 0.9f, wb, {3, 3});
	VertexInput in = m.Input();
	in.topology = Topology::LineList;
	Draw(state, t, in);
	for (uint32_t x = 0; x < 30; ++x) {
		double tt = x / 30.0;
		double smooth = (tt * 3 / wb) / ((1 - tt) / wa + tt / wb);
		INFO("pixel " << x);
		CHECK(t.At(x, 1, 0) == Approx(smooth).margin(1e-5));
		CHECK(t.At(x, 1, 1) == Approx(3 * tt).margin(1e-5));
		CHECK(t.At(x, 1, 2) == Approx(0.9 * tt).margin(1e-6));
		CHECK(t.At(x, 1, 3) == Approx((1 - tt) / wa + tt / wb).margin(1e-6));
	}
	CHECK(t.At(30, 1, 0) == 0.0f);
}

TEST_CASE("raster: lines are clipped at the near plane and by clip distances", "[raster]") {
	Target t(32, 8, VK_FORMAT_R32G32B32A32_SFLOAT);
	DrawState state = MakeState(t);
	state.shader.run = FirstVaryingShader;
	state.raster.varying_count = 1;
	state.raster.interpolation[0] = Interpolation::NoPerspective;
	state.raster.clip_distance_count = 1;
	Mesh m;
	// z_d from -1 to 1 along x: the part with t < 1/2 lies before the near plane.
	m.Add(t, 0.5, 1.5, -1.0f, 1, {0}), m.Add(t, 20.5, 1.5, 1.0f, 1, {20});
	// Clip distance from 1 to -1: the second half is cut.
	m.Add(t, 0.5, 5.5, 0.5f, 1, {0}), m.Add(t, 20.5, 5.5, 0.5f, 1, {20});
	std::vector<float> clip = {1, 1, 1, -1};
	VertexInput in = m.Input();
	in.topology = Topology::LineList;
	in.clip_distances = clip.data();
	Draw(state, t, in);
	for (uint32_t x = 0; x < 10; ++x) CHECK(t.At(x, 1, 3) == 0.0f);
	for (uint32_t x = 11; x < 20; ++x) {
		INFO("pixel " << x);
		CHECK(t.At(x, 1, 3) == 1.0f);
		CHECK(t.At(x, 1, 0) == Approx(x).margin(1e-4));  // the unclipped line's values
	}
	for (uint32_t x = 0; x < 10; ++x) CHECK(t.At(x, 5, 0) == Approx(x).margin(1e-4));
	for (uint32_t x = 11; x < 20; ++x) CHECK(t.At(x, 5, 3) == 0.0f);
}

TEST_CASE("raster: wide lines cover a rectangle of their width", "[raster]") {
	Target t(16, 12);
	DrawState state = CountingState(t);
	state.raster.line_width = 3;
	Mesh m;
	m.Add(t, 2.5, 5.5), m.Add(t, 8.5, 5.5);
	VertexInput in = m.Input();
	in.topology = Topology::LineList;
	Draw(state, t, in);
	for (uint32_t y = 0; y < t.height; ++y)
		for (uint32_t x = 0; x < t.width; ++x) {
			INFO("pixel " << x << "," << y);
			CHECK(t.At(x, y) == (x >= 2 && x <= 7 && y >= 4 && y <= 6 ? 1.0f : 0.0f));
		}
}

namespace {

// The triangles of a small mesh, some clipped by the near plane.
Mesh PolygonMesh(const Target& t) {
	Mesh m;
	m.Add(t, 2.5, 2.5, 0.5f), m.Add(t, 20.25, 3.5, 0.5f), m.Add(t, 4.5, 18.75, 0.5f);
	m.Add(t, 30, 4, 0.2f), m.Add(t, 50, 30, 0.6f), m.Add(t, 26, 20, 0.4f);
	m.Add(t, 10, 25, -0.5f), m.Add(t, 30, 38, 0.5f), m.Add(t, 4, 38, 0.5f);  // crosses the near plane
	return m;
}

}  // namespace

TEST_CASE("raster: polygon mode LINE draws the triangles' edges as lines", "[raster]") {
	// Vulkan 1.3 §28.8: after clipping and culling; edges made by clipping
	// (along the near plane here) are not polygon edges.
	Target t(48, 48), ref(48, 48);
	Mesh m = PolygonMesh(t);
	DrawState state = CountingState(t);
	state.raster.polygon_mode = VK_POLYGON_MODE_LINE;
	Draw(state, t, m.Input());
	// The same edges as a line list: the third triangle's two edges from
	// its vertex behind the near plane clip to the same points.
	Mesh lines;
	const int edges[][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {6, 7}, {7, 8}, {8, 6}};
	for (const auto& e : edges)
		for (int v : e) lines.positions.insert(lines.positions.end(), &m.positions[4 * v], &m.positions[4 * v + 4]);
	VertexInput in = lines.Input();
	in.topology = Topology::LineList;
	Draw(CountingState(ref), ref, in);
	CHECK(t.color == ref.color);
	CHECK(Total(t) > 80);
	// Culled triangles draw no edges.
	Target culled(48, 48);
	state.raster.cull_mode = VK_CULL_MODE_FRONT_AND_BACK;
	Draw(state, culled, m.Input());
	CHECK(Total(culled) == 0);
}

TEST_CASE("raster: polygon mode POINT draws the triangles' vertices as points", "[raster]") {
	Target t(48, 48), ref(48, 48);
	Mesh m = PolygonMesh(t);
	std::vector<float> sizes(9, 3.0f);
	DrawState state = CountingState(t);
	state.raster.polygon_mode = VK_POLYGON_MODE_POINT;
	VertexInput in = m.Input();
	in.point_sizes = sizes.data();
	Draw(state, t, in);
	// Vertex 6 lies before the near plane, vertex 4 outside the view volume.
	Mesh points;
	for (int v : {0, 1, 2, 3, 5, 7, 8})
		points.positions.insert(points.positions.end(), &m.positions[4 * v], &m.positions[4 * v + 4]);
	std::vector<float> point_sizes(7, 3.0f);
	Draw(CountingState(ref), ref, Points(points, point_sizes));
	CHECK(t.color == ref.color);
	CHECK(Total(t) > 7 * 4);
}

TEST_CASE("raster: depth bias applies to polygons drawn as lines and points", "[raster]") {
	// Vulkan 1.3 §28.9: "all fragments generated by the rasterization of a
	// polygon"; D32 at z = 0.5 = 2^-1: r = 2^(-1 - 23) = 2^-24.
	for (VkPolygonMode mode : {VK_POLYGON_MODE_LINE, VK_POLYGON_MODE_POINT}) {
		Target t(32, 32);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		DrawState state = CountingState(t);
		state.raster.polygon_mode = mode;
		state.depth_stencil.depth_test = true;
		state.depth_stencil.depth_write = true;
		state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
		state.raster.depth_bias_enable = true;
		state.raster.depth_bias_constant = 4096;  // 2^12 * 2^-24 = 2^-12
		Mesh m;
		m.Add(t, 4.5, 4.5, 0.5f), m.Add(t, 24.5, 4.5, 0.5f), m.Add(t, 4.5, 24.5, 0.5f);
		Draw(state, t, m.Input());
		INFO("mode " << mode);
		CHECK(t.DepthAt(4, 4) == 0.5f + 1.0f / 4096);
		CHECK(t.DepthAt(10, 10) == 1.0f);
		// Lines of the line topology take no bias.
		if (mode != VK_POLYGON_MODE_LINE) continue;
		Target l(32, 32);
		l.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		VertexInput in = m.Input();
		in.topology = Topology::LineList;
		in.vertex_count = 2;
		Draw(state, l, in);
		CHECK(l.DepthAt(10, 4) == 0.5f);
	}
}

TEST_CASE("raster: points, lines and polygon modes write the same bytes on any thread count", "[raster]") {
	auto render = [](tessera::runtime::ThreadPool* pool) {
		Target t(300, 200, VK_FORMAT_R8G8B8A8_UNORM);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		DrawState state = BlendedDepthState(t, VK_BLEND_FACTOR_SRC_ALPHA);
		std::mt19937 rng(9);
		std::uniform_real_distribution<float> pos(-40, 340), unit(0, 1);
		Mesh m;
		std::vector<float> sizes;
		for (int i = 0; i < 3000; ++i) {
			float cx = pos(rng), cy = pos(rng) * 0.66f;
			m.Add(t, cx + unit(rng) * 60, cy + unit(rng) * 60, unit(rng), 0.5f + unit(rng),
			      {unit(rng), unit(rng), unit(rng), unit(rng)});
			sizes.push_back(1 + 20 * unit(rng));
		}
		VertexInput in = m.Input();
		in.point_sizes = sizes.data();
		in.topology = Topology::PointList;
		Draw(state, t, in, pool);
		in.topology = Topology::LineStrip;
		state.raster.line_width = 2;
		Draw(state, t, in, pool);
		in.topology = Topology::TriangleList;
		state.raster.polygon_mode = VK_POLYGON_MODE_LINE;
		Draw(state, t, in, pool);
		state.raster.polygon_mode = VK_POLYGON_MODE_POINT;
		Draw(state, t, in, pool);
		return t.color;
	};
	std::vector<uint8_t> single = render(nullptr);
	tessera::runtime::ThreadPool pool4(4), pool3(3);
	CHECK(render(&pool4) == single);
	CHECK(render(&pool3) == single);
	size_t nonzero = 0;
	for (uint8_t v : single) nonzero += v != 0;
	CHECK(nonzero > single.size() / 4);
}
