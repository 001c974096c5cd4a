// Textured scenes against lavapipe: textures sampled by fragment and vertex
// shaders of real draws (implicit LOD from the 2x2 quads, explicit LOD,
// gradients, fetches), cube maps, shadow maps, sRGB, a storage image written
// by fragments, and a subpass input.
//
// Tolerances (in 8-bit codes, per channel):
// - Fetches, NEAREST lookups with coordinates away from texel edges and
//   constant LODs, depth comparisons away from the reference: exact up to
//   the 2 codes of an interpolated varying (draw_scene_helpers.h).
// - LINEAR and trilinear filtering: 4 codes, the bound image_scene.h derives
//   from subTexelPrecisionBits = mipmapPrecisionBits = 8 and lavapipe's 8-bit
//   fixed-point filter, plus the 2 codes of the varying coordinates.
// - Trilinear (LINEAR mip mode) at a non-integer LOD: lavapipe computes
//   lambda = log2(rho) with an approximate log2 (exponent + mantissa - 1,
//   exact at powers of two, up to 0.0861 low in between; §16.5.6 leaves the
//   LOD's precision to the implementation), so its mip blend weight may be
//   0.0861 off. The tinted checkerboards below differ by at most 236 codes
//   between texels of adjacent levels: 4 + 0.0861 * 236 = 24 codes
//   (kTrilinear). Tessera's lambda is checked exactly by the unit tests
//   (tests/unit/texture), so this bound only has to catch wrong levels.
// - Implicit LOD: both drivers difference the quad (Vulkan 1.3 §16.5.2 lets
//   them use coarse or fine derivatives, and §16.5.6 lets the scale factor
//   be approximated: lavapipe uses an approximate log2), so the mip blend
//   weight differs slightly; where LOD crosses a level boundary (NEAREST mip
//   modes, or the mag/min switch) a few pixels may take the other level:
//   counted as outliers, at most 1% of the image.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// scene.vert's color carries (s, t, r, q) for the texture shaders.
using TexVertex = Vertex;

VkSamplerCreateInfo MakeSampler(VkFilter filter, VkSamplerMipmapMode mip,
                                VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_REPEAT) {
	VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	info.magFilter = info.minFilter = filter;
	info.mipmapMode = mip;
	info.addressModeU = info.addressModeV = info.addressModeW = mode;
	info.maxLod = VK_LOD_CLAMP_NONE;
	info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
	return info;
}

// A checkerboard of `cell`-texel squares at every level (cells halve with
// the level, down to 1), each level tinted its own way so the level read
// shows in the image, RGBA8.
SceneTexture Checkerboard(uint32_t size, uint32_t mips, uint32_t cell, VkFormat format = VK_FORMAT_R8G8B8A8_UNORM) {
	SceneTexture t;
	t.format = format;
	t.width = t.height = size;
	t.mips = mips;
	static const uint8_t kTint[8][3] = {{255, 255, 255}, {255, 96, 96},  {96, 255, 96},  {96, 96, 255},
	                                    {255, 255, 96},  {96, 255, 255}, {255, 96, 255}, {160, 160, 160}};
	for (uint32_t level = 0; level < mips; ++level) {
		const uint32_t n = std::max(1u, size >> level), c = std::max(1u, cell >> level);
		for (uint32_t y = 0; y < n; ++y)
			for (uint32_t x = 0; x < n; ++x) {
				const bool on = ((x / c) + (y / c)) % 2 == 0;
				for (int ch = 0; ch < 3; ++ch)
					t.data.push_back(on ? kTint[level % 8][ch] : uint8_t(kTint[level % 8][ch] / 5));
				t.data.push_back(255);
			}
	}
	return t;
}

// A smooth gradient texture (no mips): R from x, G from y, B a ripple.
SceneTexture Gradient(uint32_t size, VkFormat format = VK_FORMAT_R8G8B8A8_UNORM) {
	SceneTexture t;
	t.format = format;
	t.width = t.height = size;
	for (uint32_t y = 0; y < size; ++y)
		for (uint32_t x = 0; x < size; ++x) {
			t.data.push_back(uint8_t(x * 255 / (size - 1)));
			t.data.push_back(uint8_t(y * 255 / (size - 1)));
			t.data.push_back(uint8_t(128 + 120 * std::sin(float(x + 2 * y) * 0.4f)));
			t.data.push_back(255);
		}
	return t;
}

