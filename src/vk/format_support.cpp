#include "vk/format_support.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "icd/vulkan_newer.h"
#include "texture/compressed.h"
#include "texture/format.h"
#include "texture/image_layout.h"
#include "texture/texel.h"
#include "texture/ycbcr.h"
#include "vk/device_memory.h"
#include "vk/object.h"
#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

// Formats of extensions Tessera does not expose (VK_IMG_format_pvrtc,
// VK_NV_optical_flow, ...) report nothing. Core formats and those of
// extensions promoted to core are ours.
bool IsExposed(VkFormat format) {
	uint32_t value = uint32_t(format);
	if (value < 1000000000u) return true;
	uint32_t extension = (value - 1000000000u) / 1000u + 1;
	switch (extension) {
	case 67:  // VK_EXT_texture_compression_astc_hdr (formats of 1.3; off until its feature is)
		return false;
	case 157:  // VK_KHR_sampler_ycbcr_conversion (1.1)
	case 331:  // VK_EXT_ycbcr_2plane_444_formats (1.3)
	case 341:  // VK_EXT_4444_formats (1.3)
	case 471:  // VK_KHR_maintenance5 (A1B5G5R5_UNORM_PACK16, A8_UNORM)
		return true;
	default: return false;
	}
}

// What vkCmdBlitImage handles (texture/blit.h): uncompressed color formats
// that texels convert to and from (not 64-bit components, which do not fit
// a float), depth/stencil formats between themselves with NEAREST, and
// compressed formats as sources (decoded by texture/compressed.h first).
VkFormatFeatureFlags2 BlitFeatures(const texture::FormatInfo& info) {
	constexpr VkFormatFeatureFlags2 kBlit = VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
	if (info.IsDepthOrStencil()) return kBlit;
	if (info.IsCompressed())
		return texture::CanDecodeBlock(info)
		           ? VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT
		           : 0;
	if (!texture::CanConvertTexels(info)) return 0;
	for (uint8_t c = 0; c < info.component_count; ++c)
		if (info.components[c].bits > 32) return 0;
	// Vulkan 1.3 VkFormatFeatureFlagBits: with BLIT_SRC set,
	// SAMPLED_IMAGE_FILTER_LINEAR allows LINEAR blits from the format (never
	// for integer formats, §20.6).
	if (info.IsInteger()) return kBlit;
	return kBlit | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
}

// What the rasterizer writes (src/raster: depth planes D16, X8_D24 and
// D32_SFLOAT with an S8 stencil plane; color through texture::PackTexel,
// integer formats from the output's bits) and what a draw's vertex fetch reads
// (texture::UnpackTexel, components of at most 32 bits).
VkFormatFeatureFlags2 AttachmentFeatures(const texture::FormatInfo& info) {
	if (info.IsDepthOrStencil()) return VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
	if (info.IsCompressed() || !texture::CanConvertTexels(info) || info.IsScaled()) return 0;
	if (info.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) return 0;  // not renderable in Vulkan
	for (uint8_t c = 0; c < info.component_count; ++c)
		if (info.components[c].bits > 32) return 0;
	// Integer attachments take the output's bits and are never blended
	// (Vulkan 1.3 §29.13).
	if (info.IsInteger()) return VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
	return VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
}

VkFormatFeatureFlags2 VertexBufferFeatures(const texture::FormatInfo& info) {
	if (info.IsDepthOrStencil() || info.IsCompressed() || !texture::CanConvertTexels(info)) return 0;
	// sRGB formats are not vertex formats here, as on lavapipe: the CTS's
	// vertex_input.single_attribute reads them as UNORM while its
	// srgb_vertex_formats expects the colors linearized, so no choice
	// passes both.
	if (info.Numeric() == texture::NumericFormat::SRGB) return 0;
	for (uint8_t c = 0; c < info.component_count; ++c)
		if (info.components[c].bits > 32) return 0;
	return VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
}

