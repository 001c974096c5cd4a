// What a graphics pipeline fixes and what draw-time state a command buffer
// carries, as plain data. vkCreateGraphicsPipelines fills GraphicsPipeline;
// the vkCmdSet*/vkCmdBind* commands fill GraphicsContext (part of the
// ExecutionContext) when they execute; a draw combines the two into the
// rasterizer's raster::DrawState (draw.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "raster/state.h"
#include "raster/tessellator.h"
#include "shader/ir.h"

namespace tessera::texture {
struct FormatInfo;
}

namespace tessera::vk {

class ImageView;

constexpr uint32_t kMaxVertexBindings = 32;    // maxVertexInputBindings
constexpr uint32_t kMaxVertexAttributes = 32;  // maxVertexInputAttributes
constexpr uint32_t kMaxViewports = 16;         // maxViewports (multiViewport)

// The dynamic states of Vulkan 1.3 (core, extended dynamic state 1 and 2)
// and extended dynamic state 3, as bits of GraphicsPipeline::dynamic.
enum class Dynamic : uint32_t {
	kViewport,
	kScissor,
	kLineWidth,
	kDepthBias,
	kBlendConstants,
	kDepthBounds,
	kStencilCompareMask,
	kStencilWriteMask,
	kStencilReference,
	kCullMode,
	kFrontFace,
	kPrimitiveTopology,
	kViewportWithCount,
	kScissorWithCount,
	kVertexInputBindingStride,
	kDepthTestEnable,
	kDepthWriteEnable,
	kDepthCompareOp,
	kDepthBoundsTestEnable,
	kStencilTestEnable,
	kStencilOp,
	kRasterizerDiscardEnable,
	kDepthBiasEnable,
	kPrimitiveRestartEnable,
	kLogicOp,           // VK_EXT_extended_dynamic_state2 (extendedDynamicState2LogicOp)
	kColorWriteEnable,  // VK_EXT_color_write_enable
	kVertexInput,       // VK_EXT_vertex_input_dynamic_state
	kLineStipple,       // VK_EXT_line_rasterization
	// VK_EXT_extended_dynamic_state3 (the features Tessera offers).
	kDepthClampEnable,
	kPolygonMode,
	kSampleMask,
	kAlphaToCoverageEnable,
	kAlphaToOneEnable,
	kLogicOpEnable,
	kColorBlendEnable,
	kColorBlendEquation,
	kColorWriteMask,
	kDepthClipEnable,
	kProvokingVertexMode,
	kLineRasterizationMode,
	kLineStippleEnable,
	kDepthClipNegativeOneToOne,
	kPatchControlPoints,            // VK_EXT_extended_dynamic_state2 (extendedDynamicState2PatchControlPoints)
	kTessellationDomainOrigin,      // VK_EXT_extended_dynamic_state3
	kRasterizationSamples,          // VK_EXT_extended_dynamic_state3
	kAttachmentFeedbackLoopEnable,  // VK_EXT_attachment_feedback_loop_dynamic_state
	kRasterizationStream,           // VK_EXT_extended_dynamic_state3 (with VK_EXT_transform_feedback)
	kDepthClampRange,               // VK_EXT_depth_clamp_control
	// VK_EXT_discard_rectangles (the last two: specification version 2).
	kDiscardRectangle,
	kDiscardRectangleEnable,
	kDiscardRectangleMode,
	// VK_EXT_extended_dynamic_state3 with VK_EXT_conservative_rasterization.
	kConservativeRasterizationMode,
	kExtraPrimitiveOverestimationSize,
	kCount,
};
static_assert(uint32_t(Dynamic::kCount) <= 64);
constexpr uint64_t Bit(Dynamic d) { return uint64_t(1) << uint32_t(d); }

// VK_EXT_line_rasterization: DEFAULT is RECTANGULAR (strictLines is true).
constexpr raster::LineMode LineModeOf(VkLineRasterizationModeEXT mode) {
	switch (mode) {
	case VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT: return raster::LineMode::Bresenham;
	case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT: return raster::LineMode::Smooth;
	default: return raster::LineMode::Rectangular;
	}
}

struct VertexBindingDescription {
	uint32_t stride = 0;
	bool per_instance = false;
	bool used = false;
	// VK_EXT_vertex_attribute_divisor: a per-instance binding advances every
	// `divisor` instances (0: never).
	uint32_t divisor = 1;
};

struct VertexAttributeDescription {
	uint32_t location = 0;
	uint32_t binding = 0;
	uint32_t offset = 0;
	VkFormat format = VK_FORMAT_UNDEFINED;
	const texture::FormatInfo* info = nullptr;
	uint32_t words[4] = {};  // the vertex program's input words for components 0..3 (kNoWord: unread)
};

// vkCmdSetVertexInputEXT's bindings and attributes (VK_EXT_vertex_input_dynamic_state),
// in command buffer memory; a draw maps each attribute's location to the
// pipeline's input words (GraphicsPipeline::input_words).
struct DynamicVertexInput {
	VertexBindingDescription bindings[kMaxVertexBindings];
	uint32_t attribute_count = 0;
	VertexAttributeDescription attributes[kMaxVertexAttributes];  // words unset
};

// A varying: one scalar passed from the vertex to the fragment stage.
struct Varying {
	uint32_t vertex_word = 0;    // vertex program output word
	uint32_t fragment_word = 0;  // fragment program input word
};

// A raster varying set per vertex of each primitive (Vulkan "Barycentric
// Interpolation"): at the vertex numbered p in its primitive (the order of
// the spec's table, raster::AssembleTriangles), a BaryCoord weight
// (source == kNoWord) is 1 where p == vertex, else 0; a PerVertexKHR input
// (flat) is raster varying `source` of the primitive's vertex `vertex`, or
// of its last vertex where it has fewer (a line's third, a point's second).
struct PlaceVarying {
	uint32_t varying = 0;
	uint32_t source = 0;
	uint32_t vertex = 0;  // 0, 1 or 2
};

// A geometry input word and the vertex output it reads: vertex `vertex`
// of the input primitive, value `slot` of GraphicsPipeline::geometry_sources
// (kNoWord: no vertex output matches; it reads zero).
struct GeometryInput {
	uint32_t word = 0;
	uint32_t vertex = 0;
	uint32_t slot = 0;
};

// vkCreateGraphicsPipelines' result: the programs, their linked
// interface, and every piece of fixed-function state.
// A tessellation evaluation input and the control stage's output it reads:
// word `record_word` of the patch's record (kNoWord: none, it reads zero).
struct PatchInput {
	uint32_t word = 0;
	uint32_t record_word = 0;
};

struct GraphicsPipeline {
	std::unique_ptr<shader::Program> vertex;
	std::unique_ptr<shader::Program> tess_control;  // null: no tessellation
	std::unique_ptr<shader::Program> tess_eval;
	std::unique_ptr<shader::Program> geometry;  // null: no geometry shader

