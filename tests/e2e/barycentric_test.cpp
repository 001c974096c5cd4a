// VK_KHR_fragment_shader_barycentric (Vulkan "Barycentric Interpolation"):
// a fragment reads gl_BaryCoordEXT or gl_BaryCoordNoPerspEXT, and the
// numbers of its primitive's vertices 0, 1 and 2 through a pervertexEXT
// input (barycentric*.frag). Triangle strips and fans, with the provoking
// vertex first and last, take their vertices in the order of the spec's
// tables (a strip's odd triangles differ by mode, a fan's start at i + 1
// or at 0); vertices with different w make the perspective-correct
// weights differ from the linear ones. Every pixel center at least 0.05
// pixels inside a triangle is compared with the weights computed on the
// host (within 1e-5; the largest difference seen is below 1e-6) and the
// vertex numbers (exactly). Lines: weights (x, 1 - x, 0), and the third
// vertex is the second. With the validation layer. (Lavapipe 22.3 does
// not offer the extension.)
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kSize = 32;

struct WindowVertex {
	float x, y, w;  // window coordinates (pixels) and clip w
};

std::vector<float> ClipPositions(const std::vector<WindowVertex>& vertices) {
	std::vector<float> out;
	for (const WindowVertex& v : vertices) {
		const float half = float(kSize) / 2;
		out.insert(out.end(), {(v.x / half - 1.0f) * v.w, (v.y / half - 1.0f) * v.w, 0.5f * v.w, v.w});
	}
	return out;
}

std::vector<float> Floats(const SceneResult& r) {
	std::vector<float> out(kSize * kSize * 4);
	REQUIRE(r.colors.at(0).size() == out.size() * 4);
	std::memcpy(out.data(), r.colors[0].data(), r.colors[0].size());
	return out;
}

// Checks the pixels inside each triangle (vertex numbers in the order the
// spec's table gives) against the weights computed here; returns how many
// were checked.
uint32_t CheckTriangles(const std::vector<float>& image, const std::vector<WindowVertex>& vertices,
                        const std::vector<std::array<uint32_t, 3>>& triangles, bool perspective) {
	uint32_t checked = 0;
	for (const auto& t : triangles) {
		const WindowVertex &a = vertices[t[0]], &b = vertices[t[1]], &c = vertices[t[2]];
		const double area = (b.x - a.x) * double(c.y - a.y) - (c.x - a.x) * double(b.y - a.y);
		for (uint32_t py = 0; py < kSize; ++py)
			for (uint32_t px = 0; px < kSize; ++px) {
				const double x = px + 0.5, y = py + 0.5;
				// The window-space weights, and each edge's distance in pixels.
				auto edge = [&](const WindowVertex& p, const WindowVertex& q) {
					return ((q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)) / area;
				};
				const double l[3] = {edge(b, c), edge(c, a), edge(a, b)};
				const WindowVertex* opposite[3][2] = {{&b, &c}, {&c, &a}, {&a, &b}};
				bool inside = true;
				for (int k = 0; k < 3; ++k) {
					const double length =
					    std::hypot(opposite[k][1]->x - opposite[k][0]->x, opposite[k][1]->y - opposite[k][0]->y);
					inside &= l[k] * std::abs(area) / length > 0.05;
				}
				if (!inside) continue;
				double weight[3];
				const WindowVertex* v[3] = {&a, &b, &c};
				double sum = 0;
				for (int k = 0; k < 3; ++k) sum += weight[k] = perspective ? l[k] / v[k]->w : l[k];
				const float* pixel = &image[(py * kSize + px) * 4];
				INFO("pixel (" << px << ", " << py << ") of triangle " << t[0] << ", " << t[1] << ", " << t[2]);
				for (int k = 0; k < 3; ++k) CHECK(std::abs(pixel[k] - weight[k] / sum) < 1e-5);
				CHECK(pixel[3] == float(t[0] + 8 * t[1] + 64 * t[2]));
				++checked;
			}
	}
	return checked;
}

Scene BarycentricScene(const std::vector<WindowVertex>& vertices, VkPrimitiveTopology topology, bool perspective) {
	Scene s;
	s.width = s.height = kSize;
	s.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
	s.clear_color = {{-1, -1, -1, -1}};
	s.vertex_shader = "barycentric.vert.spv";
	s.fragment_shader = perspective ? "barycentric.frag.spv" : "barycentric_noperspective.frag.spv";
	s.vertices = Bytes(ClipPositions(vertices));
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {DrawCall{uint32_t(vertices.size())}};
	s.configure = [topology](PipelineState& p) { p.input_assembly.topology = topology; };
	return s;
}

}  // namespace

