// VK_EXT_depth_bias_control: what r, the factor of depthBiasConstantFactor,
// is (Vulkan "Depth Bias"): the format's least representable value near
// the primitive (D32_SFLOAT at z = 0.2: 2^(e - 23) with 0.2 = 1.6 * 2^-3,
// so 2^-26), a UNORM's of the format's bits (FORCE_UNORM: 2^-24 for a
// 23-bit mantissa) or 1 (FLOAT). A flat triangle at z_f = 0.2 with a
// constant factor and no slope: each depth must be 0.2 + r * factor, for
// the pipeline's representation, vkCmdSetDepthBias2EXT's, and
// vkCmdSetDepthBias's (the format's) after it. Tessera alone, without the
// validation layer: lavapipe 22.3 and the layer's 1.3.239 release predate
// the extension (the CTS's rasterization.depth_bias_control cases are the
// wider check).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("VK_EXT_depth_bias_control: the constant factor scales the chosen representation",
          "[draw][depth][depth_bias_control]") {
	SceneFeatures features;
	VkPhysicalDeviceDepthBiasControlFeaturesEXT control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &control};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(control.depthBiasControl == VK_TRUE);
		REQUIRE(control.leastRepresentableValueForceUnormRepresentation == VK_TRUE);
		REQUIRE(control.floatRepresentation == VK_TRUE);
		REQUIRE(control.depthBiasExact == VK_TRUE);
	}
	ContextOptions options = features.OptionsWith(&control, VK_EXT_DEPTH_BIAS_CONTROL_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto set_bias2 = ctx->Proc<PFN_vkCmdSetDepthBias2EXT>("vkCmdSetDepthBias2EXT");
	REQUIRE(set_bias2);

	constexpr float kZ = 0.2f;
	std::vector<Vertex> v;
	Triangle(v, -1, -1, 3, -1, -1, 3, kZ, 1, 1, 1);  // covers the framebuffer
	struct Case {
		const char* name;
		VkDepthBiasRepresentationEXT representation;
		float factor;
		enum { kPipeline, kDynamic2, kDynamicReset } how;
		double r;  // the r the depth must show
	};
	constexpr auto kFormat = VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT;
	constexpr auto kUnorm = VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT;
	constexpr auto kFloat = VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT;
	const double format_r = std::ldexp(1.0, -26), unorm_r = std::ldexp(1.0, -24);
	const Case cases[] = {
	    {"pipeline format", kFormat, 64.0f, Case::kPipeline, format_r},
	    {"pipeline force unorm", kUnorm, 64.0f, Case::kPipeline, unorm_r},
	    {"pipeline float", kFloat, 0.25f, Case::kPipeline, 1.0},
	    {"dynamic force unorm", kUnorm, -64.0f, Case::kDynamic2, unorm_r},
	    {"dynamic float", kFloat, 0.125f, Case::kDynamic2, 1.0},
	    // vkCmdSetDepthBias after vkCmdSetDepthBias2EXT(FLOAT): the format's r.
	    {"dynamic reset to format", kFloat, 64.0f, Case::kDynamicReset, format_r},
	};
	for (const Case& c : cases) {
		CAPTURE(c.name);
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.clear_depth_stencil = {1.0f, 0};
		VkDepthBiasRepresentationInfoEXT representation{VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT};
		representation.depthBiasRepresentation = c.representation;
		s.configure = [&](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			p.rasterization.depthBiasEnable = VK_TRUE;
			if (c.how == Case::kPipeline) {
				p.rasterization.pNext = &representation;
				p.rasterization.depthBiasConstantFactor = c.factor;
			} else {
				p.dynamic_states.push_back(VK_DYNAMIC_STATE_DEPTH_BIAS);
			}
		};
		if (c.how != Case::kPipeline)
			s.before_draws = [&](VkCommandBuffer cb) {
				VkDepthBiasInfoEXT info{VK_STRUCTURE_TYPE_DEPTH_BIAS_INFO_EXT, &representation};
				info.depthBiasConstantFactor = c.factor;
				set_bias2(cb, &info);
				if (c.how == Case::kDynamicReset) vkCmdSetDepthBias(cb, c.factor, 0.0f, 0.0f);
			};
		const SceneResult r = RenderScene(*ctx, s);
		REQUIRE(r.depth.size() == size_t(s.width) * s.height * 4);
		const double expected = double(kZ) + c.r * c.factor;
		for (uint32_t y : {3u, 40u})
			for (uint32_t x : {5u, 60u}) {
				float d;
				std::memcpy(&d, &r.depth[4 * (size_t(y) * s.width + x)], 4);
				CHECK(d == Approx(expected).margin(2e-8));
			}
	}
}
