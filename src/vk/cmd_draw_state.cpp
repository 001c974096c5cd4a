// Commands that set draw-time state: vertex and index buffers (Vulkan 1.3
// §22.2, §21.2) and every dynamic state of core Vulkan 1.3 (§10.2 "Dynamic
// State", extended dynamic state 1 and 2). Each copies its values into the
// ExecutionContext's GraphicsContext when it executes, so state follows
// command order, secondary command buffers included.
#include <algorithm>
#include <new>

#include "icd/vulkan_newer.h"
#include "texture/format.h"
#include "vk/buffer.h"
#include "vk/command_buffer.h"

namespace tessera::vk {

namespace {

template <typename T>
struct SetStateCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	void (*apply)(GraphicsContext&, const T&);
	T value;
	void Execute(ExecutionContext& context) const { apply(context.graphics, value); }
};

template <typename T>
void Record(VkCommandBuffer commandBuffer, const T& value, void (*apply)(GraphicsContext&, const T&)) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<SetStateCommand<T>>()) {
		cmd->apply = apply;
		cmd->value = value;
	}
}

struct BindVertexBuffersCommand : Command {
	static constexpr bool kKeepsQueuedDraws = true;  // sets state only (command_buffer.h)
	uint32_t first;
	uint32_t count;
	const GraphicsContext::VertexBuffer* buffers;
	void Execute(ExecutionContext& context) const {
		for (uint32_t i = 0; i < count; ++i) {
			// A binding without a stride keeps the dynamic stride set before
			// (vkCmdBindVertexBuffers, vkCmdBindVertexBuffers2 without
			// pStrides, vkCmdBindVertexBuffers3KHR without setStride).
			GraphicsContext::VertexBuffer& slot = context.graphics.vertex_buffers[first + i];
			const uint64_t stride = slot.stride;
			const bool has_stride = slot.has_stride;
			slot = buffers[i];
			if (!slot.has_stride) slot.stride = stride, slot.has_stride = has_stride;
		}
	}
};

// Bindings first.. of the memory binding_of(i, b) puts in each b: its data
// and size, and its stride where it sets one.
template <typename BindingOf>
void RecordVertexBindings(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count, BindingOf binding_of) {
	if (first >= kMaxVertexBindings) return;
	count = std::min(count, kMaxVertexBindings - first);
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	auto* out = cb->AllocateArray<GraphicsContext::VertexBuffer>(count);
	if (!out) return;
	for (uint32_t i = 0; i < count; ++i) binding_of(i, out[i] = {});
	if (auto* cmd = cb->Add<BindVertexBuffersCommand>()) {
		cmd->first = first;
		cmd->count = count;
		cmd->buffers = out;
	}
}

void BindVertexBuffers(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count, const VkBuffer* buffers,
                       const VkDeviceSize* offsets, const VkDeviceSize* sizes, const VkDeviceSize* strides) {
	RecordVertexBindings(commandBuffer, first, count, [&](uint32_t i, GraphicsContext::VertexBuffer& b) {
		// Vulkan 1.3 §22.2: a null buffer (nullDescriptor) reads zeros.
		const MemoryRange range = RangeOf(Buffer::Cast(buffers[i]), offsets[i]);
		b.data = range.data;
		b.size = sizes && sizes[i] != VK_WHOLE_SIZE ? std::min(range.size, sizes[i]) : range.size;
		if (strides) {
			b.stride = strides[i];
			b.has_stride = true;
		}
	});
}

struct IndexBinding {
	const uint8_t* data;
	uint64_t size;
	VkIndexType type;
};

