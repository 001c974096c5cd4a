#include <catch2/catch.hpp>

#include <atomic>
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
