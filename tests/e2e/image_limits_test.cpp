// Image size limits, through the loader: maxImageDimension3D and
// maxImageDimensionCube agree with vkGetPhysicalDeviceImageFormatProperties,
// images of those sizes are created and sized in 64 bits, memory beyond the
// heap is refused cleanly, and a volume as deep as the limit round-trips and
// samples to its last slice as on lavapipe.
#include "image_scene.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

// Lavapipe 22.3's figures, which Tessera matches.
constexpr uint32_t kMaxDimension3D = 4096;
constexpr uint32_t kMaxDimensionCube = 32768;

VkImageCreateInfo ImageInfo(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mips, uint32_t layers,
                            VkImageCreateFlags flags = 0) {
	VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	info.flags = flags;
	info.imageType = type;
	info.format = format;
	info.extent = extent;
	info.mipLevels = mips;
	info.arrayLayers = layers;
	info.samples = VK_SAMPLE_COUNT_1_BIT;
	info.tiling = VK_IMAGE_TILING_OPTIMAL;
	info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	return info;
}

// Bytes of texels (no padding) of a full-chain image, summed in 64 bits.
uint64_t TexelBytes(VkExtent3D extent, uint32_t mips, uint32_t layers, uint32_t texel_size) {
	uint64_t total = 0;
	for (uint32_t l = 0; l < mips; ++l)
		total += uint64_t(std::max(1u, extent.width >> l)) * std::max(1u, extent.height >> l) *
		         std::max(1u, extent.depth >> l) * layers * texel_size;
	return total;
}

}  // namespace

TEST_CASE("maxImageDimension3D and maxImageDimensionCube match lavapipe and the image format properties",
          "[image][limits]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver);
		REQUIRE(ctx);
		VkPhysicalDeviceProperties props;
		vkGetPhysicalDeviceProperties(ctx->physical_device(), &props);
		CHECK(props.limits.maxImageDimension3D == kMaxDimension3D);
		CHECK(props.limits.maxImageDimensionCube == kMaxDimensionCube);
		CHECK(ctx->validation_errors() == 0);
	}
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkImageFormatProperties volume{}, cube{}, plane{};
	const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D,
	                                                 VK_IMAGE_TILING_OPTIMAL, usage, 0, &volume) == VK_SUCCESS);
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_OPTIMAL, usage,
	                                                 VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &cube) == VK_SUCCESS);
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_OPTIMAL, usage, 0, &plane) == VK_SUCCESS);
	// VkImageFormatProperties (Vulkan 1.3 §47.x): maxExtent covers the
	// limits, with a full mip chain for it.
	CHECK(volume.maxExtent.width == kMaxDimension3D);
	CHECK(volume.maxExtent.height == kMaxDimension3D);
	CHECK(volume.maxExtent.depth == kMaxDimension3D);
	CHECK(volume.maxMipLevels == 13);
	CHECK(cube.maxExtent.width == kMaxDimensionCube);
	CHECK(cube.maxExtent.height == kMaxDimensionCube);
	CHECK(cube.maxMipLevels == 16);
	CHECK(cube.maxArrayLayers >= 6);
	CHECK(plane.maxExtent.width == 16384);  // maxImageDimension2D, unchanged
	CHECK(plane.maxMipLevels == 15);
	// An image may take the whole heap, as a buffer may (maxBufferSize).
	VkPhysicalDeviceMemoryProperties memory;
	vkGetPhysicalDeviceMemoryProperties(ctx->physical_device(), &memory);
	for (const VkImageFormatProperties* p : {&volume, &cube, &plane})
		CHECK(p->maxResourceSize == memory.memoryHeaps[0].size);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("images as large as the limits are sized in 64 bits and refused memory cleanly", "[image][limits]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	auto requirements = [&](const VkImageCreateInfo& info) {
		VkImage image = VK_NULL_HANDLE;
		REQUIRE(vkCreateImage(device, &info, nullptr, &image) == VK_SUCCESS);
		VkMemoryRequirements r;
		vkGetImageMemoryRequirements(device, image, &r);
		vkDestroyImage(device, image, nullptr);
		return r;
	};
	// A thin slab of the widest volume, 4096 x 4 x 4 with its full chain.
	VkMemoryRequirements slab =
	    requirements(ImageInfo(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {kMaxDimension3D, 4, 4}, 13, 1));
	CHECK(slab.size >= TexelBytes({kMaxDimension3D, 4, 4}, 13, 1, 4));
	CHECK(slab.size < 2 * TexelBytes({kMaxDimension3D, 4, 4}, 13, 1, 4));
	// A cube of the largest faces, 6 x 32768^2 RGBA8 texels and 16 levels:
	// 24 GiB and more, past 32 bits.
	VkMemoryRequirements cube =
	    requirements(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kMaxDimensionCube, kMaxDimensionCube, 1},
	                           16, 6, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT));
	const uint64_t cube_texels = TexelBytes({kMaxDimensionCube, kMaxDimensionCube, 1}, 16, 6, 4);
	CHECK(cube.size >= cube_texels);
	CHECK(cube.size < cube_texels + cube_texels / 16);
	CHECK(ctx->validation_errors() == 0);

	// The whole 4096^3 RGBA32F volume is 1 TiB: created and sized exactly,
	// but no heap holds it. Without the validation layer, which rightly
	// objects to an allocation beyond the heap: the driver itself must
	// refuse it.
	ContextOptions unchecked;
	unchecked.validation = false;
	auto raw = Context::Create(Driver::Tessera, unchecked);
	REQUIRE(raw);
	VkImage huge = VK_NULL_HANDLE;
	const VkImageCreateInfo huge_info = ImageInfo(VK_IMAGE_TYPE_3D, VK_FORMAT_R32G32B32A32_SFLOAT,
	                                              {kMaxDimension3D, kMaxDimension3D, kMaxDimension3D}, 1, 1);
	REQUIRE(vkCreateImage(raw->device(), &huge_info, nullptr, &huge) == VK_SUCCESS);
	VkMemoryRequirements r;
	vkGetImageMemoryRequirements(raw->device(), huge, &r);
	CHECK(r.size == uint64_t(1) << 40);
	VkPhysicalDeviceMemoryProperties memory;
	vkGetPhysicalDeviceMemoryProperties(raw->physical_device(), &memory);
	uint32_t type = 0;
	while (type < memory.memoryTypeCount && !(r.memoryTypeBits & (1u << type))) ++type;
	REQUIRE(type < memory.memoryTypeCount);
	if (memory.memoryHeaps[memory.memoryTypes[type].heapIndex].size < r.size) {
		VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		mai.allocationSize = r.size;
		mai.memoryTypeIndex = type;
		VkDeviceMemory allocation = VK_NULL_HANDLE;
		CHECK(vkAllocateMemory(raw->device(), &mai, nullptr, &allocation) == VK_ERROR_OUT_OF_DEVICE_MEMORY);
		CHECK(allocation == VK_NULL_HANDLE);
	}
	vkDestroyImage(raw->device(), huge, nullptr);
}

