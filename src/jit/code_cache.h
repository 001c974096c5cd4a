// Where compiled programs are kept, so that a program is compiled once:
//
// - MemoryCache: this process's compiled programs by key, least recently
//   used first out, bounded in bytes of machine code. A second pipeline
//   with the same shader gets the first one's code at once.
// - DiskCache: the machine code (relocatable objects, linked again at load)
//   in files that outlive the process, so that a CI job's second run starts
//   with compiled code. `TESSERA_CACHE_DIR` names the folder (`0` turns the
//   cache off); else `$XDG_CACHE_HOME/tessera`, else `~/.cache/tessera`.
//   `TESSERA_CACHE_SIZE_MB` bounds it (256 MiB by default).
//
// A key is the SHA-256 of everything that decides the code: the program
// (shader/program_serialize.h), the JIT's build ID, LLVM's version and
// the CPU and features code is generated for (KeyOf in jit.cpp). A binary
// without a build ID keeps no disk cache: nothing would tell its files from
// another build's. The JIT names a program's file by the program alone
// (ProgramFileKey), the whole key inside, so that the driver can look for
// it without loading the JIT (shader/tiering.cpp).
//
// Several processes may share a folder: a file is written under a
// temporary name and then renamed (readers see all of it or none), and each
// carries its key and the SHA-256 of its contents, so a truncated,
// corrupted or colliding file is a miss and never reaches the linker.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/sha256.h"
#include "shader/compiled.h"

namespace tessera::jit {

using CodeKey = Sha256Digest;

struct CodeKeyHash {
	size_t operator()(const CodeKey& key) const {
		size_t value = 0;
		for (size_t i = 0; i < sizeof(value); ++i) value = value << 8 | key[i];
		return value;
	}
};

// Not thread-safe: the JIT uses it under its lock.
class MemoryCache {
public:
	explicit MemoryCache(uint64_t max_bytes) : max_bytes_(max_bytes) {}

	// The program compiled under `key`, now the most recently used; nullptr
	// if there is none.
	std::shared_ptr<const shader::CompiledProgram> Find(const CodeKey& key);
	// Keeps `compiled` (whose machine code takes `bytes`), dropping the least
	// recently used programs past the bound. Programs still in use keep
	// their code; the cache only lets go of it.
	void Insert(const CodeKey& key, std::shared_ptr<const shader::CompiledProgram> compiled, uint64_t bytes);
	void Clear();

	uint64_t bytes() const { return bytes_; }
	size_t size() const { return entries_.size(); }

private:
	struct Entry {
		CodeKey key;
		std::shared_ptr<const shader::CompiledProgram> compiled;
		uint64_t bytes;
	};
	uint64_t max_bytes_;
	uint64_t bytes_ = 0;
	std::list<Entry> entries_;  // most recently used first
	std::unordered_map<CodeKey, std::list<Entry>::iterator, CodeKeyHash> index_;
};

// Thread-safe across processes; not across threads (the JIT's lock).
class DiskCache {
public:
	static constexpr uint64_t kDefaultMaxBytes = 256ull << 20;

	// `folder` empty: the cache is off. The folder is made on first store.
	DiskCache(std::string folder, uint64_t max_bytes) : folder_(std::move(folder)), max_bytes_(max_bytes) {}
	// The folder and bound the environment asks for (see above).
	static DiskCache FromEnvironment();

	bool enabled() const { return !folder_.empty(); }
	const std::string& folder() const { return folder_; }

	// The bytes stored under `key` in the file named by `file` (by default
	// the key itself), if a whole, uncorrupted file has them. A hit counts
	// as a use for eviction.
	std::optional<std::vector<uint8_t>> Load(const CodeKey& key) const { return Load(key, key); }
	std::optional<std::vector<uint8_t>> Load(const CodeKey& key, const CodeKey& file) const;
	// Stores `bytes` under `key` in the file named by `file`; false (logged)
	// if the file could not be written. When the folder holds more than the
	// bound, the least recently used files go until it holds at most 3/4 of
	// it.
	bool Store(const CodeKey& key, std::span<const uint8_t> bytes) { return Store(key, key, bytes); }
	bool Store(const CodeKey& key, const CodeKey& file, std::span<const uint8_t> bytes);

	// The file named by `file`.
	std::string PathOf(const CodeKey& file) const;

	// Whether a file named by `file` exists (whatever it holds).
	bool Holds(const CodeKey& file) const;

private:
	void Evict();

	std::string folder_;
	uint64_t max_bytes_;
	// Bytes this process believes the folder holds; std::nullopt until the
	// first store reads the folder. Other processes' stores are seen at the
	// next eviction's scan.
	std::optional<uint64_t> folder_bytes_;
};

// The name of a program's file in the disk cache: the SHA-256 of its bytes
// (shader/program_serialize.h) alone, so that the driver can tell whether
// the cache may have its code without the JIT (the file's header holds the
// whole key: an entry of another build or CPU is a miss, and is replaced).
CodeKey ProgramFileKey(const shader::Program& program);

}  // namespace tessera::jit