	// Tessellation (vk/tessellation_stage.cpp). The vertex stage keeps per
	// vertex only the outputs the control stage reads (tess_sources); the
	// control stage's inputs read them per vertex of the patch; the
	// evaluation stage's inputs read the patch's record of control outputs
	// (per-vertex ones already resolved to their vertex's words).
	std::vector<uint32_t> tess_sources;
	std::vector<GeometryInput> tess_control_inputs;
	uint32_t tess_invocation_id_word = shader::Program::kNoWord;  // control stage inputs
	uint32_t tess_primitive_id_word = shader::Program::kNoWord;
	uint32_t tess_patch_vertices_word = shader::Program::kNoWord;
	uint32_t tess_view_index_word = shader::Program::kNoWord;  // ViewIndex (multiview)
	// VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT (for a library,
	// on the part with those stages): ViewIndex in the pre-rasterization
	// stages, or in the fragment stage, is the device index, 0, not the view.
	bool pre_rasterization_view_from_device = false, fragment_view_from_device = false;
	std::vector<PatchInput> tess_eval_inputs;
	uint32_t tess_coord_words[3] = {shader::Program::kNoWord, shader::Program::kNoWord, shader::Program::kNoWord};
	uint32_t eval_primitive_id_word = shader::Program::kNoWord;
	uint32_t eval_patch_vertices_word = shader::Program::kNoWord;
	uint32_t eval_view_index_word = shader::Program::kNoWord;
	// The levels in the record (kNoWord: not written, read as 0).
	uint32_t tess_outer_words[4] = {shader::Program::kNoWord, shader::Program::kNoWord, shader::Program::kNoWord,
	                                shader::Program::kNoWord};
	uint32_t tess_inner_words[2] = {shader::Program::kNoWord, shader::Program::kNoWord};
	raster::TessellationState tessellation;
	uint32_t patch_control_points = 0;  // VkPipelineTessellationStateCreateInfo
	bool tess_writes_memory = false;
	std::unique_ptr<shader::Program> fragment;  // null: no fragment shader

