// VK_EXT_vertex_input_dynamic_state against lavapipe: the vertex input
// layout set with vkCmdSetVertexInputEXT between draws of one pipeline, an
// interleaved per-vertex layout for one triangle, then a per-instance color
// from a second binding for the next. Colors are interpolated, so the
// images compare within 2 codes (draw_scene_helpers.h).
#include <catch2/catch.hpp>

#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

struct VertexInputContexts {
	SceneFeatures features;
	VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
	std::unique_ptr<Context> tessera, lavapipe;

	VertexInputContexts() {
		ContextOptions options = features.Options();
		vertex_input.vertexInputDynamicState = VK_TRUE;
		vertex_input.pNext = const_cast<void*>(options.device_features);
		options.device_features = &vertex_input;
		options.device_extensions.push_back(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

}  // namespace

TEST_CASE("VK_EXT_vertex_input_dynamic_state: layouts set between draws render as on lavapipe",
          "[draw][vertex_input_dynamic]") {
	VertexInputContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);

	// Two triangles, each vertex a position and a float color (32 bytes).
	const std::vector<float> vertices = {
	    -0.9f, -0.8f, 0.5f, 1, 1, 0, 0, 1,  //
	    -0.1f, -0.6f, 0.5f, 1, 0, 1, 0, 1,  //
	    -0.6f, 0.8f,  0.5f, 1, 0, 0, 1, 1,  //
	    0.1f,  -0.7f, 0.5f, 1, 1, 1, 1, 1,  //
	    0.9f,  -0.2f, 0.5f, 1, 1, 1, 1, 1,  //
	    0.3f,  0.9f,  0.5f, 1, 1, 1, 1, 1,
	};
	Scene s;
	s.vertex_shader = "scene.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.vertices = scenes::Bytes(vertices);
	s.vertex_stride = 32;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};  // ignored: the state is dynamic
	// Per-instance RGBA8 colors: instance 1 is orange.
	s.instance_data = {0, 0, 255, 255, 255, 128, 0, 255};
	s.instance_stride = 4;
	s.configure = [](PipelineState& ps) { ps.dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT); };
	PFN_vkCmdSetVertexInputEXT set_vertex_input = nullptr;
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
		VkVertexInputBindingDescription2EXT bindings[2] = {
		    {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, 0, 32, VK_VERTEX_INPUT_RATE_VERTEX, 1},
		    {VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, 1, 4, VK_VERTEX_INPUT_RATE_INSTANCE, 1},
		};
		VkVertexInputAttributeDescription2EXT attributes[2] = {
		    {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 0, 0, VK_FORMAT_R32G32B32A32_SFLOAT,
		     0},
		    {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 1, 0, VK_FORMAT_R32G32B32A32_SFLOAT,
		     16},
		};
		// The left triangle: interleaved position and color.
		set_vertex_input(cb, 1, bindings, 2, attributes);
		vkCmdDraw(cb, 3, 1, 0, 0);
		// The right one: the color of instance 1 from binding 1.
		attributes[1].binding = 1;
		attributes[1].format = VK_FORMAT_R8G8B8A8_UNORM;
		attributes[1].offset = 0;
		set_vertex_input(cb, 2, bindings, 2, attributes);
		vkCmdDraw(cb, 3, 1, 3, 1);
	};
	auto render = [&](Context& c) {
		set_vertex_input = c.Proc<PFN_vkCmdSetVertexInputEXT>("vkCmdSetVertexInputEXT");
		REQUIRE(set_vertex_input);
		return RenderScene(c, s);
	};
	const SceneResult ours = render(*ctx.tessera);
	const SceneResult reference = render(*ctx.lavapipe);
	CompareImages("vertex-input-dynamic", s.width, s.height, ours.colors[0], reference.colors[0], 2);
	// Both triangles drew: orange pixels on the right, blended colors on the left.
	size_t orange = 0, other = 0;
	for (size_t i = 0; i + 4 <= reference.colors[0].size(); i += 4) {
		const uint8_t* p = &reference.colors[0][i];
		if (p[0] == 255 && p[1] == 128 && p[2] == 0)
			++orange;
		else if (p[0] || p[1] || p[2])
			++other;
	}
	CHECK(orange > 100);
	CHECK(other > 100);
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
}

