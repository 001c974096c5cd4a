// VK_EXT_device_generated_commands: the same scene drawn (or the same
// buffer written) through vkCmdExecuteGeneratedCommandsEXT and through the
// direct commands each sequence stands for (vkCmdBindPipeline,
// vkCmdPushConstants, vkCmdBindVertexBuffers2, vkCmdBindIndexBuffer, the
// draws and the dispatch) gives the same bytes, for every token type, an
// execution set switching pipelines, a count buffer below maxSequenceCount,
// preprocessing, and compute; bad indirect data is skipped, not followed.
// Tessera alone, without the validation layer: lavapipe 22.3 and the layer's
// 1.3.239 release predate the extension.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct DgcOptions {
	VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT dgc{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT};
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &dgc};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
	DgcOptions() {
		dgc.deviceGeneratedCommands = VK_TRUE;
		dgc.dynamicGeneratedPipelineLayout = VK_TRUE;
		v11.shaderDrawParameters = VK_TRUE;  // gl_DrawID in dgc.vert
		v12.bufferDeviceAddress = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;
	}
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME, "VK_KHR_maintenance5"};
		options.device_features = &v13;
		return options;
	}
};

// The extension's entry points.
struct DgcProcs {
	PFN_vkCreateIndirectCommandsLayoutEXT create_layout;
	PFN_vkDestroyIndirectCommandsLayoutEXT destroy_layout;
	PFN_vkCreateIndirectExecutionSetEXT create_set;
	PFN_vkDestroyIndirectExecutionSetEXT destroy_set;
	PFN_vkUpdateIndirectExecutionSetPipelineEXT update_set;
	PFN_vkGetGeneratedCommandsMemoryRequirementsEXT requirements;
	PFN_vkCmdPreprocessGeneratedCommandsEXT preprocess;
	PFN_vkCmdExecuteGeneratedCommandsEXT execute;
	explicit DgcProcs(const Context& ctx)
	    : create_layout(ctx.Proc<PFN_vkCreateIndirectCommandsLayoutEXT>("vkCreateIndirectCommandsLayoutEXT")),
	      destroy_layout(ctx.Proc<PFN_vkDestroyIndirectCommandsLayoutEXT>("vkDestroyIndirectCommandsLayoutEXT")),
	      create_set(ctx.Proc<PFN_vkCreateIndirectExecutionSetEXT>("vkCreateIndirectExecutionSetEXT")),
	      destroy_set(ctx.Proc<PFN_vkDestroyIndirectExecutionSetEXT>("vkDestroyIndirectExecutionSetEXT")),
	      update_set(ctx.Proc<PFN_vkUpdateIndirectExecutionSetPipelineEXT>("vkUpdateIndirectExecutionSetPipelineEXT")),
	      requirements(
	          ctx.Proc<PFN_vkGetGeneratedCommandsMemoryRequirementsEXT>("vkGetGeneratedCommandsMemoryRequirementsEXT")),
	      preprocess(ctx.Proc<PFN_vkCmdPreprocessGeneratedCommandsEXT>("vkCmdPreprocessGeneratedCommandsEXT")),
	      execute(ctx.Proc<PFN_vkCmdExecuteGeneratedCommandsEXT>("vkCmdExecuteGeneratedCommandsEXT")) {}
	bool ok() const {
		return create_layout && destroy_layout && create_set && destroy_set && update_set && requirements &&
		       preprocess && execute;
	}
};

VkDeviceAddress AddressOf(VkDevice device, const TestBuffer& buffer) {
	VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
	info.buffer = buffer.buffer;
	return vkGetBufferDeviceAddress(device, &info);
}

// An indirect buffer being filled: sequence s's token data at s * stride.
struct Stream {
	uint32_t stride;
	std::vector<uint8_t> bytes;
	template <typename T>
	void Put(uint32_t s, uint32_t offset, const T& value) {
		const size_t at = size_t(s) * stride + offset;
		if (bytes.size() < at + sizeof value) bytes.resize(at + sizeof value);
		std::memcpy(bytes.data() + at, &value, sizeof value);
	}
};

