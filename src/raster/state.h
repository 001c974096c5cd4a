// The fixed-function pipeline's inputs as plain data: what a draw needs to
// know, with no Vulkan handles. vk/ translates pipelines, dynamic state and
// render passes into these; unit tests build them by hand.
#pragma once

#include <vulkan/vulkan_core.h>

#include "icd/vulkan_newer.h"

#include <cstdint>

namespace tessera::raster {

constexpr uint32_t kMaxColorAttachments = 8;
// Scalar components: maxVertexOutputComponents and maxFragmentInputComponents
// (every one of the 32 locations of four components).
constexpr uint32_t kMaxVaryings = 128;
constexpr uint32_t kMaxClipDistances = 8;
constexpr uint32_t kSubPixelBits = 8;  // VkPhysicalDeviceLimits::subPixelPrecisionBits
constexpr uint32_t kTileSize = 64;     // pixels, square
// VkPhysicalDeviceLimits::pointSizeRange and lineWidthRange: sizes and
// widths are clamped to these; any value in the range is drawn (the
// square's or rectangle's corners snap to 1/256 pixel), so granularities
// of 1/128 or coarser hold (lavapipe reports 0.125 and 0.0078125).
constexpr float kMinPointSize = 1.0f, kMaxPointSize = 256.0f;
constexpr float kMinLineWidth = 1.0f, kMaxLineWidth = 256.0f;
// VkPhysicalDeviceConservativeRasterizationPropertiesEXT::maxExtraPrimitiveOverestimationSize.
constexpr float kMaxExtraOverestimation = 4.0f;
// VkPhysicalDeviceDiscardRectanglePropertiesEXT::maxDiscardRectangles (at least 4).
constexpr uint32_t kMaxDiscardRectangles = 16;

// Vulkan 1.3 §27.5: the viewport transform.
struct Viewport {
	float x = 0, y = 0, width = 0, height = 0;
	float min_depth = 0, max_depth = 1;
	bool operator==(const Viewport&) const = default;
};

struct Rect {
	int32_t x = 0, y = 0;
	uint32_t width = 0, height = 0;
	bool operator==(const Rect&) const = default;
};

enum class Interpolation : uint8_t { Smooth, NoPerspective, Flat };

// VK_EXT_line_rasterization: how line segments become fragments.
// Rectangular: Vulkan "Basic Line Segment Rasterization" (strictLines);
// Bresenham: "Bresenham Line Segment Rasterization" (the diamond-exit
// rule, whole pixels); Smooth: "Smooth Lines" (the rectangle widened by
// half a pixel all round, each pixel's share of it multiplied into the
// alpha of color output 0).
enum class LineMode : uint8_t { Rectangular, Bresenham, Smooth };
constexpr uint32_t kNoVarying = ~0u;

struct RasterState {
	VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
	VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	bool depth_clamp = false;  // z_f clamped to the viewport's depth range
	// Clipping against the near and far planes (Vulkan "Primitive Clipping"):
	// off with depth clamp, unless VK_EXT_depth_clip_enable says otherwise.
	bool depth_clip = true;
	// VK_EXT_depth_clip_control negativeOneToOne: the view volume's z runs
	// from -w_c, and the viewport maps z_d in [-1, 1] onto its depth range.
	bool depth_negative_one_to_one = false;
	// VK_EXT_depth_clamp_control USER_DEFINED_RANGE: depth clamp's range is
	// [depth_clamp_min, depth_clamp_max] instead of the viewport's.
	bool depth_clamp_user_range = false;
	float depth_clamp_min = 0, depth_clamp_max = 1;
	bool depth_bias_enable = false;  // §28.9.x (depth bias)
	float depth_bias_constant = 0, depth_bias_clamp = 0, depth_bias_slope = 0;
	// VK_EXT_depth_bias_control: what r, the factor of depth_bias_constant,
	// is (VkDepthBiasRepresentationEXT): the format's least representable
	// value (0), that of a UNORM of the format's bits (1: 2^-n, n the bits
	// or the mantissa's plus one), or 1 (2).
	VkDepthBiasRepresentationEXT depth_bias_representation =
	    VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT;
	// VK_EXT_conservative_rasterization, for filled triangles: a pixel is
	// covered, every sample of it, when the triangle grown by
	// extra_overestimation pixels at each edge touches any part of it
	// (OVERESTIMATE), or when the triangle holds all of it (UNDERESTIMATE).
	VkConservativeRasterizationModeEXT conservative_mode = VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT;
	float extra_overestimation = 0;
	bool provoking_vertex_last = false;  // VK_EXT_provoking_vertex; first by default
	uint32_t samples = 1;                // 1 or 4
	uint32_t sample_mask = 0xffffffff;   // pSampleMask[0]
	Viewport viewport;
	Rect scissor;  // intersected with the framebuffer
	uint32_t clip_distance_count = 0;
	uint32_t varying_count = 0;
	Interpolation interpolation[kMaxVaryings] = {};
	// Inputs decorated Centroid: in a partly covered pixel of a multisampled
	// draw they are interpolated at a covered sample (see FlushBatch).
	bool centroid[kMaxVaryings] = {};
	// Vulkan 1.3 "Polygon Mode": FILL, LINE or POINT for triangles.
	VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
	float line_width = 1.0f;  // clamped to [kMinLineWidth, kMaxLineWidth]
	LineMode line_mode = LineMode::Rectangular;
	// Vulkan "Line Stipple": the varying that holds a stippled line's s
	// (kNoVarying: no stipple), the distance along the strip in pixels; a
	// Bresenham line replaces its plane with the count of fragments along
	// the major axis (plus 1/2), from the start vertex's value. Fragments
	// whose pattern bit floor(s / factor) mod 16 is 0 are dropped before
	// the tests and the fragment shader (rasterizer.cpp, StippleLanes).
	uint32_t stipple_varying = kNoVarying;
	uint32_t stipple_factor = 1;  // 1 to 256
	uint16_t stipple_pattern = 0xffff;
	// Vulkan 1.3 "Multisample Coverage": alphaToCoverageEnable and
	// alphaToOneEnable, on the alpha of color output 0 / of every output.
	bool alpha_to_coverage = false;
	bool alpha_to_one = false;
	// Vulkan 1.3 "Sample Shading": sampleShadingEnable and
	// minSampleShading. Above one invocation a pixel (min_sample_shading *
	// samples > 1), the shader runs once a covered sample.
	bool sample_shading = false;
	float min_sample_shading = 0;
	// VK_EXT_discard_rectangles (Vulkan "Discard Rectangles Test"): the
	// samples of pixels inside none of the first discard_rectangle_count
	// rectangles (inclusive) or inside one of them (exclusive) lose their
	// coverage before the scissor test's; no rectangles, no test.
	uint32_t discard_rectangle_count = 0;
	bool discard_inclusive = false;
	Rect discard_rectangles[kMaxDiscardRectangles];

