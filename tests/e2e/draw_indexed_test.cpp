// Indexed and non-indexed draws against lavapipe: index types, vertexOffset,
// firstIndex, primitive restart, strips and fans, scattered indices,
// instancing and the vertex shader's numbering built-ins (Vulkan 1.3 §21,
// §22). Tolerances: see draw_scene_helpers.h (coverage exact, interpolated
// colors within 2 codes); the numbering built-ins go out as flat integers
// converted exactly (k/255), so those scenes compare with tolerance 0.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// §21.3: index i of a draw is indices[firstIndex + i] + vertexOffset.
Scene IndexedGridScene(VkIndexType type) {
	Scene s = ColorScene(Grid(6));
	s.index_type = type;
	// Vertices 0..35 used through indices that are 3 lower, read with
	// vertexOffset 3; a leading pad of 5 indices skipped with firstIndex.
	std::vector<uint32_t> tris = GridTriangles(6);
	s.indices = {9, 9, 9, 9, 9};
	for (uint32_t i : tris) s.indices.push_back(i + 100);
	// Draw the 50 cells' triangles in three draws with different offsets.
	const uint32_t n = uint32_t(tris.size());
	s.draws = {
	    {n / 2, 1, 5, -100, 0},
	    {n / 4, 1, 5 + n / 2, -100, 0},
	    {n - n / 2 - n / 4, 1, 5 + n / 2 + n / 4, -100, 0},
	};
	return s;
}

}  // namespace

TEST_CASE("indexed draws with UINT16 indices, vertexOffset and firstIndex match lavapipe", "[draw]") {
	CompareSceneWithLavapipe("indexed-uint16", IndexedGridScene(VK_INDEX_TYPE_UINT16), 2);
}

TEST_CASE("indexed draws with UINT32 indices, vertexOffset and firstIndex match lavapipe", "[draw]") {
	Scene s = IndexedGridScene(VK_INDEX_TYPE_UINT32);
	// A vertexOffset that makes large indices small (§21.3: the sum is the
	// vertex index; fullDrawIndexUint32 allows indices past 2^24).
	for (uint32_t& i : s.indices) i += 0x7000000u;
	for (DrawCall& d : s.draws) d.vertex_offset -= 0x7000000;
	CompareSceneWithLavapipe("indexed-uint32", s, 2);
}

TEST_CASE("indexed strips and fans with primitive restart match lavapipe", "[draw]") {
	ScenePair pair;
	for (VkIndexType type : {VK_INDEX_TYPE_UINT16, VK_INDEX_TYPE_UINT32}) {
		for (VkPrimitiveTopology topology :
		     {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
			const uint32_t restart = type == VK_INDEX_TYPE_UINT16 ? 0xffffu : 0xffffffffu;
			Scene s = ColorScene(Grid(6));
			s.index_type = type;
			if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP) {
				// One strip per grid row, separated by the restart index;
				// a strip cut short after 2 indices draws nothing.
				for (uint32_t j = 0; j + 1 < 6; ++j) {
					for (uint32_t i = 0; i < 6; ++i) s.indices.insert(s.indices.end(), {j * 6 + i, j * 6 + 6 + i});
					s.indices.push_back(restart);
				}
				s.indices.insert(s.indices.end(), {0, 35, restart});
			} else {
				// Fans around the centers of 2x2-cell blocks.
				for (uint32_t c : {7u, 9u, 19u, 21u, 28u}) {
					s.indices.insert(s.indices.end(), {c, c - 7, c - 6, c - 5, c + 1, c + 7});
					s.indices.push_back(restart);
				}
			}
			s.draws = {{uint32_t(s.indices.size()), 1, 0, 0, 0}};
			s.configure = [topology](PipelineState& p) {
				p.input_assembly.topology = topology;
				p.input_assembly.primitiveRestartEnable = VK_TRUE;
			};
			CAPTURE(type, topology);
			pair.Compare(std::string("restart-") + (type == VK_INDEX_TYPE_UINT16 ? "u16" : "u32") +
			                 (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ? "-strip" : "-fan"),
			             s, 2);
		}
	}
}

