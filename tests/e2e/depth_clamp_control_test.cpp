// VK_EXT_depth_clamp_control: with depthClampEnable, z_f is clamped to a
// user-defined range (VkPipelineViewportDepthClampControlCreateInfoEXT, or
// vkCmdSetDepthClampRangeEXT where the pipeline declares
// VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT) instead of the viewport's (Vulkan
// "Depth Clamping and Range Adjustment"). Three triangles at z_d = -0.5,
// 0.3 and 1.5 over a D32_SFLOAT attachment, written with ALWAYS: the depths
// must be the clamped ones the spec names. Tessera alone, without the
// validation layer: lavapipe 22.3 and the layer's 1.3.239 release predate
// the extension (the CTS's draw.*clamp_control* cases are the wider check).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// The depth at pixel (x, y) of a tightly packed D32_SFLOAT readback.
float DepthAt(const SceneResult& r, uint32_t width, uint32_t x, uint32_t y) {
	float d;
	std::memcpy(&d, &r.depth[4 * (size_t(y) * width + x)], 4);
	return d;
}

}  // namespace

TEST_CASE("VK_EXT_depth_clamp_control: depths clamp to the user-defined range, static or dynamic",
          "[draw][depth][depth_clamp_control]") {
	SceneFeatures features;
	VkPhysicalDeviceDepthClampControlFeaturesEXT control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_CONTROL_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &control};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(control.depthClampControl == VK_TRUE);
	}
	ContextOptions options = features.OptionsWith(&control, VK_EXT_DEPTH_CLAMP_CONTROL_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto set_range = ctx->Proc<PFN_vkCmdSetDepthClampRangeEXT>("vkCmdSetDepthClampRangeEXT");
	REQUIRE(set_range);

	// Left third z_d = -0.5, middle 0.3, right 1.5 (clipping off with the clamp).
	std::vector<Vertex> v;
	const float z[3] = {-0.5f, 0.3f, 1.5f};
	for (int k = 0; k < 3; ++k) {
		const float x0 = -1.0f + 2.0f * float(k) / 3.0f, x1 = x0 + 2.0f / 3.0f;
		Triangle(v, x0, -1.0f, x1, -1.0f, x0, 1.0f, z[k], 1, 1, 1);
		Triangle(v, x1, -1.0f, x1, 1.0f, x0, 1.0f, z[k], 1, 1, 1);
	}
	enum class Mode { kViewport, kStatic, kDynamic, kDynamicViewport };
	for (Mode mode : {Mode::kViewport, Mode::kStatic, Mode::kDynamic, Mode::kDynamicViewport}) {
		CAPTURE(int(mode));
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.clear_depth_stencil = {1.0f, 0};
		s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
		s.viewport = VkViewport{0, 0, 64, 64, 0.1f, 0.9f};
		static const VkDepthClampRangeEXT kRange{0.25f, 0.5f};
		static const VkPipelineViewportDepthClampControlCreateInfoEXT kStatic{
		    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT, nullptr,
		    VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT, &kRange};
		s.configure = [mode](PipelineState& p) {
			p.rasterization.depthClampEnable = VK_TRUE;
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			if (mode == Mode::kStatic) p.viewport_next = &kStatic;
			if (mode == Mode::kDynamic || mode == Mode::kDynamicViewport)
				p.dynamic_states.push_back(VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT);
		};
		if (mode == Mode::kDynamic || mode == Mode::kDynamicViewport) {
			s.before_draws = [=](VkCommandBuffer cb) {
				const VkDepthClampRangeEXT range{0.35f, 0.4f};
				// (A first call the second replaces: the last one set counts.)
				set_range(cb, VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT, &kRange);
				if (mode == Mode::kDynamic)
					set_range(cb, VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT, &range);
				else
					set_range(cb, VK_DEPTH_CLAMP_MODE_VIEWPORT_RANGE_EXT, nullptr);
			};
		}
		const SceneResult r = RenderScene(*ctx, s);
		REQUIRE(r.depth.size() == size_t(s.width) * s.height * 4);
		// z_f = 0.1 + 0.8 z_d: -0.3, 0.34, 1.3 before the clamp.
		const float lo = mode == Mode::kStatic ? 0.25f : mode == Mode::kDynamic ? 0.35f : 0.1f;
		const float hi = mode == Mode::kStatic ? 0.5f : mode == Mode::kDynamic ? 0.4f : 0.9f;
		for (int k = 0; k < 3; ++k) {
			CAPTURE(k);
			const float expected = std::clamp(0.1f + 0.8f * z[k], lo, hi);
			const uint32_t x = uint32_t(64 * k / 3 + 5), y = 16;  // inside the third's first triangle
			CHECK(DepthAt(r, s.width, x, y) == Approx(expected).margin(1e-6));
		}
	}
}
