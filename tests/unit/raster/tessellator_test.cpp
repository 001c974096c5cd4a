// The fixed-function tessellator (Vulkan "Tessellation"): patch discard,
// spacing, the special cases, winding, coverage of the domain, point mode,
// and the invariance rules the CTS checks (vktTessellationInvarianceTests,
// vktTessellationFractionalSpacingTests, vktTessellationCoordinatesTests).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "raster/tessellator.h"

using namespace tessera::raster;

namespace {

using Vec3 = std::array<float, 3>;

constexpr TessSpacing kSpacings[] = {TessSpacing::kEqual, TessSpacing::kFractionalEven, TessSpacing::kFractionalOdd};
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Levels {
	float outer[4];
	float inner[2];
};

TessellationState State(TessDomain domain, TessSpacing spacing, bool point_mode = false, bool ccw = true,
                        bool lower_left = false) {
	TessellationState s;
	s.domain = domain;
	s.spacing = spacing;
	s.point_mode = point_mode;
	s.ccw = ccw;
	s.lower_left = lower_left;
	return s;
}

Tessellation Run(const TessellationState& state, const Levels& l) {
	Tessellation t;
	REQUIRE(Tessellate(state, l.outer, l.inner, t));
	return t;
}

Vec3 Coord(const Tessellation& t, uint32_t i) { return {t.coords[3 * i], t.coords[3 * i + 1], t.coords[3 * i + 2]}; }
uint32_t PointCount(const Tessellation& t) { return static_cast<uint32_t>(t.coords.size() / 3); }

// The spec's a ("Tessellator Vertex Winding Order"), in double: the float
// products are exact there.
double WindingA(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
	const double u0 = p0[0], v0 = p0[1], u1 = p1[0], v1 = p1[1], u2 = p2[0], v2 = p2[1];
	return u0 * v1 - u1 * v0 + u1 * v2 - u2 * v1 + u2 * v0 - u0 * v2;
}

// The CTS's getClampedRoundedTessLevel, written again.
int Rounded(TessSpacing spacing, float level) {
	switch (spacing) {
	case TessSpacing::kEqual: return static_cast<int>(std::ceil(std::clamp(level, 1.0f, 64.0f)));
	case TessSpacing::kFractionalEven: {
		const int n = static_cast<int>(std::ceil(std::clamp(level, 2.0f, 64.0f)));
		return n % 2 ? n + 1 : n;
	}
	case TessSpacing::kFractionalOdd: {
		const int n = static_cast<int>(std::ceil(std::clamp(level, 1.0f, 63.0f)));
		return n % 2 ? n : n + 1;
	}
	}
	return 0;
}

float Clamped(TessSpacing spacing, float level) {
	return spacing == TessSpacing::kFractionalEven  ? std::clamp(level, 2.0f, 64.0f)
	       : spacing == TessSpacing::kFractionalOdd ? std::clamp(level, 1.0f, 63.0f)
	                                                : std::clamp(level, 1.0f, 64.0f);
}

// The CTS's referencePrimitiveCount (vktTessellationUtil.cpp), for
// triangles and quads (isolines are n0 * n1 segments, n0 * (n1 + 1) points).
int ReferenceTriangleCount(TessSpacing spacing, int inner, const int outer[3], bool points) {
	const int plus_epsilon = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	if (inner == 1) {
		if (outer[0] == 1 && outer[1] == 1 && outer[2] == 1) return points ? 3 : 1;
		inner = plus_epsilon;
	}
	int result = outer[0] + outer[1] + outer[2];
	for (int ring = 1; ring <= inner / 2; ++ring) {
		const int level = inner - 2 * ring;
		if (points)
			result += level == 0 ? 1 : 3 * level;
		else
			result += level == 1 ? 4 : 6 * level;
	}
	return result;
}

int ReferenceQuadCount(TessSpacing spacing, int inner0, int inner1, const int outer[4], bool points) {
	const int plus_epsilon = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	const int outer_sum = outer[0] + outer[1] + outer[2] + outer[3];
	if (inner0 == 1 && inner1 == 1 && outer_sum == 4) return points ? 4 : 2;
	if (inner0 == 1) inner0 = plus_epsilon;
	if (inner1 == 1) inner1 = plus_epsilon;
	if (points) return outer_sum + (inner0 - 1) * (inner1 - 1);
	return 2 * (inner0 - 2) * (inner1 - 2) + 2 * (inner0 - 2) + 2 * (inner1 - 2) + outer_sum;
}

bool OnTriangleBoundary(const Vec3& a, const Vec3& b) {
	for (int c = 0; c < 3; ++c)
		if (a[c] == 0.0f && b[c] == 0.0f) return true;
	return false;
}

bool OnQuadBoundary(const Vec3& a, const Vec3& b) {
	for (int c = 0; c < 2; ++c)
		if ((a[c] == 0.0f && b[c] == 0.0f) || (a[c] == 1.0f && b[c] == 1.0f)) return true;
	return false;
}

// Fractional odd spacing with an inner level of 1 taken as 1 + epsilon
// (some other level above 1): the three inner segments are 0, 1, 0 long, so
// the inner points sit on the outer corners or edges and the ring between
// them and the outer edges is made of zero-area triangles.
bool OddPlusEpsilon(TessDomain domain, TessSpacing spacing, const Levels& l) {
	if (spacing != TessSpacing::kFractionalOdd) return false;
	auto one = [&](float level) { return Rounded(spacing, level) == 1; };
	if (domain == TessDomain::kTriangles)
		return one(l.inner[0]) && !(one(l.outer[0]) && one(l.outer[1]) && one(l.outer[2]));
	if (domain == TessDomain::kQuads)
		return (one(l.inner[0]) || one(l.inner[1])) && !(one(l.inner[0]) && one(l.inner[1]) && one(l.outer[0]) &&
		                                                 one(l.outer[1]) && one(l.outer[2]) && one(l.outer[3]));
	return false;
}

// The triangles tile the domain: every triangle has the requested
// orientation and positive area, their areas add up to the domain's, every
// directed edge appears once, and an edge without its reverse lies on the
// domain's boundary. Points are distinct, in the domain, and all used.
// With degenerate (OddPlusEpsilon) points may coincide and triangles have
// zero area, but none the wrong orientation.
// Returns the number of failures (with one diagnostic each).
int CheckTiling(const Tessellation& t, TessDomain domain, bool want_positive, const char* what,
                bool degenerate = false) {
	int failures = 0;
	auto fail = [&](const char* why) {
		if (failures++ < 3) UNSCOPED_INFO(what << ": " << why);
	};
	const uint32_t count = PointCount(t);
	std::vector<Vec3> distinct;
	for (uint32_t i = 0; i < count; ++i) {
		const Vec3 p = Coord(t, i);
		distinct.push_back(p);
		for (float c : p)
			if (!(c >= 0.0f && c <= 1.0f)) fail("coordinate outside [0, 1]");
		if (domain == TessDomain::kTriangles) {
			if (std::abs(double(p[0]) + p[1] + p[2] - 1.0) > 1.2e-7) fail("u + v + w != 1");
		} else if (p[2] != 0.0f) {
			fail("w != 0 for quads");
		}
	}
	std::sort(distinct.begin(), distinct.end());
	if (!degenerate && std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end())
		fail("two points with the same coordinates");
	if (t.indices.size() % 3 != 0) fail("index count not a multiple of 3");
	// Directed edges as (from << 32 | to), sorted: a duplicate is an
	// overlap, an edge without its reverse must lie on the boundary.
	std::vector<uint64_t> edges;
	std::vector<bool> used(count, false);
	double area = 0;
	for (size_t i = 0; i + 2 < t.indices.size(); i += 3) {
		const uint32_t id[3] = {t.indices[i], t.indices[i + 1], t.indices[i + 2]};
		for (uint32_t k : id) {
			if (k >= count) return failures + 1;
			used[k] = true;
		}
		const double a = WindingA(Coord(t, id[0]), Coord(t, id[1]), Coord(t, id[2]));
		if (degenerate && a == 0) {
			// zero area: allowed only in the degenerate ring
		} else if (want_positive ? !(a > 0) : !(a < 0)) {
			fail("triangle with the wrong orientation or zero area");
		}
		area += std::abs(a) / 2;
		for (int e = 0; e < 3; ++e) edges.push_back(uint64_t(id[e]) << 32 | id[(e + 1) % 3]);
	}
	std::sort(edges.begin(), edges.end());
	if (std::adjacent_find(edges.begin(), edges.end()) != edges.end()) fail("directed edge used twice (overlap)");
	for (uint64_t edge : edges) {
		const uint32_t from = uint32_t(edge >> 32), to = uint32_t(edge);
		if (std::binary_search(edges.begin(), edges.end(), uint64_t(to) << 32 | from)) continue;
		const Vec3 a = Coord(t, from), b = Coord(t, to);
		if (!(domain == TessDomain::kTriangles ? OnTriangleBoundary(a, b) : OnQuadBoundary(a, b)))
			fail("an open edge inside the domain (gap)");
	}
	const double domain_area = domain == TessDomain::kTriangles ? 0.5 : 1.0;
	if (std::abs(area - domain_area) > 1e-6) fail("areas do not add up to the domain's");
	if (std::find(used.begin(), used.end(), false) != used.end()) fail("a point used by no triangle");
	return failures;
}

// The parameters along one outer edge: triangles, component c == 0 (the
// other two, in order, as the parameter and its complement); quads, u or v
// equal to 0 or 1.
std::set<float> TriangleEdgeParams(const Tessellation& t, int c) {
	std::set<float> result;
	for (uint32_t i = 0; i < PointCount(t); ++i) {
		const Vec3 p = Coord(t, i);
		if (p[c] == 0.0f) result.insert(p[(c + 1) % 3]);
	}
	return result;
}

std::set<float> QuadEdgeParams(const Tessellation& t, int edge) {
	// Edges in outer-level order: u = 0, v = 0, u = 1, v = 1.
	const int c = edge % 2;
	const float value = edge < 2 ? 0.0f : 1.0f;
	std::set<float> result;
	for (uint32_t i = 0; i < PointCount(t); ++i) {
		const Vec3 p = Coord(t, i);
		if (p[c] == value) result.insert(p[1 - c]);
	}
	return result;
}

// Positions along an edge divided by level: isolines {1, level}, point mode.
std::vector<float> EdgeOf(TessSpacing spacing, float level) {
	const Levels l = {{1, level, 0, 0}, {0, 0}};
	const Tessellation t = Run(State(TessDomain::kIsolines, spacing, true), l);
	std::vector<float> u;
	for (uint32_t i = 0; i < PointCount(t); ++i) u.push_back(t.coords[3 * i]);
	std::sort(u.begin(), u.end());
	return u;
}

bool BitEqual(const Tessellation& a, const Tessellation& b) {
	return a.coords.size() == b.coords.size() && a.indices == b.indices &&
	       std::memcmp(a.coords.data(), b.coords.data(), a.coords.size() * sizeof(float)) == 0;
}

// The CTS's generateReference{Triangle,Quad}TessCoords for integer levels.
std::vector<Vec3> ReferenceTriangleCoords(TessSpacing spacing, int inner, const int outer[3]) {
	std::vector<Vec3> result;
	if (inner == 1) {
		if (outer[0] == 1 && outer[1] == 1 && outer[2] == 1) return {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
		inner = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	}
	for (int i = 0; i < outer[0]; ++i) result.push_back({0, float(i) / outer[0], 1 - float(i) / outer[0]});
	for (int i = 0; i < outer[1]; ++i) result.push_back({1 - float(i) / outer[1], 0, float(i) / outer[1]});
	for (int i = 0; i < outer[2]; ++i) result.push_back({float(i) / outer[2], 1 - float(i) / outer[2], 0});
	for (int ring = 1; ring <= inner / 2; ++ring) {
		const int level = inner - 2 * ring;
		if (level == 0) {
			result.push_back({1 / 3.0f, 1 / 3.0f, 1 / 3.0f});
			continue;
		}
		const float lo = float(2 * ring) / float(3 * inner), hi = 1 - 2 * lo;
		const Vec3 corners[3] = {{hi, lo, lo}, {lo, hi, lo}, {lo, lo, hi}};
		for (int i = 0; i < level; ++i)
			for (int j = 0; j < 3; ++j) {
				const float f = float(i) / level;
				const Vec3& a = corners[j];
				const Vec3& b = corners[(j + 1) % 3];
				result.push_back({(1 - f) * a[0] + f * b[0], (1 - f) * a[1] + f * b[1], (1 - f) * a[2] + f * b[2]});
			}
	}
	return result;
}

std::vector<Vec3> ReferenceQuadCoords(TessSpacing spacing, int inner0, int inner1, const int outer[4]) {
	const int plus_epsilon = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	if (inner0 == 1 && inner1 == 1 && outer[0] + outer[1] + outer[2] + outer[3] == 4)
		return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
	if (inner0 == 1) inner0 = plus_epsilon;
	if (inner1 == 1) inner1 = plus_epsilon;
	std::vector<Vec3> result;
	for (int i = 0; i < outer[0]; ++i) result.push_back({0, float(i) / outer[0], 0});
	for (int i = 0; i < outer[1]; ++i) result.push_back({1 - float(i) / outer[1], 0, 0});
	for (int i = 0; i < outer[2]; ++i) result.push_back({1, 1 - float(i) / outer[2], 0});
	for (int i = 0; i < outer[3]; ++i) result.push_back({float(i) / outer[3], 1, 0});
	for (int y = 0; y < inner1 - 1; ++y)
		for (int x = 0; x < inner0 - 1; ++x) result.push_back({float(x + 1) / inner0, float(y + 1) / inner1, 0});
	return result;
}

// Every point of a within 0.01 of some point of b (the CTS's epsilon).
bool Covers(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
	for (const Vec3& p : a) {
		bool found = false;
		for (const Vec3& q : b)
			if (std::abs(p[0] - q[0]) <= 0.01f && std::abs(p[1] - q[1]) <= 0.01f && std::abs(p[2] - q[2]) <= 0.01f) {
				found = true;
				break;
			}
		if (!found) return false;
	}
	return true;
}

std::vector<Vec3> AllCoords(const Tessellation& t) {
	std::vector<Vec3> result;
	for (uint32_t i = 0; i < PointCount(t); ++i) result.push_back(Coord(t, i));
	return result;
}

// A level grid with the special values the brief and the CTS care about.
constexpr float kGridLevels[] = {1.0f, 1.0001f, 2.0f, 2.5f, 5.0f, 7.3f, 64.0f};

// A small deterministic generator for "random" levels.
struct Lcg {
	uint32_t state = 12345;
	float Level(float lo, float hi) {
		state = state * 1664525u + 1013904223u;
		return lo + (hi - lo) * float(state >> 8) / float(1u << 24);
	}
};

}  // namespace

TEST_CASE("tessellator: a relevant outer level <= 0 or NaN discards the patch", "[raster][tessellator]") {
	const struct {
		TessDomain domain;
		int relevant;
	} cases[] = {{TessDomain::kTriangles, 3}, {TessDomain::kQuads, 4}, {TessDomain::kIsolines, 2}};
	for (const auto& c : cases)
		for (TessSpacing spacing : kSpacings) {
			const TessellationState state = State(c.domain, spacing);
			for (int i = 0; i < 4; ++i)
				for (float bad : {0.0f, -0.0f, -0.42f, -100.0f, kNaN}) {
					Levels l = {{3, 3, 3, 3}, {3, 3}};
					l.outer[i] = bad;
					Tessellation t;
					t.coords = {1, 2, 3};  // cleared either way
					t.indices = {7};
					const bool kept = Tessellate(state, l.outer, l.inner, t);
					INFO("domain " << int(c.domain) << " spacing " << int(spacing) << " outer[" << i << "] = " << bad);
					CHECK(kept == (i >= c.relevant));
					if (!kept) {
						CHECK(t.coords.empty());
						CHECK(t.indices.empty());
					} else {
						CHECK(!t.indices.empty());
					}
				}
			// Negative and NaN inner levels clamp; they never discard.
			for (float inner : {-5.0f, 0.0f, kNaN}) {
				const Levels l = {{2, 2, 2, 2}, {inner, inner}};
				Tessellation t;
				CHECK(Tessellate(state, l.outer, l.inner, t));
				CHECK(!t.indices.empty());
			}
		}
}

TEST_CASE("tessellator: all levels 1 give a single triangle or a single quad pair", "[raster][tessellator]") {
	for (TessSpacing spacing : {TessSpacing::kEqual, TessSpacing::kFractionalOdd}) {
		for (float one : {1.0f, 0.5f, 0.001f}) {              // all clamp to 1
			const Levels l = {{one, one, one, 7}, {one, 9}};  // outer[3], inner[1]: no effect on triangles
			const Tessellation tri = Run(State(TessDomain::kTriangles, spacing), l);
			REQUIRE(tri.indices.size() == 3);
			const std::vector<Vec3> tri_coords = AllCoords(tri);
			const std::set<Vec3> corners(tri_coords.begin(), tri_coords.end());
			CHECK(tri_coords.size() == 3);
			CHECK(corners == std::set<Vec3>{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}});
			CHECK(CheckTiling(tri, TessDomain::kTriangles, false, "single triangle") == 0);

			const Levels q = {{one, one, one, one}, {one, one}};
			const Tessellation quad = Run(State(TessDomain::kQuads, spacing), q);
			REQUIRE(quad.indices.size() == 6);
			const std::vector<Vec3> quad_coords = AllCoords(quad);
			const std::set<Vec3> quad_corners(quad_coords.begin(), quad_coords.end());
			CHECK(quad_corners == std::set<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
			CHECK(CheckTiling(quad, TessDomain::kQuads, false, "single quad") == 0);
		}
	}
	// Fractional even clamps every level to 2: never the single triangle.
	const Levels l = {{1, 1, 1, 1}, {1, 1}};
	const Tessellation even = Run(State(TessDomain::kTriangles, TessSpacing::kFractionalEven), l);
	CHECK(even.indices.size() == 3 * 6);  // outer edges of 2 fanned to the center
}

TEST_CASE("tessellator: inner level 1 with an outer level above 1 is 1 + epsilon", "[raster][tessellator]") {
	// Equal: two segments, the degenerate center point; fractional odd:
	// three, an inner triangle of corners only.
	const Levels l = {{2, 1, 1, 1}, {1, 1}};
	const Tessellation equal = Run(State(TessDomain::kTriangles, TessSpacing::kEqual), l);
	CHECK(equal.indices.size() / 3 == 4);  // 2 + 1 + 1 outer segments fanned to the center
	const std::vector<Vec3> coords = AllCoords(equal);
	CHECK(std::count_if(coords.begin(), coords.end(), [](const Vec3& p) {
		      return std::abs(p[0] - 1 / 3.0) < 1e-7 && std::abs(p[1] - 1 / 3.0) < 1e-7 &&
		             std::abs(p[2] - 1 / 3.0) < 1e-7;
	      }) == 1);
	CHECK(CheckTiling(equal, TessDomain::kTriangles, false, "equal 1+eps") == 0);

	const Tessellation odd = Run(State(TessDomain::kTriangles, TessSpacing::kFractionalOdd), l);
	// Outer 3 + 1 + 1 (2 rounds up to 3), the inner triangle's sides 3, the inner triangle.
	CHECK(odd.indices.size() / 3 == 5 + 3 + 1);
	CHECK(PointCount(odd) == 5 + 3);
	CHECK(CheckTiling(odd, TessDomain::kTriangles, false, "odd 1+eps", true) == 0);
	// Its epsilon is zero: the inner triangle (the last one) is the outer
	// triangle, its corners points of their own.
	{
		const size_t last = odd.indices.size() - 3;
		std::set<Vec3> corners;
		std::set<uint32_t> ids;
		for (size_t i = last; i < last + 3; ++i) {
			corners.insert(Coord(odd, odd.indices[i]));
			ids.insert(odd.indices[i]);
		}
		CHECK(corners == std::set<Vec3>{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}});
		CHECK(ids.size() == 3);
	}

