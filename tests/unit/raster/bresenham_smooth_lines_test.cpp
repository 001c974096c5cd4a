// VK_EXT_line_rasterization's Bresenham and smooth lines in the rasterizer:
// Bresenham lines against a direct reading of the spec's diamond-exit rule
// (long double arithmetic with a small perturbation), one fragment a
// column, whole pixels at any sample count, wide lines as columns of the
// moved segment; smooth lines' coverage in the alpha of color output 0.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "raster/primitive.h"
#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

using Pixel = std::pair<int, int>;

// Vulkan "Bresenham Line Segment Rasterization" as written: the fragments
// whose diamond |x - x_f| + |y - y_f| < 1/2 the segment from
// a - (e, e^2) to b - (e, e^2) intersects, unless b - (e, e^2) lies in it.
// Widths above 1 move the segment by -(w - 1)/2 across its major axis and
// make each fragment a column (row) of w. e = 2^-24 is far below the gaps
// between the distances of segments whose ends lie on a 1/16 grid and
// span under 64 pixels, and e^2 is still far above long double's rounding.
std::set<Pixel> DiamondExit(long double xa, long double ya, long double xb, long double yb, int width = 1) {
	const bool x_major = std::abs(xb - xa) >= std::abs(yb - ya);
	const long double shift = (width - 1) / 2.0L;
	if (x_major)
		ya -= shift, yb -= shift;
	else
		xa -= shift, xb -= shift;
	const long double e = std::ldexp(1.0L, -24);
	xa -= e, xb -= e, ya -= e * e, yb -= e * e;
	auto distance = [](long double x, long double y, long double cx, long double cy) {
		return std::abs(x - cx) + std::abs(y - cy);
	};
	std::set<Pixel> out;
	const int x0 = int(std::floor(std::min(xa, xb))) - 2, x1 = int(std::ceil(std::max(xa, xb))) + 2;
	const int y0 = int(std::floor(std::min(ya, yb))) - 2, y1 = int(std::ceil(std::max(ya, yb))) + 2;
	for (int y = y0; y <= y1; ++y)
		for (int x = x0; x <= x1; ++x) {
			const long double cx = x + 0.5L, cy = y + 0.5L;
			// The distance along the segment is convex and piecewise linear:
			// its least value is at an end or where x or y meets the center's.
			long double best = std::min(distance(xa, ya, cx, cy), distance(xb, yb, cx, cy));
			for (long double u : {xb != xa ? (cx - xa) / (xb - xa) : -1.0L, yb != ya ? (cy - ya) / (yb - ya) : -1.0L})
				if (u > 0 && u < 1) best = std::min(best, distance(xa + u * (xb - xa), ya + u * (yb - ya), cx, cy));
			if (best < 0.5L && !(distance(xb, yb, cx, cy) < 0.5L))
				for (int k = 0; k < width; ++k) out.insert(x_major ? Pixel{x, y + k} : Pixel{x + k, y});
		}
	return out;
}

DrawState BresenhamState(const Target& t, float width) {
	DrawState s = CountingState(t);
	s.raster.line_mode = LineMode::Bresenham;
	s.raster.line_width = width;
	return s;
}

// The pixels drawn, each sample's count checked against `expected` (a
// Bresenham line covers every sample of its pixels, once).
std::set<Pixel> Drawn(const Target& t, uint32_t* bad_samples) {
	std::set<Pixel> out;
	for (uint32_t y = 0; y < t.height; ++y)
		for (uint32_t x = 0; x < t.width; ++x) {
			const float first = t.At(x, y, 0, 0);
			for (uint32_t s = 1; s < t.samples; ++s) *bad_samples += t.At(x, y, 0, s) != first;
			if (first != 0) out.insert({int(x), int(y)});
			*bad_samples += first != 0 && first != 1;
		}
	return out;
}

std::string Describe(const std::set<Pixel>& a, const std::set<Pixel>& b) {
	std::string s;
	for (const Pixel& p : a)
		if (!b.count(p)) s += " +(" + std::to_string(p.first) + "," + std::to_string(p.second) + ")";
	for (const Pixel& p : b)
		if (!a.count(p)) s += " -(" + std::to_string(p.first) + "," + std::to_string(p.second) + ")";
	return s;
}

}  // namespace

