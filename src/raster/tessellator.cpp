#include "raster/tessellator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace tessera::raster {

namespace {

// "Tessellator Spacing": the short segments of fractional spacing have
// relative length (f - (n - 2)) / 2, which tends to zero as n - f tends to
// 2. Floating-point domain points cannot follow it all the way: a segment
// of 1e-9 collapses two points into one and leaves zero-area triangles
// (or, once the coordinates round, inverted ones). So f - (n - 2) is held at
// 2^-10 or more: the shortest segment is then 2^-11 / f >= 7.6e-6 of the
// edge, far above the float spacing of coordinates in [0, 1], and the
// relative length still decreases monotonically (it is merely constant for
// the last 1/1024 of n - f). The CTS samples levels 0.1 apart and never
// sees the difference.
constexpr double kMinFraction = 1.0 / 1024;

// Positions on an edge are multiples of 2^-24: for such a t <= 1/2, 1 - t is
// exact in float, so the far half of an edge is the exact mirror of the near
// half (invariance: t and 1 - t both appear, and two patches that walk a
// shared edge in opposite directions produce the same points).
constexpr double kGrid = 16777216.0;

constexpr uint32_t kMaxPoints = kMaxTessellationLevel + 1;

struct Level {
	uint32_t n = 1;  // segments: the clamped level rounded up
	double f = 1;    // the clamped level
};

// "Tessellator Spacing": clamp, then round up (to an even or odd integer for
// the fractional modes). A NaN inner level (outer ones discard the patch
// before this) clamps to the minimum like a negative one.
Level RoundLevel(TessSpacing spacing, float level) {
	const double lo = spacing == TessSpacing::kFractionalEven ? 2 : 1;
	const double hi = spacing == TessSpacing::kFractionalOdd ? kMaxTessellationLevel - 1 : kMaxTessellationLevel;
	double f = level;
	if (!(f >= lo)) f = lo;
	if (f > hi) f = hi;
	uint32_t n = static_cast<uint32_t>(std::ceil(f));
	if (spacing == TessSpacing::kFractionalEven && n % 2 != 0) ++n;
	if (spacing == TessSpacing::kFractionalOdd && n % 2 == 0) ++n;
	return {n, f};
}

float Snap(double x) { return static_cast<float>(std::floor(x * kGrid + 0.5) / kGrid); }

// Fractional spacing's positions, as the D3D11 tessellator places them:
// the fixed-function tessellators of GPUs and lavapipe's follow it, and the
// CTS's reference images of fractional spacing (dgc tess_state, shader
// object tessellation) are drawn with it. Vulkan leaves the place of the
// two short segments open ("Tessellator Spacing"); this one meets every
// rule there (n - 2 equal segments, two shorter ones placed symmetrically
// whose length shrinks monotonically with n - f). In 16.16 fixed point: h =
// f / 2 (plus 1/2 for odd spacing). The first half of the edge blends two
// subdivisions, into 2 floor(h) and 2 ceil(h) segments (one less each for
// odd spacing), by the fraction of h: point i lies at i / n_ceil on the
// finer one and on the coarser one at i / n_floor, or at (i - 1) / n_floor
// past the split point, where the coarser one lacks the segment the finer
// one adds. Splits follow a ruler function: 2 (h' with its top bit
// cleared) + 1, h' the whole part of h (less 1 for odd spacing). The second
// half mirrors the first.
class FractionalPlacement {
public:
	FractionalPlacement(bool odd, double f) : odd_(odd) {
		// The level rounded to 16.16 (to nearest, ties to even), halved
		// (rounding up), plus 1/2 for odd spacing or a level of 1.
		const int64_t level = static_cast<int64_t>(std::nearbyint(f * kOne));
		int64_t half = (level + 1) / 2;
		if (odd_ || half == kOne / 2) half += kOne / 2;
		const int64_t floor = half & ~(kOne - 1), ceil = (half + kOne - 1) & ~(kOne - 1);
		fraction_ = half - floor;
		half_points_ = static_cast<int32_t>(ceil / kOne);
		const int32_t whole = static_cast<int32_t>(floor / kOne);
		if (ceil == floor)
			split_ = half_points_ + 1;  // no split
		else if (odd_)
			split_ = whole == 1 ? 0 : 2 * WithoutTopBit(whole - 1) + 1;
		else
			split_ = 2 * WithoutTopBit(whole) + 1;
		floor_segments_ = 2 * whole - (odd_ ? 1 : 0);
		ceil_segments_ = 2 * half_points_ - (odd_ ? 1 : 0);
		// The segment the finer subdivision adds is about fraction /
		// ceil_segments long (in 2^-16): held at 2 or more, so that its two
		// ends stay apart. (A level this close above n - 2, within 2^-15 n
		// of it, is where the D3D11 tessellator itself lets points meet.)
		if (ceil != floor) fraction_ = std::max<int64_t>(fraction_, 2 * ceil_segments_);
	}

