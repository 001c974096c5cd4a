// The compute-only and transfer-only queue families (vk/physical_device.h
// kComputeFamily, kTransferFamily): their properties, a chain of dispatches
// on the compute queue fed and drained by the universal or the transfer
// queue through a timeline semaphore (the compute queue's waits submitted
// before the signals they wait for), and dispatches on the compute queue
// while the universal queue draws. Lavapipe has one queue family, so there
// all the work goes to its one queue, in an order that needs no wait before
// a signal; the bytes must be the same. Through the loader with the
// validation layer on.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "compute_kernel.h"
#include "draw_scene_helpers.h"
#include "render_scene.h"
#include "skip.h"
#include "sync_support.h"
#include "vk_context.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

// The features the tests use (timeline semaphores, and vkQueueSubmit2 for
// sync_support.h's Batch), kept by the caller while the context lives.
struct QueueFeatures {
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
};

std::unique_ptr<Context> TwoQueueContext(Driver driver, QueueFeatures* features) {
	features->v12.timelineSemaphore = VK_TRUE;
	features->v13.synchronization2 = VK_TRUE;
	features->v12.pNext = &features->v13;
	ContextOptions options;
	options.device_features = &features->v12;
	options.compute_queue = true;
	options.transfer_queue = true;
	return Context::Create(driver, options);
}

// One queue's command buffers and submissions, waiting on and signalling
// values of one timeline semaphore.
class QueueUse {
public:
	QueueUse(Context& ctx, VkQueue queue, uint32_t family) : queue_(queue), recorder_(ctx.device(), family) {}
	~QueueUse() { vkQueueWaitIdle(queue_); }  // (before the pool goes)
	QueueUse(const QueueUse&) = delete;
	QueueUse& operator=(const QueueUse&) = delete;

	VkCommandBuffer Begin() { return recorder_.Begin(); }
	// Ends cb and submits it: waits for `wait` (0: none), signals `signal`
	// (0: none), then the fence (may be null).
	void Submit(VkCommandBuffer cb, VkSemaphore timeline, uint64_t wait, uint64_t signal,
	            VkFence fence = VK_NULL_HANDLE) {
		vkEndCommandBuffer(cb);
		Batch batch;
		if (wait) batch.Wait(timeline, wait);
		batch.Run(cb);
		if (signal) batch.Signal(timeline, signal);
		REQUIRE(batch.Submit(queue_, fence) == VK_SUCCESS);
	}

private:
	VkQueue queue_;
	CommandRecorder recorder_;
};

// queue_step.comp from `in` to `out`.
std::unique_ptr<ComputeKernel> StepKernel(Context& ctx, VkBuffer in, VkBuffer out) {
	auto kernel = std::make_unique<ComputeKernel>(ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "queue_step_vk10.spv"), 2);
	REQUIRE(kernel->ok());
	kernel->Bind(0, in);
	kernel->Bind(1, out);
	return kernel;
}

constexpr uint32_t kElements = 4096;
constexpr uint32_t kRounds = 12;

