#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"

using tessera::runtime::ThreadPool;

TEST_CASE("ParallelFor runs every index exactly once", "[runtime]") {
	for (unsigned threads : {1u, 2u, 4u}) {
		ThreadPool pool(threads);
		REQUIRE(pool.ThreadCount() == threads);
		for (uint32_t count : {0u, 1u, 7u, 1000u}) {
			std::vector<std::atomic<int>> hits(count);
			pool.ParallelFor(count, [&](uint32_t i) { hits[i].fetch_add(1); });
			for (uint32_t i = 0; i < count; ++i) REQUIRE(hits[i].load() == 1);
		}
	}
}

TEST_CASE("ParallelFor can be called back to back many times", "[runtime]") {
	ThreadPool pool(3);
	std::atomic<uint64_t> sum{0};
	for (int round = 0; round < 2000; ++round) pool.ParallelFor(5, [&](uint32_t i) { sum += i; });
	REQUIRE(sum.load() == 2000u * 10u);
}

TEST_CASE("Start runs a job on the workers while the caller goes on, and Wait finishes it", "[runtime]") {
	for (unsigned threads : {1u, 2u, 4u}) {
		ThreadPool pool(threads);
		constexpr uint32_t kCount = 300;
		std::vector<std::atomic<int>> hits(kCount);
		std::atomic<bool> release{false};
		std::function<void(uint32_t)> body = [&](uint32_t i) {
			// The first item holds a worker until the caller has gone on.
			if (i == 0 && threads > 1)
				while (!release.load()) std::this_thread::yield();
			hits[i].fetch_add(1);
		};
		pool.Start(kCount, body);
		// Without workers the job ran in Start; with them it cannot be
		// done yet (item 0 waits for this line).
		REQUIRE(pool.Started() == (threads > 1));
		release = true;
		if (threads > 1) {
			// The caller's own ParallelFor finishes the started job first.
			std::atomic<int> later{0};
			pool.ParallelFor(4, [&](uint32_t) { later.fetch_add(1); });
			REQUIRE(later == 4);
			REQUIRE_FALSE(pool.Started());
		}
		pool.Wait();
		pool.Wait();  // nothing started: returns at once
		for (uint32_t i = 0; i < kCount; ++i) REQUIRE(hits[i].load() == 1);
		// Back to back, with other work between.
		std::atomic<uint64_t> sum{0};
		std::function<void(uint32_t)> add = [&](uint32_t i) { sum += i; };
		for (int round = 0; round < 200; ++round) {
			pool.Start(10, add);
			if (round % 2) pool.Wait();
		}
		pool.Wait();
		REQUIRE(sum.load() == 200u * 45u);
	}
}

TEST_CASE("A started job keeps other threads' jobs waiting until it is finished", "[runtime]") {
	ThreadPool pool(2);
	std::atomic<int> done{0};
	std::function<void(uint32_t)> body = [&](uint32_t) {
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
		done.fetch_add(1);
	};
	pool.Start(20, body);
	std::atomic<int> early{0};  // items of the other job that ran before the started one was done
	std::thread other([&] { pool.ParallelFor(2, [&](uint32_t) { early.fetch_add(done.load() != 20); }); });
	std::this_thread::sleep_for(std::chrono::milliseconds(5));
	pool.Wait();
	other.join();
	REQUIRE(done.load() == 20);
	REQUIRE(early.load() == 0);
}

TEST_CASE("UsableCpuCount honours TESSERA_THREADS", "[runtime]") {
	setenv("TESSERA_THREADS", "3", 1);
	REQUIRE(tessera::runtime::UsableCpuCount() == 3);
	unsetenv("TESSERA_THREADS");
	REQUIRE(tessera::runtime::UsableCpuCount() >= 1);
}

TEST_CASE("ParallelRanges covers the range once, on granule boundaries", "[runtime]") {
	ThreadPool pool(3);
	for (uint64_t size : {0ull, 5ull, 64ull, 1000ull, 12345ull}) {
		for (uint64_t granule : {1ull, 3ull, 64ull}) {
			std::vector<std::atomic<int>> hits(size);
			std::atomic<int> misaligned{0};
			tessera::runtime::ParallelRanges(pool, size, granule, 0, [&](uint64_t begin, uint64_t end) {
				if (begin % granule) ++misaligned;
				for (uint64_t i = begin; i < end; ++i) hits[i]++;
			});
			REQUIRE(misaligned == 0);
			for (uint64_t i = 0; i < size; ++i) REQUIRE(hits[i] == 1);
		}
	}
}
