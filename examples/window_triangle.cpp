// tessera-window: a spinning triangle in an X window (xcb), presented
// through a swapchain for a given number of frames. Plain Vulkan 1.3 +
// VK_KHR_xcb_surface + VK_KHR_swapchain: it runs on any driver.
//
//   VK_DRIVER_FILES=build/tessera_icd.json xvfb-run build/examples/tessera-window --frames 60
//
// Options (for the windowed presentation test, tests/scripts/wsi_xvfb_test.sh):
//   --frames N        frames to present (default 120)
//   --size WxH        window size (default 320x240)
//   --headless        present to a VK_EXT_headless_surface instead of a window
//   --xlib            open the display with Xlib and use VK_KHR_xlib_surface
//   --validate        enable VK_LAYER_KHRONOS_validation; any error fails the run
//   --readback DIR    also copy each frame to the host before presenting it and
//                     write it as DIR/frame-NNNNN.png (RGBA8)
//   --resize-at N     resize the window before frame N; the swapchain must then
//                     report VK_ERROR_OUT_OF_DATE_KHR (or SUBOPTIMAL) and is
//                     recreated; fails if it never does
//   --check-window    after the last frame, read the window back (GetImage) and
//                     fail unless it holds the last frame
//   --grab WxH[+X+Y] OUT  write WxH pixels of the X screen (at X,Y) as a PNG
//                     (what a program that kept its window left there)
//   --compare A B     compare two PNGs: exit 1 unless every channel is within
//                     2 codes (see the test script for why)
#include <xcb/xcb.h>
// After xcb.h: vulkan_xcb.h uses its types.
#include <vulkan/vulkan.h>
#include <vulkan/vulkan_xcb.h>
#ifdef TESSERA_WINDOW_XLIB
#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <vulkan/vulkan_xlib.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "window_triangle_frag.h"
#include "window_triangle_vert.h"

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			std::exit(1);                                                                        \
		}                                                                                        \
	} while (0)

namespace {

constexpr VkFormat kFormat = VK_FORMAT_B8G8R8A8_UNORM;

struct Options {
	uint32_t frames = 120;
	uint32_t width = 320, height = 240;  // of the window (or headless swapchain)
	bool headless = false;
	bool xlib = false;
	bool validate = false;
	std::string readback;
	int resize_at = -1;
	bool check_window = false;
};

uint32_t g_validation_errors = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
	if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
		++g_validation_errors;
		std::fprintf(stderr, "validation error: %s\n", data->pMessage);
	}
	return VK_FALSE;
}

int Compare(const char* a, const char* b) {
	int wa, ha, wb, hb, c;
	stbi_uc* pa = stbi_load(a, &wa, &ha, &c, 4);
	stbi_uc* pb = stbi_load(b, &wb, &hb, &c, 4);
	if (!pa || !pb || wa != wb || ha != hb) {
		std::fprintf(stderr, "compare: cannot read %s and %s, or their sizes differ\n", a, b);
		return 1;
	}
	int worst = 0;
	size_t differing = 0;
	for (size_t i = 0; i < size_t(wa) * ha * 4; ++i) {
		int d = std::abs(int(pa[i]) - int(pb[i]));
		worst = d > worst ? d : worst;
		differing += d != 0;
	}
	std::printf("compare %s %s: %zu channels differ, by at most %d\n", a, b, differing, worst);
	return worst <= 2 ? 0 : 1;
}

