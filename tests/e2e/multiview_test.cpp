// Multiview (Vulkan 1.3 §8.1 VkRenderPassMultiviewCreateInfo, §8.9 dynamic
// rendering's viewMask): each draw is broadcast to the views of the subpass's
// view mask, view i drawing into layer i with gl_ViewIndex i; load ops apply
// per view on the view's first use; vkCmdClearAttachments clears each view;
// an occlusion query takes one query per view. The same commands on Tessera
// and lavapipe give the same bytes in every layer, with the validation layer
// on, and the layers a pass does not render keep their texels.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 32, kLayers = 4;
constexpr std::array<uint8_t, 4> kBefore = {0, 0, 255, 255};     // every layer before the pass
constexpr std::array<uint8_t, 4> kCleared = {255, 0, 0, 255};    // the load op's clear
constexpr std::array<uint8_t, 4> kRectClear = {0, 255, 0, 255};  // vkCmdClearAttachments
constexpr VkRect2D kRect = {{24, 0}, {8, 8}};

// multiview.frag's color for a view.
std::array<uint8_t, 4> ViewColor(uint32_t view) { return {uint8_t(51 * (view + 1)), 153, 51, 255}; }

struct Result {
	std::vector<uint8_t> texels;  // kLayers layers of kSize x kSize RGBA8
	uint64_t samples = 0;         // the occlusion query's views added up
	bool available = false;       // every query of the view mask became available
	const uint8_t* At(uint32_t layer, uint32_t x, uint32_t y) const {
		return &texels[((size_t(layer) * kSize + y) * kSize + x) * 4];
	}
};

enum class Pass { kRenderPass, kDynamicRendering };

// Fills every layer of a 4-layer image with kBefore, then renders:
//  - kRenderPass: subpass 0 with views {0, 2} draws instance 0 inside an
//    occlusion query; subpass 1 with views {1, 2} draws instance 1 (moved up)
//    and clears kRect. The load op clears each view on its first use, so
//    view 2's first triangle survives subpass 1.
//  - kDynamicRendering: views {1, 3} clear and draw instance 0.
enum class Extra { kNone, kGeometry, kTessellation };

