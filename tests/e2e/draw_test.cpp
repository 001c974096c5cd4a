// Draws through graphics pipelines, end to end: the same scene on Tessera
// and on lavapipe through the loader with validation on, images compared.
//
// Tolerances: rasterization (which pixels a triangle covers) must agree
// exactly - both drivers use 8 sub-pixel bits and the spec's coverage rule
// (Vulkan 1.3 §28.7.1) leaves only the tie-break on shared edges free, which
// these scenes avoid or state. Interpolated colors may differ by a code or
// two: §28.7.4 lets implementations interpolate within their own precision
// and §3.10.2 lets the UNORM conversion round either way.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "render_scene.h"

using namespace tessera::test;

namespace {

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> out(values.size() * sizeof(T));
	std::memcpy(out.data(), values.data(), out.size());
	return out;
}

// triangle.vert: vec2 position at location 0, vec3 color at location 1.
Scene TriangleScene() {
	Scene s;
	s.vertex_shader = "triangle.vert.spv";
	s.fragment_shader = "triangle.frag.spv";
	s.vertices = Bytes(std::vector<float>{
	    -0.8f, -0.7f, 1, 0, 0,  //
	    0.7f, -0.5f, 0, 1, 0,   //
	    -0.1f, 0.8f, 0, 0, 1,   //
	});
	s.vertex_stride = 5 * sizeof(float);
	s.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 8}};
	s.clear_color = {{0.1f, 0.2f, 0.3f, 1.0f}};
	return s;
}

}  // namespace

TEST_CASE("a triangle through a render pass matches lavapipe", "[draw]") {
	CompareSceneWithLavapipe("triangle", TriangleScene(), 2);
}

TEST_CASE("a triangle through dynamic rendering matches lavapipe", "[draw]") {
	Scene s = TriangleScene();
	s.dynamic_rendering = true;
	CompareSceneWithLavapipe("triangle-dynamic", s, 2);
}
