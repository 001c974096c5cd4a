// A decoded copy of a compressed or Y'CbCr view (decoded_view.h, ycbcr.h)
// kept from one dispatch or draw to the next, so that a view is decoded once
// instead of at every use (a 1080p NV12 view costs tens of milliseconds).
//
// When is the copy stale? Whenever any byte it was decoded from differs. The
// cache keeps a snapshot of those source bytes and compares it with the
// image's memory. Knowing which writer touched which image cannot be made
// correct here: all of Tessera's memory is HOST_VISIBLE, so the host may
// write an image's bytes through a mapping, an exported memfd lets another
// process write them, and buffer device addresses let any shader store
// anywhere. Comparing contents catches every writer, aliasing and
// re-binding included. What is compared is exactly what the decode reads -
// the view's levels of every plane of the image - plus the view and
// conversion state.
//
// When to compare: only after something may have written. In Vulkan the
// bytes an image's memory holds change only (a) by the device, in a command
// that writes memory, or (b) by the host or another device or process
// before work that reads them starts: before vkQueueSubmit, or before a
// semaphore or event wait that the reading work waits on (§7 "Synchronization
// and Cache Control"; anything else is a data race, whose result is
// undefined). Tessera's queues call NoteMemoryWrites after every such command
// and at the start of every batch, after its semaphore waits. A copy checked
// since the last note is used without comparing again: the draws of a render
// pass compare once, not once per draw.
//
// How much is kept: every cache's copy and snapshot count against one
// process-wide budget (SetDecodedCacheBudget, 512 MiB unless changed). A
// decode that takes the total past it drops the least recently used other
// copies; their views decode again at their next use.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "texture/decoded_view.h"
#include "texture/ycbcr.h"

namespace tessera::texture {

// Marks that image memory may have changed since the last call (see above).
// Thread-safe; cheap (one atomic increment).
void NoteMemoryWrites();

// The bytes all caches may keep together (decoded copies and snapshots);
// returns the previous budget. For tests and embedders.
size_t SetDecodedCacheBudget(size_t bytes);
// The bytes all caches keep now.
size_t DecodedCacheBytes();

class DecodedViewCache {
public:
	DecodedViewCache();
	~DecodedViewCache();
	DecodedViewCache(const DecodedViewCache&) = delete;
	DecodedViewCache& operator=(const DecodedViewCache&) = delete;

	// The decoded copy of view: converted with *ycbcr when ycbcr is not null,
	// else block-decoded (NeedsDecodedView). Reuses the copy made by an
	// earlier call while view, conversion and the source bytes are unchanged;
	// decodes again otherwise. nullptr when decoding fails. Throws
	// std::bad_alloc when memory runs out (the cache is then empty).
	// Thread-safe; the returned copy stays valid (and unchanged) while the
	// caller holds it, even if a later call replaces it.
	std::shared_ptr<const DecodedView> Get(const ImageViewState& view, const YcbcrConversion* ycbcr);

	// How many decodes Get has made, and how many times it compared the
	// source bytes with its snapshot (for tests).
	uint64_t DecodeCount() const;
	uint64_t CompareCount() const;

private:
	friend struct DecodedCacheRegistry;
	bool Matches(const ImageViewState& view, const YcbcrConversion* ycbcr, uint64_t writes);
	void DropCopy();  // with mutex_ held

	mutable std::mutex mutex_;
	std::shared_ptr<const DecodedView> decoded_;
	ImageViewState view_;
	bool has_ycbcr_ = false;
	YcbcrConversion ycbcr_;
	std::vector<uint8_t> source_;  // the bytes decoded_ was decoded from
	uint64_t checked_at_ = 0;      // the NoteMemoryWrites count when decoded_ was last known current
	uint64_t decodes_ = 0, compares_ = 0;
	size_t bytes_ = 0;                   // of decoded_ and source_, counted in the budget
	std::atomic<uint64_t> last_use_{0};  // for the least-recently-used choice
};

}  // namespace tessera::texture
