// Sampler min/max reduction (samplerFilterMinmax): §16 "Texel Filtering" and
// "Texel Mipmap Filtering" with VK_SAMPLER_REDUCTION_MODE_MIN / MAX take the
// component-wise minimum or maximum of the values with non-zero weights.
#include <catch2/catch.hpp>

#include "sampling_fixture.h"

namespace tessera::texture::test {
namespace {

TexelValue SampleAt(const SampledImage& image, float s, float t = 0.5f, float lod = 0.0f) {
	float coord[2] = {s, t};
	SampleLanes lanes;
	lanes.count = 1;
	lanes.coord[0] = &coord[0];
	lanes.coord[1] = &coord[1];
	lanes.lod = &lod;
	TexelValue out;
	Sample(image, lanes, &out);
	return out;
}

SamplerState Reduced(VkFilter filter, VkSamplerReductionMode mode,
                     VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
	SamplerState s = Sampler(filter, address);
	s.reduction_mode = mode;
	return s;
}

TEST_CASE("LINEAR min/max reductions take the extreme of the texels with non-zero weights",
          "[texture][sampling][reduction]") {
	// A 2x1 row: texels (1, 5, 0, 1) and (4, 2, 0, 1).
	TestImage row(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 1, 1});
	TexelValue a{}, b{};
	a.f[0] = 1, a.f[1] = 5, a.f[3] = 1;
	b.f[0] = 4, b.f[1] = 2, b.f[3] = 1;
	row.Set(0, 0, 0, 0, 0, a);
	row.Set(0, 0, 1, 0, 0, b);
	const ImageViewState view = row.View(VK_IMAGE_VIEW_TYPE_2D);
	SampledImage avg = Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE), view);
	SampledImage min = Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MIN), view);
	SampledImage max = Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MAX), view);
	// u = 0.5: halfway between the centers.
	CHECK(SampleAt(avg, 0.5f).f[0] == 2.5f);
	CHECK(SampleAt(min, 0.5f).f[0] == 1.0f);
	CHECK(SampleAt(min, 0.5f).f[1] == 2.0f);  // component-wise
	CHECK(SampleAt(max, 0.5f).f[0] == 4.0f);
	CHECK(SampleAt(max, 0.5f).f[1] == 5.0f);
	CHECK(SampleAt(max, 0.5f).f[3] == 1.0f);
	// u = 0.25: texel 0's center, texel 1 weighs 0 and takes no part.
	CHECK(SampleAt(max, 0.25f).f[0] == 1.0f);
	CHECK(SampleAt(min, 0.75f).f[0] == 4.0f);
	// Off center by less than a 2^-8 step of the weights: still one texel.
	CHECK(SampleAt(max, 0.25f + 1.0f / 2048).f[0] == 1.0f);
	CHECK(SampleAt(max, 0.25f + 1.0f / 64).f[0] == 4.0f);

	// The border texel takes part like any texel.
	SampledImage border = Prepare(
	    Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), view);
	CHECK(SampleAt(border, 0.0f).f[0] == 0.0f);  // transparent black
	CHECK(SampleAt(border, 0.0f).f[1] == 0.0f);
}

TEST_CASE("MIPMAP_MODE_LINEAR min/max reductions take the extreme of the two levels",
          "[texture][sampling][reduction]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1}, 2);
	for (uint32_t n = 0; n < 4; ++n) img.SetFloat(0, 0, n & 1, n >> 1, 0, 1.0f);
	img.SetFloat(1, 0, 0, 0, 0, 3.0f);
	const ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D);
	auto sampler = [](VkSamplerReductionMode mode) {
		SamplerState s = Reduced(VK_FILTER_NEAREST, mode);
		s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
		return s;
	};
	CHECK(SampleAt(Prepare(sampler(VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE), view), 0.3f, 0.3f, 0.5f).f[0] == 2.0f);
	CHECK(SampleAt(Prepare(sampler(VK_SAMPLER_REDUCTION_MODE_MIN), view), 0.3f, 0.3f, 0.5f).f[0] == 1.0f);
	CHECK(SampleAt(Prepare(sampler(VK_SAMPLER_REDUCTION_MODE_MAX), view), 0.3f, 0.3f, 0.5f).f[0] == 3.0f);
	// At an integer LOD only one level has weight.
	CHECK(SampleAt(Prepare(sampler(VK_SAMPLER_REDUCTION_MODE_MAX), view), 0.3f, 0.3f, 0.0f).f[0] == 1.0f);
	CHECK(SampleAt(Prepare(sampler(VK_SAMPLER_REDUCTION_MODE_MIN), view), 0.3f, 0.3f, 1.0f).f[0] == 3.0f);
}

TEST_CASE("min/max reductions on depth and on single-texel lookups", "[texture][sampling][reduction]") {
	// The depth aspect (no comparison: VUID-VkSamplerCreateInfo-compareEnable-01423).
	TestImage depth(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 1, 1});
	depth.SetFloat(0, 0, 0, 0, 0, 0.25f);
	depth.SetFloat(0, 0, 1, 0, 0, 0.75f);
	const ImageViewState view = depth.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT);
	CHECK(SampleAt(Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MAX), view), 0.5f).f[0] == 0.75f);
	CHECK(SampleAt(Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MIN), view), 0.5f).f[0] == 0.25f);
	// NEAREST without mipmaps reads one texel: the reduction changes nothing
	// (the prepared sampler averages, so the fast path may take it).
	TestImage rgba(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {2, 2, 1});
	SampledImage nearest =
	    Prepare(Reduced(VK_FILTER_NEAREST, VK_SAMPLER_REDUCTION_MODE_MAX), rgba.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(nearest.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE);
	SampledImage linear =
	    Prepare(Reduced(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MAX), rgba.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(linear.sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_MAX);
}

TEST_CASE("anisotropic min/max reductions take the extreme of the N samples", "[texture][sampling][reduction]") {
	// An 8x8 R32_SFLOAT image: 1 in column 3, 0 elsewhere.
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {8, 8, 1});
	for (uint32_t y = 0; y < 8; ++y)
		for (uint32_t x = 0; x < 8; ++x) img.SetFloat(0, 0, x, y, 0, x == 3 ? 1.0f : 0.0f);
	// d/dx = (0.5, 0), d/dy = (0, 0.125): N = 4 samples at u = 2.8, 3.6, 4.4,
	// 5.2 (anisotropy_test.cpp); NEAREST reads columns 2, 3, 4, 5.
	auto lookup = [&](VkSamplerReductionMode mode) {
		SamplerState s = Reduced(VK_FILTER_NEAREST, mode);
		s.anisotropy_enable = true;
		s.max_anisotropy = 16.0f;
		const SampledImage image = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D));
		float coord[2] = {0.5f, 0.5f}, ddx[3] = {0.5f, 0.0f, 0.0f}, ddy[3] = {0.0f, 0.125f, 0.0f};
		SampleLanes lanes;
		lanes.count = 1;
		lanes.coord[0] = &coord[0];
		lanes.coord[1] = &coord[1];
		for (int c = 0; c < 3; ++c) lanes.ddx[c] = &ddx[c], lanes.ddy[c] = &ddy[c];
		TexelValue out;
		Sample(image, lanes, &out);
		return out.f[0];
	};
	CHECK(lookup(VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) == 0.25f);
	CHECK(lookup(VK_SAMPLER_REDUCTION_MODE_MAX) == 1.0f);
	CHECK(lookup(VK_SAMPLER_REDUCTION_MODE_MIN) == 0.0f);
}

}  // namespace
}  // namespace tessera::texture::test
