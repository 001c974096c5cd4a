// Render pass instances (Vulkan 1.3 §8): vkCmdBeginRenderPass(2),
// vkCmdNextSubpass(2), vkCmdEndRenderPass(2), and dynamic rendering
// (vkCmdBeginRendering / vkCmdEndRendering). At execution a subpass makes
// its attachments current for draws (GraphicsContext), runs the load ops of
// the attachments it uses first (clears inside the render area) and, at its
// end, the resolves. Store ops need no work: attachments are memory.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

#include "texture/fill.h"
#include "texture/resolve.h"
#include "texture/texel.h"
#include "vk/cmd_render_pass.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/image.h"
#include "vk/parallel_bytes.h"
#include "vk/render_pass.h"
#include "wsi/capture.h"

namespace tessera::vk {

namespace {

void ClearViewRect(runtime::ThreadPool& pool, const ImageView& view, VkImageAspectFlagBits aspect, const VkRect2D& area,
                   uint32_t first_layer, uint32_t layer_count, const uint8_t* element, uint32_t element_size) {
	const Image& image = *view.GetImage();
	assert(!image.Tiled());  // attachments are rows of texels (vk/image.cpp)
	const texture::ImageLayout& layout = image.Layout();
	const uint32_t plane = layout.PlaneOf(aspect);
	const uint32_t mip = view.Range().baseMipLevel;
	const texture::SubresourceLayout& level = layout.Level(plane, mip);
	const uint32_t samples = uint32_t(image.Samples());
	// Clip to the level (valid use keeps the area inside; stay safe anyway).
	int64_t x0 = std::max<int64_t>(area.offset.x, 0), y0 = std::max<int64_t>(area.offset.y, 0);
	int64_t x1 = std::min<int64_t>(int64_t(area.offset.x) + area.extent.width, level.extent.width);
	int64_t y1 = std::min<int64_t>(int64_t(area.offset.y) + area.extent.height, level.extent.height);
	if (x0 >= x1 || y0 >= y1) return;
	const uint32_t view_layers = view.Range().layerCount;
	const uint32_t layers = std::min(layer_count, view_layers > first_layer ? view_layers - first_layer : 0);
	const uint64_t bytes = uint64_t(x1 - x0) * samples * element_size;
	// The rows of all layers, spread over the workers once they hold enough
	// bytes (a render pass's clear of a 1080p target was a tenth of a
	// frame on the queue thread alone).
	const uint64_t height = uint64_t(y1 - y0), min_rows = std::max<uint64_t>(1, kParallelBytesThreshold / bytes);
	runtime::ParallelRanges(pool, layers * height, 1, min_rows, [&](uint64_t begin, uint64_t end) {
		for (uint64_t r = begin; r < end; ++r) {
			const uint32_t l = first_layer + uint32_t(r / height), y = uint32_t(y0 + int64_t(r % height));
			uint8_t* row = image.Data() + view.LayerOffset(plane, l, uint32_t(x0), y);
			texture::FillPattern(row, bytes, element, element_size);
		}
	});
}

}  // namespace

void ClearView(runtime::ThreadPool& pool, const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value,
               const VkRect2D& area, uint32_t first_layer, uint32_t layer_count) {
	const Image& image = *view.GetImage();
	const texture::ImageLayout& layout = image.Layout();
	if (aspects & VK_IMAGE_ASPECT_COLOR_BIT) {
		uint8_t element[32] = {};
		texture::TexelValue texel;
		std::memcpy(&texel, &value.color, sizeof texel);
		texture::PackTexel(*texture::FindFormat(view.Format()), texel, element);
		ClearViewRect(pool, view, VK_IMAGE_ASPECT_COLOR_BIT, area, first_layer, layer_count, element,
		              layout.Level(0, 0).element_size);
	}
	if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && image.FormatInfo().HasDepth()) {
		uint8_t depth[4] = {};
		VkFormat plane_format = texture::AspectFormat(image.Format(), VK_IMAGE_ASPECT_DEPTH_BIT);
		texture::PackDepth(plane_format, value.depthStencil.depth, depth);
		uint32_t plane = layout.PlaneOf(VK_IMAGE_ASPECT_DEPTH_BIT);
		ClearViewRect(pool, view, VK_IMAGE_ASPECT_DEPTH_BIT, area, first_layer, layer_count, depth,
		              layout.Level(plane, 0).element_size);
	}
	if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && image.FormatInfo().HasStencil()) {
		uint8_t stencil = uint8_t(value.depthStencil.stencil);
		ClearViewRect(pool, view, VK_IMAGE_ASPECT_STENCIL_BIT, area, first_layer, layer_count, &stencil, 1);
	}
}

