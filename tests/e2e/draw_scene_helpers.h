// Helpers shared by the draw_*_test.cpp scene tests: vertices for
// scene.vert (a vec4 position and a vec4 color, 32 bytes), grids and byte
// packing.
//
// Tolerances used across the scene tests (each test states its own):
// - Coverage must match lavapipe exactly. Both drivers snap to 8 sub-pixel
//   bits and apply the coverage rule of Vulkan 1.3 §28.7.1; the only
//   freedom there is which of two triangles sharing an edge owns a sample
//   on it, and both use the top-left convention.
// - Colors interpolated from varyings may differ by 2 codes: §28.7.4 (and
//   §28.5) let implementations interpolate with their own precision and
//   §3.9.2 lets float->UNORM conversion round either way.
// - Flat values, clears and constants converted exactly (k/255) must match
//   exactly (tolerance 0).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "render_scene.h"

namespace tessera::test::scenes {

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> out(values.size() * sizeof(T));
	if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
	return out;
}

struct Vertex {
	float x, y, z, w;
	float r, g, b, a;
};

// The scene rendered on Tessera with 1 and with 4 worker threads (the
// device's thread pool reads TESSERA_THREADS when it is made; the caller's
// value is put back): attachment 0 of each, checked free of validation
// errors. Output that depends on the thread count shows as a difference.
inline std::vector<std::vector<uint8_t>> RenderWithOneAndFourThreads(const Scene& scene) {
	const char* saved = std::getenv("TESSERA_THREADS");
	const std::string previous = saved ? saved : "";
	std::vector<std::vector<uint8_t>> images;
	SceneFeatures features;
	for (const char* threads : {"1", "4"}) {
		setenv("TESSERA_THREADS", threads, 1);
		auto ctx = Context::Create(Driver::Tessera, features.Options());
		REQUIRE(ctx);
		images.push_back(RenderScene(*ctx, scene).colors[0]);
		CHECK(ctx->validation_errors() == 0);
	}
	if (saved)
		setenv("TESSERA_THREADS", previous.c_str(), 1);
	else
		unsetenv("TESSERA_THREADS");
	return images;
}

// Something other than black (the default clear color's RGB) was drawn in
// layer 0 of attachment 0: a comparison of two blank images proves nothing.
inline bool Drawn(const SceneResult& result, const Scene& s) {
	const std::vector<uint8_t>& c = result.colors[0];
	for (size_t k = 0; k < size_t(s.width) * s.height * 4; k += 4)
		if (c[k] | c[k + 1] | c[k + 2]) return true;
	return false;
}

// A 32x32 scene counting invocations (store_counts.vert; see
// draw_store_test.cpp): a quad from x = -1 to x = right, two triangles, drawn
// once with `fragment` (empty: no fragment stage). The storage buffer holds
// 8 counters, then one per pixel.
inline Scene CountsScene(float right, const std::string& fragment) {
	const std::vector<float> positions = {-1, -1, right, -1, -1, 1, right, -1, right, 1, -1, 1};
	Scene s;
	s.width = s.height = 32;
	s.vertex_shader = "store_counts.vert.spv";
	s.fragment_shader = fragment;
	s.vertices.resize(positions.size() * 4);
	std::memcpy(s.vertices.data(), positions.data(), s.vertices.size());
	s.vertex_stride = 8;
	s.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
	s.storage_data.assign((8 + 32 * 32) * 4, 0);
	s.draws = {DrawCall{6}};
	return s;
}

// scene.vert / scene.frag with Vertex data.
inline Scene ColorScene(const std::vector<Vertex>& vertices) {
	Scene s;
	s.vertex_shader = "scene.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.vertices = Bytes(vertices);
	s.vertex_stride = sizeof(Vertex);
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
	s.clear_color = {{0.1f, 0.2f, 0.3f, 1.0f}};
	return s;
}

// A triangle with one color per vertex (z = depth, w = 1).
inline void Triangle(std::vector<Vertex>& out, float x0, float y0, float x1, float y1, float x2, float y2, float z,
                     float r, float g, float b, float a = 1.0f) {
	out.push_back({x0, y0, z, 1, r, g, b, a});
	out.push_back({x1, y1, z, 1, g, b, r, a});
	out.push_back({x2, y2, z, 1, b, r, g, a});
}

// The depth test LESS with depth writes.
inline void DepthLess(PipelineState& p) {
	p.depth_stencil.depthTestEnable = VK_TRUE;
	p.depth_stencil.depthWriteEnable = VK_TRUE;
	p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
}

// DepthLess, and a stencil that counts the fragments at each sample: ALWAYS
// passes, incremented (and clamped) where the depth test passes, and also
// where it fails with count_hidden.
inline void DepthLessStencilCount(PipelineState& p, bool count_hidden = false) {
	DepthLess(p);
	p.depth_stencil.stencilTestEnable = VK_TRUE;
	p.depth_stencil.front = {VK_STENCIL_OP_KEEP,
	                         VK_STENCIL_OP_INCREMENT_AND_CLAMP,
	                         count_hidden ? VK_STENCIL_OP_INCREMENT_AND_CLAMP : VK_STENCIL_OP_KEEP,
	                         VK_COMPARE_OP_ALWAYS,
	                         0xff,
	                         0xff,
	                         0};
	p.depth_stencil.back = p.depth_stencil.front;
}

// An n x n grid of vertices over [-0.9, 0.9]^2 (row-major), colors from
// their position; slightly skewed so no edge is axis-aligned at a pixel
// center.
inline std::vector<Vertex> Grid(uint32_t n) {
	std::vector<Vertex> out;
	for (uint32_t j = 0; j < n; ++j)
		for (uint32_t i = 0; i < n; ++i) {
			float u = float(i) / float(n - 1), v = float(j) / float(n - 1);
			out.push_back({-0.9f + 1.8f * u + 0.03f * v, -0.9f + 1.8f * v + 0.02f * u, 0.5f, 1, u, v, 1 - u * v, 1});
		}
	return out;
}

// Two triangles per grid cell (cells [c0, c1) of row-major order), as
// indices into Grid(n).
inline std::vector<uint32_t> GridTriangles(uint32_t n) {
	std::vector<uint32_t> out;
	for (uint32_t j = 0; j + 1 < n; ++j)
		for (uint32_t i = 0; i + 1 < n; ++i) {
			uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
			out.insert(out.end(), {a, b, c, c, b, d});
		}
	return out;
}

// A geometry stage's scene: a list of vec4 positions through
// geom_input.vert (a color and the index from gl_VertexIndex), drawn whole.
inline Scene GeometryScene(const std::vector<float>& positions, const char* geometry, const char* fragment) {
	Scene s;
	s.vertex_shader = "geom_input.vert.spv";
	s.geometry_shader = geometry;
	s.fragment_shader = fragment;
	s.vertices = Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{uint32_t(positions.size() / 4), 1, 0, 0, 0}};
	return s;
}

}  // namespace tessera::test::scenes
