#include "texture/fill.h"

#include <cstring>

namespace tessera::texture {

void FillPattern(uint8_t* dst, size_t bytes, const uint8_t* pattern, size_t pattern_size) {
	if (bytes == 0) return;
	bool uniform = true;
	for (size_t i = 1; i < pattern_size; ++i) uniform &= pattern[i] == pattern[0];
	if (uniform) {
		std::memset(dst, pattern[0], bytes);
		return;
	}
	// Build a block holding whole patterns (a multiple of both the pattern
	// and 64 bytes for power-of-two sizes), then stream it out; compilers turn
	// the fixed-size memcpy into vector stores.
	constexpr size_t kBlock = 192;  // divisible by 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 and 64
	alignas(64) uint8_t block[kBlock];
	size_t period = kBlock % pattern_size == 0 ? kBlock : kBlock / pattern_size * pattern_size;
	for (size_t i = 0; i < period; i += pattern_size) std::memcpy(block + i, pattern, pattern_size);
	size_t done = 0;
	if (period == kBlock) {
		for (; done + kBlock <= bytes; done += kBlock) std::memcpy(dst + done, block, kBlock);
	} else {
		for (; done + period <= bytes; done += period) std::memcpy(dst + done, block, period);
	}
	std::memcpy(dst + done, block, bytes - done);
}

}  // namespace tessera::texture
