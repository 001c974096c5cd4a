#include "raster/primitive.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace tessera::raster {

namespace {

constexpr uint32_t kMaxClipFloats = 4 + kMaxClipDistances + kMaxVaryings;
// Planes: near, far, w > 0, guard band x-, x+, y-, y+, then clip distances.
enum : uint32_t {
	kPlaneNear,
	kPlaneFar,
	kPlaneW,
	kPlaneGuardX0,
	kPlaneGuardX1,
	kPlaneGuardY0,
	kPlaneGuardY1,
	kPlaneClipDistance0
};
constexpr uint32_t kMaxPolygon = 3 + kPlaneClipDistance0 + kMaxClipDistances;
// Keeps 1/w finite; any w a real scene uses is far above it.
constexpr float kMinW = 1e-30f;

struct ClipVertex {
	float v[kMaxClipFloats];
};

inline float PlaneDistance(const PrimitiveSetupState& s, const float* v, uint32_t plane) {
	const float x = v[0], y = v[1], z = v[2], w = v[3];
	switch (plane) {
	case kPlaneNear: return s.raster.depth_negative_one_to_one ? z + w : z;  // z_m <= z_c <= w_c, z_m 0 or -w_c
	case kPlaneFar: return w - z;
	case kPlaneW: return w - kMinW;
	case kPlaneGuardX0: return x - s.guard_min[0] * w;
	case kPlaneGuardX1: return s.guard_max[0] * w - x;
	case kPlaneGuardY0: return y - s.guard_min[1] * w;
	case kPlaneGuardY1: return s.guard_max[1] * w - y;
	default: return v[4 + plane - kPlaneClipDistance0];
	}
}

// The planes a vertex is outside of (bit per plane), with the same
// expressions as PlaneDistance so that both agree to the bit.
inline uint32_t Outcode(const PrimitiveSetupState& s, const float* v) {
	auto out = [&](uint32_t plane) { return uint32_t(!(PlaneDistance(s, v, plane) >= 0)) << plane; };
	uint32_t o = out(kPlaneW) | out(kPlaneGuardX0) | out(kPlaneGuardX1) | out(kPlaneGuardY0) | out(kPlaneGuardY1);
	if (s.raster.depth_clip) o |= out(kPlaneNear) | out(kPlaneFar);
	for (uint32_t i = 0; i < s.raster.clip_distance_count; ++i) o |= out(kPlaneClipDistance0 + i);
	return o;
}

// Per clipped-polygon vertex, for polygon modes LINE and POINT: which
// input vertex it is (-1: made by clipping) and whether the edge to the next
// vertex lies on an edge of the input triangle (edges along a clip plane
// are not drawn).
struct ClipFlags {
	int8_t original;
	bool edge;
};

// Sutherland-Hodgman against one plane. The new vertex on a crossing edge is
// always computed from its inside end, so an edge shared by two triangles
// gives the same vertex in both.
// A new vertex on the edge from a (inside) to b at clip-space parameter t.
// Clip-space values (position, clip distances, perspective-correct
// varyings) interpolate with t; noperspective varyings are linear in screen
// space, so they take the screen-space parameter of the same point,
// t' = t w_b / ((1 - t) w_a + t w_b) (Vulkan 1.3 §27.x "Primitive
// Clipping": attributes of new vertices as the interpolation qualifiers
// say).
void EdgePoint(const PrimitiveSetupState& s, const ClipVertex& a, const ClipVertex& b, float t, uint32_t stride,
               ClipVertex& r) {
	for (uint32_t k = 0; k < stride; ++k) r.v[k] = a.v[k] + t * (b.v[k] - a.v[k]);
	const RasterState& raster = s.raster;
	const uint32_t first = 4 + raster.clip_distance_count;
	const double wa = a.v[3], wb = b.v[3], denom = (1.0 - t) * wa + t * wb;
	const double ts = denom != 0 ? t * wb / denom : t;
	for (uint32_t i = 0; i < raster.varying_count; ++i)
		if (raster.interpolation[i] == Interpolation::NoPerspective)
			r.v[first + i] = float(a.v[first + i] + ts * (double(b.v[first + i]) - a.v[first + i]));
}

uint32_t ClipAgainstPlane(const PrimitiveSetupState& s, uint32_t plane, uint32_t stride, const ClipVertex* in,
                          const ClipFlags* in_flags, uint32_t count, ClipVertex* out, ClipFlags* out_flags) {
	uint32_t n = 0;
	for (uint32_t i = 0; i < count; ++i) {
		const ClipVertex& cur = in[i];
		const ClipVertex& next = in[(i + 1) % count];
		float dc = PlaneDistance(s, cur.v, plane), dn = PlaneDistance(s, next.v, plane);
		bool cur_in = dc >= 0, next_in = dn >= 0;
		if (cur_in) out_flags[n] = in_flags[i], out[n++] = cur;
		if (cur_in != next_in) {
			const ClipVertex& a = cur_in ? cur : next;
			const ClipVertex& b = cur_in ? next : cur;
			float da = cur_in ? dc : dn, db = cur_in ? dn : dc;
			float t = da / (da - db);
			// Leaving: the edge from here runs along the plane; entering: it
			// is the rest of the input edge.
			out_flags[n] = ClipFlags{-1, cur_in ? false : in_flags[i].edge};
			EdgePoint(s, a, b, t, stride, out[n++]);
		}
	}
	return n;
}

int64_t FloorDiv256(int64_t v) { return v >> 8; }  // arithmetic shift: floor

// Round to the nearest 1/256 (halves up); a floor without a libm call.
int32_t Snap(double v) {
	double x = v * double(1 << kSubPixelBits) + 0.5;
	int32_t i = int32_t(x);  // truncates toward zero
	return i - (double(i) > x);
}

// Plane through three points (x relative to vertex 0), in pixels;
// inv_det = 1 / ((x1 - x0)(y2 - y0) - (x2 - x0)(y1 - y0)).
void PlaneOf(const double x[3], const double y[3], double inv_det, double f0, double f1, double f2, double plane[3]) {
	double dx1 = x[1] - x[0], dy1 = y[1] - y[0], dx2 = x[2] - x[0], dy2 = y[2] - y[0];
	plane[0] = ((f1 - f0) * dy2 - (f2 - f0) * dy1) * inv_det;
	plane[1] = ((f2 - f0) * dx1 - (f1 - f0) * dx2) * inv_det;
	plane[2] = f0;
}

// Vulkan "Depth Bias": o = m * slope + r * constant, clamped;
// m = max(|dz/dx|, |dz/dy|), the approximation the spec allows; r = 2^-n
// for an n-bit UNORM attachment, 2^(e - 23) for float with e the exponent
// of the largest |z| of the triangle. VK_EXT_depth_bias_control: r is
// 2^-24 for float with FORCE_UNORM (n is the mantissa's bits plus one), 1
// with FLOAT; r is always the exact value (depthBiasExact).
double DepthBias(const PrimitiveSetupState& s, const double plane[3], float z0, float z1, float z2) {
	const RasterState& r = s.raster;
	double m = std::max(std::abs(plane[0]), std::abs(plane[1]));
	double resolvable;
	if (r.depth_bias_representation == VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT) {
		resolvable = 1.0;
	} else if (s.depth_bias_bits) {
		resolvable = std::ldexp(1.0, -s.depth_bias_bits);
	} else if (r.depth_bias_representation == VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT) {
		resolvable = std::ldexp(1.0, -24);
	} else {
		int e;
		std::frexp(std::max({std::abs(z0), std::abs(z1), std::abs(z2)}), &e);  // |z| = f 2^e, f in [0.5, 1)
		resolvable = std::ldexp(1.0, e - 1 - 23);
	}
	double o = m * r.depth_bias_slope + resolvable * r.depth_bias_constant;
	if (r.depth_bias_clamp > 0) o = std::min(o, double(r.depth_bias_clamp));
	if (r.depth_bias_clamp < 0) o = std::max(o, double(r.depth_bias_clamp));
	return o;
}

struct ScreenVertex {
	int32_t X, Y;  // fixed point
	double x, y;   // framebuffer coordinates before snapping
	float z, inv_w;
	const float* attributes;  // varyings, at index 4 + clip distance count of the clip vertex
};

// Bounding box and edge functions of the triangle of fixed-point vertices
// (X[i], Y[i]), which run so that the inside is positive; nullptr when the
// box misses the scissor.
// grow (fixed point, at least 0): the box of an overestimated conservative
// triangle takes the pixels that touch its own box grown by that much.
[[gnu::always_inline]] inline SetupTriangle* SetupEdges(const PrimitiveSetupState& s, const int32_t X[3],
                                                        const int32_t Y[3], TriangleSetupOutput& out,
                                                        int32_t grow = -1) {
	int64_t min_x_fixed = std::min({X[0], X[1], X[2]}), max_x_fixed = std::max({X[0], X[1], X[2]});
	int64_t min_y_fixed = std::min({Y[0], Y[1], Y[2]}), max_y_fixed = std::max({Y[0], Y[1], Y[2]});
	if (grow >= 0) {
		// Pixel p touches [lo, hi] when p + 1 >= lo and p <= hi (in pixels).
		min_x_fixed -= grow + 1, min_y_fixed -= grow + 1;
		max_x_fixed += grow, max_y_fixed += grow;
	}
	const int32_t min_x = std::max<int32_t>(int32_t(FloorDiv256(min_x_fixed)), s.scissor_min_x);
	const int32_t max_x = std::min<int32_t>(int32_t(FloorDiv256(max_x_fixed)), s.scissor_max_x);
	const int32_t min_y = std::max<int32_t>(int32_t(FloorDiv256(min_y_fixed)), s.scissor_min_y);
	const int32_t max_y = std::min<int32_t>(int32_t(FloorDiv256(max_y_fixed)), s.scissor_max_y);
	if (min_x > max_x || min_y > max_y) return nullptr;
	// Written in place: the arrays grow by the millions per frame.
	SetupTriangle& t = out.triangles.emplace_back();
	t.min_x = min_x, t.max_x = max_x, t.min_y = min_y, t.max_y = max_y;
	// Edge e runs from vertex e+1 to vertex e+2; with the vertices in this
	// order the inside is where all three are positive.
	for (int e = 0; e < 3; ++e) {
		const int a = (e + 1) % 3, b = (e + 2) % 3;
		int64_t ea = int64_t(Y[a]) - Y[b], eb = int64_t(X[b]) - X[a];
		t.edge_a[e] = int32_t(ea);
		t.edge_b[e] = int32_t(eb);
		t.edge_c[e] = -ea * X[a] - eb * Y[a];
		// Vulkan 1.3 §28.7.1 asks only that of two triangles sharing an edge
		// exactly one covers a sample on it. We take the top-left rule (as
		// D3D does) in Vulkan's y-down framebuffer: a sample on an edge is
		// covered for a top edge (horizontal, inside below it) or a left
		// edge (inside to its right).
		bool top_left = ea > 0 || (ea == 0 && eb > 0);
		t.edge_bias[e] = top_left ? 0 : 1;
	}
	t.kind = PrimitiveKind::Triangle;
	return &t;
}

// The pixel boxes (width and height) below which SetupOne looks for a
// covered pixel center before anything else.
constexpr int32_t kSmallTriangleBox = 3;

void SetupOne(const PrimitiveSetupState& s, const ScreenVertex* v0, const ScreenVertex* v1, const ScreenVertex* v2,
              const float* flat_values, bool front, TriangleSetupOutput& out) {
	const ScreenVertex* v[3] = {v0, v1, v2};
	const int32_t X[3] = {v0->X, v1->X, v2->X}, Y[3] = {v0->Y, v1->Y, v2->Y};
	// VK_EXT_conservative_rasterization: each edge moved out (in) by half a
	// pixel's extent along its normal, |a| / 2 + |b| / 2 pixels of its
	// function, plus the extra size when overestimating, so that its value
	// at a pixel's center says whether the pixel's square (edges and corners
	// included) touches (lies inside) the edge's half plane. Overestimated,
	// the box is the pixels touching the triangle's grown box, which bounds
	// the grown edges' corners.
	const VkConservativeRasterizationModeEXT conservative = s.raster.conservative_mode;
	const bool over = conservative == VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT;
	// (The size is valid up to maxExtraPrimitiveOverestimationSize; anything
	// else, NaN too, is taken as 0.)
	const float size = s.raster.extra_overestimation;
	const int32_t extra =
	    over && size > 0.0f && size <= kMaxExtraOverestimation ? int32_t(std::lround(size * 256.0f)) : 0;
	SetupTriangle* tp = SetupEdges(s, X, Y, out, over ? extra : -1);
	if (!tp) return;
	SetupTriangle& t = *tp;
	if (conservative != VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT) {
		for (int e = 0; e < 3; ++e) {
			// (|a| + |b|) * d: the most the edge function changes from a
			// pixel's center to a point at most d subpixels from it in x and
			// in y (d = 128: the pixel's square; then the extra size).
			const int64_t slope = std::abs(int64_t(t.edge_a[e])) + std::abs(int64_t(t.edge_b[e]));
			const int64_t extent = slope * 128;
			if (over) {
				t.edge_c[e] += extent + slope * extra;
				t.edge_bias[e] = 0;  // touching counts
			} else {
				t.edge_c[e] -= extent;
				t.edge_bias[e] = 1;  // a pixel an edge touches is not held
			}
		}
		t.kind = PrimitiveKind::ConservativeTriangle;
	}
	// A triangle of a few pixels may hold no pixel center at all (a finely
	// tessellated mesh's often do): with one sample, at the center, it is
	// dropped here, before its planes are made and it is binned. The test
	// is the rasterizer's (edge value at the center minus the bias, >= 0).
	if (s.raster.samples == 1 && t.max_x - t.min_x < kSmallTriangleBox && t.max_y - t.min_y < kSmallTriangleBox) {
		bool covers = false;
		for (int32_t py = t.min_y; py <= t.max_y && !covers; ++py)
			for (int32_t px = t.min_x; px <= t.max_x && !covers; ++px) {
				const int64_t cx = int64_t(px) * 256 + 128, cy = int64_t(py) * 256 + 128;
				bool in = true;
				for (int e = 0; e < 3; ++e) in &= EdgeAt(t, e, cx, cy) - t.edge_bias[e] >= 0;
				covers = in;
			}
		if (!covers) {
			out.triangles.pop_back();
			return;
		}
	}
	double x[3], y[3];
	for (int i = 0; i < 3; ++i) {
		x[i] = double(v[i]->X) / 256.0;
		y[i] = double(v[i]->Y) / 256.0;
	}
	double det = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
	double inv_det = 1.0 / det;
	t.ref_x = x[0];
	t.ref_y = y[0];
	double plane[3];
	PlaneOf(x, y, inv_det, v0->z, v1->z, v2->z, plane);
	if (s.raster.depth_bias_enable) plane[2] += DepthBias(s, plane, v0->z, v1->z, v2->z);
	for (int k = 0; k < 3; ++k) t.depth[k] = float(plane[k]);
	PlaneOf(x, y, inv_det, v0->inv_w, v1->inv_w, v2->inv_w, plane);
	for (int k = 0; k < 3; ++k) t.inv_w[k] = float(plane[k]);
	t.front_facing = front;
	t.varying_offset = uint32_t(out.varying_planes.size());
	const RasterState& r = s.raster;
	out.varying_planes.resize(out.varying_planes.size() + 3 * r.varying_count);
	float* planes = out.varying_planes.data() + t.varying_offset;
	for (uint32_t i = 0; i < r.varying_count; ++i) {
		switch (r.interpolation[i]) {
		case Interpolation::Flat: plane[0] = plane[1] = 0, plane[2] = flat_values[i]; break;
		case Interpolation::NoPerspective:
			PlaneOf(x, y, inv_det, v0->attributes[i], v1->attributes[i], v2->attributes[i], plane);
			break;
		case Interpolation::Smooth:  // Vulkan 1.3 §28.7.4: a/w is linear in screen space
			PlaneOf(x, y, inv_det, v0->attributes[i] * v0->inv_w, v1->attributes[i] * v1->inv_w,
			        v2->attributes[i] * v2->inv_w, plane);
			break;
		}
		for (int k = 0; k < 3; ++k) planes[3 * i + k] = float(plane[k]);
		// A flat value is the provoking vertex's bits, unchanged (an integer
		// varying may look like -0.0 or a signaling NaN as a float).
		if (r.interpolation[i] == Interpolation::Flat) std::memcpy(&planes[3 * i + 2], &flat_values[i], 4);
	}
}

// The planes of lines and points are given, not derived from three
// vertices: writes depth and 1/w into t (relative to ref).
void SetPlanes(SetupTriangle& t, double ref_x, double ref_y, const double depth[3], const double inv_w[3],
               uint32_t varying_offset, bool front, PrimitiveKind kind) {
	t.ref_x = ref_x;
	t.ref_y = ref_y;
	for (int k = 0; k < 3; ++k) t.depth[k] = float(depth[k]), t.inv_w[k] = float(inv_w[k]);
	t.varying_offset = varying_offset;
	t.front_facing = front;
	t.kind = kind;
}

// Sets up the two triangles (c0, c1, c2) and (c0, c2, c3) of a convex
// quadrilateral (fixed point), each turned so that its inside is positive;
// they share the diagonal, so the top-left rule gives its samples to one.
// Returns how many were kept.
uint32_t SetupQuad(const PrimitiveSetupState& s, const int32_t CX[4], const int32_t CY[4], double ref_x, double ref_y,
                   const double depth[3], const double inv_w[3], uint32_t varying_offset, bool front,
                   PrimitiveKind kind, TriangleSetupOutput& out) {
	uint32_t kept = 0;
	for (int k = 0; k < 2; ++k) {
		int32_t X[3] = {CX[0], CX[1 + k], CX[2 + k]}, Y[3] = {CY[0], CY[1 + k], CY[2 + k]};
		int64_t area =
		    (int64_t(X[1]) - X[0]) * (int64_t(Y[2]) - Y[0]) - (int64_t(X[2]) - X[0]) * (int64_t(Y[1]) - Y[0]);
		if (area == 0) continue;
		if (area < 0) std::swap(X[1], X[2]), std::swap(Y[1], Y[2]);
		SetupTriangle* t = SetupEdges(s, X, Y, out);
		if (!t) continue;
		SetPlanes(*t, ref_x, ref_y, depth, inv_w, varying_offset, front, kind);
		++kept;
	}
	return kept;
}

// The planes of a line's values (Vulkan 1.3 "Basic Line Segment
// Rasterization"): at a point p they take t = (p - a).(b - a) / |b - a|^2,
// depth linearly, 1/w and smooth varyings (as a/w) perspective-correctly,
// noperspective ones linearly; all are planes in x and y, relative to a.
// Appends the varyings' planes (and `extra` floats after them) to out;
// returns their offset. A Bresenham line (`major`: 1 for x, 2 for y) takes
// t of the point of the segment in the fragment's column (row) instead,
// the major coordinate's share of the segment's run.
uint32_t LinePlanes(const PrimitiveSetupState& s, const ScreenVertex& a, const ScreenVertex& b,
                    const float* flat_values, double depth_offset, uint32_t extra, double depth[3], double inv_w[3],
                    TriangleSetupOutput& out, int major = 0) {
	const double dx = (b.X - a.X) / 256.0, dy = (b.Y - a.Y) / 256.0, len2 = dx * dx + dy * dy;
	const double ga = major == 1 ? 1.0 / dx : major == 2 ? 0.0 : dx / len2;
	const double gb = major == 2 ? 1.0 / dy : major == 1 ? 0.0 : dy / len2;
	auto plane = [&](double fa, double fb, double p[3]) {
		p[0] = (fb - fa) * ga;
		p[1] = (fb - fa) * gb;
		p[2] = fa;
	};
	double p[3] = {0, 0, 0};
	plane(a.z, b.z, depth);
	depth[2] += depth_offset;
	plane(a.inv_w, b.inv_w, inv_w);
	const RasterState& r = s.raster;
	const uint32_t offset = uint32_t(out.varying_planes.size());
	out.varying_planes.resize(offset + 3 * r.varying_count + extra);
	for (uint32_t i = 0; i < r.varying_count; ++i) {
		switch (r.interpolation[i]) {
		case Interpolation::Flat: p[0] = p[1] = 0, p[2] = flat_values[i]; break;
		case Interpolation::NoPerspective: plane(a.attributes[i], b.attributes[i], p); break;
		case Interpolation::Smooth:
			plane(double(a.attributes[i]) * a.inv_w, double(b.attributes[i]) * b.inv_w, p);
			break;
		}
		for (int k = 0; k < 3; ++k) out.varying_planes[offset + 3 * i + k] = float(p[k]);
		if (r.interpolation[i] == Interpolation::Flat)  // the bits, unchanged (see SetupOne)
			std::memcpy(&out.varying_planes[offset + 3 * i + 2], &flat_values[i], 4);
	}
	return offset;
}

// Vulkan "Bresenham Line Segment Rasterization" (see BresenhamMajorRun for
// the ends): in each column of an x-major line (row of a y-major one) the
// w pixels whose centers lie within (L - 1/2, L + w - 1/2] of the moved
// segment's crossing L of the column's center line. A center exactly on
// one of those bounds goes the way the perturbation -(e, e^2) moves the
// segment: along an x-major line it moves y by s e - e^2 for slope s (up
// in y when s > 0, else down), along a y-major one x by about -e. Values
// follow t of the segment's point in the fragment's column: every fragment
// of a column takes the same values, as the spec prefers for wide lines.
void SetupBresenhamLine(const PrimitiveSetupState& s, const ScreenVertex& a, const ScreenVertex& b,
                        const float* flat_values, bool front, double depth_offset, TriangleSetupOutput& out) {
	const uint32_t w = uint32_t(s.line_width);  // whole (MakePrimitiveSetupState)
	const BresenhamRun run = BresenhamMajorRun(a.X, a.Y, b.X, b.Y, w);
	if (!run.count) return;
	const bool xm = run.x_major;
	const int32_t last = run.first + run.step * int32_t(run.count - 1);
	// Major (M) and minor (m) coordinates of a and of b - a.
	const int64_t ma = xm ? a.X : a.Y, na = xm ? a.Y : a.X;
	const int64_t dm = xm ? int64_t(b.X) - a.X : int64_t(b.Y) - a.Y, dn = xm ? int64_t(b.Y) - a.Y : int64_t(b.X) - a.X;
	const int64_t len = std::abs(dm), sign = dm > 0 ? 1 : -1;
	// F(M, m) = |dm| (m - m_line(M) + 128 (w - 1)): |dm| times how far a
	// center lies past the moved segment across it (fixed point).
	const int64_t fm = -sign * dn, fn = len, f0 = len * (128 * int64_t(w - 1) - na) + sign * dn * ma;
	// The perturbation moves the segment toward +m (x-major with positive slope) or -m.
	const bool up = xm && dn != 0 && (dn > 0) == (dm > 0);
	// Box: the run along the major axis; across, the band's extent over it.
	const int32_t major_lo = std::min(run.first, last), major_hi = std::max(run.first, last);
	double n_lo = 1e30, n_hi = -1e30;
	for (int32_t c : {major_lo, major_hi}) {
		const double center = (int64_t(c) * 256 + 128 - ma) / 256.0;
		const double n = (double(na) + double(dn) * center * 256.0 / double(dm)) / 256.0 - 0.5 * double(w - 1);
		n_lo = std::min(n_lo, n), n_hi = std::max(n_hi, n);
	}
	const int64_t minor_lo = int64_t(std::floor(n_lo)) - 1, minor_hi = int64_t(std::ceil(n_hi)) + w;
	const int64_t x0 = xm ? major_lo : minor_lo, x1 = xm ? major_hi : minor_hi;
	const int64_t y0 = xm ? minor_lo : major_lo, y1 = xm ? minor_hi : major_hi;
	const int32_t min_x = int32_t(std::max<int64_t>(x0, s.scissor_min_x));
	const int32_t max_x = int32_t(std::min<int64_t>(x1, s.scissor_max_x));
	const int32_t min_y = int32_t(std::max<int64_t>(y0, s.scissor_min_y));
	const int32_t max_y = int32_t(std::min<int64_t>(y1, s.scissor_max_y));
	if (min_x > max_x || min_y > max_y) return;
	double depth[3], inv_w[3];
	const uint32_t offset = LinePlanes(s, a, b, flat_values, depth_offset, 0, depth, inv_w, out, xm ? 1 : 2);
	// The stipple counts fragments along the major axis from the start
	// vertex's count: a plane that is count + 1/2 at the first fragment's
	// center and steps 1 a pixel.
	const RasterState& r = s.raster;
	if (r.stipple_varying < r.varying_count) {
		float* p = &out.varying_planes[offset + 3 * r.stipple_varying];
		const double first_center = run.first + 0.5, at_a = (xm ? a.X : a.Y) / 256.0;
		const double base = double(a.attributes[r.stipple_varying]) + 0.5 + run.step * (at_a - first_center);
		p[0] = xm ? float(run.step) : 0.0f;
		p[1] = xm ? 0.0f : float(run.step);
		p[2] = float(base);
	}
	SetupTriangle& t = out.triangles.emplace_back();
	t.min_x = min_x, t.max_x = max_x, t.min_y = min_y, t.max_y = max_y;
	// In (X, Y): F = fm M + fn m + f0.
	const int64_t fa = xm ? fm : fn, fb = xm ? fn : fm;
	// Low side: F > -128 |dm|; high side: F <= |dm| (256 w - 128).
	t.edge_a[0] = int32_t(fa), t.edge_b[0] = int32_t(fb), t.edge_c[0] = f0 + 128 * len, t.edge_bias[0] = up ? 1 : 0;
	t.edge_a[1] = int32_t(-fa), t.edge_b[1] = int32_t(-fb), t.edge_c[1] = len * (256 * int64_t(w) - 128) - f0;
	t.edge_bias[1] = up ? 0 : 1;
	t.edge_a[2] = 0, t.edge_b[2] = 0, t.edge_c[2] = 1, t.edge_bias[2] = 0;
	SetPlanes(t, a.X / 256.0, a.Y / 256.0, depth, inv_w, offset, front, PrimitiveKind::BresenhamLine);
}

// Vulkan "Smooth Lines": the rectangle of the segment widened by half a
// pixel on every side covers whole pixels; each takes the coverage
// clamp(w/2 + 1/2 - |across|) times the length of [along - 1/2,
// along + 1/2] inside [0, length] (rasterizer.cpp, SmoothLineCoverage):
// the area of the pixel square inside the rectangle for a line along an
// axis, and close to it otherwise. The planes of across and along, then
// the length, follow the varyings.
void SetupSmoothLine(const PrimitiveSetupState& s, const ScreenVertex& a, const ScreenVertex& b,
                     const float* flat_values, bool front, double depth_offset, TriangleSetupOutput& out) {
	const double xa = a.X / 256.0, ya = a.Y / 256.0, xb = b.X / 256.0, yb = b.Y / 256.0;
	const double dx = xb - xa, dy = yb - ya, len = std::sqrt(dx * dx + dy * dy);
	const double ux = dx / len, uy = dy / len, half = 0.5 * s.line_width + 0.5;
	const double nx = -uy * half, ny = ux * half, ex = 0.5 * ux, ey = 0.5 * uy;
	const int32_t CX[4] = {Snap(xa - ex + nx), Snap(xb + ex + nx), Snap(xb + ex - nx), Snap(xa - ex - nx)};
	const int32_t CY[4] = {Snap(ya - ey + ny), Snap(yb + ey + ny), Snap(yb + ey - ny), Snap(ya - ey - ny)};
	double depth[3], inv_w[3];
	const uint32_t offset = LinePlanes(s, a, b, flat_values, depth_offset, 7, depth, inv_w, out);
	float* extra = out.varying_planes.data() + offset + 3 * s.raster.varying_count;
	extra[0] = float(-uy), extra[1] = float(ux), extra[2] = 0;  // across
	extra[3] = float(ux), extra[4] = float(uy), extra[5] = 0;   // along
	extra[6] = float(len);
	if (!SetupQuad(s, CX, CY, xa, ya, depth, inv_w, offset, front, PrimitiveKind::SmoothLine, out))
		out.varying_planes.resize(offset);
}

// Vulkan 1.3 "Basic Line Segment Rasterization" (the strictLines
// rule): the rectangle of the segment a-b, line_width wide, not extended
// past the endpoints (LinePlanes for its values). Bresenham and smooth
// lines when the draw asks for them.
void SetupLine(const PrimitiveSetupState& s, const ScreenVertex& a, const ScreenVertex& b, const float* flat_values,
               bool front, double depth_offset, TriangleSetupOutput& out) {
	if (a.X == b.X && a.Y == b.Y) return;  // no rectangle, no diamond exited: no fragments
	switch (s.raster.line_mode) {
	case LineMode::Bresenham: return SetupBresenhamLine(s, a, b, flat_values, front, depth_offset, out);
	case LineMode::Smooth: return SetupSmoothLine(s, a, b, flat_values, front, depth_offset, out);
	case LineMode::Rectangular: break;
	}
	const double xa = a.X / 256.0, ya = a.Y / 256.0, xb = b.X / 256.0, yb = b.Y / 256.0;
	const double dx = xb - xa, dy = yb - ya, len = std::sqrt(dx * dx + dy * dy);
	const double half = 0.5 * s.line_width;
	const double nx = -dy / len * half, ny = dx / len * half;
	const int32_t CX[4] = {Snap(xa + nx), Snap(xb + nx), Snap(xb - nx), Snap(xa - nx)};
	const int32_t CY[4] = {Snap(ya + ny), Snap(yb + ny), Snap(yb - ny), Snap(ya - ny)};
	double depth[3], inv_w[3];
	const uint32_t offset = LinePlanes(s, a, b, flat_values, depth_offset, 0, depth, inv_w, out);
	if (!SetupQuad(s, CX, CY, xa, ya, depth, inv_w, offset, front, PrimitiveKind::Line, out))
		out.varying_planes.resize(offset);
}

// Vulkan 1.3 "Basic Point Rasterization": the square of side size
// centered at the unrounded (x_f, y_f); every fragment takes the vertex's
// values (flat ones: flat_values) and gl_PointCoord
// (1/2 + (x_p - x_f) / size, 1/2 + (y_p - y_f) / size).
void SetupPoint(const PrimitiveSetupState& s, const ScreenVertex& v, float size, const float* flat_values, bool front,
                double depth_offset, TriangleSetupOutput& out) {
	const double h = 0.5 * size;
	const int32_t x0 = Snap(v.x - h), x1 = Snap(v.x + h), y0 = Snap(v.y - h), y1 = Snap(v.y + h);
	const int32_t CX[4] = {x0, x1, x1, x0}, CY[4] = {y0, y0, y1, y1};
	const double depth[3] = {0, 0, double(v.z) + depth_offset}, inv_w[3] = {0, 0, v.inv_w};
	const RasterState& r = s.raster;
	const uint32_t offset = uint32_t(out.varying_planes.size());
	out.varying_planes.resize(offset + 3 * r.varying_count + 6);
	float* planes = out.varying_planes.data() + offset;
	for (uint32_t i = 0; i < r.varying_count; ++i) {
		planes[3 * i] = planes[3 * i + 1] = 0;
		planes[3 * i + 2] = r.interpolation[i] == Interpolation::Flat ? flat_values[i] : v.attributes[i];
	}
	float* coord = planes + 3 * r.varying_count;
	const float inv_size = float(1.0 / size);
	coord[0] = inv_size, coord[1] = 0, coord[2] = 0.5f;
	coord[3] = 0, coord[4] = inv_size, coord[5] = 0.5f;
	if (!SetupQuad(s, CX, CY, v.x, v.y, depth, inv_w, offset, front, PrimitiveKind::Point, out))
		out.varying_planes.resize(offset);
}

// Perspective divide and viewport transform (§27.5) of a clip-space vertex
// (clip distances then varyings after the position).
[[gnu::always_inline]] inline void ToScreen(const PrimitiveSetupState& s, const float* v, uint32_t clip_distance_count,
                                            ScreenVertex& out) {
	float inv_w = 1.0f / v[3];
	double xf = double(s.viewport_scale[0]) * (v[0] * inv_w) + s.viewport_offset[0];
	double yf = double(s.viewport_scale[1]) * (v[1] * inv_w) + s.viewport_offset[1];
	// (SnapToFramebuffer repeats this.)
	float zf = s.viewport_scale[2] * (v[2] * inv_w) + s.viewport_offset[2];
	// X and Y in one store: the area sums below load them as one 64-bit
	// word, which two 32-bit stores cannot forward to (that stall was
	// about 40% of ProcessTriangle with small triangles).
	const uint64_t packed = uint64_t(uint32_t(Snap(xf))) | uint64_t(uint32_t(Snap(yf))) << 32;
	static_assert(offsetof(ScreenVertex, Y) == offsetof(ScreenVertex, X) + 4);
	std::memcpy(&out.X, &packed, 8);
	out.x = xf;
	out.y = yf;
	out.z = zf;
	out.inv_w = inv_w;
	out.attributes = v + 4 + clip_distance_count;
}

float ClampPointSize(const VertexInput& input, uint32_t vertex) {
	if (!input.point_sizes) return 1.0f;
	float size = input.point_sizes[vertex];
	if (!(size >= kMinPointSize)) return kMinPointSize;  // also NaN
	return std::min(size, kMaxPointSize);
}

// Loads the position and clip distances of vertex vi of the input into a
// clip vertex; false when its position is not finite (undefined results:
// the primitive is dropped).
[[gnu::always_inline]] inline bool LoadPosition(const RasterState& r, const VertexInput& input, uint32_t vi, float* v) {
	const uint32_t cd = r.clip_distance_count;
	std::memcpy(v, input.positions + 4 * size_t(vi), 4 * sizeof(float));
	if (cd) std::memcpy(v + 4, input.clip_distances + size_t(cd) * vi, cd * sizeof(float));
	for (int k = 0; k < 4; ++k)
		if (!std::isfinite(v[k])) return false;
	return true;
}
// LoadPosition and the varyings: the whole clip vertex.
[[gnu::always_inline]] inline bool LoadVertex(const RasterState& r, const VertexInput& input, uint32_t vi, float* v) {
	const uint32_t cd = r.clip_distance_count, vc = r.varying_count;
	if (vc) std::memcpy(v + 4 + cd, input.varyings + size_t(vc) * vi, vc * sizeof(float));
	return LoadPosition(r, input, vi, v);
}

}  // namespace

