// The vectorized fast path (texture/sample_fast.cpp): it must take the
// lookups it claims (SampleFast returns true), read levels stored in tiles
// (PreparedLevel::tile_shift 2 to 4, and the 64 to 256 texel tiles of
// partially resident images; TexelOffset's layout) exactly as rows of
// texels, and give the generic path's bits for any lane count
// (whole vectors and a partial last one), for 4-, 8- and 16-byte texels.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

// Random texels. RGBA32F: random bits rarely make a zero or an infinity, so
// a quarter of the floats are values whose sums depend on the order of the
// operations (signed zeros, infinities, NaNs with payloads, quiet and
// signalling, subnormals, the largest floats) and a quarter ordinary ones
// (whose rounding does).
void FillRandom(VkFormat format, std::vector<uint8_t>& memory, std::mt19937& rng) {
	std::uniform_int_distribution<int> byte(0, 255);
	if (format != VK_FORMAT_R32G32B32A32_SFLOAT) {
		for (uint8_t& b : memory) b = uint8_t(byte(rng));
		return;
	}
	const uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
	                             0xffc12345u, 0x7f800001u, 0xffa00abcu, 0x00000001u, 0x807fffffu,
	                             0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u};
	std::uniform_int_distribution<uint32_t> bits;
	std::uniform_real_distribution<float> ordinary(-2.0f, 2.0f);
	for (size_t i = 0; i + 4 <= memory.size(); i += 4) {
		uint32_t word = bits(rng);
		if (word % 4 == 0) {
			word = kSpecial[(word >> 2) % std::size(kSpecial)];
		} else if (word % 4 == 1) {
			const float value = ordinary(rng);
			std::memcpy(&word, &value, 4);
		}
		std::memcpy(&memory[i], &word, 4);
	}
}

TestImage RandomImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels);
	FillRandom(format, img.memory, rng);
	return img;
}

// RandomLayers' tile_shift for a partially resident image's layout (tiles
// of 128x128 RGBA8 texels, 64x64 of 16 bytes: texture::SparseBlock).
constexpr uint32_t kSparseTiles = 100;

// An image of `layers` layers in rows of texels or in 2^tile_shift tiles
// (ImageLayout's own tiling: arrays and cubes tiled layer by layer), its
// texels random.
TestImage RandomLayers(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, uint32_t layers,
                       uint32_t tile_shift, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels, layers);
	const bool sparse = tile_shift == kSparseTiles;
	REQUIRE(img.layout.Init(
	    {format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels, layers, 1, sparse ? 0 : tile_shift, sparse}));
	if (sparse)
		REQUIRE(img.layout.Level(0, 0).tile_shift >= 6);
	else
		REQUIRE(img.layout.Level(0, 0).tile_shift == tile_shift);
	img.memory.assign(img.layout.TotalSize(), 0);
	FillRandom(format, img.memory, rng);
	return img;
}

// A copy of a prepared image's levels in 4x4 tiles (tiles in rows, each tile
// 16 texels one row after another), placed with TexelOffset. All levels in
// one allocation, as in an image's memory: the fast path declines levels
// more than 2^31 bytes apart (separate heap blocks can be, under ASan).
struct TiledCopy {
	std::vector<uint8_t> memory;