void ResolveView(runtime::ThreadPool& pool, const ImageView& src, const ImageView& dst, const VkRect2D& area,
                 uint32_t first_layer, uint32_t layer_count, VkImageAspectFlagBits aspect) {
	const Image& s = *src.GetImage();
	const Image& d = *dst.GetImage();
	assert(!s.Tiled() && !d.Tiled());  // attachments are rows of texels (vk/image.cpp)
	const uint32_t splane = s.Layout().PlaneOf(aspect), dplane = d.Layout().PlaneOf(aspect);
	const texture::SubresourceLayout& sl = s.Layout().Level(splane, src.Range().baseMipLevel);
	const texture::SubresourceLayout& dl = d.Layout().Level(dplane, dst.Range().baseMipLevel);
	int64_t x0 = std::max<int64_t>(area.offset.x, 0), y0 = std::max<int64_t>(area.offset.y, 0);
	int64_t x1 = std::min<int64_t>({int64_t(area.offset.x) + area.extent.width, sl.extent.width, dl.extent.width});
	int64_t y1 = std::min<int64_t>({int64_t(area.offset.y) + area.extent.height, sl.extent.height, dl.extent.height});
	if (x0 >= x1 || y0 >= y1) return;
	const texture::FormatInfo* format = texture::FindFormat(sl.format);
	for (uint32_t l = first_layer; l < first_layer + layer_count; ++l) {
		texture::ResolveRect rect;
		rect.src = s.Data() + src.LayerOffset(splane, l, uint32_t(x0), uint32_t(y0));
		rect.src_row_pitch = sl.row_pitch;
		rect.dst = d.Data() + dst.LayerOffset(dplane, l, uint32_t(x0), uint32_t(y0));
		rect.dst_row_pitch = dl.row_pitch;
		rect.width = uint32_t(x1 - x0);
		rect.height = uint32_t(y1 - y0);
		rect.samples = uint32_t(s.Samples());
		rect.element_size = sl.element_size;
		if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
			texture::ResolveSamples(pool, *format, rect);
			continue;
		}
		// Depth and stencil: VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, the only mode
		// supportedDepth/StencilResolveModes report (§8.x "Multisample
		// resolve"): sample 0 of each texel.
		for (uint32_t y = 0; y < rect.height; ++y) {
			const uint8_t* src_row = rect.src + y * rect.src_row_pitch;
			uint8_t* dst_row = rect.dst + y * rect.dst_row_pitch;
			for (uint32_t x = 0; x < rect.width; ++x)
				std::memcpy(dst_row + size_t(x) * rect.element_size,
				            src_row + size_t(x) * rect.samples * rect.element_size, rect.element_size);
		}
	}
}

