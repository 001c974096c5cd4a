// Whole lookups (Sample, Gather, Fetch, queries) on images built in memory,
// against values worked out from Vulkan 1.3 §16's equations.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"
#include "texture/sampling_math.h"
#include "texture/texel.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

// One lane: coordinates and optional operands.
struct Lane {
	float coord[4] = {};
	float lod = 0.0f, bias = 0.0f, dref = 0.0f;
	float ddx[3] = {}, ddy[3] = {};
	int32_t offset[3] = {};
	bool has_lod = true, has_grad = false, has_dref = false, has_offset = false;

	SampleLanes Lanes() const {
		SampleLanes l;
		l.count = 1;
		for (int c = 0; c < 4; ++c) l.coord[c] = &coord[c];
		if (has_lod) l.lod = &lod;
		if (has_grad)
			for (int c = 0; c < 3; ++c) l.ddx[c] = &ddx[c], l.ddy[c] = &ddy[c];
		l.bias = &bias;
		if (has_dref) l.dref = &dref;
		if (has_offset)
			for (int c = 0; c < 3; ++c) l.offset[c] = &offset[c];
		return l;
	}
};

TexelValue SampleAt(const SampledImage& image, const Lane& lane) {
	TexelValue out;
	Sample(image, lane.Lanes(), &out);
	return out;
}

Lane At(float s, float t = 0.0f, float r = 0.0f, float a = 0.0f) {
	Lane l;
	l.coord[0] = s, l.coord[1] = t, l.coord[2] = r, l.coord[3] = a;
	return l;
}

// A 4x1 R32_SFLOAT row holding 1, 2, 3, 4.
TestImage Row() {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 1, 1});
	for (uint32_t x = 0; x < 4; ++x) img.SetFloat(0, 0, x, 0, 0, float(x + 1));
	return img;
}

}  // namespace

TEST_CASE("NEAREST reads the texel the coordinate lies in", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1});
	for (uint32_t y = 0; y < 4; ++y)
		for (uint32_t x = 0; x < 4; ++x) img.SetFloat(0, 0, x, y, 0, float(x + 10 * y));
	SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(image, At(0.6f, 0.3f)).f[0] == 12.0f);   // u = 2.4, v = 1.2
	CHECK(SampleAt(image, At(0.5f, 0.25f)).f[0] == 12.0f);  // on the texel's lower edge
	CHECK(SampleAt(image, At(0.4999f, 0.2499f)).f[0] == 1.0f);
	// Missing components read as (0, 0, 1).
	TexelValue v = SampleAt(image, At(0.1f, 0.1f));
	CHECK((v.f[1] == 0.0f && v.f[2] == 0.0f && v.f[3] == 1.0f));
}

TEST_CASE("LINEAR weights have 8 fraction bits", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 1, 1});
	img.SetFloat(0, 0, 0, 0, 0, 0.0f);
	img.SetFloat(0, 0, 1, 0, 0, 1.0f);
	SampledImage image = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_2D));
	// s = 0.4: u - 1/2 = 0.3 -> alpha = round(0.3 * 256) / 256 = 77/256, not 0.3.
	CHECK(SampleAt(image, At(0.4f, 0.5f)).f[0] == 77.0f / 256.0f);
	CHECK(SampleAt(image, At(0.5f, 0.5f)).f[0] == 0.5f);
	// Clamp to edge outside the centres: one texel.
	CHECK(SampleAt(image, At(0.1f, 0.5f)).f[0] == 0.0f);
	CHECK(SampleAt(image, At(0.9f, 0.5f)).f[0] == 1.0f);
}

