// Points, lines, polygon modes and the multisample and output features the
// rasterizer gained (src/raster: points and lines as exact squares and
// rectangles, strictLines), drawn on Tessera and lavapipe and compared.
//
// Tolerances: coverage of points, lines and polygons must match exactly
// (lavapipe reports strictLines and rectangular lines as we do; both end
// fragments at the viewport's edges, the last test). Colors within 2 codes
// (interpolation precision, §28.7.4 / §28.8).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "render_scene.h"

using namespace tessera::test;

namespace {

// Vertex: x, y, z, w, r, g, b, a, size.
struct Vertex {
	float position[4];
	float color[4];
	float size;
};

Scene PrimitiveScene(const std::vector<Vertex>& vertices, VkPrimitiveTopology topology) {
	Scene s;
	s.width = s.height = 64;
	s.vertex_shader = "sized_point.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.vertices.resize(vertices.size() * sizeof(Vertex));
	std::memcpy(s.vertices.data(), vertices.data(), s.vertices.size());
	s.vertex_stride = sizeof(Vertex);
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
	                {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
	                {2, 0, VK_FORMAT_R32_SFLOAT, 32}};
	s.draws = {DrawCall{uint32_t(vertices.size())}};
	s.configure = [topology](PipelineState& p) { p.input_assembly.topology = topology; };
	return s;
}

// A deterministic scatter of vertices inside [-0.85, 0.85]^2 (so that
// points and wide lines stay inside the viewport).
std::vector<Vertex> Scatter(uint32_t count, float size) {
	std::vector<Vertex> out;
	uint32_t state = 12345;
	auto next = [&] {
		state = state * 1664525u + 1013904223u;
		return float(state >> 8) / float(1u << 24);
	};
	for (uint32_t i = 0; i < count; ++i) {
		Vertex v{};
		v.position[0] = next() * 1.7f - 0.85f;
		v.position[1] = next() * 1.7f - 0.85f;
		v.position[2] = next() * 0.5f;
		v.position[3] = 1;
		v.color[0] = next(), v.color[1] = next(), v.color[2] = next(), v.color[3] = 1;
		v.size = size > 0 ? size : 1.0f + next() * 6.0f;
		out.push_back(v);
	}
	return out;
}

SceneFeatures features;

}  // namespace