Scene TexturedScene(const std::vector<TexVertex>& vertices, const std::string& fragment, SceneTexture texture) {
	Scene s = ColorScene(vertices);
	s.fragment_shader = fragment;
	s.texture = std::move(texture);
	s.draws = {{uint32_t(vertices.size()), 1, 0, 0, 0}};
	return s;
}

// A screen-aligned quad from (x0, y0) to (x1, y1) with texture coordinates
// (s0, t0) to (s1, t1); r and q constant.
void Quad(std::vector<TexVertex>& v, float x0, float y0, float x1, float y1, float s0, float t0, float s1, float t1,
          float r = 0.0f, float q = 0.0f) {
	const TexVertex a{x0, y0, 0.5f, 1, s0, t0, r, q}, b{x1, y0, 0.5f, 1, s1, t0, r, q},
	    c{x0, y1, 0.5f, 1, s0, t1, r, q}, d{x1, y1, 0.5f, 1, s1, t1, r, q};
	v.insert(v.end(), {a, b, c, b, d, c});
}

// A floor receding from the bottom of the screen (w = 1) to the horizon
// (w = far): a perspective-correct (s, t) repeats `repeat` times across and
// `repeat * depth` times along.
std::vector<TexVertex> RecedingPlane(float far, float repeat, float depth) {
	auto at = [](float x, float y, float w, float s, float t) { return TexVertex{x * w, y * w, 0.5f, w, s, t, 0, 0}; };
	// s follows the world x (clip x), so the far edge, as wide on screen,
	// spans `far` times as many texels: (s, t) is affine on the plane.
	const TexVertex a = at(-1.0f, 1.0f, 1.0f, 0, 0), b = at(1.0f, 1.0f, 1.0f, repeat, 0),
	                c = at(-1.0f, -0.9f, far, repeat * (1.0f - far) / 2.0f, repeat * depth),
	                d = at(1.0f, -0.9f, far, repeat * (1.0f + far) / 2.0f, repeat * depth);
	return {a, b, c, b, d, c};
}

constexpr int kTrilinear = 24;

uint32_t OnePercent(const Scene& s) { return s.width * s.height / 100; }

}  // namespace

TEST_CASE("a textured quad with implicit LOD matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	// Magnified (LINEAR, one level): 16x16 texels over 64x64 pixels.
	std::vector<TexVertex> v;
	Quad(v, -1, -1, 1, 1, 0.0f, 0.0f, 1.0f, 1.0f);
	Scene s = TexturedScene(v, "tex_implicit.frag.spv", Gradient(16));
	s.texture.sampler =
	    MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	pair.Compare("tex-magnified", s, 4);
	// A rotated, scaled quad over a NEAREST checkerboard with mips: the
	// level follows the quad's derivatives (tints tell the levels apart).
	v.clear();
	const float c = std::cos(0.5f), sn = std::sin(0.5f);
	auto rot = [&](float x, float y, float s0, float t0) {
		return TexVertex{0.9f * (c * x - sn * y), 0.9f * (sn * x + c * y), 0.5f, 1, s0, t0, 0, 0};
	};
	v = {rot(-1, -1, 0, 0), rot(1, -1, 3, 0), rot(-1, 1, 0, 3), rot(1, -1, 3, 0), rot(1, 1, 3, 3), rot(-1, 1, 0, 3)};
	s = TexturedScene(v, "tex_implicit.frag.spv", Checkerboard(64, 7, 8));
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	pair.Compare("tex-rotated-trilinear", s, kTrilinear, OnePercent(s));
}

