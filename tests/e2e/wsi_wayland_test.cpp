// Presentation to a Wayland surface (VK_KHR_wayland_surface) through the
// loader with the validation layer on, against a compositor inside the test
// (support/fake_wayland_compositor.h) that records the wl_shm buffers the
// driver commits: their size, format, damage and exact bytes. On Tessera
// alone (the bytes of another driver's buffers are its own business);
// tests/scripts/wsi_wayland_test.sh runs vkcube on Tessera and lavapipe
// under a real compositor.
#define VK_USE_PLATFORM_WAYLAND_KHR
#include <wayland-client.h>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "fake_wayland_compositor.h"
#include "wsi_support.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kWidth = 37, kHeight = 23;  // odd sizes: rows are not a power of two
constexpr uint32_t kShmArgb8888 = 0, kShmXrgb8888 = 1;
constexpr auto kCommitWait = std::chrono::seconds(10);

// A client connection to the fake compositor and one wl_surface on it.
class WaylandClient {
public:
	explicit WaylandClient(FakeWaylandCompositor& compositor) {
		display_ = wl_display_connect_to_fd(compositor.TakeClientFd());
		REQUIRE(display_);
		wl_registry* registry = wl_display_get_registry(display_);
		static const wl_registry_listener kListener = {
		    [](void* data, wl_registry* registry, uint32_t name, const char* interface, uint32_t) {
			    if (std::strcmp(interface, wl_compositor_interface.name) == 0)
				    *static_cast<wl_compositor**>(data) =
				        static_cast<wl_compositor*>(wl_registry_bind(registry, name, &wl_compositor_interface, 4));
		    },
		    [](void*, wl_registry*, uint32_t) {}};
		wl_registry_add_listener(registry, &kListener, &compositor_);
		REQUIRE(wl_display_roundtrip(display_) >= 0);
		wl_registry_destroy(registry);
		REQUIRE(compositor_);
		surface_ = wl_compositor_create_surface(compositor_);
		REQUIRE(wl_display_roundtrip(display_) >= 0);
	}
	~WaylandClient() {
		wl_surface_destroy(surface_);
		wl_compositor_destroy(compositor_);
		wl_display_disconnect(display_);
	}
	wl_display* display() const { return display_; }
	wl_surface* surface() const { return surface_; }

private:
	wl_display* display_ = nullptr;
	wl_compositor* compositor_ = nullptr;
	wl_surface* surface_ = nullptr;
};

VkSurfaceKHR CreateSurface(Context& ctx, const WaylandClient& client) {
	VkWaylandSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
	info.display = client.display();
	info.surface = client.surface();
	VkSurfaceKHR surface = VK_NULL_HANDLE;
	REQUIRE(vkCreateWaylandSurfaceKHR(ctx.instance(), &info, nullptr, &surface) == VK_SUCCESS);
	return surface;
}

VkSwapchainKHR CreateSwapchain(Context& ctx, VkSurfaceKHR surface, VkFormat format, VkCompositeAlphaFlagBitsKHR alpha,
                               VkPresentModeKHR mode, VkSwapchainKHR old = VK_NULL_HANDLE,
                               VkResult expected = VK_SUCCESS) {
	VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
	info.surface = surface;
	info.minImageCount = 3;
	info.imageFormat = format;
	info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
	info.imageExtent = {kWidth, kHeight};
	info.imageArrayLayers = 1;
	info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
	info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	info.compositeAlpha = alpha;
	info.presentMode = mode;
	info.clipped = VK_TRUE;
	info.oldSwapchain = old;
	VkSwapchainKHR swapchain = VK_NULL_HANDLE;
	CHECK(vkCreateSwapchainKHR(ctx.device(), &info, nullptr, &swapchain) == expected);
	return swapchain;
}

