// tessera-demo: renders an image with Vulkan through the system loader and
// writes it as a PNG. Today it builds a mosaic from transfer commands
// (clears, image-to-image copies and a buffer upload); it becomes a lit,
// depth-tested mesh when the graphics pipeline lands.
//
//   VK_DRIVER_FILES=build/tessera_icd.json build/examples/tessera-demo out.png
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			std::exit(1);                                                                        \
		}                                                                                        \
	} while (0)

namespace {

constexpr uint32_t kWidth = 512, kHeight = 512, kTile = 32;

struct Image {
	VkImage image;
	VkDeviceMemory memory;
};

VkDeviceMemory Allocate(VkDevice device, VkMemoryRequirements req) {
	VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	info.allocationSize = req.size;
	info.memoryTypeIndex = 0;  // the first type is host-visible on CPU drivers; checked below
	VkDeviceMemory memory;
	CHECK(vkAllocateMemory(device, &info, nullptr, &memory));
	return memory;
}

Image CreateImage(VkDevice device, uint32_t width, uint32_t height) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = VK_FORMAT_R8G8B8A8_SRGB;
	info.extent = {width, height, 1};
	info.mipLevels = 1;
	info.arrayLayers = 1;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	Image image;
	CHECK(vkCreateImage(device, &info, nullptr, &image.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device, image.image, &req);
	image.memory = Allocate(device, req);
	CHECK(vkBindImageMemory(device, image.image, image.memory, 0));
	return image;
}

void Barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
	b.oldLayout = from;
	b.newLayout = to;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
	                     1, &b);
}

}  // namespace

