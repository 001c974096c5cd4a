// Storage images, texel buffers, descriptor arrays and view ranges in
// compute shaders, through the loader: the corpus shaders image_*.comp run
// on Tessera and on lavapipe with the same images, samplers and buffers, and
// the results are compared. Tolerances: image_scene.h.
#include "icd/vulkan_newer.h"
#include "image_scene.h"

using namespace tessera::test;
using namespace tessera::test::image;

// Run twice: views at offset 0, and at offsets of one texel (of one
// component's 4 bytes for R32_UINT's atomics at 12), below
// minTexelBufferOffsetAlignment (16), which the
// *TexelBufferOffsetSingleTexelAlignment properties allow. Both runs must
// give the same results.
TEST_CASE("texel buffers: fetch, load, store and atomics match lavapipe", "[image]") {
	Outcome first;
	for (bool offsets : {false, true}) {
		CAPTURE(offsets);
		Scene scene{"image_texel_buffer.spv"};
		scene.texel_buffers = {
		    {VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(64 * 4, 1), offsets ? 4u : 0u},
		    {VK_FORMAT_R32G32B32A32_SFLOAT, 16, true, std::vector<uint8_t>(64 * 16, 0), offsets ? 16u : 0u},
		    {VK_FORMAT_R32_UINT, 4, true, Bytes(std::vector<uint32_t>(8, 5)), offsets ? 12u : 0u},
		    {VK_FORMAT_R16G16B16A16_UINT, 8, true, RandomBytes(64 * 8, 2), offsets ? 8u : 0u},
		};
		scene.buffers = {std::vector<uint8_t>(64 * 16 + 16 + 16 + 64 * 16, 0xcd)};
		scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
		                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, {0}},
		                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {1}},
		                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {2}},
		                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {3}}};
		auto [ours, reference] = RunBoth(scene);
		// Everything but the texel read outside the view (robustBufferAccess
		// lets it read any of several values) is exact.
		std::vector<uint8_t> a = ours.buffers[0], b = reference.buffers[0];
		std::vector<float> outside =
		    Values<float>(std::vector<uint8_t>(a.begin() + 64 * 16 + 16, a.begin() + 64 * 16 + 32));
		CHECK(outside == std::vector<float>{0, 0, 0, 0});  // Tessera: zero (robustBufferAccess2's rule)
		std::fill_n(a.begin() + 64 * 16 + 16, 16, 0);
		std::fill_n(b.begin() + 64 * 16 + 16, 16, 0);
		// Fetched RGBA8: exact up to lavapipe's UNORM8 conversion (one ulp,
		// see the NEAREST test); the rest exact.
		CompareFloats(std::vector<uint8_t>(a.begin(), a.begin() + 64 * 16),
		              std::vector<uint8_t>(b.begin(), b.begin() + 64 * 16), 1e-6f);
		CHECK(std::vector<uint8_t>(a.begin() + 64 * 16, a.end()) == std::vector<uint8_t>(b.begin() + 64 * 16, b.end()));
		std::vector<float> fetched = Values<float>(a);
		CHECK(fetched[0] == float(scene.texel_buffers[0].data[63 * 4]) / 255.0f);
		CHECK(ours.texel_buffers == reference.texel_buffers);
		std::vector<uint32_t> counters = Values<uint32_t>(ours.texel_buffers[2]);
		for (uint32_t k = 0; k < 8; ++k) CHECK(counters[k] == 5 + (k + (k + 56)) * 8 / 2);
		if (!offsets) {
			first = ours;
		} else {
			CHECK(ours.buffers == first.buffers);
			CHECK(ours.texel_buffers == first.texel_buffers);
		}
	}
}

