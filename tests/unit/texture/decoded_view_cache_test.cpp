// The decoded-view cache (texture/decoded_view_cache.h): a view is decoded
// once and reused until a byte it was decoded from, the view or the
// conversion changes.
#include "texture/decoded_view_cache.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace tessera::texture {
namespace {

// The RGBA of decoded texel (x, y) of level 0, layer 0.
std::vector<float> Texel(const DecodedView& d, uint32_t x, uint32_t y) {
	std::vector<float> rgba(4);
	std::memcpy(rgba.data(), d.view.memory + d.view.layout->Offset(0, 0, 0, x, y, 0), 16);
	return rgba;
}

// A BC1 block of one 565 color (color0 = color1 = c, every index 0).
void PutBc1(uint8_t* block, uint16_t color) {
	std::memset(block, 0, 8);
	std::memcpy(block, &color, 2);
	std::memcpy(block + 2, &color, 2);
}

TEST_CASE("DecodedViewCache decodes a BC1 view once and again after its bytes change", "[texture][decoded_cache]") {
	ImageLayout layout;
	ImageDescription d;
	d.format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
	d.extent = {8, 8, 1};
	d.mip_levels = 2;
	REQUIRE(layout.Init(d));
	std::vector<uint8_t> memory(layout.TotalSize());
	for (uint32_t by = 0; by < 2; ++by)
		for (uint32_t bx = 0; bx < 2; ++bx) PutBc1(memory.data() + layout.Offset(0, 0, 0, bx, by, 0), 0xF800);
	PutBc1(memory.data() + layout.Offset(0, 1, 0, 0, 0, 0), 0x07E0);

	ImageViewState view;
	view.layout = &layout;
	view.memory = memory.data();
	view.format = d.format;
	view.level_count = 2;
	DecodedViewCache cache;
	auto first = cache.Get(view, nullptr);
	REQUIRE(first);
	CHECK(Texel(*first, 5, 1) == std::vector<float>{1, 0, 0, 1});
	CHECK(cache.Get(view, nullptr) == first);
	CHECK(cache.DecodeCount() == 1);

	// A write to level 0 (block (1, 0)) that no queue noted: the copy is
	// used without comparing (Vulkan orders host and device writes before
	// reads through submits, waits and commands, which note them).
	PutBc1(memory.data() + layout.Offset(0, 0, 0, 1, 0, 0), 0x001F);
	const uint64_t compares = cache.CompareCount();
	CHECK(cache.Get(view, nullptr) == first);
	CHECK(cache.CompareCount() == compares);
	// Noted: compared, decoded again, new values; the first copy is still
	// whole for whoever holds it.
	NoteMemoryWrites();
	auto second = cache.Get(view, nullptr);
	REQUIRE(second);
	CHECK(second != first);
	CHECK(Texel(*second, 5, 1) == std::vector<float>{0, 0, 1, 1});
	CHECK(Texel(*first, 5, 1) == std::vector<float>{1, 0, 0, 1});
	CHECK(cache.DecodeCount() == 2);

	// A write to the last level of the view counts too.
	PutBc1(memory.data() + layout.Offset(0, 1, 0, 0, 0, 0), 0x001F);
	NoteMemoryWrites();
	CHECK(cache.Get(view, nullptr) != second);
	CHECK(cache.DecodeCount() == 3);
	CHECK(cache.Get(view, nullptr));
	CHECK(cache.DecodeCount() == 3);

	// Another view state (level range, swizzle) is another copy.
	ImageViewState level1 = view;
	level1.base_level = 1;
	level1.level_count = 1;
	auto one = cache.Get(level1, nullptr);
	REQUIRE(one);
	CHECK(Texel(*one, 0, 0) == std::vector<float>{0, 0, 1, 1});
	CHECK(cache.DecodeCount() == 4);
	ImageViewState swizzled = level1;
	swizzled.components.r = VK_COMPONENT_SWIZZLE_B;
	CHECK(cache.Get(swizzled, nullptr));
	CHECK(cache.DecodeCount() == 5);

	// Bytes outside the view's levels do not matter.
	PutBc1(memory.data() + layout.Offset(0, 0, 0, 0, 0, 0), 0x07E0);
	NoteMemoryWrites();
	CHECK(cache.Get(swizzled, nullptr));
	CHECK(cache.DecodeCount() == 5);
	CHECK(cache.CompareCount() == compares + 3);

	// Uncompressed views are not decoded.
	ImageViewState plain = view;
	plain.format = VK_FORMAT_R8G8B8A8_UNORM;
	CHECK_FALSE(cache.Get(plain, nullptr));
}

// A BC1 view of w x h texels, every block `color`.
struct Bc1Image {
	ImageLayout layout;
	std::vector<uint8_t> memory;
	ImageViewState view;
	Bc1Image(uint32_t w, uint32_t h, uint16_t color) {
		ImageDescription d;
		d.format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
		d.extent = {w, h, 1};
		REQUIRE(layout.Init(d));
		memory.resize(layout.TotalSize());
		for (uint32_t by = 0; by < h / 4; ++by)
			for (uint32_t bx = 0; bx < w / 4; ++bx) PutBc1(memory.data() + layout.Offset(0, 0, 0, bx, by, 0), color);
		view.layout = &layout;
		view.memory = memory.data();
		view.format = d.format;
		view.level_count = 1;
	}
};

TEST_CASE("DecodedViewCache: copies past the budget drop the least recently used", "[texture][decoded_cache]") {
	// Each 64x64 BC1 view keeps 64 KiB decoded (RGBA32F) and 2 KiB of snapshot.
	const size_t before = DecodedCacheBytes();
	const size_t saved = SetDecodedCacheBudget(before + 3 * 70000);
	Bc1Image a(64, 64, 0xF800), b(64, 64, 0x07E0), c(64, 64, 0x001F), d(64, 64, 0xFFFF);
	DecodedViewCache ca, cb, cc, cd;
	REQUIRE(ca.Get(a.view, nullptr));
	REQUIRE(cb.Get(b.view, nullptr));
	REQUIRE(cc.Get(c.view, nullptr));
	CHECK(DecodedCacheBytes() == before + 3 * (65536 + 2048));
	REQUIRE(ca.Get(a.view, nullptr));  // a is now more recent than b
	REQUIRE(cd.Get(d.view, nullptr));  // past the budget: b goes
	CHECK(DecodedCacheBytes() == before + 3 * (65536 + 2048));
	REQUIRE(ca.Get(a.view, nullptr));
	REQUIRE(cc.Get(c.view, nullptr));
	CHECK(ca.DecodeCount() == 1);
	CHECK(cc.DecodeCount() == 1);
	auto again = cb.Get(b.view, nullptr);  // decoded again (and d, least recent, goes)
	REQUIRE(again);
	CHECK(Texel(*again, 9, 9) == std::vector<float>{0, 1, 0, 1});
	CHECK(cb.DecodeCount() == 2);
	CHECK(DecodedCacheBytes() <= before + 3 * 70000);
	SetDecodedCacheBudget(saved);
}

TEST_CASE("DecodedViewCache: threads whose copies evict each other read whole copies", "[texture][decoded_cache]") {
	// Four threads, each with two views it decodes in turn, under a budget
	// of about three copies: every Get past the first few evicts another
	// thread's copy (try_lock), while that thread may be reading its own.
	const size_t before = DecodedCacheBytes();
	const size_t saved = SetDecodedCacheBudget(before + 3 * 20000);
	constexpr int kThreads = 4;
	const uint16_t colors[kThreads][2] = {{0xF800, 0x07E0}, {0x001F, 0xFFFF}, {0xF81F, 0x07FF}, {0xFFE0, 0x0000}};
	std::vector<std::thread> threads;
	std::atomic<int> wrong{0};
	for (int t = 0; t < kThreads; ++t)
		threads.emplace_back([&, t] {
			Bc1Image images[2] = {{32, 32, colors[t][0]}, {32, 32, colors[t][1]}};
			DecodedViewCache caches[2];
			for (int k = 0; k < 300; ++k) {
				const int which = k % 2;
				auto copy = caches[which].Get(images[which].view, nullptr);
				if (!copy) {
					++wrong;
					continue;
				}
				const uint16_t c = colors[t][which];
				const std::vector<float> want = {float((c >> 11) / 31.0), float(((c >> 5) & 63) / 63.0),
				                                 float((c & 31) / 31.0), 1.0f};  // as decode_bc.cpp divides
				if (Texel(*copy, 17, 30) != want) ++wrong;
			}
		});
	for (std::thread& t : threads) t.join();
	CHECK(wrong == 0);
	CHECK(DecodedCacheBytes() == before);  // every cache is gone, and its bytes with it
	SetDecodedCacheBudget(saved);
}

// An NV12 image: Y' a ramp, CbCr constant.
struct Nv12 {
	ImageLayout layout;
	std::vector<uint8_t> memory;
	ImageViewState view;
	YcbcrConversion conversion;