	bool operator==(const RasterState&) const = default;
};

struct StencilFaceState {
	VkStencilOp fail_op = VK_STENCIL_OP_KEEP;
	VkStencilOp pass_op = VK_STENCIL_OP_KEEP;
	VkStencilOp depth_fail_op = VK_STENCIL_OP_KEEP;
	VkCompareOp compare_op = VK_COMPARE_OP_ALWAYS;
	uint32_t compare_mask = 0xff;
	uint32_t write_mask = 0xff;
	uint32_t reference = 0;

	bool operator==(const StencilFaceState&) const = default;
};

struct DepthStencilState {
	bool depth_test = false;
	bool depth_write = false;
	VkCompareOp depth_compare = VK_COMPARE_OP_LESS;
	bool stencil_test = false;
	StencilFaceState front, back;
	// Vulkan 1.3 "Depth Bounds Test": samples whose stored depth lies
	// outside [min_depth_bounds, max_depth_bounds] lose coverage.
	bool depth_bounds_test = false;
	float min_depth_bounds = 0, max_depth_bounds = 1;
	// VK_EXT_depth_range_unrestricted enabled: a floating-point depth
	// attachment keeps z_f outside [0, 1] (Vulkan "Depth Clamping and Range
	// Adjustment"); otherwise it is clamped to [0, 1].
	bool depth_unrestricted = false;