TEST_CASE("2D views of 3D image slices sample and store as on lavapipe", "[image]") {
	Scene scene{"image_2d_view_of_3d.spv"};
	ImageSpec volume;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.extent = {4, 4, 4};
	volume.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
	volume.view_base_layer = 2;  // depth slice 2
	volume.view_layers = 1;
	volume.data = RandomBytes(4 * 4 * 4 * 4, 11);
	ImageSpec target;
	target.format = VK_FORMAT_R32_UINT;
	target.type = VK_IMAGE_TYPE_3D;
	target.extent = {8, 8, 4};
	target.mips = 2;
	target.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
	target.storage = true;
	target.view_base_level = target.view_levels = 1;  // level 1 (4x4x2), slice 1
	target.view_base_layer = target.view_layers = 1;
	target.data.assign(ImageBytes(target), 0);
	scene.images = {volume, target};
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(16 * 16 * 2 + 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}}};
	auto [ours, reference] = RunBoth(scene);
	std::vector<float> got = Values<float>(ours.buffers[0]);
	// texelFetch: slice 2's texels exactly.
	for (int i = 0; i < 16; ++i)
		for (int c = 0; c < 4; ++c) {
			CAPTURE(i, c);
			CHECK(got[size_t(i) * 4 + c] == float(volume.data[size_t(2 * 16 + i) * 4 + c]) / 255.0f);
		}
	// Fetched values within lavapipe's UNORM8 conversion, filtered ones within
	// the LINEAR bound of image_scene.h.
	CompareFloats(std::vector<uint8_t>(ours.buffers[0].begin(), ours.buffers[0].begin() + 16 * 16),
	              std::vector<uint8_t>(reference.buffers[0].begin(), reference.buffers[0].begin() + 16 * 16), 1e-6f);
	CompareFloats(
	    std::vector<uint8_t>(ours.buffers[0].begin() + 16 * 16, ours.buffers[0].begin() + 16 * 16 * 2),
	    std::vector<uint8_t>(reference.buffers[0].begin() + 16 * 16, reference.buffers[0].begin() + 16 * 16 * 2),
	    4.0f / 256.0f);
	std::vector<int32_t> sizes = Values<int32_t>(
	    std::vector<uint8_t>(ours.buffers[0].begin() + 16 * 16 * 2, ours.buffers[0].begin() + 16 * 16 * 2 + 16));
	CHECK(sizes == std::vector<int32_t>{4, 4, 4, 4});
	// The storage image: only slice 1 of level 1 written.
	std::vector<uint32_t> texels = Values<uint32_t>(ours.images[1]);
	const size_t level0 = 8 * 8 * 4;
	for (size_t t = 0; t < texels.size(); ++t) {
		CAPTURE(t);
		const bool written = t >= level0 + 16 && t < level0 + 32;
		CHECK(texels[t] == (written ? uint32_t(1000 + t - level0 - 16) : 0u));
	}
	CHECK(ours.images[1] == reference.images[1]);
}

namespace {

// A 20x12 BC1 image of `layers` layers and `mips` levels, viewed as
// R32G32_UINT (one 8-byte block a texel), filled from `seed`; `storage`: a
// storage image too, which EXTENDED_USAGE allows through the view's format.
ImageSpec BlockViewImage(uint32_t layers, uint32_t mips, bool storage, uint32_t seed) {
	ImageSpec image;
	image.format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
	image.extent = {20, 12, 1};
	image.layers = layers;
	image.mips = mips;
	image.view_type = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
	image.block_bytes = 8;
	image.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
	              (storage ? VK_IMAGE_CREATE_EXTENDED_USAGE_BIT : 0);
	image.storage = storage;
	image.view_format = VK_FORMAT_R32G32_UINT;
	image.data = RandomBytes(ImageBytes(image), seed);
	return image;
}

}  // namespace

// VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT: an R32G32_UINT view of a
// BC1 image has one texel per 8-byte block, and its extent is the image's in
// blocks, rounded up (20x12 texels: 5x3 blocks, level 1 3x2; such views have
// one level and one layer, VUID-VkImageViewCreateInfo-image-07072). Normalized
// coordinates, sizes and the storage view's bounds all depend on it (Tessera
// used the image's extent in texels, four times too wide: texture() read the
// wrong blocks). Storage usage on a BC1 image comes from EXTENDED_USAGE.
TEST_CASE("uncompressed views of BC1 images see one texel a block, as on lavapipe", "[image]") {
	Scene scene{"image_block_view.spv"};
	ImageSpec source = BlockViewImage(1, 2, false, 41);
	source.view_levels = 1;
	ImageSpec level1 = source;
	level1.view_base_level = 1;
	const ImageSpec target = BlockViewImage(1, 1, true, 42);
	scene.images = {source, target, level1};
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(32 + 2 * 15 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {2}, {0}}};
	auto [ours, reference] = RunBoth(scene);
	const std::vector<uint32_t> got = Values<uint32_t>(ours.buffers[0]);
	const std::vector<uint32_t> blocks = Values<uint32_t>(source.data);  // two words a block
	CHECK(std::vector<uint32_t>(got.begin(), got.begin() + 8) == std::vector<uint32_t>{5, 3, 3, 2, 5, 3, 0, 0});
	for (uint32_t i = 0; i < 15; ++i) {
		CAPTURE(i);
		const uint32_t* level0 = &got[8 + 4 * i];
		CHECK(std::vector<uint32_t>(level0, level0 + 4) ==
		      std::vector<uint32_t>{blocks[2 * i], blocks[2 * i + 1], blocks[2 * i], blocks[2 * i + 1]});
		const uint32_t x = i % 5, y = i / 5;
		const uint32_t* level1 = &got[8 + 60 + 4 * i];
		const size_t b = 2 * (15 + y * 3 + x);  // level 1 follows level 0's 15 blocks
		CHECK(std::vector<uint32_t>(level1, level1 + 2) ==
		      (x < 3 && y < 2 ? std::vector<uint32_t>{blocks[b], blocks[b + 1]} : std::vector<uint32_t>{0, 0}));
	}
	// The target's blocks: the source's level 0, mirrored in x.
	const std::vector<uint32_t> stored = Values<uint32_t>(ours.images[1]);
	for (uint32_t i = 0; i < 15; ++i) {
		CAPTURE(i);
		const uint32_t x = i % 5, y = i / 5, from = y * 5 + (4 - x);
		CHECK(stored[2 * i] == blocks[2 * from]);
		CHECK(stored[2 * i + 1] == blocks[2 * from + 1]);
	}
	CHECK(ours.buffers == reference.buffers);
	CHECK(ours.images == reference.images);
}

// The same through 2D array views of two layers, which
// VkPhysicalDeviceMaintenance6PropertiesKHR::blockTexelViewCompatibleMultipleLayers
// allows. Tessera alone, without the validation layer: lavapipe 22.3 and the
// layer's 1.3.239 release predate VK_KHR_maintenance6.
TEST_CASE("uncompressed array views of two-layer BC1 images see each layer's blocks", "[image][maintenance6]") {
	ContextOptions options = Options(Driver::Tessera);
	VkPhysicalDeviceMaintenance6FeaturesKHR m6{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR};
	m6.maintenance6 = VK_TRUE;
	VkPhysicalDeviceFeatures2 features = *static_cast<const VkPhysicalDeviceFeatures2*>(options.device_features);
	m6.pNext = features.pNext;
	features.pNext = &m6;
	options.device_features = &features;
	options.device_extensions.push_back(VK_KHR_MAINTENANCE_6_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceMaintenance6PropertiesKHR m6_properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &m6_properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	REQUIRE(m6_properties.blockTexelViewCompatibleMultipleLayers == VK_TRUE);

	Scene scene{"image_block_view_layers.spv"};
	const ImageSpec source = BlockViewImage(2, 1, false, 43);
	const ImageSpec target = BlockViewImage(2, 1, true, 44);
	scene.images = {source, target};
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(32 + 30 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}}};
	const Outcome ours = Run(*ctx, scene);
	const std::vector<uint32_t> got = Values<uint32_t>(ours.buffers[0]);
	const std::vector<uint32_t> blocks = Values<uint32_t>(source.data);  // two words a block, layer after layer
	CHECK(std::vector<uint32_t>(got.begin(), got.begin() + 8) == std::vector<uint32_t>{5, 3, 2, 0, 5, 3, 2, 0});
	for (uint32_t i = 0; i < 30; ++i) {
		CAPTURE(i);
		const uint32_t* texel = &got[8 + 4 * i];
		CHECK(std::vector<uint32_t>(texel, texel + 4) ==
		      std::vector<uint32_t>{blocks[2 * i], blocks[2 * i + 1], blocks[2 * i], blocks[2 * i + 1]});
	}
	// The target's blocks: the source's, layers swapped.
	const std::vector<uint32_t> stored = Values<uint32_t>(ours.images[1]);
	for (uint32_t i = 0; i < 30; ++i) {
		CAPTURE(i);
		const uint32_t from = (i + 15) % 30;
		CHECK(stored[2 * i] == blocks[2 * from]);
		CHECK(stored[2 * i + 1] == blocks[2 * from + 1]);
	}
}

