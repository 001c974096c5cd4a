// Query pools (Vulkan 1.3 §18): timestamps, result layout and availability,
// host and device resets, copies to buffers; compared with lavapipe where the
// spec fixes the bytes (everything but the timestamp values themselves).
#include <time.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "sync_support.h"

using namespace tessera::test;

namespace {

constexpr uint64_t kForever = UINT64_MAX;
constexpr uint8_t kUntouched = 0xaa;

VkQueryPool CreateQueryPool(VkDevice device, VkQueryType type, uint32_t count) {
	VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	info.queryType = type;
	info.queryCount = count;
	VkQueryPool pool = VK_NULL_HANDLE;
	vkCreateQueryPool(device, &info, nullptr, &pool);
	return pool;
}

void SubmitAndWait(Context& ctx, VkCommandBuffer cb) {
	vkEndCommandBuffer(cb);
	VkFence fence = CreateFence(ctx.device());
	REQUIRE(Batch().Run(cb).Submit(ctx.queue(), fence) == VK_SUCCESS);
	REQUIRE(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, kForever) == VK_SUCCESS);
	vkDestroyFence(ctx.device(), fence, nullptr);
}

uint64_t MonotonicNow() {
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

// Results of `count` queries, each `words` words of `word_bytes` with the
// value first: a timestamp (any nonzero value) becomes 1 so that drivers
// compare; bytes never written stay kUntouched.
std::vector<uint8_t> Normalize(std::vector<uint8_t> bytes, uint32_t word_bytes, uint32_t stride) {
	for (size_t at = 0; at + word_bytes <= bytes.size(); at += stride) {
		uint64_t value = 0, untouched = 0;
		std::memcpy(&value, &bytes[at], word_bytes);
		std::memset(&untouched, kUntouched, word_bytes);
		if (value != untouched && value != 0) {
			value = 1;
			std::memcpy(&bytes[at], &value, word_bytes);
		}
	}
	return bytes;
}

struct Results {
	VkResult result;
	std::vector<uint8_t> bytes;
};

Results Get(Context& ctx, VkQueryPool pool, uint32_t first, uint32_t count, uint32_t stride, VkQueryResultFlags flags) {
	std::vector<uint8_t> bytes(size_t(stride) * count, kUntouched);
	VkResult r = vkGetQueryPoolResults(ctx.device(), pool, first, count, bytes.size(), bytes.data(), stride, flags);
	return {r, Normalize(bytes, (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4, stride)};
}

// Whether vkGetPhysicalDeviceCalibrateableTimeDomains* (the EXT or the KHR
// name) offers the device's domain and CLOCK_MONOTONIC, which
// kCalibrationInfos sample in that order.
bool OffersDeviceAndMonotonic(Context& ctx, const char* name) {
	auto domains_of = reinterpret_cast<PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT>(
	    vkGetInstanceProcAddr(ctx.instance(), name));
	if (!domains_of) return false;
	uint32_t count = 0;
	if (domains_of(ctx.physical_device(), &count, nullptr) != VK_SUCCESS) return false;
	std::vector<VkTimeDomainEXT> domains(count);
	if (domains_of(ctx.physical_device(), &count, domains.data()) != VK_SUCCESS) return false;
	auto offers = [&](VkTimeDomainEXT domain) {
		return std::find(domains.begin(), domains.end(), domain) != domains.end();
	};
	return offers(VK_TIME_DOMAIN_DEVICE_EXT) && offers(VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
}
constexpr VkCalibratedTimestampInfoEXT kCalibrationInfos[] = {
    {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
    {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
};

}  // namespace

TEST_CASE("timestamps are CLOCK_MONOTONIC nanoseconds with 64 valid bits", "[query][timestamp]") {
	auto ctx = CreateSyncContext(Driver::Tessera);
	REQUIRE(ctx);
	uint32_t count = 1;
	VkQueueFamilyProperties family;
	vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device(), &count, &family);
	CHECK(family.timestampValidBits == 64);
	VkPhysicalDeviceProperties properties;
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &properties);
	CHECK(properties.limits.timestampPeriod == 1.0f);
	CHECK(properties.limits.timestampComputeAndGraphics == VK_TRUE);

	VkDevice d = ctx->device();
	VkQueryPool pool = CreateQueryPool(d, VK_QUERY_TYPE_TIMESTAMP, 2);
	vkResetQueryPool(d, pool, 0, 2);
	TestBuffer buffer = ctx->CreateBuffer(1 << 20);
	CommandRecorder recorder(d);
	VkCommandBuffer cb = recorder.Begin();
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
	vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 1);
	vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 1);
	uint64_t before = MonotonicNow();
	SubmitAndWait(*ctx, cb);
	uint64_t after = MonotonicNow();

	uint64_t t[2] = {};
	REQUIRE(vkGetQueryPoolResults(d, pool, 0, 2, sizeof t, t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) ==
	        VK_SUCCESS);
	CHECK(before <= t[0]);
	CHECK(t[0] <= t[1]);
	CHECK(t[1] <= after);

	vkDestroyQueryPool(d, pool, nullptr);
	ctx->Destroy(buffer);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("query result layout, availability and resets match lavapipe", "[query][layout]") {
	auto scenario = [](Driver driver) {
		auto ctx = CreateSyncContext(driver);
		REQUIRE(ctx);
		VkDevice d = ctx->device();
		std::vector<Results> all;
		VkQueryPool pool = CreateQueryPool(d, VK_QUERY_TYPE_TIMESTAMP, 4);
		TestBuffer copies = ctx->CreateBuffer(256);
		std::memset(copies.data, kUntouched, 256);
		CommandRecorder recorder(d);
		VkCommandBuffer cb = recorder.Begin();
		vkCmdResetQueryPool(cb, pool, 0, 4);
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
		vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 2);
		// Queries 1 and 3 stay unavailable.
		SubmitAndWait(*ctx, cb);
		// Copies of available queries only: the validation layer rejects
		// copying a query that was never written.
		cb = recorder.Begin();
		for (uint32_t query : {0u, 2u}) {
			VkDeviceSize at = query * 16;
			vkCmdCopyQueryPoolResults(
			    cb, pool, query, 1, copies.buffer, at, 16,
			    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_WAIT_BIT);
			vkCmdCopyQueryPoolResults(cb, pool, query, 1, copies.buffer, 64 + query * 8, 8,
			                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
			vkCmdCopyQueryPoolResults(cb, pool, query, 1, copies.buffer, 96 + query * 4, 4, 0);
		}
		SubmitAndWait(*ctx, cb);

		const VkQueryResultFlags avail = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT, wide = VK_QUERY_RESULT_64_BIT;
		all.push_back(Get(*ctx, pool, 0, 4, 16, wide | avail));
		all.push_back(Get(*ctx, pool, 0, 4, 8, avail));
		all.push_back(Get(*ctx, pool, 0, 4, 8, wide));
		all.push_back(Get(*ctx, pool, 0, 4, 12, 0));
		all.push_back(Get(*ctx, pool, 2, 1, 8, wide));
		all.push_back(Get(*ctx, pool, 0, 1, 4, VK_QUERY_RESULT_WAIT_BIT));
		all.push_back({VK_SUCCESS, Normalize(std::vector<uint8_t>(copies.data, copies.data + 64), 8, 16)});
		all.push_back({VK_SUCCESS, Normalize(std::vector<uint8_t>(copies.data + 64, copies.data + 96), 4, 8)});
		all.push_back({VK_SUCCESS, Normalize(std::vector<uint8_t>(copies.data + 96, copies.data + 128), 4, 4)});

		// A host reset makes a query unavailable again.
		vkResetQueryPool(d, pool, 0, 1);
		all.push_back(Get(*ctx, pool, 0, 3, 16, wide | avail));

		vkDestroyQueryPool(d, pool, nullptr);
		ctx->Destroy(copies);
		CHECK(ctx->validation_errors() == 0);
		return all;
	};
	std::vector<Results> ours = scenario(Driver::Tessera), reference = scenario(Driver::Lavapipe);
	REQUIRE(ours.size() == reference.size());
	for (size_t i = 0; i < ours.size(); ++i) {
		INFO("case " << i);
		CHECK(ours[i].result == reference[i].result);
		CHECK(ours[i].bytes == reference[i].bytes);
	}
	// And the rules themselves (§18.2), so that agreeing on a mistake fails too.
	CHECK(ours[0].result == VK_NOT_READY);
	CHECK(ours[4].result == VK_SUCCESS);
	const std::vector<uint8_t>& first = ours[0].bytes;  // 64-bit, availability, stride 16
	uint64_t words[8];
	std::memcpy(words, first.data(), 64);
	CHECK(words[0] == 1);                      // a timestamp
	CHECK(words[1] == 1);                      // available
	CHECK(words[2] == 0xaaaaaaaaaaaaaaaaull);  // unavailable: value not written
	CHECK(words[3] == 0);                      // ... but its availability is
	CHECK(words[5] == 1);
	CHECK(words[7] == 0);
}

TEST_CASE("an occlusion query with no draws counts zero samples (as lavapipe)", "[query][occlusion]") {
	auto scenario = [](Driver driver) {
		auto ctx = CreateSyncContext(driver);
		REQUIRE(ctx);
		VkDevice d = ctx->device();
		VkQueryPool pool = CreateQueryPool(d, VK_QUERY_TYPE_OCCLUSION, 2);
		CommandRecorder recorder(d);
		VkCommandBuffer cb = recorder.Begin();
		vkCmdResetQueryPool(cb, pool, 0, 2);
		vkCmdBeginQuery(cb, pool, 0, 0);
		vkCmdEndQuery(cb, pool, 0);
		SubmitAndWait(*ctx, cb);
		std::vector<Results> all;
		all.push_back(Get(*ctx, pool, 0, 1, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
		all.push_back(Get(*ctx, pool, 0, 2, 8, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
		vkDestroyQueryPool(d, pool, nullptr);
		CHECK(ctx->validation_errors() == 0);
		return all;
	};
	std::vector<Results> ours = scenario(Driver::Tessera), reference = scenario(Driver::Lavapipe);
	REQUIRE(ours.size() == reference.size());
	for (size_t i = 0; i < ours.size(); ++i) {
		INFO("case " << i);
		CHECK(ours[i].result == reference[i].result);
		CHECK(ours[i].bytes == reference[i].bytes);
	}
	CHECK(ours[0].result == VK_SUCCESS);
	CHECK(ours[0].bytes == std::vector<uint8_t>(8, 0));
	CHECK(ours[1].result == VK_NOT_READY);
}

// Tessera only: lavapipe's vkGetQueryPoolResults blocks until the submission
// that writes the query has run, even without VK_QUERY_RESULT_WAIT_BIT, so
// with the submission held back by a semaphore it would never return.
TEST_CASE("VK_QUERY_RESULT_WAIT_BIT waits for a timestamp behind a semaphore", "[query][wait]") {
	auto ctx = CreateSyncContext(Driver::Tessera);
	REQUIRE(ctx);
	VkDevice d = ctx->device();
	VkQueryPool pool = CreateQueryPool(d, VK_QUERY_TYPE_TIMESTAMP, 1);
	vkResetQueryPool(d, pool, 0, 1);
	VkSemaphore timeline = CreateTimeline(d, 0);
	CommandRecorder recorder(d);
	VkCommandBuffer cb = recorder.Begin();
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	vkEndCommandBuffer(cb);
	REQUIRE(Batch().Wait(timeline, 1).Run(cb).Submit(ctx->queue()) == VK_SUCCESS);

	uint64_t value[2] = {};
	CHECK(vkGetQueryPoolResults(d, pool, 0, 1, 16, value, 16,
	                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) == VK_NOT_READY);
	CHECK(value[1] == 0);
	std::thread signaler([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
		SignalTimeline(d, timeline, 1);
	});
	CHECK(vkGetQueryPoolResults(
	          d, pool, 0, 1, 16, value, 16,
	          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) == VK_SUCCESS);
	signaler.join();
	CHECK(value[0] != 0);
	CHECK(value[1] == 1);
	vkQueueWaitIdle(ctx->queue());
	vkDestroySemaphore(d, timeline, nullptr);
	vkDestroyQueryPool(d, pool, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

// VK_EXT_calibrated_timestamps: the device domain and CLOCK_MONOTONIC are
// offered; a timestamp a command writes lies between device-domain
// calibrations taken before and after its submission (all in nanoseconds,
// timestampPeriod being 1 on both drivers); and on Tessera, whose device
// clock is CLOCK_MONOTONIC, the two samples of one call differ by at most
// the reported deviation.
TEST_CASE("calibrated timestamps bracket the device timestamps, as on lavapipe", "[query][timestamp]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = CreateSyncContext(driver, {VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME});
		REQUIRE(ctx);
		VkDevice d = ctx->device();
		auto calibrate = ctx->Proc<PFN_vkGetCalibratedTimestampsEXT>("vkGetCalibratedTimestampsEXT");
		REQUIRE(calibrate);
		REQUIRE(OffersDeviceAndMonotonic(*ctx, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT"));
		const auto& infos = kCalibrationInfos;
		uint64_t before[2], after[2], deviation = 0;
		VkQueryPool pool = CreateQueryPool(d, VK_QUERY_TYPE_TIMESTAMP, 1);
		vkResetQueryPool(d, pool, 0, 1);
		CommandRecorder recorder(d);
		VkCommandBuffer cb = recorder.Begin();
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, pool, 0);
		REQUIRE(calibrate(d, 2, infos, before, &deviation) == VK_SUCCESS);
		CHECK(deviation > 0);
		if (driver == Driver::Tessera) {
			CHECK(before[0] <= before[1] + deviation);
			CHECK(before[1] <= before[0] + deviation);
		}
		SubmitAndWait(*ctx, cb);
		REQUIRE(calibrate(d, 2, infos, after, &deviation) == VK_SUCCESS);
		uint64_t written = 0;
		REQUIRE(vkGetQueryPoolResults(d, pool, 0, 1, sizeof written, &written, 8,
		                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
		CHECK(before[0] <= written);
		CHECK(written <= after[0]);
		CHECK(before[1] <= after[1]);
		vkDestroyQueryPool(d, pool, nullptr);
		CHECK(ctx->validation_errors() == 0);
	}
}

// VK_KHR_calibrated_timestamps, the promotion of the EXT extension: its
// commands are the EXT ones under the KHR names (lavapipe 22.3 lacks it; no
// validation layer: version 1.3.239 predates the extension).
TEST_CASE("VK_KHR_calibrated_timestamps: the KHR commands calibrate as the EXT ones do", "[query][timestamp]") {
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {"VK_KHR_calibrated_timestamps"};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto calibrate = ctx->Proc<PFN_vkGetCalibratedTimestampsEXT>("vkGetCalibratedTimestampsKHR");
	REQUIRE(calibrate);
	CHECK(OffersDeviceAndMonotonic(*ctx, "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR"));
	const auto& infos = kCalibrationInfos;
	uint64_t first[2], second[2], deviation = 0, second_deviation = 0;
	REQUIRE(calibrate(ctx->device(), 2, infos, first, &deviation) == VK_SUCCESS);
	REQUIRE(calibrate(ctx->device(), 2, infos, second, &second_deviation) == VK_SUCCESS);
	CHECK(deviation > 0);
	// The device clock is CLOCK_MONOTONIC: both domains agree and move forward.
	CHECK(first[0] <= first[1] + deviation);
	CHECK(first[1] <= first[0] + deviation);
	CHECK(first[0] <= second[0]);
	CHECK(first[1] <= second[1]);
}
