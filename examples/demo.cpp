// tessera-demo: renders a lit, depth-tested, indexed mesh offscreen with
// Vulkan through the system loader and writes it as a PNG.
//
//   VK_DRIVER_FILES=build/tessera_icd.json build/examples/tessera-demo out.png
//
// It is plain Vulkan 1.3 and runs on any driver: a render pass with a color
// and a depth attachment, one graphics pipeline (examples/shaders/mesh.*,
// compiled into the program at build time), a torus and a sphere drawn with
// vkCmdDrawIndexed, then a copy of the image into a buffer for the PNG.
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "mesh_frag.h"
#include "mesh_vert.h"

#define CHECK(call)                                                                              \
	do {                                                                                         \
		VkResult result_ = (call);                                                               \
		if (result_ != VK_SUCCESS) {                                                             \
			std::fprintf(stderr, "%s failed: %d (%s:%d)\n", #call, result_, __FILE__, __LINE__); \
			std::exit(1);                                                                        \
		}                                                                                        \
	} while (0)

namespace {

constexpr uint32_t kWidth = 640, kHeight = 480;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;  // PNG bytes are sRGB
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct Vertex {
	glm::vec3 position, normal;
};

struct Mesh {
	std::vector<Vertex> vertices;
	std::vector<uint32_t> indices;
	uint32_t first_index = 0;
	int32_t vertex_offset = 0;
};

// A grid of (rings + 1) x (segments + 1) vertices from a parametric surface,
// two triangles per cell, counter-clockwise seen from outside.
template <typename Surface>
Mesh Grid(uint32_t rings, uint32_t segments, Surface surface) {
	Mesh mesh;
	for (uint32_t i = 0; i <= rings; ++i)
		for (uint32_t j = 0; j <= segments; ++j) {
			Vertex v;
			surface(float(i) / rings, float(j) / segments, v);
			mesh.vertices.push_back(v);
		}
	for (uint32_t i = 0; i < rings; ++i)
		for (uint32_t j = 0; j < segments; ++j) {
			uint32_t a = i * (segments + 1) + j, b = a + segments + 1;
			mesh.indices.insert(mesh.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
		}
	return mesh;
}

Mesh Torus(float major, float minor) {
	return Grid(48, 96, [&](float u, float v, Vertex& out) {
		float theta = u * 2 * float(M_PI), phi = v * 2 * float(M_PI);
		glm::vec3 center(major * std::cos(phi), 0, -major * std::sin(phi));
		out.normal = glm::vec3(std::cos(theta) * std::cos(phi), std::sin(theta), -std::cos(theta) * std::sin(phi));
		out.position = center + minor * out.normal;
	});
}

Mesh Sphere(float radius) {
	return Grid(32, 64, [&](float u, float v, Vertex& out) {
		float theta = u * float(M_PI), phi = v * 2 * float(M_PI);
		out.normal = glm::vec3(std::sin(theta) * std::cos(phi), std::cos(theta), -std::sin(theta) * std::sin(phi));
		out.position = radius * out.normal;
	});
}

// 128 bytes, the smallest maxPushConstantsSize a device may report.
struct PushConstants {
	glm::mat4 view_projection;
	glm::mat4 model;
};
static_assert(sizeof(PushConstants) <= 128);

// Each object's color, read per instance (binding 1): the torus is drawn as
// instance 0, the sphere as instance 1.
const glm::vec3 kColors[2] = {{0.95f, 0.45f, 0.15f}, {0.2f, 0.55f, 0.95f}};

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

Image CreateAttachment(VkDevice device, VkPhysicalDevice physical, VkFormat format, VkImageUsageFlags usage,
                       VkImageAspectFlags aspect) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = format;
	info.extent = {kWidth, kHeight, 1};
	info.mipLevels = info.arrayLayers = 1;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = usage;
	Image image;
	CHECK(vkCreateImage(device, &info, nullptr, &image.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device, image.image, &req);
	image.memory = Allocate(device, physical, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	CHECK(vkBindImageMemory(device, image.image, image.memory, 0));
	VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	view.image = image.image;
	view.viewType = VK_IMAGE_VIEW_TYPE_2D;
	view.format = format;
	view.subresourceRange = {aspect, 0, 1, 0, 1};
	CHECK(vkCreateImageView(device, &view, nullptr, &image.view));
	return image;
}

struct Buffer {
	VkBuffer buffer;
	VkDeviceMemory memory;
	void* data;
};

Buffer CreateBuffer(VkDevice device, VkPhysicalDevice physical, VkDeviceSize size, VkBufferUsageFlags usage) {
	VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	info.size = size;
	info.usage = usage;
	Buffer b;
	CHECK(vkCreateBuffer(device, &info, nullptr, &b.buffer));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(device, b.buffer, &req);
	b.memory =
	    Allocate(device, physical, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
	CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.data));
	return b;
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
		std::fprintf(stderr, "no Vulkan device found (is VK_DRIVER_FILES set?)\n");
		return 1;
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(physical, &props);

	float priority = 1.0f;
	VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	qci.queueFamilyIndex = 0;  // CPU drivers have one graphics+compute+transfer family
	qci.queueCount = 1;
	qci.pQueuePriorities = &priority;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	VkDevice device;
	CHECK(vkCreateDevice(physical, &dci, nullptr, &device));
	VkQueue queue;
	vkGetDeviceQueue(device, 0, 0, &queue);

	// The meshes, in one vertex and one index buffer.
	Mesh torus = Torus(1.0f, 0.35f), sphere = Sphere(0.55f);
	sphere.first_index = uint32_t(torus.indices.size());
	sphere.vertex_offset = int32_t(torus.vertices.size());
	std::vector<Vertex> vertices = torus.vertices;
	vertices.insert(vertices.end(), sphere.vertices.begin(), sphere.vertices.end());
	std::vector<uint32_t> indices = torus.indices;
	indices.insert(indices.end(), sphere.indices.begin(), sphere.indices.end());
	Buffer vertex_buffer =
	    CreateBuffer(device, physical, vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
	std::memcpy(vertex_buffer.data, vertices.data(), vertices.size() * sizeof(Vertex));
	Buffer color_buffer = CreateBuffer(device, physical, sizeof kColors, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
	std::memcpy(color_buffer.data, kColors, sizeof kColors);
	Buffer index_buffer = CreateBuffer(device, physical, indices.size() * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
	std::memcpy(index_buffer.data, indices.data(), indices.size() * 4);
	Buffer readback =
	    CreateBuffer(device, physical, VkDeviceSize(kWidth) * kHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

	Image color = CreateAttachment(device, physical, kColorFormat,
	                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
	                               VK_IMAGE_ASPECT_COLOR_BIT);
	Image depth = CreateAttachment(device, physical, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
	                               VK_IMAGE_ASPECT_DEPTH_BIT);

	// Render pass: clear both, keep color for the copy that follows.
	VkAttachmentDescription attachments[2] = {};
	attachments[0].format = kColorFormat;
	attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
	attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	attachments[1] = attachments[0];
	attachments[1].format = kDepthFormat;
	attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
	VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &color_ref;
	subpass.pDepthStencilAttachment = &depth_ref;
	VkSubpassDependency to_copy{};
	to_copy.srcSubpass = 0;
	to_copy.dstSubpass = VK_SUBPASS_EXTERNAL;
	to_copy.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	to_copy.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	to_copy.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 2;
	rpci.pAttachments = attachments;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	rpci.dependencyCount = 1;
	rpci.pDependencies = &to_copy;
	VkRenderPass pass;
	CHECK(vkCreateRenderPass(device, &rpci, nullptr, &pass));
	VkImageView views[2] = {color.view, depth.view};
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = pass;
	fci.attachmentCount = 2;
	fci.pAttachments = views;
	fci.width = kWidth;
	fci.height = kHeight;
	fci.layers = 1;
	VkFramebuffer framebuffer;
	CHECK(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer));

	// The pipeline: position and normal from binding 0, the color per instance
	// from binding 1, transforms as push constants.
	VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(PushConstants)};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &push;
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(device, &plci, nullptr, &layout));
	VkShaderModule vs = CreateShader(device, kMeshVert, sizeof kMeshVert);
	VkShaderModule fs = CreateShader(device, kMeshFrag, sizeof kMeshFrag);
	VkPipelineShaderStageCreateInfo stages[2] = {};
	stages[0] = {
	    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"};
	stages[1] = {
	    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"};
	VkVertexInputBindingDescription bindings[2] = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX},
	                                               {1, sizeof(glm::vec3), VK_VERTEX_INPUT_RATE_INSTANCE}};
	VkVertexInputAttributeDescription attributes[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
	                                                   {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
	                                                   {2, 1, VK_FORMAT_R32G32B32_SFLOAT, 0}};
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	vertex_input.vertexBindingDescriptionCount = 2;
	vertex_input.pVertexBindingDescriptions = bindings;
	vertex_input.vertexAttributeDescriptionCount = 3;
	vertex_input.pVertexAttributeDescriptions = attributes;
	VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	// Negative viewport height: y up in clip space, as in OpenGL and glm.
	VkViewport viewport{0, float(kHeight), float(kWidth), -float(kHeight), 0, 1};
	VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
	VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	viewport_state.viewportCount = 1;
	viewport_state.pViewports = &viewport;
	viewport_state.scissorCount = 1;
	viewport_state.pScissors = &scissor;
	VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	raster.polygonMode = VK_POLYGON_MODE_FILL;
	raster.cullMode = VK_CULL_MODE_BACK_BIT;
	raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	raster.lineWidth = 1.0f;
	VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineDepthStencilStateCreateInfo depth_state{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	depth_state.depthTestEnable = VK_TRUE;
	depth_state.depthWriteEnable = VK_TRUE;
	depth_state.depthCompareOp = VK_COMPARE_OP_LESS;
	VkPipelineColorBlendAttachmentState blend{};
	blend.colorWriteMask = 0xf;
	VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	blend_state.attachmentCount = 1;
	blend_state.pAttachments = &blend;
	VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	gpci.stageCount = 2;
	gpci.pStages = stages;
	gpci.pVertexInputState = &vertex_input;
	gpci.pInputAssemblyState = &assembly;
	gpci.pViewportState = &viewport_state;
	gpci.pRasterizationState = &raster;
	gpci.pMultisampleState = &multisample;
	gpci.pDepthStencilState = &depth_state;
	gpci.pColorBlendState = &blend_state;
	gpci.layout = layout;
	gpci.renderPass = pass;
	VkPipeline pipeline;
	CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline));

	// Record: the pass, two indexed draws, the copy to the readback buffer.
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
	VkClearValue clears[2];
	clears[0].color = {{0.02f, 0.025f, 0.04f, 1.0f}};
	clears[1].depthStencil = {1.0f, 0};
	VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
	rpbi.renderPass = pass;
	rpbi.framebuffer = framebuffer;
	rpbi.renderArea = {{0, 0}, {kWidth, kHeight}};
	rpbi.clearValueCount = 2;
	rpbi.pClearValues = clears;
	vkCmdBeginRenderPass(cb, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
	const VkBuffer vertex_buffers[2] = {vertex_buffer.buffer, color_buffer.buffer};
	const VkDeviceSize offsets[2] = {0, 0};
	vkCmdBindVertexBuffers(cb, 0, 2, vertex_buffers, offsets);
	vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT32);
	glm::mat4 projection = glm::perspective(glm::radians(45.0f), float(kWidth) / kHeight, 0.1f, 20.0f);
	// glm's clip space has z in [-1, 1]; Vulkan's is [0, 1].
	glm::mat4 z_to_vulkan(1.0f);
	z_to_vulkan[2][2] = 0.5f;
	z_to_vulkan[3][2] = 0.5f;
	glm::mat4 view = glm::lookAt(glm::vec3(0, 1.2f, 4.0f), glm::vec3(0, 0, 0), glm::vec3(0, 1, 0));
	PushConstants constants;
	constants.view_projection = z_to_vulkan * projection * view;
	constants.model = glm::rotate(glm::mat4(1.0f), glm::radians(28.0f), glm::vec3(1, 0, 0.3f));
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof constants, &constants);
	vkCmdDrawIndexed(cb, uint32_t(torus.indices.size()), 1, torus.first_index, torus.vertex_offset, 0);
	constants.model = glm::mat4(1.0f);
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof constants, &constants);
	vkCmdDrawIndexed(cb, uint32_t(sphere.indices.size()), 1, sphere.first_index, sphere.vertex_offset, 1);
	vkCmdEndRenderPass(cb);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {kWidth, kHeight, 1};
	vkCmdCopyImageToBuffer(cb, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
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

	if (!stbi_write_png(output, kWidth, kHeight, 4, readback.data, kWidth * 4)) {
		std::fprintf(stderr, "could not write %s\n", output);
		return 1;
	}
	std::printf("%s: %ux%u, %zu triangles, rendered by %s\n", output, kWidth, kHeight, indices.size() / 3,
	            props.deviceName);

	vkDestroyCommandPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, vs, nullptr);
	vkDestroyShaderModule(device, fs, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyFramebuffer(device, framebuffer, nullptr);
	vkDestroyRenderPass(device, pass, nullptr);
	for (Image* image : {&color, &depth}) {
		vkDestroyImageView(device, image->view, nullptr);
		vkDestroyImage(device, image->image, nullptr);
		vkFreeMemory(device, image->memory, nullptr);
	}
	for (Buffer* buffer : {&vertex_buffer, &color_buffer, &index_buffer, &readback}) {
		vkDestroyBuffer(device, buffer->buffer, nullptr);
		vkFreeMemory(device, buffer->memory, nullptr);
	}
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);
	return 0;
}