	const Levels q = {{1, 1, 3, 1}, {1, 1}};
	const Tessellation quad_equal = Run(State(TessDomain::kQuads, TessSpacing::kEqual), q);
	CHECK(PointCount(quad_equal) == 6 + 1);  // corners, two points on u = 1, the center
	CHECK(quad_equal.indices.size() / 3 == 6);
	CHECK(CheckTiling(quad_equal, TessDomain::kQuads, false, "quad equal 1+eps") == 0);
	const Tessellation quad_odd = Run(State(TessDomain::kQuads, TessSpacing::kFractionalOdd), q);
	CHECK(PointCount(quad_odd) == 6 + 4);  // a 2x2 inner grid point block, on the corners
	CHECK(CheckTiling(quad_odd, TessDomain::kQuads, false, "quad odd 1+eps", true) == 0);
	for (const Vec3& p : AllCoords(quad_odd)) {
		CHECK((p[0] == 0.0f || p[0] == 1.0f || p[1] == 0.0f || p[1] == 1.0f));
	}
}

TEST_CASE("tessellator: spacing rounds the clamped level to the segment count", "[raster][tessellator]") {
	const struct {
		float level;
		int equal, even, odd;
	} cases[] = {
	    {0.3f, 1, 2, 1},
	    {1.0f, 1, 2, 1},
	    {1.5f, 2, 2, 3},
	    {2.0f, 2, 2, 3},
	    {3.0f, 3, 4, 3},
	    {3.7f, 4, 4, 5},
	    {4.1f, 5, 6, 5},
	    {62.3f, 63, 64, 63},
	    {63.0f, 63, 64, 63},
	    {63.5f, 64, 64, 63},
	    {64.0f, 64, 64, 63},
	    {100.0f, 64, 64, 63},
	    {std::numeric_limits<float>::infinity(), 64, 64, 63},
	};
	for (const auto& c : cases) {
		INFO("level " << c.level);
		CHECK(EdgeOf(TessSpacing::kEqual, c.level).size() == size_t(c.equal + 1));
		CHECK(EdgeOf(TessSpacing::kFractionalEven, c.level).size() == size_t(c.even + 1));
		CHECK(EdgeOf(TessSpacing::kFractionalOdd, c.level).size() == size_t(c.odd + 1));
		for (TessSpacing spacing : kSpacings)
			CHECK(EdgeOf(spacing, c.level).size() == size_t(Rounded(spacing, c.level) + 1));
	}
	// Equal spacing: n equal segments.
	for (float level : {1.0f, 2.0f, 3.7f, 7.0f, 64.0f}) {
		const std::vector<float> u = EdgeOf(TessSpacing::kEqual, level);
		const int n = static_cast<int>(u.size()) - 1;
		for (int i = 0; i <= n; ++i) CHECK(u[i] == Approx(double(i) / n).margin(1e-7));
	}
}

