// The vectorized texel fetch (FetchFast, texture/sample_fast.cpp) and
// storage store (StoreFast, texture/storage_fast.cpp): each must take the
// views it claims and give the generic path's bits (FetchGeneric,
// StoreGeneric): texels inside and outside every dimension, layer, level
// and sample, offsets that overflow 32 bits, a swizzle, any lane count; for
// stores, every conversion at its rounding boundaries (ties, NaN, infinity,
// clamping) and lanes that store to the same texel.
#include <hwy/targets.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"
#include "texture/storage.h"
#include "texture/texel.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

struct ViewCase {
	VkImageType type;
	VkImageViewType view_type;
	VkExtent3D extent;
	uint32_t layers;  // of the image (cubes: 6 per cube)
};

const ViewCase kViews[] = {
    {VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D, {29, 1, 1}, 1},
    {VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D_ARRAY, {17, 1, 1}, 3},
    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, {13, 11, 1}, 1},
    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, {9, 7, 1}, 4},
    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE, {8, 8, 1}, 6},
    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, {4, 4, 1}, 12},
    {VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D, {7, 6, 5}, 1},
};

// The extent of each coordinate of a view type in SPIR-V order, the layer
// last (cubes: the face, 6 per cube), and how many there are.
uint32_t Extents(const ViewCase& v, int32_t extent[3]) {
	const int32_t w = int32_t(v.extent.width), h = int32_t(v.extent.height), layers = int32_t(v.layers);
	switch (v.view_type) {
	case VK_IMAGE_VIEW_TYPE_1D: extent[0] = w; return 1;
	case VK_IMAGE_VIEW_TYPE_1D_ARRAY: extent[0] = w, extent[1] = layers; return 2;
	case VK_IMAGE_VIEW_TYPE_2D: extent[0] = w, extent[1] = h; return 2;
	case VK_IMAGE_VIEW_TYPE_3D: extent[0] = w, extent[1] = h, extent[2] = int32_t(v.extent.depth); return 3;
	default: extent[0] = w, extent[1] = h, extent[2] = layers; return 3;
	}
}

// `count` lanes of coordinates: mostly inside, some one or a few texels
// outside each dimension or layer, some near INT32_MAX and INT32_MIN.
std::vector<int32_t> Coords(uint32_t count, int32_t extent, std::mt19937& rng) {
	std::uniform_int_distribution<int32_t> inside(0, extent - 1), near(-2, extent + 1), pick(0, 31);
	std::vector<int32_t> out(count);
	for (int32_t& c : out) {
		const int32_t p = pick(rng);
		c = p == 0   ? std::numeric_limits<int32_t>::max() - (p & 3)
		    : p == 1 ? std::numeric_limits<int32_t>::min() + 2
		    : p < 4  ? near(rng)
		             : inside(rng);
	}
	return out;
}

// The component form of a fetch (`fetch(out)` writes component c of lane j
// at out[c][j]) gives the texels `want`.
template <typename FetchComponents>
void RequireSameComponents(const std::vector<TexelValue>& want, FetchComponents fetch) {
	const size_t count = want.size();
	std::vector<uint32_t> components[4];
	for (auto& c : components) c.assign(count, 0xdeadbeef);
	uint32_t* const out[4] = {components[0].data(), components[1].data(), components[2].data(), components[3].data()};
	fetch(out);
	for (size_t j = 0; j < count; ++j)
		for (int c = 0; c < 4; ++c) REQUIRE(components[c][j] == want[j].u[c]);
}

void RequireSameTexels(const std::vector<TexelValue>& a, const std::vector<TexelValue>& b) {
	REQUIRE(a.size() == b.size());
	for (size_t i = 0; i < a.size(); ++i) {
		INFO("lane " << i);
		REQUIRE(std::memcmp(a[i].u, b[i].u, 16) == 0);
	}
}

}  // namespace