	bool operator==(const DepthStencilState&) const = default;
};

struct BlendAttachmentState {
	bool blend_enable = false;
	VkBlendFactor src_color = VK_BLEND_FACTOR_ONE;
	VkBlendFactor dst_color = VK_BLEND_FACTOR_ZERO;
	VkBlendOp color_op = VK_BLEND_OP_ADD;
	VkBlendFactor src_alpha = VK_BLEND_FACTOR_ONE;
	VkBlendFactor dst_alpha = VK_BLEND_FACTOR_ZERO;
	VkBlendOp alpha_op = VK_BLEND_OP_ADD;
	VkColorComponentFlags write_mask = 0xf;

	bool operator==(const BlendAttachmentState&) const = default;
};

struct BlendState {
	bool logic_op_enable = false;
	VkLogicOp logic_op = VK_LOGIC_OP_COPY;
	float constants[4] = {0, 0, 0, 0};
	uint32_t attachment_count = 0;
	BlendAttachmentState attachments[kMaxColorAttachments];

	bool operator==(const BlendState&) const = default;
};

// Attachments as plain memory. The samples of one pixel are adjacent (as in
// texture/image_layout.h): sample s of pixel (x, y) is at
// base + y * row_pitch + (x * samples + s) * element size.
// A color target may instead be tiled (tile_shift s > 0: a partially
// resident image, single-sampled, texture::TiledOffset with row_pitch the
// bytes between rows of tiles). Its tiles are at least kTileSize on a side,
// so each of the rasterizer's tiles lies in one of them, where the target is
// rows of 2^s texels (LocalTargets in rasterizer.cpp).
struct ColorTarget {
	uint8_t* base = nullptr;
	uint64_t row_pitch = 0;
	VkFormat format = VK_FORMAT_UNDEFINED;
	uint32_t tile_shift = 0;

	bool operator==(const ColorTarget&) const = default;
};
struct DepthTarget {
	uint8_t* base = nullptr;  // nullptr: no depth attachment
	uint64_t row_pitch = 0;
	VkFormat format = VK_FORMAT_UNDEFINED;  // D16_UNORM, X8_D24_UNORM_PACK32 or D32_SFLOAT

	bool operator==(const DepthTarget&) const = default;
};
struct StencilTarget {
	uint8_t* base = nullptr;  // nullptr: no stencil attachment; S8, 1 byte a sample
	uint64_t row_pitch = 0;

	bool operator==(const StencilTarget&) const = default;
};

struct Framebuffer {
	uint32_t width = 0, height = 0;
	uint32_t samples = 1;
	uint32_t color_count = 0;
	ColorTarget color[kMaxColorAttachments];
	DepthTarget depth;
	StencilTarget stencil;
	bool tiled_colors = false;  // some color target has tile_shift != 0

