// The physical device as a real driver reports it: every Vulkan 1.3 property
// and feature structure filled and consistent with the aggregate 1.1/1.2/1.3
// structures, limits within the spec's "Required Limits" table (checked on
// lavapipe too, so the table itself is checked), and device creation
// refusing what is not supported.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "direct_driver.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Every property structure of core Vulkan 1.1-1.3, chained.
struct PropertyChain {
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
	VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
	VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
	VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
	VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDevicePointClippingProperties point_clipping{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES};
	VkPhysicalDeviceMultiviewProperties multiview{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES};
	VkPhysicalDeviceProtectedMemoryProperties protected_memory{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES};
	VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
	VkPhysicalDeviceMaintenance4Properties maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
	VkPhysicalDeviceFloatControlsProperties float_controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
	VkPhysicalDeviceDescriptorIndexingProperties descriptor_indexing{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES};
	VkPhysicalDeviceDepthStencilResolveProperties resolve{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
	VkPhysicalDeviceTimelineSemaphoreProperties timeline{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES};
	VkPhysicalDeviceSamplerFilterMinmaxProperties minmax{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES};
	VkPhysicalDeviceInlineUniformBlockProperties inline_uniform{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES};
	VkPhysicalDeviceTexelBufferAlignmentProperties texel_alignment{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES};
	VkPhysicalDeviceSubgroupSizeControlProperties subgroup_size{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
	VkPhysicalDeviceShaderIntegerDotProductProperties dot_product{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES};

	PropertyChain() { Link(); }
	PropertyChain(const PropertyChain&) = delete;

	// Chains every structure in declaration order.
	void Link() {
		VkBaseOutStructure* order[] = {B(&p2),
		                               B(&v11),
		                               B(&v12),
		                               B(&v13),
		                               B(&id),
		                               B(&driver),
		                               B(&subgroup),
		                               B(&point_clipping),
		                               B(&multiview),
		                               B(&protected_memory),
		                               B(&maintenance3),
		                               B(&maintenance4),
		                               B(&float_controls),
		                               B(&descriptor_indexing),
		                               B(&resolve),
		                               B(&timeline),
		                               B(&minmax),
		                               B(&inline_uniform),
		                               B(&texel_alignment),
		                               B(&subgroup_size),
		                               B(&dot_product)};
		for (size_t i = 0; i + 1 < std::size(order); ++i) order[i]->pNext = order[i + 1];
	}
	template <typename T>
	static VkBaseOutStructure* B(T* s) {
		return reinterpret_cast<VkBaseOutStructure*>(s);
	}
};

// Required Limits, Vulkan 1.3 "Limits" (the "Supported Limit" column, or the
// "Unsupported Limit" one for features Tessera does not offer).
void CheckRequiredLimits(const PropertyChain& c) {
	const VkPhysicalDeviceLimits& l = c.p2.properties.limits;
	CHECK(l.maxImageDimension1D >= 4096);
	CHECK(l.maxImageDimension2D >= 4096);
	CHECK(l.maxImageDimension3D >= 256);
	CHECK(l.maxImageDimensionCube >= 4096);
	CHECK(l.maxImageArrayLayers >= 256);
	CHECK(l.maxTexelBufferElements >= 65536);
	CHECK(l.maxUniformBufferRange >= 16384);
	CHECK(l.maxStorageBufferRange >= (1u << 27));
	CHECK(l.maxPushConstantsSize >= 128);
	CHECK(l.maxMemoryAllocationCount >= 4096);
	CHECK(l.maxSamplerAllocationCount >= 4000);
	CHECK(l.bufferImageGranularity <= 131072);
	CHECK(l.maxBoundDescriptorSets >= 4);
	CHECK(l.maxPerStageDescriptorSamplers >= 16);
	CHECK(l.maxPerStageDescriptorUniformBuffers >= 12);
	CHECK(l.maxPerStageDescriptorStorageBuffers >= 4);
	CHECK(l.maxPerStageDescriptorSampledImages >= 16);
	CHECK(l.maxPerStageDescriptorStorageImages >= 4);
	CHECK(l.maxPerStageDescriptorInputAttachments >= 4);
	CHECK(l.maxPerStageResources >= 128);
	CHECK(l.maxDescriptorSetSamplers >= 96);
	CHECK(l.maxDescriptorSetUniformBuffers >= 72);
	CHECK(l.maxDescriptorSetUniformBuffersDynamic >= 8);
	CHECK(l.maxDescriptorSetStorageBuffers >= 24);
	CHECK(l.maxDescriptorSetStorageBuffersDynamic >= 4);
	CHECK(l.maxDescriptorSetSampledImages >= 96);
	CHECK(l.maxDescriptorSetStorageImages >= 24);
	CHECK(l.maxDescriptorSetInputAttachments >= 4);
	CHECK(l.maxVertexInputAttributes >= 16);
	CHECK(l.maxVertexInputBindings >= 16);
	CHECK(l.maxVertexInputAttributeOffset >= 2047);
	CHECK(l.maxVertexInputBindingStride >= 2048);
	CHECK(l.maxVertexOutputComponents >= 64);
	CHECK(l.maxFragmentInputComponents >= 64);
	CHECK(l.maxFragmentOutputAttachments >= 4);
	CHECK(l.maxFragmentCombinedOutputResources >= 4);
	CHECK(l.maxComputeSharedMemorySize >= 16384);
	for (uint32_t count : l.maxComputeWorkGroupCount) CHECK(count >= 65535);
	CHECK(l.maxComputeWorkGroupInvocations >= 128);
	CHECK(l.maxComputeWorkGroupSize[0] >= 128);
	CHECK(l.maxComputeWorkGroupSize[1] >= 128);
	CHECK(l.maxComputeWorkGroupSize[2] >= 64);
	CHECK(l.subPixelPrecisionBits >= 4);
	CHECK(l.subTexelPrecisionBits >= 4);
	CHECK(l.mipmapPrecisionBits >= 4);
	CHECK(l.maxDrawIndexedIndexValue >= (1u << 24) - 1);
	CHECK(l.maxDrawIndirectCount >= 1);
	CHECK(l.maxSamplerLodBias >= 2.0f);
	CHECK(l.maxSamplerAnisotropy >= 1.0f);
	CHECK(l.maxViewports >= 1);
	CHECK(l.maxViewportDimensions[0] >= 4096);
	CHECK(l.maxViewportDimensions[1] >= 4096);
	// Vulkan 1.3 "Limits": maxViewportDimensions at least the largest
	// framebuffer; viewportBoundsRange at least [-2 x, 2 x - 1] of it.
	CHECK(l.maxViewportDimensions[0] >= l.maxFramebufferWidth);
	CHECK(l.maxViewportDimensions[1] >= l.maxFramebufferHeight);
	CHECK(l.viewportBoundsRange[0] <= -2.0f * float(l.maxViewportDimensions[0]));
	CHECK(l.viewportBoundsRange[1] >= 2.0f * float(l.maxViewportDimensions[0]) - 1.0f);
	CHECK(l.minMemoryMapAlignment >= 64);
	CHECK(l.minTexelBufferOffsetAlignment <= 256);
	CHECK(l.minUniformBufferOffsetAlignment <= 256);
	CHECK(l.minStorageBufferOffsetAlignment <= 256);
	CHECK(l.minTexelOffset <= -8);
	CHECK(l.maxTexelOffset >= 7);
	CHECK(l.minInterpolationOffset <= 0.0f);
	CHECK(l.maxFramebufferWidth >= 4096);
	CHECK(l.maxFramebufferHeight >= 4096);
	CHECK(l.maxFramebufferLayers >= 256);
	const VkSampleCountFlags one_and_four = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	CHECK((l.framebufferColorSampleCounts & one_and_four) == one_and_four);
	CHECK((l.framebufferDepthSampleCounts & one_and_four) == one_and_four);
	CHECK((l.framebufferStencilSampleCounts & one_and_four) == one_and_four);
	CHECK((l.framebufferNoAttachmentsSampleCounts & one_and_four) == one_and_four);
	CHECK(l.maxColorAttachments >= 4);
	CHECK((l.sampledImageColorSampleCounts & one_and_four) == one_and_four);
	CHECK((l.sampledImageIntegerSampleCounts & VK_SAMPLE_COUNT_1_BIT) != 0);
	CHECK((l.sampledImageDepthSampleCounts & one_and_four) == one_and_four);
	CHECK((l.sampledImageStencilSampleCounts & one_and_four) == one_and_four);
	CHECK((l.storageImageSampleCounts & VK_SAMPLE_COUNT_1_BIT) != 0);
	CHECK(l.maxSampleMaskWords >= 1);
	CHECK(l.timestampPeriod > 0.0f);
	CHECK(l.discreteQueuePriorities >= 2);
	CHECK(l.pointSizeRange[0] <= 1.0f);
	CHECK(l.pointSizeRange[1] >= 1.0f);
	CHECK(l.lineWidthRange[0] <= 1.0f);
	CHECK(l.lineWidthRange[1] >= 1.0f);
	CHECK(l.nonCoherentAtomSize <= 256);
	CHECK((l.nonCoherentAtomSize & (l.nonCoherentAtomSize - 1)) == 0);
	CHECK((l.minUniformBufferOffsetAlignment & (l.minUniformBufferOffsetAlignment - 1)) == 0);
	CHECK((l.minStorageBufferOffsetAlignment & (l.minStorageBufferOffsetAlignment - 1)) == 0);

	CHECK(c.v11.subgroupSize >= 1);
	CHECK((c.v11.subgroupSize & (c.v11.subgroupSize - 1)) == 0);
	CHECK((c.v11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0);
	CHECK((c.v11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) != 0);
	CHECK(c.v11.maxPerSetDescriptors >= 1024);
	CHECK(c.v11.maxMemoryAllocationSize >= (VkDeviceSize(1) << 30));
	CHECK(c.v12.maxTimelineSemaphoreValueDifference >= (1ull << 31) - 1);
	CHECK((c.v12.framebufferIntegerColorSampleCounts & VK_SAMPLE_COUNT_1_BIT) != 0);
	CHECK((c.v12.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT) != 0);
	CHECK((c.v12.supportedStencilResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT) != 0);
	CHECK(c.v13.maxBufferSize >= (VkDeviceSize(1) << 30));
	CHECK(c.v13.minSubgroupSize >= 1);
	CHECK(c.v13.minSubgroupSize <= c.v11.subgroupSize);
	CHECK(c.v13.maxSubgroupSize >= c.v11.subgroupSize);
	CHECK(c.v13.maxInlineUniformBlockSize >= 256);
	CHECK(c.v13.maxInlineUniformTotalSize >= 256);
	CHECK(c.v13.storageTexelBufferOffsetAlignmentBytes <= 256);
	CHECK(c.v13.uniformTexelBufferOffsetAlignmentBytes <= 256);
}

// Each individual structure must say what its aggregate says.
void CheckConsistent(const PropertyChain& c) {
	CHECK(std::memcmp(c.id.deviceUUID, c.v11.deviceUUID, VK_UUID_SIZE) == 0);
	CHECK(std::memcmp(c.id.driverUUID, c.v11.driverUUID, VK_UUID_SIZE) == 0);
	CHECK(c.id.deviceLUIDValid == c.v11.deviceLUIDValid);
	CHECK(c.driver.driverID == c.v12.driverID);
	CHECK(std::strcmp(c.driver.driverName, c.v12.driverName) == 0);
	CHECK(std::strcmp(c.driver.driverInfo, c.v12.driverInfo) == 0);
	CHECK(c.subgroup.subgroupSize == c.v11.subgroupSize);
	CHECK(c.subgroup.supportedStages == c.v11.subgroupSupportedStages);
	CHECK(c.subgroup.supportedOperations == c.v11.subgroupSupportedOperations);
	CHECK(c.point_clipping.pointClippingBehavior == c.v11.pointClippingBehavior);
	CHECK(c.multiview.maxMultiviewViewCount == c.v11.maxMultiviewViewCount);
	CHECK(c.protected_memory.protectedNoFault == c.v11.protectedNoFault);
	CHECK(c.maintenance3.maxPerSetDescriptors == c.v11.maxPerSetDescriptors);
	CHECK(c.maintenance3.maxMemoryAllocationSize == c.v11.maxMemoryAllocationSize);
	CHECK(c.maintenance4.maxBufferSize == c.v13.maxBufferSize);
	CHECK(c.float_controls.denormBehaviorIndependence == c.v12.denormBehaviorIndependence);
	CHECK(c.float_controls.shaderRoundingModeRTZFloat64 == c.v12.shaderRoundingModeRTZFloat64);
	CHECK(c.descriptor_indexing.maxUpdateAfterBindDescriptorsInAllPools ==
	      c.v12.maxUpdateAfterBindDescriptorsInAllPools);
	CHECK(c.descriptor_indexing.maxDescriptorSetUpdateAfterBindInputAttachments ==
	      c.v12.maxDescriptorSetUpdateAfterBindInputAttachments);
	CHECK(c.resolve.supportedDepthResolveModes == c.v12.supportedDepthResolveModes);
	CHECK(c.timeline.maxTimelineSemaphoreValueDifference == c.v12.maxTimelineSemaphoreValueDifference);
	CHECK(c.minmax.filterMinmaxSingleComponentFormats == c.v12.filterMinmaxSingleComponentFormats);
	CHECK(c.inline_uniform.maxInlineUniformBlockSize == c.v13.maxInlineUniformBlockSize);
	CHECK(c.texel_alignment.storageTexelBufferOffsetAlignmentBytes == c.v13.storageTexelBufferOffsetAlignmentBytes);
	CHECK(c.subgroup_size.maxSubgroupSize == c.v13.maxSubgroupSize);
	CHECK(c.dot_product.integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated ==
	      c.v13.integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated);
}

std::unique_ptr<PropertyChain> QueryProperties(Context& ctx) {
	auto chain = std::make_unique<PropertyChain>();
	vkGetPhysicalDeviceProperties2(ctx.physical_device(), &chain->p2);
	return chain;
}

}  // namespace

TEST_CASE("Physical device properties: every Vulkan 1.3 structure, consistent and within required limits", "[device]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		INFO(DriverName(driver));
		auto ctx = Context::Create(driver);
		REQUIRE(ctx);
		auto chain = QueryProperties(*ctx);
		CheckRequiredLimits(*chain);
		CheckConsistent(*chain);
		CHECK(chain->p2.properties.apiVersion >= VK_API_VERSION_1_3);
		CHECK(ctx->validation_errors() == 0);
	}
}

TEST_CASE("Physical device properties: Tessera's identity", "[device]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	auto chain = QueryProperties(*ctx);
	CHECK(std::strcmp(chain->v12.driverName, "Tessera") == 0);
	CHECK(std::strstr(chain->v12.driverInfo, "0.") != nullptr);  // carries the version
	// Not conformant: conformanceVersion 0.0.0.0.
	CHECK(chain->v12.conformanceVersion.major == 0);
	CHECK(chain->v12.conformanceVersion.minor == 0);
	CHECK(chain->v12.conformanceVersion.subminor == 0);
	CHECK(chain->v12.conformanceVersion.patch == 0);
	CHECK(chain->p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
	uint8_t zero[VK_UUID_SIZE] = {};
	CHECK(std::memcmp(chain->v11.deviceUUID, zero, VK_UUID_SIZE) != 0);
	CHECK(std::memcmp(chain->v11.driverUUID, zero, VK_UUID_SIZE) != 0);
	CHECK(std::memcmp(chain->v11.deviceUUID, chain->v11.driverUUID, VK_UUID_SIZE) != 0);
	CHECK(chain->v11.deviceLUIDValid == VK_FALSE);
	// Same driver, second instance: the same UUIDs (they are derived from
	// name and version only, so also the same in every run).
	auto again = Context::Create(Driver::Tessera);
	REQUIRE(again);
	auto second = QueryProperties(*again);
	CHECK(std::memcmp(chain->v11.deviceUUID, second->v11.deviceUUID, VK_UUID_SIZE) == 0);
	CHECK(std::memcmp(chain->v11.driverUUID, second->v11.driverUUID, VK_UUID_SIZE) == 0);
	// The pipeline cache UUID is not the device UUID: it changes with the
	// cache format, not the device.
	CHECK(std::memcmp(chain->p2.properties.pipelineCacheUUID, zero, VK_UUID_SIZE) != 0);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("Physical device properties: structures the driver does not know are left untouched", "[device]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	VkInstance instance;
	REQUIRE(driver.Global<PFN_vkCreateInstance>("vkCreateInstance")(&info, nullptr, &instance) == VK_SUCCESS);
	uint32_t count = 1;
	VkPhysicalDevice physical;
	driver.Instance<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices")(instance, &count,
	                                                                                        &physical);

	// Structures of a vendor extension Tessera will never offer, filled with
	// a pattern.
	VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
	amd.shaderEngineCount = 0xdeadbeef;
	VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &amd};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11};
	driver.Instance<PFN_vkGetPhysicalDeviceProperties2>(instance, "vkGetPhysicalDeviceProperties2")(physical, &p2);
	CHECK(amd.shaderEngineCount == 0xdeadbeef);
	CHECK(v11.pNext == &amd);  // the chain itself is not rewritten
	CHECK(v11.subgroupSize != 0);

