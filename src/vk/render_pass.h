// VkRenderPass: attachments, subpasses and dependencies as plain data in
// the VkRenderPassCreateInfo2 form (vkCreateRenderPass input is converted),
// plus what the graphics pipeline will ask of them: which subpass first and
// last uses each attachment (where its load and store ops happen).
#pragma once

#include <vector>

#include "vk/object.h"

namespace tessera::vk {

struct AttachmentReference {
	uint32_t attachment = VK_ATTACHMENT_UNUSED;
	VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
	VkImageAspectFlags aspect = 0;  // input attachments: the aspects read
};

struct Attachment {
	VkAttachmentDescriptionFlags flags;
	VkFormat format;
	VkSampleCountFlagBits samples;
	VkAttachmentLoadOp load_op;
	VkAttachmentStoreOp store_op;
	VkAttachmentLoadOp stencil_load_op;
	VkAttachmentStoreOp stencil_store_op;
	VkImageLayout initial_layout;
	VkImageLayout final_layout;
	// Subpasses that use it first and last; VK_SUBPASS_EXTERNAL if none.
	uint32_t first_subpass = VK_SUBPASS_EXTERNAL;
	uint32_t last_subpass = VK_SUBPASS_EXTERNAL;
	// With multiview, load ops apply per view (Vulkan 1.3 §8.1,
	// VkRenderPassMultiviewCreateInfo): first_views[s] holds the views whose
	// first use of the attachment is subpass s. Empty without multiview.
	std::vector<uint32_t> first_views;
};

struct Subpass {
	VkSubpassDescriptionFlags flags;
	VkPipelineBindPoint bind_point;
	uint32_t view_mask;
	std::vector<AttachmentReference> inputs;
	std::vector<AttachmentReference> colors;
	std::vector<AttachmentReference> resolves;  // empty, or one per color attachment
	AttachmentReference depth_stencil;
	AttachmentReference depth_stencil_resolve;  // VkSubpassDescriptionDepthStencilResolve
	VkResolveModeFlagBits depth_resolve_mode = VK_RESOLVE_MODE_NONE;
	VkResolveModeFlagBits stencil_resolve_mode = VK_RESOLVE_MODE_NONE;
	// VK_EXT_multisampled_render_to_single_sampled: the rasterizationSamples
	// of a chained VkMultisampledRenderToSingleSampledInfoEXT that is
	// enabled; its single-sampled attachments are drawn through implicit
	// multisampled images (vk/cmd_render_pass.cpp). 1 otherwise.
	VkSampleCountFlagBits implicit_samples = VK_SAMPLE_COUNT_1_BIT;
	std::vector<uint32_t> preserves;
};

struct SubpassDependency {
	uint32_t src_subpass, dst_subpass;
	VkPipelineStageFlags2 src_stages, dst_stages;
	VkAccessFlags2 src_access, dst_access;
	VkDependencyFlags flags;
	int32_t view_offset;
};

class RenderPass : public Object<RenderPass, VkRenderPass, VK_OBJECT_TYPE_RENDER_PASS> {
public:
	VkResult Init(const VkRenderPassCreateInfo& info);
	VkResult Init(const VkRenderPassCreateInfo2& info);

	const std::vector<Attachment>& Attachments() const { return attachments_; }
	const std::vector<Subpass>& Subpasses() const { return subpasses_; }
	const std::vector<SubpassDependency>& Dependencies() const { return dependencies_; }
	const std::vector<uint32_t>& CorrelatedViewMasks() const { return correlated_view_masks_; }
	// Multiview is on when the subpasses have view masks (all or none do:
	// VUID-VkRenderPassCreateInfo2-viewMask-03058).
	bool Multiview() const { return !subpasses_.empty() && subpasses_[0].view_mask != 0; }

private:
	void FindFirstAndLastUses();

	std::vector<Attachment> attachments_;
	std::vector<Subpass> subpasses_;
	std::vector<SubpassDependency> dependencies_;
	std::vector<uint32_t> correlated_view_masks_;
};

// VkFramebuffer: the views (none for an imageless framebuffer, whose views
// come with vkCmdBeginRenderPass) and the extent.
class Framebuffer : public Object<Framebuffer, VkFramebuffer, VK_OBJECT_TYPE_FRAMEBUFFER> {
public:
	struct ImagelessAttachment {
		VkImageCreateFlags flags;
		VkImageUsageFlags usage;
		uint32_t width, height, layer_count;
		std::vector<VkFormat> view_formats;
	};

	VkResult Init(const VkFramebufferCreateInfo& info);

	bool Imageless() const { return imageless_; }
	const std::vector<class ImageView*>& Views() const { return views_; }
	const std::vector<ImagelessAttachment>& ImagelessAttachments() const { return imageless_attachments_; }
	uint32_t Width() const { return width_; }
	uint32_t Height() const { return height_; }
	uint32_t Layers() const { return layers_; }

private:
	bool imageless_ = false;
	std::vector<class ImageView*> views_;
	std::vector<ImagelessAttachment> imageless_attachments_;
	uint32_t width_ = 0, height_ = 0, layers_ = 0;
};

}  // namespace tessera::vk