PrimitiveSetupState MakePrimitiveSetupState(const RasterState& raster, uint32_t fb_width, uint32_t fb_height,
                                            VkFormat depth_format) {
	PrimitiveSetupState s;
	s.raster = raster;
	s.line_width = raster.line_width >= kMinLineWidth ? std::min(raster.line_width, kMaxLineWidth) : kMinLineWidth;
	// Vulkan "Bresenham Line Segment Rasterization": the width rounded to
	// the nearest whole number, clamped to the (whole) range and to at least 1.
	if (raster.line_mode == LineMode::Bresenham) s.line_width = std::max(1.0f, std::round(s.line_width));
	s.depth_bias_bits = depth_format == VK_FORMAT_D16_UNORM             ? 16
	                    : depth_format == VK_FORMAT_X8_D24_UNORM_PACK32 ? 24
	                                                                    : 0;
	const Viewport& vp = raster.viewport;
	// Vulkan 1.3 §27.5: x_f = (p_x / 2) x_d + o_x, o_x = x + width / 2; z_f = p_z z_d + o_z.
	s.viewport_scale[0] = vp.width * 0.5f;
	s.viewport_scale[1] = vp.height * 0.5f;
	s.viewport_scale[2] = vp.max_depth - vp.min_depth;
	// VK_EXT_depth_clip_control: p_z and o_z of a [-1, 1] z_d.
	if (raster.depth_negative_one_to_one) s.viewport_scale[2] *= 0.5f;
	s.viewport_offset[0] = vp.x + vp.width * 0.5f;
	s.viewport_offset[1] = vp.y + vp.height * 0.5f;
	s.viewport_offset[2] = raster.depth_negative_one_to_one ? (vp.max_depth + vp.min_depth) * 0.5f : vp.min_depth;
	s.depth_min = std::min(vp.min_depth, vp.max_depth);
	s.depth_max = std::max(vp.min_depth, vp.max_depth);
	for (int i = 0; i < 2; ++i) {
		// Framebuffer coordinate -+kGuardBand back to normalized device coordinates.
		float a = (-kGuardBand - s.viewport_offset[i]) / s.viewport_scale[i];
		float b = (kGuardBand - s.viewport_offset[i]) / s.viewport_scale[i];
		s.guard_min[i] = std::min(a, b);
		s.guard_max[i] = std::max(a, b);
	}
	int64_t x0 = std::max<int64_t>(raster.scissor.x, 0), y0 = std::max<int64_t>(raster.scissor.y, 0);
	int64_t x1 = std::min<int64_t>(int64_t(raster.scissor.x) + raster.scissor.width, fb_width) - 1;
	int64_t y1 = std::min<int64_t>(int64_t(raster.scissor.y) + raster.scissor.height, fb_height) - 1;
	// The viewport's rectangle bounds the scissor too. Vulkan "Primitive
	// Clipping" clips triangles to the view volume, whose x and y planes
	// map to the viewport's edges; Tessera clips them at the guard band
	// only, so the pixels past those edges (centers outside) are cut here
	// instead, as a clipped triangle would not cover them. Points and wide
	// lines whose vertices are inside are not clipped, and the spec leaves
	// open where their fragments end: they end at the same edges, as the
	// CTS's references (dynamic_state.*.image.*) and lavapipe have them.
	const double left = std::min(double(vp.x), double(vp.x) + vp.width);
	const double right = std::max(double(vp.x), double(vp.x) + vp.width);
	const double top = std::min(double(vp.y), double(vp.y) + vp.height);
	const double bottom = std::max(double(vp.y), double(vp.y) + vp.height);
	// Pixel p's center p + 1/2 lies in [left, right) for p in
	// [ceil(left - 1/2), ceil(right - 1/2) - 1]. (Bounded before the
	// conversion: the viewport's floats are the application's.)
	auto first_inside = [](double edge) {
		return std::isfinite(edge) ? int64_t(std::ceil(std::clamp(edge - 0.5, -1e15, 1e15))) : 0;
	};
	x0 = std::max(x0, first_inside(left));
	x1 = std::min(x1, first_inside(right) - 1);
	y0 = std::max(y0, first_inside(top));
	y1 = std::min(y1, first_inside(bottom) - 1);
	s.scissor_min_x = int32_t(x0);
	s.scissor_min_y = int32_t(y0);
	s.scissor_max_x = int32_t(x1);
	s.scissor_max_y = int32_t(y1);
	return s;
}