int Grab(const char* size, const char* path) {
	unsigned width = 0, height = 0;
	int x = 0, y = 0;
	if (std::sscanf(size, "%ux%u+%d+%d", &width, &height, &x, &y) < 2) return 2;
	int screen_index = 0;
	xcb_connection_t* c = xcb_connect(nullptr, &screen_index);
	if (xcb_connection_has_error(c)) return 1;
	xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
	for (int i = 0; i < screen_index; ++i) xcb_screen_next(&it);
	xcb_get_image_reply_t* reply =
	    xcb_get_image_reply(c,
	                        xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, it.data->root, int16_t(x), int16_t(y),
	                                      uint16_t(width), uint16_t(height), ~0u),
	                        nullptr);
	if (!reply || size_t(xcb_get_image_data_length(reply)) != size_t(width) * height * 4) {
		std::fprintf(stderr, "GetImage of the screen failed\n");
		return 1;
	}
	std::vector<uint8_t> rgba(xcb_get_image_data(reply), xcb_get_image_data(reply) + size_t(width) * height * 4);
	for (size_t i = 0; i < rgba.size(); i += 4) {
		std::swap(rgba[i], rgba[i + 2]);
		rgba[i + 3] = 255;  // depth 24: no alpha
	}
	free(reply);
	xcb_disconnect(c);
	return stbi_write_png(path, int(width), int(height), 4, rgba.data(), int(width * 4)) ? 0 : 1;
}

class App {
public:
	explicit App(const Options& options) : options_(options) {}
	int Run();

private:
	void CreateWindow();
	void CreateInstanceAndDevice();
	void CreatePipeline();
	void CreateSwapchain();
	void DestroySwapchain();
	void RecordFrame(uint32_t index, uint32_t frame);
	void WritePng(const std::string& path, const uint8_t* bgra);
	bool CheckWindow();
	uint32_t MemoryType(uint32_t bits, VkMemoryPropertyFlags flags);

	Options options_;
	xcb_connection_t* connection_ = nullptr;
	void* display_ = nullptr;  // Display* with --xlib
	xcb_window_t window_ = 0;
	VkInstance instance_ = VK_NULL_HANDLE;
	VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
	VkSurfaceKHR surface_ = VK_NULL_HANDLE;
	VkPhysicalDevice physical_ = VK_NULL_HANDLE;
	VkDevice device_ = VK_NULL_HANDLE;
	VkQueue queue_ = VK_NULL_HANDLE;
	VkCommandPool pool_ = VK_NULL_HANDLE;
	VkCommandBuffer cb_ = VK_NULL_HANDLE;
	VkRenderPass render_pass_ = VK_NULL_HANDLE;
	VkPipelineLayout layout_ = VK_NULL_HANDLE;
	VkPipeline pipeline_ = VK_NULL_HANDLE;
	VkSemaphore acquired_ = VK_NULL_HANDLE, rendered_ = VK_NULL_HANDLE;
	VkFence fence_ = VK_NULL_HANDLE;
	VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
	VkExtent2D extent_{};
	std::vector<VkImage> images_;
	std::vector<VkImageView> views_;
	std::vector<VkFramebuffer> framebuffers_;
	VkBuffer readback_ = VK_NULL_HANDLE;
	VkDeviceMemory readback_memory_ = VK_NULL_HANDLE;
	uint8_t* readback_data_ = nullptr;
	std::vector<uint8_t> last_frame_;
};

void App::CreateWindow() {
	if (options_.headless) return;
	int screen_index = 0;
#ifdef TESSERA_WINDOW_XLIB
	if (options_.xlib) {
		// The window is made through the display's own xcb connection.
		Display* display = XOpenDisplay(nullptr);
		if (!display) {
			std::fprintf(stderr, "cannot open the X display (DISPLAY=%s)\n", std::getenv("DISPLAY"));
			std::exit(1);
		}
		display_ = display;
		connection_ = XGetXCBConnection(display);
		screen_index = DefaultScreen(display);
	}
#endif
	if (!connection_) connection_ = xcb_connect(nullptr, &screen_index);
	if (xcb_connection_has_error(connection_)) {
		std::fprintf(stderr, "cannot connect to the X server (DISPLAY=%s)\n", std::getenv("DISPLAY"));
		std::exit(1);
	}
	xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(connection_));
	for (int i = 0; i < screen_index; ++i) xcb_screen_next(&it);
	xcb_screen_t* screen = it.data;
	window_ = xcb_generate_id(connection_);
	uint32_t values[] = {screen->black_pixel, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
	xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, options_.width, options_.height,
	                  0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK,
	                  values);
	const char* title = "tessera-window";
	xcb_change_property(connection_, XCB_PROP_MODE_REPLACE, window_, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
	                    uint32_t(std::strlen(title)), title);
	xcb_map_window(connection_, window_);
	free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));
}

