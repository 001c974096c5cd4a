// VK_EXT_line_rasterization against lavapipe: rectangular lines with a
// stipple (Vulkan "Line Stipple"), static and dynamic, line lists (each
// segment starts the pattern anew) and strips (the count goes on across
// segments), factors 1 and 3, through the geometry stage too. Lines are
// axis-aligned, where the distance along the line and the count along the
// major axis agree, so both drivers must drop the same fragments: no
// outlier pixels; colors within 1 code (interpolation rounding differs).
// Then Bresenham lines (with their stipple), smooth lines, and the mode as
// dynamic state.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

// Every line mode and stipple, and the line mode as dynamic state.
struct LineContexts {
	SceneFeatures features;
	VkPhysicalDeviceLineRasterizationFeaturesEXT lines{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	LineContexts() {
		lines.rectangularLines = lines.bresenhamLines = lines.smoothLines = VK_TRUE;
		lines.stippledRectangularLines = lines.stippledBresenhamLines = lines.stippledSmoothLines = VK_TRUE;
		eds3.extendedDynamicState3LineRasterizationMode = VK_TRUE;
		lines.pNext = &eds3;
		ContextOptions options = features.OptionsWith(&eds3, VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
		options.device_features = &lines;
		options.device_extensions.push_back(VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
	// Both drivers' programs were valid Vulkan (the validation layer said nothing).
	void CheckValid() const {
		for (const std::string& m : tessera->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
		CHECK(tessera->validation_errors() == 0);
		CHECK(lavapipe->validation_errors() == 0);
	}
};

// Pixels lit (blue above 0) in one image and not the other.
uint32_t CoverageDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
	uint32_t n = 0;
	for (size_t k = 0; k < a.size(); k += 4) n += (a[k + 2] != 0) != (b[k + 2] != 0);
	return n;
}

uint32_t Lit(const std::vector<uint8_t>& a) {
	uint32_t n = 0;
	for (size_t k = 0; k < a.size(); k += 4) n += a[k + 2] != 0;
	return n;
}

// Lines in every direction from near the middle of a 64x64 image, and
// lines along the axes and the diagonals from pixel centers and corners,
// where the diamond rule's perturbation decides. With `centers`, every end
// on a pixel center. Otherwise the fan's ends lie 1/64 and 3/128 pixel off
// a 1/16 grid, so that no end lies exactly on a diamond's edge: there
// the perturbation decides whether an end fragment is drawn, and lavapipe
// differs (it is allowed to: one fragment more or less a segment).
std::vector<float> Fan(bool centers) {
	auto ndc = [](float pixel) { return pixel / 32.0f - 1.0f; };
	auto place = [centers](float v, float off) {
		return centers ? std::floor(v) + 0.5f : std::round(v * 16.0f) / 16.0f + off;
	};
	std::vector<float> v;
	for (int k = 0; k < 20; ++k) {
		const float angle = float(k) * 0.314159f + 0.05f;
		const float x0 = place(32.3125f, 1.0f / 64), y0 = place(31.6875f, 3.0f / 128);
		const float x1 = place(x0 + 27.0f * std::cos(angle), 1.0f / 64);
		const float y1 = place(y0 + 27.0f * std::sin(angle), 3.0f / 128);
		v.insert(v.end(), {ndc(x0), ndc(y0), 0.5f, 1, ndc(x1), ndc(y1), 0.5f, 1});
	}
	const float ends[][4] = {{4.5f, 4.5f, 20.5f, 4.5f},    {4.0f, 8.0f, 20.0f, 8.0f},    {60.5f, 10.5f, 44.5f, 26.5f},
	                         {6.0f, 40.0f, 6.0f, 58.0f},   {10.5f, 58.5f, 26.5f, 42.5f}, {40.0f, 60.0f, 56.0f, 44.0f},
	                         {58.5f, 40.5f, 58.5f, 60.5f}, {44.25f, 4.0f, 60.0f, 4.25f}};
	for (const auto& e : ends) v.insert(v.end(), {ndc(e[0]), ndc(e[1]), 0.5f, 1, ndc(e[2]), ndc(e[3]), 0.5f, 1});
	return v;
}

// A zigzag strip: segments of either major axis joined at angles (with
// `centers`, at pixel centers).
std::vector<float> Zigzag(bool centers) {
	auto ndc = [](float pixel) { return pixel / 32.0f - 1.0f; };
	const float path[][2] = {{3.25f, 5.5f},     {20.0625f, 11.75f}, {14.5f, 30.3125f}, {40.75f, 22.0f},
	                         {58.5f, 9.125f},   {52.1875f, 40.5f},  {30.0f, 36.25f},   {8.5f, 60.0f},
	                         {33.3125f, 58.0f}, {61.25f, 61.0625f}};
	std::vector<float> v;
	for (const auto& p : path) {
		const float x = centers ? std::floor(p[0]) + 0.5f : p[0], y = centers ? std::floor(p[1]) + 0.5f : p[1];
		v.insert(v.end(), {ndc(x), ndc(y), 0.5f, 1});
	}
	return v;
}

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

// Clip-space vertices v (x, y, z, w each) drawn as `topology` with the
// line state `line`, colored by vertex index (geometry_test.cpp's shaders).
Scene LineScene(const std::vector<float>& v, VkPrimitiveTopology topology,
                const VkPipelineRasterizationLineStateCreateInfoEXT* line, float width = 1.0f) {
	Scene s;
	s.vertex_shader = "geom_input.vert.spv";
	s.fragment_shader = "geom_color.frag.spv";
	s.vertices = scenes::Bytes(v);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{uint32_t(v.size() / 4), 1, 0, 0, 0}};
	s.configure = [topology, line, width](PipelineState& ps) {
		ps.input_assembly.topology = topology;
		ps.rasterization.pNext = line;
		ps.rasterization.lineWidth = width;
	};
	return s;
}

Scene StippleScene(VkPrimitiveTopology topology, const VkPipelineRasterizationLineStateCreateInfoEXT* line,
                   bool dynamic) {
	Scene s = LineScene(topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? Staircase() : Lines(), topology, line);
	if (dynamic) {
		auto base = s.configure;
		s.configure = [base](PipelineState& ps) {
			base(ps);
			ps.dynamic_states.push_back(VK_DYNAMIC_STATE_LINE_STIPPLE_EXT);
		};
	}
	return s;
}

// The line features Tessera reports.
VkPhysicalDeviceLineRasterizationFeaturesEXT LineFeatures(Context& ctx) {
	VkPhysicalDeviceLineRasterizationFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx.physical_device(), &f2);
	return features;
}

}  // namespace

TEST_CASE("VK_EXT_line_rasterization: stippled rectangular lines match lavapipe", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	const VkPhysicalDeviceLineRasterizationFeaturesEXT features = LineFeatures(*ctx.tessera);
	CHECK(features.rectangularLines == VK_TRUE);
	CHECK(features.stippledRectangularLines == VK_TRUE);

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
	ctx.CheckValid();
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
	ctx.CheckValid();
}

namespace {

Scene ModeScene(VkPrimitiveTopology topology, const VkPipelineRasterizationLineStateCreateInfoEXT* line, float width,
                bool centers) {
	return LineScene(topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? Zigzag(centers) : Fan(centers), topology, line,
	                 width);
}

}  // namespace

// Vulkan "Bresenham Line Segment Rasterization" against lavapipe: lines in
// every direction, ends off and on pixel centers, widths 1 and 3, lists and
// strips. Both follow the diamond-exit rule and give every fragment of a
// column (row) the values of the segment's point there, so the same pixels
// are lit, with colors within 3 codes. A few pixels may differ where a
// segment crosses a column's center within 1/256 pixel of the border
// between two pixels (lavapipe's fixed-point rounding picks the other), and
// in the pixels where the fan's 20 wide lines meet, which the last line to
// cover them colors.
TEST_CASE("VK_EXT_line_rasterization: Bresenham lines match lavapipe", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	const VkPhysicalDeviceLineRasterizationFeaturesEXT features = LineFeatures(*ctx.tessera);
	CHECK(features.bresenhamLines == VK_TRUE);
	CHECK(features.stippledBresenhamLines == VK_TRUE);
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
		for (float width : {1.0f, 3.0f}) {
			for (bool centers : {false, true}) {
				CAPTURE(topology, width, centers);
				VkPipelineRasterizationLineStateCreateInfoEXT line{
				    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
				line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
				const Scene s = ModeScene(topology, &line, width, centers);
				const SceneResult ours = RenderScene(*ctx.tessera, s);
				const SceneResult reference = RenderScene(*ctx.lavapipe, s);
				CHECK(Lit(ours.colors[0]) > 150 * uint32_t(width));
				CHECK(CoverageDifference(ours.colors[0], reference.colors[0]) <= 4);
				CompareImages("bresenham", s.width, s.height, ours.colors[0], reference.colors[0], 3, 6);
			}
		}
	}
	ctx.CheckValid();
}

namespace {

// Short lines in every direction, one in each 16x16 cell of a 64x64 image
// (so none overlaps another), from and to pixel centers: start (x, y),
// end (x + dx, y + dy) in pixels.
struct CellLine {
	float x, y, dx, dy;
};
std::vector<CellLine> CellLines() {
	std::vector<CellLine> lines;
	for (int k = 0; k < 16; ++k) {
		const float angle = float(k) * 0.3927f + 0.1f;
		const float dx = std::round(12.0f * std::cos(angle)), dy = std::round(12.0f * std::sin(angle));
		lines.push_back(
		    {float(k % 4 * 16) + 8.5f - std::round(dx / 2), float(k / 4 * 16) + 8.5f - std::round(dy / 2), dx, dy});
	}
	return lines;
}

}  // namespace

// Vulkan "Line Stipple" on Bresenham lines: s counts the fragments of a
// segment from its start ("incremented after production of each fragment
// ... beginning at the starting point"), and goes on along a strip. Each
// line drawn alone with and without the stipple: the stippled pixels are
// exactly those of the plain line, taken in order from the start, whose
// pattern bit floor(s / factor) mod 16 is 1. Against lavapipe: a strip
// through pixel centers, whose segments all run toward +y or are x-major
// (lavapipe's stipple is one late on y-major lines drawn toward -y: a fan
// of lines through pixel centers showed it). With factor 1 the strips are
// equal; with factor 3 two pixels of one x-major segment differ (not
// looked into further).
TEST_CASE("VK_EXT_line_rasterization: stippled Bresenham lines count fragments from the start", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	auto ndc = [](float pixel) { return pixel / 32.0f - 1.0f; };
	const std::vector<CellLine> cells = CellLines();
	std::vector<float> v;
	for (const CellLine& c : cells)
		v.insert(v.end(), {ndc(c.x), ndc(c.y), 0.5f, 1, ndc(c.x + c.dx), ndc(c.y + c.dy), 0.5f, 1});
	constexpr uint16_t kPattern = 0xb38f;
	for (uint32_t factor : {1u, 3u}) {
		CAPTURE(factor);
		VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
		line.lineStippleFactor = factor;
		line.lineStipplePattern = kPattern;
		Scene s = ModeScene(VK_PRIMITIVE_TOPOLOGY_LINE_LIST, &line, 1.0f, true);  // (vertices replaced)
		s.vertices = scenes::Bytes(v);
		s.draws = {{uint32_t(v.size() / 4), 1, 0, 0, 0}};
		const SceneResult plain = RenderScene(*ctx.tessera, s);
		line.stippledLineEnable = VK_TRUE;
		const SceneResult stippled = RenderScene(*ctx.tessera, s);
		uint32_t bad = 0, kept = 0;
		for (const CellLine& c : cells) {
			// The plain line's pixels in its cell, in order from the start.
			const int cx = int(c.x + c.dx / 2) / 16 * 16, cy = int(c.y + c.dy / 2) / 16 * 16;
			const bool x_major = std::abs(c.dx) >= std::abs(c.dy);
			std::vector<std::pair<float, int>> order;  // (distance from the start on the major axis, pixel)
			for (int y = cy; y < cy + 16; ++y)
				for (int x = cx; x < cx + 16; ++x)
					if (plain.colors[0][size_t(y * 64 + x) * 4 + 2] != 0)
						order.push_back(
						    {std::abs(x_major ? float(x) + 0.5f - c.x : float(y) + 0.5f - c.y), y * 64 + x});
			std::sort(order.begin(), order.end());
			CHECK(order.size() == size_t(std::max(std::abs(c.dx), std::abs(c.dy))));  // half-open: no last pixel
			for (size_t i = 0; i < order.size(); ++i) {
				const bool lit = stippled.colors[0][size_t(order[i].second) * 4 + 2] != 0;
				bad += lit != ((kPattern >> (i / factor % 16)) & 1);
				kept += lit;
			}
		}
		CHECK(bad == 0);
		CHECK(kept > 0);
		// Along a strip through pixel centers, with lavapipe.
		const Scene strip = ModeScene(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, &line, 1.0f, true);
		const SceneResult ours = RenderScene(*ctx.tessera, strip);
		const SceneResult reference = RenderScene(*ctx.lavapipe, strip);
		VkPipelineRasterizationLineStateCreateInfoEXT unstippled = line;
		unstippled.stippledLineEnable = VK_FALSE;
		const Scene plain_strip = ModeScene(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, &unstippled, 1.0f, true);
		CHECK(Lit(ours.colors[0]) < Lit(RenderScene(*ctx.tessera, plain_strip).colors[0]));
		CompareImages("bresenham-stipple", strip.width, strip.height, ours.colors[0], reference.colors[0], 3,
		              factor == 3 ? 2 : 0);
	}
	ctx.CheckValid();
}

namespace {

// The lines of ModeScene in `mode`, blended over black by their alpha.
Scene BlendedScene(VkPrimitiveTopology topology, const VkPipelineRasterizationLineStateCreateInfoEXT* line,
                   float width) {
	Scene s = ModeScene(topology, line, width, false);
	auto base = s.configure;
	s.configure = [base](PipelineState& ps) {
		base(ps);
		VkPipelineColorBlendAttachmentState& b = ps.blend_attachments[0];
		b.blendEnable = VK_TRUE;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
	};
	return s;
}

// Sum of the blue channel: each line's blue times its coverage, summed.
double Blue(const std::vector<uint8_t>& a) {
	double sum = 0;
	for (size_t k = 0; k < a.size(); k += 4) sum += a[k + 2];
	return sum;
}

}  // namespace

// Vulkan "Smooth Lines": which pixels a smooth line covers, and the
// coverage multiplied into alpha, are the implementation's. Tessera and
// lavapipe both approximate the area of each pixel inside the rectangle:
// blended over black, the images agree within 8 codes a channel, and their
// total intensity within 2%. Against rectangular lines: softer (more
// pixels lit), about the same total (within 10%).
TEST_CASE("VK_EXT_line_rasterization: smooth lines match lavapipe's coverage", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	const VkPhysicalDeviceLineRasterizationFeaturesEXT features = LineFeatures(*ctx.tessera);
	CHECK(features.smoothLines == VK_TRUE);
	CHECK(features.stippledSmoothLines == VK_TRUE);
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
		for (float width : {1.0f, 2.5f}) {
			CAPTURE(topology, width);
			VkPipelineRasterizationLineStateCreateInfoEXT line{
			    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
			line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
			const Scene s = BlendedScene(topology, &line, width);
			const SceneResult ours = RenderScene(*ctx.tessera, s);
			const SceneResult reference = RenderScene(*ctx.lavapipe, s);
			line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
			const SceneResult rectangular = RenderScene(*ctx.tessera, BlendedScene(topology, &line, width));
			const double ours_blue = Blue(ours.colors[0]), reference_blue = Blue(reference.colors[0]);
			const double rectangular_blue = Blue(rectangular.colors[0]);
			UNSCOPED_INFO("blue " << ours_blue << " lavapipe " << reference_blue << " rectangular " << rectangular_blue
			                      << " lit " << Lit(ours.colors[0]) << " / " << Lit(reference.colors[0]) << " / "
			                      << Lit(rectangular.colors[0]));
			CHECK(std::abs(ours_blue - reference_blue) <= 0.02 * reference_blue);
			CHECK(std::abs(ours_blue - rectangular_blue) <= 0.1 * rectangular_blue);
			CHECK(Lit(ours.colors[0]) > Lit(rectangular.colors[0]));
			CompareImages("smooth", s.width, s.height, ours.colors[0], reference.colors[0], 8, 0);
		}
	}
	ctx.CheckValid();
}

// The line mode as dynamic state (extendedDynamicState3LineRasterizationMode):
// a pipeline made for rectangular lines draws Bresenham and smooth lines
// after vkCmdSetLineRasterizationModeEXT, byte for byte as pipelines made
// for those modes, and as lavapipe does. Stippled smooth lines match
// lavapipe too: each pixel's coverage along the line counts only the unit
// rectangles the stipple keeps, so a dash fades in and out.
TEST_CASE("VK_EXT_line_rasterization: the line mode as dynamic state, and stippled smooth lines", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	auto set = ctx.tessera->Proc<PFN_vkCmdSetLineRasterizationModeEXT>("vkCmdSetLineRasterizationModeEXT");
	auto set_reference = ctx.lavapipe->Proc<PFN_vkCmdSetLineRasterizationModeEXT>("vkCmdSetLineRasterizationModeEXT");
	REQUIRE(set);
	REQUIRE(set_reference);
	for (VkLineRasterizationModeEXT mode :
	     {VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT,
	      VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT}) {
		CAPTURE(mode);
		VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = mode;
		const SceneResult fixed = RenderScene(*ctx.tessera, BlendedScene(VK_PRIMITIVE_TOPOLOGY_LINE_LIST, &line, 3.0f));
		VkPipelineRasterizationLineStateCreateInfoEXT rectangular = line;
		rectangular.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
		Scene s = BlendedScene(VK_PRIMITIVE_TOPOLOGY_LINE_LIST, &rectangular, 3.0f);
		auto base = s.configure;
		s.configure = [base](PipelineState& ps) {
			base(ps);
			ps.dynamic_states.push_back(VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT);
		};
		s.before_draws = [set, mode](VkCommandBuffer cb) { set(cb, mode); };
		const SceneResult ours = RenderScene(*ctx.tessera, s);
		s.before_draws = [set_reference, mode](VkCommandBuffer cb) { set_reference(cb, mode); };
		const SceneResult reference = RenderScene(*ctx.lavapipe, s);
		CHECK(ours.colors[0] == fixed.colors[0]);
		CompareImages("dynamic-mode", s.width, s.height, ours.colors[0], reference.colors[0], 8, 6);
	}
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
		CAPTURE(topology);
		VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
		line.stippledLineEnable = VK_TRUE;
		line.lineStippleFactor = 2;
		line.lineStipplePattern = 0xb38f;
		Scene s = StippleScene(topology, &line, false);
		const SceneResult ours = RenderScene(*ctx.tessera, s);
		const SceneResult reference = RenderScene(*ctx.lavapipe, s);
		line.stippledLineEnable = VK_FALSE;
		const SceneResult plain = RenderScene(*ctx.tessera, s);
		CHECK(Lit(ours.colors[0]) < Lit(plain.colors[0]));
		// (A strip's corners differ by up to 20 codes at a few pixels: where
		// two segments' widened rectangles overlap.)
		CompareImages("smooth-stipple", s.width, s.height, ours.colors[0], reference.colors[0], 8,
		              topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? 8 : 0);
	}
	ctx.CheckValid();
}

