// The fast path of Sample() (see sample_fast.h): a vector of lanes at a time.
//
// The file is compiled once per SIMD target by Highway (foreach_target.h)
// and the best one for the running CPU is chosen at run time
// (HWY_DYNAMIC_DISPATCH), as in shader/alu.cpp; no -march flags.
//
// Exactness: every step does the generic path's float operations (sample.cpp
// ResolveLane / SelectLevels / FilterLevel / FilterMipmapped and
// sampling_math.cpp) in the same order, each an IEEE operation that SIMD
// rounds as scalar code does, so the results are the same bits. The build
// compiles this file with -ffp-contract=off: a fused multiply-add (AVX2 and
// later targets have FMA) would round products differently. Three steps
// are done differently, with the same results: LinearTexelCoordinate's
// double arithmetic in float on coordinates below 2^20 (where both are
// exact, see LinearCoordinates); UNORM8 b / 255 as a product with one fused
// correction, checked against the division for all 256 bytes (Unorm8); and
// log2 of the scale factor from a polynomial only where the C library's
// value could not change the level selection or the filter (ResolveLog2).
// Vulkan 1.3 §16 "Texel Filtering", "Level-of-Detail Operation" and "Image
// Level(s) Selection" are the rules; tests/unit/texture/sampling_fast_*_test.cpp
// compare the two paths bit for bit.
#include "texture/sample_fast.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "texture/sample_fast.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "texture/sampling_math.h"

#ifndef TESSERA_TEXTURE_SAMPLE_FAST_SHARED
#define TESSERA_TEXTURE_SAMPLE_FAST_SHARED
namespace tessera::texture::fast {

constexpr uint32_t kMaxLevels = ImageLayout::kMaxLevels;
// The most lanes a vector of any target holds (floats).
constexpr size_t kMaxVectorLanes = 64;  // 2048-bit vectors

// The levels' parameters as arrays indexed by level, so that a vector of
// lanes can gather each lane's level. Texels are addressed by 32-bit byte
// offsets from origin (the lowest level base), which PrepareLevels checks.
struct FastLevels {
	bool ok = false;  // the fast path reads these levels
	const uint8_t* origin = nullptr;
	bool pow2[3] = {};                       // every level's size in that dimension is a power of two
	bool tiled = false;                      // some level has tile_shift != 0
	int32_t element_shift = 2;               // log2 of the texel size: 1 to 16 bytes
	alignas(64) int32_t offset[kMaxLevels];  // level base - origin
	alignas(64) int32_t width[kMaxLevels];
	alignas(64) int32_t height[kMaxLevels];
	alignas(64) int32_t width_mask[kMaxLevels];  // size - 1 (REPEAT of a power of two)
	alignas(64) int32_t height_mask[kMaxLevels];
	alignas(64) int32_t row_pitch[kMaxLevels];
	alignas(64) int32_t tile_shift[kMaxLevels];
	alignas(64) int32_t array_pitch[kMaxLevels];  // bytes from one layer to the next (arrays)
	alignas(64) float fwidth[kMaxLevels];
	alignas(64) float fheight[kMaxLevels];
	// 3D views: each level's depth (1 for other views), and the bytes from
	// one slice to the next (0 where the depth is 1).
	alignas(64) int32_t depth[kMaxLevels];
	alignas(64) int32_t depth_mask[kMaxLevels];
	alignas(64) int32_t depth_pitch[kMaxLevels];
	alignas(64) float fdepth[kMaxLevels];
};

// One- and two-component formats and depth: how a component is stored.
enum class Channel : uint8_t {
	kTable,    // a byte through its decode table (ReadBytes)
	kHalf,     // 16 bits, HalfToFloat (ReadHalves)
	kFloat,    // 32 bits, the float's own bits (ReadWords, D32_SFLOAT)
	kUnorm16,  // D16_UNORM: UnormToFloat(v, 16)
	kUnorm24,  // X8_D24_UNORM_PACK32 (and D24S8's depth plane): the low 24 bits
};
struct FastChannels {
	bool on = false;
	Channel decode = Channel::kFloat;
	uint32_t count = 0;          // components in the texel: 1 or 2
	int32_t slot[2] = {};        // the output component each one is
	int32_t shift[2] = {};       // its first bit in the texel (kFloat: 0 or 32, the word)
	const float* table[2] = {};  // kTable
	float defaults[4] = {};      // the components the format lacks
};

// What the lanes of one Sample() call share, resolved once per call.
struct FastImage {
	const float* table[4] = {};  // decode table per output component
	int32_t byte_shift[4] = {};  // its byte in the texel word (little-endian), in bits
	// R8G8B8A8_UNORM / B8G8R8A8_UNORM (swap_rb): decoded by division (the
	// tables hold the same quotients).
	bool unorm = false, swap_rb = false;
	// R16G16B16A16_SFLOAT: 8-byte texels, each half converted as HalfToFloat.
	bool half = false;
	// R32G32B32A32_SFLOAT: 16-byte texels, each component its own bits (as
	// ReadWords reads them).
	bool float32 = false;
	// R8, R8G8 (UNORM, SNORM, SRGB), R16(G16)_SFLOAT, R32(G32)_SFLOAT and the
	// depth formats (ReadDepth: D, 0, 0, 1).
	FastChannels channels;
	// Dref lookups of a depth view (§16 "Depth Compare Operation"): D
	// replaced by (reference op D) ? 1 : 0 per texel, before filtering, the
	// reference clamped to [0, 1] for UNORM depth (as SampleGeneric does).
	bool compare = false;
	bool clamp_reference = false;
	VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
	// Set per SIMD target: b / 255 as a product with one fused correction
	// step gives the quotient's bits for every byte (checked; see Decode).
	bool fused_division = false;
	// Set per call (SampleLanesFast): LodFree, so no vector computes the LOD.
	bool lod_free = false;
	// Each dimension's address mode (CLAMP_TO_BORDER: see border).
	VkSamplerAddressMode address[3] = {};
	uint32_t q = 0;       // level_count - 1
	float min_level = 0;  // SampledImage::min_level
	// 2D arrays: each lane reads layer SelectArrayLayer(coord[2]) of
	// layer_count, array_pitch bytes a layer on from the first. Cube maps:
	// the layer is the face (plus 6 times the cube of a cube array).
	bool arrayed = false;
	bool cube = false;
	// 3D views: three coordinates (s, t, r), eight texels a LINEAR lookup
	// (FilterVolume).
	bool volume = false;
	// Offset / ConstOffset operands (not with cubes): each lane's (i, j, k)
	// move by its offsets before wrapping (TexelOffsets).
	bool offsets = false;
	// CLAMP_TO_BORDER in a dimension (2D views and arrays): texels outside
	// the level read SampledImage::border, compared for Dref lookups
	// (ReadSite).
	bool border = false;
	float border_value[4] = {};
	uint32_t layer_count = 1;  // layers, or cubes of a cube array
	const FastLevels* levels = nullptr;
	bool channels_on() const { return channels.on; }
	bool pow2(int d) const { return levels->pow2[d]; }  // the extent of dimension d at every level
};

// §16 "Cube Map Edge Handling" as a table, built from CubeNeighbourTexel:
// the texel one step past edge e of face f (e: 0 at i = -1, 1 at i = size,
// 2 at j = -1, 3 at j = size), whose coordinate along that edge is c, is
// texel (ai c + bi (size - 1), aj c + bj (size - 1)) of face `face`, entry
// 4 f + e. (Its formula is linear in c, the same for every size.)
struct CubeEdgeTable {
	alignas(64) int32_t face[24], ai[24], bi[24], aj[24], bj[24];
};
inline const CubeEdgeTable& CubeEdges() {
	static const CubeEdgeTable table = [] {
		CubeEdgeTable t{};
		constexpr int32_t kSize = 8;
		for (uint32_t f = 0; f < 6; ++f)
			for (int e = 0; e < 4; ++e) {
				int32_t out_i[2], out_j[2];
				uint32_t face = 0;
				for (int32_t c = 0; c < 2; ++c) {
					const int32_t past = e & 1 ? kSize : -1;
					CubeNeighbourTexel(f, e < 2 ? past : c, e < 2 ? c : past, kSize, &face, &out_i[c], &out_j[c]);
				}
				const int k = int(f) * 4 + e;
				t.face[k] = int32_t(face);
				t.bi[k] = out_i[0] / (kSize - 1), t.ai[k] = out_i[1] - out_i[0];
				t.bj[k] = out_j[0] / (kSize - 1), t.aj[k] = out_j[1] - out_j[0];
			}
		return t;
	}();
	return table;
}

// The lanes' operands, null where absent (read as 0).
struct FastLanes {
	const float* coord[2] = {};
	const float* layer = nullptr;  // arrays: the layer coordinate (cube arrays: the cube)
	// Cubes: the direction is (coord[0], coord[1], z). 3D views: z is r.
	const float* z = nullptr;
	const float* lod = nullptr;
	const float* ddx[2] = {};
	const float* ddy[2] = {};
	const float* ddz[2] = {};  // d/dx and d/dy of z
	const float* bias = nullptr;
	const float* min_lod = nullptr;
	const float* dref = nullptr;    // compare lookups
	const int32_t* offset[3] = {};  // FastImage::offsets (nullptr: 0)
	// ImplicitLod: no ddx/ddy arrays; the derivatives of coord and z
	// are their differences within aligned quads of lanes (QuadDx, QuadDy).
	bool quad = false;
};

// The lookups most shaders make, with the state that decides their path
// known at compile time: a 2D view (no layers, border or offsets) or a
// cube (kCube: seamless, not arrayed; CommonCubeLanes), implicit LOD from
// the quads, no anisotropy, and texels of one kind. The
// sampling code is templated on the image and lanes types, and reads the
// same names; here they are constants (static members hide FastImage's
// and FastLanes' fields, whose values they equal: CommonLookup checks),
// so a vector runs without the tests of the state that the general
// instantiation repeats for every vector (about 40% of its instructions
// on AVX2). The operations, and so the results, are the general path's.
// kTexels: which texels (CommonKind); kAddress: REPEAT of power-of-two
// extents or CLAMP_TO_EDGE in both dimensions (cubes: CLAMP_TO_EDGE, what
// a seamless cube's texels read as).
enum class CommonKind { kNone, kUnorm8, kHalf, kDepthCompare };
template <CommonKind kTexels, VkSamplerAddressMode kAddress, bool kCube = false>
struct CommonImage : FastImage {
	explicit CommonImage(const FastImage& f) : FastImage(f) {}
	static constexpr bool volume = false, cube = kCube, arrayed = false, border = false, offsets = false,
	                      lod_free = false, float32 = false;
	static constexpr bool unorm = kTexels == CommonKind::kUnorm8, half = kTexels == CommonKind::kHalf,
	                      compare = kTexels == CommonKind::kDepthCompare;
	static constexpr bool fused_division = true;  // (read for UNORM texels only)
	static constexpr bool channels_on() { return compare; }
	static constexpr VkSamplerAddressMode address[3] = {kAddress, kAddress, kAddress};
	static constexpr bool pow2(int) { return kAddress == VK_SAMPLER_ADDRESS_MODE_REPEAT; }
};
struct CommonLanes : FastLanes {
	explicit CommonLanes(const FastLanes& in) : FastLanes(in) {}
	static constexpr bool quad = true;
	static constexpr const float *layer = nullptr, *z = nullptr, *lod = nullptr, *bias = nullptr, *min_lod = nullptr;
};
// A cube's lanes: the direction's z as well.
struct CommonCubeLanes : FastLanes {
	explicit CommonCubeLanes(const FastLanes& in) : FastLanes(in) {}
	static constexpr bool quad = true;
	static constexpr const float *layer = nullptr, *lod = nullptr, *bias = nullptr, *min_lod = nullptr;
};

// Whether a decode table holds b / 255.0f for every byte b (checked once
// per table: tables are static).
inline bool DividesBy255(const float* table) {
	static std::atomic<const float*> known{nullptr};
	if (table == known.load(std::memory_order_relaxed)) return true;
	for (uint32_t b = 0; b < 256; ++b)
		if (table[b] != float(b) / 255.0f) return false;
	known.store(table, std::memory_order_relaxed);
	return true;
}

// The level arrays of an image, cached per thread: one Sample() call is a
// batch of at most a few dozen lanes, and consecutive calls mostly sample
// the same image. The cache is keyed on the PreparedLevel bytes themselves
// (their values are all the arrays derive from).
inline const FastLevels* PreparedLevels(const SampledImage& image) {
	struct Cache {
		uint32_t count = 0, layers = 0;
		PreparedLevel key[kMaxLevels];
		FastLevels levels;
	};
	static thread_local Cache cache;
	const uint32_t count = image.level_count;
	const size_t bytes = count * sizeof(PreparedLevel);
	FastLevels* out = &cache.levels;
	const uint32_t layers = (image.cube ? 6 : 1) * (image.arrayed ? image.layer_count : 1);
	if (cache.count == count && cache.layers == layers && std::memcmp(cache.key, image.levels, bytes) == 0) return out;
	cache.count = count;  // (a declined set of levels is remembered too)
	cache.layers = layers;
	std::memcpy(cache.key, image.levels, bytes);
	out->ok = false;
	const uint8_t* origin = image.levels[0].base;
	for (uint32_t l = 0; l < image.level_count; ++l) origin = std::min(origin, image.levels[l].base);
	out->origin = origin;
	out->pow2[0] = out->pow2[1] = out->pow2[2] = true;
	out->tiled = false;
	const uint32_t size = image.levels[0].element_size;
	if (size == 0 || size > 16 || !std::has_single_bit(size)) return out;
	out->element_shift = std::countr_zero(size);
	uint64_t texels = 0;
	for (uint32_t l = 0; l < image.level_count; ++l) {
		const PreparedLevel& p = image.levels[l];
		if (p.element_size != size || p.tile_shift > 8 || p.extent[0] < 1 || p.extent[1] < 1 || p.extent[2] < 1 ||
		    p.extent[0] > (1 << 24) || p.extent[1] > (1 << 24) || p.extent[2] > (1 << 24))
			return out;
		// Every texel of the level (of its last layer, its last 3D slice:
		// TexelAddress adds k * depth_pitch, each slice rows or tiles alike)
		// within 2^31 bytes of the origin.
		const uint64_t tile = 1u << p.tile_shift;
		const uint64_t rows = (uint64_t(p.extent[1]) + tile - 1) / tile;
		const uint64_t slices = uint64_t(p.extent[2] - 1) * p.depth_pitch;
		const uint64_t end = uint64_t(p.base - origin) + uint64_t(layers - 1) * p.array_pitch + slices +
		                     rows * p.row_pitch + size * tile * uint64_t(p.extent[0]);
		if (end > uint64_t(INT32_MAX) || p.row_pitch > uint64_t(INT32_MAX) || slices > uint64_t(INT32_MAX)) return out;
		out->array_pitch[l] = int32_t(layers > 1 ? p.array_pitch : 0);
		auto is_pow2 = [](int32_t size) { return (size & (size - 1)) == 0; };
		out->pow2[0] &= is_pow2(p.extent[0]);
		out->pow2[1] &= is_pow2(p.extent[1]);
		out->pow2[2] &= is_pow2(p.extent[2]);
		out->tiled |= p.tile_shift != 0;
		out->offset[l] = int32_t(p.base - origin);
		out->width[l] = p.extent[0];
		out->height[l] = p.extent[1];
		out->width_mask[l] = p.extent[0] - 1;
		out->height_mask[l] = p.extent[1] - 1;
		out->row_pitch[l] = int32_t(p.row_pitch);
		out->tile_shift[l] = int32_t(p.tile_shift);
		out->fwidth[l] = float(p.extent[0]);
		out->fheight[l] = float(p.extent[1]);
		out->depth[l] = p.extent[2];
		out->depth_mask[l] = p.extent[2] - 1;
		out->depth_pitch[l] = p.extent[2] > 1 ? int32_t(p.depth_pitch) : 0;
		out->fdepth[l] = float(p.extent[2]);
		texels += uint64_t(p.extent[0]) * uint64_t(p.extent[1]) * uint64_t(p.extent[2]) * layers;
	}
	// 1- and 2-byte texels are read as the 32-bit word that ends with them
	// (or the first word, ReadChannels): the texels must span 4 bytes.
	out->ok = texels * size >= 4;
	return out;
}

// The formats PrepareChannels reads: their texel size and components.
struct ChannelFormat {
	VkFormat format;
	Channel decode;
	uint32_t size, count;
};
constexpr ChannelFormat kChannelFormats[] = {
    {VK_FORMAT_R8_UNORM, Channel::kTable, 1, 1},    {VK_FORMAT_R8_SNORM, Channel::kTable, 1, 1},
    {VK_FORMAT_R8_SRGB, Channel::kTable, 1, 1},     {VK_FORMAT_R8G8_UNORM, Channel::kTable, 2, 2},
    {VK_FORMAT_R8G8_SNORM, Channel::kTable, 2, 2},  {VK_FORMAT_R8G8_SRGB, Channel::kTable, 2, 2},
    {VK_FORMAT_R16_SFLOAT, Channel::kHalf, 2, 1},   {VK_FORMAT_R16G16_SFLOAT, Channel::kHalf, 4, 2},
    {VK_FORMAT_R32_SFLOAT, Channel::kFloat, 4, 1},  {VK_FORMAT_R32G32_SFLOAT, Channel::kFloat, 8, 2},
    {VK_FORMAT_D16_UNORM, Channel::kUnorm16, 2, 1}, {VK_FORMAT_X8_D24_UNORM_PACK32, Channel::kUnorm24, 4, 1},
    {VK_FORMAT_D32_SFLOAT, Channel::kFloat, 4, 1},
};

// The one- and two-component formats and depth views: what SampleGeneric's
// reader gives. Depth formats only in views of the depth aspect
// (image.depth: read by ReadDepth), with a compare sampler or without
// (SSAO and deferred lighting read depth as a texture: (D, 0, 0, 1));
// compare: a compare sampler and Dref given. Returns the texel size, 0 when
// the image is not one.
inline uint32_t PrepareChannels(const SampledImage& image, bool compare, FastImage* f) {
	const ChannelFormat* format = nullptr;
	for (const ChannelFormat& c : kChannelFormats)
		if (image.format && image.format->format == c.format) format = &c;
	if (!format) return 0;
	FastChannels& ch = f->channels;
	ch.decode = format->decode;
	ch.count = format->count;
	const bool depth = format->decode == Channel::kUnorm16 || format->decode == Channel::kUnorm24 ||
	                   image.format->format == VK_FORMAT_D32_SFLOAT;
	if (depth) {
		if (!image.depth) return 0;
		// §16 "Component Substitution": depth reads as (D, 0, 0, 1).
		ch.slot[0] = 0, ch.shift[0] = 0;
		ch.defaults[0] = ch.defaults[1] = ch.defaults[2] = 0.0f, ch.defaults[3] = 1.0f;
		f->compare = compare;
		f->clamp_reference = image.clamp_reference;
		f->compare_op = image.sampler.compare_op;
	} else {
		// ReadBytes / ReadHalves / ReadWords: image.defaults, then each
		// component into its slot.
		if (image.compare || image.component_count != format->count) return 0;
		for (int c = 0; c < 4; ++c) ch.defaults[c] = image.defaults.f[c];
		for (uint32_t c = 0; c < ch.count; ++c) {
			if (image.component_slot[c] > 3 || image.component_offset[c] >= format->size) return 0;
			ch.slot[c] = image.component_slot[c];
			ch.shift[c] = 8 * image.component_offset[c];
			ch.table[c] = image.component_table[c];
			if (ch.decode == Channel::kTable && !ch.table[c]) return 0;
		}
	}
	ch.on = true;
	return format->size;
}

inline bool PrepareFast(const SampledImage& image, const SampleLanes& lanes, FastImage* f) {
	const SamplerState& s = image.sampler;
	if constexpr (std::endian::native != std::endian::little) return false;  // texels are read as words
	// Four 8-bit components through decode tables (what ReadBytes reads),
	// four halves (what ReadColor reads of RGBA16F: HalfToFloat), or four
	// floats R, G, B, A in memory order (what ReadWords reads of RGBA32F).
	f->half = image.format && image.format->format == VK_FORMAT_R16G16B16A16_SFLOAT && image.read != nullptr;
	f->float32 = image.format && image.format->format == VK_FORMAT_R32G32B32A32_SFLOAT && image.component_count == 4;
	for (uint32_t c = 0; c < 4 && f->float32; ++c)
		f->float32 = image.component_slot[c] == c && image.component_offset[c] == 4 * c;
	// Cubes: seamless ones (LINEAR texels past a face's edge are read from
	// its neighbour, FilterCubeSeams); they filter isotropically. 3D views
	// (not arrayed: Vulkan has no 3D arrays) read eight texels a LINEAR
	// lookup (FilterVolume).
	const bool volume = image.dimensions == 3 && !image.cube && !image.arrayed;
	// (Cubic filtering: the generic path's FilterCubic.)
	if (s.mag_filter == VK_FILTER_CUBIC_EXT || s.min_filter == VK_FILTER_CUBIC_EXT) return false;
	if (image.integer || (image.dimensions != 2 && !volume) ||
	    (image.cube && (!image.seamless_cube || image.anisotropic)) || image.samples != 1 || s.unnormalized_coordinates)
		return false;
	f->offsets = lanes.offset[0] || lanes.offset[1] || lanes.offset[2];
	if (f->offsets && image.cube) return false;  // (SPIR-V allows no offsets with Cube)
	const uint32_t channel_size = PrepareChannels(image, image.compare && lanes.dref, f);
	if (!channel_size && (image.compare || image.depth || (image.component_count != 4 && !f->half))) return false;
	for (int d = 0; d < (volume ? 3 : 2); ++d) {
		f->address[d] = image.address[d];
		f->border |= image.address[d] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	}
	if (f->border && (volume || image.cube)) return false;  // 2D views and arrays only
	for (int c = 0; c < 4; ++c) f->border_value[c] = image.border.f[c];
	if (!f->half && !f->float32 && !f->channels.on) {
		for (uint32_t c = 0; c < 4; ++c) {
			if (!image.component_table[c] || image.component_slot[c] > 3 || image.component_offset[c] > 3) return false;
			f->table[image.component_slot[c]] = image.component_table[c];
			f->byte_shift[image.component_slot[c]] = int32_t(8u * image.component_offset[c]);
		}
		if (!f->table[0] || !f->table[1] || !f->table[2] || !f->table[3]) return false;
		const bool unorm =
		    f->byte_shift[1] == 8 && f->byte_shift[3] == 24 &&
		    ((f->byte_shift[0] == 0 && f->byte_shift[2] == 16) || (f->byte_shift[0] == 16 && f->byte_shift[2] == 0));
		f->unorm = unorm && DividesBy255(f->table[0]) && DividesBy255(f->table[1]) && DividesBy255(f->table[2]) &&
		           DividesBy255(f->table[3]);
		f->swap_rb = f->unorm && f->byte_shift[0] == 16;
	}
	if (image.level_count == 0 || image.level_count > kMaxLevels) return false;
	f->q = image.level_count - 1;
	f->min_level = image.min_level;
	f->arrayed = image.arrayed;
	f->cube = image.cube;
	f->volume = volume;
	f->layer_count = image.arrayed ? std::max(image.layer_count, 1u) : 1;
	f->levels = PreparedLevels(image);
	// 8-byte halves, 16-byte floats, 4-byte words, the channel formats' sizes.
	const int32_t shift = f->channels.on ? std::countr_zero(channel_size) : f->half ? 3 : f->float32 ? 4 : 2;
	return f->levels->ok && f->levels->element_shift == shift;
}

// LinearTexelCoordinate (sampling_math.cpp) with the floor done without
// libm: the reference for lanes the vector code leaves to scalar code.
inline LinearCoordinate ScalarLinear(float u) {
	constexpr double kScale = double(1u << kSubTexelPrecisionBits);
	double x = std::clamp(double(u) - 0.5, -double(1 << 30), double(1 << 30));
	if (x != x) x = 0.0;
	const double y = x * kScale + 0.5;
	int64_t fixed = int64_t(y);  // truncates; floor below (|y| < 2^39: exact)
	fixed -= double(fixed) > y ? 1 : 0;
	return {int32_t(fixed >> kSubTexelPrecisionBits),
	        float(fixed & ((1 << kSubTexelPrecisionBits) - 1)) / float(kScale)};
}

}  // namespace tessera::texture::fast
#endif  // TESSERA_TEXTURE_SAMPLE_FAST_SHARED