	uint32_t Segments() const { return static_cast<uint32_t>(ceil_segments_); }

	// Point i of the edge's Segments() + 1, as a fraction of the edge.
	double Position(int32_t i) const {
		bool mirrored = false;
		if (i >= half_points_) {
			i = 2 * half_points_ - i - (odd_ ? 1 : 0);
			mirrored = true;
		}
		int64_t at = kOne / 2;  // the midpoint (even spacing), exactly
		if (i != half_points_) {
			const int32_t on_floor = i > split_ ? i - 1 : i;
			const int64_t floor_at = on_floor * Reciprocal(floor_segments_);
			const int64_t ceil_at = i * Reciprocal(ceil_segments_);
			at = (floor_at * (kOne - fraction_) + ceil_at * fraction_ + kOne / 2) >> 16;
		}
		if (mirrored) at = kOne - at;
		return static_cast<double>(at) / kOne;
	}

private:
	static constexpr int64_t kOne = 65536;
	// 1 / segments in 16.16, rounded to nearest.
	static int64_t Reciprocal(int32_t segments) { return (2 * kOne + segments) / (2 * segments); }
	static int32_t WithoutTopBit(int32_t x) { return x > 0 ? x & ~(1 << (31 - __builtin_clz(uint32_t(x)))) : 0; }

	bool odd_;
	int64_t fraction_ = 0;
	int32_t half_points_ = 0, split_ = 0, floor_segments_ = 1, ceil_segments_ = 1;
};

// The n + 1 parameters 0 = p[0] <= p[1] <= ... <= p[n] = 1 of an edge
// divided by level, a function of (spacing, n, f) alone so that every edge
// with the same level is divided identically. Equal spacing: i / n.
// Fractional spacing with n >= 3: FractionalPlacement's. Only the half up
// to 1/2 is computed; the rest is its mirror.
void EdgePositions(TessSpacing spacing, const Level& level, float* p) {
	const uint32_t n = level.n;
	const bool fractional = spacing != TessSpacing::kEqual && n >= 3;
	if (fractional && level.f > n - 2) {
		// f - (n - 2) held at kMinFraction or more, as below: the points
		// stay distinct (16.16 would merge the two ends of a shorter
		// segment), and a level a hair above an integer, which 16.16 would
		// round down to n - 2 segments, gets n.
		const double f = std::max(level.f, n - 2 + kMinFraction);
		const FractionalPlacement placement(spacing == TessSpacing::kFractionalOdd, f);
		if (placement.Segments() == n) {
			for (uint32_t i = 0; 2 * i < n; ++i) p[i] = Snap(placement.Position(static_cast<int32_t>(i)));
			if (n % 2 == 0) p[n / 2] = 0.5f;
			for (uint32_t i = 0; 2 * i < n; ++i) p[n - i] = 1.0f - p[i];
			return;
		}
	}
	double seg = 0, shrt = 0;
	uint32_t short_index = n;  // the first short segment
	if (fractional) {
		// Only f == n - 2 gets here: an inner level of 1 taken as 1 +
		// epsilon with fractional odd spacing (n = 3, f = 1). Epsilon is
		// zero, the short segments have length 0 and the "inner" points lie
		// on the outer corners (the spec allows inner vertices on the
		// edge). The CTS requires it: its inner triangle set for these
		// levels must equal that of all levels 1, which has no triangle off
		// the edges.
		const double f = level.f;
		seg = 1 / f;
		shrt = (1 - (n - 2) * seg) / 2;
		short_index = n % 2 == 0 ? n / 2 - 1 : (n - 3) / 2;
	}
	for (uint32_t i = 0; 2 * i < n; ++i) {
		double x = static_cast<double>(i) / n;
		if (fractional) x = i * seg + (i > short_index ? shrt - seg : 0);
		p[i] = Snap(x);
	}
	if (n % 2 == 0) p[n / 2] = 0.5f;
	for (uint32_t i = 0; 2 * i < n; ++i) p[n - i] = 1.0f - p[i];
}

// Points along one side of a ring (or an outer edge), in the direction the
// side is walked, with each point's parameter along that direction (the
// perpendicular projection onto the outer edge, so that the two chains of a
// strip can be merged by it).
struct Chain {
	std::array<uint32_t, kMaxPoints> id;
	std::array<float, kMaxPoints> t;
	uint32_t count = 0;