// Extra stages: geom_multiview.geom (multiviewGeometryShader), or
// tess_multiview.tesc/.tese (multiviewTessellationShader), between the two.
// pipeline_flags: the pipelines' create flags.
Result Render(Driver driver, Pass kind, Extra extra = Extra::kNone, VkPipelineCreateFlags pipeline_flags = 0) {
	const bool geometry = extra == Extra::kGeometry, tessellation = extra == Extra::kTessellation;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.dynamicRendering = VK_TRUE;
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
	v11.multiview = VK_TRUE;
	v11.multiviewGeometryShader = geometry;
	v11.multiviewTessellationShader = tessellation;
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
	features.features.geometryShader = geometry;
	features.features.tessellationShader = tessellation;
	features.features.occlusionQueryPrecise = VK_TRUE;
	ContextOptions options;
	options.device_features = &features;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = {kSize, kSize, 1};
	ici.mipLevels = 1;
	ici.arrayLayers = kLayers;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	TestImage image = ctx->CreateImage(ici);
	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = image.image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	vci.format = ici.format;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);

	VkRenderPass pass = VK_NULL_HANDLE;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	VkPipeline pipelines[2] = {};
	SimplePipeline desc{"multiview.vert.spv", "multiview.frag.spv", layout, kSize, kSize};
	desc.flags = pipeline_flags;
	if (geometry) desc.geometry_shader = "geom_multiview.geom.spv";
	if (tessellation) {
		desc.tess_control_shader = "tess_multiview.tesc.spv";
		desc.tess_eval_shader = "tess_multiview.tese.spv";
	}
	const uint32_t dynamic_views = 0b1010;
	if (kind == Pass::kRenderPass) {
		VkAttachmentDescription attachment{};
		attachment.format = ici.format;
		attachment.samples = VK_SAMPLE_COUNT_1_BIT;
		attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		attachment.initialLayout = VK_IMAGE_LAYOUT_GENERAL;
		attachment.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
		VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_GENERAL};
		VkSubpassDescription subpasses[2] = {};
		for (VkSubpassDescription& s : subpasses) {
			s.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
			s.colorAttachmentCount = 1;
			s.pColorAttachments = &color_ref;
		}
		VkSubpassDependency dependency{};
		dependency.srcSubpass = 0;
		dependency.dstSubpass = 1;
		dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
		dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
		dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
		dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
		const uint32_t view_masks[2] = {0b0101, 0b0110};
		VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
		multiview.subpassCount = 2;
		multiview.pViewMasks = view_masks;
		VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, &multiview};
		rpci.attachmentCount = 1;
		rpci.pAttachments = &attachment;
		rpci.subpassCount = 2;
		rpci.pSubpasses = subpasses;
		rpci.dependencyCount = 1;
		rpci.pDependencies = &dependency;
		REQUIRE(vkCreateRenderPass(device, &rpci, nullptr, &pass) == VK_SUCCESS);
		VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fci.renderPass = pass;
		fci.attachmentCount = 1;
		fci.pAttachments = &view;
		fci.width = kSize;
		fci.height = kSize;
		fci.layers = 1;  // VUID-VkFramebufferCreateInfo-renderPass-02531: multiview takes 1
		REQUIRE(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer) == VK_SUCCESS);
		for (uint32_t s = 0; s < 2; ++s) {
			desc.pass = pass;
			desc.subpass = s;
			pipelines[s] = CreateSimplePipeline(device, desc);
		}
	} else {
		desc.view_mask = dynamic_views;
		pipelines[0] = CreateSimplePipeline(device, desc);
	}
	REQUIRE(pipelines[0] != VK_NULL_HANDLE);

	VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
	qpci.queryCount = 2;
	VkQueryPool queries = VK_NULL_HANDLE;
	REQUIRE(vkCreateQueryPool(device, &qpci, nullptr, &queries) == VK_SUCCESS);

	const VkDeviceSize bytes = VkDeviceSize(kSize) * kSize * kLayers * 4;
	TestBuffer readback = ctx->CreateBuffer(bytes);
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdResetQueryPool(cb, queries, 0, 2);
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
		VkClearColorValue before{{0.0f, 0.0f, 1.0f, 1.0f}};
		VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
		vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &before, 1, &all);
		VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 1,
		                     &barrier, 0, nullptr, 0, nullptr);
		VkClearValue cleared{};
		cleared.color = {{1.0f, 0.0f, 0.0f, 1.0f}};
		if (kind == Pass::kRenderPass) {
			VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
			begin.renderPass = pass;
			begin.framebuffer = framebuffer;
			begin.renderArea = {{0, 0}, {kSize, kSize}};
			begin.clearValueCount = 1;
			begin.pClearValues = &cleared;
			vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
			vkCmdBeginQuery(cb, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
			vkCmdDraw(cb, 3, 1, 0, 0);
			vkCmdEndQuery(cb, queries, 0);
			vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
			vkCmdDraw(cb, 3, 1, 0, 1);
			VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
			clear.clearValue.color = {{0.0f, 1.0f, 0.0f, 1.0f}};
			VkClearRect rect{kRect, 0, 1};
			vkCmdClearAttachments(cb, 1, &clear, 1, &rect);
			vkCmdEndRenderPass(cb);
		} else {
			VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
			color.imageView = view;
			color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
			color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			color.clearValue = cleared;
			VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
			rendering.renderArea = {{0, 0}, {kSize, kSize}};
			rendering.layerCount = 1;
			rendering.viewMask = dynamic_views;
			rendering.colorAttachmentCount = 1;
			rendering.pColorAttachments = &color;
			vkCmdBeginRendering(cb, &rendering);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
			vkCmdBeginQuery(cb, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
			vkCmdDraw(cb, 3, 1, 0, 0);
			vkCmdEndQuery(cb, queries, 0);
			vkCmdEndRendering(cb);
		}
		barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
		                     &barrier, 0, nullptr, 0, nullptr);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
		region.imageExtent = {kSize, kSize, 1};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &region);
	});
	Result result;
	result.texels.assign(readback.data, readback.data + bytes);
	// Two views, two queries: how the total is spread over them is the
	// driver's choice (§18.3), their sum is not.
	uint64_t values[2][2] = {};
	const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	vkGetQueryPoolResults(device, queries, 0, 2, sizeof values, values, sizeof values[0], flags);
	result.samples = values[0][0] + values[1][0];
	result.available = values[0][1] == 1 && values[1][1] == 1;
	CHECK(ctx->validation_errors() == 0);
	ctx->Destroy(readback);
	vkDestroyQueryPool(device, queries, nullptr);
	for (VkPipeline p : pipelines) vkDestroyPipeline(device, p, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	if (framebuffer) vkDestroyFramebuffer(device, framebuffer, nullptr);
	if (pass) vkDestroyRenderPass(device, pass, nullptr);
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	return result;
}

bool Is(const uint8_t* texel, const std::array<uint8_t, 4>& expected) {
	return std::memcmp(texel, expected.data(), 4) == 0;
}

// A pixel inside the first triangle of view `view` (instance 0, or 1 when
// raised), and one no triangle reaches.
const uint8_t* Inside(const Result& r, uint32_t layer, uint32_t view, bool raised) {
	// NDC (-0.7 + 0.3 view, -0.7 [+ 0.95]) in pixels: (ndc + 1) * 16.
	return r.At(layer, uint32_t((0.3 + 0.3 * view) * 16), raised ? uint32_t(1.25 * 16) : uint32_t(0.3 * 16));
}
const uint8_t* Outside(const Result& r, uint32_t layer) { return r.At(layer, 30, 30); }

}  // namespace

