#include "vk_context.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace tessera::test {

const char* DriverName(Driver driver) {
	switch (driver) {
	case Driver::Tessera: return "Tessera";
	case Driver::Lavapipe: return "lavapipe";
	case Driver::SwiftShader: return "SwiftShader";
	}
	return "?";
}

namespace {

bool Matches(Driver driver, const VkPhysicalDeviceProperties& p) {
	switch (driver) {
	case Driver::Tessera: return std::strncmp(p.deviceName, "Tessera", 7) == 0;
	case Driver::Lavapipe: return std::strncmp(p.deviceName, "llvmpipe", 8) == 0;
	case Driver::SwiftShader: return std::strncmp(p.deviceName, "SwiftShader", 11) == 0;
	}
	return false;
}

bool HasLayer(const char* name) {
	uint32_t count = 0;
	vkEnumerateInstanceLayerProperties(&count, nullptr);
	std::vector<VkLayerProperties> layers(count);
	vkEnumerateInstanceLayerProperties(&count, layers.data());
	for (auto& l : layers)
		if (std::strcmp(l.layerName, name) == 0) return true;
	return false;
}

// Under LeakSanitizer, a leak inside a driver or layer that the loader has
// already dlclose()d is reported from an "<unknown module>" that no
// suppression can name, and our own driver's leaks would be as anonymous.
// With TESSERA_PIN_DRIVERS set (the sanitizer pass sets it), the libraries
// named by VK_DRIVER_FILES and the validation layer are opened once with
// RTLD_NODELETE, so they stay mapped and every report names its library.
void PinDriversForLeakReports() {
	if (!std::getenv("TESSERA_PIN_DRIVERS")) return;
	std::vector<std::string> libraries = {"libVkLayer_khronos_validation.so"};
	if (const char* files = std::getenv("VK_DRIVER_FILES")) {
		std::stringstream list(files);
		for (std::string manifest; std::getline(list, manifest, ':');) {
			std::ifstream in(manifest);
			std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
			size_t key = text.find("\"library_path\"");
			size_t open = key == std::string::npos ? key : text.find('"', text.find(':', key));
			size_t close = open == std::string::npos ? open : text.find('"', open + 1);
			if (close != std::string::npos) libraries.push_back(text.substr(open + 1, close - open - 1));
		}
	}
	for (const std::string& library : libraries) dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}

}  // namespace

VKAPI_ATTR VkBool32 VKAPI_CALL Context::OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
	auto* self = static_cast<Context*>(user);
	if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
		++self->validation_errors_;
		self->validation_messages_.emplace_back(data->pMessage ? data->pMessage : "");
		std::fprintf(stderr, "[%s] validation error: %s\n", DriverName(self->driver_), data->pMessage);
	}
	return VK_FALSE;
}