TEST_CASE("fetch fast path: texel fetches give the generic path's bits", "[texture][fetch]") {
	struct FormatCase {
		VkFormat format;
		FetchReader reader;
	};
	const FormatCase formats[] = {
	    {VK_FORMAT_R8G8B8A8_UNORM, FetchReader::kBytes},       {VK_FORMAT_B8G8R8A8_UNORM, FetchReader::kBytes},
	    {VK_FORMAT_R8G8B8A8_SNORM, FetchReader::kBytes},       {VK_FORMAT_R8G8B8A8_SRGB, FetchReader::kBytes},
	    {VK_FORMAT_R32_SFLOAT, FetchReader::kWords},           {VK_FORMAT_R32_UINT, FetchReader::kWords},
	    {VK_FORMAT_R32G32_SINT, FetchReader::kWords},          {VK_FORMAT_R32G32B32A32_SFLOAT, FetchReader::kWords},
	    {VK_FORMAT_R32G32B32A32_UINT, FetchReader::kWords},    {VK_FORMAT_R16G16_SFLOAT, FetchReader::kHalves},
	    {VK_FORMAT_R16G16B16A16_SFLOAT, FetchReader::kHalves},
	};
	std::mt19937 rng(49);
	for (const FormatCase& fc : formats)
		for (const ViewCase& vc : kViews)
			for (bool swizzled : {false, true}) {
				INFO("format " << fc.format << ", view type " << vc.view_type << (swizzled ? ", swizzled" : ""));
				TestImage img(fc.format, vc.type, vc.extent, 3, vc.layers);
				std::uniform_int_distribution<int> byte(0, 255);
				for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
				ImageViewState view = img.View(vc.view_type);
				if (swizzled)
					view.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
					                   VK_COMPONENT_SWIZZLE_ZERO};
				SampledImage image;
				REQUIRE(PrepareImage(view, &image));
				const uint32_t count = 53;  // whole vectors and a partial one, on any target
				int32_t extent[3];
				const uint32_t dims = Extents(vc, extent);
				std::vector<int32_t> coords[4], lod, offsets[3];
				for (uint32_t d = 0; d < dims; ++d) coords[d] = Coords(count, extent[d], rng);
				lod = Coords(count, 3, rng);
				std::uniform_int_distribution<int32_t> offset(-1, 1);
				FetchLanes lanes;
				lanes.count = count;
				for (uint32_t d = 0; d < dims; ++d) lanes.coord[d] = coords[d].data();
				lanes.lod = lod.data();
				if (vc.view_type != VK_IMAGE_VIEW_TYPE_CUBE && vc.view_type != VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
					for (uint32_t d = 0; d < image.dimensions; ++d) {
						offsets[d].resize(count);
						for (int32_t& o : offsets[d]) o = offset(rng);
						lanes.offset[d] = offsets[d].data();
					}
				// A coordinate and offset whose sum wraps to 0 in 32 bits: outside.
				if (lanes.offset[0]) {
					for (uint32_t d = 0; d < dims; ++d) coords[d][50] = 0;
					lod[50] = 0;
					coords[0][50] = std::numeric_limits<int32_t>::min();
					offsets[0][50] = std::numeric_limits<int32_t>::min();
				}
				std::vector<TexelValue> fast(count), generic(count);
				REQUIRE(FetchFast(image, fc.reader, lanes, fast.data(), nullptr));
				FetchGeneric(image, lanes, generic.data());
				RequireSameTexels(fast, generic);
				// Fetch takes the fast path; the component form gives the same.
				std::vector<TexelValue> through(count);
				Fetch(image, lanes, through.data());
				RequireSameTexels(through, generic);
				RequireSameComponents(generic, [&](uint32_t* const* out) { Fetch(image, lanes, out); });
				// Some lanes read inside (the cases are not all outside).
				uint32_t inside = 0;
				for (uint32_t j = 0; j < count; ++j)
					inside += std::memcmp(generic[j].u, image.out_of_bounds.u, 16) != 0 ? 1 : 0;
				CHECK(inside > 0);
			}
}

