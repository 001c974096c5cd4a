// The bounded LRU map behind the in-process memory of translated stages.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "runtime/byte_lru.h"

using tessera::runtime::ByteLru;

TEST_CASE("ByteLru finds what it keeps and nothing else", "[byte_lru]") {
	ByteLru lru(1024);
	CHECK(lru.Find("a") == nullptr);
	lru.Insert("a", "alpha");
	lru.Insert("b", "beta");
	REQUIRE(lru.Find("a"));
	CHECK(*lru.Find("a") == "alpha");
	CHECK(*lru.Find("b") == "beta");
	CHECK(lru.Find("c") == nullptr);
	CHECK(lru.Bytes() == 1 + 5 + 1 + 4);
	lru.Insert("a", "another");  // replaces
	CHECK(*lru.Find("a") == "another");
	CHECK(lru.Count() == 2);
	CHECK(lru.Bytes() == 1 + 7 + 1 + 4);
}

TEST_CASE("ByteLru drops the least recently used entries past its bound", "[byte_lru]") {
	ByteLru lru(30);  // three entries of 10 bytes
	const std::string nine(9, 'x');
	lru.Insert("1", nine);
	lru.Insert("2", nine);
	lru.Insert("3", nine);
	CHECK(lru.Find("1"));  // 1 is now the most recent: 2 goes first
	lru.Insert("4", nine);
	CHECK(lru.Find("2") == nullptr);
	CHECK(lru.Find("1"));
	CHECK(lru.Find("3"));
	CHECK(lru.Find("4"));
	CHECK(lru.Bytes() == 30);
	lru.Insert("5", std::string(40, 'y'));  // larger than the bound: not kept, nothing dropped
	CHECK(lru.Find("5") == nullptr);
	CHECK(lru.Count() == 3);
	lru.Insert("6", std::string(29, 'z'));  // takes the whole bound
	CHECK(lru.Count() == 1);
	CHECK(lru.Find("6"));
}

TEST_CASE("ByteLru values stay valid after their entry is dropped", "[byte_lru]") {
	ByteLru lru(16);
	lru.Insert("k", "value");
	auto held = lru.Find("k");
	lru.Insert("l", std::string(15, 'w'));  // drops k
	CHECK(lru.Find("k") == nullptr);
	CHECK(*held == "value");
}

TEST_CASE("ByteLru may be used from several threads", "[byte_lru][threads]") {
	ByteLru lru(4096);
	std::atomic<int> wrong{0}, found{0};
	std::vector<std::thread> threads;
	for (int t = 0; t < 4; ++t)
		threads.emplace_back([&, t] {  // (Catch's assertions are for the main thread)
			for (int i = 0; i < 2000; ++i) {
				const std::string key = std::to_string((i * 7 + t) % 300);
				if (auto v = lru.Find(key)) {
					++found;
					if (*v != key + key) ++wrong;
				} else {
					lru.Insert(key, key + key);
				}
			}
		});
	for (auto& thread : threads) thread.join();
	CHECK(wrong == 0);
	CHECK(found > 0);
	CHECK(lru.Bytes() <= 4096);
}