TestBuffer Upload(Context& ctx, const void* data, size_t size) {
	TestBuffer buffer = ctx.CreateBuffer(std::max<size_t>(size, 4),
	                                     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
	                                         VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
	                                         VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	std::memcpy(buffer.data, data, size);
	return buffer;
}

VkIndirectCommandsLayoutTokenEXT Token(VkIndirectCommandsTokenTypeEXT type, uint32_t offset,
                                       VkIndirectCommandsTokenDataEXT data = {}) {
	VkIndirectCommandsLayoutTokenEXT token{VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT};
	token.type = type;
	token.offset = offset;
	token.data = data;
	return token;
}

constexpr uint32_t kSize = 32;
constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkShaderStageFlags kGraphicsStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

// dgc.vert's push constants: color, offset (the PUSH_CONSTANT token's 24
// bytes), then the sequence index.
struct Push {
	float color[4];
	float offset[2];
};
constexpr uint32_t kSequenceIndexOffset = sizeof(Push);

// Two pipelines told apart by their fragment shader (dgc.frag, and
// dgc_invert.frag's inverted color), a binding of vec2 positions whose
// stride is dynamic, the vertex and index buffers of the scene, and a color
// attachment to render it into.
struct GraphicsScene {
	Context& ctx;
	VkDevice device;
	DgcProcs procs;
	VkPipelineLayout layout = VK_NULL_HANDLE;
	VkPipeline pipelines[2] = {};
	TestImage image;
	VkImageView view = VK_NULL_HANDLE;
	TestBuffer out;
	// Six triangles' vertices, packed (stride 8) and padded (stride 16).
	TestBuffer packed, padded;
	TestBuffer indices16, indices32;  // 0..17, reversed in each triangle

	explicit GraphicsScene(Context& context) : ctx(context), device(context.device()), procs(context) {
		VkPushConstantRange range{kGraphicsStages, 0, sizeof(Push) + 4};
		VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		lci.pushConstantRangeCount = 1;
		lci.pPushConstantRanges = &range;
		REQUIRE(vkCreatePipelineLayout(device, &lci, nullptr, &layout) == VK_SUCCESS);
		pipelines[0] = CreatePipeline("dgc.frag.spv");
		pipelines[1] = CreatePipeline("dgc_invert.frag.spv");
		REQUIRE(pipelines[0]);
		REQUIRE(pipelines[1]);
		image = ctx.CreateImage2D(kColor, kSize, kSize,
		                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = image.image;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = kColor;
		vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
		out = ctx.CreateBuffer(kSize * kSize * 4);

		// Triangle t sits in column t % 3, row t / 3 of a coarse grid near
		// the top left; offsets and instances move copies around.
		std::vector<float> positions;
		for (uint32_t t = 0; t < 6; ++t) {
			const float x = -1.0f + 0.2f * float(t % 3), y = -1.0f + 0.25f * float(t / 3);
			const float corners[3][2] = {{x, y}, {x + 0.3f, y}, {x, y + 0.4f}};
			for (const auto& c : corners) positions.insert(positions.end(), {c[0], c[1]});
		}
		std::vector<float> padded_positions;
		for (size_t v = 0; v < positions.size() / 2; ++v)
			padded_positions.insert(padded_positions.end(), {positions[2 * v], positions[2 * v + 1], 9.0f, 9.0f});
		packed = Upload(ctx, positions.data(), positions.size() * 4);
		padded = Upload(ctx, padded_positions.data(), padded_positions.size() * 4);
		std::vector<uint16_t> i16;
		std::vector<uint32_t> i32;
		for (uint32_t t = 0; t < 6; ++t)
			for (uint32_t k = 3; k-- > 0;) {
				i16.push_back(uint16_t(3 * t + k));
				i32.push_back(3 * t + k);
			}
		indices16 = Upload(ctx, i16.data(), i16.size() * 2);
		indices32 = Upload(ctx, i32.data(), i32.size() * 4);
	}

	~GraphicsScene() {
		for (TestBuffer* b : {&out, &packed, &padded, &indices16, &indices32}) ctx.Destroy(*b);
		vkDestroyImageView(device, view, nullptr);
		ctx.Destroy(image);
		for (VkPipeline p : pipelines) vkDestroyPipeline(device, p, nullptr);
		vkDestroyPipelineLayout(device, layout, nullptr);
	}

	VkPipeline CreatePipeline(const char* fragment) {
		VkShaderModule vs = CorpusModule(device, "dgc.vert.spv"), fs = CorpusModule(device, fragment);
		VkPipelineShaderStageCreateInfo stages[2] = {
		    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
		    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs,
		     "main"}};
		VkVertexInputBindingDescription binding{0, 8, VK_VERTEX_INPUT_RATE_VERTEX};
		VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
		VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
		vertex_input.vertexBindingDescriptionCount = 1;
		vertex_input.pVertexBindingDescriptions = &binding;
		vertex_input.vertexAttributeDescriptionCount = 1;
		vertex_input.pVertexAttributeDescriptions = &attribute;
		VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
		assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
		VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
		VkRect2D scissor{{0, 0}, {kSize, kSize}};
		VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
		viewport_state.viewportCount = 1;
		viewport_state.pViewports = &viewport;
		viewport_state.scissorCount = 1;
		viewport_state.pScissors = &scissor;
		VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
		raster.polygonMode = VK_POLYGON_MODE_FILL;
		raster.lineWidth = 1.0f;
		VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
		multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
		VkPipelineColorBlendAttachmentState blend{};
		blend.colorWriteMask = 0xf;
		VkPipelineColorBlendStateCreateInfo color_blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
		color_blend.attachmentCount = 1;
		color_blend.pAttachments = &blend;
		const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE};
		VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
		dynamic.dynamicStateCount = 1;
		dynamic.pDynamicStates = dynamic_states;
		VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
		rendering.colorAttachmentCount = 1;
		rendering.pColorAttachmentFormats = &kColor;
		VkPipelineCreateFlags2CreateInfoKHR flags2{VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR,
		                                           &rendering};
		flags2.flags = VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT;
		VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
		info.pNext = &flags2;
		info.stageCount = 2;
		info.pStages = stages;
		info.pVertexInputState = &vertex_input;
		info.pInputAssemblyState = &assembly;
		info.pViewportState = &viewport_state;
		info.pRasterizationState = &raster;
		info.pMultisampleState = &multisample;
		info.pColorBlendState = &color_blend;
		info.pDynamicState = &dynamic;
		info.layout = layout;
		VkPipeline pipeline = VK_NULL_HANDLE;
		CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
		vkDestroyShaderModule(device, vs, nullptr);
		vkDestroyShaderModule(device, fs, nullptr);
		return pipeline;
	}

	// Clears the attachment, runs `before` outside the rendering (for
	// preprocessing), then `draw` inside it after binding pipeline 0 and
	// the packed vertex buffer; returns the pixels.
	std::vector<uint32_t> Render(const std::function<void(VkCommandBuffer)>& draw,
	                             const std::function<void(VkCommandBuffer)>& before = {}) {
		ctx.Submit([&](VkCommandBuffer cb) {
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
			if (before) before(cb);
			VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
			color.imageView = view;
			color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
			color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
			color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
			color.clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
			VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
			rendering.renderArea = {{0, 0}, {kSize, kSize}};
			rendering.layerCount = 1;
			rendering.colorAttachmentCount = 1;
			rendering.pColorAttachments = &color;
			vkCmdBeginRendering(cb, &rendering);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
			BindVertices(cb, 0);
			draw(cb);
			vkCmdEndRendering(cb);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageExtent = {kSize, kSize, 1};
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
		});
		std::vector<uint32_t> pixels(kSize * kSize);
		std::memcpy(pixels.data(), out.data, pixels.size() * 4);
		return pixels;
	}

	// vkCmdBindVertexBuffers2 of the packed (0) or padded (1) positions.
	void BindVertices(VkCommandBuffer cb, uint32_t which) const {
		const VkDeviceSize offset = 0, size = VK_WHOLE_SIZE, stride = which ? 16 : 8;
		vkCmdBindVertexBuffers2(cb, 0, 1, which ? &padded.buffer : &packed.buffer, &offset, &size, &stride);
	}
	const TestBuffer& Vertices(uint32_t which) const { return which ? padded : packed; }

	void PushSequence(VkCommandBuffer cb, const Push& push, uint32_t s) const {
		vkCmdPushConstants(cb, layout, kGraphicsStages, 0, sizeof push, &push);
		vkCmdPushConstants(cb, layout, kGraphicsStages, kSequenceIndexOffset, 4, &s);
	}

	VkIndirectCommandsLayoutEXT CreateLayout(std::vector<VkIndirectCommandsLayoutTokenEXT> tokens, uint32_t stride,
	                                         VkIndirectCommandsLayoutUsageFlagsEXT flags = 0,
	                                         VkShaderStageFlags stages = kGraphicsStages,
	                                         VkPipelineLayout pipeline_layout = VK_NULL_HANDLE) const {
		VkIndirectCommandsLayoutCreateInfoEXT info{VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT};
		info.flags = flags;
		info.shaderStages = stages;
		info.indirectStride = stride;
		info.pipelineLayout = pipeline_layout ? pipeline_layout : layout;
		info.tokenCount = uint32_t(tokens.size());
		info.pTokens = tokens.data();
		VkIndirectCommandsLayoutEXT result = VK_NULL_HANDLE;
		CHECK(procs.create_layout(device, &info, nullptr, &result) == VK_SUCCESS);
		return result;
	}

	VkIndirectExecutionSetEXT CreateSet() const {
		VkIndirectExecutionSetPipelineInfoEXT pipeline_info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT};
		pipeline_info.initialPipeline = pipelines[0];
		pipeline_info.maxPipelineCount = 2;
		VkIndirectExecutionSetCreateInfoEXT info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_CREATE_INFO_EXT};
		info.type = VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT;
		info.info.pPipelineInfo = &pipeline_info;
		VkIndirectExecutionSetEXT set = VK_NULL_HANDLE;
		CHECK(procs.create_set(device, &info, nullptr, &set) == VK_SUCCESS);
		VkWriteIndirectExecutionSetPipelineEXT write{VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT};
		write.index = 1;
		write.pipeline = pipelines[1];
		procs.update_set(device, set, 1, &write);
		return set;
	}
};