TEST_CASE("texels up to maxImageDimensionCube (32768) wide keep their index and 8-bit weights", "[texture][sampling]") {
	// A row as wide as a face of the largest cube: texel 32766 is 1 and
	// 32767 is 2, the rest 0. RGBA32F takes the fast path through a 2D view
	// and the generic one through a 2D_ARRAY view; both must agree with §16.
	constexpr uint32_t kWidth = 32768;
	TestImage img(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {kWidth, 1, 1});
	img.SetFloat(kWidth - 2, 0, 0, 1.0f);
	img.SetFloat(kWidth - 1, 0, 0, 2.0f);
	auto s = [](double u) { return float(u / kWidth); };  // exact: u has at most 23 significant bits
	for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY}) {
		INFO("view type " << type);
		SampledImage nearest = Prepare(Sampler(VK_FILTER_NEAREST), img.View(type));
		CHECK(SampleAt(nearest, At(s(32767.5), 0.5f)).f[0] == 2.0f);
		CHECK(SampleAt(nearest, At(s(32767.0), 0.5f)).f[0] == 2.0f);  // on texel 32767's lower edge
		CHECK(SampleAt(nearest, At(s(32766.99609375), 0.5f)).f[0] == 1.0f);
		CHECK(SampleAt(nearest, At(s(32765.75), 0.5f)).f[0] == 0.0f);
		SampledImage linear = Prepare(Sampler(VK_FILTER_LINEAR), img.View(type));
		// u - 1/2 = 32765 + 77/256: texels 32765 and 32766, alpha 77/256.
		CHECK(SampleAt(linear, At(s(32765.5 + 77.0 / 256.0), 0.5f)).f[0] == 77.0f / 256.0f);
		CHECK(SampleAt(linear, At(s(32767.0), 0.5f)).f[0] == 1.5f);
		CHECK(SampleAt(linear, At(1.0f, 0.5f)).f[0] == 2.0f);  // clamped to the last texel
	}
}

TEST_CASE("2D LINEAR blends the 2x2 texels around the coordinate", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	const float values[4] = {1.0f, 2.0f, 4.0f, 8.0f};  // (0,0), (1,0), (0,1), (1,1)
	for (uint32_t n = 0; n < 4; ++n) img.SetFloat(0, 0, n & 1, n >> 1, 0, values[n]);
	SampledImage image = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_2D));
	// u = 1.25, v = 0.75: alpha = 0.75, beta = 0.25.
	const float expected = 0.25f * 0.75f * 1.0f + 0.75f * 0.75f * 2.0f + 0.25f * 0.25f * 4.0f + 0.75f * 0.25f * 8.0f;
	CHECK(SampleAt(image, At(0.625f, 0.375f)).f[0] == expected);
}

TEST_CASE("each address mode at and beyond the edges", "[texture][sampling][wrap]") {
	TestImage img = Row();
	struct Case {
		VkSamplerAddressMode mode;
		float left, right, far_left;  // at s = -0.1 (i = -1), 1.3 (i = 5), -1.1 (i = -5)
	};
	// Texel values are i + 1; border (opaque white) is 1.0 as well, so the
	// border case uses transparent black below.
	const Case cases[] = {
	    {VK_SAMPLER_ADDRESS_MODE_REPEAT, 4.0f, 2.0f, 4.0f},
	    {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 1.0f, 3.0f, 4.0f},
	    {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 1.0f, 4.0f, 1.0f},
	    {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 0.0f, 0.0f, 0.0f},
	    {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, 1.0f, 4.0f, 4.0f},
	};
	for (const Case& c : cases) {
		INFO("address mode " << c.mode);
		SamplerState s = Sampler(VK_FILTER_NEAREST, c.mode);
		s.border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
		SampledImage image = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D));
		CHECK(SampleAt(image, At(-0.1f, 0.5f)).f[0] == c.left);
		CHECK(SampleAt(image, At(1.3f, 0.5f)).f[0] == c.right);
		CHECK(SampleAt(image, At(-1.1f, 0.5f)).f[0] == c.far_left);
		CHECK(SampleAt(image, At(0.0f, 0.5f)).f[0] == 1.0f);  // the edges themselves
		CHECK(SampleAt(image, At(0.999f, 0.5f)).f[0] == 4.0f);
	}
	// LINEAR across the repeat seam: u = 0 blends texels 3 and 0 half and half.
	SampledImage repeat =
	    Prepare(Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT), img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(repeat, At(0.0f, 0.5f)).f[0] == 2.5f);
	// Mirror clamp to edge: u = 0 reads texels -1 -> 0 and 0.
	SampledImage mirror = Prepare(Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE),
	                              img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(mirror, At(0.0f, 0.5f)).f[0] == 1.0f);
	CHECK(SampleAt(mirror, At(-0.25f, 0.5f)).f[0] == 1.5f);  // u = -1: texels -2 -> 1 and -1 -> 0
}

