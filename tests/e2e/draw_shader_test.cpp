// The vertex/fragment interface against lavapipe: user clip distances,
// discard, flat integer varyings (bits unchanged, INT_MIN included),
// noperspective, gl_FragCoord, gl_FrontFacing, derivatives; and a scene
// whose bytes do not depend on TESSERA_THREADS.
//
// Tolerances: coverage exact (clip distances included: §27.4 clips where the
// interpolated distance is negative; the clipped polygon's new edges are
// computed at each implementation's precision, so pixels whose centers lie
// within rounding of a clip plane may differ - at most a few per scene,
// stated where used); interpolated values within 2 codes; flat integers
// exact.
#include <catch2/catch.hpp>

#include <algorithm>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

std::vector<Vertex> BigTriangles() {
	std::vector<Vertex> v;
	Triangle(v, -0.95f, -0.9f, 0.9f, -0.95f, -0.2f, 0.95f, 0.5f, 1, 0.2f, 0);
	Triangle(v, 0.95f, 0.95f, -0.95f, 0.4f, 0.3f, -0.6f, 0.5f, 0, 0.6f, 1);
	return v;
}

}  // namespace

TEST_CASE("gl_ClipDistance clips as on lavapipe", "[draw][shader]") {
	Scene s = ColorScene(BigTriangles());
	s.vertex_shader = "clip.vert.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	// Pixels whose centers lie within rounding of the planes x = -0.5 and
	// y = 0.6 (two lines of 64 pixels) may go either way: none expected
	// since neither line passes near a pixel center (x = 16, y = 51.2).
	CompareSceneWithLavapipe("clip-distance", s, 2);
}

TEST_CASE("gl_ClipDistance read in the fragment shader matches lavapipe", "[draw][shader]") {
	// The vertex stage's clip distances, interpolated (CTS
	// clipping.user_defined.clip_distance.vert.*_fragmentshader_read).
	Scene s = ColorScene(BigTriangles());
	s.vertex_shader = "clip.vert.spv";
	s.fragment_shader = "clip_read.frag.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	CompareSceneWithLavapipe("clip-distance-read", s, 2);
}

TEST_CASE("interpolateAtOffset two pixels away (maxInterpolationOffset) matches lavapipe", "[draw][shader]") {
	// The color is linear in screen space (w = 1), so the value at the
	// offset is exact on both drivers, inside the triangles and past their
	// edges alike.
	Scene s = ColorScene(BigTriangles());
	s.fragment_shader = "interpolate_wide_offset.frag.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	CompareSceneWithLavapipe("interpolate-wide-offset", s, 1);
}

TEST_CASE("discard in the fragment shader matches lavapipe", "[draw][shader]") {
	Scene s = ColorScene(BigTriangles());
	s.fragment_shader = "checker_discard.frag.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	// The red > 0.8 test depends on an interpolated value: pixels within
	// interpolation precision of 0.8 may go either way (a few).
	CompareSceneWithLavapipe("discard", s, 2, 4);
}

TEST_CASE("demote and terminateInvocation in the fragment shader match lavapipe", "[draw][shader]") {
	// Vulkan 1.3 shaderDemoteToHelperInvocation / shaderTerminateInvocation:
	// a checkerboard of fragments writes nothing; the rest match exactly in
	// coverage (no interpolated threshold here) and within 2 codes in color.
	for (const char* shader : {"checker_demote.frag.spv", "checker_terminate.frag.spv"}) {
		CAPTURE(shader);
		Scene s = ColorScene(BigTriangles());
		s.fragment_shader = shader;
		s.draws = {{6, 1, 0, 0, 0}};
		CompareSceneWithLavapipe(shader[8] == 'd' ? "demote" : "terminate", s, 2);
	}
}

