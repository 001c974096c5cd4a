// tessera-textured: a textured, lit, depth-tested scene rendered offscreen
// to a PNG: a cube standing on a floor that recedes into the distance.
//
//   VK_DRIVER_FILES=build/tessera_icd.json build/examples/tessera-textured textured.png
//
// What it adds to examples/triangle.cpp: vertex and index buffers, a depth
// buffer, a texture generated on the CPU, uploaded through a staging buffer
// and given a full mip chain with vkCmdBlitImage (each level a linear
// downscale of the one above), sampled with trilinear filtering through a
// descriptor set. The floor shows why mipmaps matter: far away, many texels
// fall into one pixel, and a smaller level averages them instead of aliasing.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// glm's default clip space is OpenGL's (z in [-1, 1]); Vulkan's is [0, 1].
#define GLM_FORCE_DEPTH_ZERO_TO_ONE
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "textured_frag.h"
#include "textured_vert.h"

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
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkFormat kTextureFormat = VK_FORMAT_R8G8B8A8_SRGB;  // filtered in linear space, stored as sRGB
constexpr uint32_t kTextureSize = 256;
constexpr uint32_t kMipLevels = 9;  // 256, 128, ..., 1

struct Vertex {
	glm::vec3 position, normal;
	glm::vec2 uv;
};

struct PushConstants {
	glm::mat4 view_projection;
	glm::mat4 model;
};

// Bricks: mortar lines every 32 texels, each row shifted by half a brick,
// each brick its own shade.
std::vector<uint8_t> BrickTexture() {
	std::vector<uint8_t> texels(kTextureSize * kTextureSize * 4);
	for (uint32_t y = 0; y < kTextureSize; ++y)
		for (uint32_t x = 0; x < kTextureSize; ++x) {
			uint32_t row = y / 32, shifted = x + (row % 2) * 32, column = shifted / 64;
			bool mortar = y % 32 < 3 || shifted % 64 < 3;
			uint32_t shade = (row * 7 + column * 13) % 5 * 12;
			uint8_t* t = &texels[(y * kTextureSize + x) * 4];
			t[0] = mortar ? 200 : uint8_t(150 + shade);
			t[1] = mortar ? 195 : uint8_t(60 + shade / 2);
			t[2] = mortar ? 185 : uint8_t(40);
			t[3] = 255;
		}
	return texels;
}