TEST_CASE("VK_EXT_image_sliced_view_of_3d: a storage view of some slices stores there, sampled it sees the level",
          "[image]") {
	// Level 1 (4x4x8) of an 8x8x16 R32_UINT image through a view of slices
	// 2..4: imageSize is (4, 4, 3) and stores land in those slices only;
	// the same view as a sampled image sees all 8 slices. Tessera alone,
	// without the validation layer: lavapipe 22.3 and the layer's 1.3.239
	// release predate the extension.
	Scene scene{"image_sliced_view_of_3d.spv"};
	ImageSpec volume;
	volume.format = VK_FORMAT_R32_UINT;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.view_type = VK_IMAGE_VIEW_TYPE_3D;
	volume.extent = {8, 8, 16};
	volume.mips = 2;
	volume.storage = true;
	volume.view_base_level = volume.view_levels = 1;
	volume.view_slice_offset = 2;
	volume.view_slice_count = 3;
	volume.data.assign(ImageBytes(volume), 0);
	scene.images = {volume};
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {0}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT sliced{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT};
	sliced.imageSlicedViewOf3D = VK_TRUE;
	ContextOptions options = Options(Driver::Tessera);
	sliced.pNext = const_cast<void*>(options.device_features);
	options.device_features = &sliced;
	options.device_extensions.push_back(VK_EXT_IMAGE_SLICED_VIEW_OF_3D_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	const Outcome ours = Run(*ctx, scene);
	CHECK(Values<int32_t>(ours.buffers[0]) == std::vector<int32_t>{4, 4, 3, 8});
	const std::vector<uint32_t> texels = Values<uint32_t>(ours.images[0]);
	const size_t level0 = 8 * 8 * 16, slice = 4 * 4;
	REQUIRE(texels.size() == level0 + slice * 8);
	for (size_t t = 0; t < texels.size(); ++t) {
		CAPTURE(t);
		const bool written = t >= level0 + 2 * slice && t < level0 + 5 * slice;
		CHECK(texels[t] == (written ? uint32_t(1000 + t - level0 - 2 * slice) : 0u));
	}
}

TEST_CASE("float atomics on R32_SFLOAT storage images match the host and lavapipe", "[image][atomic_float]") {
	Scene scene{"image_float_atomics.spv"};
	ImageSpec sums;
	sums.format = VK_FORMAT_R32_SFLOAT;
	sums.extent = {4, 4, 1};
	sums.storage = true;
	sums.data.assign(4 * 4 * 4, 0);
	ImageSpec extremes = sums;
	extremes.extent = {4, 2, 1};
	extremes.data = Bytes(std::vector<float>{100, 100, 100, 100, -100, -100, -100, -100});
	ImageSpec swapped = sums;
	swapped.extent = {1, 1, 1};
	swapped.data = Bytes(std::vector<float>{-1.0f});
	scene.images = {sums, extremes, swapped};
	scene.buffers = {std::vector<uint8_t>(256 * 4, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0}};
	for (int k = 0; k < 3; ++k) scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {k}});
	scene.groups[0] = scene.groups[1] = 2;
	auto [ours, reference] = RunBoth(scene);
	std::vector<float> expected_sums(16, 0.0f), expected_extremes{100, 100, 100, 100, -100, -100, -100, -100};
	for (int y = 0; y < 16; ++y)
		for (int x = 0; x < 16; ++x) {
			const int index = y * 16 + x;
			const float v = float((index * 7) % 13) - 6.0f;
			expected_sums[(y % 4) * 4 + x % 4] += v;
			float& low = expected_extremes[index % 4];
			float& high = expected_extremes[4 + index % 4];
			low = std::fmin(low, v * 0.5f + float(index % 5));
			high = std::fmax(high, v * 0.5f - float(index % 3));
		}
	CHECK(Values<float>(ours.images[0]) == expected_sums);
	CHECK(Values<float>(ours.images[1]) == expected_extremes);
	CHECK(ours.images[0] == reference.images[0]);
	CHECK(ours.images[1] == reference.images[1]);
	// The exchanges form one chain: the old values and the final one are
	// -1 and every invocation's index, each once.
	std::vector<float> chain = Values<float>(ours.buffers[0]);
	chain.push_back(Values<float>(ours.images[2])[0]);
	std::sort(chain.begin(), chain.end());
	CHECK(chain.front() == -1.0f);
	for (int k = 0; k < 256; ++k) CHECK(chain[size_t(k) + 1] == float(k));
}

