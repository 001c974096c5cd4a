#include "raster/primitive.h"

#include <algorithm>
#include <cmath>
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
	case kPlaneNear: return z;  // Vulkan 1.3 §27.2: 0 <= z_c <= w_c
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
	if (!s.raster.depth_clamp) o |= out(kPlaneNear) | out(kPlaneFar);  // §27.2: depth clamp, no z clipping
	for (uint32_t i = 0; i < s.raster.clip_distance_count; ++i) o |= out(kPlaneClipDistance0 + i);
	return o;
}

// Sutherland-Hodgman against one plane. The new vertex on a crossing edge is
// always computed from its inside end, so an edge shared by two triangles
// gives the same vertex in both.
uint32_t ClipAgainstPlane(const PrimitiveSetupState& s, uint32_t plane, uint32_t stride, const ClipVertex* in,
                          uint32_t count, ClipVertex* out) {
	uint32_t n = 0;
	for (uint32_t i = 0; i < count; ++i) {
		const ClipVertex& cur = in[i];
		const ClipVertex& next = in[(i + 1) % count];
		float dc = PlaneDistance(s, cur.v, plane), dn = PlaneDistance(s, next.v, plane);
		bool cur_in = dc >= 0, next_in = dn >= 0;
		if (cur_in) out[n++] = cur;
		if (cur_in != next_in) {
			const ClipVertex& a = cur_in ? cur : next;
			const ClipVertex& b = cur_in ? next : cur;
			float da = cur_in ? dc : dn, db = cur_in ? dn : dc;
			float t = da / (da - db);
			ClipVertex& r = out[n++];
			for (uint32_t k = 0; k < stride; ++k) r.v[k] = a.v[k] + t * (b.v[k] - a.v[k]);
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

// Vulkan 1.3 §28.9.x (depth bias): o = m * slope + r * constant, clamped;
// m = max(|dz/dx|, |dz/dy|), the approximation the spec allows; r = 2^-n
// for an n-bit UNORM attachment, 2^(e - 23) for float with e the exponent
// of the largest |z| of the triangle.
double DepthBias(const PrimitiveSetupState& s, const double plane[3], float z0, float z1, float z2) {
	const RasterState& r = s.raster;
	double m = std::max(std::abs(plane[0]), std::abs(plane[1]));
	double resolvable;
	if (s.depth_bias_bits) {
		resolvable = std::ldexp(1.0, -s.depth_bias_bits);
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
	float z, inv_w;
	const float* attributes;  // varyings, at index 4 + clip distance count of the clip vertex
};

void SetupOne(const PrimitiveSetupState& s, const ScreenVertex* v0, const ScreenVertex* v1, const ScreenVertex* v2,
              const float* flat_values, bool front, TriangleSetupOutput& out) {
	const ScreenVertex* v[3] = {v0, v1, v2};
	int32_t min_x_fixed = std::min({v0->X, v1->X, v2->X}), max_x_fixed = std::max({v0->X, v1->X, v2->X});
	int32_t min_y_fixed = std::min({v0->Y, v1->Y, v2->Y}), max_y_fixed = std::max({v0->Y, v1->Y, v2->Y});
	const int32_t min_x = std::max<int32_t>(int32_t(FloorDiv256(min_x_fixed)), s.scissor_min_x);
	const int32_t max_x = std::min<int32_t>(int32_t(FloorDiv256(max_x_fixed)), s.scissor_max_x);
	const int32_t min_y = std::max<int32_t>(int32_t(FloorDiv256(min_y_fixed)), s.scissor_min_y);
	const int32_t max_y = std::min<int32_t>(int32_t(FloorDiv256(max_y_fixed)), s.scissor_max_y);
	if (min_x > max_x || min_y > max_y) return;
	// Written in place: the arrays grow by the millions per frame.
	SetupTriangle& t = out.triangles.emplace_back();
	t.min_x = min_x, t.max_x = max_x, t.min_y = min_y, t.max_y = max_y;
	// Edge e runs from vertex e+1 to vertex e+2; with the vertices in this
	// order the inside is where all three are positive.
	for (int e = 0; e < 3; ++e) {
		const ScreenVertex* a = v[(e + 1) % 3];
		const ScreenVertex* b = v[(e + 2) % 3];
		int64_t ea = int64_t(a->Y) - b->Y, eb = int64_t(b->X) - a->X;
		t.edge_a[e] = ea;
		t.edge_b[e] = eb;
		t.edge_c[e] = -ea * a->X - eb * a->Y;
		// Vulkan 1.3 §28.7.1 asks only that of two triangles sharing an edge
		// exactly one covers a sample on it. We take the top-left rule (as
		// D3D does) in Vulkan's y-down framebuffer: a sample on an edge is
		// covered for a top edge (horizontal, inside below it) or a left
		// edge (inside to its right).
		bool top_left = ea > 0 || (ea == 0 && eb > 0);
		t.edge_bias[e] = top_left ? 0 : 1;
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
	}
}

}  // namespace

PrimitiveSetupState MakePrimitiveSetupState(const RasterState& raster, uint32_t fb_width, uint32_t fb_height,
                                            VkFormat depth_format) {
	PrimitiveSetupState s;
	s.raster = raster;
	s.depth_bias_bits = depth_format == VK_FORMAT_D16_UNORM             ? 16
	                    : depth_format == VK_FORMAT_X8_D24_UNORM_PACK32 ? 24
	                                                                    : 0;
	const Viewport& vp = raster.viewport;
	// Vulkan 1.3 §27.5: x_f = (p_x / 2) x_d + o_x, o_x = x + width / 2; z_f = p_z z_d + o_z.
	s.viewport_scale[0] = vp.width * 0.5f;
	s.viewport_scale[1] = vp.height * 0.5f;
	s.viewport_scale[2] = vp.max_depth - vp.min_depth;
	s.viewport_offset[0] = vp.x + vp.width * 0.5f;
	s.viewport_offset[1] = vp.y + vp.height * 0.5f;
	s.viewport_offset[2] = vp.min_depth;
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
	s.scissor_min_x = int32_t(x0);
	s.scissor_min_y = int32_t(y0);
	s.scissor_max_x = int32_t(x1);
	s.scissor_max_y = int32_t(y1);
	return s;
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

void ProcessTriangle(const PrimitiveSetupState& s, const VertexInput& input, uint32_t index, TriangleSetupOutput& out) {
	const RasterState& r = s.raster;
	const uint32_t cd = r.clip_distance_count, vc = r.varying_count;
	const uint32_t stride = 4 + cd + vc;
	ClipVertex poly[2][kMaxPolygon];
	uint32_t vertex_index[3];
	for (int i = 0; i < 3; ++i) {
		uint32_t n = 3 * index + i;
		vertex_index[i] = input.indices ? input.indices[n] : n;
	}
	uint32_t outside_all = ~0u, outside_any = 0;
	uint32_t plane_count = kPlaneClipDistance0 + cd;
	for (int i = 0; i < 3; ++i) {
		float* v = poly[0][i].v;
		uint32_t vi = vertex_index[i];
		std::memcpy(v, input.positions + 4 * size_t(vi), 4 * sizeof(float));
		if (cd) std::memcpy(v + 4, input.clip_distances + size_t(cd) * vi, cd * sizeof(float));
		if (vc) std::memcpy(v + 4 + cd, input.varyings + size_t(vc) * vi, vc * sizeof(float));
		for (int k = 0; k < 4; ++k)
			if (!std::isfinite(v[k])) return;  // undefined results; drop it
		uint32_t outside = Outcode(s, v);
		outside_all &= outside;
		outside_any |= outside;
	}
	if (outside_all) return;  // every vertex outside one plane
	uint32_t count = 3, cur = 0;
	for (uint32_t p = 0; outside_any && p < plane_count; ++p) {
		if (!(outside_any & (1u << p))) continue;
		count = ClipAgainstPlane(s, p, stride, poly[cur], count, poly[cur ^ 1]);
		cur ^= 1;
		if (count < 3) return;
	}
	// Flat varyings come from the provoking vertex of the original triangle.
	const float* flat_values =
	    vc ? input.varyings + size_t(vc) * vertex_index[r.provoking_vertex_last ? 2 : 0] : nullptr;

	ScreenVertex sv[kMaxPolygon];
	for (uint32_t i = 0; i < count; ++i) {
		const float* v = poly[cur][i].v;
		float inv_w = 1.0f / v[3];
		double xf = double(s.viewport_scale[0]) * (v[0] * inv_w) + s.viewport_offset[0];
		double yf = double(s.viewport_scale[1]) * (v[1] * inv_w) + s.viewport_offset[1];
		float zf = s.viewport_scale[2] * (v[2] * inv_w) + s.viewport_offset[2];
		sv[i].X = Snap(xf);
		sv[i].Y = Snap(yf);
		sv[i].z = zf;
		sv[i].inv_w = inv_w;
		sv[i].attributes = v + 4 + cd;
	}
	// Vulkan 1.3 §28.7.1: area a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) in
	// framebuffer coordinates; twice_area below is that sum, so a > 0 means
	// twice_area < 0. Counter-clockwise front faces have a > 0.
	int64_t sub_area[kMaxPolygon];
	int64_t twice_area = 0;
	for (uint32_t i = 1; i + 1 < count; ++i) {
		int64_t ax = int64_t(sv[i].X) - sv[0].X, ay = int64_t(sv[i].Y) - sv[0].Y;
		int64_t bx = int64_t(sv[i + 1].X) - sv[0].X, by = int64_t(sv[i + 1].Y) - sv[0].Y;
		sub_area[i] = ax * by - bx * ay;
		twice_area += sub_area[i];
	}
	if (twice_area == 0) return;  // zero area: no fragments
	bool positive_a = twice_area < 0;
	bool front = (r.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE) == positive_a;
	if ((r.cull_mode & VK_CULL_MODE_FRONT_BIT) && front) return;
	if ((r.cull_mode & VK_CULL_MODE_BACK_BIT) && !front) return;
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

}  // namespace tessera::raster