TEST_CASE("a mipmapped checkerboard on a receding plane (trilinear) matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	Scene s = TexturedScene(RecedingPlane(12.0f, 4.0f, 3.0f), "tex_implicit.frag.spv", Checkerboard(128, 8, 8));
	s.width = s.height = 96;
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	pair.Compare("tex-receding-trilinear", s, kTrilinear, OnePercent(s));
	// NEAREST mip mode: the level boundaries are LOD thresholds.
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST);
	// Level boundaries move with lavapipe's approximate log2 (up to 0.0861):
	// pixels within that band of a boundary read the other level (3%).
	pair.Compare("tex-receding-bilinear", s, 4, 3 * OnePercent(s));
}

TEST_CASE("a receding plane with 16x anisotropic filtering follows the spec's LOD rule",
          "[texture][scene][anisotropy]") {
	// §16 "Texel Anisotropic Filtering" leaves the footprint's sampling
	// scheme to the implementation but fixes the LOD: lambda_base =
	// log2(rho_max / eta), eta = min(rho_max / rho_min, maxAnisotropy).
	// lavapipe (Mesa 22.3) does not follow that rule: at the bottom center of
	// this plane it reads level 0 alone where the rule gives lambda = 0.49
	// (ours: a half blend of levels 0 and 1), so its image is no reference
	// (thousands of pixels differ by up to ~180 codes). The scene is checked
	// against the rule instead; the scheme itself is unit-tested in
	// tests/unit/texture/anisotropy_test.cpp.
	ScenePair pair;
	Scene s = TexturedScene(RecedingPlane(12.0f, 4.0f, 3.0f), "tex_implicit.frag.spv", Checkerboard(128, 8, 8));
	s.width = s.height = 96;
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	s.texture.sampler.anisotropyEnable = VK_TRUE;
	s.texture.sampler.maxAnisotropy = 16.0f;
	auto [ours, reference] = pair.Render(s);
	// Bottom center (row 94, w ~ 1): ds/dx = 4 * 128 / 96 = 5.33 texels a
	// pixel; t/w goes from 0 to 1 over the plane's 91.2 rows and w = 1
	// there, so dt/dy = 128 / 91.2 = 1.40 texels: eta = 3.8 (< 16), lambda =
	// log2(1.40) = 0.49, level 1's weight delta = 0.49. The bright checker
	// cells are level 0's white (255) blended with level 1's (255, 96, 96):
	// G = 255 - 159 delta. Allow delta in [0.35, 0.65] (the row spans
	// slightly different w; the dark cells are skipped).
	uint32_t bright = 0;
	for (uint32_t x = 40; x < 56; ++x) {
		const uint8_t* p = &ours.colors[0][(94 * s.width + x) * 4];
		if (p[0] < 240) continue;
		++bright;
		const float delta = (255.0f - float(p[1])) / 159.0f;
		INFO("x " << x << ": " << int(p[0]) << "," << int(p[1]) << "," << int(p[2]));
		CHECK(delta >= 0.35f);
		CHECK(delta <= 0.65f);
	}
	CHECK(bright >= 4);
	// And it is not the isotropic image (which reads level log2(5.33) =
	// 2.4 there).
	s.texture.sampler.anisotropyEnable = VK_FALSE;
	s.texture.sampler.maxAnisotropy = 1.0f;
	auto [iso, iso_reference] = pair.Render(s);
	uint32_t differ = 0;
	for (size_t i = 0; i < ours.colors[0].size(); ++i)
		differ += std::abs(int(ours.colors[0][i]) - int(iso.colors[0][i])) > 8;
	CHECK(differ > OnePercent(s));
}