TEST_CASE("storage images: load, store, sizes and atomics match lavapipe", "[image]") {
	Scene scene{"image_storage.spv"};
	ImageSpec src;
	src.extent = {16, 16, 1};
	src.storage = true;
	src.data = RandomBytes(16 * 16 * 4, 3);
	ImageSpec dst = src;
	dst.format = VK_FORMAT_R16G16B16A16_SFLOAT;
	dst.texel_size = 8;
	dst.data.assign(16 * 16 * 8, 0);
	ImageSpec layers;
	layers.format = VK_FORMAT_R32_SFLOAT;
	layers.extent = {8, 8, 1};
	layers.layers = 3;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	layers.storage = true;
	std::vector<float> layer_values(8 * 8 * 3);
	for (size_t i = 0; i < layer_values.size(); ++i) layer_values[i] = float(i) * 0.25f - 7.0f;
	layers.data = Bytes(layer_values);
	ImageSpec volume;
	volume.format = VK_FORMAT_R8G8B8A8_SNORM;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.view_type = VK_IMAGE_VIEW_TYPE_3D;
	volume.extent = {4, 4, 4};
	volume.storage = true;
	volume.data = RandomBytes(4 * 4 * 4 * 4, 4);
	for (uint8_t& b : volume.data)
		if (b == 0x80) b = 0x81;  // -128 and -127 both read -1.0
	ImageSpec cube;
	cube.format = VK_FORMAT_R8G8B8A8_UINT;
	cube.extent = {8, 8, 1};
	cube.layers = 6;
	cube.view_type = VK_IMAGE_VIEW_TYPE_CUBE;
	cube.cube_compatible = true;
	cube.storage = true;
	cube.data = RandomBytes(8 * 8 * 6 * 4, 5);
	ImageSpec counters;
	counters.format = VK_FORMAT_R32_UINT;
	counters.extent = {8, 4, 1};
	counters.storage = true;
	counters.data.assign(8 * 4 * 4, 0);
	ImageSpec signed_counters = counters;
	signed_counters.format = VK_FORMAT_R32_SINT;
	scene.images = {src, dst, layers, volume, cube, counters, signed_counters};
	scene.buffers = {std::vector<uint8_t>(256 * 16 + 4 * 16 + 256 * 4, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0}};
	for (int k = 0; k < 7; ++k) scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {k}});
	scene.groups[0] = scene.groups[1] = 2;
	auto [ours, reference] = RunBoth(scene);
	// Loaded RGBA8 values: exact up to lavapipe's UNORM8 conversion (one ulp,
	// see the NEAREST test); sizes and the rest exact.
	const size_t loaded_bytes = 256 * 16;
	CompareFloats(std::vector<uint8_t>(ours.buffers[0].begin(), ours.buffers[0].begin() + loaded_bytes),
	              std::vector<uint8_t>(reference.buffers[0].begin(), reference.buffers[0].begin() + loaded_bytes),
	              1e-6f);
	CHECK(std::vector<uint8_t>(ours.buffers[0].begin() + loaded_bytes, ours.buffers[0].end()) ==
	      std::vector<uint8_t>(reference.buffers[0].begin() + loaded_bytes, reference.buffers[0].end()));
	// The RGBA16F image: Vulkan 1.3 §3.9.2 lets a float-to-half conversion
	// round to nearest or toward zero (lavapipe truncates): one unit apart.
	std::vector<uint16_t> ours_halves = Values<uint16_t>(ours.images[1]),
	                      reference_halves = Values<uint16_t>(reference.images[1]);
	for (size_t i = 0; i < ours_halves.size(); ++i) {
		INFO("half " << i);
		REQUIRE(std::abs(int(ours_halves[i]) - int(reference_halves[i])) <= 1);
	}
	for (size_t k : {0, 2, 3, 4}) {
		INFO("image " << k);
		CHECK(ours.images[k] == reference.images[k]);
	}
	// Counters: the compare-exchange at (7, 3) is won by whichever invocation
	// runs first; everything else is order-independent.
	std::vector<uint32_t> a = Values<uint32_t>(ours.images[5]), b = Values<uint32_t>(reference.images[5]);
	CHECK(a[3 * 8 + 7] != 0);
	a[3 * 8 + 7] = b[3 * 8 + 7] = 0;
	CHECK(a == b);
	CHECK(a[0] == 16);           // 256 invocations over 16 texels
	CHECK(a[1 * 8 + 5] == 255);  // the maximum index
	CHECK(ours.images[6] == reference.images[6]);
}

