#include "texture/decoded_view_cache.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

namespace tessera::texture {

namespace {

std::atomic<uint64_t> memory_writes{1};

// The byte range of each plane that a decode of view reads: its levels (all
// layers of them; ImageLayout keeps a plane's levels one after another).
// Compressed views read plane 0; Y'CbCr views read every plane.
template <typename F>
void ForEachSourceRange(const ImageViewState& view, F f) {
	const ImageLayout& layout = *view.layout;
	const uint32_t last = view.base_level + view.level_count - 1;
	for (uint32_t plane = 0; plane < layout.PlaneCount(); ++plane) {
		const uint64_t begin = layout.Level(plane, view.base_level).offset;
		const uint64_t end = layout.Level(plane, last).offset + layout.Level(plane, last).size;
		f(begin, end - begin);
	}
}

bool SameMapping(const VkComponentMapping& a, const VkComponentMapping& b) {
	return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

bool SameView(const ImageViewState& a, const ImageViewState& b) {
	return a.layout == b.layout && a.memory == b.memory && a.format == b.format && a.aspect == b.aspect &&
	       a.view_type == b.view_type && a.base_level == b.base_level && a.level_count == b.level_count &&
	       a.base_layer == b.base_layer && a.layer_count == b.layer_count && a.slice_offset == b.slice_offset &&
	       a.slice_count == b.slice_count && SameMapping(a.components, b.components) &&
	       a.source_format == b.source_format;
}

bool SameConversion(const YcbcrConversion& a, const YcbcrConversion& b) {
	return a.format == b.format && a.model == b.model && a.range == b.range &&
	       SameMapping(a.components, b.components) && a.x_chroma_offset == b.x_chroma_offset &&
	       a.y_chroma_offset == b.y_chroma_offset && a.chroma_filter == b.chroma_filter;
}

}  // namespace

// Every live cache, the bytes they keep and the budget, under one mutex.
// Lock order: a cache's own mutex, then this one, then (try_lock only) other
// caches' mutexes, so two caches that evict each other never deadlock.
struct DecodedCacheRegistry {
	std::mutex mutex;
	std::vector<DecodedViewCache*> caches;
	size_t bytes = 0;
	size_t budget = size_t(512) << 20;
	std::atomic<uint64_t> clock{0};

	static DecodedCacheRegistry& Get() {
		// Never destroyed: a view the application destroys during exit
		// still finds it.
		static DecodedCacheRegistry* registry = new DecodedCacheRegistry;
		return *registry;
	}

