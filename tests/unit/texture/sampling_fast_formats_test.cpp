// The fast path (texture/sample_fast.cpp) on depth views with a compare
// sampler (shadow lookups: Dref compared per texel, then filtered, §16
// "Depth Compare Operation") and on one- and two-component color formats:
// it must take these lookups (SampleFast returns true) and give
// SampleGeneric's bits on 2D, 2D array, cube and cube array views, rows of
// texels and 4x4 tiles, for every filter, mipmap mode, address mode and
// compare op.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"
#include "texture/texel.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Random texel bits; 32-bit floats (D32_SFLOAT, R32(G32)_SFLOAT) half of
// the time values that decide a comparison or a sum's rounding: 0, -0, 1,
// infinities, NaNs, subnormals, the largest floats. UNORM depth: a quarter
// of the texels 0 or 1 (where a clamped Dref decides). X8_D24's unused byte
// is random too (it must be ignored).
void FillRandom(VkFormat plane, std::vector<uint8_t>& memory, std::mt19937& rng) {
	std::uniform_int_distribution<int> byte(0, 255);
	for (uint8_t& b : memory) b = uint8_t(byte(rng));
	std::uniform_int_distribution<uint32_t> bits;
	if (plane == VK_FORMAT_D16_UNORM || plane == VK_FORMAT_X8_D24_UNORM_PACK32) {
		const size_t size = plane == VK_FORMAT_D16_UNORM ? 2 : 3;  // (the depth bytes of a texel)
		const size_t step = plane == VK_FORMAT_D16_UNORM ? 2 : 4;
		for (size_t i = 0; i + step <= memory.size(); i += step) {
			const uint32_t r = bits(rng);
			if (r % 4 == 0) std::memset(&memory[i], r & 4 ? 0xff : 0x00, size);
		}
		return;
	}
	if (plane != VK_FORMAT_D32_SFLOAT && plane != VK_FORMAT_R32_SFLOAT && plane != VK_FORMAT_R32G32_SFLOAT) return;
	const uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
	                             0xffc12345u, 0x7f800001u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xbf800000u};
	std::uniform_real_distribution<float> unit(0.0f, 1.0f);
	for (size_t i = 0; i + 4 <= memory.size(); i += 4) {
		const uint32_t r = bits(rng);
		uint32_t word;
		if (r % 4 == 0) {
			word = kSpecial[(r >> 2) % std::size(kSpecial)];
		} else {
			const float value = unit(rng);  // depths in [0, 1]
			std::memcpy(&word, &value, 4);
		}
		if (r % 4 != 3) std::memcpy(&memory[i], &word, 4);
	}
}

TestImage RandomImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, uint32_t layers,
                      uint32_t tile_shift, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels, layers);
	REQUIRE(img.layout.Init({format, VK_IMAGE_TYPE_2D, {width, height, 1}, levels, layers, 1, tile_shift}));
	REQUIRE(img.layout.Level(0, 0).tile_shift == tile_shift);
	img.memory.assign(img.layout.TotalSize(), 0);
	FillRandom(img.layout.Level(0, 0).format, img.memory, rng);
	return img;
}

std::vector<SamplerState> Samplers() { return SamplerGrid(0.25f); }

bool OneTexel(const SamplerState& sampler) {
	return sampler.mag_filter == VK_FILTER_NEAREST && sampler.min_filter == VK_FILTER_NEAREST &&
	       sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST && !sampler.anisotropy_enable;
}

// Random lanes for a view type: coordinates (cube directions with ties,
// zeros, infinities and NaN; layers in and out of range), derivatives or
// LODs, and Dref values: a texel's own depth half of the time (equality),
// else 0, 1, out of [0, 1], NaN or random.
struct Lanes {
	std::vector<float> c[4], dx[3], dy[3], lod, bias, dref;
	SampleLanes lanes;

