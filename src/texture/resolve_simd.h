// SIMD rows of the multisample resolve (texture/resolve.cpp), with run-time
// target dispatch.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::texture {

// `texels` texels of four binary16 components, `samples` samples each
// (adjacent), averaged into one texel each: the scalar path's bits.
void ResolveHalf4Row(const uint16_t* in, uint16_t* out, size_t texels, uint32_t samples);

}  // namespace tessera::texture
