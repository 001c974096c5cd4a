// VK_KHR_maintenance8: copies between depth/stencil aspects and matching
// color formats, blits between one 3D slice and one layer of another image,
// the Offset image operand on sampling and fetches (a different offset in
// each invocation), barriers with VkMemoryBarrierAccessFlags3KHR and
// QUEUE_FAMILY_OWNERSHIP_TRANSFER_USE_ALL_STAGES, and merges into a pipeline
// cache created INTERNALLY_SYNCHRONIZED_MERGE while other threads create
// pipelines with it. Tessera alone, without the validation layer: lavapipe
// 22.3 and the layer's 1.3.239 release predate the extension. Each result is
// checked against what the spec fixes (the bits copied, the texel the offset
// names, the slice blitted).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "image_scene.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct Maintenance8 {
	VkPhysicalDeviceMaintenance8FeaturesKHR features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &features};
	VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	Maintenance8() {
		features.maintenance8 = VK_TRUE;
		v13.synchronization2 = VK_TRUE;
		v13.maintenance4 = VK_TRUE;
		core.features.shaderImageGatherExtended = VK_TRUE;  // the Offset operand's capability
	}
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_KHR_MAINTENANCE_8_EXTENSION_NAME};
		options.device_features = &core;
		return options;
	}
};

std::unique_ptr<Context> Create(const Maintenance8& m8) {
	auto ctx = Context::Create(Driver::Tessera, m8.Options());
	REQUIRE(ctx);
	return ctx;
}

constexpr VkImageUsageFlags kTransfer = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

// Bytes of one aspect of (mip, layer 0) in or out through a buffer, tightly
// packed (depth/stencil aspects in their buffer forms, Vulkan 1.3 §20.4).
void RecordUpload(VkCommandBuffer cb, const TestImage& image, VkImageAspectFlags aspect, uint32_t mip,
                  VkExtent3D extent, const TestBuffer& buffer) {
	VkBufferImageCopy region{};
	region.imageSubresource = {aspect, mip, 0, 1};
	region.imageExtent = extent;
	vkCmdCopyBufferToImage(cb, buffer.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

void RecordDownload(VkCommandBuffer cb, const TestImage& image, VkImageAspectFlags aspect, uint32_t mip,
                    VkExtent3D extent, const TestBuffer& buffer) {
	VkBufferImageCopy region{};
	region.imageSubresource = {aspect, mip, 0, 1};
	region.imageExtent = extent;
	vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.buffer, 1, &region);
}

struct DepthColorCopy {
	VkFormat src, dst;
	VkImageAspectFlags src_aspect, dst_aspect;
	uint32_t texel_bytes;  // of the copied aspect in a buffer
	uint32_t compared;     // mask of each texel's bits the copy defines (D24: the low 24)
};

// Fills `from` (aspect src_aspect of mip 1 of a 2-level 12x10 image) with
// texels the format allows, copies an 8x6 region of it at (3, 2) to (1, 3)
// of mip 0 of `to`, and reads both back: each copied texel has the source's
// bits, every other texel of the destination keeps its first value.
void CheckDepthColorCopy(Context& ctx, const DepthColorCopy& c, uint32_t seed) {
	CAPTURE(c.src, c.dst, c.src_aspect, c.dst_aspect);
	const VkExtent3D big{12, 10, 1}, small{6, 5, 1};
	TestImage from = ctx.CreateImage2D(c.src, big.width, big.height, kTransfer, 2);
	TestImage to = ctx.CreateImage2D(c.dst, small.width * 2, small.height * 2, kTransfer);
	const size_t from_bytes = size_t(small.width) * small.height * c.texel_bytes;
	const size_t to_bytes = size_t(big.width) * big.height * c.texel_bytes;
	std::mt19937 rng(seed);
	std::vector<uint8_t> source(from_bytes), initial(to_bytes);
	const bool float_depth = c.src == VK_FORMAT_D32_SFLOAT || c.src == VK_FORMAT_D32_SFLOAT_S8_UINT ||
	                         c.dst == VK_FORMAT_D32_SFLOAT || c.dst == VK_FORMAT_D32_SFLOAT_S8_UINT;
	auto fill = [&](std::vector<uint8_t>& bytes) {
		if (float_depth && c.texel_bytes == 4 && (c.src_aspect | c.dst_aspect) & VK_IMAGE_ASPECT_DEPTH_BIT) {
			// Depth in [0, 1] (without depthRangeUnrestricted).
			std::uniform_real_distribution<float> unit(0.0f, 1.0f);
			for (size_t i = 0; i < bytes.size(); i += 4) {
				float v = unit(rng);
				std::memcpy(&bytes[i], &v, 4);
			}
		} else {
			for (uint8_t& b : bytes) b = uint8_t(rng());
		}
	};
	fill(source);
	fill(initial);
	TestBuffer up = ctx.CreateBuffer(from_bytes), init = ctx.CreateBuffer(to_bytes);
	TestBuffer out = ctx.CreateBuffer(to_bytes);
	std::memcpy(up.data, source.data(), from_bytes);
	std::memcpy(init.data, initial.data(), to_bytes);
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, from.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               c.src_aspect == VK_IMAGE_ASPECT_COLOR_BIT
		                   ? VK_IMAGE_ASPECT_COLOR_BIT
		                   : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
		ctx.Transition(cb, to.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               c.dst_aspect == VK_IMAGE_ASPECT_COLOR_BIT
		                   ? VK_IMAGE_ASPECT_COLOR_BIT
		                   : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
		RecordUpload(cb, from, c.src_aspect, 1, small, up);
		RecordUpload(cb, to, c.dst_aspect, 0, big, init);
		ctx.TransferBarrier(cb);
		VkImageCopy region{};
		region.srcSubresource = {c.src_aspect, 1, 0, 1};
		region.srcOffset = {3, 2, 0};
		region.dstSubresource = {c.dst_aspect, 0, 0, 1};
		region.dstOffset = {1, 3, 0};
		region.extent = {3, 3, 1};
		vkCmdCopyImage(cb, from.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to.image,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
		ctx.TransferBarrier(cb);
		RecordDownload(cb, to, c.dst_aspect, 0, big, out);
		ctx.TransferBarrier(cb);
	});
	auto texel = [&](const uint8_t* bytes, uint32_t width, uint32_t x, uint32_t y) {
		uint32_t v = 0;
		std::memcpy(&v, bytes + (size_t(y) * width + x) * c.texel_bytes, c.texel_bytes);
		return v & c.compared;
	};
	for (uint32_t y = 0; y < big.height; ++y)
		for (uint32_t x = 0; x < big.width; ++x) {
			INFO("destination texel " << x << "," << y);
			const bool copied = x >= 1 && x < 4 && y >= 3 && y < 6;
			const uint32_t expected = copied ? texel(source.data(), small.width, x - 1 + 3, y - 3 + 2)
			                                 : texel(initial.data(), big.width, x, y);
			CHECK(texel(out.data, big.width, x, y) == expected);
		}
	ctx.Destroy(up);
	ctx.Destroy(init);
	ctx.Destroy(out);
	ctx.Destroy(from);
	ctx.Destroy(to);
}

}  // namespace