TEST_CASE("border texels replace the format's components, the others keep 0, 0, 1", "[texture][sampling][border]") {
	struct Case {
		VkFormat format;
		VkBorderColor color;
		float expected[4];
	};
	const Case float_cases[] = {
	    {VK_FORMAT_R8G8B8A8_UNORM, VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, {0, 0, 0, 0}},
	    {VK_FORMAT_R8G8B8A8_UNORM, VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, {0, 0, 0, 1}},
	    {VK_FORMAT_R8G8B8A8_UNORM, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, {1, 1, 1, 1}},
	    {VK_FORMAT_R8G8_UNORM, VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, {0, 0, 0, 1}},
	    {VK_FORMAT_R8G8_UNORM, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, {1, 1, 0, 1}},
	    {VK_FORMAT_R32_SFLOAT, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, {1, 0, 0, 1}},
	};
	for (const Case& c : float_cases) {
		INFO("format " << c.format << " border " << c.color);
		TestImage img(c.format, VK_IMAGE_TYPE_2D, {2, 2, 1});
		SamplerState s = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
		s.border_color = c.color;
		TexelValue v = SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), At(1.5f, 0.5f));
		for (int comp = 0; comp < 4; ++comp) CHECK(v.f[comp] == c.expected[comp]);
	}
	struct IntCase {
		VkFormat format;
		VkBorderColor color;
		uint32_t expected[4];
	};
	const IntCase int_cases[] = {
	    {VK_FORMAT_R32G32B32A32_UINT, VK_BORDER_COLOR_INT_OPAQUE_WHITE, {1, 1, 1, 1}},
	    {VK_FORMAT_R32G32B32A32_SINT, VK_BORDER_COLOR_INT_OPAQUE_BLACK, {0, 0, 0, 1}},
	    {VK_FORMAT_R32G32B32A32_UINT, VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, {0, 0, 0, 0}},
	    {VK_FORMAT_R32_SINT, VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, {0, 0, 0, 1}},
	    {VK_FORMAT_R16G16_UINT, VK_BORDER_COLOR_INT_OPAQUE_WHITE, {1, 1, 0, 1}},
	};
	for (const IntCase& c : int_cases) {
		INFO("format " << c.format << " border " << c.color);
		TestImage img(c.format, VK_IMAGE_TYPE_2D, {2, 2, 1});
		TexelValue texel{};
		texel.u[0] = texel.u[1] = texel.u[2] = texel.u[3] = 7;
		img.Set(0, 0, 0, 0, 0, texel);
		SamplerState s = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
		s.border_color = c.color;
		SampledImage image = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D));
		TexelValue v = SampleAt(image, At(-0.5f, 0.25f));
		for (int comp = 0; comp < 4; ++comp) CHECK(v.u[comp] == c.expected[comp]);
		CHECK(SampleAt(image, At(0.25f, 0.25f)).u[0] == 7u);
	}
	// LINEAR half on the border: u = 0 weighs texel -1 (border) and 0 alike.
	TestImage img(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	TexelValue ones{};
	for (int comp = 0; comp < 4; ++comp) ones.f[comp] = 0.5f;
	for (uint32_t n = 0; n < 4; ++n) img.Set(0, 0, n & 1, n >> 1, 0, ones);
	SamplerState s = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	s.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	TexelValue v = SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), At(0.0f, 0.5f));
	CHECK(v.f[0] == 0.75f);
	CHECK(v.f[3] == 0.75f);
}

TEST_CASE("cube maps: the major axis picks the face, ties go to z then y", "[texture][sampling][cube]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1}, 1, 6);
	for (uint32_t f = 0; f < 6; ++f)
		for (uint32_t n = 0; n < 4; ++n) img.SetFloat(0, f, n & 1, n >> 1, 0, float(f));
	SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_CUBE));
	const float axes[6][3] = {{1, 0.2f, 0.1f},  {-1, 0.2f, 0.1f}, {0.2f, 1, 0.1f},
	                          {0.2f, -1, 0.1f}, {0.2f, 0.1f, 1},  {0.2f, 0.1f, -1}};
	for (uint32_t f = 0; f < 6; ++f) CHECK(SampleAt(image, At(axes[f][0], axes[f][1], axes[f][2])).f[0] == float(f));
	CHECK(SampleAt(image, At(1, 1, 1)).f[0] == 4.0f);
	CHECK(SampleAt(image, At(-1, -1, -1)).f[0] == 5.0f);
	CHECK(SampleAt(image, At(-1, 1, 0.5f)).f[0] == 2.0f);
	CHECK(SampleAt(image, At(-1, -1, 0.5f)).f[0] == 3.0f);
}

