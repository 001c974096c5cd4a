// Sparse buffers through the loader (sparseBinding, sparseResidencyBuffer,
// sparseResidencyAliased): blocks bound with vkQueueBindSparse to pieces of
// two memory objects in another order than the buffer's, rebound, unbound,
// and two buffers sharing one memory block. Sparse images with opaque
// binds (residency: sparse_image_test.cpp). Transfers and a compute shader
// read and write the buffers; the memory objects' mappings must show the
// same bytes. Debian's
// lavapipe 22.3 offers no sparse binding, so the results are checked against
// the values the test put in.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct SparseContext {
	std::unique_ptr<Context> ctx;
	VkDeviceSize block = 0;  // the sparse block size (VkMemoryRequirements::alignment)
	uint32_t words = 0;      // 32-bit words in a block

	static SparseContext Create() {
		SparseContext c;
		static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
		v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
		static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
		features.features.sparseBinding = VK_TRUE;
		features.features.sparseResidencyBuffer = VK_TRUE;
		features.features.sparseResidencyAliased = VK_TRUE;
		ContextOptions options;
		options.device_features = &features;
		c.ctx = Context::Create(Driver::Tessera, options);
		REQUIRE(c.ctx);
		c.block = 1;  // a probe buffer's requirements give the block size
		VkBuffer probe = c.Buffer(1, VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT);
		VkMemoryRequirements req;
		vkGetBufferMemoryRequirements(c.ctx->device(), probe, &req);
		vkDestroyBuffer(c.ctx->device(), probe, nullptr);
		c.block = req.alignment;
		c.words = uint32_t(c.block / 4);
		return c;
	}

	// A sparse buffer of `blocks` blocks, nothing bound.
	VkBuffer Buffer(uint32_t blocks, VkBufferCreateFlags flags) const {
		VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
		info.flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT | flags;
		info.size = blocks * block;
		info.usage =
		    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
		VkBuffer buffer = VK_NULL_HANDLE;
		REQUIRE(vkCreateBuffer(ctx->device(), &info, nullptr, &buffer) == VK_SUCCESS);
		return buffer;
	}

	// Memory for `blocks` blocks of `buffer`, mapped; word w of block b holds
	// seed + b * 0x10000 + w.
	VkDeviceMemory Memory(VkBuffer buffer, uint32_t blocks, uint32_t seed, uint32_t** mapped) const {
		VkMemoryRequirements req;
		vkGetBufferMemoryRequirements(ctx->device(), buffer, &req);
		uint32_t type = 0;
		while (!(req.memoryTypeBits & (1u << type))) ++type;
		VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		info.allocationSize = blocks * req.alignment;
		info.memoryTypeIndex = type;
		VkDeviceMemory memory = VK_NULL_HANDLE;
		REQUIRE(vkAllocateMemory(ctx->device(), &info, nullptr, &memory) == VK_SUCCESS);
		void* p = nullptr;
		REQUIRE(vkMapMemory(ctx->device(), memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS);
		*mapped = static_cast<uint32_t*>(p);
		for (uint32_t b = 0; b < blocks; ++b)
			for (uint32_t w = 0; w < words; ++w) (*mapped)[b * words + w] = seed + b * 0x10000 + w;
		return memory;
	}

	// Binds the given blocks and waits.
	void Bind(VkBuffer buffer, const std::vector<VkSparseMemoryBind>& binds) const {
		VkSparseBufferMemoryBindInfo buffer_binds{buffer, uint32_t(binds.size()), binds.data()};
		VkBindSparseInfo info{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
		info.bufferBindCount = 1;
		info.pBufferBinds = &buffer_binds;
		VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		VkFence fence = VK_NULL_HANDLE;
		REQUIRE(vkCreateFence(ctx->device(), &fci, nullptr, &fence) == VK_SUCCESS);
		REQUIRE(vkQueueBindSparse(ctx->queue(), 1, &info, fence) == VK_SUCCESS);
		REQUIRE(vkWaitForFences(ctx->device(), 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
		vkDestroyFence(ctx->device(), fence, nullptr);
	}

	// The buffer's words, copied out by a transfer.
	std::vector<uint32_t> Read(VkBuffer buffer, uint32_t blocks) const {
		TestBuffer out = ctx->CreateBuffer(blocks * block);
		ctx->Submit([&](VkCommandBuffer cb) {
			const VkBufferCopy region{0, 0, blocks * block};
			vkCmdCopyBuffer(cb, buffer, out.buffer, 1, &region);
			VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
			mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
			                     0, nullptr);
		});
		std::vector<uint32_t> read(blocks * words);
		std::memcpy(read.data(), out.data, read.size() * 4);
		ctx->Destroy(out);
		return read;
	}

	// Whether block `index` of `read` holds block `source` of the memory seeded with `seed`.
	bool HoldsBlock(const std::vector<uint32_t>& read, uint32_t index, uint32_t seed, uint32_t source) const {
		for (uint32_t w = 0; w < words; ++w)
			if (read[index * words + w] != seed + source * 0x10000 + w) return false;
		return true;
	}
};

}  // namespace

TEST_CASE(
    "Sparse buffers: the universal queue family binds, and sparse buffers take block-aligned memory of their own type",
    "[sparse]") {
	SparseContext c = SparseContext::Create();
	uint32_t count = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(c.ctx->physical_device(), &count, nullptr);
	std::vector<VkQueueFamilyProperties> families(count);
	vkGetPhysicalDeviceQueueFamilyProperties(c.ctx->physical_device(), &count, families.data());
	REQUIRE(count >= 1);
	CHECK((families[0].queueFlags & VK_QUEUE_SPARSE_BINDING_BIT) != 0);
	VkPhysicalDeviceProperties properties;
	vkGetPhysicalDeviceProperties(c.ctx->physical_device(), &properties);
	CHECK(properties.limits.sparseAddressSpaceSize >= (uint64_t(1) << 31));  // the spec's minimum
	VkBuffer buffer = c.Buffer(3, VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT);
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(c.ctx->device(), buffer, &req);
	CHECK(req.alignment == 65536);  // a block maps whole pages
	CHECK(req.size == 3 * req.alignment);
	CHECK(req.memoryTypeBits != 0);
	// Images take opaque binds (the CTS requires every optimal format then);
	// residency: sparse_image_test.cpp.
	VkImageFormatProperties image_properties;
	CHECK(vkGetPhysicalDeviceImageFormatProperties(
	          c.ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
	          VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_ALIASED_BIT,
	          &image_properties) == VK_SUCCESS);
	vkDestroyBuffer(c.ctx->device(), buffer, nullptr);
	CHECK(c.ctx->validation_errors() == 0);
}

TEST_CASE("Sparse buffers: blocks read and write the memory they are bound to, in any order, and can be rebound",
          "[sparse]") {
	SparseContext c = SparseContext::Create();
	VkDevice device = c.ctx->device();
	VkBuffer buffer = c.Buffer(4, VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT);
	uint32_t *a = nullptr, *b = nullptr;
	VkDeviceMemory memory_a = c.Memory(buffer, 2, 0xa0000000u, &a);
	VkDeviceMemory memory_b = c.Memory(buffer, 1, 0xb0000000u, &b);
	// Blocks 0, 1, 2: A's second block, B, A's first; block 3 unbound.
	c.Bind(buffer, {{0, c.block, memory_a, c.block, 0},
	                {c.block, c.block, memory_b, 0, 0},
	                {2 * c.block, c.block, memory_a, 0, 0}});
	std::vector<uint32_t> words = c.Read(buffer, 3);
	CHECK(c.HoldsBlock(words, 0, 0xa0000000u, 1));
	CHECK(c.HoldsBlock(words, 1, 0xb0000000u, 0));
	CHECK(c.HoldsBlock(words, 2, 0xa0000000u, 0));

	// A transfer into block 1 lands in B; one into the unbound block 3 is
	// dropped (it must not fault, whatever it reads back).
	c.ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdFillBuffer(cb, buffer, c.block + 256, 1024, 0x5eed5eedu);
		vkCmdFillBuffer(cb, buffer, 3 * c.block, c.block, 0x12345678u);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
		                     nullptr);
	});
	for (uint32_t w = 0; w < c.words; ++w) {
		INFO("word " << w);
		const bool filled = w >= 64 && w < 64 + 256;
		REQUIRE(b[w] == (filled ? 0x5eed5eedu : 0xb0000000u + w));
	}
	(void)c.Read(buffer, 4);

	// Rebinding: block 3 to B, block 0 unbound, block 2 to A's second block.
	c.Bind(buffer, {{3 * c.block, c.block, memory_b, 0, 0},
	                {0, c.block, VK_NULL_HANDLE, 0, 0},
	                {2 * c.block, c.block, memory_a, c.block, 0}});
	words = c.Read(buffer, 4);
	CHECK(c.HoldsBlock(words, 2, 0xa0000000u, 1));
	CHECK(words[3 * c.words + 64] == 0x5eed5eedu);
	CHECK(words[3 * c.words + 1000 % c.words] == 0xb0000000u + 1000 % c.words);
	CHECK(words[c.words + 64] == 0x5eed5eedu);  // block 1 is still B
	CHECK(c.ctx->validation_errors() == 0);

	vkDestroyBuffer(device, buffer, nullptr);
	vkFreeMemory(device, memory_a, nullptr);
	vkFreeMemory(device, memory_b, nullptr);
}

