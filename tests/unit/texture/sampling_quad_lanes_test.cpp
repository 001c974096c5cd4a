// Implicit-LOD lookups as a fragment shader's interpreter hands them over:
// derivatives left to the sampler (SampleLanes::quad_derivatives, the
// differences within aligned 2x2 lane quads) and results as four component
// arrays. Both must give, bit for bit, what the same lookup gives with the
// derivative arrays written out (QuadDerivatives) and texels returned lane
// by lane, on the fast path and on the generic one.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "sampling_fixture.h"
#include "texture/sample.h"
#include "texture/sample_fast.h"

using namespace tessera::texture;
using namespace tessera::texture::test;

namespace {

TestImage RandomImage(VkFormat format, uint32_t size, uint32_t levels, uint32_t layers, std::mt19937& rng) {
	TestImage img(format, VK_IMAGE_TYPE_2D, {size, size, 1}, levels, layers);
	std::uniform_int_distribution<int> byte(0, 255);
	for (uint8_t& b : img.memory) b = uint8_t(byte(rng));
	if (format == VK_FORMAT_R32G32B32A32_SFLOAT || format == VK_FORMAT_R16G16B16A16_SFLOAT) {
		// Random bytes are mostly huge or NaN floats: ordinary values instead.
		std::uniform_real_distribution<float> value(-2.0f, 2.0f);
		for (uint32_t l = 0; l < levels; ++l)
			for (uint32_t layer = 0; layer < layers; ++layer)
				for (uint32_t y = 0; y < (size >> l); ++y)
					for (uint32_t x = 0; x < (size >> l); ++x) {
						TexelValue v;
						for (float& c : v.f) c = value(rng);
						img.Set(l, layer, x, y, 0, v);
					}
	}
	return img;
}

// `quads` quads of lanes around random centers, each quad's four pixels one
// pixel apart on screen: coordinates step by (du, dv) across x and y.
void CheckQuadLanes(const SampledImage& image, uint32_t quads, uint32_t coords, std::mt19937& rng) {
	const uint32_t n = 4 * quads;
	std::uniform_real_distribution<float> center(-1.5f, 2.5f), step(-0.2f, 0.2f), layer(-0.5f, 4.5f);
	std::vector<float> coord[4];
	for (auto& c : coord) c.resize(n);
	for (uint32_t q = 0; q < quads; ++q) {
		const float scale = std::ldexp(1.0f, int(q % 10) - 8);  // magnified to far minified
		for (uint32_t c = 0; c < coords; ++c) {
			const float at = center(rng), dx = step(rng) * scale, dy = step(rng) * scale;
			for (uint32_t p = 0; p < 4; ++p) coord[c][4 * q + p] = at + float(p & 1) * dx + float(p >> 1) * dy;
		}
		if (image.arrayed)
			for (uint32_t p = 0; p < 4; ++p) coord[image.cube ? 3 : 2][4 * q + p] = layer(rng);
	}
	SampleLanes quad;
	quad.count = n;
	for (uint32_t c = 0; c < 4; ++c) quad.coord[c] = coord[c].data();
	quad.quad_derivatives = true;
	std::vector<float> dref(n);  // compare samplers: references around the texels' values, [0, 1] and beyond
	std::uniform_real_distribution<float> reference(-0.1f, 1.1f);
	for (float& d : dref) d = reference(rng);
	if (image.compare) quad.dref = dref.data();

	// The reference: derivative arrays written out, texels lane by lane,
	// the generic path.
	std::vector<float> dx[3], dy[3];
	SampleLanes given = quad;
	given.quad_derivatives = false;
	for (uint32_t c = 0; c < 3; ++c) {
		dx[c].resize(n), dy[c].resize(n);
		QuadDerivatives(coord[c].data(), n, dx[c].data(), dy[c].data());
		given.ddx[c] = dx[c].data(), given.ddy[c] = dy[c].data();
	}
	std::vector<TexelValue> want(n), texels(n);
	SampleGeneric(image, given, want.data());
	std::vector<float> component[4];
	for (auto& c : component) c.resize(n);
	float* const components[4] = {component[0].data(), component[1].data(), component[2].data(), component[3].data()};
	Sample(image, quad, components);
	Sample(image, quad, texels.data());
	const bool one_texel = image.sampler.mag_filter == VK_FILTER_NEAREST &&
	                       image.sampler.min_filter == VK_FILTER_NEAREST &&
	                       image.sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST;
	for (uint32_t j = 0; j < n; ++j) {
		INFO("lane " << j);
		for (int c = 0; c < 4; ++c) {
			uint32_t got;
			std::memcpy(&got, &component[c][j], 4);
			// Filtered floats may differ in which NaN a sum keeps (sample_fast.h).
			const bool nan = !one_texel && std::isnan(want[j].f[c]);
			CHECK((got == want[j].u[c] || (nan && std::isnan(component[c][j]))));
			CHECK((texels[j].u[c] == want[j].u[c] || (nan && std::isnan(texels[j].f[c]))));
		}
	}
}

}  // namespace