TEST_CASE("tessellator: fractional spacing has two short equal segments placed symmetrically",
          "[raster][tessellator]") {
	for (TessSpacing spacing : {TessSpacing::kFractionalEven, TessSpacing::kFractionalOdd}) {
		// The CTS's levels (vktTessellationFractionalSpacingTests) and more.
		std::vector<float> levels;
		for (float start : {7.0f, 8.0f, 9.0f})
			for (int i = 0; i < 10; ++i) levels.push_back(start + float(i) / 10);
		for (int i = 0; i <= 62; ++i) levels.push_back(float(i) + 0.3f);
		for (float f : {1.0f, 1.5f, 2.0f, 2.0001f, 2.5f, 3.0f, 3.7f, 4.0f, 5.0f, 7.3f, 63.0f, 63.9f, 64.0f})
			levels.push_back(f);

		std::map<int, std::vector<std::pair<float, double>>> short_by_n;  // n -> (clamped level, short length)
		std::map<float, int> location_by_level;
		for (float level : levels) {
			INFO("spacing " << int(spacing) << " level " << level);
			const std::vector<float> u = EdgeOf(spacing, level);
			const int n = Rounded(spacing, level);
			const double f = Clamped(spacing, level);
			REQUIRE(int(u.size()) == n + 1);
			CHECK(u.front() == 0.0f);
			CHECK(u.back() == 1.0f);
			if (n == 1) continue;
			std::vector<double> seg(n);
			for (int i = 0; i < n; ++i) seg[i] = double(u[i + 1]) - u[i];
			// The placement is the D3D11 tessellator's, in 16.16 fixed point:
			// positions are blends of multiples of rounded reciprocals, so
			// they drift from the exact ones by up to half a 2^-16 per point
			// from the end, which the middle segment, between a point and its
			// mirror image, takes up: lengths hold to (n / 2 + 2) 2^-16.
			const double drift = (n / 2.0 + 2) / 65536;
			if (f == n) {
				for (double s : seg) CHECK(s == Approx(1.0 / n).margin(drift));
				short_by_n[n].push_back({float(f), seg[0]});
				continue;
			}
			// The two shortest are the additional segments.
			std::vector<int> order(n);
			for (int i = 0; i < n; ++i) order[i] = i;
			std::sort(order.begin(), order.end(),
			          [&](int a, int b) { return seg[a] < seg[b] || (seg[a] == seg[b] && a < b); });
			const int s0 = std::min(order[0], order[1]), s1 = std::max(order[0], order[1]);
			CHECK(s0 + s1 == n - 1);                                // symmetric
			CHECK(std::abs(seg[s0] - seg[s1]) <= 1.0 / (1 << 23));  // equal (to the 2^-24 grid)
			// The n - 2 others are equal (to the drift) (their length lies between 1 / n and
			// 1 / (n - 2), not at 1 / f: the spec fixes neither).
			const int first_long = order[2];
			for (int i = 0; i < n; ++i)
				if (i != s0 && i != s1) {
					CHECK(std::abs(seg[i] - seg[first_long]) <= drift);
					CHECK(seg[i] >= 1.0 / n - drift);
					CHECK(seg[i] <= 1.0 / (n - 2) + drift);
				}
			CHECK(seg[s0] <= seg[first_long] + 1e-7);
			CHECK(seg[s0] > 0.0);
			short_by_n[n].push_back({float(f), seg[s0]});
			location_by_level[float(f)] = s0;
		}
		// The relative length decreases monotonically with n - f: among
		// edges with the same n, a larger f never has a shorter segment.
		for (auto& [n, list] : short_by_n) {
			std::sort(list.begin(), list.end());
			for (size_t i = 1; i < list.size(); ++i) {
				INFO("n " << n << " levels " << list[i - 1].first << " and " << list[i].first);
				CHECK(list[i].second >= list[i - 1].second);
			}
		}
		// The same clamped level places the segments identically (and gives
		// the same positions bit for bit, on any edge of any domain).
		for (float level : {7.3f, 8.6f, 100.0f, 63.2f}) CHECK(EdgeOf(spacing, level) == EdgeOf(spacing, level));
		CHECK(EdgeOf(spacing, 100.0f) == EdgeOf(spacing, 64.0f));
	}
}

