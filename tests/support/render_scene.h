// Test support: one offscreen scene drawn through a graphics pipeline on
// either driver, read back as bytes. End-to-end draw tests describe a scene
// once and render it on Tessera and on lavapipe; benchmarks time the same.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vk_context.h"

namespace tessera::test {

// The fixed-function state of the scene's pipeline, prefilled with common
// defaults (triangle list, no culling, depth test off, no blending); a
// scene's configure hook edits it before the pipeline is created.
struct PipelineState {
	VkPipelineInputAssemblyStateCreateInfo input_assembly{};
	VkPipelineRasterizationStateCreateInfo rasterization{};
	VkPipelineMultisampleStateCreateInfo multisample{};
	VkPipelineDepthStencilStateCreateInfo depth_stencil{};
	std::vector<VkPipelineColorBlendAttachmentState> blend_attachments;
	VkPipelineColorBlendStateCreateInfo color_blend{};
	std::vector<VkDynamicState> dynamic_states;
	uint32_t sample_mask = 0xffffffffu;
};

struct DrawCall {
	uint32_t count = 3;  // vertices, or indices when the scene has indices
	uint32_t instances = 1;
	uint32_t first = 0;
	int32_t vertex_offset = 0;
	uint32_t first_instance = 0;
};

struct Scene {
	uint32_t width = 64, height = 64;
	VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
	uint32_t color_attachments = 1;
	VkFormat depth_format = VK_FORMAT_UNDEFINED;            // a depth/stencil attachment when set
	VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // > 1: resolved into the color image
	bool dynamic_rendering = false;                         // vkCmdBeginRendering instead of a render pass
	std::string vertex_shader;                              // corpus file names (build/shaders)
	std::string fragment_shader;                            // empty: no fragment stage
	std::vector<uint8_t> vertices;
	uint32_t vertex_stride = 0;
	std::vector<VkVertexInputAttributeDescription> attributes;  // binding 0
	std::vector<uint8_t> instance_data;                         // binding 1, per instance, when not empty
	uint32_t instance_stride = 0;
	std::vector<uint32_t> indices;  // drawn with vkCmdDrawIndexed (UINT32) when not empty
	VkIndexType index_type = VK_INDEX_TYPE_UINT32;
	std::vector<uint8_t> push_constants;  // vertex and fragment stages
	std::vector<uint8_t> uniform_data;    // a uniform buffer at set 0, binding 0, when not empty
	VkClearColorValue clear_color{{0, 0, 0, 1}};
	VkClearDepthStencilValue clear_depth_stencil{1.0f, 0};
	std::function<void(PipelineState&)> configure;
	// Commands after binding the pipeline and before the draws (dynamic state).
	std::function<void(VkCommandBuffer)> before_draws;
	std::vector<DrawCall> draws{DrawCall{}};
	// vkCreateGraphicsPipelines' pipelineCache and VkGraphicsPipelineCreateInfo::flags.
	VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
	VkPipelineCreateFlags pipeline_flags = 0;
};

struct SceneResult {
	std::vector<std::vector<uint8_t>> colors;  // per attachment, tightly packed rows
	std::vector<uint8_t> depth;                // the depth aspect, tightly packed (when a depth format is set)
	std::vector<uint8_t> stencil;              // the stencil aspect (when the format has one)
};

// Renders the scene on ctx (through the loader); fails the test on error.
SceneResult RenderScene(Context& ctx, const Scene& scene);

// Compares two RGBA8-like images: every channel within `tolerance` codes,
// except at most `max_outliers` pixels. On failure writes both images (and
// their difference) as PNGs named <name>-tessera.png / -lavapipe.png /
// -diff.png in the working directory and fails the test.
void CompareImages(const std::string& name, uint32_t width, uint32_t height, const std::vector<uint8_t>& ours,
                   const std::vector<uint8_t>& reference, int tolerance, uint32_t max_outliers = 0);

// Renders the scene on both drivers (validation on, no errors allowed) and
// compares attachment 0 with CompareImages.
SceneResult CompareSceneWithLavapipe(const std::string& name, const Scene& scene, int tolerance,
                                     uint32_t max_outliers = 0);

}  // namespace tessera::test
