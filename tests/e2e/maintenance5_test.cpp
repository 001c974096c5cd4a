// VK_KHR_maintenance5: index buffer ranges, pipeline flags from
// VkPipelineCreateFlags2CreateInfoKHR, the A8 and A1B5G5R5 formats,
// subresource layouts without an image, and the rendering area granularity.
// Tessera alone, without the validation layer: lavapipe 22.3 and the layer's
// 1.3.239 release predate the extension. Each check compares with a result
// the spec fixes (a packed value, a layout of a real image, a scene drawn
// without the new command).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

struct Maintenance5 {
	VkPhysicalDeviceMaintenance5FeaturesKHR features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &features};
	Maintenance5() {
		features.maintenance5 = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;  // the extension requires it
		v13.pipelineCreationCacheControl = VK_TRUE;
	}
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_KHR_MAINTENANCE_5_EXTENSION_NAME};
		options.device_features = &v13;
		return options;
	}
};

bool SameLayout(const VkSubresourceLayout& a, const VkSubresourceLayout& b) {
	return a.offset == b.offset && a.size == b.size && a.rowPitch == b.rowPitch && a.arrayPitch == b.arrayPitch &&
	       a.depthPitch == b.depthPitch;
}

}  // namespace

TEST_CASE("VK_KHR_maintenance5: the feature, granularity, and subresource layouts without an image", "[maintenance5]") {
	Maintenance5 m5;
	auto ctx = Context::Create(Driver::Tessera, m5.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceMaintenance5FeaturesKHR supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(supported.maintenance5 == VK_TRUE);

	auto granularity = ctx->Proc<PFN_vkGetRenderingAreaGranularityKHR>("vkGetRenderingAreaGranularityKHR");
	auto device_layout = ctx->Proc<PFN_vkGetDeviceImageSubresourceLayoutKHR>("vkGetDeviceImageSubresourceLayoutKHR");
	auto layout2 = ctx->Proc<PFN_vkGetImageSubresourceLayout2KHR>("vkGetImageSubresourceLayout2KHR");
	REQUIRE(granularity);
	REQUIRE(device_layout);
	REQUIRE(layout2);

	const VkFormat color = VK_FORMAT_R8G8B8A8_UNORM;
	VkRenderingAreaInfoKHR area{VK_STRUCTURE_TYPE_RENDERING_AREA_INFO_KHR};
	area.colorAttachmentCount = 1;
	area.pColorAttachmentFormats = &color;
	VkExtent2D extent{0, 0};
	granularity(ctx->device(), &area, &extent);
	CHECK(extent.width == 1);
	CHECK(extent.height == 1);

	// A linear 2D array with mips: each subresource's layout, asked with
	// and without the image, is the image's (vkGetImageSubresourceLayout).
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR;
	ici.extent = {37, 19, 1};
	ici.mipLevels = 1;
	ici.arrayLayers = 3;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_LINEAR;
	ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
	VkImage image = VK_NULL_HANDLE;
	REQUIRE(vkCreateImage(ctx->device(), &ici, nullptr, &image) == VK_SUCCESS);
	for (uint32_t layer = 0; layer < 3; ++layer) {
		CAPTURE(layer);
		const VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, layer};
		VkSubresourceLayout expected{};
		vkGetImageSubresourceLayout(ctx->device(), image, &sub, &expected);
		CHECK(expected.rowPitch >= 37 * 2);
		VkImageSubresource2KHR sub2{VK_STRUCTURE_TYPE_IMAGE_SUBRESOURCE_2_KHR, nullptr, sub};
		VkSubresourceLayout2KHR with_image{VK_STRUCTURE_TYPE_SUBRESOURCE_LAYOUT_2_KHR};
		layout2(ctx->device(), image, &sub2, &with_image);
		CHECK(SameLayout(with_image.subresourceLayout, expected));
		VkDeviceImageSubresourceInfoKHR info{VK_STRUCTURE_TYPE_DEVICE_IMAGE_SUBRESOURCE_INFO_KHR, nullptr, &ici, &sub2};
		VkSubresourceLayout2KHR without_image{VK_STRUCTURE_TYPE_SUBRESOURCE_LAYOUT_2_KHR};
		device_layout(ctx->device(), &info, &without_image);
		CHECK(SameLayout(without_image.subresourceLayout, expected));
	}
	vkDestroyImage(ctx->device(), image, nullptr);
}