namespace {

// flat_int.vert: an R32_SINT attribute to a flat int; the fragment shader
// writes its four bytes as UNORM8 codes. Each triangle's provoking (first,
// §28.x) vertex gives the value; up to 9 triangles in a 3x3 grid.
Scene FlatIntScene(const std::vector<int32_t>& values) {
	std::vector<uint8_t> data;
	uint32_t t = 0;
	for (int32_t value : values) {
		float x = -0.95f + 0.65f * float(t % 3), y = -0.95f + 0.65f * float(t / 3);
		const float p[3][2] = {{x, y}, {x + 0.6f, y + 0.1f}, {x + 0.1f, y + 0.55f}};
		for (int k = 0; k < 3; ++k) {
			const float pos[4] = {p[k][0], p[k][1], 0.5f, 1.0f};
			const int32_t v = k == 0 ? value : 77;  // only the provoking vertex counts
			const uint8_t* pb = reinterpret_cast<const uint8_t*>(pos);
			data.insert(data.end(), pb, pb + 16);
			const uint8_t* vb = reinterpret_cast<const uint8_t*>(&v);
			data.insert(data.end(), vb, vb + 4);
		}
		++t;
	}
	Scene s;
	s.vertex_shader = "flat_int.vert.spv";
	s.fragment_shader = "flat_int.frag.spv";
	s.vertices = data;
	s.vertex_stride = 20;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32_SINT, 16}};
	s.draws = {{3 * uint32_t(values.size()), 1, 0, 0, 0}};
	return s;
}

// The bits against the values themselves, at a pixel well inside each
// triangle.
void CheckFlatInts(const SceneResult& ours, const std::vector<int32_t>& values) {
	for (uint32_t i = 0; i < values.size(); ++i) {
		const uint32_t px = uint32_t((-0.95f + 0.65f * float(i % 3) + 0.1f + 1) * 32);
		const uint32_t py = uint32_t((-0.95f + 0.65f * float(i / 3) + 0.1f + 1) * 32);
		int32_t got;
		std::memcpy(&got, &ours.colors[0][(py * 64 + px) * 4], 4);
		CAPTURE(i, px, py);
		CHECK(got == values[i]);
	}
}

}  // namespace

// §15.x (Flat interpolation): the provoking vertex's value, unchanged - for
// an int, every bit. Exact.
TEST_CASE("flat int varyings keep their bits", "[draw][shader]") {
	const std::vector<int32_t> values = {-1, -123456789,           0x7fffffff, 0x12345678, -2,
	                                     1,  int32_t(0x80000001u), 0x7fc00001, INT_MIN + 1};
	SceneResult ours = CompareSceneWithLavapipe("flat-int", FlatIntScene(values), 0);
	CheckFlatInts(ours, values);
}

TEST_CASE("flat int varyings keep INT_MIN and signaling-NaN bit patterns", "[draw][shader]") {
	// §15.1.x: a flat input is the provoking vertex's value unchanged. As
	// floats these bits are -0.0 and signaling NaNs, which float arithmetic
	// would change: the rasterizer copies flat values.
	const std::vector<int32_t> values = {INT_MIN, 0x7f800001, int32_t(0xff800001u)};
	SceneResult ours = CompareSceneWithLavapipe("flat-int-min", FlatIntScene(values), 0);
	CheckFlatInts(ours, values);
}

TEST_CASE("smooth and noperspective interpolation match lavapipe", "[draw][shader]") {
	// Vertices with different w: perspective-correct and linear results differ.
	std::vector<Vertex> v;
	v.push_back({-0.9f * 0.5f, -0.9f * 0.5f, 0.2f, 0.5f, 1, 0, 0, 1});
	v.push_back({0.9f * 3.0f, -0.7f * 3.0f, 1.5f, 3.0f, 0, 1, 0, 1});
	v.push_back({-0.2f * 1.5f, 0.9f * 1.5f, 0.6f, 1.5f, 0, 0, 1, 1});
	Scene s = ColorScene(v);
	s.vertex_shader = "interp_modes.vert.spv";
	s.fragment_shader = "interp_modes.frag.spv";
	CompareSceneWithLavapipe("noperspective", s, 2);
}

