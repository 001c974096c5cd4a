// Render pass capture (TESSERA_CAPTURE=<dir> with
// TESSERA_CAPTURE_RENDER_PASSES=1, read at device creation): each color
// attachment is written as frame-<f>-pass-<p>-att-<a>.png at the end of each
// render pass instance. Tessera only (lavapipe has no capture); the
// validation layer checks the programs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "wsi_support.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kWidth = 61, kHeight = 43;  // odd sizes: rows are not a power of two

Scene CaptureScene(VkFormat format, bool dynamic_rendering, VkSampleCountFlagBits samples) {
	std::vector<Vertex> v;
	Triangle(v, -0.8f, -0.7f, 0.7f, -0.5f, -0.1f, 0.8f, 0.5f, 1.0f, 0.2f, 0.1f, 0.6f);
	Scene s = ColorScene(v);
	s.width = kWidth;
	s.height = kHeight;
	s.color_format = format;
	s.dynamic_rendering = dynamic_rendering;
	s.samples = samples;
	return s;
}

// The environment variables for the scope of a test (they are read when the
// device is created).
struct EnvScope {
	EnvScope(const std::filesystem::path& dir, bool passes) {
		setenv("TESSERA_CAPTURE", dir.c_str(), 1);
		if (passes) setenv("TESSERA_CAPTURE_RENDER_PASSES", "1", 1);
	}
	~EnvScope() {
		unsetenv("TESSERA_CAPTURE");
		unsetenv("TESSERA_CAPTURE_RENDER_PASSES");
	}
};

struct PassFile {
	unsigned frame, pass, attachment;
};

// frame-<f>-pass-<p>-att-<a>.png files of a folder, by name.
std::map<std::string, PassFile> PassFiles(const std::filesystem::path& dir) {
	std::map<std::string, PassFile> files;
	for (const auto& entry : std::filesystem::directory_iterator(dir)) {
		PassFile f{};
		std::string name = entry.path().filename().string();
		char end = 0;
		REQUIRE(std::sscanf(name.c_str(), "frame-%5u-pass-%3u-att-%u.pn%c", &f.frame, &f.pass, &f.attachment, &end) ==
		        4);
		files[name] = f;
	}
	return files;
}

std::string PassName(unsigned frame, unsigned pass, unsigned attachment) {
	char name[64];
	std::snprintf(name, sizeof name, "frame-%05u-pass-%03u-att-%u.png", frame, pass, attachment);
	return name;
}

std::vector<uint8_t> ReadCapture(const std::filesystem::path& path) {
	INFO(path);
	uint32_t width = 0, height = 0;
	std::vector<uint8_t> pixels = ReadPng(path, &width, &height);
	CHECK(width == kWidth);
	CHECK(height == kHeight);
	return pixels;
}

}  // namespace

