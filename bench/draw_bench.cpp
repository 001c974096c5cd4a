// Draw throughput: lit, depth-tested meshes at 1920x1080 through a graphics
// pipeline (shaders/lit_mesh.*), Tessera next to lavapipe in one run; the
// same sheet with a geometry stage that draws each triangle three times
// (bench_amplify.geom), and as a tessellated terrain: 64 x 64 quad patches
// cut 11 x 11, 991,232 triangles (bench_terrain.*); and a small sheet cut
// into 2,048 draws (the per-draw cost); and about a million triangles of
// about 20 pixels at random places and depths (the small-triangle
// row: setup, binning and the depth test at scale). Each
// iteration submits one prerecorded command buffer (render pass with clears,
// the draws) and waits for its fence: what an application's frame costs.
// Also: graphics pipeline creation.
//
//   build/bench/tessera_draw_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080;

Context* GetContext(Driver driver) {
	static std::map<Driver, std::unique_ptr<Context>> contexts;
	auto& ctx = contexts[driver];
	if (!ctx) {
		static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
		features.features.geometryShader = VK_TRUE;  // the amplification and terrain scenes
		features.features.tessellationShader = VK_TRUE;
		static VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT library{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
		library.graphicsPipelineLibrary = VK_TRUE;  // BM_LinkGraphicsPipeline
		features.pNext = &library;
		ContextOptions options;
		options.device_features = &features;
		options.device_extensions = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
		                             VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
		options.validation = false;  // measure the driver, not the layer
		ctx = Context::Create(driver, options);
	}
	return ctx.get();
}

struct Vertex {
	float position[3], normal[3];
};

// A rippled sheet of rows x columns cells in [-2, 2]^2, tilted towards the
// camera: every triangle visible, sizes set by the cell count.
void Sheet(uint32_t rows, uint32_t columns, std::vector<Vertex>& vertices, std::vector<uint32_t>& indices) {
	for (uint32_t r = 0; r <= rows; ++r)
		for (uint32_t c = 0; c <= columns; ++c) {
			float x = 4.0f * c / columns - 2.0f, z = 4.0f * r / rows - 2.0f;
			float y = 0.15f * std::sin(3 * x) * std::cos(3 * z);
			float dx = 0.45f * std::cos(3 * x) * std::cos(3 * z), dz = -0.45f * std::sin(3 * x) * std::sin(3 * z);
			float n[3] = {-dx, 1, -dz}, len = std::sqrt(n[0] * n[0] + 1 + n[2] * n[2]);
			vertices.push_back({{x, y, z}, {n[0] / len, n[1] / len, n[2] / len}});
		}
	for (uint32_t r = 0; r < rows; ++r)
		for (uint32_t c = 0; c < columns; ++c) {
			uint32_t a = r * (columns + 1) + c, b = a + columns + 1;
			indices.insert(indices.end(), {a, a + 1, b, a + 1, b + 1, b});
		}
}

// count triangles of about 20 pixels at 1920x1080 (legs of 6 pixels),
// already in clip space, at random places and depths from a fixed seed, so
// that about half of each one's pixels fail a LESS test against what came
// before. Normals vary so that the lighting is not constant.
void Scatter(uint32_t count, std::vector<Vertex>& vertices, std::vector<uint32_t>& indices) {
	uint32_t seed = 12345;
	auto next = [&seed] {  // xorshift32: the same scene on every machine
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		return float(seed >> 8) / float(1u << 24);
	};
	const float dx = 6.0f * 2 / kWidth, dy = 6.0f * 2 / kHeight;
	for (uint32_t i = 0; i < count; ++i) {
		const float x = next() * 2 - 1, y = next() * 2 - 1, z = next();
		const float n[3] = {next() - 0.5f, 1.0f, next() - 0.5f};
		const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		const float normal[3] = {n[0] / len, n[1] / len, n[2] / len};
		const float corner[3][2] = {{x, y}, {x + dx, y}, {x, y + dy}};
		for (const auto& c : corner) {
			indices.push_back(uint32_t(vertices.size()));
			vertices.push_back({{c[0], c[1], z}, {normal[0], normal[1], normal[2]}});
		}
	}
}

struct PushConstants {
	float view_projection[16];
	float model[16];
};
// The sheet's color: an instance-rate attribute (binding 1), as in the demo.
constexpr float kSheetColor[3] = {0.9f, 0.5f, 0.2f};

// Column-major matrices for a camera above the sheet looking at its center.
void Camera(PushConstants& pc) {
	// A fixed perspective (60 degrees, 16:9, near 0.1, far 20; Vulkan depth
	// 0..1, y down) times a view 3 up and 3.5 back, looking at the origin.
	const float f = 1.0f / std::tan(0.5236f), aspect = float(kWidth) / kHeight, n = 0.1f, far = 20.0f;
	float proj[16] = {f / aspect, 0, 0, 0, 0, -f, 0, 0, 0, 0, far / (n - far), -1, 0, 0, n * far / (n - far), 0};
	float eye[3] = {0, 3.0f, 3.5f};
	float zaxis[3] = {eye[0], eye[1], eye[2]};  // eye - target
	float zl = std::sqrt(zaxis[0] * zaxis[0] + zaxis[1] * zaxis[1] + zaxis[2] * zaxis[2]);
	for (float& v : zaxis) v /= zl;
	float xaxis[3] = {1, 0, 0};
	float yaxis[3] = {zaxis[1] * xaxis[2] - zaxis[2] * xaxis[1], zaxis[2] * xaxis[0] - zaxis[0] * xaxis[2],
	                  zaxis[0] * xaxis[1] - zaxis[1] * xaxis[0]};
	float view[16] = {xaxis[0], yaxis[0], zaxis[0], 0, xaxis[1], yaxis[1], zaxis[1], 0,
	                  xaxis[2], yaxis[2], zaxis[2], 0, 0,        0,        0,        1};
	for (int i = 0; i < 3; ++i)
		view[12 + i] = -(i == 0   ? xaxis
		                 : i == 1 ? yaxis
		                          : zaxis)[0] *
		                   eye[0] -
		               (i == 0   ? xaxis
		                : i == 1 ? yaxis
		                         : zaxis)[1] *
		                   eye[1] -
		               (i == 0   ? xaxis
		                : i == 1 ? yaxis
		                         : zaxis)[2] *
		                   eye[2];
	for (int c = 0; c < 4; ++c)
		for (int r = 0; r < 4; ++r) {
			float sum = 0;
			for (int k = 0; k < 4; ++k) sum += proj[k * 4 + r] * view[c * 4 + k];
			pc.view_projection[c * 4 + r] = sum;
		}
	std::memset(pc.model, 0, sizeof pc.model);
	pc.model[0] = pc.model[5] = pc.model[10] = pc.model[15] = 1;
}

// Everything one driver needs to draw a sheet: attachments, pass, pipeline,
// buffers and a recorded command buffer.
enum class Stages { kPlain, kGeometry, kTessellation, kScatter };

class SheetScene {
public:
	// draws: the indices split into that many draws (whole primitives each).
	SheetScene(Context& ctx, uint32_t cells, Stages stages = Stages::kPlain, uint32_t draws = 1)
	    : ctx_(ctx), stages_(stages) {
		VkDevice d = ctx.device();
		if (stages == Stages::kScatter)
			Scatter(cells, vertices_, indices_);  // cells: the triangle count
		else
			Sheet(cells, cells, vertices_, indices_);
		if (stages == Stages::kTessellation) {
			// One quad patch a cell: its corners (u along x, v along z).
			indices_.clear();
			for (uint32_t r = 0; r < cells; ++r)
				for (uint32_t c = 0; c < cells; ++c) {
					const uint32_t a = r * (cells + 1) + c, b = a + cells + 1;
					indices_.insert(indices_.end(), {a, a + 1, b, b + 1});
				}
		}
		vertex_ = ctx.CreateBuffer(vertices_.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
		std::memcpy(vertex_.data, vertices_.data(), vertices_.size() * sizeof(Vertex));
		index_ = ctx.CreateBuffer(indices_.size() * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
		color_buffer_ = ctx.CreateBuffer(sizeof kSheetColor, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
		std::memcpy(color_buffer_.data, kSheetColor, sizeof kSheetColor);
		std::memcpy(index_.data, indices_.data(), indices_.size() * 4);
		color_ = ctx.CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		depth_ = ctx.CreateImage2D(VK_FORMAT_D32_SFLOAT, kWidth, kHeight, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
		color_view_ = View(color_.image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
		depth_view_ = View(depth_.image, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);

		VkAttachmentDescription a[2] = {};
		for (int i = 0; i < 2; ++i) {
			a[i].format = i == 0 ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_D32_SFLOAT;
			a[i].samples = VK_SAMPLE_COUNT_1_BIT;
			a[i].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			a[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			a[i].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
			a[i].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
			a[i].finalLayout =
			    i == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
		}
		VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
		VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
		VkSubpassDescription subpass{};
		subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		subpass.colorAttachmentCount = 1;
		subpass.pColorAttachments = &color_ref;
		subpass.pDepthStencilAttachment = &depth_ref;
		VkRenderPassCreateInfo rp{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		rp.attachmentCount = 2;
		rp.pAttachments = a;
		rp.subpassCount = 1;
		rp.pSubpasses = &subpass;
		vkCreateRenderPass(d, &rp, nullptr, &pass_);
		VkImageView views[2] = {color_view_, depth_view_};
		VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		fb.renderPass = pass_;
		fb.attachmentCount = 2;
		fb.pAttachments = views;
		fb.width = kWidth;
		fb.height = kHeight;
		fb.layers = 1;
		vkCreateFramebuffer(d, &fb, nullptr, &framebuffer_);
		VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, 0,
		                         sizeof(PushConstants)};
		VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		li.pushConstantRangeCount = 1;
		li.pPushConstantRanges = &push;
		vkCreatePipelineLayout(d, &li, nullptr, &layout_);
		vs_ = Module(stages == Stages::kTessellation ? "bench_terrain.vert.spv" : "lit_mesh.vert.spv");
		fs_ = Module("lit_mesh.frag.spv");
		if (stages == Stages::kGeometry) extra_[0] = Module("bench_amplify.geom.spv");
		if (stages == Stages::kTessellation) {
			extra_[0] = Module("bench_terrain.tesc.spv");
			extra_[1] = Module("bench_terrain.tese.spv");
		}
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
		VkClearValue clears[2];
		clears[0].color = {{0.05f, 0.05f, 0.08f, 1}};
		clears[1].depthStencil = {1, 0};
		VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		rbi.renderPass = pass_;
		rbi.framebuffer = framebuffer_;
		rbi.renderArea = {{0, 0}, {kWidth, kHeight}};
		rbi.clearValueCount = 2;
		rbi.pClearValues = clears;
		vkCmdBeginRenderPass(cb_, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
		const VkBuffer buffers[2] = {vertex_.buffer, color_buffer_.buffer};
		const VkDeviceSize offsets[2] = {0, 0};
		vkCmdBindVertexBuffers(cb_, 0, 2, buffers, offsets);
		vkCmdBindIndexBuffer(cb_, index_.buffer, 0, VK_INDEX_TYPE_UINT32);
		PushConstants pc;
		Camera(pc);
		if (stages == Stages::kScatter) {  // positions are in clip space
			std::memset(&pc, 0, sizeof pc);
			for (int i = 0; i < 4; ++i) pc.view_projection[5 * i] = pc.model[5 * i] = 1;
		}
		vkCmdPushConstants(cb_, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, 0,
		                   sizeof pc, &pc);
		const uint32_t per = stages == Stages::kTessellation ? 4 : 3;  // indices a primitive
		const uint32_t primitives = uint32_t(indices_.size()) / per;
		for (uint32_t k = 0; k < draws; ++k) {
			const uint32_t first = primitives * k / draws, end = primitives * (k + 1) / draws;
			if (end > first) vkCmdDrawIndexed(cb_, (end - first) * per, 1, first * per, 0, 0);
		}
		vkCmdEndRenderPass(cb_);
		vkEndCommandBuffer(cb_);
	}

	~SheetScene() {
		VkDevice d = ctx_.device();
		vkDestroyCommandPool(d, pool_, nullptr);
		vkDestroyPipeline(d, pipeline_, nullptr);
		vkDestroyShaderModule(d, vs_, nullptr);
		vkDestroyShaderModule(d, fs_, nullptr);
		for (VkShaderModule m : extra_)
			if (m) vkDestroyShaderModule(d, m, nullptr);
		vkDestroyPipelineLayout(d, layout_, nullptr);
		vkDestroyFramebuffer(d, framebuffer_, nullptr);
		vkDestroyRenderPass(d, pass_, nullptr);
		vkDestroyImageView(d, color_view_, nullptr);
		vkDestroyImageView(d, depth_view_, nullptr);
		ctx_.Destroy(color_);
		ctx_.Destroy(depth_);
		ctx_.Destroy(vertex_);
		ctx_.Destroy(index_);
		ctx_.Destroy(color_buffer_);
	}

	// The whole pipeline, or (subsets given) a library of those state
	// subsets (VK_EXT_graphics_pipeline_library).
	VkPipeline CreatePipeline(VkGraphicsPipelineLibraryFlagsEXT subsets = 0) {
		VkPipelineShaderStageCreateInfo stages[4] = {};
		uint32_t stage_count = 0;
		auto add = [&](VkShaderStageFlagBits stage, VkShaderModule module) {
			const VkGraphicsPipelineLibraryFlagsEXT subset =
			    stage == VK_SHADER_STAGE_FRAGMENT_BIT ? VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT
			                                          : VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
			if (subsets && !(subsets & subset)) return;
			stages[stage_count] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
			stages[stage_count].stage = stage;
			stages[stage_count].module = module;
			stages[stage_count++].pName = "main";
		};
		add(VK_SHADER_STAGE_VERTEX_BIT, vs_);
		if (stages_ == Stages::kGeometry) add(VK_SHADER_STAGE_GEOMETRY_BIT, extra_[0]);
		if (stages_ == Stages::kTessellation) {
			add(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, extra_[0]);
			add(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, extra_[1]);
		}
		add(VK_SHADER_STAGE_FRAGMENT_BIT, fs_);
		VkVertexInputBindingDescription bindings[2] = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX},
		                                               {1, sizeof kSheetColor, VK_VERTEX_INPUT_RATE_INSTANCE}};
		VkVertexInputAttributeDescription attributes[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
		                                                   {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
		                                                   {2, 1, VK_FORMAT_R32G32B32_SFLOAT, 0}};
		VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
		vi.vertexBindingDescriptionCount = 2;
		vi.pVertexBindingDescriptions = bindings;
		vi.vertexAttributeDescriptionCount = 3;
		vi.pVertexAttributeDescriptions = attributes;
		VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
		ia.topology =
		    stages_ == Stages::kTessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
		VkPipelineTessellationStateCreateInfo tess{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
		tess.patchControlPoints = 4;
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
		VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
		ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
		ds.depthCompareOp = VK_COMPARE_OP_LESS;
		VkPipelineColorBlendAttachmentState blend{};
		blend.colorWriteMask = 0xf;
		VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
		cb.attachmentCount = 1;
		cb.pAttachments = &blend;
		VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
		info.stageCount = stage_count;
		info.pStages = stages;
		info.pTessellationState = stages_ == Stages::kTessellation ? &tess : nullptr;
		info.pVertexInputState = &vi;
		info.pInputAssemblyState = &ia;
		info.pViewportState = &vp;
		info.pRasterizationState = &rs;
		info.pMultisampleState = &ms;
		info.pDepthStencilState = &ds;
		info.pColorBlendState = &cb;
		info.layout = layout_;
		info.renderPass = pass_;
		VkGraphicsPipelineLibraryCreateInfoEXT library{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT};
		library.flags = subsets;
		if (subsets) {
			info.pNext = &library;
			info.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
		}
		VkPipeline pipeline = VK_NULL_HANDLE;
		vkCreateGraphicsPipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
		return pipeline;
	}

	// A pipeline linked from four libraries, one per state subset.
	VkPipeline Link(const VkPipeline (&libraries)[4]) {
		VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR};
		link.libraryCount = 4;
		link.pLibraries = libraries;
		VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &link};
		info.layout = layout_;
		VkPipeline pipeline = VK_NULL_HANDLE;
		vkCreateGraphicsPipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
		return pipeline;
	}

	void Frame(VkFence fence) {
		VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb_;
		vkQueueSubmit(ctx_.queue(), 1, &si, fence);
		vkWaitForFences(ctx_.device(), 1, &fence, VK_TRUE, UINT64_MAX);
		vkResetFences(ctx_.device(), 1, &fence);
	}

	// Triangles drawn: the geometry stage makes three of each, the
	// tessellator 11 x 11 x 2 of each patch.
	size_t Triangles() const {
		return stages_ == Stages::kTessellation ? indices_.size() / 4 * 242
		       : stages_ == Stages::kGeometry   ? indices_.size()
		                                        : indices_.size() / 3;
	}
	Context& context() { return ctx_; }

private:
	VkImageView View(VkImage image, VkFormat format, VkImageAspectFlags aspect) {
		VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		info.image = image;
		info.viewType = VK_IMAGE_VIEW_TYPE_2D;
		info.format = format;
		info.subresourceRange = {aspect, 0, 1, 0, 1};
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
	std::vector<Vertex> vertices_;
	std::vector<uint32_t> indices_;
	TestBuffer vertex_, index_, color_buffer_;
	TestImage color_, depth_;
	VkImageView color_view_, depth_view_;
	VkRenderPass pass_;
	VkFramebuffer framebuffer_;
	VkPipelineLayout layout_;
	Stages stages_;
	VkShaderModule vs_, fs_;
	VkShaderModule extra_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};  // geometry, or tessellation control and evaluation
	VkPipeline pipeline_;
	VkCommandPool pool_;
	VkCommandBuffer cb_;
};

// Times whole frames of a sheet of `cells` x `cells` cells cut into
// `draws` draws (after one untimed frame).
void TimeSheet(benchmark::State& state, Driver driver, uint32_t cells, Stages stages, uint32_t draws) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	SheetScene scene(*ctx, cells, stages, draws);
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(ctx->device(), &fci, nullptr, &fence);
	scene.Frame(fence);  // warm up
	for (auto _ : state) scene.Frame(fence);
	const double frames = double(state.iterations());
	state.counters["frames/s"] = benchmark::Counter(frames, benchmark::Counter::kIsRate);
	state.counters["Mtri/s"] =
	    benchmark::Counter(frames * double(scene.Triangles()) / 1e6, benchmark::Counter::kIsRate);
	state.counters["Mpixel/s"] = benchmark::Counter(frames * kWidth * kHeight / 1e6, benchmark::Counter::kIsRate);
	if (draws > 1) state.counters["draws/s"] = benchmark::Counter(frames * draws, benchmark::Counter::kIsRate);
	vkDestroyFence(ctx->device(), fence, nullptr);
}

// state.range(0): cells per side of the sheet (2 triangles a cell).
void BM_Sheet(benchmark::State& state, Driver driver, Stages stages = Stages::kPlain) {
	TimeSheet(state, driver, uint32_t(state.range(0)), stages, 1);
}

// The 64 x 64-cell sheet (8,192 triangles) as 2,048 draws of 4 triangles:
// what a scene of many small meshes costs per draw.
void BM_ManyDraws(benchmark::State& state, Driver driver) { TimeSheet(state, driver, 64, Stages::kPlain, 2048); }

// About a million triangles of about 20 pixels at random depths, one draw.
void BM_ScatteredTriangles(benchmark::State& state, Driver driver) {
	TimeSheet(state, driver, 1u << 20, Stages::kScatter, 1);
}

// Graphics pipeline creation (shaders already modules), as CI runs of many
// short tests pay it. Lavapipe caches compiled shaders on disk; run with
// MESA_SHADER_CACHE_DISABLE=true for a first-run figure.
void BM_CreateGraphicsPipeline(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	SheetScene scene(*ctx, 1);
	for (auto _ : state) {
		VkPipeline pipeline = scene.CreatePipeline();
		vkDestroyPipeline(ctx->device(), pipeline, nullptr);
	}
}

// Linking a graphics pipeline from four libraries made beforehand (one per
// state subset), as DXVK and Zink do when a draw needs a new combination:
// the step the libraries exist to make fast.
void BM_LinkGraphicsPipeline(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	SheetScene scene(*ctx, 1);
	VkPipeline libraries[4];
	int k = 0;
	for (VkGraphicsPipelineLibraryFlagsEXT subset : {VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT,
	                                                 VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT,
	                                                 VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT,
	                                                 VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT})
		if (!(libraries[k++] = scene.CreatePipeline(subset))) return state.SkipWithError("library not created");
	for (auto _ : state) {
		VkPipeline pipeline = scene.Link(libraries);
		if (!pipeline) return state.SkipWithError("link failed");
		vkDestroyPipeline(ctx->device(), pipeline, nullptr);
	}
	for (VkPipeline library : libraries) vkDestroyPipeline(ctx->device(), library, nullptr);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Sheet, tessera, Driver::Tessera)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, lavapipe, Driver::Lavapipe)
    ->Arg(64)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, swiftshader, Driver::SwiftShader)
    ->Arg(64)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, geometry_amplify_tessera, Driver::Tessera, Stages::kGeometry)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, geometry_amplify_lavapipe, Driver::Lavapipe, Stages::kGeometry)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, tessellated_terrain_tessera, Driver::Tessera, Stages::kTessellation)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sheet, tessellated_terrain_lavapipe, Driver::Lavapipe, Stages::kTessellation)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ScatteredTriangles, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ScatteredTriangles, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ScatteredTriangles, swiftshader, Driver::SwiftShader)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ManyDraws, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ManyDraws, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LinkGraphicsPipeline, tessera, Driver::Tessera)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LinkGraphicsPipeline, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CreateGraphicsPipeline, tessera, Driver::Tessera)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CreateGraphicsPipeline, lavapipe, Driver::Lavapipe)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CreateGraphicsPipeline, swiftshader, Driver::SwiftShader)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