TEST_CASE("points of several sizes match lavapipe", "[draw][points]") {
	Scene s = PrimitiveScene(Scatter(40, 0), VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
	CompareSceneWithLavapipe("points", s, 2);
	s.fragment_shader = "point_coord.frag.spv";  // gl_PointCoord
	CompareSceneWithLavapipe("point-coord", s, 2);
}

TEST_CASE("line lists and strips match lavapipe, 1 and 3 pixels wide", "[draw][lines]") {
	for (float width : {1.0f, 3.0f}) {
		CAPTURE(width);
		for (VkPrimitiveTopology t : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
			Scene s = PrimitiveScene(Scatter(24, 1), t);
			s.configure = [t, width](PipelineState& p) {
				p.input_assembly.topology = t;
				p.rasterization.lineWidth = width;
			};
			CompareSceneWithLavapipe(t == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ? "lines" : "line-strip", s, 2);
		}
	}
}

TEST_CASE("polygon modes LINE and POINT match lavapipe", "[draw][polygon-mode]") {
	for (VkPolygonMode mode : {VK_POLYGON_MODE_LINE, VK_POLYGON_MODE_POINT}) {
		CAPTURE(mode);
		Scene s = PrimitiveScene(Scatter(18, 3), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
		s.configure = [mode](PipelineState& p) { p.rasterization.polygonMode = mode; };
		// Polygon edges as lines: lavapipe's edge lines differ from our exact
		// rectangles at some polygon vertices (where two edges meet; measured
		// 21 pixels here, at vertices only). §28.8 fixes which edges are drawn,
		// not how their ends join, so a bounded number of pixels may differ.
		CompareSceneWithLavapipe(mode == VK_POLYGON_MODE_LINE ? "polygon-line" : "polygon-point", s, 2,
		                         mode == VK_POLYGON_MODE_LINE ? 24 : 0);
	}
}

TEST_CASE("the depth bounds test keeps fragments where the stored depth is inside the bounds", "[draw][depth-bounds]") {
	// Lavapipe lacks depthBounds: Tessera alone, against the same draw
	// without the test. §29.6: the test reads the depth already stored
	// (here the clear value), whatever the fragment's own depth.
	std::vector<Vertex> v = {{{-0.8f, -0.8f, 0.9f, 1}, {0, 1, 0, 1}, 1},
	                         {{0.8f, -0.8f, 0.9f, 1}, {0, 1, 0, 1}, 1},
	                         {{0.8f, 0.8f, 0.9f, 1}, {0, 1, 0, 1}, 1}};
	Scene s = PrimitiveScene(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	auto configure = [](bool bounds) {
		return [bounds](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			p.depth_stencil.depthBoundsTestEnable = bounds;
			p.depth_stencil.minDepthBounds = 0.25f;
			p.depth_stencil.maxDepthBounds = 0.4f;
		};
	};
	SceneFeatures f;
	f.core.features.depthBounds = VK_TRUE;
	auto ctx = Context::Create(Driver::Tessera, f.Options());
	REQUIRE(ctx);
	s.configure = configure(false);
	s.clear_depth_stencil.depth = 0.3f;
	SceneResult plain = RenderScene(*ctx, s);
	s.configure = configure(true);
	SceneResult inside = RenderScene(*ctx, s);
	CHECK(inside.colors[0] == plain.colors[0]);
	s.clear_depth_stencil.depth = 0.5f;
	SceneResult outside = RenderScene(*ctx, s);
	std::vector<uint8_t> cleared = outside.colors[0];
	for (size_t i = 0; i < cleared.size(); i += 4) {
		CAPTURE(i);
		REQUIRE(std::vector<uint8_t>(cleared.begin() + i, cleared.begin() + i + 4) ==
		        std::vector<uint8_t>(cleared.begin(), cleared.begin() + 4));
	}
	CHECK(plain.colors[0] != cleared);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("sample shading with 4 samples matches lavapipe", "[draw][msaa]") {
	Scene s = PrimitiveScene(Scatter(9, 1), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	s.fragment_shader = "sample_id.frag.spv";  // per-sample colors, averaged by the resolve
	CompareSceneWithLavapipe("sample-shading", s, 2);
	s.fragment_shader = "scene.frag.spv";
	s.configure = [](PipelineState& p) {
		p.multisample.sampleShadingEnable = VK_TRUE;
		p.multisample.minSampleShading = 1.0f;
	};
	// Undecorated inputs under sample shading: Tessera interpolates them at
	// the sample, lavapipe (seen here) nearer the pixel center; the two meet
	// inside each primitive and differ by up to 9 codes at pixels on edges
	// between primitives of very different colors.
	CompareSceneWithLavapipe("min-sample-shading", s, 10);
}

TEST_CASE("alpha to one matches lavapipe", "[draw][msaa]") {
	std::vector<Vertex> v = Scatter(9, 1);
	for (Vertex& x : v) x.color[3] = 0.3f;
	Scene s = PrimitiveScene(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	s.configure = [](PipelineState& p) {
		p.multisample.alphaToOneEnable = VK_TRUE;
		p.blend_attachments[0].blendEnable = VK_TRUE;
		p.blend_attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		p.blend_attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		p.blend_attachments[0].colorBlendOp = VK_BLEND_OP_ADD;
		p.blend_attachments[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		p.blend_attachments[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
		p.blend_attachments[0].alphaBlendOp = VK_BLEND_OP_ADD;
	};
	CompareSceneWithLavapipe("alpha-to-one", s, 2);
}

TEST_CASE("an integer color attachment receives the output's bits", "[draw][integer]") {
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R32_UINT, VK_FORMAT_R16G16_UINT}) {
		CAPTURE(format);
		Scene s = PrimitiveScene(Scatter(9, 1), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
		s.color_format = format;
		s.fragment_shader = "uint_color.frag.spv";
		s.clear_color.uint32[0] = 5, s.clear_color.uint32[1] = 6, s.clear_color.uint32[2] = 7;
		s.clear_color.uint32[3] = 8;
		// Exact: integer outputs are stored as they are (in range for every
		// format here), never blended or converted.
		CompareSceneWithLavapipe("uint-attachment", s, 0);
	}
}

TEST_CASE("dual-source blending matches lavapipe", "[draw][blend]") {
	Scene s = PrimitiveScene(Scatter(12, 1), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	s.fragment_shader = "dual_blend.frag.spv";
	s.clear_color = {{0.8f, 0.6f, 0.4f, 1.0f}};
	s.configure = [](PipelineState& p) {
		VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
		b.blendEnable = VK_TRUE;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
		b.colorBlendOp = VK_BLEND_OP_ADD;
		b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
		b.alphaBlendOp = VK_BLEND_OP_ADD;
	};
	// Blending at 3 codes: lavapipe blends UNORM8 in 8-bit fixed point
	// (see draw_blend_test.cpp).
	CompareSceneWithLavapipe("dual-source", s, 3);
}

TEST_CASE("gl_SampleID and gl_SamplePosition on one sample read 0 and the center, after a 4-sample draw",
          "[draw][msaa]") {
	// Vulkan 1.3 §28.4 "Sample Shading": with one sample the invocation is
	// sample 0, at (0.5, 0.5). The batch memory a 4-sample draw left behind
	// on the same device must not show through (CTS
	// rasterization_order_attachment_access.*_samples_1 after *_samples_4).
	ScenePair pair;
	Scene s = PrimitiveScene(Scatter(9, 1), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	s.fragment_shader = "sample_id.frag.spv";
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	pair.Compare("sample-id-4", s, 2);
	s.samples = VK_SAMPLE_COUNT_1_BIT;
	SceneResult one = pair.Compare("sample-id-1", s, 0);
	// Every covered pixel: (0, 0.5, 0.5) in UNORM8 (0.5 may round either way).
	uint32_t wrong = 0;
	for (size_t i = 0; i < one.colors[0].size(); i += 4) {
		const uint8_t* p = &one.colors[0][i];
		const bool clear_color = p[0] == one.colors[0][0] && p[1] == one.colors[0][1] && p[2] == one.colors[0][2];
		if (!clear_color && (p[0] != 0 || p[1] < 127 || p[1] > 128 || p[2] < 127 || p[2] > 128)) ++wrong;
	}
	CHECK(wrong == 0);
}

// Vulkan "Primitive Clipping": a triangle is clipped to the view volume, so
// none of it lands outside its viewport's rectangle, however far the
// framebuffer goes on. Points and wide lines whose vertices lie inside are
// not clipped, and the spec leaves open where their fragments end; the CTS's
// references (dynamic_state.*.image.*) and lavapipe end them at the
// viewport's edges as well. A viewport a corner of the framebuffer, with a
// positive and a negative height.
TEST_CASE("primitives reaching past a viewport smaller than the framebuffer stop at its edges", "[draw][viewport]") {
	const std::vector<Vertex> triangles = {{{-3, -3, 0.5f, 1}, {1, 0, 0, 1}, 1},
	                                       {{3, -2, 0.5f, 1}, {0, 1, 0, 1}, 1},
	                                       {{0.2f, 3, 0.5f, 1}, {0, 0, 1, 1}, 1}};
	const std::vector<Vertex> lines = {
	    {{-0.8f, -0.97f, 0.5f, 1}, {1, 1, 0, 1}, 1}, {{0.8f, -0.97f, 0.5f, 1}, {1, 1, 0, 1}, 1},  // along one edge
	    {{0.97f, -0.6f, 0.5f, 1}, {0, 1, 1, 1}, 1},  {{0.9f, 0.7f, 0.5f, 1}, {0, 1, 1, 1}, 1},    // along another
	    {{-0.5f, 0.5f, 0.5f, 1}, {1, 0, 1, 1}, 1},   {{0.3f, 0.96f, 0.5f, 1}, {1, 0, 1, 1}, 1}};  // toward a third
	const std::vector<Vertex> points = {{{-0.95f, -0.9f, 0.5f, 1}, {1, 1, 1, 1}, 14},
	                                    {{0.9f, 0.92f, 0.5f, 1}, {1, 0.5f, 0, 1}, 9},
	                                    {{0, 0.97f, 0.5f, 1}, {0.2f, 1, 0.4f, 1}, 6}};
	struct Case {
		const char* name;
		const std::vector<Vertex>* vertices;
		VkPrimitiveTopology topology;
	};
	for (const Case& c : {Case{"clipped-triangle", &triangles, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST},
	                      Case{"wide-lines", &lines, VK_PRIMITIVE_TOPOLOGY_LINE_LIST},
	                      Case{"large-points", &points, VK_PRIMITIVE_TOPOLOGY_POINT_LIST}}) {
		for (const VkViewport& viewport : {VkViewport{8, 12, 40, 30, 0, 1}, VkViewport{8, 42, 40, -30, 0, 1}}) {
			CAPTURE(c.name, viewport.height);
			Scene s = PrimitiveScene(*c.vertices, c.topology);
			s.viewport = viewport;
			const VkPrimitiveTopology topology = c.topology;
			s.configure = [topology](PipelineState& p) {
				p.input_assembly.topology = topology;
				p.rasterization.lineWidth = 9.0f;
			};
			CompareSceneWithLavapipe(c.name, s, 2);
		}
	}
}