TEST_CASE("textureLod, textureGrad and texelFetch in fragment shaders match lavapipe", "[texture][scene]") {
	ScenePair pair;
	std::vector<TexVertex> v;
	// Four quads, each a constant LOD of 0.0, 1.5, 2.25 and 3.0.
	const float lods[4] = {0.0f, 1.5f, 2.25f, 3.0f};
	for (int q = 0; q < 4; ++q) {
		const float x0 = -1.0f + float(q % 2), y0 = -1.0f + float(q / 2);
		Quad(v, x0, y0, x0 + 1.0f, y0 + 1.0f, 0.03f, 0.05f, 1.7f, 1.3f, lods[q]);
	}
	Scene s = TexturedScene(v, "tex_lod.frag.spv", Checkerboard(64, 7, 8));
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	pair.Compare("tex-lod", s, 4);
	// textureGrad: anisotropic gradients (z across, w along) per quad.
	v.clear();
	const float grads[4][2] = {{0.01f, 0.01f}, {0.1f, 0.02f}, {0.02f, 0.2f}, {0.3f, 0.3f}};
	for (int q = 0; q < 4; ++q) {
		const float x0 = -1.0f + float(q % 2), y0 = -1.0f + float(q / 2);
		Quad(v, x0, y0, x0 + 1.0f, y0 + 1.0f, 0.03f, 0.05f, 1.7f, 1.3f, grads[q][0], grads[q][1]);
	}
	s = TexturedScene(v, "tex_grad.frag.spv", Checkerboard(64, 7, 8));
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	pair.Compare("tex-grad", s, kTrilinear);
	// texelFetch of levels 0..3: exact (no filtering, no freedom).
	v.clear();
	for (int q = 0; q < 4; ++q) {
		const float x0 = -1.0f + float(q % 2), y0 = -1.0f + float(q / 2);
		Quad(v, x0, y0, x0 + 1.0f, y0 + 1.0f, 0, 0, 0, 0, float(q) + 0.25f);
	}
	s = TexturedScene(v, "tex_fetch.frag.spv", Checkerboard(64, 7, 8));
	s.texture.sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST);
	pair.Compare("tex-fetch", s, 0);
}

TEST_CASE("a cube map sampled by direction matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	// Six 16x16 faces, each its own gradient, with 5 levels.
	SceneTexture t;
	t.format = VK_FORMAT_R8G8B8A8_UNORM;
	t.view_type = VK_IMAGE_VIEW_TYPE_CUBE;
	t.width = t.height = 16;
	t.mips = 5;
	t.layers = 6;
	for (uint32_t level = 0; level < t.mips; ++level) {
		const uint32_t n = 16 >> level;
		for (uint32_t face = 0; face < 6; ++face)
			for (uint32_t y = 0; y < n; ++y)
				for (uint32_t x = 0; x < n; ++x) {
					t.data.push_back(uint8_t(40 * face + x * 12));
					t.data.push_back(uint8_t(255 - y * 14 - 20 * level));
					t.data.push_back(uint8_t(((x + y) % 2) * 200 + face * 9));
					t.data.push_back(255);
				}
	}
	// Directions over a sphere-like sweep: each vertex a direction, so the
	// fragments interpolate across faces and seams.
	std::vector<TexVertex> v;
	const int n = 4;
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i) {
			auto dir = [&](int a, int b) {
				const float theta = float(a) / n * 6.2832f, phi = float(b) / n * 3.1416f - 1.5708f + 0.1f;
				const float x = -1.0f + 2.0f * float(a) / n, y = -1.0f + 2.0f * float(b) / n;
				return TexVertex{
				    x, y, 0.5f, 1, std::cos(phi) * std::cos(theta), std::sin(phi), std::cos(phi) * std::sin(theta), 0};
			};
			const TexVertex a = dir(i, j), b = dir(i + 1, j), c = dir(i, j + 1), d = dir(i + 1, j + 1);
			v.insert(v.end(), {a, b, c, b, d, c});
		}
	Scene s = TexturedScene(v, "tex_cube.frag.spv", t);
	s.texture.sampler =
	    MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	pair.Compare("tex-cube-nearest", s, 2, OnePercent(s));
	s.texture.sampler =
	    MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	pair.Compare("tex-cube-linear", s, kTrilinear, OnePercent(s));
}

