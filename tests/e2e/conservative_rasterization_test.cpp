// VK_EXT_conservative_rasterization (Vulkan "Conservative Rasterization"):
// overestimated, a pixel is covered, every sample of it, when any part of
// its square (edges and corners included) touches the triangle;
// underestimated, when the triangle holds the whole square. One triangle
// with vertices on the 1/8-pixel grid (so snapping moves nothing) over
// 32x32 pixels, white on black: the pixels must be those the rule gives,
// worked out here on the host with the separating-axis test (a square and
// a triangle meet unless one of the square's axes or one of the
// triangle's edges separates them). With an extra size the covered set must
// hold the exact one and stay inside the pixels touching the triangle's box
// grown by that size. The pipeline's state and the dynamic state
// (VK_EXT_extended_dynamic_state3), 1 and 4 samples, with the validation
// layer on. Lavapipe 22.3 lacks the extension, so the rule is the
// reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kSize = 32;
// Pixel coordinates of the vertices.
constexpr double kX[3] = {3.375, 27.625, 10.125}, kY[3] = {2.625, 9.25, 29.5};

// The edge function of edge e (from vertex e to e + 1) at (x, y), positive
// inside.
double Edge(int e, double x, double y) {
	const int a = e, b = (e + 1) % 3, c = (e + 2) % 3;
	const double f = (kX[b] - kX[a]) * (y - kY[a]) - (kY[b] - kY[a]) * (x - kX[a]);
	const double inside = (kX[b] - kX[a]) * (kY[c] - kY[a]) - (kY[b] - kY[a]) * (kX[c] - kX[a]);
	return inside > 0 ? f : -f;
}

bool Touches(uint32_t px, uint32_t py) {
	const double x0 = px, y0 = py, x1 = px + 1.0, y1 = py + 1.0;
	if (x1 < *std::min_element(kX, kX + 3) || x0 > *std::max_element(kX, kX + 3) ||
	    y1 < *std::min_element(kY, kY + 3) || y0 > *std::max_element(kY, kY + 3))
		return false;
	for (int e = 0; e < 3; ++e)
		if (std::max({Edge(e, x0, y0), Edge(e, x1, y0), Edge(e, x0, y1), Edge(e, x1, y1)}) < 0) return false;
	return true;
}

bool Holds(uint32_t px, uint32_t py) {
	const double x0 = px, y0 = py, x1 = px + 1.0, y1 = py + 1.0;
	for (int e = 0; e < 3; ++e)
		if (std::min({Edge(e, x0, y0), Edge(e, x1, y0), Edge(e, x0, y1), Edge(e, x1, y1)}) <= 0) return false;
	return true;
}

// Pixels touching the triangle's box grown by `grow` pixels.
bool NearBox(uint32_t px, uint32_t py, double grow) {
	return px + 1.0 >= *std::min_element(kX, kX + 3) - grow && px <= *std::max_element(kX, kX + 3) + grow &&
	       py + 1.0 >= *std::min_element(kY, kY + 3) - grow && py <= *std::max_element(kY, kY + 3) + grow;
}

}  // namespace