HWY_BEFORE_NAMESPACE();
namespace tessera::texture::fast {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
using MF = hn::Mask<DF>;

// One level's parameters for each lane of a vector.
struct LevelVec {
	VI offset, width, height, width_mask, height_mask, row_pitch, tile_shift;
	VF fwidth, fheight;
	VI array_pitch, face;  // AddLayer's pitch; cubes: the lane's face (its layer in offset)
	// 3D views (FastImage::volume; else unset).
	VI depth, depth_mask, depth_pitch;
	VF fdepth;
};

// Each lane's texel offsets (FastImage::offsets), the same at every level;
// null without offsets.
struct TexelOffsets {
	VI d[3];
};
// Texel coordinate i of dimension d moved by the lane's offset, as the
// generic FilterLevel adds it before wrapping.
HWY_INLINE VI AddOffset(const TexelOffsets* offsets, int d, VI i) { return offsets ? hn::Add(i, offsets->d[d]) : i; }

// The 2D parameters of each lane's level (index; first: lane 0's, one_level:
// all lanes read it).
HWY_INLINE LevelVec LoadPlaneLevels(const FastImage& f, VI index, int32_t first, bool one_level) {
	const DI di;
	const DF df;
	if (one_level) {  // the usual case: one level for all lanes
		return {hn::Set(di, f.levels->offset[first]),
		        hn::Set(di, f.levels->width[first]),
		        hn::Set(di, f.levels->height[first]),
		        hn::Set(di, f.levels->width_mask[first]),
		        hn::Set(di, f.levels->height_mask[first]),
		        hn::Set(di, f.levels->row_pitch[first]),
		        hn::Set(di, f.levels->tile_shift[first]),
		        hn::Set(df, f.levels->fwidth[first]),
		        hn::Set(df, f.levels->fheight[first]),
		        hn::Zero(di),
		        hn::Zero(di),
		        hn::Zero(di),
		        hn::Zero(di),
		        hn::Zero(di),
		        hn::Zero(df)};
	}
	return {hn::GatherIndex(di, f.levels->offset, index),
	        hn::GatherIndex(di, f.levels->width, index),
	        hn::GatherIndex(di, f.levels->height, index),
	        hn::GatherIndex(di, f.levels->width_mask, index),
	        hn::GatherIndex(di, f.levels->height_mask, index),
	        hn::GatherIndex(di, f.levels->row_pitch, index),
	        hn::GatherIndex(di, f.levels->tile_shift, index),
	        hn::GatherIndex(df, f.levels->fwidth, index),
	        hn::GatherIndex(df, f.levels->fheight, index),
	        hn::Zero(di),
	        hn::Zero(di),
	        hn::Zero(di),
	        hn::Zero(di),
	        hn::Zero(di),
	        hn::Zero(df)};
}

// Each lane's level parameters, with the depth ones for 3D views.
template <class Image>
HWY_INLINE LevelVec LoadLevels(const Image& f, VI index) {
	const DI di;
	const DF df;
	const int32_t first = hn::GetLane(index);
	const bool one_level = hn::AllTrue(di, hn::Eq(index, hn::Set(di, first)));
	LevelVec l = LoadPlaneLevels(f, index, first, one_level);
	if (f.volume) {
		if (one_level) {
			l.depth = hn::Set(di, f.levels->depth[first]);
			l.depth_mask = hn::Set(di, f.levels->depth_mask[first]);
			l.depth_pitch = hn::Set(di, f.levels->depth_pitch[first]);
			l.fdepth = hn::Set(df, f.levels->fdepth[first]);
		} else {
			l.depth = hn::GatherIndex(di, f.levels->depth, index);
			l.depth_mask = hn::GatherIndex(di, f.levels->depth_mask, index);
			l.depth_pitch = hn::GatherIndex(di, f.levels->depth_pitch, index);
			l.fdepth = hn::GatherIndex(df, f.levels->fdepth, index);
		}
	}
	return l;
}

// A layer's offset added to each lane's level offset (arrays and cube faces).
HWY_INLINE void AddLayer(const FastImage& f, VI level, VI layer, LevelVec* l) {
	const DI di;
	const int32_t first = hn::GetLane(level);
	const VI pitch = hn::AllTrue(di, hn::Eq(level, hn::Set(di, first)))
	                     ? hn::Set(di, f.levels->array_pitch[first])
	                     : hn::GatherIndex(di, f.levels->array_pitch, level);
	l->offset = hn::Add(l->offset, hn::Mul(layer, pitch));
	l->array_pitch = pitch;
}

// SelectArrayLayer (sampling_math.cpp): the coordinate rounded to nearest
// even, NaN and negatives to 0, then clamped to the last layer.
HWY_INLINE VI ArrayLayers(VF a, uint32_t layer_count) {
	const DF df;
	const DI di;
	const VF r = hn::Round(a);  // ties to even
	const VF last = hn::Set(df, float(layer_count - 1));
	const VF clamped = hn::IfThenElse(hn::Ge(r, last), last, r);
	return hn::ConvertTo(di, hn::IfThenElseZero(hn::Gt(r, hn::Zero(df)), clamped));
}

// A vector of cube lookups after SelectCubeFace: each lane's face, s_c, t_c,
// |r_c| and the face coordinates (CubeFaceCoordinate), in the same float
// operations (a sign is a product with +-1.0f, as kCubeAxes gives it).
struct CubeLanes {
	VI face;
	VF sc, tc, rc, s, t;
};
HWY_INLINE CubeLanes SelectFaces(VF x, VF y, VF z) {
	const DF df;
	const DI di;
	const VF zero = hn::Zero(df);
	const VF ax = hn::Abs(x), ay = hn::Abs(y), az = hn::Abs(z);
	// CubeFaceOf: r_z wins ties over r_y and r_x, r_y over r_x; NaN: +X.
	const MF z_major = hn::And(hn::Ge(az, ay), hn::Ge(az, ax));
	const MF y_major = hn::AndNot(z_major, hn::Ge(ay, ax));
	const MF x_major = hn::Not(hn::Or(z_major, y_major));
	const MF negative = hn::Or(hn::Or(hn::And(z_major, hn::Lt(z, zero)), hn::And(y_major, hn::Lt(y, zero))),
	                           hn::And(x_major, hn::Lt(x, zero)));
	CubeLanes c;
	c.face = hn::Add(hn::IfThenElse(hn::RebindMask(di, z_major), hn::Set(di, 4),
	                                hn::IfThenElseZero(hn::RebindMask(di, y_major), hn::Set(di, 2))),
	                 hn::IfThenElseZero(hn::RebindMask(di, negative), hn::Set(di, 1)));
	const VF v[3] = {x, y, z};
	c.sc = c.tc = c.rc = zero;
	for (uint32_t face = 0; face < 6; ++face) {
		const CubeAxes& a = kCubeAxes[face];
		const MF on = hn::RebindMask(df, hn::Eq(c.face, hn::Set(di, int32_t(face))));
		c.sc = hn::IfThenElse(on, hn::Mul(hn::Set(df, a.s_sign), v[a.s_axis]), c.sc);
		c.tc = hn::IfThenElse(on, hn::Mul(hn::Set(df, a.t_sign), v[a.t_axis]), c.tc);
		c.rc = hn::IfThenElse(on, hn::Abs(v[a.r_axis]), c.rc);
	}
	const VF half = hn::Set(df, 0.5f);
	c.s = hn::Add(hn::Div(hn::Mul(half, c.sc), c.rc), half);
	c.t = hn::Add(hn::Div(hn::Mul(half, c.tc), c.rc), half);
	return c;
}

// CubeFaceDerivatives of one derivative of the direction (d/dx or d/dy).
HWY_INLINE void FaceDerivatives(const CubeLanes& c, const VF d[3], VF* ds, VF* dt) {
	const DF df;
	const DI di;
	VF dsc = hn::Zero(df), dtc = dsc, drc = dsc;
	for (uint32_t face = 0; face < 6; ++face) {
		const CubeAxes& a = kCubeAxes[face];
		const MF on = hn::RebindMask(df, hn::Eq(c.face, hn::Set(di, int32_t(face))));
		dsc = hn::IfThenElse(on, hn::Mul(hn::Set(df, a.s_sign), d[a.s_axis]), dsc);
		dtc = hn::IfThenElse(on, hn::Mul(hn::Set(df, a.t_sign), d[a.t_axis]), dtc);
		drc = hn::IfThenElse(on, hn::Mul(hn::Set(df, a.r_sign), d[a.r_axis]), drc);
	}
	const VF inv = hn::Div(hn::Set(df, 0.5f), hn::Mul(c.rc, c.rc));
	*ds = hn::Mul(hn::Sub(hn::Mul(c.rc, dsc), hn::Mul(c.sc, drc)), inv);
	*dt = hn::Mul(hn::Sub(hn::Mul(c.rc, dtc), hn::Mul(c.tc, drc)), inv);
}

// LinearTexelCoordinate: i0 = floor(u - 1/2) and alpha = frac(u - 1/2) with
// kSubTexelPrecisionBits of fraction, u - 1/2 rounded to the nearest 1/256
// (ties up). The scalar code computes fixed = floor((u - 1/2) * 256 + 1/2)
// in double. For |u| < 2^20 the same integer comes from float operations
// that are all exact: U = 256 u (a power-of-two scale), F = floor(U),
// U - F (exact: both are floats of U's binade or below), and
// fixed = F + (U - F >= 1/2) - 128. (In double, 256 u - 127.5 is exact
// whenever |u| >= 2^-30, and below that it rounds to -127.5, whose floor is
// that of the exact value.) Other lanes (large, infinite, NaN) take the
// scalar code.
HWY_INLINE void LinearCoordinates(VF u, VI* i0, VF* alpha) {
	const DF df;
	const DI di;
	const MF small = hn::Lt(hn::Abs(u), hn::Set(df, 1048576.0f));  // NaN: false
	if (HWY_LIKELY(hn::AllTrue(df, small))) {
		const VF scaled = hn::Mul(u, hn::Set(df, 256.0f));
		const VF floor = hn::Floor(scaled);
		const VF up = hn::IfThenElseZero(hn::Ge(hn::Sub(scaled, floor), hn::Set(df, 0.5f)), hn::Set(df, 1.0f));
		const VI fixed = hn::Sub(hn::ConvertTo(di, hn::Add(floor, up)), hn::Set(di, 128));
		*i0 = hn::ShiftRight<kSubTexelPrecisionBits>(fixed);  // arithmetic: floor
		*alpha = hn::Mul(hn::ConvertTo(df, hn::And(fixed, hn::Set(di, 255))), hn::Set(df, 1.0f / 256.0f));
		return;
	}
	alignas(64) float uu[kMaxVectorLanes], aa[kMaxVectorLanes];
	alignas(64) int32_t ii[kMaxVectorLanes];
	hn::Store(u, df, uu);
	for (size_t n = 0; n < hn::Lanes(df); ++n) {
		const LinearCoordinate c = ScalarLinear(uu[n]);
		ii[n] = c.i0, aa[n] = c.alpha;
	}
	*i0 = hn::Load(di, ii);
	*alpha = hn::Load(df, aa);
}

// NearestTexelCoordinate: floor(u) saturated to +-2^30, NaN -> 0.
HWY_INLINE VI NearestCoordinates(VF u) {
	const DF df;
	const DI di;
	const VF limit = hn::Set(df, 1073741824.0f), low = hn::Neg(limit);
	VF f = hn::Floor(u);
	f = hn::IfThenElse(hn::Gt(f, low), f, low);
	f = hn::IfThenElse(hn::Lt(f, limit), f, limit);
	return hn::IfThenElseZero(hn::RebindMask(di, hn::Eq(u, u)), hn::ConvertTo(di, f));
}

// §16 "Wrapping Operation": CLAMP_TO_EDGE, CLAMP_TO_BORDER and REPEAT of a
// power of two in vectors, the rest (REPEAT of other sizes, the mirrored
// modes) lane by lane with the generic path's own WrapTexelCoordinate.
HWY_INLINE VI Wrap(VI i, VI size, VI mask, VkSamplerAddressMode mode, bool pow2) {
	const DI di;
	if (mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
		return hn::Min(hn::Max(i, hn::Zero(di)), hn::Sub(size, hn::Set(di, 1)));
	if (mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER)  // -1 and size: the border (OutsideLevel)
		return hn::Min(hn::Max(i, hn::Set(di, -1)), size);
	if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && pow2) return hn::And(i, mask);  // the positive modulo
	alignas(64) int32_t ii[kMaxVectorLanes], ss[kMaxVectorLanes];
	hn::Store(i, di, ii);
	hn::Store(size, di, ss);
	for (size_t n = 0; n < hn::Lanes(di); ++n) ii[n] = WrapTexelCoordinate(ii[n], ss[n], mode);
	return hn::Load(di, ii);
}

// TexelOffset (sample.h) split into its row part (j) and column part (i),
// which add: offset = (j >> s) * row_pitch + ((i >> s) << 2s | (j & m) << s | i & m) * size,
// size = 1 << shift.
HWY_INLINE VI RowOffset(const LevelVec& l, VI j, bool tiled, int shift) {
	if (!tiled) return hn::Mul(j, l.row_pitch);
	const DI di;
	const VI m = hn::Sub(hn::Set(di, 1) << l.tile_shift, hn::Set(di, 1));
	return hn::Add(hn::Mul(j >> l.tile_shift, l.row_pitch), hn::ShiftLeftSame(hn::And(j, m) << l.tile_shift, shift));
}
HWY_INLINE VI ColumnOffset(const LevelVec& l, VI i, bool tiled, int shift) {
	if (!tiled) return hn::ShiftLeftSame(i, shift);
	const DI di;
	const VI m = hn::Sub(hn::Set(di, 1) << l.tile_shift, hn::Set(di, 1));
	return hn::ShiftLeftSame(hn::Or((i >> l.tile_shift) << hn::Add(l.tile_shift, l.tile_shift), hn::And(i, m)), shift);
}

// b / 255.0f for bytes b (as floats): q0 = b * (1/255) corrected once,
// q0 + (b - 255 q0) / 255 with fused operations (Markstein). With FMA this
// is the correctly rounded quotient for every byte, which FusedDivisionExact
// checks once per target; without FMA (or if the check fails) Div is used.
HWY_INLINE VF Unorm8(VF b, bool fused) {
	const DF df;
	const VF k255 = hn::Set(df, 255.0f);
	if (!fused) return hn::Div(b, k255);
	const VF r = hn::Set(df, 1.0f / 255.0f);
	const VF q0 = hn::Mul(b, r);
	return hn::MulAdd(hn::NegMulAdd(q0, k255, b), r, q0);
}
bool FusedDivisionExact() {
	static const bool exact = [] {
		const DF df;
		alignas(64) float q[kMaxVectorLanes];
		for (uint32_t b = 0; b < 256; b += uint32_t(hn::Lanes(df))) {
			hn::Store(Unorm8(hn::Add(hn::Iota(df, float(b)), hn::Zero(df)), true), df, q);
			for (uint32_t n = 0; n < hn::Lanes(df) && b + n < 256; ++n)
				if (q[n] != float(b + n) / 255.0f) return false;
		}
		return true;
	}();
	return exact;
}

// The words at `offset` and at offset + 4 for each lane (two texels of a
// row, or two components of one texel): one 64-bit gather per pair instead
// of two 32-bit gathers.
HWY_INLINE void GatherPairs(const uint8_t* origin, VI offset, VI* first, VI* second) {
	const DI di;
#if HWY_TARGET == HWY_SCALAR
	const int32_t* words = reinterpret_cast<const int32_t*>(origin);
	*first = hn::GatherOffset(di, words, offset);
	*second = hn::GatherOffset(di, words, hn::Add(offset, hn::Set(di, 4)));
#else
	const hn::Half<DI> dh;
	const hn::Repartition<int64_t, DI> d64;  // half as many lanes
	const int64_t* pairs = reinterpret_cast<const int64_t*>(origin);
	const VI lo = hn::BitCast(di, hn::GatherOffset(d64, pairs, hn::PromoteTo(d64, hn::LowerHalf(dh, offset))));
	const VI hi = hn::BitCast(di, hn::GatherOffset(d64, pairs, hn::PromoteTo(d64, hn::UpperHalf(dh, offset))));
	*first = hn::ConcatEven(di, hi, lo);  // little-endian: the word at offset is the low half
	*second = hn::ConcatOdd(di, hi, lo);
#endif
}

// Component c of a vector of texel words (byte order: c is the byte).
enum class DecodeMode { kFusedUnorm, kDividedUnorm, kTables };
template <DecodeMode kMode>
HWY_INLINE VF Component(const FastImage& f, VI texel, int c) {
	const DF df;
	const DI di;
	const VI byte = hn::Set(di, 0xff);
	if (kMode == DecodeMode::kTables)
		return hn::GatherIndex(df, f.table[c], hn::And(hn::ShiftRightSame(texel, f.byte_shift[c]), byte));
	// The tables' values, b / 255.0f.
	return Unorm8(hn::ConvertTo(df, hn::And(hn::ShiftRightSame(texel, 8 * c), byte)), kMode == DecodeMode::kFusedUnorm);
}

// out[c] = ((0 + w0 t0[c]) + w1 t1[c]) + w2 t2[c]) + w3 t3[c] (FilterLevel's
// sum), in registers; kTexels = 8 for 3D views (the sum goes on to w7 t7).
template <DecodeMode kMode, int kTexels = 4>
HWY_INLINE void WeightedSum(const FastImage& f, const VI texel[kTexels], const VF w[kTexels], VF out[4]) {
	const DF df;
	VF sum0 = hn::Zero(df), sum1 = sum0, sum2 = sum0, sum3 = sum0;
	for (int n = 0; n < kTexels; ++n) {
		sum0 = hn::Add(sum0, hn::Mul(w[n], Component<kMode>(f, texel[n], 0)));
		sum1 = hn::Add(sum1, hn::Mul(w[n], Component<kMode>(f, texel[n], 1)));
		sum2 = hn::Add(sum2, hn::Mul(w[n], Component<kMode>(f, texel[n], 2)));
		sum3 = hn::Add(sum3, hn::Mul(w[n], Component<kMode>(f, texel[n], 3)));
	}
	// Tables are per output component already; UNORM bytes are in memory
	// order (B, G, R, A for BGRA: the sums are per component, so swapping
	// them is swapping the inputs).
	const bool swap = kMode != DecodeMode::kTables && f.swap_rb;
	out[0] = swap ? sum2 : sum0;
	out[1] = sum1;
	out[2] = swap ? sum0 : sum2;
	out[3] = sum3;
}

// HalfToFloat of the low 16 bits of each lane (the high ones must be 0):
// exponent and mantissa moved into a float and scaled by 2^112 (exact, for
// subnormal halves too: no DAZ), infinities and NaNs keeping their payload,
// then the sign (HalfToFloatFast, resolve.h).
HWY_INLINE VF HalfToFloat(VI half) {
	const DF df;
	const DI di;
	const VI magnitude = hn::ShiftLeft<13>(hn::And(half, hn::Set(di, 0x7fff)));
	const VF scaled = hn::Mul(hn::BitCast(df, magnitude), hn::Set(df, 0x1p112f));
	const VI exponent = hn::And(half, hn::Set(di, 0x7c00));
	const VI special = hn::Or(magnitude, hn::Set(di, 0x7f800000));  // infinity or NaN
	const VI bits = hn::IfThenElse(hn::Eq(exponent, hn::Set(di, 0x7c00)), special, hn::BitCast(di, scaled));
	return hn::BitCast(df, hn::Or(bits, hn::ShiftLeft<16>(hn::And(half, hn::Set(di, 0x8000)))));
}

// Component c of RGBA16F texels given as their two words (R, G in the
// first; B, A in the second).
HWY_INLINE VF HalfComponent(VI first, VI second, int c) {
	const DI di;
	const VI word = c < 2 ? first : second;
	const hn::RebindToUnsigned<DI> du;
	return HalfToFloat(c % 2 ? hn::BitCast(di, hn::ShiftRight<16>(hn::BitCast(du, word)))
	                         : hn::And(word, hn::Set(di, 0xffff)));
}

// HalfComponent for texels that a filter goes on to weigh and sum: the
// same float, except that a signaling NaN comes out quiet, as the first
// multiply of the sum would make it anyway (and x86 arithmetic keeps the
// first NaN operand's payload whether quiet or not), so the sums' bits are
// HalfComponent's. AVX2 and AVX-512 targets convert with F16C (Highway's
// AVX2 target requires it): one conversion for eight shifts, masks and
// selects. Texels returned as they are (NEAREST) keep HalfComponent.
HWY_INLINE VF HalfComponentToSum(VI first, VI second, int c) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
	const DF df;
	const hn::RebindToUnsigned<DI> du;
	const hn::Rebind<uint16_t, DF> d16;
	const hn::Rebind<hwy::float16_t, DF> dh;
	const auto word = hn::BitCast(du, c < 2 ? first : second);
	const auto halves = hn::TruncateTo(d16, c % 2 ? hn::ShiftRight<16>(word) : word);
	return hn::PromoteTo(df, hn::BitCast(dh, halves));
#else
	return HalfComponent(first, second, c);
#endif
}