TEST_CASE("tessellator: short fractional segments stay representable", "[raster][tessellator]") {
	// n - f just below 2: the additional segments are tiny but the points
	// stay distinct and in order.
	for (TessSpacing spacing : {TessSpacing::kFractionalEven, TessSpacing::kFractionalOdd})
		for (float base : {1.0f, 2.0f, 3.0f, 4.0f, 10.0f, 31.0f, 62.0f}) {
			const float level = std::nextafter(base, 100.0f);
			const std::vector<float> u = EdgeOf(spacing, level);
			INFO("spacing " << int(spacing) << " level " << level);
			CHECK(int(u.size()) == Rounded(spacing, level) + 1);
			for (size_t i = 1; i < u.size(); ++i) CHECK(double(u[i]) - u[i - 1] > 1e-6);
		}
}

TEST_CASE("tessellator: outer edges are symmetric bit for bit and exactly on the edge", "[raster][tessellator]") {
	std::vector<float> levels;
	for (float f = 1.0f; f <= 66.0f; f += 0.37f) levels.push_back(f);
	for (int i = 1; i <= 64; ++i) levels.push_back(float(i));
	for (TessSpacing spacing : kSpacings)
		for (float level : levels) {
			INFO("spacing " << int(spacing) << " level " << level);
			const int n = Rounded(spacing, level);
			// Triangles: the edge u = 0 holds (0, t, 1 - t) and (0, 1 - t, t).
			for (int edge = 0; edge < 3; ++edge) {
				Levels l = {{3.5f, 4.5f, 5.5f, 1}, {6.5f, 1}};
				l.outer[edge] = level;
				const Tessellation t = Run(State(TessDomain::kTriangles, spacing), l);
				std::set<std::pair<float, float>> points;
				for (uint32_t i = 0; i < PointCount(t); ++i) {
					const Vec3 p = Coord(t, i);
					if (p[edge] != 0.0f) continue;
					const float a = p[(edge + 1) % 3], b = p[(edge + 2) % 3];
					CHECK(a + b == 1.0f);
					CHECK(1.0f - a == b);
					points.insert({a, b});
				}
				CHECK(int(points.size()) == n + 1);
				CHECK(points.count({0.0f, 1.0f}) == 1);
				CHECK(points.count({1.0f, 0.0f}) == 1);
				for (const auto& [a, b] : points) CHECK(points.count({b, a}) == 1);
			}
			// Quads: the parameters on each edge are closed under t -> 1 - t.
			for (int edge = 0; edge < 4; ++edge) {
				Levels l = {{3.5f, 4.5f, 5.5f, 6.5f}, {2.5f, 7.5f}};
				l.outer[edge] = level;
				const std::set<float> params = QuadEdgeParams(Run(State(TessDomain::kQuads, spacing), l), edge);
				CHECK(int(params.size()) == n + 1);
				CHECK(params.count(0.0f) == 1);
				CHECK(params.count(1.0f) == 1);
				for (float t : params) CHECK(params.count(1.0f - t) == 1);
			}
			// Isolines: v values are i / n exactly mirrored where both exist.
			const Levels iso = {{level, 3, 0, 0}, {0, 0}};
			const Tessellation t = Run(State(TessDomain::kIsolines, spacing, true), iso);
			std::set<float> v;
			for (uint32_t i = 0; i < PointCount(t); ++i) v.insert(t.coords[3 * i + 1]);
			const int lines = Rounded(TessSpacing::kEqual, level);
			CHECK(int(v.size()) == lines);
			for (float y : v)
				if (y > 0.0f) CHECK(v.count(1.0f - y) == 1);
		}
}

