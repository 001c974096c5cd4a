// Images as objects: linear tiling with vkGetImageSubresourceLayout, mip
// chains, array layers, 1D/3D and cube-compatible images, memory
// requirements. Contents are compared with lavapipe through transfers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "vk_context.h"

using namespace tessera::test;

namespace {

VkExtent3D LevelExtent(const VkImageCreateInfo& info, uint32_t mip) {
	return {std::max(1u, info.extent.width >> mip), std::max(1u, info.extent.height >> mip),
	        std::max(1u, info.extent.depth >> mip)};
}

// Records copies of every level (all layers) of an image of 4-byte texels
// in TRANSFER_SRC_OPTIMAL to `out`, one level after the other, tightly
// packed.
void RecordLevelsToBuffer(VkCommandBuffer cb, VkImage image, const VkImageCreateInfo& info, VkBuffer out) {
	VkDeviceSize offset = 0;
	for (uint32_t mip = 0; mip < info.mipLevels; ++mip) {
		VkBufferImageCopy region{};
		region.bufferOffset = offset;
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, info.arrayLayers};
		region.imageExtent = LevelExtent(info, mip);
		vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out, 1, &region);
		offset += VkDeviceSize(region.imageExtent.width) * region.imageExtent.height * region.imageExtent.depth * 4 *
		          info.arrayLayers;
	}
}

// Writes a pattern into a linear image through its mapped memory (using the
// driver's row pitch), copies it to an optimal image and reads that back.
std::vector<uint8_t> LinearUpload(Context& ctx) {
	const uint32_t w = 33, h = 17;
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = VK_FORMAT_R8G8B8A8_UNORM;
	info.extent = {w, h, 1};
	info.mipLevels = 1;
	info.arrayLayers = 1;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_LINEAR;
	info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	info.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
	TestImage linear = ctx.CreateImage(info);

	VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
	VkSubresourceLayout layout;
	vkGetImageSubresourceLayout(ctx.device(), linear.image, &subresource, &layout);
	REQUIRE(layout.rowPitch >= w * 4);
	REQUIRE(layout.size >= layout.rowPitch * (h - 1) + w * 4);
	uint8_t* mapped;
	REQUIRE(vkMapMemory(ctx.device(), linear.memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&mapped)) ==
	        VK_SUCCESS);
	for (uint32_t y = 0; y < h; ++y)
		for (uint32_t x = 0; x < w * 4; ++x) mapped[layout.offset + y * layout.rowPitch + x] = uint8_t(x * 7 + y * 13);
	vkUnmapMemory(ctx.device(), linear.memory);

	TestImage optimal = ctx.CreateImage2D(info.format, w, h);
	TestBuffer out = ctx.CreateBuffer(w * h * 4);
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, linear.image, VK_IMAGE_LAYOUT_PREINITIALIZED, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		ctx.Transition(cb, optimal.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkImageCopy copy{};
		copy.srcSubresource = copy.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		copy.extent = {w, h, 1};
		vkCmdCopyImage(cb, linear.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, optimal.image,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
		ctx.Transition(cb, optimal.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {w, h, 1};
		vkCmdCopyImageToBuffer(cb, optimal.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes(out.data, out.data + out.size);
	ctx.Destroy(out);
	ctx.Destroy(optimal);
	ctx.Destroy(linear);
	return bytes;
}

// Writes a pattern into every level, layer and slice of a linear image of
// `type` (4 levels; 1D and 2D: 3 layers) through its mapped memory at the
// offsets and pitches vkGetImageSubresourceLayout reports, then copies each
// level to a buffer with the device and reads that back.
std::vector<uint8_t> LinearLevelsAndLayers(Context& ctx, VkImageType type) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = type;
	info.format = VK_FORMAT_R16G16_UINT;
	info.extent = type == VK_IMAGE_TYPE_1D   ? VkExtent3D{37, 1, 1}
	              : type == VK_IMAGE_TYPE_3D ? VkExtent3D{19, 10, 6}
	                                         : VkExtent3D{21, 13, 1};
	info.mipLevels = 4;
	info.arrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : 3;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_LINEAR;
	info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	info.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
	VkImageFormatProperties properties;
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx.physical_device(), info.format, type, info.tiling, info.usage,
	                                                 0, &properties) == VK_SUCCESS);
	REQUIRE(properties.maxMipLevels >= info.mipLevels);
	REQUIRE(properties.maxArrayLayers >= info.arrayLayers);
	TestImage linear = ctx.CreateImage(info);
	uint8_t* mapped;
	REQUIRE(vkMapMemory(ctx.device(), linear.memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&mapped)) ==
	        VK_SUCCESS);
	for (uint32_t mip = 0; mip < info.mipLevels; ++mip)
		for (uint32_t layer = 0; layer < info.arrayLayers; ++layer) {
			VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, mip, layer};
			VkSubresourceLayout layout;
			vkGetImageSubresourceLayout(ctx.device(), linear.image, &subresource, &layout);
			const VkExtent3D e = LevelExtent(info, mip);
			for (uint32_t z = 0; z < e.depth; ++z)
				for (uint32_t y = 0; y < e.height; ++y)
					for (uint32_t x = 0; x < e.width * 4; ++x)
						mapped[layout.offset + z * layout.depthPitch + y * layout.rowPitch + x] =
						    uint8_t(x * 7 + y * 13 + z * 29 + mip * 41 + layer * 53);
		}
	vkUnmapMemory(ctx.device(), linear.memory);
	TestBuffer out = ctx.CreateBuffer(64 * 1024);
	std::fill(out.data, out.data + out.size, uint8_t(0xcd));
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, linear.image, VK_IMAGE_LAYOUT_PREINITIALIZED, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		RecordLevelsToBuffer(cb, linear.image, info, out.buffer);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes(out.data, out.data + out.size);
	ctx.Destroy(out);
	ctx.Destroy(linear);
	return bytes;
}

