// Tessellation (Vulkan "Tessellation") through the loader, compared with
// lavapipe with the validation layer on: a control shader that shares its
// outputs across the patch (a barrier, then one invocation reads all
// three), patch outputs, levels from push constants varied per patch;
// evaluation shaders for triangles (equal, fractional odd and even
// spacing, both windings), quads and isolines; point mode with every
// domain point captured by transform feedback.
//
// How the domain is cut into triangles is implementation-dependent (Vulkan
// "Triangle Tessellation"), but the evaluation shaders here place points
// and colors linearly in TessCoord, so every valid triangulation draws the
// same picture: images compare within 2 codes per channel, with at most a
// few pixels on the domain's inner edges where the two drivers' triangles
// round coverage differently. Equal spacing fixes every domain point, so
// point mode's captured TessCoords must be the same set as lavapipe's
// (within lavapipe's fixed-point rounding, 4 x 2^-16), for triangles, quads
// and isolines; fractional spacing leaves the place of each edge's two
// shorter segments open, and Tessera puts them where lavapipe (and the
// D3D11 tessellator GPUs implement) does, so those points are compared too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

struct Levels {
	float outer[4];
	float inner[2];
};

// Four patches of three vertices: triangles over the viewport.
// (No edge through pixel centers: there coverage would hang on the last bit
// of each driver's evaluated positions, which their compilers round
// differently.)
std::vector<float> Patches() {
	return {-0.9f, -0.9f, 0.5f, 1, -0.11f, -0.9f, 0.5f, 1, -0.9f, -0.11f, 0.5f, 1,  //
	        0.1f,  -0.9f, 0.5f, 1, 0.9f,   -0.8f, 0.5f, 1, 0.2f,  -0.1f,  0.5f, 1,  //
	        -0.8f, 0.1f,  0.5f, 1, -0.1f,  0.2f,  0.5f, 1, -0.9f, 0.9f,   0.5f, 1,  //
	        0.1f,  0.1f,  0.5f, 1, 0.89f,  0.1f,  0.5f, 1, 0.1f,  0.89f,  0.5f, 1};
}

Scene TessScene(const char* evaluation, const Levels& levels) {
	Scene s;
	s.width = s.height = 96;
	s.vertex_shader = "tess_input.vert.spv";
	s.tess_control_shader = "tess_levels.tesc.spv";
	s.tess_eval_shader = evaluation;
	s.fragment_shader = "geom_color.frag.spv";
	s.vertices = scenes::Bytes(Patches());
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{12, 1, 0, 0, 0}};
	s.push_constants.resize(sizeof(Levels));
	std::memcpy(s.push_constants.data(), &levels, sizeof levels);
	s.configure = [](PipelineState& ps) { ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; };
	return s;
}

}  // namespace

TEST_CASE("Tessellation shaders are reported with the spec's minimum limits", "[e2e][tessellation]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceFeatures f{};
	vkGetPhysicalDeviceFeatures(ctx->physical_device(), &f);
	CHECK(f.tessellationShader == VK_TRUE);
	VkPhysicalDeviceProperties p{};
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &p);
	// Vulkan "Required Limits", with tessellationShader.
	CHECK(p.limits.maxTessellationGenerationLevel >= 64);
	CHECK(p.limits.maxTessellationPatchSize >= 32);
	CHECK(p.limits.maxTessellationControlPerVertexInputComponents >= 64);
	CHECK(p.limits.maxTessellationControlPerVertexOutputComponents >= 64);
	CHECK(p.limits.maxTessellationControlPerPatchOutputComponents >= 120);
	CHECK(p.limits.maxTessellationControlTotalOutputComponents >= 2048);
	CHECK(p.limits.maxTessellationEvaluationInputComponents >= 64);
	CHECK(p.limits.maxTessellationEvaluationOutputComponents >= 64);
}