TEST_CASE("tessellator: outer edge points depend only on that edge's level", "[raster][tessellator]") {
	Lcg rnd;
	for (TessSpacing spacing : kSpacings)
		for (float level : {1.0f, 1.0001f, 2.0f, 2.5f, 3.7f, 5.0f, 7.3f, 17.9f, 64.0f}) {
			INFO("spacing " << int(spacing) << " level " << level);
			// Triangles: the same set on every edge (invariance rules 3 and
			// 4), whatever the inner and other outer levels.
			std::set<float> first;
			for (int trial = 0; trial < 8; ++trial)
				for (int edge = 0; edge < 3; ++edge) {
					Levels l = {{rnd.Level(1, 62), rnd.Level(1, 62), rnd.Level(1, 62), 1}, {rnd.Level(1, 62), 1}};
					if (trial == 1) l.inner[0] = 1;
					l.outer[edge] = level;
					const std::set<float> params =
					    TriangleEdgeParams(Run(State(TessDomain::kTriangles, spacing, trial % 2 == 1), l), edge);
					if (first.empty()) first = params;
					CHECK(params == first);
				}
			// Quads: the same, and the same as the triangles' edges.
			for (int trial = 0; trial < 8; ++trial)
				for (int edge = 0; edge < 4; ++edge) {
					Levels l = {{rnd.Level(1, 62), rnd.Level(1, 62), rnd.Level(1, 62), rnd.Level(1, 62)},
					            {rnd.Level(1, 62), rnd.Level(1, 62)}};
					if (trial == 1) l.inner[0] = l.inner[1] = 1;
					l.outer[edge] = level;
					CHECK(QuadEdgeParams(Run(State(TessDomain::kQuads, spacing, trial % 2 == 1), l), edge) == first);
				}
			// Isolines: the segments along u.
			const std::vector<float> u = EdgeOf(spacing, level);
			CHECK(std::set<float>(u.begin(), u.end()) == first);
		}
}

TEST_CASE("tessellator: triangles tile the domain once with the requested winding", "[raster][tessellator]") {
	int failures = 0;
	for (TessSpacing spacing : kSpacings)
		for (float inner : kGridLevels)
			for (int rotation = 0; rotation < 7; ++rotation)
				for (int stride : {0, 1, 3}) {
					Levels l = {{kGridLevels[rotation], kGridLevels[(rotation + stride) % 7],
					             kGridLevels[(rotation + 2 * stride) % 7], 1},
					            {inner, 1}};
					const Tessellation base = Run(State(TessDomain::kTriangles, spacing), l);
					int outer_n[3];
					for (int i = 0; i < 3; ++i) outer_n[i] = Rounded(spacing, l.outer[i]);
					const int inner_n = Rounded(spacing, inner);
					CHECK(int(base.indices.size() / 3) == ReferenceTriangleCount(spacing, inner_n, outer_n, false));
					CHECK(int(PointCount(base)) == ReferenceTriangleCount(spacing, inner_n, outer_n, true));
					for (bool ccw : {false, true})
						for (bool lower_left : {false, true}) {
							const Tessellation t =
							    Run(State(TessDomain::kTriangles, spacing, false, ccw, lower_left), l);
							// Upper-left: counter-clockwise iff a < 0; lower-left: iff a > 0.
							const bool want_positive = ccw == lower_left;
							failures += CheckTiling(t, TessDomain::kTriangles, want_positive, "triangles",
							                        OddPlusEpsilon(TessDomain::kTriangles, spacing, l));
						}
				}
	CHECK(failures == 0);
}

TEST_CASE("tessellator: quads tile the domain once with the requested winding", "[raster][tessellator]") {
	int failures = 0;
	for (TessSpacing spacing : kSpacings)
		for (float inner0 : kGridLevels)
			for (float inner1 : kGridLevels)
				for (int rotation = 0; rotation < 7; ++rotation)
					for (int stride : {0, 2}) {
						Levels l;
						for (int i = 0; i < 4; ++i) l.outer[i] = kGridLevels[(rotation + i * stride) % 7];
						l.inner[0] = inner0;
						l.inner[1] = inner1;
						int outer_n[4];
						for (int i = 0; i < 4; ++i) outer_n[i] = Rounded(spacing, l.outer[i]);
						const int n0 = Rounded(spacing, inner0), n1 = Rounded(spacing, inner1);
						const Tessellation base = Run(State(TessDomain::kQuads, spacing), l);
						CHECK(int(base.indices.size() / 3) == ReferenceQuadCount(spacing, n0, n1, outer_n, false));
						CHECK(int(PointCount(base)) == ReferenceQuadCount(spacing, n0, n1, outer_n, true));
						for (bool ccw : {false, true})
							for (bool lower_left : {false, true}) {
								const Tessellation t =
								    Run(State(TessDomain::kQuads, spacing, false, ccw, lower_left), l);
								failures += CheckTiling(t, TessDomain::kQuads, ccw == lower_left, "quads",
								                        OddPlusEpsilon(TessDomain::kQuads, spacing, l));
							}
					}
	CHECK(failures == 0);
}

