// Draws that wait in the rasterizer's queue (vk/draw.cpp, raster::Renderer
// Queue and Flush) against lavapipe: many small draws with push constants
// pushed anew before each (read by both stages), a vkCmdClearAttachments
// among them and a second subpass after them, depth tested and blended so
// that a change of order shows. Tolerance 2 codes, as the other scenes, and
// up to 4 pixels on edges: at random positions an edge may pass through a
// sample once snapped to 1/256 pixel, and the drivers break such ties their
// own ways (the same pixel differs with the queue turned off).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kTriangles = 150;

// push_every: push constants pushed before every push_every-th draw (the
// draws between share their fragment stage, and the rasterizer shades their
// quads together).
Scene ManySmallDraws(uint32_t push_every = 1) {
	std::mt19937 rng(5);
	std::uniform_real_distribution<float> pos(-1.0f, 0.85f), unit(0.0f, 1.0f);
	std::vector<Vertex> v;
	for (uint32_t i = 0; i < kTriangles; ++i) {
		const float x = pos(rng), y = pos(rng), size = 0.1f + 0.2f * unit(rng);
		Triangle(v, x, y, x + size, y + 0.3f * size, x + 0.2f * size, y + size, unit(rng), unit(rng), unit(rng),
		         unit(rng), 0.6f);
	}
	Scene s = ColorScene(v);
	s.vertex_shader = "queued.vert.spv";
	s.fragment_shader = "queued.frag.spv";
	s.width = 200;
	s.height = 150;
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.push_constants = Bytes(std::vector<float>{0, 0, 0, 0, 1, 1, 1, 1});
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
		VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
		b.blendEnable = VK_TRUE;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
		b.colorBlendOp = b.alphaBlendOp = VK_BLEND_OP_ADD;
	};
	s.record_draws = [push_every](VkCommandBuffer cb, const Scene::Buffers& b) {
		for (uint32_t i = 0; i < kTriangles; ++i) {
			const float k = float(i - i % push_every) / kTriangles;
			const float push[8] = {0.1f * k, -0.05f * k, 0, 0, 1.0f - 0.5f * k, 0.5f + 0.5f * k, 1, 1};
			if (i % push_every == 0) vkCmdPushConstants(cb, b.layout, b.push_stages, 0, sizeof push, push);
			vkCmdDraw(cb, 3, 1, 3 * i, 0);
			if (i == kTriangles / 2) {  // over what came before, under what follows
				VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
				clear.clearValue.color = {{0.9f, 0.1f, 0.1f, 1.0f}};
				const VkClearRect rect{{{30, 20}, {70, 50}}, 0, 1};
				vkCmdClearAttachments(cb, 1, &clear, 1, &rect);
			}
		}
	};
	return s;
}

}  // namespace

// [threads]: the ThreadSanitizer pass runs it too, for the workers that
// rasterize queued draws while the queue thread sets up the next ones.
TEST_CASE("many small draws with push constants and clears between them match lavapipe", "[draw][threads]") {
	Scene s = ManySmallDraws();
	SECTION("render pass, then a second subpass") {
		// The first 40 triangles again, shifted and tinted by the second
		// subpass's push constants: drawn over the first subpass's.
		s.second_subpass_draws = {{3 * 40, 1, 0, 0, 0}};
		s.second_push_constants = Bytes(std::vector<float>{0.05f, 0.02f, 0, 0, 0.3f, 1, 0.6f, 1});
		const SceneResult ours = CompareSceneWithLavapipe("queued-draws-subpasses", s, 2, 4);
		CHECK(Drawn(ours, s));
	}
	SECTION("dynamic rendering") {
		s.dynamic_rendering = true;
		const SceneResult ours = CompareSceneWithLavapipe("queued-draws-dynamic", s, 2, 4);
		CHECK(Drawn(ours, s));
	}
}

// Runs of draws with the same push constants (and descriptor sets): each
// run's fragments are shaded in shared batches, in order.
TEST_CASE("runs of small draws with the same push constants match lavapipe", "[draw][threads]") {
	Scene s = ManySmallDraws(7);
	const SceneResult ours = CompareSceneWithLavapipe("queued-draws-runs", s, 2, 4);
	CHECK(Drawn(ours, s));
}