// The four components of the RGBA16F or RGBA32F texels at `offset`: one
// 64-bit gather (RGBA16F) or two (RGBA32F: R, G then B, A), the bits of a
// float kept as they are (ReadWords copies them).
HWY_INLINE void ReadFloatTexels(const FastImage& f, VI offset, VF out[4]) {
	const DF df;
	const DI di;
	VI first, second;
	GatherPairs(f.levels->origin, offset, &first, &second);
	if (f.half) {
		for (int c = 0; c < 4; ++c) out[c] = HalfComponent(first, second, c);
		return;
	}
	VI third, fourth;
	GatherPairs(f.levels->origin, hn::Add(offset, hn::Set(di, 8)), &third, &fourth);
	out[0] = hn::BitCast(df, first), out[1] = hn::BitCast(df, second);
	out[2] = hn::BitCast(df, third), out[3] = hn::BitCast(df, fourth);
}

// §16 "Depth Compare Operation" (DepthCompare, sampling_math.cpp): 1 where
// (reference op d) holds, else 0. NaN: every ordered comparison fails and
// NOT_EQUAL holds (Ne may be ordered on some targets: Not(Eq) is not).
HWY_INLINE VF DepthCompare(VkCompareOp op, VF reference, VF d) {
	const DF df;
	MF pass;
	switch (op) {
	case VK_COMPARE_OP_LESS: pass = hn::Lt(reference, d); break;
	case VK_COMPARE_OP_EQUAL: pass = hn::Eq(reference, d); break;
	case VK_COMPARE_OP_LESS_OR_EQUAL: pass = hn::Le(reference, d); break;
	case VK_COMPARE_OP_GREATER: pass = hn::Gt(reference, d); break;
	case VK_COMPARE_OP_NOT_EQUAL: pass = hn::Not(hn::Eq(reference, d)); break;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = hn::Ge(reference, d); break;
	case VK_COMPARE_OP_ALWAYS: return hn::Set(df, 1.0f);
	default: return hn::Zero(df);  // NEVER
	}
	return hn::IfThenElseZero(pass, hn::Set(df, 1.0f));
}

// The texels at `offset` of a FastChannels format, as its reader (and
// ReadSite's compare) gives them. A texel of 1 or 2 bytes comes from the
// 32-bit word that ends with it (or, within the first 4 bytes, the first
// word): such a word lies in the image, as a word from the texel on might
// not (PrepareLevels). UNORM depth is the quotient c / (2^b - 1) in float:
// UnormToFloat divides in double and rounds to float, which gives the same
// float (c and 2^b - 1 are exact floats for b <= 24, and a double quotient
// rounded to float is the correctly rounded one: 53 >= 2 * 24 + 2).
// The channels of texel words already read (first: the texel's first 4
// bytes, low bytes first; second: the next 4, for 8-byte texels).
HWY_INLINE void DecodeChannels(const FastImage& f, VI first, VI second, VF reference, VF out[4]) {
	const DF df;
	const DI di;
	const FastChannels& ch = f.channels;
	for (int c = 0; c < 4; ++c) out[c] = hn::Set(df, ch.defaults[c]);
	for (uint32_t c = 0; c < ch.count; ++c) {
		const VI bits = hn::ShiftRightSame(first, ch.shift[c] & 31);  // (masked below: sign bits go)
		VF v;
		switch (ch.decode) {
		case Channel::kTable: v = hn::GatherIndex(df, ch.table[c], hn::And(bits, hn::Set(di, 0xff))); break;
		case Channel::kHalf: v = HalfToFloat(hn::And(bits, hn::Set(di, 0xffff))); break;
		case Channel::kUnorm16:
			v = hn::Div(hn::ConvertTo(df, hn::And(first, hn::Set(di, 0xffff))), hn::Set(df, 65535.0f));
			break;
		case Channel::kUnorm24:
			v = hn::Div(hn::ConvertTo(df, hn::And(first, hn::Set(di, 0xffffff))), hn::Set(df, 16777215.0f));
			break;
		default: v = hn::BitCast(df, ch.shift[c] ? second : first); break;  // kFloat
		}
		out[ch.slot[c]] = v;
	}
	if (f.compare) out[0] = DepthCompare(f.compare_op, reference, out[0]);
}