TEST_CASE("cube seams: LINEAR at a face edge blends the neighbouring face", "[texture][sampling][cube]") {
	// Face f, texel (i, j) holds 100 f + 10 j + i.
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1}, 1, 6);
	for (uint32_t f = 0; f < 6; ++f)
		for (uint32_t n = 0; n < 4; ++n) img.SetFloat(0, f, n & 1, n >> 1, 0, float(100 * f + 10 * (n >> 1) + (n & 1)));
	SampledImage image = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_CUBE));
	// +X at s_face = 0.875, t_face = 0.25 (direction (1, 0.5, -0.75)):
	// i0 = 1, alpha = 0.25, j0 = 0, beta = 0. Texel i = 2 is -Z's (0, 0).
	CHECK(SampleAt(image, At(1.0f, 0.5f, -0.75f)).f[0] == 0.75f * 1.0f + 0.25f * 500.0f);
	// Near the corner (s_face = t_face = 0.875): (2, 1) -> -Z (0, 1) = 510,
	// (1, 2) -> -Y (1, 1) = 311, and (2, 2) the average of the other three.
	const float corner = (11.0f + 510.0f + 311.0f) / 3.0f;
	const float expected = 0.5625f * 11.0f + 0.1875f * 510.0f + 0.1875f * 311.0f + 0.0625f * corner;
	CHECK(SampleAt(image, At(1.0f, -0.75f, -0.75f)).f[0] == Approx(expected).epsilon(1e-6));
	// NEAREST clamps to the face's edge instead.
	SampledImage nearest = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_CUBE));
	CHECK(SampleAt(nearest, At(1.0f, 0.5f, -0.99f)).f[0] == 1.0f);
	// A corner of three equal texels reads that value (§16 "Cube Map Edge Handling").
	TestImage flat(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1}, 1, 6);
	for (uint32_t f = 0; f < 6; ++f)
		for (uint32_t n = 0; n < 4; ++n) flat.SetFloat(0, f, n & 1, n >> 1, 0, 0.25f);
	CHECK(
	    SampleAt(Prepare(Sampler(VK_FILTER_LINEAR), flat.View(VK_IMAGE_VIEW_TYPE_CUBE)), At(1.0f, -0.9f, -0.9f)).f[0] ==
	    0.25f);
}

TEST_CASE("array layers round to nearest even and clamp to the view", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {1, 1, 1}, 1, 6);
	for (uint32_t l = 0; l < 6; ++l) img.SetFloat(0, l, 0, 0, 0, float(l));
	ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	view.base_layer = 1;
	view.layer_count = 4;  // layers 1..4
	SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), view);
	CHECK(SampleAt(image, At(0.5f, 0.5f, 1.5f)).f[0] == 3.0f);
	CHECK(SampleAt(image, At(0.5f, 0.5f, 2.5f)).f[0] == 3.0f);
	CHECK(SampleAt(image, At(0.5f, 0.5f, 0.5f)).f[0] == 1.0f);
	CHECK(SampleAt(image, At(0.5f, 0.5f, -3.0f)).f[0] == 1.0f);
	CHECK(SampleAt(image, At(0.5f, 0.5f, 9.0f)).f[0] == 4.0f);
	// 1D arrays take the layer from the second coordinate.
	TestImage row(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_1D, {1, 1, 1}, 1, 3);
	for (uint32_t l = 0; l < 3; ++l) row.SetFloat(0, l, 0, 0, 0, float(l));
	CHECK(SampleAt(Prepare(Sampler(VK_FILTER_NEAREST), row.View(VK_IMAGE_VIEW_TYPE_1D_ARRAY)), At(0.5f, 1.4f)).f[0] ==
	      1.0f);
}

