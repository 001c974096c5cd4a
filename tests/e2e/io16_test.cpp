// 16-bit interface variables (storageInputOutput16, Vulkan "16-bit
// storage"), through the loader with the validation layer on. Lavapipe
// 22.3 lacks the feature, so the references are the spec's values: halves
// passed between stages draw as the same colors passed as floats do, and
// 16-bit integers keep 16-bit arithmetic (wrap-around, sign) from a 16-bit
// attribute to a 16-bit attachment.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

struct Io16Vertex {
	float x, y, z, w;
	float r, g, b, a;
	int16_t ints[2];
};

std::unique_ptr<Context> Io16Context(SceneFeatures& features) {
	features.core.features.shaderInt16 = VK_TRUE;
	features.v11.storageInputOutput16 = VK_TRUE;
	features.v11.storageBuffer16BitAccess = VK_TRUE;
	features.v12.shaderFloat16 = VK_TRUE;
	return Context::Create(Driver::Tessera, features.Options());
}

// Two triangles of io16.vert's vertices: a gradient, and a constant red of
// 0.5 (flat values from the first vertex: -300 and 200).
Scene Io16Scene(const char* fragment_shader) {
	const std::vector<Io16Vertex> v = {
	    {-0.9f, -0.9f, 0.5f, 1, 1.0f, 0.25f, 0.0f, 1, {-300, 200}},
	    {0.9f, -0.8f, 0.5f, 1, 0.0f, 1.0f, 0.5f, 1, {7, 8}},
	    {-0.8f, 0.9f, 0.5f, 1, 0.125f, 0.0f, 1.0f, 1, {9, 10}},
	    {0.9f, 0.9f, 0.5f, 1, 0.5f, 0.5f, 0.5f, 1, {-300, 200}},
	    {-0.7f, 0.95f, 0.5f, 1, 0.5f, 0.5f, 0.5f, 1, {11, 12}},
	    {0.95f, -0.7f, 0.5f, 1, 0.5f, 0.5f, 0.5f, 1, {13, 14}},
	};
	Scene s;
	s.vertex_shader = "io16.vert.spv";
	s.fragment_shader = fragment_shader;
	s.vertices.resize(v.size() * sizeof(Io16Vertex));
	std::memcpy(s.vertices.data(), v.data(), s.vertices.size());
	s.vertex_stride = sizeof(Io16Vertex);
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
	                {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
	                {2, 0, VK_FORMAT_R16G16_SINT, 32}};
	s.draws = {{6, 1, 0, 0, 0}};
	return s;
}

}  // namespace