HWY_INLINE void ReadChannels(const FastImage& f, VI offset, VF reference, VF out[4]) {
	const DI di;
	const int32_t* words = reinterpret_cast<const int32_t*>(f.levels->origin);
	const int shift = f.levels->element_shift;
	VI first, second = hn::Zero(di);
	if (shift == 3) {
		GatherPairs(f.levels->origin, offset, &first, &second);
	} else if (shift == 2) {
		first = hn::GatherOffset(di, words, offset);
	} else {
		const VI start = hn::Max(hn::Sub(offset, hn::Set(di, 4 - (1 << shift))), hn::Zero(di));
		first = hn::GatherOffset(di, words, start) >> hn::ShiftLeft<3>(hn::Sub(offset, start));
	}
	DecodeChannels(f, first, second, reference, out);
}

// FilterLevel's sum of one component of float texels t (i0j0, i1j0, i0j1,
// i1j1) with weights w: (0 + w0 t0) + w1 t1 + w2 t2 + w3 t3, or for cubes
// w0 t0 + w1 t1 + w2 t2 + w3 t3 (ReadCubeQuad's sum has no leading 0, which
// matters for -0). NEAREST lanes of a mixed vector take t0 itself, as the
// generic path reads it (a sum would turn -0 into +0 and 0 * inf into NaN).
HWY_INLINE VF FloatSum(const VF w[4], const VF t[4], bool cube, MF linear, bool mixed) {
	const DF df;
	VF sum = cube ? hn::Mul(w[0], t[0]) : hn::Add(hn::Zero(df), hn::Mul(w[0], t[0]));
	for (int n = 1; n < 4; ++n) sum = hn::Add(sum, hn::Mul(w[n], t[n]));
	return mixed ? hn::IfThenElse(linear, sum, t[0]) : sum;
}

// The four components of one vector of texel words (NEAREST), in one
// decode mode.
template <DecodeMode kMode>
HWY_INLINE void DecodeAs(const FastImage& f, VI texel, VF out[4]) {
	for (int c = 0; c < 4; ++c) out[c] = Component<kMode>(f, texel, c);
	if (kMode != DecodeMode::kTables && f.swap_rb) std::swap(out[0], out[2]);
}
void Decode(const FastImage& f, VI texel, VF out[4]) {
	if (!f.unorm)
		DecodeAs<DecodeMode::kTables>(f, texel, out);
	else if (f.fused_division)
		DecodeAs<DecodeMode::kFusedUnorm>(f, texel, out);
	else
		DecodeAs<DecodeMode::kDividedUnorm>(f, texel, out);
}

// The four components of the texels at `offset`, any format (ReadSite).
void ReadTexels(const FastImage& f, VI offset, VF reference, VF out[4]) {
	if (f.channels.on) {
		ReadChannels(f, offset, reference, out);
	} else if (f.half || f.float32) {
		ReadFloatTexels(f, offset, out);
	} else {
		const int32_t* words = reinterpret_cast<const int32_t*>(f.levels->origin);
		Decode(f, hn::GatherOffset(DI(), words, offset), out);
	}
}

// FilterLevel of a cube vector with LINEAR lanes whose 2 x 2 texels reach
// past a face (i0 or j0 at -1, i1 or j1 at size), as ReadCubeQuad reads
// them (§16 "Cube Map Edge Handling"): a texel past one edge comes from the
// neighbouring face (CubeEdges), one past two (the corner) is the mean of
// the other three; the sum is the generic w0 t0 + w1 t1 + w2 t2 + w3 t3.
// Other lanes read as FilterLevel reads them: LINEAR ones inside the face
// alike, NEAREST ones their texel (i0, j0) clamped to the face. Dref
// lookups average the three compare results into the corner.
void FilterCubeSeams(const FastImage& f, const LevelVec& l, VI i0, VI j0, const VF w[4], MF linear, VF reference,
                     VF out[4]) {
	const DF df;
	const DI di;
	const CubeEdgeTable& edges = CubeEdges();
	const auto linear_i = hn::RebindMask(di, linear);
	const VI zero = hn::Zero(di), last = hn::Sub(l.width, hn::Set(di, 1));  // faces are square
	const bool tiled = f.levels->tiled;
	const int shift = f.levels->element_shift;
	VF t[4][4];
	hn::Mask<DI> corner[4];
	for (int n = 0; n < 4; ++n) {
		VI i = hn::Add(i0, hn::Set(di, n & 1)), j = hn::Add(j0, hn::Set(di, n >> 1));
		const auto below_i = hn::Lt(i, zero), past_i = hn::Gt(i, last);
		const auto below_j = hn::Lt(j, zero), past_j = hn::Gt(j, last);
		const auto out_x = hn::Or(below_i, past_i), out_y = hn::Or(below_j, past_j);
		corner[n] = hn::And(linear_i, hn::And(out_x, out_y));
		const auto one_edge = hn::And(linear_i, hn::Xor(out_x, out_y));
		// The edge crossed, and the coordinate along it.
		const VI edge = hn::IfThenElse(out_x, hn::IfThenElseZero(past_i, hn::Set(di, 1)),
		                               hn::IfThenElse(past_j, hn::Set(di, 3), hn::Set(di, 2)));
		const VI along = hn::IfThenElse(out_x, j, i);
		const VI k = hn::Add(hn::ShiftLeft<2>(l.face), edge);
		auto gather = [&](const int32_t* table) { return hn::GatherIndex(di, table, hn::IfThenElseZero(one_edge, k)); };
		const VI ni = hn::Add(hn::Mul(gather(edges.ai), along), hn::Mul(gather(edges.bi), last));
		const VI nj = hn::Add(hn::Mul(gather(edges.aj), along), hn::Mul(gather(edges.bj), last));
		const VI face_step = hn::Mul(hn::Sub(gather(edges.face), l.face), l.array_pitch);
		// Corners and NEAREST lanes: clamped into the face (a corner's
		// texel is replaced below).
		i = hn::IfThenElse(one_edge, ni, hn::Min(hn::Max(i, zero), last));
		j = hn::IfThenElse(one_edge, nj, hn::Min(hn::Max(j, zero), last));
		const VI offset =
		    hn::Add(hn::Add(hn::Add(l.offset, hn::IfThenElseZero(one_edge, face_step)), RowOffset(l, j, tiled, shift)),
		            ColumnOffset(l, i, tiled, shift));
		ReadTexels(f, offset, reference, t[n]);
	}
	for (int n = 0; n < 4; ++n) {
		if (hn::AllFalse(di, corner[n])) continue;
		const auto at = hn::RebindMask(df, corner[n]);
		for (int c = 0; c < 4; ++c) {
			VF sum = hn::Zero(df);
			for (int m = 0; m < 4; ++m)
				if (m != n) sum = hn::Add(sum, t[m][c]);
			t[n][c] = hn::IfThenElse(at, hn::Div(sum, hn::Set(df, 3.0f)), t[n][c]);
		}
	}
	for (int c = 0; c < 4; ++c) {
		VF sum = hn::Mul(w[0], t[0][c]);
		for (int n = 1; n < 4; ++n) sum = hn::Add(sum, hn::Mul(w[n], t[n][c]));
		out[c] = hn::IfThenElse(linear, sum, t[0][c]);
	}
}

// CLAMP_TO_BORDER (FastImage::border): whether a wrapped texel coordinate
// lies outside the level (WrapSite's border site), and the coordinate
// moved inside, where the read stays in the image; the texel read there is
// then replaced by the border (SelectBorder).
HWY_INLINE hn::Mask<DI> OutsideLevel(VI i, VI size) {
	const DI di;
	return hn::Or(hn::Lt(i, hn::Zero(di)), hn::Gt(i, hn::Sub(size, hn::Set(di, 1))));
}
HWY_INLINE VI InsideLevel(VI i, VI size) {
	const DI di;
	return hn::Min(hn::Max(i, hn::Zero(di)), hn::Sub(size, hn::Set(di, 1)));
}
// Component c of a texel as ReadSite gives it where `outside`: the border
// color's, its D compared for Dref lookups; elsewhere v.
HWY_INLINE VF SelectBorder(const FastImage& f, hn::Mask<DI> outside, int c, VF reference, VF v) {
	const DF df;
	VF border = hn::Set(df, f.border_value[c]);
	if (c == 0 && f.compare) border = DepthCompare(f.compare_op, reference, border);
	return hn::IfThenElse(hn::RebindMask(df, outside), border, v);
}
HWY_INLINE void SelectBorder(const FastImage& f, hn::Mask<DI> outside, VF reference, VF texel[4]) {
	if (hn::AllFalse(DI(), outside)) return;
	for (int c = 0; c < 4; ++c) texel[c] = SelectBorder(f, outside, c, reference, texel[c]);
}

// A LINEAR lookup within one 2D level (FilterLevel's), in two phases:
// GatherLinear computes each lane's four texel sites and weights and
// issues the reads, SumLinear decodes the texels and sums them. Split so
// that FilterMipmapped can read both levels before it sums either: the
// second level's reads are then in flight while the first's texels are
// decoded, where one level after the other each vector waited for its
// reads twice (AVX2 gathers take tens of cycles).
struct LinearTexels {
	VF w[4];
	VI at[4];  // each texel's offset (ReadChannels reads there in SumLinear when `words` is false)
	// The words read: 4-byte texels and channel formats in first; RGBA16F
	// in first and second; RGBA32F's R, G, B, A in first to fourth.
	VI first[4], second[4], third[4], fourth[4];
	hn::Mask<DI> outside[4];  // kBorder: texels i0j0, i1j0, i0j1, i1j1 on the border
	bool words = true;
	bool seams = false;  // cubes: FilterCubeSeams filtered the lanes into `filtered`
	VF filtered[4];
};

template <bool kBorder, class Image>
HWY_INLINE void GatherLinear(const Image& f, const LevelVec& l, const TexelOffsets* offsets, VF s, VF t, MF linear,
                             VF reference, LinearTexels* q) {
	const DF df;
	const DI di;
	const VF u = hn::Mul(s, l.fwidth), v = hn::Mul(t, l.fheight);
	const int32_t* words = reinterpret_cast<const int32_t*>(f.levels->origin);
	const bool tiled = f.levels->tiled;
	const int shift = f.levels->element_shift;
	VI i0, j0;
	VF a, b;
	LinearCoordinates(u, &i0, &a);
	LinearCoordinates(v, &j0, &b);
	if (!hn::AllTrue(df, linear)) {
		const auto linear_i = hn::RebindMask(di, linear);
		i0 = hn::IfThenElse(linear_i, i0, NearestCoordinates(u));
		j0 = hn::IfThenElse(linear_i, j0, NearestCoordinates(v));
		a = hn::IfThenElseZero(linear, a);
		b = hn::IfThenElseZero(linear, b);
	}
	i0 = AddOffset(offsets, 0, i0);
	j0 = AddOffset(offsets, 1, j0);
	const VI one = hn::Set(di, 1);
	// (wi * wj) * wk with wk = 1 in 2D (x * 1.0f is x): FilterLevel's products.
	const VF k1 = hn::Set(df, 1.0f);
	const VF na = hn::Sub(k1, a), nb = hn::Sub(k1, b);
	VF* w = q->w;
	w[0] = hn::Mul(na, nb), w[1] = hn::Mul(a, nb), w[2] = hn::Mul(na, b), w[3] = hn::Mul(a, b);
	if (f.cube) {
		const auto out_i = hn::Or(hn::Lt(i0, hn::Zero(di)), hn::Gt(hn::Add(i0, one), hn::Sub(l.width, one)));
		const auto out_j = hn::Or(hn::Lt(j0, hn::Zero(di)), hn::Gt(hn::Add(j0, one), hn::Sub(l.height, one)));
		if (!hn::AllFalse(df, hn::And(linear, hn::RebindMask(df, hn::Or(out_i, out_j))))) {
			FilterCubeSeams(f, l, i0, j0, w, linear, reference, q->filtered);
			q->seams = true;
			return;
		}
	}
	VI i1 = Wrap(hn::Add(i0, one), l.width, l.width_mask, f.address[0], f.pow2(0));
	VI j1 = Wrap(hn::Add(j0, one), l.height, l.height_mask, f.address[1], f.pow2(1));
	i0 = Wrap(i0, l.width, l.width_mask, f.address[0], f.pow2(0));
	j0 = Wrap(j0, l.height, l.height_mask, f.address[1], f.pow2(1));
	if (kBorder) {
		const auto out_i0 = OutsideLevel(i0, l.width), out_i1 = OutsideLevel(i1, l.width);
		const auto out_j0 = OutsideLevel(j0, l.height), out_j1 = OutsideLevel(j1, l.height);
		q->outside[0] = hn::Or(out_i0, out_j0), q->outside[1] = hn::Or(out_i1, out_j0);
		q->outside[2] = hn::Or(out_i0, out_j1), q->outside[3] = hn::Or(out_i1, out_j1);
		i0 = InsideLevel(i0, l.width), i1 = InsideLevel(i1, l.width);
		j0 = InsideLevel(j0, l.height), j1 = InsideLevel(j1, l.height);
	}
	const VI row0 = hn::Add(l.offset, RowOffset(l, j0, tiled, shift)),
	         row1 = hn::Add(l.offset, RowOffset(l, j1, tiled, shift));
	const VI col0 = ColumnOffset(l, i0, tiled, shift), col1 = ColumnOffset(l, i1, tiled, shift);
	VI* at = q->at;
	at[0] = hn::Add(row0, col0), at[1] = hn::Add(row0, col1), at[2] = hn::Add(row1, col0), at[3] = hn::Add(row1, col1);
	// i1 = i0 + 1 in every lane (not wrapped, not across a tile): the two
	// 4-byte texels of a row are adjacent words, one 64-bit read.
	const bool adjacent = shift == 2 && hn::AllTrue(di, hn::Eq(col1, hn::Add(col0, hn::Set(di, 4))));
	if (f.channels_on() && !adjacent) {
		q->words = false;  // (ReadChannels in SumLinear)
	} else if (f.half) {
		// Each texel's two words (one 64-bit gather).
		for (int n = 0; n < 4; ++n) GatherPairs(f.levels->origin, at[n], &q->first[n], &q->second[n]);
	} else if (f.float32) {
		// R and G of the four texels (a 64-bit gather each), then B and A
		// 8 bytes on.
		const VI step = hn::Set(di, 8);
		for (int n = 0; n < 4; ++n) {
			GatherPairs(f.levels->origin, at[n], &q->first[n], &q->second[n]);
			GatherPairs(f.levels->origin, hn::Add(at[n], step), &q->third[n], &q->fourth[n]);
		}
	} else if (adjacent) {
		GatherPairs(f.levels->origin, at[0], &q->first[0], &q->first[1]);
		GatherPairs(f.levels->origin, at[2], &q->first[2], &q->first[3]);
	} else {
		for (int n = 0; n < 4; ++n) q->first[n] = hn::GatherOffset(di, words, at[n]);
	}
}