void SnapToFramebuffer(const PrimitiveSetupState& s, const float* v, int32_t* x, int32_t* y) {
	const float inv_w = 1.0f / v[3];
	*x = Snap(double(s.viewport_scale[0]) * (v[0] * inv_w) + s.viewport_offset[0]);
	*y = Snap(double(s.viewport_scale[1]) * (v[1] * inv_w) + s.viewport_offset[1]);
}

// The columns (x-major) of the moved, perturbed segment p - (e, e^2): a
// point lies in pixel floor((X - 1) / 256) of each axis, and in that
// pixel's diamond |x - x_f| + |y - y_f| < 1/2 when the sum is below 1/2,
// or exactly 1/2 with x - x_f > 0 (moving by -e then brings it in). With
// |dy| <= |dx| the segment meets one diamond a column, the one where it
// crosses the column's center line, and meets a column's diamond without
// crossing that line only from an end inside it. So every column strictly
// between the ends' is a fragment; the start's is one when the segment
// crosses its center line or starts inside its diamond; the end's is one
// when the segment crosses its center line and does not end inside its
// diamond. Y-major segments swap the roles; the diamond test does not
// depend on which axis is major.
BresenhamRun BresenhamMajorRun(int32_t xa, int32_t ya, int32_t xb, int32_t yb, uint32_t width) {
	BresenhamRun r;
	const int64_t dx = int64_t(xb) - xa, dy = int64_t(yb) - ya;
	if (dx == 0 && dy == 0) return r;
	r.x_major = std::abs(dx) >= std::abs(dy);
	const int32_t shift = int32_t(128 * (width - 1));  // (w - 1)/2 pixel, fixed point
	if (r.x_major)
		ya -= shift, yb -= shift;
	else
		xa -= shift, xb -= shift;
	auto pixel = [](int64_t v) { return int32_t((v - 1) >> kSubPixelBits); };  // floor of v - e
	auto center = [](int32_t p) { return int64_t(p) * 256 + 128; };
	auto in_diamond = [&](int64_t x, int64_t y) {
		const int64_t ex = x - center(pixel(x)), ey = y - center(pixel(y)), d = std::abs(ex) + std::abs(ey);
		return d < 128 || (d == 128 && ex > 0);
	};
	const int64_t ma = r.x_major ? xa : ya, mb = r.x_major ? xb : yb;
	r.step = mb > ma ? 1 : -1;
	// The perturbed segment crosses the center line of column c.
	auto crosses = [&](int32_t c) {
		const int64_t m = center(c);
		return r.step > 0 ? ma <= m && m < mb : mb <= m && m < ma;
	};
	const int32_t cs = pixel(ma), ce = pixel(mb);
	const bool a_in = in_diamond(xa, ya), b_in = in_diamond(xb, yb);
	r.first = cs;
	if (cs == ce) {
		r.count = (crosses(cs) || a_in) && !b_in ? 1 : 0;
		return r;
	}
	if (!crosses(cs) && !a_in) r.first = cs + r.step;
	const int32_t last = crosses(ce) && !b_in ? ce : ce - r.step;
	const int64_t n = int64_t(last - r.first) * r.step + 1;
	r.count = n > 0 ? uint32_t(n) : 0;
	return r;
}