TEST_CASE("fetch fast path: rows of texels read as the generic path reads them", "[texture][fetch]") {
	// Lanes in rows of 4, 8, 16 and 32 consecutive texels (a workgroup's
	// rows of invocations): whole vectors and half vectors of one row,
	// rows ending at the image's edge, and a lane outside.
	std::mt19937 rng(7);
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R16G16_SFLOAT}) {
		TestImage img(format, VK_IMAGE_TYPE_2D, {40, 20, 1}, 2, 2);
		std::uniform_int_distribution<int> byte(0, 255);
		for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
		SampledImage image;
		REQUIRE(PrepareImage(img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY), &image));
		for (int32_t row : {4, 8, 16, 32})
			for (int32_t start : {0, 3, 8, 40 - row}) {
				INFO("format " << format << ", rows of " << row << " from " << start);
				const uint32_t count = 96;
				std::vector<int32_t> x(count), y(count), layer(count, 1), lod(count, 0);
				for (uint32_t j = 0; j < count; ++j) x[j] = start + int32_t(j) % row, y[j] = int32_t(j) / row;
				if (start == 3) x[70] = 40;  // outside
				FetchLanes lanes;
				lanes.count = count;
				lanes.coord[0] = x.data(), lanes.coord[1] = y.data(), lanes.coord[2] = layer.data();
				lanes.lod = lod.data();
				std::vector<TexelValue> fast(count), generic(count);
				Fetch(image, lanes, fast.data());
				FetchGeneric(image, lanes, generic.data());
				RequireSameTexels(fast, generic);
			}
	}
}

TEST_CASE("fetch fast path: RGBA8 reads at level 0 without offsets give the generic path's bits", "[texture][fetch]") {
	// imageLoad and texelFetch as filters write them: 1D and 2D views of
	// RGBA8, no offsets or samples, the level absent or 0 (the rows loop of
	// FetchLanesFast), with a lane of another level among them (its vector
	// leaves the loop), coordinates in rows and scattered, inside and out.
	std::mt19937 rng(11);
	const ViewCase views[] = {
	    {VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D, {29, 1, 1}, 1},
	    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, {13, 11, 1}, 1},
	    {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, {40, 20, 1}, 1},
	};
	for (const ViewCase& vc : views)
		for (uint32_t levels : {1u, 3u})
			for (int lod_kind = 0; lod_kind < 3; ++lod_kind)  // absent, zeros, one lane of level 1
				for (bool rows : {false, true}) {
					INFO("view type " << vc.view_type << ", " << vc.extent.width << "x" << vc.extent.height << ", "
					                  << levels << " levels, lod kind " << lod_kind << (rows ? ", rows" : ""));
					TestImage img(VK_FORMAT_R8G8B8A8_UNORM, vc.type, vc.extent, levels, 1);
					std::uniform_int_distribution<int> byte(0, 255);
					for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
					SampledImage image;
					REQUIRE(PrepareImage(img.View(vc.view_type), &image));
					const uint32_t count = 101;
					int32_t extent[3];
					const uint32_t dims = Extents(vc, extent);
					std::vector<int32_t> coords[4], lod(count, 0);
					for (uint32_t d = 0; d < dims; ++d) coords[d] = Coords(count, extent[d], rng);
					if (rows) {
						for (uint32_t j = 0; j < count; ++j) {
							coords[0][j] = int32_t(j % 8) + (j / 8 % 2 ? extent[0] - 8 : 0);
							if (dims > 1) coords[1][j] = int32_t(j / 8) % extent[1];
						}
						coords[0][21] = extent[0];  // outside, in a row
					}
					if (lod_kind == 2 && levels > 1) lod[37] = 1;
					FetchLanes lanes;
					lanes.count = count;
					for (uint32_t d = 0; d < dims; ++d) lanes.coord[d] = coords[d].data();
					if (lod_kind > 0) lanes.lod = lod.data();
					std::vector<TexelValue> fast(count), generic(count);
					REQUIRE(FetchFast(image, FetchReader::kBytes, lanes, fast.data(), nullptr));
					FetchGeneric(image, lanes, generic.data());
					RequireSameTexels(fast, generic);
					RequireSameComponents(generic, [&](uint32_t* const* out) {
						REQUIRE(FetchFast(image, FetchReader::kBytes, lanes, nullptr, out));
					});
					uint32_t inside = 0, outside = 0;
					for (uint32_t j = 0; j < count; ++j)
						(std::memcmp(generic[j].u, image.out_of_bounds.u, 16) != 0 ? inside : outside) += 1;
					CHECK(inside > 0);
					CHECK(outside > 0);
				}
}

