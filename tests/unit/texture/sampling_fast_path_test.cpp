// The fast path of Sample() (2D, 8-bit four-component formats and RGBA32F,
// REPEAT or CLAMP_TO_EDGE, see sample_fast.h) must give the generic path's
// results bit for bit. SampleGeneric reads a 2D_ARRAY view of the same
// one-layer image (the same texels) without the fast path, so the two are
// compared lane by lane over random coordinates, derivatives and sampler
// states.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

TestImage RandomImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels);
	std::uniform_int_distribution<int> byte(0, 255);
	for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
	return img;
}

// Samples n random lanes through both views and compares the bits. RGBA32F
// and RGBA16F (random bits: normals, subnormals, NaNs) filtered: which NaN a sum of two
// NaNs keeps is each path's operand order, so NaN is compared as NaN (as
// in sampling_fast_tiled_test.cpp); one texel read as it is keeps its bits.
// view_min_lod: the views' minLod (VK_EXT_image_view_min_lod).
// components: the views' swizzle; offsets: each lane's Offset operand, -8
// to 7 texels.
void CompareFastAndGeneric(const TestImage& img, const SamplerState& sampler, std::mt19937& rng, bool explicit_lod,
                           bool bias, float view_min_lod = 0.0f, VkComponentMapping components = {},
                           bool offsets = false) {
	ImageViewState fast_view = img.View(VK_IMAGE_VIEW_TYPE_2D), generic_view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	fast_view.min_lod = generic_view.min_lod = view_min_lod;
	fast_view.components = generic_view.components = components;
	const SampledImage fast = Prepare(sampler, fast_view);
	const SampledImage generic = Prepare(sampler, generic_view);
	constexpr uint32_t kLanes = 64;
	std::uniform_real_distribution<float> coord(-2.0f, 3.0f), deriv(-0.3f, 0.3f), lod(-2.0f, 8.0f);
	std::vector<float> s(kLanes), t(kLanes), layer(kLanes, 0.0f), dx[2], dy[2], lods(kLanes), biases(kLanes);
	for (int d = 0; d < 2; ++d) dx[d].resize(kLanes), dy[d].resize(kLanes);
	for (uint32_t i = 0; i < kLanes; ++i) {
		s[i] = coord(rng), t[i] = coord(rng);
		// Derivatives from tiny (magnified) to large (minified), some anisotropic.
		const float scale = std::ldexp(1.0f, int(i % 12) - 10);
		for (int d = 0; d < 2; ++d) dx[d][i] = deriv(rng) * scale, dy[d][i] = deriv(rng) * scale * float(1 + i % 5);
		// Every third LOD an odd multiple of 1/512: a tie of the level rounding.
		// Some lanes far away, on texel centres' halfway points, or not numbers.
		const float kOdd[] = {1.0e5f,
		                      -3.0e6f,
		                      2.0e9f,
		                      0.5f / 32.0f,
		                      1.0f / 48.0f + 1.0e-7f,
		                      -1.0e-9f,
		                      std::numeric_limits<float>::infinity(),
		                      std::numeric_limits<float>::quiet_NaN()};
		if (i % 8 == 7) s[i] = kOdd[(i / 8) % 8];
		if (i % 8 == 5) dx[0][i] = kOdd[(i / 8) % 8];  // NaN and infinite derivatives too
		lods[i] = i % 3 == 0 ? float(i) / 512.0f + 0.5f * float(i % 4) : lod(rng);
		biases[i] = lod(rng) - 3.0f;
	}
	SampleLanes lanes;
	lanes.count = kLanes;
	lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
	std::vector<int32_t> offset[2];
	std::uniform_int_distribution<int32_t> texels(-8, 7);
	for (int d = 0; d < 2 && offsets; ++d) {
		for (uint32_t i = 0; i < kLanes; ++i) offset[d].push_back(texels(rng));
		lanes.offset[d] = offset[d].data();
	}
	if (explicit_lod) {
		lanes.lod = lods.data();
	} else {
		for (int d = 0; d < 2; ++d) lanes.ddx[d] = dx[d].data(), lanes.ddy[d] = dy[d].data();
		if (bias) lanes.bias = biases.data();
	}
	std::vector<TexelValue> a(kLanes), b(kLanes);
	REQUIRE(SampleFast(fast, lanes, a.data()));
	lanes.coord[2] = layer.data();
	SampleGeneric(generic, lanes, b.data());
	const bool one_texel = sampler.mag_filter == VK_FILTER_NEAREST && sampler.min_filter == VK_FILTER_NEAREST &&
	                       sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST && !sampler.anisotropy_enable;
	const bool nan_as_nan = (fast.format->format == VK_FORMAT_R32G32B32A32_SFLOAT ||
	                         fast.format->format == VK_FORMAT_R16G16B16A16_SFLOAT) &&
	                        !one_texel;
	for (uint32_t i = 0; i < kLanes; ++i) {
		INFO("lane " << i << " at (" << s[i] << ", " << t[i] << ")");
		for (int c = 0; c < 4; ++c)
			CHECK((a[i].u[c] == b[i].u[c] || (nan_as_nan && std::isnan(a[i].f[c]) && std::isnan(b[i].f[c]))));
	}
}

}  // namespace