TEST_CASE("tessellator: tiling holds for random and extreme levels", "[raster][tessellator]") {
	Lcg rnd;
	int failures = 0;
	const float tiny_fractions[] = {std::nextafter(1.0f, 2.0f), std::nextafter(2.0f, 3.0f), std::nextafter(3.0f, 4.0f),
	                                std::nextafter(62.0f, 63.0f), std::nextafter(61.0f, 63.0f)};
	for (TessSpacing spacing : kSpacings) {
		// The default state (counter-clockwise, upper-left origin) wants a < 0.
		for (int trial = 0; trial < 60; ++trial) {
			Levels l;
			for (float& o : l.outer) o = rnd.Level(0.01f, 70);
			for (float& i : l.inner) i = rnd.Level(-1, 70);
			if (trial % 3 == 0) l.inner[trial % 2] = tiny_fractions[trial % 5];
			if (trial % 4 == 0) l.outer[trial % 4] = tiny_fractions[(trial / 4) % 5];
			failures += CheckTiling(Run(State(TessDomain::kTriangles, spacing), l), TessDomain::kTriangles, false,
			                        "random triangles", OddPlusEpsilon(TessDomain::kTriangles, spacing, l));
			failures += CheckTiling(Run(State(TessDomain::kQuads, spacing), l), TessDomain::kQuads, false,
			                        "random quads", OddPlusEpsilon(TessDomain::kQuads, spacing, l));
		}
		for (float tiny : tiny_fractions) {
			const Levels l = {{tiny, tiny, tiny, tiny}, {tiny, tiny}};
			failures += CheckTiling(Run(State(TessDomain::kTriangles, spacing), l), TessDomain::kTriangles, false,
			                        "tiny triangles", OddPlusEpsilon(TessDomain::kTriangles, spacing, l));
			failures += CheckTiling(Run(State(TessDomain::kQuads, spacing), l), TessDomain::kQuads, false, "tiny quads",
			                        OddPlusEpsilon(TessDomain::kQuads, spacing, l));
		}
	}
	CHECK(failures == 0);
}

TEST_CASE("tessellator: integer levels give the CTS reference coordinates", "[raster][tessellator]") {
	// vktTessellationCoordinatesTests: the point sets match within 0.01 both ways.
	const Levels cases[] = {
	    {{1, 1, 1, 1}, {1, 1}}, {{15, 42, 10, 12}, {63, 24}}, {{6, 8, 7, 9}, {3, 2}},
	    {{2, 3, 1, 4}, {4, 6}}, {{6, 8, 7, 9}, {2, 2}},       {{1, 1, 1, 1}, {5, 6}},
	    {{2, 3, 1, 4}, {1, 6}}, {{2, 3, 1, 4}, {5, 1}},       {{2.9f, 3.4f, 1.5f, 4.1f}, {5.2f, 1.6f}}};
	for (TessSpacing spacing : kSpacings)
		for (Levels l : cases) {
			// Fractional: the CTS rounds the levels first (exact results are
			// implementation-defined otherwise), and replaces an inner level
			// of 1 that would be 1 + epsilon by the next level up.
			if (spacing != TessSpacing::kEqual) {
				for (float& o : l.outer) o = float(Rounded(spacing, o));
				for (float& i : l.inner) i = float(Rounded(spacing, i));
				const bool outer_above_one = l.outer[0] > 1 || l.outer[1] > 1 || l.outer[2] > 1 || l.outer[3] > 1;
				if (outer_above_one)
					for (float& i : l.inner)
						if (i == 1) i = float(Rounded(spacing, 1.1f));
			}
			INFO("spacing " << int(spacing) << " inner " << l.inner[0] << "," << l.inner[1] << " outer " << l.outer[0]
			                << "," << l.outer[1] << "," << l.outer[2] << "," << l.outer[3]);
			int outer_n[4];
			for (int i = 0; i < 4; ++i) outer_n[i] = Rounded(spacing, l.outer[i]);
			const int n0 = Rounded(spacing, l.inner[0]), n1 = Rounded(spacing, l.inner[1]);
			const std::vector<Vec3> tri = AllCoords(Run(State(TessDomain::kTriangles, spacing, true), l));
			const std::vector<Vec3> tri_ref = ReferenceTriangleCoords(spacing, n0, outer_n);
			CHECK(tri.size() == tri_ref.size());
			CHECK(Covers(tri, tri_ref));
			CHECK(Covers(tri_ref, tri));
			const std::vector<Vec3> quad = AllCoords(Run(State(TessDomain::kQuads, spacing, true), l));
			const std::vector<Vec3> quad_ref = ReferenceQuadCoords(spacing, n0, n1, outer_n);
			CHECK(quad.size() == quad_ref.size());
			CHECK(Covers(quad, quad_ref));
			CHECK(Covers(quad_ref, quad));
		}
}

TEST_CASE("tessellator: isolines", "[raster][tessellator]") {
	for (TessSpacing spacing : kSpacings)
		for (float lines_level : {0.5f, 1.0f, 1.5f, 4.0f, 7.3f, 64.0f, 80.0f})
			for (float segments_level : {1.0f, 2.5f, 5.0f, 63.7f}) {
				INFO("spacing " << int(spacing) << " levels " << lines_level << ", " << segments_level);
				// Inner levels and the last two outer levels have no effect.
				const Levels l = {{lines_level, segments_level, -1, kNaN}, {kNaN, -3}};
				const int lines = Rounded(TessSpacing::kEqual, lines_level);  // spacing ignored for lines
				const int segments = Rounded(spacing, segments_level);
				const Tessellation t = Run(State(TessDomain::kIsolines, spacing), l);
				REQUIRE(t.indices.size() == size_t(2 * lines * segments));
				REQUIRE(PointCount(t) == uint32_t(lines * (segments + 1)));
				std::map<float, std::vector<float>> by_v;
				for (size_t i = 0; i < t.indices.size(); i += 2) {
					const Vec3 a = Coord(t, t.indices[i]), b = Coord(t, t.indices[i + 1]);
					CHECK(a[1] == b[1]);  // horizontal
					CHECK(a[2] == 0.0f);
					CHECK(b[0] > a[0]);
					by_v[a[1]].push_back(float(double(b[0]) - a[0]));
				}
				REQUIRE(int(by_v.size()) == lines);
				int i = 0;
				for (const auto& [v, lengths] : by_v) {
					CHECK(v == Approx(double(i++) / lines).margin(1e-7));  // 0, 1/n, ..., (n-1)/n: never 1
					double sum = 0;
					for (float s : lengths) sum += s;
					CHECK(sum == Approx(1.0).margin(1e-6));  // u covers [0, 1]
				}
				const Tessellation points = Run(State(TessDomain::kIsolines, spacing, true), l);
				CHECK(points.indices.size() == size_t(lines * (segments + 1)));
			}
}