TEST_CASE("descriptor arrays of images, samplers and texel buffers indexed per lane match lavapipe", "[image]") {
	Scene scene{"image_arrays.spv"};
	for (uint32_t k = 0; k < 3; ++k) {
		ImageSpec image;
		image.extent = {4, 4, 1};
		image.data = RandomBytes(4 * 4 * 4, 20 + k);
		scene.images.push_back(image);
	}
	for (uint32_t k = 0; k < 2; ++k) {
		ImageSpec storage;
		storage.format = VK_FORMAT_R32_UINT;
		storage.extent = {4, 5, 1};
		storage.storage = true;
		storage.data = Bytes(std::vector<uint32_t>(4 * 5, 100 * k));
		scene.images.push_back(storage);
	}
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT),
	                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.texel_buffers = {{VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 30)},
	                       {VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 31)}};
	scene.buffers = {std::vector<uint8_t>(12 * 4 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {0, 1, 2}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLER, {}, {0, 1}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0, 1, 2}, {1, 1, 1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {3, 4}},
	                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, {0, 1}}};
	scene.groups[0] = 12;
	Scene constant_indices = scene;
	constant_indices.shader = "image_arrays_constant.spv";
	auto [ours, reference] = RunBoth(scene, &constant_indices);
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
	CHECK(ours.images[3] == reference.images[3]);
	CHECK(ours.images[4] == reference.images[4]);
}

