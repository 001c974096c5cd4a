#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "texture/blit.h"
#include "texture/texel.h"

using namespace tessera::texture;

namespace {

BlitTap Tap(const BlitAxis& axis, int32_t dst, BlitFilter filter) {
	return BlitTapAt(BlitSourceCoordinate(axis, dst), axis.src_size, filter);
}

// A tightly packed 2D (or 3D) surface over a byte vector.
struct Surface {
	std::vector<uint8_t> bytes;
	BlitSurface view;
	Surface(VkFormat format, uint32_t w, uint32_t h, uint32_t d = 1) {
		const FormatInfo* info = FindFormat(format);
		bytes.assign(size_t(w) * h * d * info->block_size, 0);
		view.data = bytes.data();
		view.row_pitch = uint64_t(w) * info->block_size;
		view.slice_pitch = view.row_pitch * h;
		view.width = w;
		view.height = h;
		view.depth = d;
		view.format = info;
		view.element_size = info->block_size;
	}
	uint8_t* At(uint32_t x, uint32_t y, uint32_t z = 0) {
		return view.data + z * view.slice_pitch + y * view.row_pitch + x * view.element_size;
	}
};

BlitRegion Region2D(int32_t sx0, int32_t sy0, int32_t sx1, int32_t sy1, int32_t dx0, int32_t dy0, int32_t dx1,
                    int32_t dy1) {
	return {{{sx0, sy0, 0}, {sx1, sy1, 1}}, {{dx0, dy0, 0}, {dx1, dy1, 1}}};
}

}  // namespace

TEST_CASE("blit coordinates map destination texel centers through the spec's scale", "[texture][blit]") {
	// Same size: texel d reads texel d.
	BlitAxis same{0, 8, 0, 8, 8};
	for (int32_t d = 0; d < 8; ++d) {
		REQUIRE(BlitSourceCoordinate(same, d) == Approx(d + 0.5));
		REQUIRE(Tap(same, d, BlitFilter::Nearest).i0 == uint32_t(d));
		BlitTap linear = Tap(same, d, BlitFilter::Linear);
		REQUIRE(linear.i0 == uint32_t(d));
		REQUIRE(linear.weight == 0.0f);
	}
	// Offsets shift the source: dst 10..14 reads src 2..6.
	BlitAxis shifted{2, 6, 10, 14, 8};
	REQUIRE(Tap(shifted, 10, BlitFilter::Nearest).i0 == 2);
	REQUIRE(Tap(shifted, 13, BlitFilter::Nearest).i0 == 5);
}

TEST_CASE("blit scaling down samples between source texels", "[texture][blit]") {
	// 3:1 lands on source texel centers; 2:1 on the edge between two texels.
	BlitAxis third{0, 12, 0, 4, 12};
	REQUIRE(BlitSourceCoordinate(third, 1) == Approx(4.5));
	REQUIRE(Tap(third, 1, BlitFilter::Nearest).i0 == 4);
	BlitAxis half{0, 8, 0, 4, 8};
	BlitTap t = Tap(half, 1, BlitFilter::Linear);  // u = 3.0
	REQUIRE(t.i0 == 2);
	REQUIRE(t.i1 == 3);
	REQUIRE(t.weight == Approx(0.5f));
	REQUIRE(Tap(half, 1, BlitFilter::Nearest).i0 == 3);  // floor(3.0)
}

