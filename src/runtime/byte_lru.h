// A map from keys to immutable byte strings that keeps the entries used most
// recently within a bound on their total size: the in-process memory of work
// that is costly to redo and cheap to keep (translated shader stages).
// Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tessera::runtime {

class ByteLru {
public:
	explicit ByteLru(size_t capacity_bytes) : capacity_(capacity_bytes) {}

	// The value under key (now the most recent), or nullptr.
	std::shared_ptr<const std::string> Find(const std::string& key);
	// Keeps value under key (replacing what was there), then drops the
	// least recently used entries until key and value sizes fit the bound;
	// an entry larger than the bound is not kept. May throw bad_alloc.
	void Insert(const std::string& key, std::string value);

	size_t Bytes() const;
	size_t Count() const;

private:
	struct Entry {
		std::string key;
		std::shared_ptr<const std::string> value;
		size_t Bytes() const { return key.size() + value->size(); }
	};
	void Erase(std::list<Entry>::iterator it);

	const size_t capacity_;
	mutable std::mutex mutex_;
	std::list<Entry> order_;  // most recent first
	std::unordered_map<std::string, std::list<Entry>::iterator> index_;
	size_t bytes_ = 0;
};

}  // namespace tessera::runtime