	// Counts `self`'s new size (its mutex held) and drops other copies,
	// least recently used first, until the total fits or none is left.
	void Resize(DecodedViewCache* self, size_t new_bytes) {
		std::lock_guard lock(mutex);
		bytes = bytes - self->bytes_ + new_bytes;
		self->bytes_ = new_bytes;
		if (bytes <= budget) return;
		// Each cache's last use read once: other threads update it while
		// this sorts, and a comparison whose answers change is no strict
		// weak ordering (std::sort then reads past the end; ASan saw it).
		std::vector<std::pair<uint64_t, DecodedViewCache*>> victims;
		for (DecodedViewCache* c : caches)
			if (c != self && c->bytes_ > 0) victims.emplace_back(c->last_use_.load(std::memory_order_relaxed), c);
		std::sort(victims.begin(), victims.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
		for (auto [last_use, c] : victims) {
			if (bytes <= budget) break;
			std::unique_lock victim(c->mutex_, std::try_to_lock);
			if (!victim.owns_lock()) continue;  // in use now: not the least recent
			bytes -= c->bytes_;
			c->bytes_ = 0;
			c->DropCopy();
		}
	}
};

size_t SetDecodedCacheBudget(size_t budget) {
	DecodedCacheRegistry& r = DecodedCacheRegistry::Get();
	std::lock_guard lock(r.mutex);
	return std::exchange(r.budget, budget);
}

size_t DecodedCacheBytes() {
	DecodedCacheRegistry& r = DecodedCacheRegistry::Get();
	std::lock_guard lock(r.mutex);
	return r.bytes;
}

DecodedViewCache::DecodedViewCache() {
	DecodedCacheRegistry& r = DecodedCacheRegistry::Get();
	std::lock_guard lock(r.mutex);
	r.caches.push_back(this);
}

DecodedViewCache::~DecodedViewCache() {
	DecodedCacheRegistry& r = DecodedCacheRegistry::Get();
	std::lock_guard lock(r.mutex);
	r.bytes -= bytes_;
	r.caches.erase(std::find(r.caches.begin(), r.caches.end(), this));
}

void DecodedViewCache::DropCopy() {
	decoded_.reset();
	source_.clear();
	source_.shrink_to_fit();
}

void NoteMemoryWrites() { memory_writes.fetch_add(1, std::memory_order_acq_rel); }

bool DecodedViewCache::Matches(const ImageViewState& view, const YcbcrConversion* ycbcr, uint64_t writes) {
	if (!decoded_ || !SameView(view, view_) || (ycbcr != nullptr) != has_ycbcr_) return false;
	if (ycbcr && !SameConversion(*ycbcr, ycbcr_)) return false;
	if (checked_at_ == writes) return true;
	++compares_;
	const uint8_t* snapshot = source_.data();
	bool same = true;
	ForEachSourceRange(view, [&](uint64_t offset, uint64_t size) {
		if (same) same = std::memcmp(view.memory + offset, snapshot, size) == 0;
		snapshot += size;
	});
	return same;
}

std::shared_ptr<const DecodedView> DecodedViewCache::Get(const ImageViewState& view, const YcbcrConversion* ycbcr) {
	if (!view.layout || !view.memory || view.level_count == 0 ||
	    view.base_level + view.level_count > view.layout->Description().mip_levels)
		return nullptr;
	std::lock_guard lock(mutex_);
	last_use_.store(DecodedCacheRegistry::Get().clock.fetch_add(1, std::memory_order_relaxed) + 1,
	                std::memory_order_relaxed);
	// Read before comparing: a write noted while the comparison runs makes
	// the next use compare again.
	const uint64_t writes = memory_writes.load(std::memory_order_acquire);
	if (Matches(view, ycbcr, writes)) {
		checked_at_ = writes;
		return decoded_;
	}
	DropCopy();
	try {
		// Snapshot first: bytes written while the decode runs (a race the
		// application did not synchronize) then read as changed at the next use.
		uint64_t total = 0;
		ForEachSourceRange(view, [&](uint64_t, uint64_t size) { total += size; });
		source_.resize(total);
		uint8_t* snapshot = source_.data();
		ForEachSourceRange(view, [&](uint64_t offset, uint64_t size) {
			std::memcpy(snapshot, view.memory + offset, size);
			snapshot += size;
		});
		auto copy = std::make_shared<DecodedView>();
		const bool ok = ycbcr ? DecodeYcbcrView(view, *ycbcr, copy.get()) : DecodeView(view, copy.get());
		++decodes_;
		if (!ok) {
			DropCopy();
			DecodedCacheRegistry::Get().Resize(this, 0);
			return nullptr;
		}
		view_ = view;
		checked_at_ = writes;
		has_ycbcr_ = ycbcr != nullptr;
		if (ycbcr) ycbcr_ = *ycbcr;
		DecodedCacheRegistry::Get().Resize(this, copy->memory.capacity() + source_.capacity());
		decoded_ = std::move(copy);
		return decoded_;
	} catch (...) {  // std::bad_alloc: empty, and counted so
		DropCopy();
		DecodedCacheRegistry::Get().Resize(this, 0);
		throw;
	}
}

uint64_t DecodedViewCache::DecodeCount() const {
	std::lock_guard lock(mutex_);
	return decodes_;
}

uint64_t DecodedViewCache::CompareCount() const {
	std::lock_guard lock(mutex_);
	return compares_;
}

}  // namespace tessera::texture
