// Plain descriptions of what a texture lookup reads: the sampler's state and
// the image view's. No Vulkan handles; src/vk translates create infos into
// these, and the shader engine hands them to texture/sample.h.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "texture/format.h"
#include "texture/image_layout.h"

namespace tessera::texture {

// Everything a texture lookup needs from a sampler (VkSamplerCreateInfo).
struct SamplerState {
	VkFilter mag_filter = VK_FILTER_NEAREST;
	VkFilter min_filter = VK_FILTER_NEAREST;
	VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
	VkSamplerAddressMode address_u = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSamplerAddressMode address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSamplerAddressMode address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	float mip_lod_bias = 0.0f;
	float min_lod = 0.0f;
	float max_lod = 0.0f;
	bool anisotropy_enable = false;
	float max_anisotropy = 1.0f;
	bool compare_enable = false;
	VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
	VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
	// VK_EXT_custom_border_color: the value U of FLOAT_CUSTOM (float32) or
	// INT_CUSTOM (int32/uint32 bits) border colors.
	VkClearColorValue custom_border{};
	bool unnormalized_coordinates = false;
	VkSamplerReductionMode reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
	// VK_EXT_non_seamless_cube_map: each cube face is filtered on its own,
	// with the sampler's address modes, as a 2D image.
	bool non_seamless_cube = false;
};

// What a texture lookup needs from an image view and the image behind it.
struct ImageViewState {
	const ImageLayout* layout = nullptr;                       // the image's layout
	const uint8_t* memory = nullptr;                           // the image's memory (ImageLayout offsets start here)
	VkFormat format = VK_FORMAT_UNDEFINED;                     // the view's format
	VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;  // color, depth, stencil or PLANE_n (one plane)
	VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
	uint32_t base_level = 0;
	uint32_t level_count = 1;
	// VK_EXT_image_view_min_lod: minLod_imageView, an absolute level in
	// [base_level, base_level + level_count - 1] (0: none).
	float min_lod = 0.0f;
	uint32_t base_layer = 0;
	uint32_t layer_count = 1;  // 6 per cube for cube views
	// VK_EXT_image_sliced_view_of_3d: a 3D view of one level sees slices
	// [slice_offset, slice_offset + slice_count) of it (slice_count 0: all).
	uint32_t slice_offset = 0, slice_count = 0;
	VkComponentMapping components{};  // identity by default
	// A decoded copy of a compressed view (decoded_view.h) reads as
	// R32G32B32A32_SFLOAT; this is the format it was decoded from, whose
	// components §16 "Border Replacement" replaces. UNDEFINED: format.
	VkFormat source_format = VK_FORMAT_UNDEFINED;
	// A partially resident image's bound pages (null: every texel is).
	const struct Residency* residency = nullptr;
};

// Limits the sampling code implements (reported by the physical device).
inline constexpr uint32_t kSubTexelPrecisionBits = 8;
inline constexpr uint32_t kMipmapPrecisionBits = 8;
inline constexpr float kMaxSamplerLodBias = 15.0f;

}  // namespace tessera::texture
