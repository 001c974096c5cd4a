// Gather, Fetch, the queries and the operands of sampling (offsets,
// unnormalized coordinates, swizzles, formats), against values worked out
// from Vulkan 1.3 §16.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

// A single lane at (s, t, r) with optional offsets and Dref, explicit lod 0.
struct OneLane {
	float coord[4] = {};
	float lod = 0.0f, dref = 0.0f;
	int32_t offset[3] = {};
	SampleLanes lanes;

	OneLane(float s, float t, float r = 0.0f, float a = 0.0f) {
		coord[0] = s, coord[1] = t, coord[2] = r, coord[3] = a;
		lanes.count = 1;
		for (int c = 0; c < 4; ++c) lanes.coord[c] = &coord[c];
		lanes.lod = &lod;
	}
	OneLane& Offset(int32_t x, int32_t y, int32_t z = 0) {
		offset[0] = x, offset[1] = y, offset[2] = z;
		for (int c = 0; c < 3; ++c) lanes.offset[c] = &offset[c];
		return *this;
	}
	OneLane& Dref(float d) {
		dref = d;
		lanes.dref = &dref;
		return *this;
	}
};

TexelValue SampleAt(const SampledImage& image, const OneLane& lane) {
	TexelValue out;
	Sample(image, lane.lanes, &out);
	return out;
}

TexelValue GatherAt(const SampledImage& image, const OneLane& lane, uint32_t component,
                    const int32_t (*offsets)[2] = nullptr) {
	TexelValue out;
	Gather(image, lane.lanes, component, offsets, &out);
	return out;
}

// 4x4 R32_SFLOAT, texel (x, y) = x + 10 y.
TestImage Grid() {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1});
	for (uint32_t y = 0; y < 4; ++y)
		for (uint32_t x = 0; x < 4; ++x) img.SetFloat(x, y, 0, float(x + 10 * y));
	return img;
}

}  // namespace

TEST_CASE("gather returns i0j1, i1j1, i1j0, i0j0 of the selected component", "[texture][sampling][gather]") {
	// 2x2 RGBA32_UINT: texel (x, y) = (x + 10 y, 100 + x + 10 y, 200 + ..., 300 + ...).
	TestImage img(VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 2; ++x) {
			TexelValue v;
			for (uint32_t c = 0; c < 4; ++c) v.u[c] = 100 * c + x + 10 * y;
			img.Set(0, 0, x, y, 0, v);
		}
	SampledImage image =
	    Prepare(Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT), img.View(VK_IMAGE_VIEW_TYPE_2D));
	TexelValue g = GatherAt(image, OneLane(0.5f, 0.5f), 1);  // i0 = j0 = 0
	CHECK(g.u[0] == 110u);                                   // (0, 1)
	CHECK(g.u[1] == 111u);                                   // (1, 1)
	CHECK(g.u[2] == 101u);                                   // (1, 0)
	CHECK(g.u[3] == 100u);                                   // (0, 0)
	// u = 1.75: i0 = 1, i1 = 2 wraps to 0 (repeat); ConstOffset moves i0.
	g = GatherAt(image, OneLane(0.875f, 0.5f), 3);
	CHECK((g.u[0] == 311u && g.u[1] == 310u && g.u[2] == 300u && g.u[3] == 301u));
	g = GatherAt(image, OneLane(0.5f, 0.5f).Offset(1, 0), 0);
	CHECK((g.u[0] == 11u && g.u[1] == 10u && g.u[2] == 0u && g.u[3] == 1u));
	// ConstOffsets: four texels relative to i0j0.
	const int32_t offsets[4][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, -1}};
	g = GatherAt(image, OneLane(0.5f, 0.5f), 2, offsets);
	CHECK((g.u[0] == 200u && g.u[1] == 201u && g.u[2] == 210u && g.u[3] == 211u));
	// The component is selected after the view's swizzle.
	ImageViewState swizzled = img.View(VK_IMAGE_VIEW_TYPE_2D);
	swizzled.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO,
	                       VK_COMPONENT_SWIZZLE_IDENTITY};
	SampledImage sw = Prepare(Sampler(VK_FILTER_NEAREST), swizzled);
	g = GatherAt(sw, OneLane(0.5f, 0.5f), 0);
	CHECK((g.u[0] == 210u && g.u[1] == 211u && g.u[2] == 201u && g.u[3] == 200u));
	g = GatherAt(sw, OneLane(0.5f, 0.5f), 1);
	CHECK((g.u[0] == 1u && g.u[1] == 1u && g.u[2] == 1u && g.u[3] == 1u));
	g = GatherAt(sw, OneLane(0.5f, 0.5f), 2);
	CHECK((g.u[0] == 0u && g.u[1] == 0u && g.u[2] == 0u && g.u[3] == 0u));
}