// Acquires an image, fills it with `pattern` (kWidth x kHeight x 4 bytes, in
// the image's own byte order) and presents it; the present's result.
VkResult PresentPattern(Context& ctx, VkSwapchainKHR swapchain, const TestBuffer& pattern) {
	// Before the acquire: the validation layer forgets acquisitions when the
	// images are queried again.
	uint32_t count = 0;
	REQUIRE(vkGetSwapchainImagesKHR(ctx.device(), swapchain, &count, nullptr) == VK_SUCCESS);
	std::vector<VkImage> images(count);
	REQUIRE(vkGetSwapchainImagesKHR(ctx.device(), swapchain, &count, images.data()) == VK_SUCCESS);
	VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	REQUIRE(vkCreateFence(ctx.device(), &fence_info, nullptr, &fence) == VK_SUCCESS);
	uint32_t index = 0;
	VkResult acquired = vkAcquireNextImageKHR(ctx.device(), swapchain, UINT64_MAX, VK_NULL_HANDLE, fence, &index);
	if (acquired != VK_SUCCESS) {
		vkDestroyFence(ctx.device(), fence, nullptr);
		return acquired;
	}
	REQUIRE(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
	vkDestroyFence(ctx.device(), fence, nullptr);
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, images[index], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {kWidth, kHeight, 1};
		vkCmdCopyBufferToImage(cb, pattern.buffer, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
		ctx.Transition(cb, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
	});
	VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
	present.swapchainCount = 1;
	present.pSwapchains = &swapchain;
	present.pImageIndices = &index;
	return vkQueuePresentKHR(ctx.queue(), &present);
}

TestBuffer CreatePattern(Context& ctx, uint32_t frame) {
	TestBuffer b = ctx.CreateBuffer(kWidth * kHeight * 4);
	for (uint32_t i = 0; i < kWidth * kHeight * 4; ++i) b.data[i] = uint8_t(i * 7 + frame * 31 + (i >> 8));
	return b;
}

// What the compositor must receive for a pattern: B, G, R, A bytes
// (ARGB8888/XRGB8888 little-endian), rows kWidth * 4 bytes apart; A is 255
// for an opaque swapchain (XRGB8888's X byte; the driver writes 255).
std::vector<uint8_t> ExpectedBuffer(const TestBuffer& pattern, bool bgra, bool opaque) {
	std::vector<uint8_t> out(pattern.data, pattern.data + kWidth * kHeight * 4);
	for (size_t i = 0; i < out.size(); i += 4) {
		if (!bgra) std::swap(out[i], out[i + 2]);
		if (opaque) out[i + 3] = 255;
	}
	return out;
}

}  // namespace

