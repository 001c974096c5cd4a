// tessera-compute-image: image processing with a compute shader. Reads a
// PNG (or makes a test pattern when none is given), runs Sobel edge
// detection over it (examples/shaders/edges.comp) and writes the result.
//
//   VK_DRIVER_FILES=build/tessera_icd.json build/examples/tessera-compute-image [in.png [out.png]]
//
// With no input, or `--pattern` as the input, it makes its own test image.
// What it shows: storage images bound through a descriptor set, a compute
// pipeline dispatched over the image in 8x8 workgroups, and the barriers
// between the upload, the shader and the readback.
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "edges_comp.h"

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			std::exit(1);                                                                        \
		}                                                                                        \
	} while (0)

namespace {

// Storage images need a format with STORAGE_IMAGE support; RGBA8 UNORM has
// it on every Vulkan driver (Vulkan 1.3 §34.3, mandatory format support).
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

// A test pattern with edges in every direction: rings and a checkerboard.
std::vector<uint8_t> TestPattern(uint32_t width, uint32_t height) {
	std::vector<uint8_t> pixels(size_t(width) * height * 4);
	for (uint32_t y = 0; y < height; ++y)
		for (uint32_t x = 0; x < width; ++x) {
			float dx = x - width / 2.0f, dy = y - height / 2.0f;
			bool ring = int(std::sqrt(dx * dx + dy * dy) / 24) % 2;
			bool check = ((x / 32) + (y / 32)) % 2;
			uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
			p[0] = ring ? 230 : 40;
			p[1] = check ? 200 : 60;
			p[2] = uint8_t(255 * x / width);
			p[3] = 255;
		}
	return pixels;
}

uint32_t MemoryType(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags flags) {
	VkPhysicalDeviceMemoryProperties props;
	vkGetPhysicalDeviceMemoryProperties(physical, &props);
	for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
		if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags) return i;
	std::fprintf(stderr, "no suitable memory type\n");
	std::exit(1);
}

VkDeviceMemory Allocate(VkDevice device, VkPhysicalDevice physical, VkMemoryRequirements req,
                        VkMemoryPropertyFlags flags) {
	VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	info.allocationSize = req.size;
	info.memoryTypeIndex = MemoryType(physical, req.memoryTypeBits, flags);
	VkDeviceMemory memory;
	CHECK(vkAllocateMemory(device, &info, nullptr, &memory));
	return memory;
}

struct Image {
	VkImage image;
	VkDeviceMemory memory;
	VkImageView view;
};