	// With a geometry stage, the vertex stage keeps per vertex only the
	// outputs the geometry stage reads (geometry_sources, vertex program
	// words); the words below that name "vertex outputs the rasterizer
	// reads" and the varyings' vertex_word are then geometry output words,
	// found in an emitted record at geometry_record[word].
	std::vector<uint32_t> geometry_sources;
	std::vector<GeometryInput> geometry_inputs;
	std::vector<uint32_t> geometry_record;
	uint32_t geometry_primitive_id_word = shader::Program::kNoWord;   // PrimitiveId input
	uint32_t geometry_invocation_id_word = shader::Program::kNoWord;  // InvocationId input
	uint32_t geometry_view_index_word = shader::Program::kNoWord;     // ViewIndex input (multiview)
	bool geometry_writes_memory = false;

	// Vertex input (§22).
	VertexBindingDescription bindings[kMaxVertexBindings];
	uint32_t attribute_count = 0;
	VertexAttributeDescription attributes[kMaxVertexAttributes];
	// The vertex program's input words by Location and Component (kNoWord
	// where unread), for vertex input given at draw time.
	uint32_t input_words[kMaxVertexAttributes][4];
	// Built-in inputs of the vertex program (kNoWord when unread).
	uint32_t vertex_index_word = shader::Program::kNoWord;
	uint32_t instance_index_word = shader::Program::kNoWord;
	uint32_t base_vertex_word = shader::Program::kNoWord;
	uint32_t base_instance_word = shader::Program::kNoWord;
	uint32_t draw_index_word = shader::Program::kNoWord;
	uint32_t vertex_view_index_word = shader::Program::kNoWord;  // ViewIndex (multiview)
	// The vertex program stores to buffers or images: it runs even when
	// rasterization is discarded.
	bool vertex_writes_memory = false;
	// Vertex outputs the rasterizer reads.
	uint32_t position_words[4] = {shader::Program::kNoWord, shader::Program::kNoWord, shader::Program::kNoWord,
	                              shader::Program::kNoWord};
	uint32_t point_size_word = shader::Program::kNoWord;
	uint32_t layer_word = shader::Program::kNoWord;           // Layer (shaderOutputLayer)
	uint32_t viewport_index_word = shader::Program::kNoWord;  // ViewportIndex (shaderOutputViewportIndex)
	uint32_t clip_distance_words[raster::kMaxClipDistances];
	uint32_t cull_distance_words[raster::kMaxClipDistances];  // CullDistance (shaderCullDistance)
	uint32_t cull_distance_count = 0;

	// The linked interface: raster varying i carries varyings[i].
	uint32_t varying_count = 0;
	// Without a geometry stage, the raster varying that carries the fragment
	// stage's PrimitiveId (kNoWord: not read): the draw gives each primitive
	// its own vertices with its number there (draw.cpp, ExpandPrimitives).
	uint32_t primitive_id_varying = shader::Program::kNoWord;
	// VK_KHR_fragment_shader_barycentric: raster varyings whose value at a
	// vertex depends on the vertex's place in its primitive (the draw gives
	// each primitive its own vertices, draw.cpp ExpandPrimitives).
	std::vector<PlaceVarying> place_varyings;
	Varying varyings[raster::kMaxVaryings];

	// Fragment inputs and outputs (kNoWord where absent).
	uint32_t frag_coord_words[4];
	uint32_t front_facing_word = shader::Program::kNoWord;
	uint32_t helper_word = shader::Program::kNoWord;
	uint32_t sample_count_word = shader::Program::kNoWord;  // InterpolateAtSample's sample pattern
	uint32_t fragment_view_index_word = shader::Program::kNoWord;
	uint32_t fragment_layer_word = shader::Program::kNoWord;  // Layer: the primitive's layer
	uint32_t fragment_viewport_index_word = shader::Program::kNoWord;
	uint32_t point_coord_words[2];
	uint32_t sample_id_word = shader::Program::kNoWord;
	uint32_t sample_mask_in_word = shader::Program::kNoWord;  // gl_SampleMaskIn[0]
	uint32_t sample_mask_word = shader::Program::kNoWord;     // gl_SampleMask[0] (output)
	uint32_t sample_position_words[2];
	uint32_t color_words[raster::kMaxColorAttachments][4];
	uint32_t frag_depth_word = shader::Program::kNoWord;
	uint32_t frag_stencil_ref_word = shader::Program::kNoWord;  // FragStencilRefEXT
	// The input words above and the varyings' fragment words, ascending:
	// what RunFragments writes for a batch's lanes (BeginStage's `filled`).
	std::vector<uint32_t> fragment_filled_words;

	// Input assembly (§21).
	VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	bool primitive_restart = false;