void AssembleTriangles(const VertexInput& input, bool provoking_last, std::vector<uint32_t>& out) {
	constexpr uint32_t kRestart = 0xffffffff;
	uint32_t start = 0;  // first vertex of the current strip or fan
	for (uint32_t n = 0; n < input.vertex_count; ++n) {
		auto vertex = [&](uint32_t k) { return input.indices ? input.indices[k] : k; };
		if (input.primitive_restart && input.indices && input.indices[n] == kRestart) {
			start = n + 1;
			continue;
		}
		if (n < start + 2) continue;
		const uint32_t i = n - 2 - start;  // triangle i of this strip or fan
		uint32_t v[3];
		if (input.topology == Topology::TriangleStrip) {
			// First vertex: (i, i+1+i%2, i+2-i%2); last: (i+i%2, i+1-i%2, i+2).
			// Both run the same way round; the provoking vertex is i or i+2.
			uint32_t odd = i & 1;
			if (provoking_last)
				v[0] = i + odd, v[1] = i + 1 - odd, v[2] = i + 2;
			else
				v[0] = i, v[1] = i + 1 + odd, v[2] = i + 2 - odd;
		} else {
			// Fan: first vertex (i+1, i+2, 0); last (0, i+1, i+2).
			if (provoking_last)
				v[0] = 0, v[1] = i + 1, v[2] = i + 2;
			else
				v[0] = i + 1, v[1] = i + 2, v[2] = 0;
		}
		for (uint32_t k : v) out.push_back(vertex(start + k));
	}
}