VkGeneratedCommandsInfoEXT GeneratedInfo(VkShaderStageFlags stages, VkIndirectExecutionSetEXT set,
                                         VkIndirectCommandsLayoutEXT layout, VkDeviceAddress address, VkDeviceSize size,
                                         uint32_t max_sequences) {
	VkGeneratedCommandsInfoEXT info{VK_STRUCTURE_TYPE_GENERATED_COMMANDS_INFO_EXT};
	info.shaderStages = stages;
	info.indirectExecutionSet = set;
	info.indirectCommandsLayout = layout;
	info.indirectAddress = address;
	info.indirectAddressSize = size;
	info.maxSequenceCount = max_sequences;
	return info;
}

Push SequencePush(uint32_t s) {
	Push push{};
	push.color[0] = 0.2f + 0.2f * float(s % 4);
	push.color[1] = 0.1f * float(s % 3);
	push.color[2] = 1.0f - 0.15f * float(s);
	push.color[3] = 1.0f;
	push.offset[0] = 0.45f * float(s % 4);
	push.offset[1] = 0.5f * float(s / 4);
	return push;
}

// Pixels the scene's clear color does not hold: a scene that drew nothing
// would compare equal to another that drew nothing.
size_t Drawn(const std::vector<uint32_t>& pixels) {
	return size_t(std::count_if(pixels.begin(), pixels.end(), [](uint32_t p) { return p != 0; }));
}

}  // namespace

