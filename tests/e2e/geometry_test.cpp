// Geometry shaders (Vulkan "Geometry Shading") through the loader, compared
// with lavapipe with the validation layer on: amplification with
// instancing (Invocations 2), several strips per invocation, PrimitiveId
// from the geometry stage to the fragment stage; triangle strips with
// adjacency and primitive restart to points (each vertex's place and
// source shown in its color, so a wrong vertex order fails); line strips
// with adjacency to line strips; Layer written by the geometry stage.
//
// Tolerance: 1 code per channel where colors are interpolated (the two
// drivers round the interpolation differently), none elsewhere; no
// outlier pixels: coverage, vertex order and primitive IDs match exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

Scene GeometryScene(const std::vector<float>& positions, VkPrimitiveTopology topology, const char* geometry,
                    const char* fragment) {
	Scene s = scenes::GeometryScene(positions, geometry, fragment);
	s.configure = [topology](PipelineState& ps) { ps.input_assembly.topology = topology; };
	return s;
}

// A grid of triangles over the viewport, as a list.
std::vector<float> TriangleGrid(int columns, int rows) {
	std::vector<float> v;
	for (int y = 0; y < rows; ++y)
		for (int x = 0; x < columns; ++x) {
			const float x0 = -0.9f + 1.8f * float(x) / float(columns), y0 = -0.9f + 1.8f * float(y) / float(rows);
			const float dx = 1.6f / float(columns), dy = 1.6f / float(rows);
			v.insert(v.end(), {x0, y0, 0.5f, 1, x0 + dx, y0, 0.5f, 1, x0, y0 + dy, 0.5f, 1});
		}
	return v;
}

}  // namespace

TEST_CASE("Geometry shaders are reported with the spec's minimum limits", "[e2e][geometry]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceFeatures f{};
	vkGetPhysicalDeviceFeatures(ctx->physical_device(), &f);
	CHECK(f.geometryShader == VK_TRUE);
	CHECK(f.shaderTessellationAndGeometryPointSize == VK_TRUE);
	VkPhysicalDeviceProperties p{};
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &p);
	// Vulkan "Required Limits", with geometryShader.
	CHECK(p.limits.maxGeometryShaderInvocations >= 32);
	CHECK(p.limits.maxGeometryInputComponents >= 64);
	CHECK(p.limits.maxGeometryOutputComponents >= 64);
	CHECK(p.limits.maxGeometryOutputVertices >= 256);
	CHECK(p.limits.maxGeometryTotalOutputComponents >= 1024);
	CHECK((p.limits.framebufferColorSampleCounts & VK_SAMPLE_COUNT_1_BIT) != 0);
}

TEST_CASE("Geometry amplification: two invocations, two strips each, PrimitiveId to the fragment stage",
          "[e2e][geometry]") {
	ScenePair pair;
	Scene s = GeometryScene(TriangleGrid(4, 3), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "geom_amplify.geom.spv",
	                        "geom_primitive_id.frag.spv");
	s.width = s.height = 96;
	s.draws = {{36, 2, 0, 0, 0}};  // two instances: PrimitiveId starts again at 0
	CHECK(scenes::Drawn(pair.Compare("geometry-amplify", s, 1, 0), s));
	// Indexed, with a strip and restarts: the same triangles from fewer vertices.
	Scene strip =
	    GeometryScene({-0.9f, -0.9f, 0.5f, 1, -0.9f, 0.0f,  0.5f, 1, -0.3f, -0.9f, 0.5f, 1,
	                   -0.3f, 0.0f,  0.5f, 1, 0.3f,  -0.9f, 0.5f, 1, 0.3f,  0.0f,  0.5f, 1},
	                  VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, "geom_amplify.geom.spv", "geom_primitive_id.frag.spv");
	strip.indices = {0, 1, 2, 3, 0xffffffffu, 2, 3, 4, 5};
	strip.draws = {{uint32_t(strip.indices.size()), 1, 0, 0, 0}};
	auto configure = strip.configure;
	strip.configure = [configure](PipelineState& ps) {
		configure(ps);
		ps.input_assembly.primitiveRestartEnable = VK_TRUE;
	};
	CHECK(scenes::Drawn(pair.Compare("geometry-amplify-strip", strip, 1, 0), strip));
}

