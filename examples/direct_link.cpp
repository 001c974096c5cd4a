// tessera-direct-link: uses Tessera as a library, without the Vulkan loader.
// The program links libtessera_vulkan itself, takes every command from its
// exported vkGetInstanceProcAddr, clears an image, copies it into a buffer
// and checks the bytes. Exit status 0 means every pixel came back right.
//
//   build/examples/tessera-direct-link
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstring>

// The one symbol taken from the library by name; everything else comes
// through it, as the spec's "Command Function Pointers" section describes.
extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName);

namespace {

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			return 1;                                                                            \
		}                                                                                        \
	} while (0)

#define LOAD(get, object, name)                                   \
	auto name = reinterpret_cast<PFN_##name>(get(object, #name)); \
	if (!name) {                                                  \
		std::fprintf(stderr, "%s is missing\n", #name);           \
		return 1;                                                 \
	}

constexpr uint32_t kWidth = 64, kHeight = 32;

int Run() {
	LOAD(vkGetInstanceProcAddr, nullptr, vkCreateInstance);
	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-direct-link";
	app.apiVersion = VK_API_VERSION_1_3;
	VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	instance_info.pApplicationInfo = &app;
	VkInstance instance;
	CHECK(vkCreateInstance(&instance_info, nullptr, &instance));

	LOAD(vkGetInstanceProcAddr, instance, vkDestroyInstance);
	LOAD(vkGetInstanceProcAddr, instance, vkEnumeratePhysicalDevices);
	LOAD(vkGetInstanceProcAddr, instance, vkGetPhysicalDeviceProperties);
	LOAD(vkGetInstanceProcAddr, instance, vkCreateDevice);
	LOAD(vkGetInstanceProcAddr, instance, vkGetDeviceProcAddr);

	uint32_t count = 1;
	VkPhysicalDevice physical;
	VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical);
	if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count != 1) {
		std::fprintf(stderr, "no physical device\n");
		return 1;
	}
	VkPhysicalDeviceProperties properties;
	vkGetPhysicalDeviceProperties(physical, &properties);
	std::printf("device: %s\n", properties.deviceName);

	float priority = 1.0f;
	VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	queue_info.queueFamilyIndex = 0;
	queue_info.queueCount = 1;
	queue_info.pQueuePriorities = &priority;
	VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	device_info.queueCreateInfoCount = 1;
	device_info.pQueueCreateInfos = &queue_info;
	VkDevice device;
	CHECK(vkCreateDevice(physical, &device_info, nullptr, &device));

	LOAD(vkGetDeviceProcAddr, device, vkDestroyDevice);
	LOAD(vkGetDeviceProcAddr, device, vkGetDeviceQueue);
	LOAD(vkGetDeviceProcAddr, device, vkCreateImage);
	LOAD(vkGetDeviceProcAddr, device, vkDestroyImage);
	LOAD(vkGetDeviceProcAddr, device, vkCreateBuffer);
	LOAD(vkGetDeviceProcAddr, device, vkDestroyBuffer);
	LOAD(vkGetDeviceProcAddr, device, vkGetImageMemoryRequirements);
	LOAD(vkGetDeviceProcAddr, device, vkGetBufferMemoryRequirements);
	LOAD(vkGetDeviceProcAddr, device, vkAllocateMemory);
	LOAD(vkGetDeviceProcAddr, device, vkFreeMemory);
	LOAD(vkGetDeviceProcAddr, device, vkBindImageMemory);
	LOAD(vkGetDeviceProcAddr, device, vkBindBufferMemory);
	LOAD(vkGetDeviceProcAddr, device, vkMapMemory);
	LOAD(vkGetDeviceProcAddr, device, vkCreateCommandPool);
	LOAD(vkGetDeviceProcAddr, device, vkDestroyCommandPool);
	LOAD(vkGetDeviceProcAddr, device, vkAllocateCommandBuffers);
	LOAD(vkGetDeviceProcAddr, device, vkBeginCommandBuffer);
	LOAD(vkGetDeviceProcAddr, device, vkEndCommandBuffer);
	LOAD(vkGetDeviceProcAddr, device, vkCmdPipelineBarrier);
	LOAD(vkGetDeviceProcAddr, device, vkCmdClearColorImage);
	LOAD(vkGetDeviceProcAddr, device, vkCmdCopyImageToBuffer);
	LOAD(vkGetDeviceProcAddr, device, vkQueueSubmit);
	LOAD(vkGetDeviceProcAddr, device, vkQueueWaitIdle);

	VkQueue queue;
	vkGetDeviceQueue(device, 0, 0, &queue);

	VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	image_info.imageType = VK_IMAGE_TYPE_2D;
	image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
	image_info.extent = {kWidth, kHeight, 1};
	image_info.mipLevels = 1;
	image_info.arrayLayers = 1;
	image_info.samples = VK_SAMPLE_COUNT_1_BIT;
	image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
	image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	VkImage image;
	CHECK(vkCreateImage(device, &image_info, nullptr, &image));
	VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	buffer_info.size = kWidth * kHeight * 4;
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkBuffer buffer;
	CHECK(vkCreateBuffer(device, &buffer_info, nullptr, &buffer));

	// Tessera's one memory type is host-visible, so both live in type 0.
	VkMemoryRequirements image_req, buffer_req;
	vkGetImageMemoryRequirements(device, image, &image_req);
	vkGetBufferMemoryRequirements(device, buffer, &buffer_req);
	VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	alloc.allocationSize = image_req.size;
	VkDeviceMemory image_memory, buffer_memory;
	CHECK(vkAllocateMemory(device, &alloc, nullptr, &image_memory));
	alloc.allocationSize = buffer_req.size;
	CHECK(vkAllocateMemory(device, &alloc, nullptr, &buffer_memory));
	CHECK(vkBindImageMemory(device, image, image_memory, 0));
	CHECK(vkBindBufferMemory(device, buffer, buffer_memory, 0));

	VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(device, &pool_info, nullptr, &pool));
	VkCommandBufferAllocateInfo cb_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cb_info.commandPool = pool;
	cb_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cb_info.commandBufferCount = 1;
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(device, &cb_info, &cb));

	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	CHECK(vkBeginCommandBuffer(cb, &begin));
	VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageMemoryBarrier to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	to_dst.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_dst.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	to_dst.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	to_dst.srcQueueFamilyIndex = to_dst.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	to_dst.image = image;
	to_dst.subresourceRange = range;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &to_dst);
	VkClearColorValue color{};
	color.float32[0] = 1.0f;
	color.float32[1] = 0.5f;
	color.float32[2] = 0.0f;
	color.float32[3] = 1.0f;
	vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
	VkImageMemoryBarrier to_src = to_dst;
	to_src.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_src.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	to_src.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	to_src.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
	                     1, &to_src);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {kWidth, kHeight, 1};
	vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);
	CHECK(vkEndCommandBuffer(cb));

	VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	submit.commandBufferCount = 1;
	submit.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(queue));

	void* mapped;
	CHECK(vkMapMemory(device, buffer_memory, 0, VK_WHOLE_SIZE, 0, &mapped));
	// UNORM: 1.0 -> 255, 0.5 -> round(127.5) = 128 (Vulkan 1.3, "Conversion from Floating-Point to Normalized
	// Fixed-Point"), 0 -> 0.
	const uint8_t expected[4] = {255, 128, 0, 255};
	const auto* bytes = static_cast<const uint8_t*>(mapped);
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < kWidth * kHeight; ++i)
		if (std::memcmp(bytes + 4 * i, expected, 4) != 0) ++wrong;
	uint8_t first[4];
	std::memcpy(first, bytes, 4);

	vkDestroyCommandPool(device, pool, nullptr);
	vkDestroyBuffer(device, buffer, nullptr);
	vkDestroyImage(device, image, nullptr);
	vkFreeMemory(device, buffer_memory, nullptr);
	vkFreeMemory(device, image_memory, nullptr);
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);

	if (wrong) {
		std::fprintf(stderr, "%u of %u pixels differ from %u,%u,%u,%u (first: %u,%u,%u,%u)\n", wrong, kWidth * kHeight,
		             expected[0], expected[1], expected[2], expected[3], first[0], first[1], first[2], first[3]);
		return 1;
	}
	std::printf("cleared %ux%u image read back correctly\n", kWidth, kHeight);
	return 0;
}

}  // namespace

int main() { return Run(); }