TEST_CASE("VK_EXT_conservative_rasterization: over- and underestimated triangles cover the pixels the rule gives",
          "[draw][conservative]") {
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	eds3.extendedDynamicState3ConservativeRasterizationMode = VK_TRUE;
	eds3.extendedDynamicState3ExtraPrimitiveOverestimationSize = VK_TRUE;
	ContextOptions options = features.OptionsWith(&eds3, VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
	options.device_extensions.push_back(VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceConservativeRasterizationPropertiesEXT props{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	REQUIRE(props.primitiveUnderestimation == VK_TRUE);
	REQUIRE(props.maxExtraPrimitiveOverestimationSize >= 1.0f);
	auto set_mode = ctx->Proc<PFN_vkCmdSetConservativeRasterizationModeEXT>("vkCmdSetConservativeRasterizationModeEXT");
	auto set_extra =
	    ctx->Proc<PFN_vkCmdSetExtraPrimitiveOverestimationSizeEXT>("vkCmdSetExtraPrimitiveOverestimationSizeEXT");
	REQUIRE(set_mode);
	REQUIRE(set_extra);

	std::vector<Vertex> v;
	auto ndc = [](double p) { return float(p / 16.0 - 1.0); };
	Triangle(v, ndc(kX[0]), ndc(kY[0]), ndc(kX[1]), ndc(kY[1]), ndc(kX[2]), ndc(kY[2]), 0.5f, 1, 1, 1);
	struct Case {
		std::string name;
		VkConservativeRasterizationModeEXT mode;
		float extra;
		bool dynamic;
		VkSampleCountFlagBits samples;
	};
	constexpr auto kOver = VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT;
	constexpr auto kUnder = VK_CONSERVATIVE_RASTERIZATION_MODE_UNDERESTIMATE_EXT;
	const Case cases[] = {
	    {"overestimate", kOver, 0.0f, false, VK_SAMPLE_COUNT_1_BIT},
	    {"overestimate 4 samples", kOver, 0.0f, false, VK_SAMPLE_COUNT_4_BIT},
	    {"overestimate dynamic", kOver, 0.0f, true, VK_SAMPLE_COUNT_1_BIT},
	    {"overestimate extra 1", kOver, 1.0f, false, VK_SAMPLE_COUNT_1_BIT},
	    {"overestimate extra 1 dynamic", kOver, 1.0f, true, VK_SAMPLE_COUNT_4_BIT},
	    {"underestimate", kUnder, 0.0f, false, VK_SAMPLE_COUNT_1_BIT},
	    {"underestimate 4 samples dynamic", kUnder, 0.0f, true, VK_SAMPLE_COUNT_4_BIT},
	};
	for (const Case& c : cases) {
		CAPTURE(c.name);
		Scene s = ColorScene(v);
		s.width = s.height = kSize;
		s.clear_color = {{0, 0, 0, 1}};
		s.samples = c.samples;
		s.draws = {{3, 1, 0, 0, 0}};
		VkPipelineRasterizationConservativeStateCreateInfoEXT conservative{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT};
		// Where the state is dynamic the structure says the opposite.
		conservative.conservativeRasterizationMode =
		    c.dynamic ? VK_CONSERVATIVE_RASTERIZATION_MODE_DISABLED_EXT : c.mode;
		conservative.extraPrimitiveOverestimationSize = c.dynamic ? 0.0f : c.extra;
		s.configure = [&](PipelineState& p) {
			p.rasterization.pNext = &conservative;
			if (c.dynamic) {
				p.dynamic_states.push_back(VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT);
				p.dynamic_states.push_back(VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT);
			}
		};
		if (c.dynamic)
			s.before_draws = [&](VkCommandBuffer cb) {
				set_mode(cb, c.mode);
				set_extra(cb, c.extra);
			};
		const SceneResult r = RenderScene(*ctx, s);
		REQUIRE(r.colors[0].size() == size_t(kSize) * kSize * 4);
		uint32_t wrong = 0, partial = 0, covered = 0;
		for (uint32_t y = 0; y < kSize; ++y)
			for (uint32_t x = 0; x < kSize; ++x) {
				const uint8_t value = r.colors[0][4 * (y * kSize + x)];
				if (value != 0 && value != 255) ++partial;  // every sample or none
				const bool white = value == 255;
				covered += white;
				if (c.mode == kUnder)
					wrong += white != Holds(x, y);
				else if (c.extra == 0.0f)
					wrong += white != Touches(x, y);
				else
					wrong += (Touches(x, y) && !white) || (white && !NearBox(x, y, c.extra));
			}
		CHECK(wrong == 0);
		CHECK(partial == 0);
		CHECK(covered > 100);
	}
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}