TEST_CASE("Sparse buffers: two buffers bound to one memory block see each other's writes (sparseResidencyAliased)",
          "[sparse]") {
	SparseContext c = SparseContext::Create();
	VkDevice device = c.ctx->device();
	const VkBufferCreateFlags flags = VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT | VK_BUFFER_CREATE_SPARSE_ALIASED_BIT;
	VkBuffer first = c.Buffer(2, flags), second = c.Buffer(1, flags);
	uint32_t* m = nullptr;
	VkDeviceMemory memory = c.Memory(first, 1, 0xc0000000u, &m);
	c.Bind(first, {{c.block, c.block, memory, 0, 0}});
	c.Bind(second, {{0, c.block, memory, 0, 0}});
	c.ctx->Submit([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, first, c.block, 4096, 0xa11a5edu); });
	const std::vector<uint32_t> words = c.Read(second, 1);
	for (uint32_t w = 0; w < c.words; ++w) {
		INFO("word " << w);
		REQUIRE(words[w] == (w < 1024 ? 0xa11a5edu : 0xc0000000u + w));  // (1024 words: the fill)
	}
	CHECK(m[0] == 0xa11a5edu);
	CHECK(c.ctx->validation_errors() == 0);
	vkDestroyBuffer(device, first, nullptr);
	vkDestroyBuffer(device, second, nullptr);
	vkFreeMemory(device, memory, nullptr);
}