TEST_CASE("fetch fast path: declines what it does not read", "[texture][fetch]") {
	FetchLanes lanes;
	const int32_t zero[1] = {0};
	lanes.count = 1;
	lanes.coord[0] = lanes.coord[1] = zero;
	TexelValue out{};
	{
		// 2-byte texels: read by the generic path.
		TestImage img(VK_FORMAT_R8G8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1});
		SampledImage image;
		REQUIRE(PrepareImage(img.View(VK_IMAGE_VIEW_TYPE_2D), &image));
		CHECK_FALSE(FetchFast(image, FetchReader::kBytes, lanes, &out, nullptr));
	}
	{
		// A reader it does not know (depth).
		TestImage img(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, {4, 4, 1});
		SampledImage image;
		REQUIRE(PrepareImage(img.View(VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_DEPTH_BIT), &image));
		CHECK_FALSE(FetchFast(image, FetchReader::kOther, lanes, &out, nullptr));
	}
}

TEST_CASE("fetch: the component form of the generic path gives its texels, in chunks", "[texture][fetch]") {
	// R8G8 (2-byte texels: FetchFast declines), 150 lanes: more than one
	// chunk of the component form's generic loop.
	TestImage img(VK_FORMAT_R8G8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1});
	std::mt19937 rng(3);
	std::uniform_int_distribution<int> byte(0, 255);
	for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
	SampledImage image;
	REQUIRE(PrepareImage(img.View(VK_IMAGE_VIEW_TYPE_2D), &image));
	const uint32_t count = 150;
	std::vector<int32_t> x = Coords(count, 16, rng), y = Coords(count, 16, rng);
	FetchLanes lanes;
	lanes.count = count;
	lanes.coord[0] = x.data(), lanes.coord[1] = y.data();
	std::vector<TexelValue> generic(count);
	FetchGeneric(image, lanes, generic.data());
	std::vector<uint32_t> components[4];
	for (auto& c : components) c.assign(count, 0xdeadbeef);
	uint32_t* const out[4] = {components[0].data(), components[1].data(), components[2].data(), components[3].data()};
	Fetch(image, lanes, out);
	for (uint32_t j = 0; j < count; ++j)
		for (int c = 0; c < 4; ++c) REQUIRE(components[c][j] == generic[j].u[c]);
}