TEST_CASE("a shadow map with a depth-compare sampler (PCF) matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	// A 32x32 D32 depth map: a raised block and a slope.
	SceneTexture t;
	t.format = VK_FORMAT_D32_SFLOAT;
	t.width = t.height = 32;
	for (uint32_t y = 0; y < 32; ++y)
		for (uint32_t x = 0; x < 32; ++x) {
			float d = (x > 8 && x < 20 && y > 10 && y < 24) ? 0.3f : 0.2f + 0.02f * float(x);
			uint8_t bytes[4];
			std::memcpy(bytes, &d, 4);
			t.data.insert(t.data.end(), bytes, bytes + 4);
		}
	std::vector<TexVertex> v;
	Quad(v, -1, -1, 1, 1, 0.0f, 0.0f, 1.0f, 1.0f, 0.45f);
	// The reference varies along the quad: r from 0.25 to 0.65 diagonally.
	v[0].b = 0.25f, v[1].b = v[3].b = 0.45f, v[2].b = v[5].b = 0.45f, v[4].b = 0.65f;
	Scene s = TexturedScene(v, "tex_shadow.frag.spv", t);
	s.texture.sampler =
	    MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	s.texture.sampler.compareEnable = VK_TRUE;
	s.texture.sampler.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
	// NEAREST: each fragment's result is 0 or 1; the edges of the
	// comparison (reference within rounding of the stored depth, or the
	// coordinate on a texel edge) may go either way: outliers.
	pair.Compare("tex-shadow-nearest", s, 2, OnePercent(s));
	// LINEAR = PCF: the 2x2 comparison results filtered (§16.7.1 "Depth
	// Compare Operation" then LINEAR filtering).
	s.texture.sampler.magFilter = s.texture.sampler.minFilter = VK_FILTER_LINEAR;
	pair.Compare("tex-shadow-pcf", s, 4, OnePercent(s));
}

TEST_CASE("a texture sampled in the vertex shader matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	// A grid whose vertices take their color from the texture (explicit LOD
	// in the vertex stage; the color is then interpolated).
	std::vector<TexVertex> v;
	const int n = 8;
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i) {
			auto at = [&](int a, int b) {
				const float x = -1.0f + 2.0f * float(a) / n, y = -1.0f + 2.0f * float(b) / n;
				return TexVertex{x * 0.95f,
				                 y * 0.95f,
				                 0.5f,
				                 1,
				                 0.1f + 0.1f * float(a),
				                 0.07f + 0.11f * float(b),
				                 float((a + b) % 4) * 0.5f,
				                 0};
			};
			const TexVertex a = at(i, j), b = at(i + 1, j), c = at(i, j + 1), d = at(i + 1, j + 1);
			v.insert(v.end(), {a, b, c, b, d, c});
		}
	Scene s = TexturedScene(v, "scene.frag.spv", Checkerboard(32, 6, 4));
	s.vertex_shader = "tex_vertex.vert.spv";
	s.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	pair.Compare("tex-vertex", s, kTrilinear);
}

TEST_CASE("a storage image written by fragments matches lavapipe", "[texture][scene]") {
	ScenePair pair;
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.8f, 0.85f, -0.6f, -0.2f, 0.9f, 0.5f, 1, 0, 0);
	Scene s = ColorScene(v);
	s.fragment_shader = "tex_storage.frag.spv";
	s.storage_image_format = VK_FORMAT_R8G8B8A8_UNORM;
	auto [ours, reference] = pair.Render(s);
	// Coverage exact, varyings within 2 codes; pixels not covered stay zero.
	CompareImages("storage-image-color", s.width, s.height, ours.colors[0], reference.colors[0], 2);
	CompareImages("storage-image", s.width, s.height, ours.storage_image, reference.storage_image, 2);
	uint32_t written = 0;
	for (size_t p = 0; p < ours.storage_image.size() / 4; ++p) written += ours.storage_image[p * 4 + 3] == 255;
	CHECK(written > s.width * s.height / 4);
}