// A cube: four vertices per face (each face has its own normal), two
// triangles each, counter-clockwise seen from outside. Then the floor.
void Scene(std::vector<Vertex>& vertices, std::vector<uint16_t>& indices) {
	const glm::vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
	for (const glm::vec3& n : normals) {
		// Two axes spanning the face, chosen so that u x v = n.
		glm::vec3 u = n.y != 0 ? glm::vec3(1, 0, 0) : glm::normalize(glm::cross(glm::vec3(0, 1, 0), n));
		glm::vec3 v = glm::cross(n, u);
		uint16_t base = uint16_t(vertices.size());
		for (int i = 0; i < 4; ++i) {
			float s = (i == 1 || i == 2) ? 1.0f : 0.0f, t = (i >= 2) ? 1.0f : 0.0f;
			vertices.push_back({n + (2 * s - 1) * u + (2 * t - 1) * v, n, {s, 1 - t}});
		}
		indices.insert(indices.end(),
		               {base, uint16_t(base + 1), uint16_t(base + 2), base, uint16_t(base + 2), uint16_t(base + 3)});
	}
	// The floor: 40x40 units at y = -1, the texture repeated 16 times.
	uint16_t base = uint16_t(vertices.size());
	const float e = 20.0f, r = 16.0f;
	vertices.push_back({{-e, -1, e}, {0, 1, 0}, {0, 0}});
	vertices.push_back({{e, -1, e}, {0, 1, 0}, {r, 0}});
	vertices.push_back({{e, -1, -e}, {0, 1, 0}, {r, r}});
	vertices.push_back({{-e, -1, -e}, {0, 1, 0}, {0, r}});
	indices.insert(indices.end(),
	               {base, uint16_t(base + 1), uint16_t(base + 2), base, uint16_t(base + 2), uint16_t(base + 3)});
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

Image CreateImage(VkDevice device, VkPhysicalDevice physical, VkFormat format, uint32_t width, uint32_t height,
                  uint32_t levels, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = format;
	info.extent = {width, height, 1};
	info.mipLevels = levels;
	info.arrayLayers = 1;
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
	view.subresourceRange = {aspect, 0, levels, 0, 1};
	CHECK(vkCreateImageView(device, &view, nullptr, &image.view));
	return image;
}

struct Buffer {
	VkBuffer buffer;
	VkDeviceMemory memory;
	void* data;
};

Buffer CreateBuffer(VkDevice device, VkPhysicalDevice physical, VkDeviceSize size, VkBufferUsageFlags usage,
                    const void* contents = nullptr) {
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
	if (contents) std::memcpy(b.data, contents, size);
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

// A layout transition of some mip levels, making the accesses before it
// (src) available to the ones after it (dst).
void Barrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, uint32_t first_level, uint32_t levels,
             VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
             VkAccessFlags dst_access, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	barrier.srcAccessMask = src_access;
	barrier.dstAccessMask = dst_access;
	barrier.oldLayout = from;
	barrier.newLayout = to;
	barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	barrier.image = image;
	barrier.subresourceRange = {aspect, first_level, levels, 0, 1};
	vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace

int main(int argc, char** argv) {
	const char* output = argc > 1 ? argv[1] : "tessera-textured.png";

	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-textured";
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
	// Generating mipmaps with linear blits needs the texture format to
	// support blitting and linear filtering; not every format does.
	VkFormatProperties format_props;
	vkGetPhysicalDeviceFormatProperties(physical, kTextureFormat, &format_props);
	const VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
	                                    VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	if ((format_props.optimalTilingFeatures & needed) != needed) {
		std::fprintf(stderr, "the texture format cannot be blitted and filtered linearly here\n");
		return 1;
	}

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

	// Geometry in host-visible buffers (a CPU driver reads them in place;
	// a GPU program would usually copy them into device-local memory).
	std::vector<Vertex> vertices;
	std::vector<uint16_t> indices;
	Scene(vertices, indices);
	Buffer vertex_buffer = CreateBuffer(device, physical, vertices.size() * sizeof(Vertex),
	                                    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices.data());
	Buffer index_buffer = CreateBuffer(device, physical, indices.size() * sizeof(uint16_t),
	                                   VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indices.data());
	std::vector<uint8_t> texels = BrickTexture();
	Buffer staging = CreateBuffer(device, physical, texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, texels.data());
	Buffer readback =
	    CreateBuffer(device, physical, VkDeviceSize(kWidth) * kHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

	// The texture is a blit source and destination (its own mip chain) and
	// sampled; the attachments are drawn into.
	Image texture =
	    CreateImage(device, physical, kTextureFormat, kTextureSize, kTextureSize, kMipLevels,
	                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
	                VK_IMAGE_ASPECT_COLOR_BIT);
	Image color =
	    CreateImage(device, physical, kColorFormat, kWidth, kHeight, 1,
	                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
	Image depth = CreateImage(device, physical, kDepthFormat, kWidth, kHeight, 1,
	                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);

	// Trilinear filtering (linear within and between mip levels), repeating.
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
	sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	sci.maxLod = VK_LOD_CLAMP_NONE;
	VkSampler sampler;
	CHECK(vkCreateSampler(device, &sci, nullptr, &sampler));

	// One combined image sampler at set 0, binding 0, for the fragment stage.
	VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
	                                     nullptr};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 1;
	dslci.pBindings = &binding;
	VkDescriptorSetLayout set_layout;
	CHECK(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout));
	VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
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
	VkDescriptorImageInfo image_info{sampler, texture.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set;
	write.descriptorCount = 1;
	write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	write.pImageInfo = &image_info;
	vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

	// The pipeline: three vertex attributes, back faces culled, depth test on.
	VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(PushConstants)};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &push;
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(device, &plci, nullptr, &layout));
	VkShaderModule vs = CreateShader(device, kTexturedVert, sizeof kTexturedVert);
	VkShaderModule fs = CreateShader(device, kTexturedFrag, sizeof kTexturedFrag);
	VkPipelineShaderStageCreateInfo stages[2] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
	VkVertexInputBindingDescription vertex_binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
	VkVertexInputAttributeDescription attributes[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
	                                                   {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
	                                                   {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)}};
	VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	vertex_input.vertexBindingDescriptionCount = 1;
	vertex_input.pVertexBindingDescriptions = &vertex_binding;
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
	VkPipelineRenderingCreateInfo rendering_info{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering_info.colorAttachmentCount = 1;
	rendering_info.pColorAttachmentFormats = &kColorFormat;
	rendering_info.depthAttachmentFormat = kDepthFormat;
	VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	gpci.pNext = &rendering_info;
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
	VkPipeline pipeline;
	CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline));

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

	// The texture: level 0 from the staging buffer, then each level blitted
	// from the one above. A level is a blit destination (TRANSFER_DST) until
	// written, then a source (TRANSFER_SRC) for the next; at the end every
	// level becomes SHADER_READ_ONLY for the fragment shader.
	Barrier(cb, texture.image, VK_IMAGE_ASPECT_COLOR_BIT, 0, kMipLevels, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
	        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	VkBufferImageCopy upload{};
	upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	upload.imageExtent = {kTextureSize, kTextureSize, 1};
	vkCmdCopyBufferToImage(cb, staging.buffer, texture.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &upload);
	for (uint32_t level = 1; level < kMipLevels; ++level) {
		Barrier(cb, texture.image, VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
		        VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
		        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		int32_t src = int32_t(kTextureSize >> (level - 1)), dst = std::max(src / 2, 1);
		VkImageBlit blit{};
		blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1};
		blit.srcOffsets[1] = {src, src, 1};
		blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
		blit.dstOffsets[1] = {dst, dst, 1};
		vkCmdBlitImage(cb, texture.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, texture.image,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
	}
	Barrier(cb, texture.image, VK_IMAGE_ASPECT_COLOR_BIT, 0, kMipLevels - 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
	        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	Barrier(cb, texture.image, VK_IMAGE_ASPECT_COLOR_BIT, kMipLevels - 1, 1, VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
	        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

	// The attachments, into the layouts dynamic rendering uses.
	Barrier(cb, color.image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
	Barrier(cb, depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	        VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
	        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
	        VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);

	VkRenderingAttachmentInfo color_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
	color_attachment.imageView = color.view;
	color_attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	color_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	color_attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	color_attachment.clearValue.color = {{0.55f, 0.7f, 0.9f, 1.0f}};  // sky
	VkRenderingAttachmentInfo depth_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
	depth_attachment.imageView = depth.view;
	depth_attachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
	depth_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;  // only needed while drawing
	depth_attachment.clearValue.depthStencil = {1.0f, 0};
	VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
	rendering.renderArea = {{0, 0}, {kWidth, kHeight}};
	rendering.layerCount = 1;
	rendering.colorAttachmentCount = 1;
	rendering.pColorAttachments = &color_attachment;
	rendering.pDepthAttachment = &depth_attachment;
	vkCmdBeginRendering(cb, &rendering);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
	VkDeviceSize zero = 0;
	vkCmdBindVertexBuffers(cb, 0, 1, &vertex_buffer.buffer, &zero);
	vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
	PushConstants constants;
	glm::mat4 projection = glm::perspective(glm::radians(50.0f), float(kWidth) / kHeight, 0.1f, 60.0f);
	glm::mat4 view = glm::lookAt(glm::vec3(2.5f, 1.6f, 4.5f), glm::vec3(0, 0, 0), glm::vec3(0, 1, 0));
	constants.view_projection = projection * view;
	constants.model = glm::rotate(glm::mat4(1.0f), glm::radians(30.0f), glm::vec3(0, 1, 0));
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof constants, &constants);
	vkCmdDrawIndexed(cb, 36, 1, 0, 0, 0);  // the cube
	constants.model = glm::mat4(1.0f);
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof constants, &constants);
	vkCmdDrawIndexed(cb, 6, 1, 36, 0, 0);  // the floor
	vkCmdEndRendering(cb);

	Barrier(cb, color.image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
	        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
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
	std::printf("%s: %ux%u, a %u-level mipmapped texture\n", output, kWidth, kHeight, kMipLevels);

	vkDestroyCommandPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, vs, nullptr);
	vkDestroyShaderModule(device, fs, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroySampler(device, sampler, nullptr);
	for (Image* image : {&texture, &color, &depth}) {
		vkDestroyImageView(device, image->view, nullptr);
		vkDestroyImage(device, image->image, nullptr);
		vkFreeMemory(device, image->memory, nullptr);
	}
	for (Buffer* buffer : {&vertex_buffer, &index_buffer, &staging, &readback}) {
		vkDestroyBuffer(device, buffer->buffer, nullptr);
		vkFreeMemory(device, buffer->memory, nullptr);
	}
	vkDestroyDevice(device, nullptr);
	vkDestroyInstance(instance, nullptr);
	return 0;
}