TEST_CASE("depth gather compares each of the four texels", "[texture][sampling][gather][compare]") {
	TestImage img(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	const float depth[4] = {0.1f, 0.2f, 0.6f, 0.9f};  // (0,0), (1,0), (0,1), (1,1)
	for (uint32_t n = 0; n < 4; ++n) PackDepth(VK_FORMAT_D32_SFLOAT, depth[n], img.At(0, 0, n & 1, n >> 1));
	SamplerState s = Sampler(VK_FILTER_LINEAR);
	s.compare_enable = true;
	s.compare_op = VK_COMPARE_OP_LESS;  // Dref < D
	TexelValue g = GatherAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)),
	                        OneLane(0.5f, 0.5f).Dref(0.5f), 0);
	CHECK((g.f[0] == 1.0f && g.f[1] == 1.0f && g.f[2] == 0.0f && g.f[3] == 0.0f));
}

TEST_CASE("texel offsets are added to the integer texel coordinates", "[texture][sampling]") {
	TestImage img = Grid();
	SampledImage nearest = Prepare(Sampler(VK_FILTER_NEAREST), img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(nearest, OneLane(0.375f, 0.375f).Offset(1, -1)).f[0] == 2.0f);  // (1, 1) -> (2, 0)
	CHECK(SampleAt(nearest, OneLane(0.375f, 0.375f).Offset(7, -8)).f[0] == 3.0f);  // clamped to the edge
	SampledImage repeat =
	    Prepare(Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT), img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(repeat, OneLane(0.875f, 0.125f).Offset(1, 0)).f[0] == 0.0f);  // (3, 0) -> (4, 0) -> (0, 0)
	// LINEAR: the footprint moves, the weights stay: between 2 and 3 of row 0.
	SampledImage linear = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(linear, OneLane(0.25f, 0.125f).Offset(2, 0)).f[0] == 2.5f);
}

TEST_CASE("unnormalized coordinates address texels directly at the base level", "[texture][sampling]") {
	TestImage img = Grid();
	SamplerState s = Sampler(VK_FILTER_NEAREST);
	s.unnormalized_coordinates = true;
	s.max_lod = 0.0f;
	CHECK(SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), OneLane(2.5f, 1.5f)).f[0] == 12.0f);
	CHECK(SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), OneLane(3.99f, 0.0f)).f[0] == 3.0f);
	s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
	CHECK(SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), OneLane(2.0f, 1.5f)).f[0] == 11.5f);
	s.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	s.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	CHECK(SampleAt(Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_2D)), OneLane(4.0f, 1.5f)).f[0] == 7.0f);  // (13 + 1) / 2
}

TEST_CASE("sRGB decodes before filtering, integer formats are not filtered", "[texture][sampling]") {
	TestImage srgb(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, {2, 1, 1});
	const uint8_t bytes[2][4] = {{128, 0, 0, 255}, {0, 0, 0, 0}};
	std::memcpy(srgb.At(0, 0, 0), bytes[0], 4);
	std::memcpy(srgb.At(0, 0, 1), bytes[1], 4);
	const float linear = UnpackTexel(*FindFormat(VK_FORMAT_R8G8B8A8_SRGB), bytes[0]).f[0];
	CHECK(linear == Approx(0.2158605f));
	TexelValue v = SampleAt(Prepare(Sampler(VK_FILTER_LINEAR), srgb.View(VK_IMAGE_VIEW_TYPE_2D)), OneLane(0.5f, 0.5f));
	CHECK(v.f[0] == 0.5f * linear);
	CHECK(v.f[3] == 0.5f);  // alpha is linear

	TestImage uint_img(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, {2, 1, 1});
	TexelValue t{};
	t.u[0] = 10;
	uint_img.Set(0, 0, 0, 0, 0, t);
	t.u[0] = 20;
	uint_img.Set(0, 0, 1, 0, 0, t);
	SamplerState s = Sampler(VK_FILTER_LINEAR);
	s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	SampledImage image = Prepare(s, uint_img.View(VK_IMAGE_VIEW_TYPE_2D));
	CHECK(SampleAt(image, OneLane(0.5f, 0.5f)).u[0] == 20u);  // floor(u = 1) = texel 1
	CHECK(SampleAt(image, OneLane(0.49f, 0.5f)).u[0] == 10u);
	CHECK(SampleAt(image, OneLane(0.49f, 0.5f)).u[3] == 1u);
}

