// Filling memory with a repeated texel: the inner loop of clears.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::texture {

// Writes pattern (pattern_size bytes, 1..32) repeatedly over bytes bytes of
// dst, starting at the pattern's first byte. bytes need not be a multiple of
// pattern_size. Runs at memset speed.
void FillPattern(uint8_t* dst, size_t bytes, const uint8_t* pattern, size_t pattern_size);

}  // namespace tessera::texture