TEST_CASE("VK_KHR_maintenance8: depth and stencil aspects copy to and from matching color formats", "[maintenance8]") {
	Maintenance8 m8;
	auto ctx = Create(m8);
	VkPhysicalDeviceMaintenance8FeaturesKHR supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(supported.maintenance8 == VK_TRUE);

	constexpr VkImageAspectFlags kColor = VK_IMAGE_ASPECT_COLOR_BIT, kDepth = VK_IMAGE_ASPECT_DEPTH_BIT,
	                             kStencil = VK_IMAGE_ASPECT_STENCIL_BIT;
	// Vulkan 1.4 §35.1.3 "Compatible Formats for Depth-Stencil to/from Color
	// Copies", each direction, combined formats' aspects among them.
	const DepthColorCopy copies[] = {
	    {VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT, kDepth, kColor, 4, ~0u},
	    {VK_FORMAT_R32_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, kColor, kDepth, 4, ~0u},
	    {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_R32_UINT, kDepth, kColor, 4, 0xffffffu},
	    {VK_FORMAT_R32_SINT, VK_FORMAT_X8_D24_UNORM_PACK32, kColor, kDepth, 4, 0xffffffu},
	    {VK_FORMAT_D16_UNORM, VK_FORMAT_R16_UNORM, kDepth, kColor, 2, 0xffffu},
	    {VK_FORMAT_R16_SFLOAT, VK_FORMAT_D16_UNORM_S8_UINT, kColor, kDepth, 2, 0xffffu},
	    {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_R8_UINT, kStencil, kColor, 1, 0xffu},
	    {VK_FORMAT_R8_UNORM, VK_FORMAT_D24_UNORM_S8_UINT, kColor, kStencil, 1, 0xffu},
	    {VK_FORMAT_S8_UINT, VK_FORMAT_R8_SINT, kStencil, kColor, 1, 0xffu},
	    {VK_FORMAT_R8_SNORM, VK_FORMAT_S8_UINT, kColor, kStencil, 1, 0xffu},
	};
	uint32_t seed = 1;
	for (const DepthColorCopy& c : copies) CheckDepthColorCopy(*ctx, c, seed++);
}