TEST_CASE("multiview render passes draw each view into its layer", "[draw][renderpass][multiview]") {
	Result tessera = Render(Driver::Tessera, Pass::kRenderPass);
	// What the spec fixes, whatever the reference does.
	CHECK(Is(Inside(tessera, 0, 0, false), ViewColor(0)));
	CHECK(Is(Outside(tessera, 0), kCleared));
	CHECK(Is(Inside(tessera, 1, 1, true), ViewColor(1)));   // subpass 1's draw
	CHECK(Is(Inside(tessera, 1, 1, false), kCleared));      // subpass 0 did not render view 1
	CHECK(Is(Inside(tessera, 2, 2, false), ViewColor(2)));  // not cleared again by subpass 1
	CHECK(Is(Inside(tessera, 2, 2, true), ViewColor(2)));
	CHECK(Is(tessera.At(0, kRect.offset.x, 0), kCleared));  // the rect clear skips view 0
	CHECK(Is(tessera.At(1, kRect.offset.x, 0), kRectClear));
	CHECK(Is(tessera.At(2, kRect.offset.x + 7, 7), kRectClear));
	for (uint32_t y = 0; y < kSize; ++y)  // view 3 is in no subpass
		for (uint32_t x = 0; x < kSize; ++x) CHECK(Is(tessera.At(3, x, y), kBefore));
	CHECK(tessera.available);
	CHECK(tessera.samples > 0);

	Result lavapipe = Render(Driver::Lavapipe, Pass::kRenderPass);
	CHECK(tessera.texels == lavapipe.texels);
	CHECK(tessera.samples == lavapipe.samples);
}

TEST_CASE("dynamic rendering with a view mask draws each view into its layer", "[draw][multiview]") {
	Result tessera = Render(Driver::Tessera, Pass::kDynamicRendering);
	for (uint32_t layer : {0u, 2u})
		for (uint32_t y = 0; y < kSize; ++y)
			for (uint32_t x = 0; x < kSize; ++x) CHECK(Is(tessera.At(layer, x, y), kBefore));
	for (uint32_t view : {1u, 3u}) {
		CHECK(Is(Inside(tessera, view, view, false), ViewColor(view)));
		CHECK(Is(Outside(tessera, view), kCleared));
	}
	CHECK(tessera.available);
	CHECK(tessera.samples > 0);

	Result lavapipe = Render(Driver::Lavapipe, Pass::kDynamicRendering);
	CHECK(tessera.texels == lavapipe.texels);
	CHECK(tessera.samples == lavapipe.samples);
}

TEST_CASE("VIEW_INDEX_FROM_DEVICE_INDEX: ViewIndex reads the device index in every view", "[draw][multiview]") {
	// Vulkan "Multiview", VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT:
	// ViewIndex is the device index, 0 in a one-device group, so views 1
	// and 3 both show view 0's triangle and color. Tessera alone: lavapipe
	// 22.3 feeds the view there (it draws each view's own triangle); the
	// CTS's pipeline_library.*.view_index_from_device_index_* expect 0.
	Result tessera = Render(Driver::Tessera, Pass::kDynamicRendering, Extra::kNone,
	                        VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT);
	for (uint32_t view : {1u, 3u}) {
		CHECK(Is(Inside(tessera, view, 0, false), ViewColor(0)));
		CHECK(Is(tessera.At(view, 20, 4), kCleared));  // where view 1's and 3's own triangles would reach
		CHECK(Is(Outside(tessera, view), kCleared));
	}
	for (uint32_t layer : {0u, 2u}) CHECK(Is(Inside(tessera, layer, 0, false), kBefore));  // not in the mask
}

TEST_CASE("multiview with a geometry stage reading ViewIndex matches lavapipe", "[draw][multiview][geometry]") {
	for (Pass kind : {Pass::kRenderPass, Pass::kDynamicRendering}) {
		Result tessera = Render(Driver::Tessera, kind, Extra::kGeometry);
		Result lavapipe = Render(Driver::Lavapipe, kind, Extra::kGeometry);
		CHECK(tessera.texels == lavapipe.texels);
		CHECK(tessera.samples == lavapipe.samples);
		// The geometry stage moved view 1's triangle: a texel inside it
		// without the move differs from one with it.
		Result plain = Render(Driver::Tessera, kind);
		CHECK(tessera.texels != plain.texels);
	}
}

TEST_CASE("multiview with tessellation stages reading ViewIndex matches lavapipe", "[draw][multiview][tessellation]") {
	for (Pass kind : {Pass::kRenderPass, Pass::kDynamicRendering}) {
		Result tessera = Render(Driver::Tessera, kind, Extra::kTessellation);
		Result lavapipe = Render(Driver::Lavapipe, kind, Extra::kTessellation);
		CHECK(tessera.texels == lavapipe.texels);
		CHECK(tessera.samples == lavapipe.samples);
		// The evaluation stage moved each view's triangle by its index.
		Result plain = Render(Driver::Tessera, kind);
		CHECK(tessera.texels != plain.texels);
	}
}