TEST_CASE("blit scaling up weights neighbours by distance and clamps at the edges", "[texture][blit]") {
	BlitAxis twice{0, 4, 0, 8, 4};
	// dst 0: u = 0.25, u - 0.5 = -0.25: texels -1 and 0, both clamped to 0.
	BlitTap first = Tap(twice, 0, BlitFilter::Linear);
	REQUIRE(first.i0 == 0);
	REQUIRE(first.i1 == 0);
	// dst 1: u = 0.75: texels 0 and 1, weight 0.25.
	BlitTap second = Tap(twice, 1, BlitFilter::Linear);
	REQUIRE(second.i0 == 0);
	REQUIRE(second.i1 == 1);
	REQUIRE(second.weight == Approx(0.25f));
	// dst 7: u = 3.75: texels 3 and 4, 4 clamped to 3.
	BlitTap last = Tap(twice, 7, BlitFilter::Linear);
	REQUIRE(last.i0 == 3);
	REQUIRE(last.i1 == 3);
	REQUIRE(Tap(twice, 7, BlitFilter::Nearest).i0 == 3);
	// Clamping is to the level, not the region: a region inside the image
	// reads the texel before it.
	BlitAxis inner{2, 4, 0, 4, 8};
	BlitTap edge = Tap(inner, 0, BlitFilter::Linear);  // u = 2.25
	REQUIRE(edge.i0 == 1);
	REQUIRE(edge.i1 == 2);
	REQUIRE(edge.weight == Approx(0.75f));
}

TEST_CASE("reversed offsets flip a blit on either side", "[texture][blit]") {
	BlitAxis dst_flipped{0, 4, 4, 0, 4};
	BlitAxis src_flipped{4, 0, 0, 4, 4};
	std::vector<BlitTap> a = ComputeBlitTaps(dst_flipped, BlitFilter::Nearest);
	std::vector<BlitTap> b = ComputeBlitTaps(src_flipped, BlitFilter::Nearest);
	REQUIRE(a.size() == 4);
	for (uint32_t d = 0; d < 4; ++d) {
		REQUIRE(a[d].i0 == 3 - d);
		REQUIRE(b[d].i0 == 3 - d);
	}
	// Both flipped: no flip.
	std::vector<BlitTap> c = ComputeBlitTaps({4, 0, 4, 0, 4}, BlitFilter::Nearest);
	for (uint32_t d = 0; d < 4; ++d) REQUIRE(c[d].i0 == d);
}

TEST_CASE("blit conversions follow the spec's format rules", "[texture][blit]") {
	auto choose = [](VkFormat s, VkFormat d, BlitFilter f) {
		return ChooseBlitConversion(*FindFormat(s), *FindFormat(d), f);
	};
	REQUIRE(choose(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, BlitFilter::Nearest) == BlitConversion::Copy);
	REQUIRE(choose(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, BlitFilter::Linear) == BlitConversion::Float);
	REQUIRE(choose(VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_SNORM, BlitFilter::Nearest) == BlitConversion::Float);
	REQUIRE(choose(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT, BlitFilter::Linear) ==
	        BlitConversion::Float);
	REQUIRE(choose(VK_FORMAT_R8_UINT, VK_FORMAT_R16G16_UINT, BlitFilter::Nearest) == BlitConversion::Integer);
	REQUIRE(choose(VK_FORMAT_R8_UINT, VK_FORMAT_R8_SINT, BlitFilter::Nearest) == BlitConversion::Invalid);
	REQUIRE(choose(VK_FORMAT_R8_UINT, VK_FORMAT_R8_UNORM, BlitFilter::Nearest) == BlitConversion::Invalid);
	REQUIRE(choose(VK_FORMAT_R8_UINT, VK_FORMAT_R8_UINT, BlitFilter::Linear) == BlitConversion::Invalid);
	REQUIRE(choose(VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT, BlitFilter::Nearest) == BlitConversion::Copy);
	REQUIRE(choose(VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, BlitFilter::Nearest) == BlitConversion::Invalid);
	REQUIRE(choose(VK_FORMAT_D16_UNORM, VK_FORMAT_D16_UNORM, BlitFilter::Linear) == BlitConversion::Invalid);
	REQUIRE(choose(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_R8G8B8A8_UNORM, BlitFilter::Nearest) ==
	        BlitConversion::Invalid);
}