TEST_CASE("gl_FragCoord and gl_FrontFacing match lavapipe", "[draw][shader]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.1f, 1, 0, 0);    // one winding
	Triangle(v, 0.95f, 0.9f, 0.25f, -0.95f, -0.9f, 0.55f, 0.8f, 0, 1, 0);  // the other
	Scene s = ColorScene(v);
	s.fragment_shader = "frag_coord.frag.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	s.viewport = {0, 0, 64, 64, 0.25f, 0.75f};
	CompareSceneWithLavapipe("frag-coord", s, 2);
}

TEST_CASE("derivatives of a varying match lavapipe", "[draw][shader]") {
	// dFdx / dFdy over 2x2 quads (§16.x): of a linear varying they are the
	// plane's slopes; of a product, per-quad differences. Values scaled by
	// 16-32 so 2 codes stay a tight bound.
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.5f, 1, 0, 0, 0, 1});
	v.push_back({0.9f, -0.7f, 0.5f, 1, 1, 0.2f, 0, 1});
	v.push_back({-0.3f, 0.9f, 0.5f, 1, 0.3f, 1, 0, 1});
	Scene s = ColorScene(v);
	s.fragment_shader = "derivative_color.frag.spv";
	CompareSceneWithLavapipe("derivatives", s, 2);
}

// Tile workers shade and write in parallel, but each pixel's fragments
// keep primitive order (§28.x, "rasterization order"), so the bytes must
// not depend on the worker count. Many overlapping blended triangles over
// more than one 64x64 tile.
TEST_CASE("a scene renders the same bytes with 1 and 4 threads", "[draw][shader][threads]") {
	std::vector<Vertex> v;
	uint32_t state = 7;
	auto rnd = [&state] {
		state = state * 1664525u + 1013904223u;
		return float(state >> 8) / float(1u << 24);
	};
	for (int i = 0; i < 300; ++i) {
		float x = rnd() * 2 - 1, y = rnd() * 2 - 1;
		Triangle(v, x, y, x + rnd() * 0.8f - 0.4f, y + rnd() * 0.8f - 0.4f, x + rnd() * 0.8f - 0.4f,
		         y + rnd() * 0.8f - 0.4f, rnd(), rnd(), rnd(), rnd(), 0.3f + 0.7f * rnd());
	}
	Scene s = ColorScene(v);
	s.width = s.height = 160;
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_FALSE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		p.blend_attachments[0].blendEnable = VK_TRUE;
		p.blend_attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		p.blend_attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		p.blend_attachments[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		p.blend_attachments[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
	};
	const std::vector<std::vector<uint8_t>> images = RenderWithOneAndFourThreads(s);
	CHECK(images[0] == images[1]);
	// And against lavapipe (blending: 3 codes, see draw_blend_test.cpp). 300
	// random triangles put a few pixel centers within 2^-8 pixel of an edge
	// (seen: 2, e.g. (157, 155) at 5e-4 pixel from one); there the vertex
	// snapping to the sub-pixel grid (§28.7, subPixelPrecisionBits = 8, done
	// at each implementation's float precision) decides coverage. At most 4.
	CompareSceneWithLavapipe("threads", s, 3, 4);
}

TEST_CASE("gl_SampleMask and gl_SampleMaskIn match lavapipe", "[draw][shader]") {
	// §28.x "Sample Mask": gl_SampleMaskIn holds the covered samples;
	// coverage is ANDed with a written gl_SampleMask (0 drops the fragment).
	for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
		CAPTURE(samples);
		Scene s = ColorScene(BigTriangles());
		s.fragment_shader = "sample_mask.frag.spv";
		s.samples = samples;
		s.draws = {{6, 1, 0, 0, 0}};
		// Resolved 4x: averages of 4 samples, 3 codes (draw_commands_test.cpp).
		CompareSceneWithLavapipe(samples == VK_SAMPLE_COUNT_1_BIT ? "sample-mask" : "sample-mask-4x", s, 3);
	}
}

