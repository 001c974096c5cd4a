// Sampler Y'CbCr conversion math (texture/ycbcr.h) against values worked by
// hand from Vulkan 1.3 §16 "Sampler Y′CbCr Conversion" (range expansion,
// model conversion with the matrices of the Khronos Data Format
// Specification, explicit chroma reconstruction).
#include "texture/ycbcr.h"

#include "texture/sample.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

namespace tessera::texture {
namespace {

YcbcrConversion Conversion(VkFormat format, VkSamplerYcbcrModelConversion model, VkSamplerYcbcrRange range) {
	YcbcrConversion c;
	c.format = format;
	c.model = model;
	c.range = range;
	return c;
}

// Y', Cb, Cr as n-bit codes, in the order ConvertYcbcrTexel takes (Cr, Y', Cb, A).
void Codes(uint32_t bits, uint32_t y, uint32_t cb, uint32_t cr, float out[4]) {
	const float max = float((1u << bits) - 1);
	out[0] = cr / max, out[1] = y / max, out[2] = cb / max, out[3] = 1.0f;
}

// The spec's matrices, written as the KDFS prints them (not derived from Kr, Kb).
struct Matrix {
	VkSamplerYcbcrModelConversion model;
	double r_cr, g_cb, g_cr, b_cb;
};
constexpr Matrix kMatrices[] = {
    {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709, 1.5748, 0.13397432 / 0.7152, 0.33480248 / 0.7152, 1.8556},
    {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601, 1.402, 0.202008 / 0.587, 0.419198 / 0.587, 1.772},
    {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020, 1.4746, 0.11156702 / 0.6780, 0.38737742 / 0.6780, 1.8814},
};

TEST_CASE("Y'CbCr narrow range: black, white and neutral chroma at 8, 10 and 16 bits", "[texture][ycbcr]") {
	for (const Matrix& m : kMatrices)
		for (uint32_t bits : {8u, 10u, 16u}) {
			CAPTURE(m.model, bits);
			const uint32_t s = 1u << (bits - 8);
			YcbcrConversion c = Conversion(VK_FORMAT_UNDEFINED, m.model, VK_SAMPLER_YCBCR_RANGE_ITU_NARROW);
			float in[4], out[4];
			Codes(bits, 16 * s, 128 * s, 128 * s, in);
			ConvertYcbcrTexel(c, bits, in, out);
			for (int k = 0; k < 3; ++k) CHECK(out[k] == Approx(0.0f).margin(1e-5));
			CHECK(out[3] == 1.0f);
			Codes(bits, 235 * s, 128 * s, 128 * s, in);
			ConvertYcbcrTexel(c, bits, in, out);
			for (int k = 0; k < 3; ++k) CHECK(out[k] == Approx(1.0f).epsilon(1e-5));
		}
}

TEST_CASE("Y'CbCr model conversion follows the spec's matrices", "[texture][ycbcr]") {
	for (const Matrix& m : kMatrices)
		for (VkSamplerYcbcrRange range : {VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_SAMPLER_YCBCR_RANGE_ITU_NARROW}) {
			CAPTURE(m.model, range);
			YcbcrConversion c = Conversion(VK_FORMAT_UNDEFINED, m.model, range);
			float in[4], out[4];
			Codes(8, 126, 60, 240, in);
			ConvertYcbcrTexel(c, 8, in, out);
			double y, cb, cr;
			if (range == VK_SAMPLER_YCBCR_RANGE_ITU_FULL) {
				// Y = Y'; C = C' - 2^(n-1) / (2^n - 1).
				y = 126 / 255.0, cb = 60 / 255.0 - 128 / 255.0, cr = 240 / 255.0 - 128 / 255.0;
			} else {
				// Y = (Y' - 16) / 219; C = (C' - 128) / 224 (8 bits).
				y = (126 - 16) / 219.0, cb = (60 - 128) / 224.0, cr = (240 - 128) / 224.0;
			}
			CHECK(out[0] == Approx(y + m.r_cr * cr).margin(1e-5));
			CHECK(out[1] == Approx(y - m.g_cb * cb - m.g_cr * cr).margin(1e-5));
			CHECK(out[2] == Approx(y + m.b_cb * cb).margin(1e-5));
			CHECK(out[3] == 1.0f);
		}
}

TEST_CASE("Y'CbCr identity models: range expansion only, or nothing for RGB", "[texture][ycbcr]") {
	float in[4], out[4];
	Codes(8, 126, 60, 240, in);
	YcbcrConversion c = Conversion(VK_FORMAT_UNDEFINED, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY,
	                               VK_SAMPLER_YCBCR_RANGE_ITU_NARROW);
	ConvertYcbcrTexel(c, 8, in, out);
	CHECK(out[0] == Approx(112 / 224.0).margin(1e-6));  // Cr
	CHECK(out[1] == Approx(110 / 219.0).margin(1e-6));  // Y
	CHECK(out[2] == Approx(-68 / 224.0).margin(1e-6));  // Cb
	// §16: RGB_IDENTITY ignores the range.
	c.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY;
	ConvertYcbcrTexel(c, 8, in, out);
	for (int k = 0; k < 4; ++k) CHECK(out[k] == in[k]);
}

// An image of a Y'CbCr format, filled plane by plane.
struct TestImage {
	ImageLayout layout;
	std::vector<uint8_t> memory;
	ImageViewState view;
	TestImage(VkFormat format, uint32_t width, uint32_t height) {
		REQUIRE(layout.Init({format, VK_IMAGE_TYPE_2D, {width, height, 1}, 1, 1, 1}));
		memory.assign(layout.TotalSize(), 0);
		view.layout = &layout;
		view.memory = memory.data();
		view.format = format;
	}
	template <typename T>
	void Set(uint32_t plane, uint32_t x, uint32_t y, uint32_t component, T value) {
		std::memcpy(memory.data() + layout.Offset(plane, 0, 0, x, y, 0) + component * sizeof(T), &value, sizeof(T));
	}
	// RGBA of the decoded texel (x, y).
	const float* Decoded(const DecodedView& d, uint32_t x, uint32_t y) {
		return reinterpret_cast<const float*>(d.memory.data() + d.layout.Offset(0, 0, 0, x, y, 0));
	}
};

// NV12 4x4 with chroma 2x2: Cb = {0, 100; 200, 40}, Cr = 255 - Cb; Y' = 10x + y.
TestImage Nv12() {
	TestImage image(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 4, 4);
	for (uint32_t y = 0; y < 4; ++y)
		for (uint32_t x = 0; x < 4; ++x) image.Set<uint8_t>(0, x, y, 0, uint8_t(10 * x + y));
	const uint8_t cb[2][2] = {{0, 100}, {200, 40}};
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 2; ++x) {
			image.Set<uint8_t>(1, x, y, 0, cb[y][x]);
			image.Set<uint8_t>(1, x, y, 1, uint8_t(255 - cb[y][x]));
		}
	return image;
}

TEST_CASE("Y'CbCr explicit chroma reconstruction of NV12", "[texture][ycbcr]") {
	TestImage image = Nv12();
	YcbcrConversion c = Conversion(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY,
	                               VK_SAMPLER_YCBCR_RANGE_ITU_FULL);
	auto check = [&](const DecodedView& d, uint32_t x, uint32_t y, double cb) {
		CAPTURE(x, y);
		const float* t = image.Decoded(d, x, y);
		CHECK(t[1] == Approx((10 * x + y) / 255.0).margin(1e-6));  // G = Y'
		CHECK(t[2] == Approx(cb / 255.0).margin(1e-6));            // B = Cb
		CHECK(t[0] == Approx((255 - cb) / 255.0).margin(1e-6));    // R = Cr
		CHECK(t[3] == 1.0f);
	};
	SECTION("NEAREST: the chroma sample floor(i / 2), either location") {
		for (VkChromaLocation location : {VK_CHROMA_LOCATION_COSITED_EVEN, VK_CHROMA_LOCATION_MIDPOINT}) {
			c.x_chroma_offset = c.y_chroma_offset = location;
			DecodedView d;
			REQUIRE(DecodeYcbcrView(image.view, c, &d));
			CHECK(d.view.format == VK_FORMAT_R32G32B32A32_SFLOAT);
			check(d, 0, 0, 0);
			check(d, 1, 1, 0);
			check(d, 3, 0, 100);
			check(d, 2, 3, 40);
			check(d, 1, 2, 200);
		}
	}
	SECTION("LINEAR, COSITED_EVEN: even texels on a sample, odd ones halfway") {
		c.chroma_filter = VK_FILTER_LINEAR;
		DecodedView d;
		REQUIRE(DecodeYcbcrView(image.view, c, &d));
		check(d, 0, 0, 0);
		check(d, 2, 0, 100);
		check(d, 1, 0, 50);
		check(d, 0, 1, 100);  // (0 + 200) / 2
		check(d, 1, 1, (0 + 100 + 200 + 40) / 4.0);
		check(d, 3, 3, 40);                // clamped at the edge
		check(d, 3, 1, (100 + 40) / 2.0);  // x clamped, y halfway
	}
	SECTION("LINEAR, MIDPOINT: 1/4 and 3/4 weights") {
		c.chroma_filter = VK_FILTER_LINEAR;
		c.x_chroma_offset = c.y_chroma_offset = VK_CHROMA_LOCATION_MIDPOINT;
		DecodedView d;
		REQUIRE(DecodeYcbcrView(image.view, c, &d));
		check(d, 0, 0, 0);  // edge: samples -1 and 0 are both sample 0
		// x: 0.75 s0 + 0.25 s1; y: the same.
		check(d, 1, 1, 0.75 * (0.75 * 0 + 0.25 * 100) + 0.25 * (0.75 * 200 + 0.25 * 40));
		// x = 2: 0.25 s0 + 0.75 s1; y = 0: row 0 only.
		check(d, 2, 0, 0.25 * 0 + 0.75 * 100);
		check(d, 3, 3, 40);
	}
}

TEST_CASE("Y'CbCr I420 with the conversion's swizzle and a 709 narrow conversion", "[texture][ycbcr]") {
	TestImage image(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, 2, 2);
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 2; ++x) image.Set<uint8_t>(0, x, y, 0, uint8_t(126 + x));
	image.Set<uint8_t>(1, 0, 0, 0, 60);   // Cb
	image.Set<uint8_t>(2, 0, 0, 0, 240);  // Cr
	YcbcrConversion c = Conversion(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	                               VK_SAMPLER_YCBCR_RANGE_ITU_NARROW);
	DecodedView d;
	REQUIRE(DecodeYcbcrView(image.view, c, &d));
	const double y = 110 / 219.0, cb = -68 / 224.0, cr = 112 / 224.0;
	const float* t = image.Decoded(d, 0, 1);
	CHECK(t[0] == Approx(y + 1.5748 * cr).margin(1e-5));
	CHECK(t[1] == Approx(y - 0.13397432 / 0.7152 * cb - 0.33480248 / 0.7152 * cr).margin(1e-5));
	CHECK(t[2] == Approx(y + 1.8556 * cb).margin(1e-5));
	// Swapped chroma (components.r = B, components.b = R), YCbCr identity.
	c.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY;
	c.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_R,
	                VK_COMPONENT_SWIZZLE_IDENTITY};
	REQUIRE(DecodeYcbcrView(image.view, c, &d));
	t = image.Decoded(d, 1, 0);
	CHECK(t[0] == Approx(cb).margin(1e-6));
	CHECK(t[1] == Approx(111 / 219.0).margin(1e-6));
	CHECK(t[2] == Approx(cr).margin(1e-6));
}