void App::CreateInstanceAndDevice() {
	std::vector<const char*> extensions = {VK_KHR_SURFACE_EXTENSION_NAME,
	                                       options_.headless ? VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME
	                                       : options_.xlib   ? "VK_KHR_xlib_surface"
	                                                         : VK_KHR_XCB_SURFACE_EXTENSION_NAME};
	std::vector<const char*> layers;
	VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
	messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
	messenger.messageType =
	    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
	messenger.pfnUserCallback = OnMessage;
	if (options_.validate) {
		layers.push_back("VK_LAYER_KHRONOS_validation");
		extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
	}
	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-window";
	app.apiVersion = VK_API_VERSION_1_3;
	VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pNext = options_.validate ? &messenger : nullptr;
	ici.pApplicationInfo = &app;
	ici.enabledLayerCount = uint32_t(layers.size());
	ici.ppEnabledLayerNames = layers.data();
	ici.enabledExtensionCount = uint32_t(extensions.size());
	ici.ppEnabledExtensionNames = extensions.data();
	CHECK(vkCreateInstance(&ici, nullptr, &instance_));
	if (options_.validate) {
		auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
		    vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
		CHECK(create(instance_, &messenger, nullptr, &messenger_));
	}
	if (options_.headless) {
		VkHeadlessSurfaceCreateInfoEXT info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
		auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
		    vkGetInstanceProcAddr(instance_, "vkCreateHeadlessSurfaceEXT"));
		CHECK(create(instance_, &info, nullptr, &surface_));
	} else if (options_.xlib) {
#ifdef TESSERA_WINDOW_XLIB
		VkXlibSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR};
		info.dpy = static_cast<Display*>(display_);
		info.window = window_;
		CHECK(vkCreateXlibSurfaceKHR(instance_, &info, nullptr, &surface_));
#endif
	} else {
		VkXcbSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
		info.connection = connection_;
		info.window = window_;
		CHECK(vkCreateXcbSurfaceKHR(instance_, &info, nullptr, &surface_));
	}

	uint32_t count = 1;
	VkResult r = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
		std::fprintf(stderr, "no Vulkan device\n");
		std::exit(1);
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(physical_, &props);
	std::printf("device: %s\n", props.deviceName);
	VkBool32 supported = VK_FALSE;
	CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(physical_, 0, surface_, &supported));
	if (!supported) {
		std::fprintf(stderr, "queue family 0 cannot present\n");
		std::exit(1);
	}
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueCount = 1;
	qci.pQueuePriorities = &priority;
	const char* device_extensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.enabledExtensionCount = 1;
	dci.ppEnabledExtensionNames = device_extensions;
	CHECK(vkCreateDevice(physical_, &dci, nullptr, &device_));
	vkGetDeviceQueue(device_, 0, 0, &queue_);

	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	CHECK(vkCreateCommandPool(device_, &pci, nullptr, &pool_));
	VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cai.commandPool = pool_;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = 1;
	CHECK(vkAllocateCommandBuffers(device_, &cai, &cb_));
	VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	CHECK(vkCreateSemaphore(device_, &sci, nullptr, &acquired_));
	CHECK(vkCreateSemaphore(device_, &sci, nullptr, &rendered_));
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	CHECK(vkCreateFence(device_, &fci, nullptr, &fence_));
}

