// VK_EXT_shader_object: shaders made without pipelines draw the same bytes as
// a graphics pipeline of the same stages whose every state is dynamic, set by
// the same commands: vertex and fragment, tessellation (with a push constant
// range of its own), geometry, unlinked and linked, and made again from
// their vkGetShaderBinaryDataEXT binaries; a compute shader with
// specialization constants dispatches as a compute pipeline does; a
// command buffer switches between a pipeline and shaders (each bind unbinds
// the other); vkCmdSetRasterizationStreamEXT picks the stream a geometry
// shader's primitives are drawn from; corrupted or foreign binaries and
// invalid SPIR-V are refused with their codes, never a crash. Tessera
// alone, without the validation layer: lavapipe 22.3 and the layer's 1.3.239
// release predate the extension.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 32;
constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;

// Tessera with shader objects and the features whose dynamic states the
// draws below set.
struct ShaderObjectContext {
	VkPhysicalDeviceShaderObjectFeaturesEXT shader_object{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, &shader_object};
	VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT, &eds3};
	VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT, &eds2};
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	                                                 &vertex_input};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &xfb};
	VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	std::unique_ptr<Context> ctx;

	ShaderObjectContext() {
		shader_object.shaderObject = VK_TRUE;
		eds3.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
		eds3.extendedDynamicState3PolygonMode = VK_TRUE;
		eds3.extendedDynamicState3RasterizationSamples = VK_TRUE;
		eds3.extendedDynamicState3SampleMask = VK_TRUE;
		eds3.extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
		eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
		eds3.extendedDynamicState3ColorBlendEquation = VK_TRUE;
		eds3.extendedDynamicState3ColorWriteMask = VK_TRUE;
		eds3.extendedDynamicState3RasterizationStream = VK_TRUE;
		eds2.extendedDynamicState2 = VK_TRUE;
		eds2.extendedDynamicState2PatchControlPoints = VK_TRUE;
		vertex_input.vertexInputDynamicState = VK_TRUE;
		xfb.transformFeedback = VK_TRUE;
		xfb.geometryStreams = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;
		core.features.tessellationShader = VK_TRUE;
		core.features.geometryShader = VK_TRUE;
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {
		    VK_EXT_SHADER_OBJECT_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME,
		    VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME,
		    VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};
		options.device_features = &core;
		ctx = Context::Create(Driver::Tessera, options);
	}
};

std::vector<uint32_t> Spirv(const std::string& name) { return LoadCorpusShader(TESSERA_SHADER_DIR, name); }

// The stages of a scene (corpus names; empty: none), with the push
// constants the tessellation control stage reads.
struct Stages {
	std::string vertex = "geom_input.vert.spv", tess_control, tess_eval, geometry, fragment = "geom_color.frag.spv";
	bool Tessellated() const { return !tess_control.empty(); }
};

struct Levels {
	float outer[4] = {3, 4, 5, 1};
	float inner[2] = {4, 1};
};
constexpr VkPushConstantRange kLevelsRange{VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof(Levels)};

// Triangles across the target (a vec4 position each vertex).
std::vector<float> Triangles(float shift) {
	std::vector<float> v;
	for (int i = 0; i < 12; ++i)
		v.insert(v.end(),
		         {-0.9f + 0.15f * float(i) + shift, (i % 3 == 1) ? 0.7f : -0.6f + 0.1f * float(i % 2), 0.5f, 1});
	return v;
}

// The commands of Vulkan "Setting State" that a draw with shader objects
// needs, with the values both ways of drawing use.
struct DrawState {
	VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	uint32_t rasterization_stream = 0;  // set when the scene has a geometry stage
	bool blend = true;
};

