// VK_EXT_transform_feedback against lavapipe: vertex outputs captured into
// two buffers (a block member, a vector and an integer pair, with gaps that
// must stay unwritten), strips and fans taken apart into triangles,
// instancing, pausing and resuming through counter buffers, a buffer too
// small for everything (primitives past its end are not captured in either
// buffer), the stream query's written and needed counts, and
// vkCmdDrawIndirectByteCountEXT drawing as many vertices as a counter holds,
// and a primitives generated query (VK_EXT_primitives_generated_query)
// around it all.
// Both drivers must produce the same bytes, and the counts the spec's rules
// give.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <utility>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kStride0 = 32, kStride1 = 12;
constexpr uint32_t kSize0 = 4096;
// Buffer 1 holds 19 records: the strip's 12 vertices and two more triangles.
constexpr uint32_t kSize1 = 19 * kStride1 + 8;

struct XfbContexts {
	SceneFeatures features;
	VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	                                                 &generated};
	std::unique_ptr<Context> tessera, lavapipe;

	explicit XfbContexts(bool statistics = false, bool streams = false) {
		features.v12.hostQueryReset = VK_TRUE;
		features.core.features.pipelineStatisticsQuery = statistics;
		ContextOptions options = features.Options();
		xfb.transformFeedback = VK_TRUE;
		xfb.geometryStreams = streams;
		generated.primitivesGeneratedQueryWithNonZeroStreams = streams;
		generated.primitivesGeneratedQuery = VK_TRUE;
		generated.pNext = const_cast<void*>(options.device_features);
		options.device_features = &xfb;
		options.device_extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
		options.device_extensions.push_back(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME);
		tessera = Context::Create(Driver::Tessera, options);
		lavapipe = Context::Create(Driver::Lavapipe, options);
	}
};

struct Captured {
	std::vector<uint8_t> buffer0, buffer1, replay, counters;
	uint64_t query[2] = {};  // primitives written, primitives needed
	uint64_t generated = 0;  // VK_EXT_primitives_generated_query
};

// Six vertices of a zig-zag strip (reused as a fan and a list) through
// xfb_capture.vert.
Scene ZigZagScene() {
	std::vector<float> positions;
	for (int i = 0; i < 6; ++i)
		positions.insert(positions.end(), {-0.8f + 0.3f * float(i), (i & 1) ? 0.4f : -0.4f, 0.5f, 1});
	Scene s;
	s.vertex_shader = "xfb_capture.vert.spv";
	s.fragment_shader = "xfb_capture.frag.spv";
	s.vertices = scenes::Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	return s;
}