TEST_CASE("storage images without a declared format read and write the view's format", "[image]") {
	// lavapipe 22.3 lacks shaderStorageImageReadWithoutFormat: the copies are
	// checked against their sources (every texel of these formats converts
	// to its shader value and back exactly).
	Scene scene{"image_unformatted.spv"};
	const VkFormat formats[4] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
	                             VK_FORMAT_R32_UINT};
	const uint32_t sizes[4] = {4, 8, 4, 4};
	for (uint32_t k = 0; k < 4; ++k) {
		ImageSpec src;
		src.format = formats[k];
		src.texel_size = sizes[k];
		src.extent = {8, 8, 1};
		src.storage = true;
		std::vector<float> floats(8 * 8);
		std::vector<uint16_t> halves(8 * 8 * 4);
		for (size_t i = 0; i < floats.size(); ++i) floats[i] = float(i) * 0.37f - 5.0f;
		for (size_t i = 0; i < halves.size(); ++i) halves[i] = uint16_t(0x3400 + i * 13);
		src.data = k == 1 ? Bytes(halves) : k == 2 ? Bytes(floats) : RandomBytes(8 * 8 * 4, 40 + k);
		ImageSpec dst = src;
		dst.data.assign(src.data.size(), 0);
		scene.images.push_back(src);
		scene.images.push_back(dst);
		scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {int(2 * k)}});
		scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {int(2 * k + 1)}});
	}
	Outcome ours = RunOn(Driver::Tessera, scene);
	for (uint32_t k = 0; k < 4; ++k) {
		INFO("format " << formats[k]);
		CHECK(ours.images[2 * k + 1] == scene.images[2 * k].data);
	}
}

TEST_CASE("views of a level range and a layer range match lavapipe", "[image]") {
	Scene scene{"image_view_range.spv"};
	ImageSpec levels = MippedTexture(90);
	levels.view_base_level = 1;
	levels.view_levels = 3;
	ImageSpec layers;
	layers.extent = {8, 8, 1};
	layers.layers = 4;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	layers.view_base_layer = 1;
	layers.view_layers = 2;
	layers.data = RandomBytes(ImageBytes(layers), 91);
	ImageSpec storage;
	storage.extent = {16, 16, 1};
	storage.mips = 2;
	storage.storage = true;
	storage.view_base_level = 1;
	storage.view_levels = 1;
	storage.data = RandomBytes(ImageBytes(storage), 92);
	scene.images = {levels, layers, storage};
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
	scene.buffers = {std::vector<uint8_t>(64 * 6 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {1}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {2}}};
	auto [ours, reference] = RunBoth(scene);
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
	CHECK(ours.images[2] == reference.images[2]);  // level 0 untouched, level 1 written
	std::vector<float> v = Values<float>(ours.buffers[0]);
	CHECK(v[5 * 4 + 0] == 8.0f + 800.0f);  // textureSize(levels, 0) = level 1 of the image; imageSize = 8
	CHECK(v[5 * 4 + 2] == 3.0f);           // textureQueryLevels: the view's levels
	CHECK(v[5 * 4 + 3] == 2.0f);           // the view's layers
}

TEST_CASE("robustImageAccess: accesses outside the image read zero and write nothing, as on lavapipe", "[image]") {
	// Vulkan 1.3 "Texel Replacement": an out-of-bounds texel reads (0, 0, 0)
	// with 0 or 1 for a missing alpha; stores and atomics outside the image
	// are discarded. Tessera reads zero (and alpha 1 where the format has
	// none), the robustImageAccess2 values.
	Scene scene{"image_robust.spv"};
	ImageSpec tex;
	tex.extent = {4, 4, 1};
	tex.data = RandomBytes(ImageBytes(tex), 93);
	ImageSpec img = tex;
	img.storage = true;
	img.data = RandomBytes(ImageBytes(img), 94);
	ImageSpec counters = img;
	counters.format = VK_FORMAT_R32_UINT;
	counters.data = Bytes(std::vector<uint32_t>(16, 7));
	scene.images = {tex, img, counters};
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.buffers = {std::vector<uint8_t>(12 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {2}}};
	auto [ours, reference] = RunBoth(scene);
	std::vector<float> floats =
	    Values<float>(std::vector<uint8_t>(ours.buffers[0].begin(), ours.buffers[0].begin() + 128));
	CHECK(floats == std::vector<float>(32, 0.0f));
	std::vector<uint32_t> uints =
	    Values<uint32_t>(std::vector<uint8_t>(ours.buffers[0].begin() + 128, ours.buffers[0].end()));
	for (int i = 0; i < 4; ++i) CHECK(uints[i * 4 + 3] == 1u);  // R32_UINT: missing alpha is 1
	CHECK(ours.buffers[0] == reference.buffers[0]);
	CHECK(ours.images[1] == img.data);                             // no store landed
	CHECK(ours.images[2] == Bytes(std::vector<uint32_t>(16, 7)));  // no atomic landed
	CHECK(reference.images[1] == img.data);
}