void SetState(const Context& c, VkCommandBuffer cb, const Stages& stages, const DrawState& s) {
	const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
	const VkRect2D scissor{{0, 0}, {kSize, kSize}};
	vkCmdSetViewportWithCount(cb, 1, &viewport);
	vkCmdSetScissorWithCount(cb, 1, &scissor);
	vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
	vkCmdSetPrimitiveTopology(cb, stages.Tessellated() ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : s.topology);
	vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
	vkCmdSetCullMode(cb, VK_CULL_MODE_NONE);
	vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
	vkCmdSetDepthTestEnable(cb, VK_FALSE);
	vkCmdSetDepthWriteEnable(cb, VK_FALSE);
	vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_ALWAYS);
	vkCmdSetDepthBoundsTestEnable(cb, VK_FALSE);
	vkCmdSetDepthBiasEnable(cb, VK_FALSE);
	vkCmdSetStencilTestEnable(cb, VK_FALSE);
	vkCmdSetLineWidth(cb, 1.0f);
	const float constants[4] = {0.25f, 0.5f, 0.75f, 1.0f};
	vkCmdSetBlendConstants(cb, constants);

	VkVertexInputBindingDescription2EXT binding{VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT};
	binding.binding = 0;
	binding.stride = 16;
	binding.inputRate = VK_VERTEX_INPUT_RATE_VERTEX;
	binding.divisor = 1;
	VkVertexInputAttributeDescription2EXT attribute{VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT};
	attribute.location = 0;
	attribute.binding = 0;
	attribute.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	c.Proc<PFN_vkCmdSetVertexInputEXT>("vkCmdSetVertexInputEXT")(cb, 1, &binding, 1, &attribute);
	if (stages.Tessellated()) {
		c.Proc<PFN_vkCmdSetPatchControlPointsEXT>("vkCmdSetPatchControlPointsEXT")(cb, 3);
		c.Proc<PFN_vkCmdSetTessellationDomainOriginEXT>("vkCmdSetTessellationDomainOriginEXT")(
		    cb, VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT);
	}
	if (!stages.geometry.empty())
		c.Proc<PFN_vkCmdSetRasterizationStreamEXT>("vkCmdSetRasterizationStreamEXT")(cb, s.rasterization_stream);
	c.Proc<PFN_vkCmdSetRasterizationSamplesEXT>("vkCmdSetRasterizationSamplesEXT")(cb, VK_SAMPLE_COUNT_1_BIT);
	const VkSampleMask mask = ~0u;
	c.Proc<PFN_vkCmdSetSampleMaskEXT>("vkCmdSetSampleMaskEXT")(cb, VK_SAMPLE_COUNT_1_BIT, &mask);
	c.Proc<PFN_vkCmdSetAlphaToCoverageEnableEXT>("vkCmdSetAlphaToCoverageEnableEXT")(cb, VK_FALSE);
	c.Proc<PFN_vkCmdSetPolygonModeEXT>("vkCmdSetPolygonModeEXT")(cb, VK_POLYGON_MODE_FILL);
	const VkBool32 blend = s.blend;
	c.Proc<PFN_vkCmdSetColorBlendEnableEXT>("vkCmdSetColorBlendEnableEXT")(cb, 0, 1, &blend);
	const VkColorBlendEquationEXT equation{VK_BLEND_FACTOR_CONSTANT_COLOR,
	                                       VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
	                                       VK_BLEND_OP_ADD,
	                                       VK_BLEND_FACTOR_ONE,
	                                       VK_BLEND_FACTOR_ZERO,
	                                       VK_BLEND_OP_ADD};
	c.Proc<PFN_vkCmdSetColorBlendEquationEXT>("vkCmdSetColorBlendEquationEXT")(cb, 0, 1, &equation);
	const VkColorComponentFlags write =
	    VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
	c.Proc<PFN_vkCmdSetColorWriteMaskEXT>("vkCmdSetColorWriteMaskEXT")(cb, 0, 1, &write);
}