void AssembleList(const VertexInput& input, uint32_t per_primitive, std::vector<uint32_t>& out) {
	constexpr uint32_t kRestart = 0xffffffff;
	uint32_t start = 0;  // first index after the last restart
	for (uint32_t n = 0; n < input.vertex_count; ++n) {
		const uint32_t index = input.indices ? input.indices[n] : n;
		if (input.primitive_restart && input.indices && index == kRestart) {
			start = n + 1;
			continue;
		}
		if ((n + 1 - start) % per_primitive != 0) continue;
		for (uint32_t k = per_primitive; k > 0; --k)
			out.push_back(input.indices ? input.indices[n + 1 - k] : n + 1 - k);
	}
}

void AssembleLines(const VertexInput& input, std::vector<uint32_t>& out) {
	constexpr uint32_t kRestart = 0xffffffff;
	uint32_t start = 0;  // first vertex of the current strip
	for (uint32_t n = 0; n < input.vertex_count; ++n) {
		if (input.primitive_restart && input.indices && input.indices[n] == kRestart) {
			start = n + 1;
			continue;
		}
		if (n < start + 1) continue;
		out.push_back(input.indices ? input.indices[n - 1] : n - 1);
		out.push_back(input.indices ? input.indices[n] : n);
	}
}

namespace {

// Vulkan 1.3 §28.7.1: area a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) in
// framebuffer coordinates; returns that sum (twice_area: a > 0 means
// twice_area < 0), each fan triangle's share in sub_area[1..count-2], and
// the fan triangle of the largest area.
int64_t FanAreas(const ScreenVertex* sv, uint32_t count, int64_t* sub_area, uint32_t* largest) {
	int64_t twice_area = 0, largest_area = 0;
	*largest = 1;
	for (uint32_t i = 1; i + 1 < count; ++i) {
		int64_t ax = int64_t(sv[i].X) - sv[0].X, ay = int64_t(sv[i].Y) - sv[0].Y;
		int64_t bx = int64_t(sv[i + 1].X) - sv[0].X, by = int64_t(sv[i + 1].Y) - sv[0].Y;
		sub_area[i] = ax * by - bx * ay;
		twice_area += sub_area[i];
		if (std::abs(sub_area[i]) > largest_area) *largest = i, largest_area = std::abs(sub_area[i]);
	}
	return twice_area;
}
// Counter-clockwise front faces have a > 0.
inline bool FrontFacing(const RasterState& r, int64_t twice_area) {
	return (r.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE) == (twice_area < 0);
}
inline bool Culled(const RasterState& r, bool front) {
	return front ? (r.cull_mode & VK_CULL_MODE_FRONT_BIT) != 0 : (r.cull_mode & VK_CULL_MODE_BACK_BIT) != 0;
}

// A filled polygon of screen vertices (a triangle, or what clipping made
// of one): culled, then set up as the fan of triangles from vertex 0.
void SetupPolygon(const PrimitiveSetupState& s, const ScreenVertex* sv, uint32_t count, const float* flat_values,
                  TriangleSetupOutput& out) {
	int64_t sub_area[kMaxPolygon];
	uint32_t largest;
	const int64_t twice_area = FanAreas(sv, count, sub_area, &largest);
	if (twice_area == 0) return;  // zero area: no fragments
	const bool front = FrontFacing(s.raster, twice_area);
	if (Culled(s.raster, front)) return;
	for (uint32_t i = 1; i + 1 < count; ++i) {
		// Slivers that snapping turned over are not part of the polygon.
		if (sub_area[i] == 0 || (sub_area[i] < 0) != (twice_area < 0)) continue;
		// Edge functions are positive inside when the sum is positive.
		if (sub_area[i] > 0)
			SetupOne(s, &sv[0], &sv[i], &sv[i + 1], flat_values, front, out);
		else
			SetupOne(s, &sv[0], &sv[i + 1], &sv[i], flat_values, front, out);
	}
}

}  // namespace

