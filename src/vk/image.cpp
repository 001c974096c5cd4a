#include "vk/image.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "vk/device.h"
#include "wsi/swapchain.h"

namespace tessera::vk {

namespace {

// Textures are rows of texels unless TESSERA_TILED_IMAGES=1. Measured on
// the texture benchmark (a receding plane, 1024² and 4096², also turned
// 90 degrees): 4x4 tiles gave no gain in frame time, cachegrind counted 10%
// more L1 read misses (the rasterizer walks 2x2 quads along rows, so a row
// of texels serves 16 texels of a line where tiles serve 4) and uploads took
// about twice as long. The tiled layout is kept, tested, for workloads that
// walk textures across rows.
bool TiledImagesEnabled() {
	static const bool enabled = [] {
		const char* value = std::getenv("TESSERA_TILED_IMAGES");
		return value && std::strcmp(value, "1") == 0;
	}();
	return enabled;
}

// 4x4 texel tiles for textures: optimally tiled images only read by samplers
// and written by transfers, in memory no one else sees. Render targets,
// storage images (written by the rasterizer and shaders in rows), linear
// images (Vulkan 1.3 §12.3: row-major, vkGetImageSubresourceLayout),
// aliased, external, swapchain-bound and view-compatibility images stay
// rows of texels.
uint32_t ChooseTileShift(const VkImageCreateInfo& info) {
	if (!TiledImagesEnabled() || info.tiling != VK_IMAGE_TILING_OPTIMAL || info.samples != VK_SAMPLE_COUNT_1_BIT ||
	    info.imageType == VK_IMAGE_TYPE_1D)  // a 1D image is one row: tiles would only pad it
		return 0;
	constexpr VkImageUsageFlags kRowUsage =
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
	    VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
	    VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
	constexpr VkImageCreateFlags kRowFlags = VK_IMAGE_CREATE_ALIAS_BIT |
	                                         VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
	                                         VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_SPARSE_BINDING_BIT;
	if ((info.usage & kRowUsage) || (info.flags & kRowFlags)) return 0;
	for (auto* next = static_cast<const VkBaseInStructure*>(info.pNext); next; next = next->pNext)
		if (next->sType == VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO ||
		    next->sType == VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR ||
		    next->sType == VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_LIST_CREATE_INFO_EXT ||
		    next->sType == VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_EXPLICIT_CREATE_INFO_EXT)
			return 0;
	return 2;
}

}  // namespace

Image::Image(const VkImageCreateInfo& info)
    : format_(info.format),
      type_(info.imageType),
      extent_(info.extent),
      mip_levels_(info.mipLevels),
      array_layers_(info.arrayLayers),
      samples_(info.samples),
      tiling_(info.tiling),
      usage_(info.usage),
      flags_(info.flags),
      tile_shift_(ChooseTileShift(info)) {}

VkSubresourceLayout Image::SubresourceLayout(const VkImageSubresource& subresource) const {
	auto aspect = static_cast<VkImageAspectFlagBits>(subresource.aspectMask);
	const texture::SubresourceLayout& level = layout_.Level(layout_.PlaneOf(aspect), subresource.mipLevel);
	VkSubresourceLayout out;
	out.offset = level.offset + subresource.arrayLayer * level.array_pitch;
	out.size = type_ == VK_IMAGE_TYPE_3D ? level.size : level.array_pitch;
	out.rowPitch = level.row_pitch;
	out.arrayPitch = level.array_pitch;
	out.depthPitch = level.depth_pitch;
	// The layer's offset already includes arrayLayer * arrayPitch, as the
	// spec's addressing formula expects from offset of the given layer.
	return out;
}

VkResult Image::InitSparse() {
	if (!Sparse()) return VK_SUCCESS;
	if (VkResult result = sparse_.Init(layout_.TotalSize()); result != VK_SUCCESS) return result;
	if (layout_.Sparse()) {
		const uint64_t pages = sparse_.Size() >> texture::Residency::kPageShift;
		residency_pages_.reset(new (std::nothrow) std::atomic<uint64_t>[(pages + 63) / 64]());
		if (!residency_pages_) return VK_ERROR_OUT_OF_HOST_MEMORY;
		residency_ = {sparse_.Data(), residency_pages_.get(), pages};
	}
	return VK_SUCCESS;
}

void Image::MarkResident(VkDeviceSize offset, VkDeviceSize size, bool bound) {
	if (!residency_pages_) return;
	const uint64_t first = offset >> texture::Residency::kPageShift;
	const uint64_t end = std::min<uint64_t>(
	    residency_.page_count, (offset + size + DeviceMemory::kPageSize - 1) >> texture::Residency::kPageShift);
	for (uint64_t page = first; page < end; ++page) {
		const uint64_t bit = uint64_t(1) << (page & 63);
		if (bound)
			residency_pages_[page >> 6].fetch_or(bit, std::memory_order_relaxed);
		else
			residency_pages_[page >> 6].fetch_and(~bit, std::memory_order_relaxed);
	}
}

bool Image::BindResidency(const VkSparseImageMemoryBind& bind, const DeviceMemory* memory) {
	const texture::SparseBlock* block = layout_.Sparse();
	const VkImageSubresource& sub = bind.subresource;
	if (!block || sub.mipLevel >= mip_levels_ || sub.arrayLayer >= array_layers_ || bind.offset.x < 0 ||
	    bind.offset.y < 0 || bind.offset.z < 0)
		return false;
	// The blocks the region covers (valid use: offsets at block multiples,
	// extents whole blocks or up to the level's edge).
	const VkExtent3D count = layout_.SparseBlockCount(sub.mipLevel);
	const VkExtent3D& b = block->extent;
	const uint32_t first[3] = {uint32_t(bind.offset.x) / b.width, uint32_t(bind.offset.y) / b.height,
	                           uint32_t(bind.offset.z) / b.depth};
	const uint32_t end[3] = {
	    std::min<uint32_t>(count.width,
	                       uint32_t((uint64_t(bind.offset.x) + bind.extent.width + b.width - 1) / b.width)),
	    std::min<uint32_t>(count.height,
	                       uint32_t((uint64_t(bind.offset.y) + bind.extent.height + b.height - 1) / b.height)),
	    std::min<uint32_t>(count.depth,
	                       uint32_t((uint64_t(bind.offset.z) + bind.extent.depth + b.depth - 1) / b.depth))};
	bool ok = first[0] < end[0] && first[1] < end[1] && first[2] < end[2];
	VkDeviceSize memory_offset = bind.memoryOffset;
	for (uint32_t z = first[2]; z < end[2]; ++z)
		for (uint32_t y = first[1]; y < end[1]; ++y)
			for (uint32_t x = first[0]; x < end[0]; ++x, memory_offset += texture::SparseBlock::kSize) {
				const texture::SparseBlockBytes bytes = layout_.BlockBytes(sub.mipLevel, sub.arrayLayer, x, y, z);
				for (uint32_t c = 0; c < bytes.count; ++c) {
					const bool bound = sparse_.BindPages(bytes.offset + c * bytes.stride, bytes.size, memory,
					                                     memory_offset + c * bytes.size);
					if (bound) MarkResident(bytes.offset + c * bytes.stride, bytes.size, memory != nullptr);
					ok &= bound;
				}
			}
	return ok;
}

bool Image::SparseRequirements(VkSparseImageMemoryRequirements* out) const {
	const texture::SparseBlock* block = layout_.Sparse();
	if (!block) return false;
	*out = {};
	out->formatProperties.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
	out->formatProperties.imageGranularity = block->extent;
	out->formatProperties.flags = block->standard ? 0 : VK_SPARSE_IMAGE_FORMAT_NONSTANDARD_BLOCK_SIZE_BIT;
	// No mip tail: the smallest levels take a block each, as the largest.
	out->imageMipTailFirstLod = mip_levels_;
	return true;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::Image;
using vk::ImageView;

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* image = vk::New<Image>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *pCreateInfo);
	if (!image) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (!image->Init()) {
		vk::Delete(allocator, image);
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (VkResult result = image->InitSparse(); result != VK_SUCCESS) {
		vk::Delete(allocator, image);
		return result;
	}
	*pImage = image->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), Image::Cast(image));
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice, VkImage image,
                                                      VkMemoryRequirements* pMemoryRequirements) {
	*pMemoryRequirements = Image::Cast(image)->Requirements();
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2* pInfo,
                                                       VkMemoryRequirements2* pMemoryRequirements) {
	pMemoryRequirements->memoryRequirements = Image::Cast(pInfo->image)->Requirements();
	if (auto* dedicated = vk::FindInChain<VkMemoryDedicatedRequirements>(
	        pMemoryRequirements->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS)) {
		dedicated->prefersDedicatedAllocation = VK_FALSE;
		dedicated->requiresDedicatedAllocation = VK_FALSE;
	}
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements* pInfo,
                                                            VkMemoryRequirements2* pMemoryRequirements) {
	Image image(*pInfo->pCreateInfo);
	pMemoryRequirements->memoryRequirements = image.Init() ? image.Requirements() : VkMemoryRequirements{};
	if (auto* dedicated = vk::FindInChain<VkMemoryDedicatedRequirements>(
	        pMemoryRequirements->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS)) {
		dedicated->prefersDedicatedAllocation = VK_FALSE;
		dedicated->requiresDedicatedAllocation = VK_FALSE;
	}
}