	void Make(const SampledImage& rows, SampledImage* tiled) {
		*tiled = rows;
		std::vector<size_t> offsets(rows.level_count);
		size_t size = 0;
		for (uint32_t l = 0; l < rows.level_count; ++l) {
			const PreparedLevel& src = rows.levels[l];
			PreparedLevel& dst = tiled->levels[l];
			const uint32_t tiles_x = (uint32_t(src.extent[0]) + 3) / 4, tiles_y = (uint32_t(src.extent[1]) + 3) / 4;
			dst.tile_shift = 2;
			dst.row_pitch = uint64_t(tiles_x) * 16 * src.element_size;
			offsets[l] = size;
			size += dst.row_pitch * tiles_y;
		}
		memory.assign(size, 0xcd);
		for (uint32_t l = 0; l < rows.level_count; ++l) {
			const PreparedLevel& src = rows.levels[l];
			PreparedLevel& dst = tiled->levels[l];
			dst.base = memory.data() + offsets[l];
			const uint32_t w = uint32_t(src.extent[0]), h = uint32_t(src.extent[1]), e = src.element_size;
			for (uint32_t j = 0; j < h; ++j)
				for (uint32_t i = 0; i < w; ++i)
					std::memcpy(memory.data() + offsets[l] + TexelOffset(dst, i, j),
					            src.base + j * src.row_pitch + i * e, e);
		}
	}
};

struct RandomLanes {
	std::vector<float> s, t, layer, dx[2], dy[2], lod, bias;
	SampleLanes lanes;

	RandomLanes(uint32_t n, std::mt19937& rng, bool explicit_lod, bool with_bias) {
		std::uniform_real_distribution<float> coord(-2.0f, 3.0f), deriv(-0.3f, 0.3f), lods(-2.0f, 8.0f);
		s.resize(n), t.resize(n), layer.assign(n, 0.0f), lod.resize(n), bias.resize(n);
		for (int d = 0; d < 2; ++d) dx[d].resize(n), dy[d].resize(n);
		for (uint32_t i = 0; i < n; ++i) {
			s[i] = coord(rng), t[i] = coord(rng);
			const float scale = std::ldexp(1.0f, int(i % 12) - 10);
			for (int d = 0; d < 2; ++d) dx[d][i] = deriv(rng) * scale, dy[d][i] = deriv(rng) * scale * float(1 + i % 5);
			lod[i] = lods(rng);
			bias[i] = lods(rng) - 3.0f;
		}
		lanes.count = n;
		lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
		if (explicit_lod) {
			lanes.lod = lod.data();
		} else {
			for (int d = 0; d < 2; ++d) lanes.ddx[d] = dx[d].data(), lanes.ddy[d] = dy[d].data();
			if (with_bias) lanes.bias = bias.data();
		}
	}
};

void CheckSameBits(const std::vector<TexelValue>& a, const std::vector<TexelValue>& b, const RandomLanes& r) {
	for (size_t i = 0; i < a.size(); ++i) {
		INFO("lane " << i << " at (" << r.s[i] << ", " << r.t[i] << ")");
		for (int c = 0; c < 4; ++c) CHECK(a[i].u[c] == b[i].u[c]);
	}
}

// The same bits, or both NaN (filtering picks NaN payloads as the
// operation order of each path does; the spec does not define them).
void CheckSameValues(const std::vector<TexelValue>& a, const std::vector<TexelValue>& b, const RandomLanes& r) {
	for (size_t i = 0; i < a.size(); ++i) {
		INFO("lane " << i << " at (" << r.s[i] << ", " << r.t[i] << ")");
		for (int c = 0; c < 4; ++c) {
			INFO("component " << c << ": " << a[i].f[c] << " and " << b[i].f[c]);
			CHECK((a[i].u[c] == b[i].u[c] || (std::isnan(a[i].f[c]) && std::isnan(b[i].f[c]))));
		}
	}
}

// Whether a lookup's result may be a NaN that two NaNs (or a NaN and an
// invalid operation) made in a sum: a float format, filtered. Which one
// the sum keeps is the operand order the compiler chose, in either path
// (x86 keeps the first operand's); lookups of one texel as it is (NEAREST
// filters and mipmaps, no anisotropy) keep its bits, signalling NaNs too.
bool NaNAsNaN(VkFormat format, const SamplerState& sampler) {
	const bool one_texel = sampler.mag_filter == VK_FILTER_NEAREST && sampler.min_filter == VK_FILTER_NEAREST &&
	                       sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST && !sampler.anisotropy_enable;
	return (format == VK_FORMAT_R16G16B16A16_SFLOAT || format == VK_FORMAT_R32G32B32A32_SFLOAT) && !one_texel;
}