void ProcessTriangle(const PrimitiveSetupState& s, const VertexInput& input, uint32_t index, TriangleSetupOutput& out) {
	const RasterState& r = s.raster;
	const uint32_t cd = r.clip_distance_count, vc = r.varying_count;
	const uint32_t stride = 4 + cd + vc;
	ClipVertex poly[2][kMaxPolygon];
	ClipFlags flags[2][kMaxPolygon];
	uint32_t vertex_index[3];
	for (int i = 0; i < 3; ++i) {
		uint32_t n = 3 * index + i;
		vertex_index[i] = input.indices ? input.indices[n] : n;
	}
	uint32_t outside_all = ~0u, outside_any = 0;
	uint32_t plane_count = kPlaneClipDistance0 + cd;
	for (int i = 0; i < 3; ++i) {
		float* v = poly[0][i].v;
		if (!LoadPosition(r, input, vertex_index[i], v)) return;
		flags[0][i] = ClipFlags{int8_t(i), true};
		uint32_t outside = Outcode(s, v);
		outside_all &= outside;
		outside_any |= outside;
	}
	if (outside_all) return;  // every vertex outside one plane
	// Only clipping makes new varyings: an unclipped triangle's vertices
	// read theirs where the vertex stage left them (below), not copies.
	if (outside_any && vc)
		for (int i = 0; i < 3; ++i)
			std::memcpy(poly[0][i].v + 4 + cd, input.varyings + size_t(vc) * vertex_index[i], vc * sizeof(float));
	uint32_t count = 3, cur = 0;
	for (uint32_t p = 0; outside_any && p < plane_count; ++p) {
		if (!(outside_any & (1u << p))) continue;
		count = ClipAgainstPlane(s, p, stride, poly[cur], flags[cur], count, poly[cur ^ 1], flags[cur ^ 1]);
		cur ^= 1;
		if (count < 3) return;
	}
	// Flat varyings come from the provoking vertex of the original triangle.
	const float* flat_values =
	    vc ? input.varyings + size_t(vc) * vertex_index[r.provoking_vertex_last ? 2 : 0] : nullptr;

	ScreenVertex sv[kMaxPolygon];
	for (uint32_t i = 0; i < count; ++i) ToScreen(s, poly[cur][i].v, cd, sv[i]);
	if (!outside_any && vc)
		for (uint32_t i = 0; i < 3; ++i) sv[i].attributes = input.varyings + size_t(vc) * vertex_index[i];
	if (r.polygon_mode != VK_POLYGON_MODE_LINE && r.polygon_mode != VK_POLYGON_MODE_POINT) {
		SetupPolygon(s, sv, count, flat_values, out);
		return;
	}
	int64_t sub_area[kMaxPolygon];
	uint32_t largest;
	const int64_t twice_area = FanAreas(sv, count, sub_area, &largest);
	if (twice_area == 0) return;  // zero area: no fragments
	const bool front = FrontFacing(r, twice_area);
	if (Culled(r, front)) return;
	// Vulkan 1.3 "Polygon Mode" LINE or POINT: the modes apply after clipping and culling. The
	// depth bias is the polygon's ("Depth Bias": "all fragments generated by the
	// rasterization of a polygon"), from the slope of its largest fan
	// triangle.
	double bias = 0;
	if (r.depth_bias_enable) {
		const ScreenVertex* v[3] = {&sv[0], &sv[largest], &sv[largest + 1]};
		double x[3], y[3], plane[3];
		for (int i = 0; i < 3; ++i) x[i] = v[i]->X / 256.0, y[i] = v[i]->Y / 256.0;
		double det = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
		if (det != 0) {
			PlaneOf(x, y, 1.0 / det, v[0]->z, v[1]->z, v[2]->z, plane);
			bias = DepthBias(s, plane, v[0]->z, v[1]->z, v[2]->z);
		}
	}
	const ClipFlags* f = flags[cur];
	for (uint32_t i = 0; i < count; ++i) {
		if (r.polygon_mode == VK_POLYGON_MODE_LINE) {
			// Edges of the input triangle only, not those along a clip plane.
			if (f[i].edge) SetupLine(s, sv[i], sv[(i + 1) % count], flat_values, front, bias, out);
			continue;
		}
		// The input triangle's vertices; they are inside every clip plane
		// but maybe outside the view volume in x and y (the guard band
		// is wider), where points are discarded (ALL_CLIP_PLANES).
		if (f[i].original < 0) continue;
		const float* v = poly[cur][i].v;
		if (!(std::abs(v[0]) <= v[3] && std::abs(v[1]) <= v[3])) continue;
		SetupPoint(s, sv[i], ClampPointSize(input, vertex_index[f[i].original]), flat_values, front, bias, out);
	}
}