// §27.x clipping: a clipped primitive's new vertices carry outputs such that
// interpolation over the clipped primitive gives what it would have over
// the original one - for noperspective outputs that is linear in screen
// space, not in clip space. A triangle with different w crossing the near
// plane (and one past the guard band) makes the two differ.
TEST_CASE("noperspective varyings of clipped triangles match lavapipe", "[draw][shader]") {
	// A vertex made by clipping takes noperspective outputs at the
	// screen-space parameter t' = t w_b / ((1 - t) w_a + t w_b), not the
	// clip-space t (before the fix: 503 pixels off, worst 101 codes).
	std::vector<Vertex> v;
	v.push_back({-0.5f, -0.6f, 0.5f, 1.0f, 1, 0, 0, 1});
	v.push_back({0.9f * 3, -0.2f * 3, 2.0f, 3.0f, 0, 1, 0, 1});
	v.push_back({0.1f * 0.5f, 0.9f * 0.5f, -0.6f, 0.5f, 0, 0, 1, 1});  // z < 0: clipped by the near plane
	Scene s = ColorScene(v);
	s.vertex_shader = "interp_modes.vert.spv";
	s.fragment_shader = "interp_modes.frag.spv";
	// Clipped edges are new vertices at each implementation's precision: a
	// pixel center within rounding of them may differ (at most 2).
	CompareSceneWithLavapipe("noperspective-clipped", s, 2, 2);
}

// Vulkan 1.3 §15.1.x "Interpolation Decorations": a Centroid input takes
// its value at a location inside both the pixel and the primitive. The
// value is 1 at one vertex and 0 at the others, so outside the opposite
// edge it is negative: in partly covered pixels of a 4x draw whose centers
// lie outside, the center value leaves [0, 1] (red), the centroid value must
// not (green). Which covered sample a driver picks is its choice: the blue
// channel (the centroid value) differs by less than the value's change
// across half a pixel, well inside the 3 codes of resolved scenes.
TEST_CASE("centroid inputs stay inside the primitive in partly covered pixels", "[draw][shader]") {
	for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
		CAPTURE(samples);
		std::vector<Vertex> v;
		Triangle(v, -0.83f, -0.71f, 0.77f, -0.9f, 0.1f, 0.87f, 0.5f, 1, 0, 0);
		Scene s = ColorScene(v);
		s.vertex_shader = "centroid.vert.spv";
		s.fragment_shader = "centroid.frag.spv";
		s.clear_color = {{0.0f, 0.0f, 0.0f, 1.0f}};
		s.samples = samples;
		s.draws = {{3, 1, 0, 0, 0}};
		const SceneResult r =
		    CompareSceneWithLavapipe(samples == VK_SAMPLE_COUNT_1_BIT ? "centroid" : "centroid-4x", s, 3);
		const std::vector<uint8_t>& pixels = r.colors.at(0);
		uint32_t center_outside = 0, centroid_outside = 0;
		for (size_t i = 0; i + 3 < pixels.size(); i += 4) {
			center_outside += pixels[i] != 0;
			centroid_outside += pixels[i + 1] != 0;
		}
		CHECK(centroid_outside == 0);
		// Single-sampled pixels are covered only when their center is inside;
		// with 4 samples the scene has partly covered pixels to test.
		if (samples == VK_SAMPLE_COUNT_1_BIT)
			CHECK(center_outside == 0);
		else
			CHECK(center_outside > 5);
	}
}

