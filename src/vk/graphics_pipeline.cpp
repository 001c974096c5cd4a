// vkCreateGraphicsPipelines (Vulkan 1.3 §10.2): compiles the vertex and
// fragment stages, links the vertex outputs to the fragment inputs by
// Location and Component, and captures the fixed-function state as the
// rasterizer's plain structs (graphics_state.h).
#include <algorithm>

#include "texture/format.h"
#include "vk/descriptor_set_layout.h"
#include "vk/device.h"
#include "vk/pipeline.h"
#include "vk/pipeline_layout.h"
#include "vk/pipeline_library.h"
#include "vk/tessellation_stage.h"

namespace tessera::vk {

namespace {

constexpr uint32_t kNoWord = shader::Program::kNoWord;

// The translator's stage of each GraphicsStage.
constexpr shader::Stage kShaderStages[] = {shader::Stage::kVertex, shader::Stage::kTessControl,
                                           shader::Stage::kTessEval, shader::Stage::kGeometry,
                                           shader::Stage::kFragment};

Dynamic ToDynamic(VkDynamicState state, bool* known) {
	*known = true;
	switch (state) {
	case VK_DYNAMIC_STATE_VIEWPORT: return Dynamic::kViewport;
	case VK_DYNAMIC_STATE_SCISSOR: return Dynamic::kScissor;
	case VK_DYNAMIC_STATE_LINE_WIDTH: return Dynamic::kLineWidth;
	case VK_DYNAMIC_STATE_DEPTH_BIAS: return Dynamic::kDepthBias;
	case VK_DYNAMIC_STATE_BLEND_CONSTANTS: return Dynamic::kBlendConstants;
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS: return Dynamic::kDepthBounds;
	case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK: return Dynamic::kStencilCompareMask;
	case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK: return Dynamic::kStencilWriteMask;
	case VK_DYNAMIC_STATE_STENCIL_REFERENCE: return Dynamic::kStencilReference;
	case VK_DYNAMIC_STATE_CULL_MODE: return Dynamic::kCullMode;
	case VK_DYNAMIC_STATE_FRONT_FACE: return Dynamic::kFrontFace;
	case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY: return Dynamic::kPrimitiveTopology;
	case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT: return Dynamic::kViewportWithCount;
	case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT: return Dynamic::kScissorWithCount;
	case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: return Dynamic::kVertexInputBindingStride;
	case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE: return Dynamic::kDepthTestEnable;
	case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: return Dynamic::kDepthWriteEnable;
	case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP: return Dynamic::kDepthCompareOp;
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE: return Dynamic::kDepthBoundsTestEnable;
	case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE: return Dynamic::kStencilTestEnable;
	case VK_DYNAMIC_STATE_STENCIL_OP: return Dynamic::kStencilOp;
	case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE: return Dynamic::kRasterizerDiscardEnable;
	case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE: return Dynamic::kDepthBiasEnable;
	case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: return Dynamic::kPrimitiveRestartEnable;
	case VK_DYNAMIC_STATE_LOGIC_OP_EXT: return Dynamic::kLogicOp;
	case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT: return Dynamic::kColorWriteEnable;
	case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: return Dynamic::kVertexInput;
	case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT: return Dynamic::kLineStipple;
	case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT: return Dynamic::kDepthClampEnable;
	case VK_DYNAMIC_STATE_POLYGON_MODE_EXT: return Dynamic::kPolygonMode;
	case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT: return Dynamic::kSampleMask;
	case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT: return Dynamic::kRasterizationSamples;
	case VK_DYNAMIC_STATE_ATTACHMENT_FEEDBACK_LOOP_ENABLE_EXT: return Dynamic::kAttachmentFeedbackLoopEnable;
	case VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT: return Dynamic::kRasterizationStream;
	case VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT: return Dynamic::kDepthClampRange;
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT: return Dynamic::kDiscardRectangle;
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_ENABLE_EXT: return Dynamic::kDiscardRectangleEnable;
	case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT: return Dynamic::kDiscardRectangleMode;
	case VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT: return Dynamic::kConservativeRasterizationMode;
	case VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT: return Dynamic::kExtraPrimitiveOverestimationSize;
	case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT: return Dynamic::kAlphaToCoverageEnable;
	case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT: return Dynamic::kAlphaToOneEnable;
	case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT: return Dynamic::kPatchControlPoints;
	case VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT: return Dynamic::kTessellationDomainOrigin;
	case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT: return Dynamic::kLogicOpEnable;
	case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT: return Dynamic::kColorBlendEnable;
	case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT: return Dynamic::kColorBlendEquation;
	case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT: return Dynamic::kColorWriteMask;
	case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT: return Dynamic::kDepthClipEnable;
	case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT: return Dynamic::kProvokingVertexMode;
	case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT: return Dynamic::kLineRasterizationMode;
	case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT: return Dynamic::kLineStippleEnable;
	case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT: return Dynamic::kDepthClipNegativeOneToOne;
	default: *known = false; return Dynamic::kCount;
	}
}

// Whether a program stores to or runs atomics on storage buffers, device
// addresses or images: side effects that other invocations and the host see.
bool WritesMemory(const shader::Program& program) {
	using shader::Op;
	for (const shader::Inst& inst : program.insts) {
		const bool buffer_write = inst.op == Op::kStore || inst.op == Op::kStore8 || inst.op == Op::kStore16 ||
		                          (shader::IsAtomic(inst.op) && inst.op != Op::kAtomicLoad);
		if (buffer_write) {
			const shader::RegionKind kind = program.regions[inst.region].kind;
			if (kind == shader::RegionKind::kStorageBuffer || kind == shader::RegionKind::kPhysical) return true;
		}
		if (inst.op == Op::kImage && inst.imm < program.image_ops.size()) {
			const shader::ImageOpKind kind = program.image_ops[inst.imm].kind;
			if (kind == shader::ImageOpKind::kWrite || kind == shader::ImageOpKind::kAtomic) return true;
		}
	}
	return false;
}

// Whether a store of the program may write private word `word`: false
// only when every store into the word's region has a constant address
// elsewhere. glslang declares gl_ClipDistance and gl_CullDistance in every
// gl_PerVertex block; one the program never writes holds 0 (private memory
// starts zeroed), which clips and culls nothing, so it need not be counted.
bool StoresWord(const shader::Program& program, uint32_t word) {
	using shader::Op;
	for (const shader::Inst& inst : program.insts) {
		if (inst.op != Op::kStore && inst.op != Op::kStore16 && inst.op != Op::kStore8) continue;
		const shader::Region& region = program.regions[inst.region];
		if (region.kind != shader::RegionKind::kPrivate) continue;
		if (word < region.base || uint64_t(word - region.base) * 4 >= region.size) continue;
		if (inst.a != 0) return true;  // a computed address may reach any word of the region
		if (region.base + inst.imm / 4 == word) return true;
	}
	return false;
}

// Whether a program reads input attachments (subpass inputs are image
// bindings whose layout type is INPUT_ATTACHMENT, or a mutable binding,
// VK_EXT_mutable_descriptor_type, that may hold one and that the shader
// reads as it reads subpass inputs: like a storage image).
bool ReadsInputAttachments(const shader::Program& program, const PipelineLayout& layout) {
	for (const shader::ImageBindingSlot& slot : program.image_bindings) {
		const DescriptorSetLayout* set = slot.set < layout.SetCount() ? layout.SetLayout(slot.set) : nullptr;
		const DescriptorBinding* binding = set ? set->Find(slot.binding) : nullptr;
		if (!binding) continue;
		if (binding->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) return true;
		if (binding->mutable_input_attachment && slot.kind == shader::ImageDescriptorKind::kStorageImage) return true;
	}
	return false;
}

raster::StencilFaceState Stencil(const VkStencilOpState& s) {
	return {s.failOp, s.passOp, s.depthFailOp, s.compareOp, s.compareMask, s.writeMask, s.reference};
}

void CaptureVertexInput(const VkPipelineVertexInputStateCreateInfo& vi, const shader::Program& vs,
                        GraphicsPipeline& g) {
	for (uint32_t i = 0; i < vi.vertexBindingDescriptionCount; ++i) {
		const VkVertexInputBindingDescription& b = vi.pVertexBindingDescriptions[i];
		if (b.binding >= kMaxVertexBindings) continue;
		g.bindings[b.binding] = {b.stride, b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE, true};
	}
	if (auto* divisors = FindInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
	        vi.pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT))
		for (uint32_t i = 0; i < divisors->vertexBindingDivisorCount; ++i) {
			const VkVertexInputBindingDivisorDescriptionEXT& d = divisors->pVertexBindingDivisors[i];
			if (d.binding < kMaxVertexBindings) g.bindings[d.binding].divisor = d.divisor;
		}
	for (uint32_t i = 0; i < vi.vertexAttributeDescriptionCount && g.attribute_count < kMaxVertexAttributes; ++i) {
		const VkVertexInputAttributeDescription& a = vi.pVertexAttributeDescriptions[i];
		VertexAttributeDescription d;
		d.location = a.location;
		d.binding = a.binding;
		d.offset = a.offset;
		d.format = a.format;
		d.info = texture::FindFormat(a.format);
		std::fill(std::begin(d.words), std::end(d.words), kNoWord);
		bool read = false;
		for (const shader::InterfaceWord& w : vs.inputs)
			if (w.builtin == shader::InterfaceBuiltin::kNone && w.location == a.location && w.component < 4) {
				d.words[w.component] = w.word;
				read = true;
			}
		if (read && d.info) g.attributes[g.attribute_count++] = d;
	}
}

// A per-vertex input of a geometry or tessellation control stage and the
// output of the previous stage (`from`) it reads: same Location and
// Component, or same built-in and element. The output's word is kept per
// vertex as one of `sources` (added when new); the input names its slot
// there, kNoWord when nothing matches (it reads zero).
GeometryInput PerVertexInput(const shader::Program& from, const shader::InterfaceWord& w,
                             std::vector<uint32_t>& sources) {
	uint32_t source = kNoWord;
	for (const shader::InterfaceWord& o : from.outputs)
		if (o.builtin == w.builtin &&
		    (w.builtin == shader::InterfaceBuiltin::kNone ? o.location == w.location && o.component == w.component
		                                                  : o.index == w.index))
			source = o.word;
	if (source == kNoWord) return {w.word, w.vertex, kNoWord};
	auto it = std::find(sources.begin(), sources.end(), source);
	if (it == sources.end()) it = sources.insert(sources.end(), source);
	return {w.word, w.vertex, uint32_t(it - sources.begin())};
}

// Vulkan "Shader Input and Output Interfaces": a geometry input reads the
// vertex output of the same Location and Component (or built-in and
// element), for each vertex of the input primitive.
void LinkGeometry(GraphicsPipeline& g) {
	using B = shader::InterfaceBuiltin;
	const shader::Program& vs = g.tess_eval ? *g.tess_eval : *g.vertex;  // the stage before
	const shader::Program& gs = *g.geometry;
	g.geometry_writes_memory = WritesMemory(gs);
	for (const shader::InterfaceWord& w : gs.inputs) {
		if (w.builtin == B::kPrimitiveId) {
			g.geometry_primitive_id_word = w.word;
			continue;
		}
		if (w.builtin == B::kInvocationId) {
			g.geometry_invocation_id_word = w.word;
			continue;
		}
		if (w.builtin == B::kViewIndex) {
			g.geometry_view_index_word = w.word;
			continue;
		}
		g.geometry_inputs.push_back(PerVertexInput(vs, w, g.geometry_sources));
	}
	g.geometry_record.assign(gs.private_words, kNoWord);
	for (uint32_t j = 0; j < gs.outputs.size(); ++j) g.geometry_record[gs.outputs[j].word] = j;
}

// The output of `outputs` that input w reads: same built-in and element, or
// same Location and Component; per vertex of the same vertex (when
// `vertex` is set), or per patch.
const shader::InterfaceWord* Match(const std::vector<shader::InterfaceWord>& outputs, const shader::InterfaceWord& w,
                                   bool vertex) {
	for (const shader::InterfaceWord& o : outputs) {
		if (o.builtin != w.builtin || o.patch != w.patch || (vertex && o.vertex != w.vertex)) continue;
		if (w.builtin == shader::InterfaceBuiltin::kNone ? o.location == w.location && o.component == w.component
		                                                 : o.index == w.index)
			return &o;
	}
	return nullptr;
}

// Vulkan "Tessellation": the control stage reads the vertex outputs per
// vertex of the patch; the evaluation stage reads the control stage's
// outputs (per-vertex ones of the same vertex, patch ones of the patch)
// and the levels; the modes of both stages combine.
void LinkTessellation(GraphicsPipeline& g) {
	using B = shader::InterfaceBuiltin;
	const shader::Program& vs = *g.vertex;
	const shader::Program& tcs = *g.tess_control;
	const shader::Program& tes = *g.tess_eval;
	g.tess_writes_memory = WritesMemory(tcs) || WritesMemory(tes);
	for (const shader::InterfaceWord& w : tcs.inputs) {
		switch (w.builtin) {
		case B::kInvocationId: g.tess_invocation_id_word = w.word; continue;
		case B::kPrimitiveId: g.tess_primitive_id_word = w.word; continue;
		case B::kPatchVertices: g.tess_patch_vertices_word = w.word; continue;
		case B::kViewIndex: g.tess_view_index_word = w.word; continue;
		default: break;
		}
		if (w.word == tcs.tessellation.patch_index_word) continue;
		g.tess_control_inputs.push_back(PerVertexInput(vs, w, g.tess_sources));
	}
	for (const shader::InterfaceWord& o : tcs.outputs) {
		if (o.builtin == B::kTessLevelOuter && o.index < 4) g.tess_outer_words[o.index] = o.word;
		if (o.builtin == B::kTessLevelInner && o.index < 2) g.tess_inner_words[o.index] = o.word;
	}
	for (const shader::InterfaceWord& w : tes.inputs) {
		switch (w.builtin) {
		case B::kTessCoord:
			if (w.index < 3) g.tess_coord_words[w.index] = w.word;
			continue;
		case B::kPrimitiveId: g.eval_primitive_id_word = w.word; continue;
		case B::kPatchVertices: g.eval_patch_vertices_word = w.word; continue;
		case B::kViewIndex: g.eval_view_index_word = w.word; continue;
		default: break;
		}
		const shader::InterfaceWord* o = Match(tcs.outputs, w, !w.patch);
		g.tess_eval_inputs.push_back({w.word, o ? o->word : kNoWord});
	}
	// A mode either stage declares (both must agree when both do).
	auto pick = [](uint8_t a, uint8_t b) { return a ? a : b; };
	const shader::TessellationInfo &c = tcs.tessellation, &e = tes.tessellation;
	raster::TessellationState& t = g.tessellation;
	const uint8_t domain = pick(e.domain, c.domain), spacing = pick(e.spacing, c.spacing),
	              order = pick(e.order, c.order);
	t.domain = domain == 2   ? raster::TessDomain::kQuads
	           : domain == 3 ? raster::TessDomain::kIsolines
	                         : raster::TessDomain::kTriangles;
	t.spacing = spacing == 2   ? raster::TessSpacing::kFractionalEven
	            : spacing == 3 ? raster::TessSpacing::kFractionalOdd
	                           : raster::TessSpacing::kEqual;
	t.ccw = order != 1;
	t.point_mode = c.point_mode || e.point_mode;
}

// False when the fragment stage's inputs need more than kMaxVaryings raster
// varyings (each element of a PerVertexKHR array takes one).
bool LinkStages(GraphicsPipeline& g) {
	const shader::Program& vs = *g.vertex;
	g.vertex_writes_memory = WritesMemory(vs);
	if (g.tess_control) LinkTessellation(g);
	if (g.geometry) LinkGeometry(g);
	// The last stage before rasterization.
	const shader::Program& last = g.geometry ? *g.geometry : g.tess_eval ? *g.tess_eval : vs;
	for (const shader::InterfaceWord& w : vs.inputs) {
		using B = shader::InterfaceBuiltin;
		switch (w.builtin) {
		case B::kVertexIndex: g.vertex_index_word = w.word; break;
		case B::kInstanceIndex: g.instance_index_word = w.word; break;
		case B::kBaseVertex: g.base_vertex_word = w.word; break;
		case B::kBaseInstance: g.base_instance_word = w.word; break;
		case B::kDrawIndex: g.draw_index_word = w.word; break;
		case B::kViewIndex: g.vertex_view_index_word = w.word; break;
		default: break;
		}
	}
	std::fill(std::begin(g.clip_distance_words), std::end(g.clip_distance_words), kNoWord);
	uint32_t clip_count = 0;
	for (const shader::InterfaceWord& w : last.outputs) {
		if (w.builtin == shader::InterfaceBuiltin::kPosition && w.index < 4) g.position_words[w.index] = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kPointSize) g.point_size_word = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kLayer) g.layer_word = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kViewportIndex) g.viewport_index_word = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kClipDistance && w.index < raster::kMaxClipDistances) {
			g.clip_distance_words[w.index] = w.word;
			if (StoresWord(last, w.word)) clip_count = std::max(clip_count, w.index + 1);
		}
	}
	g.state.raster.clip_distance_count = clip_count;
	std::fill(std::begin(g.cull_distance_words), std::end(g.cull_distance_words), kNoWord);
	for (const shader::InterfaceWord& w : last.outputs)
		if (w.builtin == shader::InterfaceBuiltin::kCullDistance && w.index < raster::kMaxClipDistances) {
			g.cull_distance_words[w.index] = w.word;
			if (StoresWord(last, w.word)) g.cull_distance_count = std::max(g.cull_distance_count, w.index + 1);
		}

	std::fill(std::begin(g.frag_coord_words), std::end(g.frag_coord_words), kNoWord);
	std::fill(std::begin(g.point_coord_words), std::end(g.point_coord_words), kNoWord);
	std::fill(std::begin(g.sample_position_words), std::end(g.sample_position_words), kNoWord);
	for (auto& words : g.color_words) std::fill(std::begin(words), std::end(words), kNoWord);
	if (!g.fragment) return true;
	const shader::Program& fs = *g.fragment;
	bool fits = true;
	// PerVertexKHR inputs: the varying of each one's vertex 0.
	struct FirstVertex {
		uint32_t location, component, varying;
	};
	std::vector<FirstVertex> first_vertices;
	g.place_varyings.clear();
	for (const shader::InterfaceWord& w : fs.inputs) {
		using B = shader::InterfaceBuiltin;
		switch (w.builtin) {
		case B::kFragCoord:
			if (w.index < 4) g.frag_coord_words[w.index] = w.word;
			break;
		case B::kFrontFacing: g.front_facing_word = w.word; break;
		case B::kHelperInvocation: g.helper_word = w.word; break;
		case B::kSampleCount: g.sample_count_word = w.word; break;
		case B::kViewIndex: g.fragment_view_index_word = w.word; break;
		case B::kLayer: g.fragment_layer_word = w.word; break;
		case B::kViewportIndex: g.fragment_viewport_index_word = w.word; break;
		case B::kPointCoord:
			if (w.index < 2) g.point_coord_words[w.index] = w.word;
			break;
		case B::kSampleId: g.sample_id_word = w.word; break;
		case B::kSampleMaskIn:
			if (w.index == 0) g.sample_mask_in_word = w.word;
			break;
		case B::kSamplePosition:
			if (w.index < 2) g.sample_position_words[w.index] = w.word;
			break;
		case B::kClipDistance:
		case B::kCullDistance:
		case B::kPrimitiveId:  // written by the geometry stage (flat, as an integer)
		case B::kBaryCoord:
		case B::kBaryCoordNoPersp:
		case B::kNone: {
			if (g.varying_count == raster::kMaxVaryings) {
				fits = false;
				break;
			}
			// Vulkan 1.3 §15.1.3: an input matches the output of the same
			// Location and Component; an input with no output reads an
			// undefined value (zero here). gl_ClipDistance and
			// gl_CullDistance read in the fragment stage are the vertex
			// stage's, interpolated like smooth varyings (§15.9 "Built-In
			// Variables").
			const bool weight = w.builtin == B::kBaryCoord || w.builtin == B::kBaryCoordNoPersp;
			const bool per_vertex = w.interpolation == shader::InterfaceInterpolation::kPerVertex;
			uint32_t vertex_word = kNoWord;
			for (const shader::InterfaceWord& o : last.outputs)
				if (!weight && o.builtin == w.builtin &&
				    (w.builtin == B::kNone ? o.location == w.location && o.component == w.component
				                           : o.index == w.index))
					vertex_word = o.word;
			uint32_t i = g.varying_count++;
			// Elements 1 and 2 of a PerVertexKHR input take the values of its
			// element 0's varying (listed before them: InterfaceRegion goes
			// through the array in order) at the primitive's other vertices;
			// the last stage writes that one only.
			uint32_t source = i;
			if (per_vertex && w.vertex == 0) first_vertices.push_back({w.location, w.component, i});
			if (per_vertex && w.vertex > 0) {
				for (const FirstVertex& f : first_vertices)
					if (f.location == w.location && f.component == w.component) source = f.varying;
				vertex_word = kNoWord;
			}
			g.varyings[i] = {vertex_word, w.word};
			if (weight) g.place_varyings.push_back({i, kNoWord, w.index});
			if (per_vertex) g.place_varyings.push_back({i, source, w.vertex});
			// Vulkan "PrimitiveId": without a geometry stage, the number the
			// geometry stage would have been given.
			if (w.builtin == B::kPrimitiveId && !g.geometry) g.primitive_id_varying = i;
			g.state.raster.interpolation[i] = w.interpolation == shader::InterfaceInterpolation::kFlat || per_vertex
			                                      ? raster::Interpolation::Flat
			                                  : w.interpolation == shader::InterfaceInterpolation::kNoPerspective
			                                      ? raster::Interpolation::NoPerspective
			                                      : raster::Interpolation::Smooth;
			g.state.raster.centroid[i] = w.centroid;
			break;
		}
		default: break;
		}
	}
	g.state.raster.varying_count = g.varying_count;
	std::vector<uint32_t>& filled = g.fragment_filled_words;
	filled.clear();
	for (uint32_t word : g.frag_coord_words) filled.push_back(word);
	for (uint32_t c = 0; c < 2; ++c) filled.insert(filled.end(), {g.point_coord_words[c], g.sample_position_words[c]});
	filled.insert(filled.end(),
	              {g.front_facing_word, g.helper_word, g.sample_id_word, g.sample_mask_in_word, g.sample_count_word,
	               g.fragment_view_index_word, g.fragment_layer_word, g.fragment_viewport_index_word});
	for (uint32_t v = 0; v < g.varying_count; ++v) filled.push_back(g.varyings[v].fragment_word);
	std::erase(filled, kNoWord);
	std::sort(filled.begin(), filled.end());
	for (const shader::InterfaceWord& w : fs.outputs) {
		// Vulkan 1.3 §29.13.x (dual-source blending): Location 0 Index 1 is
		// the second source of attachment 0, which the rasterizer reads as
		// color[1].
		if (w.builtin == shader::InterfaceBuiltin::kNone && w.location == 0 && w.index == 1 && w.component < 4)
			g.color_words[1][w.component] = w.word;
		else if (w.builtin == shader::InterfaceBuiltin::kNone && w.location < raster::kMaxColorAttachments &&
		         w.component < 4)
			g.color_words[w.location][w.component] = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kFragDepth) g.frag_depth_word = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kFragStencilRef) g.frag_stencil_ref_word = w.word;
		if (w.builtin == shader::InterfaceBuiltin::kSampleMask && w.index == 0) g.sample_mask_word = w.word;
	}
	raster::FragmentShader& shader = g.state.shader;
	shader.writes_depth = g.frag_depth_word != kNoWord;
	// With EarlyFragmentTests the tests ran before the shader: its reference is not used.
	shader.writes_stencil_ref = g.frag_stencil_ref_word != kNoWord && !fs.early_fragment_tests;
	shader.writes_sample_mask = g.sample_mask_word != kNoWord;
	shader.may_discard = fs.discard_word != kNoWord;
	shader.early_fragment_tests = fs.early_fragment_tests;
	shader.post_depth_coverage = fs.post_depth_coverage;
	shader.interlock = fs.interlock == shader::Interlock::kPixel    ? raster::FragmentShader::Interlock::kPixel
	                   : fs.interlock == shader::Interlock::kSample ? raster::FragmentShader::Interlock::kSample
	                                                                : raster::FragmentShader::Interlock::kNone;
	shader.writes_memory = WritesMemory(fs);
	// Vulkan 1.3 §28.4 "Sample Shading": reading SampleId or SamplePosition,
	// or a Sample-decorated input, runs the shader per sample.
	shader.per_sample = fs.sample_shading;
	shader.reads_frag_coord_xy = g.frag_coord_words[0] != kNoWord || g.frag_coord_words[1] != kNoWord;
	shader.reads_frag_coord_z = g.frag_coord_words[2] != kNoWord;
	shader.reads_frag_coord_w = g.frag_coord_words[3] != kNoWord;
	shader.reads_front_facing = g.front_facing_word != kNoWord;
	shader.reads_sample_mask_in = g.sample_mask_in_word != kNoWord;
	return fits;
}

}  // namespace