void ProcessPreparedTriangle(const PrimitiveSetupState& s, const VertexInput& input, const PreparedVertex* prepared,
                             uint32_t first, uint32_t index, TriangleSetupOutput& out) {
	const uint32_t vc = s.raster.varying_count;
	uint32_t vertex_index[3];
	uint32_t outside_all = ~0u, outside_any = 0;
	for (int i = 0; i < 3; ++i) {
		const uint32_t n = 3 * index + i;
		vertex_index[i] = input.indices ? input.indices[n] : n;
		const uint32_t outcode = prepared[vertex_index[i] - first].outcode;
		if (outcode & PreparedVertex::kNotFinite) return;  // as LoadPosition
		outside_all &= outcode;
		outside_any |= outcode;
	}
	if (outside_all) return;
	if (outside_any) {
		ProcessTriangle(s, input, index, out);
		return;
	}
	ScreenVertex sv[3];
	for (int i = 0; i < 3; ++i) {
		const PreparedVertex& p = prepared[vertex_index[i] - first];
		sv[i].X = p.X, sv[i].Y = p.Y;
		sv[i].x = p.x, sv[i].y = p.y;
		sv[i].z = p.z, sv[i].inv_w = p.inv_w;
		sv[i].attributes = vc ? input.varyings + size_t(vc) * vertex_index[i] : nullptr;
	}
	const float* flat_values =
	    vc ? input.varyings + size_t(vc) * vertex_index[s.raster.provoking_vertex_last ? 2 : 0] : nullptr;
	SetupPolygon(s, sv, 3, flat_values, out);
}