// The states SetState sets, for the pipeline that draws the same.
std::vector<VkDynamicState> DynamicStates(const Stages& stages) {
	std::vector<VkDynamicState> d = {VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
	                                 VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
	                                 VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
	                                 VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
	                                 VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
	                                 VK_DYNAMIC_STATE_CULL_MODE,
	                                 VK_DYNAMIC_STATE_FRONT_FACE,
	                                 VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
	                                 VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
	                                 VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
	                                 VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
	                                 VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
	                                 VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
	                                 VK_DYNAMIC_STATE_LINE_WIDTH,
	                                 VK_DYNAMIC_STATE_BLEND_CONSTANTS,
	                                 VK_DYNAMIC_STATE_VERTEX_INPUT_EXT,
	                                 VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT,
	                                 VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
	                                 VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT,
	                                 VK_DYNAMIC_STATE_POLYGON_MODE_EXT,
	                                 VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
	                                 VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
	                                 VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT};
	if (stages.Tessellated()) {
		d.push_back(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
		d.push_back(VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT);
	}
	if (!stages.geometry.empty()) d.push_back(VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT);
	return d;
}

// A graphics pipeline of the stages, every state SetState sets dynamic.
struct GraphicsPipeline {
	VkPipelineLayout layout = VK_NULL_HANDLE;
	VkPipeline pipeline = VK_NULL_HANDLE;
};

GraphicsPipeline MakePipeline(Context& c, const Stages& stages) {
	VkDevice device = c.device();
	GraphicsPipeline p;
	VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	if (stages.Tessellated()) {
		li.pushConstantRangeCount = 1;
		li.pPushConstantRanges = &kLevelsRange;
	}
	REQUIRE(vkCreatePipelineLayout(device, &li, nullptr, &p.layout) == VK_SUCCESS);
	std::vector<std::vector<uint32_t>> code;
	std::vector<VkShaderModuleCreateInfo> modules;
	std::vector<VkPipelineShaderStageCreateInfo> infos;
	const std::pair<std::string, VkShaderStageFlagBits> named[] = {
	    {stages.vertex, VK_SHADER_STAGE_VERTEX_BIT},
	    {stages.tess_control, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT},
	    {stages.tess_eval, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT},
	    {stages.geometry, VK_SHADER_STAGE_GEOMETRY_BIT},
	    {stages.fragment, VK_SHADER_STAGE_FRAGMENT_BIT}};
	code.reserve(5);
	modules.reserve(5);
	for (const auto& [name, stage] : named) {
		if (name.empty()) continue;
		code.push_back(Spirv(name));
		VkShaderModuleCreateInfo m{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
		m.codeSize = code.back().size() * 4;
		m.pCode = code.back().data();
		modules.push_back(m);
		VkPipelineShaderStageCreateInfo s{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &modules.back()};
		s.stage = stage;
		s.pName = "main";
		infos.push_back(s);
	}
	VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
	ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
	ts.patchControlPoints = 3;
	VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
	VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	rs.lineWidth = 1.0f;
	VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	VkPipelineColorBlendAttachmentState attachment{};
	VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	cb.attachmentCount = 1;
	cb.pAttachments = &attachment;
	const std::vector<VkDynamicState> dynamic_states = DynamicStates(stages);
	VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
	dyn.dynamicStateCount = uint32_t(dynamic_states.size());
	dyn.pDynamicStates = dynamic_states.data();
	VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
	rendering.colorAttachmentCount = 1;
	rendering.pColorAttachmentFormats = &kColor;
	VkGraphicsPipelineCreateInfo gi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
	gi.stageCount = uint32_t(infos.size());
	gi.pStages = infos.data();
	gi.pVertexInputState = &vi;
	gi.pInputAssemblyState = &ia;
	gi.pTessellationState = stages.Tessellated() ? &ts : nullptr;
	gi.pViewportState = &vp;
	gi.pRasterizationState = &rs;
	gi.pMultisampleState = &ms;
	gi.pDepthStencilState = &ds;
	gi.pColorBlendState = &cb;
	gi.pDynamicState = &dyn;
	gi.layout = p.layout;
	REQUIRE(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gi, nullptr, &p.pipeline) == VK_SUCCESS);
	return p;
}

void Destroy(Context& c, GraphicsPipeline& p) {
	vkDestroyPipeline(c.device(), p.pipeline, nullptr);
	vkDestroyPipelineLayout(c.device(), p.layout, nullptr);
}

// How shader objects are made.
enum class Made { kUnlinked, kLinked, kFromBinary };

// The scene's shaders, in stage order (VK_NULL_HANDLE where none).
struct Shaders {
	VkShaderStageFlagBits stages[5] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
	                                   VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT,
	                                   VK_SHADER_STAGE_FRAGMENT_BIT};
	VkShaderEXT shaders[5] = {};
};

// The next stage each stage may be followed by in the scene.
VkShaderStageFlags NextStage(const Stages& s, size_t k) {
	const bool present[5] = {!s.vertex.empty(), !s.tess_control.empty(), !s.tess_eval.empty(), !s.geometry.empty(),
	                         !s.fragment.empty()};
	for (size_t n = k + 1; n < 5; ++n)
		if (present[n]) return VkShaderStageFlags(Shaders{}.stages[n]);
	return 0;
}

