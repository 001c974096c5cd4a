// VK_EXT_extended_dynamic_state3 against lavapipe, through the loader with
// the validation layer on: each state Tessera offers is made dynamic in a
// pipeline whose static value differs, set by its vkCmdSet*EXT command
// before the draws, and the image compared with lavapipe's. The same scene
// drawn with the static value alone must look different on Tessera, so a
// dynamic value that was ignored fails the test.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
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
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	VkPhysicalDeviceDepthClipEnableFeaturesEXT clip{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
	VkPhysicalDeviceDepthClipControlFeaturesEXT control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
	VkPhysicalDeviceLineRasterizationFeaturesEXT line{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};  // vkCmdSetLogicOpEXT
	std::unique_ptr<Context> tessera, lavapipe;

	Contexts() {
		ContextOptions options = features.Options();
		eds3.extendedDynamicState3DepthClampEnable = VK_TRUE;
		eds3.extendedDynamicState3PolygonMode = VK_TRUE;
		eds3.extendedDynamicState3SampleMask = VK_TRUE;
		eds3.extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
		eds3.extendedDynamicState3AlphaToOneEnable = VK_TRUE;
		eds3.extendedDynamicState3LogicOpEnable = VK_TRUE;
		eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
		eds3.extendedDynamicState3ColorBlendEquation = VK_TRUE;
		eds3.extendedDynamicState3ColorWriteMask = VK_TRUE;
		eds3.extendedDynamicState3DepthClipEnable = VK_TRUE;
		eds3.extendedDynamicState3LineStippleEnable = VK_TRUE;
		eds3.extendedDynamicState3LineRasterizationMode = VK_TRUE;
		eds3.extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
		eds3.extendedDynamicState3RasterizationSamples = VK_TRUE;
		clip.depthClipEnable = VK_TRUE;
		control.depthClipControl = VK_TRUE;
		line.rectangularLines = VK_TRUE;
		line.stippledRectangularLines = VK_TRUE;
		eds3.pNext = &clip;
		clip.pNext = &control;
		control.pNext = &line;
		line.pNext = &eds2;
		eds2.extendedDynamicState2LogicOp = VK_TRUE;
		eds2.pNext = const_cast<void*>(options.device_features);
		options.device_features = &eds3;
		for (const char* e : {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME,
		                      VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME, VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME,
		                      VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME})
			options.device_extensions.push_back(e);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

// Two overlapping translucent triangles (the second in front), with depth.
Scene BaseScene(float z0 = 0.3f, float z1 = 0.6f) {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.8f, 0.9f, z1, 1.0f, 0.2f, 0.1f, 0.6f);
	Triangle(v, 0.9f, 0.9f, -0.7f, 0.8f, 0.8f, -0.9f, z0, 0.1f, 0.6f, 0.9f, 0.5f);
	Scene s = ColorScene(v);
	s.draws = {{6, 1, 0, 0, 0}};
	return s;
}

// A strip of axis-aligned lines a quarter pixel off the centers (as in
// line_rasterization_test.cpp: both drivers light the same pixels), in the
// 64x64 image.
Scene StaircaseScene() {
	const float path[][2] = {{2, 4},   {20, 4},  {20, 12}, {35, 12}, {35, 30}, {10, 30}, {10, 50},
	                         {50, 50}, {50, 20}, {60, 20}, {60, 60}, {3, 60},  {3, 40},  {28, 40}};
	std::vector<Vertex> v;
	for (const auto& p : path)
		v.push_back({(p[0] + 0.75f) / 32.0f - 1.0f, (p[1] + 0.75f) / 32.0f - 1.0f, 0.5f, 1, 1, 0.8f, 0.2f, 1});
	Scene s = ColorScene(v);
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	return s;
}

// A triangle whose depth runs from z0 (left) to z1 (right) in clip space,
// drawn with a depth attachment and LESS_OR_EQUAL.
Scene DepthRampScene(float z0, float z1) {
	std::vector<Vertex> v = {{-0.9f, -0.9f, z0, 1, 1, 0, 0, 1},
	                         {0.9f, -0.7f, z1, 1, 0, 1, 0, 1},
	                         {-0.8f, 0.9f, z0, 1, 0, 0, 1, 1},
	                         {0.85f, 0.8f, z1, 1, 1, 1, 0, 1}};
	Scene s = ColorScene(v);
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.draws = {{3, 1, 0, 0, 0}, {3, 1, 1, 0, 0}};
	return s;
}

void DepthTest(PipelineState& p) {
	p.depth_stencil.depthTestEnable = VK_TRUE;
	p.depth_stencil.depthWriteEnable = VK_TRUE;
	p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
}

struct Case {
	std::string name;
	Scene scene;                               // the static value, before `dynamic` is applied
	std::vector<VkDynamicState> states;        // made dynamic
	std::function<void(VkCommandBuffer)> set;  // their vkCmdSet*EXT commands
	uint32_t max_outliers = 0;
	// When set: the reference is Tessera's own pipeline with the value
	// static (configured by this), where the spec leaves the result to the
	// implementation (alpha to coverage's sample pattern).
	std::function<void(PipelineState&)> static_equivalent;
};

std::vector<Case> Cases(Context& ctx) {
	auto proc = [&](const char* name) { return vkGetDeviceProcAddr(ctx.device(), name); };
	auto set_blend_enable = reinterpret_cast<PFN_vkCmdSetColorBlendEnableEXT>(proc("vkCmdSetColorBlendEnableEXT"));
	auto set_equation = reinterpret_cast<PFN_vkCmdSetColorBlendEquationEXT>(proc("vkCmdSetColorBlendEquationEXT"));
	auto set_write_mask = reinterpret_cast<PFN_vkCmdSetColorWriteMaskEXT>(proc("vkCmdSetColorWriteMaskEXT"));
	auto set_logic_enable = reinterpret_cast<PFN_vkCmdSetLogicOpEnableEXT>(proc("vkCmdSetLogicOpEnableEXT"));
	auto set_logic_op = reinterpret_cast<PFN_vkCmdSetLogicOpEXT>(proc("vkCmdSetLogicOpEXT"));
	auto set_clamp = reinterpret_cast<PFN_vkCmdSetDepthClampEnableEXT>(proc("vkCmdSetDepthClampEnableEXT"));
	auto set_clip = reinterpret_cast<PFN_vkCmdSetDepthClipEnableEXT>(proc("vkCmdSetDepthClipEnableEXT"));
	auto set_minus_one =
	    reinterpret_cast<PFN_vkCmdSetDepthClipNegativeOneToOneEXT>(proc("vkCmdSetDepthClipNegativeOneToOneEXT"));
	auto set_polygon = reinterpret_cast<PFN_vkCmdSetPolygonModeEXT>(proc("vkCmdSetPolygonModeEXT"));
	auto set_sample_mask = reinterpret_cast<PFN_vkCmdSetSampleMaskEXT>(proc("vkCmdSetSampleMaskEXT"));
	auto set_a2c = reinterpret_cast<PFN_vkCmdSetAlphaToCoverageEnableEXT>(proc("vkCmdSetAlphaToCoverageEnableEXT"));
	auto set_a2one = reinterpret_cast<PFN_vkCmdSetAlphaToOneEnableEXT>(proc("vkCmdSetAlphaToOneEnableEXT"));
	auto set_stipple_enable = reinterpret_cast<PFN_vkCmdSetLineStippleEnableEXT>(proc("vkCmdSetLineStippleEnableEXT"));
	auto set_line_mode =
	    reinterpret_cast<PFN_vkCmdSetLineRasterizationModeEXT>(proc("vkCmdSetLineRasterizationModeEXT"));
	REQUIRE((set_blend_enable && set_equation && set_write_mask && set_logic_enable && set_logic_op && set_clamp &&
	         set_clip && set_minus_one && set_polygon && set_sample_mask && set_a2c && set_a2one &&
	         set_stipple_enable && set_line_mode));

	std::vector<Case> cases;
	cases.push_back({"blend-enable-and-equation",
	                 BaseScene(),
	                 {VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT},
	                 [=](VkCommandBuffer cb) {
		                 const VkBool32 on = VK_TRUE;
		                 set_blend_enable(cb, 0, 1, &on);
		                 const VkColorBlendEquationEXT e{VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		                                                 VK_BLEND_OP_ADD,           VK_BLEND_FACTOR_ONE,
		                                                 VK_BLEND_FACTOR_ZERO,      VK_BLEND_OP_ADD};
		                 set_equation(cb, 0, 1, &e);
	                 }});
	cases.push_back({"write-mask", BaseScene(), {VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT}, [=](VkCommandBuffer cb) {
		                 const VkColorComponentFlags mask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT;
		                 set_write_mask(cb, 0, 1, &mask);
	                 }});
	cases.push_back({"logic-op",
	                 BaseScene(),
	                 {VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, VK_DYNAMIC_STATE_LOGIC_OP_EXT},
	                 [=](VkCommandBuffer cb) {
		                 set_logic_enable(cb, VK_TRUE);
		                 // (Not XOR: one code of interpolation difference would
		                 // flip high bits.)
		                 set_logic_op(cb, VK_LOGIC_OP_COPY_INVERTED);
	                 }});
	{
		Case c{"depth-clamp",
		       DepthRampScene(0.2f, 1.6f),
		       {VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT},
		       [=](VkCommandBuffer cb) { set_clamp(cb, VK_TRUE); }};  // the far part clamped, no longer clipped
		c.scene.configure = DepthTest;
		cases.push_back(c);
	}
	{
		Case c{"depth-clip",
		       DepthRampScene(0.2f, 1.6f),
		       {VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT},
		       [=](VkCommandBuffer cb) { set_clip(cb, VK_TRUE); }};  // clamped statically: the far part clipped
		c.scene.configure = [](PipelineState& p) {
			DepthTest(p);
			p.rasterization.depthClampEnable = VK_TRUE;
		};
		cases.push_back(c);
	}
	{
		Case c{"negative-one-to-one",
		       DepthRampScene(-0.8f, 0.6f),
		       {VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT},
		       [=](VkCommandBuffer cb) { set_minus_one(cb, VK_TRUE); }};
		c.scene.configure = DepthTest;
		cases.push_back(c);
	}
	// Polygon edges as lines: lavapipe joins edge ends differently at
	// vertices (draw_primitives_test.cpp "polygon modes"), a bounded number
	// of pixels.
	cases.push_back({"polygon-mode-line",
	                 BaseScene(),
	                 {VK_DYNAMIC_STATE_POLYGON_MODE_EXT},
	                 [=](VkCommandBuffer cb) { set_polygon(cb, VK_POLYGON_MODE_LINE); },
	                 24});
	{
		Case c{"sample-mask", BaseScene(), {VK_DYNAMIC_STATE_SAMPLE_MASK_EXT}, [=](VkCommandBuffer cb) {
			       const VkSampleMask mask = 0x6;
			       set_sample_mask(cb, VK_SAMPLE_COUNT_4_BIT, &mask);
		       }};
		c.scene.samples = VK_SAMPLE_COUNT_4_BIT;
		cases.push_back(c);
	}
	{
		// Vulkan "Multisample Coverage": the mask alpha makes is the
		// implementation's, so the reference is the same value set statically.
		Case c{
		    "alpha-to-coverage", BaseScene(), {VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT}, [=](VkCommandBuffer cb) {
			    set_a2c(cb, VK_TRUE);
		    }};
		c.scene.samples = VK_SAMPLE_COUNT_4_BIT;
		c.static_equivalent = [](PipelineState& p) { p.multisample.alphaToCoverageEnable = VK_TRUE; };
		cases.push_back(c);
	}
	{
		// Blending by source alpha: alpha to one makes it an overwrite.
		Case c{"alpha-to-one", BaseScene(), {VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT}, [=](VkCommandBuffer cb) {
			       set_a2one(cb, VK_TRUE);
		       }};
		c.scene.samples = VK_SAMPLE_COUNT_4_BIT;
		c.scene.configure = [](PipelineState& p) {
			VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
			b.blendEnable = VK_TRUE;
			b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
			b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
			b.colorBlendOp = VK_BLEND_OP_ADD;
			b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
			b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
			b.alphaBlendOp = VK_BLEND_OP_ADD;
		};
		cases.push_back(c);
	}
	{
		// Lines with a stipple given statically but off; the mode set to
		// RECTANGULAR as well (the pipeline's is DEFAULT).
		static VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
		line.stippledLineEnable = VK_FALSE;
		line.lineStippleFactor = 2;
		line.lineStipplePattern = 0x0f0f;
		Case c{"line-stipple-enable",
		       StaircaseScene(),
		       {VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT},
		       [=](VkCommandBuffer cb) {
			       set_stipple_enable(cb, VK_TRUE);
			       set_line_mode(cb, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT);
		       }};
		c.scene.configure = [](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
			p.rasterization.pNext = &line;
		};
		cases.push_back(c);
	}
	return cases;
}

// The scene with `c`'s states made dynamic and set before the draws.
Scene Dynamic(const Case& c) {
	Scene s = c.scene;
	const auto configure = c.scene.configure;
	const auto states = c.states;
	s.configure = [configure, states](PipelineState& p) {
		if (configure) configure(p);
		p.dynamic_states.insert(p.dynamic_states.end(), states.begin(), states.end());
	};
	s.before_draws = c.set;
	return s;
}

uint32_t DifferentPixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
	uint32_t n = 0;
	for (size_t i = 0; i + 4 <= a.size() && i + 4 <= b.size(); i += 4) n += std::memcmp(&a[i], &b[i], 4) != 0;
	return n;
}

}  // namespace

