// Sampling block-compressed images: the view's levels and layers decoded to
// the narrowest uncompressed format that holds the decoded values exactly
// (DecodedFormat: RGBA8 UNORM or sRGB, RGBA16F, else RGBA32F with sRGB
// decoded to linear), which sample.h then reads like any uncompressed view. Vulkan 1.3 §16 "Texel Input Operations":
// format conversion (block decode, sRGB to linear) comes before filtering,
// so filtering the decoded texels is exactly what the spec asks.
#pragma once

#include <cstdint>
#include <vector>

#include "texture/image_layout.h"
#include "texture/sampler_state.h"

namespace tessera::texture {

// Owns the decoded texels; view points into this object (do not move it).
struct DecodedView {
	ImageLayout layout;
	std::vector<uint8_t> memory;
	ImageViewState view;
};

// True when the view's format is a compressed format DecodeBlock handles.
bool NeedsDecodedView(const ImageViewState& view);
// The format DecodeView decodes a view of a compressed format to (it falls
// back to R32G32B32A32_SFLOAT should a texel not fit).
VkFormat DecodedFormat(const ImageViewState& view);
// Decodes the view's levels and layers into out (false for views that are
// not of such a format, or have no memory). Costs one DecodeBlock per block.
bool DecodeView(const ImageViewState& view, DecodedView* out);

}  // namespace tessera::texture