TEST_CASE("capture: color attachments at the end of each render pass as PNGs", "[capture]") {
	std::filesystem::path dir = FreshCaptureDirectory("render-passes");
	SceneFeatures features;
	std::unique_ptr<Context> ctx;
	{
		EnvScope env(dir, true);
		ctx = Context::Create(Driver::Tessera, features.Options());
	}
	REQUIRE(ctx);
	// Pass 0: a render pass object, RGBA8 UNORM: the bytes as rendered.
	SceneResult rgba = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, false, VK_SAMPLE_COUNT_1_BIT));
	// Pass 1: dynamic rendering, BGRA8 sRGB: swizzled, still sRGB-encoded.
	SceneResult bgra = RenderScene(*ctx, CaptureScene(VK_FORMAT_B8G8R8A8_SRGB, true, VK_SAMPLE_COUNT_1_BIT));
	// Pass 2: RGBA16 UNORM, converted to 8 bits.
	SceneResult wide = RenderScene(*ctx, CaptureScene(VK_FORMAT_R16G16B16A16_UNORM, false, VK_SAMPLE_COUNT_1_BIT));
	// Pass 3: dynamic rendering, 4 samples resolved: the resolve image.
	SceneResult msaa_dynamic = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, true, VK_SAMPLE_COUNT_4_BIT));
	// Pass 4: a render pass object, 4 samples: attachment 0 multisampled
	// (captured as sample 0), attachment 1 its resolve.
	SceneResult msaa_pass = RenderScene(*ctx, CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, false, VK_SAMPLE_COUNT_4_BIT));
	CHECK(ctx->validation_errors() == 0);
	ctx.reset();  // destroying the device writes what is queued

	std::map<std::string, PassFile> files = PassFiles(dir);
	REQUIRE(files.size() == 6);
	// No presents in this program: one frame number for all, and pass
	// numbers that follow one another. In a process of their own both start
	// at 0; other tests of this process may have presented or rendered.
	const unsigned frame = files.begin()->second.frame;
	const unsigned p0 = files.begin()->second.pass;
	for (const auto& [name, f] : files) CHECK(f.frame == frame);
	for (const std::string& name : {PassName(frame, p0, 0), PassName(frame, p0 + 1, 0), PassName(frame, p0 + 2, 0),
	                                PassName(frame, p0 + 3, 0), PassName(frame, p0 + 4, 0), PassName(frame, p0 + 4, 1)})
		CHECK(files.count(name) == 1);

	CHECK(ReadCapture(dir / PassName(frame, p0, 0)) == rgba.colors[0]);

	std::vector<uint8_t> expected = bgra.colors[0];
	for (size_t i = 0; i < expected.size(); i += 4) std::swap(expected[i], expected[i + 2]);
	CHECK(ReadCapture(dir / PassName(frame, p0 + 1, 0)) == expected);

	// 16 -> 8 bits: v / 65535 * 255 rounded to nearest; the driver's float
	// arithmetic may round an exact half the other way: 1 code.
	std::vector<uint8_t> wide_capture = ReadCapture(dir / PassName(frame, p0 + 2, 0));
	REQUIRE(wide_capture.size() * 2 == wide.colors[0].size());
	int worst = 0;
	for (size_t i = 0; i < wide_capture.size(); ++i) {
		uint16_t v = uint16_t(wide.colors[0][2 * i] | wide.colors[0][2 * i + 1] << 8);
		int want = int(double(v) * 255.0 / 65535.0 + 0.5);
		worst = std::max(worst, std::abs(want - int(wide_capture[i])));
	}
	CHECK(worst <= 1);

	CHECK(ReadCapture(dir / PassName(frame, p0 + 3, 0)) == msaa_dynamic.colors[0]);
	CHECK(ReadCapture(dir / PassName(frame, p0 + 4, 1)) == msaa_pass.colors[0]);
	// Sample 0 of the multisampled attachment: where all samples agree (away
	// from the triangle's edges) it equals the resolve, so most pixels do.
	std::vector<uint8_t> sample0 = ReadCapture(dir / PassName(frame, p0 + 4, 0));
	REQUIRE(sample0.size() == msaa_pass.colors[0].size());
	size_t same = 0;
	for (size_t i = 0; i < sample0.size(); i += 4)
		same += std::equal(&sample0[i], &sample0[i] + 4, &msaa_pass.colors[0][i]);
	CHECK(same > sample0.size() / 4 * 9 / 10);
}

TEST_CASE("capture: render passes are not captured without the second setting, results unchanged", "[capture]") {
	std::filesystem::path on = FreshCaptureDirectory("render-passes-on");
	std::filesystem::path off = FreshCaptureDirectory("render-passes-off");
	SceneFeatures features;
	const Scene scene = CaptureScene(VK_FORMAT_R8G8B8A8_UNORM, true, VK_SAMPLE_COUNT_1_BIT);
	SceneResult with, without;
	{
		std::unique_ptr<Context> ctx;
		{
			EnvScope env(on, true);
			ctx = Context::Create(Driver::Tessera, features.Options());
		}
		REQUIRE(ctx);
		with = RenderScene(*ctx, scene);
		CHECK(ctx->validation_errors() == 0);
	}
	{
		std::unique_ptr<Context> ctx;
		{
			EnvScope env(off, false);
			ctx = Context::Create(Driver::Tessera, features.Options());
		}
		REQUIRE(ctx);
		without = RenderScene(*ctx, scene);
		CHECK(ctx->validation_errors() == 0);
	}
	CHECK(PassFiles(on).size() == 1);
	CHECK(PassFiles(off).empty());
	// Capture only reads the attachments.
	CHECK(with.colors[0] == without.colors[0]);
}