TEST_CASE("3D images filter across slices and wrap w", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, {2, 2, 2});
	for (uint32_t n = 0; n < 8; ++n) img.SetFloat(n & 1, (n >> 1) & 1, n >> 2, float(n));
	SampledImage linear = Prepare(Sampler(VK_FILTER_LINEAR), img.View(VK_IMAGE_VIEW_TYPE_3D));
	CHECK(SampleAt(linear, OneLane(0.5f, 0.5f, 0.5f)).f[0] == 3.5f);
	CHECK(SampleAt(linear, OneLane(0.25f, 0.25f, 0.5f)).f[0] == 2.0f);  // halfway between slice 0 (0) and 1 (4)
	SamplerState s = Sampler(VK_FILTER_NEAREST);
	s.address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	SampledImage nearest = Prepare(s, img.View(VK_IMAGE_VIEW_TYPE_3D));
	CHECK(SampleAt(nearest, OneLane(0.75f, 0.25f, 0.75f)).f[0] == 5.0f);
	CHECK(SampleAt(nearest, OneLane(0.75f, 0.25f, 1.25f)).f[0] == 1.0f);
}

TEST_CASE("the view's component swizzle applies to sampled and border texels", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R8G8_UNORM, VK_IMAGE_TYPE_2D, {1, 1, 1});
	const uint8_t texel[2] = {255, 51};
	std::memcpy(img.At(0, 0, 0), texel, 2);
	ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D);
	view.components = {VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G,
	                   VK_COMPONENT_SWIZZLE_B};
	SamplerState s = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	s.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	SampledImage image = Prepare(s, view);
	TexelValue v = SampleAt(image, OneLane(0.5f, 0.5f));
	CHECK((v.f[0] == 0.0f && v.f[1] == 1.0f && v.f[2] == 0.2f && v.f[3] == 0.0f));
	// Border of a two-component format: (1, 1, 0, 1) before the swizzle.
	v = SampleAt(image, OneLane(1.5f, 0.5f));
	CHECK((v.f[0] == 0.0f && v.f[1] == 1.0f && v.f[2] == 1.0f && v.f[3] == 0.0f));
}

TEST_CASE("one call samples many lanes, NaN coordinates included", "[texture][sampling]") {
	TestImage img = Grid();
	SampledImage image =
	    Prepare(Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT), img.View(VK_IMAGE_VIEW_TYPE_2D));
	const uint32_t n = 33;
	std::vector<float> s(n), t(n), ddx(n, 0.0f), ddy(n, 0.0f);
	for (uint32_t l = 0; l < n; ++l) s[l] = -1.0f + 0.1f * float(l), t[l] = 0.03f * float(l);
	s[7] = std::numeric_limits<float>::quiet_NaN();
	t[9] = std::numeric_limits<float>::infinity();
	SampleLanes lanes;
	lanes.count = n;
	lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
	lanes.ddx[0] = ddx.data(), lanes.ddx[1] = ddx.data();
	lanes.ddy[0] = ddy.data(), lanes.ddy[1] = ddy.data();
	std::vector<TexelValue> out(n);
	Sample(image, lanes, out.data());
	for (uint32_t l = 0; l < n; ++l) {
		if (l == 7 || l == 9) continue;  // any value, but no crash
		OneLane one(s[l], t[l]);
		INFO("lane " << l);
		CHECK(SampleAt(image, one).f[0] == out[l].f[0]);
	}
}

