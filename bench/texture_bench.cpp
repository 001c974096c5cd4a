// Texture sampling throughput: a full-screen quad at 1920x1080 (a receding
// plane, shaders/plane.vert) sampling a 1024x1024 RGBA8 texture with all
// its mip levels, minified: trilinear, then 16x anisotropic (both drivers
// report samplerAnisotropy), and trilinear from the same texture in
// RGBA16F (the format of HDR environment maps). Tessera next to lavapipe in one run; each
// iteration submits one prerecorded command buffer (render pass with a
// clear, one draw) and waits for its fence. The same quad shading a
// Mandelbrot instead (bench_mandelbrot.frag): arithmetic, not texels. And
// fill rate: 8 flat-colored full-screen quads in one draw, opaque and
// blended (bench_layer.*), the fixed-function path's own cost. BC1 and BC7
// textures on the plane, in one draw and in 256, and a D32 shadow map
// through a compare sampler. Run with
// TESSERA_JIT=off and =sync to compare the tiers.
//
//   build/bench/tessera_texture_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include <glm/gtc/packing.hpp>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080, kTexture = 1024, kLevels = 11;

Context* GetContext(Driver driver) {
	static std::map<Driver, std::unique_ptr<Context>> contexts;
	static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	features.features.samplerAnisotropy = VK_TRUE;
	auto& ctx = contexts[driver];
	if (!ctx) {
		ContextOptions options;
		options.validation = false;  // measure the driver, not the layer
		options.device_features = &features;
		ctx = Context::Create(driver, options);
	}
	return ctx.get();
}

// What a scene draws: its shaders, how many vertices and instances, and
// whether color blends (source alpha over the destination).
struct SceneOptions {
	float anisotropy = 1;
	const char* vertex_shader = "plane.vert.spv";
	const char* fragment_shader = "tex_implicit.frag.spv";
	uint32_t vertices = 6, instances = 1;
	bool blend = false;
	VkFormat texture_format = VK_FORMAT_R8G8B8A8_UNORM;  // or R16G16B16A16_SFLOAT
	bool array_view = false;  // the texture through a 2D_ARRAY view (fragment_shader samples an array)
	bool cube = false;        // a 512^2 cube map (6 layers, mipmapped) through a CUBE view
	// Block-compressed (BC1, BC7: random blocks, all valid encodings), and
	// the screen drawn as grid x grid draws, each scissored to its cell.
	uint32_t grid = 1;
	// A D32_SFLOAT shadow map (texture_format) read through a compare
	// sampler (LESS, LINEAR: 2x2 percentage-closer filtering).
	bool shadow = false;
};

// Bytes of one 4x4 block of a BC format, 0 for uncompressed ones.
uint32_t BlockBytes(VkFormat format) {
	switch (format) {
	case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
	case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return 8;
	case VK_FORMAT_BC7_UNORM_BLOCK:
	case VK_FORMAT_BC7_SRGB_BLOCK: return 16;
	default: return 0;
	}
}

