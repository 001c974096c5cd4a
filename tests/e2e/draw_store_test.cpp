// Stores and atomics from the vertex and fragment stages
// (vertexPipelineStoresAndAtomics, fragmentStoresAndAtomics), compared with
// lavapipe and with the counts the scene implies.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("vertex and fragment shaders store to buffers, helper invocations do not", "[draw][store]") {
	// Two triangles forming a quad over the left 20 columns of a 32x32 image:
	// every pixel of the quad gets exactly one fragment (shared edge, §28.7.1).
	// Tessera only: lavapipe 22.3 crashes compiling store_counts.frag (in
	// LLVMBuildBitCast); the counts below fix every value anyway.
	Scene s = CountsScene(20.0f / 16.0f - 1.0f, "store_counts.frag.spv");
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	SceneResult ours = RenderScene(*ctx, s);
	CHECK(ctx->validation_errors() == 0);

	std::vector<uint32_t> counts(ours.storage.size() / 4);
	std::memcpy(counts.data(), ours.storage.data(), ours.storage.size());
	CHECK(counts[0] == 20u * 32u);                           // fragments
	CHECK(counts[1] == 0u);                                  // no helper wrote
	for (int v = 0; v < 6; ++v) CHECK(counts[2 + v] >= 1u);  // each vertex shaded (maybe more than once: §21.x)
	for (uint32_t y = 0; y < 32; ++y)
		for (uint32_t x = 0; x < 32; ++x) {
			CAPTURE(x, y);
			CHECK(counts[8 + y * 32 + x] == (x < 20 ? 1u : 0u));
		}
}

TEST_CASE("without early fragment tests, fragments that fail the depth test still run the shader", "[draw][store]") {
	// Vulkan 1.3 §29.4 "Early Fragment Test Mode": without EarlyFragmentTests
	// the depth test comes after shading, so a shader's atomics see every
	// fragment; running the tests early is allowed only where nothing can
	// tell (CTS fragment_operations.early_fragment.no_early_fragment_tests_*).
	// The quad is drawn twice at the same depth with LESS: the second draw
	// fails the test everywhere but must still count its fragments.
	Scene s = CountsScene(20.0f / 16.0f - 1.0f, "late_counts.frag.spv");
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
	};
	s.draws = {DrawCall{6}, DrawCall{6}};
	SceneResult ours = CompareSceneWithLavapipe("late-tests-counts", s, 0);
	std::vector<uint32_t> counts(ours.storage.size() / 4);
	std::memcpy(counts.data(), ours.storage.data(), ours.storage.size());
	CHECK(counts[0] == 2u * 20u * 32u);
	for (uint32_t y = 0; y < 32; ++y)
		for (uint32_t x = 0; x < 32; ++x) {
			CAPTURE(x, y);
			CHECK(counts[8 + y * 32 + x] == (x < 20 ? 2u : 0u));
		}
}

TEST_CASE("with rasterizer discard the vertex shader still runs and stores", "[draw][store]") {
	// Vulkan 1.3 §27.1: rasterizerDiscardEnable drops primitives before
	// rasterization, after the vertex stage; its stores happen (the CTS's
	// spirv_assembly 64bit_compare vert_* cases read results this way).
	Scene s = CountsScene(1.0f, "");  // no fragment stage (lavapipe 22.3 crashes with one)
	s.configure = [](PipelineState& p) { p.rasterization.rasterizerDiscardEnable = VK_TRUE; };
	SceneResult ours = CompareSceneWithLavapipe("discard-vertex-stores", s, 0);
	std::vector<uint32_t> counts(ours.storage.size() / 4);
	std::memcpy(counts.data(), ours.storage.data(), ours.storage.size());
	for (int v = 0; v < 6; ++v) CHECK(counts[2 + v] >= 1u);  // every vertex shaded
}