TEST_CASE("mip levels from derivatives, explicit lod, bias and clamps", "[texture][sampling][lod]") {
	// 8x8 with 4 levels; every texel of level d holds d.
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {8, 8, 1}, 4);
	for (uint32_t d = 0; d < 4; ++d)
		for (uint32_t y = 0; y < MipExtent(8, d); ++y)
			for (uint32_t x = 0; x < MipExtent(8, d); ++x) img.SetFloat(d, 0, x, y, 0, float(d));
	SamplerState s = Sampler(VK_FILTER_NEAREST);
	SampledImage image = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D));
	Lane lane = At(0.5f, 0.5f);
	lane.has_lod = false, lane.has_grad = true;
	lane.ddx[0] = 2.0f / 8.0f;  // rho = 2 -> lambda 1
	lane.ddy[1] = 1.0f / 8.0f;
	CHECK(SampleAt(image, lane).f[0] == 1.0f);
	lane.ddy[1] = 8.0f / 8.0f;  // rho_max from y: 8 -> lambda 3
	CHECK(SampleAt(image, lane).f[0] == 3.0f);
	lane.ddx[0] = lane.ddy[1] = 0.0f;  // lambda -inf -> lod_min
	CHECK(SampleAt(image, lane).f[0] == 0.0f);

	Lane explicit_lod = At(0.5f, 0.5f);
	explicit_lod.lod = 1.5f;  // NEAREST rounds 1.5 down
	CHECK(SampleAt(image, explicit_lod).f[0] == 1.0f);
	explicit_lod.bias = 0.25f;
	CHECK(SampleAt(image, explicit_lod).f[0] == 2.0f);
	explicit_lod.lod = 9.0f;  // beyond the view's last level
	CHECK(SampleAt(image, explicit_lod).f[0] == 3.0f);

	SamplerState clamped = s;
	clamped.min_lod = 1.0f;
	clamped.max_lod = 2.0f;
	explicit_lod.bias = 0.0f;
	CHECK(SampleAt(Prepare(clamped, img.View(VK_IMAGE_VIEW_TYPE_2D)), explicit_lod).f[0] == 2.0f);
	explicit_lod.lod = -4.0f;
	CHECK(SampleAt(Prepare(clamped, img.View(VK_IMAGE_VIEW_TYPE_2D)), explicit_lod).f[0] == 1.0f);
	SamplerState biased = s;
	biased.mip_lod_bias = 2.0f;
	explicit_lod.lod = 0.0f;
	CHECK(SampleAt(Prepare(biased, img.View(VK_IMAGE_VIEW_TYPE_2D)), explicit_lod).f[0] == 2.0f);

	// LINEAR mipmaps blend two levels: (1 - delta) tau_hi + delta tau_lo.
	SamplerState trilinear = Sampler(VK_FILTER_LINEAR);
	trilinear.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	SampledImage tri = Prepare(trilinear, img.View(VK_IMAGE_VIEW_TYPE_2D));
	explicit_lod.lod = 1.25f;
	CHECK(SampleAt(tri, explicit_lod).f[0] == 1.25f);
	explicit_lod.lod = 2.7f;  // 2.7 * 256 = 691.2 -> 691/256
	CHECK(SampleAt(tri, explicit_lod).f[0] == 691.0f / 256.0f);

	// The view's base level is its level 0: rho uses its extent, lod counts from it.
	ImageViewState from1 = img.View(VK_IMAGE_VIEW_TYPE_2D);
	from1.base_level = 1;
	from1.level_count = 2;
	SampledImage view1 = Prepare(s, from1);
	lane.ddx[0] = 2.0f / 4.0f;  // 2 texels of the 4x4 base -> lambda 1 -> image level 2
	CHECK(SampleAt(view1, lane).f[0] == 2.0f);
	explicit_lod.lod = 5.0f;
	CHECK(SampleAt(view1, explicit_lod).f[0] == 2.0f);
}