	bool operator==(const Framebuffer&) const = default;
};

// Vulkan 1.3 §21.1 (primitive topologies).
enum class Topology : uint8_t { TriangleList, TriangleStrip, TriangleFan, PointList, LineList, LineStrip };

// Vertices a primitive of a list takes: 3 for TriangleList, 2 for
// LineList, 1 for PointList.
constexpr uint32_t ListVertexCount(Topology t) {
	return t == Topology::TriangleList ? 3 : t == Topology::LineList ? 2 : 1;
}

// Vertices after the vertex shader: clip-space positions and scalar
// varyings, one array each, indexed by vertex; triangles are a list
// (vertex 3i, 3i+1, 3i+2), a strip or a fan, lines a list (2i, 2i+1) or a
// strip, points one a vertex, through indices when set.
struct VertexInput {
	const float* positions = nullptr;       // 4 floats a vertex
	const float* varyings = nullptr;        // RasterState::varying_count floats a vertex
	const float* clip_distances = nullptr;  // RasterState::clip_distance_count a vertex
	const uint32_t* indices = nullptr;
	uint32_t vertex_count = 0;  // or index count when indices is set
	Topology topology = Topology::TriangleList;
	bool primitive_restart = false;  // index 0xffffffff ends a strip or fan
	// PointSize a vertex (points and polygon mode POINT); nullptr: 1.0.
	// Clamped to [kMinPointSize, kMaxPointSize].
	const float* point_sizes = nullptr;
};

// Lanes of a fragment batch: 4 per 2x2 quad, lane = 4 * quad + (dy * 2 + dx).
// 32 quads: fewer flushes than 16 (flat overdraw 13.0 -> 10.8 ms, the
// 524k-triangle sheet 133 -> 82 ms). 64 once lost to cache misses; since
// the fragment registers keep one layout for every batch size and the
// batch's lanes are written 64 bytes at a time, it takes 12-14% off the
// full-screen overdraw scenes and 5% off textured planes, the sheets level.
// (A batch is about 175 KiB of the rasterizing thread's stack.)
constexpr uint32_t kMaxBatchQuads = 64;
constexpr uint32_t kMaxBatchLanes = 4 * kMaxBatchQuads;

// What a fragment shader sees and writes for one batch of quads. The quads
// of a batch lie in one tile and may come from several primitives (in
// submission order); per-primitive inputs are given per lane. Arrays are
// structure-of-arrays: component c of lane l is at [c][l].
struct FragmentBatch {
	uint32_t quad_count = 0;
	int32_t quad_x[kMaxBatchQuads];  // pixel of lane 0 (even coordinates)
	int32_t quad_y[kMaxBatchQuads];
	// 1 where the lane covers at least one sample; 0 for helper lanes, which
	// run only so that derivatives exist and never write.
	uint8_t live[kMaxBatchLanes];
	uint8_t front_facing[kMaxBatchLanes];
	float frag_coord[4][kMaxBatchLanes];  // x, y at pixel centers, z_f, 1/w
	// Each varying's lanes: varying_storage's, or the arrays the shader
	// reads its inputs from (FragmentShader::begin points them there, and
	// keeps varyings_pointed).
	float* varyings[kMaxVaryings];
	float varying_storage[kMaxVaryings][kMaxBatchLanes];
	uint32_t varyings_pointed = 0;  // varyings[v] is varying_storage[v] from here on
	// gl_PointCoord (s, t) of lanes of point primitives ("Basic Point
	// Rasterization"), at the pixel center (the sample with sample
	// shading). In draws that make points, 0 for lanes of other
	// primitives; not written in other draws.
	float point_coord[2][kMaxBatchLanes];
	// With sample shading (CompiledDraw::per_sample) a lane is one sample of
	// its pixel: SampleId, and SamplePosition in [0, 1) from the pixel's
	// top-left corner. Varyings, z_f and gl_PointCoord are taken at that
	// position; frag_coord x, y stay at the pixel center. Not written
	// otherwise.
	uint32_t sample_id[kMaxBatchLanes];
	float sample_position[2][kMaxBatchLanes];
	// Outputs. With dual-source blending (SRC1 factors, one attachment),
	// color[1] is the second source of attachment 0. For UINT and SINT
	// attachments the shader stores the 32-bit integer bits in the float
	// (bit-for-bit, e.g. with memcpy); they are read back as integers.
	// Each component's lanes are color_storage's, or the shader points them
	// at where it left them (its own registers, kept until the batch is
	// written).
	float* color[kMaxColorAttachments][4];
	float color_storage[kMaxColorAttachments][4][kMaxBatchLanes];
	float frag_depth[kMaxBatchLanes];  // read when the shader writes depth
	// FragStencilRefEXT (VK_EXT_shader_stencil_export), read when the shader
	// writes it: the lane's stencil reference, its low 8 bits used.
	uint32_t stencil_ref[kMaxBatchLanes];
	uint8_t discarded[kMaxBatchLanes];  // set to 1 by the shader to discard
	// gl_SampleMaskIn: the lane's covered samples (bit s = sample s; with
	// sample shading only the lane's own sample). gl_SampleMask: written by
	// the shader when FragmentShader::writes_sample_mask; samples whose bit
	// is clear lose coverage (Vulkan 1.3 §28.x "Sample Mask").
	uint32_t sample_mask_in[kMaxBatchLanes];
	uint32_t sample_mask[kMaxBatchLanes];
	// Set by the shader when it could not run the batch (the draw is lost):
	// the batch then writes nothing at all.
	bool abandoned = false;