namespace {

// Calls fn(first_layer, layer_count) for the layers a render pass instance
// renders: each view of view_mask with multiview (Vulkan 1.3 §8.1: view i is
// layer i of each attachment), else layers [0, layers).
template <typename Fn>
void ForEachLayerRun(uint32_t view_mask, uint32_t layers, Fn&& fn) {
	if (view_mask == 0) {
		fn(0u, layers);
		return;
	}
	for (uint32_t mask = view_mask; mask; mask &= mask - 1) fn(uint32_t(std::countr_zero(mask)), 1u);
}

const ImageView* ViewOf(const RenderPassInstance& rp, uint32_t attachment) {
	return attachment < rp.view_count ? rp.views[attachment] : nullptr;
}

// Makes subpass `index` current: its attachments for draws, and the load
// ops of the attachments it is the first to use (§8.4: inside the render
// area only). With multiview the first use is per view: a subpass clears the
// views of an attachment that no earlier subpass rendered.
void BeginSubpass(ExecutionContext& context) {
	const RenderPassInstance& rp = *context.render_pass;
	const Subpass& subpass = rp.pass->Subpasses()[context.subpass];
	GraphicsContext& g = context.graphics;
	g.rendering = true;
	g.width = rp.width;
	g.height = rp.height;
	g.layers = rp.layers;
	g.view_mask = subpass.view_mask;
	g.color_count = uint32_t(std::min<size_t>(subpass.colors.size(), raster::kMaxColorAttachments));
	for (uint32_t i = 0; i < raster::kMaxColorAttachments; ++i)
		g.colors[i] = i < g.color_count ? ViewOf(rp, subpass.colors[i].attachment) : nullptr;
	const ImageView* ds = ViewOf(rp, subpass.depth_stencil.attachment);
	const texture::FormatInfo* ds_format = ds ? texture::FindFormat(ds->Format()) : nullptr;
	g.depth = ds_format && ds_format->HasDepth() ? ds : nullptr;
	g.stencil = ds_format && ds_format->HasStencil() ? ds : nullptr;

	const std::vector<Attachment>& attachments = rp.pass->Attachments();
	for (uint32_t a = 0; a < attachments.size(); ++a) {
		const Attachment& att = attachments[a];
		const ImageView* view = ViewOf(rp, a);
		const bool multiview = !att.first_views.empty();
		const uint32_t first_views = multiview ? att.first_views[context.subpass] : 0;
		if ((multiview ? first_views == 0 : att.first_subpass != context.subpass) || !view || a >= rp.clear_value_count)
			continue;
		const texture::FormatInfo* format = texture::FindFormat(att.format);
		if (!format) continue;
		VkImageAspectFlags clear = 0;
		if (format->IsColor() && att.load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) clear |= VK_IMAGE_ASPECT_COLOR_BIT;
		if (format->HasDepth() && att.load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) clear |= VK_IMAGE_ASPECT_DEPTH_BIT;
		if (format->HasStencil() && att.stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
			clear |= VK_IMAGE_ASPECT_STENCIL_BIT;
		if (!clear) continue;
		ForEachLayerRun(first_views, rp.layers, [&](uint32_t first, uint32_t count) {
			ClearView(context.device->ThreadPool(), *view, clear, rp.clear_values[a], rp.area, first, count);
		});
	}
}

// The end of a subpass: its resolve attachments (§8.6 "Render Pass Store
// Operations" and multisample resolve).
void EndSubpass(ExecutionContext& context) {
	const RenderPassInstance& rp = *context.render_pass;
	const Subpass& subpass = rp.pass->Subpasses()[context.subpass];
	auto resolve = [&](const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect) {
		ForEachLayerRun(subpass.view_mask, rp.layers, [&](uint32_t first, uint32_t count) {
			ResolveView(context.device->ThreadPool(), src, dst, rp.area, first, count, aspect);
		});
	};
	for (size_t i = 0; i < subpass.resolves.size() && i < subpass.colors.size(); ++i) {
		const ImageView* src = ViewOf(rp, subpass.colors[i].attachment);
		const ImageView* dst = ViewOf(rp, subpass.resolves[i].attachment);
		if (src && dst) resolve(*src, *dst, VK_IMAGE_ASPECT_COLOR_BIT);
	}
	// VkSubpassDescriptionDepthStencilResolve: each aspect with a mode.
	const ImageView* ds = ViewOf(rp, subpass.depth_stencil.attachment);
	const ImageView* ds_resolve = ViewOf(rp, subpass.depth_stencil_resolve.attachment);
	if (ds && ds_resolve) {
		const texture::FormatInfo* format = texture::FindFormat(ds->Format());
		if (format && format->HasDepth() && subpass.depth_resolve_mode != VK_RESOLVE_MODE_NONE)
			resolve(*ds, *ds_resolve, VK_IMAGE_ASPECT_DEPTH_BIT);
		if (format && format->HasStencil() && subpass.stencil_resolve_mode != VK_RESOLVE_MODE_NONE)
			resolve(*ds, *ds_resolve, VK_IMAGE_ASPECT_STENCIL_BIT);
	}
}

struct BeginRenderPassCommand : Command {
	RenderPassInstance instance;
	void Execute(ExecutionContext& context) const {
		context.render_pass = &instance;
		context.subpass = 0;
		BeginSubpass(context);
	}
};

struct NextSubpassCommand : Command {
	void Execute(ExecutionContext& context) const {
		if (!context.render_pass) return;
		EndSubpass(context);
		++context.subpass;
		BeginSubpass(context);
	}
};

struct EndRenderPassCommand : Command {
	void Execute(ExecutionContext& context) const {
		if (!context.render_pass) return;
		EndSubpass(context);
		if (wsi::PassCapture* capture = context.device->PassCapture())
			capture->EndOfPass(context.render_pass->views, context.render_pass->view_count);
		context.render_pass = nullptr;
		context.graphics.rendering = false;
	}
};

void RecordBeginRenderPass(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo& info) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const RenderPass* pass = RenderPass::Cast(info.renderPass);
	const Framebuffer* fb = Framebuffer::Cast(info.framebuffer);
	const uint32_t count = uint32_t(pass->Attachments().size());
	const ImageView** views = cb->AllocateArray<const ImageView*>(count);
	if (count && !views) return;
	// Vulkan 1.3 §8.4: an imageless framebuffer takes its views from
	// VkRenderPassAttachmentBeginInfo.
	auto* begin_views =
	    FindInChain<VkRenderPassAttachmentBeginInfo>(info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO);
	for (uint32_t i = 0; i < count; ++i) {
		if (fb->Imageless())
			views[i] = begin_views && i < begin_views->attachmentCount ? ImageView::Cast(begin_views->pAttachments[i])
			                                                           : nullptr;
		else
			views[i] = i < fb->Views().size() ? fb->Views()[i] : nullptr;
	}
	const VkClearValue* clears = cb->Copy(info.pClearValues, info.clearValueCount);
	if (auto* cmd = cb->Add<BeginRenderPassCommand>()) {
		cmd->instance = {
		    pass,        views,        count,       clears, clears ? info.clearValueCount : 0, info.renderArea,
		    fb->Width(), fb->Height(), fb->Layers()};
	}
}

struct BeginRenderingCommand : Command {
	RenderingInstance instance;
	void Execute(ExecutionContext& context) const {
		const RenderingInstance& r = instance;
		GraphicsContext& g = context.graphics;
		g.rendering = true;
		g.color_count = std::min(r.color_count, raster::kMaxColorAttachments);
		for (uint32_t i = 0; i < raster::kMaxColorAttachments; ++i)
			g.colors[i] = i < g.color_count ? r.colors[i].view : nullptr;
		g.depth = r.depth.view;
		g.stencil = r.stencil.view;
		g.width = uint32_t(r.area.offset.x) + r.area.extent.width;
		g.height = uint32_t(r.area.offset.y) + r.area.extent.height;
		g.layers = r.layers;
		g.view_mask = r.view_mask;
		context.rendering = &r;
		// A render pass instance that resumes a suspended one does not load.
		if (r.resuming) return;
		auto load = [&](const RenderingAttachment& a, VkImageAspectFlags aspect) {
			if (!a.view || a.load_op != VK_ATTACHMENT_LOAD_OP_CLEAR) return;
			ForEachLayerRun(r.view_mask, r.layers, [&](uint32_t first, uint32_t count) {
				ClearView(context.device->ThreadPool(), *a.view, aspect, a.clear, r.area, first, count);
			});
		};
		for (uint32_t i = 0; i < g.color_count; ++i) load(r.colors[i], VK_IMAGE_ASPECT_COLOR_BIT);
		load(r.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
		load(r.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
	}
};

struct EndRenderingCommand : Command {
	void Execute(ExecutionContext& context) const {
		context.graphics.rendering = false;
		const RenderingInstance* begin = context.rendering;
		context.rendering = nullptr;
		if (!begin || begin->suspending) return;
		auto resolve = [&](const RenderingAttachment& a, VkImageAspectFlagBits aspect) {
			if (!a.view || !a.resolve || a.resolve_mode == VK_RESOLVE_MODE_NONE) return;
			ForEachLayerRun(begin->view_mask, begin->layers, [&](uint32_t first, uint32_t count) {
				ResolveView(context.device->ThreadPool(), *a.view, *a.resolve, begin->area, first, count, aspect);
			});
		};
		for (uint32_t i = 0; i < begin->color_count; ++i) resolve(begin->colors[i], VK_IMAGE_ASPECT_COLOR_BIT);
		// §8.x: pDepthAttachment and pStencilAttachment resolve their aspect.
		resolve(begin->depth, VK_IMAGE_ASPECT_DEPTH_BIT);
		resolve(begin->stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
		if (wsi::PassCapture* capture = context.device->PassCapture()) {
			// An attachment that resolves is captured as its resolve image.
			const ImageView* views[raster::kMaxColorAttachments] = {};
			const uint32_t count = std::min(begin->color_count, raster::kMaxColorAttachments);
			for (uint32_t i = 0; i < count; ++i) {
				const RenderingAttachment& a = begin->colors[i];
				views[i] = a.resolve && a.resolve_mode != VK_RESOLVE_MODE_NONE ? a.resolve : a.view;
			}
			capture->EndOfPass(views, count);
		}
	}
};

RenderingAttachment Convert(const VkRenderingAttachmentInfo* info) {
	RenderingAttachment a{};
	if (!info) return a;
	a.view = ImageView::Cast(info->imageView);
	a.resolve = ImageView::Cast(info->resolveImageView);
	a.resolve_mode = info->resolveMode;
	a.load_op = info->loadOp;
	a.clear = info->clearValue;
	return a;
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using namespace tessera::vk;

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pBegin,
                                              VkSubpassContents) {
	RecordBeginRenderPass(commandBuffer, *pBegin);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pBegin,
                                               const VkSubpassBeginInfo*) {
	RecordBeginRenderPass(commandBuffer, *pBegin);
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents) {
	CommandBuffer::Cast(commandBuffer)->Add<NextSubpassCommand>();
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo*,
                                           const VkSubpassEndInfo*) {
	CommandBuffer::Cast(commandBuffer)->Add<NextSubpassCommand>();
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer commandBuffer) {
	CommandBuffer::Cast(commandBuffer)->Add<EndRenderPassCommand>();
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer commandBuffer, const VkSubpassEndInfo*) {
	CommandBuffer::Cast(commandBuffer)->Add<EndRenderPassCommand>();
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* pRenderingInfo) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	const VkRenderingInfo& info = *pRenderingInfo;
	auto* colors = cb->AllocateArray<RenderingAttachment>(info.colorAttachmentCount);
	if (info.colorAttachmentCount && !colors) return;
	for (uint32_t i = 0; i < info.colorAttachmentCount; ++i) colors[i] = Convert(&info.pColorAttachments[i]);
	if (auto* command = cb->Add<BeginRenderingCommand>()) {
		RenderingInstance* cmd = &command->instance;
		cmd->color_count = info.colorAttachmentCount;
		cmd->colors = colors;
		cmd->depth = Convert(info.pDepthAttachment);
		cmd->stencil = Convert(info.pStencilAttachment);
		cmd->area = info.renderArea;
		cmd->layers = info.layerCount;
		cmd->view_mask = info.viewMask;
		cmd->resuming = info.flags & VK_RENDERING_RESUMING_BIT;
		cmd->suspending = info.flags & VK_RENDERING_SUSPENDING_BIT;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer commandBuffer) {
	CommandBuffer::Cast(commandBuffer)->Add<EndRenderingCommand>();
}

}  // namespace tessera::entry
