// Texture lookups for batches of shader lanes: OpImageSample*, OpImage*Gather,
// OpImageFetch/OpImageRead and the image queries, exactly as Vulkan 1.3 §16
// "Image Operations" defines them (see texture/README.md).
//
// Use: PrepareSampledImage() once per (sampler, view) pair - it resolves
// everything that is the same for all lanes (level extents and addresses,
// address modes, border texel, swizzle, filters) - then call Sample(),
// Gather() or Fetch() once per instruction with the lanes' operands as
// arrays (one value per lane). Every lane is computed; lanes the caller does
// not want read harmless texels (all reads are bounds-safe whatever the
// coordinates, NaN included).
#pragma once

#include <atomic>
#include <cstdint>

#include "texture/format.h"
#include "texture/sampler_state.h"
#include "texture/texel.h"

namespace tessera::texture {

// Which pages of a partially resident image's memory are bound (Vulkan
// "Sparse Resources"; vkQueueBindSparse sets them, vk::Image): one bit per
// 4 KiB page from `base`. A texel (at most 16 bytes, aligned) lies in one
// page, so it is resident when that page is.
struct Residency {
	static constexpr uint32_t kPageShift = 12;
	const uint8_t* base = nullptr;
	const std::atomic<uint64_t>* pages = nullptr;
	uint64_t page_count = 0;

	bool Resident(const uint8_t* texel) const {
		const uint64_t page = uint64_t(texel - base) >> kPageShift;
		return page < page_count && (pages[page >> 6].load(std::memory_order_relaxed) >> (page & 63) & 1u);
	}
};

struct PreparedLevel {
	const uint8_t* base = nullptr;  // texel (0, 0, 0) of the view's first layer
	int32_t extent[3] = {1, 1, 1};
	// row_pitch: bytes between rows of texels, or, for a tiled level, between
	// rows of tiles.
	uint64_t row_pitch = 0, depth_pitch = 0, array_pitch = 0;
	uint32_t element_size = 0;
	// 0: rows of texels. s > 0: square tiles of 2^s x 2^s texels, each tile
	// contiguous (its rows one after another), tiles in rows (see
	// TexelOffset). Only single-sampled levels are tiled.
	uint32_t tile_shift = 0;
};

// Byte offset of texel (i, j) of one layer/slice from PreparedLevel::base,
// for both layouts (with tile_shift 0 it is j * row_pitch + i * size).
inline uint64_t TexelOffset(const PreparedLevel& level, uint32_t i, uint32_t j) {
	const uint32_t s = level.tile_shift, m = (1u << s) - 1u;
	const uint64_t in_row = (uint64_t(i >> s) << (2 * s)) | ((j & m) << s) | (i & m);
	return uint64_t(j >> s) * level.row_pitch + in_row * level.element_size;
}

// What a lookup needs, resolved from a sampler and an image view.
struct SampledImage {
	// Reads one texel (the format's values: float, or int/uint for integer
	// formats), with §16 "Component Substitution" (missing -> 0, 0, 0, 1).
	TexelValue (*read)(const SampledImage& image, const uint8_t* texel) = nullptr;
	const FormatInfo* format = nullptr;  // of the plane read (the aspect's format)
	uint32_t dimensions = 2;             // 1, 2 or 3 coordinates address a texel in a layer
	bool cube = false;
	bool arrayed = false;
	bool integer = false;  // UINT/SINT: no filtering, no blending
	// The view's aspect is depth: texels read as (D, 0, 0, 1) (ReadDepth,
	// §16 "Component Substitution"), compare sampler or not. The fast path
	// needs it: a depth format's plane alone does not say the aspect.
	bool depth = false;
	uint32_t samples = 1;
	uint32_t level_count = 1;
	// The view's minLod relative to its base level (ImageViewState::min_lod):
	// §16 "Image Level(s) Selection" takes d' = max(clamp(lambda, 0, q),
	// min_level); fetches below min_level_integer = floor(min_level), and
	// gathers when it is above 0, read zero.
	float min_level = 0.0f;
	uint32_t min_level_integer = 0;
	uint32_t layer_count = 1;  // of the view (for cube views: cubes, not faces)
	PreparedLevel levels[ImageLayout::kMaxLevels];
	// Direct readers for common formats (same values as UnpackTexel): each
	// component's byte offset, value slot and, for 8-bit normalized ones,
	// its decode table; the components the format lacks come from defaults.
	uint8_t component_count = 0;
	uint8_t component_offset[4] = {};
	uint8_t component_slot[4] = {};
	const float* component_table[4] = {};
	TexelValue defaults{};