TEST_CASE("VK_EXT_extended_dynamic_state3: each dynamic state draws as on lavapipe", "[draw][dynamic-state]") {
	Contexts contexts;
	REQUIRE(contexts.tessera);
	REQUIRE(contexts.lavapipe);
	const std::vector<Case> ours = Cases(*contexts.tessera), theirs = Cases(*contexts.lavapipe);
	REQUIRE(ours.size() == theirs.size());
	for (size_t i = 0; i < ours.size(); ++i) {
		const Case& c = ours[i];
		CAPTURE(c.name);
		const Scene s = Dynamic(c), reference_scene = Dynamic(theirs[i]);
		const SceneResult a = RenderScene(*contexts.tessera, s);
		if (c.static_equivalent) {
			Scene equivalent = c.scene;
			const auto configure = c.scene.configure;
			const auto set_static = c.static_equivalent;
			equivalent.configure = [configure, set_static](PipelineState& p) {
				if (configure) configure(p);
				set_static(p);
			};
			const SceneResult b = RenderScene(*contexts.tessera, equivalent);
			CompareImages("eds3-" + c.name, s.width, s.height, a.colors[0], b.colors[0], 0, 0);
		} else {
			const SceneResult b = RenderScene(*contexts.lavapipe, reference_scene);
			CompareImages("eds3-" + c.name, s.width, s.height, a.colors[0], b.colors[0], 2, c.max_outliers);
		}
		// The static value alone draws something else.
		const SceneResult static_only = RenderScene(*contexts.tessera, c.scene);
		CHECK(DifferentPixels(a.colors[0], static_only.colors[0]) > 40);
	}
	CHECK(contexts.tessera->validation_errors() == 0);
	CHECK(contexts.lavapipe->validation_errors() == 0);
	for (const std::string& m : contexts.tessera->validation_messages()) UNSCOPED_INFO(m);
}