TEST_CASE("tessellator: point mode gives each distinct point once", "[raster][tessellator]") {
	for (TessSpacing spacing : kSpacings)
		for (TessDomain domain : {TessDomain::kTriangles, TessDomain::kQuads, TessDomain::kIsolines})
			for (float a : {1.0f, 1.0001f, 2.5f, 7.3f})
				for (float b : {1.0f, 3.0f, 12.6f}) {
					const Levels l = {{a, b, a + 1, b + 2}, {b, a}};
					INFO("spacing " << int(spacing) << " domain " << int(domain) << " levels " << a << ", " << b);
					const Tessellation points = Run(State(domain, spacing, true), l);
					const Tessellation prims = Run(State(domain, spacing, false), l);
					// Every index once.
					std::vector<uint32_t> sorted = points.indices;
					std::sort(sorted.begin(), sorted.end());
					CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
					CHECK(sorted.size() == PointCount(points));
					// The points of the triangles or lines, no more.
					std::set<Vec3> used;
					for (uint32_t i : prims.indices) used.insert(Coord(prims, i));
					std::set<Vec3> emitted;
					for (uint32_t i : points.indices) emitted.insert(Coord(points, i));
					CHECK(emitted == used);
					// Distinct coordinates too, except for the inner points
					// of fractional odd 1 + epsilon, which lie on the edge
					// ("considered distinct ... even if ... identical").
					if (OddPlusEpsilon(domain, spacing, l))
						CHECK(emitted.size() < points.indices.size());
					else
						CHECK(emitted.size() == points.indices.size());
					if (domain == TessDomain::kTriangles) {
						int outer_n[3];
						for (int i = 0; i < 3; ++i) outer_n[i] = Rounded(spacing, l.outer[i]);
						CHECK(int(points.indices.size()) ==
						      ReferenceTriangleCount(spacing, Rounded(spacing, l.inner[0]), outer_n, true));
					}
				}
	// Fractional odd, inner level <= 1: the inner triangle's corners are
	// points of their own even when close to the outer corners.
	const Levels l = {{3, 3, 3, 1}, {0.5f, 1}};
	const Tessellation t = Run(State(TessDomain::kTriangles, TessSpacing::kFractionalOdd, true), l);
	CHECK(t.indices.size() == 9 + 3);
}

TEST_CASE("tessellator: output is deterministic and depends only on the levels", "[raster][tessellator]") {
	for (TessSpacing spacing : kSpacings)
		for (TessDomain domain : {TessDomain::kTriangles, TessDomain::kQuads, TessDomain::kIsolines}) {
			const Levels l = {{7.3f, 2.5f, 13.1f, 5.0f}, {9.7f, 3.3f}};
			const Levels other = {{3.1f, 21.5f, 1.0f, 64.0f}, {1.0f, 33.3f}};
			const TessellationState state = State(domain, spacing);
			const Tessellation first = Run(state, l);
			Run(state, other);
			const Tessellation again = Run(state, l);
			CHECK(BitEqual(first, again));
			// Winding changes only the vertex order within a triangle
			// (invariance rule 5), point mode only the primitives.
			if (domain != TessDomain::kIsolines) {
				const Tessellation cw = Run(State(domain, spacing, false, false), l);
				CHECK(cw.coords == first.coords);
				REQUIRE(cw.indices.size() == first.indices.size());
				for (size_t i = 0; i < first.indices.size(); i += 3) {
					CHECK(cw.indices[i] == first.indices[i]);
					CHECK(cw.indices[i + 1] == first.indices[i + 2]);
					CHECK(cw.indices[i + 2] == first.indices[i + 1]);
				}
			}
			CHECK(Run(State(domain, spacing, true), l).coords == first.coords);
		}
}

TEST_CASE("tessellator: inner triangles do not depend on outer levels and outer strips only on their own edge",
          "[raster][tessellator]") {
	// vktTessellationInvarianceTests rules 6 and 7, with their predicates.
	using Triangle = std::array<Vec3, 3>;
	auto triangles = [](const Tessellation& t, auto&& keep) {
		std::set<Triangle> result;
		for (size_t i = 0; i < t.indices.size(); i += 3) {
			Triangle tri = {Coord(t, t.indices[i]), Coord(t, t.indices[i + 1]), Coord(t, t.indices[i + 2])};
			if (!keep(tri)) continue;
			std::sort(tri.begin(), tri.end());
			result.insert(tri);
		}
		return result;
	};
	auto inner_triangle = [](const Triangle& t) {
		for (const Vec3& p : t)
			for (int c = 0; c < 3; ++c)
				if (p[c] == 0.0f) return false;
		return true;
	};
	auto inner_quad = [](const Triangle& t) {
		for (const Vec3& p : t)
			for (int c = 0; c < 2; ++c)
				if (p[c] == 0.0f || p[c] == 1.0f) return false;
		return true;
	};
	auto triangle_on_edge = [](int e) {
		return [e](const Triangle& t) {
			bool touches = false;
			for (const Vec3& p : t) touches = touches || p[e] == 0.0f;
			if (!touches) return false;
			double avg[3] = {0, 0, 0};
			for (const Vec3& p : t)
				for (int c = 0; c < 3; ++c) avg[c] += p[c] / 3.0;
			return avg[e] < avg[(e + 1) % 3] && avg[e] < avg[(e + 2) % 3];
		};
	};
	auto quad_on_edge = [](int e) {
		return [e](const Triangle& t) {
			auto on_edge = [e](const Vec3& v) { return v[e % 2] == (e <= 1 ? 0.0f : 1.0f); };
			auto on_any = [](const Vec3& v) { return v[0] == 0.0f || v[0] == 1.0f || v[1] == 0.0f || v[1] == 1.0f; };
			for (int v = 0; v < 3; ++v) {
				const Vec3 &a = t[v], &b = t[(v + 1) % 3], &c = t[(v + 2) % 3];
				if (on_edge(a) && on_edge(b)) return true;
				if (on_edge(c) && !on_any(a) && !on_any(b) && a[e % 2] == b[e % 2]) return true;
			}
			return false;
		};
	};
	Lcg rnd;
	for (TessSpacing spacing : kSpacings)
		for (int base_case = 0; base_case < 12; ++base_case) {
			Levels base;
			for (float& o : base.outer) o = rnd.Level(1, 63);
			for (float& i : base.inner) i = rnd.Level(1.01f, 63);
			INFO("spacing " << int(spacing) << " case " << base_case);
			const Tessellation tri0 = Run(State(TessDomain::kTriangles, spacing), base);
			const Tessellation quad0 = Run(State(TessDomain::kQuads, spacing), base);
			for (int sub = 0; sub < 4; ++sub) {
				Levels l = base;
				for (float& o : l.outer) o = rnd.Level(2, 16);
				l.inner[1] = rnd.Level(2, 16);  // no effect on triangles
				CHECK(triangles(Run(State(TessDomain::kTriangles, spacing, false, sub % 2 == 0), l), inner_triangle) ==
				      triangles(tri0, inner_triangle));
				l.inner[1] = base.inner[1];
				CHECK(triangles(Run(State(TessDomain::kQuads, spacing, false, sub % 2 == 0), l), inner_quad) ==
				      triangles(quad0, inner_quad));
			}
			for (int e = 0; e < 4; ++e)
				for (int sub = 0; sub < 3; ++sub) {
					Levels l = base;
					for (int i = 0; i < 4; ++i)
						if (i != e) l.outer[i] = rnd.Level(2, 16);
					if (e < 3)
						CHECK(triangles(Run(State(TessDomain::kTriangles, spacing), l), triangle_on_edge(e)) ==
						      triangles(tri0, triangle_on_edge(e)));
					// Quads: outer level e is the edge u = 0, v = 0, u = 1, v = 1.
					CHECK(triangles(Run(State(TessDomain::kQuads, spacing), l), quad_on_edge(e)) ==
					      triangles(quad0, quad_on_edge(e)));
				}
		}
}