	VkPhysicalDeviceCoherentMemoryFeaturesAMD coherent{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COHERENT_MEMORY_FEATURES_AMD};
	coherent.deviceCoherentMemory = 0x55;
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &coherent};
	driver.Instance<PFN_vkGetPhysicalDeviceFeatures2>(instance, "vkGetPhysicalDeviceFeatures2")(physical, &f2);
	CHECK(coherent.deviceCoherentMemory == 0x55);
	driver.Instance<PFN_vkDestroyInstance>(instance, "vkDestroyInstance")(instance, nullptr);
}

namespace {

// Every feature structure of core Vulkan 1.1-1.3, chained, with the
// VkBool32 members first filled with a value no driver writes.
struct FeatureChain {
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	std::vector<std::vector<uint8_t>> storage;
	std::vector<size_t> ends;

	FeatureChain() {
#define BOOLS_END(Struct, last) (offsetof(Struct, last) + sizeof(VkBool32))
		struct Type {
			VkStructureType type;
			size_t size;
			size_t bools_end;  // without the tail padding
		};
		const Type kTypes[] = {
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, sizeof(VkPhysicalDeviceVulkan11Features),
		     BOOLS_END(VkPhysicalDeviceVulkan11Features, shaderDrawParameters)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, sizeof(VkPhysicalDeviceVulkan12Features),
		     BOOLS_END(VkPhysicalDeviceVulkan12Features, subgroupBroadcastDynamicId)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, sizeof(VkPhysicalDeviceVulkan13Features),
		     BOOLS_END(VkPhysicalDeviceVulkan13Features, maintenance4)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, sizeof(VkPhysicalDevice16BitStorageFeatures),
		     BOOLS_END(VkPhysicalDevice16BitStorageFeatures, storageInputOutput16)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, sizeof(VkPhysicalDeviceMultiviewFeatures),
		     BOOLS_END(VkPhysicalDeviceMultiviewFeatures, multiviewTessellationShader)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
		     sizeof(VkPhysicalDeviceVariablePointersFeatures),
		     BOOLS_END(VkPhysicalDeviceVariablePointersFeatures, variablePointers)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES,
		     sizeof(VkPhysicalDeviceProtectedMemoryFeatures),
		     BOOLS_END(VkPhysicalDeviceProtectedMemoryFeatures, protectedMemory)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
		     sizeof(VkPhysicalDeviceSamplerYcbcrConversionFeatures),
		     BOOLS_END(VkPhysicalDeviceSamplerYcbcrConversionFeatures, samplerYcbcrConversion)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES,
		     sizeof(VkPhysicalDeviceShaderDrawParametersFeatures),
		     BOOLS_END(VkPhysicalDeviceShaderDrawParametersFeatures, shaderDrawParameters)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, sizeof(VkPhysicalDevice8BitStorageFeatures),
		     BOOLS_END(VkPhysicalDevice8BitStorageFeatures, storagePushConstant8)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
		     sizeof(VkPhysicalDeviceShaderAtomicInt64Features),
		     BOOLS_END(VkPhysicalDeviceShaderAtomicInt64Features, shaderSharedInt64Atomics)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
		     sizeof(VkPhysicalDeviceShaderFloat16Int8Features),
		     BOOLS_END(VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
		     sizeof(VkPhysicalDeviceDescriptorIndexingFeatures),
		     BOOLS_END(VkPhysicalDeviceDescriptorIndexingFeatures, runtimeDescriptorArray)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
		     sizeof(VkPhysicalDeviceScalarBlockLayoutFeatures),
		     BOOLS_END(VkPhysicalDeviceScalarBlockLayoutFeatures, scalarBlockLayout)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES,
		     sizeof(VkPhysicalDeviceImagelessFramebufferFeatures),
		     BOOLS_END(VkPhysicalDeviceImagelessFramebufferFeatures, imagelessFramebuffer)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES,
		     sizeof(VkPhysicalDeviceUniformBufferStandardLayoutFeatures),
		     BOOLS_END(VkPhysicalDeviceUniformBufferStandardLayoutFeatures, uniformBufferStandardLayout)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
		     sizeof(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures),
		     BOOLS_END(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures, shaderSubgroupExtendedTypes)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES,
		     sizeof(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures),
		     BOOLS_END(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures, separateDepthStencilLayouts)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
		     sizeof(VkPhysicalDeviceHostQueryResetFeatures),
		     BOOLS_END(VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
		     sizeof(VkPhysicalDeviceTimelineSemaphoreFeatures),
		     BOOLS_END(VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
		     sizeof(VkPhysicalDeviceBufferDeviceAddressFeatures),
		     BOOLS_END(VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressMultiDevice)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
		     sizeof(VkPhysicalDeviceVulkanMemoryModelFeatures),
		     BOOLS_END(VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModelAvailabilityVisibilityChains)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
		     sizeof(VkPhysicalDeviceImageRobustnessFeatures),
		     BOOLS_END(VkPhysicalDeviceImageRobustnessFeatures, robustImageAccess)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
		     sizeof(VkPhysicalDeviceInlineUniformBlockFeatures),
		     BOOLS_END(VkPhysicalDeviceInlineUniformBlockFeatures, descriptorBindingInlineUniformBlockUpdateAfterBind)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
		     sizeof(VkPhysicalDevicePipelineCreationCacheControlFeatures),
		     BOOLS_END(VkPhysicalDevicePipelineCreationCacheControlFeatures, pipelineCreationCacheControl)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES, sizeof(VkPhysicalDevicePrivateDataFeatures),
		     BOOLS_END(VkPhysicalDevicePrivateDataFeatures, privateData)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
		     sizeof(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures),
		     BOOLS_END(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures, shaderDemoteToHelperInvocation)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
		     sizeof(VkPhysicalDeviceShaderTerminateInvocationFeatures),
		     BOOLS_END(VkPhysicalDeviceShaderTerminateInvocationFeatures, shaderTerminateInvocation)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
		     sizeof(VkPhysicalDeviceSubgroupSizeControlFeatures),
		     BOOLS_END(VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
		     sizeof(VkPhysicalDeviceSynchronization2Features),
		     BOOLS_END(VkPhysicalDeviceSynchronization2Features, synchronization2)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES,
		     sizeof(VkPhysicalDeviceTextureCompressionASTCHDRFeatures),
		     BOOLS_END(VkPhysicalDeviceTextureCompressionASTCHDRFeatures, textureCompressionASTC_HDR)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
		     sizeof(VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures),
		     BOOLS_END(VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures, shaderZeroInitializeWorkgroupMemory)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
		     sizeof(VkPhysicalDeviceDynamicRenderingFeatures),
		     BOOLS_END(VkPhysicalDeviceDynamicRenderingFeatures, dynamicRendering)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
		     sizeof(VkPhysicalDeviceShaderIntegerDotProductFeatures),
		     BOOLS_END(VkPhysicalDeviceShaderIntegerDotProductFeatures, shaderIntegerDotProduct)},
		    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, sizeof(VkPhysicalDeviceMaintenance4Features),
		     BOOLS_END(VkPhysicalDeviceMaintenance4Features, maintenance4)},
		};
		VkBaseOutStructure* last = reinterpret_cast<VkBaseOutStructure*>(&f2);
#undef BOOLS_END
		for (auto [type, size, bools_end] : kTypes) {
			ends.push_back(bools_end);
			storage.emplace_back(size, uint8_t(0x77));
			auto* s = reinterpret_cast<VkBaseOutStructure*>(storage.back().data());
			s->sType = type;
			s->pNext = nullptr;
			last->pNext = s;
			last = s;
		}
	}
	FeatureChain(const FeatureChain&) = delete;

	// The VkBool32 members of the structure at index i (after sType, pNext).
	std::vector<VkBool32> Bools(size_t i) const {
		std::vector<VkBool32> out((ends[i] - 16) / 4);
		std::memcpy(out.data(), storage[i].data() + 16, out.size() * 4);
		return out;
	}
	template <typename T>
	const T& Get(size_t i) const {
		return *reinterpret_cast<const T*>(storage[i].data());
	}
};

}  // namespace

TEST_CASE("Physical device features: every Vulkan 1.3 structure is filled and agrees with its aggregate", "[device]") {
	// lavapipe too: the test's structure list and checks are then checked
	// against a conformant driver.
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		INFO(DriverName(driver));
		auto ctx = Context::Create(driver);
		REQUIRE(ctx);
		FeatureChain chain;
		vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &chain.f2);
		for (size_t i = 0; i < chain.storage.size(); ++i) {
			INFO("structure " << i << ", sType " << chain.Get<VkBaseOutStructure>(i).sType);
			size_t bad = 0;
			for (VkBool32 b : chain.Bools(i))
				if (b != VK_FALSE && b != VK_TRUE) ++bad;
			CHECK(bad == 0);
		}
		const auto& v12 = chain.Get<VkPhysicalDeviceVulkan12Features>(1);
		const auto& v13 = chain.Get<VkPhysicalDeviceVulkan13Features>(2);
		CHECK(chain.Get<VkPhysicalDeviceTimelineSemaphoreFeatures>(19).timelineSemaphore == v12.timelineSemaphore);
		CHECK(chain.Get<VkPhysicalDeviceHostQueryResetFeatures>(18).hostQueryReset == v12.hostQueryReset);
		CHECK(chain.Get<VkPhysicalDeviceSynchronization2Features>(29).synchronization2 == v13.synchronization2);
		CHECK(chain.Get<VkPhysicalDeviceMaintenance4Features>(34).maintenance4 == v13.maintenance4);
		CHECK(chain.Get<VkPhysicalDevicePrivateDataFeatures>(25).privateData == v13.privateData);
		CHECK(chain.Get<VkPhysicalDeviceDescriptorIndexingFeatures>(12).runtimeDescriptorArray ==
		      v12.runtimeDescriptorArray);
		// Structures promoted into the aggregates report the same bits (Chromium
		// reads samplerYcbcrConversion from the standalone structure).
		const auto& v11 = chain.Get<VkPhysicalDeviceVulkan11Features>(0);
		CHECK(chain.Get<VkPhysicalDeviceSamplerYcbcrConversionFeatures>(7).samplerYcbcrConversion ==
		      v11.samplerYcbcrConversion);
		CHECK(chain.Get<VkPhysicalDeviceShaderDrawParametersFeatures>(8).shaderDrawParameters ==
		      v11.shaderDrawParameters);
		CHECK(chain.Get<VkPhysicalDeviceMultiviewFeatures>(4).multiview == v11.multiview);
		CHECK(chain.Get<VkPhysicalDeviceDescriptorIndexingFeatures>(12).shaderUniformTexelBufferArrayDynamicIndexing ==
		      v12.shaderUniformTexelBufferArrayDynamicIndexing);
		CHECK(chain.Get<VkPhysicalDeviceImagelessFramebufferFeatures>(14).imagelessFramebuffer ==
		      v12.imagelessFramebuffer);
		CHECK(chain.Get<VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures>(16).shaderSubgroupExtendedTypes ==
		      v12.shaderSubgroupExtendedTypes);
		CHECK(chain.Get<VkPhysicalDeviceDynamicRenderingFeatures>(32).dynamicRendering == v13.dynamicRendering);
		CHECK(chain.Get<VkPhysicalDeviceShaderIntegerDotProductFeatures>(33).shaderIntegerDotProduct ==
		      v13.shaderIntegerDotProduct);
		CHECK(ctx->validation_errors() == 0);
	}
}