template <bool kBorder, class Image>
HWY_INLINE void SumLinear(const Image& f, const LinearTexels& q, MF linear, VF reference, VF out[4]) {
	const DF df;
	const DI di;
	if (q.seams) {
		for (int c = 0; c < 4; ++c) out[c] = q.filtered[c];
		return;
	}
	const VF* w = q.w;
	const bool mixed = !hn::AllTrue(df, linear);
	if (f.channels_on()) {
		VF texel[4][4];
		for (int n = 0; n < 4; ++n) {
			if (q.words)
				DecodeChannels(f, q.first[n], hn::Zero(di), reference, texel[n]);
			else
				ReadChannels(f, q.at[n], reference, texel[n]);
			if (kBorder) SelectBorder(f, q.outside[n], reference, texel[n]);
		}
		// A depth comparison's result is one value (component 0).
		const int components = f.compare ? 1 : 4;
		for (int c = 1; c < 4 && f.compare; ++c) out[c] = texel[0][c];
		for (int c = 0; c < components; ++c) {
			const VF tc[4] = {texel[0][c], texel[1][c], texel[2][c], texel[3][c]};
			out[c] = FloatSum(w, tc, f.cube, linear, mixed);
		}
		return;
	}
	if (f.half) {
		// The generic sum per component. (A mixed vector's NEAREST lanes
		// return texel i0j0 as it is.)
		for (int c = 0; c < 4; ++c) {
			VF t[4];
			for (int n = 0; n < 4; ++n)
				t[n] =
				    mixed ? HalfComponent(q.first[n], q.second[n], c) : HalfComponentToSum(q.first[n], q.second[n], c);
			for (int n = 0; n < 4 && kBorder; ++n) t[n] = SelectBorder(f, q.outside[n], c, reference, t[n]);
			out[c] = FloatSum(w, t, f.cube, linear, mixed);
		}
		return;
	}
	if (f.float32) {
		// Each component summed as the generic path sums it.
		const VI* const words[4] = {q.first, q.second, q.third, q.fourth};
		for (int c = 0; c < 4; ++c) {
			VF t[4];
			for (int n = 0; n < 4; ++n) {
				t[n] = hn::BitCast(df, words[c][n]);
				if (kBorder) t[n] = SelectBorder(f, q.outside[n], c, reference, t[n]);
			}
			out[c] = FloatSum(w, t, f.cube, linear, mixed);
		}
		return;
	}
	if (kBorder) {
		// Each texel's components (Decode: the values WeightedSum sums), the
		// border's where it lies outside, summed as WeightedSum sums them
		// (NEAREST lanes of a mixed vector keep texel i0j0: FloatSum).
		VF t[4][4];
		for (int n = 0; n < 4; ++n) {
			Decode(f, q.first[n], t[n]);
			SelectBorder(f, q.outside[n], reference, t[n]);
		}
		for (int c = 0; c < 4; ++c) {
			const VF tc[4] = {t[0][c], t[1][c], t[2][c], t[3][c]};
			out[c] = FloatSum(w, tc, false, linear, mixed);
		}
	} else if (!f.unorm)
		WeightedSum<DecodeMode::kTables>(f, q.first, w, out);
	else if (f.fused_division)
		WeightedSum<DecodeMode::kFusedUnorm>(f, q.first, w, out);
	else
		WeightedSum<DecodeMode::kDividedUnorm>(f, q.first, w, out);
}

// FilterLevel for the fast case, on the levels `l` (one per lane): NEAREST
// where `linear` is false, else LINEAR. out[c] = the sum of w * texel in
// the generic order (i0j0, i1j0, i0j1, i1j1) from 0, with w = wi * wj.
// NEAREST lanes read as LINEAR with alpha = beta = 0 (weights 1, 0, 0, 0:
// the sum is the texel itself, as the tables hold no -0; float texels keep
// the texel, FloatSum) unless every lane is NEAREST.
// Cube maps: the generic sum is w0 t0 + w1 t1 + w2 t2 + w3 t3 (no leading 0,
// which matters for -0 floats); a vector with LINEAR lanes whose texels lie
// beyond the face reads across its edges (FilterCubeSeams).
// FastChannels formats (and Dref results) are summed as float texels.
// kBorder: FastImage::border (a template argument: the border's masks and
// branches cost the other lookups registers).
template <bool kBorder, class Image>
void FilterLevel(const Image& f, const LevelVec& l, const TexelOffsets* offsets, VF s, VF t, MF linear, VF reference,
                 VF out[4]) {
	const DF df;
	const VF u = hn::Mul(s, l.fwidth), v = hn::Mul(t, l.fheight);
	const bool tiled = f.levels->tiled;
	const int shift = f.levels->element_shift;
	if (hn::AllFalse(df, linear)) {
		VI i = Wrap(AddOffset(offsets, 0, NearestCoordinates(u)), l.width, l.width_mask, f.address[0], f.pow2(0));
		VI j = Wrap(AddOffset(offsets, 1, NearestCoordinates(v)), l.height, l.height_mask, f.address[1], f.pow2(1));
		hn::Mask<DI> outside;
		if (kBorder) {
			outside = hn::Or(OutsideLevel(i, l.width), OutsideLevel(j, l.height));
			i = InsideLevel(i, l.width), j = InsideLevel(j, l.height);
		}
		const VI offset = hn::Add(hn::Add(l.offset, RowOffset(l, j, tiled, shift)), ColumnOffset(l, i, tiled, shift));
		ReadTexels(f, offset, reference, out);
		if (kBorder) SelectBorder(f, outside, reference, out);
		return;
	}
	LinearTexels texels;
	GatherLinear<kBorder>(f, l, offsets, s, t, linear, reference, &texels);
	SumLinear<kBorder>(f, texels, linear, reference, out);
}

// FilterLevel of a 3D view (FastImage::volume), as the generic FilterLevel
// does it with three coordinates: NEAREST reads texel (i, j, k), LINEAR the
// eight texels (§16 "Texel Filtering", "Linear Filtering" for 3D images) in
// its order, i fastest, then j, then k, summed from 0 with the weights
// (wi * wj) * wk. Every coordinate wraps as its own address mode says
// (§16 "Wrapping Operation"), and texel (i, j, k) is slice k of the level
// (k * depth_pitch, each slice in rows or tiles as TexelAddress reads).
// NEAREST lanes of a mixed vector read as LINEAR with zero fractions, as
// FilterLevel's 2D case does (float texels: the texel itself, FloatSum).
void FilterVolume(const FastImage& f, const LevelVec& l, const TexelOffsets* offsets, VF s, VF t, VF r, MF linear,
                  VF reference, VF out[4]) {
	const DF df;
	const DI di;
	const VF u = hn::Mul(s, l.fwidth), v = hn::Mul(t, l.fheight), w_coord = hn::Mul(r, l.fdepth);
	const int32_t* words = reinterpret_cast<const int32_t*>(f.levels->origin);
	const bool tiled = f.levels->tiled;
	const int shift = f.levels->element_shift;
	const bool* pow2 = f.levels->pow2;
	if (hn::AllFalse(df, linear)) {
		const VI i = Wrap(AddOffset(offsets, 0, NearestCoordinates(u)), l.width, l.width_mask, f.address[0], pow2[0]);
		const VI j = Wrap(AddOffset(offsets, 1, NearestCoordinates(v)), l.height, l.height_mask, f.address[1], pow2[1]);
		const VI k =
		    Wrap(AddOffset(offsets, 2, NearestCoordinates(w_coord)), l.depth, l.depth_mask, f.address[2], pow2[2]);
		const VI offset = hn::Add(hn::Add(hn::Add(l.offset, hn::Mul(k, l.depth_pitch)), RowOffset(l, j, tiled, shift)),
		                          ColumnOffset(l, i, tiled, shift));
		ReadTexels(f, offset, reference, out);
		return;
	}
	VI i0, j0, k0;
	VF a, b, c;
	LinearCoordinates(u, &i0, &a);
	LinearCoordinates(v, &j0, &b);
	LinearCoordinates(w_coord, &k0, &c);
	const bool mixed = !hn::AllTrue(df, linear);
	if (mixed) {
		const auto linear_i = hn::RebindMask(di, linear);
		i0 = hn::IfThenElse(linear_i, i0, NearestCoordinates(u));
		j0 = hn::IfThenElse(linear_i, j0, NearestCoordinates(v));
		k0 = hn::IfThenElse(linear_i, k0, NearestCoordinates(w_coord));
		a = hn::IfThenElseZero(linear, a);
		b = hn::IfThenElseZero(linear, b);
		c = hn::IfThenElseZero(linear, c);
	}
	i0 = AddOffset(offsets, 0, i0);
	j0 = AddOffset(offsets, 1, j0);
	k0 = AddOffset(offsets, 2, k0);
	const VI one = hn::Set(di, 1);
	const VF k1 = hn::Set(df, 1.0f);
	const VF wi[2] = {hn::Sub(k1, a), a}, wj[2] = {hn::Sub(k1, b), b}, wk[2] = {hn::Sub(k1, c), c};
	const VI i1 = Wrap(hn::Add(i0, one), l.width, l.width_mask, f.address[0], pow2[0]);
	const VI j1 = Wrap(hn::Add(j0, one), l.height, l.height_mask, f.address[1], pow2[1]);
	const VI k1i = Wrap(hn::Add(k0, one), l.depth, l.depth_mask, f.address[2], pow2[2]);
	i0 = Wrap(i0, l.width, l.width_mask, f.address[0], pow2[0]);
	j0 = Wrap(j0, l.height, l.height_mask, f.address[1], pow2[1]);
	k0 = Wrap(k0, l.depth, l.depth_mask, f.address[2], pow2[2]);
	const VI col[2] = {ColumnOffset(l, i0, tiled, shift), ColumnOffset(l, i1, tiled, shift)};
	const VI row[2] = {RowOffset(l, j0, tiled, shift), RowOffset(l, j1, tiled, shift)};
	const VI slice[2] = {hn::Add(l.offset, hn::Mul(k0, l.depth_pitch)), hn::Add(l.offset, hn::Mul(k1i, l.depth_pitch))};
	VI at[8];
	VF w[8];
	for (int n = 0; n < 8; ++n) {
		const int x = n & 1, y = (n >> 1) & 1, z = n >> 2;
		at[n] = hn::Add(hn::Add(slice[z], row[y]), col[x]);
		w[n] = hn::Mul(hn::Mul(wi[x], wj[y]), wk[z]);
	}
	if (f.channels.on || f.half || f.float32) {
		// Float texels (and Dref results): each component summed from 0.
		VF texel[8][4];
		for (int n = 0; n < 8; ++n) ReadTexels(f, at[n], reference, texel[n]);
		for (int comp = 0; comp < 4; ++comp) {
			VF sum = hn::Zero(df);
			for (int n = 0; n < 8; ++n) sum = hn::Add(sum, hn::Mul(w[n], texel[n][comp]));
			out[comp] = mixed ? hn::IfThenElse(linear, sum, texel[0][comp]) : sum;
		}
		return;
	}
	VI texel[8];
	for (int n = 0; n < 8; ++n) texel[n] = hn::GatherOffset(di, words, at[n]);
	if (!f.unorm)
		WeightedSum<DecodeMode::kTables, 8>(f, texel, w, out);
	else if (f.fused_division)
		WeightedSum<DecodeMode::kFusedUnorm, 8>(f, texel, w, out);
	else
		WeightedSum<DecodeMode::kDividedUnorm, 8>(f, texel, w, out);
}

// std::max(a, b) (a when they compare equal or b is NaN... as the C++
// library: b where a < b).
VF StdMax(VF a, VF b) { return hn::IfThenElse(hn::Lt(a, b), b, a); }

// The levels of §16 "Image Level(s) Selection" for a vector of lanes
// (SelectLevels): d' = max(clamp(lambda, 0, q), min_level) rounded to 1/256 (to nearest
// even: (x + 2^23) - 2^23 for 0 <= x < 2^23, as nearbyint), NEAREST:
// ceil(d' + 1/2) - 1, LINEAR: floor(d'), min(floor(d') + 1, q) and delta.
struct LevelsVec {
	VI hi, lo;
	VF delta;
};
// d' alone (SelectLevels' first step: the levels depend on lambda only
// through it).
HWY_INLINE VF QuantizedLevel(VF lambda, uint32_t q, float min_level) {
	const DF df;
	const VF qf = hn::Set(df, float(q));
	VF d = hn::IfThenElseZero(hn::Gt(lambda, hn::Zero(df)), hn::IfThenElse(hn::Lt(qf, lambda), qf, lambda));
	if (min_level > 0.0f) d = StdMax(d, hn::Set(df, min_level));
	constexpr float kScale = float(1u << kMipmapPrecisionBits);
	const VF round = hn::Set(df, float(1u << 23));
	return hn::Mul(hn::Sub(hn::Add(hn::Mul(d, hn::Set(df, kScale)), round), round), hn::Set(df, 1.0f / kScale));
}
// The levels and delta of d' (QuantizedLevel).
HWY_INLINE LevelsVec LevelsOf(VF d, uint32_t q, VkSamplerMipmapMode mode) {
	const DF df;
	const DI di;
	if (mode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
		const VF x = hn::Add(d, hn::Set(df, 0.5f));
		VI up = hn::ConvertTo(di, x);  // truncates (x > 0)
		up = hn::Add(up, hn::IfThenElseZero(hn::RebindMask(di, hn::Lt(hn::ConvertTo(df, up), x)), hn::Set(di, 1)));
		const VI level = hn::Sub(up, hn::Set(di, 1));
		return {level, level, hn::Zero(df)};
	}
	const VI hi = hn::ConvertTo(di, d);
	return {hi, hn::Min(hn::Add(hi, hn::Set(di, 1)), hn::Set(di, int32_t(q))), hn::Sub(d, hn::ConvertTo(df, hi))};
}
HWY_INLINE LevelsVec SelectLevels(VF lambda, uint32_t q, VkSamplerMipmapMode mode, float min_level) {
	return LevelsOf(QuantizedLevel(lambda, q, min_level), q, mode);
}

// FilterMipmapped: (1 - delta) tau_hi + delta tau_lo where delta > 0 and the
// levels differ (§16 "Texel Mipmap Filtering"), else tau_hi.
template <class Image>
void FilterMipmapped(const Image& f, const LevelsVec& levels, const LevelVec& hi, const LevelVec& lo, bool need_lo,
                     const TexelOffsets* offsets, VF s, VF t, VF r, MF linear, VF reference, VF out[4]) {
	const DF df;
	const MF blend = hn::And(hn::Gt(levels.delta, hn::Zero(df)), hn::RebindMask(df, hn::Ne(levels.lo, levels.hi)));
	const bool both = need_lo && !hn::AllFalse(df, blend);
	VF low[4];
	if (f.volume) {
		FilterVolume(f, hi, offsets, s, t, r, linear, reference, out);
		if (both) FilterVolume(f, lo, offsets, s, t, r, linear, reference, low);
	} else if (hn::AllFalse(df, linear)) {  // NEAREST: one read a level
		if (f.border) {
			FilterLevel<true>(f, hi, offsets, s, t, linear, reference, out);
			if (both) FilterLevel<true>(f, lo, offsets, s, t, linear, reference, low);
		} else {
			FilterLevel<false>(f, hi, offsets, s, t, linear, reference, out);
			if (both) FilterLevel<false>(f, lo, offsets, s, t, linear, reference, low);
		}
	} else {
		// Both levels' reads, then both sums (LinearTexels).
		LinearTexels high, second;
		if (f.border) {
			GatherLinear<true>(f, hi, offsets, s, t, linear, reference, &high);
			if (both) GatherLinear<true>(f, lo, offsets, s, t, linear, reference, &second);
			SumLinear<true>(f, high, linear, reference, out);
			if (both) SumLinear<true>(f, second, linear, reference, low);
		} else {
			GatherLinear<false>(f, hi, offsets, s, t, linear, reference, &high);
			if (both) GatherLinear<false>(f, lo, offsets, s, t, linear, reference, &second);
			SumLinear<false>(f, high, linear, reference, out);
			if (both) SumLinear<false>(f, second, linear, reference, low);
		}
	}
	if (!both) return;
	const VF keep = hn::Sub(hn::Set(df, 1.0f), levels.delta);
	for (int c = 0; c < 4; ++c)
		out[c] = hn::IfThenElse(blend, hn::Add(hn::Mul(keep, out[c]), hn::Mul(levels.delta, low[c])), out[c]);
}

VF LoadOr(const float* p, size_t lane, VF fallback) { return p ? hn::LoadU(DF(), p + lane) : fallback; }

// log2 from the C library, lane by lane (the generic path's std::log2).
VF Log2(VF x) {
	const DF df;
	alignas(64) float v[kMaxVectorLanes];
	hn::Store(x, df, v);
	for (size_t n = 0; n < hn::Lanes(df); ++n) v[n] = std::log2(v[n]);
	return hn::Load(df, v);
}

// What lambda_base decides, through LodBiasAndClamp, §16 "Texel
// Filtering" (magnified when lambda <= 0) and SelectLevels.
struct LodResult {
	LevelsVec levels;
	MF linear;  // LINEAR filter, else NEAREST
};
struct LodSteps {
	VF clamped_bias, lod_max, lod_min;
	uint32_t q;
	float min_level;
	VkSamplerMipmapMode mipmap_mode;
	bool mag_linear, min_linear;

	// lambda: lambda_base with the bias and the clamps.
	HWY_INLINE VF Lambda(VF lambda_base) const {
		VF lambda = hn::Add(lambda_base, clamped_bias);
		lambda = hn::IfThenElse(hn::Gt(lambda, lod_max), lod_max, lambda);
		return hn::IfThenElse(hn::Ge(lambda, lod_min), lambda, lod_min);
	}
	// The lanes that filter LINEAR at that lambda.
	HWY_INLINE MF Linear(VF lambda) const {
		const DF df;
		const MF magnified = hn::Le(lambda, hn::Zero(df));
		// (Every lane; Ne is an ordered comparison on some targets, false for
		// NaN, so Eq(x, x) or Ne(x, x) would leave out NaN lambdas.)
		const MF all = hn::Eq(hn::Zero(df), hn::Zero(df));
		return mag_linear == min_linear ? (mag_linear ? all : hn::Not(all))
		                                : (mag_linear ? magnified : hn::Not(magnified));
	}
	HWY_INLINE LodResult operator()(VF lambda_base) const {
		const VF lambda = Lambda(lambda_base);
		return {SelectLevels(lambda, q, mipmap_mode, min_level), Linear(lambda)};
	}
};