TEST_CASE("16-bit varyings: halves interpolate as floats do", "[draw][shader][io16]") {
	SceneFeatures features;
	auto ctx = Io16Context(features);
	REQUIRE(ctx);
	VkPhysicalDevice16BitStorageFeatures storage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &storage};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f2);
	CHECK(storage.storageInputOutput16 == VK_TRUE);

	const Scene halves = Io16Scene("io16_color.frag.spv");
	// The same colors through 32-bit varyings (scene.vert reads the same
	// first two attributes).
	Scene floats = halves;
	floats.vertex_shader = "scene.vert.spv";
	floats.fragment_shader = "scene.frag.spv";
	floats.attributes.pop_back();
	const SceneResult a = RenderScene(*ctx, halves), b = RenderScene(*ctx, floats);
	// A half keeps 11 significant bits: within one code of 8-bit UNORM.
	CompareImages("io16-halves", halves.width, halves.height, a.colors[0], b.colors[0], 1, 0);
	size_t covered = 0;
	for (size_t i = 0; i < a.colors[0].size(); i += 4) covered += a.colors[0][i] || a.colors[0][i + 1];
	CHECK(covered > 1000);
	// Into a 32-bit float attachment: each value the fragment stage read is
	// a half (not the float the interpolation gave), exactly.
	Scene wide = halves;
	wide.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
	const SceneResult c = RenderScene(*ctx, wide);
	REQUIRE(c.colors[0].size() == size_t(wide.width) * wide.height * 16);
	size_t inexact = 0, fractions = 0;
	for (size_t i = 0; i < c.colors[0].size(); i += 4) {
		float value;
		std::memcpy(&value, &c.colors[0][i], 4);
		inexact += float(static_cast<_Float16>(value)) != value;
		fractions += value > 0.0f && value < 1.0f;
	}
	CHECK(fractions > 1000);
	CHECK(inexact == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("16-bit varyings: integers keep 16-bit arithmetic from attribute to attachment", "[draw][shader][io16]") {
	SceneFeatures features;
	auto ctx = Io16Context(features);
	REQUIRE(ctx);
	Scene s = Io16Scene("io16.frag.spv");
	// 32-bit integers: the 16-bit outputs are sign-extended.
	s.color_format = VK_FORMAT_R32G32B32A32_SINT;
	s.clear_color.int32[0] = s.clear_color.int32[1] = s.clear_color.int32[2] = s.clear_color.int32[3] = 0;
	s.draws = {{3, 1, 3, 0, 0}};  // the constant-red triangle
	const SceneResult r = RenderScene(*ctx, s);
	REQUIRE(r.colors[0].size() == size_t(s.width) * s.height * 16);
	// x: -300 - 5; y: (200 - 5) * 300 = 58500, wrapped to -7036; z: an
	// interpolated 0.5 read as a half (exactly 0.5) times 1000; w: the
	// unsigned value u16(-300) + 3 = 65239 as a signed one, -297.
	const int32_t expected[4] = {-305, -7036, 500, -297};
	size_t drawn = 0, wrong = 0;
	for (size_t p = 0; p < size_t(s.width) * s.height; ++p) {
		int32_t texel[4];
		std::memcpy(texel, &r.colors[0][p * 16], 16);
		if (!texel[0] && !texel[1] && !texel[2] && !texel[3]) continue;
		++drawn;
		if (std::memcmp(texel, expected, 16) != 0) {
			if (!wrong)
				UNSCOPED_INFO("pixel " << p << ": " << texel[0] << " " << texel[1] << " " << texel[2] << " "
				                       << texel[3]);
			++wrong;
		}
	}
	CHECK(drawn > 500);
	CHECK(wrong == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("16-bit outputs take 2 bytes each in transform feedback", "[draw][shader][io16]") {
	SceneFeatures features;
	features.core.features.shaderInt16 = VK_TRUE;
	features.v11.storageInputOutput16 = VK_TRUE;
	features.v12.shaderFloat16 = VK_TRUE;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
	xfb.transformFeedback = VK_TRUE;
	ContextOptions options = features.Options();
	xfb.pNext = const_cast<void*>(options.device_features);
	options.device_features = &xfb;
	options.device_extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto bind = ctx->Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
	auto begin = ctx->Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
	auto end = ctx->Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
	REQUIRE(bind);
	REQUIRE(begin);
	REQUIRE(end);
	TestBuffer buffer = ctx->CreateBuffer(64, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT);
	std::memset(buffer.data, 0xab, buffer.size);

	const std::vector<float> positions = {-0.5f, -0.5f, 0.5f, 1, 0.75f, -0.5f, 0.5f, 1, -0.5f, 0.3f, 0.5f, 1};
	Scene s;
	s.vertex_shader = "io16_xfb.vert.spv";
	s.vertices = Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.configure = [](PipelineState& ps) { ps.rasterization.rasterizerDiscardEnable = VK_TRUE; };
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
		const VkDeviceSize offset = 0;
		bind(cb, 0, 1, &buffer.buffer, &offset, nullptr);
		begin(cb, 0, 0, nullptr, nullptr);
		vkCmdDraw(cb, 3, 1, 0, 0);
		end(cb, 0, 0, nullptr, nullptr);
	};
	RenderScene(*ctx, s);
	for (uint32_t v = 0; v < 3; ++v) {
		CAPTURE(v);
		const uint8_t* record = buffer.data + 16 * v;
		const _Float16 halves[3] = {_Float16(float(v) * 0.5f), _Float16(-1.25f), _Float16(positions[v * 4])};
		CHECK(std::memcmp(record, halves, 6) == 0);
		int16_t small;
		std::memcpy(&small, record + 6, 2);
		CHECK(small == int16_t(-1000 - int(v)));
		float single;
		std::memcpy(&single, record + 8, 4);
		CHECK(single == float(v) + 0.25f);
		for (int k = 12; k < 16; ++k) CHECK(record[k] == 0xab);
	}
	CHECK(buffer.data[48] == 0xab);
	ctx->Destroy(buffer);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}
