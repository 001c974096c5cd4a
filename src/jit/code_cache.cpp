#include "jit/code_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "runtime/build_id.h"
#include "runtime/log.h"
#include "shader/program_serialize.h"

namespace tessera::jit {

std::shared_ptr<const shader::CompiledProgram> MemoryCache::Find(const CodeKey& key) {
	auto found = index_.find(key);
	if (found == index_.end()) return nullptr;
	entries_.splice(entries_.begin(), entries_, found->second);
	return found->second->compiled;
}

void MemoryCache::Insert(const CodeKey& key, std::shared_ptr<const shader::CompiledProgram> compiled, uint64_t bytes) {
	if (auto found = index_.find(key); found != index_.end()) {
		bytes_ -= found->second->bytes;
		entries_.erase(found->second);
		index_.erase(found);
	}
	entries_.push_front({key, std::move(compiled), bytes});
	index_[key] = entries_.begin();
	bytes_ += bytes;
	// The newest entry stays even when it alone is past the bound.
	while (bytes_ > max_bytes_ && entries_.size() > 1) {
		bytes_ -= entries_.back().bytes;
		index_.erase(entries_.back().key);
		entries_.pop_back();
	}
}

void MemoryCache::Clear() {
	entries_.clear();
	index_.clear();
	bytes_ = 0;
}

namespace {

// A file: this header, then the stored bytes.
struct FileHeader {
	char magic[4] = {'T', 'S', 'J', 'C'};
	uint32_t version = 1;
	CodeKey key{};
	uint64_t size = 0;      // bytes after the header
	Sha256Digest digest{};  // of those bytes
};
static_assert(sizeof(FileHeader) == 80);
constexpr char kSuffix[] = ".tjit";
constexpr char kTemporaryPrefix[] = ".tmp-";

std::string Hex(std::span<const uint8_t> bytes) {
	static const char kDigits[] = "0123456789abcdef";
	std::string text;
	for (uint8_t b : bytes) text += kDigits[b >> 4], text += kDigits[b & 15];
	return text;
}

bool WriteAll(int fd, const void* data, size_t size) {
	const auto* bytes = static_cast<const uint8_t*>(data);
	while (size) {
		ssize_t written = ::write(fd, bytes, size);
		if (written < 0 && errno == EINTR) continue;
		if (written <= 0) return false;
		bytes += written, size -= size_t(written);
	}
	return true;
}

// Logged once a process: a folder that cannot be written is not news at
// every compile.
void WarnOnce(const std::string& what) {
	static std::atomic<bool> warned{false};
	if (!warned.exchange(true)) TESSERA_LOG(Warn, "jit: the code cache is not written: %s", what.c_str());
}

}  // namespace

DiskCache DiskCache::FromEnvironment() {
	uint64_t max_bytes = kDefaultMaxBytes;
	if (const char* mb = std::getenv("TESSERA_CACHE_SIZE_MB"); mb && *mb)
		max_bytes = std::strtoull(mb, nullptr, 10) << 20;
	std::string folder;
	if (const char* dir = std::getenv("TESSERA_CACHE_DIR"); dir && *dir) {
		if (std::strcmp(dir, "0") != 0) folder = dir;
	} else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') {
		// The XDG Base Directory spec: a relative path is invalid, ignored.
		folder = std::string(xdg) + "/tessera";
	} else if (const char* home = std::getenv("HOME"); home && *home) {
		folder = std::string(home) + "/.cache/tessera";
	}
	if (max_bytes == 0) folder.clear();
	if (!folder.empty() && runtime::OwnBuildId().empty()) {
		TESSERA_LOG(Info, "jit: no code cache on disk: the driver has no build ID to key it with");
		folder.clear();
	}
	return DiskCache(std::move(folder), max_bytes);
}

std::string DiskCache::PathOf(const CodeKey& file) const { return folder_ + "/" + Hex(file) + kSuffix; }

bool DiskCache::Holds(const CodeKey& file) const {
	struct stat info;
	return enabled() && ::stat(PathOf(file).c_str(), &info) == 0;
}

