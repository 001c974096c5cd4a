#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "texture/image_layout.h"
#include "texture/resolve.h"

using namespace tessera::texture;

namespace {

// A 4-sample image and a single-sample one of the same format and size,
// laid out by ImageLayout, with a resolve of the whole level.
struct ResolveFixture {
	ImageLayout ms, ss;
	std::vector<uint8_t> ms_bytes, ss_bytes;
	ResolveFixture(VkFormat format, uint32_t w, uint32_t h) {
		REQUIRE(ms.Init({format, VK_IMAGE_TYPE_2D, {w, h, 1}, 1, 1, 4}));
		REQUIRE(ss.Init({format, VK_IMAGE_TYPE_2D, {w, h, 1}, 1, 1, 1}));
		ms_bytes.assign(ms.TotalSize(), 0);
		ss_bytes.assign(ss.TotalSize(), 0);
	}
	uint8_t* Sample(uint32_t x, uint32_t y, uint32_t s) { return ms_bytes.data() + ms.Offset(0, 0, 0, x, y, 0, s); }
	uint8_t* Resolved(uint32_t x, uint32_t y) { return ss_bytes.data() + ss.Offset(0, 0, 0, x, y, 0); }
	void Resolve() {
		const SubresourceLayout& from = ms.Level(0, 0);
		ResolveRect rect;
		rect.src = Sample(0, 0, 0);
		rect.src_row_pitch = from.row_pitch;
		rect.dst = Resolved(0, 0);
		rect.dst_row_pitch = ss.Level(0, 0).row_pitch;
		rect.width = from.extent.width;
		rect.height = from.extent.height;
		rect.samples = 4;
		rect.element_size = from.element_size;
		ResolveSamples(*FindFormat(ms.Description().format), rect);
	}
};

}  // namespace

TEST_CASE("resolving a UNORM image averages each texel's samples", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R8G8B8A8_UNORM, 3, 2);
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 3; ++x)
			for (uint32_t s = 0; s < 4; ++s) {
				uint8_t v[4] = {uint8_t(s * 40), uint8_t(x * 10 + y), uint8_t(s == 0 ? 255 : 0), 255};
				std::memcpy(f.Sample(x, y, s), v, 4);
			}
	f.Resolve();
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 0; x < 3; ++x) {
			const uint8_t* r = f.Resolved(x, y);
			REQUIRE(r[0] == 60);  // (0 + 40 + 80 + 120) / 4
			REQUIRE(r[1] == x * 10 + y);
			REQUIRE(r[2] == 64);  // 255 / 4 = 63.75
			REQUIRE(r[3] == 255);
		}
}

TEST_CASE("resolving an integer image takes sample 0", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R32_SINT, 2, 2);
	for (uint32_t i = 0; i < 4; ++i)
		for (int32_t s = 0; s < 4; ++s) {
			int32_t v = int32_t(i) * 100 - s;
			std::memcpy(f.Sample(i % 2, i / 2, uint32_t(s)), &v, 4);
		}
	f.Resolve();
	for (uint32_t i = 0; i < 4; ++i) {
		int32_t v;
		std::memcpy(&v, f.Resolved(i % 2, i / 2), 4);
		REQUIRE(v == int32_t(i) * 100);
	}
}

TEST_CASE("resolving an sRGB image averages linear values", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R8G8B8A8_SRGB, 1, 1);
	for (uint32_t s = 0; s < 4; ++s) {
		uint8_t v[4] = {uint8_t(s < 2 ? 0 : 255), 0, 0, uint8_t(s < 2 ? 0 : 255)};
		std::memcpy(f.Sample(0, 0, s), v, 4);
	}
	f.Resolve();
	REQUIRE(f.Resolved(0, 0)[0] == 188);  // linear 0.5
	REQUIRE(f.Resolved(0, 0)[3] == 128);  // alpha is linear
}

TEST_CASE("resolving a float image averages exactly", "[texture][resolve]") {
	ResolveFixture f(VK_FORMAT_R32G32_SFLOAT, 2, 1);
	for (uint32_t x = 0; x < 2; ++x)
		for (uint32_t s = 0; s < 4; ++s) {
			float v[2] = {float(s), -float(x) * 4.0f};
			std::memcpy(f.Sample(x, 0, s), v, 8);
		}
	f.Resolve();
	float r[2];
	std::memcpy(r, f.Resolved(1, 0), 8);
	REQUIRE(r[0] == 1.5f);
	REQUIRE(r[1] == -4.0f);
}
