// More scenes against lavapipe: a pipeline without a fragment shader
// (depth only), clipping against the near plane with vertices behind the
// eye (w < 0), triangles far past the viewport, attribute offsets past the
// stride, a zero instance stride, and instanced draws over scattered
// indices. Tolerances: coverage exact, colors 2 codes (draw_scene_helpers.h);
// depth as in draw_depth_test.cpp (1e-4: z from snapped or unsnapped
// vertices).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("a depth-only pipeline (no fragment shader) matches lavapipe", "[draw][misc]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.2f, 1, 0, 0);
	v[1].z = 0.8f;
	Triangle(v, 0.95f, 0.9f, -0.9f, 0.55f, 0.25f, -0.95f, 0.5f, 0, 1, 0);
	Scene s = ColorScene(v);
	s.fragment_shader.clear();
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.draws = {{6, 1, 0, 0, 0}};
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		// §28.x: without a fragment shader color outputs are undefined;
		// write none.
		p.blend_attachments[0].colorWriteMask = 0;
	};
	ScenePair pair;
	auto [a, b] = pair.Render(s);
	// Only the clear color: 0.3 x 255 = 76.5 may round either way (§3.9.2).
	CompareImages("depth-only", s.width, s.height, a.colors[0], b.colors[0], 1);
	std::vector<float> da(a.depth.size() / 4), db(b.depth.size() / 4);
	REQUIRE(a.depth.size() == b.depth.size());
	std::memcpy(da.data(), a.depth.data(), a.depth.size());
	std::memcpy(db.data(), b.depth.data(), b.depth.size());
	float worst = 0;
	for (size_t i = 0; i < da.size(); ++i) worst = std::max(worst, std::fabs(da[i] - db[i]));
	CHECK(worst <= 1e-4f);
}

TEST_CASE("near-plane clipping with vertices behind the eye matches lavapipe", "[draw][misc]") {
	// §27.x: primitives are clipped to -w <= x, y <= w, 0 <= z <= w; a vertex
	// with w < 0 is behind the eye, the visible part is what survives.
	// Tolerance: clipped edges are new vertices computed at each
	// implementation's precision; pixel centers within rounding of them may
	// differ: at most 2 (none seen).
	std::vector<Vertex> v;
	v.push_back({-0.5f, -0.5f, 0.5f, 1.0f, 1, 0, 0, 1});
	v.push_back({0.8f, -0.2f, 0.3f, 1.0f, 0, 1, 0, 1});
	v.push_back({0.3f, 0.9f, -2.0f, -1.5f, 0, 0, 1, 1});  // behind
	v.push_back({-0.9f, 0.2f, -0.5f, 1.0f, 1, 1, 0, 1});  // in front of the near plane (z < 0)
	v.push_back({0.9f, 0.6f, 0.9f, 2.0f, 0, 1, 1, 1});
	v.push_back({-0.2f, -0.9f, 0.5f, 0.5f, 1, 0, 1, 1});
	Scene s = ColorScene(v);
	s.draws = {{6, 1, 0, 0, 0}};
	CompareSceneWithLavapipe("near-clip", s, 2, 2);
	// And gl_FragCoord (z, and x/y) over the clipped triangles.
	s.fragment_shader = "frag_coord.frag.spv";
	CompareSceneWithLavapipe("near-clip-frag-coord", s, 2, 2);
}

TEST_CASE("triangles far larger than the viewport match lavapipe", "[draw][misc]") {
	std::vector<Vertex> v;
	v.push_back({-300.0f, -2.0f, 0.5f, 1, 1, 0, 0, 1});
	v.push_back({500.0f, -1.5f, 0.5f, 1, 0, 1, 0, 1});
	v.push_back({0.3f, 900.0f, 0.5f, 1, 0, 0, 1, 1});
	v.push_back({-1e5f, 0.2f, 0.5f, 1, 1, 1, 0, 1});
	v.push_back({1e5f, 0.25f, 0.5f, 1, 0, 1, 1, 1});
	v.push_back({0.0f, 0.6f, 0.5f, 1, 1, 0, 1, 1});
	Scene s = ColorScene(v);
	s.draws = {{6, 1, 0, 0, 0}};
	// Guard-band clipping makes new vertices (raster/README.md): pixels
	// within rounding of the huge triangles' edges may differ: at most 2
	// (none seen).
	CompareSceneWithLavapipe("huge", s, 2, 2);
}

TEST_CASE("attribute offsets past the stride and a zero instance stride match lavapipe", "[draw][misc]") {
	// §22.2: offset may exceed stride (up to maxVertexInputAttributeOffset);
	// stride 0 reads the same element for every instance.
	std::vector<Vertex> v;
	Triangle(v, -0.95f, -0.95f, -0.6f, -0.9f, -0.9f, -0.55f, 0.5f, 1, 0, 0);
	Triangle(v, -0.5f, -0.95f, -0.1f, -0.9f, -0.4f, -0.55f, 0.5f, 0, 1, 0);
	Scene s = ColorScene(v);
	s.vertex_shader = "instanced.vert.spv";
	// Position of vertex i read from vertex i+3 (offset 96 = 3 vertices), the
	// per-instance vec4 from binding 1 with stride 0.
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 96}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 4}};
	s.instance_data = Bytes(std::vector<float>{9, 0.3f, 0.5f, 0.8f, 0.1f});
	s.instance_stride = 0;
	s.draws = {{3, 3, 0, 0, 0}};
	CompareSceneWithLavapipe("attribute-offsets", s, 2);
}

