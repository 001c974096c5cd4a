// VK_EXT_graphics_pipeline_library through the loader with the validation
// layer on: scenes whose pipeline is made as four libraries (vertex input,
// pre-rasterization shaders, fragment shader, fragment output) and linked,
// the libraries destroyed before the draws. Each must draw exactly what the
// same pipeline made in one piece draws on Tessera, and match lavapipe
// drawing it from libraries too.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

struct Contexts {
	SceneFeatures features;
	VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT library{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	explicit Contexts(bool validation = true) {
		ContextOptions options = features.Options();
		options.validation = validation;
		library.graphicsPipelineLibrary = VK_TRUE;
		library.pNext = const_cast<void*>(options.device_features);
		options.device_features = &library;
		options.device_extensions.push_back(VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
		options.device_extensions.push_back(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

// Two overlapping translucent triangles over an opaque one, depth tested,
// alpha blended: every subset has state that shows in the image.
Scene BlendDepthScene() {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.8f, 0.9f, 0.6f, 1.0f, 0.2f, 0.1f, 1.0f);
	Triangle(v, 0.9f, 0.9f, -0.7f, 0.8f, 0.8f, -0.9f, 0.3f, 0.1f, 0.6f, 0.9f, 0.5f);
	Triangle(v, -0.5f, 0.9f, 0.9f, -0.2f, 0.2f, -0.9f, 0.8f, 0.9f, 0.9f, 0.2f, 0.7f);
	Scene s = ColorScene(v);
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.draws = {{9, 1, 0, 0, 0}};
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		p.rasterization.cullMode = VK_CULL_MODE_NONE;
		VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
		b.blendEnable = VK_TRUE;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.colorBlendOp = VK_BLEND_OP_ADD;
		b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
		b.alphaBlendOp = VK_BLEND_OP_ADD;
	};
	return s;
}

// Dynamic states of three subsets, each set before the draws: a viewport
// (pre-rasterization), the depth compare op (fragment shader), blend
// constants (fragment output). Depth is cleared to 0.5: the static LESS
// and the dynamic GREATER keep different triangles.
Scene DynamicScene(Context& ctx) {
	Scene s = BlendDepthScene();
	s.dynamic_rendering = true;
	s.clear_depth_stencil.depth = 0.5f;
	const auto configure = s.configure;
	s.configure = [configure](PipelineState& p) {
		configure(p);
		VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
		b.srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
		p.dynamic_states = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
		                    VK_DYNAMIC_STATE_BLEND_CONSTANTS};
	};
	auto set_compare =
	    reinterpret_cast<PFN_vkCmdSetDepthCompareOp>(vkGetDeviceProcAddr(ctx.device(), "vkCmdSetDepthCompareOp"));
	s.before_draws = [set_compare](VkCommandBuffer cb) {
		const VkViewport viewport{4, 8, 52, 50, 0, 1};
		vkCmdSetViewport(cb, 0, 1, &viewport);
		set_compare(cb, VK_COMPARE_OP_GREATER);
		const float constants[4] = {0.25f, 0.5f, 0.75f, 1.0f};
		vkCmdSetBlendConstants(cb, constants);
	};
	return s;
}

// A quad sampling a texture (linear, repeated) through set 0, binding 2
// of the layout, which both shader subsets share.
Scene TexturedScene() {
	Scene s = ColorScene({});
	auto corner = [](float x, float y, float s0, float t0) { return Vertex{x, y, 0.5f, 1, s0, t0, 0, 0}; };
	std::vector<Vertex> v = {corner(-0.9f, -0.9f, 0, 0), corner(0.9f, -0.9f, 3, 0), corner(-0.9f, 0.9f, 0, 3),
	                         corner(0.9f, -0.9f, 3, 0),  corner(0.9f, 0.9f, 3, 3),  corner(-0.9f, 0.9f, 0, 3)};
	s.vertices = Bytes(v);
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	s.texture.format = VK_FORMAT_R8G8B8A8_UNORM;
	s.texture.width = s.texture.height = 16;
	for (uint32_t y = 0; y < 16; ++y)
		for (uint32_t x = 0; x < 16; ++x)
			for (uint32_t ch = 0; ch < 4; ++ch) s.texture.data.push_back(uint8_t((x * 16 + y * 5 + ch * 70) & 0xff));
	s.texture.sampler.magFilter = s.texture.sampler.minFilter = VK_FILTER_LINEAR;
	s.fragment_shader = "tex_implicit.frag.spv";
	return s;
}

// Patches tessellated: the tessellation stages and their state come from
// the pre-rasterization library.
Scene TessellationScene() {
	Scene s;
	s.width = s.height = 96;
	s.vertex_shader = "tess_input.vert.spv";
	s.tess_control_shader = "tess_levels.tesc.spv";
	s.tess_eval_shader = "tess_quad.tese.spv";
	s.fragment_shader = "geom_color.frag.spv";
	const std::vector<float> patches = {-0.9f, -0.9f, 0.5f, 1, -0.1f, -0.9f, 0.5f, 1, -0.9f, -0.1f, 0.5f, 1,  //
	                                    0.1f,  0.1f,  0.5f, 1, 0.9f,  0.1f,  0.5f, 1, 0.1f,  0.9f,  0.5f, 1};
	s.vertices = Bytes(patches);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{6, 1, 0, 0, 0}};
	const float levels[6] = {3, 4, 2, 5, 3, 2};
	s.push_constants.resize(sizeof levels);
	std::memcpy(s.push_constants.data(), levels, sizeof levels);
	s.configure = [](PipelineState& ps) { ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; };
	return s;
}

// Triangles amplified by a geometry stage (two invocations), PrimitiveId
// read in the fragment stage.
Scene GeometryScene() {
	Scene s;
	s.width = s.height = 96;
	s.vertex_shader = "geom_input.vert.spv";
	s.geometry_shader = "geom_amplify.geom.spv";
	s.fragment_shader = "geom_primitive_id.frag.spv";
	std::vector<float> v;
	for (int y = 0; y < 3; ++y)
		for (int x = 0; x < 4; ++x) {
			const float x0 = -0.9f + 0.45f * float(x), y0 = -0.9f + 0.6f * float(y);
			v.insert(v.end(), {x0, y0, 0.5f, 1, x0 + 0.4f, y0, 0.5f, 1, x0, y0 + 0.53f, 0.5f, 1});
		}
	s.vertices = Bytes(v);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{uint32_t(v.size() / 4), 1, 0, 0, 0}};
	return s;
}