	void Add(uint32_t point, float param) {
		id[count] = point;
		t[count] = param;
		++count;
	}
};

class Mesh {
public:
	Mesh(Tessellation& out, bool flip) : out_(out), flip_(flip) {}

	// w is recomputed from u and v so that u + v + w is as close to 1 as
	// float allows; on an edge of a triangle (u, v and 1 - u - v in {t,
	// 1 - t, 0}) it is exact.
	uint32_t BarycentricPoint(float u, float v) {
		return Point(u, v, static_cast<float>(1.0 - static_cast<double>(u) - static_cast<double>(v)));
	}
	uint32_t Point(float u, float v, float w) {
		const uint32_t index = static_cast<uint32_t>(out_.coords.size() / 3);
		out_.coords.insert(out_.coords.end(), {u, v, w});
		return index;
	}

	// a, b, c counter-clockwise in a frame with u to the right and v up
	// (the spec's a > 0); flipped when the state asks for the other order.
	void Emit(uint32_t a, uint32_t b, uint32_t c) {
		if (flip_) std::swap(b, c);
		out_.indices.insert(out_.indices.end(), {a, b, c});
	}

	// Fills the strip between two parallel chains walked in the same
	// direction, inner on the left of outer: every triangle has two
	// neighbors of one chain and one point of the other, so it is
	// counter-clockwise whatever the order of advance, and the rungs
	// between the chains never cross. The chain whose next segment has the
	// smaller midpoint advances first, which keeps the triangles close to
	// the shape of the segments. The strip depends only on its two chains:
	// on one outer level and the inner levels (invariance rule 7).
	void Stitch(const Chain& outer, const Chain& inner) {
		uint32_t i = 0, j = 0;
		while (i + 1 < outer.count || j + 1 < inner.count) {
			bool advance_outer = j + 1 == inner.count;
			if (!advance_outer && i + 1 < outer.count) {
				const double mid_outer = static_cast<double>(outer.t[i]) + outer.t[i + 1];
				const double mid_inner = static_cast<double>(inner.t[j]) + inner.t[j + 1];
				advance_outer = mid_outer <= mid_inner;
			}
			if (advance_outer) {
				Emit(outer.id[i], outer.id[i + 1], inner.id[j]);
				++i;
			} else {
				Emit(outer.id[i], inner.id[j + 1], inner.id[j]);
				++j;
			}
		}
	}

private:
	Tessellation& out_;
	bool flip_;
};

// "Triangle Tessellation". Corners U = (1,0,0), V = (0,1,0), W = (0,0,1);
// W -> U -> V is counter-clockwise in (u, v). The sides, walked in that
// order, are v = 0 (outer level 1), w = 0 (outer level 2), u = 0 (outer
// level 0).
void TessellateTriangles(TessSpacing spacing, const float outer[4], const float inner[2], Mesh& mesh) {
	enum { kU, kV, kW };
	struct Side {
		int from, to, third, level;
	};
	static constexpr Side kSides[3] = {{kW, kU, kV, 1}, {kU, kV, kW, 2}, {kV, kW, kU, 0}};

	Level level_outer[3];
	for (int i = 0; i < 3; ++i) level_outer[i] = RoundLevel(spacing, outer[i]);
	Level level_inner = RoundLevel(spacing, inner[0]);
	if (level_inner.n == 1) {
		if (level_outer[0].n == 1 && level_outer[1].n == 1 && level_outer[2].n == 1) {
			const uint32_t w = mesh.Point(0, 0, 1), u = mesh.Point(1, 0, 0), v = mesh.Point(0, 1, 0);
			mesh.Emit(w, u, v);
			return;
		}
		// Inner level 1 + epsilon: two segments, or three for fractional
		// odd, whose short end segments have length 0 (f stays 1; see
		// EdgePositions): the inner triangle is the outer one and the ring
		// between them is made of zero-area triangles.
		level_inner.n = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	}

	// A point from its barycentric coordinates by corner; w recomputed.
	auto point = [&](const float(&b)[3]) { return mesh.BarycentricPoint(b[kU], b[kV]); };

	// The outer edges, each from its own level only. A point at parameter
	// p[i] from corner X towards Y has X = p[n - i] = 1 - p[i], Y = p[i].
	uint32_t corner[3];
	for (int c = 0; c < 3; ++c) {
		float b[3] = {0, 0, 0};
		b[c] = 1;
		corner[c] = point(b);
	}
	Chain prev[3];
	for (int s = 0; s < 3; ++s) {
		const Side& side = kSides[s];
		const Level& level = level_outer[side.level];
		float p[kMaxPoints];
		EdgePositions(spacing, level, p);
		Chain& chain = prev[s];
		chain.Add(corner[side.from], 0.0f);
		for (uint32_t i = 1; i < level.n; ++i) {
			float b[3];
			b[side.from] = p[level.n - i];
			b[side.to] = p[i];
			b[side.third] = 0;
			chain.Add(point(b), p[i]);
		}
		chain.Add(corner[side.to], 1.0f);
	}

	// The concentric inner triangles from the temporary subdivision of the
	// outer edges by the inner level, positions T. Ring k's corners lie
	// where the perpendiculars through the k-th points from a corner meet:
	// on the bisector, with the two far coordinates 2 T_k / 3. Its sides
	// are cut by the perpendiculars through T_j, k <= j <= n - k: on the
	// side parallel to edge Z (from corner X to Y) the point has Z = 2 T_k
	// / 3, Y = T_j - T_k / 3, X = T_(n-j) - T_k / 3 (its projection onto
	// the outer edge is T_j). With T_j = j / n these are the CTS reference
	// coordinates. Ring k has n - 2k segments a side; 0 is the degenerate
	// center point, 1 the innermost triangle.
	const uint32_t n = level_inner.n;
	float T[kMaxPoints];
	EdgePositions(spacing, level_inner, T);
	for (uint32_t k = 1;; ++k) {
		const uint32_t rem = n - 2 * k;
		Chain ring[3];
		if (rem == 0) {
			const float third = static_cast<float>(1.0 / 3.0);
			const uint32_t center = point({third, third, third});
			for (Chain& chain : ring) chain.Add(center, 0.5f);
		} else {
			// e[j]: the coordinate towards the corner a side is walked to,
			// e[k] = 2 T_k / 3 being the constant far coordinate, so that
			// all points of a ring side share it bit for bit.
			float e[kMaxPoints];
			const double tk = T[k];
			e[k] = static_cast<float>(2.0 * tk / 3.0);
			for (uint32_t j = k + 1; j <= n - k; ++j) e[j] = static_cast<float>(T[j] - tk / 3.0);
			uint32_t ring_corner[3];
			for (int c = 0; c < 3; ++c) {
				float b[3] = {e[k], e[k], e[k]};
				b[c] = e[n - k];
				ring_corner[c] = point(b);
			}
			for (int s = 0; s < 3; ++s) {
				const Side& side = kSides[s];
				Chain& chain = ring[s];
				chain.Add(ring_corner[side.from], T[k]);
				for (uint32_t j = k + 1; j < n - k; ++j) {
					float b[3];
					b[side.from] = e[n - j];
					b[side.to] = e[j];
					b[side.third] = e[k];
					chain.Add(point(b), T[j]);
				}
				chain.Add(ring_corner[side.to], T[n - k]);
			}
		}
		for (int s = 0; s < 3; ++s) mesh.Stitch(prev[s], ring[s]);
		if (rem == 0) return;
		if (rem == 1) {
			mesh.Emit(ring[0].id[0], ring[1].id[0], ring[2].id[0]);  // its corners near W, U, V
			return;
		}
		for (int s = 0; s < 3; ++s) prev[s] = ring[s];
	}
}

// "Quad Tessellation". The first inner level divides u (the columns of the
// grid), the second v, as the CTS reference (generateReferenceQuadTessCoords:
// interior points ((x + 1) / inner0, (y + 1) / inner1)) and every
// implementation have it. Corners walked counter-clockwise in (u, v): (0,0)
// -> (1,0) along v = 0 (outer level 1), -> (1,1) along u = 1 (outer level 2),
// -> (0,1) along v = 1 (outer level 3), -> (0,0) along u = 0 (outer level 0).
void TessellateQuads(TessSpacing spacing, const float outer[4], const float inner[2], Mesh& mesh) {
	Level level_outer[4];
	for (int i = 0; i < 4; ++i) level_outer[i] = RoundLevel(spacing, outer[i]);
	Level level_u = RoundLevel(spacing, inner[0]);
	Level level_v = RoundLevel(spacing, inner[1]);
	bool all_one = level_u.n == 1 && level_v.n == 1;
	for (const Level& level : level_outer) all_one = all_one && level.n == 1;
	if (all_one) {
		const uint32_t c00 = mesh.Point(0, 0, 0), c10 = mesh.Point(1, 0, 0);
		const uint32_t c11 = mesh.Point(1, 1, 0), c01 = mesh.Point(0, 1, 0);
		// Split along the (1,0)-(0,1) diagonal, as lavapipe and the CTS
		// reference images (shader_object.misc.tessellation_modes.one.*)
		// have it; which diagonal is implementation-dependent.
		mesh.Emit(c00, c10, c01);
		mesh.Emit(c10, c11, c01);
		return;
	}
	// Inner level 1 + epsilon, as for triangles.
	const uint32_t plus_epsilon = spacing == TessSpacing::kFractionalOdd ? 3 : 2;
	if (level_u.n == 1) level_u.n = plus_epsilon;
	if (level_v.n == 1) level_v.n = plus_epsilon;

	const uint32_t c00 = mesh.Point(0, 0, 0), c10 = mesh.Point(1, 0, 0);
	const uint32_t c11 = mesh.Point(1, 1, 0), c01 = mesh.Point(0, 1, 0);

	// The outer edges: a point at parameter p[i] along the walk.
	struct Side {
		uint32_t from, to;
		int level;
	};
	const Side sides[4] = {{c00, c10, 1}, {c10, c11, 2}, {c11, c01, 3}, {c01, c00, 0}};
	Chain outer_chain[4];
	for (int s = 0; s < 4; ++s) {
		const Level& level = level_outer[sides[s].level];
		float p[kMaxPoints];
		EdgePositions(spacing, level, p);
		Chain& chain = outer_chain[s];
		chain.Add(sides[s].from, 0.0f);
		for (uint32_t i = 1; i < level.n; ++i) {
			const float t = p[i], back = p[level.n - i];  // back == 1 - t
			const uint32_t id = s == 0   ? mesh.Point(t, 0, 0)
			                    : s == 1 ? mesh.Point(1, t, 0)
			                    : s == 2 ? mesh.Point(back, 1, 0)
			                             : mesh.Point(0, back, 0);
			chain.Add(id, t);
		}
		chain.Add(sides[s].to, 1.0f);
	}

	// The grid points strictly inside: (PU[i], PV[j]), 0 < i < m, 0 < j < n.
	const uint32_t m = level_u.n, n = level_v.n;
	float PU[kMaxPoints], PV[kMaxPoints];
	EdgePositions(spacing, level_u, PU);
	EdgePositions(spacing, level_v, PV);
	std::array<uint32_t, (kMaxPoints - 2) * (kMaxPoints - 2)> grid;
	auto at = [&](uint32_t i, uint32_t j) -> uint32_t& { return grid[(j - 1) * (m - 1) + (i - 1)]; };
	for (uint32_t j = 1; j < n; ++j)
		for (uint32_t i = 1; i < m; ++i) at(i, j) = mesh.Point(PU[i], PV[j], 0);

	// The inner rectangle's sides, walked like the outer ones, parameters
	// measured the same way (PU[m - i] == 1 - PU[i]). With m or n equal to
	// 2 a side is a single point and its strip a fan.
	Chain inner_chain[4];
	for (uint32_t i = 1; i < m; ++i) inner_chain[0].Add(at(i, 1), PU[i]);
	for (uint32_t j = 1; j < n; ++j) inner_chain[1].Add(at(m - 1, j), PV[j]);
	for (uint32_t i = 1; i < m; ++i) inner_chain[2].Add(at(m - i, n - 1), PU[i]);
	for (uint32_t j = 1; j < n; ++j) inner_chain[3].Add(at(1, n - j), PV[j]);

	// Each cell's diagonal points towards the center of the domain: (i, j)
	// to (i + 1, j + 1) in the quarters u < 1/2, v < 1/2 and u > 1/2, v >
	// 1/2, the other diagonal in the other two (a cell straddling u or v =
	// 1/2 counts as above it). The grid is then concentric rings whose
	// corner cells are split from the ring's corner to the next ring's, as
	// the CTS reference images (misc_draw.fill_overlap_quads_*) show: the
	// colors interpolated across a corner cell depend on that diagonal.
	for (uint32_t j = 1; j + 1 < n; ++j)
		for (uint32_t i = 1; i + 1 < m; ++i) {
			const bool low_u = PU[i] + PU[i + 1] < 1.0f, low_v = PV[j] + PV[j + 1] < 1.0f;
			if (low_u == low_v) {
				mesh.Emit(at(i, j), at(i + 1, j), at(i + 1, j + 1));
				mesh.Emit(at(i, j), at(i + 1, j + 1), at(i, j + 1));
			} else {
				mesh.Emit(at(i, j), at(i + 1, j), at(i, j + 1));
				mesh.Emit(at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
			}
		}
	for (int s = 0; s < 4; ++s) mesh.Stitch(outer_chain[s], inner_chain[s]);
}

// "Isoline Tessellation": lines at v = 0, 1/n, ..., (n-1)/n (equal spacing,
// first outer level; none at v = 1), each cut by the second outer level.
void TessellateIsolines(TessSpacing spacing, const float outer[4], Tessellation& out) {
	const Level lines = RoundLevel(TessSpacing::kEqual, outer[0]);
	const Level segments = RoundLevel(spacing, outer[1]);
	float v[kMaxPoints], u[kMaxPoints];
	EdgePositions(TessSpacing::kEqual, lines, v);
	EdgePositions(spacing, segments, u);
	out.coords.reserve(3 * lines.n * (segments.n + 1));
	out.indices.reserve(2 * lines.n * segments.n);
	for (uint32_t line = 0; line < lines.n; ++line) {
		const uint32_t first = static_cast<uint32_t>(out.coords.size() / 3);
		for (uint32_t i = 0; i <= segments.n; ++i) out.coords.insert(out.coords.end(), {u[i], v[line], 0.0f});
		for (uint32_t i = 0; i < segments.n; ++i) out.indices.insert(out.indices.end(), {first + i, first + i + 1});
	}
}

}  // namespace

bool Tessellate(const TessellationState& state, const float outer[4], const float inner[2], Tessellation& out) {
	out.coords.clear();
	out.indices.clear();

	// "Tessellator Patch Discard": a relevant outer level <= 0 or NaN.
	const int relevant = state.domain == TessDomain::kQuads ? 4 : state.domain == TessDomain::kTriangles ? 3 : 2;
	for (int i = 0; i < relevant; ++i)
		if (!(outer[i] > 0)) return false;

	// "Tessellator Vertex Winding Order": triangles are built with a > 0
	// (counter-clockwise with u right and v up); that is counter-clockwise
	// for a lower-left origin and clockwise for an upper-left one.
	Mesh mesh(out, state.ccw != state.lower_left);
	switch (state.domain) {
	case TessDomain::kTriangles: TessellateTriangles(state.spacing, outer, inner, mesh); break;
	case TessDomain::kQuads: TessellateQuads(state.spacing, outer, inner, mesh); break;
	case TessDomain::kIsolines: TessellateIsolines(state.spacing, outer, out); break;
	}

	// "Tessellation Point Mode": every point is made once (shared corners
	// and ring points by index, never merged by value, so inner points that
	// happen to coincide with edge points stay distinct) and every one is
	// used by some primitive, so the points are simply all of them.
	if (state.point_mode) {
		const uint32_t count = static_cast<uint32_t>(out.coords.size() / 3);
		out.indices.resize(count);
		for (uint32_t i = 0; i < count; ++i) out.indices[i] = i;
	}
	return true;
}

}  // namespace tessera::raster