// The formats SPIR-V names as storage image formats (Vulkan 1.3 §34
// "Compatibility Between SPIR-V Image Formats and Vulkan Formats"): storage
// images and storage texel buffers of these read and write through the shader
// engine (texture/texel.h packs and unpacks them), with or without a declared
// format (the view's format decides).
bool IsStorageFormat(VkFormat format) {
	switch (format) {
	case VK_FORMAT_R32G32B32A32_SFLOAT:
	case VK_FORMAT_R16G16B16A16_SFLOAT:
	case VK_FORMAT_R32_SFLOAT:
	case VK_FORMAT_R8G8B8A8_UNORM:
	case VK_FORMAT_R8G8B8A8_SNORM:
	case VK_FORMAT_A8B8G8R8_UNORM_PACK32:  // the same bytes as R8G8B8A8 (Rgba8, Rgba8Snorm, ...)
	case VK_FORMAT_A8B8G8R8_SNORM_PACK32:
	case VK_FORMAT_A8B8G8R8_UINT_PACK32:
	case VK_FORMAT_A8B8G8R8_SINT_PACK32:
	case VK_FORMAT_R32G32_SFLOAT:
	case VK_FORMAT_R16G16_SFLOAT:
	case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
	case VK_FORMAT_R16_SFLOAT:
	case VK_FORMAT_R16G16B16A16_UNORM:
	case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
	case VK_FORMAT_R16G16_UNORM:
	case VK_FORMAT_R8G8_UNORM:
	case VK_FORMAT_R16_UNORM:
	case VK_FORMAT_R8_UNORM:
	case VK_FORMAT_R16G16B16A16_SNORM:
	case VK_FORMAT_R16G16_SNORM:
	case VK_FORMAT_R8G8_SNORM:
	case VK_FORMAT_R16_SNORM:
	case VK_FORMAT_R8_SNORM:
	case VK_FORMAT_R32G32B32A32_SINT:
	case VK_FORMAT_R16G16B16A16_SINT:
	case VK_FORMAT_R8G8B8A8_SINT:
	case VK_FORMAT_R32_SINT:
	case VK_FORMAT_R32G32_SINT:
	case VK_FORMAT_R16G16_SINT:
	case VK_FORMAT_R8G8_SINT:
	case VK_FORMAT_R16_SINT:
	case VK_FORMAT_R8_SINT:
	case VK_FORMAT_R32G32B32A32_UINT:
	case VK_FORMAT_R16G16B16A16_UINT:
	case VK_FORMAT_R8G8B8A8_UINT:
	case VK_FORMAT_R32_UINT:
	case VK_FORMAT_A2B10G10R10_UINT_PACK32:
	case VK_FORMAT_R32G32_UINT:
	case VK_FORMAT_R16G16_UINT:
	case VK_FORMAT_R8G8_UINT:
	case VK_FORMAT_R16_UINT:
	case VK_FORMAT_R8_UINT:
	// Vulkan 1.3 requires STORAGE_IMAGE for these too (read/write without a format).
	case VK_FORMAT_B8G8R8A8_UNORM: return true;
	default: return false;
	}
}

// What the shader engine reads and writes (shader/image_ops.cpp over
// texture/sample.h): sampling of uncompressed single-plane formats whose
// texels convert (not 64-bit components, which a texel value cannot carry)
// and of depth/stencil aspects; LINEAR filtering of all but integer formats
// and stencil (§16: integer formats are never filtered); depth comparison on
// depth formats; storage and texel buffers per IsStorageFormat; atomics on
// R32_UINT / R32_SINT (OpImageTexelPointer).
// Min/max reductions (samplerFilterMinmax) wherever LINEAR filtering works:
// the generic filter reduces the same texels it would average (the depth
// aspect of depth/stencil formats, without comparison).
// VK_EXT_filter_cubic: Catmull-Rom filtering wherever LINEAR filtering
// works on color (the generic filter reads the 4 x 4 texels as it reads
// 2 x 2; compressed formats through their decoded copies). Not on depth,
// whose cubic filtering the spec leaves to the depth aspect alone.
VkFormatFeatureFlags2 WithMinmax(VkFormatFeatureFlags2 features, bool color = true) {
	if (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT) {
		features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
		if (color) features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_CUBIC_BIT;
	}
	return features;
}