Shaders MakeShaders(Context& c, const Stages& stages, Made made) {
	VkDevice device = c.device();
	auto create = c.Proc<PFN_vkCreateShadersEXT>("vkCreateShadersEXT");
	auto destroy = c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT");
	auto binary_of = c.Proc<PFN_vkGetShaderBinaryDataEXT>("vkGetShaderBinaryDataEXT");
	REQUIRE(create);
	REQUIRE(destroy);
	REQUIRE(binary_of);
	const std::string names[5] = {stages.vertex, stages.tess_control, stages.tess_eval, stages.geometry,
	                              stages.fragment};
	Shaders out;
	std::vector<std::vector<uint32_t>> code(5);
	std::vector<VkShaderCreateInfoEXT> infos;
	std::vector<size_t> slots;
	for (size_t k = 0; k < 5; ++k) {
		if (names[k].empty()) continue;
		code[k] = Spirv(names[k]);
		VkShaderCreateInfoEXT info{VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT};
		info.flags = made == Made::kLinked ? VK_SHADER_CREATE_LINK_STAGE_BIT_EXT : 0;
		info.stage = out.stages[k];
		info.nextStage = NextStage(stages, k);
		info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
		info.codeSize = code[k].size() * 4;
		info.pCode = code[k].data();
		info.pName = "main";
		if (stages.Tessellated()) {
			info.pushConstantRangeCount = 1;
			info.pPushConstantRanges = &kLevelsRange;
		}
		infos.push_back(info);
		slots.push_back(k);
	}
	std::vector<VkShaderEXT> made_shaders(infos.size());
	if (made == Made::kLinked) {
		REQUIRE(create(device, uint32_t(infos.size()), infos.data(), nullptr, made_shaders.data()) == VK_SUCCESS);
	} else {
		for (size_t i = 0; i < infos.size(); ++i)
			REQUIRE(create(device, 1, &infos[i], nullptr, &made_shaders[i]) == VK_SUCCESS);
	}
	if (made == Made::kFromBinary) {
		// Each shader made again from its binary, the first ones destroyed.
		std::vector<std::vector<uint8_t>> binaries(infos.size());
		for (size_t i = 0; i < infos.size(); ++i) {
			size_t size = 0;
			REQUIRE(binary_of(device, made_shaders[i], &size, nullptr) == VK_SUCCESS);
			REQUIRE(size > 0);
			binaries[i].resize(size);
			// Too small a buffer: nothing written, VK_INCOMPLETE.
			size_t small = size - 1;
			binaries[i].back() = 0x5a;
			CHECK(binary_of(device, made_shaders[i], &small, binaries[i].data()) == VK_INCOMPLETE);
			CHECK(binaries[i].back() == 0x5a);
			REQUIRE(binary_of(device, made_shaders[i], &size, binaries[i].data()) == VK_SUCCESS);
			CHECK(size == binaries[i].size());
			destroy(device, made_shaders[i], nullptr);
			infos[i].codeType = VK_SHADER_CODE_TYPE_BINARY_EXT;
			infos[i].codeSize = binaries[i].size();
			infos[i].pCode = binaries[i].data();
		}
		for (size_t i = 0; i < infos.size(); ++i)
			REQUIRE(create(device, 1, &infos[i], nullptr, &made_shaders[i]) == VK_SUCCESS);
	}
	for (size_t i = 0; i < infos.size(); ++i) {
		REQUIRE(made_shaders[i] != VK_NULL_HANDLE);
		out.shaders[slots[i]] = made_shaders[i];
	}
	return out;
}

void Destroy(Context& c, Shaders& s) {
	auto destroy = c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT");
	for (VkShaderEXT& shader : s.shaders) {
		if (shader) destroy(c.device(), shader, nullptr);
		shader = VK_NULL_HANDLE;
	}
}

// A color target, its view and a buffer to read it back into.
struct Target {
	TestImage image;
	VkImageView view = VK_NULL_HANDLE;
	TestBuffer readback;
};