namespace {

// Creates a device on Tessera straight through the driver (the validation
// layer would rightly reject these requests before the driver saw them).
VkResult CreateDirect(const DirectDriver& driver, const void* next, const VkPhysicalDeviceFeatures* features,
                      std::vector<const char*> extensions = {}) {
	VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	VkInstance instance;
	REQUIRE(driver.Global<PFN_vkCreateInstance>("vkCreateInstance")(&info, nullptr, &instance) == VK_SUCCESS);
	uint32_t count = 1;
	VkPhysicalDevice physical;
	driver.Instance<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices")(instance, &count,
	                                                                                        &physical);
	float priority = 1.0f;
	VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	queue.queueCount = 1;
	queue.pQueuePriorities = &priority;
	VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, next};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &queue;
	dci.pEnabledFeatures = features;
	dci.enabledExtensionCount = uint32_t(extensions.size());
	dci.ppEnabledExtensionNames = extensions.data();
	VkDevice device = VK_NULL_HANDLE;
	VkResult result = driver.Instance<PFN_vkCreateDevice>(instance, "vkCreateDevice")(physical, &dci, nullptr, &device);
	if (device) driver.Device<PFN_vkDestroyDevice>(instance, device, "vkDestroyDevice")(device, nullptr);
	driver.Instance<PFN_vkDestroyInstance>(instance, "vkDestroyInstance")(instance, nullptr);
	return result;
}

}  // namespace