TEST_CASE("strips and fans without indices match lavapipe", "[draw]") {
	std::vector<Vertex> v;
	// A zig-zag strip of 8 vertices, then a fan of 7.
	for (int i = 0; i < 8; ++i)
		v.push_back(
		    {-0.9f + 0.2f * float(i), (i & 1) ? -0.1f : -0.8f, 0.5f, 1, float(i) / 7, 0.5f, 1 - float(i) / 7, 1});
	v.push_back({0.1f, 0.5f, 0.5f, 1, 1, 1, 1, 1});
	for (int i = 0; i < 6; ++i) {
		float a = float(i) * 0.55f;
		v.push_back({0.1f + 0.8f * std::cos(a), 0.5f + 0.45f * std::sin(a), 0.5f, 1, float(i) / 5, 0, 0.5f, 1});
	}
	ScenePair pair;
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
		Scene s = ColorScene(v);
		s.draws = {{8, 1, 0, 0, 0}, {7, 1, 8, 0, 0}};
		s.configure = [topology](PipelineState& p) { p.input_assembly.topology = topology; };
		CAPTURE(topology);
		pair.Compare(topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ? "strip" : "fan", s, 2);
	}
}

TEST_CASE("indices far apart in a large vertex buffer match lavapipe", "[draw]") {
	// 20000 vertices, most unused: the triangles' indices lie thousands
	// apart, with a negative vertexOffset.
	std::vector<Vertex> grid = Grid(5);
	std::vector<Vertex> v(20000, Vertex{5, 5, 0.5f, 1, 1, 0, 1, 1});  // unused ones: off screen
	std::vector<uint32_t> idx;
	for (uint32_t i : GridTriangles(5)) idx.push_back(i * 797 + 13 + 50);
	for (uint32_t i = 0; i < grid.size(); ++i) v[i * 797 + 13] = grid[i];
	Scene s = ColorScene(v);
	s.indices = idx;
	s.draws = {{uint32_t(idx.size()), 1, 0, -50, 0}};
	CompareSceneWithLavapipe("scattered-indices", s, 2);
}

TEST_CASE("instancing with a per-instance attribute and firstInstance matches lavapipe", "[draw]") {
	std::vector<Vertex> v;
	Triangle(v, -0.95f, -0.95f, -0.6f, -0.9f, -0.9f, -0.55f, 0.5f, 1, 0, 0);
	Scene s = ColorScene(v);
	s.vertex_shader = "instanced.vert.spv";
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	std::vector<float> per_instance;
	for (int i = 0; i < 16; ++i)
		per_instance.insert(per_instance.end(),
		                    {0.45f * float(i % 4), 0.45f * float(i / 4), float(i) / 15.0f, 1.0f - float(i) / 15.0f});
	s.instance_data = Bytes(per_instance);
	s.instance_stride = 16;
	// §22.4: per-instance attributes are fetched at the instance index,
	// which counts from firstInstance.
	s.draws = {{3, 5, 0, 0, 0}, {3, 6, 0, 0, 8}};
	CompareSceneWithLavapipe("instancing", s, 2);
}

namespace {

// draw_ids.vert: a small triangle per vertex group, colored with the flat
// gl_VertexIndex / gl_InstanceIndex / gl_BaseVertex / gl_BaseInstance /
// gl_DrawID of its provoking (first) vertex.
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
	s.vertices = Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	return s;
}

}  // namespace

TEST_CASE("gl_VertexIndex, gl_InstanceIndex and the draw parameters match lavapipe", "[draw]") {
	SECTION("non-indexed") {
		Scene s = IdsScene();
		// §14.6 (BaseVertex): firstVertex for non-indexed draws.
		s.draws = {{6, 2, 0, 0, 3}, {9, 1, 6, 0, 7}, {6, 3, 24, 0, 0}};
		CompareSceneWithLavapipe("ids-draw", s, 0);
	}
	SECTION("indexed") {
		Scene s = IdsScene();
		s.indices = {5, 6, 7, 2, 1, 0, 11, 10, 9, 20, 21, 22, 33, 34, 35};
		// gl_VertexIndex = index + vertexOffset; gl_BaseVertex = vertexOffset.
		s.draws = {{6, 2, 0, -2, 5}, {6, 1, 6, 3, 1}, {3, 2, 12, -30, 9}};
		CompareSceneWithLavapipe("ids-indexed", s, 0);
	}
}

