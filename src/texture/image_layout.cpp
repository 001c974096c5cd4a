#include "texture/image_layout.h"

namespace tessera::texture {

namespace {

uint64_t AlignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

bool ImageLayout::Init(const ImageDescription& description) {
	const FormatInfo* info = FindFormat(description.format);
	if (!info || description.mip_levels > kMaxLevels || description.mip_levels == 0) return false;
	description_ = description;

	// (format of the plane's elements, width divisor, height divisor)
	struct Plane {
		VkFormat format;
		uint32_t width_divisor, height_divisor;
	} planes[kMaxPlanes];
	if (info->plane_count > 0) {
		plane_count_ = info->plane_count;
		for (uint32_t p = 0; p < plane_count_; ++p)
			planes[p] = {info->planes[p].compatible, info->planes[p].width_divisor, info->planes[p].height_divisor};
	} else if (info->HasDepth() && info->HasStencil()) {
		plane_count_ = 2;
		planes[0] = {AspectFormat(info->format, VK_IMAGE_ASPECT_DEPTH_BIT), 1, 1};
		planes[1] = {VK_FORMAT_S8_UINT, 1, 1};
	} else {
		plane_count_ = 1;
		planes[0] = {info->format, 1, 1};
	}

	bool is_3d = description.type == VK_IMAGE_TYPE_3D;
	uint64_t offset = 0;
	for (uint32_t p = 0; p < plane_count_; ++p) {
		const FormatInfo* plane_info = FindFormat(planes[p].format);
		uint32_t bw = plane_info->block_extent[0], bh = plane_info->block_extent[1];
		uint32_t element = plane_info->block_size;
		if (plane_info->format == VK_FORMAT_X8_D24_UNORM_PACK32 || plane_info->format == VK_FORMAT_D32_SFLOAT)
			element = 4;
		for (uint32_t mip = 0; mip < description.mip_levels; ++mip) {
			SubresourceLayout& l = levels_[p][mip];
			l.format = planes[p].format;
			l.element_size = element;
			l.block_extent = {bw, bh, 1};
			l.extent = {MipExtent(description.extent.width / planes[p].width_divisor, mip),
			            MipExtent(description.extent.height / planes[p].height_divisor, mip),
			            is_3d ? MipExtent(description.extent.depth, mip) : 1};
			uint64_t blocks_x = (l.extent.width + bw - 1) / bw;
			uint64_t blocks_y = (l.extent.height + bh - 1) / bh;
			l.row_pitch = blocks_x * element * description.samples;
			l.depth_pitch = l.row_pitch * blocks_y;
			uint64_t layer_size = l.depth_pitch * l.extent.depth;
			l.array_pitch = AlignUp(layer_size, 16);
			offset = AlignUp(offset, kAlignment);
			l.offset = offset;
			l.size = is_3d ? layer_size : l.array_pitch * description.array_layers;
			offset += l.size;
		}
	}
	total_size_ = AlignUp(offset, kAlignment);
	return true;
}

uint32_t ImageLayout::PlaneOf(VkImageAspectFlagBits aspect) const {
	switch (aspect) {
	case VK_IMAGE_ASPECT_STENCIL_BIT: {
		const FormatInfo* info = FindFormat(description_.format);
		return info->HasDepth() ? 1 : 0;
	}
	case VK_IMAGE_ASPECT_PLANE_1_BIT:
	case VK_IMAGE_ASPECT_MEMORY_PLANE_1_BIT_EXT: return 1;
	case VK_IMAGE_ASPECT_PLANE_2_BIT:
	case VK_IMAGE_ASPECT_MEMORY_PLANE_2_BIT_EXT: return 2;
	default: return 0;
	}
}

}  // namespace tessera::texture
