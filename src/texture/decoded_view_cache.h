// A decoded copy of a compressed or Y'CbCr view (decoded_view.h, ycbcr.h)
// kept from one dispatch or draw to the next, so that a view is decoded once
// instead of at every use (a 1080p NV12 view costs tens of milliseconds).
//
// When is the copy stale? Whenever any byte it was decoded from differs. The
// cache keeps a snapshot of those source bytes and compares it with the
// image's memory at each use (one memcmp of the compressed/planar bytes,
// a small fraction of the decode). Write tracking (a generation counter per
// image or memory bumped by copies, clears, blits, resolves, render passes,
// storage writes) cannot be made correct here: all of Tessera's memory is
// HOST_VISIBLE, so the host may write an image's bytes through a mapping at
// any time, an exported memfd lets another process or device write them, and
// buffer device addresses let any shader store anywhere. Comparing contents
// catches every writer, aliasing and re-binding included, with no hook in the
// writers. What is compared is exactly what the decode reads - the view's
// levels of every plane of the image - plus the view and conversion state.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "texture/decoded_view.h"
#include "texture/ycbcr.h"

namespace tessera::texture {

class DecodedViewCache {
public:
	// The decoded copy of view: converted with *ycbcr when ycbcr is not null,
	// else block-decoded (NeedsDecodedView). Reuses the copy made by an
	// earlier call while view, conversion and the source bytes are unchanged;
	// decodes again otherwise. nullptr when decoding fails. Throws
	// std::bad_alloc when memory runs out (the cache is then empty).
	// Thread-safe; the returned copy stays valid (and unchanged) while the
	// caller holds it, even if a later call replaces it.
	std::shared_ptr<const DecodedView> Get(const ImageViewState& view, const YcbcrConversion* ycbcr);

	// How many decodes Get has made (for tests).
	uint64_t DecodeCount() const;

private:
	bool Matches(const ImageViewState& view, const YcbcrConversion* ycbcr) const;

	mutable std::mutex mutex_;
	std::shared_ptr<const DecodedView> decoded_;
	ImageViewState view_;
	bool has_ycbcr_ = false;
	YcbcrConversion ycbcr_;
	std::vector<uint8_t> source_;  // the bytes decoded_ was decoded from
	uint64_t decodes_ = 0;
};

}  // namespace tessera::texture