TEST_CASE("VK_EXT_legacy_vertex_attributes: unaligned attributes and other numeric types read their bytes",
          "[draw][vertex_input_dynamic]") {
	// The extension lets dynamic vertex input take attributes at any offset
	// and stride, and of a numeric type other than the shader input's
	// (whose values are then implementation-dependent: Tessera's are the
	// format's 32-bit words). The same vertices drawn aligned as floats,
	// and packed at odd offsets with the color as R32G32B32A32_UINT holding
	// the floats' bits, give the same image. Tessera alone, without the
	// validation layer: lavapipe 22.3 and the layer's 1.3.239 release
	// predate the extension.
	SceneFeatures features;
	VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT legacy{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_FEATURES_EXT};
	legacy.legacyVertexAttributes = VK_TRUE;
	VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vertex_input{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
	vertex_input.vertexInputDynamicState = VK_TRUE;
	ContextOptions options = features.OptionsWith(&vertex_input, VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
	legacy.pNext = vertex_input.pNext;  // legacy joins the chain after vertex_input
	vertex_input.pNext = &legacy;
	options.device_extensions.push_back(VK_EXT_LEGACY_VERTEX_ATTRIBUTES_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto set_vertex_input = ctx->Proc<PFN_vkCmdSetVertexInputEXT>("vkCmdSetVertexInputEXT");
	REQUIRE(set_vertex_input);

	const std::vector<float> vertices = {
	    -0.9f, -0.8f, 0.5f, 1, 1,    0,    0,    1,  //
	    0.8f,  -0.6f, 0.5f, 1, 0,    1,    0,    1,  //
	    -0.2f, 0.9f,  0.5f, 1, 0,    0,    1,    1,  //
	    0.5f,  0.5f,  0.3f, 1, 0.5f, 0.2f, 0.7f, 1,  //
	    -0.7f, 0.1f,  0.3f, 1, 0.5f, 0.2f, 0.7f, 1,  //
	    0.2f,  -0.9f, 0.3f, 1, 0.5f, 0.2f, 0.7f, 1,
	};
	Scene s;
	s.vertex_shader = "scene.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};  // ignored: the state is dynamic
	s.configure = [](PipelineState& ps) { ps.dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT); };
	auto draw = [&](uint32_t stride, uint32_t first_offset, VkFormat color_format) {
		s.record_draws = [&, stride, first_offset, color_format](VkCommandBuffer cb, const Scene::Buffers&) {
			VkVertexInputBindingDescription2EXT binding{VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT,
			                                            nullptr,
			                                            0,
			                                            stride,
			                                            VK_VERTEX_INPUT_RATE_VERTEX,
			                                            1};
			VkVertexInputAttributeDescription2EXT attributes[2] = {
			    {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 0, 0,
			     VK_FORMAT_R32G32B32A32_SFLOAT, first_offset},
			    {VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, 1, 0, color_format,
			     first_offset + 16},
			};
			set_vertex_input(cb, 1, &binding, 2, attributes);
			vkCmdDraw(cb, 6, 1, 0, 0);
		};
		return RenderScene(*ctx, s);
	};
	s.vertices = scenes::Bytes(vertices);
	s.vertex_stride = 32;
	const SceneResult aligned = draw(32, 0, VK_FORMAT_R32G32B32A32_SFLOAT);
	// 35-byte vertices from byte 3: no float lies on a 4-byte boundary.
	const std::vector<uint8_t> bytes = scenes::Bytes(vertices);
	std::vector<uint8_t> packed(3 + 6 * 35, 0xcd);
	for (size_t v = 0; v < 6; ++v) std::copy_n(&bytes[v * 32], 32, &packed[3 + v * 35]);
	s.vertices = packed;
	s.vertex_stride = 35;
	const SceneResult unaligned = draw(35, 3, VK_FORMAT_R32G32B32A32_UINT);
	REQUIRE(aligned.colors[0].size() == unaligned.colors[0].size());
	CHECK(aligned.colors[0] == unaligned.colors[0]);
	size_t drawn = 0;
	for (size_t i = 0; i + 4 <= aligned.colors[0].size(); i += 4) drawn += aligned.colors[0][i + 2] != 0;
	CHECK(drawn > 100);
}