void App::CreatePipeline() {
	VkAttachmentDescription color{};
	color.format = kFormat;
	color.samples = VK_SAMPLE_COUNT_1_BIT;
	color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &ref;
	// The acquire semaphore's wait is at the color output stage: the
	// layout transition must wait for it too.
	VkSubpassDependency dependency{};
	dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
	dependency.dstSubpass = 0;
	dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 1;
	rpci.pAttachments = &color;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	rpci.dependencyCount = 1;
	rpci.pDependencies = &dependency;
	CHECK(vkCreateRenderPass(device_, &rpci, nullptr, &render_pass_));

	VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, 3 * 16};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	CHECK(vkCreatePipelineLayout(device_, &plci, nullptr, &layout_));

	VkShaderModule vert, frag;
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = sizeof(kWindowTriangleVert);
	smci.pCode = kWindowTriangleVert;
	CHECK(vkCreateShaderModule(device_, &smci, nullptr, &vert));
	smci.codeSize = sizeof(kWindowTriangleFrag);
	smci.pCode = kWindowTriangleFrag;
	CHECK(vkCreateShaderModule(device_, &smci, nullptr, &frag));
	VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
	                                             {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
	stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
	stages[0].module = vert;
	stages[0].pName = "main";
	stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
	stages[1].module = frag;
	stages[1].pName = "main";
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport.viewportCount = 1;
	viewport.scissorCount = 1;
	VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	raster.polygonMode = VK_POLYGON_MODE_FILL;
	raster.cullMode = VK_CULL_MODE_NONE;
	raster.lineWidth = 1.0f;
	VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineColorBlendAttachmentState blend_attachment{};
	blend_attachment.colorWriteMask = 0xf;
	VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	blend.attachmentCount = 1;
	blend.pAttachments = &blend_attachment;
	VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dynamic.dynamicStateCount = 2;
	dynamic.pDynamicStates = dynamic_states;
	VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	gpci.stageCount = 2;
	gpci.pStages = stages;
	gpci.pVertexInputState = &vertex_input;
	gpci.pInputAssemblyState = &assembly;
	gpci.pViewportState = &viewport;
	gpci.pRasterizationState = &raster;
	gpci.pMultisampleState = &multisample;
	gpci.pColorBlendState = &blend;
	gpci.pDynamicState = &dynamic;
	gpci.layout = layout_;
	gpci.renderPass = render_pass_;
	CHECK(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline_));
	vkDestroyShaderModule(device_, vert, nullptr);
	vkDestroyShaderModule(device_, frag, nullptr);
}

uint32_t App::MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) {
	VkPhysicalDeviceMemoryProperties props;
	vkGetPhysicalDeviceMemoryProperties(physical_, &props);
	for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
		if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags) return i;
	std::fprintf(stderr, "no host-visible memory\n");
	std::exit(1);
}