	Lanes(uint32_t n, bool cube, bool explicit_lod, const std::vector<float>& depths, std::mt19937& rng) {
		std::uniform_real_distribution<float> coord(-2.0f, 3.0f), unit(-1.0f, 1.0f), deriv(-0.3f, 0.3f),
		    lods(-2.0f, 6.0f), depth(0.0f, 1.0f);
		for (auto& v : c) v.resize(n);
		for (int k = 0; k < 3; ++k) dx[k].resize(n), dy[k].resize(n);
		lod.resize(n), bias.resize(n), dref.resize(n);
		const float kOdd[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.0e5f, kInf, kNaN};
		const float kRefs[] = {0.0f, -0.0f, 1.0f, -0.5f, 1.5f, kNaN, kInf, -kInf, 0.5f};
		std::uniform_int_distribution<size_t> pick(0, depths.size() - 1);
		for (uint32_t i = 0; i < n; ++i) {
			for (int k = 0; k < 3; ++k) c[k][i] = cube ? unit(rng) : coord(rng);
			if (cube && i % 9 == 4) c[1][i] = c[0][i];  // a tie of |x| and |y|
			if (i % 11 == 6) c[i % 3][i] = kOdd[(i / 11) % std::size(kOdd)];
			c[3][i] = float(i % 4) - 0.6f;  // layer (or cube) 0..2, then past the last
			if (!cube) c[2][i] = c[3][i];
			const float scale = std::ldexp(1.0f, int(i % 10) - 7);
			for (int k = 0; k < 3; ++k) dx[k][i] = deriv(rng) * scale, dy[k][i] = deriv(rng) * scale * float(1 + i % 3);
			lod[i] = lods(rng);
			bias[i] = lods(rng) - 2.0f;
			dref[i] = i % 2 ? depths[pick(rng)] : i % 4 == 0 ? kRefs[(i / 4) % std::size(kRefs)] : depth(rng);
		}
		lanes.count = n;
		for (int k = 0; k < 4; ++k) lanes.coord[k] = c[k].data();
		if (explicit_lod) {
			lanes.lod = lod.data();
		} else {
			for (int k = 0; k < 3; ++k) lanes.ddx[k] = dx[k].data(), lanes.ddy[k] = dy[k].data();
			lanes.bias = bias.data();
		}
		lanes.dref = dref.data();
	}
};

// Every depth value of the view's texels (random ones: some Dref equal them).
std::vector<float> Depths(const TestImage& img, std::mt19937& rng) {
	const SubresourceLayout& level = img.layout.Level(0, 0);
	std::vector<float> out;
	std::uniform_int_distribution<uint32_t> x(0, level.extent.width - 1), y(0, level.extent.height - 1);
	for (int n = 0; n < 64; ++n)
		out.push_back(UnpackDepth(level.format, img.memory.data() + img.layout.Offset(0, 0, 0, x(rng), y(rng), 0)));
	return out;
}

void CheckSame(const std::vector<TexelValue>& a, const std::vector<TexelValue>& b, bool nan_as_nan) {
	for (size_t i = 0; i < a.size(); ++i) {
		INFO("lane " << i);
		for (int k = 0; k < 4; ++k) {
			INFO("component " << k << ": " << a[i].f[k] << " and " << b[i].f[k]);
			CHECK((a[i].u[k] == b[i].u[k] || (nan_as_nan && std::isnan(a[i].f[k]) && std::isnan(b[i].f[k]))));
		}
	}
}

const VkImageViewType kViewTypes[] = {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_CUBE,
                                      VK_IMAGE_VIEW_TYPE_CUBE_ARRAY};

bool IsCube(VkImageViewType type) { return type == VK_IMAGE_VIEW_TYPE_CUBE || type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY; }

// A random depth image for a view of `type`: 4 levels, the layers the type
// needs, not powers of two (odd) unless a cube.
TestImage DepthImage(VkFormat format, VkImageViewType type, std::mt19937& rng) {
	const bool cube = IsCube(type);
	const uint32_t layers = type == VK_IMAGE_VIEW_TYPE_2D ? 1 : cube ? (type == VK_IMAGE_VIEW_TYPE_CUBE ? 6 : 12) : 3;
	const uint32_t width = cube ? 8 : 13, height = cube ? 8 : 6;
	return RandomImage(format, width, height, 4, layers, 0, rng);
}

}  // namespace