Image CreateStorageImage(VkDevice device, VkPhysicalDevice physical, uint32_t width, uint32_t height,
                         VkImageUsageFlags usage) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = kFormat;
	info.extent = {width, height, 1};
	info.mipLevels = info.arrayLayers = 1;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_STORAGE_BIT | usage;
	Image image;
	CHECK(vkCreateImage(device, &info, nullptr, &image.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device, image.image, &req);
	image.memory = Allocate(device, physical, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	CHECK(vkBindImageMemory(device, image.image, image.memory, 0));
	VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	view.image = image.image;
	view.viewType = VK_IMAGE_VIEW_TYPE_2D;
	view.format = kFormat;
	view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	CHECK(vkCreateImageView(device, &view, nullptr, &image.view));
	return image;
}

// One barrier for a whole color image: the access before it (src) happens
// and is visible to the access after it (dst), with a layout change.
void Barrier(VkCommandBuffer cb, VkImage image, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
             VkPipelineStageFlags dst_stage, VkAccessFlags dst_access, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	barrier.srcAccessMask = src_access;
	barrier.dstAccessMask = dst_access;
	barrier.oldLayout = from;
	barrier.newLayout = to;
	barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	barrier.image = image;
	barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace

int main(int argc, char** argv) {
	const char* input = argc > 1 && std::strcmp(argv[1], "--pattern") != 0 ? argv[1] : nullptr;
	const char* output = argc > 2 ? argv[2] : "tessera-edges.png";

	// The source pixels, as RGBA8 whatever the PNG's own channel count.
	int width = 512, height = 384;
	std::vector<uint8_t> pixels;
	if (input) {
		int channels;
		stbi_uc* loaded = stbi_load(input, &width, &height, &channels, 4);
		if (!loaded) {
			std::fprintf(stderr, "could not read %s: %s\n", input, stbi_failure_reason());
			return 1;
		}
		pixels.assign(loaded, loaded + size_t(width) * height * 4);
		stbi_image_free(loaded);
	} else {
		pixels = TestPattern(width, height);
	}
	const VkDeviceSize bytes = pixels.size();

	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-compute-image";
	app.apiVersion = VK_API_VERSION_1_3;
	VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pApplicationInfo = &app;
	VkInstance instance;
	CHECK(vkCreateInstance(&ici, nullptr, &instance));
	uint32_t count = 1;
	VkPhysicalDevice physical;
	VkResult enumerated = vkEnumeratePhysicalDevices(instance, &count, &physical);
	if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0) {
		std::fprintf(stderr, "no Vulkan device found (is VK_DRIVER_FILES set?)\n");
		return 1;
	}
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueFamilyIndex = 0;  // CPU drivers have one graphics+compute+transfer family
	qci.queueCount = 1;
	qci.pQueuePriorities = &priority;
	// glslang writes the workgroup size of SPIR-V 1.6 shaders as LocalSizeId,
	// which needs the maintenance4 feature (core in Vulkan 1.3, enabled here).
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features13.maintenance4 = VK_TRUE;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.pNext = &features13;
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	VkDevice device;
	CHECK(vkCreateDevice(physical, &dci, nullptr, &device));
	VkQueue queue;
	vkGetDeviceQueue(device, 0, 0, &queue);

	// Two storage images (the shader reads one, writes the other) and one
	// host-visible buffer used both to upload and to read back.
	Image source = CreateStorageImage(device, physical, width, height, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	Image destination = CreateStorageImage(device, physical, width, height, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bci.size = bytes;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkBuffer staging;
	CHECK(vkCreateBuffer(device, &bci, nullptr, &staging));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(device, staging, &req);
	VkDeviceMemory staging_memory =
	    Allocate(device, physical, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(vkBindBufferMemory(device, staging, staging_memory, 0));
	void* mapped;
	CHECK(vkMapMemory(device, staging_memory, 0, VK_WHOLE_SIZE, 0, &mapped));
	std::memcpy(mapped, pixels.data(), bytes);

	// The shader's interface: binding 0 the source, binding 1 the destination,
	// both storage images (layout GENERAL while the shader uses them).
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	CHECK(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout));
	VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = 1;
	dpci.pPoolSizes = &pool_size;
	VkDescriptorPool descriptor_pool;
	CHECK(vkCreateDescriptorPool(device, &dpci, nullptr, &descriptor_pool));
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = descriptor_pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(device, &dsai, &set));
	VkDescriptorImageInfo image_infos[2] = {{VK_NULL_HANDLE, source.view, VK_IMAGE_LAYOUT_GENERAL},
	                                        {VK_NULL_HANDLE, destination.view, VK_IMAGE_LAYOUT_GENERAL}};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set;
	write.dstBinding = 0;
	write.descriptorCount = 2;  // fills bindings 0 and 1 in turn
	write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
	write.pImageInfo = image_infos;
	vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

	// The compute pipeline: one shader stage and the layout of its resources.
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(device, &plci, nullptr, &layout));
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = sizeof kEdgesComp;
	smci.pCode = kEdgesComp;
	VkShaderModule shader;
	CHECK(vkCreateShaderModule(device, &smci, nullptr, &shader));
	VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = {
	    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, shader, "main"};
	cpci.layout = layout;
	VkPipeline pipeline;
	CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline));

	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	pci.queueFamilyIndex = 0;
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(device, &pci, nullptr, &pool));
	VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cbai.commandPool = pool;
	cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cbai.commandBufferCount = 1;
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(device, &cbai, &cb));
	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	CHECK(vkBeginCommandBuffer(cb, &begin));

	// Upload: buffer -> source image.
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {uint32_t(width), uint32_t(height), 1};
	Barrier(cb, source.image, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdCopyBufferToImage(cb, staging, source.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
	// The shader reads what the copy wrote; the destination's old contents
	// do not matter (UNDEFINED), it only has to be in GENERAL.
	Barrier(cb, source.image, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	        VK_IMAGE_LAYOUT_GENERAL);
	Barrier(cb, destination.image, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	        VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);

	// One invocation per pixel, 8x8 per workgroup, rounded up: the shader
	// returns early for the pixels past the border.
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
	vkCmdDispatch(cb, (width + 7) / 8, (height + 7) / 8, 1);

	// Readback: destination image -> the same buffer -> host.
	Barrier(cb, destination.image, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
	        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
	        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	vkCmdCopyImageToBuffer(cb, destination.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging, 1, &region);
	VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0,
	                     nullptr);
	CHECK(vkEndCommandBuffer(cb));

	VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	submit.commandBufferCount = 1;
	submit.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(queue));
	if (!stbi_write_png(output, width, height, 4, mapped, width * 4)) {
		std::fprintf(stderr, "could not write %s\n", output);
		return 1;
	}
	std::printf("%s: %dx%d, edges of %s\n", output, width, height, input ? input : "a test pattern");

	vkDestroyCommandPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, shader, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyBuffer(device, staging, nullptr);
	vkFreeMemory(device, staging_memory, nullptr);
	for (Image* image : {&source, &destination}) {
		vkDestroyImageView(device, image->view, nullptr);
		vkDestroyImage(device, image->image, nullptr);
		vkFreeMemory(device, image->memory, nullptr);
	}
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);
	return 0;
}