TEST_CASE("Sparse buffers: a shader reads and writes a sparse buffer through its descriptor", "[sparse]") {
	// saxpy.comp, y = 2x + y, with y a sparse buffer whose two blocks are
	// the memory's two blocks swapped.
	SparseContext c = SparseContext::Create();
	VkDevice device = c.ctx->device();
	VkBuffer y = c.Buffer(2, VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT);
	uint32_t* raw = nullptr;
	VkDeviceMemory memory = c.Memory(y, 2, 0, &raw);
	auto* m = reinterpret_cast<float*>(raw);
	const uint32_t n = 2 * c.words;
	for (uint32_t i = 0; i < n; ++i) m[i] = float(i % 1000);
	c.Bind(y, {{0, c.block, memory, c.block, 0}, {c.block, c.block, memory, 0, 0}});
	TestBuffer x = c.ctx->CreateBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < n; ++i) reinterpret_cast<float*>(x.data)[i] = float(i % 7);
	ComputeKernel kernel(*c.ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "saxpy.spv"), 2);
	REQUIRE(kernel.ok());
	kernel.Bind(0, x.buffer);
	kernel.Bind(1, y);
	struct {
		float a;
		uint32_t n;
	} push{2.0f, n};
	c.ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &push, sizeof(push), (n + 63) / 64); });
	for (uint32_t i = 0; i < n; ++i) {
		// Element i of y lies in memory block 1 - i / words.
		const uint32_t at = (i + c.words) % n;
		INFO("element " << i);
		REQUIRE(m[at] == 2.0f * float(i % 7) + float(at % 1000));
	}
	CHECK(c.ctx->validation_errors() == 0);
	c.ctx->Destroy(x);
	vkDestroyBuffer(device, y, nullptr);
	vkFreeMemory(device, memory, nullptr);
}