// Pixels of a color other than pixel (0, 0)'s, which every scene leaves
// at the clear color.
uint32_t Covered(const std::vector<uint8_t>& image) {
	uint32_t n = 0;
	for (size_t i = 0; i + 4 <= image.size(); i += 4) n += std::memcmp(&image[i], &image[0], 4) != 0;
	return n;
}

uint32_t DifferentPixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
	uint32_t n = 0;
	for (size_t i = 0; i + 4 <= a.size() && i + 4 <= b.size(); i += 4) n += std::memcmp(&a[i], &b[i], 4) != 0;
	return n;
}

}  // namespace

TEST_CASE("VK_EXT_graphics_pipeline_library: linked libraries draw as the whole pipeline and as lavapipe",
          "[draw][pipeline-library]") {
	Contexts contexts;
	REQUIRE(contexts.tessera);
	REQUIRE(contexts.lavapipe);
	struct Case {
		std::string name;
		Scene ours, theirs;
		int tolerance;
		uint32_t max_outliers;
	};
	std::vector<Case> cases = {
	    {"blend-depth", BlendDepthScene(), BlendDepthScene(), 2, 0},
	    {"dynamic", DynamicScene(*contexts.tessera), DynamicScene(*contexts.lavapipe), 2, 0},
	    {"textured", TexturedScene(), TexturedScene(), 2, 0},
	    {"tessellation", TessellationScene(), TessellationScene(), 2, 6},
	    {"geometry", GeometryScene(), GeometryScene(), 1, 0},
	};
	// Variants: code inline in the stages instead of modules; a link that
	// names no layout (the libraries' union).
	{
		Case inline_code = cases[0];
		inline_code.name = "inline-code";
		inline_code.ours.library_inline_code = inline_code.theirs.library_inline_code = true;
		cases.push_back(inline_code);
		Case no_layout = cases[2];
		no_layout.name = "link-without-layout";
		no_layout.ours.library_link_without_layout = no_layout.theirs.library_link_without_layout = true;
		cases.push_back(no_layout);
	}
	for (Case& c : cases) {
		CAPTURE(c.name);
		const SceneResult whole = RenderScene(*contexts.tessera, c.ours);
		CHECK(Covered(whole.colors[0]) > 400);
		c.ours.pipeline_libraries = c.theirs.pipeline_libraries = true;
		const SceneResult linked = RenderScene(*contexts.tessera, c.ours);
		const SceneResult reference = RenderScene(*contexts.lavapipe, c.theirs);
		CHECK(DifferentPixels(linked.colors[0], whole.colors[0]) == 0);
		CompareImages("pipeline-library-" + c.name, c.ours.width, c.ours.height, linked.colors[0], reference.colors[0],
		              c.tolerance, c.max_outliers);
	}
	for (const std::string& m : contexts.tessera->validation_messages()) UNSCOPED_INFO(m);
	CHECK(contexts.tessera->validation_errors() == 0);
	CHECK(contexts.lavapipe->validation_errors() == 0);
}

