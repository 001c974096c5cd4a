// VK_EXT_fragment_shader_interlock, pixel_interlock_ordered: 48 overlapping
// triangles in one draw, each fragment folding its primitive into its
// pixel's word with a plain read-modify-write in the critical section
// (interlock_pixel.frag: h = h * 31 + gl_PrimitiveID + 1). Ordered
// exclusive sections make every word the fold of the triangles covering
// its pixel, in order; the words are compared with that fold computed on
// the host, exactly. Triangles of 12.3125 pixels on a side at whole-pixel
// corners: no sample lies on an edge, so coverage is unambiguous. Once a
// pixel (1 sample), and once a covered sample at 4x with sample shading
// (interlock_pixel_samples.frag reads gl_SampleID), where the pixel's
// sample invocations must be kept apart too. With the validation layer.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kSize = 32, kTriangles = 48;
constexpr float kSide = 12.3125f;

float Corner(uint32_t t, bool y) { return float(y ? (t * 7) % 20 : (t * 5) % 20); }

// The words the ordered fold leaves, sampling each pixel at `positions`.
std::vector<uint32_t> Expected(const std::vector<std::pair<float, float>>& positions) {
	std::vector<uint32_t> words(kSize * kSize, 0);
	for (uint32_t t = 0; t < kTriangles; ++t) {
		const float x0 = Corner(t, false), y0 = Corner(t, true);
		for (uint32_t j = 0; j < kSize; ++j)
			for (uint32_t i = 0; i < kSize; ++i)
				for (const auto& [sx, sy] : positions) {
					const float x = float(i) + sx - x0, y = float(j) + sy - y0;
					if (x > 0 && y > 0 && x + y < kSide) words[j * kSize + i] = words[j * kSize + i] * 31u + t + 1;
				}
	}
	return words;
}

Scene InterlockScene(const char* fragment) {
	Scene s;
	s.width = s.height = kSize;
	s.vertex_shader = "draw_ids.vert.spv";
	s.fragment_shader = fragment;
	std::vector<float> positions;
	auto ndc = [](float pixels) { return pixels / float(kSize / 2) - 1.0f; };
	for (uint32_t t = 0; t < kTriangles; ++t) {
		const float x0 = Corner(t, false), y0 = Corner(t, true);
		positions.insert(positions.end(), {ndc(x0), ndc(y0), 0.5f, 1, ndc(x0 + kSide), ndc(y0), 0.5f, 1, ndc(x0),
		                                   ndc(y0 + kSide), 0.5f, 1});
	}
	s.vertices = Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.storage_data.assign(kSize * kSize * 4, 0);
	s.draws = {DrawCall{3 * kTriangles}};
	return s;
}

}  // namespace

TEST_CASE("fragment shader interlock: ordered critical sections fold overlapping triangles in order",
          "[draw][interlock]") {
	SceneFeatures features;
	VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT interlock{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &interlock};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(interlock.fragmentShaderPixelInterlock == VK_TRUE);
		REQUIRE(interlock.fragmentShaderSampleInterlock == VK_TRUE);
		CHECK(interlock.fragmentShaderShadingRateInterlock == VK_FALSE);  // no fragment shading rates
	}
	interlock.fragmentShaderSampleInterlock = VK_FALSE;
	interlock.fragmentShaderShadingRateInterlock = VK_FALSE;
	auto ctx = Context::Create(Driver::Tessera,
	                           features.OptionsWith(&interlock, VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME));
	REQUIRE(ctx);
	auto words_of = [](const SceneResult& r) {
		std::vector<uint32_t> words(kSize * kSize);
		REQUIRE(r.storage.size() == words.size() * 4);
		std::memcpy(words.data(), r.storage.data(), r.storage.size());
		return words;
	};
	SECTION("once a pixel") {
		const SceneResult r = RenderScene(*ctx, InterlockScene("interlock_pixel.frag.spv"));
		CHECK(words_of(r) == Expected({{0.5f, 0.5f}}));
	}
	SECTION("once a covered sample, 4x") {
		Scene s = InterlockScene("interlock_pixel_samples.frag.spv");
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		const SceneResult r = RenderScene(*ctx, s);
		// The standard 4-sample locations (Vulkan "Multisampling").
		CHECK(words_of(r) == Expected({{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}}));
	}
	CHECK(ctx->validation_errors() == 0);
}
