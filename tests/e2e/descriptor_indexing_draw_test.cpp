// Descriptor indexing in a fragment shader: a runtime-sized array of
// combined image samplers indexed with nonuniformEXT draws the same image as
// the plain sampler2D shader (lavapipe 22.3 has no runtimeDescriptorArray, so
// Tessera is compared with itself: same texture, same sampling, bit-exact).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("descriptor indexing: a runtime-sized texture array in a fragment shader", "[descriptor_indexing][scene]") {
	SceneFeatures features;
	features.v12.runtimeDescriptorArray = VK_TRUE;
	features.v12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	// A rotated quad over a gradient: implicit LOD from the quad derivatives.
	Scene s = ColorScene({});
	const float c = std::cos(0.5f), sn = std::sin(0.5f);
	auto rot = [&](float x, float y, float s0, float t0) {
		return Vertex{0.9f * (c * x - sn * y), 0.9f * (sn * x + c * y), 0.5f, 1, s0, t0, 0, 0};
	};
	std::vector<Vertex> v = {rot(-1, -1, 0, 0), rot(1, -1, 3, 0), rot(-1, 1, 0, 3),
	                         rot(1, -1, 3, 0),  rot(1, 1, 3, 3),  rot(-1, 1, 0, 3)};
	s.vertices = Bytes(v);
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	s.texture.format = VK_FORMAT_R8G8B8A8_UNORM;
	s.texture.width = s.texture.height = 16;
	for (uint32_t y = 0; y < 16; ++y)
		for (uint32_t x = 0; x < 16; ++x)
			for (uint32_t ch = 0; ch < 4; ++ch) s.texture.data.push_back(uint8_t((x * 16 + y * 5 + ch * 70) & 0xff));
	s.texture.sampler.magFilter = s.texture.sampler.minFilter = VK_FILTER_LINEAR;
	s.texture.sampler.maxLod = VK_LOD_CLAMP_NONE;
	s.fragment_shader = "tex_implicit.frag.spv";
	SceneResult plain = RenderScene(*ctx, s);
	s.fragment_shader = "tex_runtime_array.frag.spv";
	SceneResult indexed = RenderScene(*ctx, s);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
	REQUIRE(plain.colors.size() == 1);
	CHECK(indexed.colors[0] == plain.colors[0]);
	// The quad covers much of the image, textured (not the clear color).
	const std::vector<uint8_t>& image = plain.colors[0];
	size_t textured = 0;
	for (size_t i = 0; i < image.size(); i += 4)
		textured += image[i] || image[i + 1] || image[i + 2] || image[i + 3] != 255;
	CHECK(textured > 1000);
}