void PrepareVertices(const PrimitiveSetupState& s, const VertexInput& input, uint32_t first, uint32_t count,
                     PreparedVertex* out) {
	const uint32_t cd = s.raster.clip_distance_count;
	ClipVertex c;
	for (uint32_t k = 0; k < count; ++k) {
		const uint32_t vi = first + k;
		PreparedVertex& p = out[k];
		if (!LoadPosition(s.raster, input, vi, c.v)) {
			p.outcode = PreparedVertex::kNotFinite;
			continue;
		}
		p.outcode = Outcode(s, c.v);
		ScreenVertex sv;
		ToScreen(s, c.v, cd, sv);
		p.X = sv.X, p.Y = sv.Y;
		p.x = sv.x, p.y = sv.y;
		p.z = sv.z, p.inv_w = sv.inv_w;
	}
}

void ProcessLine(const PrimitiveSetupState& s, const VertexInput& input, uint32_t index, TriangleSetupOutput& out) {
	const RasterState& r = s.raster;
	const uint32_t cd = r.clip_distance_count, vc = r.varying_count;
	const uint32_t stride = 4 + cd + vc;
	ClipVertex v[2];
	uint32_t vertex_index[2];
	uint32_t outside_all = ~0u, outside_any = 0;
	for (int i = 0; i < 2; ++i) {
		uint32_t n = 2 * index + i;
		vertex_index[i] = input.indices ? input.indices[n] : n;
		if (!LoadVertex(r, input, vertex_index[i], v[i].v)) return;
		uint32_t outside = Outcode(s, v[i].v);
		outside_all &= outside;
		outside_any |= outside;
	}
	if (outside_all) return;
	// Vulkan 1.3 §27.2 (primitive clipping): an endpoint outside a plane
	// moves onto it, computed from the inside end.
	const uint32_t plane_count = kPlaneClipDistance0 + cd;
	for (uint32_t p = 0; outside_any && p < plane_count; ++p) {
		if (!(outside_any & (1u << p))) continue;
		float d0 = PlaneDistance(s, v[0].v, p), d1 = PlaneDistance(s, v[1].v, p);
		bool in0 = d0 >= 0, in1 = d1 >= 0;
		if (!in0 && !in1) return;
		if (in0 && in1) continue;
		const ClipVertex& a = in0 ? v[0] : v[1];
		const ClipVertex& b = in0 ? v[1] : v[0];
		float da = in0 ? d0 : d1, db = in0 ? d1 : d0;
		float t = da / (da - db);
		ClipVertex n;
		EdgePoint(s, a, b, t, stride, n);
		v[in0 ? 1 : 0] = n;
	}
	const float* flat_values =
	    vc ? input.varyings + size_t(vc) * vertex_index[r.provoking_vertex_last ? 1 : 0] : nullptr;
	ScreenVertex sv[2];
	ToScreen(s, v[0].v, cd, sv[0]);
	ToScreen(s, v[1].v, cd, sv[1]);
	SetupLine(s, sv[0], sv[1], flat_values, true, 0.0, out);  // lines are front-facing
}

void ProcessPoint(const PrimitiveSetupState& s, const VertexInput& input, uint32_t index, TriangleSetupOutput& out) {
	const RasterState& r = s.raster;
	const uint32_t cd = r.clip_distance_count;
	ClipVertex cv;
	const uint32_t vi = input.indices ? input.indices[index] : index;
	float* v = cv.v;
	if (!LoadVertex(r, input, vi, v)) return;
	// VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES (§27.2): a point outside
	// the view volume or a user clip plane is discarded.
	const float x = v[0], y = v[1], z = v[2], w = v[3];
	if (!(w >= kMinW && std::abs(x) <= w && std::abs(y) <= w)) return;
	if (r.depth_clip && !((r.depth_negative_one_to_one ? z >= -w : z >= 0) && z <= w)) return;
	for (uint32_t i = 0; i < cd; ++i)
		if (!(v[4 + i] >= 0)) return;
	ScreenVertex sv;
	ToScreen(s, v, cd, sv);
	SetupPoint(s, sv, ClampPointSize(input, vi), sv.attributes, true, 0.0, out);  // points are front-facing
}

}  // namespace tessera::raster