VkResult Pipeline::InitGraphics(const Device& device, const VkGraphicsPipelineCreateInfo& info,
                                const StageCache& cache) {
	// Vulkan "Graphics Pipeline Libraries": without
	// VkGraphicsPipelineLibraryCreateInfoEXT, a library or a pipeline linked
	// from libraries has no state of its own, any other pipeline all of it.
	auto* library_info = FindInChain<VkGraphicsPipelineLibraryCreateInfoEXT>(
	    info.pNext, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT);
	auto* link =
	    FindInChain<VkPipelineLibraryCreateInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
	const bool is_library = info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
	const bool linked = link && link->libraryCount;
	if (!is_library && !linked) return BuildGraphics(device, info, FindTargets(info), nullptr, cache);
	const VkGraphicsPipelineLibraryFlagsEXT own = library_info ? library_info->flags & kAllGraphicsSubsets : 0;
	std::unique_ptr<GraphicsLibrary> parts;
	try {
		parts = std::make_unique<GraphicsLibrary>();
		if (linked)
			for (uint32_t i = 0; i < link->libraryCount; ++i) {
				const Pipeline* library = Pipeline::Cast(link->pLibraries[i]);
				if (library && library->library_) parts->AddLibrary(*library->library_);
			}
		parts->AddState(info, own);
		if (own & (VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
		           VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT))
			parts->AddLayout(layout_);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	// The library's own stages are translated now: linking only copies them.
	for (uint32_t i = 0; i < info.stageCount; ++i) {
		const VkPipelineShaderStageCreateInfo& stage = info.pStages[i];
		if (!(SubsetOfStage(stage.stage) & own)) continue;
		bool known;
		const GraphicsStage kind = ToGraphicsStage(stage.stage, &known);
		if (!known || !layout_) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
			              "vkCreateGraphicsPipelines: shader stage 0x%x %s", unsigned(stage.stage),
			              known ? "given without a pipeline layout" : "is not supported");
			return VK_ERROR_UNKNOWN;
		}
		std::unique_ptr<shader::Program> program;
		VkResult r = CompileStage(device, stage, kShaderStages[size_t(kind)], "vkCreateGraphicsPipelines", cache,
		                          Layout(), program, cache.StageFeedback(i));
		if (r != VK_SUCCESS) return r;
		parts->SetProgram(kind, std::move(program));
	}
	if (is_library) {
		library_ = std::move(parts);
		return VK_SUCCESS;
	}
	return BuildGraphics(device, parts->Info(), parts->Targets(), parts.get(), cache);
}