// log2 of a positive normal float within 2e-7 + ulp/2 (|s| < 0.172: the
// series 2/ln2 (s + s^3/3 + ... + s^9/9) of log2((1 + s) / (1 - s)) leaves
// 1e-9; the float steps a few ulps of |log2 m| <= 1/2).
HWY_INLINE VF ApproxLog2(VF x) {
	const DF df;
	const DI di;
	const VI bits = hn::BitCast(di, x);
	VI e = hn::Sub(hn::ShiftRight<23>(bits), hn::Set(di, 127));
	VF m = hn::BitCast(df, hn::Or(hn::And(bits, hn::Set(di, 0x007fffff)), hn::Set(di, 0x3f800000)));  // [1, 2)
	const MF high = hn::Gt(m, hn::Set(df, 1.41421356f));
	m = hn::IfThenElse(high, hn::Mul(m, hn::Set(df, 0.5f)), m);
	e = hn::Add(e, hn::IfThenElseZero(hn::RebindMask(di, high), hn::Set(di, 1)));
	const VF one = hn::Set(df, 1.0f);
	const VF s = hn::Div(hn::Sub(m, one), hn::Add(m, one)), s2 = hn::Mul(s, s);
	VF p = hn::Set(df, 0.3205988979753252f);
	p = hn::MulAdd(p, s2, hn::Set(df, 0.41219858311113244f));
	p = hn::MulAdd(p, s2, hn::Set(df, 0.5770780163555854f));
	p = hn::MulAdd(p, s2, hn::Set(df, 0.9617966939259756f));
	p = hn::MulAdd(p, s2, hn::Set(df, 2.8853900817779268f));
	return hn::Add(hn::ConvertTo(df, e), hn::Mul(s, p));
}

// steps(log2(x)) with log2 the C library's (the generic path's), without
// calling it for most vectors: the steps are monotonic in lambda_base, and
// the library's log2f is within 1 ulp of log2(x) (glibc: 0.75 ulp), so when
// the steps agree at both ends of [L - E, L + E] around the approximation L
// (E = 1e-6 + 4 ulps, several times both errors) they agree on the library's
// value too. They agree where d' (QuantizedLevel, all the levels and delta
// depend on) and the filter do, so only d' is taken at both ends, the levels
// once. Otherwise (a lambda within E of a level rounding tie or of 0, or x
// zero, subnormal, infinite or NaN) log2f per lane. (Inlined: as a call it
// cost about 50 more instructions a vector, callgrind.)
HWY_INLINE LodResult ResolveLog2(const LodSteps& steps, VF x) {
	const DF df;
	const MF normal = hn::And(hn::Ge(x, hn::Set(df, 1.17549435e-38f)), hn::Lt(x, hn::Set(df, HUGE_VALF)));
	if (HWY_LIKELY(hn::AllTrue(df, normal))) {
		const VF l = ApproxLog2(x);
		const VF e = hn::Add(hn::Set(df, 1e-6f), hn::Mul(hn::Abs(l), hn::Set(df, 1.0f / 2097152.0f)));
		const VF low = steps.Lambda(hn::Sub(l, e)), high = steps.Lambda(hn::Add(l, e));
		const VF d = QuantizedLevel(low, steps.q, steps.min_level);
		const MF linear = steps.Linear(low);
		if (hn::AllTrue(df, hn::Eq(d, QuantizedLevel(high, steps.q, steps.min_level))) &&
		    hn::AllFalse(df, hn::Xor(linear, steps.Linear(high))))
			return {LevelsOf(d, steps.q, steps.mipmap_mode), linear};
	}
	return steps(Log2(x));
}

// QuadDerivatives (sample.cpp) of a vector whose aligned groups of four
// lanes are 2x2 quads (lane 4q + 2y + x; Highway's 128-bit blocks hold one
// each): d/dx = v(1, y) - v(0, y), d/dy = v(x, 1) - v(x, 0).
#if HWY_TARGET == HWY_SCALAR  // one lane: SampleLanesFast writes the arrays out instead
HWY_INLINE VF QuadDx(VF) { return hn::Zero(DF()); }
HWY_INLINE VF QuadDy(VF) { return hn::Zero(DF()); }
#else
HWY_INLINE VF QuadDx(VF v) { return hn::Sub(hn::DupOdd(v), hn::DupEven(v)); }
HWY_INLINE VF QuadDy(VF v) {
	const DF df;
	const hn::Repartition<uint64_t, DF> d64;  // a row of the quad: two floats
	const auto rows = hn::BitCast(d64, v);
	return hn::Sub(hn::BitCast(df, hn::InterleaveUpper(d64, rows, rows)),
	               hn::BitCast(df, hn::InterleaveLower(d64, rows, rows)));
}
#endif

// One level (no view minLod above it), one filter for magnification and
// minification, isotropic: every lambda, NaN too, selects level 0 with
// delta 0 (SelectLevels clamps to [0, q]) and that filter, so neither the
// derivatives nor the LOD need computing (glmark2's and most 2D effects'
// textures through Zink).
HWY_INLINE bool LodFree(const SampledImage& image, const FastImage& f) {
	const bool mag_linear = image.sampler.mag_filter != VK_FILTER_NEAREST,
	           min_linear = image.sampler.min_filter != VK_FILTER_NEAREST;
	return f.q == 0 && f.min_level == 0.0f && !image.anisotropic && mag_linear == min_linear;
}

// One vector of lanes starting at `lane` (all of them valid): the four
// components of each lane's texel. base_level: with LodFree and no layers,
// level 0's parameters, loaded once for all vectors of a call (else null).
template <class Image, class Lanes>
void SampleVector(const SampledImage& image, const Image& f, const Lanes& in, size_t lane, const LevelVec* base_level,
                  VF result[4]) {
	const DF df;
	const DI di;
	const SamplerState& sampler = image.sampler;
	const VF zero = hn::Zero(df);
	VF s = LoadOr(in.coord[0], lane, zero), t = LoadOr(in.coord[1], lane, zero);
	// 3D views: r (ResolveLane's stu[2]).
	const VF r = f.volume ? LoadOr(in.z, lane, zero) : zero;
	const bool mag_linear = sampler.mag_filter != VK_FILTER_NEAREST,
	           min_linear = sampler.min_filter != VK_FILTER_NEAREST;
	const bool lod_free = f.lod_free;
	// The derivatives of (s, t) and, 3D, r (ResolveLane: none unless given;
	// 0 in the third dimension of other views).
	VF dx[3], dy[3];
	if (lod_free) {
		dx[0] = dx[1] = dy[0] = dy[1] = zero;
	} else if (in.quad) {
		dx[0] = QuadDx(s), dx[1] = QuadDx(t);
		dy[0] = QuadDy(s), dy[1] = QuadDy(t);
	} else {
		dx[0] = LoadOr(in.ddx[0], lane, zero), dx[1] = LoadOr(in.ddx[1], lane, zero);
		dy[0] = LoadOr(in.ddy[0], lane, zero), dy[1] = LoadOr(in.ddy[1], lane, zero);
	}
	dx[2] = dy[2] = zero;
	if (f.volume && in.quad && !lod_free)
		dx[2] = QuadDx(r), dy[2] = QuadDy(r);
	else if (f.volume && !lod_free)
		dx[2] = LoadOr(in.ddz[0], lane, zero), dy[2] = LoadOr(in.ddz[1], lane, zero);
	VI face = hn::Zero(di);
	if (f.cube) {  // (s, t) hold the direction's x and y
		const VF z = LoadOr(in.z, lane, zero);
		const CubeLanes c = SelectFaces(s, t, z);
		face = c.face;
		if ((in.ddx[0] || in.quad) && !lod_free) {
			const VF gx[3] = {dx[0], dx[1], in.quad ? QuadDx(z) : LoadOr(in.ddz[0], lane, zero)};
			const VF gy[3] = {dy[0], dy[1], in.quad ? QuadDy(z) : LoadOr(in.ddz[1], lane, zero)};
			FaceDerivatives(c, gx, &dx[0], &dx[1]);
			FaceDerivatives(c, gy, &dy[0], &dy[1]);
		}
		s = c.s, t = c.t;
	}

	// ResolveLane's LOD (§16 "Scale Factor Operation", "Level-of-Detail
	// Operation"): the same operations, ScaleFactors' sums with the third
	// term 0 * 1 (3D views: the r derivatives times the base depth).
	VF lambda_base = zero, log_arg = zero;  // lambda_base = log2(log_arg) without a Lod
	VI aniso_samples = hn::Set(di, 1);
	VF axis[3] = {zero, zero, zero};
	if (in.lod && !lod_free) {
		lambda_base = hn::LoadU(df, in.lod + lane);
	} else if (!lod_free) {
		const VF extent[3] = {hn::Set(df, f.levels->fwidth[0]), hn::Set(df, f.levels->fheight[0]),
		                      hn::Set(df, f.levels->fdepth[0])};
		VF x2 = zero, y2 = zero;
		for (int d = 0; d < 2; ++d) {
			const VF mx = hn::Mul(dx[d], extent[d]), my = hn::Mul(dy[d], extent[d]);
			x2 = hn::Add(x2, hn::Mul(mx, mx));
			y2 = hn::Add(y2, hn::Mul(my, my));
		}
		if (f.volume) {
			const VF mx = hn::Mul(dx[2], extent[2]), my = hn::Mul(dy[2], extent[2]);
			x2 = hn::Add(x2, hn::Mul(mx, mx));
			y2 = hn::Add(y2, hn::Mul(my, my));
		} else {
			x2 = hn::Add(x2, zero);
			y2 = hn::Add(y2, zero);
		}
		if (!image.anisotropic) {
			log_arg = hn::Sqrt(StdMax(x2, y2));  // ScaleFactorMax
		} else {
			// Anisotropy() (sampling_math.cpp), §16 "Texel Anisotropic
			// Filtering": N = ceil(eta) samples along the major axis at
			// lambda_base = log2(rho_max / eta); no footprint or a non-finite
			// one: N = 1, log2(rho_max).
			const VF rho_x = hn::Sqrt(x2), rho_y = hn::Sqrt(y2);
			const MF x_major = hn::Gt(rho_x, rho_y);
			const VF rho_max = hn::IfThenElse(x_major, rho_x, rho_y);
			const VF rho_min = hn::IfThenElse(x_major, rho_y, rho_x);
			const MF footprint = hn::And(hn::Gt(rho_max, zero), hn::Lt(rho_max, hn::Set(df, HUGE_VALF)));
			const VF max_eta = hn::Set(df, std::max(sampler.max_anisotropy, 1.0f));
			const VF ratio = hn::Div(rho_max, rho_min);
			const VF eta =
			    hn::IfThenElse(hn::Gt(rho_min, zero), hn::IfThenElse(hn::Lt(max_eta, ratio), max_eta, ratio), max_eta);
			aniso_samples =
			    hn::IfThenElse(hn::RebindMask(di, footprint), hn::ConvertTo(di, hn::Ceil(eta)), hn::Set(di, 1));
			log_arg = hn::IfThenElse(footprint, hn::Div(rho_max, eta), rho_max);
			for (int d = 0; d < 3; ++d) axis[d] = hn::IfThenElse(x_major, dx[d], dy[d]);
		}
	}
	// LodBiasAndClamp: lambda_base + clamp(bias, +-maxSamplerLodBias) (fmin
	// and fmax: a NaN bias gives -max), then min(lod_max), then lod_min
	// where not >= (NaN -> lod_min); then the filter and the levels.
	const VF bias = hn::Add(hn::Set(df, sampler.mip_lod_bias), LoadOr(in.bias, lane, zero));
	const VF max_bias = hn::Set(df, kMaxSamplerLodBias);
	VF clamped = hn::IfThenElse(hn::Gt(bias, hn::Neg(max_bias)), bias, hn::Neg(max_bias));
	clamped = hn::IfThenElse(hn::Lt(clamped, max_bias), clamped, max_bias);
	const VF lod_max = hn::Set(df, sampler.max_lod);
	const VF lod_min_sampler = hn::Set(df, sampler.min_lod);
	const VF lod_min = in.min_lod ? StdMax(lod_min_sampler, hn::LoadU(df, in.min_lod + lane)) : lod_min_sampler;
	// (FilterLevel reads any filter other than NEAREST as LINEAR.)
	const LodSteps steps{clamped, lod_max, lod_min, f.q, f.min_level, sampler.mipmap_mode, mag_linear, min_linear};
	const MF all = hn::Eq(zero, zero);
	const LodResult lod = lod_free ? LodResult{{hn::Zero(di), hn::Zero(di), zero}, mag_linear ? all : hn::Not(all)}
	                      : in.lod ? steps(lambda_base)
	                               : ResolveLog2(steps, log_arg);
	const LevelsVec& levels = lod.levels;
	const MF linear = lod.linear;
	// The second level only for LINEAR mipmapping (a LevelVec is over a
	// kilobyte of vectors: not copied when it is the first), the first from
	// base_level where the call loaded it.
	LevelVec first, second;
	if (!base_level) first = LoadLevels(f, levels.hi);
	const bool need_lo = sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR && f.q > 0;
	if (need_lo) second = LoadLevels(f, levels.lo);
	if (f.arrayed || f.cube) {  // (no base_level)
		VI layer = f.arrayed ? ArrayLayers(LoadOr(in.layer, lane, zero), f.layer_count) : hn::Zero(di);
		if (f.cube) layer = hn::Add(hn::Mul(layer, hn::Set(di, 6)), face);
		AddLayer(f, levels.hi, layer, &first);
		first.face = face;
		if (need_lo) {
			AddLayer(f, levels.lo, layer, &second);
			second.face = face;
		}
	}
	TexelOffsets texel_offsets;
	if (f.offsets)
		for (int d = 0; d < 3; ++d)
			texel_offsets.d[d] = in.offset[d] ? hn::LoadU(di, in.offset[d] + lane) : hn::Zero(di);
	const TexelOffsets* offsets = f.offsets ? &texel_offsets : nullptr;
	const LevelVec& hi = base_level ? *base_level : first;
	const LevelVec& lo = need_lo ? second : hi;

	// SampleGeneric's reference: Dref, clamped to [0, 1] for UNORM depth
	// (std::clamp: NaN stays NaN).
	VF reference = zero;
	if (f.compare) {
		reference = hn::LoadU(df, in.dref + lane);
		if (f.clamp_reference) {
			const VF one_f = hn::Set(df, 1.0f);
			reference = hn::IfThenElse(hn::Lt(reference, zero), zero,
			                           hn::IfThenElse(hn::Lt(one_f, reference), one_f, reference));
		}
	}

	const VI one = hn::Set(di, 1);
	if (hn::AllTrue(di, hn::Lt(aniso_samples, hn::Set(di, 2)))) {  // (no int Le in Highway 1.0)
		FilterMipmapped(f, levels, hi, lo, need_lo, offsets, s, t, r, linear, reference, result);
	} else {
		// §16 "Texel Anisotropic Filtering": the mean of N isotropic lookups
		// at (x - 1/2 + i / (N + 1)) along the major axis; lanes with N = 1
		// take their one lookup at (s, t).
		const int32_t most = hn::GetLane(hn::MaxOfLanes(di, aniso_samples));
		const auto spread = hn::RebindMask(df, hn::Gt(aniso_samples, one));
		const VF n_plus_1 = hn::ConvertTo(df, hn::Add(aniso_samples, one));
		VF single[4];  // the lookup of the lanes with N = 1, as it comes
		for (int c = 0; c < 4; ++c) result[c] = zero;
		for (int32_t i = 1; i <= most; ++i) {
			const auto active = hn::RebindMask(df, hn::Gt(aniso_samples, hn::Set(di, i - 1)));  // i <= N
			const VF at = hn::Sub(hn::Div(hn::Set(df, float(i)), n_plus_1), hn::Set(df, 0.5f));
			const VF ss = hn::IfThenElse(hn::And(active, spread), hn::Add(s, hn::Mul(at, axis[0])), s);
			const VF tt = hn::IfThenElse(hn::And(active, spread), hn::Add(t, hn::Mul(at, axis[1])), t);
			const VF rr = hn::IfThenElse(hn::And(active, spread), hn::Add(r, hn::Mul(at, axis[2])), r);
			VF one_lookup[4];
			FilterMipmapped(f, levels, hi, lo, need_lo, offsets, ss, tt, rr, linear, reference, one_lookup);
			for (int c = 0; c < 4; ++c)
				result[c] = hn::IfThenElse(active, hn::Add(result[c], one_lookup[c]), result[c]);
			if (i == 1)
				for (int c = 0; c < 4; ++c) single[c] = one_lookup[c];
		}
		// N = 1 lanes keep their one lookup (0 + v would turn a NEAREST -0
		// into +0).
		const VF scale = hn::Div(hn::Set(df, 1.0f), hn::ConvertTo(df, aniso_samples));
		for (int c = 0; c < 4; ++c) result[c] = hn::IfThenElse(spread, hn::Mul(result[c], scale), single[c]);
	}
}