TEST_CASE("sampling fast path: depth compare lookups equal the generic path bit for bit", "[texture][sample]") {
	// Each texel compared with Dref (clamped to [0, 1] for UNORM depth),
	// the 0/1 results filtered as the generic path filters colors, across
	// cube faces too; (result, 0, 0, 1). Without Dref the same views read
	// (D, 0, 0, 1).
	std::mt19937 rng(2024);
	const VkFormat formats[] = {VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32,
	                            VK_FORMAT_D32_SFLOAT,        VK_FORMAT_D16_UNORM_S8_UINT,
	                            VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};
	const VkCompareOp ops[] = {VK_COMPARE_OP_NEVER,
	                           VK_COMPARE_OP_LESS,
	                           VK_COMPARE_OP_EQUAL,
	                           VK_COMPARE_OP_LESS_OR_EQUAL,
	                           VK_COMPARE_OP_GREATER,
	                           VK_COMPARE_OP_NOT_EQUAL,
	                           VK_COMPARE_OP_GREATER_OR_EQUAL,
	                           VK_COMPARE_OP_ALWAYS};
	for (VkFormat format : formats)
		for (VkImageViewType type : kViewTypes) {
			const bool cube = IsCube(type);
			const TestImage img = DepthImage(format, type, rng);
			const std::vector<float> depths = Depths(img, rng);
			const bool float_depth = img.layout.Level(0, 0).format == VK_FORMAT_D32_SFLOAT;
			for (SamplerState sampler : Samplers()) {
				if (cube && sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT) continue;  // (cubes clamp)
				sampler.compare_enable = true;
				for (VkCompareOp op : ops) {
					sampler.compare_op = op;
					const SampledImage image = Prepare(sampler, img.View(type, VK_IMAGE_ASPECT_DEPTH_BIT));
					REQUIRE(image.compare);
					INFO("format " << format << " view " << type << " op " << op << " mag " << sampler.mag_filter
					               << " min " << sampler.min_filter << " mip " << sampler.mipmap_mode << " mode "
					               << sampler.address_u << " aniso " << sampler.max_anisotropy);
					for (uint32_t n : {64u, 23u})
						for (bool explicit_lod : {false, true}) {
							Lanes r(n, cube, explicit_lod, depths, rng);
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, false);  // 0/1 results: never NaN
							if (op != VK_COMPARE_OP_LESS) continue;
							r.lanes.dref = nullptr;  // D itself
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, float_depth && !OneTexel(sampler));
						}
				}
			}
		}
}

TEST_CASE("depth compare on R16_UNORM and R32_SFLOAT views: the red component compared as D16 and D32 depth",
          "[texture][sample][compare]") {
	// The color formats that advertise SAMPLED_IMAGE_DEPTH_COMPARISON
	// (FormatInfo::ComparesAsDepth) hold the bytes of D16_UNORM and
	// D32_SFLOAT texels: every compare lookup (Dref clamped for UNORM, each
	// op, filter and view type) gives a depth view's bits over the same
	// bytes, and a compare sampler without Dref reads R as a depth view
	// reads D. Other color formats do not compare.
	std::mt19937 rng(77);
	const std::pair<VkFormat, VkFormat> pairs[] = {{VK_FORMAT_D16_UNORM, VK_FORMAT_R16_UNORM},
	                                               {VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT}};
	for (const auto& [depth_format, color_format] : pairs)
		for (VkImageViewType type : kViewTypes) {
			const bool cube = IsCube(type);
			const TestImage depth = DepthImage(depth_format, type, rng);
			const auto& d = depth.layout.Description();
			TestImage color(color_format, VK_IMAGE_TYPE_2D, d.extent, d.mip_levels, d.array_layers);
			REQUIRE(color.memory.size() == depth.memory.size());
			color.memory = depth.memory;
			const std::vector<float> depths = Depths(depth, rng);
			for (SamplerState sampler : Samplers()) {
				if (cube && sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT) continue;  // (cubes clamp)
				sampler.compare_enable = true;
				for (VkCompareOp op : {VK_COMPARE_OP_LESS, VK_COMPARE_OP_EQUAL, VK_COMPARE_OP_GREATER_OR_EQUAL}) {
					sampler.compare_op = op;
					const SampledImage a = Prepare(sampler, depth.View(type, VK_IMAGE_ASPECT_DEPTH_BIT));
					const SampledImage b = Prepare(sampler, color.View(type));
					REQUIRE(b.compare);
					CHECK(b.clamp_reference == a.clamp_reference);
					INFO("format " << color_format << " view " << type << " op " << op << " mag " << sampler.mag_filter
					               << " min " << sampler.min_filter << " mip " << sampler.mipmap_mode << " mode "
					               << sampler.address_u);
					for (bool with_dref : {true, false}) {
						Lanes r(37, cube, false, depths, rng);
						if (!with_dref) r.lanes.dref = nullptr;
						std::vector<TexelValue> x(37), y(37);
						SampleGeneric(a, r.lanes, x.data());
						SampleGeneric(b, r.lanes, y.data());
						CheckSame(x, y, !with_dref && depth_format == VK_FORMAT_D32_SFLOAT);
					}
				}
			}
		}
	SamplerState sampler = Sampler(VK_FILTER_LINEAR);
	sampler.compare_enable = true;
	const TestImage rg(VK_FORMAT_R16G16_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1});
	CHECK_FALSE(Prepare(sampler, rg.View(VK_IMAGE_VIEW_TYPE_2D)).compare);
}