// The 8-bit formats hold no NaN (bits); RGBA16F and RGBA32F filtered
// compared as values (NaN as NaN), else bits.
void CheckSameLookups(VkFormat format, const SamplerState& sampler, const std::vector<TexelValue>& a,
                      const std::vector<TexelValue>& b, const RandomLanes& r) {
	if (NaNAsNaN(format, sampler))
		CheckSameValues(a, b, r);
	else
		CheckSameBits(a, b, r);
}

std::vector<SamplerState> Samplers() { return SamplerGrid(); }

}  // namespace

TEST_CASE("sampling fast path: levels in 4x4 tiles read as rows of texels", "[texture][sample]") {
	// RGBA16F with random halves: normals, subnormals, signed zeros,
	// infinities and NaNs (compared as values, NaN as NaN); RGBA32F with
	// such floats (FillRandom), 16-byte texels in 256-byte tiles.
	std::mt19937 rng(99);
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
	                        VK_FORMAT_R32G32B32A32_SFLOAT})
		for (auto size : {std::pair{32u, 16u}, std::pair{24u, 10u}}) {  // power of two; not, nor a multiple of 4
			const TestImage img = RandomImage(format, size.first, size.second, 5, rng);
			for (const SamplerState& sampler : Samplers()) {
				const SampledImage rows = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
				const SampledImage generic = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
				SampledImage tiled;
				TiledCopy copy;
				copy.Make(rows, &tiled);
				INFO("format " << format << " size " << size.first << "x" << size.second << " mag "
				               << sampler.mag_filter << " min " << sampler.min_filter << " mip " << sampler.mipmap_mode
				               << " mode " << sampler.address_u << " aniso " << sampler.max_anisotropy);
				for (uint32_t n : {64u, 37u})
					for (bool explicit_lod : {false, true}) {
						RandomLanes r(n, rng, explicit_lod, !explicit_lod);
						std::vector<TexelValue> a(n), b(n), c(n);
						REQUIRE(SampleFast(rows, r.lanes, a.data()));
						REQUIRE(SampleFast(tiled, r.lanes, b.data()));
						CheckSameBits(a, b, r);
						r.lanes.coord[2] = r.layer.data();
						SampleGeneric(generic, r.lanes, c.data());
						CheckSameLookups(format, sampler, b, c, r);
					}
			}
		}
}

TEST_CASE("sampling fast path: any lane count gives the generic path's bits", "[texture][sample]") {
	std::mt19937 rng(7);
	const TestImage img = RandomImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 7, rng);
	for (const SamplerState& sampler : Samplers()) {
		const SampledImage fast = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
		const SampledImage generic = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
		for (uint32_t n : {1u, 3u, 7u, 17u, 37u, 64u}) {
			INFO("lanes " << n << " mag " << sampler.mag_filter << " min " << sampler.min_filter << " mip "
			              << sampler.mipmap_mode << " aniso " << sampler.max_anisotropy);
			RandomLanes r(n, rng, false, n % 2 == 1);
			std::vector<TexelValue> a(n), b(n);
			REQUIRE(SampleFast(fast, r.lanes, a.data()));
			r.lanes.coord[2] = r.layer.data();
			SampleGeneric(generic, r.lanes, b.data());
			CheckSameBits(a, b, r);
		}
	}
}

