// Render pass instances (Vulkan 1.3 §8): vkCmdBeginRenderPass(2),
// vkCmdNextSubpass(2), vkCmdEndRenderPass(2), and dynamic rendering
// (vkCmdBeginRendering / vkCmdEndRendering). At execution a subpass makes
// its attachments current for draws (GraphicsContext), runs the load ops of
// the attachments it uses first (clears inside the render area) and, at its
// end, the resolves. Store ops need no work: attachments are memory.
//
// VK_EXT_multisampled_render_to_single_sampled (Vulkan 1.3 §8.1
// "multisampled-render-to-single-sampled"): in a subpass or rendering that
// enables it, each single-sampled color or depth/stencil attachment is drawn
// through an implicit image of rasterizationSamples samples, made when the
// subpass begins and freed when it ends. A load op of LOAD replicates each
// pixel into every sample; a store op of STORE resolves the samples back
// (color by the format's rule, §20.7; depth and stencil by the subpass's
// resolve modes). The spec lets an implementation split a subpass this way
// anywhere, so a later subpass or a resumed rendering starts from the
// resolved pixels, and a suspended one resolves.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "texture/fill.h"
#include "texture/resolve.h"
#include "texture/texel.h"
#include "vk/cmd_render_pass.h"
#include "vk/command_buffer.h"
#include "vk/device.h"
#include "vk/device_memory.h"
#include "vk/image.h"
#include "vk/parallel_bytes.h"
#include "vk/render_pass.h"
#include "wsi/capture.h"