std::unique_ptr<Context> Context::Create(Driver driver, const ContextOptions& options) {
	static const bool pinned = (PinDriversForLeakReports(), true);
	(void)pinned;
	std::unique_ptr<Context> ctx(new Context());
	ctx->driver_ = driver;

	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-tests";
	app.apiVersion = options.api_version;
	std::vector<const char*> layers;
	const char* kValidation = "VK_LAYER_KHRONOS_validation";
	if (options.validation && std::getenv("TESSERA_TEST_NO_VALIDATION") == nullptr && HasLayer(kValidation)) {
		layers.push_back(kValidation);
		ctx->validation_enabled_ = true;
	}
	std::vector<const char*> extensions = options.instance_extensions;
	extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

	VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
	messenger.messageSeverity =
	    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
	messenger.messageType =
	    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
	messenger.pfnUserCallback = &Context::OnMessage;
	messenger.pUserData = ctx.get();

	VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pNext = &messenger;
	ici.pApplicationInfo = &app;
	ici.enabledLayerCount = uint32_t(layers.size());
	ici.ppEnabledLayerNames = layers.data();
	ici.enabledExtensionCount = uint32_t(extensions.size());
	ici.ppEnabledExtensionNames = extensions.data();
	if (VkResult r = vkCreateInstance(&ici, nullptr, &ctx->instance_); r != VK_SUCCESS) {
		std::fprintf(stderr, "vkCreateInstance failed: %d\n", r);
		return nullptr;
	}
	auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
	    vkGetInstanceProcAddr(ctx->instance_, "vkCreateDebugUtilsMessengerEXT"));
	create_messenger(ctx->instance_, &messenger, nullptr, &ctx->messenger_);

	uint32_t count = 0;
	vkEnumeratePhysicalDevices(ctx->instance_, &count, nullptr);
	std::vector<VkPhysicalDevice> devices(count);
	vkEnumeratePhysicalDevices(ctx->instance_, &count, devices.data());
	for (VkPhysicalDevice d : devices) {
		VkPhysicalDeviceProperties p;
		vkGetPhysicalDeviceProperties(d, &p);
		if (Matches(driver, p)) ctx->physical_device_ = d;
	}
	if (!ctx->physical_device_) {
		std::fprintf(stderr, "no %s device: is VK_DRIVER_FILES set to include its manifest?\n", DriverName(driver));
		return nullptr;
	}

	float priority = 1.0f;
	std::vector<VkDeviceQueueCreateInfo> qci(1, {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO});
	qci[0].queueFamilyIndex = 0;
	qci[0].queueCount = 1;
	qci[0].pQueuePriorities = &priority;
	qci[0].flags = options.queue_flags;
	if (options.compute_queue || options.transfer_queue) {
		uint32_t count = 0;
		vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device_, &count, nullptr);
		std::vector<VkQueueFamilyProperties> families(count);
		vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device_, &count, families.data());
		// The first family whose flags among `kinds` are `wanted` (IGNORED
		// where none is). (A compute family need not list TRANSFER.)
		auto find = [&](VkQueueFlags kinds, VkQueueFlags wanted) {
			for (uint32_t i = 0; i < count; ++i)
				if ((families[i].queueFlags & kinds) == wanted) return i;
			return uint32_t(VK_QUEUE_FAMILY_IGNORED);
		};
		const VkQueueFlags graphics_compute = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
		if (options.compute_queue) ctx->compute_family_ = find(graphics_compute, VK_QUEUE_COMPUTE_BIT);
		if (options.transfer_queue)
			ctx->transfer_family_ = find(graphics_compute | VK_QUEUE_TRANSFER_BIT, VK_QUEUE_TRANSFER_BIT);
		for (uint32_t family : {ctx->compute_family_, ctx->transfer_family_})
			if (family != VK_QUEUE_FAMILY_IGNORED) {
				qci.push_back(qci[0]);
				qci.back().queueFamilyIndex = family;
			}
	}
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.pNext = options.device_features;
	dci.queueCreateInfoCount = uint32_t(qci.size());
	dci.pQueueCreateInfos = qci.data();
	dci.enabledExtensionCount = uint32_t(options.device_extensions.size());
	dci.ppEnabledExtensionNames = options.device_extensions.data();
	if (VkResult r = vkCreateDevice(ctx->physical_device_, &dci, nullptr, &ctx->device_); r != VK_SUCCESS) {
		std::fprintf(stderr, "vkCreateDevice failed on %s: %d\n", DriverName(driver), r);
		return nullptr;
	}
	auto get_queue = [&](uint32_t family, VkQueue* queue) {
		const VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, nullptr, options.queue_flags, family, 0};
		if (options.queue_flags)
			vkGetDeviceQueue2(ctx->device_, &info, queue);
		else
			vkGetDeviceQueue(ctx->device_, family, 0, queue);
	};
	get_queue(0, &ctx->queue_);
	if (ctx->compute_family_ != VK_QUEUE_FAMILY_IGNORED) get_queue(ctx->compute_family_, &ctx->compute_queue_);
	if (ctx->transfer_family_ != VK_QUEUE_FAMILY_IGNORED) get_queue(ctx->transfer_family_, &ctx->transfer_queue_);
	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	vkCreateCommandPool(ctx->device_, &pci, nullptr, &ctx->pool_);
	return ctx;
}