TEST_CASE("VK_EXT_device_generated_commands: features and limits", "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features2);
	CHECK(features.deviceGeneratedCommands == VK_TRUE);
	CHECK(features.dynamicGeneratedPipelineLayout == VK_TRUE);

	VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT p{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	// The spec's required limits (Vulkan "Limits", Required Limits).
	CHECK(p.maxIndirectPipelineCount >= (1u << 12));
	CHECK(p.maxIndirectShaderObjectCount == 0);  // execution sets of pipelines only
	CHECK(p.maxIndirectSequenceCount >= (1u << 20));
	CHECK(p.maxIndirectCommandsTokenCount >= 16);
	CHECK(p.maxIndirectCommandsTokenOffset >= 2047);
	CHECK(p.maxIndirectCommandsIndirectStride >= 2048);
	CHECK((p.supportedIndirectCommandsInputModes & VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT) != 0);
	const VkShaderStageFlags required = VK_SHADER_STAGE_COMPUTE_BIT | kGraphicsStages;
	CHECK((p.supportedIndirectCommandsShaderStages & required) == required);
	CHECK(p.supportedIndirectCommandsShaderStagesShaderBinding == 0);
	CHECK((p.supportedIndirectCommandsShaderStagesPipelineBinding & ~p.supportedIndirectCommandsShaderStages) == 0);
}

TEST_CASE(
    "VK_EXT_device_generated_commands: execution set, push constants, sequence index, vertex and index "
    "buffers and indexed draws give the direct commands' bytes",
    "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	GraphicsScene scene(*ctx);
	REQUIRE(scene.procs.ok());
	VkDevice device = ctx->device();

	// Tokens: pipeline index, color and offset, sequence index, vertex
	// buffer, index buffer, indexed draw.
	const VkIndirectCommandsExecutionSetTokenEXT set_token{VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT,
	                                                       kGraphicsStages};
	const VkIndirectCommandsPushConstantTokenEXT push_token{{kGraphicsStages, 0, sizeof(Push)}};
	const VkIndirectCommandsPushConstantTokenEXT index_token{{kGraphicsStages, kSequenceIndexOffset, 4}};
	const VkIndirectCommandsVertexBufferTokenEXT vertex_token{0};
	const VkIndirectCommandsIndexBufferTokenEXT index_buffer_token{
	    VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT};
	VkIndirectCommandsTokenDataEXT data[5];
	data[0].pExecutionSet = &set_token;
	data[1].pPushConstant = &push_token;
	data[2].pPushConstant = &index_token;
	data[3].pVertexBuffer = &vertex_token;
	data[4].pIndexBuffer = &index_buffer_token;
	constexpr uint32_t kStride = 88;
	VkIndirectCommandsLayoutEXT layout =
	    scene.CreateLayout({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT, 0, data[0]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 4, data[1]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT, 28, data[2]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT, 32, data[3]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT, 48, data[4]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT, 64)},
	                       kStride);
	REQUIRE(layout);
	VkIndirectExecutionSetEXT set = scene.CreateSet();
	REQUIRE(set);

	constexpr uint32_t kSequences = 6;
	struct Sequence {
		uint32_t pipeline, vertices;
		VkIndexType index_type;
		VkDrawIndexedIndirectCommand draw;
	};
	std::vector<Sequence> sequences;
	Stream stream{kStride, {}};
	for (uint32_t s = 0; s < kSequences; ++s) {
		Sequence q{};
		q.pipeline = (s / 2) % 2;
		q.vertices = s % 2;
		q.index_type = s % 3 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
		q.draw = {3 + 3 * (s % 2), 1 + s % 2, 3 * s % 18, 0, s};
		if (q.draw.firstIndex + q.draw.indexCount > 18) q.draw.firstIndex = 0;
		sequences.push_back(q);
		const TestBuffer& indices = q.index_type == VK_INDEX_TYPE_UINT16 ? scene.indices16 : scene.indices32;
		stream.Put(s, 0, q.pipeline);
		stream.Put(s, 4, SequencePush(s));
		stream.Put(
		    s, 32,
		    VkBindVertexBufferIndirectCommandEXT{AddressOf(device, scene.Vertices(q.vertices)),
		                                         uint32_t(scene.Vertices(q.vertices).size), q.vertices ? 16u : 8u});
		stream.Put(
		    s, 48,
		    VkBindIndexBufferIndirectCommandEXT{AddressOf(device, indices), uint32_t(indices.size), q.index_type});
		stream.Put(s, 64, q.draw);
	}
	stream.bytes.resize(kSequences * kStride);
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());

	const auto direct = scene.Render([&](VkCommandBuffer cb) {
		for (uint32_t s = 0; s < kSequences; ++s) {
			const Sequence& q = sequences[s];
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.pipelines[q.pipeline]);
			scene.PushSequence(cb, SequencePush(s), s);
			scene.BindVertices(cb, q.vertices);
			vkCmdBindIndexBuffer(cb,
			                     q.index_type == VK_INDEX_TYPE_UINT16 ? scene.indices16.buffer : scene.indices32.buffer,
			                     0, q.index_type);
			vkCmdDrawIndexed(cb, q.draw.indexCount, q.draw.instanceCount, q.draw.firstIndex, q.draw.vertexOffset,
			                 q.draw.firstInstance);
		}
	});
	const auto generated = scene.Render([&](VkCommandBuffer cb) {
		const VkGeneratedCommandsInfoEXT info =
		    GeneratedInfo(kGraphicsStages, set, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	CHECK(Drawn(direct) > 100);
	CHECK(generated == direct);

	// The same with the pipelines the other way round in the set: the image
	// changes, so the execution set token is what picked them.
	VkWriteIndirectExecutionSetPipelineEXT writes[2] = {
	    {VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT, nullptr, 0, scene.pipelines[1]},
	    {VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT, nullptr, 1, scene.pipelines[0]}};
	scene.procs.update_set(device, set, 2, writes);
	const auto swapped = scene.Render([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.pipelines[1]);  // the set's initial state
		const VkGeneratedCommandsInfoEXT info =
		    GeneratedInfo(kGraphicsStages, set, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	CHECK(swapped != direct);
	CHECK(Drawn(swapped) == Drawn(direct));

	ctx->Destroy(indirect);
	scene.procs.destroy_set(device, set, nullptr);
	scene.procs.destroy_layout(device, layout, nullptr);
}

TEST_CASE("VK_EXT_device_generated_commands: draw tokens with the bound pipeline stop at the count buffer's count",
          "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	GraphicsScene scene(*ctx);
	REQUIRE(scene.procs.ok());
	VkDevice device = ctx->device();

	// No pipeline layout: dynamicGeneratedPipelineLayout takes it from pNext.
	VkPushConstantRange range{kGraphicsStages, 0, sizeof(Push) + 4};
	VkPipelineLayoutCreateInfo dynamic_layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	dynamic_layout.pushConstantRangeCount = 1;
	dynamic_layout.pPushConstantRanges = &range;
	const VkIndirectCommandsPushConstantTokenEXT push_token{{kGraphicsStages, 0, sizeof(Push)}};
	const VkIndirectCommandsPushConstantTokenEXT index_token{{kGraphicsStages, kSequenceIndexOffset, 4}};
	VkIndirectCommandsTokenDataEXT data[2];
	data[0].pPushConstant = &push_token;
	data[1].pPushConstant = &index_token;
	constexpr uint32_t kStride = 44;
	const VkIndirectCommandsLayoutTokenEXT tokens[3] = {
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 0, data[0]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT, 24, data[1]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT, 28)};
	VkIndirectCommandsLayoutCreateInfoEXT lci{VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT,
	                                          &dynamic_layout};
	lci.flags = VK_INDIRECT_COMMANDS_LAYOUT_USAGE_UNORDERED_SEQUENCES_BIT_EXT;
	lci.shaderStages = kGraphicsStages;
	lci.indirectStride = kStride;
	lci.tokenCount = 3;
	lci.pTokens = tokens;
	VkIndirectCommandsLayoutEXT layout = VK_NULL_HANDLE;
	REQUIRE(scene.procs.create_layout(device, &lci, nullptr, &layout) == VK_SUCCESS);

	constexpr uint32_t kSequences = 7, kCounted = 4;
	Stream stream{kStride, {}};
	auto draw_of = [](uint32_t s) { return VkDrawIndirectCommand{3, 1 + s % 3, 3 * (s % 6), s % 2}; };
	for (uint32_t s = 0; s < kSequences; ++s) {
		stream.Put(s, 0, SequencePush(s));
		stream.Put(s, 28, draw_of(s));
	}
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());
	const uint32_t counts[2] = {kCounted, 1000};  // the count, then one past maxSequenceCount
	TestBuffer count = Upload(*ctx, counts, sizeof counts);

	auto direct = [&](uint32_t n) {
		return scene.Render([&](VkCommandBuffer cb) {
			for (uint32_t s = 0; s < n; ++s) {
				scene.PushSequence(cb, SequencePush(s), s);
				const VkDrawIndirectCommand d = draw_of(s);
				vkCmdDraw(cb, d.vertexCount, d.instanceCount, d.firstVertex, d.firstInstance);
			}
		});
	};
	auto generated = [&](VkDeviceAddress count_address) {
		return scene.Render([&](VkCommandBuffer cb) {
			VkGeneratedCommandsInfoEXT info = GeneratedInfo(
			    kGraphicsStages, VK_NULL_HANDLE, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
			info.sequenceCountAddress = count_address;
			scene.procs.execute(cb, VK_FALSE, &info);
		});
	};
	const auto all = direct(kSequences), counted = direct(kCounted);
	CHECK(Drawn(counted) > 50);
	CHECK(all != counted);  // the sequences past the count draw something
	CHECK(generated(0) == all);
	CHECK(generated(AddressOf(device, count)) == counted);
	CHECK(generated(AddressOf(device, count) + 4) == all);  // min(1000, maxSequenceCount)

	ctx->Destroy(count);
	ctx->Destroy(indirect);
	scene.procs.destroy_layout(device, layout, nullptr);
}

TEST_CASE(
    "VK_EXT_device_generated_commands: count tokens draw min(commandCount, maxDrawCount) records, DXGI index "
    "buffers",
    "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	GraphicsScene scene(*ctx);
	REQUIRE(scene.procs.ok());
	VkDevice device = ctx->device();

	const VkIndirectCommandsPushConstantTokenEXT push_token{{kGraphicsStages, 0, sizeof(Push)}};
	const VkIndirectCommandsPushConstantTokenEXT index_token{{kGraphicsStages, kSequenceIndexOffset, 4}};
	const VkIndirectCommandsIndexBufferTokenEXT dxgi{VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT};
	VkIndirectCommandsTokenDataEXT data[3];
	data[0].pPushConstant = &push_token;
	data[1].pPushConstant = &index_token;
	data[2].pIndexBuffer = &dxgi;
	constexpr uint32_t kStride = 64, kSequences = 3, kMaxDrawCount = 3;
	const bool indexed = GENERATE(false, true);
	INFO((indexed ? "DRAW_INDEXED_COUNT" : "DRAW_COUNT"));
	std::vector<VkIndirectCommandsLayoutTokenEXT> tokens = {
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 0, data[0]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT, 24, data[1])};
	if (indexed) tokens.push_back(Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT, 32, data[2]));
	tokens.push_back(Token(indexed ? VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT
	                               : VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT,
	                       48));
	VkIndirectCommandsLayoutEXT layout = scene.CreateLayout(tokens, kStride);
	REQUIRE(layout);

	// Records for every sequence in one buffer, a stride of 32 bytes apart;
	// sequence s asks for s + 2 draws, which maxDrawCount cuts to 3.
	constexpr uint32_t kRecordStride = 32, kRecordsPerSequence = 4;
	std::vector<uint8_t> records(kSequences * kRecordsPerSequence * kRecordStride);
	for (uint32_t r = 0; r < kSequences * kRecordsPerSequence; ++r) {
		if (indexed) {
			const VkDrawIndexedIndirectCommand d{3, 1, 3 * (r % 6), 0, r % 2};
			std::memcpy(&records[r * kRecordStride], &d, sizeof d);
		} else {
			const VkDrawIndirectCommand d{3, 1, 3 * (r % 6), r % 2};
			std::memcpy(&records[r * kRecordStride], &d, sizeof d);
		}
	}
	TestBuffer draws = Upload(*ctx, records.data(), records.size());
	// DXGI_FORMAT_R16_UINT and R32_UINT in place of VkIndexType.
	const uint32_t dxgi_formats[kSequences] = {57, 42, 57};
	Stream stream{kStride, {}};
	for (uint32_t s = 0; s < kSequences; ++s) {
		stream.Put(s, 0, SequencePush(s));
		const TestBuffer& indices = dxgi_formats[s] == 57 ? scene.indices16 : scene.indices32;
		stream.Put(s, 32,
		           VkBindIndexBufferIndirectCommandEXT{AddressOf(device, indices), uint32_t(indices.size),
		                                               VkIndexType(dxgi_formats[s])});
		stream.Put(s, 48,
		           VkDrawIndirectCountIndirectCommandEXT{
		               AddressOf(device, draws) + s * kRecordsPerSequence * kRecordStride, kRecordStride, s + 2});
	}
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());

	const auto direct = scene.Render([&](VkCommandBuffer cb) {
		for (uint32_t s = 0; s < kSequences; ++s) {
			scene.PushSequence(cb, SequencePush(s), s);
			const uint32_t n = std::min(s + 2, kMaxDrawCount);
			const VkDeviceSize offset = s * kRecordsPerSequence * kRecordStride;
			if (indexed) {
				const bool u16 = dxgi_formats[s] == 57;
				vkCmdBindIndexBuffer(cb, u16 ? scene.indices16.buffer : scene.indices32.buffer, 0,
				                     u16 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32);
				vkCmdDrawIndexedIndirect(cb, draws.buffer, offset, n, kRecordStride);
			} else {
				vkCmdDrawIndirect(cb, draws.buffer, offset, n, kRecordStride);
			}
		}
	});
	const auto generated = scene.Render([&](VkCommandBuffer cb) {
		VkGeneratedCommandsInfoEXT info = GeneratedInfo(kGraphicsStages, VK_NULL_HANDLE, layout,
		                                                AddressOf(device, indirect), stream.bytes.size(), kSequences);
		info.maxDrawCount = kMaxDrawCount;
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	CHECK(Drawn(direct) > 50);
	CHECK(generated == direct);

	ctx->Destroy(indirect);
	ctx->Destroy(draws);
	scene.procs.destroy_layout(device, layout, nullptr);
}

TEST_CASE("VK_EXT_device_generated_commands: preprocessed execution gives the direct commands' bytes", "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	GraphicsScene scene(*ctx);
	REQUIRE(scene.procs.ok());
	VkDevice device = ctx->device();

	const VkIndirectCommandsExecutionSetTokenEXT set_token{VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT,
	                                                       kGraphicsStages};
	const VkIndirectCommandsPushConstantTokenEXT push_token{{kGraphicsStages, 0, sizeof(Push)}};
	VkIndirectCommandsTokenDataEXT data[2];
	data[0].pExecutionSet = &set_token;
	data[1].pPushConstant = &push_token;
	constexpr uint32_t kStride = 48, kSequences = 4;
	VkIndirectCommandsLayoutEXT layout =
	    scene.CreateLayout({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT, 0, data[0]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 4, data[1]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT, 28)},
	                       kStride, VK_INDIRECT_COMMANDS_LAYOUT_USAGE_EXPLICIT_PREPROCESS_BIT_EXT);
	REQUIRE(layout);
	VkIndirectExecutionSetEXT set = scene.CreateSet();
	REQUIRE(set);
	Stream stream{kStride, {}};
	for (uint32_t s = 0; s < kSequences; ++s) {
		stream.Put(s, 0, s % 2);
		stream.Put(s, 4, SequencePush(s));
		stream.Put(s, 28, VkDrawIndirectCommand{3, 2, 3 * s, 0});
	}
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());

	// A preprocess buffer of the size asked for (none when 0).
	VkGeneratedCommandsMemoryRequirementsInfoEXT requirements_info{
	    VK_STRUCTURE_TYPE_GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT};
	requirements_info.indirectExecutionSet = set;
	requirements_info.indirectCommandsLayout = layout;
	requirements_info.maxSequenceCount = kSequences;
	VkMemoryRequirements2 requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	scene.procs.requirements(device, &requirements_info, &requirements);
	CHECK(requirements.memoryRequirements.memoryTypeBits != 0);
	CHECK(requirements.memoryRequirements.alignment != 0);
	TestBuffer preprocess{};
	if (requirements.memoryRequirements.size) preprocess = ctx->CreateBuffer(requirements.memoryRequirements.size);

	VkGeneratedCommandsInfoEXT info =
	    GeneratedInfo(kGraphicsStages, set, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
	if (preprocess.buffer) {
		info.preprocessAddress = AddressOf(device, preprocess);
		info.preprocessSize = requirements.memoryRequirements.size;
	}
	const auto generated = scene.Render(
	    [&](VkCommandBuffer cb) {
		    const uint32_t zero = 0;
		    vkCmdPushConstants(cb, scene.layout, kGraphicsStages, kSequenceIndexOffset, 4, &zero);
		    scene.procs.execute(cb, VK_TRUE, &info);
	    },
	    [&](VkCommandBuffer cb) {
		    // The state command buffer is the one that executes: the
		    // initial pipeline bound before the preprocessing.
		    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.pipelines[0]);
		    scene.procs.preprocess(cb, &info, cb);
		    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		    barrier.srcAccessMask = VK_ACCESS_COMMAND_PREPROCESS_WRITE_BIT_EXT;
		    barrier.dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
		    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMMAND_PREPROCESS_BIT_EXT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
		                         0, 1, &barrier, 0, nullptr, 0, nullptr);
	    });
	// The layout has no sequence index token: both push 0 there.
	const auto direct = scene.Render([&](VkCommandBuffer cb) {
		const uint32_t zero = 0;
		vkCmdPushConstants(cb, scene.layout, kGraphicsStages, kSequenceIndexOffset, 4, &zero);
		for (uint32_t s = 0; s < kSequences; ++s) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.pipelines[s % 2]);
			const Push push = SequencePush(s);
			vkCmdPushConstants(cb, scene.layout, kGraphicsStages, 0, sizeof push, &push);
			vkCmdDraw(cb, 3, 2, 3 * s, 0);
		}
	});
	CHECK(Drawn(direct) > 50);
	CHECK(generated == direct);

	if (preprocess.buffer) ctx->Destroy(preprocess);
	ctx->Destroy(indirect);
	scene.procs.destroy_set(device, set, nullptr);
	scene.procs.destroy_layout(device, layout, nullptr);
}