TEST_CASE("Y'CbCr single-plane 422 and 10/16-bit 2-plane 420", "[texture][ycbcr]") {
	SECTION("G8B8G8R8_422: two lumas a block, chroma shared") {
		TestImage image(VK_FORMAT_G8B8G8R8_422_UNORM, 4, 1);
		const uint8_t block0[4] = {10, 20, 30, 40}, block1[4] = {50, 60, 70, 80};  // G0 B G1 R
		std::memcpy(image.memory.data() + image.layout.Offset(0, 0, 0, 0, 0, 0), block0, 4);
		std::memcpy(image.memory.data() + image.layout.Offset(0, 0, 0, 1, 0, 0), block1, 4);
		YcbcrConversion c = Conversion(VK_FORMAT_G8B8G8R8_422_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY,
		                               VK_SAMPLER_YCBCR_RANGE_ITU_FULL);
		c.chroma_filter = VK_FILTER_LINEAR;
		DecodedView d;
		REQUIRE(DecodeYcbcrView(image.view, c, &d));
		const float* t = image.Decoded(d, 1, 0);
		CHECK(t[1] == Approx(30 / 255.0));
		CHECK(t[2] == Approx((20 + 60) / 2 / 255.0));  // odd texel: halfway (COSITED_EVEN)
		CHECK(t[0] == Approx((40 + 80) / 2 / 255.0));
		t = image.Decoded(d, 2, 0);
		CHECK(t[1] == Approx(50 / 255.0));
		CHECK(t[2] == Approx(60 / 255.0));
	}
	SECTION("G10X6 and G16: codes in the high bits, narrow range scaled by 2^(n-8)") {
		for (VkFormat format :
		     {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, VK_FORMAT_G16_B16R16_2PLANE_420_UNORM}) {
			CAPTURE(format);
			const bool ten = format == VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16;
			const uint32_t shift = ten ? 6 : 0, s = ten ? 4 : 256;
			TestImage image(format, 2, 2);
			for (uint32_t y = 0; y < 2; ++y)
				for (uint32_t x = 0; x < 2; ++x) image.Set<uint16_t>(0, x, y, 0, uint16_t((235 * s) << shift));
			image.Set<uint16_t>(1, 0, 0, 0, uint16_t((128 * s) << shift));
			image.Set<uint16_t>(1, 0, 0, 1, uint16_t((240 * s) << shift));
			YcbcrConversion c =
			    Conversion(format, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601, VK_SAMPLER_YCBCR_RANGE_ITU_NARROW);
			DecodedView d;
			REQUIRE(DecodeYcbcrView(image.view, c, &d));
			const float* t = image.Decoded(d, 1, 1);
			CHECK(t[0] == Approx(1.0 + 1.402 * 0.5).margin(1e-5));
			CHECK(t[1] == Approx(1.0 - 0.419198 / 0.587 * 0.5).margin(1e-5));
			CHECK(t[2] == Approx(1.0).margin(1e-5));
		}
	}
}

