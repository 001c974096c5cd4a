// VkImage and VkImageView. Where the texels of an image live is decided by
// texture::ImageLayout; this class adds the Vulkan object around it.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>

#include "icd/vulkan_newer.h"
#include "texture/decoded_view_cache.h"
#include "texture/image_layout.h"
#include "texture/sample.h"
#include "vk/device_memory.h"
#include "vk/object.h"
#include "vk/physical_device.h"
#include "vk/sparse_range.h"

namespace tessera::vk {

class Image : public Object<Image, VkImage, VK_OBJECT_TYPE_IMAGE> {
public:
	explicit Image(const VkImageCreateInfo& info);
	// False when the layout cannot be built (format without a description).
	bool Init() { return layout_.Init(Description()); }

	VkFormat Format() const { return format_; }
	const texture::FormatInfo& FormatInfo() const { return *texture::FindFormat(format_); }
	VkImageType Type() const { return type_; }
	VkExtent3D Extent() const { return extent_; }
	uint32_t MipLevels() const { return mip_levels_; }
	uint32_t ArrayLayers() const { return array_layers_; }
	VkSampleCountFlagBits Samples() const { return samples_; }
	VkImageTiling Tiling() const { return tiling_; }
	VkImageUsageFlags Usage() const { return usage_; }
	VkImageCreateFlags Flags() const { return flags_; }
	const texture::ImageLayout& Layout() const { return layout_; }
	// Whether the image's texels are stored in tiles (sampled-only textures
	// with TESSERA_TILED_IMAGES, see image.cpp; partially resident images,
	// texture::SparseBlock); other images are rows of texels.
	bool Tiled() const { return layout_.Tiled(); }

	void Bind(DeviceMemory* memory, VkDeviceSize offset) {
		memory_ = memory;
		offset_ = offset;
	}
	uint8_t* Data() const {
		if (sparse_.Data()) return sparse_.Data();
		return memory_ ? memory_->Data() + offset_ : nullptr;
	}
	// VK_IMAGE_CREATE_SPARSE_BINDING_BIT: memory is bound through sparse
	// binds (vkQueueBindSparse) into the image's reserved range, laid out as
	// a bound image's. Opaque binds map bytes of that layout; residency
	// binds (VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT, whose layout is tiles:
	// texture::SparseBlock) map blocks.
	bool Sparse() const { return flags_ & VK_IMAGE_CREATE_SPARSE_BINDING_BIT; }
	// Reserves a sparse image's range (a no-op for others); a partially
	// resident one's pages start unbound (Residency).
	VkResult InitSparse();
	bool BindSparse(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
	                VkDeviceSize memory_offset) {
		const bool bound = sparse_.Bind(resource_offset, size, memory, memory_offset);
		if (bound) MarkResident(resource_offset, size, memory != nullptr);
		return bound;
	}
	// A partially resident image's bound pages, which the residency results
	// of sparse lookups read (OpImageSparse*); null for other images.
	const texture::Residency* Residency() const { return residency_pages_ ? &residency_ : nullptr; }
	// A residency bind: the blocks of the bind's region, in order x, then y,
	// then z, each 64 KiB of memory from bind.memoryOffset on (null memory:
	// unbinds them). False when the region is not the image's or a mapping
	// fails.
	bool BindResidency(const VkSparseImageMemoryBind& bind, const DeviceMemory* memory);
	// vkGetImageSparseMemoryRequirements: the color aspect's block, no mip
	// tail (every level is whole blocks). False for images that are not
	// partially resident.
	bool SparseRequirements(VkSparseImageMemoryRequirements* out) const;
	// Memory of any type; a sparse image's blocks of the sparse type.
	VkMemoryRequirements Requirements() const {
		if (Sparse())
			return {SparseRange::Reserved(layout_.TotalSize()), SparseRange::kBlockSize,
			        1u << DeviceMemory::kSparseMemoryType};
		return {layout_.TotalSize(), texture::ImageLayout::kAlignment, (1u << PhysicalDevice::kMemoryTypeCount) - 1};
	}
	// vkGetImageSubresourceLayout.
	VkSubresourceLayout SubresourceLayout(const VkImageSubresource& subresource) const;

	// Address of a texel block (x, y in blocks) of an aspect.
	uint8_t* Texel(VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer, uint32_t x, uint32_t y, uint32_t z,
	               uint32_t sample = 0) const {
		return Data() + layout_.Offset(layout_.PlaneOf(aspect), mip, layer, x, y, z, sample);
	}

private:
	texture::ImageDescription Description() const {
		return {format_,       type_,
		        extent_,       mip_levels_,
		        array_layers_, uint32_t(samples_),
		        tile_shift_,   (flags_ & VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT) != 0};
	}