TEST_CASE("VK_EXT_graphics_pipeline_library: a linked pipeline outlives its libraries", "[draw][pipeline-library]") {
	// Without the validation layer (see Scene::library_destroy_early).
	Contexts contexts(false);
	REQUIRE(contexts.tessera);
	for (Scene s : {BlendDepthScene(), TessellationScene(), GeometryScene()}) {
		const SceneResult whole = RenderScene(*contexts.tessera, s);
		s.pipeline_libraries = s.library_destroy_early = true;
		s.library_inline_code = true;  // and no module to keep either
		const SceneResult linked = RenderScene(*contexts.tessera, s);
		CHECK(Covered(whole.colors[0]) > 400);
		CHECK(DifferentPixels(linked.colors[0], whole.colors[0]) == 0);
	}
}

TEST_CASE("VK_EXT_graphics_pipeline_library: libraries without fragment output state do not read color formats",
          "[draw][pipeline-library]") {
	// Their VkPipelineRenderingCreateInfo may hold any pColorAttachmentFormats
	// (the CTS's graphics_library.misc.other.bad_rendering_create_info
	// passes 0xdeadbeef): Tessera read it and crashed. Without the
	// validation layer, which would read it too.
	Contexts contexts(false);
	REQUIRE(contexts.tessera);
	Scene s = BlendDepthScene();
	s.dynamic_rendering = true;
	const SceneResult whole = RenderScene(*contexts.tessera, s);
	s.pipeline_libraries = s.library_unread_color_formats = true;
	const SceneResult linked = RenderScene(*contexts.tessera, s);
	CHECK(Covered(whole.colors[0]) > 400);
	CHECK(DifferentPixels(linked.colors[0], whole.colors[0]) == 0);
}

TEST_CASE("VK_EXT_graphics_pipeline_library: features and properties", "[device][pipeline-library]") {
	Contexts contexts;
	REQUIRE(contexts.tessera);
	VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT f{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f};
	vkGetPhysicalDeviceFeatures2(contexts.tessera->physical_device(), &f2);
	CHECK(f.graphicsPipelineLibrary == VK_TRUE);
	VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT p{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p};
	vkGetPhysicalDeviceProperties2(contexts.tessera->physical_device(), &p2);
	CHECK(p.graphicsPipelineLibraryFastLinking == VK_TRUE);
	CHECK(p.graphicsPipelineLibraryIndependentInterpolationDecoration == VK_TRUE);
}

TEST_CASE("VK_EXT_graphics_pipeline_library: invalid inline code is refused with an error", "[pipeline-library]") {
	// Without the validation layer, which would report the invalid code first.
	Contexts contexts(false);
	REQUIRE(contexts.tessera);
	VkDevice device = contexts.tessera->device();
	// A SPIR-V header, then an OpCapability Shader and an instruction whose
	// word count runs past the end.
	const uint32_t words[] = {0x07230203, 0x00010000, 0, 10, 0, 0x00020011, 1, 0x00050047, 1};
	VkShaderModuleCreateInfo code{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	code.codeSize = sizeof words;
	code.pCode = words;
	VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &code};
	stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
	stage.pName = "main";
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	VkGraphicsPipelineLibraryCreateInfoEXT library{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT};
	library.flags = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
	VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &library};
	info.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
	info.stageCount = 1;
	info.pStages = &stage;
	info.pDepthStencilState = &ds;
	info.layout = layout;
	VkPipeline pipeline = VK_NULL_HANDLE;
	CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_ERROR_UNKNOWN);
	CHECK(pipeline == VK_NULL_HANDLE);
	vkDestroyPipelineLayout(device, layout, nullptr);
}
