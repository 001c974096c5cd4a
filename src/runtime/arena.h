// A bump allocator of chunks, freed all at once. Command buffers record into
// one; whatever lives in it must be trivially destructible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace tessera::runtime {

class Arena {
public:
	explicit Arena(size_t chunk_size = 16 * 1024) : chunk_size_(chunk_size) {}
	Arena(const Arena&) = delete;
	Arena& operator=(const Arena&) = delete;

	// Returns nullptr when the system is out of memory.
	void* Allocate(size_t size, size_t align = alignof(std::max_align_t)) {
		uintptr_t p = (cursor_ + align - 1) & ~(uintptr_t(align) - 1);
		if (p + size > limit_ || cursor_ == 0) {
			if (!Grow(size + align)) return nullptr;
			p = (cursor_ + align - 1) & ~(uintptr_t(align) - 1);
		}
		cursor_ = p + size;
		return reinterpret_cast<void*>(p);
	}

	template <typename T, typename... Args>
	T* New(Args&&... args) {
		static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
		void* p = Allocate(sizeof(T), alignof(T));
		return p ? new (p) T{std::forward<Args>(args)...} : nullptr;
	}

	// Copies count elements into the arena (nullptr for count == 0 or no memory).
	template <typename T>
	T* Copy(const T* source, size_t count) {
		static_assert(std::is_trivially_copyable_v<T>);
		if (count == 0 || !source) return nullptr;
		void* p = Allocate(sizeof(T) * count, alignof(T));
		if (p) std::memcpy(p, source, sizeof(T) * count);
		return static_cast<T*>(p);
	}

	// Drops everything; keeps the first chunk for reuse.
	void Reset() {
		if (chunks_.size() > 1) chunks_.resize(1);
		if (chunks_.empty()) {
			cursor_ = limit_ = 0;
		} else {
			cursor_ = reinterpret_cast<uintptr_t>(chunks_[0].data.get());
			limit_ = cursor_ + chunks_[0].size;
		}
	}
	void Release() {
		chunks_.clear();
		cursor_ = limit_ = 0;
	}

private:
	struct Chunk {
		std::unique_ptr<std::byte[]> data;
		size_t size;
	};

	bool Grow(size_t minimum) {
		size_t size = minimum > chunk_size_ ? minimum : chunk_size_;
		std::unique_ptr<std::byte[]> data(new (std::nothrow) std::byte[size]);
		if (!data) return false;
		try {
			chunks_.push_back({std::move(data), size});
		} catch (const std::bad_alloc&) {
			return false;
		}
		cursor_ = reinterpret_cast<uintptr_t>(chunks_.back().data.get());
		limit_ = cursor_ + size;
		if (chunk_size_ < 1024 * 1024) chunk_size_ *= 2;
		return true;
	}

	size_t chunk_size_;
	std::vector<Chunk> chunks_;
	uintptr_t cursor_ = 0;
	uintptr_t limit_ = 0;
};

}  // namespace tessera::runtime