TEST_CASE("fetch reads integer coordinates, outside the view it reads zero", "[texture][sampling][fetch]") {
	TestImage img(VK_FORMAT_R8_UINT, VK_IMAGE_TYPE_2D, {4, 4, 1}, 2, 2);
	for (uint32_t level = 0; level < 2; ++level)
		for (uint32_t layer = 0; layer < 2; ++layer)
			for (uint32_t y = 0; y < MipExtent(4, level); ++y)
				for (uint32_t x = 0; x < MipExtent(4, level); ++x)
					*img.At(level, layer, x, y) = uint8_t(100 * level + 10 * layer + x + 4 * y);
	ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	SampledImage image;
	REQUIRE(PrepareImage(view, &image));
	auto fetch = [&](int32_t x, int32_t y, int32_t layer, int32_t lod, int32_t ox = 0, int32_t oy = 0) {
		FetchLanes lanes;
		lanes.count = 1;
		lanes.coord[0] = &x, lanes.coord[1] = &y, lanes.coord[2] = &layer;
		lanes.lod = &lod;
		lanes.offset[0] = &ox, lanes.offset[1] = &oy;
		TexelValue out;
		Fetch(image, lanes, &out);
		return out;
	};
	CHECK(fetch(2, 1, 0, 0).u[0] == 6u);
	CHECK(fetch(2, 1, 1, 0).u[0] == 16u);
	CHECK(fetch(1, 1, 1, 1).u[0] == 115u);
	CHECK(fetch(1, 1, 0, 0, 1, 2).u[0] == 14u);
	for (auto v : {fetch(4, 0, 0, 0), fetch(-1, 0, 0, 0), fetch(0, 4, 0, 0), fetch(2, 0, 0, 1), fetch(0, 0, 2, 0),
	               fetch(0, 0, 0, 2), fetch(0, 0, -1, 0), fetch(3, 0, 0, 0, 1, 0),
	               fetch(std::numeric_limits<int32_t>::max(), 0, 0, 0, 1, 0)}) {
		CHECK((v.u[0] == 0u && v.u[1] == 0u && v.u[2] == 0u && v.u[3] == 1u));  // R8: (0, 0, 0, 1)
	}
	// A view starting at level 1, layer 1.
	view.base_level = 1, view.level_count = 1, view.base_layer = 1, view.layer_count = 1;
	REQUIRE(PrepareImage(view, &image));
	CHECK(fetch(1, 0, 0, 0).u[0] == 111u);
	CHECK(fetch(0, 0, 1, 0).u[3] == 1u);
}

TEST_CASE("size and level queries follow the view", "[texture][sampling][query]") {
	uint32_t size[4];
	SampledImage image;
	TestImage array(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 4, 1}, 3, 3);
	REQUIRE(PrepareImage(array.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY), &image));
	REQUIRE(QuerySize(image, 0, size) == 3);
	CHECK((size[0] == 8 && size[1] == 4 && size[2] == 3));
	REQUIRE(QuerySize(image, 2, size) == 3);
	CHECK((size[0] == 2 && size[1] == 1 && size[2] == 3));
	CHECK(QueryLevels(image) == 3);
	CHECK(QuerySamples(image) == 1);
	ImageViewState one_level = array.View(VK_IMAGE_VIEW_TYPE_2D);
	one_level.base_level = 1, one_level.level_count = 2, one_level.layer_count = 1;
	REQUIRE(PrepareImage(one_level, &image));
	REQUIRE(QuerySize(image, 0, size) == 2);
	CHECK((size[0] == 4 && size[1] == 2));
	CHECK(QueryLevels(image) == 2);

	TestImage cubes(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 12);
	REQUIRE(PrepareImage(cubes.View(VK_IMAGE_VIEW_TYPE_CUBE_ARRAY), &image));
	REQUIRE(QuerySize(image, 0, size) == 3);
	CHECK((size[0] == 4 && size[1] == 4 && size[2] == 2));
	REQUIRE(PrepareImage(cubes.View(VK_IMAGE_VIEW_TYPE_CUBE), &image));
	CHECK(QuerySize(image, 0, size) == 2);

	TestImage volume(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, {8, 4, 2}, 2);
	REQUIRE(PrepareImage(volume.View(VK_IMAGE_VIEW_TYPE_3D), &image));
	REQUIRE(QuerySize(image, 1, size) == 3);
	CHECK((size[0] == 4 && size[1] == 2 && size[2] == 1));
	TestImage line(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, {8, 1, 1});
	REQUIRE(PrepareImage(line.View(VK_IMAGE_VIEW_TYPE_1D), &image));
	REQUIRE(QuerySize(image, 0, size) == 1);
	CHECK(size[0] == 8);
}