Target MakeTarget(Context& c) {
	Target t;
	t.image =
	    c.CreateImage2D(kColor, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vi.image = t.image.image;
	vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vi.format = kColor;
	vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	REQUIRE(vkCreateImageView(c.device(), &vi, nullptr, &t.view) == VK_SUCCESS);
	t.readback = c.CreateBuffer(kSize * kSize * 4);
	return t;
}

void Destroy(Context& c, Target& t) {
	vkDestroyImageView(c.device(), t.view, nullptr);
	c.Destroy(t.image);
	c.Destroy(t.readback);
}

void BeginRendering(Context& c, VkCommandBuffer cb, const Target& t) {
	c.Transition(cb, t.image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
	VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
	color.imageView = t.view;
	color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	color.clearValue.color = {{0.1f, 0.2f, 0.3f, 1.0f}};
	VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
	ri.renderArea = {{0, 0}, {kSize, kSize}};
	ri.layerCount = 1;
	ri.colorAttachmentCount = 1;
	ri.pColorAttachments = &color;
	vkCmdBeginRendering(cb, &ri);
}

void EndRendering(Context& c, VkCommandBuffer cb, const Target& t) {
	vkCmdEndRendering(cb);
	c.Transition(cb, t.image.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {kSize, kSize, 1};
	vkCmdCopyImageToBuffer(cb, t.image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, t.readback.buffer, 1, &region);
}

// One draw of the scene's triangles (shifted by `shift`) with what is bound.
void DrawTriangles(Context& c, VkCommandBuffer cb, const Stages& stages, const TestBuffer& vertices,
                   VkPipelineLayout push_layout, const DrawState& state = {}) {
	SetState(c, cb, stages, state);
	const VkDeviceSize offset = 0;
	vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &offset);
	if (stages.Tessellated()) {
		const Levels levels;
		vkCmdPushConstants(cb, push_layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, sizeof levels, &levels);
	}
	vkCmdDraw(cb, 12, 1, 0, 0);
}

TestBuffer VertexBuffer(Context& c, float shift) {
	const std::vector<float> v = Triangles(shift);
	TestBuffer b = c.CreateBuffer(v.size() * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
	std::memcpy(b.data, v.data(), v.size() * 4);
	return b;
}

std::vector<uint8_t> Pixels(const Target& t) { return {t.readback.data, t.readback.data + kSize * kSize * 4}; }

// The scene drawn with `shaders` bound, or with a pipeline of the stages
// when there are none.
std::vector<uint8_t> RenderWith(Context& c, const Stages& stages, const Shaders* shaders, const DrawState& state = {}) {
	Target target = MakeTarget(c);
	TestBuffer vertices = VertexBuffer(c, 0.0f);
	GraphicsPipeline pipeline = MakePipeline(c, stages);  // its layout pushes the constants either way
	c.Submit([&](VkCommandBuffer cb) {
		BeginRendering(c, cb, target);
		if (shaders)
			c.Proc<PFN_vkCmdBindShadersEXT>("vkCmdBindShadersEXT")(cb, 5, shaders->stages, shaders->shaders);
		else
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
		DrawTriangles(c, cb, stages, vertices, pipeline.layout, state);
		EndRendering(c, cb, target);
	});
	std::vector<uint8_t> pixels = Pixels(target);
	Destroy(c, pipeline);
	c.Destroy(vertices);
	Destroy(c, target);
	return pixels;
}

// The scene drawn with a pipeline (no `made`) or with shader objects.
std::vector<uint8_t> Render(Context& c, const Stages& stages, const Made* made, const DrawState& state = {}) {
	if (!made) return RenderWith(c, stages, nullptr, state);
	Shaders shaders = MakeShaders(c, stages, *made);
	std::vector<uint8_t> pixels = RenderWith(c, stages, &shaders, state);
	Destroy(c, shaders);
	return pixels;
}

// Whether any pixel differs from the clear color.
bool Drawn(const std::vector<uint8_t>& pixels) {
	for (size_t i = 0; i < pixels.size(); i += 4)
		if (pixels[i] != pixels[0] || pixels[i + 1] != pixels[1] || pixels[i + 2] != pixels[2]) return true;
	return false;
}

void CheckScene(Context& c, const Stages& stages) {
	const std::vector<uint8_t> reference = Render(c, stages, nullptr);
	REQUIRE(Drawn(reference));
	for (Made made : {Made::kUnlinked, Made::kLinked, Made::kFromBinary}) {
		INFO("made " << int(made));
		const std::vector<uint8_t> ours = Render(c, stages, &made);
		CHECK(ours == reference);
	}
}

}  // namespace

TEST_CASE("VK_EXT_shader_object: features, properties and entry points", "[shader_object]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	VkPhysicalDeviceShaderObjectFeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f};
	vkGetPhysicalDeviceFeatures2(so.ctx->physical_device(), &f2);
	CHECK(f.shaderObject == VK_TRUE);
	VkPhysicalDeviceShaderObjectPropertiesEXT p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p};
	vkGetPhysicalDeviceProperties2(so.ctx->physical_device(), &p2);
	CHECK(p.shaderBinaryVersion >= 1);
	// Derived from the build, as pipelineCacheUUID is, but not equal to it.
	const uint8_t zero[VK_UUID_SIZE] = {};
	CHECK(std::memcmp(p.shaderBinaryUUID, zero, VK_UUID_SIZE) != 0);
	CHECK(std::memcmp(p.shaderBinaryUUID, p2.properties.pipelineCacheUUID, VK_UUID_SIZE) != 0);
	for (const char* name : {"vkCreateShadersEXT", "vkDestroyShaderEXT", "vkGetShaderBinaryDataEXT",
	                         "vkCmdBindShadersEXT", "vkCmdSetRasterizationStreamEXT", "vkCmdSetPolygonModeEXT"}) {
		INFO(name);
		CHECK(vkGetDeviceProcAddr(so.ctx->device(), name) != nullptr);
	}
}

TEST_CASE("shader objects: vertex and fragment shaders draw what a dynamic pipeline draws", "[shader_object][draw]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	CheckScene(*so.ctx, Stages{});
	CHECK(so.ctx->validation_errors() == 0);
}

TEST_CASE("shader objects: tessellation with a push constant range draws what a dynamic pipeline draws",
          "[shader_object][draw][tessellation]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Stages stages;
	stages.tess_control = "tess_levels.tesc.spv";
	stages.tess_eval = "tess_tri_equal.tese.spv";
	CheckScene(*so.ctx, stages);
	CHECK(so.ctx->validation_errors() == 0);
}

TEST_CASE("shader objects: a geometry shader draws what a dynamic pipeline draws", "[shader_object][draw][geometry]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Stages stages;
	stages.geometry = "geom_amplify.geom.spv";
	CheckScene(*so.ctx, stages);
	CHECK(so.ctx->validation_errors() == 0);
}

TEST_CASE("shader objects: vkCmdSetRasterizationStreamEXT picks the geometry stream drawn",
          "[shader_object][draw][geometry][transform_feedback]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Stages stages;
	stages.geometry = "raster_stream.geom.spv";  // positions in stream 1 only
	DrawState state;
	state.rasterization_stream = 1;
	const std::vector<uint8_t> reference = Render(*so.ctx, stages, nullptr, state);
	CHECK(Drawn(reference));
	const Made made = Made::kUnlinked;
	CHECK(Render(*so.ctx, stages, &made, state) == reference);
	CHECK(so.ctx->validation_errors() == 0);
}

TEST_CASE("shader objects: binding a pipeline unbinds the shaders and binding shaders unbinds the pipeline",
          "[shader_object][draw]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Context& c = *so.ctx;
	Stages plain, amplified;
	amplified.geometry = "geom_amplify.geom.spv";
	// Three draws: plain, amplified (a geometry stage), plain again; the
	// middle one by shaders, or by a second pipeline.
	auto render = [&](bool shaders_in_the_middle) {
		Target target = MakeTarget(c);
		TestBuffer left = VertexBuffer(c, -0.4f), middle = VertexBuffer(c, 0.0f), right = VertexBuffer(c, 0.4f);
		GraphicsPipeline first = MakePipeline(c, plain), second = MakePipeline(c, amplified);
		Shaders shaders = MakeShaders(c, amplified, Made::kUnlinked);
		auto bind_shaders = c.Proc<PFN_vkCmdBindShadersEXT>("vkCmdBindShadersEXT");
		DrawState unblended;
		unblended.blend = false;
		c.Submit([&](VkCommandBuffer cb) {
			BeginRendering(c, cb, target);
			// Shaders bound first, then replaced by the pipeline.
			bind_shaders(cb, 5, shaders.stages, shaders.shaders);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, first.pipeline);
			DrawTriangles(c, cb, plain, left, first.layout, unblended);
			if (shaders_in_the_middle)
				bind_shaders(cb, 5, shaders.stages, shaders.shaders);
			else
				vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, second.pipeline);
			DrawTriangles(c, cb, amplified, middle, second.layout);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, first.pipeline);
			DrawTriangles(c, cb, plain, right, first.layout);
			EndRendering(c, cb, target);
		});
		std::vector<uint8_t> pixels = Pixels(target);
		Destroy(c, shaders);
		Destroy(c, first);
		Destroy(c, second);
		for (TestBuffer* b : {&left, &middle, &right}) c.Destroy(*b);
		Destroy(c, target);
		return pixels;
	};
	const std::vector<uint8_t> reference = render(false);
	CHECK(Drawn(reference));
	CHECK(render(true) == reference);
	CHECK(c.validation_errors() == 0);
}

