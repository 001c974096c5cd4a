// tessera-triangle: the smallest complete Vulkan program that draws. One
// triangle, rendered offscreen with dynamic rendering (Vulkan 1.3: no render
// pass or framebuffer objects), copied into a buffer and written as a PNG.
//
//   VK_DRIVER_FILES=build/tessera_icd.json build/examples/tessera-triangle triangle.png
//
// The steps every Vulkan program goes through: instance, physical device,
// device and queue; memory for an image and a buffer; a pipeline from SPIR-V
// (examples/shaders/triangle.*, compiled into the program at build time); a
// command buffer recorded, submitted and waited for.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "triangle_frag.h"
#include "triangle_vert.h"

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			std::exit(1);                                                                        \
		}                                                                                        \
	} while (0)

namespace {

constexpr uint32_t kWidth = 256, kHeight = 256;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_SRGB;  // PNG bytes are sRGB

// Memory comes in types with different properties; pick the first one the
// resource accepts (bits) that has the properties we need (flags).
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

VkShaderModule CreateShader(VkDevice device, const uint32_t* code, size_t bytes) {
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	info.codeSize = bytes;
	info.pCode = code;
	VkShaderModule module;
	CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
	return module;
}

}  // namespace

int main(int argc, char** argv) {
	const char* output = argc > 1 ? argv[1] : "tessera-triangle.png";

	// 1. An instance (the connection to the loader) and its first device.
	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-triangle";
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

	// 2. A logical device with one queue, and dynamic rendering turned on
	// (a Vulkan 1.3 feature every 1.3 driver has, but it must be enabled).
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features13.dynamicRendering = VK_TRUE;
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueFamilyIndex = 0;  // CPU drivers have one graphics+compute+transfer family
	qci.queueCount = 1;
	qci.pQueuePriorities = &priority;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.pNext = &features13;
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	VkDevice device;
	CHECK(vkCreateDevice(physical, &dci, nullptr, &device));
	VkQueue queue;
	vkGetDeviceQueue(device, 0, 0, &queue);

	// 3. The image we draw into (device memory) and a buffer the host can
	// read it back from (host-visible memory, mapped).
	VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	image_info.imageType = VK_IMAGE_TYPE_2D;
	image_info.format = kFormat;
	image_info.extent = {kWidth, kHeight, 1};
	image_info.mipLevels = image_info.arrayLayers = 1;
	image_info.samples = VK_SAMPLE_COUNT_1_BIT;
	image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
	image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VkImage image;
	CHECK(vkCreateImage(device, &image_info, nullptr, &image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device, image, &req);
	VkDeviceMemory image_memory = Allocate(device, physical, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	CHECK(vkBindImageMemory(device, image, image_memory, 0));
	VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	view_info.image = image;
	view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
	view_info.format = kFormat;
	view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView view;
	CHECK(vkCreateImageView(device, &view_info, nullptr, &view));

	VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	buffer_info.size = VkDeviceSize(kWidth) * kHeight * 4;
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkBuffer readback;
	CHECK(vkCreateBuffer(device, &buffer_info, nullptr, &readback));
	vkGetBufferMemoryRequirements(device, readback, &req);
	VkDeviceMemory readback_memory =
	    Allocate(device, physical, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(vkBindBufferMemory(device, readback, readback_memory, 0));
	void* pixels;
	CHECK(vkMapMemory(device, readback_memory, 0, VK_WHOLE_SIZE, 0, &pixels));

	// 4. The graphics pipeline: two shader stages and the fixed-function
	// state. With dynamic rendering it names the attachment formats itself.
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(device, &plci, nullptr, &layout));
	VkShaderModule vs = CreateShader(device, kTriangleVert, sizeof kTriangleVert);
	VkShaderModule fs = CreateShader(device, kTriangleFrag, sizeof kTriangleFrag);
	VkPipelineShaderStageCreateInfo stages[2] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	VkViewport viewport{0, 0, float(kWidth), float(kHeight), 0, 1};
	VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
	VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport_state.viewportCount = 1;
	viewport_state.pViewports = &viewport;
	viewport_state.scissorCount = 1;
	viewport_state.pScissors = &scissor;
	VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	raster.polygonMode = VK_POLYGON_MODE_FILL;
	raster.cullMode = VK_CULL_MODE_NONE;
	raster.lineWidth = 1.0f;
	VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineColorBlendAttachmentState blend{};
	blend.colorWriteMask = 0xf;
	VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	blend_state.attachmentCount = 1;
	blend_state.pAttachments = &blend;
	VkPipelineRenderingCreateInfo rendering_info{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering_info.colorAttachmentCount = 1;
	rendering_info.pColorAttachmentFormats = &kFormat;
	VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	gpci.pNext = &rendering_info;
	gpci.stageCount = 2;
	gpci.pStages = stages;
	gpci.pVertexInputState = &vertex_input;
	gpci.pInputAssemblyState = &assembly;
	gpci.pViewportState = &viewport_state;
	gpci.pRasterizationState = &raster;
	gpci.pMultisampleState = &multisample;
	gpci.pColorBlendState = &blend_state;
	gpci.layout = layout;
	VkPipeline pipeline;
	CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline));

	// 5. Record: image to attachment layout, draw, image to transfer layout,
	// copy to the buffer, make the copy visible to the host.
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

	VkImageMemoryBarrier to_attachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	to_attachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	to_attachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // old contents may be discarded
	to_attachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	to_attachment.srcQueueFamilyIndex = to_attachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	to_attachment.image = image;
	to_attachment.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
	                     nullptr, 0, nullptr, 1, &to_attachment);

	VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
	color.imageView = view;
	color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	color.clearValue.color = {{0.05f, 0.05f, 0.08f, 1.0f}};
	VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
	rendering.renderArea = {{0, 0}, {kWidth, kHeight}};
	rendering.layerCount = 1;
	rendering.colorAttachmentCount = 1;
	rendering.pColorAttachments = &color;
	vkCmdBeginRendering(cb, &rendering);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
	vkCmdDraw(cb, 3, 1, 0, 0);  // three vertices, one instance
	vkCmdEndRendering(cb);

	VkImageMemoryBarrier to_transfer = to_attachment;
	to_transfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	to_transfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
	                     nullptr, 0, nullptr, 1, &to_transfer);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {kWidth, kHeight, 1};
	vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
	VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0,
	                     nullptr);
	CHECK(vkEndCommandBuffer(cb));

	// 6. Submit, wait, and the pixels are in the mapped buffer.
	VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	submit.commandBufferCount = 1;
	submit.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(queue));
	if (!stbi_write_png(output, kWidth, kHeight, 4, pixels, kWidth * 4)) {
		std::fprintf(stderr, "could not write %s\n", output);
		return 1;
	}
	std::printf("%s: %ux%u\n", output, kWidth, kHeight);

	// Everything created is destroyed, children before their parents.
	vkDestroyCommandPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, vs, nullptr);
	vkDestroyShaderModule(device, fs, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyBuffer(device, readback, nullptr);
	vkFreeMemory(device, readback_memory, nullptr);
	vkDestroyImageView(device, view, nullptr);
	vkDestroyImage(device, image, nullptr);
	vkFreeMemory(device, image_memory, nullptr);
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);
	return 0;
}
