// VK_KHR_workgroup_memory_explicit_layout through the loader: Workgroup
// Blocks laid out by their Offset and ArrayStride decorations, all of them
// views of one storage, read and written as words, bytes and halves
// (shaders/workgroup_explicit_layout.comp). Debian's lavapipe 22.3 lacks the
// extension: the values are checked against the host's little-endian view of
// the same bytes (the Vulkan CTS's compute.*.workgroup_memory_explicit_layout
// cases are the wider check; tests/cts/README.md).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("Workgroup blocks share one storage, laid out as declared (workgroupMemoryExplicitLayout)",
          "[compute][workgroup_explicit_layout]") {
	VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR layout{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &layout};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(layout.workgroupMemoryExplicitLayout == VK_TRUE);
		REQUIRE(layout.workgroupMemoryExplicitLayoutScalarBlockLayout == VK_TRUE);
		REQUIRE(layout.workgroupMemoryExplicitLayout8BitAccess == VK_TRUE);
		REQUIRE(layout.workgroupMemoryExplicitLayout16BitAccess == VK_TRUE);
	}
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &layout};
	v12.shaderInt8 = VK_TRUE;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	features.features.shaderInt16 = VK_TRUE;
	ContextOptions options;
	options.device_features = &features;
	options.device_extensions = {VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	constexpr uint32_t kGroups = 3, kLanes = 64, kOutputs = 6;
	BufferContents out = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "workgroup_explicit_layout.spv",
	                                     {std::vector<uint8_t>(kGroups * kLanes * kOutputs * 4, 0xcd)}, kGroups);
	REQUIRE(out.size() == 1);
	std::vector<uint32_t> v(kGroups * kLanes * kOutputs);
	std::memcpy(v.data(), out[0].data(), out[0].size());
	CHECK(ctx->validation_errors() == 0);

	for (uint32_t g = 0; g < kGroups; ++g) {
		// The storage as the host lays it out: the words, then the bytes and
		// halves written over them, then the Tail structs from byte 260.
		std::vector<uint8_t> storage(292, 0);
		auto word = [&](uint32_t k) {
			uint32_t w;
			std::memcpy(&w, &storage[4 * k], 4);
			return w;
		};
		auto half = [&](uint32_t k) {
			uint16_t h;
			std::memcpy(&h, &storage[2 * k], 2);
			return uint32_t(h);
		};
		for (uint32_t i = 0; i < kLanes; ++i) {
			const uint32_t w = i * 0x01020304u + 0x00112233u + g;
			std::memcpy(&storage[4 * i], &w, 4);
		}
		std::vector<uint32_t> first(kLanes * 3);
		for (uint32_t i = 0; i < kLanes; ++i) {
			first[3 * i] = storage[(4 * i + 5) % 256];
			first[3 * i + 1] = half((2 * i + 3) % 128);
			first[3 * i + 2] = word(63 - i);
		}
		for (uint32_t i = 0; i < kLanes; ++i) {
			storage[4 * i + 1] = uint8_t(i);
			const uint16_t beef = 0xbeef;
			std::memcpy(&storage[2 * (2 * i + 1)], &beef, 2);
		}
		for (uint32_t i = 0; i < kLanes; ++i) {
			INFO("workgroup " << g << ", invocation " << i);
			const uint32_t* o = &v[(g * kLanes + i) * kOutputs];
			CHECK(o[0] == first[3 * i]);
			CHECK(o[1] == first[3 * i + 1]);
			CHECK(o[2] == first[3 * i + 2]);
			CHECK(o[3] == word((i + 1) % 64));
			CHECK(o[4] == 1000u + ((i % 4) ^ 1u));
			CHECK(o[5] == word(i));
		}
	}
}
