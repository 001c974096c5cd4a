#include "vk/render_pass.h"

#include "texture/format.h"
#include "vk/device.h"
#include "vk/image.h"

namespace tessera::vk {

namespace {

AttachmentReference Reference(const VkAttachmentReference2& r) { return {r.attachment, r.layout, r.aspectMask}; }
AttachmentReference Reference(const VkAttachmentReference& r) { return {r.attachment, r.layout, 0}; }

template <typename T>
std::vector<AttachmentReference> References(const T* refs, uint32_t count) {
	std::vector<AttachmentReference> out;
	out.reserve(count);
	for (uint32_t i = 0; i < count; ++i) out.push_back(Reference(refs[i]));
	return out;
}

// The aspects of a format, for vkCreateRenderPass input attachments that
// name none (Vulkan 1.3 §8.1: all aspects of the attachment are read).
VkImageAspectFlags FormatAspects(VkFormat format) {
	const texture::FormatInfo* info = texture::FindFormat(format);
	if (!info || !info->IsDepthOrStencil()) return VK_IMAGE_ASPECT_COLOR_BIT;
	return (info->HasDepth() ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (info->HasStencil() ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

}  // namespace

VkResult RenderPass::Init(const VkRenderPassCreateInfo& info) {
	auto* multiview =
	    FindInChain<VkRenderPassMultiviewCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
	auto* aspects = FindInChain<VkRenderPassInputAttachmentAspectCreateInfo>(
	    info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO);
	try {
		for (uint32_t i = 0; i < info.attachmentCount; ++i) {
			const VkAttachmentDescription& a = info.pAttachments[i];
			attachments_.push_back({a.flags, a.format, a.samples, a.loadOp, a.storeOp, a.stencilLoadOp,
			                        a.stencilStoreOp, a.initialLayout, a.finalLayout});
		}
		for (uint32_t i = 0; i < info.subpassCount; ++i) {
			const VkSubpassDescription& s = info.pSubpasses[i];
			Subpass subpass{};
			subpass.flags = s.flags;
			subpass.bind_point = s.pipelineBindPoint;
			subpass.view_mask = multiview && i < multiview->subpassCount ? multiview->pViewMasks[i] : 0;
			subpass.inputs = References(s.pInputAttachments, s.inputAttachmentCount);
			for (AttachmentReference& input : subpass.inputs)
				if (input.attachment < attachments_.size())
					input.aspect = FormatAspects(attachments_[input.attachment].format);
			subpass.colors = References(s.pColorAttachments, s.colorAttachmentCount);
			if (s.pResolveAttachments) subpass.resolves = References(s.pResolveAttachments, s.colorAttachmentCount);
			if (s.pDepthStencilAttachment) subpass.depth_stencil = Reference(*s.pDepthStencilAttachment);
			subpass.preserves.assign(s.pPreserveAttachments, s.pPreserveAttachments + s.preserveAttachmentCount);
			subpasses_.push_back(std::move(subpass));
		}
		for (uint32_t i = 0; aspects && i < aspects->aspectReferenceCount; ++i) {
			const VkInputAttachmentAspectReference& r = aspects->pAspectReferences[i];
			if (r.subpass < subpasses_.size() && r.inputAttachmentIndex < subpasses_[r.subpass].inputs.size())
				subpasses_[r.subpass].inputs[r.inputAttachmentIndex].aspect = r.aspectMask;
		}
		for (uint32_t i = 0; i < info.dependencyCount; ++i) {
			const VkSubpassDependency& d = info.pDependencies[i];
			int32_t view_offset = multiview && i < multiview->dependencyCount ? multiview->pViewOffsets[i] : 0;
			dependencies_.push_back({d.srcSubpass, d.dstSubpass, d.srcStageMask, d.dstStageMask, d.srcAccessMask,
			                         d.dstAccessMask, d.dependencyFlags, view_offset});
		}
		if (multiview)
			correlated_view_masks_.assign(multiview->pCorrelationMasks,
			                              multiview->pCorrelationMasks + multiview->correlationMaskCount);
		FindFirstAndLastUses();
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VkResult RenderPass::Init(const VkRenderPassCreateInfo2& info) {
	try {
		for (uint32_t i = 0; i < info.attachmentCount; ++i) {
			const VkAttachmentDescription2& a = info.pAttachments[i];
			attachments_.push_back({a.flags, a.format, a.samples, a.loadOp, a.storeOp, a.stencilLoadOp,
			                        a.stencilStoreOp, a.initialLayout, a.finalLayout});
		}
		for (uint32_t i = 0; i < info.subpassCount; ++i) {
			const VkSubpassDescription2& s = info.pSubpasses[i];
			Subpass subpass{};
			subpass.flags = s.flags;
			subpass.bind_point = s.pipelineBindPoint;
			subpass.view_mask = s.viewMask;
			subpass.inputs = References(s.pInputAttachments, s.inputAttachmentCount);
			subpass.colors = References(s.pColorAttachments, s.colorAttachmentCount);
			if (s.pResolveAttachments) subpass.resolves = References(s.pResolveAttachments, s.colorAttachmentCount);
			if (s.pDepthStencilAttachment) subpass.depth_stencil = Reference(*s.pDepthStencilAttachment);
			if (auto* resolve = FindInChain<VkSubpassDescriptionDepthStencilResolve>(
			        s.pNext, VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE)) {
				if (resolve->pDepthStencilResolveAttachment)
					subpass.depth_stencil_resolve = Reference(*resolve->pDepthStencilResolveAttachment);
				subpass.depth_resolve_mode = resolve->depthResolveMode;
				subpass.stencil_resolve_mode = resolve->stencilResolveMode;
			}
			if (auto* implicit = FindInChain<VkMultisampledRenderToSingleSampledInfoEXT>(
			        s.pNext, VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT);
			    implicit && implicit->multisampledRenderToSingleSampledEnable)
				subpass.implicit_samples = implicit->rasterizationSamples;
			subpass.preserves.assign(s.pPreserveAttachments, s.pPreserveAttachments + s.preserveAttachmentCount);
			subpasses_.push_back(std::move(subpass));
		}
		for (uint32_t i = 0; i < info.dependencyCount; ++i) {
			const VkSubpassDependency2& d = info.pDependencies[i];
			SubpassDependency dependency{d.srcSubpass,    d.dstSubpass,    d.srcStageMask,    d.dstStageMask,
			                             d.srcAccessMask, d.dstAccessMask, d.dependencyFlags, d.viewOffset};
			// Vulkan 1.3 §8.1: a chained VkMemoryBarrier2 replaces the masks.
			if (auto* barrier = FindInChain<VkMemoryBarrier2>(d.pNext, VK_STRUCTURE_TYPE_MEMORY_BARRIER_2)) {
				dependency.src_stages = barrier->srcStageMask;
				dependency.dst_stages = barrier->dstStageMask;
				dependency.src_access = barrier->srcAccessMask;
				dependency.dst_access = barrier->dstAccessMask;
			}
			dependencies_.push_back(dependency);
		}
		correlated_view_masks_.assign(info.pCorrelatedViewMasks,
		                              info.pCorrelatedViewMasks + info.correlatedViewMaskCount);
		FindFirstAndLastUses();
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

void RenderPass::FindFirstAndLastUses() {
	const bool multiview = Multiview();
	std::vector<uint32_t> seen_views(attachments_.size(), 0);  // views used by earlier subpasses
	auto use = [&](const AttachmentReference& r, uint32_t subpass) {
		if (r.attachment == VK_ATTACHMENT_UNUSED || r.attachment >= attachments_.size()) return;
		Attachment& a = attachments_[r.attachment];
		if (a.first_subpass == VK_SUBPASS_EXTERNAL) a.first_subpass = subpass;
		a.last_subpass = subpass;
		if (!multiview) return;
		if (a.first_views.empty()) a.first_views.assign(subpasses_.size(), 0);
		const uint32_t mask = subpasses_[subpass].view_mask;
		a.first_views[subpass] |= mask & ~seen_views[r.attachment];
		seen_views[r.attachment] |= mask;
	};
	for (uint32_t i = 0; i < subpasses_.size(); ++i) {
		const Subpass& s = subpasses_[i];
		for (const AttachmentReference& r : s.inputs) use(r, i);
		for (const AttachmentReference& r : s.colors) use(r, i);
		for (const AttachmentReference& r : s.resolves) use(r, i);
		use(s.depth_stencil, i);
		use(s.depth_stencil_resolve, i);
	}
}

VkResult Framebuffer::Init(const VkFramebufferCreateInfo& info) {
	width_ = info.width;
	height_ = info.height;
	layers_ = info.layers;
	imageless_ = (info.flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0;
	try {
		if (imageless_) {
			auto* attachments = FindInChain<VkFramebufferAttachmentsCreateInfo>(
			    info.pNext, VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO);
			for (uint32_t i = 0; attachments && i < attachments->attachmentImageInfoCount; ++i) {
				const VkFramebufferAttachmentImageInfo& a = attachments->pAttachmentImageInfos[i];
				imageless_attachments_.push_back(
				    {a.flags, a.usage, a.width, a.height, a.layerCount,
				     std::vector<VkFormat>(a.pViewFormats, a.pViewFormats + a.viewFormatCount)});
			}
		} else {
			for (uint32_t i = 0; i < info.attachmentCount; ++i) views_.push_back(ImageView::Cast(info.pAttachments[i]));
		}
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Framebuffer;
using vk::RenderPass;

namespace {

template <typename Object, typename Info, typename Handle>
VkResult Create(VkDevice device, const Info& info, const VkAllocationCallbacks* pAllocator, Handle* out) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* object = vk::New<Object>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = object->Init(info); result != VK_SUCCESS) {
		vk::Delete(allocator, object);
		return result;
	}
	*out = object->ToHandle();
	return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
	return Create<RenderPass>(device, *pCreateInfo, pAllocator, pRenderPass);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
	return Create<RenderPass>(device, *pCreateInfo, pAllocator, pRenderPass);
}

VKAPI_ATTR void VKAPI_CALL DestroyRenderPass(VkDevice device, VkRenderPass renderPass,
                                             const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), RenderPass::Cast(renderPass));
}

VKAPI_ATTR void VKAPI_CALL GetRenderAreaGranularity(VkDevice, VkRenderPass, VkExtent2D* pGranularity) {
	// The rasterizer clips to any render area: no alignment gains anything.
	*pGranularity = {1, 1};
}

// VK_KHR_maintenance5: the same for dynamic rendering.
VKAPI_ATTR void VKAPI_CALL GetRenderingAreaGranularityKHR(VkDevice, const VkRenderingAreaInfoKHR*,
                                                          VkExtent2D* pGranularity) {
	*pGranularity = {1, 1};
}

VKAPI_ATTR VkResult VKAPI_CALL CreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkFramebuffer* pFramebuffer) {
	return Create<Framebuffer>(device, *pCreateInfo, pAllocator, pFramebuffer);
}

VKAPI_ATTR void VKAPI_CALL DestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                              const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Framebuffer::Cast(framebuffer));
}

}  // namespace tessera::entry