TEST_CASE("magnification (lambda <= 0) uses magFilter, minification minFilter", "[texture][sampling][lod]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 1, 1}, 1);
	img.SetFloat(0, 0, 0, 0, 0, 0.0f);
	img.SetFloat(0, 0, 1, 0, 0, 1.0f);
	SamplerState s = Sampler(VK_FILTER_NEAREST);
	s.mag_filter = VK_FILTER_LINEAR;
	SampledImage image = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D));
	Lane lane = At(0.5f, 0.5f);
	lane.lod = 0.0f;
	CHECK(SampleAt(image, lane).f[0] == 0.5f);  // LINEAR
	lane.lod = 0.25f;
	CHECK(SampleAt(image, lane).f[0] == 1.0f);  // NEAREST (single level: still level 0)
}

TEST_CASE("depth compare: each op, PCF filters the comparisons, UNORM clamps Dref", "[texture][sampling][compare]") {
	TestImage img(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 1, 1});
	PackDepth(VK_FORMAT_D32_SFLOAT, 0.25f, img.At(0, 0, 0));
	PackDepth(VK_FORMAT_D32_SFLOAT, 0.75f, img.At(0, 0, 1));
	const struct {
		VkCompareOp op;
		float result;  // Dref 0.25 against the texel 0.25
	} cases[] = {{VK_COMPARE_OP_NEVER, 0},
	             {VK_COMPARE_OP_LESS, 0},
	             {VK_COMPARE_OP_EQUAL, 1},
	             {VK_COMPARE_OP_LESS_OR_EQUAL, 1},
	             {VK_COMPARE_OP_GREATER, 0},
	             {VK_COMPARE_OP_NOT_EQUAL, 0},
	             {VK_COMPARE_OP_GREATER_OR_EQUAL, 1},
	             {VK_COMPARE_OP_ALWAYS, 1}};
	for (const auto& c : cases) {
		INFO("op " << c.op);
		SamplerState s = Sampler(VK_FILTER_NEAREST);
		s.compare_enable = true;
		s.compare_op = c.op;
		Lane lane = At(0.25f, 0.5f);
		lane.has_dref = true;
		lane.dref = 0.25f;
		CHECK(SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lane).f[0] == c.result);
	}
	// PCF: compare each texel, then filter. Dref 0.5 LESS: 0 for 0.25, 1 for 0.75.
	SamplerState pcf = Sampler(VK_FILTER_LINEAR);
	pcf.compare_enable = true;
	pcf.compare_op = VK_COMPARE_OP_LESS;
	Lane lane = At(0.5f, 0.5f);
	lane.has_dref = true;
	lane.dref = 0.5f;
	CHECK(SampleAt(Prepare(pcf, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lane).f[0] == 0.5f);
	lane.coord[0] = 0.375f;  // alpha = 0.25
	CHECK(SampleAt(Prepare(pcf, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lane).f[0] == 0.25f);

	// D16: Dref 1.5 clamps to 1.0, which equals the texel 1.0. D32 does not clamp.
	TestImage d16(VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D, {1, 1, 1});
	PackDepth(VK_FORMAT_D16_UNORM, 1.0f, d16.At(0, 0, 0));
	SamplerState eq = Sampler(VK_FILTER_NEAREST);
	eq.compare_enable = true;
	eq.compare_op = VK_COMPARE_OP_EQUAL;
	Lane high = At(0.5f, 0.5f);
	high.has_dref = true;
	high.dref = 1.5f;
	CHECK(SampleAt(Prepare(eq, d16.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), high).f[0] == 1.0f);
	TestImage d32(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {1, 1, 1});
	PackDepth(VK_FORMAT_D32_SFLOAT, 1.0f, d32.At(0, 0, 0));
	CHECK(SampleAt(Prepare(eq, d32.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), high).f[0] == 0.0f);

	// Border texels compare too: D = B_r (opaque white: 1.0 > 0.5).
	SamplerState border = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	border.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	border.compare_enable = true;
	border.compare_op = VK_COMPARE_OP_LESS;
	lane.coord[0] = -0.5f;
	CHECK(SampleAt(Prepare(border, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lane).f[0] == 1.0f);
}

TEST_CASE("depth/stencil aspects of combined formats read their own plane", "[texture][sampling]") {
	TestImage img(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, {1, 1, 1});
	PackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, 0.5f, img.At(0, 0, 0));
	*img.At(0, 0, 0, 0, 0, 1) = 200;
	TexelValue d =
	    SampleAt(Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)),
	             At(0.5f, 0.5f));
	CHECK(d.f[0] == float(0x800000) / float(0xffffff));
	CHECK((d.f[1] == 0.0f && d.f[2] == 0.0f && d.f[3] == 1.0f));
	TexelValue s =
	    SampleAt(Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_STENCIL_BIT)),
	             At(0.5f, 0.5f));
	CHECK(s.u[0] == 200u);
	CHECK(s.u[3] == 1u);
}