TEST_CASE("a volume maxImageDimension3D deep round-trips, samples and stores to its last slice as on lavapipe",
          "[image][limits]") {
	// volume: 1 x 1 x 4096 R32_UINT with all 13 levels, every texel
	// distinct. target: the same depth, one level, written by the shader.
	ImageSpec volume;
	volume.format = VK_FORMAT_R32_UINT;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.view_type = VK_IMAGE_VIEW_TYPE_3D;
	volume.extent = {1, 1, kMaxDimension3D};
	volume.mips = 13;
	auto word = [](uint32_t level, uint32_t z) { return level * 100000u + z * 3u + 1u; };
	std::vector<uint32_t> words;
	for (uint32_t l = 0; l < volume.mips; ++l)
		for (uint32_t z = 0; z < (kMaxDimension3D >> l); ++z) words.push_back(word(l, z));
	volume.data = Bytes(words);
	ImageSpec target = volume;
	target.mips = 1;
	target.storage = true;
	target.data = std::vector<uint8_t>(kMaxDimension3D * 4, 0);

	Scene scene{"image_deep_volume.spv"};
	scene.images = {volume, target};
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(16 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}}};
	auto [ours, reference] = RunBoth(scene);

	// The upload comes back unchanged, every level.
	CHECK(ours.images[0] == volume.data);
	CHECK(reference.images[0] == volume.data);
	std::vector<uint32_t> expected;
	const uint32_t slices[4] = {4095, 4094, 2049, 0};
	for (uint32_t z : slices) {
		for (int k = 0; k < 2; ++k)  // texelFetch, then textureLod
			expected.insert(expected.end(), {word(0, z), 0, 0, 1});
		expected.insert(expected.end(), {word(4, z >> 4), 0, 0, 1});
		expected.insert(expected.end(), {1, 1, kMaxDimension3D, 13});
	}
	CHECK(Values<uint32_t>(ours.buffers[0]) == expected);
	CHECK(Values<uint32_t>(reference.buffers[0]) == expected);
	std::vector<uint32_t> stored(kMaxDimension3D, 0);
	for (uint32_t i = 0; i < 4; ++i) stored[kMaxDimension3D - 1 - i] = 1000 + i;
	CHECK(Values<uint32_t>(ours.images[1]) == stored);
	CHECK(Values<uint32_t>(reference.images[1]) == stored);
}