VkFormatFeatureFlags2 ShaderImageFeatures(const texture::FormatInfo& info) {
	// Block-compressed formats are sampled from a decoded copy
	// (texture/decoded_view.h), filtered like any float format.
	if (info.IsCompressed())
		return texture::CanDecodeBlock(info) ? WithMinmax(VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT |
		                                                  VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
		                                     : 0;
	if (info.Has64BitComponents()) return 0;
	if (info.IsDepthOrStencil()) {
		VkFormatFeatureFlags2 depth = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
		if (info.HasDepth())
			depth |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
			         VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
		return WithMinmax(depth, false);
	}
	if (!texture::CanConvertTexels(info)) return 0;
	VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
	if (!info.IsInteger()) features = WithMinmax(features | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
	if (info.ComparesAsDepth()) features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
	if (IsStorageFormat(info.format))
		features |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
		            VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
	// R32_SFLOAT: VK_EXT_shader_atomic_float(2)'s image atomics.
	if (info.format == VK_FORMAT_R32_UINT || info.format == VK_FORMAT_R32_SINT || info.format == VK_FORMAT_R32_SFLOAT)
		features |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
	return features;
}

// Texel buffers: one texel per block, any convertible color format for
// uniform texel buffers, IsStorageFormat for storage texel buffers.
VkFormatFeatureFlags2 TexelBufferFeatures(const texture::FormatInfo& info) {
	if (info.IsCompressed() || info.IsDepthOrStencil() || info.Has64BitComponents() || !texture::CanConvertTexels(info))
		return 0;
	VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
	if (IsStorageFormat(info.format))
		features |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
		            VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
	if (info.format == VK_FORMAT_R32_UINT || info.format == VK_FORMAT_R32_SINT || info.format == VK_FORMAT_R32_SFLOAT)
		features |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
	return features;
}

}  // namespace

namespace {

FormatSupport DeviceFormatSupport(VkFormat format) {
	FormatSupport support;
	const texture::FormatInfo* info = texture::FindFormat(format);
	if (!info || !IsExposed(format)) return support;
	if (info->compression == texture::Compression::PVRTC || info->compression == texture::Compression::ASTC_HDR)
		return support;
	if (info->plane_count > 0 || info->chroma_subsampled) {
		// Formats requiring a sampler Y'CbCr conversion (texture/ycbcr.h):
		// copies by plane, and sampling through a conversion with explicit
		// chroma reconstruction (so min/mag filters and chromaFilter apply
		// separately), either chroma location, LINEAR chromaFilter. No
		// DISJOINT (vkBindImageMemory2 binds the planes together), no blits.
		if (!texture::CanConvertYcbcr(format)) return support;
		support.optimal =
		    VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT |
		    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
		    VK_FORMAT_FEATURE_2_MIDPOINT_CHROMA_SAMPLES_BIT | VK_FORMAT_FEATURE_2_COSITED_CHROMA_SAMPLES_BIT |
		    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT |
		    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_SEPARATE_RECONSTRUCTION_FILTER_BIT |
		    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_BIT |
		    // Required with EXPLICIT (VkFormatFeatureFlagBits); forcing changes nothing.
		    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE_BIT;
		support.linear = support.optimal;
		return support;
	}

	// SCALED formats are vertex attributes only, as in lavapipe and
	// SwiftShader: Vulkan requires no image feature of them, and the
	// conformance suite reads their texels as integers (tcu's channel class)
	// where the spec converts them to floats (§3.9 "Fixed-Point Data
	// Conversions"), so an image path could not be judged by it.
	if (info->IsScaled()) {
		support.buffer = VertexBufferFeatures(*info);
		return support;
	}

	// Copies move bytes, so every format here (compressed ones in whole
	// blocks, depth/stencil by aspect) supports them.
	VkFormatFeatureFlags2 transfer = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
	support.optimal = transfer | BlitFeatures(*info) | AttachmentFeatures(*info) | ShaderImageFeatures(*info);
	// Linear tiling: color formats only (the spec allows depth/stencil and
	// compressed formats to be optimal-only).
	if (!info->IsDepthOrStencil() && !info->IsCompressed()) support.linear = support.optimal;
	support.buffer = TexelBufferFeatures(*info) | VertexBufferFeatures(*info);
	return support;
}

}  // namespace

// VK_EXT_host_image_copy: the host copies whatever the transfer commands
// copy, with the same code (vk/cmd_copy.cpp).
FormatSupport GetFormatSupport(VkFormat format) {
	FormatSupport support = DeviceFormatSupport(format);
	constexpr VkFormatFeatureFlags2 kTransfer =
	    VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
	for (VkFormatFeatureFlags2* tiling : {&support.optimal, &support.linear})
		if (*tiling & kTransfer) *tiling |= VK_FORMAT_FEATURE_2_HOST_IMAGE_TRANSFER_BIT_EXT;
	return support;
}

namespace {

// A full mip chain of the largest image has a layout (ImageLayout::Init).
static_assert(std::bit_width(std::max({kMaxImageDimension1D, kMaxImageDimension2D, kMaxImageDimension3D,
                                       kMaxImageDimensionCube})) <= texture::ImageLayout::kMaxLevels);

VkResult QueryImageFormat(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                          VkImageCreateFlags flags, VkImageFormatProperties* properties) {
	*properties = {};
	const texture::FormatInfo* info = texture::FindFormat(format);
	FormatSupport support = GetFormatSupport(format);
	VkFormatFeatureFlags2 features = tiling == VK_IMAGE_TILING_LINEAR    ? support.linear
	                                 : tiling == VK_IMAGE_TILING_OPTIMAL ? support.optimal
	                                                                     : 0;
	if (!info) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	// Sparse images (vk/sparse_range.h): optimal images of one plane; linear
	// ones are for the host, which maps memory, not sparse ranges.
	if ((flags & (VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_ALIASED_BIT |
	              VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT)) &&
	    (tiling != VK_IMAGE_TILING_OPTIMAL || info->IsMultiPlanar()))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	// Partially resident images are stored in tiles (texture::SparseBlock):
	// the formats and types that have a block (every uncompressed color
	// format whose texels are 1 to 16 bytes, a power of two, as the spec
	// requires), for any use their format has (samplers, storage, transfers
	// and the rasterizer read and write tiles).
	if (flags & VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT) {
		texture::SparseBlock block;
		if (!texture::ImageLayout::SparseBlockOf(format, type, &block)) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	// VK_IMAGE_CREATE_EXTENDED_USAGE_BIT with MUTABLE_FORMAT: a usage may be
	// supported by any format views of the image can have (Vulkan "Image
	// Creation", the format compatibility classes) rather than by the image's
	// own format. With BLOCK_TEXEL_VIEW_COMPATIBLE, a compressed image's
	// views may also have an uncompressed color format whose texel is one
	// of its blocks (size-compatible, VkImageViewCreateInfo's rules).
	VkFormatFeatureFlags2 usage_features = features;
	const bool block_views = (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) && info->IsCompressed();
	if ((flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) && (flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) &&
	    !info->IsDepthOrStencil() && !info->IsMultiPlanar())
		for (size_t i = 0; i < texture::kFormatTableSize; ++i) {
			const texture::FormatInfo& other = texture::kFormatTable[i];
			const bool block_view = block_views && !other.IsCompressed() && !other.IsDepthOrStencil() &&
			                        !other.IsMultiPlanar() && other.block_extent[0] == 1 &&
			                        other.block_extent[1] == 1 && other.block_size == info->block_size;
			if (!block_view && std::strcmp(other.compatibility_class, info->compatibility_class) != 0) continue;
			FormatSupport s = GetFormatSupport(other.format);
			usage_features |= tiling == VK_IMAGE_TILING_LINEAR ? s.linear : s.optimal;
		}
	if (!features && !usage_features) return VK_ERROR_FORMAT_NOT_SUPPORTED;

	struct UsageNeed {
		VkImageUsageFlags usage;
		VkFormatFeatureFlags2 feature;
	};
	static constexpr UsageNeed kNeeds[] = {
	    {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT},
	    {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT},
	    {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT},
	    {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT},
	    {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT},
	    {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT},
	    {VK_IMAGE_USAGE_HOST_TRANSFER_BIT_EXT, VK_FORMAT_FEATURE_2_HOST_IMAGE_TRANSFER_BIT_EXT},
	};
	for (const UsageNeed& need : kNeeds)
		if ((usage & need.usage) && !(usage_features & need.feature)) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((usage & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT) &&
	    !(usage_features &
	      (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((usage & VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT) &&
	    !(usage_features &
	      (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) &&
	    !(usage & (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
	               VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT)))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;

	constexpr VkImageCreateFlags kSupportedFlags =
	    VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT | VK_IMAGE_CREATE_ALIAS_BIT |
	    VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
	    VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT |
	    VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT | VK_IMAGE_CREATE_SPARSE_BINDING_BIT |
	    VK_IMAGE_CREATE_SPARSE_ALIASED_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT;
	if (flags & ~kSupportedFlags) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((flags & (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)) &&
	    type != VK_IMAGE_TYPE_3D)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (info->IsCompressed() && type == VK_IMAGE_TYPE_1D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (info->IsDepthOrStencil() && type == VK_IMAGE_TYPE_3D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	// Vulkan 1.3 §12.3.2 ("Formats requiring sampler Y′CbCr conversion"):
	// 2D images of one level and one sample (layers: see below).
	const bool ycbcr = info->plane_count > 0 || info->chroma_subsampled;
	if (ycbcr && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;

	// VkImageFormatProperties (Vulkan 1.3 §47.x): maxMipLevels is the full
	// chain of maxExtent, log2 of its largest dimension plus one. A
	// cube-compatible image may be maxImageDimensionCube wide.
	switch (type) {
	case VK_IMAGE_TYPE_1D:
		properties->maxExtent = {kMaxImageDimension1D, 1, 1};
		properties->maxArrayLayers = kMaxImageArrayLayers;
		break;
	case VK_IMAGE_TYPE_2D: {
		const uint32_t side =
		    flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT ? kMaxImageDimensionCube : kMaxImageDimension2D;
		properties->maxExtent = {side, side, 1};
		properties->maxArrayLayers = kMaxImageArrayLayers;
		break;
	}
	case VK_IMAGE_TYPE_3D:
		properties->maxExtent = {kMaxImageDimension3D, kMaxImageDimension3D, kMaxImageDimension3D};
		properties->maxArrayLayers = 1;
		break;
	default: return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	properties->maxMipLevels = uint32_t(std::bit_width(properties->maxExtent.width));
	// Linear images (Vulkan 1.3 §12.3 "Images": row-major, each
	// subresource's layout from vkGetImageSubresourceLayout) have every
	// type, level count and layer count optimal ones have: Tessera lays out
	// both alike, each level of each layer in rows of texels (vk/image.cpp
	// tiles only optimal images, and only with TESSERA_TILED_IMAGES=1), and
	// reports those rows.
	// VK_EXT_ycbcr_image_arrays: array layers too (the conversion decodes
	// each layer of a view, texture/ycbcr.cpp DecodeYcbcrView); one level.
	if (ycbcr) properties->maxMipLevels = 1;
	properties->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
	bool attachment =
	    features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT);
	// (Partially resident images have one sample: no sparseResidency4Samples.)
	const bool multisample = attachment && tiling == VK_IMAGE_TILING_OPTIMAL && type == VK_IMAGE_TYPE_2D &&
	                         !(flags & (VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT));
	// VK_EXT_multisampled_render_to_single_sampled: the image itself has one
	// sample (VUID-VkImageCreateInfo-flags-06883); sampleCounts holds the
	// counts its implicit images can have
	// (VUID-VkFramebufferCreateInfo-samples-07009), those of the format.
	if ((flags & VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT) && !multisample) {
		*properties = {};
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (multisample) properties->sampleCounts |= VK_SAMPLE_COUNT_4_BIT;
	return VK_SUCCESS;
}

}  // namespace

VkResult GetImageFormatProperties(VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
                                  VkImageCreateFlags flags, VkDeviceSize heap_size,
                                  VkImageFormatProperties* properties) {
	VkResult result = QueryImageFormat(format, type, tiling, usage, flags, properties);
	properties->maxResourceSize = heap_size;
	// Vulkan 1.3 §47.x (vkGetPhysicalDeviceImageFormatProperties): an
	// unsupported combination leaves every member of the properties zero.
	if (result != VK_SUCCESS) *properties = {};
	return result;
}

}  // namespace tessera::vk

namespace tessera::entry {

namespace {

VkDeviceSize HeapSize(VkPhysicalDevice physical_device) {
	return vk::PhysicalDevice::Cast(physical_device)->MemoryProperties().memoryHeaps[0].size;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat format,
                                                             VkFormatProperties* pFormatProperties) {
	vk::FormatSupport support = vk::GetFormatSupport(format);
	// The 32-bit flags are the low bits of the 64-bit ones.
	*pFormatProperties = {VkFormatFeatureFlags(support.linear), VkFormatFeatureFlags(support.optimal),
	                      VkFormatFeatureFlags(support.buffer)};
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                                              VkFormatProperties2* pFormatProperties) {
	GetPhysicalDeviceFormatProperties(physicalDevice, format, &pFormatProperties->formatProperties);
	if (auto* p3 =
	        vk::FindInChain<VkFormatProperties3>(pFormatProperties->pNext, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3)) {
		vk::FormatSupport support = vk::GetFormatSupport(format);
		p3->linearTilingFeatures = support.linear;
		p3->optimalTilingFeatures = support.optimal;
		p3->bufferFeatures = support.buffer;
	}
	// VK_EXT_multisampled_render_to_single_sampled: the implicit image
	// costs memory and a resolve like an explicit multisampled attachment
	// does, so a subpass resolve is never "optimal" in the extension's sense.
	if (auto* resolve = vk::FindInChain<VkSubpassResolvePerformanceQueryEXT>(
	        pFormatProperties->pNext, VK_STRUCTURE_TYPE_SUBPASS_RESOLVE_PERFORMANCE_QUERY_EXT))
		resolve->optimal = VK_FALSE;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice physicalDevice, VkFormat format,
                                                                      VkImageType type, VkImageTiling tiling,
                                                                      VkImageUsageFlags usage, VkImageCreateFlags flags,
                                                                      VkImageFormatProperties* pImageFormatProperties) {
	return vk::GetImageFormatProperties(format, type, tiling, usage, flags, HeapSize(physicalDevice),
	                                    pImageFormatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2* pImageFormatInfo,
    VkImageFormatProperties2* pImageFormatProperties) {
	const VkPhysicalDeviceImageFormatInfo2& i = *pImageFormatInfo;
	VkResult result =
	    vk::GetImageFormatProperties(i.format, i.type, i.tiling, i.usage, i.flags, HeapSize(physicalDevice),
	                                 &pImageFormatProperties->imageFormatProperties);
	if (result != VK_SUCCESS) return result;
	// VK_EXT_filter_cubic: every view type but cubes (whose 4 x 4
	// footprints would cross face edges), where the format filters cubic.
	if (auto* cubic = vk::FindInChain<VkFilterCubicImageViewImageFormatPropertiesEXT>(
	        pImageFormatProperties->pNext, VK_STRUCTURE_TYPE_FILTER_CUBIC_IMAGE_VIEW_IMAGE_FORMAT_PROPERTIES_EXT)) {
		const auto* view = vk::FindInChain<VkPhysicalDeviceImageViewImageFormatInfoEXT>(
		    i.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_IMAGE_FORMAT_INFO_EXT);
		const vk::FormatSupport support = vk::GetFormatSupport(i.format);
		const VkFormatFeatureFlags2 features = i.tiling == VK_IMAGE_TILING_LINEAR ? support.linear : support.optimal;
		const bool filters = (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_CUBIC_BIT) != 0 && view &&
		                     view->imageViewType != VK_IMAGE_VIEW_TYPE_CUBE &&
		                     view->imageViewType != VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
		cubic->filterCubic = cubic->filterCubicMinmax = filters ? VK_TRUE : VK_FALSE;
	}
	// One descriptor slot samples all planes (texture/ycbcr.h reads them).
	if (auto* ycbcr = vk::FindInChain<VkSamplerYcbcrConversionImageFormatProperties>(
	        pImageFormatProperties->pNext, VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES))
		ycbcr->combinedImageSamplerDescriptorCount = 1;
	// VK_EXT_host_image_copy: host-transfer usage changes neither layout
	// nor speed (vk/image.cpp chooses tiles without looking at it).
	if (auto* host = vk::FindInChain<VkHostImageCopyDevicePerformanceQueryEXT>(
	        pImageFormatProperties->pNext, VK_STRUCTURE_TYPE_HOST_IMAGE_COPY_DEVICE_PERFORMANCE_QUERY_EXT)) {
		host->optimalDeviceAccess = VK_TRUE;
		host->identicalMemoryLayout = VK_TRUE;
	}
	auto* external_info = vk::FindInChain<VkPhysicalDeviceExternalImageFormatInfo>(
	    i.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO);
	auto* external = vk::FindInChain<VkExternalImageFormatProperties>(
	    pImageFormatProperties->pNext, VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES);
	if (external_info && vk::IsHostPointerHandle(external_info->handleType)) {
		// VK_EXT_external_memory_host: an image's memory may be host pages.
		if (external)
			external->externalMemoryProperties = {VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, 0,
			                                      VkExternalMemoryHandleTypeFlags(external_info->handleType)};
	} else if (external_info && external_info->handleType) {
		if (external_info->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) {
			pImageFormatProperties->imageFormatProperties = {};
			return VK_ERROR_FORMAT_NOT_SUPPORTED;
		}
		if (external)
			external->externalMemoryProperties = {
			    VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT,
			    VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
	} else if (external) {
		external->externalMemoryProperties = {};
	}
	return VK_SUCCESS;
}

namespace {

// The block of partially resident images of this kind (one property, the
// color aspect), or none where such images are not supported
// (vkGetImageFormatProperties with SPARSE_RESIDENCY says so too).
bool SparseFormatProperties(VkPhysicalDevice physical_device, VkFormat format, VkImageType type,
                            VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageTiling tiling,
                            VkSparseImageFormatProperties* out) {
	VkImageFormatProperties properties;
	texture::SparseBlock block;
	if (samples != VK_SAMPLE_COUNT_1_BIT ||
	    vk::GetImageFormatProperties(format, type, tiling, usage,
	                                 VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT,
	                                 HeapSize(physical_device), &properties) != VK_SUCCESS ||
	    !texture::ImageLayout::SparseBlockOf(format, type, &block))
		return false;
	*out = {VK_IMAGE_ASPECT_COLOR_BIT, block.extent,
	        block.standard ? VkSparseImageFormatFlags(0)
	                       : VkSparseImageFormatFlags(VK_SPARSE_IMAGE_FORMAT_NONSTANDARD_BLOCK_SIZE_BIT)};
	return true;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice physicalDevice,
                                                                        VkFormat format, VkImageType type,
                                                                        VkSampleCountFlagBits samples,
                                                                        VkImageUsageFlags usage, VkImageTiling tiling,
                                                                        uint32_t* pPropertyCount,
                                                                        VkSparseImageFormatProperties* pProperties) {
	VkSparseImageFormatProperties properties;
	if (!SparseFormatProperties(physicalDevice, format, type, samples, usage, tiling, &properties)) {
		*pPropertyCount = 0;
		return;
	}
	if (pProperties && *pPropertyCount >= 1) pProperties[0] = properties;
	*pPropertyCount = pProperties ? std::min<uint32_t>(*pPropertyCount, 1) : 1;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2* pFormatInfo,
    uint32_t* pPropertyCount, VkSparseImageFormatProperties2* pProperties) {
	VkSparseImageFormatProperties properties;
	if (!SparseFormatProperties(physicalDevice, pFormatInfo->format, pFormatInfo->type, pFormatInfo->samples,
	                            pFormatInfo->usage, pFormatInfo->tiling, &properties)) {
		*pPropertyCount = 0;
		return;
	}
	if (pProperties && *pPropertyCount >= 1) pProperties[0].properties = properties;
	*pPropertyCount = pProperties ? std::min<uint32_t>(*pPropertyCount, 1) : 1;
}

}  // namespace tessera::entry