TEST_CASE("integer cube maps read a corner texel from a neighbouring face", "[texture][sampling][cube]") {
	TestImage img(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, {2, 2, 1}, 1, 6);
	for (uint32_t f = 0; f < 6; ++f)
		for (uint32_t n = 0; n < 4; ++n) {
			TexelValue v{};
			v.u[0] = 100 * f + 10 * (n >> 1) + (n & 1);
			img.Set(0, f, n & 1, n >> 1, 0, v);
		}
	SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_CUBE));
	// Gather near +X's corner: (1, 1) = 11, (2, 1) = -Z (0, 1) = 510,
	// (1, 2) = -Y (1, 1) = 311, corner (2, 2) taken from (1, 2)'s face edge in x: 311.
	TexelValue g;
	float x = 1.0f, y = -0.75f, z = -0.75f;
	SampleLanes lanes;
	lanes.count = 1;
	lanes.coord[0] = &x, lanes.coord[1] = &y, lanes.coord[2] = &z;
	Gather(image, lanes, 0, nullptr, &g);
	CHECK(g.u[0] == 311u);  // i0j1
	CHECK(g.u[1] == 311u);  // i1j1: the corner
	CHECK(g.u[2] == 510u);  // i1j0
	CHECK(g.u[3] == 11u);   // i0j0
}

TEST_CASE("16-bit float texels read as UnpackTexel converts them: every half", "[texture][sampling]") {
	// 128 x 128 RGBA16F texels hold all 65,536 halves (normals, subnormals,
	// signed zeros, infinities, NaN payloads), and so do 128 x 256 RG16F
	// texels; a 2D array view reads them through the generic path's direct
	// reader (ReadHalves), and through the vector sampler (its CPU
	// conversion where no NaN is in the vector, its own elsewhere).
	for (VkFormat format : {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_SFLOAT}) {
		const uint32_t components = format == VK_FORMAT_R16G16B16A16_SFLOAT ? 4 : 2, side = 128;
		const uint32_t height = 65536 / components / side;
		TestImage img(format, VK_IMAGE_TYPE_2D, {side, height, 1});
		for (uint32_t h = 0; h < 65536; ++h) {
			const uint16_t half = uint16_t(h);
			std::memcpy(img.memory.data() + 2 * h, &half, 2);
		}
		const SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
		const FormatInfo& info = *FindFormat(format);
		std::vector<float> s(side), t(side), layer(side, 0.0f), lod(side, 0.0f);
		SampleLanes lanes;
		lanes.count = side;
		lanes.coord[0] = s.data(), lanes.coord[1] = t.data(), lanes.coord[2] = layer.data();
		lanes.lod = lod.data();
		std::vector<TexelValue> out(side);
		for (uint32_t y = 0; y < height; ++y) {
			for (uint32_t x = 0; x < side; ++x)
				s[x] = (float(x) + 0.5f) / float(side), t[x] = (float(y) + 0.5f) / float(height);
			SampleGeneric(image, lanes, out.data());
			std::vector<TexelValue> fast(side);
			REQUIRE(SampleFast(image, lanes, fast.data()));
			for (uint32_t x = 0; x < side; ++x) {
				const TexelValue want = UnpackTexel(info, img.memory.data() + (size_t(y) * side + x) * 2 * components);
				for (int c = 0; c < 4; ++c) {
					INFO("format " << format << " texel " << x << ", " << y << " component " << c);
					CHECK(out[x].u[c] == want.u[c]);
					CHECK(fast[x].u[c] == want.u[c]);
				}
			}
		}
	}
}