TEST_CASE("VK_EXT_extended_dynamic_state3: features and properties", "[device][dynamic-state]") {
	Contexts contexts;
	REQUIRE(contexts.tessera);
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT f{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f};
	vkGetPhysicalDeviceFeatures2(contexts.tessera->physical_device(), &f2);
	CHECK(f.extendedDynamicState3ColorBlendEquation == VK_TRUE);
	CHECK(f.extendedDynamicState3RasterizationSamples == VK_TRUE);      // drawn below
	CHECK(f.extendedDynamicState3TessellationDomainOrigin == VK_TRUE);  // tessellation_test.cpp draws it
	// conservative_rasterization_test.cpp draws these two.
	CHECK(f.extendedDynamicState3ConservativeRasterizationMode == VK_TRUE);
	CHECK(f.extendedDynamicState3ExtraPrimitiveOverestimationSize == VK_TRUE);
	CHECK(f.extendedDynamicState3SampleLocationsEnable == VK_FALSE);  // no VK_EXT_sample_locations
	VkPhysicalDeviceExtendedDynamicState3PropertiesEXT p{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p};
	vkGetPhysicalDeviceProperties2(contexts.tessera->physical_device(), &p2);
	// A dynamic topology may leave the pipeline's class (draw_raster_test.cpp draws it).
	CHECK(p.dynamicPrimitiveTopologyUnrestricted == VK_TRUE);
	CHECK(contexts.tessera->validation_errors() == 0);
}

