// Shared by the sampling tests: an image in memory whose texels are set
// through PackTexel, a sampler of one filter and address mode, and
// PrepareSampledImage that must succeed.
#pragma once

#include <catch2/catch.hpp>

#include <vector>

#include "texture/sample.h"

namespace tessera::texture::test {

struct TestImage {
	ImageLayout layout;
	std::vector<uint8_t> memory;

	TestImage(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t levels = 1, uint32_t layers = 1) {
		REQUIRE(layout.Init({format, type, extent, levels, layers, 1}));
		memory.assign(layout.TotalSize(), 0);
	}
	uint8_t* At(uint32_t level, uint32_t layer, uint32_t x, uint32_t y = 0, uint32_t z = 0, uint32_t plane = 0) {
		return memory.data() + layout.Offset(plane, level, layer, x, y, z);
	}
	void Set(uint32_t level, uint32_t layer, uint32_t x, uint32_t y, uint32_t z, TexelValue v) {
		PackTexel(*FindFormat(layout.Description().format), v, At(level, layer, x, y, z));
	}
	void SetFloat(uint32_t level, uint32_t layer, uint32_t x, uint32_t y, uint32_t z, float r) {
		TexelValue v{};
		v.f[0] = r;
		Set(level, layer, x, y, z, v);
	}
	// Level 0, layer 0.
	void SetFloat(uint32_t x, uint32_t y, uint32_t z, float r) { SetFloat(0, 0, x, y, z, r); }
	ImageViewState View(VkImageViewType type, VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT) const {
		ImageViewState v;
		v.layout = &layout;
		v.memory = memory.data();
		v.format = layout.Description().format;
		v.aspect = aspect;
		v.view_type = type;
		v.level_count = layout.Description().mip_levels;
		v.layer_count = layout.Description().array_layers;
		return v;
	}
};

inline SamplerState Sampler(VkFilter filter, VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
	SamplerState s;
	s.mag_filter = s.min_filter = filter;
	s.address_u = s.address_v = s.address_w = mode;
	s.max_lod = 1000.0f;
	return s;
}

// The sampler states the fast-path tests run through: mag and min filters
// alike and mixed, both mipmap modes, REPEAT and CLAMP_TO_EDGE, with and
// without 16x anisotropy; levels up to 4, the given LOD bias.
inline std::vector<SamplerState> SamplerGrid(float lod_bias = 0.0f) {
	std::vector<SamplerState> out;
	for (VkFilter mag : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
		for (VkFilter min : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
			for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
				for (VkSamplerAddressMode mode :
				     {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE})
					for (float aniso : {1.0f, 16.0f}) {
						SamplerState sampler = Sampler(mag, mode);
						sampler.min_filter = min;
						sampler.mipmap_mode = mip;
						sampler.anisotropy_enable = aniso > 1.0f;
						sampler.max_anisotropy = aniso;
						sampler.mip_lod_bias = lod_bias;
						sampler.max_lod = 4.0f;
						out.push_back(sampler);
					}
	return out;
}

inline SampledImage Prepare(const SamplerState& sampler, const ImageViewState& view) {
	SampledImage image;
	REQUIRE(PrepareSampledImage(sampler, view, &image));
	return image;
}

}  // namespace tessera::texture::test