// §16 "Component Swizzle" of the view, applied to the filtered result as
// SampleGeneric applies it (Swizzle, sample.cpp): each output component is
// one of the result's, or ZERO (+0) or ONE (image.one's bits).
HWY_INLINE void SwizzleResult(const SampledImage& image, VF result[4]) {
	if (image.identity_swizzle) return;
	const DF df;
	const DI di;
	const VF in[4] = {result[0], result[1], result[2], result[3]};
	for (int c = 0; c < 4; ++c) {
		const uint8_t s = image.swizzle[c];
		result[c] = s < 4 ? in[s] : s == 5 ? hn::BitCast(df, hn::Set(di, int32_t(image.one.u[c]))) : hn::Zero(df);
	}
}

// A whole vector's results swizzled and stored at `lane`: into the
// component arrays when given, else into the texels.
HWY_INLINE void StoreResult(const SampledImage& image, VF result[4], size_t lane, TexelValue* out,
                            float* const* components) {
	const DF df;
	SwizzleResult(image, result);
	if (components)
		for (int c = 0; c < 4; ++c) hn::StoreU(result[c], df, components[c] + lane);
	else
		hn::StoreInterleaved4(result[0], result[1], result[2], result[3], df, out[lane].f);
}

// The usual 2D texture (PlainPlane): a 2D view of one level (LodFree),
// four 8-bit components, no border, in rows of texels. Every vector reads
// level 0 with one filter, so one loop keeps the level's parameters in
// registers and does FilterLevel's NEAREST or LINEAR steps for this case,
// the swizzle and the stores, where the general loop calls SampleVector,
// FilterMipmapped, FilterLevel, ReadTexels and Decode for each vector and
// re-decides the image's state in each (a 5x3 convolution, glmark2's
// effect2d, is fifteen lookups a pixel, and spent more time in those calls
// than in its gathers). The same operations in the same order as
// FilterLevel: the same bits.
HWY_INLINE bool PlainPlane(const FastImage& f) {
	return f.lod_free && !f.arrayed && !f.cube && !f.volume && !f.channels.on && !f.half && !f.float32 && !f.border &&
	       !f.compare && !f.levels->tiled && f.levels->element_shift == 2;
}

// Samples the whole vectors of `count` lanes of a PlainPlane view, with the
// one filter LodFree leaves; returns how many lanes it did.
template <bool kLinear, DecodeMode kMode>
HWY_NOINLINE size_t SamplePlane(const SampledImage& image, const FastImage& f, const FastLanes& in, size_t count,
                                TexelValue* out, float* const* components) {
	const DF df;
	const DI di;
	const size_t n = hn::Lanes(df);
	const FastLevels& levels = *f.levels;
	const int32_t* words = reinterpret_cast<const int32_t*>(levels.origin);
	const VI base = hn::Set(di, levels.offset[0]), row_pitch = hn::Set(di, levels.row_pitch[0]);
	const VI width = hn::Set(di, levels.width[0]), height = hn::Set(di, levels.height[0]);
	const VI width_mask = hn::Set(di, levels.width_mask[0]), height_mask = hn::Set(di, levels.height_mask[0]);
	const VF fwidth = hn::Set(df, levels.fwidth[0]), fheight = hn::Set(df, levels.fheight[0]);
	const VkSamplerAddressMode mode_u = f.address[0], mode_v = f.address[1];
	const bool pow2_u = levels.pow2[0], pow2_v = levels.pow2[1];
	const VF zero = hn::Zero(df);
	const VI one = hn::Set(di, 1), four = hn::Set(di, 4);
	size_t lane = 0;
	for (; lane + n <= count; lane += n) {
		const VF u = hn::Mul(LoadOr(in.coord[0], lane, zero), fwidth);
		const VF v = hn::Mul(LoadOr(in.coord[1], lane, zero), fheight);
		const VI offset_i = in.offset[0] ? hn::LoadU(di, in.offset[0] + lane) : hn::Zero(di);
		const VI offset_j = in.offset[1] ? hn::LoadU(di, in.offset[1] + lane) : hn::Zero(di);
		VF result[4];
		if constexpr (!kLinear) {
			const VI i = Wrap(hn::Add(NearestCoordinates(u), offset_i), width, width_mask, mode_u, pow2_u);
			const VI j = Wrap(hn::Add(NearestCoordinates(v), offset_j), height, height_mask, mode_v, pow2_v);
			const VI at = hn::Add(hn::Add(base, hn::Mul(j, row_pitch)), hn::ShiftLeft<2>(i));
			DecodeAs<kMode>(f, hn::GatherOffset(di, words, at), result);
		} else {
			VI i0, j0;
			VF a, b;
			LinearCoordinates(u, &i0, &a);
			LinearCoordinates(v, &j0, &b);
			i0 = hn::Add(i0, offset_i);
			j0 = hn::Add(j0, offset_j);
			const VF k1 = hn::Set(df, 1.0f);
			const VF na = hn::Sub(k1, a), nb = hn::Sub(k1, b);
			const VF w[4] = {hn::Mul(na, nb), hn::Mul(a, nb), hn::Mul(na, b), hn::Mul(a, b)};
			const VI i1 = Wrap(hn::Add(i0, one), width, width_mask, mode_u, pow2_u);
			const VI j1 = Wrap(hn::Add(j0, one), height, height_mask, mode_v, pow2_v);
			i0 = Wrap(i0, width, width_mask, mode_u, pow2_u);
			j0 = Wrap(j0, height, height_mask, mode_v, pow2_v);
			const VI row0 = hn::Add(base, hn::Mul(j0, row_pitch)), row1 = hn::Add(base, hn::Mul(j1, row_pitch));
			const VI col0 = hn::ShiftLeft<2>(i0), col1 = hn::ShiftLeft<2>(i1);
			VI texel[4];
			if (hn::AllTrue(di, hn::Eq(col1, hn::Add(col0, four)))) {  // adjacent texels: one 64-bit gather a row
				GatherPairs(levels.origin, hn::Add(row0, col0), &texel[0], &texel[1]);
				GatherPairs(levels.origin, hn::Add(row1, col0), &texel[2], &texel[3]);
			} else {
				texel[0] = hn::GatherOffset(di, words, hn::Add(row0, col0));
				texel[1] = hn::GatherOffset(di, words, hn::Add(row0, col1));
				texel[2] = hn::GatherOffset(di, words, hn::Add(row1, col0));
				texel[3] = hn::GatherOffset(di, words, hn::Add(row1, col1));
			}
			WeightedSum<kMode>(f, texel, w, result);
		}
		StoreResult(image, result, lane, out, components);
	}
	return lane;
}

template <bool kLinear>
size_t SamplePlaneIn(const SampledImage& image, const FastImage& f, const FastLanes& in, size_t count, TexelValue* out,
                     float* const* components) {
	if (!f.unorm) return SamplePlane<kLinear, DecodeMode::kTables>(image, f, in, count, out, components);
	if (f.fused_division) return SamplePlane<kLinear, DecodeMode::kFusedUnorm>(image, f, in, count, out, components);
	return SamplePlane<kLinear, DecodeMode::kDividedUnorm>(image, f, in, count, out, components);
}

// The 4-byte texels at byte offsets `at` from origin, when they lie in a
// row of the image (a workgroup's row of invocations reading its row of
// texels): one load, or two for vectors that hold two rows of half their
// width. Returns false, reading nothing, otherwise.
HWY_INLINE bool LoadRow(const uint8_t* origin, VI at, VI* words) {
	const DI di;
	const VI step = hn::ShiftLeft<2>(hn::Iota(di, 0));
	const int32_t first_at = hn::GetLane(at);
	if (hn::AllTrue(di, hn::Eq(at, hn::Add(hn::Set(di, first_at), step)))) {
		*words = hn::LoadU(di, reinterpret_cast<const int32_t*>(origin + first_at));
		return true;
	}
#if HWY_TARGET != HWY_SCALAR
	if (hn::Lanes(di) >= 8) {
		const hn::Half<DI> dh;
		const auto lo = hn::LowerHalf(dh, at), hi = hn::UpperHalf(dh, at);
		const auto half_step = hn::LowerHalf(dh, step);
		const int32_t lo_at = hn::GetLane(lo), hi_at = hn::GetLane(hi);
		if (hn::AllTrue(dh, hn::Eq(lo, hn::Add(hn::Set(dh, lo_at), half_step))) &&
		    hn::AllTrue(dh, hn::Eq(hi, hn::Add(hn::Set(dh, hi_at), half_step)))) {
			*words = hn::Combine(di, hn::LoadU(dh, reinterpret_cast<const int32_t*>(origin + hi_at)),
			                     hn::LoadU(dh, reinterpret_cast<const int32_t*>(origin + lo_at)));
			return true;
		}
	}
#endif
	return false;
}

// Four UNORM bytes R, G, B, A of each lane's word w as Decode divides
// them; lanes outside get image.out_of_bounds.
HWY_INLINE void DecodeRgba8(const SampledImage& image, VI w, hn::Mask<DI> inside, bool fused, VI out[4]) {
	const DI di;
	const DF df;
	for (int c = 0; c < 4; ++c) {
		const VI byte = hn::And(hn::ShiftRightSame(w, 8 * c), hn::Set(di, 0xff));
		out[c] = hn::IfThenElse(inside, hn::BitCast(di, Unorm8(hn::ConvertTo(df, byte), fused)),
		                        hn::Set(di, int32_t(image.out_of_bounds.u[c])));
	}
}

// Fetch (sample.cpp) of the vector of lanes from `lane`: OpImageFetch and
// OpImageRead of a single-sampled view whose texels (4 to 16 bytes) the
// reader `reader` reads, with Fetch's checks of level, sample, layer and
// coordinates (a coordinate plus offset past 32 bits is outside, as Fetch's
// 64-bit sum is), the reader's values, the swizzle, and
// image.out_of_bounds for lanes outside. Each component is read as the
// 32-bit word of the texel that holds it (FetchFast checks the layout).
// UNORM bytes (`unorm`: their decode table holds b / 255) are divided as
// Decode divides them (fused: FusedDivisionExact) rather than looked up.
struct FetchFormat {
	FetchReader reader;
	bool unorm[4];
	bool fused;
	// Four UNORM bytes R, G, B, A in that order, in slots 0-3, no swizzle
	// (RGBA8 storage images and texel buffers): one word, unrolled.
	bool rgba8;
};
HWY_INLINE void FetchVector(const SampledImage& image, const FastLevels& lv, const FetchFormat& format,
                            const FetchLanes& lanes, size_t lane, VI out[4]) {
	const DI di;
	const DF df;
	const hn::RebindToUnsigned<DI> du;
	auto load = [&](const int32_t* p) { return p ? hn::LoadU(di, p + lane) : hn::Zero(di); };
	auto below = [&](VI v, uint32_t bound) {  // 0 <= v < bound
		return hn::RebindMask(di, hn::Lt(hn::BitCast(du, v), hn::Set(du, bound)));
	};
	const uint32_t dims = image.dimensions;
	const VI lod = load(lanes.lod);
	auto inside = hn::AndNot(hn::Lt(lod, hn::Set(di, int32_t(image.min_level_integer))), below(lod, image.level_count));
	inside = hn::And(inside, below(load(lanes.sample), image.samples));
	VI layer = hn::Zero(di);
	if ((image.arrayed || image.cube) && lanes.coord[dims]) {
		layer = load(lanes.coord[dims]);
		inside = hn::And(inside, below(layer, image.cube ? image.layer_count * 6 : image.layer_count));
	}
	// The lane's level (level 0 outside), its parameters.
	const VI level = hn::IfThenElseZero(inside, lod);
	const int32_t first = hn::GetLane(level);
	const bool one_level = hn::AllTrue(di, hn::Eq(level, hn::Set(di, first)));
	auto param = [&](const int32_t* array) {
		return one_level ? hn::Set(di, array[first]) : hn::GatherIndex(di, array, level);
	};
	const VI extent[3] = {param(lv.width), param(lv.height), param(lv.depth)};
	VI ijk[3] = {hn::Zero(di), hn::Zero(di), hn::Zero(di)};
	for (uint32_t d = 0; d < dims; ++d) {
		const VI c = load(lanes.coord[d]), o = load(lanes.offset[d]);
		const VI sum = hn::Add(c, o);  // (wraps: an overflow has the sign of neither operand)
		const auto overflow = hn::Lt(hn::And(hn::Xor(c, sum), hn::Xor(o, sum)), hn::Zero(di));
		const auto in_level = hn::RebindMask(di, hn::Lt(hn::BitCast(du, sum), hn::BitCast(du, extent[d])));
		inside = hn::And(inside, hn::AndNot(overflow, in_level));
		ijk[d] = sum;
	}
	LevelVec l;
	l.row_pitch = param(lv.row_pitch);
	l.tile_shift = lv.tiled ? param(lv.tile_shift) : hn::Zero(di);
	const int shift = lv.element_shift;
	VI at = hn::Add(param(lv.offset), hn::Mul(layer, param(lv.array_pitch)));
	if (dims == 3) at = hn::Add(at, hn::Mul(ijk[2], param(lv.depth_pitch)));
	at = hn::Add(at, hn::Add(RowOffset(l, ijk[1], lv.tiled, shift), ColumnOffset(l, ijk[0], lv.tiled, shift)));
	at = hn::IfThenElseZero(inside, at);  // (lanes outside read the first texel, and keep out_of_bounds)
	VI v[4];
	for (int c = 0; c < 4; ++c) v[c] = hn::Set(di, int32_t(image.defaults.u[c]));
	VI words[4];  // the texel's 32-bit words, each gathered once
	uint32_t gathered = 0;
	if (lv.element_shift == 2 && hn::AllTrue(di, inside) && LoadRow(lv.origin, at, &words[0])) gathered = 1;
	if (format.rgba8) {
		const VI w = gathered ? words[0] : hn::GatherOffset(di, reinterpret_cast<const int32_t*>(lv.origin), at);
		DecodeRgba8(image, w, inside, format.fused, out);
		return;
	}
	for (uint32_t c = 0; c < image.component_count; ++c) {
		const uint32_t offset = image.component_offset[c], index = offset / 4;
		if (!(gathered >> index & 1u)) {
			words[index] = hn::GatherOffset(di, reinterpret_cast<const int32_t*>(lv.origin + 4 * index), at);
			gathered |= 1u << index;
		}
		const VI w = words[index];
		const int bits = int(8 * (offset & 3u));
		VI value = w;
		if (format.reader == FetchReader::kBytes) {
			const VI byte = hn::And(hn::ShiftRightSame(w, bits), hn::Set(di, 0xff));
			value = format.unorm[c] ? hn::BitCast(di, Unorm8(hn::ConvertTo(df, byte), format.fused))
			                        : hn::BitCast(di, hn::GatherIndex(df, image.component_table[c], byte));
		} else if (format.reader == FetchReader::kHalves) {
			value = hn::BitCast(di, HalfToFloat(hn::And(hn::ShiftRightSame(w, bits), hn::Set(di, 0xffff))));
		}
		v[image.component_slot[c]] = value;
	}
	for (int c = 0; c < 4; ++c) {
		const uint8_t s = image.identity_swizzle ? uint8_t(c) : image.swizzle[c];
		const VI swizzled = s < 4 ? v[s] : s == 5 ? hn::Set(di, int32_t(image.one.u[c])) : hn::Zero(di);
		out[c] = hn::IfThenElse(inside, swizzled, hn::Set(di, int32_t(image.out_of_bounds.u[c])));
	}
}

// A fetched vector's results at `lane`: into the component arrays when
// given, else into the texels.
HWY_INLINE void StoreFetched(const VI result[4], size_t lane, TexelValue* out, uint32_t* const* components) {
	const DI di;
	if (components)
		for (int c = 0; c < 4; ++c) hn::StoreU(result[c], di, reinterpret_cast<int32_t*>(components[c] + lane));
	else
		hn::StoreInterleaved4(result[0], result[1], result[2], result[3], di, reinterpret_cast<int32_t*>(out[lane].u));
}