TEST_CASE("sampling fast path: depth views without a compare sampler read (D, 0, 0, 1)", "[texture][sample]") {
	// SSAO and deferred lighting sample depth as a texture: no compare
	// sampler, D filtered as a color (§16 "Component Substitution"). A Dref
	// operand is then ignored, as SampleGeneric ignores it.
	std::mt19937 rng(4048);
	const VkFormat formats[] = {VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32,
	                            VK_FORMAT_D32_SFLOAT,        VK_FORMAT_D16_UNORM_S8_UINT,
	                            VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};
	for (VkFormat format : formats)
		for (VkImageViewType type : kViewTypes) {
			const bool cube = IsCube(type);
			const TestImage img = DepthImage(format, type, rng);
			const std::vector<float> depths = Depths(img, rng);
			const bool float_depth = img.layout.Level(0, 0).format == VK_FORMAT_D32_SFLOAT;
			for (const SamplerState& sampler : Samplers()) {
				if (cube && sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT) continue;  // (cubes clamp)
				const SampledImage image = Prepare(sampler, img.View(type, VK_IMAGE_ASPECT_DEPTH_BIT));
				REQUIRE(image.depth);
				REQUIRE_FALSE(image.compare);
				INFO("format " << format << " view " << type << " mag " << sampler.mag_filter << " min "
				               << sampler.min_filter << " mip " << sampler.mipmap_mode << " mode " << sampler.address_u
				               << " aniso " << sampler.max_anisotropy);
				for (uint32_t n : {64u, 23u})
					for (bool explicit_lod : {false, true})
						for (bool dref : {false, true}) {
							Lanes r(n, cube, explicit_lod, depths, rng);
							if (!dref) r.lanes.dref = nullptr;
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, float_depth && !OneTexel(sampler));
						}
			}
		}
}

TEST_CASE("sampling fast path: every D16 value compares as the generic path decodes it", "[texture][sample]") {
	// UNORM depth is c / (2^b - 1) rounded once (sample_fast.cpp
	// ReadChannels): Dref equal to each of the 65536 values, and its float
	// neighbours, give EQUAL, LESS and GREATER results bit for bit.
	TestImage img(VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D, {256, 256, 1});
	for (uint32_t v = 0; v < 65536; ++v) {
		const uint16_t bits = uint16_t(v);
		std::memcpy(img.memory.data() + 2 * v, &bits, 2);
	}
	for (VkCompareOp op : {VK_COMPARE_OP_EQUAL, VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER}) {
		SamplerState sampler = Sampler(VK_FILTER_NEAREST);
		sampler.compare_enable = true;
		sampler.compare_op = op;
		const SampledImage image = Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT));
		constexpr uint32_t n = 3 * 65536;
		std::vector<float> s(n), t(n), dref(n), lod(n, 0.0f);
		for (uint32_t i = 0; i < n; ++i) {
			const uint32_t v = i / 3;
			s[i] = (float(v % 256) + 0.5f) / 256.0f, t[i] = (float(v / 256) + 0.5f) / 256.0f;
			const float d = UnpackDepth(VK_FORMAT_D16_UNORM, img.memory.data() + 2 * v);
			dref[i] = i % 3 == 0 ? d : std::nextafter(d, i % 3 == 1 ? -kInf : kInf);
		}
		SampleLanes lanes;
		lanes.count = n;
		lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
		lanes.lod = lod.data();
		lanes.dref = dref.data();
		std::vector<TexelValue> a(n), b(n);
		REQUIRE(SampleFast(image, lanes, a.data()));
		SampleGeneric(image, lanes, b.data());
		INFO("op " << op);
		uint32_t same = 0;
		for (uint32_t i = 0; i < n; ++i) same += std::memcmp(&a[i], &b[i], sizeof(TexelValue)) == 0;
		CHECK(same == n);
		if (op == VK_COMPARE_OP_EQUAL) CHECK(b[0].f[0] == 1.0f);
	}
}

