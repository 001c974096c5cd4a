// Multisample resolve (Vulkan 1.3 §20.7 "Resolving Multisample Images") on
// plain memory: the samples of one texel are adjacent (ImageLayout).
#pragma once

#include <cstdint>

#include "texture/format.h"

namespace tessera::texture {

struct ResolveRect {
	const uint8_t* src = nullptr;  // sample 0 of the first texel
	uint64_t src_row_pitch = 0;
	uint8_t* dst = nullptr;  // the first texel of the single-sample image
	uint64_t dst_row_pitch = 0;
	uint32_t width = 0, height = 0;
	uint32_t samples = 1;
	uint32_t element_size = 0;  // bytes of one sample
};

// Writes one value per texel: for float, normalized and scaled formats the
// average of the samples (sRGB formats average the decoded, linear values
// and encode the result, as lavapipe does); for integer formats sample 0.
void ResolveSamples(const FormatInfo& format, const ResolveRect& rect);

}  // namespace tessera::texture
