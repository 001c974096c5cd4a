// Rasterization state against lavapipe: cull modes and front face, negative
// viewport height, viewport offset, scissor, dynamic viewport and scissor,
// and the extended dynamic states (cull mode, front face, depth test
// enable/write/op, stencil op, triangle topologies, primitive restart
// enable, rasterizer discard, depth bias). Tolerances: coverage exact,
// interpolated colors within 2 codes (draw_scene_helpers.h).
#include <catch2/catch.hpp>

#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// Four triangles, two of each winding (in framebuffer coordinates with a
// positive viewport height, vertex order (0,1,2) counter-clockwise for the
// first and third, §28.7.1).
std::vector<Vertex> WindingTriangles() {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, -0.1f, -0.8f, -0.7f, -0.1f, 0.5f, 1, 0, 0);
	Triangle(v, 0.1f, -0.9f, 0.3f, -0.1f, 0.9f, -0.8f, 0.5f, 0, 1, 0);
	Triangle(v, -0.9f, 0.1f, -0.2f, 0.2f, -0.6f, 0.9f, 0.5f, 0, 0, 1);
	Triangle(v, 0.1f, 0.2f, 0.4f, 0.95f, 0.9f, 0.1f, 0.5f, 1, 1, 0);
	return v;
}

}  // namespace

TEST_CASE("cull modes and front faces match lavapipe", "[draw][raster]") {
	ScenePair pair;
	for (VkCullModeFlags cull :
	     {VK_CULL_MODE_NONE, VK_CULL_MODE_FRONT_BIT, VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_AND_BACK}) {
		for (VkFrontFace face : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
			for (bool flip : {false, true}) {
				CAPTURE(cull, face, flip);
				Scene s = ColorScene(WindingTriangles());
				s.fragment_shader = "frag_coord.frag.spv";  // gl_FrontFacing in alpha
				s.draws = {{12, 1, 0, 0, 0}};
				// §27.5: a negative viewport height flips y, and with it the
				// windings seen in framebuffer coordinates.
				if (flip) s.viewport = {0, 64, 64, -64, 0, 1};
				s.configure = [cull, face](PipelineState& p) {
					p.rasterization.cullMode = cull;
					p.rasterization.frontFace = face;
				};
				pair.Compare("cull-" + std::to_string(cull) + "-" + std::to_string(face) + (flip ? "-flip" : ""), s, 2);
			}
		}
	}
}

TEST_CASE("viewport offsets, depth ranges and scissors match lavapipe", "[draw][raster]") {
	ScenePair pair;
	struct Case {
		VkViewport viewport;
		VkRect2D scissor;
	};
	for (Case c :
	     {Case{{10, 6, 40, 50, 0, 1}, {{0, 0}, {64, 64}}}, Case{{-20, 12.5f, 90, 40, 0.25f, 0.75f}, {{5, 7}, {40, 33}}},
	      Case{{3.25f, 60, 50, -44, 1, 0}, {{20, 0}, {44, 30}}}, Case{{0, 0, 64, 64, 0, 1}, {{31, 31}, {1, 2}}}}) {
		CAPTURE(c.viewport.x, c.viewport.y, c.viewport.width, c.viewport.height, c.scissor.offset.x,
		        c.scissor.offset.y);
		for (bool dynamic : {false, true}) {
			Scene s = ColorScene(WindingTriangles());
			s.fragment_shader = "frag_coord.frag.spv";
			s.draws = {{12, 1, 0, 0, 0}};
			if (dynamic) {
				s.configure = [](PipelineState& p) {
					p.dynamic_states.push_back(VK_DYNAMIC_STATE_VIEWPORT);
					p.dynamic_states.push_back(VK_DYNAMIC_STATE_SCISSOR);
				};
				s.before_draws = [c](VkCommandBuffer cb) {
					vkCmdSetViewport(cb, 0, 1, &c.viewport);
					vkCmdSetScissor(cb, 0, 1, &c.scissor);
				};
			} else {
				s.viewport = c.viewport;
				s.scissor = c.scissor;
			}
			pair.Compare(dynamic ? "viewport-dynamic" : "viewport", s, 2);
		}
	}
	SECTION("viewport and scissor with count, changed between draws") {
		Scene s = ColorScene(WindingTriangles());
		s.draws = {};
		s.configure = [](PipelineState& p) {
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			VkViewport v1{0, 0, 32, 32, 0, 1}, v2{32, 64, 32, -32, 0, 1};
			VkRect2D s1{{0, 0}, {64, 64}}, s2{{40, 30}, {20, 30}};
			vkCmdSetViewportWithCount(cb, 1, &v1);
			vkCmdSetScissorWithCount(cb, 1, &s1);
			vkCmdDraw(cb, 12, 1, 0, 0);
			vkCmdSetViewportWithCount(cb, 1, &v2);
			vkCmdSetScissorWithCount(cb, 1, &s2);
			vkCmdDraw(cb, 12, 1, 0, 0);
		};
		pair.Compare("viewport-with-count", s, 2);
	}
}