TEST_CASE("sampling fast path: RGBA8/BGRA8/RGBA32F 2D lookups equal the generic path bit for bit",
          "[texture][sample]") {
	std::mt19937 rng(1234);
	const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB,
	                            VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R32G32B32A32_SFLOAT};
	const VkFilter filters[] = {VK_FILTER_NEAREST, VK_FILTER_LINEAR};
	const VkSamplerMipmapMode mips[] = {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR};
	const VkSamplerAddressMode modes[] = {
	    VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
	    VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
	for (VkFormat format : formats)
		for (uint32_t size : {32u, 24u}) {  // power of two and not
			const TestImage img = RandomImage(format, size, size / 2, 5, rng);
			for (VkFilter mag : filters)
				for (VkFilter min : filters)
					for (VkSamplerMipmapMode mip : mips)
						for (VkSamplerAddressMode mode : modes)
							for (float aniso : {1.0f, 16.0f}) {
								SamplerState sampler = Sampler(mag, mode);
								sampler.min_filter = min;
								sampler.mipmap_mode = mip;
								sampler.anisotropy_enable = aniso > 1.0f;
								sampler.max_anisotropy = aniso;
								sampler.mip_lod_bias = 0.25f;
								sampler.min_lod = 0.5f * float(mode == VK_SAMPLER_ADDRESS_MODE_REPEAT);
								sampler.max_lod = 3.5f;
								// (Each border color in turn: transparent and
								// opaque black and white.)
								sampler.border_color = VkBorderColor(rng() % 6);
								INFO("format " << format << " size " << size << " mag " << mag << " min " << min
								               << " mip " << mip << " mode " << mode << " aniso " << aniso);
								CompareFastAndGeneric(img, sampler, rng, false, false);
								CompareFastAndGeneric(img, sampler, rng, false, true);
								CompareFastAndGeneric(img, sampler, rng, true, false);
								CompareFastAndGeneric(img, sampler, rng, false, false, 1.625f);
								CompareFastAndGeneric(img, sampler, rng, true, false, 2.0f);
								CompareFastAndGeneric(img, sampler, rng, false, true, 0.0f, {}, true);
							}
		}
}

// Swizzled views (OpenGL's RGB textures reach Tessera through Zink as RGBA8
// views with alpha ONE; luminance and alpha textures as R8 views with R
// replicated or ZERO/ONE), every swizzle value among them: the swizzle is
// applied to the filtered result, as the generic path applies it.
TEST_CASE("sampling fast path: swizzled views equal the generic path bit for bit", "[texture][sample]") {
	std::mt19937 rng(77);
	constexpr VkComponentSwizzle kR = VK_COMPONENT_SWIZZLE_R, kG = VK_COMPONENT_SWIZZLE_G, kB = VK_COMPONENT_SWIZZLE_B,
	                             kA = VK_COMPONENT_SWIZZLE_A, kOne = VK_COMPONENT_SWIZZLE_ONE,
	                             kZero = VK_COMPONENT_SWIZZLE_ZERO, kSame = VK_COMPONENT_SWIZZLE_IDENTITY;
	const VkComponentMapping mappings[] = {
	    {kSame, kSame, kSame, kOne}, {kB, kG, kR, kA}, {kR, kR, kR, kOne}, {kZero, kA, kOne, kG}};
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
	                        VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8_UNORM})
		for (const VkComponentMapping& mapping : mappings) {
			const TestImage img = RandomImage(format, 24, 16, 4, rng);
			for (const SamplerState& sampler : SamplerGrid(0.25f)) {
				INFO("format " << format << " swizzle " << mapping.r << " " << mapping.g << " " << mapping.b << " "
				               << mapping.a << " mag " << sampler.mag_filter << " min " << sampler.min_filter << " mip "
				               << sampler.mipmap_mode << " mode " << sampler.address_u << " aniso "
				               << sampler.max_anisotropy);
				CompareFastAndGeneric(img, sampler, rng, false, false, 0.0f, mapping);
				CompareFastAndGeneric(img, sampler, rng, true, false, 0.0f, mapping);
			}
		}
}

// One-level images: with one filter for magnification and minification and
// no anisotropy the fast path skips the derivatives and the LOD, which must
// not change a bit (the lanes include infinite and NaN coordinates and
// derivatives); mixed filters and anisotropy take the LOD as before. The
// mirrored address modes and texel offsets too (glmark2's and many 2D
// effects' textures; blur and FXAA shaders' textureOffset).
TEST_CASE("sampling fast path: one-level images equal the generic path bit for bit", "[texture][sample]") {
	std::mt19937 rng(5);
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8_UNORM})
		for (uint32_t size : {16u, 20u}) {
			const TestImage img = RandomImage(format, size, size / 2, 1, rng);
			for (SamplerState sampler : SamplerGrid(0.5f))
				for (VkSamplerAddressMode mode :
				     {sampler.address_u, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
				      VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}) {
					sampler.address_u = sampler.address_v = mode;
					sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
					INFO("format " << format << " size " << size << " mag " << sampler.mag_filter << " min "
					               << sampler.min_filter << " mip " << sampler.mipmap_mode << " mode " << mode
					               << " aniso " << sampler.max_anisotropy);
					CompareFastAndGeneric(img, sampler, rng, false, false);
					CompareFastAndGeneric(img, sampler, rng, false, true);
					CompareFastAndGeneric(img, sampler, rng, true, false);
					CompareFastAndGeneric(img, sampler, rng, true, false, 0.0f, {}, true);
				}
		}
}
