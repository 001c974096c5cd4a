// Anisotropic filtering (samplerAnisotropy): the LOD and sample-count rules
// of Vulkan 1.3 §16 "Scale Factor Operation, LOD Operation and Image
// Level(s) Selection", and lookups worked out by hand from §16 "Texel
// Anisotropic Filtering" (N isotropic samples at x - 1/2 + i / (N + 1)
// along the major axis, averaged).
#include <catch2/catch.hpp>

#include <cmath>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sampling_math.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

TEST_CASE("anisotropy: eta, N and lambda_base from rho_x, rho_y and maxAnisotropy", "[texture][anisotropy]") {
	// rho 8 x 1, max 16: eta = 8, N = 8, lambda = log2(8 / 8) = 0.
	AnisotropicLod a = Anisotropy(8.0f, 1.0f, 16.0f);
	CHECK(a.samples == 8);
	CHECK(a.lambda_base == 0.0f);
	CHECK(a.x_major);
	// rho 2 x 64, max 16: the ratio 32 is clamped, eta = 16, lambda = log2(64 / 16) = 2.
	a = Anisotropy(2.0f, 64.0f, 16.0f);
	CHECK(a.samples == 16);
	CHECK(a.lambda_base == 2.0f);
	CHECK(!a.x_major);
	// rho 3 x 2: eta = 1.5, N = ceil(1.5) = 2, lambda = log2(3 / 1.5) = 1.
	a = Anisotropy(3.0f, 2.0f, 16.0f);
	CHECK(a.samples == 2);
	CHECK(a.lambda_base == Approx(1.0f));
	// Isotropic footprints: one sample at log2(rho).
	a = Anisotropy(4.0f, 4.0f, 16.0f);
	CHECK(a.samples == 1);
	CHECK(a.lambda_base == 2.0f);
	// maxAnisotropy 4 with a ratio of 10: eta = 4, lambda = log2(10 / 4).
	a = Anisotropy(10.0f, 1.0f, 4.0f);
	CHECK(a.samples == 4);
	CHECK(a.lambda_base == Approx(std::log2(2.5f)));
	// A line footprint (rho_min = 0): eta = maxAnisotropy.
	a = Anisotropy(0.0f, 32.0f, 16.0f);
	CHECK(a.samples == 16);
	CHECK(a.lambda_base == 1.0f);
	// No footprint: one sample at -inf (the sampler's minLod).
	a = Anisotropy(0.0f, 0.0f, 16.0f);
	CHECK(a.samples == 1);
	CHECK(std::isinf(a.lambda_base));
}

namespace {

// An 8x8 R32_SFLOAT image: 1 in column 3, 0 elsewhere (one level), or with
// a second level of constant 0.25 (4x4).
TestImage Column(uint32_t levels) {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {8, 8, 1}, levels);
	for (uint32_t y = 0; y < 8; ++y)
		for (uint32_t x = 0; x < 8; ++x) img.SetFloat(0, 0, x, y, 0, x == 3 ? 1.0f : 0.0f);
	if (levels > 1)
		for (uint32_t y = 0; y < 4; ++y)
			for (uint32_t x = 0; x < 4; ++x) img.SetFloat(1, 0, x, y, 0, 0.25f);
	return img;
}

float Lookup(const SampledImage& image, float s, float t, const float ddx[2], const float ddy[2]) {
	const float zero = 0.0f;
	const float* ddx_p[3] = {&ddx[0], &ddx[1], &zero};
	const float* ddy_p[3] = {&ddy[0], &ddy[1], &zero};
	SampleLanes lanes;
	lanes.count = 1;
	lanes.coord[0] = &s;
	lanes.coord[1] = &t;
	for (int c = 0; c < 3; ++c) lanes.ddx[c] = ddx_p[c], lanes.ddy[c] = ddy_p[c];
	TexelValue out;
	Sample(image, lanes, &out);
	return out.f[0];
}

}  // namespace

TEST_CASE("anisotropic lookups average N samples along the major axis", "[texture][anisotropy]") {
	TestImage img = Column(1);
	SamplerState sampler = Sampler(VK_FILTER_LINEAR);
	sampler.anisotropy_enable = true;
	sampler.max_anisotropy = 16.0f;
	const SampledImage aniso = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
	// d/dx = (0.5, 0): rho_x = 4; d/dy = (0, 0.125): rho_y = 1. eta = 4,
	// N = 4, lambda = 0 (magnified, LINEAR, level 0). At u = 4 the samples
	// lie at u = 4 + 4 * (i / 5 - 1/2) = 2.8, 3.6, 4.4, 5.2, where column 3
	// (center 3.5) weighs 0.3, 0.9, 0.1 and 0 (8-bit fractions: 77/256,
	// 230/256, 26/256): the mean is 333/1024.
	const float ddx[2] = {0.5f, 0.0f}, ddy[2] = {0.0f, 0.125f};
	CHECK(Lookup(aniso, 0.5f, 0.5f, ddx, ddy) == Approx(333.0f / 1024.0f).margin(1e-6));
	// The same footprint along v (d/dx = (0, 0.125), d/dy = (0, 0.5)): the
	// samples spread along the column, all at u = 4, where column 3 weighs 1/2.
	const float along_v_x[2] = {0.0f, 0.125f}, along_v_y[2] = {0.0f, 0.5f};
	CHECK(Lookup(aniso, 0.5f, 0.5f, along_v_x, along_v_y) == Approx(0.5f).margin(1e-6));
	// Without anisotropy: one sample at u = 4 (lambda = 2, clamped to the
	// only level): 1/2.
	sampler.anisotropy_enable = false;
	sampler.max_anisotropy = 1.0f;
	const SampledImage iso = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(Lookup(iso, 0.5f, 0.5f, ddx, ddy) == Approx(0.5f).margin(1e-6));
}

TEST_CASE("anisotropic lookups take the LOD of the minor axis", "[texture][anisotropy]") {
	TestImage img = Column(2);
	SamplerState sampler = Sampler(VK_FILTER_LINEAR);
	sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	sampler.anisotropy_enable = true;
	sampler.max_anisotropy = 2.0f;
	const SampledImage image = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D));
	// rho_x = 8 * 0.75 = 6, rho_y = 8 * 0.1875 = 1.5: ratio 4, eta = 2
	// (maxAnisotropy), N = 2, lambda = log2(6 / 2) = log2(3) = 1.585; with
	// q = 1, d' = min(lambda, 1) = 1: level 1 alone (0.25 everywhere).
	const float ddx[2] = {0.75f, 0.0f}, ddy[2] = {0.0f, 0.1875f};
	CHECK(Lookup(image, 0.5f, 0.5f, ddx, ddy) == Approx(0.25f).margin(1e-6));
	// rho_x = 8 * 0.25 = 2, rho_y = 1: eta = 2, lambda = 0, level 0
	// (magnified: LINEAR). Samples at u = 4 + 2 * (i / 3 - 1/2) = 3.667,
	// 4.333: column 3 weighs 0.833 and 0.167 (8-bit: 213/256, 43/256):
	// mean 256/512 = 0.5.
	const float ddx2[2] = {0.25f, 0.0f}, ddy2[2] = {0.0f, 0.125f};
	CHECK(Lookup(image, 0.5f, 0.5f, ddx2, ddy2) == Approx(0.5f).margin(1e-6));
}