TEST_CASE("sRGB textures decode like lavapipe", "[texture][scene]") {
	ScenePair pair;
	std::vector<TexVertex> v;
	Quad(v, -1, -1, 1, 1, 0.0f, 0.0f, 1.0f, 1.0f);
	// NEAREST: the sRGB decode of each texel (§16.3 "Format Conversion"),
	// then UNORM: exact up to the float->UNORM rounding of §3.9.2.
	Scene s = TexturedScene(v, "tex_implicit.frag.spv", Gradient(16, VK_FORMAT_R8G8B8A8_SRGB));
	s.texture.sampler =
	    MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	pair.Compare("tex-srgb-nearest", s, 1);
	// LINEAR: decoded before filtering (§16.7 "Texel Filtering" works on
	// converted values), so the blend is in linear space.
	s.texture.sampler =
	    MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	pair.Compare("tex-srgb-linear", s, 4);
	// And an sRGB color attachment: the shader's linear result encoded.
	s.color_format = VK_FORMAT_R8G8B8A8_SRGB;
	pair.Compare("tex-srgb-to-srgb", s, 4);
}

TEST_CASE("a subpass input reads the previous subpass's color like lavapipe", "[texture][scene][input_attachment]") {
	// Subpass 0 draws two triangles into attachment 0; subpass 1 draws a
	// full-screen quad whose fragments read attachment 0 at their pixel
	// (subpassLoad) and write a function of it into attachment 1. The
	// input read is exact (a texel fetch), so attachment 1 matches within
	// the 2 codes of the varying colors mixed in.
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.8f, 0.85f, -0.6f, -0.2f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(v, 0.9f, 0.9f, -0.7f, 0.4f, 0.6f, -0.95f, 0.5f, 0, 0.5f, 1);
	const Vertex q[4] = {{-1, -1, 0.5f, 1, 0.2f, 0.4f, 0.6f, 1},
	                     {1, -1, 0.5f, 1, 0.8f, 0.1f, 0.3f, 1},
	                     {-1, 1, 0.5f, 1, 0.0f, 0.9f, 0.5f, 1},
	                     {1, 1, 0.5f, 1, 1.0f, 1.0f, 0.0f, 1}};
	v.insert(v.end(), {q[0], q[1], q[2], q[1], q[3], q[2]});
	Scene s = ColorScene(v);
	s.color_attachments = 2;
	s.draws = {{6, 1, 0, 0, 0}};
	s.second_subpass_draws = {{6, 1, 6, 0, 0}};
	s.input_attachment = true;
	s.second_fragment_shader = "subpass_input.frag.spv";
	ScenePair pair;
	auto [ours, reference] = pair.Render(s);
	CompareImages("subpass-input-first", s.width, s.height, ours.colors[0], reference.colors[0], 2);
	CompareImages("subpass-input", s.width, s.height, ours.colors[1], reference.colors[1], 2);
	// The second attachment shows the first's triangles (not a plain quad):
	// its pixels differ where the triangles are.
	uint32_t distinct = 0;
	for (size_t p = 0; p + 4 <= ours.colors[1].size(); p += 4) distinct += ours.colors[1][p + 1] > 100;
	CHECK(distinct > 0);
	// The same with gl_FragCoord read by the shader as well.
	s.second_fragment_shader = "subpass_input_coord.frag.spv";
	auto [ours2, reference2] = pair.Render(s);
	CompareImages("subpass-input-coord", s.width, s.height, ours2.colors[1], reference2.colors[1], 2);
	// Multisampled (4 samples): the second subpass runs per sample and reads
	// its sample; both attachments are resolved (averages: 2 codes, as the
	// resolve of either may round either way, §3.9.2).
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	s.second_fragment_shader = "subpass_input_ms.frag.spv";
	auto [ours3, reference3] = pair.Render(s);
	CompareImages("subpass-input-ms-first", s.width, s.height, ours3.colors[0], reference3.colors[0], 2);
	CompareImages("subpass-input-ms", s.width, s.height, ours3.colors[1], reference3.colors[1], 2);
	// Per-sample reads, checked without lavapipe: the second subpass is
	// linear in the input, so its resolve is 0.75 * (g, b, r) of the first's
	// resolve plus the quad's color term, which the single-sample run gives
	// (its attachment 1 minus 0.75 * (g, b, r) of its attachment 0). A read
	// of one sample for all would break this at the triangles' edges.
	// Bound: 3 codes (three roundings of 1/2 code, each scaled by <= 1).
	int worst = 0;
	for (size_t p = 0; p + 4 <= ours.colors[0].size(); p += 4)
		for (int c = 0; c < 3; ++c) {
			const int swizzled = (c + 1) % 3;
			const float term = float(ours.colors[1][p + c]) - 0.75f * float(ours.colors[0][p + swizzled]);
			const float predicted = 0.75f * float(ours3.colors[0][p + swizzled]) + term;
			worst = std::max(worst, int(std::lround(std::fabs(predicted - float(ours3.colors[1][p + c])))));
		}
	CHECK(worst <= 3);
}