TEST_CASE("vkCreateDevice refuses features and extensions that are not supported", "[device]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	SECTION("supported requests succeed") {
		VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
		v12.timelineSemaphore = VK_TRUE;
		VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
		v13.synchronization2 = VK_TRUE;
		CHECK(CreateDirect(driver, &v13, nullptr) == VK_SUCCESS);
		CHECK(CreateDirect(driver, nullptr, nullptr, {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME}) == VK_SUCCESS);
	}
	SECTION("bytes after the last feature (tail padding) are not features") {
		// VkPhysicalDeviceVulkan13Features has 15 VkBool32s and 4 bytes of
		// padding; whatever they hold must not count as a request.
		static_assert(sizeof(VkPhysicalDeviceVulkan13Features) >
		              offsetof(VkPhysicalDeviceVulkan13Features, maintenance4) + sizeof(VkBool32));
		VkPhysicalDeviceVulkan13Features v13;
		std::memset(&v13, 0xff, sizeof v13);
		std::memset(&v13.robustImageAccess, 0,
		            offsetof(VkPhysicalDeviceVulkan13Features, maintenance4) + 4 -
		                offsetof(VkPhysicalDeviceVulkan13Features, robustImageAccess));
		v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
		v13.pNext = nullptr;
		v13.privateData = VK_TRUE;
		CHECK(CreateDirect(driver, &v13, nullptr) == VK_SUCCESS);
	}
	SECTION("a core 1.0 feature in pEnabledFeatures") {
		VkPhysicalDeviceFeatures features{};
		features.sparseResidency4Samples = VK_TRUE;  // no multisampled sparse images
		CHECK(CreateDirect(driver, nullptr, &features) == VK_ERROR_FEATURE_NOT_PRESENT);
	}
	SECTION("a core 1.0 feature in a chained VkPhysicalDeviceFeatures2") {
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
		f2.features.sparseResidency8Samples = VK_TRUE;
		CHECK(CreateDirect(driver, &f2, nullptr) == VK_ERROR_FEATURE_NOT_PRESENT);
	}
	SECTION("a feature in an aggregate structure") {
		VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
		v12.bufferDeviceAddressCaptureReplay = VK_TRUE;
		CHECK(CreateDirect(driver, &v12, nullptr) == VK_ERROR_FEATURE_NOT_PRESENT);
	}
	SECTION("a feature in an individual structure") {
		VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
		atomic_float.shaderBufferFloat16Atomics = VK_TRUE;  // no 16-bit float atomics
		CHECK(CreateDirect(driver, &atomic_float, nullptr) == VK_ERROR_FEATURE_NOT_PRESENT);
	}
	SECTION("a supported feature in an individual structure promoted to core is accepted") {
		// Vulkan 1.3 §47.1: the promoted structure names the same feature as the aggregate.
		VkPhysicalDeviceDynamicRenderingFeatures dynamic{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
		dynamic.dynamicRendering = VK_TRUE;
		CHECK(CreateDirect(driver, &dynamic, nullptr) == VK_SUCCESS);
		VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcr{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES};
		ycbcr.samplerYcbcrConversion = VK_TRUE;
		CHECK(CreateDirect(driver, &ycbcr, nullptr) == VK_SUCCESS);
	}
	SECTION("an unknown extension") {
		CHECK(CreateDirect(driver, nullptr, nullptr, {"VK_TESSERA_no_such_extension"}) ==
		      VK_ERROR_EXTENSION_NOT_PRESENT);
		CHECK(CreateDirect(driver, nullptr, nullptr, {VK_EXT_MESH_SHADER_EXTENSION_NAME}) ==
		      VK_ERROR_EXTENSION_NOT_PRESENT);
	}
}