// Round r: the feeding queue (the universal one, or with transfer_feeds the
// transfer one) copies the previous round's result out and fills the input
// with 7r + 1; the compute queue computes out = in * 3 + i + r. Where a
// family is missing, the universal queue does its part. The rounds'
// results, one after another.
std::vector<uint32_t> RunChain(Driver driver, bool transfer_feeds) {
	QueueFeatures features;
	auto ctx = TwoQueueContext(driver, &features);
	if (!ctx) return {};
	const bool two = ctx->compute_queue() != VK_NULL_HANDLE;
	const bool transfer = transfer_feeds && ctx->transfer_queue() != VK_NULL_HANDLE;
	if (driver == Driver::Tessera) REQUIRE((two && (transfer || !transfer_feeds)));
	std::vector<uint32_t> families;
	if (two) families = {0, ctx->compute_family()};
	if (transfer) families.push_back(ctx->transfer_family());
	const VkDeviceSize bytes = kElements * 4;
	const VkBufferUsageFlags usage =
	    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	TestBuffer in = ctx->CreateBuffer(bytes, usage, families), out = ctx->CreateBuffer(bytes, usage, families);
	TestBuffer results = ctx->CreateBuffer(bytes * kRounds, VK_BUFFER_USAGE_TRANSFER_DST_BIT, families);
	std::vector<uint8_t> results_bytes;
	{
		const auto kernel = StepKernel(*ctx, in.buffer, out.buffer);
		const VkSemaphore timeline = CreateTimeline(ctx->device(), 0);
		const VkFence done = CreateFence(ctx->device());
		{
			QueueUse feeder(*ctx, transfer ? ctx->transfer_queue() : ctx->queue(),
			                transfer ? ctx->transfer_family() : 0);
			QueueUse compute(*ctx, two ? ctx->compute_queue() : ctx->queue(), two ? ctx->compute_family() : 0);
			// Feeding batch r waits for value 2r (round r - 1's dispatch) and
			// signals 2r + 1; compute batch r waits for 2r + 1 and signals
			// 2r + 2. (The semaphores order the fills, dispatches and copies
			// and make their writes visible: no barrier is needed.)
			auto feeder_round = [&](uint32_t r) {
				VkCommandBuffer cb = feeder.Begin();
				if (r > 0) {
					const VkBufferCopy region{0, (r - 1) * bytes, bytes};
					vkCmdCopyBuffer(cb, out.buffer, results.buffer, 1, &region);
				}
				if (r < kRounds) vkCmdFillBuffer(cb, in.buffer, 0, bytes, 7 * r + 1);
				feeder.Submit(cb, timeline, 2 * r, r < kRounds ? 2 * r + 1 : 0, r < kRounds ? VK_NULL_HANDLE : done);
			};
			auto compute_round = [&](uint32_t r) {
				VkCommandBuffer cb = compute.Begin();
				kernel->Record(cb, &r, 4, kElements / 64);
				compute.Submit(cb, timeline, 2 * r + 1, 2 * r + 2);
			};
			if (two) {
				// Every wait of the compute queue before the signals it waits for.
				for (uint32_t r = 0; r < kRounds; ++r) compute_round(r);
				for (uint32_t r = 0; r <= kRounds; ++r) feeder_round(r);
			} else {
				for (uint32_t r = 0; r < kRounds; ++r) feeder_round(r), compute_round(r);
				feeder_round(kRounds);
			}
			REQUIRE(vkWaitForFences(ctx->device(), 1, &done, VK_TRUE, 10'000'000'000ull) == VK_SUCCESS);
			uint64_t value = 0;
			vkGetSemaphoreCounterValue(ctx->device(), timeline, &value);
			CHECK(value == 2 * kRounds);
		}
		results_bytes.assign(results.data, results.data + results.size);
		vkDestroyFence(ctx->device(), done, nullptr);
		vkDestroySemaphore(ctx->device(), timeline, nullptr);
	}
	ctx->Destroy(in);
	ctx->Destroy(out);
	ctx->Destroy(results);
	CHECK(ctx->validation_errors() == 0);
	std::vector<uint32_t> words(results_bytes.size() / 4);
	std::memcpy(words.data(), results_bytes.data(), results_bytes.size());
	return words;
}

// A few hundred overlapping triangles, depth tested: drawn on the
// universal queue while the compute queue runs.
Scene Triangles() {
	std::mt19937 rng(11);
	std::uniform_real_distribution<float> pos(-1.0f, 0.8f), unit(0.0f, 1.0f);
	std::vector<Vertex> v;
	for (uint32_t i = 0; i < 400; ++i) {
		const float x = pos(rng), y = pos(rng), size = 0.15f + 0.3f * unit(rng);
		Triangle(v, x, y, x + size, y + 0.2f * size, x + 0.3f * size, y + size, unit(rng), unit(rng), unit(rng),
		         unit(rng));
	}
	Scene s = ColorScene(v);
	s.width = 320;
	s.height = 240;
	s.depth_format = VK_FORMAT_D32_SFLOAT;
	s.configure = DepthLess;
	s.draws = {DrawCall{uint32_t(v.size())}};
	return s;
}

}  // namespace

TEST_CASE("the compute and transfer queue families: one queue each, without graphics", "[queue]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	uint32_t count = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device(), &count, nullptr);
	REQUIRE(count == 3);
	VkQueueFamilyGlobalPriorityPropertiesKHR levels[3];
	VkQueueFamilyProperties2 families[3];
	for (uint32_t i = 0; i < 3; ++i) {
		levels[i] = {VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR};
		families[i] = {VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, &levels[i]};
	}
	vkGetPhysicalDeviceQueueFamilyProperties2(ctx->physical_device(), &count, families);
	REQUIRE(count == 3);
	CHECK(families[0].queueFamilyProperties.queueFlags ==
	      (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT | VK_QUEUE_SPARSE_BINDING_BIT));
	CHECK(families[1].queueFamilyProperties.queueFlags == (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT));
	CHECK(families[2].queueFamilyProperties.queueFlags == VK_QUEUE_TRANSFER_BIT);
	for (uint32_t i = 0; i < 3; ++i) {
		INFO("family " << i);
		const VkQueueFamilyProperties& f = families[i].queueFamilyProperties;
		CHECK(f.queueCount == 1);
		CHECK(f.timestampValidBits == 64);
		CHECK(f.minImageTransferGranularity.width == 1);
		// Each element of the array gets its own chained structure filled.
		CHECK(levels[i].priorityCount == 4);
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE(
    "dispatches on the compute queue, fed by the universal or the transfer queue through a timeline, match "
    "lavapipe",
    "[queue][compute][threads]") {
	const bool transfer_feeds = GENERATE(false, true);
	INFO((transfer_feeds ? "the transfer queue feeds" : "the universal queue feeds"));
	const std::vector<uint32_t> ours = RunChain(Driver::Tessera, transfer_feeds);
	REQUIRE(ours.size() == kElements * kRounds);
	for (uint32_t r = 0; r < kRounds; ++r)
		for (uint32_t i : {0u, 1u, 63u, 64u, kElements - 1}) {
			INFO("round " << r << ", element " << i);
			CHECK(ours[r * kElements + i] == (7 * r + 1) * 3 + i + r);
		}
	const std::vector<uint32_t> reference = RunChain(Driver::Lavapipe, transfer_feeds);
	if (reference.empty()) return NoteSkipped("lavapipe not found: comparison not run");
	CHECK(ours == reference);
}

TEST_CASE("the compute queue runs dispatches while the universal queue draws, both as on lavapipe",
          "[queue][compute][draw][threads]") {
	const Scene scene = Triangles();
	constexpr uint32_t kBig = 1u << 18, kDispatches = 24;
	auto run = [&](Driver driver, SceneResult* image) -> std::vector<uint8_t> {
		QueueFeatures features;
		auto ctx = TwoQueueContext(driver, &features);
		if (!ctx) return {};
		const bool two = ctx->compute_queue() != VK_NULL_HANDLE;
		const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
		TestBuffer in = ctx->CreateBuffer(kBig * 4, usage), out = ctx->CreateBuffer(kBig * 4, usage);
		for (uint32_t i = 0; i < kBig; ++i) std::memcpy(in.data + 4 * i, &i, 4);
		std::vector<uint8_t> bytes;
		{
			const auto kernel = StepKernel(*ctx, in.buffer, out.buffer);
			const VkFence done = CreateFence(ctx->device());
			{
				QueueUse compute(*ctx, two ? ctx->compute_queue() : ctx->queue(), two ? ctx->compute_family() : 0);
				for (uint32_t k = 0; k < kDispatches; ++k) {
					VkCommandBuffer cb = compute.Begin();
					kernel->Record(cb, &k, 4, kBig / 64);
					compute.Submit(cb, VK_NULL_HANDLE, 0, 0, k + 1 == kDispatches ? done : VK_NULL_HANDLE);
				}
				*image = RenderScene(*ctx, scene);  // on the universal queue, meanwhile
				REQUIRE(vkWaitForFences(ctx->device(), 1, &done, VK_TRUE, 10'000'000'000ull) == VK_SUCCESS);
			}
			bytes.assign(out.data, out.data + out.size);
			vkDestroyFence(ctx->device(), done, nullptr);
		}
		ctx->Destroy(in);
		ctx->Destroy(out);
		CHECK(ctx->validation_errors() == 0);
		return bytes;
	};
	SceneResult ours_image, reference_image;
	const std::vector<uint8_t> ours = run(Driver::Tessera, &ours_image);
	REQUIRE(ours.size() == kBig * 4);
	for (uint32_t i : {0u, 5u, kBig - 1}) {
		uint32_t word;
		std::memcpy(&word, ours.data() + 4 * i, 4);
		CHECK(word == i * 3 + i + (kDispatches - 1));
	}
	const std::vector<uint8_t> reference = run(Driver::Lavapipe, &reference_image);
	if (reference.empty()) return NoteSkipped("lavapipe not found: comparison not run");
	CHECK(ours == reference);
	CompareImages("compute-queue-beside-draws", scene.width, scene.height, ours_image.colors[0],
	              reference_image.colors[0], 2, 4);
}
