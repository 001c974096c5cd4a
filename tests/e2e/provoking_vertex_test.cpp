// VK_EXT_provoking_vertex against lavapipe: the feature and properties, and
// flat outputs of lists, strips, fans and lines taken from the last vertex
// (Vulkan 1.3 §21.1 provoking vertex table, last-vertex column). draw_ids
// writes the provoking vertex's gl_VertexIndex as a flat integer converted
// exactly (k/255), so the images compare with tolerance 0.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

struct ProvokingContexts {
	SceneFeatures features;
	VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	ProvokingContexts() {
		ContextOptions options = features.Options();
		provoking.provokingVertexLast = VK_TRUE;
		provoking.pNext = const_cast<void*>(options.device_features);
		options.device_features = &provoking;
		options.device_extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

Scene IdsScene(const std::vector<float>& positions, VkPrimitiveTopology topology,
               const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT* mode) {
	Scene s;
	s.vertex_shader = "draw_ids.vert.spv";
	s.fragment_shader = "draw_ids.frag.spv";
	s.vertices = scenes::Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{uint32_t(positions.size() / 4), 1, 0, 0, 0}};
	s.configure = [topology, mode](PipelineState& ps) {
		ps.input_assembly.topology = topology;
		ps.rasterization.pNext = mode;
	};
	return s;
}

}  // namespace

TEST_CASE("VK_EXT_provoking_vertex: reported, and flat outputs come from the last vertex as on lavapipe", "[draw]") {
	ProvokingContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);

	VkPhysicalDeviceProvokingVertexFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx.tessera->physical_device(), &f2);
	CHECK(features.provokingVertexLast == VK_TRUE);
	// Captures keep the provoking vertex (transform_feedback_test.cpp checks the order).
	CHECK(features.transformFeedbackPreservesProvokingVertex == VK_TRUE);
	VkPhysicalDeviceProvokingVertexPropertiesEXT props{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
	vkGetPhysicalDeviceProperties2(ctx.tessera->physical_device(), &p2);
	CHECK(props.provokingVertexModePerPipeline == VK_TRUE);
	CHECK(props.transformFeedbackPreservesTriangleFanProvokingVertex == VK_TRUE);

	// A strip of 10 vertices zig-zagging along the bottom, a fan of 7 above.
	std::vector<float> strip, fan;
	for (int i = 0; i < 10; ++i) strip.insert(strip.end(), {-0.9f + 0.18f * float(i), (i & 1) ? 0.1f : -0.7f, 0.5f, 1});
	fan.insert(fan.end(), {0.0f, 0.5f, 0.5f, 1});
	for (int i = 0; i < 6; ++i) {
		float a = 0.4f + float(i) * 0.45f;
		fan.insert(fan.end(), {0.8f * std::cos(a), 0.5f + 0.45f * std::sin(a), 0.5f, 1});
	}
	VkPipelineRasterizationProvokingVertexStateCreateInfoEXT last{
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
	last.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
	VkPipelineRasterizationProvokingVertexStateCreateInfoEXT first = last;
	first.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;

	struct Case {
		const char* name;
		const std::vector<float>* positions;
		VkPrimitiveTopology topology;
	};
	const Case cases[] = {
	    {"strip", &strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP},
	    {"fan", &fan, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN},
	    {"list", &strip, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST},  // 9 of the strip's vertices: 3 triangles
	    {"line-strip", &strip, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP},
	    {"line-list", &strip, VK_PRIMITIVE_TOPOLOGY_LINE_LIST},
	};
	for (const Case& c : cases) {
		CAPTURE(c.name);
		Scene s_last = IdsScene(*c.positions, c.topology, &last);
		if (c.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) s_last.draws[0].count = 9;
		const SceneResult ours = RenderScene(*ctx.tessera, s_last);
		const SceneResult reference = RenderScene(*ctx.lavapipe, s_last);
		CompareImages(std::string("provoking-last-") + c.name, 64, 64, ours.colors[0], reference.colors[0], 0);
		// The mode must matter for this scene, or the comparison shows nothing.
		Scene s_first = IdsScene(*c.positions, c.topology, &first);
		if (c.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) s_first.draws[0].count = 9;
		CHECK(RenderScene(*ctx.lavapipe, s_first).colors[0] != reference.colors[0]);
	}
	// A geometry stage that passes its input triangles through: in
	// last-vertex mode the rasterized strips' provoking vertex must be the
	// input's, so strip and fan triangles reach the stage with it last, as
	// on lavapipe (piglit's gs-also-uses-smooth-flat-noperspective through
	// Zink drew a fan's first vertex's flat value).
	for (const Case& c : {cases[0], cases[1]}) {
		for (const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT* mode : {&first, &last}) {
			CAPTURE(c.name, mode == &last);
			Scene s = IdsScene(*c.positions, c.topology, mode);
			s.geometry_shader = "draw_ids_strip.geom.spv";
			const SceneResult ours = RenderScene(*ctx.tessera, s);
			const SceneResult reference = RenderScene(*ctx.lavapipe, s);
			CompareImages(std::string("provoking-geometry-") + c.name + (mode == &last ? "-last" : "-first"), 64, 64,
			              ours.colors[0], reference.colors[0], 0);
		}
	}
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
}