TEST_CASE("capture: a suspended dynamic rendering instance is captured once, at its end", "[capture]") {
	std::filesystem::path dir = FreshCaptureDirectory("render-passes-suspended");
	SceneFeatures features;
	std::unique_ptr<Context> ctx;
	{
		EnvScope env(dir, true);
		ctx = Context::Create(Driver::Tessera, features.Options());
	}
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	TestImage image = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight,
	                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	view_info.image = image.image;
	view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
	view_info.format = VK_FORMAT_R8G8B8A8_UNORM;
	view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &view_info, nullptr, &view) == VK_SUCCESS);
	auto render = [&](VkCommandBuffer cb, VkRenderingFlags flags, float red, float green) {
		VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
		color.imageView = view;
		color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
		color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		color.clearValue.color = {{red, green, 0.0f, 1.0f}};
		VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
		info.flags = flags;
		info.renderArea = {{0, 0}, {kWidth, kHeight}};
		info.layerCount = 1;
		info.colorAttachmentCount = 1;
		info.pColorAttachments = &color;
		vkCmdBeginRendering(cb, &info);
		vkCmdEndRendering(cb);
	};
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
		// One instance in two parts: red (the resumed part does not load).
		render(cb, VK_RENDERING_SUSPENDING_BIT, 1.0f, 0.0f);
		render(cb, VK_RENDERING_RESUMING_BIT, 0.0f, 0.0f);
		// A second instance: green.
		render(cb, 0, 0.0f, 1.0f);
	});
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	CHECK(ctx->validation_errors() == 0);
	ctx.reset();

	std::map<std::string, PassFile> files = PassFiles(dir);
	REQUIRE(files.size() == 2);
	const unsigned frame = files.begin()->second.frame;
	const unsigned p0 = files.begin()->second.pass;
	std::vector<uint8_t> red(kWidth * kHeight * 4), green(kWidth * kHeight * 4);
	for (size_t i = 0; i < red.size(); i += 4) {
		red[i] = green[i + 1] = 255;
		red[i + 3] = green[i + 3] = 255;
	}
	CHECK(ReadCapture(dir / PassName(frame, p0, 0)) == red);
	CHECK(ReadCapture(dir / PassName(frame, p0 + 1, 0)) == green);
}

namespace {

// A one-attachment render pass that clears `view` and leaves it in final_layout.
struct ClearPass {
	ClearPass(VkDevice device, VkImageView view, VkFormat format, VkImageLayout final_layout) : device(device) {
		VkAttachmentDescription a{};
		a.format = format;
		a.samples = VK_SAMPLE_COUNT_1_BIT;
		a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		a.finalLayout = final_layout;
		VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
		VkSubpassDescription subpass{};
		subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		subpass.colorAttachmentCount = 1;
		subpass.pColorAttachments = &ref;
		VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		info.attachmentCount = 1;
		info.pAttachments = &a;
		info.subpassCount = 1;
		info.pSubpasses = &subpass;
		REQUIRE(vkCreateRenderPass(device, &info, nullptr, &pass) == VK_SUCCESS);
		VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fb.renderPass = pass;
		fb.attachmentCount = 1;
		fb.pAttachments = &view;
		fb.width = kWidth;
		fb.height = kHeight;
		fb.layers = 1;
		REQUIRE(vkCreateFramebuffer(device, &fb, nullptr, &framebuffer) == VK_SUCCESS);
	}
	~ClearPass() {
		vkDestroyFramebuffer(device, framebuffer, nullptr);
		vkDestroyRenderPass(device, pass, nullptr);
	}
	void Record(VkCommandBuffer cb, VkClearColorValue color) const {
		VkClearValue clear{};
		clear.color = color;
		VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		begin.renderPass = pass;
		begin.framebuffer = framebuffer;
		begin.renderArea = {{0, 0}, {kWidth, kHeight}};
		begin.clearValueCount = 1;
		begin.pClearValues = &clear;
		vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdEndRenderPass(cb);
	}
	VkDevice device;
	VkRenderPass pass = VK_NULL_HANDLE;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
};

VkImageView CreateView(VkDevice device, VkImage image, VkFormat format) {
	VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	info.image = image;
	info.viewType = VK_IMAGE_VIEW_TYPE_2D;
	info.format = format;
	info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &info, nullptr, &view) == VK_SUCCESS);
	return view;
}

std::vector<uint8_t> Solid(uint8_t r, uint8_t g, uint8_t b) {
	std::vector<uint8_t> out(size_t(kWidth) * kHeight * 4);
	for (size_t i = 0; i < out.size(); i += 4) {
		out[i] = r;
		out[i + 1] = g;
		out[i + 2] = b;
		out[i + 3] = 255;
	}
	return out;
}

}  // namespace

