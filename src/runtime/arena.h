// A bump allocator of chunks, freed all at once. Command buffers record into
// one; whatever lives in it must be trivially destructible. Chunks come from
// a ChunkSource (the owner's allocation callbacks) or, without one, the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace tessera::runtime {

// Where an arena's chunks come from. allocate returns nullptr when out of memory.
struct ChunkSource {
	void* (*allocate)(void* user, size_t size, size_t alignment) = nullptr;
	void (*free)(void* user, void* memory) = nullptr;
	void* user = nullptr;
};

class Arena {
public:
	explicit Arena(size_t chunk_size = 16 * 1024, ChunkSource source = {}) : chunk_size_(chunk_size), source_(source) {}
	Arena(const Arena&) = delete;
	Arena& operator=(const Arena&) = delete;
	~Arena() { Release(); }

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
		while (chunks_.size() > 1) {
			FreeChunk(chunks_.back().data);
			chunks_.pop_back();
		}
		if (chunks_.empty()) {
			cursor_ = limit_ = 0;
		} else {
			cursor_ = reinterpret_cast<uintptr_t>(chunks_[0].data);
			limit_ = cursor_ + chunks_[0].size;
		}
	}
	// Drops everything and gives every chunk back.
	void Release() {
		for (Chunk& chunk : chunks_) FreeChunk(chunk.data);
		chunks_.clear();
		cursor_ = limit_ = 0;
	}
	// Bytes held in chunks (for tests and statistics).
	size_t Capacity() const {
		size_t total = 0;
		for (const Chunk& chunk : chunks_) total += chunk.size;
		return total;
	}

private:
	static constexpr size_t kChunkAlignment = 64;

	struct Chunk {
		std::byte* data;
		size_t size;
	};

	std::byte* AllocateChunk(size_t size) {
		if (source_.allocate) return static_cast<std::byte*>(source_.allocate(source_.user, size, kChunkAlignment));
		return static_cast<std::byte*>(::operator new(size, std::align_val_t(kChunkAlignment), std::nothrow));
	}
	void FreeChunk(std::byte* data) {
		if (source_.allocate)
			source_.free(source_.user, data);
		else
			::operator delete(data, std::align_val_t(kChunkAlignment));
	}

	bool Grow(size_t minimum) {
		size_t size = minimum > chunk_size_ ? minimum : chunk_size_;
		std::byte* data = AllocateChunk(size);
		if (!data) return false;
		try {
			chunks_.push_back({data, size});
		} catch (const std::bad_alloc&) {
			FreeChunk(data);
			return false;
		}
		cursor_ = reinterpret_cast<uintptr_t>(data);
		limit_ = cursor_ + size;
		if (chunk_size_ < 1024 * 1024) chunk_size_ *= 2;
		return true;
	}

	size_t chunk_size_;
	ChunkSource source_;
	std::vector<Chunk> chunks_;
	uintptr_t cursor_ = 0;
	uintptr_t limit_ = 0;
};

}  // namespace tessera::runtime