namespace {

// Texel words for stores: for float formats, values at each conversion's
// boundaries (UNORM and SNORM ties and their neighbours, the clamps, NaNs,
// infinities, zeros of both signs, halves' rounding and overflow edges,
// subnormals), then random floats in [-1.5, 1.5]; for integer formats
// random words.
std::vector<uint32_t> StoreWords(uint32_t count, bool floats, std::mt19937& rng) {
	std::vector<float> special = {0.0f,
	                              -0.0f,
	                              0.5f,
	                              -0.5f,
	                              1.0f,
	                              -1.0f,
	                              1.5f,
	                              -1.5f,
	                              65504.0f,
	                              65519.99f,
	                              65520.0f,
	                              -65520.0f,
	                              0x1p-25f,
	                              0x1p-24f,
	                              0x1.8p-24f,
	                              0x1p-14f,
	                              0x1p-149f,
	                              1e-30f,
	                              std::numeric_limits<float>::infinity(),
	                              -std::numeric_limits<float>::infinity()};
	for (float scale : {255.0f, 127.0f, 65535.0f, 32767.0f, 1023.0f, 3.0f})
		for (int k = 0; k < 6; ++k) {
			const float tie = (float(k) * 37.0f + 0.5f) / scale;
			special.push_back(std::nextafter(tie, 0.0f));
			special.push_back(tie);
			special.push_back(std::nextafter(tie, 2.0f));
			special.push_back(-tie);
		}
	const uint32_t nans[] = {0x7fc00000u, 0xffc12345u, 0x7f800001u, 0xffa00abcu};
	std::uniform_int_distribution<uint32_t> bits;
	std::uniform_real_distribution<float> ordinary(-1.5f, 1.5f);
	std::vector<uint32_t> out(count);
	for (uint32_t j = 0; j < count; ++j) {
		if (!floats) {
			out[j] = bits(rng);
			continue;
		}
		const uint32_t p = bits(rng) % 8;
		float f = p < 4 ? special[bits(rng) % special.size()] : ordinary(rng);
		std::memcpy(&out[j], &f, 4);
		if (p == 4) out[j] = nans[bits(rng) % 4];
	}
	return out;
}

}  // namespace

namespace {
// The view (`layers` layers of `layout`) over each of two copies of the
// image's bytes: the generic path stores into one, the fast path into the other.
void PrepareBoth(const ImageLayout& layout, VkFormat format, VkImageViewType type, uint32_t layers,
                 std::vector<uint8_t>& generic, std::vector<uint8_t>& fast, SampledImage* generic_image,
                 SampledImage* fast_image) {
	ImageViewState view;
	view.layout = &layout;
	view.format = format;
	view.view_type = type;
	view.layer_count = layers;
	view.memory = generic.data();
	REQUIRE(PrepareImage(view, generic_image));
	view.memory = fast.data();
	REQUIRE(PrepareImage(view, fast_image));
}
}  // namespace