TEST_CASE("a texture, a storage image and a storage buffer in a descriptor buffer draw as from a descriptor set",
          "[texture][scene][descriptor_buffer]") {
	// VK_EXT_descriptor_buffer on the graphics bind point: set 0 placed in a
	// descriptor buffer draws byte for byte what the same descriptors in a
	// descriptor set draw. Lavapipe 22.3 lacks the extension; it draws the
	// descriptor set version for the comparison with lavapipe.
	SceneFeatures features;
	features.v12.bufferDeviceAddress = VK_TRUE;
	VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
	descriptor_buffer.descriptorBuffer = VK_TRUE;
	auto tessera = Context::Create(Driver::Tessera,
	                               features.OptionsWith(&descriptor_buffer, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME));
	REQUIRE(tessera);
	auto lavapipe = Context::Create(Driver::Lavapipe, SceneFeatures().Options());
	REQUIRE(lavapipe);
	auto check = [&](const std::string& name, Scene s, int tolerance, uint32_t outliers) {
		const SceneResult from_set = RenderScene(*tessera, s);
		const SceneResult reference = RenderScene(*lavapipe, s);
		s.descriptor_buffer = true;
		const SceneResult from_buffer = RenderScene(*tessera, s);
		for (const std::string& m : tessera->validation_messages()) UNSCOPED_INFO(m);
		CHECK(tessera->validation_errors() == 0);
		CHECK(lavapipe->validation_errors() == 0);
		CHECK(from_buffer.colors[0] == from_set.colors[0]);
		CHECK(from_buffer.storage_image == from_set.storage_image);
		CompareImages(name, s.width, s.height, from_buffer.colors[0], reference.colors[0], tolerance, outliers);
	};
	Scene plane = TexturedScene(RecedingPlane(12.0f, 4.0f, 3.0f), "tex_implicit.frag.spv", Checkerboard(128, 8, 8));
	plane.width = plane.height = 96;
	plane.texture.sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	check("descriptor-buffer-texture", plane, kTrilinear, OnePercent(plane));

	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.8f, 0.85f, -0.6f, -0.2f, 0.9f, 0.5f, 1, 0, 0);
	Scene storage = ColorScene(v);
	storage.fragment_shader = "tex_storage.frag.spv";
	storage.storage_image_format = VK_FORMAT_R8G8B8A8_UNORM;
	check("descriptor-buffer-storage-image", storage, 2, 0);

	// A storage buffer that the vertex and fragment stages write
	// (store_counts.*: fragments and vertices counted; draw_store_test.cpp).
	// Lavapipe 22.3 cannot compile store_counts.frag.
	Scene counts = CountsScene(20.0f / 16.0f - 1.0f, "store_counts.frag.spv");
	const SceneResult from_set = RenderScene(*tessera, counts);
	counts.descriptor_buffer = true;
	const SceneResult from_buffer = RenderScene(*tessera, counts);
	CHECK(tessera->validation_errors() == 0);
	uint32_t fragments = 0;
	std::memcpy(&fragments, from_buffer.storage.data(), 4);
	CHECK(fragments == 20u * 32u);
	// Words 2..7 count vertex invocations, which may run more than once.
	CHECK(std::equal(from_buffer.storage.begin(), from_buffer.storage.begin() + 8, from_set.storage.begin()));
	CHECK(std::equal(from_buffer.storage.begin() + 32, from_buffer.storage.end(), from_set.storage.begin() + 32));
	CHECK(from_buffer.colors[0] == from_set.colors[0]);
}
