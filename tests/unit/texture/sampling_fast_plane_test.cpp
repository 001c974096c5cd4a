// The fast path's loop for the usual 2D texture (sample_fast.cpp
// SamplePlane: a 2D view of one level, four 8-bit components, one filter,
// no border) must give the generic path's results bit for bit, for batches
// of any size (whole vectors go through the loop, the last lanes through
// SampleVector), into texels and into component arrays, with texel
// offsets, swizzles and every address mode but CLAMP_TO_BORDER (which the
// loop leaves to FilterLevel, and which is compared too). SampleGeneric
// reads a 2D_ARRAY view of the same image, which the fast path never takes.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

void ComparePlane(const TestImage& img, const SamplerState& sampler, VkComponentMapping components, uint32_t count,
                  bool offsets, std::mt19937& rng) {
	ImageViewState fast_view = img.View(VK_IMAGE_VIEW_TYPE_2D), generic_view = img.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY);
	fast_view.components = generic_view.components = components;
	const SampledImage fast = Prepare(sampler, fast_view);
	const SampledImage generic = Prepare(sampler, generic_view);
	std::uniform_real_distribution<float> coord(-1.5f, 2.5f);
	std::uniform_int_distribution<int32_t> texels(-8, 7);
	std::vector<float> s(count), t(count), layer(count, 0.0f);
	std::vector<int32_t> offset[2] = {std::vector<int32_t>(count), std::vector<int32_t>(count)};
	const float kOdd[] = {
	    1.0e5f,      -3.0e6f, 2.0e9f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
	    0.5f / 16.0f};
	for (uint32_t i = 0; i < count; ++i) {
		s[i] = coord(rng), t[i] = coord(rng);
		// Texel centres and edges exactly, and lanes far away or not numbers.
		if (i % 7 == 3) s[i] = float(i % 16) / 16.0f;
		if (i % 11 == 5) t[i] = kOdd[(i / 11) % 6];
		offset[0][i] = texels(rng), offset[1][i] = texels(rng);
	}
	SampleLanes lanes;
	lanes.count = count;
	lanes.coord[0] = s.data(), lanes.coord[1] = t.data();
	// ImplicitLod from whole quads, as a fragment batch asks (LodFree: unused).
	lanes.quad_derivatives = count % 4 == 0;
	for (int d = 0; d < 2 && offsets; ++d) lanes.offset[d] = offset[d].data();
	std::vector<TexelValue> texel_out(count), expected(count);
	std::vector<float> planes[4];
	float* component_out[4];
	for (int c = 0; c < 4; ++c) planes[c].resize(count), component_out[c] = planes[c].data();
	REQUIRE(SampleFast(fast, lanes, texel_out.data()));
	REQUIRE(SampleFast(fast, lanes, component_out));
	lanes.coord[2] = layer.data();
	SampleGeneric(generic, lanes, expected.data());
	for (uint32_t i = 0; i < count; ++i) {
		INFO("lane " << i << " of " << count << " at (" << s[i] << ", " << t[i] << ")");
		for (int c = 0; c < 4; ++c) {
			CHECK(texel_out[i].u[c] == expected[i].u[c]);
			CHECK(std::bit_cast<uint32_t>(planes[c][i]) == expected[i].u[c]);
		}
	}
}

}  // namespace

TEST_CASE("sampling fast path: one-level 8-bit 2D views equal the generic path in batches of any size",
          "[texture][sample]") {
	std::mt19937 rng(11);
	constexpr VkComponentSwizzle kR = VK_COMPONENT_SWIZZLE_R, kOne = VK_COMPONENT_SWIZZLE_ONE,
	                             kSame = VK_COMPONENT_SWIZZLE_IDENTITY;
	const VkComponentMapping mappings[] = {{}, {kSame, kSame, kSame, kOne}, {kR, kR, kR, kOne}};
	for (VkFormat format :
	     {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_SNORM})
		for (uint32_t size : {16u, 20u}) {  // power of two and not
			TestImage img(format, VK_IMAGE_TYPE_2D, {size, size / 2 + 3, 1}, 1);
			std::uniform_int_distribution<int> byte(0, 255);
			for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
			for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
				for (VkSamplerAddressMode mode :
				     {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_REPEAT,
				      VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
				      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER})
					for (const VkComponentMapping& mapping : mappings)
						for (uint32_t count : {4u, 64u, 76u, 256u, 3u})
							for (bool offsets : {false, true}) {
								SamplerState sampler = Sampler(filter, mode);
								sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
								INFO("format " << format << " size " << size << " filter " << filter << " mode " << mode
								               << " swizzle " << mapping.r << " " << mapping.a << " lanes " << count
								               << " offsets " << offsets);
								ComparePlane(img, sampler, mapping, count, offsets, rng);
							}
		}
}
