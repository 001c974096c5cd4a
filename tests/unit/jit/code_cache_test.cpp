// The code caches (src/jit/code_cache.h) on their own: the disk cache's
// files round-trip, anything but a whole file of the right key is a miss,
// and both caches stay within their bounds, dropping the least recently
// used first. tiers_corpus_test.cpp runs programs through them.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "jit/code_cache.h"

using namespace tessera;

namespace {

std::filesystem::path FreshFolder(const char* name) {
	auto folder = std::filesystem::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
	std::filesystem::remove_all(folder);
	return folder;
}

jit::CodeKey Key(uint8_t seed) {
	jit::CodeKey key{};
	for (size_t i = 0; i < key.size(); ++i) key[i] = uint8_t(seed * 31 + i);
	return key;
}

std::vector<uint8_t> Bytes(size_t size, uint8_t seed) {
	std::vector<uint8_t> bytes(size);
	for (size_t i = 0; i < size; ++i) bytes[i] = uint8_t(seed + i * 7);
	return bytes;
}

size_t FilesIn(const std::filesystem::path& folder) {
	size_t count = 0;
	for (const auto& entry : std::filesystem::directory_iterator(folder)) count += entry.path().extension() == ".tjit";
	return count;
}

}  // namespace

TEST_CASE("the disk code cache returns what was stored and nothing else", "[jit][cache]") {
	auto folder = FreshFolder("tessera-code-cache");
	jit::DiskCache cache(folder.string(), 1 << 20);
	const std::vector<uint8_t> bytes = Bytes(5000, 3);
	CHECK_FALSE(cache.Load(Key(1)));
	REQUIRE(cache.Store(Key(1), bytes));  // makes the folder
	CHECK(cache.Load(Key(1)) == bytes);
	CHECK_FALSE(cache.Load(Key(2)));

	SECTION("a corrupted byte") {
		std::fstream file(cache.PathOf(Key(1)), std::ios::in | std::ios::out | std::ios::binary);
		file.seekp(200);
		file.put(char(0x5a ^ bytes[200 - 80]));
		file.close();
		CHECK_FALSE(cache.Load(Key(1)));
	}
	SECTION("a truncated file") {
		std::filesystem::resize_file(cache.PathOf(Key(1)), 3000);
		CHECK_FALSE(cache.Load(Key(1)));
		std::filesystem::resize_file(cache.PathOf(Key(1)), 10);
		CHECK_FALSE(cache.Load(Key(1)));
	}
	SECTION("another key's file under this key's name") {
		REQUIRE(cache.Store(Key(2), bytes));
		std::filesystem::rename(cache.PathOf(Key(2)), cache.PathOf(Key(1)));
		CHECK_FALSE(cache.Load(Key(1)));
	}
	SECTION("turned off") {
		jit::DiskCache off("", 1 << 20);
		CHECK_FALSE(off.enabled());
		CHECK_FALSE(off.Store(Key(1), bytes));
		CHECK_FALSE(off.Load(Key(1)));
	}
	SECTION("a folder that cannot be made") {
		jit::DiskCache blocked(cache.PathOf(Key(1)) + "/under-a-file", 1 << 20);
		CHECK_FALSE(blocked.Store(Key(3), bytes));
	}
	std::filesystem::remove_all(folder);
}

TEST_CASE("the disk code cache drops the files unused longest past its bound", "[jit][cache]") {
	auto folder = FreshFolder("tessera-code-cache-bound");
	// Eight files of 10,080 bytes (header and all) fit in 85 kB; the ninth
	// makes it evict down to 3/4 of that: three files go.
	jit::DiskCache cache(folder.string(), 85'000);
	for (uint8_t k = 0; k < 8; ++k) {
		REQUIRE(cache.Store(Key(k), Bytes(10'000, k)));
		// Distinct use times, oldest first, without sleeping.
		timespec times[2] = {{1'000'000 + k, 0}, {1'000'000 + k, 0}};
		REQUIRE(::utimensat(AT_FDCWD, cache.PathOf(Key(k)).c_str(), times, 0) == 0);
	}
	CHECK(FilesIn(folder) == 8);
	REQUIRE(cache.Load(Key(0)));  // a use: key 0 is now the newest
	REQUIRE(cache.Store(Key(8), Bytes(10'000, 8)));
	CHECK(FilesIn(folder) == 6);
	CHECK(cache.Load(Key(0)));
	CHECK_FALSE(cache.Load(Key(1)));
	CHECK_FALSE(cache.Load(Key(2)));
	CHECK_FALSE(cache.Load(Key(3)));
	CHECK(cache.Load(Key(4)));
	CHECK(cache.Load(Key(8)));
	// Another process's cache in the same folder sees the same files.
	CHECK(jit::DiskCache(folder.string(), 85'000).Load(Key(8)) == Bytes(10'000, 8));
	std::filesystem::remove_all(folder);
}

TEST_CASE("the memory code cache keeps the most recently used programs within its bound", "[jit][cache]") {
	jit::MemoryCache cache(300);
	auto program = [] { return std::make_shared<const shader::CompiledProgram>(); };
	auto a = program(), b = program(), c = program();
	cache.Insert(Key(1), a, 100);
	cache.Insert(Key(2), b, 100);
	CHECK(cache.Find(Key(1)) == a);  // now the most recently used
	cache.Insert(Key(3), c, 150);
	CHECK(cache.bytes() == 250);
	CHECK(cache.Find(Key(2)) == nullptr);
	CHECK(cache.Find(Key(1)) == a);
	CHECK(cache.Find(Key(3)) == c);
	// One program past the bound alone is kept (it is in use).
	auto big = program();
	cache.Insert(Key(4), big, 1000);
	CHECK(cache.size() == 1);
	CHECK(cache.Find(Key(4)) == big);
	cache.Clear();
	CHECK(cache.bytes() == 0);
	CHECK(cache.Find(Key(4)) == nullptr);
}