TEST_CASE("wsi: wayland surface capabilities, formats and present modes", "[wsi][wayland]") {
	auto compositor = FakeWaylandCompositor::Create();
	REQUIRE(compositor);
	WaylandClient client(*compositor);
	auto ctx = CreateWsiContext(Driver::Tessera, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME);
	REQUIRE(ctx);
	VkPhysicalDevice pd = ctx->physical_device();
	CHECK(vkGetPhysicalDeviceWaylandPresentationSupportKHR(pd, 0, client.display()) == VK_TRUE);
	VkSurfaceKHR surface = CreateSurface(*ctx, client);
	VkBool32 supported = VK_FALSE;
	CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, surface, &supported) == VK_SUCCESS);
	CHECK(supported == VK_TRUE);

	VkSurfaceCapabilitiesKHR caps{};
	REQUIRE(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surface, &caps) == VK_SUCCESS);
	// Vulkan 1.3 §34.4.6 (Wayland): currentExtent is (0xFFFFFFFF,
	// 0xFFFFFFFF): the swapchain's extent decides the surface's size.
	CHECK(caps.currentExtent.width == 0xFFFFFFFFu);
	CHECK(caps.currentExtent.height == 0xFFFFFFFFu);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(pd, &props);
	CHECK(caps.minImageExtent.width == 1);
	CHECK(caps.minImageExtent.height == 1);
	CHECK(caps.maxImageExtent.width == props.limits.maxImageDimension2D);
	CHECK(caps.maxImageExtent.height == props.limits.maxImageDimension2D);
	CHECK(caps.minImageCount >= 2);
	CHECK(caps.maxImageCount >= caps.minImageCount);
	CHECK(caps.supportedCompositeAlpha ==
	      (VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR));
	CHECK((caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT));

	uint32_t count = 0;
	CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &count, nullptr) == VK_SUCCESS);
	std::vector<VkSurfaceFormatKHR> formats(count);
	CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &count, formats.data()) == VK_SUCCESS);
	for (VkFormat f : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) {
		INFO(f);
		CHECK(std::any_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& s) {
			return s.format == f && s.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
		}));
	}
	CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &count, nullptr) == VK_SUCCESS);
	std::vector<VkPresentModeKHR> modes(count);
	CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &count, modes.data()) == VK_SUCCESS);
	for (VkPresentModeKHR m : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
		CHECK(std::find(modes.begin(), modes.end(), m) != modes.end());
	vkDestroySurfaceKHR(ctx->instance(), surface, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("wsi: wayland presents every format, alpha and mode through wl_shm", "[wsi][wayland]") {
	auto compositor = FakeWaylandCompositor::Create();
	REQUIRE(compositor);
	WaylandClient client(*compositor);
	auto ctx = CreateWsiContext(Driver::Tessera, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME);
	REQUIRE(ctx);
	VkSurfaceKHR surface = CreateSurface(*ctx, client);
	constexpr uint32_t kFrames = 3;
	size_t seen = 0;
	for (VkFormat format : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM})
		for (VkCompositeAlphaFlagBitsKHR alpha :
		     {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR})
			for (VkPresentModeKHR mode :
			     {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR}) {
				INFO("format " << format << ", composite alpha " << alpha << ", present mode " << mode);
				bool bgra = format != VK_FORMAT_R8G8B8A8_UNORM;
				bool opaque = alpha == VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
				// TESSERA_CAPTURE is read when the swapchain is created.
				const std::filesystem::path capture_dir =
				    std::filesystem::temp_directory_path() / ("tessera-wayland-capture-" + std::to_string(getpid()));
				std::filesystem::remove_all(capture_dir);
				std::filesystem::create_directories(capture_dir);
				setenv("TESSERA_CAPTURE", capture_dir.c_str(), 1);
				VkSwapchainKHR swapchain = CreateSwapchain(*ctx, surface, format, alpha, mode);
				unsetenv("TESSERA_CAPTURE");
				REQUIRE(swapchain);
				std::vector<TestBuffer> patterns;
				for (uint32_t f = 0; f < kFrames; ++f) {
					patterns.push_back(CreatePattern(*ctx, uint32_t(seen + f)));
					CHECK(PresentPattern(*ctx, swapchain, patterns.back()) == VK_SUCCESS);
				}
				// The presents are done on the queue thread; committed and
				// flushed before the queue is idle.
				REQUIRE(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
				std::vector<WaylandCommit> commits = compositor->WaitForCommits(seen + kFrames, kCommitWait);
				REQUIRE(commits.size() == seen + kFrames);
				for (uint32_t f = 0; f < kFrames; ++f) {
					INFO("frame " << f);
					const WaylandCommit& c = commits[seen + f];
					CHECK(c.width == kWidth);
					CHECK(c.height == kHeight);
					CHECK(c.stride == kWidth * 4);
					CHECK(c.format == (opaque ? kShmXrgb8888 : kShmArgb8888));
					CHECK(c.damaged_whole);
					// FIFO asks for the compositor's frame callback to pace the
					// next image; the other modes do not wait for one.
					CHECK(c.frame_callbacks == (mode == VK_PRESENT_MODE_FIFO_KHR ? 1u : 0u));
					CHECK(c.pixels == ExpectedBuffer(patterns[f], bgra, opaque));
				}
				seen += kFrames;
				vkDestroySwapchainKHR(ctx->device(), swapchain, nullptr);  // flushes the captures
				// The captures are what was presented, as RGBA; alpha as the
				// compositor reads it: 255 when opaque, the image's own with
				// PRE_MULTIPLIED.
				std::vector<std::filesystem::path> files;
				for (const auto& entry : std::filesystem::directory_iterator(capture_dir))
					files.push_back(entry.path());
				std::sort(files.begin(), files.end());
				REQUIRE(files.size() == kFrames);
				for (uint32_t f = 0; f < kFrames; ++f) {
					INFO("capture " << files[f]);
					uint32_t width = 0, height = 0;
					const std::vector<uint8_t> png = ReadPng(files[f], &width, &height);
					REQUIRE((width == kWidth && height == kHeight && png.size() == size_t(kWidth) * kHeight * 4));
					std::vector<uint8_t> expected(patterns[f].data, patterns[f].data + png.size());
					for (size_t i = 0; i < expected.size(); i += 4) {
						if (bgra) std::swap(expected[i], expected[i + 2]);
						if (opaque) expected[i + 3] = 255;
					}
					CHECK(png == expected);
				}
				std::filesystem::remove_all(capture_dir);
				for (TestBuffer& p : patterns) ctx->Destroy(p);
			}
	vkDestroySurfaceKHR(ctx->instance(), surface, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("wsi: wayland presentation beside an application reading the display on another thread", "[wsi][wayland]") {
	auto compositor = FakeWaylandCompositor::Create();
	REQUIRE(compositor);
	WaylandClient client(*compositor);
	auto ctx = CreateWsiContext(Driver::Tessera, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME);
	REQUIRE(ctx);
	VkSurfaceKHR surface = CreateSurface(*ctx, client);
	// The application's event thread: reads the connection (and so, at
	// times, the driver's events too, which must reach the driver's queue)
	// and dispatches its default queue, as a multi-threaded client does.
	std::atomic<bool> stop{false};
	std::atomic<int> reads{0};
	std::thread events([&] {
		wl_display* d = client.display();
		while (!stop) {
			while (wl_display_prepare_read(d) != 0) wl_display_dispatch_pending(d);
			wl_display_flush(d);
			pollfd fd{wl_display_get_fd(d), POLLIN, 0};
			if (poll(&fd, 1, 5) > 0) {
				if (wl_display_read_events(d) < 0) break;
				++reads;
			} else {
				wl_display_cancel_read(d);
			}
			wl_display_dispatch_pending(d);
		}
	});
	constexpr uint32_t kFrames = 30;
	for (VkPresentModeKHR mode : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR}) {
		INFO("present mode " << mode);
		VkSwapchainKHR swapchain =
		    CreateSwapchain(*ctx, surface, VK_FORMAT_B8G8R8A8_UNORM, VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, mode);
		REQUIRE(swapchain);
		TestBuffer pattern = CreatePattern(*ctx, 0);
		for (uint32_t f = 0; f < kFrames; ++f) CHECK(PresentPattern(*ctx, swapchain, pattern) == VK_SUCCESS);
		REQUIRE(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
		vkDestroySwapchainKHR(ctx->device(), swapchain, nullptr);
		ctx->Destroy(pattern);
	}
	stop = true;
	events.join();
	std::vector<WaylandCommit> commits = compositor->WaitForCommits(2 * kFrames, kCommitWait);
	CHECK(commits.size() == 2 * kFrames);
	CHECK(reads > 0);
	CHECK(wl_display_get_error(client.display()) == 0);
	vkDestroySurfaceKHR(ctx->instance(), surface, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("wsi: a wayland compositor that goes away loses the surface", "[wsi][wayland]") {
	auto compositor = FakeWaylandCompositor::Create();
	REQUIRE(compositor);
	WaylandClient client(*compositor);
	auto ctx = CreateWsiContext(Driver::Tessera, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME);
	REQUIRE(ctx);
	VkSurfaceKHR surface = CreateSurface(*ctx, client);
	VkSwapchainKHR swapchain = CreateSwapchain(*ctx, surface, VK_FORMAT_B8G8R8A8_UNORM,
	                                           VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_PRESENT_MODE_FIFO_KHR);
	REQUIRE(swapchain);
	TestBuffer pattern = CreatePattern(*ctx, 0);
	CHECK(PresentPattern(*ctx, swapchain, pattern) == VK_SUCCESS);
	REQUIRE(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
	CHECK(compositor->WaitForCommits(1, kCommitWait).size() == 1);

	compositor->DisconnectClient();
	// The driver learns of it when it next talks to the compositor (the
	// present on the queue thread); from then on the surface is lost
	// (Vulkan 1.3 §34.10: VK_ERROR_SURFACE_LOST_KHR).
	VkResult result = VK_SUCCESS;
	for (int i = 0; i < 100 && result == VK_SUCCESS; ++i) {
		result = PresentPattern(*ctx, swapchain, pattern);
		REQUIRE(vkQueueWaitIdle(ctx->queue()) == VK_SUCCESS);
	}
	CHECK(result == VK_ERROR_SURFACE_LOST_KHR);
	VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	REQUIRE(vkCreateFence(ctx->device(), &fence_info, nullptr, &fence) == VK_SUCCESS);
	uint32_t index = 0;
	CHECK(vkAcquireNextImageKHR(ctx->device(), swapchain, 0, VK_NULL_HANDLE, fence, &index) ==
	      VK_ERROR_SURFACE_LOST_KHR);
	vkDestroyFence(ctx->device(), fence, nullptr);
	// A new swapchain cannot be made on the lost surface.
	VkSwapchainKHR fresh = CreateSwapchain(*ctx, surface, VK_FORMAT_B8G8R8A8_UNORM, VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
	                                       VK_PRESENT_MODE_FIFO_KHR, swapchain, VK_ERROR_SURFACE_LOST_KHR);
	CHECK(fresh == VK_NULL_HANDLE);
	vkDestroySwapchainKHR(ctx->device(), swapchain, nullptr);
	ctx->Destroy(pattern);
	vkDestroySurfaceKHR(ctx->instance(), surface, nullptr);
	CHECK(ctx->validation_errors() == 0);
}
