// VK_EXT_host_image_copy: copies between host memory and images, and
// between images, made by the host. Tessera alone, without the validation
// layer: lavapipe 22.3 and the layer's 1.3.239 release predate the
// extension. The reference is the device's own copy commands: what the host
// writes, vkCmdCopyImageToBuffer reads back, and the other way round.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kWidth = 37, kHeight = 23, kLayers = 2;

struct HostCopy {
	VkPhysicalDeviceHostImageCopyFeaturesEXT features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT};
	HostCopy() { features.hostImageCopy = VK_TRUE; }
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_EXT_HOST_IMAGE_COPY_EXTENSION_NAME};
		options.device_features = &features;
		return options;
	}
};

// An optimal RGBA8 image with two layers; sampled-only usage lets Tessera
// store it in tiles, which the host copies must honour.
TestImage CreateHostImage(Context& ctx) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = VK_FORMAT_R8G8B8A8_UNORM;
	info.extent = {kWidth, kHeight, 1};
	info.mipLevels = 1;
	info.arrayLayers = kLayers;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_HOST_TRANSFER_BIT_EXT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	             VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
	return ctx.CreateImage(info);
}

// Both layers, read by the device (vkCmdCopyImageToBuffer), tightly packed.
std::vector<uint8_t> DeviceRead(Context& ctx, VkImage image) {
	const size_t bytes = size_t(kWidth) * kHeight * 4 * kLayers;
	TestBuffer out = ctx.CreateBuffer(bytes);
	ctx.Submit([&](VkCommandBuffer cb) {
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
		region.imageExtent = {kWidth, kHeight, 1};
		vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &region);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> result(out.data, out.data + bytes);
	ctx.Destroy(out);
	return result;
}

}  // namespace

TEST_CASE("VK_EXT_host_image_copy: the feature, format support and layouts", "[image][host_image_copy]") {
	HostCopy hc;
	auto ctx = Context::Create(Driver::Tessera, hc.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceHostImageCopyPropertiesEXT props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	REQUIRE(props.copySrcLayoutCount > 0);
	REQUIRE(props.copyDstLayoutCount > 0);
	std::vector<VkImageLayout> src(props.copySrcLayoutCount), dst(props.copyDstLayoutCount);
	props.pCopySrcLayouts = src.data();
	props.pCopyDstLayouts = dst.data();
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	CHECK(std::find(src.begin(), src.end(), VK_IMAGE_LAYOUT_GENERAL) != src.end());
	CHECK(std::find(dst.begin(), dst.end(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL) != dst.end());
	CHECK(props.identicalMemoryTypeRequirements == VK_TRUE);

	VkFormatProperties3 f3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
	VkFormatProperties2 f2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &f3};
	vkGetPhysicalDeviceFormatProperties2(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &f2);
	CHECK((f3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_HOST_IMAGE_TRANSFER_BIT_EXT) != 0);
	CHECK((f3.linearTilingFeatures & VK_FORMAT_FEATURE_2_HOST_IMAGE_TRANSFER_BIT_EXT) != 0);

	VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
	info.format = VK_FORMAT_R8G8B8A8_UNORM;
	info.type = VK_IMAGE_TYPE_2D;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_HOST_TRANSFER_BIT_EXT | VK_IMAGE_USAGE_SAMPLED_BIT;
	VkHostImageCopyDevicePerformanceQueryEXT performance{
	    VK_STRUCTURE_TYPE_HOST_IMAGE_COPY_DEVICE_PERFORMANCE_QUERY_EXT};
	VkImageFormatProperties2 properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &performance};
	CHECK(vkGetPhysicalDeviceImageFormatProperties2(ctx->physical_device(), &info, &properties) == VK_SUCCESS);
	CHECK(performance.optimalDeviceAccess == VK_TRUE);
	CHECK(performance.identicalMemoryLayout == VK_TRUE);
}