CodeKey ProgramFileKey(const shader::Program& program) {
	Sha256 hash;
	const char tag[] = "tessera program file 1";
	hash.Update(tag, sizeof(tag) - 1);
	hash.Update(shader::SerializeProgram(program));
	return hash.Finish();
}

std::optional<std::vector<uint8_t>> DiskCache::Load(const CodeKey& key, const CodeKey& file) const {
	if (!enabled()) return std::nullopt;
	const std::string path = PathOf(file);
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0) return std::nullopt;
	std::optional<std::vector<uint8_t>> result;
	struct stat info;
	FileHeader header;
	if (::fstat(fd, &info) == 0 && uint64_t(info.st_size) >= sizeof(header) &&
	    ::pread(fd, &header, sizeof(header), 0) == ssize_t(sizeof(header)) &&
	    std::memcmp(header.magic, FileHeader().magic, 4) == 0 && header.version == FileHeader().version &&
	    header.key == key && header.size == uint64_t(info.st_size) - sizeof(header)) {
		std::vector<uint8_t> bytes(header.size);
		if (::pread(fd, bytes.data(), bytes.size(), sizeof(header)) == ssize_t(bytes.size()) &&
		    Sha256Of(bytes) == header.digest)
			result = std::move(bytes);
	}
	::close(fd);
	if (!result) {
		TESSERA_LOG(Warn, "jit: %s is not a whole code cache file; it is compiled again", path.c_str());
		return std::nullopt;
	}
	// A use: eviction takes the files unused longest.
	::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
	return result;
}

bool DiskCache::Store(const CodeKey& key, const CodeKey& file, std::span<const uint8_t> bytes) {
	if (!enabled()) return false;
	std::error_code error;
	std::filesystem::create_directories(folder_, error);
	if (error) {
		WarnOnce(folder_ + ": " + error.message());
		return false;
	}
	FileHeader header;
	header.key = key;
	header.size = bytes.size();
	header.digest = Sha256Of(bytes);
	static std::atomic<uint64_t> counter{0};
	const std::string temporary = folder_ + "/" + kTemporaryPrefix + std::to_string(::getpid()) + "-" +
	                              std::to_string(counter.fetch_add(1)) + "-" + Hex(std::span(key).first(8));
	int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		WarnOnce(temporary + ": " + std::strerror(errno));
		return false;
	}
	bool written = WriteAll(fd, &header, sizeof(header)) && WriteAll(fd, bytes.data(), bytes.size());
	written = ::close(fd) == 0 && written;
	const std::string path = PathOf(file);
	if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
		WarnOnce(path + ": " + std::strerror(errno));
		::unlink(temporary.c_str());
		return false;
	}
	if (!folder_bytes_) {
		folder_bytes_ = 0;
		Evict();  // counts the folder, evicting only if it is past the bound
	} else {
		*folder_bytes_ += sizeof(header) + bytes.size();
		if (*folder_bytes_ > max_bytes_) Evict();
	}
	return true;
}

void DiskCache::Evict() {
	struct File {
		std::filesystem::path path;
		std::filesystem::file_time_type used;
		uint64_t size;
	};
	std::vector<File> files;
	uint64_t total = 0;
	std::error_code error;
	for (auto it = std::filesystem::directory_iterator(folder_, error);
	     !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
		const std::string name = it->path().filename().string();
		std::error_code stat_error;
		// A temporary file a day old was left by a process that died
		// writing it.
		if (name.starts_with(kTemporaryPrefix)) {
			auto written = it->last_write_time(stat_error);
			if (!stat_error && written < std::filesystem::file_time_type::clock::now() - std::chrono::hours(24))
				std::filesystem::remove(it->path(), stat_error);
			continue;
		}
		if (!name.ends_with(kSuffix)) continue;
		uint64_t size = it->file_size(stat_error);
		auto used = it->last_write_time(stat_error);
		if (stat_error) continue;  // another process evicted it
		files.push_back({it->path(), used, size});
		total += size;
	}
	if (total > max_bytes_) {
		std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
		for (const File& file : files) {
			if (total <= max_bytes_ / 4 * 3) break;
			std::filesystem::remove(file.path, error);
			total -= file.size;
		}
	}
	folder_bytes_ = total;
}

}  // namespace tessera::jit