TEST_CASE("a LINEAR 2:1 blit averages neighbouring texels", "[texture][blit]") {
	Surface src(VK_FORMAT_R8G8B8A8_UNORM, 4, 2), dst(VK_FORMAT_R8G8B8A8_UNORM, 2, 1);
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 4; ++x) {
			uint8_t v[4] = {uint8_t(x * 50), uint8_t(y * 100), 255, uint8_t(x < 2 ? 0 : 200)};
			std::memcpy(src.At(x, y), v, 4);
		}
	BlitSurfaceRegion(src.view, dst.view, Region2D(0, 0, 4, 2, 0, 0, 2, 1), BlitFilter::Linear, BlitConversion::Float);
	// dst 0 averages x = 0, 1 and y = 0, 1: R 25, G 50, B 255, A 0.
	REQUIRE(dst.At(0, 0)[0] == 25);
	REQUIRE(dst.At(0, 0)[1] == 50);
	REQUIRE(dst.At(0, 0)[2] == 255);
	REQUIRE(dst.At(0, 0)[3] == 0);
	REQUIRE(dst.At(1, 0)[0] == 125);
	REQUIRE(dst.At(1, 0)[3] == 200);
}

TEST_CASE("sRGB blits filter decoded values and encode the result", "[texture][blit]") {
	Surface src(VK_FORMAT_R8G8B8A8_SRGB, 2, 1), dst(VK_FORMAT_R8G8B8A8_SRGB, 1, 1);
	uint8_t black[4] = {0, 0, 0, 0}, white[4] = {255, 255, 255, 255};
	std::memcpy(src.At(0, 0), black, 4);
	std::memcpy(src.At(1, 0), white, 4);
	BlitSurfaceRegion(src.view, dst.view, Region2D(0, 0, 2, 1, 0, 0, 1, 1), BlitFilter::Linear, BlitConversion::Float);
	// Linear 0.5 encodes to sRGB 0.7354 (188); alpha is linear (128).
	REQUIRE(dst.At(0, 0)[0] == 188);
	REQUIRE(dst.At(0, 0)[3] == 128);
}

TEST_CASE("NEAREST blits flip and convert integers within the destination's range", "[texture][blit]") {
	Surface src(VK_FORMAT_R16_UINT, 3, 2), dst(VK_FORMAT_R8_UINT, 3, 2);
	uint16_t values[6] = {1, 2, 3, 4, 5, 1000};
	for (uint32_t i = 0; i < 6; ++i) std::memcpy(src.At(i % 3, i / 3), &values[i], 2);
	// Flip both axes.
	BlitSurfaceRegion(src.view, dst.view, Region2D(0, 0, 3, 2, 3, 2, 0, 0), BlitFilter::Nearest,
	                  BlitConversion::Integer);
	REQUIRE(*dst.At(0, 0) == 255);  // 1000 clamped
	REQUIRE(*dst.At(1, 0) == 5);
	REQUIRE(*dst.At(2, 0) == 4);
	REQUIRE(*dst.At(0, 1) == 3);
	REQUIRE(*dst.At(2, 1) == 1);
}

TEST_CASE("3D LINEAR blits filter across slices", "[texture][blit]") {
	Surface src(VK_FORMAT_R32_SFLOAT, 1, 1, 4), dst(VK_FORMAT_R32_SFLOAT, 1, 1, 2);
	float slices[4] = {0.0f, 1.0f, 2.0f, 3.0f};
	for (uint32_t z = 0; z < 4; ++z) std::memcpy(src.At(0, 0, z), &slices[z], 4);
	BlitRegion region{{{0, 0, 0}, {1, 1, 4}}, {{0, 0, 0}, {1, 1, 2}}};
	BlitSurfaceRegion(src.view, dst.view, region, BlitFilter::Linear, BlitConversion::Float);
	float out[2];
	std::memcpy(&out[0], dst.At(0, 0, 0), 4);
	std::memcpy(&out[1], dst.At(0, 0, 1), 4);
	REQUIRE(out[0] == Approx(0.5f));
	REQUIRE(out[1] == Approx(2.5f));
}