void RecordIndexBinding(VkCommandBuffer commandBuffer, const IndexBinding& binding) {
	Record<IndexBinding>(commandBuffer, binding, [](GraphicsContext& g, const IndexBinding& v) {
		g.index_data = v.data;
		g.index_size = v.size;
		g.index_type = v.type;
	});
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                uint32_t bindingCount, const VkBuffer* pBuffers,
                                                const VkDeviceSize* pOffsets) {
	BindVertexBuffers(commandBuffer, firstBinding, bindingCount, pBuffers, pOffsets, nullptr, nullptr);
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers2(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                 uint32_t bindingCount, const VkBuffer* pBuffers,
                                                 const VkDeviceSize* pOffsets, const VkDeviceSize* pSizes,
                                                 const VkDeviceSize* pStrides) {
	BindVertexBuffers(commandBuffer, firstBinding, bindingCount, pBuffers, pOffsets, pSizes, pStrides);
}

// VK_KHR_maintenance5: the binding is the range [offset, offset + size) of
// the buffer (to its end for VK_WHOLE_SIZE); indices past it are those past
// a buffer's end (vk/draw.cpp).
VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer2KHR(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                  VkDeviceSize size, VkIndexType indexType) {
	const MemoryRange range = RangeOf(Buffer::Cast(buffer), offset);
	RecordIndexBinding(commandBuffer,
	                   {range.data, size == VK_WHOLE_SIZE ? range.size : std::min(size, range.size), indexType});
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                              VkIndexType indexType) {
	CmdBindIndexBuffer2KHR(commandBuffer, buffer, offset, VK_WHOLE_SIZE, indexType);
}

// VK_KHR_device_address_commands: the same bindings from address ranges (an
// address of 0 binds nothing: nullDescriptor reads zeros). A vertex
// binding's stride is set only with setStride.
VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer3KHR(VkCommandBuffer commandBuffer,
                                                  const VkBindIndexBuffer3InfoKHR* pInfo) {
	const MemoryRange range = RangeOf(pInfo->addressRange.address, pInfo->addressRange.size);
	RecordIndexBinding(commandBuffer, {range.data, range.size, pInfo->indexType});
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers3KHR(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                    uint32_t bindingCount,
                                                    const VkBindVertexBuffer3InfoKHR* pBindingInfos) {
	RecordVertexBindings(commandBuffer, firstBinding, bindingCount, [&](uint32_t i, GraphicsContext::VertexBuffer& b) {
		const VkBindVertexBuffer3InfoKHR& info = pBindingInfos[i];
		const MemoryRange range = RangeOf(info.addressRange.address, info.addressRange.size);
		b.data = range.data;
		b.size = range.size;
		if (info.setStride) {
			b.stride = info.addressRange.stride;
			b.has_stride = true;
		}
	});
}

// vkCmdSetViewport / vkCmdSetScissor: a range of the kMaxViewports slots.
struct ViewportRange {
	uint32_t first, count;
	raster::Viewport viewports[kMaxViewports];
};
struct ScissorRange {
	uint32_t first, count;
	raster::Rect scissors[kMaxViewports];
};

VKAPI_ATTR void VKAPI_CALL CmdSetViewport(VkCommandBuffer commandBuffer, uint32_t firstViewport, uint32_t viewportCount,
                                          const VkViewport* pViewports) {
	if (firstViewport >= kMaxViewports) return;
	ViewportRange range{firstViewport, std::min(viewportCount, kMaxViewports - firstViewport), {}};
	for (uint32_t i = 0; i < range.count; ++i) {
		const VkViewport& v = pViewports[i];
		range.viewports[i] = {v.x, v.y, v.width, v.height, v.minDepth, v.maxDepth};
	}
	Record<ViewportRange>(commandBuffer, range, [](GraphicsContext& g, const ViewportRange& r) {
		for (uint32_t i = 0; i < r.count; ++i) g.viewports[r.first + i] = r.viewports[i];
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetViewportWithCount(VkCommandBuffer commandBuffer, uint32_t viewportCount,
                                                   const VkViewport* pViewports) {
	CmdSetViewport(commandBuffer, 0, viewportCount, pViewports);
	Record<uint32_t>(commandBuffer, std::clamp(viewportCount, 1u, kMaxViewports),
	                 [](GraphicsContext& g, const uint32_t& count) { g.viewport_count = count; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissor(VkCommandBuffer commandBuffer, uint32_t firstScissor, uint32_t scissorCount,
                                         const VkRect2D* pScissors) {
	if (firstScissor >= kMaxViewports) return;
	ScissorRange range{firstScissor, std::min(scissorCount, kMaxViewports - firstScissor), {}};
	for (uint32_t i = 0; i < range.count; ++i) {
		const VkRect2D& s = pScissors[i];
		range.scissors[i] = {s.offset.x, s.offset.y, s.extent.width, s.extent.height};
	}
	Record<ScissorRange>(commandBuffer, range, [](GraphicsContext& g, const ScissorRange& r) {
		for (uint32_t i = 0; i < r.count; ++i) g.scissors[r.first + i] = r.scissors[i];
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissorWithCount(VkCommandBuffer commandBuffer, uint32_t scissorCount,
                                                  const VkRect2D* pScissors) {
	CmdSetScissor(commandBuffer, 0, scissorCount, pScissors);
}

VKAPI_ATTR void VKAPI_CALL CmdSetLineWidth(VkCommandBuffer commandBuffer, float lineWidth) {
	Record<float>(commandBuffer, lineWidth, [](GraphicsContext& g, const float& v) { g.line_width = v; });
}

namespace {

struct DepthBias {
	float constant, clamp, slope;
	VkDepthBiasRepresentationEXT representation;
};

void RecordDepthBias(VkCommandBuffer commandBuffer, const DepthBias& bias) {
	Record<DepthBias>(commandBuffer, bias, [](GraphicsContext& g, const DepthBias& v) {
		g.depth_bias_constant = v.constant;
		g.depth_bias_clamp = v.clamp;
		g.depth_bias_slope = v.slope;
		g.depth_bias_representation = v.representation;
	});
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBias(VkCommandBuffer commandBuffer, float constantFactor, float clamp,
                                           float slopeFactor) {
	RecordDepthBias(commandBuffer, {constantFactor, clamp, slopeFactor,
	                                VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT});
}

// VK_EXT_depth_bias_control: the factors and what the constant one scales.
VKAPI_ATTR void VKAPI_CALL CmdSetDepthBias2EXT(VkCommandBuffer commandBuffer,
                                               const VkDepthBiasInfoEXT* pDepthBiasInfo) {
	const auto* representation = FindInChain<VkDepthBiasRepresentationInfoEXT>(
	    pDepthBiasInfo->pNext, VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT);
	RecordDepthBias(
	    commandBuffer,
	    {pDepthBiasInfo->depthBiasConstantFactor, pDepthBiasInfo->depthBiasClamp, pDepthBiasInfo->depthBiasSlopeFactor,
	     representation ? representation->depthBiasRepresentation
	                    : VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT});
}

VKAPI_ATTR void VKAPI_CALL CmdSetBlendConstants(VkCommandBuffer commandBuffer, const float blendConstants[4]) {
	struct Constants {
		float c[4];
	};
	Constants c{{blendConstants[0], blendConstants[1], blendConstants[2], blendConstants[3]}};
	Record<Constants>(commandBuffer, c, [](GraphicsContext& g, const Constants& v) {
		std::copy(std::begin(v.c), std::end(v.c), g.blend_constants);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBounds(VkCommandBuffer commandBuffer, float minDepthBounds,
                                             float maxDepthBounds) {
	struct Bounds {
		float min, max;
	};
	Record<Bounds>(commandBuffer, {minDepthBounds, maxDepthBounds}, [](GraphicsContext& g, const Bounds& v) {
		g.min_depth_bounds = v.min;
		g.max_depth_bounds = v.max;
	});
}

namespace {
// A stencil value for the faces named by a VkStencilFaceFlags.
struct StencilValue {
	VkStencilFaceFlags faces;
	uint32_t value;
};
}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdSetStencilCompareMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                    uint32_t compareMask) {
	Record<StencilValue>(commandBuffer, {faceMask, compareMask}, [](GraphicsContext& g, const StencilValue& v) {
		if (v.faces & VK_STENCIL_FACE_FRONT_BIT) g.front.compare_mask = v.value;
		if (v.faces & VK_STENCIL_FACE_BACK_BIT) g.back.compare_mask = v.value;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilWriteMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                  uint32_t writeMask) {
	Record<StencilValue>(commandBuffer, {faceMask, writeMask}, [](GraphicsContext& g, const StencilValue& v) {
		if (v.faces & VK_STENCIL_FACE_FRONT_BIT) g.front.write_mask = v.value;
		if (v.faces & VK_STENCIL_FACE_BACK_BIT) g.back.write_mask = v.value;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilReference(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                                  uint32_t reference) {
	Record<StencilValue>(commandBuffer, {faceMask, reference}, [](GraphicsContext& g, const StencilValue& v) {
		if (v.faces & VK_STENCIL_FACE_FRONT_BIT) g.front.reference = v.value;
		if (v.faces & VK_STENCIL_FACE_BACK_BIT) g.back.reference = v.value;
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilOp(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                                           VkStencilOp failOp, VkStencilOp passOp, VkStencilOp depthFailOp,
                                           VkCompareOp compareOp) {
	struct Ops {
		VkStencilFaceFlags faces;
		VkStencilOp fail, pass, depth_fail;
		VkCompareOp compare;
	};
	Record<Ops>(commandBuffer, {faceMask, failOp, passOp, depthFailOp, compareOp},
	            [](GraphicsContext& g, const Ops& v) {
		            for (raster::StencilFaceState* f : {&g.front, &g.back}) {
			            if (!(v.faces & (f == &g.front ? VK_STENCIL_FACE_FRONT_BIT : VK_STENCIL_FACE_BACK_BIT)))
				            continue;
			            f->fail_op = v.fail;
			            f->pass_op = v.pass;
			            f->depth_fail_op = v.depth_fail;
			            f->compare_op = v.compare;
		            }
	            });
}

VKAPI_ATTR void VKAPI_CALL CmdSetCullMode(VkCommandBuffer commandBuffer, VkCullModeFlags cullMode) {
	Record<VkCullModeFlags>(commandBuffer, cullMode,
	                        [](GraphicsContext& g, const VkCullModeFlags& v) { g.cull_mode = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetFrontFace(VkCommandBuffer commandBuffer, VkFrontFace frontFace) {
	Record<VkFrontFace>(commandBuffer, frontFace, [](GraphicsContext& g, const VkFrontFace& v) { g.front_face = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetPrimitiveTopology(VkCommandBuffer commandBuffer,
                                                   VkPrimitiveTopology primitiveTopology) {
	Record<VkPrimitiveTopology>(commandBuffer, primitiveTopology,
	                            [](GraphicsContext& g, const VkPrimitiveTopology& v) { g.topology = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthCompareOp(VkCommandBuffer commandBuffer, VkCompareOp depthCompareOp) {
	Record<VkCompareOp>(commandBuffer, depthCompareOp,
	                    [](GraphicsContext& g, const VkCompareOp& v) { g.depth_compare = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetLogicOpEXT(VkCommandBuffer commandBuffer, VkLogicOp logicOp) {
	Record<VkLogicOp>(commandBuffer, logicOp, [](GraphicsContext& g, const VkLogicOp& v) { g.logic_op = v; });
}

// VK_EXT_line_rasterization.
VKAPI_ATTR void VKAPI_CALL CmdSetLineStippleEXT(VkCommandBuffer commandBuffer, uint32_t lineStippleFactor,
                                                uint16_t lineStipplePattern) {
	struct Stipple {
		uint32_t factor;
		uint16_t pattern;
	};
	Record<Stipple>(commandBuffer, Stipple{std::clamp(lineStippleFactor, 1u, 256u), lineStipplePattern},
	                [](GraphicsContext& g, const Stipple& v) {
		                g.line_stipple_factor = v.factor;
		                g.line_stipple_pattern = v.pattern;
	                });
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorWriteEnableEXT(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                                     const VkBool32* pColorWriteEnables) {
	uint32_t enables = ~0u;
	for (uint32_t i = 0; i < attachmentCount && i < 32; ++i)
		if (!pColorWriteEnables[i]) enables &= ~(1u << i);
	Record<uint32_t>(commandBuffer, enables, [](GraphicsContext& g, const uint32_t& v) { g.color_write_enables = v; });
}

// VK_EXT_vertex_input_dynamic_state: the bindings and attributes, copied
// into the command buffer; the draw maps them to the pipeline's inputs.
VKAPI_ATTR void VKAPI_CALL CmdSetVertexInputEXT(
    VkCommandBuffer commandBuffer, uint32_t vertexBindingDescriptionCount,
    const VkVertexInputBindingDescription2EXT* pVertexBindingDescriptions, uint32_t vertexAttributeDescriptionCount,
    const VkVertexInputAttributeDescription2EXT* pVertexAttributeDescriptions) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	DynamicVertexInput* vi = cb->AllocateArray<DynamicVertexInput>(1);
	if (!vi) return;
	new (vi) DynamicVertexInput{};
	for (uint32_t i = 0; i < vertexBindingDescriptionCount; ++i) {
		const VkVertexInputBindingDescription2EXT& b = pVertexBindingDescriptions[i];
		if (b.binding >= kMaxVertexBindings) continue;
		vi->bindings[b.binding] = {b.stride, b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE, true, b.divisor};
	}
	for (uint32_t i = 0; i < vertexAttributeDescriptionCount && vi->attribute_count < kMaxVertexAttributes; ++i) {
		const VkVertexInputAttributeDescription2EXT& a = pVertexAttributeDescriptions[i];
		if (a.binding >= kMaxVertexBindings) continue;
		VertexAttributeDescription& d = vi->attributes[vi->attribute_count++];
		d.location = a.location;
		d.binding = a.binding;
		d.offset = a.offset;
		d.format = a.format;
		d.info = texture::FindFormat(a.format);
	}
	// The strides are binding stride state too: one an earlier
	// vkCmdBindVertexBuffers2 gave no longer applies (the later command wins,
	// as with shader objects, where both states are always dynamic).
	Record<const DynamicVertexInput*>(commandBuffer, vi, [](GraphicsContext& g, const DynamicVertexInput* const& v) {
		g.vertex_input = v;
		for (GraphicsContext::VertexBuffer& buffer : g.vertex_buffers) buffer.has_stride = false;
	});
}

// VK_EXT_extended_dynamic_state2 (extendedDynamicState2PatchControlPoints):
// the vertices a patch takes, read by draws of pipelines that made it
// dynamic (vk/draw.cpp).
VKAPI_ATTR void VKAPI_CALL CmdSetPatchControlPointsEXT(VkCommandBuffer commandBuffer, uint32_t patchControlPoints) {
	Record<uint32_t>(commandBuffer, patchControlPoints,
	                 [](GraphicsContext& g, const uint32_t& v) { g.patch_control_points = v; });
}

#define TESSERA_SET_BOOL(Name, field)                                                                            \
	VKAPI_ATTR void VKAPI_CALL Name(VkCommandBuffer commandBuffer, VkBool32 enable) {                            \
		Record<bool>(commandBuffer, enable != VK_FALSE, [](GraphicsContext& g, const bool& v) { g.field = v; }); \
	}
TESSERA_SET_BOOL(CmdSetDepthTestEnable, depth_test)
TESSERA_SET_BOOL(CmdSetDepthWriteEnable, depth_write)
TESSERA_SET_BOOL(CmdSetDepthBoundsTestEnable, depth_bounds_test)
TESSERA_SET_BOOL(CmdSetStencilTestEnable, stencil_test)
TESSERA_SET_BOOL(CmdSetRasterizerDiscardEnable, rasterizer_discard)
TESSERA_SET_BOOL(CmdSetDepthBiasEnable, depth_bias_enable)
TESSERA_SET_BOOL(CmdSetPrimitiveRestartEnable, primitive_restart)
#undef TESSERA_SET_BOOL

}  // namespace tessera::entry

// VK_EXT_extended_dynamic_state3: the states whose features Tessera offers
// (physical_device_features.cpp); draw.cpp ComposeState reads them where the
// pipeline declares them dynamic.
namespace tessera::entry {

using vk::GraphicsContext;
using vk::Record;

VKAPI_ATTR void VKAPI_CALL CmdSetDepthClampEnableEXT(VkCommandBuffer commandBuffer, VkBool32 depthClampEnable) {
	Record<bool>(commandBuffer, depthClampEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.depth_clamp = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthClipEnableEXT(VkCommandBuffer commandBuffer, VkBool32 depthClipEnable) {
	Record<bool>(commandBuffer, depthClipEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.depth_clip = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthClipNegativeOneToOneEXT(VkCommandBuffer commandBuffer,
                                                              VkBool32 negativeOneToOne) {
	Record<bool>(commandBuffer, negativeOneToOne != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.depth_negative_one_to_one = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetPolygonModeEXT(VkCommandBuffer commandBuffer, VkPolygonMode polygonMode) {
	Record<VkPolygonMode>(commandBuffer, polygonMode,
	                      [](GraphicsContext& g, const VkPolygonMode& v) { g.polygon_mode = v; });
}

// Sample masks cover the 1 or 4 samples Tessera supports: word 0.
VKAPI_ATTR void VKAPI_CALL CmdSetSampleMaskEXT(VkCommandBuffer commandBuffer, VkSampleCountFlagBits,
                                               const VkSampleMask* pSampleMask) {
	Record<uint32_t>(commandBuffer, pSampleMask ? pSampleMask[0] : ~0u,
	                 [](GraphicsContext& g, const uint32_t& v) { g.sample_mask = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetAlphaToCoverageEnableEXT(VkCommandBuffer commandBuffer,
                                                          VkBool32 alphaToCoverageEnable) {
	Record<bool>(commandBuffer, alphaToCoverageEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.alpha_to_coverage = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetAlphaToOneEnableEXT(VkCommandBuffer commandBuffer, VkBool32 alphaToOneEnable) {
	Record<bool>(commandBuffer, alphaToOneEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.alpha_to_one = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetLogicOpEnableEXT(VkCommandBuffer commandBuffer, VkBool32 logicOpEnable) {
	Record<bool>(commandBuffer, logicOpEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.logic_op_enable = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetProvokingVertexModeEXT(VkCommandBuffer commandBuffer,
                                                        VkProvokingVertexModeEXT provokingVertexMode) {
	Record<bool>(commandBuffer, provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT,
	             [](GraphicsContext& g, const bool& v) { g.provoking_vertex_last = v; });
}

// VK_EXT_depth_clamp_control: the range depth clamping clamps to.
VKAPI_ATTR void VKAPI_CALL CmdSetDepthClampRangeEXT(VkCommandBuffer commandBuffer, VkDepthClampModeEXT depthClampMode,
                                                    const VkDepthClampRangeEXT* pDepthClampRange) {
	struct Range {
		bool user;
		float min, max;
	};
	const bool user = depthClampMode == VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT && pDepthClampRange;
	const Range range{user, user ? pDepthClampRange->minDepthClamp : 0.0f,
	                  user ? pDepthClampRange->maxDepthClamp : 1.0f};
	Record<Range>(commandBuffer, range, [](GraphicsContext& g, const Range& r) {
		g.depth_clamp_user_range = r.user;
		g.depth_clamp_min = r.min, g.depth_clamp_max = r.max;
	});
}

// VK_EXT_discard_rectangles: rectangles [first, first + count), and (from
// its specification version 2) the test's enable and mode.
VKAPI_ATTR void VKAPI_CALL CmdSetDiscardRectangleEXT(VkCommandBuffer commandBuffer, uint32_t firstDiscardRectangle,
                                                     uint32_t discardRectangleCount,
                                                     const VkRect2D* pDiscardRectangles) {
	constexpr uint32_t kMax = raster::kMaxDiscardRectangles;
	struct Range {
		uint32_t first, count;
		raster::Rect rectangles[kMax];
	};
	if (firstDiscardRectangle >= kMax) return;
	Range range{firstDiscardRectangle, std::min(discardRectangleCount, kMax - firstDiscardRectangle), {}};
	for (uint32_t i = 0; i < range.count; ++i) {
		const VkRect2D& d = pDiscardRectangles[i];
		range.rectangles[i] = {d.offset.x, d.offset.y, d.extent.width, d.extent.height};
	}
	Record<Range>(commandBuffer, range, [](GraphicsContext& g, const Range& r) {
		for (uint32_t i = 0; i < r.count; ++i) g.discard_rectangles[r.first + i] = r.rectangles[i];
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetDiscardRectangleEnableEXT(VkCommandBuffer commandBuffer,
                                                           VkBool32 discardRectangleEnable) {
	Record<bool>(commandBuffer, discardRectangleEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.discard_rectangle_enable = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetDiscardRectangleModeEXT(VkCommandBuffer commandBuffer,
                                                         VkDiscardRectangleModeEXT discardRectangleMode) {
	Record<bool>(commandBuffer, discardRectangleMode == VK_DISCARD_RECTANGLE_MODE_INCLUSIVE_EXT,
	             [](GraphicsContext& g, const bool& v) { g.discard_inclusive = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetAttachmentFeedbackLoopEnableEXT(VkCommandBuffer commandBuffer,
                                                                 VkImageAspectFlags aspectMask) {
	Record<VkImageAspectFlags>(commandBuffer, aspectMask,
	                           [](GraphicsContext& g, const VkImageAspectFlags& v) { g.feedback_loop_aspects = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetLineStippleEnableEXT(VkCommandBuffer commandBuffer, VkBool32 stippledLineEnable) {
	Record<bool>(commandBuffer, stippledLineEnable != VK_FALSE,
	             [](GraphicsContext& g, const bool& v) { g.line_stipple_enable = v; });
}

VKAPI_ATTR void VKAPI_CALL CmdSetLineRasterizationModeEXT(VkCommandBuffer commandBuffer,
                                                          VkLineRasterizationModeEXT lineRasterizationMode) {
	Record<raster::LineMode>(commandBuffer, LineModeOf(lineRasterizationMode),
	                         [](GraphicsContext& g, const raster::LineMode& v) { g.line_mode = v; });
}

// Per-attachment states: a range of attachments from firstAttachment.
template <typename Apply, typename T>
void RecordAttachments(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count, const T* values) {
	struct Range {
		uint32_t first, count;
		T values[raster::kMaxColorAttachments];
	};
	if (first >= raster::kMaxColorAttachments) return;
	Range range{first, std::min<uint32_t>(count, raster::kMaxColorAttachments - first), {}};
	std::copy(values, values + range.count, range.values);
	Record<Range>(commandBuffer, range, [](GraphicsContext& g, const Range& r) {
		for (uint32_t i = 0; i < r.count; ++i) Apply{}(g, r.first + i, r.values[i]);
	});
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorBlendEnableEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                     uint32_t attachmentCount, const VkBool32* pColorBlendEnables) {
	struct Apply {
		void operator()(GraphicsContext& g, uint32_t a, VkBool32 v) const {
			g.blend_enables = v ? g.blend_enables | (1u << a) : g.blend_enables & ~(1u << a);
		}
	};
	RecordAttachments<Apply>(commandBuffer, firstAttachment, attachmentCount, pColorBlendEnables);
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorBlendEquationEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                       uint32_t attachmentCount,
                                                       const VkColorBlendEquationEXT* pColorBlendEquations) {
	struct Apply {
		void operator()(GraphicsContext& g, uint32_t a, const VkColorBlendEquationEXT& e) const {
			g.blend_equations[a] = {e.srcColorBlendFactor, e.dstColorBlendFactor, e.colorBlendOp,
			                        e.srcAlphaBlendFactor, e.dstAlphaBlendFactor, e.alphaBlendOp};
		}
	};
	RecordAttachments<Apply>(commandBuffer, firstAttachment, attachmentCount, pColorBlendEquations);
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorWriteMaskEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                   uint32_t attachmentCount,
                                                   const VkColorComponentFlags* pColorWriteMasks) {
	struct Apply {
		void operator()(GraphicsContext& g, uint32_t a, VkColorComponentFlags m) const { g.write_masks[a] = m; }
	};
	RecordAttachments<Apply>(commandBuffer, firstAttachment, attachmentCount, pColorWriteMasks);
}

// extendedDynamicState3TessellationDomainOrigin: read by the tessellation
// of draws whose pipeline made it dynamic (vk/draw.cpp, TessellationRun).
VKAPI_ATTR void VKAPI_CALL CmdSetTessellationDomainOriginEXT(VkCommandBuffer commandBuffer,
                                                             VkTessellationDomainOrigin domainOrigin) {
	Record<bool>(commandBuffer, domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT,
	             [](GraphicsContext& g, const bool& v) { g.domain_origin_lower_left = v; });
}

// extendedDynamicState3RasterizationSamples: the sample count draws of a
// pipeline that made it dynamic rasterize with (vk/draw.cpp, ComposeState);
// it must match the attachments' (or, rendering to single-sampled ones,
// the implicit images'), as it must when fixed in the pipeline.
VKAPI_ATTR void VKAPI_CALL CmdSetRasterizationSamplesEXT(VkCommandBuffer commandBuffer,
                                                         VkSampleCountFlagBits rasterizationSamples) {
	Record<uint32_t>(commandBuffer, uint32_t(rasterizationSamples),
	                 [](GraphicsContext& g, const uint32_t& v) { g.rasterization_samples = v; });
}

// extendedDynamicState3RasterizationStream: the vertex stream whose
// primitives draws of a pipeline that made it dynamic rasterize
// (vk/draw.cpp, DrawGeometryStage).
VKAPI_ATTR void VKAPI_CALL CmdSetRasterizationStreamEXT(VkCommandBuffer commandBuffer, uint32_t rasterizationStream) {
	Record<uint32_t>(commandBuffer, rasterizationStream,
	                 [](GraphicsContext& g, const uint32_t& v) { g.rasterization_stream = v; });
}

// extendedDynamicState3ConservativeRasterizationMode and
// ...ExtraPrimitiveOverestimationSize (VK_EXT_conservative_rasterization).
VKAPI_ATTR void VKAPI_CALL CmdSetConservativeRasterizationModeEXT(VkCommandBuffer commandBuffer,
                                                                  VkConservativeRasterizationModeEXT mode) {
	Record<VkConservativeRasterizationModeEXT>(
	    commandBuffer, mode,
	    [](GraphicsContext& g, const VkConservativeRasterizationModeEXT& v) { g.conservative_mode = v; });
}
VKAPI_ATTR void VKAPI_CALL CmdSetExtraPrimitiveOverestimationSizeEXT(VkCommandBuffer commandBuffer, float size) {
	Record<float>(commandBuffer, size, [](GraphicsContext& g, const float& v) { g.extra_overestimation = v; });
}

// The states below belong to features Tessera does not offer
// (SampleLocationsEnable, ColorBlendAdvanced and the NV ones): no valid
// program calls them. They exist so that every command of the extension
// resolves, and record nothing.
VKAPI_ATTR void VKAPI_CALL CmdSetSampleLocationsEnableEXT(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetColorBlendAdvancedEXT(VkCommandBuffer, uint32_t, uint32_t,
                                                       const VkColorBlendAdvancedEXT*) {}
VKAPI_ATTR void VKAPI_CALL CmdSetViewportWScalingEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetViewportSwizzleNV(VkCommandBuffer, uint32_t, uint32_t, const VkViewportSwizzleNV*) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageToColorEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageToColorLocationNV(VkCommandBuffer, uint32_t) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageModulationModeNV(VkCommandBuffer, VkCoverageModulationModeNV) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageModulationTableEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageModulationTableNV(VkCommandBuffer, uint32_t, const float*) {}
VKAPI_ATTR void VKAPI_CALL CmdSetShadingRateImageEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetRepresentativeFragmentTestEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL CmdSetCoverageReductionModeNV(VkCommandBuffer, VkCoverageReductionModeNV) {}

// VK_KHR_dynamic_rendering_local_read: color attachment i takes the
// fragment outputs of Location pColorAttachmentLocations[i]
// (VK_ATTACHMENT_UNUSED: none, and it is not written). Blend state and
// formats stay with the attachment (vk/draw.cpp).
VKAPI_ATTR void VKAPI_CALL CmdSetRenderingAttachmentLocationsKHR(
    VkCommandBuffer commandBuffer, const VkRenderingAttachmentLocationInfoKHR* pLocationInfo) {
	struct Locations {
		uint8_t locations[raster::kMaxColorAttachments];
	} value;
	for (uint32_t a = 0; a < raster::kMaxColorAttachments; ++a) {
		const uint32_t l = a < pLocationInfo->colorAttachmentCount && pLocationInfo->pColorAttachmentLocations
		                       ? pLocationInfo->pColorAttachmentLocations[a]
		                       : a;
		value.locations[a] = l < raster::kMaxColorAttachments ? uint8_t(l) : GraphicsContext::kUnusedLocation;
	}
	Record<Locations>(commandBuffer, value, [](GraphicsContext& g, const Locations& v) {
		std::copy(std::begin(v.locations), std::end(v.locations), g.color_locations);
	});
}

// VK_KHR_dynamic_rendering_local_read: which attachment each
// InputAttachmentIndex names. Tessera reads every input attachment through
// its descriptor, at the fragment's position (spirv/translate_image.cpp),
// which the extension allows for all of them ("implementations will
// unconditionally fetch values from the input attachment descriptor"), so
// the mapping changes nothing here.
VKAPI_ATTR void VKAPI_CALL CmdSetRenderingInputAttachmentIndicesKHR(VkCommandBuffer,
                                                                    const VkRenderingInputAttachmentIndexInfoKHR*) {}

}  // namespace tessera::entry
