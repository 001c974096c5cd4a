#include "texture/format.h"

#include <algorithm>
#include <array>

namespace tessera::texture {

namespace {

// Core formats are numbered densely from 0; extension formats live in blocks
// of 1000 at 1000000000 + (extension number - 1) * 1000. A sorted index covers
// both without a hand-written table.
struct FormatIndex {
	std::array<const FormatInfo*, 4096> entries{};  // open addressing on the value
	static size_t Slot(uint32_t value) { return (value * 2654435761u) >> 20 & 4095; }

	FormatIndex() {
		for (size_t i = 0; i < kFormatTableSize; ++i) {
			size_t slot = Slot(static_cast<uint32_t>(kFormatTable[i].format));
			while (entries[slot]) slot = (slot + 1) & 4095;
			entries[slot] = &kFormatTable[i];
		}
	}
	const FormatInfo* Find(VkFormat format) const {
		for (size_t slot = Slot(static_cast<uint32_t>(format));; slot = (slot + 1) & 4095) {
			if (!entries[slot]) return nullptr;
			if (entries[slot]->format == format) return entries[slot];
		}
	}
};

}  // namespace

const FormatInfo* FindFormat(VkFormat format) {
	static const FormatIndex index;
	return index.Find(format);
}

const FormatComponent* FormatInfo::Find(char component) const {
	for (uint8_t i = 0; i < component_count; ++i)
		if (components[i].name == component) return &components[i];
	return nullptr;
}

bool FormatInfo::HasDepth() const { return Find('D') != nullptr; }
bool FormatInfo::HasStencil() const { return Find('S') != nullptr; }

uint32_t FormatInfo::ComponentBits(char component) const {
	const FormatComponent* c = Find(component);
	return c ? c->bits : 0;
}

bool FormatInfo::IsInteger() const {
	NumericFormat n = Numeric();
	return n == NumericFormat::UINT || n == NumericFormat::SINT;
}

bool FormatInfo::IsNormalized() const {
	NumericFormat n = Numeric();
	return n == NumericFormat::UNORM || n == NumericFormat::SNORM || n == NumericFormat::SRGB;
}

bool FormatInfo::IsSigned() const {
	NumericFormat n = Numeric();
	return n == NumericFormat::SNORM || n == NumericFormat::SSCALED || n == NumericFormat::SINT ||
	       n == NumericFormat::SFLOAT;
}

uint32_t AspectElementSize(const FormatInfo& info, VkImageAspectFlagBits aspect) {
	switch (aspect) {
	case VK_IMAGE_ASPECT_DEPTH_BIT: {
		const FormatComponent* d = info.Find('D');
		return d && d->bits == 16 ? 2 : 4;
	}
	case VK_IMAGE_ASPECT_STENCIL_BIT: return 1;
	case VK_IMAGE_ASPECT_PLANE_0_BIT:
	case VK_IMAGE_ASPECT_PLANE_1_BIT:
	case VK_IMAGE_ASPECT_PLANE_2_BIT: {
		VkFormat plane = AspectFormat(info.format, aspect);
		return FindFormat(plane)->block_size;
	}
	default: return info.block_size;
	}
}

VkFormat AspectFormat(VkFormat format, VkImageAspectFlagBits aspect) {
	const FormatInfo* info = FindFormat(format);
	if (!info) return VK_FORMAT_UNDEFINED;
	switch (aspect) {
	case VK_IMAGE_ASPECT_DEPTH_BIT:
		switch (format) {
		case VK_FORMAT_D16_UNORM_S8_UINT: return VK_FORMAT_D16_UNORM;
		case VK_FORMAT_D24_UNORM_S8_UINT: return VK_FORMAT_X8_D24_UNORM_PACK32;
		case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_FORMAT_D32_SFLOAT;
		default: return format;
		}
	case VK_IMAGE_ASPECT_STENCIL_BIT: return VK_FORMAT_S8_UINT;
	case VK_IMAGE_ASPECT_PLANE_0_BIT: return info->plane_count > 0 ? info->planes[0].compatible : format;
	case VK_IMAGE_ASPECT_PLANE_1_BIT: return info->plane_count > 1 ? info->planes[1].compatible : format;
	case VK_IMAGE_ASPECT_PLANE_2_BIT: return info->plane_count > 2 ? info->planes[2].compatible : format;
	default: return format;
	}
}

}  // namespace tessera::texture