TEST_CASE("VK_KHR_maintenance8: a 3D slice blits to any layer of a 2D array, and a layer to a slice",
          "[maintenance8]") {
	Maintenance8 m8;
	auto ctx = Create(m8);
	const uint32_t n = 4, size = 8;
	// A 3D image whose slice z is filled with color z + 1, and a 2D array of
	// n layers cleared to 0.
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_3D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = {size, size, n};
	ici.mipLevels = 1;
	ici.arrayLayers = 1;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = kTransfer;
	TestImage volume = ctx->CreateImage(ici);
	TestImage array = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, size, size, kTransfer, 1, n);
	const size_t slice_bytes = size_t(size) * size * 4;
	TestBuffer up = ctx->CreateBuffer(slice_bytes * n), out = ctx->CreateBuffer(slice_bytes * n);
	TestBuffer volume_out = ctx->CreateBuffer(slice_bytes * n);
	for (uint32_t z = 0; z < n; ++z) std::memset(up.data + z * slice_bytes, int(z + 1), slice_bytes);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, volume.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
		ctx->Transition(cb, array.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {size, size, n};
		vkCmdCopyBufferToImage(cb, up.buffer, volume.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
		VkClearColorValue zero{};
		VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, n};
		vkCmdClearColorImage(cb, array.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
		ctx->TransferBarrier(cb);
		// Slice 2 to layer 3 (base layer 3: only maintenance8 allows a base
		// layer other than 0 beside a 3D image).
		VkImageBlit to_layer{};
		to_layer.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		to_layer.srcOffsets[0] = {0, 0, 2};
		to_layer.srcOffsets[1] = {int32_t(size), int32_t(size), 3};
		to_layer.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 1};
		to_layer.dstOffsets[1] = {int32_t(size), int32_t(size), 1};
		vkCmdBlitImage(cb, volume.image, VK_IMAGE_LAYOUT_GENERAL, array.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_layer,
		               VK_FILTER_LINEAR);
		ctx->TransferBarrier(cb);
		// Layer 3 (now slice 2's color) back to slice 0 of the volume.
		VkImageBlit to_slice{};
		to_slice.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 1};
		to_slice.srcOffsets[1] = {int32_t(size), int32_t(size), 1};
		to_slice.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		to_slice.dstOffsets[0] = {0, 0, 0};
		to_slice.dstOffsets[1] = {int32_t(size), int32_t(size), 1};
		vkCmdBlitImage(cb, array.image, VK_IMAGE_LAYOUT_GENERAL, volume.image, VK_IMAGE_LAYOUT_GENERAL, 1, &to_slice,
		               VK_FILTER_NEAREST);
		ctx->TransferBarrier(cb);
		VkBufferImageCopy layers{};
		layers.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, n};
		layers.imageExtent = {size, size, 1};
		vkCmdCopyImageToBuffer(cb, array.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &layers);
		vkCmdCopyImageToBuffer(cb, volume.image, VK_IMAGE_LAYOUT_GENERAL, volume_out.buffer, 1, &region);
		ctx->TransferBarrier(cb);
	});
	for (uint32_t layer = 0; layer < n; ++layer) {
		INFO("layer " << layer);
		const uint8_t expected = layer == 3 ? 3 : 0;
		for (size_t i = 0; i < slice_bytes; ++i)
			if (out.data[layer * slice_bytes + i] != expected) FAIL("byte " << i << " is " << int(out.data[i]));
	}
	for (uint32_t z = 0; z < n; ++z) {
		INFO("slice " << z);
		const uint8_t expected = z == 0 ? 3 : uint8_t(z + 1);
		for (size_t i = 0; i < slice_bytes; ++i)
			if (volume_out.data[z * slice_bytes + i] != expected) FAIL("byte " << i);
	}
	ctx->Destroy(up);
	ctx->Destroy(out);
	ctx->Destroy(volume_out);
	ctx->Destroy(volume);
	ctx->Destroy(array);
}