// The stipple removes fragments before the fragment shader (Vulkan "Line
// Stipple" is part of rasterization): a shader that counts its
// invocations in a storage buffer runs exactly at the pixels the stippled
// lines light, and the lanes next to them that only fill a quad (helpers)
// write nothing. Tessera only (lavapipe 22.3 crashes compiling the
// counting shader, draw_store_test.cpp).
TEST_CASE("VK_EXT_line_rasterization: stippled-out fragments never run the fragment shader", "[e2e][lines]") {
	LineContexts ctx;
	REQUIRE(ctx.tessera);
	auto ndc = [](float pixel) { return pixel / 16.0f - 1.0f; };
	const std::vector<float> positions = {ndc(1.5f),  ndc(3.5f),  ndc(30.5f), ndc(3.5f),  ndc(2.25f), ndc(10.75f),
	                                      ndc(29.0f), ndc(12.5f), ndc(3.5f),  ndc(16.5f), ndc(14.5f), ndc(30.5f)};
	for (VkLineRasterizationModeEXT mode :
	     {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}) {
		CAPTURE(mode);
		VkPipelineRasterizationLineStateCreateInfoEXT line{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
		line.lineRasterizationMode = mode;
		line.stippledLineEnable = VK_TRUE;
		line.lineStippleFactor = 1;
		line.lineStipplePattern = 0xb38f;
		Scene s;
		s.width = s.height = 32;
		s.vertex_shader = "store_counts.vert.spv";
		s.fragment_shader = "store_counts.frag.spv";
		s.vertices = scenes::Bytes(positions);
		s.vertex_stride = 8;
		s.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
		s.storage_data.assign((8 + 32 * 32) * 4, 0);
		s.draws = {DrawCall{6}};
		s.configure = [&line](PipelineState& ps) {
			ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
			ps.rasterization.pNext = &line;
		};
		const SceneResult ours = RenderScene(*ctx.tessera, s);
		std::vector<uint32_t> counts(ours.storage.size() / 4);
		std::memcpy(counts.data(), ours.storage.data(), ours.storage.size());
		uint32_t lit = 0, bad = 0;
		for (uint32_t p = 0; p < 32 * 32; ++p) {
			const bool on = ours.colors[0][p * 4 + 3] != 0 && ours.colors[0][p * 4] != 0;
			lit += on;
			bad += counts[8 + p] != (on ? 1u : 0u);
		}
		CHECK(bad == 0);
		CHECK(counts[0] == lit);
		CHECK(counts[1] == 0u);
		line.stippledLineEnable = VK_FALSE;  // the stipple dropped some
		const SceneResult plain = RenderScene(*ctx.tessera, s);
		uint32_t plain_lit = 0;
		for (uint32_t p = 0; p < 32 * 32; ++p) plain_lit += plain.colors[0][p * 4] != 0;
		CHECK(lit > 20);
		CHECK(lit < plain_lit);
	}
	CHECK(ctx.tessera->validation_errors() == 0);
}