	SamplerState sampler;
	VkSamplerAddressMode address[3] = {};  // cubes: clamp to edge (seams are handled apart)
	bool seamless_cube = false;            // cube with a LINEAR filter: read across faces
	bool anisotropic = false;              // §16 "Texel Anisotropic Filtering" for derivative LODs
	bool compare = false;                  // Dref lookups compare (sampler.compare_enable)
	bool clamp_reference = false;          // UNORM depth: Dref clamped to [0, 1]
	TexelValue border{};                   // §16 "Border Replacement", before the swizzle
	// §16 "Component Swizzle": for each output component, the input one
	// (0..3), 4 for ZERO or 5 for ONE.
	uint8_t swizzle[4] = {0, 1, 2, 3};
	bool identity_swizzle = true;
	TexelValue one{};                      // 1.0f or 1 for ONE
	TexelValue out_of_bounds{};            // what Fetch returns outside the view, swizzled
	const Residency* residency = nullptr;  // ImageViewState::residency
};

// Returns false (and leaves *out unusable) for views this code cannot read:
// compressed and multi-planar formats, no layout or memory.
bool PrepareSampledImage(const SamplerState& sampler, const ImageViewState& view, SampledImage* out);
// For Fetch and the queries: no sampler (address modes unused).
bool PrepareImage(const ImageViewState& view, SampledImage* out);
// A texel buffer view (`count` texels of `format` from `texels`) as a
// one-level 1D image, for Fetch and Store: the same texels, and outside the
// view the values of robustBufferAccess2 (zero, with alpha 1 where the
// format has none). False for formats CanConvertTexels does not convert.
bool PrepareTexelBuffer(const uint8_t* texels, uint32_t count, const FormatInfo& format, SampledImage* out);
// What a load outside an image or texel buffer of `format` returns under
// robustImageAccess2 and robustBufferAccess2: zero, with (0, 0, 1) for the
// G, B, A the format (or the depth or stencil aspect) lacks; integer
// formats' 1 as an integer.
TexelValue OutOfBoundsTexel(const FormatInfo& format, VkImageAspectFlagBits aspect, bool integer);

// Operands of an OpImageSample* / OpImage*Gather, one array element a lane.
// coord follows SPIR-V: 1D (s), 1D array (s, layer), 2D (s, t), 2D array
// (s, t, layer), 3D (s, t, r), cube (x, y, z), cube array (x, y, z, cube).
// Proj variants divide by q before the call. With unnormalized coordinates
// coord holds (u, v).
struct SampleLanes {
	uint32_t count = 0;
	const float* coord[4] = {};
	// LOD: an explicit Lod, else derivatives (Grad, or the quad's for
	// ImplicitLod; same order as coord, without the layer). With neither,
	// derivatives are zero (lambda_base = -inf, i.e. the lod_min).
	const float* lod = nullptr;
	const float* ddx[3] = {};
	const float* ddy[3] = {};
	const float* bias = nullptr;     // Bias operand
	const float* min_lod = nullptr;  // MinLod operand
	const float* dref = nullptr;     // Dref operand (with a compare-enabled sampler)
	const int32_t* offset[3] = {};   // Offset / ConstOffset (nullptr: 0)
	// ImplicitLod in a fragment stage, given without ddx and ddy: each
	// coordinate's derivatives are its differences within the aligned 2x2
	// lane quads (lane 4q + 2y + x is pixel (x, y) of quad q; Vulkan 1.3
	// §16.6.1 fine derivatives), as QuadDerivatives computes them. count
	// must then be a multiple of 4.
	bool quad_derivatives = false;
};

// Filtered texels, after the swizzle. Dref lookups return the filtered
// comparison result in component 0 (R).
void Sample(const SampledImage& image, const SampleLanes& lanes, TexelValue* out);
// The same, component c of lane j at components[c][j] (a shader's
// registers hold results so).
void Sample(const SampledImage& image, const SampleLanes& lanes, float* const components[4]);

// d/dx and d/dy of `count` lanes of v (count a multiple of 4) within their
// aligned quads: dx = v(1, y) - v(0, y), dy = v(x, 1) - v(x, 0).
void QuadDerivatives(const float* v, uint32_t count, float* dx, float* dy);

// OpImage*Gather: component (0..3) of the four texels LINEAR would read at
// the view's base level, as (i0j1, i1j1, i1j0, i0j0). const_offsets: the
// ConstOffsets operand ((x, y) per returned texel, relative to i0j0), or
// nullptr. With dref, each texel is compared (OpImageDrefGather).
void Gather(const SampledImage& image, const SampleLanes& lanes, uint32_t component, const int32_t (*const_offsets)[2],
            TexelValue* out);

// OpImageFetch / OpImageRead: integer coordinates in coord (same layout as
// SampleLanes, the layer an integer too; cube views read as 2D arrays),
// Lod relative to the view's base level, Sample for multisampled images.
// Texels outside the view (coordinate, layer, level or sample) read as zero,
// as robustImageAccess2 asks.
struct FetchLanes {
	uint32_t count = 0;
	const int32_t* coord[4] = {};
	const int32_t* lod = nullptr;
	const int32_t* sample = nullptr;
	const int32_t* offset[3] = {};
};
void Fetch(const SampledImage& image, const FetchLanes& lanes, TexelValue* out);
// The same, component c of lane j at components[c][j].
void Fetch(const SampledImage& image, const FetchLanes& lanes, uint32_t* const components[4]);

// OpImageQueryLod: (d_l - level_base, lambda') per lane.
void QueryLod(const SampledImage& image, const SampleLanes& lanes, float (*out)[2]);

// OpImageQuerySize(Lod): the extent of level lod (relative to the base) in
// the components the view type has, then the layer count for arrays (cubes
// for cube arrays). Returns the number of components written.
uint32_t QuerySize(const SampledImage& image, uint32_t lod, uint32_t out[4]);
// OpImageQueryLevels / OpImageQuerySamples.
inline uint32_t QueryLevels(const SampledImage& image) { return image.level_count; }
inline uint32_t QuerySamples(const SampledImage& image) { return image.samples; }

}  // namespace tessera::texture