TEST_CASE("storage fast path: stores write PackTexel's bytes", "[texture][storage]") {
	const VkFormat formats[] = {
	    VK_FORMAT_R8G8B8A8_UNORM,
	    VK_FORMAT_B8G8R8A8_UNORM,
	    VK_FORMAT_R8G8B8A8_SNORM,
	    VK_FORMAT_R8G8B8A8_UINT,
	    VK_FORMAT_R8G8B8A8_SINT,
	    VK_FORMAT_R8_UNORM,
	    VK_FORMAT_R8G8_SNORM,
	    VK_FORMAT_R16G16B16A16_UNORM,
	    VK_FORMAT_R16G16B16A16_SNORM,
	    VK_FORMAT_R16G16_SINT,
	    VK_FORMAT_R16_UINT,
	    VK_FORMAT_R32_SFLOAT,
	    VK_FORMAT_R32_UINT,
	    VK_FORMAT_R32G32_SFLOAT,
	    VK_FORMAT_R32G32B32A32_SFLOAT,
	    VK_FORMAT_R32G32B32A32_SINT,
	    VK_FORMAT_R16G16B16A16_SFLOAT,
	    VK_FORMAT_R16_SFLOAT,
	    VK_FORMAT_A2B10G10R10_UNORM_PACK32,
	    VK_FORMAT_A2B10G10R10_UINT_PACK32,
	    VK_FORMAT_R5G6B5_UNORM_PACK16,
	};
	std::mt19937 rng(4949);
	for (VkFormat format : formats)
		for (const ViewCase& vc : kViews)
			for (uint32_t samples : {1u, 4u}) {
				if (samples > 1 && vc.view_type != VK_IMAGE_VIEW_TYPE_2D && vc.view_type != VK_IMAGE_VIEW_TYPE_2D_ARRAY)
					continue;
				INFO("format " << format << ", view type " << vc.view_type << ", samples " << samples);
				const FormatInfo& info = *FindFormat(format);
				const StorePlan plan = PlanStore(info);
				REQUIRE(plan.ok);
				ImageLayout layout;
				REQUIRE(layout.Init({format, vc.type, vc.extent, 1, vc.layers, samples}));
				std::vector<uint8_t> generic(layout.TotalSize(), 0x5a), fast = generic;
				SampledImage generic_image, fast_image;
				PrepareBoth(layout, format, vc.view_type, vc.layers, generic, fast, &generic_image, &fast_image);
				const uint32_t count = 77;
				int32_t extent[3];
				const uint32_t dims = Extents(vc, extent);
				std::vector<int32_t> coords[4], sample;
				for (uint32_t d = 0; d < dims; ++d) coords[d] = Coords(count, extent[d], rng);
				for (uint32_t d = 0; d < dims; ++d)  // a few lanes store to lane 0's texel: the last one wins
					for (uint32_t j = 40; j < 44; ++j) coords[d][j] = coords[d][0];
				sample = Coords(count, int32_t(samples), rng);
				const bool floats = info.Numeric() != NumericFormat::UINT && info.Numeric() != NumericFormat::SINT;
				std::vector<uint32_t> texels[4];
				for (auto& t : texels) t = StoreWords(count, floats, rng);
				StoreLanes lanes;
				lanes.count = count;
				for (uint32_t d = 0; d < dims; ++d) lanes.coord[d] = coords[d].data();
				if (samples > 1) lanes.sample = sample.data();
				for (int c = 0; c < 4; ++c) lanes.texel[c] = texels[c].data();
				StoreGeneric(generic_image, lanes);
				const bool half = info.components[0].numeric == NumericFormat::SFLOAT && info.components[0].bits == 16;
				if (!StoreFast(fast_image, plan, lanes)) {
					// Targets without F16C leave halves to the generic path,
					// scalar code (TESSERA_CPU_LEVEL=baseline) normalized ones.
					const bool vectors = (hwy::SupportedTargets() & ~int64_t(HWY_SCALAR | HWY_EMU128)) != 0;
					CHECK((half || !vectors));
					StoreGeneric(fast_image, lanes);
				}
				REQUIRE(fast == generic);
				// Some lanes were written (not all outside).
				CHECK(generic != std::vector<uint8_t>(generic.size(), 0x5a));
				// Store() takes the same path.
				std::vector<uint8_t> before = fast;
				Store(fast_image, lanes);
				CHECK(fast == before);
			}
}