// The interfaces at the limits Tessera reports, which OpenGL 4.0 asks of
// Zink (GL_MAX_TESS_CONTROL_INPUT_COMPONENTS and the rest at 128, patch
// components 120): 31 vec4 per vertex through both stages and 30 vec4 of
// patch outputs, each component mixed differently into the color, as on
// lavapipe (which reports the same limits). With the validation layer on,
// a limit below what the shaders use would be an error.
TEST_CASE("Tessellation interfaces at the reported limits match lavapipe", "[e2e][tessellation]") {
	ScenePair pair;
	Scene s;
	s.width = s.height = 96;
	s.vertex_shader = "tess_wide.vert.spv";
	s.tess_control_shader = "tess_wide.tesc.spv";
	s.tess_eval_shader = "tess_wide.tese.spv";
	s.fragment_shader = "tess_wide.frag.spv";
	s.vertices = scenes::Bytes(Patches());
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.draws = {{12, 1, 0, 0, 0}};
	s.configure = [](PipelineState& ps) { ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; };
	CHECK(scenes::Drawn(pair.Compare("tessellation-wide", s, 3, 6), s));
}

TEST_CASE("Tessellated triangles, quads and isolines match lavapipe", "[e2e][tessellation]") {
	ScenePair pair;
	const Levels levels[] = {
	    {{1, 1, 1, 1}, {1, 1}},                    // one triangle (or quad pair) per patch
	    {{2, 3, 4, 5}, {3, 2}},                    // integers
	    {{2.5f, 3.7f, 1.2f, 6.1f}, {4.4f, 1.0f}},  // fractions: each spacing rounds its own way
	    {{7, 1, 9.5f, 2}, {1, 5.5f}},              // an inner level of 1 with outer levels above it
	    {{64, 40, 17, 33}, {64, 64}},              // the maximum
	};
	const char* evaluations[] = {"tess_tri_equal.tese.spv", "tess_tri_odd.tese.spv", "tess_tri_even.tese.spv",
	                             "tess_quad.tese.spv", "tess_isolines.tese.spv"};
	for (const char* evaluation : evaluations)
		for (const Levels& l : levels) {
			CAPTURE(evaluation, l.outer[0], l.outer[1], l.outer[2], l.outer[3], l.inner[0], l.inner[1]);
			const Scene s = TessScene(evaluation, l);
			CHECK(scenes::Drawn(pair.Compare("tessellation", s, 2, 6), s));
		}
}