void App::CreateSwapchain() {
	VkSurfaceCapabilitiesKHR caps;
	CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps));
	extent_ =
	    caps.currentExtent.width == 0xFFFFFFFFu ? VkExtent2D{options_.width, options_.height} : caps.currentExtent;
	uint32_t count = 0;
	CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, nullptr));
	std::vector<VkSurfaceFormatKHR> formats(count);
	CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, formats.data()));
	bool found = false;
	for (auto& f : formats) found = found || (f.format == kFormat && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR);
	if (!found) {
		std::fprintf(stderr, "the surface does not offer B8G8R8A8_UNORM\n");
		std::exit(1);
	}
	VkSwapchainKHR old = swapchain_;
	VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
	info.surface = surface_;
	info.minImageCount =
	    caps.maxImageCount && caps.minImageCount + 1 > caps.maxImageCount ? caps.maxImageCount : caps.minImageCount + 1;
	info.imageFormat = kFormat;
	info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
	info.imageExtent = extent_;
	info.imageArrayLayers = 1;
	info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
	info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
	info.clipped = VK_TRUE;
	info.oldSwapchain = old;
	CHECK(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain_));
	if (old) {
		// Every present of the old swapchain has been waited for (fence).
		for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(device_, f, nullptr);
		for (VkImageView v : views_) vkDestroyImageView(device_, v, nullptr);
		framebuffers_.clear();
		views_.clear();
		vkDestroySwapchainKHR(device_, old, nullptr);
	}
	CHECK(vkGetSwapchainImagesKHR(device_, swapchain_, &count, nullptr));
	images_.resize(count);
	CHECK(vkGetSwapchainImagesKHR(device_, swapchain_, &count, images_.data()));
	for (VkImage image : images_) {
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = image;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = kFormat;
		vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		VkImageView view;
		CHECK(vkCreateImageView(device_, &vci, nullptr, &view));
		views_.push_back(view);
		VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fci.renderPass = render_pass_;
		fci.attachmentCount = 1;
		fci.pAttachments = &view;
		fci.width = extent_.width;
		fci.height = extent_.height;
		fci.layers = 1;
		VkFramebuffer framebuffer;
		CHECK(vkCreateFramebuffer(device_, &fci, nullptr, &framebuffer));
		framebuffers_.push_back(framebuffer);
	}
	if (readback_) {
		vkDestroyBuffer(device_, readback_, nullptr);
		vkFreeMemory(device_, readback_memory_, nullptr);
		readback_ = VK_NULL_HANDLE;
	}
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.size = VkDeviceSize(extent_.width) * extent_.height * 4;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	CHECK(vkCreateBuffer(device_, &bci, nullptr, &readback_));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(device_, readback_, &req);
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	mai.allocationSize = req.size;
	mai.memoryTypeIndex =
	    MemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(vkAllocateMemory(device_, &mai, nullptr, &readback_memory_));
	CHECK(vkBindBufferMemory(device_, readback_, readback_memory_, 0));
	CHECK(vkMapMemory(device_, readback_memory_, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&readback_data_)));
}

void App::DestroySwapchain() {
	for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(device_, f, nullptr);
	for (VkImageView v : views_) vkDestroyImageView(device_, v, nullptr);
	vkDestroySwapchainKHR(device_, swapchain_, nullptr);
	vkDestroyBuffer(device_, readback_, nullptr);
	vkFreeMemory(device_, readback_memory_, nullptr);
}

void App::RecordFrame(uint32_t index, uint32_t frame) {
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	CHECK(vkBeginCommandBuffer(cb_, &bi));
	VkClearValue clear{};
	clear.color = {{0.05f, 0.05f, 0.15f, 1.0f}};
	VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
	rbi.renderPass = render_pass_;
	rbi.framebuffer = framebuffers_[index];
	rbi.renderArea = {{0, 0}, extent_};
	rbi.clearValueCount = 1;
	rbi.pClearValues = &clear;
	vkCmdBeginRenderPass(cb_, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
	VkViewport viewport{0, 0, float(extent_.width), float(extent_.height), 0, 1};
	VkRect2D scissor{{0, 0}, extent_};
	vkCmdSetViewport(cb_, 0, 1, &viewport);
	vkCmdSetScissor(cb_, 0, 1, &scissor);
	// Vertices on the host, on a 1/64-pixel grid, so every driver
	// rasterizes the same triangle.
	float positions[12] = {};
	double angle = frame * 0.05;
	for (int v = 0; v < 3; ++v) {
		double a = angle + v * 2.0943951023931953;
		double x = 0.8 * std::cos(a) * extent_.height / extent_.width, y = 0.8 * std::sin(a);
		double px = std::round((x * 0.5 + 0.5) * extent_.width * 64) / 64,
		       py = std::round((y * 0.5 + 0.5) * extent_.height * 64) / 64;
		positions[v * 4 + 0] = float(px / extent_.width * 2 - 1);
		positions[v * 4 + 1] = float(py / extent_.height * 2 - 1);
	}
	vkCmdPushConstants(cb_, layout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof positions, positions);
	vkCmdDraw(cb_, 3, 1, 0, 0);
	vkCmdEndRenderPass(cb_);

	// A copy for --readback / --check-window.
	VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	barrier.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	barrier.image = images_[index];
	barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
	                     nullptr, 0, nullptr, 1, &barrier);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {extent_.width, extent_.height, 1};
	vkCmdCopyImageToBuffer(cb_, images_[index], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_, 1, &region);
	barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	barrier.dstAccessMask = 0;
	barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &barrier);
	VkBufferMemoryBarrier host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
	host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	host.buffer = readback_;
	host.size = VK_WHOLE_SIZE;
	vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &host, 0,
	                     nullptr);
	CHECK(vkEndCommandBuffer(cb_));
}