// interpolateAtSample / interpolateAtOffset with sample shading: the input
// as loaded is already at the invocation's sample, so the offset must be
// taken from there, not added to it (the CTS's
// pipeline.*.multisample_interpolation.sample_interpolation_consistency and
// offset_interpolation_at_sample_position: Tessera counted the sample's
// offset twice, up to 3/8 pixel). The varyings are the pixel position, so
// every channel (the differences, in 1/16 pixel) must stay near 0.
TEST_CASE("interpolateAtSample and AtOffset under sample shading read the invocation's sample", "[draw][shader]") {
	std::vector<Vertex> v;
	Triangle(v, -0.83f, -0.71f, 0.77f, -0.9f, 0.1f, 0.87f, 0.5f, 1, 0, 0);
	Scene s = ColorScene(v);
	s.vertex_shader = "interpolate_sample_shading.vert.spv";
	s.fragment_shader = "interpolate_sample_shading.frag.spv";
	s.clear_color = {{0.0f, 0.0f, 0.0f, 0.0f}};
	s.samples = VK_SAMPLE_COUNT_4_BIT;
	s.draws = {{3, 1, 0, 0, 0}};
	const SceneResult r = CompareSceneWithLavapipe("interpolate-sample-shading", s, 2);
	uint8_t worst = 0;
	for (uint8_t value : r.colors.at(0)) worst = std::max(worst, value);
	CHECK(worst <= 2);
}

TEST_CASE("30 varying locations (120 components) reach the fragment shader as on lavapipe", "[draw][shader]") {
	// Vulkan 1.3 §15.1.4: maxVertexOutputComponents and
	// maxFragmentInputComponents are 128 here; every location within them
	// links (the vertex stage's gl_PerVertex takes 7 components). The
	// fragment stage turns magenta where any flat vec4 is wrong.
	Scene s = ColorScene(BigTriangles());
	s.vertex_shader = "many_varyings.vert.spv";
	s.fragment_shader = "many_varyings.frag.spv";
	s.draws = {{6, 1, 0, 0, 0}};
	SceneResult result = CompareSceneWithLavapipe("many-varyings", s, 2);
	uint32_t magenta = 0;
	for (size_t i = 0; i + 3 < result.colors[0].size(); i += 4)
		magenta += result.colors[0][i] == 255 && result.colors[0][i + 1] == 0;
	CHECK(magenta == 0);
}

TEST_CASE("a fragment shader that never ends loses the device instead of hanging the queue",
          "[draw][shader][robustness]") {
	// Vulkan 1.3 §5.2.3: a command that cannot complete may lose the device.
	// Every lane group of the draw would run to the engine's step bound; once
	// one has, the rest of the draw (and later work) is skipped. The default
	// bound applies (no TESSERA_SHADER_STEP_LIMIT): a hang shows as this
	// test running past its time. AddressSanitizer makes the interpreter
	// about 25 times slower (one group to the default bound took 100 s of a
	// 2-core runner's CI): the sanitizer pass checks the loss's memory
	// handling with a bound 64 times lower, the other passes the default.
#if defined(__SANITIZE_ADDRESS__)
	setenv("TESSERA_SHADER_STEP_LIMIT", "1048576", 1);
#endif
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	std::vector<Vertex> v;
	Triangle(v, -1.0f, -1.0f, 3.0f, -1.0f, -1.0f, 3.0f, 0.5f, 1, 0, 0);
	Scene s = ColorScene(v);
	s.width = s.height = 512;
	s.fragment_shader = "forever.frag.spv";
	s.push_constants = Bytes(std::vector<uint32_t>{1u});
	const auto start = std::chrono::steady_clock::now();
	RenderScene(*ctx, s);
	const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
	CHECK(vkDeviceWaitIdle(ctx->device()) == VK_ERROR_DEVICE_LOST);
	INFO("the draw took " << seconds << " s");
	// Before the fix: 4096 lane groups of 2^26 blocks each. One group of 256
	// lanes running its 2^26 blocks interpreted takes about 4 s in a release
	// build: a hang runs far past this bound.
	CHECK(seconds < 60.0);
#if defined(__SANITIZE_ADDRESS__)
	unsetenv("TESSERA_SHADER_STEP_LIMIT");
#endif
}