	FragmentBatch() {
		for (uint32_t v = 0; v < kMaxVaryings; ++v) varyings[v] = varying_storage[v];
		for (uint32_t a = 0; a < kMaxColorAttachments; ++a)
			for (uint32_t c = 0; c < 4; ++c) color[a][c] = color_storage[a][c];
	}
	// (varyings and color point into the batch.)
	FragmentBatch(const FragmentBatch&) = delete;
	FragmentBatch& operator=(const FragmentBatch&) = delete;
};

// The fragment stage: the shader engine later, a C++ function in tests.
struct FragmentShader {
	void (*run)(const void* user, FragmentBatch& batch) = nullptr;
	// Optional, called before each batch's inputs are written (quad_count
	// set), with run called next on the same thread: it may point the
	// batch's first n varyings at the shader's own input arrays (quad_count
	// * 4 lanes each), which the rasterizer then fills in place of a copy;
	// it points those from n to varyings_pointed back at the batch's
	// storage and sets varyings_pointed to n.
	void (*begin)(const void* user, FragmentBatch& batch) = nullptr;
	const void* user = nullptr;
	bool writes_depth = false;
	bool writes_stencil_ref = false;  // FragStencilRefEXT: FragmentBatch::stencil_ref
	bool writes_sample_mask = false;
	bool may_discard = false;
	bool early_fragment_tests = false;  // the EarlyFragmentTests execution mode
	// PostDepthCoverage (VK_EXT_post_depth_coverage): sample_mask_in leaves
	// out the samples the early tests failed; otherwise it is the
	// rasterization coverage (Vulkan "SampleMaskIn").
	bool post_depth_coverage = false;
	// Stores or atomics to buffers or images: side effects that make running
	// the tests before the shader observable.
	bool writes_memory = false;
	// Reads input attachments, which may alias the depth/stencil attachment
	// (or samples attachments in a feedback loop): tests that write depth or
	// stencil before the shader would change what it reads.
	bool reads_attachments = false;
	// ... and each read must see the writes of the fragments before it in
	// primitive order, those of the same draw too (rasterization order
	// attachment access): the rasterizer shades a primitive's quads only
	// after the earlier primitives' quads are written.
	bool ordered_attachment_reads = false;
	// Fragment shader interlock (VK_EXT_fragment_shader_interlock): no two
	// invocations of one pixel (kPixel) or one sample (kSample) share a
	// batch, so critical sections run one at a time, in primitive order:
	// a batch holds one primitive's quads, and with kPixel and sample
	// shading one sample of a quad.
	enum class Interlock : uint8_t { kNone, kPixel, kSample } interlock = Interlock::kNone;
	// Reads SampleId or SamplePosition (or inputs decorated Sample): the
	// shader runs once a covered sample, as with min_sample_shading = 1.
	bool per_sample = false;
	// Built-in inputs the shader reads. The rasterizer leaves the batch's
	// arrays of the others unwritten (stale).
	bool reads_frag_coord_xy = true;  // frag_coord[0], [1]
	bool reads_frag_coord_z = true;   // frag_coord[2]
	bool reads_frag_coord_w = true;   // frag_coord[3] (smooth varyings need it anyway)
	bool reads_front_facing = true;
	bool reads_sample_mask_in = true;

	bool operator==(const FragmentShader&) const = default;
};

struct DrawState {
	RasterState raster;
	DepthStencilState depth_stencil;
	BlendState blend;
	FragmentShader shader;

	bool operator==(const DrawState&) const = default;
};

}  // namespace tessera::raster
