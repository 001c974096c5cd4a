// VK_EXT_multisampled_render_to_single_sampled (Vulkan 1.3 §8.1
// "multisampled-render-to-single-sampled"): single-sampled attachments drawn
// with 4 samples through the driver's implicit images, in render passes and
// in dynamic rendering.
//
// Tolerances: colors 2 codes against lavapipe (draw_scene_helpers.h), and
// exact against Tessera's own explicit 4-sample attachments resolved by the
// same rules (§20.7 average for color, sample 0 for depth and stencil), which
// the implicit images must reproduce. Depth within 2e-4 of lavapipe's: one
// D24 code plus the interpolation slack of draw_depth_test.cpp's
// kSnapSlack; stencil exactly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// Overlapping triangles at three depths with slanted edges, a depth test,
// and a stencil that counts the triangles drawn over each sample.
Scene DepthStencilScene() {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.8f, 0.85f, -0.6f, -0.3f, 0.9f, 0.6f, 1.0f, 0.2f, 0.1f);
	Triangle(v, -0.7f, 0.7f, 0.9f, 0.8f, 0.3f, -0.9f, 0.4f, 0.1f, 0.9f, 0.3f);
	Triangle(v, -0.95f, 0.1f, 0.6f, -0.95f, 0.7f, 0.5f, 0.5f, 0.2f, 0.3f, 1.0f);
	Scene s = ColorScene(v);
	s.width = s.height = 48;
	s.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
	s.clear_depth_stencil = {0.8f, 3};
	s.draws = {{9, 1, 0, 0, 0}};
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	s.configure = [](PipelineState& p) { DepthLessStencilCount(p); };
	return s;
}

double Depth24(const std::vector<uint8_t>& bytes, size_t texel) {
	uint32_t v;
	std::memcpy(&v, &bytes[texel * 4], 4);
	return (v & 0xffffff) / 16777215.0;
}

void CompareDepthStencil(const SceneResult& ours, const SceneResult& reference) {
	REQUIRE(ours.depth.size() == reference.depth.size());
	REQUIRE(!ours.depth.empty());
	double worst = 0;
	for (size_t i = 0; i < ours.depth.size() / 4; ++i)
		worst = std::max(worst, std::fabs(Depth24(ours.depth, i) - Depth24(reference.depth, i)));
	CHECK(worst <= 2e-4);
	CHECK(ours.stencil == reference.stencil);
}

// Pixels whose color is neither the clear color nor a color a 1-sample draw
// gives there: the edges, where 4 samples blend. Proof that the scene was
// rasterized with more than one sample.
uint32_t BlendedPixels(const SceneResult& multi, const SceneResult& single) {
	uint32_t blended = 0;
	for (size_t p = 0; p < multi.colors[0].size(); p += 4)
		if (std::memcmp(&multi.colors[0][p], &single.colors[0][p], 4) != 0) ++blended;
	return blended;
}

}  // namespace

TEST_CASE("rendering to single-sampled attachments with 4 samples matches explicit attachments and lavapipe",
          "[draw][msaa][single_sampled]") {
	ScenePair pair;
	for (bool dynamic : {false, true}) {
		CAPTURE(dynamic);
		Scene s = DepthStencilScene();
		s.dynamic_rendering = dynamic;
		// Explicit 4-sample attachments resolved into single-sampled ones.
		s.resolve_depth_stencil = true;
		const SceneResult explicit_msaa = RenderScene(pair.tessera(), s);
		s.render_to_single_sampled = true;
		s.resolve_depth_stencil = false;
		auto [ours, reference] = pair.Render(s);
		const std::string name = dynamic ? "single-sampled-dynamic" : "single-sampled-pass";
		CompareImages(name, s.width, s.height, ours.colors[0], reference.colors[0], 2);
		CompareDepthStencil(ours, reference);
		CHECK(ours.colors[0] == explicit_msaa.colors[0]);
		CHECK(ours.depth == explicit_msaa.depth);
		CHECK(ours.stencil == explicit_msaa.stencil);
		// Not merely a 1-sample draw: edges blend.
		s.samples = VK_SAMPLE_COUNT_1_BIT;
		const SceneResult single = RenderScene(pair.tessera(), s);
		CHECK(BlendedPixels(ours, single) > 20);
	}
}

TEST_CASE("rendering to single-sampled attachments loads every sample from the attachment",
          "[draw][msaa][single_sampled]") {
	// LOAD replicates each pixel into the 4 samples: where no triangle
	// covers a sample the resolve gives the loaded value back exactly, and
	// the depth test runs against the loaded depth (0.45 hides the two
	// farther triangles; only the nearest draws).
	ScenePair pair;
	for (bool dynamic : {false, true}) {
		CAPTURE(dynamic);
		Scene s = DepthStencilScene();
		s.dynamic_rendering = dynamic;
		s.render_to_single_sampled = true;
		s.load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
		s.clear_color = {{0.25f, 0.5f, 0.75f, 1.0f}};
		s.clear_depth_stencil = {0.45f, 7};
		auto [ours, reference] = pair.Render(s);
		const std::string name = dynamic ? "single-sampled-load-dynamic" : "single-sampled-load-pass";
		CompareImages(name, s.width, s.height, ours.colors[0], reference.colors[0], 2);
		CompareDepthStencil(ours, reference);
		// The corner pixel is outside every triangle: loaded, resolved back.
		const uint8_t loaded[4] = {64, 128, 191, 255};
		CHECK(std::memcmp(ours.colors[0].data(), loaded, 4) == 0);
		CHECK(Depth24(ours.depth, 0) == Approx(0.45).margin(1e-6));
		CHECK(ours.stencil[0] == 7);
		// The nearest triangle (z 0.4) was drawn; the others were not.
		uint32_t loaded_pixels = 0;
		for (size_t p = 0; p < ours.colors[0].size(); p += 4)
			loaded_pixels += std::memcmp(&ours.colors[0][p], loaded, 4) == 0;
		CHECK(loaded_pixels < s.width * s.height);
		CHECK(loaded_pixels > s.width * s.height / 4);
	}
}

TEST_CASE("rendering to single-sampled layered attachments resolves every layer", "[draw][msaa][single_sampled]") {
	// Two layers: draws reach layer 0; layer 1 keeps its clear, which the
	// implicit image must carry through its resolve unchanged (a clear to
	// k/255 is exact on both drivers).
	ScenePair pair;
	Scene s = DepthStencilScene();
	s.render_to_single_sampled = true;
	s.layers = 2;
	s.clear_color = {{51 / 255.0f, 102 / 255.0f, 153 / 255.0f, 1.0f}};
	auto [ours, reference] = pair.Render(s);
	const size_t layer_bytes = size_t(s.width) * s.height * 4;
	REQUIRE(ours.colors[0].size() == layer_bytes * 2);
	CompareImages("single-sampled-layers", s.width, s.height * 2, ours.colors[0], reference.colors[0], 2);
	CHECK(std::equal(ours.colors[0].begin() + layer_bytes, ours.colors[0].end(),
	                 reference.colors[0].begin() + layer_bytes));
}