TEST_CASE("sampling fast path: declines what it does not handle", "[texture][sample]") {
	std::mt19937 rng(3);
	const TestImage img = RandomImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, rng);
	RandomLanes r(8, rng, true, false);
	std::vector<TexelValue> out(8);
	// (CLAMP_TO_BORDER is taken on 2D views and arrays: sampling_fast_path_test.cpp.)
	const SamplerState linear = Sampler(VK_FILTER_LINEAR);
	TestImage cube_image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 6);
	SamplerState non_seamless = linear;
	non_seamless.non_seamless_cube = true;
	CHECK_FALSE(SampleFast(Prepare(non_seamless, cube_image.View(VK_IMAGE_VIEW_TYPE_CUBE)), r.lanes, out.data()));
	// 1D views take the generic path (3D ones the fast path:
	// sampling_fast_3d_test.cpp).
	TestImage line(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, {16, 1, 1}, 1);
	CHECK_FALSE(SampleFast(Prepare(linear, line.View(VK_IMAGE_VIEW_TYPE_1D)), r.lanes, out.data()));
	SampledImage tiled8 = Prepare(linear, img.View(VK_IMAGE_VIEW_TYPE_2D));
	tiled8.levels[0].tile_shift = 9;  // tiles of up to 256x256 are read
	CHECK_FALSE(SampleFast(tiled8, r.lanes, out.data()));
	CHECK(SampleFast(Prepare(linear, img.View(VK_IMAGE_VIEW_TYPE_2D)), r.lanes, out.data()));
	// 32-bit components: floats only (not integers, not three: 12-byte
	// texels). One and two floats: sampling_fast_formats_test.cpp; swizzled
	// views: sampling_fast_path_test.cpp.
	const TestImage floats(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1);
	CHECK(SampleFast(Prepare(linear, floats.View(VK_IMAGE_VIEW_TYPE_2D)), r.lanes, out.data()));
	for (VkFormat format : {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R32G32B32_SFLOAT}) {
		INFO("format " << format);
		const TestImage other(format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1);
		CHECK_FALSE(SampleFast(Prepare(linear, other.View(VK_IMAGE_VIEW_TYPE_2D)), r.lanes, out.data()));
	}
}

// The fast path takes log2 of the scale factor from an approximation where
// the level selection cannot depend on its last bits, else from the C
// library (sample_fast.cpp ResolveLog2): footprints whose lambda lies on or
// next to a rounding tie of the level selection (odd multiples of 1/512),
// on 0 (magnification) and at integer levels must still match bit for bit.
TEST_CASE("sampling fast path: derivative LODs next to level-rounding ties", "[texture][sample]") {
	std::mt19937 rng(11);
	const TestImage img = RandomImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, rng);
	constexpr uint32_t kLanes = 48;
	std::vector<float> s(kLanes), t(kLanes), layer(kLanes, 0.0f), dx0(kLanes), zero(kLanes, 0.0f);
	std::uniform_real_distribution<float> coord(0.0f, 1.0f);
	for (VkFilter mag : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
		for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
			for (int k = -3; k < 3 * 512; k += 7) {
				SamplerState sampler = Sampler(mag, VK_SAMPLER_ADDRESS_MODE_REPEAT);
				sampler.min_filter = mag == VK_FILTER_LINEAR ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
				sampler.mipmap_mode = mip;
				const SampledImage fast = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
				const SampledImage generic = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
				// rho = 2^(k / 512) and its float neighbours, up to 24 ulps away.
				const float rho = std::exp2(float(k) / 512.0f);
				for (uint32_t i = 0; i < kLanes; ++i) {
					float r = rho;
					for (int step = 0; step < int(i / 2); ++step) r = std::nextafter(r, i % 2 ? HUGE_VALF : 0.0f);
					dx0[i] = r / 64.0f;  // exact: a power of two
					s[i] = coord(rng), t[i] = coord(rng);
				}
				SampleLanes lanes;
				lanes.count = kLanes;
				lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
				lanes.ddx[0] = dx0.data(), lanes.ddx[1] = zero.data();
				lanes.ddy[0] = zero.data(), lanes.ddy[1] = zero.data();
				std::vector<TexelValue> a(kLanes), b(kLanes);
				REQUIRE(SampleFast(fast, lanes, a.data()));
				lanes.coord[2] = layer.data();
				SampleGeneric(generic, lanes, b.data());
				INFO("k " << k << " mag " << mag << " mip " << mip);
				for (uint32_t i = 0; i < kLanes; ++i)
					for (int c = 0; c < 4; ++c) CHECK(a[i].u[c] == b[i].u[c]);
			}
}