TEST_CASE("sampling fast path: one- and two-component formats equal the generic path bit for bit",
          "[texture][sample]") {
	// The missing components are the generic reader's defaults (0, 0, 1);
	// 1- and 2-byte texels too, in rows and in 4x4 tiles.
	std::mt19937 rng(77);
	const VkFormat formats[] = {VK_FORMAT_R8_UNORM,     VK_FORMAT_R8_SNORM,      VK_FORMAT_R8_SRGB,
	                            VK_FORMAT_R8G8_UNORM,   VK_FORMAT_R8G8_SNORM,    VK_FORMAT_R8G8_SRGB,
	                            VK_FORMAT_R16_SFLOAT,   VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R32_SFLOAT,
	                            VK_FORMAT_R32G32_SFLOAT};
	const std::vector<float> no_depths = {0.0f};
	for (VkFormat format : formats)
		for (VkImageViewType type : kViewTypes)
			for (uint32_t tile_shift : {0u, 2u}) {
				const bool cube = IsCube(type);
				const uint32_t layers = type == VK_IMAGE_VIEW_TYPE_2D ? 1
				                        : cube                        ? (type == VK_IMAGE_VIEW_TYPE_CUBE ? 6 : 12)
				                                                      : 3;
				const uint32_t width = cube ? 16 : 13, height = cube ? 16 : 7;
				const TestImage img = RandomImage(format, width, height, 5, layers, tile_shift, rng);
				const bool float_format = format == VK_FORMAT_R16_SFLOAT || format == VK_FORMAT_R16G16_SFLOAT ||
				                          format == VK_FORMAT_R32_SFLOAT || format == VK_FORMAT_R32G32_SFLOAT;
				for (const SamplerState& sampler : Samplers()) {
					if (cube && sampler.address_u == VK_SAMPLER_ADDRESS_MODE_REPEAT) continue;  // (cubes clamp)
					const SampledImage image = Prepare(sampler, img.View(type));
					INFO("format " << format << " view " << type << " tile_shift " << tile_shift << " mag "
					               << sampler.mag_filter << " min " << sampler.min_filter << " mip "
					               << sampler.mipmap_mode << " mode " << sampler.address_u << " aniso "
					               << sampler.max_anisotropy);
					for (uint32_t n : {64u, 29u})
						for (bool explicit_lod : {false, true}) {
							Lanes r(n, cube, explicit_lod, no_depths, rng);
							r.lanes.dref = nullptr;
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, float_format && !OneTexel(sampler));
						}
				}
			}
}

TEST_CASE("sampling fast path: 1- and 2-byte texels are read within the image", "[texture][sample]") {
	// The image's texels between two inaccessible pages, ending on the
	// second (and, apart, starting on the first): every lookup reads only
	// the image's bytes. Too few bytes for a word: declined.
	const size_t page = size_t(sysconf(_SC_PAGESIZE));
	uint8_t* pages =
	    static_cast<uint8_t*>(mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	REQUIRE(pages != MAP_FAILED);
	REQUIRE(mprotect(pages, page, PROT_NONE) == 0);
	REQUIRE(mprotect(pages + 2 * page, page, PROT_NONE) == 0);
	std::mt19937 rng(5);
	for (VkFormat format : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R16_SFLOAT, VK_FORMAT_D16_UNORM})
		for (uint32_t width : {1u, 2u, 3u, 5u})
			for (bool at_end : {true, false}) {
				const bool depth = format == VK_FORMAT_D16_UNORM;
				TestImage img(format, VK_IMAGE_TYPE_2D, {width, 3, 1});
				for (uint8_t& b : img.memory) b = uint8_t(rng());
				SamplerState sampler = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
				sampler.compare_enable = depth;
				sampler.compare_op = VK_COMPARE_OP_LESS_OR_EQUAL;
				SampledImage image = Prepare(
				    sampler,
				    img.View(VK_IMAGE_VIEW_TYPE_2D, depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT));
				const size_t bytes = size_t(image.levels[0].row_pitch) * 3;
				uint8_t* base = at_end ? pages + 2 * page - bytes : pages + page;
				std::memcpy(base, image.levels[0].base, bytes);
				image.levels[0].base = base;
				constexpr uint32_t n = 40;
				std::vector<float> s(n), t(n), lod(n, 0.0f), dref(n, 0.5f);
				for (uint32_t i = 0; i < n; ++i) s[i] = float(i % 8) / 7.0f, t[i] = float(i / 8) / 4.0f;
				SampleLanes lanes;
				lanes.count = n;
				lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
				lanes.lod = lod.data();
				if (depth) lanes.dref = dref.data();
				std::vector<TexelValue> a(n), b(n);
				INFO("format " << format << " width " << width << " at end " << at_end);
				const bool taken = SampleFast(image, lanes, a.data());
				CHECK(taken == (bytes >= 4));
				if (!taken) continue;
				SampleGeneric(image, lanes, b.data());
				CheckSame(a, b, format == VK_FORMAT_R16_SFLOAT);
			}
	munmap(pages, 3 * page);
}

