// Subgroup operations in every graphics stage (subgroupSupportedStages),
// quad operations too outside the fragment stage
// (subgroupQuadOperationsInAllStages), through the loader with the
// validation layer on. Which invocations share a subgroup is the implementation's, so the
// shaders check rules that hold for any grouping (subgroup_invariants.*)
// and write 255 when all do. Lavapipe 22.3 runs subgroups in fragment
// shaders too, and draws the same image; its vertex stage has none.
#include <catch2/catch.hpp>

#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// A grid of small triangles: many partly covered quads (helper
// invocations) and primitives sharing subgroups.
Scene GridScene() {
	Scene s = ColorScene(Grid(9));
	s.indices = GridTriangles(9);
	s.draws = {{uint32_t(s.indices.size()), 1, 0, 0, 0}};
	return s;
}

// Pixels whose red is 255 (every rule held); fails on any other red but the
// clear color's (single-sample scenes: resolved edge pixels mix the two).
uint32_t PassingPixels(const char* driver, const SceneResult& r, const Scene& s) {
	const uint8_t clear_red = uint8_t(s.clear_color.float32[0] * 255.0f + 0.5f);
	uint32_t passing = 0, failing = 0;
	size_t first = 0;
	for (size_t i = 0; i < size_t(s.width) * s.height; ++i) {
		const uint8_t red = r.colors[0][i * 4];
		passing += red == 255;
		if (red != 255 && red != clear_red && failing++ == 0) first = i;
	}
	INFO(driver << ": first failing pixel " << first % s.width << ", " << first / s.width << ": rule bits "
	            << int(r.colors[0][first * 4]));
	if (s.samples == VK_SAMPLE_COUNT_1_BIT) CHECK(failing == 0);
	return passing;
}

VkShaderStageFlags SupportedStages(Context& ctx) {
	VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
	vkGetPhysicalDeviceProperties2(ctx.physical_device(), &p);
	return subgroup.supportedStages;
}

}  // namespace

TEST_CASE("subgroup operations in fragment shaders hold their rules and match lavapipe", "[draw][subgroup]") {
	ScenePair pair;
	CHECK((SupportedStages(pair.tessera()) & VK_SHADER_STAGE_FRAGMENT_BIT) != 0);
	REQUIRE((SupportedStages(pair.lavapipe()) & VK_SHADER_STAGE_FRAGMENT_BIT) != 0);
	Scene s = GridScene();
	s.fragment_shader = "subgroup_invariants.frag.spv";
	auto [ours, theirs] = pair.Render(s);
	CHECK(PassingPixels("Tessera", ours, s) > 1000);
	CHECK(PassingPixels("lavapipe", theirs, s) > 1000);
	CompareImages("subgroup-fragment", s.width, s.height, ours.colors[0], theirs.colors[0], 1);
	// Four samples, one invocation a pixel: the same rules inside the
	// triangles, and lavapipe's image (which holds them) at the edges.
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	auto [ours4, theirs4] = pair.Render(s);
	CHECK(PassingPixels("Tessera", ours4, s) > 1000);
	CompareImages("subgroup-fragment-msaa", s.width, s.height, ours4.colors[0], theirs4.colors[0], 1);
}

TEST_CASE("subgroup operations in vertex shaders hold their rules", "[draw][subgroup]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	CHECK((SupportedStages(*ctx) & VK_SHADER_STAGE_VERTEX_BIT) != 0);
	Scene s = GridScene();
	s.vertex_shader = "subgroup_invariants.vert.spv";
	s.fragment_shader = "subgroup_flat.frag.spv";
	const SceneResult r = RenderScene(*ctx, s);
	CHECK(PassingPixels("Tessera", r, s) > 1000);
	// More vertices than one batch of the vertex stage: subgroups in many runs.
	Scene big = ColorScene(Grid(40));
	big.indices = GridTriangles(40);
	big.draws = {{uint32_t(big.indices.size()), 1, 0, 0, 0}};
	big.vertex_shader = s.vertex_shader;
	big.fragment_shader = s.fragment_shader;
	CHECK(PassingPixels("Tessera", RenderScene(*ctx, big), big) > 1000);
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}

TEST_CASE("subgroup operations in geometry and tessellation shaders hold their rules", "[draw][subgroup]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	const VkShaderStageFlags geometry_and_tessellation = VK_SHADER_STAGE_GEOMETRY_BIT |
	                                                     VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
	                                                     VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
	CHECK((SupportedStages(*ctx) & geometry_and_tessellation) == geometry_and_tessellation);
	VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p);
	CHECK(subgroup.quadOperationsInAllStages == VK_TRUE);
	SECTION("geometry") {
		// 128 triangles: the geometry stage's invocations fill several subgroups.
		Scene s = GridScene();
		s.geometry_shader = "subgroup_invariants.geom.spv";
		s.fragment_shader = "subgroup_flat.frag.spv";
		CHECK(PassingPixels("Tessera", RenderScene(*ctx, s), s) > 1000);
	}
	SECTION("tessellation control and evaluation") {
		Scene s = GridScene();
		s.tess_control_shader = "subgroup_invariants.tesc.spv";
		s.tess_eval_shader = "subgroup_invariants.tese.spv";
		s.fragment_shader = "subgroup_flat.frag.spv";
		s.configure = [](PipelineState& ps) { ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; };
		CHECK(PassingPixels("Tessera", RenderScene(*ctx, s), s) > 1000);
	}
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}