void App::WritePng(const std::string& path, const uint8_t* bgra) {
	std::vector<uint8_t> rgba(bgra, bgra + size_t(extent_.width) * extent_.height * 4);
	for (size_t i = 0; i < rgba.size(); i += 4) std::swap(rgba[i], rgba[i + 2]);
	if (!stbi_write_png(path.c_str(), int(extent_.width), int(extent_.height), 4, rgba.data(),
	                    int(extent_.width * 4))) {
		std::fprintf(stderr, "cannot write %s\n", path.c_str());
		std::exit(1);
	}
}

// The window's pixels now (GetImage, ZPixmap: B, G, R, X bytes) against the
// last frame's; the alpha byte of a depth-24 window is not compared.
bool App::CheckWindow() {
	xcb_get_image_reply_t* reply =
	    xcb_get_image_reply(connection_,
	                        xcb_get_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, 0, 0,
	                                      uint16_t(extent_.width), uint16_t(extent_.height), ~0u),
	                        nullptr);
	if (!reply) {
		std::fprintf(stderr, "GetImage failed\n");
		return false;
	}
	const uint8_t* data = xcb_get_image_data(reply);
	size_t length = size_t(xcb_get_image_data_length(reply));
	bool same = length == last_frame_.size();
	size_t differing = 0;
	for (size_t i = 0; same && i < length; i += 4) differing += std::memcmp(data + i, last_frame_.data() + i, 3) != 0;
	free(reply);
	std::printf("window check: %zu of %zu pixels differ from the last frame\n", same ? differing : length / 4,
	            length / 4);
	return same && differing == 0;
}

