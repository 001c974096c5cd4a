// The fast path of Sample() for 3D views (texture/sample_fast.cpp
// FilterVolume): it must take them (SampleFast returns true) and give the
// generic path's bits (SampleGeneric: ResolveLane's three-dimensional scale
// factors, FilterLevel's eight texels summed from 0 with (wi * wj) * wk
// weights, each coordinate wrapped with its own address mode), for 3D
// images in rows of texels and in 4x4 tiles (each slice tiled), extents
// that are powers of two and not, mipmapped (the depth halves per level),
// every filter, mipmap and address mode, anisotropy, explicit LODs,
// derivatives and quad derivatives.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

bool IsFloatFormat(VkFormat format) {
	switch (format) {
	case VK_FORMAT_R16G16B16A16_SFLOAT:
	case VK_FORMAT_R32G32B32A32_SFLOAT:
	case VK_FORMAT_R16G16_SFLOAT:
	case VK_FORMAT_R32_SFLOAT: return true;
	default: return false;
	}
}

// RandomVolume's tile_shift for a partially resident image's layout (tiles
// of 16 to 64 texels in groups of 8 or 16 slices: texture::SparseBlock).
constexpr uint32_t kSparseTiles = 100;

// A 3D image in rows of texels or tiles (ImageLayout's own layout), its
// bytes random; float formats: a quarter of the 32-bit floats special
// (signed zeros, infinities, NaNs, subnormals, the largest floats).
TestImage RandomVolume(VkFormat format, VkExtent3D extent, uint32_t levels, uint32_t tile_shift, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_3D, extent, levels);
	const bool sparse = tile_shift == kSparseTiles;
	REQUIRE(img.layout.Init({format, VK_IMAGE_TYPE_3D, extent, levels, 1, 1, sparse ? 0 : tile_shift, sparse}));
	if (sparse)
		REQUIRE(img.layout.Level(0, 0).tile_shift >= 4);
	else
		REQUIRE(img.layout.Level(0, 0).tile_shift == tile_shift);
	img.memory.assign(img.layout.TotalSize(), 0);
	std::uniform_int_distribution<uint32_t> bits;
	const uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
	                             0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x3f800000u, 0xbf800000u};
	const bool floats32 = format == VK_FORMAT_R32G32B32A32_SFLOAT || format == VK_FORMAT_R32_SFLOAT;
	for (size_t i = 0; i + 4 <= img.memory.size(); i += 4) {
		uint32_t word = bits(rng);
		if (floats32 && word % 4 == 0) word = kSpecial[(word >> 2) % std::size(kSpecial)];
		std::memcpy(&img.memory[i], &word, 4);
	}
	return img;
}

// Samplers: mag and min filters alike and mixed, both mipmap modes, REPEAT
// and CLAMP_TO_EDGE (w different from u and v in half of them, one of the
// mirrored modes in the other half), with and without anisotropy.
std::vector<SamplerState> Samplers() {
	std::vector<SamplerState> out = SamplerGrid();
	for (SamplerState& sampler : out)
		if (sampler.anisotropy_enable)
			sampler.address_w = sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT
			                        ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
			                        : VK_SAMPLER_ADDRESS_MODE_REPEAT;
		else
			sampler.address_w = sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT
			                        ? VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE
			                        : VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
	return out;
}

enum class Lod { kExplicit, kDerivatives, kQuad };

// Random (s, t, r) with some far away, infinite or NaN, and their LODs or
// derivatives (from magnified to minified, anisotropic in any of the three
// dimensions, some NaN or infinite).
struct VolumeLanes {
	std::vector<float> c[3], dx[3], dy[3], lod, bias;
	std::vector<int32_t> offset[3];  // with derivatives: each lane's Offset operand, -8 to 7 texels
	SampleLanes lanes;               // for SampleFast
	SampleLanes generic;             // the same, quad derivatives written out (as Sample does)