TEST_CASE("same-format NEAREST blits copy texel bytes, including depth", "[texture][blit]") {
	Surface src(VK_FORMAT_D32_SFLOAT, 2, 2), dst(VK_FORMAT_D32_SFLOAT, 4, 4);
	float depths[4] = {0.1f, 0.2f, 0.3f, 0.4f};
	for (uint32_t i = 0; i < 4; ++i) std::memcpy(src.At(i % 2, i / 2), &depths[i], 4);
	BlitSurfaceRegion(src.view, dst.view, Region2D(0, 0, 2, 2, 0, 0, 4, 4), BlitFilter::Nearest, BlitConversion::Copy);
	float v;
	std::memcpy(&v, dst.At(3, 1), 4);
	REQUIRE(v == 0.2f);
	std::memcpy(&v, dst.At(0, 3), 4);
	REQUIRE(v == 0.3f);
}

TEST_CASE("large blits convert exactly as UnpackTexel and PackTexel do", "[texture][blit]") {
	// Regions of 4096+ texels take the per-byte tables; they must give the
	// bytes the generic functions give.
	const uint32_t w = 64, h = 64;
	Surface floats(VK_FORMAT_R32G32B32A32_SFLOAT, w, h);
	const float specials[] = {0.0f,  1.0f,  -1.0f,  0.5f / 255.0f, 1.5f / 255.0f, 0.5f / 65535.0f, 2.0f,
	                          -0.0f, 1e-9f, 0.999f, NAN,           70000.0f,      -3.0f,           -0.5f / 32767.0f};
	uint32_t seed = 12345;
	for (uint32_t i = 0; i < w * h * 4; ++i) {
		seed = seed * 1664525u + 1013904223u;
		float f = i % 7 == 0 ? specials[(seed >> 8) % 14] : float(seed >> 8) / float(1 << 24) * 1.4f - 0.2f;
		std::memcpy(floats.bytes.data() + i * 4, &f, 4);
	}
	BlitRegion whole = Region2D(0, 0, w, h, 0, 0, w, h);
	for (VkFormat format :
	     {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8_SNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32,
	      VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16_SNORM}) {
		CAPTURE(format);
		const FormatInfo& info = *FindFormat(format);
		Surface packed(format, w, h);
		BlitSurfaceRegion(floats.view, packed.view, whole, BlitFilter::Nearest, BlitConversion::Float);
		Surface back(VK_FORMAT_R32G32B32A32_SFLOAT, w, h);
		BlitSurfaceRegion(packed.view, back.view, whole, BlitFilter::Nearest, BlitConversion::Float);
		for (uint32_t y = 0; y < h; ++y)
			for (uint32_t x = 0; x < w; ++x) {
				TexelValue v;
				std::memcpy(v.f, floats.At(x, y), 16);
				uint8_t expected[16] = {};
				PackTexel(info, v, expected);
				REQUIRE(std::memcmp(packed.At(x, y), expected, info.block_size) == 0);
				TexelValue unpacked = UnpackTexel(info, packed.At(x, y));
				REQUIRE(std::memcmp(back.At(x, y), unpacked.f, 16) == 0);
			}
	}
}

TEST_CASE("large LINEAR blits between equal 8-bit formats give the float path's bytes", "[texture][blit]") {
	// Same-layout formats filter their bytes as stored (UNORM in vector
	// loops, sRGB through the per-byte tables and the threshold encoder).
	// Either must give what filtering into floats and packing those gives.
	const uint32_t w = 96, h = 80;
	for (VkFormat format :
	     {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB}) {
		CAPTURE(format);
		Surface src(format, w, h);
		uint32_t seed = 777;
		for (uint8_t& byte : src.bytes) {
			seed = seed * 1664525u + 1013904223u;
			byte = uint8_t(seed >> 24);
		}
		for (auto [dw, dh] : {std::pair<uint32_t, uint32_t>{48, 40}, {150, 97}}) {
			CAPTURE(dw, dh);
			BlitRegion region = Region2D(0, 0, w, h, 0, 0, int32_t(dw), int32_t(dh));
			Surface direct(format, dw, dh), floats(VK_FORMAT_R32G32B32A32_SFLOAT, dw, dh), packed(format, dw, dh);
			BlitSurfaceRegion(src.view, direct.view, region, BlitFilter::Linear, BlitConversion::Float);
			BlitSurfaceRegion(src.view, floats.view, region, BlitFilter::Linear, BlitConversion::Float);
			BlitSurfaceRegion(floats.view, packed.view, Region2D(0, 0, dw, dh, 0, 0, dw, dh), BlitFilter::Nearest,
			                  BlitConversion::Float);
			REQUIRE(direct.bytes == packed.bytes);
		}
	}
}