// §21.3 / §21.1: without primitive restart, 0xffffffff is an ordinary index
// (maxDrawIndexedIndexValue is 2^32 - 1 with fullDrawIndexUint32). The
// vertex shader reads no attributes, so any index is valid.
TEST_CASE("UINT32 index 0xffffffff is a vertex when primitive restart is off", "[draw]") {
	const uint32_t r = 0xffffffffu;
	Scene s;
	s.vertex_shader = "vertex_id_grid.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.indices = {0, 1, 8, r, 10, 30, 16, r, 45, 40, 41, 47};
	SECTION("list, restart off") { s.draws = {{12, 1, 0, 0, 0}}; }
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
		SECTION("leading, trailing and repeated restarts, topology " + std::to_string(topology)) {
			s.indices = {r, r, 0, 1, 8, 9, r, r, r, 10, 30, r, 2, 3, 17, 16, 15, r, 45, r};
			s.configure = [topology](PipelineState& p) {
				p.input_assembly.topology = topology;
				p.input_assembly.primitiveRestartEnable = VK_TRUE;
			};
			s.draws = {{20, 1, 0, 0, 0}};
		}
	}
	SECTION("strip, restart on and off") {
		s.configure = [](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetPrimitiveRestartEnable(cb, VK_TRUE);
			vkCmdDrawIndexed(cb, 12, 1, 0, 0, 0);
			vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
			vkCmdDrawIndexed(cb, 7, 1, 0, 3, 0);
		};
	}
	CompareSceneWithLavapipe("index-ffffffff", s, 2);
}

// §21.1 / §28.x: flat outputs come from the provoking vertex - in strips
// vertex i of triangle i, in fans vertex i + 1 (first-vertex convention).
// draw_ids writes the provoking vertex's gl_VertexIndex: exact.
TEST_CASE("flat outputs of strips and fans come from the provoking vertex as on lavapipe", "[draw]") {
	ScenePair pair;
	std::vector<float> p;
	for (int i = 0; i < 10; ++i) p.insert(p.end(), {-0.9f + 0.18f * float(i), (i & 1) ? 0.1f : -0.7f, 0.5f, 1});
	p.insert(p.end(), {0.0f, 0.5f, 0.5f, 1});
	for (int i = 0; i < 6; ++i) {
		float a = 0.4f + float(i) * 0.45f;
		p.insert(p.end(), {0.8f * std::cos(a), 0.5f + 0.45f * std::sin(a), 0.5f, 1});
	}
	for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
		for (bool indexed : {false, true}) {
			CAPTURE(topology, indexed);
			Scene s;
			s.vertex_shader = "draw_ids.vert.spv";
			s.fragment_shader = "draw_ids.frag.spv";
			s.vertices = Bytes(p);
			s.vertex_stride = 16;
			s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
			if (indexed)
				for (uint32_t i = 0; i < 17; ++i) s.indices.push_back(i);
			s.draws = {{10, 1, 0, 0, 0}, {7, 1, 10, 0, 0}};
			s.configure = [topology](PipelineState& ps) { ps.input_assembly.topology = topology; };
			pair.Compare("provoking", s, 0);
		}
	}
}

// More vertices than one shading batch (128), indexed and not, instanced:
// batches of vertices are shaded in parallel.
TEST_CASE("large indexed and non-indexed grids match lavapipe", "[draw]") {
	ScenePair pair;
	const std::vector<Vertex> grid = Grid(21);  // 441 vertices
	const std::vector<uint32_t> tris = GridTriangles(21);
	std::vector<Vertex> unrolled;
	for (uint32_t i : tris) unrolled.push_back(grid[i]);
	for (bool indexed : {false, true}) {
		CAPTURE(indexed);
		Scene s = ColorScene(indexed ? grid : unrolled);
		s.vertex_shader = "instanced.vert.spv";
		s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
		s.instance_data = Bytes(std::vector<float>{0, 0, 0.2f, 0.9f, 0.05f, 0.03f, 0.8f, 0.1f});
		s.instance_stride = 16;
		if (indexed) s.indices = tris;
		s.draws = {{uint32_t(tris.size()), 2, 0, 0, 0}};
		pair.Compare(indexed ? "large-indexed" : "large", s, 2);
	}
}