TEST_CASE("extended dynamic state matches lavapipe", "[draw][raster]") {
	ScenePair pair;
	SECTION("cull mode and front face, changed between draws") {
		Scene s = ColorScene(WindingTriangles());
		s.configure = [](PipelineState& p) {
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_CULL_MODE);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_FRONT_FACE);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetCullMode(cb, VK_CULL_MODE_BACK_BIT);
			vkCmdSetFrontFace(cb, VK_FRONT_FACE_CLOCKWISE);
			vkCmdDraw(cb, 6, 1, 0, 0);
			vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
			vkCmdDraw(cb, 3, 1, 6, 0);
			vkCmdSetCullMode(cb, VK_CULL_MODE_FRONT_BIT);
			vkCmdDraw(cb, 3, 1, 9, 0);
		};
		pair.Compare("dynamic-cull", s, 2);
	}
	SECTION("depth test, write and compare op; stencil test and ops") {
		std::vector<Vertex> v;
		Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.3f, 1, 0, 0);
		Triangle(v, 0.9f, 0.9f, -0.9f, 0.5f, 0.2f, -0.9f, 0.6f, 0, 1, 0);
		Triangle(v, -0.8f, 0.2f, 0.8f, 0.1f, 0.0f, -0.5f, 0.45f, 0, 0, 1);
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
		s.clear_depth_stencil = {0.5f, 3};
		s.configure = [](PipelineState& p) {
			for (VkDynamicState d : {VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
			                         VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
			                         VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
			                         VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK})
				p.dynamic_states.push_back(d);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetDepthTestEnable(cb, VK_TRUE);
			vkCmdSetDepthWriteEnable(cb, VK_TRUE);
			vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_LESS);
			vkCmdSetStencilTestEnable(cb, VK_TRUE);
			vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
			                  VK_STENCIL_OP_ZERO, VK_COMPARE_OP_ALWAYS);
			vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 3);
			vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0xff);
			vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0xff);
			vkCmdDraw(cb, 3, 1, 0, 0);
			vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_GREATER);
			vkCmdSetDepthWriteEnable(cb, VK_FALSE);
			vkCmdDraw(cb, 3, 1, 3, 0);
			vkCmdSetDepthTestEnable(cb, VK_FALSE);
			vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
			                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL);
			vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 4);
			vkCmdDraw(cb, 3, 1, 6, 0);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("dynamic-depth-stencil", s.width, s.height, a.colors[0], b.colors[0], 2);
		CHECK(a.stencil == b.stencil);
	}
	SECTION("stencil state per face") {
		Scene s = ColorScene(WindingTriangles());
		s.depth_format = VK_FORMAT_S8_UINT;
		s.clear_depth_stencil = {1.0f, 0x21};
		s.configure = [](PipelineState& p) {
			p.depth_stencil.stencilTestEnable = VK_TRUE;
			for (VkDynamicState d : {VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
			                         VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK})
				p.dynamic_states.push_back(d);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_BIT, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_REPLACE,
			                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_GREATER);
			vkCmdSetStencilOp(cb, VK_STENCIL_FACE_BACK_BIT, VK_STENCIL_OP_INVERT, VK_STENCIL_OP_INCREMENT_AND_WRAP,
			                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_LESS);
			vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_BIT, 0x40);
			vkCmdSetStencilReference(cb, VK_STENCIL_FACE_BACK_BIT, 0x10);
			vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_BIT, 0xf0);
			vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_BACK_BIT, 0x3f);
			vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_BIT, 0xcc);
			vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_BACK_BIT, 0x0f);
			vkCmdDraw(cb, 12, 1, 0, 0);
			vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0x44);
			vkCmdDraw(cb, 6, 1, 3, 0);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("dynamic-stencil-faces", s.width, s.height, a.colors[0], b.colors[0], 2);
		CHECK(a.stencil == b.stencil);
	}
	SECTION("topology among triangle types and primitive restart enable") {
		Scene s = ColorScene(Grid(6));
		const uint32_t r = 0xffffffffu;
		s.indices = {0, 6, 1, 7, 2, 8, r, 14, 15, 8, 9, 3, r, 20, 21, 27, 26, 32};
		s.configure = [](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
			vkCmdSetPrimitiveRestartEnable(cb, VK_TRUE);
			vkCmdDrawIndexed(cb, 12, 1, 0, 0, 0);
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
			vkCmdDrawIndexed(cb, 6, 1, 12, 0, 0);
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
			vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
			vkCmdDrawIndexed(cb, 3, 1, 13, 0, 0);
		};
		pair.Compare("dynamic-topology", s, 2);
	}
	SECTION("topology of another class than the pipeline's (dynamicPrimitiveTopologyUnrestricted)") {
		// A triangle-list pipeline draws points, lines and a strip:
		// VK_EXT_extended_dynamic_state3's property lets the dynamic
		// topology leave the pipeline's class. Points need PointSize:
		// sized_point.vert, size w = 1.
		Scene s = ColorScene(Grid(6));
		s.vertex_shader = "sized_point.vert.spv";
		s.attributes.push_back({2, 0, VK_FORMAT_R32_SFLOAT, 12});
		s.configure = [](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
			vkCmdDraw(cb, 12, 1, 0, 0);
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
			vkCmdDraw(cb, 8, 1, 12, 0);
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
			vkCmdDraw(cb, 6, 1, 20, 0);
			vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
			vkCmdDraw(cb, 6, 1, 26, 0);
		};
		// The property is VK_EXT_extended_dynamic_state3's: without the
		// extension enabled the validation layer holds draws to the
		// pipeline's class (VUID-vkCmdDraw-primitiveTopology-03420).
		SceneFeatures features;
		ContextOptions options = features.Options();
		options.device_extensions.push_back("VK_EXT_extended_dynamic_state3");
		auto ours = Context::Create(Driver::Tessera, options), reference = Context::Create(Driver::Lavapipe, options);
		REQUIRE(ours);
		REQUIRE(reference);
		VkPhysicalDeviceExtendedDynamicState3PropertiesEXT ed3{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_PROPERTIES_EXT};
		VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &ed3};
		vkGetPhysicalDeviceProperties2(ours->physical_device(), &properties);
		CHECK(ed3.dynamicPrimitiveTopologyUnrestricted == VK_TRUE);
		const SceneResult a = RenderScene(*ours, s), b = RenderScene(*reference, s);
		CompareImages("dynamic-topology-class", s.width, s.height, a.colors[0], b.colors[0], 2);
		CHECK(ours->validation_errors() == 0);
		CHECK(reference->validation_errors() == 0);
	}
	SECTION("rasterizer discard and depth bias") {
		std::vector<Vertex> v;
		Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.5f, 1, 0, 0);
		Triangle(v, 0.9f, 0.9f, -0.9f, 0.5f, 0.2f, -0.9f, 0.5f, 0, 1, 0);
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D16_UNORM;
		s.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_DEPTH_BIAS);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetRasterizerDiscardEnable(cb, VK_TRUE);
			vkCmdSetDepthBiasEnable(cb, VK_FALSE);
			vkCmdSetDepthBias(cb, 0, 0, 0);
			vkCmdDraw(cb, 6, 1, 0, 0);  // nothing
			vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
			vkCmdDraw(cb, 3, 1, 0, 0);
			// The second triangle at the same z wins only where biased nearer.
			vkCmdSetDepthBiasEnable(cb, VK_TRUE);
			vkCmdSetDepthBias(cb, -20, 0, 0);
			vkCmdDraw(cb, 3, 1, 3, 0);
		};
		pair.Compare("dynamic-discard-bias", s, 2);
	}
}