TEST_CASE("VK_EXT_host_image_copy: host copies agree with the device's copy commands", "[image][host_image_copy]") {
	HostCopy hc;
	auto ctx = Context::Create(Driver::Tessera, hc.Options());
	REQUIRE(ctx);
	auto to_image = ctx->Proc<PFN_vkCopyMemoryToImageEXT>("vkCopyMemoryToImageEXT");
	auto to_memory = ctx->Proc<PFN_vkCopyImageToMemoryEXT>("vkCopyImageToMemoryEXT");
	auto image_to_image = ctx->Proc<PFN_vkCopyImageToImageEXT>("vkCopyImageToImageEXT");
	auto transition = ctx->Proc<PFN_vkTransitionImageLayoutEXT>("vkTransitionImageLayoutEXT");
	auto layout2 = ctx->Proc<PFN_vkGetImageSubresourceLayout2KHR>("vkGetImageSubresourceLayout2EXT");
	REQUIRE(to_image);
	REQUIRE(to_memory);
	REQUIRE(image_to_image);
	REQUIRE(transition);
	REQUIRE(layout2);

	TestImage a = CreateHostImage(*ctx), b = CreateHostImage(*ctx), c = CreateHostImage(*ctx);
	for (VkImage image : {a.image, b.image, c.image}) {
		VkHostImageLayoutTransitionInfoEXT t{VK_STRUCTURE_TYPE_HOST_IMAGE_LAYOUT_TRANSITION_INFO_EXT};
		t.image = image;
		t.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		t.newLayout = VK_IMAGE_LAYOUT_GENERAL;
		t.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
		REQUIRE(transition(ctx->device(), 1, &t) == VK_SUCCESS);
	}

	// Host memory with rows of 40 texels: the image's texels from it.
	const uint32_t row_length = 40;
	std::vector<uint8_t> memory(size_t(row_length) * kHeight * 4 * kLayers);
	for (size_t i = 0; i < memory.size(); ++i) memory[i] = uint8_t(i * 7 + i / 13);
	VkMemoryToImageCopyEXT upload{VK_STRUCTURE_TYPE_MEMORY_TO_IMAGE_COPY_EXT};
	upload.pHostPointer = memory.data();
	upload.memoryRowLength = row_length;
	upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
	upload.imageExtent = {kWidth, kHeight, 1};
	VkCopyMemoryToImageInfoEXT to_image_info{VK_STRUCTURE_TYPE_COPY_MEMORY_TO_IMAGE_INFO_EXT};
	to_image_info.dstImage = a.image;
	to_image_info.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
	to_image_info.regionCount = 1;
	to_image_info.pRegions = &upload;
	REQUIRE(to_image(ctx->device(), &to_image_info) == VK_SUCCESS);
	std::vector<uint8_t> expected(size_t(kWidth) * kHeight * 4 * kLayers);
	for (uint32_t layer = 0; layer < kLayers; ++layer)
		for (uint32_t y = 0; y < kHeight; ++y)
			std::memcpy(&expected[((layer * kHeight + y) * kWidth) * 4],
			            &memory[((layer * kHeight + y) * row_length) * 4], kWidth * 4);
	CHECK(DeviceRead(*ctx, a.image) == expected);

	// A sub-rectangle of layer 1 back to host memory, packed.
	std::vector<uint8_t> readback(10 * 6 * 4, 0);
	VkImageToMemoryCopyEXT download{VK_STRUCTURE_TYPE_IMAGE_TO_MEMORY_COPY_EXT};
	download.pHostPointer = readback.data();
	download.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1};
	download.imageOffset = {21, 9, 0};
	download.imageExtent = {10, 6, 1};
	VkCopyImageToMemoryInfoEXT to_memory_info{VK_STRUCTURE_TYPE_COPY_IMAGE_TO_MEMORY_INFO_EXT};
	to_memory_info.srcImage = a.image;
	to_memory_info.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
	to_memory_info.regionCount = 1;
	to_memory_info.pRegions = &download;
	REQUIRE(to_memory(ctx->device(), &to_memory_info) == VK_SUCCESS);
	for (uint32_t y = 0; y < 6; ++y)
		CHECK(std::memcmp(&readback[y * 10 * 4], &expected[((kHeight + 9 + y) * kWidth + 21) * 4], 10 * 4) == 0);

	// MEMCPY: each layer's bytes as the image holds them, then into another
	// image: the device reads the same texels from it.
	VkImageSubresource2KHR sub{VK_STRUCTURE_TYPE_IMAGE_SUBRESOURCE_2_KHR, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0}};
	VkSubresourceHostMemcpySizeEXT memcpy_size{VK_STRUCTURE_TYPE_SUBRESOURCE_HOST_MEMCPY_SIZE_EXT};
	VkSubresourceLayout2KHR layout{VK_STRUCTURE_TYPE_SUBRESOURCE_LAYOUT_2_KHR, &memcpy_size};
	layout2(ctx->device(), a.image, &sub, &layout);
	REQUIRE(memcpy_size.size >= VkDeviceSize(kWidth) * kHeight * 4);
	std::vector<uint8_t> raw(memcpy_size.size * kLayers);
	download = {VK_STRUCTURE_TYPE_IMAGE_TO_MEMORY_COPY_EXT};
	download.pHostPointer = raw.data();
	download.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
	download.imageExtent = {kWidth, kHeight, 1};
	to_memory_info.flags = VK_HOST_IMAGE_COPY_MEMCPY_EXT;
	REQUIRE(to_memory(ctx->device(), &to_memory_info) == VK_SUCCESS);
	upload = {VK_STRUCTURE_TYPE_MEMORY_TO_IMAGE_COPY_EXT};
	upload.pHostPointer = raw.data();
	upload.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
	upload.imageExtent = {kWidth, kHeight, 1};
	to_image_info.flags = VK_HOST_IMAGE_COPY_MEMCPY_EXT;
	to_image_info.dstImage = b.image;
	REQUIRE(to_image(ctx->device(), &to_image_info) == VK_SUCCESS);
	CHECK(DeviceRead(*ctx, b.image) == expected);

	// Image to image: a region of layer 0 moved into layer 1 of a third image.
	VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2};
	region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1};
	region.extent = {kWidth, kHeight, 1};
	VkCopyImageToImageInfoEXT copy{VK_STRUCTURE_TYPE_COPY_IMAGE_TO_IMAGE_INFO_EXT};
	copy.srcImage = a.image;
	copy.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
	copy.dstImage = c.image;
	copy.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
	copy.regionCount = 1;
	copy.pRegions = &region;
	REQUIRE(image_to_image(ctx->device(), &copy) == VK_SUCCESS);
	const std::vector<uint8_t> moved = DeviceRead(*ctx, c.image);
	const size_t layer_bytes = size_t(kWidth) * kHeight * 4;
	CHECK(std::memcmp(moved.data() + layer_bytes, expected.data(), layer_bytes) == 0);

	ctx->Destroy(a);
	ctx->Destroy(b);
	ctx->Destroy(c);
}