TEST_CASE("sampling: quad derivatives and component results equal explicit derivatives", "[texture][sample]") {
	std::mt19937 rng(99);
	const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
	                            VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8G8_UNORM};
	for (VkFormat format : formats)
		for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_CUBE})
			for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
				for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
					for (float aniso : {1.0f, 8.0f}) {
						const bool cube = type == VK_IMAGE_VIEW_TYPE_CUBE;
						const TestImage img = RandomImage(format, 16, 5, cube ? 6 : 4, rng);
						SamplerState sampler = Sampler(filter, VK_SAMPLER_ADDRESS_MODE_REPEAT);
						sampler.mipmap_mode = mip;
						sampler.anisotropy_enable = aniso > 1.0f;
						sampler.max_anisotropy = aniso;
						const SampledImage image = Prepare(sampler, img.View(type));
						INFO("format " << format << " view " << type << " filter " << filter << " mip " << mip
						               << " aniso " << aniso);
						for (uint32_t quads : {1u, 4u, 5u, 17u})  // whole vectors and a rest
							CheckQuadLanes(image, quads, cube ? 3 : 2, rng);
					}
}

// The lookups SampleLanesFast runs in loops of their own (CommonImage: 2D
// views, quads, RGBA8, RGBA16F or a depth format compared with Dref, both
// dimensions REPEAT of a power of two or CLAMP_TO_EDGE; cubes of RGBA8 or
// RGBA16F, whatever the sampler's modes) and their neighbours that take the
// general loop (a mirrored dimension, a width that is not a power of two,
// a depth cube), against the generic path.
TEST_CASE("sampling: the common lookups' own loops equal the generic path", "[texture][sample]") {
	std::mt19937 rng(7);
	const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT,
	                            VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM};
	const VkSamplerAddressMode modes[][2] = {
	    {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT},
	    {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE},
	    {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT}};
	for (VkFormat format : formats)
		for (bool cube : {false, true})
			for (uint32_t size : {16u, 12u})
				for (const auto& mode : modes)
					for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
						for (VkSamplerMipmapMode mip :
						     {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR}) {
							const bool depth = format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM;
							const TestImage img = RandomImage(format, size, 4, cube ? 6 : 1, rng);
							SamplerState sampler = Sampler(filter);
							sampler.address_u = mode[0], sampler.address_v = mode[1];
							sampler.mipmap_mode = mip;
							sampler.compare_enable = depth;
							sampler.compare_op = VK_COMPARE_OP_LESS;
							const SampledImage image = Prepare(
							    sampler, img.View(cube ? VK_IMAGE_VIEW_TYPE_CUBE : VK_IMAGE_VIEW_TYPE_2D,
							                      depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT));
							INFO("format " << format << (cube ? " cube" : " 2D") << " size " << size << " modes "
							               << mode[0] << " " << mode[1] << " filter " << filter << " mip " << mip);
							for (uint32_t quads : {1u, 4u, 5u, 17u})  // whole vectors and a rest
								CheckQuadLanes(image, quads, cube ? 3 : 2, rng);
						}
}