TEST_CASE("raster: Bresenham lines are the diamond-exit rule's fragments", "[raster][lines]") {
	std::mt19937 rng(11);
	// Ends on a 1/16 grid; every fourth on pixel centers, edges or corners,
	// where the perturbation decides.
	std::uniform_int_distribution<int> grid(4 * 16, 44 * 16), coarse(8, 88);
	for (uint32_t samples : {1u, 4u}) {
		for (int width : {1, 2, 3}) {
			for (int iter = 0; iter < 300; ++iter) {
				double p[4];
				for (double& v : p) v = iter % 4 == 0 ? coarse(rng) / 2.0 : grid(rng) / 16.0;
				if (iter % 8 == 0) p[3] = p[1] + (p[2] - p[0]) * (iter % 16 == 0 ? 1 : -1);  // slope +-1
				if (p[3] < 0 || p[3] > 48) p[3] = p[1];
				Target t(48, 48, VK_FORMAT_R32_SFLOAT, samples);
				Mesh m;
				m.Add(t, p[0], p[1]), m.Add(t, p[2], p[3]);
				VertexInput in = m.Input();
				in.topology = Topology::LineList;
				Draw(BresenhamState(t, float(width)), t, in);
				uint32_t bad = 0;
				const std::set<Pixel> drawn = Drawn(t, &bad);
				std::set<Pixel> expected;
				for (const Pixel& q : DiamondExit(p[0], p[1], p[2], p[3], width))
					if (q.first >= 0 && q.second >= 0 && q.first < 48 && q.second < 48) expected.insert(q);
				INFO("samples " << samples << " width " << width << " line " << p[0] << "," << p[1] << " - " << p[2]
				                << "," << p[3] << ":" << Describe(drawn, expected));
				CHECK(bad == 0);
				CHECK(drawn == expected);
			}
		}
	}
}

TEST_CASE("raster: Bresenham line widths round to whole pixels", "[raster][lines]") {
	// Vulkan: "rounding the line width to the nearest integer ... then
	// clamping it to be no less than 1".
	for (auto [width, rounded] : {std::pair{0.4f, 1}, {1.4f, 1}, {1.6f, 2}, {2.5f, 3}, {4.2f, 4}}) {
		Target t(32, 32);
		Mesh m;
		m.Add(t, 4.5, 10.25), m.Add(t, 24.5, 12.75);
		VertexInput in = m.Input();
		in.topology = Topology::LineList;
		Draw(BresenhamState(t, width), t, in);
		uint32_t bad = 0;
		INFO("width " << width);
		CHECK(Drawn(t, &bad) == DiamondExit(4.5, 10.25, 24.5, 12.75, rounded));
		CHECK(bad == 0);
	}
}

TEST_CASE("raster: a Bresenham line strip draws each shared end once, without gaps", "[raster][lines]") {
	// Vulkan: connected segments that run the same way "must not produce
	// duplicate fragments ... must not be omitted".
	std::mt19937 rng(3);
	std::uniform_int_distribution<int> step(1, 7 * 16);
	for (int iter = 0; iter < 40; ++iter) {
		Target t(64, 64);
		Mesh m;
		double x = 8.0 + iter % 5 * 0.125, y = 8.0 + iter % 3 * 0.5;
		const bool x_major = iter % 2 == 0;
		std::set<Pixel> expected;
		double px = x, py = y;
		m.Add(t, x, y);
		for (int k = 0; k < 6; ++k) {
			const double major = 1.0 + step(rng) / 16.0, minor = (step(rng) - 56) / 16.0 * 0.9 * major / 7.0;
			x += x_major ? major : std::round(minor * 16) / 16;  // on the grid, as setup snaps them
			y += x_major ? std::round(minor * 16) / 16 : major;
			m.Add(t, x, y);
			for (const Pixel& q : DiamondExit(px, py, x, y))
				if (q.first >= 0 && q.second >= 0 && q.first < 64 && q.second < 64) CHECK(expected.insert(q).second);
			px = x, py = y;
		}
		VertexInput in = m.Input();
		in.topology = Topology::LineStrip;
		Draw(BresenhamState(t, 1.0f), t, in);
		uint32_t bad = 0;  // also: no pixel counted twice
		const std::set<Pixel> drawn = Drawn(t, &bad);
		INFO("strip " << iter << Describe(drawn, expected));
		CHECK(bad == 0);
		CHECK(drawn == expected);
	}
}