TEST_CASE("Geometry input with adjacency: triangle strips to points, line strips to line strips", "[e2e][geometry]") {
	ScenePair pair;
	// Ten vertices of a triangle strip with adjacency (three primitives),
	// a restart, then eight more (two primitives).
	std::vector<float> v;
	for (int i = 0; i < 18; ++i)
		v.insert(v.end(), {-0.85f + 0.09f * float(i), (i % 2) ? 0.3f : -0.5f + 0.04f * float(i % 4), 0.5f, 1});
	Scene points = GeometryScene(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, "geom_adjacency.geom.spv",
	                             "geom_color.frag.spv");
	points.width = points.height = 128;
	points.indices.clear();
	for (uint32_t i = 0; i < 10; ++i) points.indices.push_back(i);
	points.indices.push_back(0xffffffffu);
	for (uint32_t i = 10; i < 18; ++i) points.indices.push_back(i);
	points.draws = {{uint32_t(points.indices.size()), 1, 0, 0, 0}};
	auto configure = points.configure;
	points.configure = [configure](PipelineState& ps) {
		configure(ps);
		ps.input_assembly.primitiveRestartEnable = VK_TRUE;
	};
	CHECK(scenes::Drawn(pair.Compare("geometry-tri-strip-adjacency", points, 0, 0), points));
	// One primitive alone takes the table's special order (0, 1, 2, 5, 4, 3).
	points.indices = {0, 1, 2, 3, 4, 5};
	points.draws = {{6, 1, 0, 0, 0}};
	CHECK(scenes::Drawn(pair.Compare("geometry-tri-strip-adjacency-one", points, 0, 0), points));
	// A list with adjacency: two primitives of six.
	Scene list = GeometryScene(std::vector<float>(v.begin(), v.begin() + 12 * 4),
	                           VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, "geom_adjacency.geom.spv",
	                           "geom_color.frag.spv");
	list.width = list.height = 128;
	CHECK(scenes::Drawn(pair.Compare("geometry-tri-list-adjacency", list, 0, 0), list));

	std::vector<float> zigzag;
	for (int i = 0; i < 9; ++i)
		zigzag.insert(zigzag.end(), {-0.8f + 0.2f * float(i), 0.6f * std::sin(float(i)), 0.5f, 1});
	Scene lines = GeometryScene(zigzag, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
	                            "geom_lines_adjacency.geom.spv", "geom_color.frag.spv");
	lines.width = lines.height = 96;
	CHECK(scenes::Drawn(pair.Compare("geometry-line-strip-adjacency", lines, 0, 0), lines));
	Scene line_list = GeometryScene(zigzag, VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY,
	                                "geom_lines_adjacency.geom.spv", "geom_color.frag.spv");
	line_list.width = line_list.height = 96;
	CHECK(scenes::Drawn(pair.Compare("geometry-line-list-adjacency", line_list, 0, 0), line_list));
}

TEST_CASE("Geometry stage writes Layer: each triangle into two layers", "[e2e][geometry]") {
	ScenePair pair;
	Scene s = GeometryScene(TriangleGrid(3, 2), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "geom_layer.geom.spv",
	                        "geom_color.frag.spv");
	s.layers = 2;
	const SceneResult ours = pair.Compare("geometry-layer", s, 1, 0);
	// Layer 1 is not all clear color (0, 0, 0, 1): the mirrored triangles reached it.
	const size_t layer_bytes = size_t(s.width) * s.height * 4;
	bool drawn = false;
	for (size_t k = layer_bytes; k < 2 * layer_bytes; k += 4)
		drawn |= (ours.colors[0][k] | ours.colors[0][k + 1] | ours.colors[0][k + 2]) != 0;
	CHECK(drawn);
}

TEST_CASE("PrimitiveId without a geometry stage: the number a geometry stage would be given", "[e2e][geometry]") {
	ScenePair pair;
	// Strips and lists, strips with a restart (which does not reset the
	// count), two instances (each counts from 0, drawn over each other).
	std::vector<float> v;
	for (int i = 0; i < 12; ++i) v.insert(v.end(), {-0.9f + 0.15f * float(i), (i % 2) ? -0.1f : -0.8f, 0.5f, 1});
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	                                     VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, VK_PRIMITIVE_TOPOLOGY_LINE_LIST}) {
		CAPTURE(topology);
		Scene s = GeometryScene(v, topology, "", "geom_primitive_id.frag.spv");
		s.geometry_shader.clear();
		s.width = s.height = 64;
		// Restarts in strips; lists take every index (restart in lists needs
		// VK_EXT_primitive_topology_list_restart).
		const bool strip =
		    topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP || topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
		s.indices = {0, 1, 2, 3, 4, 0xffffffffu, 5, 6, 7, 8, 9, 10, 11};
		if (!strip) s.indices = {11, 10, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8};
		s.draws = {{uint32_t(s.indices.size()), 2, 0, 0, 0}};
		auto configure = s.configure;
		s.configure = [configure, strip](PipelineState& ps) {
			configure(ps);
			ps.input_assembly.primitiveRestartEnable = strip;
		};
		CHECK(scenes::Drawn(pair.Compare("primitive-id", s, 1, 0), s));
	}
}