TEST_CASE("VK_KHR_maintenance8: the Offset image operand moves each invocation's fetch and sample by its own offset",
          "[maintenance8]") {
	Maintenance8 m8;
	auto ctx = Create(m8);
	// sample_offsets.spvasm: per invocation, a fetch and a sample with the
	// Offset operand, and the same lookups at the offset coordinates.
	image::Scene scene{"sample_offsets.spv"};
	scene.images = {image::MippedTexture(7)};
	scene.samplers = {image::Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT)};
	scene.buffers = {std::vector<uint8_t>(64 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	image::Outcome outcome = image::Run(*ctx, scene);
	REQUIRE(outcome.buffers.size() == 1);
	const std::vector<float> v = image::Values<float>(outcome.buffers[0]);
	REQUIRE(v.size() == 64 * 16);
	uint32_t moved = 0;
	for (uint32_t i = 0; i < 64; ++i) {
		INFO("invocation " << i);
		const float* lanes = &v[i * 16];
		for (uint32_t c = 0; c < 4; ++c) {
			CHECK(lanes[c] == lanes[4 + c]);       // fetch with Offset == fetch at p + o
			CHECK(lanes[8 + c] == lanes[12 + c]);  // sample with Offset == sample at p + o
		}
		moved += (i % 7 != 3 || i % 5 != 2);
	}
	CHECK(moved > 50);  // most invocations' offsets are not zero
}

TEST_CASE("VK_KHR_maintenance8: barriers with access flags 3 and all-stages ownership transfers order as before",
          "[maintenance8]") {
	Maintenance8 m8;
	auto ctx = Create(m8);
	TestBuffer a = ctx->CreateBuffer(256), b = ctx->CreateBuffer(256);
	std::memset(b.data, 0, 256);
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdFillBuffer(cb, a.buffer, 0, 256, 0x5a5a5a5au);
		VkMemoryBarrierAccessFlags3KHR access3{VK_STRUCTURE_TYPE_MEMORY_BARRIER_ACCESS_FLAGS_3_KHR};
		access3.srcAccessMask3 = VK_ACCESS_3_NONE_KHR;
		access3.dstAccessMask3 = VK_ACCESS_3_NONE_KHR;
		VkBufferMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, &access3};
		barrier.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
		barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
		barrier.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
		barrier.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
		barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		barrier.buffer = a.buffer;
		barrier.size = VK_WHOLE_SIZE;
		VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
		dependency.dependencyFlags = VK_DEPENDENCY_QUEUE_FAMILY_OWNERSHIP_TRANSFER_USE_ALL_STAGES_BIT_KHR;
		dependency.bufferMemoryBarrierCount = 1;
		dependency.pBufferMemoryBarriers = &barrier;
		vkCmdPipelineBarrier2(cb, &dependency);
		VkBufferCopy region{0, 0, 256};
		vkCmdCopyBuffer(cb, a.buffer, b.buffer, 1, &region);
		// The flag in the first synchronization command's dependency flags too.
		VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
		                     VK_DEPENDENCY_QUEUE_FAMILY_OWNERSHIP_TRANSFER_USE_ALL_STAGES_BIT_KHR, 1, &host, 0, nullptr,
		                     0, nullptr);
	});
	for (uint32_t i = 0; i < 256; ++i)
		if (b.data[i] != 0x5a) FAIL("byte " << i);
	ctx->Destroy(a);
	ctx->Destroy(b);
}

TEST_CASE("VK_KHR_maintenance8: merges into an INTERNALLY_SYNCHRONIZED_MERGE cache race pipeline creation safely",
          "[maintenance8]") {
	Maintenance8 m8;
	auto ctx = Create(m8);
	VkDevice device = ctx->device();
	VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	info.flags = VK_PIPELINE_CACHE_CREATE_INTERNALLY_SYNCHRONIZED_MERGE_BIT_KHR;
	VkPipelineCache shared;
	REQUIRE(vkCreatePipelineCache(device, &info, nullptr, &shared) == VK_SUCCESS);
	// Source caches, each holding one program the shared cache lacks.
	info.flags = 0;
	const char* names[] = {"control.spv", "reduce.spv", "robust.spv", "barriers.spv"};
	std::vector<VkPipelineCache> sources;
	for (const char* name : names) {
		VkPipelineCache source;
		REQUIRE(vkCreatePipelineCache(device, &info, nullptr, &source) == VK_SUCCESS);
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, name), 2, 0, source);
		REQUIRE(kernel.ok());
		sources.push_back(source);
	}
	// One thread merges the sources into the shared cache over and over while
	// this one creates pipelines with it (maintenance8: no external lock).
	std::atomic<bool> stop{false};
	std::atomic<uint32_t> merges{0};
	std::atomic<bool> merge_failed{false};
	std::thread merger([&] {
		while (!stop.load()) {
			if (vkMergePipelineCaches(device, shared, uint32_t(sources.size()), sources.data()) != VK_SUCCESS)
				merge_failed = true;
			++merges;
		}
	});
	for (int round = 0; round < 20; ++round) {
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "saxpy.spv"), 2, 0, shared);
		CHECK(kernel.ok());
	}
	while (merges.load() < 3) std::this_thread::yield();
	stop = true;
	merger.join();
	CHECK(!merge_failed);
	// The shared cache holds its own program and every source's.
	auto entries = [&](VkPipelineCache cache) {
		size_t size = 0;
		REQUIRE(vkGetPipelineCacheData(device, cache, &size, nullptr) == VK_SUCCESS);
		return size;
	};
	size_t sum = 0;
	for (VkPipelineCache source : sources) sum += entries(source) - (16 + VK_UUID_SIZE);
	CHECK(entries(shared) > sum + 16 + VK_UUID_SIZE);
	for (VkPipelineCache source : sources) vkDestroyPipelineCache(device, source, nullptr);
	vkDestroyPipelineCache(device, shared, nullptr);
}