TEST_CASE("raster: Bresenham lines interpolate along t and test depth per pixel", "[raster][lines]") {
	// Values follow t of the pixel center's projection on the segment.
	Target t(32, 8, VK_FORMAT_R32G32B32A32_SFLOAT, 4);
	DrawState state = MakeState(t);
	state.raster.line_mode = LineMode::Bresenham;
	state.raster.varying_count = 1;
	state.raster.interpolation[0] = Interpolation::NoPerspective;
	state.shader.run = VaryingColorShader;
	Mesh m;
	m.varying_count = 1;
	m.Add(t, 2.5, 3.5, 0.5f, 1.0f, {0.0f}), m.Add(t, 22.5, 3.5, 0.5f, 1.0f, {20.0f});
	VertexInput in = m.Input();
	in.topology = Topology::LineList;
	Draw(state, t, in);
	for (uint32_t x = 0; x < t.width; ++x)
		for (uint32_t s = 0; s < 4; ++s) {
			INFO("x " << x << " sample " << s);
			const float expected = x >= 2 && x < 22 ? float(x) - 2.0f : 0.0f;
			// Samples take their own positions for the values; all are covered.
			CHECK(std::abs(t.At(x, 3, 0, s) - expected) <= 0.5f);
		}
}

TEST_CASE("raster: smooth lines multiply their coverage into alpha", "[raster][lines]") {
	// A horizontal line between two rows covers half of each; a line along
	// pixel centers covers its row whole; diagonals keep their area.
	struct Case {
		double xa, ya, xb, yb;
		float width;
	};
	for (const Case& c : {Case{4.5, 10.0, 20.5, 10.0, 1.0f}, Case{4.5, 10.5, 20.5, 10.5, 1.0f},
	                      Case{4.0, 4.0, 24.0, 20.0, 1.0f}, Case{6.25, 3.5, 9.75, 26.0, 2.5f}}) {
		Target t(32, 32, VK_FORMAT_R32G32B32A32_SFLOAT);
		DrawState state = MakeState(t);
		state.raster.line_mode = LineMode::Smooth;
		state.raster.line_width = c.width;
		state.raster.varying_count = 4;
		for (int k = 0; k < 4; ++k) state.raster.interpolation[k] = Interpolation::NoPerspective;
		state.shader.run = VaryingColorShader;
		Mesh m;
		m.varying_count = 4;
		m.Add(t, c.xa, c.ya, 0.5f, 1.0f, {1, 1, 1, 1}), m.Add(t, c.xb, c.yb, 0.5f, 1.0f, {1, 1, 1, 1});
		VertexInput in = m.Input();
		in.topology = Topology::LineList;
		Draw(state, t, in);
		double area = 0;
		for (uint32_t y = 0; y < t.height; ++y)
			for (uint32_t x = 0; x < t.width; ++x) {
				const float a = t.At(x, y, 3);
				CHECK(a >= 0.0f);
				CHECK(a <= 1.0f);
				area += a;
			}
		const double length = std::hypot(c.xb - c.xa, c.yb - c.ya);
		INFO("line " << c.xa << "," << c.ya << " - " << c.xb << "," << c.yb << " area " << area);
		CHECK(std::abs(area - length * c.width) <= 0.05 * length * c.width);
		if (c.ya == 10.0 && c.yb == 10.0) {
			CHECK(t.At(12, 9, 3) == Approx(0.5f));
			CHECK(t.At(12, 10, 3) == Approx(0.5f));
			CHECK(t.At(4, 9, 3) == Approx(0.25f));  // half a pixel of the row's end, half across
			CHECK(t.At(12, 8, 3) == 0.0f);
		}
		if (c.ya == 10.5 && c.yb == 10.5) {
			CHECK(t.At(12, 10, 3) == Approx(1.0f));
			CHECK(t.At(12, 9, 3) == 0.0f);
		}
	}
}
