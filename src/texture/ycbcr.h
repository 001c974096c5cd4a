// Sampler Y'CbCr conversion (Vulkan 1.3 §13.1 "Sampler Y′CbCr Conversion" and
// §16 "Sampler Y′CbCr Conversion"): chroma reconstruction, range expansion and
// model conversion of the 8/10/16-bit Y'CbCr formats, as plain math.
//
// Tessera reconstructs chroma explicitly (the formats report
// SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT): a view is
// decoded into R32G32B32A32_SFLOAT texels at luma resolution - chroma
// reconstructed at every luma texel with the conversion's chromaFilter and
// offsets, then range expansion and model conversion - and sample.h filters
// those texels with the sampler's own filters (§16 "Chroma Reconstruction":
// explicit reconstruction happens before, and independently of, the
// sampler's filter). Range expansion and model conversion are affine, so
// applying them before filtering gives what applying them after would.
#pragma once

#include <vulkan/vulkan_core.h>

#include "texture/decoded_view.h"
#include "texture/sampler_state.h"

namespace tessera::texture {

// A VkSamplerYcbcrConversionCreateInfo as plain state.
struct YcbcrConversion {
	VkFormat format = VK_FORMAT_UNDEFINED;
	VkSamplerYcbcrModelConversion model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY;
	VkSamplerYcbcrRange range = VK_SAMPLER_YCBCR_RANGE_ITU_FULL;
	VkComponentMapping components{};  // identity by default
	VkChromaLocation x_chroma_offset = VK_CHROMA_LOCATION_COSITED_EVEN;
	VkChromaLocation y_chroma_offset = VK_CHROMA_LOCATION_COSITED_EVEN;
	VkFilter chroma_filter = VK_FILTER_NEAREST;
};

// The formats this code converts: the 2- and 3-plane 8-bit 420/422/444
// formats, the single-plane 8-bit 422 formats, and the 10- and 16-bit
// 2-plane 420 formats.
bool CanConvertYcbcr(VkFormat format);

// §16 "Sampler Y′CbCr Range Expansion" and "Sampler Y′CbCr Model
// Conversion" of one texel whose components (after the conversion's swizzle)
// are normalized values in [0, 1]: rgba[0] = Cr, rgba[1] = Y', rgba[2] = Cb,
// rgba[3] = A; bits is the components' bit depth n. Returns R, G, B, A
// (Cr, Y, Cb, A for YCBCR_IDENTITY; unchanged for RGB_IDENTITY).
void ConvertYcbcrTexel(const YcbcrConversion& conversion, uint32_t bits, const float in[4], float out[4]);

// Decodes a view of a CanConvertYcbcr format (the conversion's) into out: one
// R32G32B32A32_SFLOAT texel per luma texel of each level and layer, chroma
// reconstructed explicitly, converted. False for other formats or a view
// without memory.
bool DecodeYcbcrView(const ImageViewState& view, const YcbcrConversion& conversion, DecodedView* out);

}  // namespace tessera::texture