	VolumeLanes(uint32_t n, std::mt19937& rng, Lod mode) {
		std::uniform_real_distribution<float> coord(-2.0f, 3.0f), deriv(-0.3f, 0.3f), lods(-2.0f, 6.0f);
		const float kOdd[] = {1.0e5f, -3.0e6f, 0.5f / 16.0f, -1.0e-9f, kInf, -kInf, kNaN, 1.0f};
		for (int d = 0; d < 3; ++d) c[d].resize(n), dx[d].resize(n), dy[d].resize(n);
		lod.resize(n), bias.resize(n);
		for (uint32_t i = 0; i < n; ++i) {
			const float scale = std::ldexp(1.0f, int(i % 12) - 10);
			for (int d = 0; d < 3; ++d) {
				c[d][i] = coord(rng);
				dx[d][i] = deriv(rng) * scale * (d == int(i % 3) ? float(1 + i % 5) : 1.0f);
				dy[d][i] = deriv(rng) * scale;
			}
			if (i % 11 == 7) c[i % 3][i] = kOdd[(i / 11) % std::size(kOdd)];
			if (i % 13 == 5) dx[2][i] = kOdd[(i / 13) % std::size(kOdd)];
			lod[i] = i % 3 == 0 ? float(i) / 512.0f + 0.5f * float(i % 4) : lods(rng);
			if (i % 17 == 3) lod[i] = kOdd[(i / 17) % std::size(kOdd)];
			bias[i] = lods(rng) - 2.0f;
		}
		lanes.count = n;
		for (int d = 0; d < 3; ++d) lanes.coord[d] = c[d].data();
		if (mode == Lod::kExplicit) {
			lanes.lod = lod.data();
		} else if (mode == Lod::kDerivatives) {
			for (int d = 0; d < 3; ++d) lanes.ddx[d] = dx[d].data(), lanes.ddy[d] = dy[d].data();
			lanes.bias = bias.data();
			std::uniform_int_distribution<int32_t> texels(-8, 7);
			for (int d = 0; d < 3; ++d) {
				for (uint32_t i = 0; i < n; ++i) offset[d].push_back(texels(rng));
				lanes.offset[d] = offset[d].data();
			}
		} else {
			lanes.quad_derivatives = true;
		}
		generic = lanes;
		if (mode == Lod::kQuad) {
			for (int d = 0; d < 3; ++d) {
				QuadDerivatives(c[d].data(), n, dx[d].data(), dy[d].data());
				generic.ddx[d] = dx[d].data(), generic.ddy[d] = dy[d].data();
			}
			generic.quad_derivatives = false;
		}
	}
};

// The same bits; for filtered float formats NaN as NaN (which NaN a sum
// of two keeps is each path's operand order).
void CheckSame(const std::vector<TexelValue>& a, const std::vector<TexelValue>& b, const VolumeLanes& l,
               bool nan_as_nan) {
	for (size_t i = 0; i < a.size(); ++i) {
		INFO("lane " << i << " at (" << l.c[0][i] << ", " << l.c[1][i] << ", " << l.c[2][i] << ")");
		for (int k = 0; k < 4; ++k) {
			INFO("component " << k << ": " << a[i].f[k] << " and " << b[i].f[k]);
			CHECK((a[i].u[k] == b[i].u[k] || (nan_as_nan && std::isnan(a[i].f[k]) && std::isnan(b[i].f[k]))));
		}
	}
}

bool OneTexel(const SamplerState& s) {
	return s.mag_filter == VK_FILTER_NEAREST && s.min_filter == VK_FILTER_NEAREST &&
	       s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST && !s.anisotropy_enable;
}

}  // namespace

TEST_CASE("sampling fast path: 3D views give the generic path's bits", "[texture][sample]") {
	std::mt19937 rng(303);
	const VkFormat kFormats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM,      VK_FORMAT_R8G8B8A8_SRGB,
	                             VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
	                             VK_FORMAT_R8_UNORM,       VK_FORMAT_R8G8_UNORM,          VK_FORMAT_R16G16_SFLOAT,
	                             VK_FORMAT_R32_SFLOAT};
	// Powers of two (the depth the largest, then the smallest); not (nor
	// multiples of 4: partial tiles).
	const VkExtent3D kExtents[] = {{8, 8, 16}, {16, 8, 4}, {12, 10, 7}};
	for (VkFormat format : kFormats)
		for (const VkExtent3D& extent : kExtents)
			for (uint32_t tile_shift : {0u, 2u, kSparseTiles}) {
				const TestImage img = RandomVolume(format, extent, 4, tile_shift, rng);
				for (const SamplerState& sampler : Samplers()) {
					const SampledImage volume = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_3D));
					const bool nan_as_nan = IsFloatFormat(format) && !OneTexel(sampler);
					INFO("format " << format << " extent " << extent.width << "x" << extent.height << "x"
					               << extent.depth << " tile_shift " << tile_shift << " mag " << sampler.mag_filter
					               << " min " << sampler.min_filter << " mip " << sampler.mipmap_mode << " u "
					               << sampler.address_u << " w " << sampler.address_w << " aniso "
					               << sampler.max_anisotropy);
					for (uint32_t n : {64u, 36u})
						for (Lod mode : {Lod::kExplicit, Lod::kDerivatives, Lod::kQuad}) {
							INFO("lanes " << n << " lod mode " << int(mode));
							VolumeLanes l(n, rng, mode);
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(volume, l.lanes, a.data()));
							SampleGeneric(volume, l.generic, b.data());
							CheckSame(a, b, l, nan_as_nan);
						}
				}
			}
}