TEST_CASE("capture: render pass names count presents, and passes since the last present", "[capture][wsi]") {
	std::filesystem::path dir = FreshCaptureDirectory("render-passes-presents");
	// Until the swapchain is made: TESSERA_CAPTURE is read at swapchain
	// creation too.
	auto env = std::make_unique<EnvScope>(dir, true);
	std::unique_ptr<Context> ctx = CreateWsiContext(Driver::Tessera, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkSurfaceKHR surface = VK_NULL_HANDLE;
	auto create_surface = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkCreateHeadlessSurfaceEXT"));
	REQUIRE(create_surface);
	VkHeadlessSurfaceCreateInfoEXT surface_info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
	REQUIRE(create_surface(ctx->instance(), &surface_info, nullptr, &surface) == VK_SUCCESS);
	VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
	info.surface = surface;
	info.minImageCount = 2;
	info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
	info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
	info.imageExtent = {kWidth, kHeight};
	info.imageArrayLayers = 1;
	info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
	info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
	info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
	info.clipped = VK_TRUE;
	VkSwapchainKHR swapchain = VK_NULL_HANDLE;
	REQUIRE(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain) == VK_SUCCESS);
	env.reset();
	uint32_t count = 0;
	vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr);
	std::vector<VkImage> images(count);
	vkGetSwapchainImagesKHR(device, swapchain, &count, images.data());

	TestImage offscreen = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight,
	                                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	VkImageView offscreen_view = CreateView(device, offscreen.image, VK_FORMAT_R8G8B8A8_UNORM);
	{
		ClearPass offscreen_pass(device, offscreen_view, VK_FORMAT_R8G8B8A8_UNORM,
		                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
		// Before the present: red offscreen.
		ctx->Submit([&](VkCommandBuffer cb) { offscreen_pass.Record(cb, {{1, 0, 0, 1}}); });

		VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		VkSemaphore acquired, rendered;
		REQUIRE(vkCreateSemaphore(device, &semaphore_info, nullptr, &acquired) == VK_SUCCESS);
		REQUIRE(vkCreateSemaphore(device, &semaphore_info, nullptr, &rendered) == VK_SUCCESS);
		uint32_t index = 0;
		REQUIRE(vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index) == VK_SUCCESS);
		VkImageView swap_view = CreateView(device, images[index], VK_FORMAT_B8G8R8A8_UNORM);
		{
			// The presented image: blue.
			ClearPass swap_pass(device, swap_view, VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
			VkCommandBuffer cb = ctx->BeginOneTime();
			swap_pass.Record(cb, {{0, 0, 1, 1}});
			REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
			VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
			VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
			submit.waitSemaphoreCount = 1;
			submit.pWaitSemaphores = &acquired;
			submit.pWaitDstStageMask = &stage;
			submit.commandBufferCount = 1;
			submit.pCommandBuffers = &cb;
			submit.signalSemaphoreCount = 1;
			submit.pSignalSemaphores = &rendered;
			REQUIRE(vkQueueSubmit(ctx->queue(), 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS);
			VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
			present.waitSemaphoreCount = 1;
			present.pWaitSemaphores = &rendered;
			present.swapchainCount = 1;
			present.pSwapchains = &swapchain;
			present.pImageIndices = &index;
			REQUIRE(vkQueuePresentKHR(ctx->queue(), &present) == VK_SUCCESS);
			// After the present: green offscreen.
			ctx->Submit([&](VkCommandBuffer cb2) { offscreen_pass.Record(cb2, {{0, 1, 0, 1}}); });
			REQUIRE(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
		}
		vkDestroyImageView(device, swap_view, nullptr);
		vkDestroySemaphore(device, acquired, nullptr);
		vkDestroySemaphore(device, rendered, nullptr);
	}
	vkDestroyImageView(device, offscreen_view, nullptr);
	ctx->Destroy(offscreen);
	vkDestroySwapchainKHR(device, swapchain, nullptr);
	vkDestroySurfaceKHR(ctx->instance(), surface, nullptr);
	CHECK(ctx->validation_errors() == 0);
	ctx.reset();

	std::vector<std::string> names;
	for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
	std::sort(names.begin(), names.end());
	REQUIRE(names.size() == 4);
	unsigned frame = 0, p0 = 0;
	REQUIRE(std::sscanf(names[0].c_str(), "frame-%5u-pass-%3u", &frame, &p0) == 2);
	char presented[32];
	std::snprintf(presented, sizeof presented, "frame-%05u.png", frame);
	// The present is frame f; the passes before it are frame f's (from 0 in
	// a process of its own), the one after it the first of frame f + 1.
	CHECK(names == std::vector<std::string>{PassName(frame, p0, 0), PassName(frame, p0 + 1, 0), presented,
	                                        PassName(frame + 1, 0, 0)});
	CHECK(ReadCapture(dir / PassName(frame, p0, 0)) == Solid(255, 0, 0));
	CHECK(ReadCapture(dir / PassName(frame, p0 + 1, 0)) == Solid(0, 0, 255));
	CHECK(ReadCapture(dir / presented) == Solid(0, 0, 255));
	CHECK(ReadCapture(dir / PassName(frame + 1, 0, 0)) == Solid(0, 255, 0));
}
