// VK_EXT_custom_border_color in the sampling code: §16 "Border Replacement"
// with B = U (VkSamplerCustomBorderColorCreateInfoEXT::customBorderColor),
// written into the components the format has, before the view's swizzle.
#include <catch2/catch.hpp>

#include <cstring>

#include "sampling_fixture.h"
#include "texture/decoded_view.h"

namespace tessera::texture::test {
namespace {

// One NEAREST/LINEAR lookup at (s, t), LOD 0, optional Dref.
TexelValue SampleAt(const SampledImage& image, float s, float t, const float* dref = nullptr) {
	float coord[2] = {s, t}, lod = 0.0f;
	SampleLanes lanes;
	lanes.count = 1;
	lanes.coord[0] = &coord[0];
	lanes.coord[1] = &coord[1];
	lanes.lod = &lod;
	lanes.dref = dref;
	TexelValue out;
	Sample(image, lanes, &out);
	return out;
}

SamplerState FloatBorder(VkFilter filter, float r, float g, float b, float a) {
	SamplerState s = Sampler(filter, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	s.border_color = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
	s.custom_border.float32[0] = r, s.custom_border.float32[1] = g;
	s.custom_border.float32[2] = b, s.custom_border.float32[3] = a;
	return s;
}

void CheckFloats(const TexelValue& v, float r, float g, float b, float a) {
	CHECK(v.f[0] == r);
	CHECK(v.f[1] == g);
	CHECK(v.f[2] == b);
	CHECK(v.f[3] == a);
}

TEST_CASE("custom float border colors replace the format's components, before the swizzle",
          "[texture][sampling][border]") {
	TestImage rgba(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {2, 2, 1});
	const SamplerState s = FloatBorder(VK_FILTER_NEAREST, 0.25f, 0.5f, 0.75f, 0.125f);
	// Values the format cannot hold exactly are used as given (the spec
	// allows, does not require, rounding to the format).
	CheckFloats(SampleAt(Prepare(s, rgba.View(VK_IMAGE_VIEW_TYPE_2D)), 1.5f, 0.5f), 0.25f, 0.5f, 0.75f, 0.125f);
	// A custom border with a non-identity view swizzle reads poison (§16
	// "Instruction/Format/Sampler/Image View Validation", without
	// VK_EXT_border_color_swizzle); Tessera swizzles it like any texel.
	ImageViewState swizzled = rgba.View(VK_IMAGE_VIEW_TYPE_2D);
	swizzled.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
	                       VK_COMPONENT_SWIZZLE_A};
	CheckFloats(SampleAt(Prepare(s, swizzled), 0.5f, -0.5f), 0.75f, 1.0f, 0.25f, 0.125f);

	// Two components: B_b, B_a give way to the substitution (0, 1).
	TestImage rg(VK_FORMAT_R16G16_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	CheckFloats(SampleAt(Prepare(s, rg.View(VK_IMAGE_VIEW_TYPE_2D)), -0.5f, 0.5f), 0.25f, 0.5f, 0.0f, 1.0f);

	// LINEAR at u = 0 weighs the border texel and texel 0 alike.
	TestImage zero(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	const SamplerState linear = FloatBorder(VK_FILTER_LINEAR, 0.5f, -2.0f, 8.0f, 1.0f);
	CheckFloats(SampleAt(Prepare(linear, zero.View(VK_IMAGE_VIEW_TYPE_2D)), 0.0f, 0.5f), 0.25f, -1.0f, 4.0f, 0.5f);
}

TEST_CASE("custom integer border colors are the given int32/uint32 bits", "[texture][sampling][border]") {
	SamplerState s = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	s.border_color = VK_BORDER_COLOR_INT_CUSTOM_EXT;
	s.custom_border.int32[0] = -3, s.custom_border.int32[1] = 400, s.custom_border.int32[2] = -5;
	s.custom_border.int32[3] = 6;
	TestImage sint(VK_FORMAT_R32G32B32A32_SINT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	TexelValue v = SampleAt(Prepare(s, sint.View(VK_IMAGE_VIEW_TYPE_2D)), 2.5f, 0.5f);
	CHECK(v.i[0] == -3);
	CHECK(v.i[1] == 400);
	CHECK(v.i[2] == -5);
	CHECK(v.i[3] == 6);
	TestImage r(VK_FORMAT_R8_UINT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	v = SampleAt(Prepare(s, r.View(VK_IMAGE_VIEW_TYPE_2D)), 0.5f, 1.5f);
	CHECK(v.i[0] == -3);  // as given, even beyond the format's range (invalid use)
	CHECK(v.u[1] == 0u);
	CHECK(v.u[2] == 0u);
	CHECK(v.u[3] == 1u);
}

TEST_CASE("custom border colors on depth: D = B_r, compared like any depth", "[texture][sampling][border]") {
	TestImage depth(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {2, 2, 1});
	SamplerState s = FloatBorder(VK_FILTER_NEAREST, 0.375f, 0.9f, 0.9f, 0.9f);
	const ImageViewState view = depth.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT);
	CHECK(SampleAt(Prepare(s, view), -0.5f, 0.5f).f[0] == 0.375f);
	s.compare_enable = true;
	s.compare_op = VK_COMPARE_OP_LESS;
	const float below = 0.25f, above = 0.5f;
	CHECK(SampleAt(Prepare(s, view), -0.5f, 0.5f, &below).f[0] == 1.0f);
	CHECK(SampleAt(Prepare(s, view), -0.5f, 0.5f, &above).f[0] == 0.0f);
}

TEST_CASE("border colors of a decoded compressed view replace the compressed format's components",
          "[texture][sampling][border]") {
	// BC4 has R only: the border is (B_r, 0, 0, 1), though the decoded copy
	// is RGBA.
	TestImage bc4(VK_FORMAT_BC4_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {4, 4, 1});
	DecodedView decoded;
	REQUIRE(DecodeView(bc4.View(VK_IMAGE_VIEW_TYPE_2D), &decoded));
	const SamplerState s = FloatBorder(VK_FILTER_NEAREST, 0.25f, 0.5f, 0.75f, 0.125f);
	CheckFloats(SampleAt(Prepare(s, decoded.view), 1.5f, 0.5f), 0.25f, 0.0f, 0.0f, 1.0f);
	// BC1 without alpha: A = 1.
	TestImage bc1(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_2D, {4, 4, 1});
	REQUIRE(DecodeView(bc1.View(VK_IMAGE_VIEW_TYPE_2D), &decoded));
	CheckFloats(SampleAt(Prepare(s, decoded.view), 1.5f, 0.5f), 0.25f, 0.5f, 0.75f, 1.0f);
	SamplerState transparent = Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	CheckFloats(SampleAt(Prepare(transparent, decoded.view), 1.5f, 0.5f), 0.0f, 0.0f, 0.0f, 1.0f);
}

}  // namespace
}  // namespace tessera::texture::test
