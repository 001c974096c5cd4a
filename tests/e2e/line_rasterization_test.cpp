// VK_EXT_line_rasterization against lavapipe: rectangular lines with a
// stipple (Vulkan "Line Stipple"), static and dynamic, line lists (each
// segment starts the pattern anew) and strips (the count goes on across
// segments), factors 1 and 3, through the geometry stage too. Lines are
// axis-aligned, where the distance along the line and the count along the
// major axis agree, so both drivers must drop the same fragments: no
// outlier pixels; colors within 1 code (interpolation rounding differs).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

struct LineContexts {
	SceneFeatures features;
	VkPhysicalDeviceLineRasterizationFeaturesEXT lines{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	LineContexts() {
		ContextOptions options = features.Options();
		lines.rectangularLines = VK_TRUE;
		lines.stippledRectangularLines = VK_TRUE;
		lines.pNext = const_cast<void*>(options.device_features);
		options.device_features = &lines;
		options.device_extensions.push_back(VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

// Horizontal and vertical lines of a 64x64 image (a quarter pixel past
// pixel centers, as Staircase's).
std::vector<float> Lines() {
	auto ndc = [](float pixel) { return (pixel + 0.75f) / 32.0f - 1.0f; };
	std::vector<float> v;
	for (int k = 0; k < 6; ++k) {
		const float y = ndc(4.0f + 5.0f * float(k));
		v.insert(v.end(), {ndc(2.0f), y, 0.5f, 1, ndc(20.0f + 7.0f * float(k)), y, 0.5f, 1});
	}
	for (int k = 0; k < 4; ++k) {
		const float x = ndc(6.0f + 9.0f * float(k));
		v.insert(v.end(), {x, ndc(36.0f), 0.5f, 1, x, ndc(50.0f + 3.0f * float(k)), 0.5f, 1});
	}
	return v;
}

// A staircase of axis-aligned segments for strips (no diagonal joins).
// Vertices lie a quarter pixel past pixel centers, so no pixel center is
// at a whole distance from a segment's start: which unit rectangle holds
// a center is then never a tie between the two drivers' roundings.
std::vector<float> Staircase() {
	auto ndc = [](float pixel) { return (pixel + 0.75f) / 32.0f - 1.0f; };
	const float path[][2] = {{2, 4},   {20, 4},  {20, 12}, {35, 12}, {35, 30}, {10, 30}, {10, 50},
	                         {50, 50}, {50, 20}, {60, 20}, {60, 60}, {3, 60},  {3, 40},  {28, 40},
	                         {28, 45}, {40, 45}, {40, 35}, {55, 35}, {55, 5},  {45, 5}};
	std::vector<float> v;
	for (const auto& p : path) v.insert(v.end(), {ndc(p[0]), ndc(p[1]), 0.5f, 1});
	return v;
}

Scene StippleScene(VkPrimitiveTopology topology, const VkPipelineRasterizationLineStateCreateInfoEXT* line,
                   bool dynamic) {
	Scene s;
	s.vertex_shader = "geom_input.vert.spv";
	s.fragment_shader = "geom_color.frag.spv";
	s.vertices = scenes::Bytes(topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? Staircase() : Lines());
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{20, 1, 0, 0, 0}};
	s.configure = [topology, line, dynamic](PipelineState& ps) {
		ps.input_assembly.topology = topology;
		ps.rasterization.pNext = line;
		if (dynamic) ps.dynamic_states.push_back(VK_DYNAMIC_STATE_LINE_STIPPLE_EXT);
	};
	return s;
}

}  // namespace

TEST_CASE("VK_EXT_line_rasterization: stippled rectangular lines match lavapipe", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	VkPhysicalDeviceLineRasterizationFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx.tessera->physical_device(), &f2);
	CHECK(features.rectangularLines == VK_TRUE);
	CHECK(features.stippledRectangularLines == VK_TRUE);
	CHECK(features.bresenhamLines == VK_FALSE);
	CHECK(features.smoothLines == VK_FALSE);

	auto compare = [&](const std::string& name, const Scene& s) {
		const SceneResult ours = RenderScene(*ctx.tessera, s);
		const SceneResult reference = RenderScene(*ctx.lavapipe, s);
		CompareImages(name, s.width, s.height, ours.colors[0], reference.colors[0], 1, 0);
		return ours;
	};
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
		for (uint32_t factor : {1u, 3u}) {
			CAPTURE(topology, factor);
			VkPipelineRasterizationLineStateCreateInfoEXT line{
			    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
			line.lineRasterizationMode =
			    factor == 1 ? VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT : VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
			line.stippledLineEnable = VK_TRUE;
			line.lineStippleFactor = factor;
			line.lineStipplePattern = 0xb38f;
			const SceneResult stippled = compare("stipple", StippleScene(topology, &line, false));
			// The stipple drops fragments: fewer lit pixels than without it.
			line.stippledLineEnable = VK_FALSE;
			const SceneResult plain = compare("no-stipple", StippleScene(topology, &line, false));
			size_t lit[2] = {};
			for (size_t k = 0; k < plain.colors[0].size(); k += 4) {
				lit[0] += stippled.colors[0][k + 2] != 0;
				lit[1] += plain.colors[0][k + 2] != 0;
			}
			CHECK(lit[0] > 0);
			CHECK(lit[0] < lit[1]);
			// Dynamic: the pipeline's pattern is ignored for vkCmdSetLineStippleEXT's.
			line.stippledLineEnable = VK_TRUE;
			line.lineStipplePattern = 0xffff;
			Scene dynamic = StippleScene(topology, &line, true);
			auto set = ctx.tessera->Proc<PFN_vkCmdSetLineStippleEXT>("vkCmdSetLineStippleEXT");
			auto set_reference = ctx.lavapipe->Proc<PFN_vkCmdSetLineStippleEXT>("vkCmdSetLineStippleEXT");
			REQUIRE(set);
			REQUIRE(set_reference);
			dynamic.before_draws = [set, factor](VkCommandBuffer cb) { set(cb, factor, 0x0f0f); };
			const SceneResult ours = RenderScene(*ctx.tessera, dynamic);
			dynamic.before_draws = [set_reference, factor](VkCommandBuffer cb) { set_reference(cb, factor, 0x0f0f); };
			const SceneResult reference = RenderScene(*ctx.lavapipe, dynamic);
			CompareImages("stipple-dynamic", dynamic.width, dynamic.height, ours.colors[0], reference.colors[0], 1, 0);
		}
	}
	for (const std::string& m : ctx.tessera->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
}

// Without a fragment stage the stipple still drops fragments: a depth-only
// pass of stippled lines writes depth where lavapipe does, and at fewer
// pixels than without the stipple.
TEST_CASE("VK_EXT_line_rasterization: a stipple drops fragments without a fragment shader, as on lavapipe",
          "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
		CAPTURE(topology);
		VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
		line.lineStippleFactor = 2;
		line.lineStipplePattern = 0xb38f;
		size_t written[2] = {};  // pixels with depth written: stippled, plain
		for (bool stipple : {true, false}) {
			line.stippledLineEnable = stipple;
			Scene s = StippleScene(topology, &line, false);
			s.fragment_shader.clear();
			s.depth_format = VK_FORMAT_D32_SFLOAT;
			s.configure = [topology, &line](PipelineState& ps) {
				ps.input_assembly.topology = topology;
				ps.rasterization.pNext = &line;
				ps.depth_stencil.depthTestEnable = VK_TRUE;
				ps.depth_stencil.depthWriteEnable = VK_TRUE;
				ps.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
			};
			const SceneResult ours = RenderScene(*ctx.tessera, s);
			const SceneResult reference = RenderScene(*ctx.lavapipe, s);
			REQUIRE(ours.depth.size() == size_t(s.width) * s.height * 4);
			REQUIRE(ours.depth.size() == reference.depth.size());
			size_t differ = 0;
			for (size_t i = 0; i < ours.depth.size(); i += 4) {
				float a, b;
				std::memcpy(&a, &ours.depth[i], 4);
				std::memcpy(&b, &reference.depth[i], 4);
				differ += a != b;
				written[stipple ? 0 : 1] += a != 1.0f;
			}
			CHECK(differ == 0);
		}
		CHECK(written[0] > 0);
		CHECK(written[0] < written[1]);
	}
	for (const std::string& m : ctx.tessera->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
}
