#include "texture/resolve.h"

#include <cstring>

#include "texture/texel.h"

namespace tessera::texture {

void ResolveSamples(const FormatInfo& format, const ResolveRect& rect) {
	// Vulkan 1.3 §20.7: integer formats take one sample (sample 0 here).
	bool take_sample_0 = format.IsInteger() || rect.samples == 1;
	uint64_t texel_stride = uint64_t(rect.element_size) * rect.samples;
	float scale = 1.0f / float(rect.samples);
	for (uint32_t y = 0; y < rect.height; ++y) {
		const uint8_t* in = rect.src + y * rect.src_row_pitch;
		uint8_t* out = rect.dst + y * rect.dst_row_pitch;
		if (take_sample_0) {
			for (uint32_t x = 0; x < rect.width; ++x, in += texel_stride, out += rect.element_size)
				std::memcpy(out, in, rect.element_size);
			continue;
		}
		// Hot path (per texel): unpack each sample, average, pack.
		for (uint32_t x = 0; x < rect.width; ++x, in += texel_stride, out += rect.element_size) {
			float sum[4] = {0, 0, 0, 0};
			for (uint32_t s = 0; s < rect.samples; ++s) {
				TexelValue v = UnpackTexel(format, in + s * rect.element_size);
				for (int c = 0; c < 4; ++c) sum[c] += v.f[c];
			}
			TexelValue average;
			for (int c = 0; c < 4; ++c) average.f[c] = sum[c] * scale;
			PackTexel(format, average, out);
		}
	}
}

}  // namespace tessera::texture