	// Rasterization, multisampling, depth/stencil and blending as the
	// rasterizer takes them; fields named by dynamic states are replaced at
	// draw time.
	raster::DrawState state;
	bool rasterizer_discard = false;
	// VK_EXT_line_rasterization: lines lose the fragments of rectangles (of
	// Bresenham lines: the fragments) whose pattern bit is 0 (the rasterizer,
	// raster/rasterizer.cpp, from the varying draw.cpp adds).
	bool line_stipple = false;
	// VK_EXT_transform_feedback: the vertex stream that is rasterized
	// (VkPipelineRasterizationStateStreamCreateInfoEXT).
	uint32_t rasterization_stream = 0;
	uint32_t line_stipple_factor = 1;
	uint16_t line_stipple_pattern = 0xffff;
	// VK_EXT_color_write_enable: attachments whose writes are enabled (bit
	// i for attachment i), from VkPipelineColorWriteCreateInfoEXT.
	uint32_t color_write_enables = ~0u;
	// VkPipelineDiscardRectangleStateCreateInfoEXT::discardRectangleCount
	// (0 without one); state.raster holds the static test.
	uint32_t discard_rectangle_count = 0;
	bool has_viewport = false, has_scissor = false;  // static ones given (else dynamic)
	// The static viewports and scissors (state.raster holds number 0 too).
	uint32_t viewport_count = 1, scissor_count = 1;
	raster::Viewport viewports[kMaxViewports];
	raster::Rect scissors[kMaxViewports];
	uint64_t dynamic = 0;  // Bit(Dynamic) of each dynamic state
	// VkPipelineRasterizationDepthClipStateCreateInfoEXT was given: else
	// depth clipping is off exactly when depth clamp is on (a dynamic depth
	// clamp included).
	bool explicit_depth_clip = false;
	// Color attachments the pipeline has a format for (bit i for attachment
	// i): the others keep their values whatever the write mask.
	uint32_t written_attachments = ~0u;
	// Fragment output Locations the fragment stage writes (bit L for
	// Location L; the second source of dual-source blending counts as 1): an
	// attachment whose Location (GraphicsContext::color_locations) has none
	// keeps its values (draw.cpp, ComposeState).
	uint32_t output_locations = 0;
};

// Draw-time state of a command buffer, set by commands as they execute.
struct GraphicsContext {
	struct VertexBuffer {
		const uint8_t* data = nullptr;
		uint64_t size = 0;    // bytes from data to the end of the bound range
		uint64_t stride = 0;  // vkCmdBindVertexBuffers2 with strides (dynamic stride)
		bool has_stride = false;
	};
	VertexBuffer vertex_buffers[kMaxVertexBindings];
	const uint8_t* index_data = nullptr;
	uint64_t index_size = 0;  // bytes
	VkIndexType index_type = VK_INDEX_TYPE_UINT16;