TEST_CASE("storage fast path: rows of 4-byte texels store as the generic path stores them", "[texture][storage]") {
	// Invocations storing a row of texels (the copy of a whole vector), a
	// row that runs past the image's right edge, and rows of other widths
	// and layers (texels not consecutive across a vector): the bytes of
	// StoreGeneric. 2D views of four UNORM bytes take the rows loop of
	// StoreLanesFast.
	std::mt19937 rng(31);
	for (VkFormat format :
	     {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R32_SFLOAT, VK_FORMAT_A2B10G10R10_UINT_PACK32})
		for (VkImageViewType view_type : {VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_2D})
			for (int32_t x0 : {0, 8, 50})
				for (uint32_t row_width : {64u, 8u, 5u}) {
					INFO("format " << format << ", view type " << view_type << ", x0 " << x0 << ", row width "
					               << row_width);
					const FormatInfo& info = *FindFormat(format);
					const StorePlan plan = PlanStore(info);
					REQUIRE(plan.ok);
					ImageLayout layout;
					REQUIRE(layout.Init({format, VK_IMAGE_TYPE_2D, {64, 8, 1}, 1, 2, 1}));
					std::vector<uint8_t> generic(layout.TotalSize(), 0x5a), fast = generic;
					SampledImage generic_image, fast_image;
					const uint32_t layers = view_type == VK_IMAGE_VIEW_TYPE_2D ? 1 : 2;
					PrepareBoth(layout, format, view_type, layers, generic, fast, &generic_image, &fast_image);
					const uint32_t count = 96;
					std::vector<int32_t> x(count), y(count), layer(count);
					for (uint32_t j = 0; j < count; ++j) {
						x[j] = x0 + int32_t(j % row_width);
						y[j] = int32_t(j / row_width) % 8;
						layer[j] = int32_t(j / 64);
					}
					const bool floats = info.Numeric() != NumericFormat::UINT;
					std::vector<uint32_t> texels[4];
					for (auto& t : texels) t = StoreWords(count, floats, rng);
					StoreLanes lanes;
					lanes.count = count;
					lanes.coord[0] = x.data(), lanes.coord[1] = y.data(), lanes.coord[2] = layer.data();
					for (int c = 0; c < 4; ++c) lanes.texel[c] = texels[c].data();
					StoreGeneric(generic_image, lanes);
					if (!StoreFast(fast_image, plan, lanes)) StoreGeneric(fast_image, lanes);
					REQUIRE(fast == generic);
					CHECK(generic != std::vector<uint8_t>(generic.size(), 0x5a));
				}
}

TEST_CASE("storage fast path: formats it leaves to the generic path", "[texture][storage]") {
	// SCALED, sRGB, packed floats, 1-bit UNORM and 2-bit SNORM (whose ties
	// round away from zero, not to even), 64-bit components.
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_USCALED, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
	                        VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, VK_FORMAT_A1R5G5B5_UNORM_PACK16,
	                        VK_FORMAT_A2B10G10R10_SNORM_PACK32, VK_FORMAT_R64_UINT, VK_FORMAT_D32_SFLOAT}) {
		INFO("format " << format);
		CHECK_FALSE(PlanStore(*FindFormat(format)).ok);
	}
}

