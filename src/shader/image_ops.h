// What an image, sampler or texel buffer descriptor resolves to for the
// shader engine: plain data in terms of src/texture (no Vulkan handles).
// src/vk fills one per Program::image_bindings slot (Resources::images).
#pragma once

#include <cstdint>

#include "texture/format.h"
#include "texture/sample.h"
#include "texture/sampler_state.h"

namespace tessera::shader {

struct ImageBinding {
	// Images (sampled, storage, combined image sampler): the view.
	bool has_view = false;
	texture::ImageViewState view;
	// Samplers and combined image samplers: the sampler's state.
	bool has_sampler = false;
	texture::SamplerState sampler;
	// The view prepared once: with the sampler for combined image samplers
	// (PrepareSampledImage), else on its own (PrepareImage, for fetches,
	// storage images and queries). prepared_ok is false when the view cannot
	// be read (no memory, unsupported format): its reads return zero.
	bool prepared_ok = false;
	texture::SampledImage prepared;
	// Texel buffers: the view's first texel, its texel count and format;
	// prepared (prepared_ok) as a one-level 1D image for fetches and stores
	// (texture::PrepareTexelBuffer).
	uint8_t* texels = nullptr;
	uint32_t texel_count = 0;
	const texture::FormatInfo* texel_format = nullptr;
};

}  // namespace tessera::shader