TEST_CASE("QueryLod returns (d_l - level_base, lambda')", "[texture][sampling][query]") {
	TestImage img(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 4);
	float s = 0.5f, t = 0.5f, dx0 = 2.0f / 8.0f, dx1 = 2.0f / 8.0f, zero = 0.0f;
	SampleLanes lanes;
	lanes.count = 1;
	lanes.coord[0] = &s, lanes.coord[1] = &t;
	lanes.ddx[0] = &dx0, lanes.ddx[1] = &dx1, lanes.ddy[0] = &zero, lanes.ddy[1] = &zero;
	float out[1][2];
	SamplerState sampler = Sampler(VK_FILTER_LINEAR);
	sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	QueryLod(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D)), lanes, out);
	CHECK(out[0][0] == Approx(1.5f));  // rho = |(2, 2)| = 2 sqrt(2)
	CHECK(out[0][1] == Approx(1.5f));
	sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
	QueryLod(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D)), lanes, out);
	CHECK(out[0][0] == 1.0f);
	sampler.max_lod = 1.0f;
	sampler.mip_lod_bias = 0.5f;
	QueryLod(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D)), lanes, out);
	CHECK(out[0][0] == 1.0f);
	CHECK(out[0][1] == Approx(2.0f));  // lambda' is before the min/max clamp
}

TEST_CASE("2D array views of a 3D image read its slices as layers", "[texture][sampling]") {
	TestImage img(VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, {2, 2, 4});
	for (uint32_t z = 0; z < 4; ++z) img.SetFloat(1, 1, z, float(z));
	ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	view.base_layer = 1;
	view.layer_count = 3;
	SampledImage image = Prepare(Sampler(VK_FILTER_NEAREST), view);
	CHECK(SampleAt(image, OneLane(0.75f, 0.75f, 1.0f)).f[0] == 2.0f);
	uint32_t size[4];
	REQUIRE(QuerySize(image, 0, size) == 3);
	CHECK((size[0] == 2 && size[1] == 2 && size[2] == 3));
	view.layer_count = 4;  // past the last slice
	CHECK_FALSE(PrepareImage(view, &image));
}

TEST_CASE("views this code cannot read are refused", "[texture][sampling]") {
	SampledImage image;
	TestImage bc1(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {8, 8, 1});
	CHECK_FALSE(PrepareImage(bc1.View(VK_IMAGE_VIEW_TYPE_2D), &image));
	TestImage img(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 2, 2);
	ImageViewState view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	CHECK(PrepareImage(view, &image));
	view.base_level = 1;  // two levels from level 1
	CHECK_FALSE(PrepareImage(view, &image));
	view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	view.base_layer = 2;
	CHECK_FALSE(PrepareImage(view, &image));
	view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	view.memory = nullptr;
	CHECK_FALSE(PrepareImage(view, &image));
}

TEST_CASE("texel reads give UnpackTexel's values for every color format", "[texture][sampling]") {
	std::mt19937 rng(5);
	uint32_t formats = 0;
	for (size_t f = 0; f < kFormatTableSize; ++f) {
		const FormatInfo& info = kFormatTable[f];
		if (info.IsCompressed() || info.IsMultiPlanar() || !info.IsColor() || info.TexelsPerBlock() != 1 ||
		    !CanConvertTexels(info))
			continue;
		ImageLayout layout;
		if (!layout.Init({info.format, VK_IMAGE_TYPE_2D, {16, 1, 1}, 1, 1, 1})) continue;
		std::vector<uint8_t> memory(layout.TotalSize());
		for (uint8_t& b : memory) b = uint8_t(rng());
		ImageViewState view;
		view.layout = &layout;
		view.memory = memory.data();
		view.format = info.format;
		SampledImage image;
		REQUIRE(PrepareImage(view, &image));
		++formats;
		for (int32_t x = 0; x < 16; ++x) {
			int32_t y = 0;
			FetchLanes lanes;
			lanes.count = 1;
			lanes.coord[0] = &x, lanes.coord[1] = &y;
			TexelValue got;
			Fetch(image, lanes, &got);
			TexelValue expected = UnpackTexel(info, memory.data() + layout.Offset(0, 0, 0, uint32_t(x), 0, 0));
			INFO(info.name << " texel " << x);
			CHECK(std::memcmp(&got, &expected, sizeof(got)) == 0);
		}
	}
	CHECK(formats > 100);
	// The common formats take the direct readers.
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8_SNORM,
	                        VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32_UINT}) {
		TestImage img(format, VK_IMAGE_TYPE_2D, {1, 1, 1});
		SampledImage image;
		REQUIRE(PrepareImage(img.View(VK_IMAGE_VIEW_TYPE_2D), &image));
		CHECK(image.component_count > 0);
	}
}
