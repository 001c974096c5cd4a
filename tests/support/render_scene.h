// Test support: one offscreen scene drawn through a graphics pipeline on
// either driver, read back as bytes. End-to-end draw tests describe a scene
// once and render it on Tessera and on lavapipe; benchmarks time the same.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
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
	// With dynamic rendering: the pipeline's color attachment formats (empty:
	// the scene's color_attachments of its color_format). Other counts and
	// VK_FORMAT_UNDEFINED need VK_EXT_dynamic_rendering_unused_attachments;
	// blend_attachments must then be as many.
	std::vector<VkFormat> color_formats;
	VkPipelineColorBlendStateCreateInfo color_blend{};
	std::vector<VkDynamicState> dynamic_states;
	uint32_t sample_mask = 0xffffffffu;
	const void* viewport_next = nullptr;      // VkPipelineViewportStateCreateInfo::pNext
	const void* vertex_input_next = nullptr;  // VkPipelineVertexInputStateCreateInfo::pNext
	const void* tessellation_next = nullptr;  // VkPipelineTessellationStateCreateInfo::pNext
	const void* rendering_next = nullptr;     // VkPipelineRenderingCreateInfo::pNext (dynamic rendering)
	// VkGraphicsPipelineCreateInfo::pNext (with dynamic rendering: after the
	// rendering info, in place of rendering_next).
	const void* pipeline_next = nullptr;
	// Null pRasterizationState / pTessellationState, which
	// VK_EXT_extended_dynamic_state3 allows when all their state is dynamic.
	bool null_rasterization_state = false;
	bool null_tessellation_state = false;
};

struct DrawCall {
	uint32_t count = 3;  // vertices, or indices when the scene has indices
	uint32_t instances = 1;
	uint32_t first = 0;
	int32_t vertex_offset = 0;
	uint32_t first_instance = 0;
};

// A texture for scene shaders: an image with its mip levels (and layers)
// uploaded before the draws, and a sampler (a combined image sampler).
struct SceneTexture {
	VkFormat format = VK_FORMAT_UNDEFINED;              // none when UNDEFINED; depth formats upload the depth aspect
	VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;  // CUBE: 6 layers, cube compatible
	uint32_t width = 0, height = 0, mips = 1, layers = 1;
	std::vector<uint8_t> data;  // level after level, each layer after layer, rows tightly packed
	VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	// Descriptors in the binding, each this image and sampler (an array for
	// shaders that index one).
	uint32_t array_count = 1;
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
	std::string geometry_shader;                            // empty: no geometry stage (set 0 resources reach it too)
	// Tessellation control and evaluation shaders (both or neither; push
	// constants and set 0 reach them too), and the patch size.
	std::string tess_control_shader, tess_eval_shader;
	uint32_t patch_control_points = 3;
	std::vector<uint8_t> vertices;
	uint32_t vertex_stride = 0;
	std::vector<VkVertexInputAttributeDescription> attributes;  // binding 0
	std::vector<uint8_t> instance_data;                         // binding 1, per instance, when not empty
	uint32_t instance_stride = 0;
	std::vector<uint32_t> indices;                  // drawn with vkCmdDrawIndexed (UINT32) when not empty
	VkIndexType index_type = VK_INDEX_TYPE_UINT32;  // UINT8_EXT needs the indexTypeUint8 feature
	std::vector<uint8_t> push_constants;            // vertex and fragment stages
	std::vector<uint8_t> uniform_data;              // a uniform buffer at set 0, binding 0, when not empty
	std::vector<uint8_t> storage_data;              // a storage buffer at set 0, binding 1, when not empty (read back)
	VkClearColorValue clear_color{{0, 0, 0, 1}};
	VkClearDepthStencilValue clear_depth_stencil{1.0f, 0};
	std::function<void(PipelineState&)> configure;
	// Commands after binding the pipeline and before the draws (dynamic state).
	std::function<void(VkCommandBuffer)> before_draws;
	std::vector<DrawCall> draws{DrawCall{}};
	// Static viewport and scissor (a zero width/extent: the whole image).
	VkViewport viewport{};
	VkRect2D scissor{};
	// Uploaded to a buffer with INDIRECT_BUFFER usage; record_draws, when
	// set, records the draws instead of `draws` and gets the scene's buffers
	// (VK_NULL_HANDLE where the scene has none).
	std::vector<uint8_t> indirect_data;
	struct Buffers {
		VkBuffer indirect, vertices, instances, indices;
		VkPipelineLayout layout;  // for vkCmdPushConstants
		VkShaderStageFlags push_stages;
		// With device_addresses: the same buffers' addresses (0 where none).
		VkDeviceAddress indirect_address, vertices_address, instances_address, indices_address;
	};
	// The indirect, vertex and index buffers have SHADER_DEVICE_ADDRESS
	// usage (the context must enable bufferDeviceAddress) and record_draws
	// gets their addresses (VK_KHR_device_address_commands).
	bool device_addresses = false;
	std::function<void(VkCommandBuffer, const Buffers&)> record_draws;
	// A second subpass (render passes only) that uses the same attachments
	// and draws these with the same pipeline state, after
	// second_push_constants (when not empty) are pushed.
	std::vector<DrawCall> second_subpass_draws;
	std::vector<uint8_t> second_push_constants;
	bool imageless_framebuffer = false;  // VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT, views given at begin
	// Array layers of every attachment (views, framebuffer and rendering
	// cover them all; draws reach layer 0). Read back layer after layer.
	uint32_t layers = 1;
	// With samples > 1: the depth/stencil attachment resolves (a render pass
	// is then made with vkCreateRenderPass2) into a single-sample image,
	// which SceneResult::depth / stencil read back.
	bool resolve_depth_stencil = false;
	// The modes of that resolve (and of implicit images' resolves, below).
	VkResolveModeFlagBits depth_resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	VkResolveModeFlagBits stencil_resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	// With samples > 1: every attachment is single-sampled and drawn through
	// the driver's implicit multisampled images
	// (VK_EXT_multisampled_render_to_single_sampled; a render pass is then
	// made with vkCreateRenderPass2, one subpass, no input attachment). The
	// color and depth/stencil images read back hold the driver's resolve.
	bool render_to_single_sampled = false;
	// The load op of every attachment (LOAD: the color and depth/stencil
	// images are first cleared to clear_color and clear_depth_stencil
	// outside the render pass, with vkCmdClear*Image).
	VkAttachmentLoadOp load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
	// vkCreateGraphicsPipelines' pipelineCache and VkGraphicsPipelineCreateInfo::flags.
	VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
	VkPipelineCreateFlags pipeline_flags = 0;
	// The pipeline made as four graphics pipeline libraries, one per state
	// subset, then linked (VK_EXT_graphics_pipeline_library: the context
	// must enable it). With library_inline_code the stages carry their
	// SPIR-V in a VkShaderModuleCreateInfo instead of a module; with
	// library_link_without_layout the linked pipeline names no layout (it
	// takes the union of its libraries'). The libraries are destroyed with
	// the pipeline, or right after linking with library_destroy_early (only
	// without the validation layer: version 1.3.239 crashes drawing with a
	// pipeline whose libraries are gone, which no valid-usage rule forbids).
	bool pipeline_libraries = false;
	bool library_inline_code = false;
	bool library_link_without_layout = false;
	bool library_destroy_early = false;
	// With dynamic rendering: the libraries without fragment output
	// interface state get a VkPipelineRenderingCreateInfo whose color
	// formats point nowhere (0xdeadbeef), which they must not read
	// (VkGraphicsPipelineCreateInfo renderPass-06579). Only without the
	// validation layer, which would read them.
	bool library_unread_color_formats = false;
	// A combined image sampler at set 0, binding 2 (vertex and fragment
	// stages), when texture.format is set.
	SceneTexture texture;
	// Set 0 lies in a descriptor buffer (VK_EXT_descriptor_buffer: the
	// context must enable descriptorBuffer and bufferDeviceAddress) instead of
	// a descriptor set. Not with pipeline libraries.
	bool descriptor_buffer = false;
	// A storage image of the scene's size at set 0, binding 3, cleared to
	// zero before the draws and read back (SceneResult::storage_image).
	VkFormat storage_image_format = VK_FORMAT_UNDEFINED;
	// Render passes with a second subpass: color attachment 0 of the first
	// subpass becomes an input attachment (set 0, binding 4) of the second,
	// which writes color attachment 1 instead (color_attachments must be 2;
	// the first subpass leaves attachment 1 alone; with samples > 1 the input
	// is the multisampled attachment 0). The second subpass uses
	// second_fragment_shader when set.
	bool input_attachment = false;
	std::string second_fragment_shader;
};

