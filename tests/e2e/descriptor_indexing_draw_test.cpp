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

// quadDivergentImplicitLod: the implicit LOD of a sampling instruction
// whose lanes within a quad use different descriptors is well defined
// (Vulkan "Derivative Image Operations"): the derivatives come from the
// whole quad's coordinates, whichever descriptor each lane reads. Through
// an array of two descriptors of one mipmapped texture, with the element
// alternating pixel by pixel, the image equals the plain sampler2D one bit
// for bit; a LOD from each descriptor's lanes alone (half a quad, whose
// other half reads as a zero difference) would pick another level.
// The levels are solid colors, so the image shows which levels were read.
TEST_CASE("descriptor indexing: implicit LOD with quad-divergent descriptors", "[descriptor_indexing][scene]") {
	SceneFeatures features;
	features.v12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	CHECK(p12.quadDivergentImplicitLod == VK_TRUE);
	Scene s = ColorScene({});
	// A quad minified about 3x along s and 1.5x along t (LOD about 1.6,
	// between levels 1 and 2).
	std::vector<Vertex> v = {{-0.8f, -0.8f, 0.5f, 1, 0, 0, 0, 0},   {0.8f, -0.8f, 0.5f, 1, 3, 0, 0, 0},
	                         {-0.8f, 0.8f, 0.5f, 1, 0, 1.5f, 0, 0}, {0.8f, -0.8f, 0.5f, 1, 3, 0, 0, 0},
	                         {0.8f, 0.8f, 0.5f, 1, 3, 1.5f, 0, 0},  {-0.8f, 0.8f, 0.5f, 1, 0, 1.5f, 0, 0}};
	s.vertices = Bytes(v);
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	s.texture.format = VK_FORMAT_R8G8B8A8_UNORM;
	s.texture.width = s.texture.height = 64;
	s.texture.mips = 4;
	const uint8_t colors[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
	for (uint32_t level = 0; level < 4; ++level)
		for (uint32_t texel = 0; texel < (64u >> level) * (64u >> level); ++texel)
			s.texture.data.insert(s.texture.data.end(), colors[level], colors[level] + 4);
	s.texture.sampler.magFilter = s.texture.sampler.minFilter = VK_FILTER_LINEAR;
	s.texture.sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	s.texture.sampler.addressModeU = s.texture.sampler.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	s.texture.sampler.maxLod = VK_LOD_CLAMP_NONE;
	s.texture.array_count = 2;
	s.fragment_shader = "tex_implicit.frag.spv";
	const SceneResult plain = RenderScene(*ctx, s);
	s.fragment_shader = "tex_quad_divergent.frag.spv";
	const SceneResult divergent = RenderScene(*ctx, s);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
	CHECK(divergent.colors[0] == plain.colors[0]);
	// The middle pixel mixes levels 1 and 2 (green and blue), not level 0's red.
	const uint8_t* middle = &plain.colors[0][(32 * 64 + 32) * 4];
	CHECK(middle[0] < 8);
	CHECK(middle[1] > 16);
	CHECK(middle[2] > 16);
}