TEST_CASE("tessellator: coordinates lie between 0 and 1 and 1 - c is exact", "[raster][tessellator]") {
	// vktTessellationInvarianceTests' tess_coord_component_range and
	// one_minus_tess_coord_component.
	Lcg rnd;
	for (TessSpacing spacing : kSpacings)
		for (TessDomain domain : {TessDomain::kTriangles, TessDomain::kQuads, TessDomain::kIsolines})
			for (int trial = 0; trial < 10; ++trial) {
				Levels l;
				for (float& o : l.outer) o = rnd.Level(1, 63);
				for (float& i : l.inner) i = rnd.Level(1, 63);
				const Tessellation t = Run(State(domain, spacing, true), l);
				const int components = domain == TessDomain::kTriangles ? 3 : 2;
				int bad = 0;
				for (uint32_t i = 0; i < PointCount(t); ++i)
					for (int c = 0; c < components; ++c) {
						const volatile float x = t.coords[3 * i + c];
						const volatile float one_minus = 1.0f - x;
						if (!(x >= 0.0f && x <= 1.0f) || x + one_minus != 1.0f) ++bad;
					}
				CHECK(bad == 0);
			}
}

TEST_CASE("tessellator: inner triangle sets for the CTS's level cases, inner level 1 included",
          "[raster][tessellator]") {
	// vktTessellationInvarianceTests inner_triangle_set (rule 6) with its base
	// cases: only the outer levels (and the triangles' second inner level)
	// change, to values in [2, 16]. With inner level 1 the first sub-case
	// (all levels 1) has no inner triangle, so fractional odd's 1 + epsilon
	// (three inner segments) must not make one either: its inner points lie
	// on the edge.
	using Triangle = std::array<Vec3, 3>;
	auto inner_set = [](const Tessellation& t, TessDomain domain) {
		std::set<Triangle> result;
		for (size_t i = 0; i < t.indices.size(); i += 3) {
			Triangle tri = {Coord(t, t.indices[i]), Coord(t, t.indices[i + 1]), Coord(t, t.indices[i + 2])};
			bool inner = true;
			for (const Vec3& p : tri)
				for (int c = 0; c < (domain == TessDomain::kTriangles ? 3 : 2); ++c)
					if (p[c] == 0.0f || (domain == TessDomain::kQuads && p[c] == 1.0f)) inner = false;
			if (!inner) continue;
			std::sort(tri.begin(), tri.end());
			result.insert(tri);
		}
		return result;
	};
	const Levels cases[] = {
	    {{1, 1, 1, 1}, {1, 1}}, {{15, 42, 10, 12}, {63, 24}}, {{6, 8, 7, 9}, {3, 2}},
	    {{2, 3, 1, 4}, {4, 6}}, {{6, 8, 7, 9}, {2, 2}},       {{1, 1, 1, 1}, {5, 6}},
	    {{2, 3, 1, 4}, {1, 6}}, {{2, 3, 1, 4}, {5, 1}},       {{2.9f, 3.4f, 1.5f, 4.1f}, {5.2f, 1.6f}}};
	Lcg rnd;
	for (TessSpacing spacing : kSpacings)
		for (TessDomain domain : {TessDomain::kTriangles, TessDomain::kQuads})
			for (const Levels& base : cases) {
				INFO("spacing " << int(spacing) << " domain " << int(domain) << " inner " << base.inner[0] << ","
				                << base.inner[1] << " outer " << base.outer[0] << "," << base.outer[1] << ","
				                << base.outer[2] << "," << base.outer[3]);
				const std::set<Triangle> first = inner_set(Run(State(domain, spacing), base), domain);
				for (int sub = 0; sub < 4; ++sub) {
					Levels l = base;
					for (float& o : l.outer) o = rnd.Level(2, 16);
					if (domain == TessDomain::kTriangles) l.inner[1] = rnd.Level(2, 16);
					CHECK(inner_set(Run(State(domain, spacing, false, sub % 2 == 0), l), domain) == first);
				}
			}
	// All levels 1: no inner triangle, so none for 1 + epsilon either.
	const Levels ones = {{1, 1, 1, 1}, {1, 1}};
	const Levels plus_epsilon = {{1, 7.5f, 1, 3}, {1, 1}};
	for (TessDomain domain : {TessDomain::kTriangles, TessDomain::kQuads}) {
		CHECK(inner_set(Run(State(domain, TessSpacing::kFractionalOdd), ones), domain).empty());
		CHECK(inner_set(Run(State(domain, TessSpacing::kFractionalOdd), plus_epsilon), domain).empty());
	}
}

TEST_CASE("tessellator: quad grid cells are split along the diagonal towards the center", "[raster][tessellator]") {
	// misc_draw.fill_overlap_quads_*: the reference images color each point
	// by its ring and interpolate; a ring's corner cell has three points of
	// one ring and one of the next, so its diagonal shows. The grid is
	// concentric rings: the diagonal of a cell runs towards the center,
	// from a ring's corner to the next ring's corner. In the quarters u, v
	// < 1/2 and u, v > 1/2 it rises with u, in the other two it falls.
	const Levels cases[] = {{{9, 9, 9, 9}, {9, 9}},       {{13, 15, 18, 21}, {8, 11}}, {{3, 6, 9, 12}, {17, 14}},
	                        {{4, 4, 4, 4}, {7.3f, 5.5f}}, {{2, 2, 2, 2}, {3, 3}},      {{5, 5, 5, 5}, {64, 2.5f}}};
	for (TessSpacing spacing : kSpacings)
		for (const Levels& l : cases) {
			INFO("spacing " << int(spacing) << " inner " << l.inner[0] << "," << l.inner[1]);
			const Tessellation t = Run(State(TessDomain::kQuads, spacing), l);
			int cells = 0;
			for (size_t i = 0; i < t.indices.size(); i += 3) {
				const Vec3 p[3] = {Coord(t, t.indices[i]), Coord(t, t.indices[i + 1]), Coord(t, t.indices[i + 2])};
				bool inside = true;
				for (const Vec3& q : p)
					for (int c = 0; c < 2; ++c) inside = inside && q[c] != 0.0f && q[c] != 1.0f;
				if (!inside) continue;  // a stitch triangle
				// A grid cell's half: exactly one pair of points differs in both u and v.
				int diagonals = 0;
				for (int e = 0; e < 3; ++e) {
					const Vec3 &a = p[e], &b = p[(e + 1) % 3];
					if (a[0] == b[0] || a[1] == b[1]) continue;
					++diagonals;
					const double mid_u = (double(a[0]) + b[0]) / 2, mid_v = (double(a[1]) + b[1]) / 2;
					if (mid_u == 0.5 || mid_v == 0.5) continue;  // a cell straddling a middle line
					const bool rises = (double(b[0]) - a[0]) * (double(b[1]) - a[1]) > 0;
					CHECK(rises == ((mid_u < 0.5) == (mid_v < 0.5)));
					++cells;
				}
				CHECK(diagonals == 1);
			}
			const int m = Rounded(spacing, l.inner[0]), n = Rounded(spacing, l.inner[1]);
			if (m >= 4 && n >= 4) CHECK(cells > 0);
		}
}