VkResult Pipeline::InitLinkedShaders(const Device& device, const GraphicsLibrary& stages) {
	// Every dynamic state Tessera has: with shader objects the command
	// buffer sets them all (Vulkan "Setting State"), or leaves those of
	// features not enabled at their defaults (GraphicsContext's), but for
	// depth clipping, which without VK_EXT_depth_clip_enable follows depth
	// clamping (ComposeState).
	static constexpr VkDynamicState kAll[] = {
	    VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
	    VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
	    VK_DYNAMIC_STATE_LINE_WIDTH,
	    VK_DYNAMIC_STATE_DEPTH_BIAS,
	    VK_DYNAMIC_STATE_BLEND_CONSTANTS,
	    VK_DYNAMIC_STATE_DEPTH_BOUNDS,
	    VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
	    VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
	    VK_DYNAMIC_STATE_STENCIL_REFERENCE,
	    VK_DYNAMIC_STATE_CULL_MODE,
	    VK_DYNAMIC_STATE_FRONT_FACE,
	    VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
	    VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
	    VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
	    VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
	    VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
	    VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
	    VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
	    VK_DYNAMIC_STATE_STENCIL_OP,
	    VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
	    VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
	    VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
	    VK_DYNAMIC_STATE_LOGIC_OP_EXT,
	    VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT,
	    VK_DYNAMIC_STATE_VERTEX_INPUT_EXT,
	    VK_DYNAMIC_STATE_LINE_STIPPLE_EXT,
	    VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT,
	    VK_DYNAMIC_STATE_POLYGON_MODE_EXT,
	    VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
	    VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT,
	    VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,
	    VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT,
	    VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
	    VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
	    VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,
	    VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT,
	    VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
	    VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT,
	    VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT,
	    VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT,
	    VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT,
	    VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT,
	    VK_DYNAMIC_STATE_ATTACHMENT_FEEDBACK_LOOP_ENABLE_EXT,
	    VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT,
	    VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT,
	    VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT,
	    VK_DYNAMIC_STATE_DISCARD_RECTANGLE_ENABLE_EXT,
	    VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT,
	    VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT,
	    VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT,
	    VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT,  // last: left out without the extension
	};
	// A state added to Dynamic belongs here too (the viewports and scissors
	// are set with their count).
	static_assert(std::size(kAll) == size_t(Dynamic::kCount) - 2);
	const bool depth_clip = device.IsEnabled(entry::DeviceExtension::EXT_depth_clip_enable);
	VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dynamic.dynamicStateCount = uint32_t(std::size(kAll)) - (depth_clip ? 0 : 1);
	dynamic.pDynamicStates = kAll;
	VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	info.pDynamicState = &dynamic;
	// Shader objects draw only in dynamic rendering, to any attachment
	// the render pass instance binds (a format stands for each).
	AttachmentTargets targets;
	targets.color_count = raster::kMaxColorAttachments;
	std::fill(std::begin(targets.colors), std::end(targets.colors), VK_FORMAT_R8G8B8A8_UNORM);
	targets.depth = targets.stencil = true;
	return BuildGraphics(device, info, targets, &stages, StageCache{});
}