// extendedDynamicState3RasterizationSamples: one pipeline, made with the
// sample count dynamic (and a static value that does not match), draws
// into 4-sample and single-sample attachments: the images equal those of
// pipelines made for each count, byte for byte, and lavapipe's with the
// same dynamic state (within 2 codes). A sample mask narrows the 4-sample
// draw so that the count shows in the resolved image.
TEST_CASE("VK_EXT_extended_dynamic_state3: the rasterization sample count as dynamic state", "[draw][dynamic-state]") {
	Contexts contexts;
	REQUIRE(contexts.tessera);
	REQUIRE(contexts.lavapipe);
	auto set = reinterpret_cast<PFN_vkCmdSetRasterizationSamplesEXT>(
	    vkGetDeviceProcAddr(contexts.tessera->device(), "vkCmdSetRasterizationSamplesEXT"));
	auto set_reference = reinterpret_cast<PFN_vkCmdSetRasterizationSamplesEXT>(
	    vkGetDeviceProcAddr(contexts.lavapipe->device(), "vkCmdSetRasterizationSamplesEXT"));
	REQUIRE(set);
	REQUIRE(set_reference);
	for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_1_BIT}) {
		CAPTURE(samples);
		Scene fixed = BaseScene();
		fixed.samples = samples;
		static const VkSampleMask kMask = 0x5;
		fixed.configure = [](PipelineState& p) { p.multisample.pSampleMask = &kMask; };
		const SceneResult expected = RenderScene(*contexts.tessera, fixed);
		Scene dynamic = fixed;
		dynamic.configure = [samples](PipelineState& p) {
			p.multisample.pSampleMask = &kMask;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT);
			// Ignored: the dynamic value counts.
			p.multisample.rasterizationSamples =
			    samples == VK_SAMPLE_COUNT_4_BIT ? VK_SAMPLE_COUNT_1_BIT : VK_SAMPLE_COUNT_4_BIT;
		};
		dynamic.before_draws = [set, samples](VkCommandBuffer cb) { set(cb, samples); };
		const SceneResult ours = RenderScene(*contexts.tessera, dynamic);
		dynamic.before_draws = [set_reference, samples](VkCommandBuffer cb) { set_reference(cb, samples); };
		const SceneResult reference = RenderScene(*contexts.lavapipe, dynamic);
		CHECK(ours.colors[0] == expected.colors[0]);
		CompareImages("eds3-rasterization-samples", fixed.width, fixed.height, ours.colors[0], reference.colors[0], 2,
		              0);
	}
	// The two counts draw different images (the mask halves 4-sample coverage).
	Scene one = BaseScene(), four = BaseScene();
	four.samples = VK_SAMPLE_COUNT_4_BIT;
	static const VkSampleMask kMask = 0x5;
	four.configure = [](PipelineState& p) { p.multisample.pSampleMask = &kMask; };
	CHECK(DifferentPixels(RenderScene(*contexts.tessera, one).colors[0],
	                      RenderScene(*contexts.tessera, four).colors[0]) > 100);
	for (const std::string& m : contexts.tessera->validation_messages()) UNSCOPED_INFO(m);
	CHECK(contexts.tessera->validation_errors() == 0);
	CHECK(contexts.lavapipe->validation_errors() == 0);
}