namespace {

// One VkSparseImageMemoryRequirements (the color aspect) for a partially
// resident image, none for others; the count/array idiom of the queries.
template <typename T, typename Get>
void ReturnSparseRequirements(const Image& image, uint32_t* count, T* out, Get get) {
	VkSparseImageMemoryRequirements requirements;
	if (!image.SparseRequirements(&requirements)) {
		*count = 0;
		return;
	}
	if (out && *count >= 1) get(out[0]) = requirements;
	*count = out ? std::min<uint32_t>(*count, 1) : 1;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL
GetImageSparseMemoryRequirements(VkDevice, VkImage image, uint32_t* pSparseMemoryRequirementCount,
                                 VkSparseImageMemoryRequirements* pSparseMemoryRequirements) {
	ReturnSparseRequirements(*Image::Cast(image), pSparseMemoryRequirementCount, pSparseMemoryRequirements,
	                         [](VkSparseImageMemoryRequirements& r) -> VkSparseImageMemoryRequirements& { return r; });
}

VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements2(
    VkDevice, const VkImageSparseMemoryRequirementsInfo2* pInfo, uint32_t* pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2* pSparseMemoryRequirements) {
	ReturnSparseRequirements(
	    *Image::Cast(pInfo->image), pSparseMemoryRequirementCount, pSparseMemoryRequirements,
	    [](VkSparseImageMemoryRequirements2& r) -> VkSparseImageMemoryRequirements& { return r.memoryRequirements; });
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageSparseMemoryRequirements(
    VkDevice, const VkDeviceImageMemoryRequirements* pInfo, uint32_t* pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2* pSparseMemoryRequirements) {
	Image image(*pInfo->pCreateInfo);
	if (!image.Init()) {
		*pSparseMemoryRequirementCount = 0;
		return;
	}
	ReturnSparseRequirements(
	    image, pSparseMemoryRequirementCount, pSparseMemoryRequirements,
	    [](VkSparseImageMemoryRequirements2& r) -> VkSparseImageMemoryRequirements& { return r.memoryRequirements; });
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice, VkImage image, VkDeviceMemory memory,
                                               VkDeviceSize memoryOffset) {
	Image::Cast(image)->Bind(vk::DeviceMemory::Cast(memory), memoryOffset);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice, uint32_t bindInfoCount,
                                                const VkBindImageMemoryInfo* pBindInfos) {
	for (uint32_t i = 0; i < bindInfoCount; ++i) {
		// VK_KHR_maintenance6: each bind's own result (binding cannot fail).
		if (auto* status =
		        vk::FindInChain<VkBindMemoryStatusKHR>(pBindInfos[i].pNext, VK_STRUCTURE_TYPE_BIND_MEMORY_STATUS_KHR))
			*status->pResult = VK_SUCCESS;
		// Vulkan 1.3 §34.10 (VK_KHR_swapchain with 1.1): an image created
		// with VkImageSwapchainCreateInfoKHR shares a swapchain image's memory.
		if (auto* swapchain = vk::FindInChain<VkBindImageMemorySwapchainInfoKHR>(
		        pBindInfos[i].pNext, VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR)) {
			const wsi::Swapchain* owner = wsi::Swapchain::Cast(swapchain->swapchain);
			Image::Cast(pBindInfos[i].image)->Bind(owner->Memory(swapchain->imageIndex), 0);
			continue;
		}
		Image::Cast(pBindInfos[i].image)
		    ->Bind(vk::DeviceMemory::Cast(pBindInfos[i].memory), pBindInfos[i].memoryOffset);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetImageSubresourceLayout(VkDevice, VkImage image, const VkImageSubresource* pSubresource,
                                                     VkSubresourceLayout* pLayout) {
	*pLayout = Image::Cast(image)->SubresourceLayout(*pSubresource);
}

// VK_KHR_maintenance5 and VK_EXT_host_image_copy (the names of
// VK_EXT_image_compression_control's command): the same layout, in a
// structure with a pNext chain. A host copy with
// VK_HOST_IMAGE_COPY_MEMCPY_EXT moves the subresource's bytes as they lie
// (vk/cmd_copy.cpp): its size. (Compression properties belong to an
// extension Tessera does not expose.)
VKAPI_ATTR void VKAPI_CALL GetImageSubresourceLayout2EXT(VkDevice, VkImage image,
                                                         const VkImageSubresource2KHR* pSubresource,
                                                         VkSubresourceLayout2KHR* pLayout) {
	pLayout->subresourceLayout = Image::Cast(image)->SubresourceLayout(pSubresource->imageSubresource);
	if (auto* memcpy_size = vk::FindInChain<VkSubresourceHostMemcpySizeEXT>(
	        pLayout->pNext, VK_STRUCTURE_TYPE_SUBRESOURCE_HOST_MEMCPY_SIZE_EXT))
		memcpy_size->size = pLayout->subresourceLayout.size;
}

// VK_KHR_maintenance5: the layout an image created from the same
// parameters would have (the layout depends on nothing else).
VKAPI_ATTR void VKAPI_CALL GetDeviceImageSubresourceLayoutKHR(VkDevice, const VkDeviceImageSubresourceInfoKHR* pInfo,
                                                              VkSubresourceLayout2KHR* pLayout) {
	Image image(*pInfo->pCreateInfo);
	pLayout->subresourceLayout =
	    image.Init() ? image.SubresourceLayout(pInfo->pSubresource->imageSubresource) : VkSubresourceLayout{};
	if (auto* memcpy_size = vk::FindInChain<VkSubresourceHostMemcpySizeEXT>(
	        pLayout->pNext, VK_STRUCTURE_TYPE_SUBRESOURCE_HOST_MEMCPY_SIZE_EXT))
		memcpy_size->size = pLayout->subresourceLayout.size;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice device, const VkImageViewCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
	auto* view = vk::New<ImageView>(Device::Cast(device)->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
	                                *pCreateInfo);
	if (!view) return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pView = view->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView imageView,
                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), ImageView::Cast(imageView));
}

}  // namespace tessera::entry