TEST_CASE("shader objects: a compute shader with specialization constants dispatches as a compute pipeline does",
          "[shader_object][compute]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Context& c = *so.ctx;
	VkDevice device = c.device();
	VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
	VkDescriptorSetLayoutCreateInfo sli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	sli.bindingCount = 1;
	sli.pBindings = &binding;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &sli, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	li.setLayoutCount = 1;
	li.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &li, nullptr, &layout) == VK_SUCCESS);
	VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
	VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	pi.maxSets = 1;
	pi.poolSizeCount = 1;
	pi.pPoolSizes = &size;
	VkDescriptorPool pool;
	REQUIRE(vkCreateDescriptorPool(device, &pi, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	ai.descriptorPool = pool;
	ai.descriptorSetCount = 1;
	ai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	REQUIRE(vkAllocateDescriptorSets(device, &ai, &set) == VK_SUCCESS);
	TestBuffer out = c.CreateBuffer(1024 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	VkDescriptorBufferInfo bi{out.buffer, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set;
	write.descriptorCount = 1;
	write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	write.pBufferInfo = &bi;
	vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

	// spec.comp: local size 64 (constant 0), scale 3, negated, bias 0.25.
	struct {
		uint32_t local = 64, scale = 3;
		VkBool32 negate = VK_TRUE;
		float bias = 0.25f;
	} values;
	const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
	VkSpecializationInfo spec{4, entries, sizeof values, &values};
	const std::vector<uint32_t> code = Spirv("spec.spv");

	auto run = [&](bool shader_object) {
		std::memset(out.data, 0, out.size);
		VkPipeline pipeline = VK_NULL_HANDLE;
		VkShaderEXT shader = VK_NULL_HANDLE;
		if (shader_object) {
			VkShaderCreateInfoEXT info{VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT};
			info.flags = VK_SHADER_CREATE_DISPATCH_BASE_BIT_EXT;
			info.stage = VK_SHADER_STAGE_COMPUTE_BIT;
			info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
			info.codeSize = code.size() * 4;
			info.pCode = code.data();
			info.pName = "main";
			info.setLayoutCount = 1;
			info.pSetLayouts = &set_layout;
			info.pSpecializationInfo = &spec;
			REQUIRE(c.Proc<PFN_vkCreateShadersEXT>("vkCreateShadersEXT")(device, 1, &info, nullptr, &shader) ==
			        VK_SUCCESS);
		} else {
			VkShaderModuleCreateInfo m{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
			m.codeSize = code.size() * 4;
			m.pCode = code.data();
			VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
			ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &m};
			ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
			ci.stage.pName = "main";
			ci.stage.pSpecializationInfo = &spec;
			ci.layout = layout;
			REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline) == VK_SUCCESS);
		}
		c.Submit([&](VkCommandBuffer cb) {
			if (shader_object) {
				const VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
				c.Proc<PFN_vkCmdBindShadersEXT>("vkCmdBindShadersEXT")(cb, 1, &stage, &shader);
			} else {
				vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
			}
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
			vkCmdDispatch(cb, 8, 1, 1);
		});
		if (shader) c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT")(device, shader, nullptr);
		if (pipeline) vkDestroyPipeline(device, pipeline, nullptr);
		return std::vector<uint8_t>(out.data, out.data + out.size);
	};
	const std::vector<uint8_t> reference = run(false);
	const std::vector<uint8_t> ours = run(true);
	CHECK(ours == reference);
	float o[3];
	std::memcpy(o, ours.data() + 4 * 5, sizeof o);
	CHECK(o[0] == -(15.0f + 0.25f));
	CHECK(o[1] == -(18.0f + 0.25f));
	float last;
	std::memcpy(&last, ours.data() + 4 * 1023, 4);
	CHECK(last == 64.0f);
	c.Destroy(out);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	CHECK(c.validation_errors() == 0);
}

TEST_CASE("shader objects: corrupted, foreign and mismatched binaries are VK_INCOMPATIBLE_SHADER_BINARY_EXT",
          "[shader_object]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Context& c = *so.ctx;
	VkDevice device = c.device();
	auto create = c.Proc<PFN_vkCreateShadersEXT>("vkCreateShadersEXT");
	auto destroy = c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT");
	auto binary_of = c.Proc<PFN_vkGetShaderBinaryDataEXT>("vkGetShaderBinaryDataEXT");
	const std::vector<uint32_t> code = Spirv("geom_color.frag.spv");
	VkShaderCreateInfoEXT info{VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT};
	info.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
	info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
	info.codeSize = code.size() * 4;
	info.pCode = code.data();
	info.pName = "main";
	VkShaderEXT shader;
	REQUIRE(create(device, 1, &info, nullptr, &shader) == VK_SUCCESS);
	size_t size = 0;
	REQUIRE(binary_of(device, shader, &size, nullptr) == VK_SUCCESS);
	std::vector<uint8_t> binary(size);
	REQUIRE(binary_of(device, shader, &size, binary.data()) == VK_SUCCESS);
	destroy(device, shader, nullptr);

	auto try_binary = [&](std::vector<uint8_t> bytes, VkShaderStageFlagBits stage) {
		VkShaderCreateInfoEXT b = info;
		b.stage = stage;
		b.codeType = VK_SHADER_CODE_TYPE_BINARY_EXT;
		b.codeSize = bytes.size();
		b.pCode = bytes.data();
		VkShaderEXT made = reinterpret_cast<VkShaderEXT>(uintptr_t(0x1234));
		const VkResult r = create(device, 1, &b, nullptr, &made);
		if (made) destroy(device, made, nullptr);
		return std::pair{r, made};
	};
	// The binary as it came back is accepted.
	CHECK(try_binary(binary, VK_SHADER_STAGE_FRAGMENT_BIT).first == VK_SUCCESS);
	// Every way of spoiling it is refused, with a null handle.
	std::vector<std::pair<const char*, std::vector<uint8_t>>> spoiled;
	for (size_t at : {size_t(0), size_t(5), size_t(10), size_t(40), binary.size() / 2, binary.size() - 1}) {
		std::vector<uint8_t> b = binary;
		b[at] ^= 0x10;
		spoiled.emplace_back("a flipped bit", b);
	}
	spoiled.emplace_back("truncated", std::vector<uint8_t>(binary.begin(), binary.end() - 7));
	spoiled.emplace_back("only the header", std::vector<uint8_t>(binary.begin(), binary.begin() + 32));
	spoiled.emplace_back("too short for a header", std::vector<uint8_t>(binary.begin(), binary.begin() + 3));
	std::vector<uint8_t> extended = binary;
	extended.push_back(0);
	spoiled.emplace_back("extended", extended);
	spoiled.emplace_back("SPIR-V given as binary",
	                     std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(code.data()),
	                                          reinterpret_cast<const uint8_t*>(code.data() + code.size())));
	for (const auto& [what, bytes] : spoiled) {
		INFO(what);
		auto [r, made] = try_binary(bytes, VK_SHADER_STAGE_FRAGMENT_BIT);
		CHECK(r == VK_INCOMPATIBLE_SHADER_BINARY_EXT);
		CHECK(made == VK_NULL_HANDLE);
	}
	// A fragment binary given for another stage.
	auto [r, made] = try_binary(binary, VK_SHADER_STAGE_VERTEX_BIT);
	CHECK(r == VK_INCOMPATIBLE_SHADER_BINARY_EXT);
	CHECK(made == VK_NULL_HANDLE);
	// Refusals are warnings, not errors.
	CHECK(c.validation_errors() == 0);
}