// Clears each level and layer of a mip-mapped array (and 1D, 3D images) to
// its own color and reads every subresource back.
std::vector<uint8_t> LevelsAndLayers(Context& ctx, VkImageType type, VkImageCreateFlags flags) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.flags = flags;
	info.imageType = type;
	info.format = VK_FORMAT_R16G16_UINT;
	info.extent = type == VK_IMAGE_TYPE_1D   ? VkExtent3D{64, 1, 1}
	              : type == VK_IMAGE_TYPE_3D ? VkExtent3D{16, 8, 4}
	                                         : VkExtent3D{16, 16, 1};
	info.mipLevels = 4;
	info.arrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : 6;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	TestImage image = ctx.CreateImage(info);
	TestBuffer out = ctx.CreateBuffer(64 * 1024);
	std::fill(out.data, out.data + out.size, uint8_t(0xcd));
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		for (uint32_t mip = 0; mip < info.mipLevels; ++mip)
			for (uint32_t layer = 0; layer < info.arrayLayers; ++layer) {
				VkClearColorValue color{};
				color.uint32[0] = 1000 * mip + layer;
				color.uint32[1] = 7 + layer;
				VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, layer, 1};
				vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
			}
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		RecordLevelsToBuffer(cb, image.image, info, out.buffer);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes(out.data, out.data + out.size);
	ctx.Destroy(out);
	ctx.Destroy(image);
	return bytes;
}

template <typename Scenario>
void SameOnBothDrivers(Scenario scenario) {
	auto ours = Context::Create(Driver::Tessera);
	auto reference = Context::Create(Driver::Lavapipe);
	REQUIRE(ours);
	REQUIRE(reference);
	std::vector<uint8_t> a = scenario(*ours), b = scenario(*reference);
	REQUIRE(a.size() == b.size());
	auto mismatch = std::mismatch(a.begin(), a.end(), b.begin());
	INFO("first difference at byte " << (mismatch.first - a.begin()));
	REQUIRE(mismatch.first == a.end());
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

}  // namespace

TEST_CASE("linear images are written through vkGetImageSubresourceLayout", "[image]") {
	SameOnBothDrivers(LinearUpload);
}

TEST_CASE("linear 1D, 2D and 3D images of several levels and layers are written through their layouts", "[image]") {
	SameOnBothDrivers([](Context& c) { return LinearLevelsAndLayers(c, VK_IMAGE_TYPE_1D); });
	SameOnBothDrivers([](Context& c) { return LinearLevelsAndLayers(c, VK_IMAGE_TYPE_2D); });
	SameOnBothDrivers([](Context& c) { return LinearLevelsAndLayers(c, VK_IMAGE_TYPE_3D); });
}

TEST_CASE("every level and layer of 1D, 2D, cube-compatible and 3D images is addressable", "[image]") {
	SameOnBothDrivers([](Context& c) { return LevelsAndLayers(c, VK_IMAGE_TYPE_1D, 0); });
	SameOnBothDrivers([](Context& c) { return LevelsAndLayers(c, VK_IMAGE_TYPE_2D, 0); });
	SameOnBothDrivers(
	    [](Context& c) { return LevelsAndLayers(c, VK_IMAGE_TYPE_2D, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT); });
	SameOnBothDrivers([](Context& c) { return LevelsAndLayers(c, VK_IMAGE_TYPE_3D, 0); });
}