TEST_CASE("Adjacency topologies without a geometry stage draw their main primitives", "[e2e][geometry]") {
	ScenePair pair;
	std::vector<float> v;
	for (int i = 0; i < 14; ++i)
		v.insert(v.end(), {-0.85f + 0.12f * float(i), (i % 2) ? 0.5f : -0.6f + 0.05f * float(i % 4), 0.5f, 1});
	// draw_ids colors each primitive by its provoking vertex's index, so a
	// wrong main vertex or provoking vertex shows.
	for (VkPrimitiveTopology topology :
	     {VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
	      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY}) {
		CAPTURE(topology);
		Scene s = GeometryScene(v, topology, "", "geom_color.frag.spv");
		s.geometry_shader.clear();
		s.vertex_shader = "draw_ids.vert.spv";
		s.fragment_shader = "draw_ids.frag.spv";
		CHECK(scenes::Drawn(pair.Compare("adjacency-main", s, 0, 0), s));
	}
}

TEST_CASE("The geometry stage renders the same bytes with 1 and 4 threads", "[e2e][geometry][threads]") {
	// Overlapping, alpha-blended output primitives from lane groups that run
	// on different threads: any change in their order (Vulkan "Geometry
	// Shader Primitive Ordering") changes the bytes.
	Scene amplify = GeometryScene(TriangleGrid(16, 12), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "geom_amplify.geom.spv",
	                              "geom_primitive_id.frag.spv");
	amplify.width = amplify.height = 128;
	amplify.draws = {{576, 3, 0, 0, 0}};  // 192 triangles: three lane groups of 64 primitives
	auto configure = amplify.configure;
	amplify.configure = [configure](PipelineState& p) {
		configure(p);
		p.blend_attachments[0].blendEnable = VK_TRUE;
		p.blend_attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_ALPHA;
		p.blend_attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
		p.color_blend.blendConstants[3] = 0.6f;
	};
	const std::vector<std::vector<uint8_t>> images = scenes::RenderWithOneAndFourThreads(amplify);
	CHECK(images[0] == images[1]);
	CHECK(scenes::Drawn(SceneResult{{images[0]}}, amplify));
}

// lavapipe 22.3 offers 32 invocations, so the picture is checked against
// what the shader places: invocation i of point p lights pixel
// (i, 4p) alone, with red i / 126 and green (p mod 4) / 3.
TEST_CASE("127 geometry invocations a primitive (maxGeometryShaderInvocations), each its own point",
          "[e2e][geometry]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceProperties properties{};
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &properties);
	CHECK(properties.limits.maxGeometryShaderInvocations == 127);
	Scene s = GeometryScene(std::vector<float>(8 * 4, 0.0f), VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
	                        "geom_invocations.geom.spv", "geom_color.frag.spv");
	s.width = s.height = 128;
	const std::vector<uint8_t> image = RenderScene(*ctx, s).colors[0];
	size_t lit = 0, right = 0;
	for (uint32_t y = 0; y < 128; ++y)
		for (uint32_t x = 0; x < 128; ++x) {
			const uint8_t* t = &image[(size_t(y) * 128 + x) * 4];
			if (t[2] == 0) continue;
			++lit;
			const uint32_t p = y / 4;
			right += y % 4 == 0 && x < 127 && std::abs(int(t[0]) - int(std::lround(x / 126.0 * 255))) <= 1 &&
			         std::abs(int(t[1]) - int(std::lround((p % 4) / 3.0 * 255))) <= 1;
		}
	CHECK(lit == 8 * 127);
	CHECK(right == 8 * 127);
	CHECK(ctx->validation_errors() == 0);
}