TEST_CASE("sampling fast path: 2D array layers as the generic path selects them", "[texture][sample]") {
	// Layer coordinates: integers, ties (to even), out of range on both
	// sides, infinities and NaN; each layer's texels random, so a wrong
	// layer shows.
	std::mt19937 rng(21);
	const float kLayers[] = {0.0f,
	                         1.0f,
	                         2.0f,
	                         3.0f,
	                         0.5f,
	                         1.5f,
	                         2.5f,
	                         2.49f,
	                         -0.4f,
	                         -3.0f,
	                         3.6f,
	                         40.0f,
	                         std::numeric_limits<float>::infinity(),
	                         -std::numeric_limits<float>::infinity(),
	                         std::numeric_limits<float>::quiet_NaN()};
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT})
		for (uint32_t tile_shift : {0u, 2u, 3u, 4u, kSparseTiles}) {
			const TestImage img = RandomLayers(format, 24, 16, 4, 4, tile_shift, rng);
			for (const SamplerState& sampler : Samplers()) {
				const SampledImage array = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
				INFO("format " << format << " tile_shift " << tile_shift << " mag " << sampler.mag_filter << " min "
				               << sampler.min_filter << " mip " << sampler.mipmap_mode << " aniso "
				               << sampler.max_anisotropy);
				for (uint32_t n : {64u, 21u})
					for (bool explicit_lod : {false, true}) {
						RandomLanes r(n, rng, explicit_lod, !explicit_lod);
						for (uint32_t i = 0; i < n; ++i) r.layer[i] = kLayers[(i + n) % std::size(kLayers)];
						r.lanes.coord[2] = r.layer.data();
						std::vector<TexelValue> a(n), b(n);
						REQUIRE(SampleFast(array, r.lanes, a.data()));
						SampleGeneric(array, r.lanes, b.data());
						CheckSameLookups(format, sampler, a, b, r);
					}
			}
		}
}

TEST_CASE("sampling fast path: cube maps and cube arrays give the generic path's bits", "[texture][sample]") {
	// Random directions (with ties between the major axes, zeros, NaN and
	// infinities), their derivatives and levels (down to 1 x 1 faces, where
	// every LINEAR footprint has a corner): lanes whose LINEAR texels cross
	// a face's edge read them from the neighbouring faces, and every lane
	// must match SampleGeneric.
	std::mt19937 rng(31);
	std::uniform_real_distribution<float> unit(-1.0f, 1.0f), deriv(-0.05f, 0.05f), lods(-1.0f, 6.0f);
	const float kOdd[] = {
	    0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R16G16B16A16_SFLOAT,
	                        VK_FORMAT_R32G32B32A32_SFLOAT})
		for (bool array : {false, true})
			for (uint32_t tile_shift : {0u, 2u, 3u, 4u, kSparseTiles}) {
				const TestImage img = RandomLayers(format, 16, 16, 5, array ? 12 : 6, tile_shift, rng);
				for (const SamplerState& sampler : Samplers()) {
					const SampledImage cube =
					    Prepare(sampler, img.View(array ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE));
					INFO("format " << format << " array " << array << " tile_shift " << tile_shift << " mag "
					               << sampler.mag_filter << " min " << sampler.min_filter << " mip "
					               << sampler.mipmap_mode);
					for (uint32_t n : {64u, 23u})
						for (bool explicit_lod : {false, true}) {
							std::vector<float> c[4], dx[3], dy[3], lod(n);
							for (int k = 0; k < 4; ++k) c[k].resize(n);
							for (int k = 0; k < 3; ++k) dx[k].resize(n), dy[k].resize(n);
							for (uint32_t i = 0; i < n; ++i) {
								for (int k = 0; k < 3; ++k) {
									c[k][i] = unit(rng);
									const float scale = std::ldexp(1.0f, int(i % 7) - 3);
									dx[k][i] = deriv(rng) * scale, dy[k][i] = deriv(rng) * scale;
								}
								if (i % 9 == 4) c[1][i] = c[0][i];  // a tie of |x| and |y|
								if (i % 9 == 5) c[2][i] = -c[0][i];
								if (i % 13 == 6) c[i % 3][i] = kOdd[(i / 13) % std::size(kOdd)];
								c[3][i] = float(i % 3) - 0.4f;  // cube 0, 1, then past the last
								lod[i] = lods(rng);
							}
							SampleLanes lanes;
							lanes.count = n;
							for (int k = 0; k < 4; ++k) lanes.coord[k] = c[k].data();
							if (explicit_lod)
								lanes.lod = lod.data();
							else
								for (int k = 0; k < 3; ++k) lanes.ddx[k] = dx[k].data(), lanes.ddy[k] = dy[k].data();
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(cube, lanes, a.data()));
							SampleGeneric(cube, lanes, b.data());
							const bool nan_as_nan = NaNAsNaN(format, sampler);
							for (uint32_t i = 0; i < n; ++i) {
								INFO("lane " << i << " at (" << c[0][i] << ", " << c[1][i] << ", " << c[2][i] << ")");
								for (int k = 0; k < 4; ++k)
									CHECK((a[i].u[k] == b[i].u[k] ||
									       (nan_as_nan && std::isnan(a[i].f[k]) && std::isnan(b[i].f[k]))));
							}
						}
				}
			}
}