// The usual image load (RowsOfRgba8): an RGBA8 storage image or texel
// buffer, 1D or 2D, not arrayed, in rows of texels, read at level 0 with
// no offsets or samples (imageLoad of a filter, texelFetch of a buffer).
// One loop keeps level 0's parameters in registers and does FetchVector's
// checks, reads and decode for this case, where FetchVector re-decides the
// view's layout, level and format in every vector: the same values. A
// vector that names another level goes through FetchVector.
HWY_INLINE bool RowsOfRgba8(const SampledImage& image, const FastLevels& lv, const FetchFormat& format,
                            const FetchLanes& lanes) {
	return format.rgba8 && !lv.tiled && lv.element_shift == 2 && image.dimensions <= 2 && !image.arrayed &&
	       !image.cube && image.min_level_integer == 0 && !lanes.sample && !lanes.offset[0] && !lanes.offset[1];
}

// Fetches the whole vectors of lanes.count lanes of a RowsOfRgba8 view;
// returns how many lanes it did.
template <bool kFused>
HWY_NOINLINE size_t FetchRgba8Rows(const SampledImage& image, const FastLevels& lv, const FetchFormat& format,
                                   const FetchLanes& lanes, TexelValue* out, uint32_t* const* components) {
	const DI di;
	const hn::RebindToUnsigned<DI> du;
	const size_t n = hn::Lanes(di);
	const int32_t* const x = lanes.coord[0];
	const int32_t* const y = image.dimensions == 2 ? lanes.coord[1] : nullptr;
	const auto width = hn::Set(du, uint32_t(lv.width[0])), height = hn::Set(du, uint32_t(lv.height[0]));
	const VI base = hn::Set(di, lv.offset[0]), row_pitch = hn::Set(di, lv.row_pitch[0]);
	const VI zero = hn::Zero(di);
	const int32_t* const words = reinterpret_cast<const int32_t*>(lv.origin);
	VI result[4];
	size_t lane = 0;
	for (; lane + n <= lanes.count; lane += n) {
		if (lanes.lod && !hn::AllTrue(di, hn::Eq(hn::LoadU(di, lanes.lod + lane), zero))) {
			FetchVector(image, lv, format, lanes, lane, result);
		} else {
			const VI i = x ? hn::LoadU(di, x + lane) : zero, j = y ? hn::LoadU(di, y + lane) : zero;
			const auto inside =
			    hn::RebindMask(di, hn::And(hn::Lt(hn::BitCast(du, i), width), hn::Lt(hn::BitCast(du, j), height)));
			const VI at =
			    hn::IfThenElseZero(inside, hn::Add(hn::Add(base, hn::Mul(j, row_pitch)), hn::ShiftLeft<2>(i)));
			VI w;
			if (!(hn::AllTrue(di, inside) && LoadRow(lv.origin, at, &w))) w = hn::GatherOffset(di, words, at);
			DecodeRgba8(image, w, inside, kFused, result);
		}
		StoreFetched(result, lane, out, components);
	}
	return lane;
}

}  // namespace

// The kind of CommonImage a call's lookups are, or kNone (cubes: color
// texels, and CLAMP_TO_EDGE as a seamless cube always is).
CommonKind CommonLookup(const SampledImage& image, const FastImage& f, const FastLanes& in) {
	constexpr VkSamplerAddressMode kClamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	if (f.volume || f.arrayed || f.border || f.offsets || f.lod_free || f.float32 || !in.quad || in.layer ||
	    (in.z && !f.cube) || in.lod || in.bias || in.min_lod || image.anisotropic ||
	    (f.cube && (f.compare || f.address[0] != kClamp || f.address[1] != kClamp)))
		return CommonKind::kNone;
	if (f.unorm && f.fused_division && !f.half && !f.channels.on && !f.compare) return CommonKind::kUnorm8;
	if (f.half && !f.unorm && !f.channels.on && !f.compare) return CommonKind::kHalf;
	if (f.channels.on && f.compare && !f.unorm && !f.half) return CommonKind::kDepthCompare;
	return CommonKind::kNone;
}

// SampleLanesFast's loop over the whole vectors from lane `first`; returns
// the first lane not done.
template <class Image, class Lanes>
HWY_NOINLINE size_t SampleVectors(const SampledImage& image, const Image& f, const Lanes& in, size_t first,
                                  size_t count, const LevelVec* base_level, TexelValue* out, float* const* components) {
	const DF df;
	const size_t n = hn::Lanes(df);
	VF result[4];
	size_t lane = first;
	for (; lane + n <= count; lane += n) {
		SampleVector(image, f, in, lane, base_level, result);
		StoreResult(image, result, lane, out, components);
	}
	return lane;
}

// Samples lanes.count lanes into out (texels) or, when components is not
// null, into components[c][lane].
void SampleLanesFast(const SampledImage& image, FastImage& f, const SampleLanes& lanes, TexelValue* out,
                     float* const* components) {
	const DF df;
	f.fused_division = FusedDivisionExact();
	const size_t n = hn::Lanes(df);
	FastLanes in;
	in.coord[0] = lanes.coord[0], in.coord[1] = lanes.coord[1];
	if (f.cube || f.volume) in.z = lanes.coord[2];
	if (f.arrayed) in.layer = lanes.coord[f.cube ? 3 : 2];
	std::vector<float> derivative_arrays;
	if (lanes.lod) {
		in.lod = lanes.lod;
	} else if (lanes.quad_derivatives && n >= 4) {
		in.quad = true;
	} else if (lanes.quad_derivatives) {
		// Vectors narrower than a quad (HWY_SCALAR): the arrays, as the generic path reads them.
		derivative_arrays.resize(size_t(6) * lanes.count);
		float* d = derivative_arrays.data();
		const float* coords[3] = {in.coord[0], in.coord[1], in.z};
		const float** ddx[3] = {&in.ddx[0], &in.ddx[1], &in.ddz[0]};
		const float** ddy[3] = {&in.ddy[0], &in.ddy[1], &in.ddz[1]};
		for (int c = 0; c < (f.cube || f.volume ? 3 : 2); ++c) {
			float* dx = d + size_t(2 * c) * lanes.count;
			float* dy = dx + lanes.count;
			QuadDerivatives(coords[c], lanes.count, dx, dy);
			*ddx[c] = dx, *ddy[c] = dy;
		}
	} else if (lanes.ddx[0]) {  // derivatives (ResolveLane: none unless ddx[0])
		for (int d = 0; d < 2; ++d) in.ddx[d] = lanes.ddx[d], in.ddy[d] = lanes.ddy[d];
		if (f.cube || f.volume) in.ddz[0] = lanes.ddx[2], in.ddz[1] = lanes.ddy[2];
	}
	in.bias = lanes.bias;
	in.min_lod = lanes.min_lod;
	if (f.compare) in.dref = lanes.dref;
	for (int d = 0; d < 3; ++d) in.offset[d] = lanes.offset[d];
	LevelVec level0;
	const LevelVec* base_level = nullptr;
	f.lod_free = LodFree(image, f);
	if (f.lod_free && !f.arrayed && !f.cube) {
		level0 = LoadLevels(f, hn::Zero(DI()));
		base_level = &level0;
	}
	VF result[4];
	size_t lane = 0;
	if (base_level && PlainPlane(f))
		lane = image.sampler.mag_filter != VK_FILTER_NEAREST
		           ? SamplePlaneIn<true>(image, f, in, lanes.count, out, components)
		           : SamplePlaneIn<false>(image, f, in, lanes.count, out, components);
	const CommonKind common = lane != 0 || base_level ? CommonKind::kNone : CommonLookup(image, f, in);
	const bool repeat = f.address[0] == VK_SAMPLER_ADDRESS_MODE_REPEAT &&
	                    f.address[1] == VK_SAMPLER_ADDRESS_MODE_REPEAT && f.pow2(0) && f.pow2(1);
	const bool clamp =
	    f.address[0] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE && f.address[1] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	constexpr VkSamplerAddressMode kRepeat = VK_SAMPLER_ADDRESS_MODE_REPEAT,
	                               kClamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	const CommonLanes common_lanes(in);
	auto run = [&](const auto& common_image) {
		return SampleVectors(image, common_image, common_lanes, lane, lanes.count, nullptr, out, components);
	};
	auto run_cube = [&](const auto& common_image) {
		return SampleVectors(image, common_image, CommonCubeLanes(in), lane, lanes.count, nullptr, out, components);
	};
	if (f.cube && common == CommonKind::kUnorm8)
		lane = run_cube(CommonImage<CommonKind::kUnorm8, kClamp, true>(f));
	else if (f.cube && common == CommonKind::kHalf)
		lane = run_cube(CommonImage<CommonKind::kHalf, kClamp, true>(f));
	else if (common == CommonKind::kUnorm8 && repeat)
		lane = run(CommonImage<CommonKind::kUnorm8, kRepeat>(f));
	else if (common == CommonKind::kUnorm8 && clamp)
		lane = run(CommonImage<CommonKind::kUnorm8, kClamp>(f));
	else if (common == CommonKind::kHalf && repeat)
		lane = run(CommonImage<CommonKind::kHalf, kRepeat>(f));
	else if (common == CommonKind::kHalf && clamp)
		lane = run(CommonImage<CommonKind::kHalf, kClamp>(f));
	else if (common == CommonKind::kDepthCompare && repeat)
		lane = run(CommonImage<CommonKind::kDepthCompare, kRepeat>(f));
	else if (common == CommonKind::kDepthCompare && clamp)
		lane = run(CommonImage<CommonKind::kDepthCompare, kClamp>(f));
	else
		lane = SampleVectors(image, f, in, lane, lanes.count, base_level, out, components);
	if (lane == lanes.count) return;
	// The last lanes: their operands copied into a full vector (0 beyond;
	// whole quads stay whole, as lane is a multiple of the vector size).
	const size_t rest = lanes.count - lane;
	constexpr int kFields = 14;
	alignas(64) float operands[kFields][kMaxVectorLanes] = {};
	const float** fields[kFields] = {&in.coord[0], &in.coord[1], &in.layer,   &in.z,      &in.lod,
	                                 &in.ddx[0],   &in.ddx[1],   &in.ddy[0],  &in.ddy[1], &in.ddz[0],
	                                 &in.ddz[1],   &in.bias,     &in.min_lod, &in.dref};
	for (int k = 0; k < kFields; ++k)
		if (*fields[k]) {
			std::memcpy(operands[k], *fields[k] + lane, rest * sizeof(float));
			*fields[k] = operands[k];
		}
	alignas(64) int32_t offsets[3][kMaxVectorLanes] = {};
	for (int d = 0; d < 3; ++d)
		if (in.offset[d]) {
			std::memcpy(offsets[d], in.offset[d] + lane, rest * sizeof(int32_t));
			in.offset[d] = offsets[d];
		}
	SampleVector(image, f, in, 0, base_level, result);
	SwizzleResult(image, result);
	alignas(64) float texels[4 * kMaxVectorLanes];
	if (components) {
		for (int c = 0; c < 4; ++c) {
			hn::Store(result[c], df, texels);
			std::memcpy(components[c] + lane, texels, rest * sizeof(float));
		}
		return;
	}
	hn::StoreInterleaved4(result[0], result[1], result[2], result[3], df, texels);
	std::memcpy(out + lane, texels, rest * sizeof(TexelValue));
}

// Fetches lanes.count lanes into out (texels) or, when components is not
// null, into components[c][lane] (FetchVector).
void FetchLanesFast(const SampledImage& image, const FastLevels& levels, FetchReader reader, const FetchLanes& lanes,
                    TexelValue* out, uint32_t* const* components) {
	const DI di;
	const size_t n = hn::Lanes(di);
	FetchFormat format{reader, {}, FusedDivisionExact(), false};
	for (uint32_t c = 0; c < image.component_count && reader == FetchReader::kBytes; ++c)
		format.unorm[c] = DividesBy255(image.component_table[c]);
	format.rgba8 = reader == FetchReader::kBytes && image.component_count == 4 && image.identity_swizzle;
	for (uint32_t c = 0; c < 4 && format.rgba8; ++c)
		format.rgba8 = format.unorm[c] && image.component_offset[c] == c && image.component_slot[c] == c;
	VI result[4];
	size_t lane = 0;
	if (RowsOfRgba8(image, levels, format, lanes))
		lane = format.fused ? FetchRgba8Rows<true>(image, levels, format, lanes, out, components)
		                    : FetchRgba8Rows<false>(image, levels, format, lanes, out, components);
	for (; lane + n <= lanes.count; lane += n) {
		FetchVector(image, levels, format, lanes, lane, result);
		StoreFetched(result, lane, out, components);
	}
	if (lane == lanes.count) return;
	// The last lanes: their operands copied into a full vector (0 beyond).
	const size_t rest = lanes.count - lane;
	alignas(64) int32_t operands[9][kMaxVectorLanes] = {};
	FetchLanes last;
	const int32_t* const fields[9] = {lanes.coord[0], lanes.coord[1],  lanes.coord[2],  lanes.coord[3], lanes.lod,
	                                  lanes.sample,   lanes.offset[0], lanes.offset[1], lanes.offset[2]};
	const int32_t** const copies[9] = {&last.coord[0], &last.coord[1],  &last.coord[2],  &last.coord[3], &last.lod,
	                                   &last.sample,   &last.offset[0], &last.offset[1], &last.offset[2]};
	for (int k = 0; k < 9; ++k)
		if (fields[k]) {
			std::memcpy(operands[k], fields[k] + lane, rest * sizeof(int32_t));
			*copies[k] = operands[k];
		}
	last.count = uint32_t(n);
	FetchVector(image, levels, format, last, 0, result);
	alignas(64) int32_t texels[4 * kMaxVectorLanes];
	if (components) {
		for (int c = 0; c < 4; ++c) {
			hn::Store(result[c], di, texels);
			std::memcpy(components[c] + lane, texels, rest * sizeof(uint32_t));
		}
		return;
	}
	hn::StoreInterleaved4(result[0], result[1], result[2], result[3], di, texels);
	std::memcpy(out + lane, texels, rest * sizeof(TexelValue));
}

}  // namespace HWY_NAMESPACE
}  // namespace tessera::texture::fast
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::texture {
namespace fast {
HWY_EXPORT(SampleLanesFast);
HWY_EXPORT(FetchLanesFast);

bool Sample(const SampledImage& image, const SampleLanes& lanes, TexelValue* out, float* const* components) {
	FastImage f;
	if (!PrepareFast(image, lanes, &f)) return false;
	HWY_DYNAMIC_DISPATCH(SampleLanesFast)(image, f, lanes, out, components);  // (sets f.fused_division)
	return true;
}

bool Fetch(const SampledImage& image, FetchReader reader, const FetchLanes& lanes, TexelValue* out,
           uint32_t* const* components) {
	const FastLevels* levels = PreparedLevels(image);
	if (!levels->ok) return false;
	HWY_DYNAMIC_DISPATCH(FetchLanesFast)(image, *levels, reader, lanes, out, components);
	return true;
}
}  // namespace fast

bool FetchFast(const SampledImage& image, FetchReader reader, const FetchLanes& lanes, TexelValue* out,
               uint32_t* const* components) {
	if constexpr (std::endian::native != std::endian::little) return false;  // texels are read as words
	if (reader == FetchReader::kOther || image.samples != 1 || image.dimensions < 1 || image.dimensions > 3 ||
	    image.level_count == 0 || image.level_count > fast::kMaxLevels || image.component_count == 0 ||
	    image.component_count > 4)
		return false;
	// Each component inside its texel's 32-bit word (texels of 4 to 16
	// bytes: PreparedLevels takes powers of two), words and halves aligned.
	const uint32_t size = image.levels[0].element_size;
	if (size < 4) return false;
	for (uint32_t c = 0; c < image.component_count; ++c) {
		const uint32_t offset = image.component_offset[c];
		const uint32_t bytes = reader == FetchReader::kBytes ? 1 : reader == FetchReader::kHalves ? 2 : 4;
		if (image.component_slot[c] > 3 || offset % bytes != 0 || offset + bytes > size ||
		    (reader == FetchReader::kBytes && !image.component_table[c]))
			return false;
	}
	return fast::Fetch(image, reader, lanes, out, components);
}

bool SampleFast(const SampledImage& image, const SampleLanes& lanes, TexelValue* out) {
	return fast::Sample(image, lanes, out, nullptr);
}

bool SampleFast(const SampledImage& image, const SampleLanes& lanes, float* const components[4]) {
	return fast::Sample(image, lanes, nullptr, components);
}

}  // namespace tessera::texture
#endif  // HWY_ONCE