// §21.2: index i is read at the bound offset + (firstIndex + i) x size.
TEST_CASE("index buffers bound at an offset match lavapipe", "[draw]") {
	ScenePair pair;
	for (VkIndexType type : {VK_INDEX_TYPE_UINT16, VK_INDEX_TYPE_UINT32}) {
		CAPTURE(type);
		Scene s = ColorScene(Grid(6));
		s.index_type = type;
		s.indices = {35, 35, 35};
		for (uint32_t i : GridTriangles(6)) s.indices.push_back(i);
		const uint32_t size = type == VK_INDEX_TYPE_UINT16 ? 2 : 4;
		s.record_draws = [type, size](VkCommandBuffer cb, const Scene::Buffers& b) {
			vkCmdBindIndexBuffer(cb, b.indices, 3 * size, type);
			vkCmdDrawIndexed(cb, 60, 1, 0, 0, 0);
			vkCmdBindIndexBuffer(cb, b.indices, size, type);  // then firstIndex 2 + 60
			vkCmdDrawIndexed(cb, 60, 1, 62, 0, 0);
		};
		pair.Compare(type == VK_INDEX_TYPE_UINT16 ? "index-offset-u16" : "index-offset-u32", s, 2);
	}
}

TEST_CASE("VK_EXT_vertex_attribute_divisor and VK_EXT_index_type_uint8 match lavapipe", "[draw]") {
	// Vulkan "Vertex Input Address Calculation": a per-instance binding with
	// divisor d reads element firstInstance + (instance - firstInstance) / d,
	// always firstInstance for d = 0. 8-bit indices read like any others, 0xff
	// restarting a strip when primitive restart is on.
	VkPhysicalDeviceIndexTypeUint8FeaturesEXT uint8_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
	uint8_features.indexTypeUint8 = VK_TRUE;
	VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT, &uint8_features};
	divisor_features.vertexAttributeInstanceRateDivisor = VK_TRUE;
	divisor_features.vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
	SceneFeatures features;
	features.v13.pNext = &divisor_features;
	ContextOptions options = features.Options();
	options.device_extensions = {"VK_EXT_vertex_attribute_divisor", "VK_EXT_index_type_uint8"};
	std::unique_ptr<Context> contexts[2] = {Context::Create(Driver::Tessera, options),
	                                        Context::Create(Driver::Lavapipe, options)};
	REQUIRE(contexts[0]);
	REQUIRE(contexts[1]);

	for (uint32_t divisor : {3u, 0u, 1u}) {
		CAPTURE(divisor);
		static VkVertexInputBindingDivisorDescriptionEXT description;
		static VkPipelineVertexInputDivisorStateCreateInfoEXT divisors{
		    VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT, nullptr, 1, &description};
		description = {1, divisor};
		std::vector<Vertex> v;
		Triangle(v, -0.95f, -0.95f, -0.6f, -0.9f, -0.9f, -0.55f, 0.5f, 1, 0, 0);
		v.push_back({-0.6f, -0.55f, 0.5f, 1, 0, 0, 1, 1});  // a fourth vertex: a strip of two triangles
		Scene s = ColorScene(v);
		s.vertex_shader = "instanced.vert.spv";
		s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
		std::vector<float> per_instance;
		for (int i = 0; i < 16; ++i)
			per_instance.insert(per_instance.end(), {0.45f * float(i % 4), 0.45f * float(i / 4), float(i) / 15.0f,
			                                         1.0f - float(i) / 15.0f});
		s.instance_data = Bytes(per_instance);
		s.instance_stride = 16;
		s.index_type = VK_INDEX_TYPE_UINT8_EXT;
		s.indices = {0, 1, 2, 3, 0xff, 3, 2, 1};
		s.configure = [](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
			p.input_assembly.primitiveRestartEnable = VK_TRUE;
			p.vertex_input_next = &divisors;
		};
		s.draws = {{8, 7, 0, 0, 2}};
		SceneResult a = RenderScene(*contexts[0], s), b = RenderScene(*contexts[1], s);
		CompareImages("divisor-" + std::to_string(divisor), s.width, s.height, a.colors[0], b.colors[0], 2);
	}
	for (auto& ctx : contexts) CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("VK_KHR_vertex_attribute_divisor reports the EXT's limits and non-zero firstInstance", "[draw]") {
	// The KHR extension (Vulkan 1.4) shares the EXT's structures and
	// address rule; its properties add supportsNonZeroFirstInstance, which
	// the scene above (firstInstance 2, divisors 3, 0 and 1) exercises.
	// Without the validation layer, whose 1.3.239 release does not know the
	// KHR structure and flags it in the chain.
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR khr{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR};
	VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT ext{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT, &khr};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &ext};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(khr.maxVertexAttribDivisor == ext.maxVertexAttribDivisor);
	CHECK(khr.maxVertexAttribDivisor == UINT32_MAX);
	CHECK(khr.supportsNonZeroFirstInstance == VK_TRUE);
}