TEST_CASE("sampling fast path: a cube of -0 floats filters to -0, as the generic path sums", "[texture][sample]") {
	// The generic cube filter sums w0 t0 + w1 t1 + w2 t2 + w3 t3 without a
	// leading 0: -0 texels give -0 (0 + -0 would be +0). Faces of 8 x 8:
	// most vectors have a lane across an edge (FilterCubeSeams); of 64 x 64,
	// with directions near the faces' centres: none has.
	for (VkFormat format : {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16_SFLOAT,
	                        VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT})
		for (uint32_t face_size : {8u, 64u}) {
			INFO("format " << format << " face size " << face_size);
			TestImage img(format, VK_IMAGE_TYPE_2D, {face_size, face_size, 1}, 1, 6);
			// Every component -0: its last byte (little-endian) holds the sign.
			const size_t size = format == VK_FORMAT_R16G16B16A16_SFLOAT || format == VK_FORMAT_R16_SFLOAT ||
			                            format == VK_FORMAT_R16G16_SFLOAT
			                        ? 2
			                        : 4;
			for (size_t i = 0; i < img.memory.size(); ++i) img.memory[i] = i % size == size - 1 ? 0x80 : 0x00;
			const SampledImage cube = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_CUBE));
			std::mt19937 rng(5);
			std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
			constexpr uint32_t n = 32;
			std::vector<float> c[3], lod(n, 0.0f);
			for (auto& v : c) {
				v.resize(n);
				for (float& x : v) x = unit(rng);
			}
			if (face_size == 64)
				for (uint32_t i = 0; i < n; ++i) c[0][i] *= 0.9f, c[1][i] *= 0.9f, c[2][i] = c[2][i] < 0 ? -1.0f : 1.0f;
			SampleLanes lanes;
			lanes.count = n;
			for (int k = 0; k < 3; ++k) lanes.coord[k] = c[k].data();
			lanes.lod = lod.data();
			std::vector<TexelValue> a(n), b(n);
			REQUIRE(SampleFast(cube, lanes, a.data()));
			SampleGeneric(cube, lanes, b.data());
			for (uint32_t i = 0; i < n; ++i) {
				CHECK(b[i].u[0] == 0x80000000u);
				for (int k = 0; k < 4; ++k) CHECK(a[i].u[k] == b[i].u[k]);
			}
		}
}