	// Values of the dynamic states (read where the pipeline declares them).
	raster::Viewport viewports[kMaxViewports];
	raster::Rect scissors[kMaxViewports];
	uint32_t viewport_count = 1;  // vkCmdSetViewportWithCount
	float line_width = 1.0f;
	uint32_t line_stipple_factor = 1;  // vkCmdSetLineStippleEXT
	uint16_t line_stipple_pattern = 0xffff;
	float depth_bias_constant = 0, depth_bias_clamp = 0, depth_bias_slope = 0;
	// vkCmdSetDepthBias2EXT's (vkCmdSetDepthBias: the format's).
	VkDepthBiasRepresentationEXT depth_bias_representation =
	    VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT;
	float blend_constants[4] = {0, 0, 0, 0};
	float min_depth_bounds = 0, max_depth_bounds = 1;
	raster::StencilFaceState front, back;  // masks, references and ops
	VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
	VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	uint32_t patch_control_points = 0;      // vkCmdSetPatchControlPointsEXT
	bool domain_origin_lower_left = false;  // vkCmdSetTessellationDomainOriginEXT
	uint32_t rasterization_samples = 1;     // vkCmdSetRasterizationSamplesEXT
	uint32_t rasterization_stream = 0;      // vkCmdSetRasterizationStreamEXT
	VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	bool depth_test = false, depth_write = false, depth_bounds_test = false, stencil_test = false;
	VkCompareOp depth_compare = VK_COMPARE_OP_NEVER;
	bool rasterizer_discard = false, depth_bias_enable = false, primitive_restart = false;
	VkLogicOp logic_op = VK_LOGIC_OP_COPY;
	uint32_t color_write_enables = ~0u;                // VK_EXT_color_write_enable: bit i for attachment i
	const DynamicVertexInput* vertex_input = nullptr;  // vkCmdSetVertexInputEXT
	// VK_EXT_extended_dynamic_state3.
	bool depth_clamp = false, depth_clip = true, depth_negative_one_to_one = false;
	// vkCmdSetDepthClampRangeEXT: USER_DEFINED_RANGE and its range.
	bool depth_clamp_user_range = false;
	float depth_clamp_min = 0, depth_clamp_max = 1;
	// vkCmdSetDiscardRectangleEXT, ...EnableEXT and ...ModeEXT.
	raster::Rect discard_rectangles[raster::kMaxDiscardRectangles];
	bool discard_rectangle_enable = false, discard_inclusive = false;
	// vkCmdSetConservativeRasterizationModeEXT, ...ExtraPrimitiveOverestimationSizeEXT.
	VkConservativeRasterizationModeEXT conservative_mode = VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT;
	float extra_overestimation = 0;
	VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
	uint32_t sample_mask = ~0u;
	bool alpha_to_coverage = false, alpha_to_one = false, logic_op_enable = false;
	bool provoking_vertex_last = false, line_stipple_enable = false;
	// vkCmdSetAttachmentFeedbackLoopEnableEXT: the aspects in a feedback loop.
	VkImageAspectFlags feedback_loop_aspects = 0;
	raster::LineMode line_mode = raster::LineMode::Rectangular;
	uint32_t blend_enables = 0;  // bit i for attachment i
	struct BlendEquation {
		VkBlendFactor src_color = VK_BLEND_FACTOR_ONE, dst_color = VK_BLEND_FACTOR_ZERO;
		VkBlendOp color_op = VK_BLEND_OP_ADD;
		VkBlendFactor src_alpha = VK_BLEND_FACTOR_ONE, dst_alpha = VK_BLEND_FACTOR_ZERO;
		VkBlendOp alpha_op = VK_BLEND_OP_ADD;
	};
	BlendEquation blend_equations[raster::kMaxColorAttachments];
	VkColorComponentFlags write_masks[raster::kMaxColorAttachments] = {};

	// The active occlusion query (vkCmdBeginQuery), if any.
	class QueryPool* occlusion_pool = nullptr;
	uint32_t occlusion_query = 0;
	// The active pipeline statistics query, if any (draws and dispatches).
	class QueryPool* statistics_pool = nullptr;
	uint32_t statistics_query = 0;
	// The active primitives generated query of each vertex stream, if any
	// (vkCmdBeginQueryIndexedEXT's index; 0 for vkCmdBeginQuery).
	class QueryPool* generated_pool[shader::kMaxVertexStreams] = {};
	uint32_t generated_query[shader::kMaxVertexStreams] = {};

	// VK_EXT_transform_feedback (vk/cmd_transform_feedback.cpp): the bound
	// buffers (data at the bound offset; size the bytes that may be
	// captured), whether capture is active, the bytes captured into each
	// binding since its start, and the active stream query.
	struct XfbBuffer {
		uint8_t* data = nullptr;
		uint64_t size = 0;
	};
	XfbBuffer xfb_buffers[shader::kMaxXfbBuffers];
	bool xfb_active = false;
	uint64_t xfb_written[shader::kMaxXfbBuffers] = {};
	class QueryPool* xfb_query_pool[shader::kMaxVertexStreams] = {};  // each stream's active stream query
	uint32_t xfb_query[shader::kMaxVertexStreams] = {};

	// The render pass instance: the attachments of the current subpass (or of
	// vkCmdBeginRendering) as views; null where unused.
	bool rendering = false;
	uint32_t color_count = 0;
	const ImageView* colors[raster::kMaxColorAttachments] = {};
	const ImageView* depth = nullptr;
	const ImageView* stencil = nullptr;
	uint32_t width = 0, height = 0;  // of the framebuffer (or the render area's far corner)
	uint32_t layers = 1;
	uint32_t view_mask = 0;  // multiview: the views draws render (0: off)
	// VK_KHR_dynamic_rendering_local_read: the fragment output Location that
	// each color attachment takes (kUnusedLocation: none), each attachment
	// its own index from the start of every render pass instance and subpass
	// (vkCmdSetRenderingAttachmentLocationsKHR changes it).
	static constexpr uint8_t kUnusedLocation = 0xff;
	uint8_t color_locations[raster::kMaxColorAttachments] = {0, 1, 2, 3, 4, 5, 6, 7};
	void ResetColorLocations() {
		for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a) color_locations[a] = uint8_t(a);
	}
};

}  // namespace tessera::vk