TEST_CASE("shader objects: invalid SPIR-V is an error reported through the messenger, the handle null",
          "[shader_object]") {
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Context& c = *so.ctx;
	auto create = c.Proc<PFN_vkCreateShadersEXT>("vkCreateShadersEXT");
	auto destroy = c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT");
	std::vector<uint32_t> code = Spirv("geom_color.frag.spv");
	std::vector<uint32_t> broken(code.begin(), code.begin() + code.size() / 2);  // cut in the middle
	VkShaderCreateInfoEXT infos[2] = {{VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT},
	                                  {VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT}};
	for (VkShaderCreateInfoEXT& info : infos) {
		info.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
		info.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
		info.pName = "main";
	}
	infos[0].codeSize = code.size() * 4;
	infos[0].pCode = code.data();
	infos[1].codeSize = broken.size() * 4;
	infos[1].pCode = broken.data();
	VkShaderEXT shaders[2];
	const VkResult r = create(c.device(), 2, infos, nullptr, shaders);
	CHECK(r < 0);
	CHECK(shaders[0] != VK_NULL_HANDLE);  // the valid one is made
	CHECK(shaders[1] == VK_NULL_HANDLE);
	CHECK(c.validation_errors() > 0);
	if (shaders[0]) destroy(c.device(), shaders[0], nullptr);
	// A wrong entry point name too.
	infos[0].pName = "not_main";
	VkShaderEXT shader;
	CHECK(create(c.device(), 1, &infos[0], nullptr, &shader) < 0);
	CHECK(shader == VK_NULL_HANDLE);
	// And a capability Tessera does not have (RayTracingKHR, inserted
	// after the module's first OpCapability).
	std::vector<uint32_t> ray_tracing = code;
	ray_tracing.insert(ray_tracing.begin() + 5 + 2, {(2u << 16) | 17u, 4479u});
	infos[0].pName = "main";
	infos[0].codeSize = ray_tracing.size() * 4;
	infos[0].pCode = ray_tracing.data();
	const uint32_t errors = c.validation_errors();
	CHECK(create(c.device(), 1, &infos[0], nullptr, &shader) < 0);
	CHECK(shader == VK_NULL_HANDLE);
	CHECK(c.validation_errors() > errors);
}