Captured Run(Context& ctx) {
	VkDevice device = ctx.device();
	auto bind = ctx.Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
	auto begin = ctx.Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
	auto end = ctx.Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
	auto begin_query = ctx.Proc<PFN_vkCmdBeginQueryIndexedEXT>("vkCmdBeginQueryIndexedEXT");
	auto end_query = ctx.Proc<PFN_vkCmdEndQueryIndexedEXT>("vkCmdEndQueryIndexedEXT");
	auto draw_byte_count = ctx.Proc<PFN_vkCmdDrawIndirectByteCountEXT>("vkCmdDrawIndirectByteCountEXT");
	REQUIRE(bind);
	REQUIRE(begin);
	REQUIRE(end);
	REQUIRE(begin_query);
	REQUIRE(end_query);
	REQUIRE(draw_byte_count);

	const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
	TestBuffer buffer0 = ctx.CreateBuffer(kSize0, usage);
	TestBuffer buffer1 = ctx.CreateBuffer(kSize1 + 64, usage);
	TestBuffer replay = ctx.CreateBuffer(kSize0, usage);
	TestBuffer replay1 = ctx.CreateBuffer(kSize0, usage);
	TestBuffer counters = ctx.CreateBuffer(
	    64, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	for (TestBuffer* b : {&buffer0, &buffer1, &replay, &replay1, &counters}) std::memset(b->data, 0xab, b->size);
	const uint32_t replay_bytes = 384;
	std::memcpy(counters.data + 32, &replay_bytes, 4);
	VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	query_info.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
	query_info.queryCount = 1;
	VkQueryPool pool;
	REQUIRE(vkCreateQueryPool(device, &query_info, nullptr, &pool) == VK_SUCCESS);
	vkResetQueryPool(device, pool, 0, 1);
	query_info.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
	VkQueryPool generated_pool;
	REQUIRE(vkCreateQueryPool(device, &query_info, nullptr, &generated_pool) == VK_SUCCESS);
	vkResetQueryPool(device, generated_pool, 0, 1);

	Scene s = ZigZagScene();
	s.configure = [](PipelineState& ps) { ps.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY); };
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
		const VkBuffer buffers[] = {buffer0.buffer, buffer1.buffer};
		const VkDeviceSize offsets[] = {0, 8};
		const VkDeviceSize sizes[] = {VK_WHOLE_SIZE, kSize1};
		bind(cb, 0, 2, buffers, offsets, sizes);
		begin_query(cb, pool, 0, 0, 0);
		vkCmdBeginQuery(cb, generated_pool, 0, 0);
		// A strip of 4 triangles; then pause, writing both counters.
		begin(cb, 0, 0, nullptr, nullptr);
		vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
		vkCmdDraw(cb, 6, 1, 0, 0);
		const VkBuffer counter_buffers[] = {counters.buffer, counters.buffer};
		const VkDeviceSize first_counters[] = {0, 4};
		end(cb, 0, 2, counter_buffers, first_counters);
		// Resume after them: a fan of 4 triangles, two instances; buffer 1
		// has room for 2 of the 8, so 6 are captured nowhere.
		begin(cb, 0, 2, counter_buffers, first_counters);
		vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
		vkCmdDraw(cb, 6, 2, 0, 3);
		const VkDeviceSize second_counters[] = {8, 12};
		end(cb, 0, 2, counter_buffers, second_counters);
		end_query(cb, pool, 0, 0);
		// As many 60-byte records as a counter of 384 bytes holds: 6
		// vertices, two triangles of a list, captured into `replay`.
		// (counterOffset stays 0: lavapipe 22.3 draws 6 vertices for
		// (384 - 64) / 60 too, where the spec's floor gives 5.)
		// (The host wrote that counter: one that vkCmdEndTransformFeedbackEXT
		// writes needs a barrier before a draw reads it, which a render pass
		// without a self-dependency cannot hold.)
		const VkBuffer replay_buffers[] = {replay.buffer, replay1.buffer};
		const VkDeviceSize replay_offsets[] = {0, 0};
		bind(cb, 0, 2, replay_buffers, replay_offsets, nullptr);
		begin(cb, 0, 0, nullptr, nullptr);
		vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
		draw_byte_count(cb, 1, 0, counters.buffer, 32, 0, 60);
		end(cb, 0, 0, nullptr, nullptr);
		// Drawn with capture off: generated primitives all the same.
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndQuery(cb, generated_pool, 0);
	};
	RenderScene(ctx, s);

	Captured out;
	out.buffer0.assign(buffer0.data, buffer0.data + buffer0.size);
	out.buffer1.assign(buffer1.data, buffer1.data + buffer1.size);
	out.replay.assign(replay.data, replay.data + replay.size);
	out.replay.insert(out.replay.end(), replay1.data, replay1.data + replay1.size);
	out.counters.assign(counters.data, counters.data + 16);
	CHECK(vkGetQueryPoolResults(device, pool, 0, 1, sizeof out.query, out.query, sizeof out.query,
	                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	CHECK(vkGetQueryPoolResults(device, generated_pool, 0, 1, sizeof out.generated, &out.generated,
	                            sizeof out.generated, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	vkDestroyQueryPool(device, generated_pool, nullptr);
	vkDestroyQueryPool(device, pool, nullptr);
	for (TestBuffer* b : {&buffer0, &buffer1, &replay, &replay1, &counters}) ctx.Destroy(*b);
	return out;
}

// The first byte where two captures differ, or -1.
long FirstDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
	if (a.size() != b.size()) return 0;
	for (size_t i = 0; i < a.size(); ++i)
		if (a[i] != b[i]) return long(i);
	return -1;
}

// What a captured draw with its queries left: the buffer, the image, the
// pipeline statistics (in bit order) and the primitives generated.
struct CapturedDraw {
	std::vector<uint8_t> captured, image;
	std::vector<uint64_t> statistics;
	uint64_t generated = 0;
};

// Draws `vertices` vertices of `s` on c (its record_draws replaced), captured
// from offset 0 of a buffer of `bytes` bytes that holds 0xab before, inside
// a pipeline statistics query of `statistics` and a primitives generated
// query.
CapturedDraw DrawCaptured(Context& c, Scene s, uint32_t vertices, VkDeviceSize bytes,
                          VkQueryPipelineStatisticFlags statistics) {
	VkDevice device = c.device();
	auto bind = c.Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
	auto begin = c.Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
	auto end = c.Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
	REQUIRE(bind);
	REQUIRE(begin);
	REQUIRE(end);
	TestBuffer buffer = c.CreateBuffer(bytes, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT);
	std::memset(buffer.data, 0xab, buffer.size);
	VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qi.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
	qi.queryCount = 1;
	qi.pipelineStatistics = statistics;
	VkQueryPool statistics_pool, generated_pool;
	REQUIRE(vkCreateQueryPool(device, &qi, nullptr, &statistics_pool) == VK_SUCCESS);
	qi.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
	qi.pipelineStatistics = 0;
	REQUIRE(vkCreateQueryPool(device, &qi, nullptr, &generated_pool) == VK_SUCCESS);
	vkResetQueryPool(device, statistics_pool, 0, 1);
	vkResetQueryPool(device, generated_pool, 0, 1);
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
		const VkDeviceSize offset = 0;
		bind(cb, 0, 1, &buffer.buffer, &offset, nullptr);
		vkCmdBeginQuery(cb, statistics_pool, 0, 0);
		vkCmdBeginQuery(cb, generated_pool, 0, 0);
		begin(cb, 0, 0, nullptr, nullptr);
		vkCmdDraw(cb, vertices, 1, 0, 0);
		end(cb, 0, 0, nullptr, nullptr);
		vkCmdEndQuery(cb, generated_pool, 0);
		vkCmdEndQuery(cb, statistics_pool, 0);
	};
	CapturedDraw r;
	r.image = RenderScene(c, s).colors[0];
	r.captured.assign(buffer.data, buffer.data + buffer.size);
	r.statistics.resize(size_t(std::popcount(statistics)));
	const size_t statistics_bytes = r.statistics.size() * sizeof(uint64_t);
	CHECK(vkGetQueryPoolResults(device, statistics_pool, 0, 1, statistics_bytes, r.statistics.data(), statistics_bytes,
	                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	CHECK(vkGetQueryPoolResults(device, generated_pool, 0, 1, sizeof r.generated, &r.generated, sizeof r.generated,
	                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	vkDestroyQueryPool(device, statistics_pool, nullptr);
	vkDestroyQueryPool(device, generated_pool, nullptr);
	c.Destroy(buffer);
	return r;
}

// run(context) on Tessera, then on lavapipe; neither may report a
// validation error.
template <class Run>
std::pair<CapturedDraw, CapturedDraw> OnBothDrivers(XfbContexts& ctx, Run run) {
	std::pair<CapturedDraw, CapturedDraw> results{run(*ctx.tessera), run(*ctx.lavapipe)};
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
	return results;
}

uint32_t Word(const std::vector<uint8_t>& bytes, size_t offset) {
	uint32_t w;
	std::memcpy(&w, bytes.data() + offset, 4);
	return w;
}

}  // namespace

TEST_CASE("transform feedback: captures, counters, overflow, queries and byte-count draws match lavapipe",
          "[draw][transform_feedback]") {
	XfbContexts ctx;
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	const Captured ours = Run(*ctx.tessera);
	const Captured reference = Run(*ctx.lavapipe);
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);

	// The rules: the strip's 4 triangles are 12 records in both buffers;
	// the fan's 8 triangles fit buffer 0, but buffer 1 (19 records) takes
	// 2 more only, so 2 are captured (in both buffers) and 6 are not.
	const uint32_t counts[] = {Word(ours.counters, 0), Word(ours.counters, 4), Word(ours.counters, 8),
	                           Word(ours.counters, 12)};
	CHECK(counts[0] == 12 * kStride0);
	CHECK(counts[1] == 12 * kStride1);
	CHECK(counts[2] == 18 * kStride0);
	CHECK(counts[3] == 18 * kStride1);
	CHECK(ours.query[0] == 6);    // written
	CHECK(ours.query[1] == 12);   // needed
	CHECK(ours.generated == 15);  // the strip's 4, the fan's 8, the replay's 2 and 1 drawn without capture
	// Two triangles replayed: 6 records, then the fill.
	CHECK(Word(ours.replay, 5 * kStride0) != 0xababababu);
	CHECK(Word(ours.replay, 6 * kStride0) == 0xababababu);
	// Gaps in the records stay as they were.
	CHECK(Word(ours.buffer0, 24) == 0xababababu);
	CHECK(Word(ours.buffer1, 8) == 0xababababu);
	// The fan's first captured triangle: vertices 1, 2, 0 of instance 3.
	CHECK(Word(ours.buffer1, 8 + 12 * kStride1 + 4) == 1u);
	CHECK(Word(ours.buffer1, 8 + 12 * kStride1 + 8) == 3u);

	CHECK(ours.counters == reference.counters);
	CHECK(ours.query[0] == reference.query[0]);
	CHECK(ours.query[1] == reference.query[1]);
	CHECK(ours.generated == reference.generated);
	CHECK(FirstDifference(ours.buffer0, reference.buffer0) == -1);
	CHECK(FirstDifference(ours.buffer1, reference.buffer1) == -1);
	CHECK(FirstDifference(ours.replay, reference.replay) == -1);
}

TEST_CASE("transform feedback of the geometry stage, with its statistics, matches lavapipe",
          "[draw][transform_feedback][geometry]") {
	XfbContexts ctx(true);
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	auto run = [](Context& c) {
		// Four triangles of a list.
		std::vector<float> positions;
		for (int i = 0; i < 12; ++i)
			positions.insert(positions.end(), {-0.9f + 0.15f * float(i), (i % 3 == 1) ? 0.3f : -0.5f, 0.5f, 1});
		const Scene s = scenes::GeometryScene(positions, "xfb_geometry.geom.spv", "xfb_capture.frag.spv");
		// geometry invocations, geometry primitives, clipping primitives
		return DrawCaptured(c, s, 12, 2048,
		                    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
		                        VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT |
		                        VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT);
	};
	const auto [ours, reference] = OnBothDrivers(ctx, run);
	// 4 triangles x 2 invocations, each a strip of 2 triangles: 16
	// triangles, 48 records of 24 bytes, the rest of the buffer untouched.
	CHECK(ours.statistics[0] == 8);
	CHECK(ours.statistics[1] == 16);
	CHECK(ours.statistics[2] == 16);
	CHECK(ours.generated == 16);
	CHECK(ours.captured[48 * 24] == 0xab);
	CHECK(ours.captured[48 * 24 - 1] != 0xab);
	CHECK(FirstDifference(ours.captured, reference.captured) == -1);
	CHECK(ours.generated == reference.generated);
	// Geometry invocations: the spec counts each instanced invocation
	// ("Pipeline Statistics Queries"), 8 here; lavapipe 22.3 counts 4, one
	// per primitive, so only the other counters are compared with it.
	for (int k = 1; k < 3; ++k) CHECK(ours.statistics[k] == reference.statistics[k]);
}

TEST_CASE("geometry vertex streams are captured into their own buffers and queried by index, as on lavapipe",
          "[draw][transform_feedback][geometry]") {
	XfbContexts ctx(false, true);
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	struct Result {
		std::vector<uint8_t> buffer0, buffer1;
		uint64_t stream_query[2][2] = {};  // per stream: written, needed
		uint64_t generated[2] = {};
	};
	auto run = [](Context& c) {
		VkDevice device = c.device();
		auto bind = c.Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
		auto begin = c.Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
		auto end = c.Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
		auto begin_query = c.Proc<PFN_vkCmdBeginQueryIndexedEXT>("vkCmdBeginQueryIndexedEXT");
		auto end_query = c.Proc<PFN_vkCmdEndQueryIndexedEXT>("vkCmdEndQueryIndexedEXT");
		REQUIRE(bind);
		REQUIRE(begin);
		REQUIRE(end);
		REQUIRE(begin_query);
		REQUIRE(end_query);
		const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
		TestBuffer buffer0 = c.CreateBuffer(1024, usage), buffer1 = c.CreateBuffer(256, usage);
		std::memset(buffer0.data, 0xab, buffer0.size);
		std::memset(buffer1.data, 0xab, buffer1.size);
		VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
		qi.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
		qi.queryCount = 2;
		VkQueryPool streams, generated;
		REQUIRE(vkCreateQueryPool(device, &qi, nullptr, &streams) == VK_SUCCESS);
		qi.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
		REQUIRE(vkCreateQueryPool(device, &qi, nullptr, &generated) == VK_SUCCESS);
		vkResetQueryPool(device, streams, 0, 2);
		vkResetQueryPool(device, generated, 0, 2);
		// Five triangles of a list.
		std::vector<float> positions;
		for (int i = 0; i < 15; ++i)
			positions.insert(positions.end(), {-0.9f + 0.12f * float(i), (i % 3 == 1) ? 0.4f : -0.4f, 0.5f, 1});
		Scene s;
		s.vertex_shader = "geom_input.vert.spv";
		s.geometry_shader = "xfb_streams.geom.spv";
		s.fragment_shader = "constant_color.frag.spv";
		s.vertices = scenes::Bytes(positions);
		s.vertex_stride = 16;
		s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
		s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
			const VkBuffer buffers[] = {buffer0.buffer, buffer1.buffer};
			const VkDeviceSize offsets[] = {0, 0};
			// Buffer 1 holds 7 records of stream 1's 9: two triangles' three.
			const VkDeviceSize sizes[] = {VK_WHOLE_SIZE, 7 * 8};
			bind(cb, 0, 2, buffers, offsets, sizes);
			for (uint32_t stream = 0; stream < 2; ++stream) {
				begin_query(cb, streams, stream, 0, stream);
				begin_query(cb, generated, stream, 0, stream);
			}
			begin(cb, 0, 0, nullptr, nullptr);
			vkCmdDraw(cb, 15, 1, 0, 0);
			end(cb, 0, 0, nullptr, nullptr);
			for (uint32_t stream = 0; stream < 2; ++stream) {
				end_query(cb, generated, stream, stream);
				end_query(cb, streams, stream, stream);
			}
		};
		RenderScene(c, s);
		Result r;
		r.buffer0.assign(buffer0.data, buffer0.data + buffer0.size);
		r.buffer1.assign(buffer1.data, buffer1.data + buffer1.size);
		CHECK(vkGetQueryPoolResults(device, streams, 0, 2, sizeof r.stream_query, r.stream_query,
		                            sizeof r.stream_query[0],
		                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
		CHECK(vkGetQueryPoolResults(device, generated, 0, 2, sizeof r.generated, r.generated, sizeof r.generated[0],
		                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
		vkDestroyQueryPool(device, streams, nullptr);
		vkDestroyQueryPool(device, generated, nullptr);
		c.Destroy(buffer0);
		c.Destroy(buffer1);
		return r;
	};
	const Result ours = run(*ctx.tessera);
	const Result reference = run(*ctx.lavapipe);
	CHECK(ctx.tessera->validation_errors() == 0);
	CHECK(ctx.lavapipe->validation_errors() == 0);
	// Stream 0: 15 points, all captured. Stream 1: triangles 0, 2 and 4
	// give 9 points; buffer 1 takes 7.
	CHECK(ours.stream_query[0][0] == 15);
	CHECK(ours.stream_query[0][1] == 15);
	CHECK(ours.stream_query[1][0] == 7);
	CHECK(ours.stream_query[1][1] == 9);
	CHECK(ours.generated[0] == 15);
	CHECK(ours.generated[1] == 9);
	CHECK(FirstDifference(ours.buffer0, reference.buffer0) == -1);
	CHECK(FirstDifference(ours.buffer1, reference.buffer1) == -1);
	for (int s = 0; s < 2; ++s) {
		CHECK(ours.generated[s] == reference.generated[s]);
		for (int k = 0; k < 2; ++k) CHECK(ours.stream_query[s][k] == reference.stream_query[s][k]);
	}
}

TEST_CASE("transform feedback keeps each primitive's provoking vertex last in last-vertex mode",
          "[transform_feedback]") {
	// transformFeedbackPreservesProvokingVertex (VK_EXT_provoking_vertex,
	// Vulkan §26.1): with VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT each
	// captured primitive ends with its provoking vertex (strip and fan
	// triangle i: vertex i + 2; line strip segment i: vertex i + 1) and keeps
	// the topology's winding: a strip, a fan and a line strip of 6 vertices,
	// captured vertex indices against those rules. Lavapipe (22.3) preserves
	// it too, but not for fans (transformFeedbackPreservesTriangleFanProvokingVertex
	// false there, true here): its strip and lines must equal ours.
	SceneFeatures features;
	VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
	provoking.provokingVertexLast = VK_TRUE;
	provoking.transformFeedbackPreservesProvokingVertex = VK_TRUE;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	                                                 &provoking};
	xfb.transformFeedback = VK_TRUE;
	ContextOptions options = features.Options();
	provoking.pNext = const_cast<void*>(options.device_features);
	options.device_features = &xfb;
	options.device_extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
	options.device_extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
	// A line strip from the triangle pipeline (dynamicPrimitiveTopologyUnrestricted).
	options.device_extensions.push_back("VK_EXT_extended_dynamic_state3");
	std::vector<uint32_t> captured[2];  // vertex indices, record after record
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		auto bind = ctx->Proc<PFN_vkCmdBindTransformFeedbackBuffersEXT>("vkCmdBindTransformFeedbackBuffersEXT");
		auto begin = ctx->Proc<PFN_vkCmdBeginTransformFeedbackEXT>("vkCmdBeginTransformFeedbackEXT");
		auto end = ctx->Proc<PFN_vkCmdEndTransformFeedbackEXT>("vkCmdEndTransformFeedbackEXT");
		REQUIRE(bind);
		REQUIRE(begin);
		REQUIRE(end);
		const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
		TestBuffer buffer0 = ctx->CreateBuffer(kSize0, usage), buffer1 = ctx->CreateBuffer(kSize0, usage);
		Scene s = ZigZagScene();
		VkPipelineRasterizationProvokingVertexStateCreateInfoEXT last{
		    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
		last.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
		s.configure = [&last](PipelineState& ps) {
			ps.rasterization.pNext = &last;
			ps.dynamic_states.push_back(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
		};
		s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers&) {
			const VkBuffer buffers[] = {buffer0.buffer, buffer1.buffer};
			const VkDeviceSize offsets[] = {0, 0};
			bind(cb, 0, 2, buffers, offsets, nullptr);
			begin(cb, 0, 0, nullptr, nullptr);
			for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,
			                                     VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
				vkCmdSetPrimitiveTopology(cb, topology);
				vkCmdDraw(cb, 6, 1, 0, 0);
			}
			end(cb, 0, 0, nullptr, nullptr);
		};
		RenderScene(*ctx, s);
		// 12 strip, 10 line and 12 fan vertices, 12-byte records in buffer 1.
		const std::vector<uint8_t> records(buffer1.data, buffer1.data + buffer1.size);
		for (uint32_t r = 0; r < 34; ++r)
			captured[driver == Driver::Tessera ? 0 : 1].push_back(Word(records, r * kStride1 + 4));
		ctx->Destroy(buffer0);
		ctx->Destroy(buffer1);
		for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
		CHECK(ctx->validation_errors() == 0);
	}
	const std::vector<uint32_t> expected = {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5,   // strip
	                                        0, 1, 1, 2, 2, 3, 3, 4, 4, 5,         // line strip
	                                        0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};  // fan
	CHECK(captured[0] == expected);
	CHECK(std::vector<uint32_t>(captured[1].begin(), captured[1].begin() + 22) ==
	      std::vector<uint32_t>(captured[0].begin(), captured[0].begin() + 22));
}

// extendedDynamicState3RasterizationStream: a pipeline that makes the
// rasterization stream dynamic draws the stream vkCmdSetRasterizationStreamEXT
// names, the same bytes as one that fixes it in
// VkPipelineRasterizationStateStreamCreateInfoEXT; raster_stream.geom puts
// positions in stream 1 only, so a draw of stream 0 would not give them.
// Tessera alone: lavapipe 22.3 has neither rasterization stream selection
// nor several streams of triangles (transformFeedbackStreamsLinesTriangles).
TEST_CASE("vkCmdSetRasterizationStreamEXT selects the stream drawn as the pipeline stream does",
          "[draw][transform_feedback][geometry][dynamic-state]") {
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	eds3.extendedDynamicState3RasterizationStream = VK_TRUE;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	                                                 &eds3};
	xfb.transformFeedback = VK_TRUE;
	xfb.geometryStreams = VK_TRUE;
	ContextOptions options = features.Options();
	eds3.pNext = const_cast<void*>(options.device_features);
	options.device_features = &xfb;
	options.device_extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
	options.device_extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
	std::unique_ptr<Context> tessera = Context::Create(Driver::Tessera, options);
	REQUIRE(tessera);
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT offered{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &offered};
	vkGetPhysicalDeviceFeatures2(tessera->physical_device(), &f2);
	REQUIRE(offered.extendedDynamicState3RasterizationStream == VK_TRUE);

	// Four triangles of a list.
	std::vector<float> positions;
	for (int i = 0; i < 12; ++i)
		positions.insert(positions.end(), {-0.9f + 0.15f * float(i), (i % 3 == 1) ? 0.6f : -0.6f, 0.5f, 1});
	VkPipelineRasterizationStateStreamCreateInfoEXT stream{
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT};
	auto scene = [&](bool dynamic, uint32_t static_stream) {
		Scene s;
		s.vertex_shader = "geom_input.vert.spv";
		s.geometry_shader = "raster_stream.geom.spv";
		s.fragment_shader = "geom_color.frag.spv";
		s.vertices = scenes::Bytes(positions);
		s.vertex_stride = 16;
		s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
		s.draws = {DrawCall{12}};
		s.configure = [&, dynamic, static_stream](PipelineState& p) {
			stream.rasterizationStream = static_stream;
			p.rasterization.pNext = &stream;
			if (dynamic) p.dynamic_states.push_back(VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT);
		};
		if (dynamic)
			s.before_draws = [&](VkCommandBuffer cb) {
				auto set = tessera->Proc<PFN_vkCmdSetRasterizationStreamEXT>("vkCmdSetRasterizationStreamEXT");
				REQUIRE(set);
				set(cb, 1);
			};
		return s;
	};
	const SceneResult fixed = RenderScene(*tessera, scene(false, 1));
	// The pipeline's own stream (0) is replaced by the command's (1).
	const SceneResult dynamic = RenderScene(*tessera, scene(true, 0));
	CHECK(tessera->validation_errors() == 0);
	for (const std::string& m : tessera->validation_messages()) UNSCOPED_INFO(m);
	REQUIRE(fixed.colors.size() == 1);
	REQUIRE(dynamic.colors.size() == 1);
	CHECK(FirstDifference(fixed.colors[0], dynamic.colors[0]) == -1);
	// Stream 1's triangles were drawn: some pixel is not the clear color.
	bool drawn = false;
	for (size_t i = 0; i + 3 < fixed.colors[0].size(); i += 4)
		drawn |= fixed.colors[0][i] != 0 || fixed.colors[0][i + 1] != 0 || fixed.colors[0][i + 2] != 0;
	CHECK(drawn);
}

// A draw whose geometry stage runs in parts (draw.cpp DrawGeometryStage:
// input primitives a part at a time, as many as the records the stage may
// emit allow: 4 invocations of up to 128 vertices here, about a thousand
// primitives a part, so 4,800 input triangles make several): every part's
// primitives must keep their PrimitiveId, their order in the capture and
// in the image, and their counts in the queries.
TEST_CASE("a geometry draw run in parts keeps primitive IDs, capture order and counts, as on lavapipe",
          "[draw][transform_feedback][geometry]") {
	XfbContexts ctx(true);
	REQUIRE(ctx.tessera);
	REQUIRE(ctx.lavapipe);
	constexpr int kColumns = 80, kRows = 60, kTriangles = kColumns * kRows;
	constexpr uint32_t kRecord = 20;  // vec4 position and the int ID
	auto run = [&](Context& c) {
		// A grid of small triangles over the image, as a list, row by row.
		std::vector<float> positions;
		for (int y = 0; y < kRows; ++y)
			for (int x = 0; x < kColumns; ++x) {
				const float x0 = -0.95f + 1.9f * float(x) / kColumns, y0 = -0.95f + 1.9f * float(y) / kRows;
				const float dx = 1.9f / kColumns, dy = 1.9f / kRows;
				positions.insert(positions.end(), {x0, y0, 0.5f, 1, x0 + dx, y0, 0.5f, 1, x0, y0 + dy, 0.5f, 1});
			}
		Scene s = scenes::GeometryScene(positions, "geom_parts.geom.spv", "geom_parts.frag.spv");
		s.width = 320;
		s.height = 240;
		// Room for every record and one more, which must stay unwritten;
		// geometry primitives, clipping primitives.
		return DrawCaptured(c, s, kTriangles * 3, (kTriangles * 3 + 1) * kRecord,
		                    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT |
		                        VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT);
	};
	const auto [ours, reference] = OnBothDrivers(ctx, run);
	// Every triangle captured once, in draw order, with its own ID; the
	// record after the last untouched.
	int out_of_order = 0;
	for (int i = 0; i < kTriangles * 3; ++i) {
		int32_t id;
		std::memcpy(&id, &ours.captured[size_t(i) * kRecord + 16], 4);
		out_of_order += id != i / 3;
	}
	CHECK(out_of_order == 0);
	CHECK(ours.captured[size_t(kTriangles) * 3 * kRecord] == 0xab);
	CHECK(ours.statistics[0] == kTriangles);
	CHECK(ours.statistics[1] == kTriangles);
	CHECK(ours.generated == kTriangles);
	CHECK(FirstDifference(ours.captured, reference.captured) == -1);
	CHECK(ours.statistics[0] == reference.statistics[0]);
	CHECK(ours.statistics[1] == reference.statistics[1]);
	CHECK(ours.generated == reference.generated);
	// The IDs drawn: exact colors, the same pixels as lavapipe's.
	CompareImages("geometry-parts", 320, 240, ours.image, reference.image, 0);
}