Context::~Context() {
	if (device_) {
		vkDeviceWaitIdle(device_);
		vkDestroyCommandPool(device_, pool_, nullptr);
		vkDestroyDevice(device_, nullptr);
	}
	if (messenger_) {
		auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
		    vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
		destroy(instance_, messenger_, nullptr);
	}
	if (instance_) vkDestroyInstance(instance_, nullptr);
}

uint32_t Context::MemoryType(uint32_t bits) const {
	VkPhysicalDeviceMemoryProperties props;
	vkGetPhysicalDeviceMemoryProperties(physical_device_, &props);
	VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
		if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
	return 0;
}

TestBuffer Context::CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                                 const std::vector<uint32_t>& concurrent_families) {
	TestBuffer b;
	b.size = size;
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.size = size;
	bci.usage = usage;
	if (concurrent_families.size() > 1) {
		bci.sharingMode = VK_SHARING_MODE_CONCURRENT;
		bci.queueFamilyIndexCount = uint32_t(concurrent_families.size());
		bci.pQueueFamilyIndices = concurrent_families.data();
	}
	vkCreateBuffer(device_, &bci, nullptr, &b.buffer);
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(device_, b.buffer, &req);
	// A buffer whose device address is taken needs memory allocated for that
	// (VUID-vkBindBufferMemory-bufferDeviceAddress-03339).
	VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
	flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	if (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) mai.pNext = &flags;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = MemoryType(req.memoryTypeBits);
	vkAllocateMemory(device_, &mai, nullptr, &b.memory);
	vkBindBufferMemory(device_, b.buffer, b.memory, 0);
	void* p = nullptr;
	vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &p);
	b.data = static_cast<uint8_t*>(p);
	return b;
}

void Context::Destroy(TestBuffer& b) {
	vkDestroyBuffer(device_, b.buffer, nullptr);
	vkFreeMemory(device_, b.memory, nullptr);
	b = {};
}

TestImage Context::CreateImage(const VkImageCreateInfo& info) {
	TestImage img;
	img.info = info;
	vkCreateImage(device_, &info, nullptr, &img.image);
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device_, img.image, &req);
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = MemoryType(req.memoryTypeBits);
	vkAllocateMemory(device_, &mai, nullptr, &img.memory);
	vkBindImageMemory(device_, img.image, img.memory, 0);
	return img;
}

TestImage Context::CreateImage2D(VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                                 uint32_t mip_levels, uint32_t layers, VkImageCreateFlags flags) {
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.flags = flags;
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = format;
	ici.extent = {width, height, 1};
	ici.mipLevels = mip_levels;
	ici.arrayLayers = layers;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = usage;
	ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	return CreateImage(ici);
}

void Context::Destroy(TestImage& img) {
	vkDestroyImage(device_, img.image, nullptr);
	vkFreeMemory(device_, img.memory, nullptr);
	img = {};
}

VkCommandBuffer Context::BeginOneTime() {
	VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cai.commandPool = pool_;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = 1;
	VkCommandBuffer cb;
	vkAllocateCommandBuffers(device_, &cai, &cb);
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	vkBeginCommandBuffer(cb, &bi);
	return cb;
}

void Context::EndAndWait(VkCommandBuffer cb) {
	vkEndCommandBuffer(cb);
	VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(device_, &fci, nullptr, &fence);
	vkQueueSubmit(queue_, 1, &si, fence);
	vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
	vkDestroyFence(device_, fence, nullptr);
	vkFreeCommandBuffers(device_, pool_, 1, &cb);
}

void Context::Transition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                         VkImageAspectFlags aspect) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
	b.oldLayout = from;
	b.newLayout = to;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
	                     1, &b);
}

void Context::TransferBarrier(VkCommandBuffer cb) {
	VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

bool WritePng(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba, uint32_t stride) {
	return stbi_write_png(path.c_str(), int(width), int(height), 4, rgba, int(stride)) != 0;
}

}  // namespace tessera::test