int App::Run() {
	CreateWindow();
	CreateInstanceAndDevice();
	CreatePipeline();
	CreateSwapchain();
	uint32_t out_of_date = 0;
	for (uint32_t frame = 0; frame < options_.frames; ++frame) {
		if (int(frame) == options_.resize_at && connection_) {
			uint32_t size[] = {options_.width + 64, options_.height + 32};
			xcb_configure_window(connection_, window_, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
			free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));
		}
		uint32_t index = 0;
		VkResult r = vkAcquireNextImageKHR(device_, swapchain_, UINT64_MAX, acquired_, VK_NULL_HANDLE, &index);
		if (r == VK_ERROR_OUT_OF_DATE_KHR) {
			++out_of_date;
			CreateSwapchain();
			--frame;
			continue;
		}
		if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) CHECK(r);
		RecordFrame(index, frame);
		VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
		VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
		submit.waitSemaphoreCount = 1;
		submit.pWaitSemaphores = &acquired_;
		submit.pWaitDstStageMask = &stage;
		submit.commandBufferCount = 1;
		submit.pCommandBuffers = &cb_;
		submit.signalSemaphoreCount = 1;
		submit.pSignalSemaphores = &rendered_;
		CHECK(vkQueueSubmit(queue_, 1, &submit, fence_));
		VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
		present.waitSemaphoreCount = 1;
		present.pWaitSemaphores = &rendered_;
		present.swapchainCount = 1;
		present.pSwapchains = &swapchain_;
		present.pImageIndices = &index;
		r = vkQueuePresentKHR(queue_, &present);
		CHECK(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX));
		CHECK(vkResetFences(device_, 1, &fence_));
		last_frame_.assign(readback_data_, readback_data_ + size_t(extent_.width) * extent_.height * 4);
		if (!options_.readback.empty()) {
			char name[32];
			std::snprintf(name, sizeof name, "/frame-%05u.png", frame);
			WritePng(options_.readback + name, readback_data_);
		}
		if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
			++out_of_date;
			CHECK(vkQueueWaitIdle(queue_));
			CreateSwapchain();
		} else {
			CHECK(r);
		}
	}
	CHECK(vkQueueWaitIdle(queue_));
	int status = 0;
	if (options_.check_window && connection_ && !CheckWindow()) status = 1;
	if (options_.resize_at >= 0 && out_of_date == 0) {
		std::fprintf(stderr, "the window was resized but the swapchain never went out of date\n");
		status = 1;
	}
	std::printf("%u frames, %u swapchain recreations, extent %ux%u\n", options_.frames, out_of_date, extent_.width,
	            extent_.height);

	DestroySwapchain();
	vkDestroySemaphore(device_, acquired_, nullptr);
	vkDestroySemaphore(device_, rendered_, nullptr);
	vkDestroyFence(device_, fence_, nullptr);
	vkDestroyPipeline(device_, pipeline_, nullptr);
	vkDestroyPipelineLayout(device_, layout_, nullptr);
	vkDestroyRenderPass(device_, render_pass_, nullptr);
	vkDestroyCommandPool(device_, pool_, nullptr);
	vkDestroyDevice(device_, nullptr);
	vkDestroySurfaceKHR(instance_, surface_, nullptr);
	if (messenger_) {
		auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
		    vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
		destroy(instance_, messenger_, nullptr);
	}
	vkDestroyInstance(instance_, nullptr);
	if (connection_) {
		xcb_destroy_window(connection_, window_);
#ifdef TESSERA_WINDOW_XLIB
		if (display_) {
			XCloseDisplay(static_cast<Display*>(display_));
			connection_ = nullptr;
		}
#endif
		if (connection_) xcb_disconnect(connection_);
	}
	if (g_validation_errors) {
		std::fprintf(stderr, "%u validation errors\n", g_validation_errors);
		status = 1;
	}
	return status;
}

}  // namespace

int main(int argc, char** argv) {
	Options options;
	for (int i = 1; i < argc; ++i) {
		std::string a = argv[i];
		if (a == "--frames" && i + 1 < argc)
			options.frames = uint32_t(std::atoi(argv[++i]));
		else if (a == "--size" && i + 1 < argc) {
			if (std::sscanf(argv[++i], "%ux%u", &options.width, &options.height) != 2) return 2;
		} else if (a == "--headless")
			options.headless = true;
		else if (a == "--xlib") {
#ifndef TESSERA_WINDOW_XLIB
			std::fprintf(stderr, "--xlib: built without Xlib\n");
			return 2;
#endif
			options.xlib = true;
		} else if (a == "--validate")
			options.validate = true;
		else if (a == "--readback" && i + 1 < argc)
			options.readback = argv[++i];
		else if (a == "--resize-at" && i + 1 < argc)
			options.resize_at = std::atoi(argv[++i]);
		else if (a == "--check-window")
			options.check_window = true;
		else if (a == "--grab" && i + 2 < argc)
			return Grab(argv[i + 1], argv[i + 2]);
		else if (a == "--compare" && i + 2 < argc)
			return Compare(argv[i + 1], argv[i + 2]);
		else {
			std::fprintf(stderr, "unknown option %s (see the top of examples/window_triangle.cpp)\n", a.c_str());
			return 2;
		}
	}
	return App(options).Run();
}