TEST_CASE("VK_KHR_maintenance5: A8_UNORM and A1B5G5R5_UNORM_PACK16 clear to the bits their names spell",
          "[maintenance5][format]") {
	Maintenance5 m5;
	auto ctx = Context::Create(Driver::Tessera, m5.Options());
	REQUIRE(ctx);
	struct Case {
		VkFormat format;
		uint32_t bytes;
		uint16_t expected;  // the texel, little-endian
	};
	// (r, g, b, a) = (1, 0, 0.5, 0.8): A8 keeps round(0.8 * 255) = 204;
	// A1B5G5R5 is A in bit 15, B in 14..10 (round(0.5 * 31) = 16), G in
	// 9..5, R in 4..0 (Vulkan "Packed Formats").
	for (const Case& c : {Case{VK_FORMAT_A8_UNORM_KHR, 1, 204},
	                      Case{VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR, 2, uint16_t(0x8000 | 16 << 10 | 31)}}) {
		CAPTURE(c.format);
		VkFormatProperties properties{};
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), c.format, &properties);
		const VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
		                                    VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
		                                    VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT;
		CHECK((properties.optimalTilingFeatures & needed) == needed);
		TestImage image = ctx->CreateImage2D(c.format, 4, 4);
		TestBuffer out = ctx->CreateBuffer(64);
		std::memset(out.data, 0xcd, 64);
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			const VkClearColorValue value{{1.0f, 0.0f, 0.5f, 0.8f}};
			const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
			ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			VkBufferImageCopy region{};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageExtent = {4, 4, 1};
			vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
			ctx->TransferBarrier(cb);
		});
		for (uint32_t i = 0; i < 16; ++i) {
			uint16_t texel = 0;
			std::memcpy(&texel, out.data + i * c.bytes, c.bytes);
			CHECK(texel == c.expected);
		}
		ctx->Destroy(out);
		ctx->Destroy(image);
	}
}

TEST_CASE("VK_KHR_maintenance5: vkCmdBindIndexBuffer2KHR's size ends the index buffer", "[maintenance5][draw]") {
	// With robustBufferAccess2, indices past the bound range read zero
	// (VUID-vkCmdDrawIndexed-robustBufferAccess2-07825): binding 4 of the 6
	// indices draws the points of {7, 8, 13, 14, 0, 0}, not 20 and 22.
	Maintenance5 m5;
	VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
	robustness2.robustBufferAccess2 = VK_TRUE;
	m5.features.pNext = &robustness2;
	VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &m5.v13};
	core.features.robustBufferAccess = VK_TRUE;
	ContextOptions options = m5.Options();
	options.device_extensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
	options.device_features = &core;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto bind2 = ctx->Proc<PFN_vkCmdBindIndexBuffer2KHR>("vkCmdBindIndexBuffer2KHR");
	REQUIRE(bind2);

	Scene s = ColorScene(Grid(6));
	s.vertex_shader = "sized_point.vert.spv";  // PointSize w = 1
	s.attributes.push_back({2, 0, VK_FORMAT_R32_SFLOAT, 12});
	s.configure = [](PipelineState& p) { p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; };
	s.indices = {7, 8, 13, 14, 20, 22};
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers& buffers) {
		bind2(cb, buffers.indices, 0, 4 * sizeof(uint32_t), VK_INDEX_TYPE_UINT32);
		vkCmdDrawIndexed(cb, 6, 1, 0, 0, 0);
	};
	SceneResult bounded = RenderScene(*ctx, s);

	Scene reference = s;
	reference.record_draws = nullptr;
	reference.indices = {7, 8, 13, 14, 0, 0};
	reference.draws = {{6, 1, 0, 0, 0}};
	SceneResult expected = RenderScene(*ctx, reference);
	CompareImages("index-buffer-2-size", s.width, s.height, bounded.colors[0], expected.colors[0], 0);

	// VK_WHOLE_SIZE binds to the buffer's end: all six indices.
	s.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers& buffers) {
		bind2(cb, buffers.indices, 0, VK_WHOLE_SIZE, VK_INDEX_TYPE_UINT32);
		vkCmdDrawIndexed(cb, 6, 1, 0, 0, 0);
	};
	SceneResult whole = RenderScene(*ctx, s);
	reference.indices = s.indices;
	SceneResult all = RenderScene(*ctx, reference);
	CompareImages("index-buffer-2-whole", s.width, s.height, whole.colors[0], all.colors[0], 0);
	CHECK(whole.colors[0] != bounded.colors[0]);
}

TEST_CASE("VK_KHR_maintenance5: VkPipelineCreateFlags2CreateInfoKHR's flags replace the create info's",
          "[maintenance5][compute]") {
	// FAIL_ON_PIPELINE_COMPILE_REQUIRED given only in the 64-bit flags: a
	// pipeline not in the (empty) cache is not compiled.
	Maintenance5 m5;
	auto ctx = Context::Create(Driver::Tessera, m5.Options());
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "reduce.spv");
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = words.size() * 4;
	smci.pCode = words.data();
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VkPipelineCache cache;
	REQUIRE(vkCreatePipelineCache(device, &pcci, nullptr, &cache) == VK_SUCCESS);

	// The shader's code in the stage's pNext (no VkShaderModule), as
	// maintenance5 allows.
	VkPipelineCreateFlags2CreateInfoKHR flags2{VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR};
	flags2.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
	VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &flags2};
	info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
	              &smci,
	              0,
	              VK_SHADER_STAGE_COMPUTE_BIT,
	              VK_NULL_HANDLE,
	              "main",
	              nullptr};
	info.layout = layout;
	VkPipeline pipeline = reinterpret_cast<VkPipeline>(uintptr_t(1));
	CHECK(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline) == VK_PIPELINE_COMPILE_REQUIRED);
	CHECK(pipeline == VK_NULL_HANDLE);

	// The 64-bit flags win over the 32-bit ones: without the bit there, the
	// pipeline is compiled although info.flags asks not to.
	flags2.flags = 0;
	info.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
	CHECK(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
	CHECK(pipeline != VK_NULL_HANDLE);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineCache(device, cache, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
}