TEST_CASE("instanced draws over scattered indices match lavapipe", "[draw][misc]") {
	std::vector<Vertex> grid = Grid(4);
	std::vector<Vertex> v(9000, Vertex{5, 5, 0.5f, 1, 1, 0, 1, 1});
	std::vector<uint32_t> idx;
	for (uint32_t i : GridTriangles(4)) idx.push_back(i * 557 + 3);
	for (uint32_t i = 0; i < grid.size(); ++i) {
		v[i * 557 + 3] = grid[i];
		v[i * 557 + 3].x *= 0.4f;
		v[i * 557 + 3].y *= 0.4f;
	}
	Scene s = ColorScene(v);
	s.vertex_shader = "instanced.vert.spv";
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.instance_data =
	    Bytes(std::vector<float>{-0.5f, -0.5f, 1, 0, 0.5f, -0.5f, 0, 1, -0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 1, 1});
	s.instance_stride = 16;
	s.indices = idx;
	s.draws = {{uint32_t(idx.size()), 3, 0, 0, 1}};
	CompareSceneWithLavapipe("instanced-scattered", s, 2);
}

// §21.1: a list's incomplete last primitive is ignored, as are strips and
// fans of fewer than 3 vertices; draws of 0 vertices or instances draw
// nothing.
TEST_CASE("incomplete primitives and empty draws match lavapipe", "[draw][misc]") {
	ScenePair pair;
	std::vector<Vertex> grid = Grid(6);
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
	                                     VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
		for (bool indexed : {false, true}) {
			CAPTURE(topology, indexed);
			Scene s = ColorScene(grid);
			if (indexed) s.indices = GridTriangles(6);
			s.draws = {{8, 1, 0, 0, 0}, {7, 1, 12, 0, 0}, {2, 1, 20, 0, 0},
			           {0, 1, 3, 0, 0}, {9, 0, 24, 0, 0}, {4, 1, 30, 0, 0}};
			s.configure = [topology](PipelineState& p) { p.input_assembly.topology = topology; };
			pair.Compare("incomplete-" + std::to_string(topology) + (indexed ? "-indexed" : ""), s, 2);
		}
	}
}

// §22.2: vertex buffer offsets; vkCmdBindVertexBuffers2 with sizes and, with
// VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, strides.
TEST_CASE("vertex buffer offsets and dynamic strides match lavapipe", "[draw][misc]") {
	std::vector<Vertex> v;
	// Every second vertex is junk: read with stride 64 from offset 32.
	std::vector<Vertex> tri;
	Triangle(tri, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(tri, 0.95f, 0.9f, -0.9f, 0.55f, 0.25f, -0.95f, 0.5f, 0, 1, 0);
	v.push_back({9, 9, 9, 1, 1, 1, 1, 1});
	for (const Vertex& t : tri) {
		v.push_back(t);
		v.push_back({-9, 9, 9, 1, 1, 1, 1, 1});
	}
	Scene s = ColorScene(v);
	s.configure = [](PipelineState& p) { p.dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE); };
	s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers& b) {
		const VkDeviceSize offset = sizeof(Vertex), size = 6 * 2 * sizeof(Vertex), stride = 2 * sizeof(Vertex);
		vkCmdBindVertexBuffers2(cb, 0, 1, &b.vertices, &offset, &size, &stride);
		vkCmdDraw(cb, 3, 1, 0, 0);
		// The second triangle through a larger offset, vertex 0.
		const VkDeviceSize offset2 = 7 * sizeof(Vertex);
		vkCmdBindVertexBuffers2(cb, 0, 1, &b.vertices, &offset2, nullptr, &stride);
		vkCmdDraw(cb, 3, 1, 0, 0);
	};
	CompareSceneWithLavapipe("vertex-offsets", s, 2);
}

TEST_CASE("a color attachment with no fragment output keeps its values", "[draw][misc]") {
	// Vulkan "Fragment Output Interface": "If a color attachment at a given
	// Location does not have an output variable declared, the values must
	// not be modified" (the CTS's api.fragment_shader_output cases). The
	// shader writes Location 0 only; attachment 1 keeps the clear color.
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.2f, 1, 0, 0);
	for (bool dynamic_rendering : {false, true}) {
		CAPTURE(dynamic_rendering);
		Scene s = ColorScene(v);
		s.dynamic_rendering = dynamic_rendering;
		s.color_attachments = 2;
		s.clear_color = {{0.2f, 0.4f, 0.6f, 1.0f}};
		ScenePair pair;
		auto [a, b] = pair.Render(s);
		REQUIRE(a.colors.size() == 2);
		CompareImages("no-output-attachment-0", s.width, s.height, a.colors[0], b.colors[0], 2);
		// Lavapipe 22.3 writes zeros there (the rule came with a later
		// spec clarification); the attachment is checked against the rule.
		size_t changed = 0;
		for (size_t i = 0; i < a.colors[1].size(); i += 4)
			changed += a.colors[1][i] != 51 || a.colors[1][i + 1] != 102 || a.colors[1][i + 2] != 153;
		CHECK(changed == 0);
	}
}