VkResult Pipeline::BuildGraphics(const Device& device, const VkGraphicsPipelineCreateInfo& info,
                                 const AttachmentTargets& targets, const GraphicsLibrary* library,
                                 const StageCache& cache) {
	const char* what = "vkCreateGraphicsPipelines";
	try {
		graphics_ = std::make_unique<GraphicsPipeline>();
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	GraphicsPipeline& g = *graphics_;
	g.pre_rasterization_view_from_device =
	    library ? library->PreRasterizationViewFromDevice()
	            : (info.flags & VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT) != 0;
	g.fragment_view_from_device = library ? library->FragmentViewFromDevice()
	                                      : (info.flags & VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT) != 0;
	if (library) {
		try {
			std::unique_ptr<shader::Program>* slots[] = {&g.vertex, &g.tess_control, &g.tess_eval, &g.geometry,
			                                             &g.fragment};
			for (size_t k = 0; k < size_t(GraphicsStage::kCount); ++k)
				if (const shader::Program* program = library->Program(GraphicsStage(k)))
					*slots[k] = std::make_unique<shader::Program>(*program);
		} catch (const std::bad_alloc&) {
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		}
	}
	for (uint32_t i = 0; i < info.stageCount; ++i) {
		const VkPipelineShaderStageCreateInfo& stage = info.pStages[i];
		VkResult r = VK_SUCCESS;
		if (stage.stage == VK_SHADER_STAGE_VERTEX_BIT)
			r = CompileStage(device, stage, shader::Stage::kVertex, what, cache, Layout(), g.vertex,
			                 cache.StageFeedback(i));
		else if (stage.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT)
			r = CompileStage(device, stage, shader::Stage::kTessControl, what, cache, Layout(), g.tess_control,
			                 cache.StageFeedback(i));
		else if (stage.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)
			r = CompileStage(device, stage, shader::Stage::kTessEval, what, cache, Layout(), g.tess_eval,
			                 cache.StageFeedback(i));
		else if (stage.stage == VK_SHADER_STAGE_GEOMETRY_BIT)
			r = CompileStage(device, stage, shader::Stage::kGeometry, what, cache, Layout(), g.geometry,
			                 cache.StageFeedback(i));
		else if (stage.stage == VK_SHADER_STAGE_FRAGMENT_BIT)
			r = CompileStage(device, stage, shader::Stage::kFragment, what, cache, Layout(), g.fragment,
			                 cache.StageFeedback(i));
		else {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
			              "%s: shader stage 0x%x is not supported", what, unsigned(stage.stage));
			r = VK_ERROR_UNKNOWN;
		}
		if (r != VK_SUCCESS) return r;
	}
	if (!g.vertex) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "%s: a vertex shader is required", what);
		return VK_ERROR_UNKNOWN;
	}
	if (bool(g.tess_control) != bool(g.tess_eval)) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "%s: tessellation needs both a control and an evaluation shader", what);
		return VK_ERROR_UNKNOWN;
	}
	if (const VkPipelineDynamicStateCreateInfo* d = info.pDynamicState)
		for (uint32_t i = 0; i < d->dynamicStateCount; ++i) {
			bool known;
			Dynamic bit = ToDynamic(d->pDynamicStates[i], &known);
			if (known) g.dynamic |= Bit(bit);
		}
	auto is_dynamic = [&](Dynamic d) { return (g.dynamic & Bit(d)) != 0; };

	// With the control point count dynamic (VK_EXT_extended_dynamic_state2),
	// pTessellationState may be null (VkGraphicsPipelineCreateInfo
	// pStages-09022): the count comes with the draw, the origin is the
	// default upper left unless it is dynamic too.
	if (g.tess_control) {
		if (info.pTessellationState) {
			g.patch_control_points = info.pTessellationState->patchControlPoints;
			// VK_KHR_maintenance2 (Vulkan 1.1): the domain's origin.
			if (auto* origin = FindInChain<VkPipelineTessellationDomainOriginStateCreateInfo>(
			        info.pTessellationState->pNext,
			        VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO))
				g.tessellation.lower_left = origin->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
		}
		if (!is_dynamic(Dynamic::kPatchControlPoints) &&
		    (g.patch_control_points == 0 || g.patch_control_points > kMaxPatchControlPoints)) {
			device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
			              "%s: patchControlPoints %u is outside 1..32", what, g.patch_control_points);
			return VK_ERROR_UNKNOWN;
		}
	}

	for (auto& words : g.input_words) std::fill(std::begin(words), std::end(words), kNoWord);
	for (const shader::InterfaceWord& w : g.vertex->inputs)
		if (w.builtin == shader::InterfaceBuiltin::kNone && w.location < kMaxVertexAttributes && w.component < 4)
			g.input_words[w.location][w.component] = w.word;
	// Vulkan 1.3 §10.2: with VK_DYNAMIC_STATE_VERTEX_INPUT_EXT the state is ignored.
	if (info.pVertexInputState && !is_dynamic(Dynamic::kVertexInput))
		CaptureVertexInput(*info.pVertexInputState, *g.vertex, g);
	if (info.pInputAssemblyState) {
		g.topology = info.pInputAssemblyState->topology;
		g.primitive_restart = info.pInputAssemblyState->primitiveRestartEnable;
	}

	raster::RasterState& r = g.state.raster;
	// VK_EXT_extended_dynamic_state3: pRasterizationState may be null when
	// the eight states it holds are dynamic (VkGraphicsPipelineCreateInfo
	// pRasterizationState-09040); defaults stand in for them until the
	// command buffer sets them.
	static const VkPipelineRasterizationStateCreateInfo kDynamicRasterization{
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
	    nullptr,
	    0,
	    VK_FALSE,
	    VK_FALSE,
	    VK_POLYGON_MODE_FILL,
	    VK_CULL_MODE_NONE,
	    VK_FRONT_FACE_COUNTER_CLOCKWISE,
	    VK_FALSE,
	    0.0f,
	    0.0f,
	    0.0f,
	    1.0f};
	const bool rasterization_dynamic =
	    is_dynamic(Dynamic::kDepthClampEnable) && is_dynamic(Dynamic::kRasterizerDiscardEnable) &&
	    is_dynamic(Dynamic::kPolygonMode) && is_dynamic(Dynamic::kCullMode) && is_dynamic(Dynamic::kFrontFace) &&
	    is_dynamic(Dynamic::kDepthBiasEnable) && is_dynamic(Dynamic::kDepthBias) && is_dynamic(Dynamic::kLineWidth);
	if (!info.pRasterizationState && !rasterization_dynamic) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "%s: no rasterization state (pre-rasterization shader state)", what);
		return VK_ERROR_UNKNOWN;
	}
	const VkPipelineRasterizationStateCreateInfo& rs =
	    info.pRasterizationState ? *info.pRasterizationState : kDynamicRasterization;
	g.rasterizer_discard = rs.rasterizerDiscardEnable;
	r.depth_clamp = rs.depthClampEnable;
	// VK_EXT_depth_clip_enable: clipping follows depthClipEnable when given,
	// else it is off exactly when depth clamp is on.
	auto* clip = FindInChain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(
	    rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT);
	r.depth_clip = clip ? clip->depthClipEnable : !rs.depthClampEnable;
	g.explicit_depth_clip = clip != nullptr;
	r.polygon_mode = rs.polygonMode;
	r.cull_mode = rs.cullMode;
	r.front_face = rs.frontFace;
	r.depth_bias_enable = rs.depthBiasEnable;
	r.depth_bias_constant = rs.depthBiasConstantFactor;
	r.depth_bias_clamp = rs.depthBiasClamp;
	r.depth_bias_slope = rs.depthBiasSlopeFactor;
	if (auto* conservative = FindInChain<VkPipelineRasterizationConservativeStateCreateInfoEXT>(
	        rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT)) {
		r.conservative_mode = conservative->conservativeRasterizationMode;
		r.extra_overestimation = conservative->extraPrimitiveOverestimationSize;
	}
	if (auto* representation = FindInChain<VkDepthBiasRepresentationInfoEXT>(
	        rs.pNext, VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT))
		r.depth_bias_representation = representation->depthBiasRepresentation;
	r.line_width = rs.lineWidth;
	// VK_EXT_line_rasterization: the mode (DEFAULT is RECTANGULAR, as
	// strictLines is true) and the stipple.
	if (auto* line = FindInChain<VkPipelineRasterizationLineStateCreateInfoEXT>(
	        rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT)) {
		r.line_mode = LineModeOf(line->lineRasterizationMode);
		g.line_stipple = line->stippledLineEnable;
		g.line_stipple_factor = std::clamp(line->lineStippleFactor, 1u, 256u);
		g.line_stipple_pattern = line->lineStipplePattern;
	}
	if (auto* stream = FindInChain<VkPipelineRasterizationStateStreamCreateInfoEXT>(
	        rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT))
		g.rasterization_stream = stream->rasterizationStream % shader::kMaxVertexStreams;
	if (auto* pv = FindInChain<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
	        rs.pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT))
		r.provoking_vertex_last = pv->provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;

	// Vulkan 1.3 §10.2: the viewport, multisample, depth/stencil and blend
	// states are ignored (and may be invalid pointers) when rasterization is
	// statically discarded, and the last two without the attachments they
	// describe.
	const bool rasterizes = !g.rasterizer_discard || is_dynamic(Dynamic::kRasterizerDiscardEnable);
	if (rasterizes && info.pViewportState) {
		const VkPipelineViewportStateCreateInfo& vp = *info.pViewportState;
		if (auto* control = FindInChain<VkPipelineViewportDepthClipControlCreateInfoEXT>(
		        vp.pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT))
			r.depth_negative_one_to_one = control->negativeOneToOne;
		// VK_EXT_depth_clamp_control (the range only where it is not dynamic:
		// then pDepthClampRange may be null).
		if (auto* clamp = FindInChain<VkPipelineViewportDepthClampControlCreateInfoEXT>(
		        vp.pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT);
		    clamp && clamp->depthClampMode == VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT && clamp->pDepthClampRange &&
		    !is_dynamic(Dynamic::kDepthClampRange)) {
			r.depth_clamp_user_range = true;
			r.depth_clamp_min = clamp->pDepthClampRange->minDepthClamp;
			r.depth_clamp_max = clamp->pDepthClampRange->maxDepthClamp;
		}
		g.viewport_count = std::clamp(vp.viewportCount, 1u, kMaxViewports);
		g.scissor_count = std::clamp(vp.scissorCount, 1u, kMaxViewports);
		if (vp.pViewports && vp.viewportCount) {
			for (uint32_t i = 0; i < g.viewport_count; ++i) {
				const VkViewport& v = vp.pViewports[i];
				g.viewports[i] = {v.x, v.y, v.width, v.height, v.minDepth, v.maxDepth};
			}
			r.viewport = g.viewports[0];
			g.has_viewport = true;
		}
		if (vp.pScissors && vp.scissorCount) {
			for (uint32_t i = 0; i < g.scissor_count; ++i) {
				const VkRect2D& s = vp.pScissors[i];
				g.scissors[i] = {s.offset.x, s.offset.y, s.extent.width, s.extent.height};
			}
			r.scissor = g.scissors[0];
			g.has_scissor = true;
		}
	}
	// VK_EXT_discard_rectangles (Vulkan "Discard Rectangles Test"): with
	// rectangles the test is on unless its enable is dynamic; dynamic
	// rectangles or mode replace the structure's (ComposeState).
	if (auto* discard = FindInChain<VkPipelineDiscardRectangleStateCreateInfoEXT>(
	        info.pNext, VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT)) {
		g.discard_rectangle_count = std::min(discard->discardRectangleCount, raster::kMaxDiscardRectangles);
		r.discard_inclusive = discard->discardRectangleMode == VK_DISCARD_RECTANGLE_MODE_INCLUSIVE_EXT;
		if (!is_dynamic(Dynamic::kDiscardRectangleEnable)) r.discard_rectangle_count = g.discard_rectangle_count;
		if (!is_dynamic(Dynamic::kDiscardRectangle) && discard->pDiscardRectangles)
			for (uint32_t i = 0; i < g.discard_rectangle_count; ++i) {
				const VkRect2D& d = discard->pDiscardRectangles[i];
				r.discard_rectangles[i] = {d.offset.x, d.offset.y, d.extent.width, d.extent.height};
			}
	}
	if (rasterizes && info.pMultisampleState) {
		const VkPipelineMultisampleStateCreateInfo& ms = *info.pMultisampleState;
		r.samples = ms.rasterizationSamples;
		r.sample_mask = ms.pSampleMask ? ms.pSampleMask[0] : 0xffffffffu;
		r.alpha_to_coverage = ms.alphaToCoverageEnable;
		r.alpha_to_one = ms.alphaToOneEnable;
		r.sample_shading = ms.sampleShadingEnable;
		r.min_sample_shading = ms.minSampleShading;
	}
	raster::DepthStencilState& ds = g.state.depth_stencil;
	if (rasterizes && (targets.depth || targets.stencil) && info.pDepthStencilState) {
		const VkPipelineDepthStencilStateCreateInfo& d = *info.pDepthStencilState;
		ds.depth_test = d.depthTestEnable;
		ds.depth_write = d.depthWriteEnable;
		ds.depth_compare = d.depthCompareOp;
		ds.stencil_test = d.stencilTestEnable;
		ds.front = Stencil(d.front);
		ds.back = Stencil(d.back);
		ds.depth_bounds_test = d.depthBoundsTestEnable;
		ds.min_depth_bounds = d.minDepthBounds;
		ds.max_depth_bounds = d.maxDepthBounds;
	}
	raster::BlendState& blend = g.state.blend;
	if (rasterizes && targets.color_count && info.pColorBlendState) {
		const VkPipelineColorBlendStateCreateInfo& cb = *info.pColorBlendState;
		blend.logic_op_enable = cb.logicOpEnable;
		blend.logic_op = cb.logicOp;
		std::copy(std::begin(cb.blendConstants), std::end(cb.blendConstants), blend.constants);
		if (auto* enables = FindInChain<VkPipelineColorWriteCreateInfoEXT>(
		        cb.pNext, VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT))
			for (uint32_t i = 0; i < enables->attachmentCount && i < 32; ++i)
				if (!enables->pColorWriteEnables[i]) g.color_write_enables &= ~(1u << i);
		// VK_EXT_extended_dynamic_state3: pAttachments is ignored when the
		// enables, equations and write masks are all dynamic.
		const bool attachments_dynamic = is_dynamic(Dynamic::kColorBlendEnable) &&
		                                 is_dynamic(Dynamic::kColorBlendEquation) &&
		                                 is_dynamic(Dynamic::kColorWriteMask);
		for (uint32_t i = 0; !attachments_dynamic && i < targets.color_count && i < cb.attachmentCount; ++i) {
			const VkPipelineColorBlendAttachmentState& a = cb.pAttachments[i];
			blend.attachments[i] = {bool(a.blendEnable), a.srcColorBlendFactor, a.dstColorBlendFactor,
			                        a.colorBlendOp,      a.srcAlphaBlendFactor, a.dstAlphaBlendFactor,
			                        a.alphaBlendOp,      a.colorWriteMask};
		}
	}
	if (!LinkStages(g)) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "%s: the fragment shader's inputs take more than %u scalar slots (a PerVertexKHR input "
		              "takes three a component)",
		              what, raster::kMaxVaryings);
		return VK_ERROR_UNKNOWN;
	}
	// Vulkan "Fragment Output Interface": a color attachment whose Location
	// has no output variable keeps its values. Which Location an attachment
	// takes is known at draw time (VK_KHR_dynamic_rendering_local_read's
	// remapping), where ComposeState applies this.
	for (uint32_t l = 0; l < raster::kMaxColorAttachments; ++l)
		if (std::any_of(std::begin(g.color_words[l]), std::end(g.color_words[l]),
		                [](uint32_t w) { return w != kNoWord; }))
			g.output_locations |= 1u << l;
	// Vulkan "Fragment Output Interface" and VK_EXT_dynamic_rendering_unused_attachments:
	// a color attachment the pipeline has no format for (past its
	// attachments, or VK_FORMAT_UNDEFINED) is not written, whatever view the
	// render pass instance binds there.
	// (The blend state then describes every attachment: the raster's default
	// for one past attachment_count writes it.)
	for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a)
		if (a >= targets.color_count || targets.colors[a] == VK_FORMAT_UNDEFINED) {
			g.state.blend.attachments[a].write_mask = 0;
			g.written_attachments &= ~(1u << a);
		}
	g.state.blend.attachment_count = raster::kMaxColorAttachments;
	// An input attachment may be the depth/stencil attachment itself (a
	// feedback loop): the fragment must read what earlier draws wrote, not
	// its own depth, so its tests stay after it (Vulkan 1.3 §29.4).
	if (g.fragment) g.state.shader.reads_attachments = ReadsInputAttachments(*g.fragment, Layout());
	// VK_EXT_attachment_feedback_loop_layout: the fragment stage may sample
	// an attachment the subpass writes, and after a feedback-loop barrier
	// must see earlier draws' writes at its own pixel. Treated as reading
	// attachments: the draw is never queued behind, or hidden by, others.
	constexpr VkPipelineCreateFlags kFeedbackLoop = VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT |
	                                                VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
	if (g.fragment && (info.flags & kFeedbackLoop)) g.state.shader.reads_attachments = true;
	// VK_EXT_rasterization_order_attachment_access: input attachment reads
	// see the writes of every earlier fragment at the pixel, those of the
	// same draw included (Vulkan "Render Pass", feedback loops). (The two
	// states may be invalid pointers without the attachments they describe.)
	const VkPipelineColorBlendStateCreateFlags color_order =
	    rasterizes && targets.color_count && info.pColorBlendState
	        ? info.pColorBlendState->flags &
	              VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT
	        : 0;
	const VkPipelineDepthStencilStateCreateFlags depth_order =
	    rasterizes && (targets.depth || targets.stencil) && info.pDepthStencilState
	        ? info.pDepthStencilState->flags &
	              (VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT |
	               VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT)
	        : 0;
	g.state.shader.ordered_attachment_reads = g.state.shader.reads_attachments && (color_order || depth_order);
	return VK_SUCCESS;
}

}  // namespace tessera::vk