	Nv12(uint32_t width, uint32_t height) {
		ImageDescription d;
		d.format = VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;
		d.extent = {width, height, 1};
		REQUIRE(layout.Init(d));
		memory.assign(layout.TotalSize(), 128);
		for (uint32_t y = 0; y < height; ++y)
			for (uint32_t x = 0; x < width; ++x) memory[layout.Offset(0, 0, 0, x, y, 0)] = uint8_t(x + y);
		view.layout = &layout;
		view.memory = memory.data();
		view.format = d.format;
		conversion.format = d.format;
		conversion.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709;
	}
};

TEST_CASE("DecodedViewCache converts a Y'CbCr view once and again after a plane or the conversion changes",
          "[texture][decoded_cache]") {
	Nv12 image(16, 8);
	DecodedViewCache cache;
	auto first = cache.Get(image.view, &image.conversion);
	REQUIRE(first);
	CHECK(cache.Get(image.view, &image.conversion) == first);
	CHECK(cache.DecodeCount() == 1);

	// A chroma write (plane 1) is seen.
	image.memory[image.layout.Offset(1, 0, 0, 3, 2, 0)] = 10;
	NoteMemoryWrites();
	auto second = cache.Get(image.view, &image.conversion);
	REQUIRE(second);
	CHECK(cache.DecodeCount() == 2);
	CHECK(Texel(*second, 6, 4) != Texel(*first, 6, 4));

	// Another conversion, or none, is another copy.
	YcbcrConversion full = image.conversion;
	full.range = VK_SAMPLER_YCBCR_RANGE_ITU_NARROW;
	CHECK(cache.Get(image.view, &full) != second);
	CHECK(cache.DecodeCount() == 3);
	CHECK_FALSE(cache.Get(image.view, nullptr));  // NV12 is not block-compressed
	CHECK(cache.DecodeCount() == 4);
}

// The figure behind the cache: 10 uses of a 1920x1080 NV12 view, decoded at
// every use (before) and through the cache (after).
TEST_CASE("DecodedViewCache: 10 uses of a 1080p NV12 view", "[.bench][decoded_cache]") {
	Nv12 image(1920, 1080);
	using Clock = std::chrono::steady_clock;
	auto t0 = Clock::now();
	for (int k = 0; k < 10; ++k) {
		DecodedView copy;
		REQUIRE(DecodeYcbcrView(image.view, image.conversion, &copy));
	}
	auto t1 = Clock::now();
	DecodedViewCache cache;
	for (int k = 0; k < 10; ++k) REQUIRE(cache.Get(image.view, &image.conversion));
	auto t2 = Clock::now();
	std::printf("10 uses of a 1920x1080 NV12 view: decoded each time %.1f ms, cached %.1f ms\n",
	            std::chrono::duration<double, std::milli>(t1 - t0).count(),
	            std::chrono::duration<double, std::milli>(t2 - t1).count());
	CHECK(cache.DecodeCount() == 1);
}

}  // namespace
}  // namespace tessera::texture
