// The fast path of Sample(): 2D, array, cube and 3D lookups of four-component
// 8-bit, RGBA16F and RGBA32F images, of one- and two-component 8-, 16- and
// 32-bit ones and of depth (shadow lookups), computed a vector of lanes at a time
// (sample_fast.cpp, Highway with run-time target dispatch). Internal to
// texture/sample.cpp and the unit tests.
#pragma once

#include "texture/sample.h"

namespace tessera::texture {

// Samples every lane and returns true when the lookup is one the fast path
// takes: a 2D, 2D array, cube, cube array (not a non-seamless cube) or 3D view,
// normalized coordinates, one sample, four 8-bit components read through
// decode tables (RGBA8/BGRA8 UNORM, SRGB, SNORM), R16G16B16A16_SFLOAT,
// R32G32B32A32_SFLOAT, R8 or R8G8 (UNORM, SNORM, SRGB), R16(G16)_SFLOAT,
// R32(G32)_SFLOAT, or a depth view (D16, X8_D24, D32, and those planes of
// D16S8, D24S8, D32S8) with or without a compare sampler, Dref or not; any
// swizzle (applied to the filtered result, as the generic path applies it:
// OpenGL's RGB textures reach it through Zink as RGBA8 views whose alpha is
// ONE), any address mode (CLAMP_TO_BORDER on 2D views and arrays only),
// offsets (not with cubes), levels in rows of texels or in tiles of up to
// 256x256 (tile_shift 0 to 8: 4x4 textures, partially resident images;
// 3D: each slice so), at least 4 bytes of texels.
// Its results are the generic path's, bit for bit (same operations, same
// order; see sample_fast.cpp), but for which NaN a filtered NaN is. Returns
// false, writing nothing, otherwise.
bool SampleFast(const SampledImage& image, const SampleLanes& lanes, TexelValue* out);
// The same with the results as component arrays (Sample's second form).
bool SampleFast(const SampledImage& image, const SampleLanes& lanes, float* const components[4]);

// The reader of a view (SampledImage::read) that FetchFast reads as it
// reads: ReadBytes, ReadWords, ReadHalves (sample.cpp), or another.
enum class FetchReader : uint8_t { kOther, kBytes, kWords, kHalves };
// Fetch() a vector of lanes at a time: single-sampled views of any
// dimension, arrays, cubes (as arrays), levels in rows or tiles, offsets, whose
// reader is `reader` (not kOther) with texels of 4 to 16 bytes. The same
// bits as the generic Fetch, written to out (texels) or, when components is
// not null, to components[c][lane]. Returns false, writing nothing,
// otherwise.
bool FetchFast(const SampledImage& image, FetchReader reader, const FetchLanes& lanes, TexelValue* out,
               uint32_t* const* components);

// Sample() without the fast path: the reference it matches.
void SampleGeneric(const SampledImage& image, const SampleLanes& lanes, TexelValue* out);
// Fetch() without the fast path: one lane at a time through image.read.
void FetchGeneric(const SampledImage& image, const FetchLanes& lanes, TexelValue* out);

}  // namespace tessera::texture