TEST_CASE("VK_EXT_device_generated_commands: bad indirect data is skipped and reported, never followed", "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	GraphicsScene scene(*ctx);
	REQUIRE(scene.procs.ok());
	VkDevice device = ctx->device();

	const VkIndirectCommandsExecutionSetTokenEXT set_token{VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT,
	                                                       kGraphicsStages};
	const VkIndirectCommandsPushConstantTokenEXT push_token{{kGraphicsStages, 0, sizeof(Push)}};
	const VkIndirectCommandsVertexBufferTokenEXT vertex_token{0};
	VkIndirectCommandsTokenDataEXT data[3];
	data[0].pExecutionSet = &set_token;
	data[1].pPushConstant = &push_token;
	data[2].pVertexBuffer = &vertex_token;
	constexpr uint32_t kStride = 64, kSequences = 4;
	VkIndirectCommandsLayoutEXT layout =
	    scene.CreateLayout({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT, 0, data[0]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 4, data[1]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT, 32, data[2]),
	                        Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT, 48)},
	                       kStride);
	REQUIRE(layout);
	VkIndirectExecutionSetEXT set = scene.CreateSet();
	REQUIRE(set);

	// Sequences 0 and 1 are good; `bad` breaks sequence 2.
	enum Bad { kIndex, kVertexAddress, kNone };
	const Bad bad = GENERATE(kIndex, kVertexAddress);
	INFO("bad " << int(bad));
	Stream stream{kStride, {}};
	for (uint32_t s = 0; s < kSequences; ++s) {
		stream.Put(s, 0, s == 2 && bad == kIndex ? 1000000u : s % 2);
		stream.Put(s, 4, SequencePush(s));
		const VkDeviceAddress vertices = s == 2 && bad == kVertexAddress ? 0x10 : AddressOf(device, scene.packed);
		stream.Put(s, 32, VkBindVertexBufferIndirectCommandEXT{vertices, uint32_t(scene.packed.size), 8});
		stream.Put(s, 48, VkDrawIndirectCommand{3, 1, 3 * s, 0});
	}
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());
	const uint32_t errors_before = ctx->validation_errors();
	const auto generated = scene.Render([&](VkCommandBuffer cb) {
		const uint32_t zero = 0;
		vkCmdPushConstants(cb, scene.layout, kGraphicsStages, kSequenceIndexOffset, 4, &zero);
		const VkGeneratedCommandsInfoEXT info =
		    GeneratedInfo(kGraphicsStages, set, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	const auto first_two = scene.Render([&](VkCommandBuffer cb) {
		const uint32_t zero = 0;
		vkCmdPushConstants(cb, scene.layout, kGraphicsStages, kSequenceIndexOffset, 4, &zero);
		for (uint32_t s = 0; s < 2; ++s) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scene.pipelines[s % 2]);
			const Push push = SequencePush(s);
			vkCmdPushConstants(cb, scene.layout, kGraphicsStages, 0, sizeof push, &push);
			vkCmdDraw(cb, 3, 1, 3 * s, 0);
		}
	});
	CHECK(Drawn(first_two) > 10);
	CHECK(generated == first_two);
	CHECK(ctx->validation_errors() > errors_before);  // reported through the messenger

	// An indirect address outside every allocation and a huge sequence count
	// past the end of the buffer: nothing beyond the buffer is read.
	const auto nothing = scene.Render([&](VkCommandBuffer cb) {
		VkGeneratedCommandsInfoEXT info =
		    GeneratedInfo(kGraphicsStages, set, layout, 0x1000, stream.bytes.size(), kSequences);
		scene.procs.execute(cb, VK_FALSE, &info);
		info.indirectAddress = AddressOf(device, indirect);
		info.maxSequenceCount = 0xffffffffu;
		info.sequenceCountAddress = 0x2000;  // outside too: nothing runs
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	CHECK(Drawn(nothing) == 0);
	const auto clamped = scene.Render([&](VkCommandBuffer cb) {
		const uint32_t zero = 0;
		vkCmdPushConstants(cb, scene.layout, kGraphicsStages, kSequenceIndexOffset, 4, &zero);
		VkGeneratedCommandsInfoEXT info =
		    GeneratedInfo(kGraphicsStages, set, layout, AddressOf(device, indirect), stream.bytes.size(), 0xffffffffu);
		scene.procs.execute(cb, VK_FALSE, &info);
	});
	CHECK(clamped == first_two);

	ctx->Destroy(indirect);
	scene.procs.destroy_set(device, set, nullptr);
	scene.procs.destroy_layout(device, layout, nullptr);
}

TEST_CASE(
    "VK_EXT_device_generated_commands: dispatch sequences switching compute pipelines give the direct "
    "commands' bytes",
    "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	DgcProcs procs(*ctx);
	REQUIRE(procs.ok());
	VkDevice device = ctx->device();
	ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "dgc.spv"), 1);
	REQUIRE(kernel.ok());
	VkPipeline alternate = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, "dgc_alt.spv", kernel.layout());
	REQUIRE(alternate);
	const VkPipeline pipelines[2] = {kernel.pipeline(), alternate};

	VkIndirectExecutionSetPipelineInfoEXT pipeline_info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT};
	pipeline_info.initialPipeline = pipelines[0];
	pipeline_info.maxPipelineCount = 2;
	VkIndirectExecutionSetCreateInfoEXT set_info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_CREATE_INFO_EXT};
	set_info.type = VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT;
	set_info.info.pPipelineInfo = &pipeline_info;
	VkIndirectExecutionSetEXT set = VK_NULL_HANDLE;
	REQUIRE(procs.create_set(device, &set_info, nullptr, &set) == VK_SUCCESS);
	VkWriteIndirectExecutionSetPipelineEXT write{VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT, nullptr,
	                                             1, alternate};
	procs.update_set(device, set, 1, &write);

	const VkIndirectCommandsExecutionSetTokenEXT set_token{VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT,
	                                                       VK_SHADER_STAGE_COMPUTE_BIT};
	const VkIndirectCommandsPushConstantTokenEXT push_token{{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8}};
	const VkIndirectCommandsPushConstantTokenEXT index_token{{VK_SHADER_STAGE_COMPUTE_BIT, 8, 4}};
	VkIndirectCommandsTokenDataEXT data[3];
	data[0].pExecutionSet = &set_token;
	data[1].pPushConstant = &push_token;
	data[2].pPushConstant = &index_token;
	constexpr uint32_t kStride = 28, kSequences = 5;
	const VkIndirectCommandsLayoutTokenEXT tokens[4] = {
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT, 0, data[0]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 4, data[1]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT, 12, data[2]),
	    Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT, 16)};
	VkIndirectCommandsLayoutCreateInfoEXT lci{VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT};
	lci.shaderStages = VK_SHADER_STAGE_COMPUTE_BIT;
	lci.indirectStride = kStride;
	lci.pipelineLayout = kernel.layout();
	lci.tokenCount = 4;
	lci.pTokens = tokens;
	VkIndirectCommandsLayoutEXT layout = VK_NULL_HANDLE;
	REQUIRE(procs.create_layout(device, &lci, nullptr, &layout) == VK_SUCCESS);

	// Sequence s writes groups_x * 4 * groups_y words from base 64 * s.
	Stream stream{kStride, {}};
	struct Sequence {
		uint32_t pipeline, base, value;
		VkDispatchIndirectCommand groups;
	};
	std::vector<Sequence> sequences;
	for (uint32_t s = 0; s < kSequences; ++s) {
		const Sequence q{(s * 3 / 2) % 2, 64 * s, 10 + s, {1 + s % 3, 1 + s % 2, 1}};
		sequences.push_back(q);
		stream.Put(s, 0, q.pipeline);
		stream.Put(s, 4, q.base);
		stream.Put(s, 8, q.value);
		stream.Put(s, 16, q.groups);
	}
	TestBuffer indirect = Upload(*ctx, stream.bytes.data(), stream.bytes.size());

	auto run = [&](const std::function<void(VkCommandBuffer)>& record) {
		std::vector<uint8_t> zeros(64 * 4 * kSequences, 0);
		TestBuffer output = Upload(*ctx, zeros.data(), zeros.size());
		kernel.Bind(0, output.buffer);
		ctx->Submit([&](VkCommandBuffer cb) {
			VkDescriptorSet descriptor_set = kernel.set();
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout(), 0, 1, &descriptor_set, 0,
			                        nullptr);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[0]);
			record(cb);
		});
		std::vector<uint32_t> words(zeros.size() / 4);
		std::memcpy(words.data(), output.data, zeros.size());
		ctx->Destroy(output);
		return words;
	};
	const auto direct = run([&](VkCommandBuffer cb) {
		for (uint32_t s = 0; s < kSequences; ++s) {
			const Sequence& q = sequences[s];
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[q.pipeline]);
			const uint32_t push[3] = {q.base, q.value, s};
			vkCmdPushConstants(cb, kernel.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
			vkCmdDispatch(cb, q.groups.x, q.groups.y, q.groups.z);
		}
	});
	const auto generated = run([&](VkCommandBuffer cb) {
		const VkGeneratedCommandsInfoEXT info = GeneratedInfo(
		    VK_SHADER_STAGE_COMPUTE_BIT, set, layout, AddressOf(device, indirect), stream.bytes.size(), kSequences);
		procs.execute(cb, VK_FALSE, &info);
	});
	// Every sequence wrote its first word, with both pipelines' values.
	for (uint32_t s = 0; s < kSequences; ++s) {
		const Sequence& q = sequences[s];
		CHECK(direct[q.base] == (q.pipeline ? 3 * q.value + 7 : q.value) + 1000 * s);
	}
	CHECK(generated == direct);

	ctx->Destroy(indirect);
	procs.destroy_layout(device, layout, nullptr);
	procs.destroy_set(device, set, nullptr);
	vkDestroyPipeline(device, alternate, nullptr);
}