struct SceneResult {
	std::vector<std::vector<uint8_t>> colors;  // per attachment, tightly packed rows (then layers)
	std::vector<uint8_t> depth;                // the depth aspect, tightly packed (when a depth format is set)
	std::vector<uint8_t> stencil;              // the stencil aspect (when the format has one)
	std::vector<uint8_t> storage;              // the storage buffer after the draws
	std::vector<uint8_t> storage_image;        // the storage image after the draws, tightly packed
};

// The device features scene tests enable on both drivers (all of them are
// advertised by Tessera and lavapipe): Vulkan 1.1-1.3 feature structs
// chained, plus the core features draws use, VK_EXT_shader_stencil_export,
// VK_EXT_post_depth_coverage and VK_EXT_multisampled_render_to_single_sampled.
struct SceneFeatures {
	VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT single_sampled{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT};
	SceneFeatures();
	SceneFeatures(const SceneFeatures&) = delete;
	ContextOptions Options() const;  // points into this object
	// Options() with one more feature structure chained first (its pNext is
	// overwritten) and the extension that defines it.
	ContextOptions OptionsWith(void* feature, const char* extension) const;
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
// compares attachment 0 (all its layers) with CompareImages.
SceneResult CompareSceneWithLavapipe(const std::string& name, const Scene& scene, int tolerance,
                                     uint32_t max_outliers = 0);

// Both drivers' contexts kept for many scenes (a table test): creating a
// context costs far more than a small scene.
class ScenePair {
public:
	ScenePair();
	// Renders on both; returns {tessera, lavapipe}; checks no validation error.
	std::pair<SceneResult, SceneResult> Render(const Scene& scene);
	// Render, then CompareImages on attachment 0 (RGBA8-sized texels).
	SceneResult Compare(const std::string& name, const Scene& scene, int tolerance, uint32_t max_outliers = 0);
	Context& tessera() { return *tessera_; }
	Context& lavapipe() { return *lavapipe_; }

private:
	SceneFeatures features_;
	std::unique_ptr<Context> tessera_, lavapipe_;
};

}  // namespace tessera::test