TEST_CASE("shader objects: a shader made after another is destroyed is drawn, not the link of the one before",
          "[shader_object][draw]") {
	// Draws keep the pipelines they link from bound shaders; a destroyed
	// shader's must go with it, and a new shader (which may take the old
	// one's address) must be linked anew.
	ShaderObjectContext so;
	REQUIRE(so.ctx);
	Context& c = *so.ctx;
	Stages first, second;
	second.fragment = "constant_color.frag.spv";
	const std::vector<uint8_t> first_reference = Render(c, first, nullptr);
	const std::vector<uint8_t> second_reference = Render(c, second, nullptr);
	REQUIRE(first_reference != second_reference);
	Shaders kept = MakeShaders(c, first, Made::kUnlinked);
	CHECK(RenderWith(c, first, &kept) == first_reference);
	CHECK(RenderWith(c, first, &kept) == first_reference);  // the kept link
	auto destroy = c.Proc<PFN_vkDestroyShaderEXT>("vkDestroyShaderEXT");
	constexpr size_t kFragment = 4;
	for (int round = 0; round < 4; ++round) {
		INFO("round " << round);
		destroy(c.device(), kept.shaders[kFragment], nullptr);
		Shaders made = MakeShaders(c, round % 2 == 0 ? second : first, Made::kUnlinked);
		kept.shaders[kFragment] = made.shaders[kFragment];
		made.shaders[kFragment] = VK_NULL_HANDLE;
		Destroy(c, made);
		CHECK(RenderWith(c, first, &kept) == (round % 2 == 0 ? second_reference : first_reference));
	}
	Destroy(c, kept);
	CHECK(c.validation_errors() == 0);
}
