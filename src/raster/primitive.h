// Primitive processing: clipping in clip space, the viewport transform, face
// determination and culling, and triangle setup (fixed-point edge functions
// and plane equations) - everything that runs once per triangle.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/state.h"
#include "runtime/scratch_vector.h"

namespace tessera::raster {

// Framebuffer coordinates stay within +-kGuardBand pixels: triangles that
// reach beyond it are clipped in x/y, the others never are. With 8 sub-pixel
// bits a coordinate fits 24 bits, an edge function's products 50 bits.
constexpr float kGuardBand = 32768.0f;

// What a setup triangle was made from: lines and points are rasterized as
// the two triangles of their rectangle or square (Vulkan 1.3 "Basic Point
// Rasterization", "Basic Line Segment Rasterization": coverage is "samples inside the region"; samples on its edges
// follow the polygon rule, the top-left rule here).
// Bresenham and smooth lines cover whole pixels instead (Vulkan "Bresenham
// Line Segment Rasterization": "Bresenham lines cover the same pixels
// regardless of the number of rasterization samples, and cover all samples
// in those pixels"): their edges are tested at the pixel center for every
// sample. A Bresenham line is one setup record whose box ends it along the
// major axis (its first and last fragments, whole pixels), whose edges 0
// and 1 bound its minor axis and whose edge 2 always holds. A smooth line
// carries two more planes after its varyings, the distance across the line
// and along it from its start in pixels, then its length.
// ConservativeTriangle: a triangle whose edges were moved out (or in) by
// half a pixel's extent along them (VK_EXT_conservative_rasterization), so
// that the test at a pixel's center says whether the triangle touches (or
// holds) the pixel; every sample takes the center's verdict.
enum class PrimitiveKind : uint8_t { Triangle, Line, Point, BresenhamLine, SmoothLine, ConservativeTriangle };

// One triangle ready for rasterization. Edge e covers the sample at fixed
// point (X, Y) when a*X + b*Y + c >= bias (bias 0 on top and left edges, 1
// elsewhere: the top-left rule, our choice of tie-break for Vulkan 1.3
// §28.7.1), X and Y in 1/256 pixel.
struct SetupTriangle {
	int32_t min_x, min_y, max_x, max_y;  // pixels, inclusive, inside the scissor
	// Edge e is edge_a X + edge_b Y + edge_c >= edge_bias (fixed point).
	// Vertices lie inside the guard band (kGuardBand * 256 < 2^24), so
	// the coefficients of X and Y, differences of coordinates, fit 32 bits;
	// the constant takes their products. (Setup writes millions of these a
	// frame and the rasterizer reads them back: 120 bytes, not 160.)
	int32_t edge_a[3], edge_b[3];
	int64_t edge_c[3];
	// Planes in pixels: value(x, y) = c + a * (x - ref_x) + b * (y - ref_y).
	double ref_x, ref_y;
	float depth[3];  // a, b, c of z_f
	float inv_w[3];  // a, b, c of 1/w_c
	// Index into TriangleSetupOutput::varying_planes: 3 floats a varying,
	// then for points 3 for each of gl_PointCoord s and t.
	uint32_t varying_offset;
	uint8_t edge_bias[3];  // 0 or 1: the top-left rule
	bool front_facing;
	PrimitiveKind kind;  // points: varyings are constant (no division by w)
};
static_assert(sizeof(SetupTriangle) == 120);

// Edge e's function at fixed point (X, Y): a sample there is inside the
// edge when this minus edge_bias[e] is at least 0.
inline int64_t EdgeAt(const SetupTriangle& t, int e, int64_t X, int64_t Y) {
	return t.edge_a[e] * X + t.edge_b[e] * Y + t.edge_c[e];
}

// Vulkan "Bresenham Line Segment Rasterization": the fragments of the
// segment from (xa, ya) to (xb, yb) (fixed point, 1/256 pixel), `width`
// whole pixels wide, lie in the `count` columns (rows when y-major) first,
// first + step, ... along the major axis: those whose diamond the segment,
// moved by -(width - 1)/2 across and perturbed by -(e, e^2), intersects,
// unless its end lies in it.
struct BresenhamRun {
	bool x_major = true;  // |dx| >= |dy|
	int32_t first = 0;    // pixel coordinate along the major axis
	int32_t step = 1;     // +1 or -1, from a toward b
	uint32_t count = 0;
};
BresenhamRun BresenhamMajorRun(int32_t xa, int32_t ya, int32_t xb, int32_t yb, uint32_t width);

// Per-draw constants derived from the state once.
struct PrimitiveSetupState {
	RasterState raster;
	int32_t scissor_min_x, scissor_min_y, scissor_max_x, scissor_max_y;  // inclusive; empty when min > max
	float guard_min[2], guard_max[2];                                    // x/y planes in normalized device coordinates
	float viewport_scale[3], viewport_offset[3];
	float depth_min, depth_max;  // for depth clamp
	int32_t depth_bias_bits;     // bits of a UNORM depth attachment (r = 2^-n); 0 for float or none
	float line_width;            // clamped to [kMinLineWidth, kMaxLineWidth]; whole for Bresenham lines
};

// The framebuffer position (fixed point) that setup gives the clip-space
// position `clip` (x, y, z, w), unclipped.
void SnapToFramebuffer(const PrimitiveSetupState& state, const float* clip, int32_t* x, int32_t* y);

// depth_format: the depth attachment's (VK_FORMAT_UNDEFINED when none), for
// the depth bias's minimum resolvable difference.
PrimitiveSetupState MakePrimitiveSetupState(const RasterState& raster, uint32_t fb_width, uint32_t fb_height,
                                            VkFormat depth_format = VK_FORMAT_UNDEFINED);

// Output of one run of primitive processing over some triangles.
struct TriangleSetupOutput {
	// Every field of a triangle and every plane float is written by setup
	// before it is read (no zeroing on growth).
	runtime::ScratchVector<SetupTriangle> triangles;
	runtime::ScratchVector<float> varying_planes;
	void Clear() {
		triangles.clear();
		varying_planes.clear();
	}
};

// Primitive assembly of strips and fans (Vulkan 1.3 §21.1.x): appends the
// vertex indices of each triangle to out, 3 a triangle, ordered so that
// vertex 0 is the provoking one in first-vertex mode and vertex 2 in
// last-vertex mode, with the strip's alternating winding kept.
void AssembleTriangles(const VertexInput& input, bool provoking_last, std::vector<uint32_t>& out);

// Line strips (Vulkan 1.3 "Line Strips"): appends the two vertex indices of
// each segment, with primitive restart.
void AssembleLines(const VertexInput& input, std::vector<uint32_t>& out);
// A triangle, line or point list (per_primitive 3, 2 or 1) with primitive
// restart (VK_EXT_primitive_topology_list_restart): a restart index drops
// the incomplete primitive before it and starts counting anew.
void AssembleList(const VertexInput& input, uint32_t per_primitive, std::vector<uint32_t>& out);

// A vertex's screen position and clip outcode, as triangle setup computes
// them, made once a vertex for meshes whose triangles share vertices
// (PrepareVertices) instead of once for each triangle that uses it.
struct PreparedVertex {
	int32_t X, Y;      // fixed point
	uint32_t outcode;  // the planes it is outside of; kNotFinite: position not finite
	float z, inv_w;
	double x, y;  // framebuffer coordinates before snapping
	static constexpr uint32_t kNotFinite = 1u << 31;
};
// Vertices [first, first + count) of the input's arrays into
// out[0, count).
void PrepareVertices(const PrimitiveSetupState& state, const VertexInput& input, uint32_t first, uint32_t count,
                     PreparedVertex* out);

// Clips, transforms, culls and sets up triangle `index` of the input,
// appending 0 or more triangles to out (submission order kept). Polygon
// mode LINE or POINT appends the rectangles of its edges or the squares of
// its vertices instead.
void ProcessTriangle(const PrimitiveSetupState& state, const VertexInput& input, uint32_t index,
                     TriangleSetupOutput& out);
// The same, polygon mode FILL, with every vertex the input's indices name
// prepared (vertex v at prepared[v - first]): a triangle inside every clip
// plane takes its vertices from there (the same values), one to clip takes
// ProcessTriangle's path.
void ProcessPreparedTriangle(const PrimitiveSetupState& state, const VertexInput& input, const PreparedVertex* prepared,
                             uint32_t first, uint32_t index, TriangleSetupOutput& out);
// Line `index` of a line list (vertices 2i, 2i+1): clipped, as the two
// triangles of its rectangle.
void ProcessLine(const PrimitiveSetupState& state, const VertexInput& input, uint32_t index, TriangleSetupOutput& out);
// Point `index` (vertex i): kept only inside every clip plane
// (VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES), as the two triangles of its square.
void ProcessPoint(const PrimitiveSetupState& state, const VertexInput& input, uint32_t index, TriangleSetupOutput& out);

}  // namespace tessera::raster
