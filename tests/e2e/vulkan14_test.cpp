// Vulkan 1.4: the device reports apiVersion 1.4, and the 1.4 aggregate
// structures say what the structures of the extensions 1.4 took in say
// (the spec requires both ways of asking to agree). Without the validation
// layer, whose 1.3.239 release does not know the 1.4 structures.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

ContextOptions Version14() {
	ContextOptions options;
	options.validation = false;
	options.api_version = VK_API_VERSION_1_4;
	return options;
}

}  // namespace

TEST_CASE("Vulkan 1.4: VkPhysicalDeviceVulkan14Features agrees with the extensions' features", "[vulkan14]") {
	auto ctx = Context::Create(Driver::Tessera, Version14());
	REQUIRE(ctx);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &props);
	CHECK(VK_API_VERSION_MAJOR(props.apiVersion) == 1);
	CHECK(VK_API_VERSION_MINOR(props.apiVersion) == 4);

	VkPhysicalDeviceVulkan14Features v14{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES};
	VkPhysicalDeviceFeatures2 f14{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v14};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f14);

	VkPhysicalDeviceLineRasterizationFeaturesEXT lines{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
	VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT, &lines};
	VkPhysicalDeviceMaintenance5FeaturesKHR m5{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR, &divisor};
	VkPhysicalDeviceMaintenance6FeaturesKHR m6{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR, &m5};
	VkPhysicalDeviceHostImageCopyFeaturesEXT host{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT, &m6};
	VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR, &host};
	VkPhysicalDeviceShaderFloatControls2FeaturesKHR fc2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR, &local_read};
	VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR rotate{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR, &fc2};
	VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &rotate};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f);

	CHECK(v14.shaderSubgroupRotate == rotate.shaderSubgroupRotate);
	CHECK(v14.shaderSubgroupRotateClustered == rotate.shaderSubgroupRotateClustered);
	CHECK(v14.shaderFloatControls2 == fc2.shaderFloatControls2);
	CHECK(v14.rectangularLines == lines.rectangularLines);
	CHECK(v14.bresenhamLines == lines.bresenhamLines);
	CHECK(v14.smoothLines == lines.smoothLines);
	CHECK(v14.stippledRectangularLines == lines.stippledRectangularLines);
	CHECK(v14.stippledBresenhamLines == lines.stippledBresenhamLines);
	CHECK(v14.stippledSmoothLines == lines.stippledSmoothLines);
	CHECK(v14.vertexAttributeInstanceRateDivisor == divisor.vertexAttributeInstanceRateDivisor);
	CHECK(v14.vertexAttributeInstanceRateZeroDivisor == divisor.vertexAttributeInstanceRateZeroDivisor);
	CHECK(v14.dynamicRenderingLocalRead == local_read.dynamicRenderingLocalRead);
	CHECK(v14.maintenance5 == m5.maintenance5);
	CHECK(v14.maintenance6 == m6.maintenance6);
	CHECK(v14.hostImageCopy == host.hostImageCopy);
	// What Vulkan 1.4 requires of every device (the registry's
	// VK_VERSION_1_4 <require> list; feature_requirements_test.cpp has the rest).
	CHECK(v14.pushDescriptor == VK_TRUE);
	CHECK(v14.maintenance5 == VK_TRUE);
	CHECK(v14.shaderFloatControls2 == VK_TRUE);
	CHECK(v14.dynamicRenderingLocalRead == VK_TRUE);

	// A device created with the 1.4 structure enabling all it reports.
	v14.pNext = nullptr;
	float priority = 1.0f;
	VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	queue.queueCount = 1;
	queue.pQueuePriorities = &priority;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v14};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &queue;
	VkDevice device = VK_NULL_HANDLE;
	REQUIRE(vkCreateDevice(ctx->physical_device(), &dci, nullptr, &device) == VK_SUCCESS);
	vkDestroyDevice(device, nullptr);
}

TEST_CASE("Vulkan 1.4: VkPhysicalDeviceVulkan14Properties agrees with the extensions' properties", "[vulkan14]") {
	auto ctx = Context::Create(Driver::Tessera, Version14());
	REQUIRE(ctx);
	VkPhysicalDeviceVulkan14Properties v14{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_PROPERTIES};
	VkPhysicalDeviceProperties2 p14{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v14};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p14);
	REQUIRE(v14.copySrcLayoutCount > 0);
	std::vector<VkImageLayout> src(v14.copySrcLayoutCount), dst(v14.copyDstLayoutCount);
	v14.pCopySrcLayouts = src.data();
	v14.pCopyDstLayouts = dst.data();
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p14);

	VkPhysicalDeviceHostImageCopyPropertiesEXT host{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_PROPERTIES_EXT};
	VkPhysicalDeviceMaintenance5PropertiesKHR m5{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR, &host};
	VkPhysicalDeviceMaintenance6PropertiesKHR m6{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR, &m5};
	VkPhysicalDevicePushDescriptorPropertiesKHR push{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR,
	                                                 &m6};
	VkPhysicalDeviceLineRasterizationPropertiesEXT lines{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT, &push};
	VkPhysicalDevicePipelineRobustnessPropertiesEXT robustness{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT, &lines};
	VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &robustness};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p);
	std::vector<VkImageLayout> host_src(host.copySrcLayoutCount), host_dst(host.copyDstLayoutCount);
	host.pCopySrcLayouts = host_src.data();
	host.pCopyDstLayouts = host_dst.data();
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p);

	CHECK(v14.lineSubPixelPrecisionBits == lines.lineSubPixelPrecisionBits);
	CHECK(v14.maxPushDescriptors == push.maxPushDescriptors);
	CHECK(v14.maxPushDescriptors >= 32);
	CHECK(v14.earlyFragmentMultisampleCoverageAfterSampleCounting ==
	      m5.earlyFragmentMultisampleCoverageAfterSampleCounting);
	CHECK(v14.polygonModePointSize == m5.polygonModePointSize);
	CHECK(v14.depthStencilSwizzleOneSupport == m5.depthStencilSwizzleOneSupport);
	CHECK(v14.maxCombinedImageSamplerDescriptorCount == m6.maxCombinedImageSamplerDescriptorCount);
	CHECK(v14.defaultRobustnessStorageBuffers == robustness.defaultRobustnessStorageBuffers);
	CHECK(v14.defaultRobustnessImages == robustness.defaultRobustnessImages);
	CHECK(v14.copySrcLayoutCount == host.copySrcLayoutCount);
	CHECK(src == host_src);
	CHECK(dst == host_dst);
	CHECK(std::memcmp(v14.optimalTilingLayoutUUID, host.optimalTilingLayoutUUID, VK_UUID_SIZE) == 0);
	CHECK(v14.identicalMemoryTypeRequirements == host.identicalMemoryTypeRequirements);
}