// Texel buffers as one-level 1D images (PrepareTexelBuffer): fetches give
// each texel as UnpackTexel reads it, and outside the view (past the end,
// negative, near INT32_MIN and INT32_MAX) robustBufferAccess2's values; stores
// write PackTexel's bytes and nothing outside. Formats of 1 to 16 bytes, the
// vector paths' and those left to the generic ones, 4-byte texels at a view
// offset that is not a multiple of 16 (texel buffer views need only the
// texel's alignment).
TEST_CASE("texel buffers: fetches and stores through PrepareTexelBuffer", "[texture][fetch][storage]") {
	const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM,
	                            VK_FORMAT_R8G8B8A8_SINT,
	                            VK_FORMAT_R32_UINT,
	                            VK_FORMAT_R32G32_SFLOAT,
	                            VK_FORMAT_R32G32B32A32_SFLOAT,
	                            VK_FORMAT_R16G16B16A16_SFLOAT,
	                            VK_FORMAT_R8_UNORM,
	                            VK_FORMAT_A2B10G10R10_UNORM_PACK32,
	                            VK_FORMAT_B8G8R8A8_UNORM,
	                            VK_FORMAT_R16_SINT};
	std::mt19937 rng(77);
	for (VkFormat f : formats) {
		const FormatInfo& format = *FindFormat(f);
		CAPTURE(format.format);
		const uint32_t count = 37, size = format.block_size, offset = size == 4 ? 4 : 0;
		std::vector<uint8_t> memory(offset + count * size + 64);
		for (uint8_t& b : memory) b = uint8_t(rng());
		// Float formats: no NaN bits, whose payloads need not survive a round trip.
		if (format.Numeric() == NumericFormat::SFLOAT)
			for (size_t k = 0; k + 4 <= memory.size(); k += 4) memory[k + 3] &= 0x3f, memory[k + 1] &= 0x3f;
		const uint8_t* texels = memory.data() + offset;
		SampledImage image;
		REQUIRE(PrepareTexelBuffer(texels, count, format, &image));
		TexelValue outside{};
		if (!format.Find('A')) {
			if (format.IsInteger())
				outside.u[3] = 1;
			else
				outside.f[3] = 1.0f;
		}
		for (uint32_t lanes : {1u, 7u, 16u, 53u}) {
			CAPTURE(lanes);
			std::vector<int32_t> x(lanes);
			for (uint32_t j = 0; j < lanes; ++j) {
				const uint32_t kind = rng() % 8;
				x[j] = kind == 0   ? int32_t(count + rng() % 3)
				       : kind == 1 ? -1 - int32_t(rng() % 3)
				       : kind == 2
				           ? (rng() % 2 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int32_t>::min())
				           : int32_t(rng() % count);
			}
			FetchLanes fetch;
			fetch.count = lanes;
			fetch.coord[0] = x.data();
			std::vector<TexelValue> got(lanes);
			Fetch(image, fetch, got.data());
			std::vector<uint32_t> components[4];
			for (auto& c : components) c.assign(lanes, 0xdeadbeef);
			uint32_t* const component_arrays[4] = {components[0].data(), components[1].data(), components[2].data(),
			                                       components[3].data()};
			Fetch(image, fetch, component_arrays);
			for (uint32_t j = 0; j < lanes; ++j) {
				CAPTURE(j, x[j]);
				const bool inside = x[j] >= 0 && uint32_t(x[j]) < count;
				const TexelValue want = inside ? UnpackTexel(format, texels + size_t(x[j]) * size) : outside;
				for (int c = 0; c < 4; ++c) {
					CHECK(got[j].u[c] == want.u[c]);
					CHECK(component_arrays[c][j] == want.u[c]);
				}
			}
			// Stores: distinct texels (a later lane's store to the same texel
			// wins, which the image tests check), each lane's value packed.
			std::vector<uint8_t> stored = memory, expected = memory;
			SampledImage target;
			REQUIRE(PrepareTexelBuffer(stored.data() + offset, count, format, &target));
			std::vector<int32_t> at(lanes);
			std::vector<uint32_t> values[4];
			for (auto& v : values) v.resize(lanes);
			for (uint32_t j = 0; j < lanes; ++j) {
				at[j] = j < count ? int32_t((j * 11) % count) : int32_t(count + j);  // past the end: dropped
				for (int c = 0; c < 4; ++c) {
					const float value = float(int32_t(rng() % 512) - 256) / 128.0f;
					std::memcpy(&values[c][j], &value, 4);
					if (format.IsInteger()) values[c][j] = rng() % 300;
				}
				if (j < count) {
					TexelValue v;
					for (int c = 0; c < 4; ++c) v.u[c] = values[c][j];
					PackTexel(format, v, expected.data() + offset + size_t(at[j]) * size);
				}
			}
			StoreLanes store;
			store.count = lanes;
			store.coord[0] = at.data();
			for (int c = 0; c < 4; ++c) store.texel[c] = values[c].data();
			Store(target, store);
			CHECK(stored == expected);
		}
	}
	SampledImage image;
	CHECK_FALSE(PrepareTexelBuffer(nullptr, 4, *FindFormat(VK_FORMAT_R8G8B8A8_UNORM), &image));
	CHECK_FALSE(
	    PrepareTexelBuffer(reinterpret_cast<const uint8_t*>(&image), 0, *FindFormat(VK_FORMAT_R8G8B8A8_UNORM), &image));
	CHECK_FALSE(PrepareTexelBuffer(reinterpret_cast<const uint8_t*>(&image), 4,
	                               *FindFormat(VK_FORMAT_BC1_RGB_UNORM_BLOCK), &image));
}