// Everything one driver needs: the texture (uploaded), attachment, pass,
// pipeline, descriptor set and a recorded command buffer.
class PlaneScene {
public:
	PlaneScene(Context& ctx, const SceneOptions& options) : ctx_(ctx), options_(options) {
		const float anisotropy = options.anisotropy;
		VkDevice d = ctx.device();
		// The texture: a checkerboard of 16-texel cells at every level.
		const bool half = options.texture_format == VK_FORMAT_R16G16B16A16_SFLOAT;
		const uint32_t side = options.cube ? kTexture / 2 : kTexture;
		levels_ = options.cube ? kLevels - 1 : kLevels;
		layers_ = options.cube ? 6 : 1;
		VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		image.flags = options.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
		image.imageType = VK_IMAGE_TYPE_2D;
		image.format = options.texture_format;
		image.extent = {side, side, 1};
		image.mipLevels = levels_;
		image.arrayLayers = layers_;
		image.samples = VK_SAMPLE_COUNT_1_BIT;
		image.tiling = VK_IMAGE_TILING_OPTIMAL;
		image.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
		texture_ = ctx.CreateImage(image);
		std::vector<uint8_t> texels;
		std::vector<VkBufferImageCopy> regions;
		const uint32_t block_bytes = BlockBytes(options.texture_format);
		aspect_ = options.shadow ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
		uint32_t random = 12345;
		for (uint32_t level = 0; level < levels_ * layers_; ++level) {
			const uint32_t layer = level % layers_, mip = level / layers_;
			const uint32_t n = side >> mip, cell = std::max(1u, 16u >> mip);
			VkBufferImageCopy r{};
			r.bufferOffset = texels.size();
			r.imageSubresource = {aspect_, mip, layer, 1};
			r.imageExtent = {n, n, 1};
			regions.push_back(r);
			if (options.shadow) {  // depths: the checkerboard's cells at 0.25 and 0.75
				for (uint32_t y = 0; y < n; ++y)
					for (uint32_t x = 0; x < n; ++x) {
						const float depth = (x / cell + y / cell) % 2 == 0 ? 0.25f : 0.75f;
						const uint8_t* bytes = reinterpret_cast<const uint8_t*>(&depth);
						texels.insert(texels.end(), bytes, bytes + 4);
					}
				continue;
			}
			if (block_bytes) {
				const uint32_t blocks = (n + 3) / 4;
				for (uint32_t k = 0; k < blocks * blocks * block_bytes; ++k) {
					random = random * 1664525u + 1013904223u;
					texels.push_back(uint8_t(random >> 24));
				}
				continue;
			}
			for (uint32_t y = 0; y < n; ++y)
				for (uint32_t x = 0; x < n; ++x) {
					const bool on = (x / cell + y / cell) % 2 == 0;
					const uint8_t texel[4] = {uint8_t(on ? 230 : 40 + 30 * layer), uint8_t(on ? 200 : 60),
					                          uint8_t(mip * 20), 255};
					if (!half) {
						texels.insert(texels.end(), texel, texel + 4);
						continue;
					}
					for (uint8_t v : texel) {  // as halves: value / 255 (HDR data would go past 1)
						const uint16_t h = glm::packHalf1x16(float(v) / 255.0f);
						texels.insert(texels.end(), {uint8_t(h), uint8_t(h >> 8)});
					}
				}
		}
		TestBuffer upload = ctx.CreateBuffer(texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
		std::memcpy(upload.data, texels.data(), texels.size());
		ctx.Submit([&](VkCommandBuffer cb) {
			Barrier(cb, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			vkCmdCopyBufferToImage(cb, upload.buffer, texture_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                       uint32_t(regions.size()), regions.data());
			Barrier(cb, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
		});
		ctx.Destroy(upload);
		texture_view_ = View(texture_.image, levels_, options.texture_format,
		                     options.cube         ? VK_IMAGE_VIEW_TYPE_CUBE
		                     : options.array_view ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
		                                          : VK_IMAGE_VIEW_TYPE_2D,
		                     layers_, aspect_);
		VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
		si.magFilter = si.minFilter = VK_FILTER_LINEAR;
		si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
		si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
		si.maxLod = VK_LOD_CLAMP_NONE;
		si.anisotropyEnable = anisotropy > 1.0f;
		si.compareEnable = options.shadow;
		si.compareOp = VK_COMPARE_OP_LESS;
		si.maxAnisotropy = anisotropy;
		vkCreateSampler(d, &si, nullptr, &sampler_);

		color_ = ctx.CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		color_view_ = View(color_.image, 1, VK_FORMAT_R8G8B8A8_UNORM);
		VkAttachmentDescription a{};
		a.format = VK_FORMAT_R8G8B8A8_UNORM;
		a.samples = VK_SAMPLE_COUNT_1_BIT;
		a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		a.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
		VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
		VkSubpassDescription subpass{};
		subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		subpass.colorAttachmentCount = 1;
		subpass.pColorAttachments = &color_ref;
		VkRenderPassCreateInfo rp{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		rp.attachmentCount = 1;
		rp.pAttachments = &a;
		rp.subpassCount = 1;
		rp.pSubpasses = &subpass;
		vkCreateRenderPass(d, &rp, nullptr, &pass_);
		VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fb.renderPass = pass_;
		fb.attachmentCount = 1;
		fb.pAttachments = &color_view_;
		fb.width = kWidth;
		fb.height = kHeight;
		fb.layers = 1;
		vkCreateFramebuffer(d, &fb, nullptr, &framebuffer_);

		VkDescriptorSetLayoutBinding binding{2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
		                                     VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
		VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		dli.bindingCount = 1;
		dli.pBindings = &binding;
		vkCreateDescriptorSetLayout(d, &dli, nullptr, &set_layout_);
		VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
		VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		dpi.maxSets = 1;
		dpi.poolSizeCount = 1;
		dpi.pPoolSizes = &size;
		vkCreateDescriptorPool(d, &dpi, nullptr, &descriptor_pool_);
		VkDescriptorSetAllocateInfo dai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		dai.descriptorPool = descriptor_pool_;
		dai.descriptorSetCount = 1;
		dai.pSetLayouts = &set_layout_;
		vkAllocateDescriptorSets(d, &dai, &set_);
		VkDescriptorImageInfo ii{sampler_, texture_view_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
		VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		w.dstSet = set_;
		w.dstBinding = 2;
		w.descriptorCount = 1;
		w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
		w.pImageInfo = &ii;
		vkUpdateDescriptorSets(d, 1, &w, 0, nullptr);
		VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		li.setLayoutCount = 1;
		li.pSetLayouts = &set_layout_;
		vkCreatePipelineLayout(d, &li, nullptr, &layout_);
		vs_ = Module(options.vertex_shader);
		fs_ = Module(options.fragment_shader);
		pipeline_ = CreatePipeline();

		VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		vkCreateCommandPool(d, &pci, nullptr, &pool_);
		VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		cai.commandPool = pool_;
		cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
		cai.commandBufferCount = 1;
		vkAllocateCommandBuffers(d, &cai, &cb_);
		VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		vkBeginCommandBuffer(cb_, &bi);
		VkClearValue clear;
		clear.color = {{0.05f, 0.05f, 0.08f, 1}};
		VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		rbi.renderPass = pass_;
		rbi.framebuffer = framebuffer_;
		rbi.renderArea = {{0, 0}, {kWidth, kHeight}};
		rbi.clearValueCount = 1;
		rbi.pClearValues = &clear;
		vkCmdBeginRenderPass(cb_, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
		vkCmdBindDescriptorSets(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
		const uint32_t grid = options.grid;
		for (uint32_t cell = 0; cell < grid * grid; ++cell) {
			if (grid > 1) {
				const uint32_t x = cell % grid, y = cell / grid;
				VkRect2D scissor{
				    {int32_t(kWidth * x / grid), int32_t(kHeight * y / grid)},
				    {kWidth * (x + 1) / grid - kWidth * x / grid, kHeight * (y + 1) / grid - kHeight * y / grid}};
				vkCmdSetScissor(cb_, 0, 1, &scissor);
			}
			vkCmdDraw(cb_, options.vertices, options.instances, 0, 0);
		}
		vkCmdEndRenderPass(cb_);
		vkEndCommandBuffer(cb_);
	}

	~PlaneScene() {
		VkDevice d = ctx_.device();
		vkDestroyCommandPool(d, pool_, nullptr);
		vkDestroyPipeline(d, pipeline_, nullptr);
		vkDestroyShaderModule(d, vs_, nullptr);
		vkDestroyShaderModule(d, fs_, nullptr);
		vkDestroyPipelineLayout(d, layout_, nullptr);
		vkDestroyDescriptorPool(d, descriptor_pool_, nullptr);
		vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
		vkDestroyFramebuffer(d, framebuffer_, nullptr);
		vkDestroyRenderPass(d, pass_, nullptr);
		vkDestroyImageView(d, color_view_, nullptr);
		vkDestroyImageView(d, texture_view_, nullptr);
		vkDestroySampler(d, sampler_, nullptr);
		ctx_.Destroy(color_);
		ctx_.Destroy(texture_);
	}

	void Frame(VkFence fence) {
		VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb_;
		vkQueueSubmit(ctx_.queue(), 1, &si, fence);
		vkWaitForFences(ctx_.device(), 1, &fence, VK_TRUE, UINT64_MAX);
		vkResetFences(ctx_.device(), 1, &fence);
	}

private:
	void Barrier(VkCommandBuffer cb, VkImageLayout from, VkImageLayout to) {
		VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
		b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
		b.oldLayout = from;
		b.newLayout = to;
		b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		b.image = texture_.image;
		b.subresourceRange = {aspect_, 0, levels_, 0, layers_};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr,
		                     0, nullptr, 1, &b);
	}
	VkPipeline CreatePipeline() {
		VkPipelineShaderStageCreateInfo stages[2] = {};
		for (int i = 0; i < 2; ++i) {
			stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
			stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
			stages[i].module = i == 0 ? vs_ : fs_;
			stages[i].pName = "main";
		}
		VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
		VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
		ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
		VkViewport viewport{0, 0, float(kWidth), float(kHeight), 0, 1};
		VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
		VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
		vp.viewportCount = vp.scissorCount = 1;
		vp.pViewports = &viewport;
		vp.pScissors = &scissor;
		VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
		rs.cullMode = VK_CULL_MODE_NONE;
		rs.lineWidth = 1;
		VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
		ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
		VkPipelineColorBlendAttachmentState blend{};
		blend.colorWriteMask = 0xf;
		if (options_.blend) {
			blend.blendEnable = VK_TRUE;
			blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
			blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
			blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_ADD;
			blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
			blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		}
		VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
		cb.attachmentCount = 1;
		cb.pAttachments = &blend;
		const VkDynamicState scissor_state = VK_DYNAMIC_STATE_SCISSOR;
		VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
		dynamic.dynamicStateCount = 1;
		dynamic.pDynamicStates = &scissor_state;
		VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
		if (options_.grid > 1) info.pDynamicState = &dynamic;
		info.stageCount = 2;
		info.pStages = stages;
		info.pVertexInputState = &vi;
		info.pInputAssemblyState = &ia;
		info.pViewportState = &vp;
		info.pRasterizationState = &rs;
		info.pMultisampleState = &ms;
		info.pColorBlendState = &cb;
		info.layout = layout_;
		info.renderPass = pass_;
		VkPipeline pipeline = VK_NULL_HANDLE;
		vkCreateGraphicsPipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
		return pipeline;
	}
	VkImageView View(VkImage image, uint32_t levels, VkFormat format, VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D,
	                 uint32_t layers = 1, VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT) {
		VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		info.image = image;
		info.viewType = type;
		info.format = format;
		info.subresourceRange = {aspect, 0, levels, 0, layers};
		VkImageView view;
		vkCreateImageView(ctx_.device(), &info, nullptr, &view);
		return view;
	}
	VkShaderModule Module(const char* name) {
		std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, name);
		VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
		info.codeSize = words.size() * 4;
		info.pCode = words.data();
		VkShaderModule module;
		vkCreateShaderModule(ctx_.device(), &info, nullptr, &module);
		return module;
	}

	Context& ctx_;
	SceneOptions options_;
	TestImage texture_, color_;
	uint32_t levels_ = kLevels, layers_ = 1;  // of texture_
	VkImageAspectFlags aspect_ = VK_IMAGE_ASPECT_COLOR_BIT;
	VkImageView texture_view_, color_view_;
	VkSampler sampler_;
	VkRenderPass pass_;
	VkFramebuffer framebuffer_;
	VkDescriptorSetLayout set_layout_;
	VkDescriptorPool descriptor_pool_;
	VkDescriptorSet set_;
	VkPipelineLayout layout_;
	VkShaderModule vs_, fs_;
	VkPipeline pipeline_;
	VkCommandPool pool_;
	VkCommandBuffer cb_;
};

// Times whole frames of one scene (after one untimed frame, where
// TESSERA_JIT=sync compiles) and reports `pixels` a frame as Mpixel/s.
void TimeFrames(benchmark::State& state, Driver driver, const SceneOptions& options, double pixels) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	PlaneScene scene(*ctx, options);
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(ctx->device(), &fci, nullptr, &fence);
	scene.Frame(fence);  // warm up
	for (auto _ : state) scene.Frame(fence);
	state.counters["frames/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
	state.counters["Mpixel/s"] =
	    benchmark::Counter(double(state.iterations()) * pixels / 1e6, benchmark::Counter::kIsRate);
	vkDestroyFence(ctx->device(), fence, nullptr);
}

// state.range(0): maxAnisotropy (1: trilinear only); range(1): 1 for an
// RGBA16F texture (HDR environment maps are), 0 for RGBA8; range(2): 1 to
// sample it through a 2D array view (engines keep texture atlases as arrays).
void BM_TexturedPlane(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.anisotropy = float(state.range(0));
	if (state.range(1)) options.texture_format = VK_FORMAT_R16G16B16A16_SFLOAT;
	if (state.range(2)) {
		options.array_view = true;
		options.fragment_shader = "bench_tex_array.frag.spv";
	}
	TimeFrames(state, driver, options, double(kWidth) * kHeight);
}

// Block-compressed textures, decoded by Tessera to an uncompressed copy kept
// between draws (texture/decoded_view_cache.h), sampled by lavapipe from
// the blocks: range(0) 1 for BC7, 0 for BC1; range(1) the screen as that
// many x that many scissored draws (every draw checks the copy is current).
void BM_CompressedPlane(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.texture_format = state.range(0) ? VK_FORMAT_BC7_UNORM_BLOCK : VK_FORMAT_BC1_RGB_UNORM_BLOCK;
	options.grid = uint32_t(state.range(1));
	TimeFrames(state, driver, options, double(kWidth) * kHeight);
}

// A shadow map over the screen: a 1024^2 D32_SFLOAT depth texture with its
// mip levels, compared (LESS) and filtered (LINEAR, trilinear) per pixel,
// as a lit scene's shadow lookup is (shaders/tex_shadow.frag).
void BM_ShadowPlane(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.texture_format = VK_FORMAT_D32_SFLOAT;
	options.shadow = true;
	options.fragment_shader = "tex_shadow.frag.spv";
	TimeFrames(state, driver, options, double(kWidth) * kHeight);
}

// A PBR-like environment lookup: a 512^2 RGBA16F cube map, trilinear
// (three.js samples its HDR environment so), over the whole screen.
void BM_EnvironmentCube(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.texture_format = VK_FORMAT_R16G16B16A16_SFLOAT;
	options.cube = true;
	options.fragment_shader = "bench_env_cube.frag.spv";
	TimeFrames(state, driver, options, double(kWidth) * kHeight);
}

void BM_Mandelbrot(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.fragment_shader = "bench_mandelbrot.frag.spv";
	TimeFrames(state, driver, options, double(kWidth) * kHeight);
}

// Fill rate: 8 full-screen quads in one draw (8 instances, a flat color
// each, no depth), opaque (arg 0) or blended with source alpha (arg 1).
void BM_Overdraw(benchmark::State& state, Driver driver) {
	SceneOptions options;
	options.vertex_shader = "bench_layer.vert.spv";
	options.fragment_shader = "bench_layer.frag.spv";
	options.instances = 8;
	options.blend = state.range(0) != 0;
	TimeFrames(state, driver, options, double(kWidth) * kHeight * options.instances);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Overdraw, tessera, Driver::Tessera)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Overdraw, lavapipe, Driver::Lavapipe)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_EnvironmentCube, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_EnvironmentCube, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Mandelbrot, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Mandelbrot, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_TexturedPlane, tessera, Driver::Tessera)
    ->Args({1, 0, 0})
    ->Args({16, 0, 0})
    ->Args({1, 1, 0})
    ->Args({1, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TexturedPlane, lavapipe, Driver::Lavapipe)
    ->Args({1, 0, 0})
    ->Args({16, 0, 0})
    ->Args({1, 1, 0})
    ->Args({1, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_CompressedPlane, tessera, Driver::Tessera)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({1, 16})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_CompressedPlane, lavapipe, Driver::Lavapipe)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({1, 16})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ShadowPlane, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ShadowPlane, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_TexturedPlane, swiftshader, Driver::SwiftShader)
    ->Args({1, 0, 0})
    ->Args({16, 0, 0})
    ->Args({1, 1, 0})
    ->Args({1, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