namespace tessera::vk {

namespace {

void ClearViewRect(runtime::ThreadPool& pool, const ImageView& view, VkImageAspectFlagBits aspect, const VkRect2D& area,
                   uint32_t first_layer, uint32_t layer_count, const uint8_t* element, uint32_t element_size) {
	const Image& image = *view.GetImage();
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
	// (A tiled image's row is a run in each tile it crosses: partially
	// resident images, texture::SparseBlock.)
	runtime::ParallelRanges(pool, layers * height, 1, min_rows, [&](uint64_t begin, uint64_t end) {
		for (uint64_t r = begin; r < end; ++r) {
			const uint32_t l = first_layer + uint32_t(r / height), y = uint32_t(y0 + int64_t(r % height));
			for (uint32_t x = uint32_t(x0), n; x < uint32_t(x1); x += n) {
				n = std::min(uint32_t(x1) - x, level.RunFrom(x));
				uint8_t* run = image.Data() + view.LayerOffset(plane, l, x, y);
				texture::FillPattern(run, uint64_t(n) * samples * element_size, element, element_size);
			}
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

namespace {

// The levels of one aspect of two attachment views (each view's base level)
// and the part of a render area inside both.
struct AspectPair {
	uint32_t src_plane, dst_plane;
	const texture::SubresourceLayout* src_level;
	const texture::SubresourceLayout* dst_level;
	int64_t x0, y0, x1, y1;
	bool Empty() const { return x0 >= x1 || y0 >= y1; }
};

AspectPair PairOf(const ImageView& src, const ImageView& dst, const VkRect2D& area, VkImageAspectFlagBits aspect) {
	const Image& s = *src.GetImage();
	const Image& d = *dst.GetImage();
	// (Either may be tiled where single-sampled: a partially resident image.)
	AspectPair p;
	p.src_plane = s.Layout().PlaneOf(aspect);
	p.dst_plane = d.Layout().PlaneOf(aspect);
	p.src_level = &s.Layout().Level(p.src_plane, src.Range().baseMipLevel);
	p.dst_level = &d.Layout().Level(p.dst_plane, dst.Range().baseMipLevel);
	p.x0 = std::max<int64_t>(area.offset.x, 0);
	p.y0 = std::max<int64_t>(area.offset.y, 0);
	p.x1 = std::min<int64_t>(
	    {int64_t(area.offset.x) + area.extent.width, p.src_level->extent.width, p.dst_level->extent.width});
	p.y1 = std::min<int64_t>(
	    {int64_t(area.offset.y) + area.extent.height, p.src_level->extent.height, p.dst_level->extent.height});
	return p;
}

// One texel's depth or stencil samples reduced by `mode` (Vulkan 1.3 §8.x,
// VkResolveModeFlagBits): sample 0, the samples' minimum or maximum (the
// bytes of that sample), or, for depth, their average, packed again.
void ResolveDepthStencilTexel(const uint8_t* samples, uint32_t count, uint32_t size, VkFormat plane_format,
                              bool stencil, VkResolveModeFlagBits mode, uint8_t* out) {
	auto value = [&](uint32_t i) {
		return stencil ? float(samples[i]) : texture::UnpackDepth(plane_format, samples + size_t(i) * size);
	};
	uint32_t pick = 0;
	switch (mode) {
	case VK_RESOLVE_MODE_AVERAGE_BIT:
		if (!stencil) {
			double sum = 0;
			for (uint32_t i = 0; i < count; ++i) sum += value(i);
			texture::PackDepth(plane_format, float(sum / count), out);
			return;
		}
		break;  // not a stencil mode (VUID-VkSubpassDescriptionDepthStencilResolve-stencilResolveMode-03184)
	case VK_RESOLVE_MODE_MIN_BIT:
		for (uint32_t i = 1; i < count; ++i)
			if (value(i) < value(pick)) pick = i;
		break;
	case VK_RESOLVE_MODE_MAX_BIT:
		for (uint32_t i = 1; i < count; ++i)
			if (value(i) > value(pick)) pick = i;
		break;
	default: break;
	}
	std::memcpy(out, samples + size_t(pick) * size, size);
}

}  // namespace

void ResolveView(runtime::ThreadPool& pool, const ImageView& src, const ImageView& dst, const VkRect2D& area,
                 uint32_t first_layer, uint32_t layer_count, VkImageAspectFlagBits aspect, VkResolveModeFlagBits mode) {
	const Image& s = *src.GetImage();
	const Image& d = *dst.GetImage();
	const AspectPair pair = PairOf(src, dst, area, aspect);
	if (pair.Empty()) return;
	const uint32_t splane = pair.src_plane, dplane = pair.dst_plane;
	const texture::SubresourceLayout &sl = *pair.src_level, &dl = *pair.dst_level;
	const int64_t x0 = pair.x0, y0 = pair.y0, x1 = pair.x1, y1 = pair.y1;
	const texture::FormatInfo* format = texture::FindFormat(sl.format);
	for (uint32_t l = first_layer; l < first_layer + layer_count; ++l) {
		texture::ResolveRect rect;
		rect.samples = uint32_t(s.Samples());
		rect.element_size = sl.element_size;
		rect.src_row_pitch = sl.row_pitch;
		if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
			// A single-sampled destination may be tiled (a partially
			// resident image): rectangles of rows, one per tile.
			texture::ForEachRowRect(dl, uint32_t(x0), uint32_t(y0), uint32_t(x1), uint32_t(y1),
			                        [&](uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint64_t row_pitch) {
				                        rect.src = s.Data() + src.LayerOffset(splane, l, x, y);
				                        rect.dst = d.Data() + dst.LayerOffset(dplane, l, x, y);
				                        rect.dst_row_pitch = row_pitch;
				                        rect.width = width;
				                        rect.height = height;
				                        texture::ResolveSamples(pool, *format, rect);
			                        });
			continue;
		}
		rect.src = s.Data() + src.LayerOffset(splane, l, uint32_t(x0), uint32_t(y0));
		rect.dst = d.Data() + dst.LayerOffset(dplane, l, uint32_t(x0), uint32_t(y0));
		rect.dst_row_pitch = dl.row_pitch;
		rect.width = uint32_t(x1 - x0);
		rect.height = uint32_t(y1 - y0);
		// Depth and stencil: by the mode, per texel (supportedDepthResolveModes
		// and supportedStencilResolveModes, vk/physical_device_properties.cpp).
		const uint32_t texel_bytes = rect.samples * rect.element_size;
		const bool stencil = aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
		for (uint32_t y = 0; y < rect.height; ++y) {
			const uint8_t* src_row = rect.src + y * rect.src_row_pitch;
			uint8_t* dst_row = rect.dst + y * rect.dst_row_pitch;
			for (uint32_t x = 0; x < rect.width; ++x)
				ResolveDepthStencilTexel(src_row + size_t(x) * texel_bytes, rect.samples, rect.element_size, sl.format,
				                         stencil, mode, dst_row + size_t(x) * rect.element_size);
		}
	}
}

// The implicit images of VK_EXT_multisampled_render_to_single_sampled.
struct ImplicitAttachment {
	const ImageView* attachment;  // the single-sampled view drawn through `view`
	uint32_t index;               // render passes: the attachment's index
	std::unique_ptr<Image> image;
	std::unique_ptr<DeviceMemory> memory;
	std::unique_ptr<ImageView> view;
};

struct ImplicitAttachments {
	std::vector<ImplicitAttachment> list;
};

void ImplicitAttachmentsDeleter::operator()(ImplicitAttachments* attachments) const { delete attachments; }

namespace {

// Runs fn(aspect) for each aspect of a format.
template <typename Fn>
void ForEachAspect(const texture::FormatInfo& format, Fn&& fn) {
	if (format.IsColor()) fn(VK_IMAGE_ASPECT_COLOR_BIT);
	if (format.HasDepth()) fn(VK_IMAGE_ASPECT_DEPTH_BIT);
	if (format.HasStencil()) fn(VK_IMAGE_ASPECT_STENCIL_BIT);
}

// Copies each texel of the single-sampled `src` into every sample of `dst`
// inside a rectangle: the load of an implicit multisampled image.
void ReplicateView(runtime::ThreadPool& pool, const ImageView& src, const ImageView& dst, const VkRect2D& area,
                   uint32_t first_layer, uint32_t layer_count, VkImageAspectFlagBits aspect) {
	const Image& s = *src.GetImage();
	const Image& d = *dst.GetImage();
	const AspectPair pair = PairOf(src, dst, area, aspect);
	if (pair.Empty()) return;
	const uint32_t splane = pair.src_plane, dplane = pair.dst_plane;
	const int64_t x0 = pair.x0, y0 = pair.y0;
	const uint32_t samples = uint32_t(d.Samples()), size = pair.src_level->element_size;
	const uint64_t height = uint64_t(pair.y1 - y0), width = uint64_t(pair.x1 - x0);
	const uint64_t min_rows = std::max<uint64_t>(1, kParallelBytesThreshold / (width * samples * size));
	runtime::ParallelRanges(pool, layer_count * height, 1, min_rows, [&](uint64_t begin, uint64_t end) {
		for (uint64_t r = begin; r < end; ++r) {
			const uint32_t l = first_layer + uint32_t(r / height), y = uint32_t(y0 + int64_t(r % height));
			// (The single-sampled source may be tiled: texel by texel, then.)
			const bool tiled = pair.src_level->Tiled();
			const uint8_t* in = s.Data() + src.LayerOffset(splane, l, uint32_t(x0), y);
			uint8_t* out = d.Data() + dst.LayerOffset(dplane, l, uint32_t(x0), y);
			for (uint64_t x = 0; x < width; ++x, in += size) {
				if (tiled) in = s.Data() + src.LayerOffset(splane, l, uint32_t(x0 + int64_t(x)), y);
				for (uint32_t i = 0; i < samples; ++i, out += size) std::memcpy(out, in, size);
			}
		}
	});
}

// The implicit image drawn to in place of `attachment`: made on first use
// in the subpass (sized to the view's level, one layer per view layer).
// Null when there is no memory for it; the caller then leaves the attachment
// out of the draws, which cannot write a single-sampled image as if it had
// more samples.
const ImageView* MakeImplicit(ExecutionContext& context, const ImageView* attachment, uint32_t index,
                              VkSampleCountFlagBits samples) try {
	if (!context.implicit_attachments) context.implicit_attachments.reset(new ImplicitAttachments);
	for (const ImplicitAttachment& a : context.implicit_attachments->list)
		if (a.attachment == attachment) return a.view.get();
	const Image& image = *attachment->GetImage();
	const texture::FormatInfo& format = image.FormatInfo();
	const VkExtent3D extent = image.Layout().Level(0, attachment->Range().baseMipLevel).extent;
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = format.IsDepthOrStencil() ? image.Format() : attachment->Format();
	info.extent = {extent.width, extent.height, 1};
	info.mipLevels = 1;
	info.arrayLayers = std::max(1u, attachment->Range().layerCount);
	info.samples = samples;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage =
	    format.IsDepthOrStencil() ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
	ImplicitAttachment a{attachment, index, std::make_unique<Image>(info), nullptr, nullptr};
	if (!a.image->Init()) return nullptr;
	a.memory = std::make_unique<DeviceMemory>(context.device, a.image->Requirements().size);
	VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	allocate.allocationSize = a.image->Requirements().size;
	if (a.memory->Init(allocate) != VK_SUCCESS) throw std::bad_alloc();
	a.image->Bind(a.memory.get(), 0);
	VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	view.image = a.image->ToHandle();
	view.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	view.format = info.format;
	VkImageAspectFlags aspects = 0;
	ForEachAspect(format, [&](VkImageAspectFlagBits aspect) { aspects |= aspect; });
	view.subresourceRange = {aspects, 0, 1, 0, info.arrayLayers};
	a.view = std::make_unique<ImageView>(view);
	context.implicit_attachments->list.push_back(std::move(a));
	return context.implicit_attachments->list.back().view.get();
} catch (const std::bad_alloc&) {
	context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_IMAGE_VIEW,
	                       uint64_t(const_cast<ImageView*>(attachment)->ToHandle()),
	                       "multisampled render to single-sampled: out of memory for the implicit %u-sample image "
	                       "of an attachment; draws leave the attachment alone",
	                       uint32_t(samples));
	return nullptr;
}

// Points the current attachments that are single-sampled at implicit
// images of `samples` samples (none when samples is 1).
void UseImplicitAttachments(ExecutionContext& context, VkSampleCountFlagBits samples, const uint32_t* color_indices,
                            uint32_t ds_index) {
	if (samples == VK_SAMPLE_COUNT_1_BIT) return;
	GraphicsContext& g = context.graphics;
	auto implicit = [&](const ImageView* view, uint32_t index) {
		if (!view || view->GetImage()->Samples() != VK_SAMPLE_COUNT_1_BIT) return view;
		return MakeImplicit(context, view, index, samples);
	};
	for (uint32_t i = 0; i < g.color_count; ++i)
		g.colors[i] = implicit(g.colors[i], color_indices ? color_indices[i] : VK_ATTACHMENT_UNUSED);
	const ImageView* depth = g.depth;
	g.depth = implicit(g.depth, ds_index);
	g.stencil = g.stencil == depth && depth ? g.depth : implicit(g.stencil, ds_index);
}

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
	g.ResetColorLocations();
	g.color_count = uint32_t(std::min<size_t>(subpass.colors.size(), raster::kMaxColorAttachments));
	uint32_t color_indices[raster::kMaxColorAttachments];
	for (uint32_t i = 0; i < raster::kMaxColorAttachments; ++i) {
		color_indices[i] = i < g.color_count ? subpass.colors[i].attachment : VK_ATTACHMENT_UNUSED;
		g.colors[i] = ViewOf(rp, color_indices[i]);
	}
	const ImageView* ds = ViewOf(rp, subpass.depth_stencil.attachment);
	const texture::FormatInfo* ds_format = ds ? texture::FindFormat(ds->Format()) : nullptr;
	g.depth = ds_format && ds_format->HasDepth() ? ds : nullptr;
	g.stencil = ds_format && ds_format->HasStencil() ? ds : nullptr;
	UseImplicitAttachments(context, subpass.implicit_samples, color_indices, subpass.depth_stencil.attachment);

	const std::vector<Attachment>& attachments = rp.pass->Attachments();
	runtime::ThreadPool& pool = context.device->ThreadPool();
	// The load op of aspect `aspect` of attachment a on the views of `run`
	// that use it first here; for an implicit image, the other views start
	// from what earlier subpasses stored.
	auto load = [&](uint32_t a, const ImageView& view, const ImageView* implicit, VkImageAspectFlagBits aspect) {
		const Attachment& att = attachments[a];
		const bool multiview = !att.first_views.empty();
		const VkAttachmentLoadOp op = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? att.stencil_load_op : att.load_op;
		ForEachLayerRun(
		    implicit    ? subpass.view_mask
		    : multiview ? att.first_views[context.subpass]
		                : 0,
		    rp.layers, [&](uint32_t first, uint32_t count) {
			    const bool first_use =
			        multiview ? (att.first_views[context.subpass] >> first) & 1 : att.first_subpass == context.subpass;
			    if (first_use && op == VK_ATTACHMENT_LOAD_OP_CLEAR && a < rp.clear_value_count)
				    ClearView(pool, implicit ? *implicit : view, aspect, rp.clear_values[a], rp.area, first, count);
			    else if (implicit && (!first_use || op == VK_ATTACHMENT_LOAD_OP_LOAD))
				    ReplicateView(pool, view, *implicit, rp.area, first, count, aspect);
		    });
	};
	for (uint32_t a = 0; a < attachments.size(); ++a) {
		const ImageView* view = ViewOf(rp, a);
		const texture::FormatInfo* format = texture::FindFormat(attachments[a].format);
		if (!view || !format) continue;
		const ImageView* implicit = nullptr;
		if (context.implicit_attachments)
			for (const ImplicitAttachment& i : context.implicit_attachments->list)
				if (i.index == a) implicit = i.view.get();
		const bool multiview = !attachments[a].first_views.empty();
		const bool first_use = multiview ? attachments[a].first_views[context.subpass] != 0
		                                 : attachments[a].first_subpass == context.subpass;
		if (first_use || implicit)
			ForEachAspect(*format, [&](VkImageAspectFlagBits aspect) { load(a, *view, implicit, aspect); });
	}
}

// The end of a subpass: its resolve attachments (§8.6 "Render Pass Store
// Operations" and multisample resolve), and the resolve of its implicit
// images into their attachments where the store op keeps them or a later
// subpass uses them.
void EndSubpass(ExecutionContext& context) {
	const RenderPassInstance& rp = *context.render_pass;
	const Subpass& subpass = rp.pass->Subpasses()[context.subpass];
	auto resolve = [&](const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect) {
		const VkResolveModeFlagBits mode = aspect == VK_IMAGE_ASPECT_DEPTH_BIT     ? subpass.depth_resolve_mode
		                                   : aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? subpass.stencil_resolve_mode
		                                                                           : VK_RESOLVE_MODE_AVERAGE_BIT;
		ForEachLayerRun(subpass.view_mask, rp.layers, [&](uint32_t first, uint32_t count) {
			ResolveView(context.device->ThreadPool(), src, dst, rp.area, first, count, aspect, mode);
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
	if (!context.implicit_attachments) return;
	for (const ImplicitAttachment& i : context.implicit_attachments->list) {
		const Attachment& att = rp.pass->Attachments()[i.index];
		const bool later_use = att.last_subpass != context.subpass;
		ForEachAspect(i.image->FormatInfo(), [&](VkImageAspectFlagBits aspect) {
			const VkAttachmentStoreOp op = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? att.stencil_store_op : att.store_op;
			const VkResolveModeFlagBits mode = aspect == VK_IMAGE_ASPECT_DEPTH_BIT     ? subpass.depth_resolve_mode
			                                   : aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? subpass.stencil_resolve_mode
			                                                                           : VK_RESOLVE_MODE_AVERAGE_BIT;
			if ((later_use || op == VK_ATTACHMENT_STORE_OP_STORE) && mode != VK_RESOLVE_MODE_NONE)
				resolve(*i.view, *i.attachment, aspect);
		});
	}
	context.implicit_attachments.reset();
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
		g.ResetColorLocations();
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
		UseImplicitAttachments(context, r.implicit_samples, nullptr, VK_ATTACHMENT_UNUSED);
		// A render pass instance that resumes a suspended one does not load;
		// implicit images start from what the suspended one resolved.
		auto load = [&](const RenderingAttachment& a, const ImageView* target, VkImageAspectFlagBits aspect) {
			if (!a.view || !target) return;
			const bool implicit = target != a.view;
			ForEachLayerRun(r.view_mask, r.layers, [&](uint32_t first, uint32_t count) {
				if (!r.resuming && a.load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
					ClearView(context.device->ThreadPool(), *target, aspect, a.clear, r.area, first, count);
				else if (implicit && (r.resuming || a.load_op == VK_ATTACHMENT_LOAD_OP_LOAD))
					ReplicateView(context.device->ThreadPool(), *a.view, *target, r.area, first, count, aspect);
			});
		};
		for (uint32_t i = 0; i < g.color_count; ++i) load(r.colors[i], g.colors[i], VK_IMAGE_ASPECT_COLOR_BIT);
		load(r.depth, g.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
		load(r.stencil, g.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
	}
};

struct EndRenderingCommand : Command {
	void Execute(ExecutionContext& context) const {
		context.graphics.rendering = false;
		const RenderingInstance* begin = context.rendering;
		context.rendering = nullptr;
		if (!begin) return;
		auto resolve = [&](const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect,
		                   VkResolveModeFlagBits mode) {
			ForEachLayerRun(begin->view_mask, begin->layers, [&](uint32_t first, uint32_t count) {
				ResolveView(context.device->ThreadPool(), src, dst, begin->area, first, count, aspect, mode);
			});
		};
		// Implicit images resolve into their attachments when stored or
		// suspended: color by the format's rule, depth and stencil by their
		// resolve mode (VUID-VkRenderingAttachmentInfo-imageView-06863: the
		// mode of a single-sampled attachment is its implicit resolve).
		auto store = [&](const RenderingAttachment& a, VkImageAspectFlagBits aspect) {
			if (!a.view || !context.implicit_attachments) return;
			for (const ImplicitAttachment& i : context.implicit_attachments->list)
				if (i.attachment == a.view && (begin->suspending || a.store_op == VK_ATTACHMENT_STORE_OP_STORE) &&
				    (aspect == VK_IMAGE_ASPECT_COLOR_BIT || a.resolve_mode != VK_RESOLVE_MODE_NONE))
					resolve(*i.view, *a.view, aspect, a.resolve_mode);
		};
		for (uint32_t i = 0; i < begin->color_count; ++i) store(begin->colors[i], VK_IMAGE_ASPECT_COLOR_BIT);
		store(begin->depth, VK_IMAGE_ASPECT_DEPTH_BIT);
		store(begin->stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
		context.implicit_attachments.reset();
		if (begin->suspending) return;
		auto resolve_into = [&](const RenderingAttachment& a, VkImageAspectFlagBits aspect) {
			if (a.view && a.resolve && a.resolve_mode != VK_RESOLVE_MODE_NONE)
				resolve(*a.view, *a.resolve, aspect, a.resolve_mode);
		};
		for (uint32_t i = 0; i < begin->color_count; ++i) resolve_into(begin->colors[i], VK_IMAGE_ASPECT_COLOR_BIT);
		// §8.x: pDepthAttachment and pStencilAttachment resolve their aspect.
		resolve_into(begin->depth, VK_IMAGE_ASPECT_DEPTH_BIT);
		resolve_into(begin->stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
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
	a.store_op = info->storeOp;
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
		auto* implicit = FindInChain<VkMultisampledRenderToSingleSampledInfoEXT>(
		    info.pNext, VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT);
		cmd->implicit_samples = implicit && implicit->multisampledRenderToSingleSampledEnable
		                            ? implicit->rasterizationSamples
		                            : VK_SAMPLE_COUNT_1_BIT;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer commandBuffer) {
	CommandBuffer::Cast(commandBuffer)->Add<EndRenderingCommand>();
}

}  // namespace tessera::entry