TEST_CASE("memory requirements cover the image and are consistent with the device queries", "[image]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.imageType = VK_IMAGE_TYPE_2D;
	info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	info.extent = {100, 60, 1};
	info.mipLevels = 7;
	info.arrayLayers = 3;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	VkImage image;
	REQUIRE(vkCreateImage(ctx->device(), &info, nullptr, &image) == VK_SUCCESS);
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(ctx->device(), image, &req);
	CHECK(req.size >= 100 * 60 * 16 * 3);
	CHECK(req.memoryTypeBits == 3u);  // both memory types
	CHECK((req.alignment & (req.alignment - 1)) == 0);

	VkDeviceImageMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS};
	query.pCreateInfo = &info;
	VkMemoryRequirements2 req2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	vkGetDeviceImageMemoryRequirements(ctx->device(), &query, &req2);
	CHECK(req2.memoryRequirements.size == req.size);
	CHECK(req2.memoryRequirements.alignment == req.alignment);
	vkDestroyImage(ctx->device(), image, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("separateDepthStencilLayouts: depth and stencil aspects move through their own layouts", "[image]") {
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.separateDepthStencilLayouts = VK_TRUE;
	ContextOptions options;
	options.device_features = &v12;
	auto scenario = [](Context& ctx) {
		TestImage image = ctx.CreateImage2D(VK_FORMAT_D24_UNORM_S8_UINT, 16, 8);
		TestBuffer out = ctx.CreateBuffer(16 * 8 * 5);
		std::fill(out.data, out.data + out.size, uint8_t(0x77));
		ctx.Submit([&](VkCommandBuffer cb) {
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			               VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
			VkClearDepthStencilValue value{0.75f, 0x5a};
			VkImageSubresourceRange both{VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1};
			vkCmdClearDepthStencilImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &both);
			// Each aspect on its own: depth to a depth-only layout and back,
			// stencil straight to the transfer source layout.
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			               VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL,
			               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
			ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			               VK_IMAGE_ASPECT_STENCIL_BIT);
			VkBufferImageCopy regions[2]{};
			regions[0].imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
			regions[0].imageExtent = {16, 8, 1};
			regions[1].bufferOffset = 16 * 8 * 4;
			regions[1].imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
			regions[1].imageExtent = {16, 8, 1};
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 2, regions);
			ctx.TransferBarrier(cb);
		});
		std::vector<uint8_t> bytes(out.data, out.data + out.size);
		// D24 in 4 bytes: the top byte is undefined in a copy (§20.4); drop it.
		for (size_t i = 3; i < 16 * 8 * 4; i += 4) bytes[i] = 0;
		ctx.Destroy(out);
		ctx.Destroy(image);
		return bytes;
	};
	auto ours = Context::Create(Driver::Tessera, options);
	auto reference = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours);
	REQUIRE(reference);
	CHECK(scenario(*ours) == scenario(*reference));
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("VK_IMAGE_CREATE_EXTENDED_USAGE_BIT takes usages from the formats views can have", "[image]") {
	// Vulkan "Image Creation": with EXTENDED_USAGE (and MUTABLE_FORMAT) a
	// usage the image's own format lacks is allowed when a compatible view
	// format has it: R4G4_UNORM_PACK8 has no storage, R8_UNORM of its class
	// does (the CTS's image.extended_usage_bit_compatibility cases).
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkImageFormatProperties props;
	auto query = [&](VkFormat format, VkImageCreateFlags flags) {
		return vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), format, VK_IMAGE_TYPE_2D,
		                                                VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, flags,
		                                                &props);
	};
	const VkImageCreateFlags extended = VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
	CHECK(query(VK_FORMAT_R4G4_UNORM_PACK8, 0) == VK_ERROR_FORMAT_NOT_SUPPORTED);
	CHECK(query(VK_FORMAT_R8_UNORM, 0) == VK_SUCCESS);
	CHECK(query(VK_FORMAT_R4G4_UNORM_PACK8, extended) == VK_SUCCESS);
	CHECK(props.maxExtent.width > 0);
	CHECK(query(VK_FORMAT_R4G4_UNORM_PACK8, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) == VK_ERROR_FORMAT_NOT_SUPPORTED);
	CHECK(ctx->validation_errors() == 0);
}