TEST_CASE("sampling fast path: 3D results as component arrays, and Sample takes it", "[texture][sample]") {
	std::mt19937 rng(17);
	const TestImage img = RandomVolume(VK_FORMAT_R16G16B16A16_SFLOAT, {16, 16, 16}, 5, 0, rng);
	SamplerState sampler = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
	sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	const SampledImage volume = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_3D));
	constexpr uint32_t n = 40;
	VolumeLanes l(n, rng, Lod::kQuad);
	std::vector<float> comp[4];
	for (auto& v : comp) v.resize(n);
	float* const out[4] = {comp[0].data(), comp[1].data(), comp[2].data(), comp[3].data()};
	REQUIRE(SampleFast(volume, l.lanes, out));
	std::vector<TexelValue> a(n), b(n);
	Sample(volume, l.lanes, a.data());
	SampleGeneric(volume, l.generic, b.data());
	for (uint32_t i = 0; i < n; ++i)
		for (int k = 0; k < 4; ++k) {
			uint32_t bits;
			std::memcpy(&bits, &comp[k][i], 4);
			CHECK(bits == a[i].u[k]);
			CHECK((a[i].u[k] == b[i].u[k] || (std::isnan(a[i].f[k]) && std::isnan(b[i].f[k]))));
		}
}

TEST_CASE("sampling fast path: a 3D view of known texels filters as the spec says", "[texture][sample]") {
	// Texel (i, j, k) of a 4x4x4 R32_SFLOAT image holds i + 4 j + 16 k: a
	// LINEAR lookup between texel centres is the trilinear mean, exactly.
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, {4, 4, 4}, 1);
	for (uint32_t k = 0; k < 4; ++k)
		for (uint32_t j = 0; j < 4; ++j)
			for (uint32_t i = 0; i < 4; ++i) img.SetFloat(i, j, k, float(i + 4 * j + 16 * k));
	const SampledImage volume = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_3D));
	std::vector<float> s = {0.25f, 0.375f, 0.5f, 0.125f}, t = {0.25f, 0.25f, 0.625f, 0.125f},
	                   r = {0.25f, 0.5f, 0.75f, 0.875f}, lod(4, 0.0f);
	SampleLanes lanes;
	lanes.count = 4;
	lanes.coord[0] = s.data(), lanes.coord[1] = t.data(), lanes.coord[2] = r.data();
	lanes.lod = lod.data();
	std::vector<TexelValue> a(4);
	REQUIRE(SampleFast(volume, lanes, a.data()));
	for (uint32_t n = 0; n < 4; ++n) {
		// Texel coordinates u - 1/2, clamped to the edge (r = 0.875: k = 3).
		const float x = s[n] * 4 - 0.5f, y = t[n] * 4 - 0.5f, z = std::min(r[n] * 4 - 0.5f, 3.0f);
		CHECK(a[n].f[0] == x + 4 * y + 16 * z);
		CHECK(a[n].f[3] == 1.0f);
	}
}

TEST_CASE("sampling fast path: 3D views it declines", "[texture][sample]") {
	std::mt19937 rng(5);
	const TestImage img = RandomVolume(VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 8}, 1, 0, rng);
	VolumeLanes l(8, rng, Lod::kExplicit);
	std::vector<TexelValue> out(8);
	SamplerState border_w = Sampler(VK_FILTER_LINEAR);
	border_w.address_w = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	CHECK_FALSE(SampleFast(Prepare(border_w, img.View(VK_IMAGE_VIEW_TYPE_3D)), l.lanes, out.data()));
	SampledImage tiled8 = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_3D));
	tiled8.levels[0].tile_shift = 9;  // tiles of up to 256x256 are read
	CHECK_FALSE(SampleFast(tiled8, l.lanes, out.data()));
	SamplerState unnormalized = Sampler(VK_FILTER_LINEAR);
	unnormalized.unnormalized_coordinates = true;
	CHECK_FALSE(SampleFast(Prepare(unnormalized, img.View(VK_IMAGE_VIEW_TYPE_3D)), l.lanes, out.data()));
	CHECK(SampleFast(Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_3D)), l.lanes, out.data()));
}