int main(int argc, char** argv) {
	const char* output = argc > 1 ? argv[1] : "tessera-demo.png";

	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-demo";
	app.apiVersion = VK_API_VERSION_1_3;
	VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pApplicationInfo = &app;
	VkInstance instance;
	CHECK(vkCreateInstance(&ici, nullptr, &instance));

	uint32_t count = 1;
	VkPhysicalDevice physical;
	VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical);
	if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0) {
		std::fprintf(stderr, "no Vulkan device found\n");
		return 1;
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(physical, &props);
	VkPhysicalDeviceMemoryProperties memory_props;
	vkGetPhysicalDeviceMemoryProperties(physical, &memory_props);
	if (!(memory_props.memoryTypes[0].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
		std::fprintf(stderr, "%s: memory type 0 is not host-visible; this demo expects a CPU driver\n",
		             props.deviceName);
		return 1;
	}
	std::printf("device: %s\n", props.deviceName);

	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueCount = 1;
	qci.pQueuePriorities = &priority;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	VkDevice device;
	CHECK(vkCreateDevice(physical, &dci, nullptr, &device));
	VkQueue queue;
	vkGetDeviceQueue(device, 0, 0, &queue);

	Image canvas = CreateImage(device, kWidth, kHeight);
	// A palette of tiles, each cleared to its own color.
	const float kPalette[][4] = {{0.90f, 0.45f, 0.20f, 1}, {0.95f, 0.80f, 0.30f, 1}, {0.20f, 0.55f, 0.75f, 1},
	                             {0.10f, 0.30f, 0.50f, 1}, {0.85f, 0.85f, 0.80f, 1}, {0.55f, 0.20f, 0.25f, 1}};
	constexpr uint32_t kColors = sizeof kPalette / sizeof kPalette[0];
	std::vector<Image> tiles;
	for (uint32_t i = 0; i < kColors; ++i) tiles.push_back(CreateImage(device, kTile - 2, kTile - 2));

	// A staging buffer: the readback, and a gradient uploaded into the centre.
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.size = VkDeviceSize(kWidth) * kHeight * 4;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkBuffer buffer;
	CHECK(vkCreateBuffer(device, &bci, nullptr, &buffer));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(device, buffer, &req);
	VkDeviceMemory buffer_memory = Allocate(device, req);
	CHECK(vkBindBufferMemory(device, buffer, buffer_memory, 0));
	uint8_t* pixels;
	CHECK(vkMapMemory(device, buffer_memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&pixels)));
	const uint32_t disc = 192;
	for (uint32_t y = 0; y < disc; ++y)
		for (uint32_t x = 0; x < disc; ++x) {
			float dx = (x + 0.5f) / disc * 2 - 1, dy = (y + 0.5f) / disc * 2 - 1;
			float r = std::sqrt(dx * dx + dy * dy);
			uint8_t* p = pixels + (y * disc + x) * 4;
			p[0] = uint8_t(255 * (0.5f + 0.5f * dx));
			p[1] = uint8_t(255 * (0.5f + 0.5f * dy));
			p[2] = uint8_t(255 * std::fmax(0.0f, 1 - r));
			p[3] = 255;
		}

	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(device, &pci, nullptr, &pool));
	VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cai.commandPool = pool;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = 1;
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(device, &cai, &cb));
	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	CHECK(vkBeginCommandBuffer(cb, &begin));

	VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	Barrier(cb, canvas.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	VkClearColorValue grout{{0.06f, 0.06f, 0.07f, 1.0f}};
	vkCmdClearColorImage(cb, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grout, 1, &whole);
	for (uint32_t i = 0; i < kColors; ++i) {
		Barrier(cb, tiles[i].image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkClearColorValue color;
		std::memcpy(color.float32, kPalette[i], sizeof color.float32);
		vkCmdClearColorImage(cb, tiles[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &whole);
		Barrier(cb, tiles[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	}
	// Lay the tiles in waves.
	for (uint32_t ty = 0; ty < kHeight / kTile; ++ty)
		for (uint32_t tx = 0; tx < kWidth / kTile; ++tx) {
			float wave = std::sin(tx * 0.45f) + std::cos(ty * 0.35f) + 0.3f * std::sin((tx + ty) * 0.9f);
			uint32_t color = uint32_t((wave + 2.5f) / 5.0f * kColors) % kColors;
			VkImageCopy copy{};
			copy.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			copy.dstSubresource = copy.srcSubresource;
			copy.dstOffset = {int32_t(tx * kTile + 1), int32_t(ty * kTile + 1), 0};
			copy.extent = {kTile - 2, kTile - 2, 1};
			vkCmdCopyImage(cb, tiles[color].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, canvas.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
		}
	VkBufferImageCopy upload{};
	upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	upload.imageOffset = {int32_t(kWidth - disc) / 2, int32_t(kHeight - disc) / 2, 0};
	upload.imageExtent = {disc, disc, 1};
	vkCmdCopyBufferToImage(cb, buffer, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &upload);
	Barrier(cb, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	VkBufferImageCopy readback{};
	readback.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	readback.imageExtent = {kWidth, kHeight, 1};
	vkCmdCopyImageToBuffer(cb, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &readback);
	VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0,
	                     nullptr);
	CHECK(vkEndCommandBuffer(cb));

	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	CHECK(vkCreateFence(device, &fci, nullptr, &fence));
	VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	submit.commandBufferCount = 1;
	submit.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &submit, fence));
	CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

	if (!stbi_write_png(output, kWidth, kHeight, 4, pixels, kWidth * 4)) {
		std::fprintf(stderr, "could not write %s\n", output);
		return 1;
	}
	std::printf("wrote %s (%ux%u)\n", output, kWidth, kHeight);

	vkDestroyFence(device, fence, nullptr);
	vkDestroyCommandPool(device, pool, nullptr);
	vkUnmapMemory(device, buffer_memory);
	vkDestroyBuffer(device, buffer, nullptr);
	vkFreeMemory(device, buffer_memory, nullptr);
	for (Image& t : tiles) {
		vkDestroyImage(device, t.image, nullptr);
		vkFreeMemory(device, t.memory, nullptr);
	}
	vkDestroyImage(device, canvas.image, nullptr);
	vkFreeMemory(device, canvas.memory, nullptr);
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);
	return 0;
}