TEST_CASE("sampling fast path: depth views it declines", "[texture][sample]") {
	// A depth view is taken with or without a compare sampler
	// (SampledImage::depth), with border addressing too; the stencil aspect
	// takes the generic path (3D views with a border:
	// sampling_fast_3d_test.cpp).
	std::mt19937 rng(8);
	const TestImage img = RandomImage(VK_FORMAT_D24_UNORM_S8_UINT, 8, 8, 1, 1, 0, rng);
	std::vector<float> s(8, 0.3f), dref(8, 0.5f);
	SampleLanes lanes;
	lanes.count = 8;
	lanes.coord[0] = s.data(), lanes.coord[1] = s.data();
	lanes.dref = dref.data();
	std::vector<TexelValue> out(8);
	SamplerState sampler = Sampler(VK_FILTER_LINEAR);
	CHECK(SampleFast(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lanes, out.data()));
	CHECK_FALSE(
	    SampleFast(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_STENCIL_BIT)), lanes, out.data()));
	sampler.compare_enable = true;
	sampler.compare_op = VK_COMPARE_OP_LESS;
	CHECK(SampleFast(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lanes, out.data()));
	sampler.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	CHECK(SampleFast(Prepare(sampler, img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT)), lanes, out.data()));
}

// CLAMP_TO_BORDER (shadow maps lit outside by an opaque white border, as
// many engines and Direct3D samplers set them): texels outside the level
// read the border color, compared with Dref, on 2D and 2D array views;
// without Dref, the border's D.
TEST_CASE("sampling fast path: depth lookups across a border equal the generic path bit for bit", "[texture][sample]") {
	std::mt19937 rng(41);
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT})
		for (VkImageViewType type : kViewTypes) {
			if (IsCube(type)) continue;
			const TestImage img = DepthImage(format, type, rng);
			const std::vector<float> depths = Depths(img, rng);
			const bool float_depth = format == VK_FORMAT_D32_SFLOAT;
			for (SamplerState sampler : Samplers())
				for (VkBorderColor color :
				     {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK})
					for (VkCompareOp op : {VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL}) {
						sampler.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;  // u as the grid has it
						sampler.border_color = color;
						sampler.compare_enable = true;
						sampler.compare_op = op;
						const SampledImage image = Prepare(sampler, img.View(type, VK_IMAGE_ASPECT_DEPTH_BIT));
						INFO("format " << format << " view " << type << " op " << op << " border " << color << " mag "
						               << sampler.mag_filter << " min " << sampler.min_filter << " mip "
						               << sampler.mipmap_mode << " u " << sampler.address_u << " aniso "
						               << sampler.max_anisotropy);
						for (uint32_t n : {64u, 23u}) {
							Lanes r(n, false, false, depths, rng);
							std::vector<TexelValue> a(n), b(n);
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, false);
							r.lanes.dref = nullptr;
							REQUIRE(SampleFast(image, r.lanes, a.data()));
							SampleGeneric(image, r.lanes, b.data());
							CheckSame(a, b, float_depth && !OneTexel(sampler));
						}
					}
		}
}