TEST_CASE("fragment shader barycentric: weights and per-vertex inputs in the spec's vertex order",
          "[draw][barycentric]") {
	SceneFeatures features;
	VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR barycentric{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR};
	VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFragmentShaderBarycentricPropertiesKHR properties{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_PROPERTIES_KHR};
		VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
		vkGetPhysicalDeviceProperties2(probe->physical_device(), &p2);
		// The provoking-last table's odd strip triangles are (i + 1, i, i + 2).
		CHECK(properties.triStripVertexOrderIndependentOfProvokingVertex == VK_FALSE);
	}
	barycentric.fragmentShaderBarycentric = VK_TRUE;
	provoking.provokingVertexLast = VK_TRUE;
	ContextOptions options = features.OptionsWith(&barycentric, VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME);
	provoking.pNext = const_cast<void*>(options.device_features);
	options.device_features = &provoking;
	options.device_extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);

	// A quad as a strip (its odd triangle listed by mode), and four
	// vertices as a fan around vertex 0; w from 1 to 3.
	// (Corners on the 1/256 pixel grid that positions snap to.)
	const std::vector<WindowVertex> strip = {
	    {2.25f, 3.125f, 1.0f}, {29.75f, 2.5f, 2.0f}, {3.375f, 29.25f, 3.0f}, {30.125f, 28.75f, 1.5f}};
	const std::vector<WindowVertex> fan = {
	    {16.25f, 1.25f, 2.5f}, {1.125f, 29.625f, 1.0f}, {16.75f, 30.25f, 3.0f}, {30.25f, 27.875f, 1.25f}};
	for (const bool last : {false, true}) {
		VkPipelineRasterizationProvokingVertexStateCreateInfoEXT mode{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
		mode.provokingVertexMode =
		    last ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
		for (const bool perspective : {true, false}) {
			DYNAMIC_SECTION((last ? "provoking last" : "provoking first")
			                << (perspective ? ", BaryCoord" : ", BaryCoordNoPersp")) {
				auto with_mode = [&](Scene s) {
					auto topology = s.configure;
					s.configure = [topology, &mode](PipelineState& p) {
						topology(p);
						p.rasterization.pNext = &mode;
					};
					return s;
				};
				const auto strip_image = Floats(RenderScene(
				    *ctx, with_mode(BarycentricScene(strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, perspective))));
				const std::vector<std::array<uint32_t, 3>> strip_triangles =
				    last ? std::vector<std::array<uint32_t, 3>>{{0, 1, 2}, {2, 1, 3}}
				         : std::vector<std::array<uint32_t, 3>>{{0, 1, 2}, {1, 3, 2}};
				CHECK(CheckTriangles(strip_image, strip, strip_triangles, perspective) > 500);
				const auto fan_image = Floats(RenderScene(
				    *ctx, with_mode(BarycentricScene(fan, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, perspective))));
				const std::vector<std::array<uint32_t, 3>> fan_triangles =
				    last ? std::vector<std::array<uint32_t, 3>>{{0, 1, 2}, {0, 2, 3}}
				         : std::vector<std::array<uint32_t, 3>>{{1, 2, 0}, {2, 3, 0}};
				CHECK(CheckTriangles(fan_image, fan, fan_triangles, perspective) > 300);
			}
		}
	}

	SECTION("lines: weights (x, 1 - x, 0), vertex 2 is vertex 1") {
		const std::vector<WindowVertex> line = {{2.5f, 4.3f, 1.0f}, {29.5f, 26.7f, 2.0f}};
		const auto image = Floats(RenderScene(*ctx, BarycentricScene(line, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, true)));
		uint32_t written = 0;
		for (uint32_t i = 0; i < kSize * kSize; ++i) {
			const float* pixel = &image[i * 4];
			if (pixel[3] == -1.0f) continue;
			++written;
			INFO("pixel " << i % kSize << ", " << i / kSize);
			CHECK(pixel[3] == float(0 + 8 * 1 + 64 * 1));
			CHECK(pixel[2] == 0.0f);
			CHECK(std::abs(pixel[0] + pixel[1] - 1.0f) < 1e-5);
			CHECK(pixel[0] >= 0.0f);
			CHECK(pixel[1] >= 0.0f);
		}
		CHECK(written > 20);
	}
	CHECK(ctx->validation_errors() == 0);
}