TEST_CASE("cull distances drop primitives wholly outside a plane, as on lavapipe", "[draw][raster]") {
	// Vulkan "Primitive Clipping": a primitive all of whose vertices have a
	// negative cull distance for the same plane is discarded; one that
	// straddles a plane is drawn whole (no clipping against it).
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, -0.2f, -0.8f, -0.6f, 0.2f, 0.3f, 1, 0, 0);  // left: culled by plane 0
	Triangle(v, -0.5f, -0.7f, 0.6f, -0.6f, 0.1f, 0.3f, 0.4f, 0, 1, 0);    // straddles x = 0: drawn
	Triangle(v, 0.2f, 0.6f, 0.9f, 0.7f, 0.5f, 0.95f, 0.5f, 0, 0, 1);      // above y = 0.5: culled by plane 1
	Triangle(v, 0.3f, -0.9f, 0.9f, -0.5f, 0.6f, 0.0f, 0.6f, 1, 1, 0);     // right, low: drawn
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_LIST}) {
		CAPTURE(topology);
		Scene s = ColorScene(v);
		s.vertex_shader = "cull.vert.spv";
		s.draws = {{12, 1, 0, 0, 0}};
		s.configure = [topology](PipelineState& p) { p.input_assembly.topology = topology; };
		SceneResult ours = CompareSceneWithLavapipe("cull-distance-" + std::to_string(topology), s, 2);
		if (topology != VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) continue;
		// Pixel (8, 30) lies inside the first triangle only: culled, clear color.
		const uint8_t* p = &ours.colors[0][(30 * 64 + 8) * 4];
		CHECK((p[0] == 26 && p[1] == 51 && p[2] == 77));
	}
}
