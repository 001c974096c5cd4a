// Storage image stores (OpImageWrite) and the texel a storage access
// touches: what shader/image_ops.cpp runs for a batch of lanes.
#pragma once

#include <cstdint>

#include "texture/sample.h"

namespace tessera::texture {

// The texel a storage image access touches at level 0 of the view, or null
// outside it (robustImageAccess: out-of-bounds writes and atomics are
// dropped). Coordinates in SPIR-V order, the layer (cube face) last.
uint8_t* StorageTexel(const SampledImage& image, const int32_t* coord, int32_t sample);

// Operands of an OpImageWrite, one array element a lane: coordinates as
// FetchLanes has them, Sample for multisampled images (null: 0), and the
// texel's four 32-bit words (float, int or uint bits, as the format's
// numeric type reads them).
struct StoreLanes {
	uint32_t count = 0;
	const int32_t* coord[4] = {};
	const int32_t* sample = nullptr;
	const uint32_t* texel[4] = {};
};

// Writes each lane's texel, converted to the view's format as PackTexel
// converts it, lane after lane (a later lane's store to the same texel
// wins); lanes outside the view write nothing. The view's format must be a
// color format CanConvertTexels converts.
void Store(const SampledImage& image, const StoreLanes& lanes);
// Store() without the fast path (StoreFast): one lane at a time through
// StorageTexel and PackTexel, the reference it matches.
void StoreGeneric(const SampledImage& image, const StoreLanes& lanes);

// How StoreFast packs a format: each component's value slot, 32-bit word of
// the texel, first bit in that word, width and numeric format. Made by
// PlanStore; ok is false for formats StoreFast leaves to StoreGeneric.
struct StorePlan {
	bool ok = false;
	uint32_t size = 0;  // texel bytes: 1, 2, 4, 8 or 16
	uint32_t count = 0;
	struct Component {
		uint8_t slot, word, shift, bits;
		NumericFormat numeric;
	} components[4] = {};
};
StorePlan PlanStore(const FormatInfo& format);

// Store() a vector of lanes at a time for views of one sample or more, in
// rows of texels, whose format has a plan, with the bytes StoreGeneric
// writes. Returns false, writing nothing, otherwise.
bool StoreFast(const SampledImage& image, const StorePlan& plan, const StoreLanes& lanes);

}  // namespace tessera::texture
