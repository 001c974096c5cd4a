// Render pass instances as the commands record them, and the attachment
// operations they share with vkCmdClearAttachments (cmd_render_pass.cpp).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace tessera::runtime {
class ThreadPool;
}

namespace tessera::vk {

class ImageView;
class RenderPass;

// What vkCmdBeginRenderPass recorded: the pass, the views, the clear values.
struct RenderPassInstance {
	const RenderPass* pass;
	const ImageView* const* views;  // one per attachment
	uint32_t view_count;
	const VkClearValue* clear_values;
	uint32_t clear_value_count;
	VkRect2D area;
	uint32_t width, height, layers;
};

// One attachment of vkCmdBeginRendering.
struct RenderingAttachment {
	const ImageView* view;
	const ImageView* resolve;
	VkResolveModeFlagBits resolve_mode;
	VkAttachmentLoadOp load_op;
	VkAttachmentStoreOp store_op;
	VkClearValue clear;
};

// What vkCmdBeginRendering recorded.
struct RenderingInstance {
	uint32_t color_count;
	const RenderingAttachment* colors;
	RenderingAttachment depth, stencil;
	VkRect2D area;
	uint32_t layers;
	uint32_t view_mask;
	bool resuming, suspending;
	// VK_EXT_multisampled_render_to_single_sampled's rasterizationSamples
	// when enabled, else 1 (see render_pass.h, Subpass::implicit_samples).
	VkSampleCountFlagBits implicit_samples;
};

// The implicit multisampled images of the current subpass or rendering
// (VK_EXT_multisampled_render_to_single_sampled), owned by the
// ExecutionContext while they are drawn to.
struct ImplicitAttachments;
struct ImplicitAttachmentsDeleter {
	void operator()(ImplicitAttachments* attachments) const;
};

// Clears the aspects of a view inside a rectangle, on layer_count layers
// from first_layer (counted from the view's base layer); Vulkan 1.3 §19.3
// clear values, packed per format.
// Large clears spread their rows over pool.
void ClearView(runtime::ThreadPool& pool, const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value,
               const VkRect2D& area, uint32_t first_layer, uint32_t layer_count);

// Resolves the samples of src into dst inside a rectangle, on layer_count
// layers from first_layer: color by the §20.7 rules (average, or sample 0
// of integer formats), depth and stencil by `mode` (sample 0, average for
// depth, minimum or maximum).
void ResolveView(runtime::ThreadPool& pool, const ImageView& src, const ImageView& dst, const VkRect2D& area,
                 uint32_t first_layer, uint32_t layer_count, VkImageAspectFlagBits aspect, VkResolveModeFlagBits mode);

}  // namespace tessera::vk