TEST_CASE("VK_EXT_extended_dynamic_state3: a pipeline without rasterization state draws with the dynamic one",
          "[draw][dynamic-state]") {
	// Every state of VkPipelineRasterizationStateCreateInfo dynamic, and no
	// such structure (VkGraphicsPipelineCreateInfo pRasterizationState-09040):
	// polygon edges drawn as lines by the dynamic mode, byte for byte as a
	// pipeline with LINE static. Without the validation layer: Debian's
	// (1.3.239) predates that rule, reports the null pointer
	// (pRasterizationState-06601) and skips the call. Tessera used to refuse
	// the pipeline (VK_ERROR_UNKNOWN).
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	eds3.extendedDynamicState3DepthClampEnable = VK_TRUE;
	eds3.extendedDynamicState3PolygonMode = VK_TRUE;
	ContextOptions options = features.OptionsWith(&eds3, VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto set_clamp = ctx->Proc<PFN_vkCmdSetDepthClampEnableEXT>("vkCmdSetDepthClampEnableEXT");
	auto set_polygon = ctx->Proc<PFN_vkCmdSetPolygonModeEXT>("vkCmdSetPolygonModeEXT");
	REQUIRE((set_clamp && set_polygon));
	Scene dynamic = BaseScene();
	dynamic.configure = [](PipelineState& p) {
		p.dynamic_states.insert(
		    p.dynamic_states.end(),
		    {VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
		     VK_DYNAMIC_STATE_POLYGON_MODE_EXT, VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
		     VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_LINE_WIDTH});
		p.null_rasterization_state = true;
	};
	dynamic.before_draws = [=](VkCommandBuffer cb) {
		set_clamp(cb, VK_FALSE);
		vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
		set_polygon(cb, VK_POLYGON_MODE_LINE);
		vkCmdSetCullMode(cb, VK_CULL_MODE_NONE);
		vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
		vkCmdSetDepthBiasEnable(cb, VK_FALSE);
		vkCmdSetDepthBias(cb, 0.0f, 0.0f, 0.0f);
		vkCmdSetLineWidth(cb, 1.0f);
	};
	Scene lines = BaseScene();
	lines.configure = [](PipelineState& p) { p.rasterization.polygonMode = VK_POLYGON_MODE_LINE; };
	const SceneResult a = RenderScene(*ctx, dynamic), b = RenderScene(*ctx, lines);
	CompareImages("eds3-no-rasterization-state", 64, 64, a.colors[0], b.colors[0], 0, 0);
	CHECK(DifferentPixels(a.colors[0], RenderScene(*ctx, BaseScene()).colors[0]) > 40);  // lines, not filled
}