TEST_CASE("CUBIC blits weigh 4 x 4 source texels by Catmull-Rom weights", "[texture][blit][cubic]") {
	// A 1:1 blit reads each texel at its center (weights 0, 1, 0, 0): a
	// copy. Scaled, a source linear in x and y gives the plane at each
	// destination center's source position (Catmull-Rom reproduces linear
	// functions) away from the edges, where CLAMP_TO_EDGE repeats the last
	// texels; a single bright texel spreads with the weights' negative lobes
	// clamped to 0 in UNORM.
	Surface src(VK_FORMAT_R32_SFLOAT, 16, 8), copy(VK_FORMAT_R32_SFLOAT, 16, 8), scaled(VK_FORMAT_R32_SFLOAT, 24, 12);
	auto plane = [](double x, double y) { return 0.25 * x + 0.125 * y + 1.0; };
	for (uint32_t y = 0; y < 8; ++y)
		for (uint32_t x = 0; x < 16; ++x) {
			const float v = float(plane(x, y));
			std::memcpy(src.At(x, y), &v, 4);
		}
	REQUIRE(ChooseBlitConversion(*src.view.format, *copy.view.format, BlitFilter::Cubic) == BlitConversion::Float);
	BlitSurfaceRegion(src.view, copy.view, Region2D(0, 0, 16, 8, 0, 0, 16, 8), BlitFilter::Cubic,
	                  BlitConversion::Float);
	CHECK(copy.bytes == src.bytes);
	BlitSurfaceRegion(src.view, scaled.view, Region2D(0, 0, 16, 8, 0, 0, 24, 12), BlitFilter::Cubic,
	                  BlitConversion::Float);
	for (uint32_t y = 3; y < 9; ++y)
		for (uint32_t x = 3; x < 21; ++x) {
			float v;
			std::memcpy(&v, scaled.At(x, y), 4);
			const double u = (x + 0.5) * 16.0 / 24.0 - 0.5, w = (y + 0.5) * 8.0 / 12.0 - 0.5;
			INFO("x " << x << " y " << y);
			CHECK(v == Approx(plane(u, w)).epsilon(1e-5));
		}
	Surface dot(VK_FORMAT_R8_UNORM, 8, 8), spread(VK_FORMAT_R8_UNORM, 16, 16);
	*dot.At(4, 4) = 255;
	BlitSurfaceRegion(dot.view, spread.view, Region2D(0, 0, 8, 8, 0, 0, 16, 16), BlitFilter::Cubic,
	                  BlitConversion::Float);
	// Destination (9, 9) reads u = v = 4.75 - 0.5 = 4.25: alpha = 1/4 from
	// texel 3: the dot is tap 1 in both axes, weight (0.5 (2 - 5/16 + 3/64))^2.
	const double w1 = 0.5 * (2 - 5.0 / 16 + 3.0 / 64);
	CHECK(*spread.At(9, 9) == uint8_t(std::lround(w1 * w1 * 255)));
	CHECK(*spread.At(0, 0) == 0);
	CHECK(ChooseBlitConversion(*FindFormat(VK_FORMAT_R8G8B8A8_UINT), *FindFormat(VK_FORMAT_R8G8B8A8_UINT),
	                           BlitFilter::Cubic) == BlitConversion::Invalid);
}