TEST_CASE("Sparse images: opaque binds place the image's bytes in the memory bound", "[sparse]") {
	// A 256 x 256 RGBA8 image is 4 blocks of rows (sparse images keep rows of
	// texels): blocks 0-1 bound to the second half of memory A, blocks 2-3 to
	// the first half of memory B. A pattern copied in lands in A and B where
	// the binds say, and copies out again unchanged.
	SparseContext c = SparseContext::Create();
	VkDevice device = c.ctx->device();
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT;
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = {256, 256, 1};
	ici.mipLevels = ici.arrayLayers = 1;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
	VkImage image = VK_NULL_HANDLE;
	REQUIRE(vkCreateImage(device, &ici, nullptr, &image) == VK_SUCCESS);
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(device, image, &req);
	CHECK(req.alignment == c.block);
	REQUIRE(req.size == 4 * c.block);
	uint32_t count = 1;
	vkGetImageSparseMemoryRequirements(device, image, &count, nullptr);
	CHECK(count == 0);  // no residency: no sparse requirements
	uint32_t type = 0;
	while (!(req.memoryTypeBits & (1u << type))) ++type;
	VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	mai.allocationSize = 4 * c.block;
	mai.memoryTypeIndex = type;
	VkDeviceMemory a = VK_NULL_HANDLE, b = VK_NULL_HANDLE;
	REQUIRE(vkAllocateMemory(device, &mai, nullptr, &a) == VK_SUCCESS);
	REQUIRE(vkAllocateMemory(device, &mai, nullptr, &b) == VK_SUCCESS);
	const VkSparseMemoryBind binds[2] = {{0, 2 * c.block, a, 2 * c.block, 0}, {2 * c.block, 2 * c.block, b, 0, 0}};
	VkSparseImageOpaqueMemoryBindInfo opaque{image, 2, binds};
	VkBindSparseInfo info{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
	info.imageOpaqueBindCount = 1;
	info.pImageOpaqueBinds = &opaque;
	REQUIRE(vkQueueBindSparse(c.ctx->queue(), 1, &info, VK_NULL_HANDLE) == VK_SUCCESS);
	REQUIRE(vkQueueWaitIdle(c.ctx->queue()) == VK_SUCCESS);

	const VkDeviceSize bytes = 256 * 256 * 4;
	TestBuffer in = c.ctx->CreateBuffer(bytes), out = c.ctx->CreateBuffer(bytes);
	for (VkDeviceSize i = 0; i < bytes / 4; ++i) reinterpret_cast<uint32_t*>(in.data)[i] = uint32_t(i * 2654435761u);
	c.ctx->Submit([&](VkCommandBuffer cb) {
		c.ctx->Transition(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {256, 256, 1};
		vkCmdCopyBufferToImage(cb, in.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
		c.ctx->Transition(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
		                     nullptr);
	});
	CHECK(std::memcmp(in.data, out.data, size_t(bytes)) == 0);
	// The image's rows are tightly packed (vkGetImageSubresourceLayout would
	// say so for a linear image; a sparse one keeps rows): its first half lies
	// in A's second half, its second in B's first.
	void* pa = nullptr;
	void* pb = nullptr;
	REQUIRE(vkMapMemory(device, a, 0, VK_WHOLE_SIZE, 0, &pa) == VK_SUCCESS);
	REQUIRE(vkMapMemory(device, b, 0, VK_WHOLE_SIZE, 0, &pb) == VK_SUCCESS);
	CHECK(std::memcmp(static_cast<uint8_t*>(pa) + 2 * c.block, in.data, size_t(2 * c.block)) == 0);
	CHECK(std::memcmp(pb, in.data + 2 * c.block, size_t(2 * c.block)) == 0);
	vkUnmapMemory(device, a);
	vkUnmapMemory(device, b);
	c.ctx->Destroy(in);
	c.ctx->Destroy(out);
	vkDestroyImage(device, image, nullptr);
	vkFreeMemory(device, a, nullptr);
	vkFreeMemory(device, b, nullptr);
	CHECK(c.ctx->validation_errors() == 0);
}