TEST_CASE("Tessellation point mode: every domain and spacing gives the same domain points as lavapipe",
          "[e2e][tessellation][transform_feedback]") {
	SceneFeatures features;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
	xfb.transformFeedback = VK_TRUE;
	const ContextOptions options = features.OptionsWith(&xfb, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
	auto ours = Context::Create(Driver::Tessera, options);
	auto reference = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours);
	REQUIRE(reference);
	auto capture = [](Context& c, const char* evaluation, const Levels& levels) {
		auto bind = c.Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
		auto begin = c.Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
		auto end = c.Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
		REQUIRE(bind);
		TestBuffer buffer = c.CreateBuffer(1 << 20, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT);
		TestBuffer counter = c.CreateBuffer(16, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT);
		std::memset(counter.data, 0, 16);
		Scene s = TessScene(evaluation, levels);
		s.fragment_shader = "constant_color.frag.spv";
		s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
			const VkDeviceSize offset = 0;
			bind(cb, 0, 1, &buffer.buffer, &offset, nullptr);
			begin(cb, 0, 0, nullptr, nullptr);
			vkCmdDraw(cb, 12, 1, 0, 0);
			end(cb, 0, 1, &counter.buffer, &offset);
		};
		RenderScene(c, s);
		uint32_t bytes = 0;
		std::memcpy(&bytes, counter.data, 4);
		std::vector<std::array<float, 4>> points(bytes / 16);
		std::memcpy(points.data(), buffer.data, points.size() * 16);
		c.Destroy(buffer);
		c.Destroy(counter);
		return points;
	};
	const Levels levels[] = {{{1, 1, 1, 1}, {1, 1}},
	                         {{2, 3, 4, 1}, {3, 1}},
	                         {{5, 1, 2, 1}, {6, 1}},
	                         {{8, 8, 8, 1}, {7, 1}},
	                         {{2.5f, 3.7f, 1.2f, 6.1f}, {4.4f, 1.0f}},
	                         {{7, 1, 9.5f, 2}, {1, 5.5f}}};
	// Equal spacing fixes every point. Fractional spacing fixes how many
	// points each edge and ring gets and that the two shorter segments of
	// an edge lie symmetrically, not where (Vulkan "Tessellator Spacing");
	// Tessera places them as the D3D11 tessellator does, as lavapipe and
	// GPUs do, so those points must be lavapipe's too.
	struct Domain {
		const char* evaluation;
		bool triangles;
	};
	const Domain domains[] = {{"tess_points.tese.spv", true},
	                          {"tess_points_quads.tese.spv", false},
	                          {"tess_points_isolines.tese.spv", false},
	                          {"tess_points_odd.tese.spv", true},
	                          {"tess_points_even.tese.spv", true}};
	for (const Domain& domain : domains)
		for (const Levels& l : levels) {
			CAPTURE(domain.evaluation, l.outer[0], l.outer[1], l.outer[2], l.outer[3], l.inner[0], l.inner[1]);
			std::vector<std::array<float, 4>> a = capture(*ours, domain.evaluation, l),
			                                  b = capture(*reference, domain.evaluation, l);
			REQUIRE(!a.empty());
			REQUIRE(a.size() == b.size());
			// The same points in each patch, in any order (the order is the
			// tessellator's own): each of ours matched to one of lavapipe's
			// not matched yet. lavapipe's tessellator works in 16.16 fixed
			// point (its TessCoords are multiples of 2^-16, up to about 2^-16
			// from the spec's exact points, not always symmetric); ours are
			// floats of the exact fractions or of the same fixed-point values.
			std::vector<bool> matched(b.size(), false);
			auto near = [](const std::array<float, 4>& x, const std::array<float, 4>& y) {
				if (x[3] != y[3]) return false;
				for (int c = 0; c < 3; ++c)
					if (std::fabs(x[c] - y[c]) > 4.0f / 65536.0f) return false;
				return true;
			};
			for (size_t k = 0; k < a.size(); ++k) {
				INFO("point " << k << ": ours " << a[k][0] << ", " << a[k][1] << ", " << a[k][2] << " patch "
				              << a[k][3]);
				size_t m = 0;
				while (m < b.size() && (matched[m] || !near(a[k], b[m]))) ++m;
				CHECK(m < b.size());
				if (m < b.size()) matched[m] = true;
				if (domain.triangles) CHECK(std::fabs(a[k][0] + a[k][1] + a[k][2] - 1.0f) <= 1e-5f);
			}
		}
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("Patch control points set by vkCmdSetPatchControlPointsEXT match lavapipe", "[e2e][tessellation]") {
	// VK_EXT_extended_dynamic_state2's extendedDynamicState2PatchControlPoints:
	// the pipeline says 1; the draws say 3 (four patches), then 4 (the same
	// vertices as three patches, whose control shader reads the first three
	// of each). The pipeline's own value must not be used.
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState2FeaturesEXT ed2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
	ed2.extendedDynamicState2PatchControlPoints = VK_TRUE;
	const ContextOptions options = features.OptionsWith(&ed2, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
	std::vector<uint8_t> images[2];
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		auto set_points = ctx->Proc<PFN_vkCmdSetPatchControlPointsEXT>("vkCmdSetPatchControlPointsEXT");
		REQUIRE(set_points);
		Scene s = TessScene("tess_tri_equal.tese.spv", {{2, 3, 4, 5}, {3, 2}});
		s.patch_control_points = 1;
		s.configure = [](PipelineState& ps) {
			ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
			ps.dynamic_states.push_back(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
		};
		s.record_draws = [set_points](VkCommandBuffer cb, const Scene::Buffers&) {
			set_points(cb, 3);
			vkCmdDraw(cb, 12, 1, 0, 0);
			set_points(cb, 4);
			vkCmdDraw(cb, 12, 1, 0, 0);
		};
		images[driver == Driver::Tessera ? 0 : 1] = RenderScene(*ctx, s).colors[0];
		for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
		CHECK(ctx->validation_errors() == 0);
	}
	CompareImages("tessellation-dynamic-patch", 96, 96, images[0], images[1], 2, 6);

	// With VK_EXT_extended_dynamic_state3 enabled the pipeline may have no
	// VkPipelineTessellationStateCreateInfo at all (VkGraphicsPipelineCreateInfo
	// pStages-09022): the same image. Tessera used to refuse the pipeline.
	// Without the validation layer: Debian's (1.3.239) predates that rule,
	// reports the null pointer (pStages-00731) and skips the call.
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT ed3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	ed3.pNext = &ed2;
	ContextOptions ed3_options = features.OptionsWith(&ed3, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
	ed3_options.device_extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
	ed3_options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, ed3_options);
	REQUIRE(ctx);
	auto set_points = ctx->Proc<PFN_vkCmdSetPatchControlPointsEXT>("vkCmdSetPatchControlPointsEXT");
	REQUIRE(set_points);
	Scene s = TessScene("tess_tri_equal.tese.spv", {{2, 3, 4, 5}, {3, 2}});
	s.configure = [](PipelineState& ps) {
		ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
		ps.dynamic_states.push_back(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
		ps.null_tessellation_state = true;
	};
	s.record_draws = [set_points](VkCommandBuffer cb, const Scene::Buffers&) {
		set_points(cb, 3);
		vkCmdDraw(cb, 12, 1, 0, 0);
		set_points(cb, 4);
		vkCmdDraw(cb, 12, 1, 0, 0);
	};
	CompareImages("tessellation-no-tessellation-state", 96, 96, RenderScene(*ctx, s).colors[0], images[0], 0, 0);
}

TEST_CASE("Primitive restart in patch lists drops incomplete patches, as on lavapipe", "[e2e][tessellation]") {
	// VK_EXT_primitive_topology_list_restart's primitiveTopologyPatchListRestart:
	// a restart index discards the incomplete patch before it (Vulkan
	// "Primitive Topologies"), so these indices make the four patches of the
	// plain draw, and must draw the same image.
	SceneFeatures features;
	VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT restart{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
	restart.primitiveTopologyPatchListRestart = VK_TRUE;
	const ContextOptions options =
	    features.OptionsWith(&restart, VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME);
	auto ours = Context::Create(Driver::Tessera, options), reference = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours);
	REQUIRE(reference);
	const Scene plain = TessScene("tess_tri_equal.tese.spv", {{2, 3, 4, 5}, {3, 2}});
	Scene s = plain;
	const uint32_t r = 0xffffffffu;
	s.indices = {0, 1, 2, 3, 4, r, 3, 4, 5, 6, 7, 8, 9, 10, r, 9, 10, 11, 0, 1};
	s.draws = {{uint32_t(s.indices.size()), 1, 0, 0, 0}};
	s.configure = [](PipelineState& ps) {
		ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
		ps.input_assembly.primitiveRestartEnable = VK_TRUE;
	};
	const SceneResult a = RenderScene(*ours, s), b = RenderScene(*reference, s);
	CompareImages("tessellation-patch-restart", s.width, s.height, a.colors[0], b.colors[0], 2, 6);
	CHECK(a.colors[0] == RenderScene(*ours, plain).colors[0]);
	CHECK(scenes::Drawn(a, s));
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("The tessellation domain origin, static and dynamic, turns the winding as on lavapipe",
          "[e2e][tessellation]") {
	// VK_KHR_maintenance2's VkTessellationDomainOrigin: LOWER_LEFT flips the
	// winding of the tessellator's triangles, which back-face culling shows.
	// The origin comes from the pipeline, or from
	// vkCmdSetTessellationDomainOriginEXT where the pipeline made it dynamic
	// (extendedDynamicState3TessellationDomainOrigin); each must draw what
	// lavapipe draws, and the dynamic origin what the static one does.
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT ed3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	ed3.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
	const ContextOptions options = features.OptionsWith(&ed3, VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
	auto ours = Context::Create(Driver::Tessera, options), reference = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours);
	REQUIRE(reference);
	static VkPipelineTessellationDomainOriginStateCreateInfo origin{
	    VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO};
	std::vector<uint8_t> images[2][2];  // [dynamic][lower left], Tessera's
	for (bool dynamic : {false, true})
		for (bool lower_left : {false, true}) {
			CAPTURE(dynamic, lower_left);
			Scene s = TessScene("tess_tri_equal.tese.spv", {{2, 3, 4, 5}, {3, 2}});
			s.configure = [dynamic, lower_left](PipelineState& ps) {
				ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
				ps.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
				origin.domainOrigin = lower_left && !dynamic ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
				                                             : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT;
				ps.tessellation_next = &origin;
				if (dynamic) ps.dynamic_states.push_back(VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT);
			};
			SceneResult results[2];
			for (int d = 0; d < 2; ++d) {
				Context& ctx = d == 0 ? *ours : *reference;
				auto set_origin =
				    ctx.Proc<PFN_vkCmdSetTessellationDomainOriginEXT>("vkCmdSetTessellationDomainOriginEXT");
				REQUIRE(set_origin);
				if (dynamic)
					s.before_draws = [set_origin, lower_left](VkCommandBuffer cb) {
						set_origin(cb, lower_left ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
						                          : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT);
					};
				results[d] = RenderScene(ctx, s);
			}
			CompareImages("tessellation-origin", s.width, s.height, results[0].colors[0], results[1].colors[0], 2, 6);
			images[dynamic][lower_left] = results[0].colors[0];
		}
	CHECK(images[1][0] == images[0][0]);
	CHECK(images[1][1] == images[0][1]);
	CHECK(images[0][0] != images[0][1]);  // the culling differs
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("Tessellation renders the same bytes with 1 and 4 threads", "[e2e][tessellation][threads]") {
	// 128 overlapping, alpha-blended patches: the control stage runs them
	// in lane groups of 42 patches on the pool, the evaluation stage in
	// vertex lane groups; any change in the order of their primitives
	// (Vulkan "Tessellation Primitive Ordering") changes the bytes.
	Scene s = TessScene("tess_tri_odd.tese.spv", {{5, 6.5f, 7, 1}, {4.5f, 1}});
	s.width = s.height = 128;
	std::vector<float> patches;
	uint32_t seed = 12345;
	auto next = [&seed] {
		seed = seed * 1664525u + 1013904223u;
		return float(seed >> 8) / float(1u << 24) * 1.8f - 0.9f;
	};
	for (int p = 0; p < 128; ++p) {
		const float x = next(), y = next();
		patches.insert(patches.end(), {x, y, 0.5f, 1, x + 0.4f, y + 0.1f, 0.5f, 1, x + 0.1f, y + 0.5f, 0.5f, 1});
	}
	s.vertices = scenes::Bytes(patches);
	s.draws = {{128 * 3, 1, 0, 0, 0}};
	s.configure = [](PipelineState& ps) {
		ps.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
		ps.blend_attachments[0].blendEnable = VK_TRUE;
		ps.blend_attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_ALPHA;
		ps.blend_attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
		ps.color_blend.blendConstants[3] = 0.6f;
	};
	const std::vector<std::vector<uint8_t>> images = scenes::RenderWithOneAndFourThreads(s);
	CHECK(images[0] == images[1]);
	CHECK(scenes::Drawn(SceneResult{{images[0]}}, s));
}
