#include "texture/decoded_view_cache.h"

#include <cstring>

namespace tessera::texture {

namespace {

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
	       a.base_layer == b.base_layer && a.layer_count == b.layer_count && SameMapping(a.components, b.components) &&
	       a.source_format == b.source_format;
}

bool SameConversion(const YcbcrConversion& a, const YcbcrConversion& b) {
	return a.format == b.format && a.model == b.model && a.range == b.range &&
	       SameMapping(a.components, b.components) && a.x_chroma_offset == b.x_chroma_offset &&
	       a.y_chroma_offset == b.y_chroma_offset && a.chroma_filter == b.chroma_filter;
}

}  // namespace

bool DecodedViewCache::Matches(const ImageViewState& view, const YcbcrConversion* ycbcr) const {
	if (!decoded_ || !SameView(view, view_) || (ycbcr != nullptr) != has_ycbcr_) return false;
	if (ycbcr && !SameConversion(*ycbcr, ycbcr_)) return false;
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
	if (Matches(view, ycbcr)) return decoded_;
	decoded_.reset();
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
	if (!ok) return nullptr;
	view_ = view;
	has_ycbcr_ = ycbcr != nullptr;
	if (ycbcr) ycbcr_ = *ycbcr;
	decoded_ = std::move(copy);
	return decoded_;
}

uint64_t DecodedViewCache::DecodeCount() const {
	std::lock_guard lock(mutex_);
	return decodes_;
}

}  // namespace tessera::texture