TEST_CASE("cube array storage images load and store by layer-face", "[image]") {
	// OpImageRead and OpImageWrite of a cube array take (x, y, layer * 6 +
	// face); a translator that wanted a fourth coordinate refused them (the
	// CTS's binding_model storage_image cube_array cases).
	Scene scene{"image_cube_array_storage.spv"};
	ImageSpec cubes;
	cubes.format = VK_FORMAT_R8G8B8A8_UINT;
	cubes.extent = {4, 4, 1};
	cubes.layers = 12;
	cubes.view_type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
	cubes.cube_compatible = true;
	cubes.storage = true;
	cubes.data = RandomBytes(4 * 4 * 12 * 4, 9);
	scene.images = {cubes};
	scene.buffers = {std::vector<uint8_t>(192 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {0}}};
	auto [ours, reference] = RunBoth(scene);
	CHECK(ours.buffers[0] == reference.buffers[0]);
	size_t differ = 0, first = 0;
	for (size_t i = 0; i < ours.images[0].size(); ++i)
		if (ours.images[0][i] != reference.images[0][i] && differ++ == 0) first = i;
	INFO(differ << " bytes differ, first " << first << ": " << int(ours.images[0][first]) << " vs "
	            << int(reference.images[0][first]));
	CHECK(differ == 0);
	// Texel (x, y) of face-layer z was loaded as is, and stored at (3 - x, y, 11 - z).
	std::vector<uint32_t> loaded = Values<uint32_t>(ours.buffers[0]);
	for (uint32_t z : {0u, 7u, 11u}) {
		const uint8_t* texel = &cubes.data[((z * 4 + 2) * 4 + 1) * 4];
		CHECK(loaded[((z * 4 + 2) * 4 + 1) * 4] == texel[0]);
		const uint8_t* stored = &ours.images[0][(((11 - z) * 4 + 2) * 4 + 2) * 4];
		CHECK(stored[3] == uint8_t((texel[0] & 127) + z));
	}
}

TEST_CASE("multisampled storage images store and load each sample", "[image]") {
	// shaderStorageImageMultisample: OpImageWrite and OpImageRead with the
	// Sample operand address one sample of a texel.
	Scene scene{"image_storage_ms.spv"};
	ImageSpec ms;
	ms.format = VK_FORMAT_R8G8B8A8_UINT;
	ms.extent = {8, 8, 1};
	ms.storage = true;
	ms.samples = VK_SAMPLE_COUNT_4_BIT;
	ImageSpec layers = ms;
	layers.format = VK_FORMAT_R32_UINT;
	layers.layers = 2;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	scene.images = {ms, layers};
	scene.buffers = {std::vector<uint8_t>(256 * 16 + 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {1}}};
	auto [ours, reference] = RunBoth(scene);
	CHECK(ours.buffers[0] == reference.buffers[0]);
	std::vector<uint32_t> out = Values<uint32_t>(ours.buffers[0]);
	// Texel (x, y) sample s read (7 - x, y) sample 3 - s.
	for (uint32_t x : {0u, 3u, 7u})
		for (uint32_t s = 0; s < 4; ++s) {
			const uint32_t* v = &out[((2 * 8 + x) * 4 + s) * 4];
			CHECK(v[0] == 7 - x);
			CHECK(v[1] == 2);
			CHECK(v[2] == 3 - s);
		}
	CHECK(out[256 * 4 + 0] == 8);
	CHECK(out[256 * 4 + 2] == 4);                 // imageSamples
	CHECK(out[256 * 4 + 3] == 6 * 8 + 5 + 1000);  // layer 1, sample 2 of the array
}