	VkFormat format_;
	VkImageType type_;
	VkExtent3D extent_;
	uint32_t mip_levels_;
	uint32_t array_layers_;
	VkSampleCountFlagBits samples_;
	VkImageTiling tiling_;
	VkImageUsageFlags usage_;
	VkImageCreateFlags flags_;
	uint32_t tile_shift_ = 0;  // requested; the layout decides (texture::ImageLayout::CanTile)
	texture::ImageLayout layout_;
	DeviceMemory* memory_ = nullptr;
	VkDeviceSize offset_ = 0;
	SparseRange sparse_;  // a sparse image's reserved addresses
	// Residency(): one bit per page of sparse_ (partially resident images).
	std::unique_ptr<std::atomic<uint64_t>[]> residency_pages_;
	texture::Residency residency_;

	void MarkResident(VkDeviceSize offset, VkDeviceSize size, bool bound);
};

class ImageView : public Object<ImageView, VkImageView, VK_OBJECT_TYPE_IMAGE_VIEW> {
public:
	explicit ImageView(const VkImageViewCreateInfo& info)
	    : image_(Image::Cast(info.image)),
	      type_(info.viewType),
	      format_(info.format),
	      components_(info.components),
	      range_(info.subresourceRange) {
		if (range_.levelCount == VK_REMAINING_MIP_LEVELS) range_.levelCount = image_->MipLevels() - range_.baseMipLevel;
		// Vulkan 1.3 §12.5 (VkImageViewCreateInfo): a 2D or 2D array view of a
		// 3D image made with VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT sees the
		// depth slices of its base level as array layers.
		slices_ = image_->Type() == VK_IMAGE_TYPE_3D &&
		          (type_ == VK_IMAGE_VIEW_TYPE_2D || type_ == VK_IMAGE_VIEW_TYPE_2D_ARRAY);
		const uint32_t layers =
		    slices_ ? std::max(1u, image_->Extent().depth >> range_.baseMipLevel) : image_->ArrayLayers();
		if (range_.layerCount == VK_REMAINING_ARRAY_LAYERS)
			range_.layerCount = layers > range_.baseArrayLayer ? layers - range_.baseArrayLayer : 0;
		if (auto* min_lod = FindInChain<VkImageViewMinLodCreateInfoEXT>(
		        info.pNext, VK_STRUCTURE_TYPE_IMAGE_VIEW_MIN_LOD_CREATE_INFO_EXT))
			min_lod_ = min_lod->minLod;
		// VK_EXT_image_sliced_view_of_3d: a 3D view of one level, of some
		// of its slices.
		if (auto* sliced = FindInChain<VkImageViewSlicedCreateInfoEXT>(
		        info.pNext, VK_STRUCTURE_TYPE_IMAGE_VIEW_SLICED_CREATE_INFO_EXT)) {
			const uint32_t depth = std::max(1u, image_->Extent().depth >> range_.baseMipLevel);
			slice_offset_ = std::min(sliced->sliceOffset, depth);
			slice_count_ =
			    sliced->sliceCount == VK_REMAINING_3D_SLICES_EXT ? depth - slice_offset_ : sliced->sliceCount;
		}
	}

	Image* GetImage() const { return image_; }
	VkImageViewType Type() const { return type_; }
	VkFormat Format() const { return format_; }
	const VkComponentMapping& Components() const { return components_; }
	const VkImageSubresourceRange& Range() const { return range_; }
	// VK_EXT_image_view_min_lod: the lowest level lookups may select (an
	// absolute level; 0 without VkImageViewMinLodCreateInfoEXT).
	float MinLod() const { return min_lod_; }
	// VK_EXT_image_sliced_view_of_3d: the slices the view sees (count 0:
	// all of them).
	uint32_t SliceOffset() const { return slice_offset_; }
	uint32_t SliceCount() const { return slice_count_; }
	// Byte offset, in the image, of texel block (x, y) of the view's base level
	// on layer `layer` of the view: an array layer, or a depth slice for a 2D
	// (array) view of a 3D image.
	uint64_t LayerOffset(uint32_t plane, uint32_t layer, uint32_t x = 0, uint32_t y = 0) const {
		const uint32_t image_layer = range_.baseArrayLayer + layer;
		return image_->Layout().Offset(plane, range_.baseMipLevel, slices_ ? 0 : image_layer, x, y,
		                               slices_ ? image_layer : 0);
	}
	// The view's decoded copy for sampling compressed and Y'CbCr formats,
	// kept between uses (vk/shader_resources.cpp).
	texture::DecodedViewCache& DecodedCache() const { return decoded_cache_; }

private:
	Image* image_;
	VkImageViewType type_;
	VkFormat format_;
	VkComponentMapping components_;
	VkImageSubresourceRange range_;  // remaining levels/layers resolved
	float min_lod_ = 0.0f;
	uint32_t slice_offset_ = 0, slice_count_ = 0;
	bool slices_ = false;  // the layers are depth slices of a 3D image
	mutable texture::DecodedViewCache decoded_cache_;
};

}  // namespace tessera::vk