TEST_CASE("a view of one plane reads that plane with the plane's format", "[texture][ycbcr]") {
	// Vulkan 1.3 §12.5: a view of PLANE_1 of NV12 (format R8G8_UNORM) is
	// sampled without a conversion, at the plane's resolution.
	TestImage image = Nv12();
	ImageViewState view = image.view;
	view.format = VK_FORMAT_R8G8_UNORM;
	view.aspect = VK_IMAGE_ASPECT_PLANE_1_BIT;
	SamplerState sampler;
	sampler.address_u = sampler.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	SampledImage prepared;
	REQUIRE(PrepareSampledImage(sampler, view, &prepared));
	CHECK(prepared.levels[0].extent[0] == 2);
	const float u[2] = {0.75f, 1.5f}, v[2] = {0.25f, 0.5f};
	SampleLanes lanes;
	lanes.count = 2;
	lanes.coord[0] = u;
	lanes.coord[1] = v;
	TexelValue out[2];
	Sample(prepared, lanes, out);
	CHECK(out[0].f[0] == Approx(100 / 255.0f));  // Cb of chroma texel (1, 0)
	CHECK(out[0].f[1] == Approx(155 / 255.0f));  // Cr
	CHECK(out[0].f[2] == 0.0f);
	CHECK(out[0].f[3] == 1.0f);
	// §16 "Border Replacement": the border in the components R8G8 has.
	CHECK(out[1].f[0] == 1.0f);
	CHECK(out[1].f[1] == 1.0f);
	CHECK(out[1].f[2] == 0.0f);
	CHECK(out[1].f[3] == 1.0f);
}

TEST_CASE("Y'CbCr conversion formats", "[texture][ycbcr]") {
	CHECK(CanConvertYcbcr(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM));
	CHECK(CanConvertYcbcr(VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM));
	CHECK_FALSE(CanConvertYcbcr(VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM));
	CHECK_FALSE(CanConvertYcbcr(VK_FORMAT_R8G8B8A8_UNORM));
	DecodedView d;
	TestImage image(VK_FORMAT_R8G8B8A8_UNORM, 2, 2);
	CHECK_FALSE(DecodeYcbcrView(image.view, {}, &d));
}

}  // namespace
}  // namespace tessera::texture
