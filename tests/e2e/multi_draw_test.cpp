// VK_EXT_multi_draw against lavapipe: vkCmdDrawMultiEXT and
// vkCmdDrawMultiIndexedEXT with a stride wider than the info structure,
// instancing, per-draw vertex offsets and the shared pVertexOffset. draw_ids
// writes gl_VertexIndex, gl_InstanceIndex, gl_BaseVertex, gl_BaseInstance and
// gl_DrawID (which counts the draws of the list) as flat integers converted
// exactly, so the images compare with tolerance 0.
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

struct MultiDrawContexts {
	SceneFeatures features;
	VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	MultiDrawContexts() {
		ContextOptions options = features.Options();
		multi_draw.multiDraw = VK_TRUE;
		multi_draw.pNext = const_cast<void*>(options.device_features);
		options.device_features = &multi_draw;
		options.device_extensions.push_back(VK_EXT_MULTI_DRAW_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

// Twelve small triangles on a grid, as the indirect draw tests use.
Scene IdsScene() {
	std::vector<float> positions;
	for (int i = 0; i < 12; ++i) {
		float x = -0.95f + 0.3f * float(i % 3), y = -0.95f + 0.45f * float(i / 3);
		positions.insert(positions.end(),
		                 {x, y, 0.5f, 1, x + 0.25f, y + 0.05f, 0.5f, 1, x + 0.05f, y + 0.35f, 0.5f, 1});
	}
	Scene s;
	s.vertex_shader = "draw_ids.vert.spv";
	s.fragment_shader = "draw_ids.frag.spv";
	s.vertices = scenes::Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	return s;
}

size_t DistinctPixels(const std::vector<uint8_t>& rgba) {
	std::set<uint32_t> seen;
	for (size_t i = 0; i + 4 <= rgba.size(); i += 4)
		seen.insert(uint32_t(rgba[i]) | uint32_t(rgba[i + 1]) << 8 | uint32_t(rgba[i + 2]) << 16 |
		            uint32_t(rgba[i + 3]) << 24);
	return seen.size();
}

}  // namespace

TEST_CASE("VK_EXT_multi_draw: draw lists number their draws in gl_DrawID as on lavapipe", "[draw][multi_draw]") {
	MultiDrawContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	VkPhysicalDeviceMultiDrawPropertiesEXT properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
	vkGetPhysicalDeviceProperties2(ctx.tessera->physical_device(), &p2);
	CHECK(properties.maxMultiDrawCount >= 1024);  // the spec's minimum

	// The entry point of the context being recorded into.
	PFN_vkCmdDrawMultiEXT draw_multi = nullptr;
	PFN_vkCmdDrawMultiIndexedEXT draw_multi_indexed = nullptr;
	auto render = [&](Context& c, const Scene& s) {
		draw_multi = c.Proc<PFN_vkCmdDrawMultiEXT>("vkCmdDrawMultiEXT");
		draw_multi_indexed = c.Proc<PFN_vkCmdDrawMultiIndexedEXT>("vkCmdDrawMultiIndexedEXT");
		REQUIRE(draw_multi);
		REQUIRE(draw_multi_indexed);
		return RenderScene(c, s);
	};

	SECTION("vkCmdDrawMultiEXT") {
		Scene s = IdsScene();
		s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
			// Infos 12 bytes apart (8 + 4 of padding).
			struct Padded {
				VkMultiDrawInfoEXT info;
				uint32_t padding;
			};
			const Padded infos[] = {{{0, 3}, 0}, {{9, 6}, 0}, {{21, 3}, 0}, {{30, 6}, 0}};
			draw_multi(cb, 4, &infos[0].info, 2, 1, sizeof(Padded));
			draw_multi(cb, 0, nullptr, 1, 0, sizeof(Padded));  // no draws
		};
		const SceneResult ours = render(*ctx.tessera, s);
		const SceneResult reference = render(*ctx.lavapipe, s);
		CompareImages("multi-draw", s.width, s.height, ours.colors[0], reference.colors[0], 0);
		CHECK(DistinctPixels(reference.colors[0]) > 8);  // the draws left distinct ids
	}
	SECTION("vkCmdDrawMultiIndexedEXT, with and without a shared vertex offset") {
		Scene s = IdsScene();
		s.indices = {5, 6, 7, 2, 1, 0, 11, 10, 9, 20, 21, 22, 33, 34, 35};
		s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {  // the scene binds the indices
			const VkMultiDrawIndexedInfoEXT infos[] = {{0, 6, -2}, {6, 3, 3}, {12, 3, -30}};
			draw_multi_indexed(cb, 3, infos, 1, 4, sizeof(VkMultiDrawIndexedInfoEXT), nullptr);
			const int32_t shared = 1;
			draw_multi_indexed(cb, 2, infos, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), &shared);
		};
		const SceneResult ours = render(*ctx.tessera, s);
		const SceneResult reference = render(*ctx.lavapipe, s);
		CompareImages("multi-draw-indexed", s.width, s.height, ours.colors[0], reference.colors[0], 0);
		CHECK(DistinctPixels(reference.colors[0]) > 4);
	}
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
}