TEST_CASE("VK_EXT_filter_cubic: Catmull-Rom weights of frac(u - 1/2), 4 x 4 texels", "[texture][sampling][cubic]") {
	// The weights sum to 1, pick the texel itself at its center, and match
	// the spec's matrix at a quarter.
	for (float u : {2.5f, 2.75f, 3.125f, 7.99f}) {
		const CubicCoordinate c = CubicTexelCoordinate(u);
		CHECK(c.i0 == int32_t(std::floor(u - 1.5f)));
		CHECK(c.weights[0] + c.weights[1] + c.weights[2] + c.weights[3] == Approx(1.0f).epsilon(1e-6));
	}
	const CubicCoordinate center = CubicTexelCoordinate(3.5f);
	CHECK(center.i0 == 2);
	CHECK((center.weights[0] == 0.0f && center.weights[1] == 1.0f && center.weights[2] == 0.0f &&
	       center.weights[3] == 0.0f));
	const CubicCoordinate quarter = CubicTexelCoordinate(3.75f);  // alpha = 1/4
	const float a = 0.25f;
	CHECK(quarter.weights[0] == Approx(0.5f * (-a + 2 * a * a - a * a * a)));
	CHECK(quarter.weights[1] == Approx(0.5f * (2 - 5 * a * a + 3 * a * a * a)));
	CHECK(quarter.weights[2] == Approx(0.5f * (a + 4 * a * a - 3 * a * a * a)));
	CHECK(quarter.weights[3] == Approx(0.5f * (-a * a + a * a * a)));

	// A 2D image linear in i and j: Catmull-Rom reproduces linear
	// functions, so inside the image a lookup gives the plane at the
	// (8-bit) texel position; texel centers give the texels themselves;
	// MIN reduces the 16 texels of non-zero weight.
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {16, 12, 1});
	for (uint32_t y = 0; y < 12; ++y)
		for (uint32_t x = 0; x < 16; ++x) img.SetFloat(0, 0, x, y, 0, 0.25f * float(x) - 0.5f * float(y) + 3.0f);
	SampledImage image = Prepare(Sampler(VK_FILTER_CUBIC_EXT), img.View(VK_IMAGE_VIEW_TYPE_2D));
	for (float s : {0.2f, 0.3125f, 0.55f, 0.7f})
		for (float t : {0.25f, 0.4f, 0.62f}) {
			const float u = s * 16, v = t * 12;
			const LinearCoordinate lu = LinearTexelCoordinate(u), lv = LinearTexelCoordinate(v);
			const float x = float(lu.i0) + lu.alpha, y = float(lv.i0) + lv.alpha;
			INFO("s " << s << " t " << t);
			CHECK(SampleAt(image, At(s, t)).f[0] == Approx(0.25f * x - 0.5f * y + 3.0f).epsilon(1e-5));
		}
	CHECK(SampleAt(image, At(5.5f / 16, 7.5f / 12)).f[0] == 0.25f * 5 - 0.5f * 7 + 3.0f);
	SamplerState min = Sampler(VK_FILTER_CUBIC_EXT);
	min.reduction_mode = VK_SAMPLER_REDUCTION_MODE_MIN;
	SampledImage reduced = Prepare(min, img.View(VK_IMAGE_VIEW_TYPE_2D));
	// u = 5.75, v = 6.25: texels 4..7 and 4..7; the smallest is (4, 7).
	CHECK(SampleAt(reduced, At(5.75f / 16, 6.25f / 12)).f[0] == 0.25f * 4 - 0.5f * 7 + 3.0f);

	// 1D: four texels; past the edge CLAMP_TO_EDGE repeats the last.
	const TestImage row = Row();
	SampledImage one = Prepare(Sampler(VK_FILTER_CUBIC_EXT), row.View(VK_IMAGE_VIEW_TYPE_1D));
	const CubicCoordinate c = CubicTexelCoordinate(3.25f);  // texels 1, 2, 3, 3 (clamped): 2, 3, 4, 4
	const float expected = 2 * c.weights[0] + 3 * c.weights[1] + 4 * c.weights[2] + 4 * c.weights[3];
	CHECK(SampleAt(one, At(3.25f / 4)).f[0] == Approx(expected));
}