TEST_CASE("VK_EXT_device_generated_commands: what Tessera cannot run is refused at creation", "[dgc]") {
	DgcOptions options;
	auto ctx = Context::Create(Driver::Tessera, options.Options());
	REQUIRE(ctx);
	DgcProcs procs(*ctx);
	REQUIRE(procs.ok());
	VkDevice device = ctx->device();
	const uint32_t errors_before = ctx->validation_errors();

	auto create = [&](std::vector<VkIndirectCommandsLayoutTokenEXT> tokens, VkShaderStageFlags stages) {
		VkIndirectCommandsLayoutCreateInfoEXT info{VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT};
		info.shaderStages = stages;
		info.indirectStride = 64;
		info.tokenCount = uint32_t(tokens.size());
		info.pTokens = tokens.data();
		VkIndirectCommandsLayoutEXT layout = VK_NULL_HANDLE;
		const VkResult result = procs.create_layout(device, &info, nullptr, &layout);
		if (layout) procs.destroy_layout(device, layout, nullptr);
		return result;
	};
	const VkIndirectCommandsExecutionSetTokenEXT shader_objects{VK_INDIRECT_EXECUTION_SET_INFO_TYPE_SHADER_OBJECTS_EXT,
	                                                            VK_SHADER_STAGE_COMPUTE_BIT};
	const VkIndirectCommandsPushConstantTokenEXT past_block{{VK_SHADER_STAGE_COMPUTE_BIT, 252, 8}};
	VkIndirectCommandsTokenDataEXT data[2];
	data[0].pExecutionSet = &shader_objects;
	data[1].pPushConstant = &past_block;
	const auto dispatch = Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT, 16);
	// The control: a dispatch layout is created.
	CHECK(create({dispatch}, VK_SHADER_STAGE_COMPUTE_BIT) == VK_SUCCESS);
	// Sets of shader objects (not offered), a push past the 256-byte
	// block, a dispatch for graphics stages, no action token, the action
	// token not last.
	CHECK(create({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT, 0, data[0]), dispatch},
	             VK_SHADER_STAGE_COMPUTE_BIT) != VK_SUCCESS);
	CHECK(create({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT, 0, data[1]), dispatch},
	             VK_SHADER_STAGE_COMPUTE_BIT) != VK_SUCCESS);
	CHECK(create({dispatch}, kGraphicsStages) != VK_SUCCESS);
	CHECK(create({Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT, 0, data[1])},
	             VK_SHADER_STAGE_COMPUTE_BIT) != VK_SUCCESS);
	CHECK(create({dispatch, Token(VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT, 32)}, VK_SHADER_STAGE_COMPUTE_BIT) !=
	      VK_SUCCESS);

	// Execution sets of shader objects.
	VkIndirectExecutionSetShaderInfoEXT shader_info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_SHADER_INFO_EXT};
	shader_info.maxShaderCount = 1;
	VkIndirectExecutionSetCreateInfoEXT set_info{VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_CREATE_INFO_EXT};
	set_info.type = VK_INDIRECT_EXECUTION_SET_INFO_TYPE_SHADER_OBJECTS_EXT;
	set_info.info.pShaderInfo = &shader_info;
	VkIndirectExecutionSetEXT set = VK_NULL_HANDLE;
	CHECK(procs.create_set(device, &set_info, nullptr, &set) != VK_SUCCESS);
	CHECK(set == VK_NULL_HANDLE);
	CHECK(ctx->validation_errors() >= errors_before + 6);  // each refusal says why
}