TEST_CASE("VK_EXT_primitive_topology_list_restart: a restart index in a list matches lavapipe", "[draw]") {
	// With primitiveTopologyListRestart, a restart index drops the
	// incomplete primitive before it and starts the next one after it.
	VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT restart_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
	restart_features.primitiveTopologyListRestart = VK_TRUE;
	SceneFeatures features;
	features.v13.pNext = &restart_features;
	ContextOptions options = features.Options();
	options.device_extensions = {"VK_EXT_primitive_topology_list_restart"};
	std::unique_ptr<Context> contexts[2] = {Context::Create(Driver::Tessera, options),
	                                        Context::Create(Driver::Lavapipe, options)};
	REQUIRE(contexts[0]);
	REQUIRE(contexts[1]);
	const std::vector<Vertex> v = Grid(6);
	for (VkPrimitiveTopology topology :
	     {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_POINT_LIST}) {
		CAPTURE(topology);
		Scene s = ColorScene(v);
		s.indices = {0, 1, 6, 7, 8, 0xffffffffu, 13, 14, 20, 2, 0xffffffffu, 22, 23, 28, 29, 30, 35};
		if (topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST) {
			// Points need PointSize written: sized_point.vert, size w = 1.
			s.vertex_shader = "sized_point.vert.spv";
			s.attributes.push_back({2, 0, VK_FORMAT_R32_SFLOAT, 12});
		}
		s.draws = {{uint32_t(s.indices.size()), 1, 0, 0, 0}};
		s.configure = [topology](PipelineState& p) {
			p.input_assembly.topology = topology;
			p.input_assembly.primitiveRestartEnable = VK_TRUE;
		};
		SceneResult a = RenderScene(*contexts[0], s), b = RenderScene(*contexts[1], s);
		CompareImages("list-restart-" + std::to_string(topology), s.width, s.height, a.colors[0], b.colors[0], 2);
	}
	for (auto& ctx : contexts) CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("with robustBufferAccess2, indices past the index buffer read zero as on lavapipe", "[draw]") {
	// VUID-vkCmdDrawIndexed-robustBufferAccess2-07825 lifts the bound on
	// firstIndex + indexCount when robustBufferAccess2 is enabled; each
	// index past the buffer is then zero (the CTS's
	// robustness.index_access.*_2). Points show it: vertex 0, which no index
	// in range names, is drawn. (Tessera dropped such indices before.)
	VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
	robustness2.robustBufferAccess2 = VK_TRUE;
	SceneFeatures features;
	features.core.features.robustBufferAccess = VK_TRUE;  // robustBufferAccess2 needs it
	std::unique_ptr<Context> contexts[2] = {
	    Context::Create(Driver::Tessera, features.OptionsWith(&robustness2, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)),
	    Context::Create(Driver::Lavapipe, features.OptionsWith(&robustness2, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME))};
	REQUIRE(contexts[0]);
	REQUIRE(contexts[1]);
	Scene s = ColorScene(Grid(6));
	s.vertex_shader = "sized_point.vert.spv";  // PointSize w = 1
	s.attributes.push_back({2, 0, VK_FORMAT_R32_SFLOAT, 12});
	s.indices = {7, 8, 13, 14, 20, 22};
	// Indices 2..5 in range, then four past the buffer; then a draw wholly
	// past it, from near the largest firstIndex.
	s.draws = {{8, 1, 2, 0, 0}, {5, 1, 0xffffff00u, 3, 0}};
	s.configure = [](PipelineState& p) { p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; };
	SceneResult a = RenderScene(*contexts[0], s), b = RenderScene(*contexts[1], s);
	CompareImages("index-past-buffer", s.width, s.height, a.colors[0], b.colors[0], 2);
	for (auto& ctx : contexts) CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("instances that cover whole tiles, opaque and blended, match lavapipe", "[draw]") {
	// Each instance is a quad over most of the target, shifted a little:
	// later instances cover whole tiles of earlier ones (which the
	// rasterizer may then skip when nothing shows through) but not all of
	// them, and blending must show every instance.
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.8f, -0.9f, -0.9f, 0.8f, 0.5f, 1, 0, 0);
	Triangle(v, 0.8f, -0.9f, 0.8f, 0.8f, -0.9f, 0.8f, 0.5f, 1, 0, 0);
	Scene s = ColorScene(v);
	s.vertex_shader = "instanced.vert.spv";
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	std::vector<float> per_instance;
	for (int i = 0; i < 6; ++i)
		per_instance.insert(per_instance.end(), {0.02f * float(i), 0.03f * float(i), float(i) / 25.0f, 0.1f});
	s.instance_data = Bytes(per_instance);
	s.instance_stride = 16;
	s.draws = {{6, 6, 0, 0, 0}};
	SECTION("opaque") { CompareSceneWithLavapipe("instances-opaque", s, 2); }
	SECTION("blended") {  // added up: every instance shows
		s.configure = [](PipelineState& p) {
			VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
			b.blendEnable = VK_TRUE;
			b.srcColorBlendFactor = b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
			b.srcAlphaBlendFactor = b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
			b.colorBlendOp = b.alphaBlendOp = VK_BLEND_OP_ADD;
		};
		CompareSceneWithLavapipe("instances-blended", s, 2);
	}
}

// A mesh drawn a few cells at a time, as scenes of many small meshes that
// share one vertex and index buffer do: each draw's indices name a few
// vertices of a range spanning whole rows of the grid, and only those are
// shaded (vk/draw.cpp, DrawScratch::slots). Two cells a draw, with 16-bit
// indices and a vertexOffset, 32-bit ones, and strips cut by the restart
// index (a restart in the middle of the named vertices).
TEST_CASE("a shared grid drawn two cells at a time matches lavapipe", "[draw]") {
	ScenePair pair;
	constexpr uint32_t n = 21;  // 441 vertices, 400 cells
	const std::vector<uint32_t> tris = GridTriangles(n);
	for (VkIndexType type : {VK_INDEX_TYPE_UINT16, VK_INDEX_TYPE_UINT32}) {
		for (bool strips : {false, true}) {
			Scene s = ColorScene(Grid(n));
			s.index_type = type;
			const uint32_t restart = type == VK_INDEX_TYPE_UINT16 ? 0xffffu : 0xffffffffu;
			const uint32_t offset = type == VK_INDEX_TYPE_UINT16 ? 7 : 0;  // indices stored 7 higher
			if (!strips) {
				for (uint32_t i : tris) s.indices.push_back(i + offset);
				for (uint32_t first = 0; first < tris.size(); first += 12)
					s.draws.push_back({12, 1, first, -int32_t(offset), 0});
			} else {
				// Per draw: two one-cell strips of a row, a restart between.
				for (uint32_t j = 0; j + 1 < n; ++j)
					for (uint32_t i = 0; i + 2 < n; i += 2) {
						const uint32_t first = uint32_t(s.indices.size()), a = j * n + i;
						s.indices.insert(s.indices.end(),
						                 {a, a + n, a + 1, a + n + 1, restart, a + 1, a + n + 1, a + 2, a + n + 2});
						s.draws.push_back({9, 1, first, 0, 0});
					}
				s.configure = [](PipelineState& p) {
					p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
					p.input_assembly.primitiveRestartEnable = VK_TRUE;
				};
			}
			CAPTURE(type, strips);
			pair.Compare(std::string("two-cell-draws-") + (type == VK_INDEX_TYPE_UINT16 ? "u16" : "u32") +
			                 (strips ? "-strips" : ""),
			             s, 2);
		}
	}
}
