// Occlusion queries (Vulkan 1.3 §18.3): the samples that pass the depth and
// stencil tests while a query is active, counted precisely, compared with
// lavapipe and with what the scene implies.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "render_scene.h"

using namespace tessera::test;

namespace {

// x, y, z, w, r, g, b, a (scene.vert)
std::vector<float> Quad(float x0, float y0, float x1, float y1, float z) {
	return {x0, y0, z, 1, 1, 0, 0, 1, x1, y0, z, 1, 1, 0, 0, 1, x0, y1, z, 1, 1, 0, 0, 1,
	        x1, y0, z, 1, 0, 1, 0, 1, x1, y1, z, 1, 0, 1, 0, 1, x0, y1, z, 1, 0, 1, 0, 1};
}

// scene.vert / scene.frag over the given vertices (x, y, z, w, r, g, b, a),
// depth tested LESS with writes.
Scene DepthTestedScene(const std::vector<float>& v, VkSampleCountFlagBits samples) {
	Scene s;
	s.vertex_shader = "scene.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.vertices.resize(v.size() * 4);
	std::memcpy(s.vertices.data(), v.data(), s.vertices.size());
	s.vertex_stride = 32;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.samples = samples;
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
	};
	return s;
}

// Three queries: a quad over the left half at depth 0.5 (32x64 pixels), the
// same quad again behind it (0 samples pass LESS), and a full-screen quad at
// depth 0.25 (64x64, all in front). With 4 samples, four times as many.
std::vector<uint64_t> RunQueries(Driver driver, VkSampleCountFlagBits samples) {
	SceneFeatures features;
	features.core.features.occlusionQueryPrecise = VK_TRUE;
	features.v12.hostQueryReset = VK_TRUE;
	auto ctx = Context::Create(driver, features.Options());
	REQUIRE(ctx);
	std::vector<float> v = Quad(-1, -1, 0, 1, 0.5f);
	std::vector<float> behind = Quad(-1, -1, 0, 1, 0.75f), front = Quad(-1, -1, 1, 1, 0.25f);
	v.insert(v.end(), behind.begin(), behind.end());
	v.insert(v.end(), front.begin(), front.end());
	Scene s = DepthTestedScene(v, samples);
	VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qi.queryType = VK_QUERY_TYPE_OCCLUSION;
	qi.queryCount = 3;
	VkQueryPool pool;
	REQUIRE(vkCreateQueryPool(ctx->device(), &qi, nullptr, &pool) == VK_SUCCESS);
	vkResetQueryPool(ctx->device(), pool, 0, 3);
	s.record_draws = [pool](VkCommandBuffer cb, const Scene::Buffers&) {
		for (uint32_t q = 0; q < 3; ++q) {
			vkCmdBeginQuery(cb, pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
			vkCmdDraw(cb, 6, 1, 6 * q, 0);
			vkCmdEndQuery(cb, pool, q);
		}
	};
	RenderScene(*ctx, s);
	std::vector<uint64_t> results(3);
	REQUIRE(vkGetQueryPoolResults(ctx->device(), pool, 0, 3, 3 * sizeof(uint64_t), results.data(), sizeof(uint64_t),
	                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	vkDestroyQueryPool(ctx->device(), pool, nullptr);
	CHECK(ctx->validation_errors() == 0);
	return results;
}

}  // namespace

TEST_CASE("occlusion queries count the samples that pass, like lavapipe", "[draw][query]") {
	for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
		CAPTURE(samples);
		std::vector<uint64_t> ours = RunQueries(Driver::Tessera, samples);
		std::vector<uint64_t> reference = RunQueries(Driver::Lavapipe, samples);
		CHECK(ours == reference);
		CHECK(ours[0] == 32u * 64u * samples);
		CHECK(ours[1] == 0u);
		CHECK(ours[2] == 64u * 64u * samples);
	}
}

namespace {

// Draws outside any query wait in the rasterizer's queue; vkCmdBeginQuery
// writes them out first, so the counted draw is tested against their depth.
// Two quads over the left half at depth 0.5 (no query), then, counted, a
// full-screen quad at 0.75: only the right half (32x64 pixels) passes LESS.
uint64_t RunQueryAfterDraws(Driver driver, VkSampleCountFlagBits samples) {
	SceneFeatures features;
	features.core.features.occlusionQueryPrecise = VK_TRUE;
	features.v12.hostQueryReset = VK_TRUE;
	auto ctx = Context::Create(driver, features.Options());
	REQUIRE(ctx);
	std::vector<float> v = Quad(-1, -1, 0, 0, 0.5f), lower = Quad(-1, 0, 0, 1, 0.5f), back = Quad(-1, -1, 1, 1, 0.75f);
	v.insert(v.end(), lower.begin(), lower.end());
	v.insert(v.end(), back.begin(), back.end());
	Scene s = DepthTestedScene(v, samples);
	VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qi.queryType = VK_QUERY_TYPE_OCCLUSION;
	qi.queryCount = 1;
	VkQueryPool pool;
	REQUIRE(vkCreateQueryPool(ctx->device(), &qi, nullptr, &pool) == VK_SUCCESS);
	vkResetQueryPool(ctx->device(), pool, 0, 1);
	s.record_draws = [pool](VkCommandBuffer cb, const Scene::Buffers&) {
		vkCmdDraw(cb, 6, 1, 0, 0);
		vkCmdDraw(cb, 6, 1, 6, 0);
		vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
		vkCmdDraw(cb, 6, 1, 12, 0);
		vkCmdEndQuery(cb, pool, 0);
	};
	RenderScene(*ctx, s);
	uint64_t result = 0;
	REQUIRE(vkGetQueryPoolResults(ctx->device(), pool, 0, 1, sizeof result, &result, sizeof result,
	                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	vkDestroyQueryPool(ctx->device(), pool, nullptr);
	CHECK(ctx->validation_errors() == 0);
	return result;
}

}  // namespace

TEST_CASE("an occlusion query after queued draws counts against their depth, like lavapipe", "[draw][query]") {
	for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
		CAPTURE(samples);
		const uint64_t ours = RunQueryAfterDraws(Driver::Tessera, samples);
		CHECK(ours == 32u * 64u * samples);
		CHECK(ours == RunQueryAfterDraws(Driver::Lavapipe, samples));
	}
}

namespace {

// A pipeline statistics query around a draw of two quads, two instances:
// every graphics counter.
std::vector<uint64_t> RunStatistics(Driver driver) {
	SceneFeatures features;
	features.core.features.pipelineStatisticsQuery = VK_TRUE;
	features.v12.hostQueryReset = VK_TRUE;
	auto ctx = Context::Create(driver, features.Options());
	REQUIRE(ctx);
	std::vector<float> v = Quad(-1, -1, 0, 1, 0.5f), far = Quad(0.2f, -0.5f, 0.9f, 0.9f, 0.6f);
	v.insert(v.end(), far.begin(), far.end());
	Scene s;
	s.vertex_shader = "scene.vert.spv";
	s.fragment_shader = "scene.frag.spv";
	s.vertices.resize(v.size() * 4);
	std::memcpy(s.vertices.data(), v.data(), s.vertices.size());
	s.vertex_stride = 32;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
	VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qi.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
	qi.queryCount = 1;
	qi.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
	                        VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
	                        VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
	                        VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
	                        VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT |
	                        VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
	VkQueryPool pool;
	REQUIRE(vkCreateQueryPool(ctx->device(), &qi, nullptr, &pool) == VK_SUCCESS);
	vkResetQueryPool(ctx->device(), pool, 0, 1);
	s.record_draws = [pool](VkCommandBuffer cb, const Scene::Buffers&) {
		vkCmdBeginQuery(cb, pool, 0, 0);
		vkCmdDraw(cb, 12, 2, 0, 0);  // 4 triangles, twice
		vkCmdEndQuery(cb, pool, 0);
	};
	RenderScene(*ctx, s);
	std::vector<uint64_t> results(7);
	REQUIRE(vkGetQueryPoolResults(ctx->device(), pool, 0, 1, 7 * sizeof(uint64_t), results.data(), 7 * sizeof(uint64_t),
	                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	                                  VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) == VK_SUCCESS);
	vkDestroyQueryPool(ctx->device(), pool, nullptr);
	CHECK(ctx->validation_errors() == 0);
	return results;
}

}  // namespace

TEST_CASE("pipeline statistics queries count what a draw does, like lavapipe", "[draw][query]") {
	// Vulkan "Pipeline Statistics Queries": 24 vertices and 8 triangles go
	// through input assembly, the vertex shader runs at least once a vertex,
	// clipping sees each triangle, and the fragment shader runs at least once
	// per covered pixel (the left half, 32x64, and the far quad's 22x45 on
	// top of it, both instances).
	std::vector<uint64_t> ours = RunStatistics(Driver::Tessera);
	std::vector<uint64_t> reference = RunStatistics(Driver::Lavapipe);
	CAPTURE(ours, reference);
	CHECK(ours[0] == 24);
	CHECK(ours[1] == 8);
	CHECK(ours[2] >= 12);
	CHECK(ours[3] == 8);
	CHECK(ours[4] >= 8);
	CHECK(ours[5] >= 2 * 32 * 64);
	CHECK(ours[6] == 1);  // available
	for (size_t k : {0, 1, 3}) CHECK(ours[k] == reference[k]);
}