TEST_CASE("Device groups: one group holding the one device", "[device]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	uint32_t count = 0;
	REQUIRE(vkEnumeratePhysicalDeviceGroups(ctx->instance(), &count, nullptr) == VK_SUCCESS);
	// The loader merges groups of all drivers: find ours.
	std::vector<VkPhysicalDeviceGroupProperties> groups(count, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
	REQUIRE(vkEnumeratePhysicalDeviceGroups(ctx->instance(), &count, groups.data()) == VK_SUCCESS);
	bool found = false;
	for (auto& g : groups) {
		if (g.physicalDevices[0] != ctx->physical_device()) continue;
		found = true;
		CHECK(g.physicalDeviceCount == 1);
		CHECK(g.subsetAllocation == VK_FALSE);
	}
	CHECK(found);
	VkCommandBuffer cb = ctx->BeginOneTime();
	vkCmdSetDeviceMask(cb, 1);
	ctx->EndAndWait(cb);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("Private data: one value per object and slot, 0 when never set", "[device]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.privateData = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPrivateDataSlotCreateInfo info{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
	VkPrivateDataSlot first, second;
	REQUIRE(vkCreatePrivateDataSlot(ctx->device(), &info, nullptr, &first) == VK_SUCCESS);
	REQUIRE(vkCreatePrivateDataSlot(ctx->device(), &info, nullptr, &second) == VK_SUCCESS);
	TestBuffer a = ctx->CreateBuffer(64), b = ctx->CreateBuffer(64);
	uint64_t value = 99;
	vkGetPrivateData(ctx->device(), VK_OBJECT_TYPE_BUFFER, uint64_t(a.buffer), first, &value);
	CHECK(value == 0);
	CHECK(vkSetPrivateData(ctx->device(), VK_OBJECT_TYPE_BUFFER, uint64_t(a.buffer), first, 1234) == VK_SUCCESS);
	CHECK(vkSetPrivateData(ctx->device(), VK_OBJECT_TYPE_DEVICE, uint64_t(ctx->device()), first, 5) == VK_SUCCESS);
	vkGetPrivateData(ctx->device(), VK_OBJECT_TYPE_BUFFER, uint64_t(a.buffer), first, &value);
	CHECK(value == 1234);
	vkGetPrivateData(ctx->device(), VK_OBJECT_TYPE_BUFFER, uint64_t(b.buffer), first, &value);
	CHECK(value == 0);
	vkGetPrivateData(ctx->device(), VK_OBJECT_TYPE_BUFFER, uint64_t(a.buffer), second, &value);
	CHECK(value == 0);
	vkGetPrivateData(ctx->device(), VK_OBJECT_TYPE_DEVICE, uint64_t(ctx->device()), first, &value);
	CHECK(value == 5);
	ctx->Destroy(a);
	ctx->Destroy(b);
	vkDestroyPrivateDataSlot(ctx->device(), first, nullptr);
	vkDestroyPrivateDataSlot(ctx->device(), second, nullptr);
	CHECK(ctx->validation_errors() == 0);
}
