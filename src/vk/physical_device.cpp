#include "vk/physical_device.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "vk/command_buffer.h"
#include "vk/device_memory.h"
#include "vk/format_support.h"
#include "vk/graphics_state.h"
#include "vk/instance.h"
#include "vk/tessellation_stage.h"

namespace tessera::vk {

namespace {

// 16-byte-aligned host memory backs everything; report a heap of 3/4 of RAM.
VkDeviceSize HostMemorySize() {
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_size = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || page_size <= 0) return VkDeviceSize(4) << 30;
	return VkDeviceSize(pages) * VkDeviceSize(page_size) / 4 * 3;
}

VkPhysicalDeviceLimits Limits() {
	VkPhysicalDeviceLimits l{};
	l.maxImageDimension1D = kMaxImageDimension1D;
	l.maxImageDimension2D = kMaxImageDimension2D;
	l.maxImageDimension3D = kMaxImageDimension3D;
	l.maxImageDimensionCube = kMaxImageDimensionCube;
	l.maxImageArrayLayers = kMaxImageArrayLayers;
	l.maxTexelBufferElements = 1u << 27;
	l.maxUniformBufferRange = 65536;
	l.maxStorageBufferRange = 1u << 30;
	l.maxPushConstantsSize = 256;
	l.maxMemoryAllocationCount = 1u << 20;
	l.maxSamplerAllocationCount = 1u << 20;
	l.bufferImageGranularity = 64;
	// Sparse buffers reserve host addresses (vk::Buffer::Init): a fraction
	// of x86-64's 128 TiB of user address space.
	l.sparseAddressSpaceSize = uint64_t(1) << 40;
	l.maxBoundDescriptorSets = 8;
	l.maxPerStageDescriptorSamplers = 1u << 20;
	l.maxPerStageDescriptorUniformBuffers = 1u << 20;
	l.maxPerStageDescriptorStorageBuffers = 1u << 20;
	l.maxPerStageDescriptorSampledImages = 1u << 20;
	l.maxPerStageDescriptorStorageImages = 1u << 20;
	l.maxPerStageDescriptorInputAttachments = 1u << 20;
	l.maxPerStageResources = 1u << 20;
	l.maxDescriptorSetSamplers = 1u << 20;
	l.maxDescriptorSetUniformBuffers = 1u << 20;
	l.maxDescriptorSetUniformBuffersDynamic = kMaxDynamicUniformBuffers;
	l.maxDescriptorSetStorageBuffers = 1u << 20;
	l.maxDescriptorSetStorageBuffersDynamic = kMaxDynamicStorageBuffers;
	l.maxDescriptorSetSampledImages = 1u << 20;
	l.maxDescriptorSetStorageImages = 1u << 20;
	l.maxDescriptorSetInputAttachments = 1u << 20;
	l.maxVertexInputAttributes = 32;
	l.maxVertexInputBindings = 32;
	l.maxVertexInputAttributeOffset = 2047;
	l.maxVertexInputBindingStride = 2048;
	l.maxVertexOutputComponents = 128;
	// Tessellation (vk/tessellation_stage.cpp, raster/tessellator.h): the
	// control stage's outputs are a record of workgroup memory per patch
	// (32 vertices of 128 components and 120 patch components: 16.9 KiB,
	// below the 64 KiB a lane group may use), the other interfaces private
	// words; all well within their memory. The per-vertex limits are
	// OpenGL 4.0's (128, as lavapipe's), which Zink passes on to OpenGL
	// programs; Vulkan's minimum is 64.
	l.maxTessellationGenerationLevel = raster::kMaxTessellationLevel;
	l.maxTessellationPatchSize = kMaxPatchControlPoints;
	l.maxTessellationControlPerVertexInputComponents = 128;
	l.maxTessellationControlPerVertexOutputComponents = 128;
	l.maxTessellationControlPerPatchOutputComponents = 120;
	l.maxTessellationControlTotalOutputComponents = 4096;
	l.maxTessellationEvaluationInputComponents = 128;
	l.maxTessellationEvaluationOutputComponents = 128;
	// The geometry stage (vk/geometry_stage.cpp): Invocations and
	// OutputVertices are checked by the translator; the emit records of one
	// invocation fit its private memory (spirv/translate_stage.cpp).
	l.maxGeometryShaderInvocations = shader::kMaxGeometryInvocations;
	l.maxGeometryInputComponents = 64;
	l.maxGeometryOutputComponents = 128;
	l.maxGeometryOutputVertices = 256;
	l.maxGeometryTotalOutputComponents = 1024;
	l.maxFragmentInputComponents = 128;
	l.maxFragmentOutputAttachments = 8;
	l.maxFragmentDualSrcAttachments = 1;  // src/raster: color[1] is attachment 0's second source
	l.maxFragmentCombinedOutputResources = 8 + (1u << 20);
	l.maxComputeSharedMemorySize = 65536;
	l.maxComputeWorkGroupCount[0] = l.maxComputeWorkGroupCount[1] = l.maxComputeWorkGroupCount[2] = 65535;
	l.maxComputeWorkGroupInvocations = 1024;
	l.maxComputeWorkGroupSize[0] = 1024;
	l.maxComputeWorkGroupSize[1] = 1024;
	l.maxComputeWorkGroupSize[2] = 1024;
	l.subPixelPrecisionBits = 8;
	l.subTexelPrecisionBits = 8;
	l.mipmapPrecisionBits = 8;
	l.maxDrawIndexedIndexValue = UINT32_MAX;
	l.maxDrawIndirectCount = UINT32_MAX;
	l.maxSamplerLodBias = 15.0f;
	l.maxSamplerAnisotropy = 16.0f;  // texture/sample.cpp: up to 16 samples along the footprint
	l.maxViewports = kMaxViewports;  // multiViewport (vk/draw.cpp, DrawAssembled)
	l.maxViewportDimensions[0] = l.maxViewportDimensions[1] = 16384;
	l.viewportBoundsRange[0] = -32768.0f;
	l.viewportBoundsRange[1] = 32767.0f;
	l.viewportSubPixelBits = 8;
	l.minMemoryMapAlignment = 64;
	l.minTexelBufferOffsetAlignment = 16;
	l.minUniformBufferOffsetAlignment = 16;
	l.minStorageBufferOffsetAlignment = 16;
	// Texel offsets are added to integer texel coordinates on the per-lane
	// sampling path whatever their size (texture/sample.cpp).
	l.minTexelOffset = -32;
	l.maxTexelOffset = 31;
	l.minTexelGatherOffset = -32;
	l.maxTexelGatherOffset = 31;
	// InterpolateAtOffset adds the offset times the value's screen-space
	// gradient (spirv/translate_stage.cpp), unrounded and for any offset.
	l.minInterpolationOffset = -2.0f;
	l.maxInterpolationOffset = 2.0f;
	l.subPixelInterpolationOffsetBits = 8;
	l.maxFramebufferWidth = 16384;
	l.maxFramebufferHeight = 16384;
	l.maxFramebufferLayers = 2048;
	l.framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.maxColorAttachments = 8;
	l.sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
	l.storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;  // shaderStorageImageMultisample
	l.maxSampleMaskWords = 1;
	l.timestampComputeAndGraphics = VK_TRUE;
	l.timestampPeriod = PhysicalDevice::kTimestampPeriod;
	l.maxClipDistances = 8;
	l.maxCullDistances = 8;
	l.maxCombinedClipAndCullDistances = 8;
	l.discreteQueuePriorities = 2;
	// src/raster: points are squares and lines exact rectangles of any
	// float size in [1, 256] (raster::kMaxPointSize, kMaxLineWidth).
	l.pointSizeRange[0] = 1.0f;
	l.pointSizeRange[1] = 256.0f;
	l.lineWidthRange[0] = 1.0f;
	l.lineWidthRange[1] = 256.0f;
	l.pointSizeGranularity = 0.0078125f;
	l.lineWidthGranularity = 0.0078125f;
	l.strictLines = VK_TRUE;
	l.standardSampleLocations = VK_TRUE;
	l.optimalBufferCopyOffsetAlignment = 16;
	l.optimalBufferCopyRowPitchAlignment = 16;
	l.nonCoherentAtomSize = 64;
	return l;
}

}  // namespace

PhysicalDevice::PhysicalDevice(Instance* instance) : instance_(instance) {
	properties_.apiVersion = kApiVersion;
	properties_.driverVersion = VK_MAKE_VERSION(0, 1, 0);
	// No Khronos vendor ID is registered for Tessera; 0 claims no vendor.
	properties_.vendorID = 0;
	properties_.deviceID = 0;
	properties_.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
	std::strncpy(properties_.deviceName, "Tessera (CPU)", VK_MAX_PHYSICAL_DEVICE_NAME_SIZE - 1);
	// pipelineCacheUUID: InitExtendedProperties (physical_device_properties.cpp).
	properties_.limits = Limits();
	// Partially resident images (texture::SparseBlock): 2D blocks of the
	// standard shapes; 3D blocks of 1- and 2-byte texels are not; no mip
	// tail; unbound blocks are private zero pages, which keep what is
	// written to them (not strict).
	properties_.sparseProperties = {};
	properties_.sparseProperties.residencyStandard2DBlockShape = VK_TRUE;

	memory_properties_.memoryHeapCount = 1;
	memory_properties_.memoryHeaps[0] = {HostMemorySize(), VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
	memory_properties_.memoryTypeCount = kMemoryTypeCount;
	for (uint32_t t = 0; t < kMemoryTypeCount; ++t)
		memory_properties_.memoryTypes[t] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
		                                         VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
		                                     0};
	InitExtendedProperties();
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::PhysicalDevice;

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* pPhysicalDeviceCount,
                                                        VkPhysicalDevice* pPhysicalDevices) {
	VkPhysicalDevice device = vk::Instance::Cast(instance)->GetPhysicalDevice()->ToHandle();
	return vk::FillArray(&device, 1, pPhysicalDeviceCount, pPhysicalDevices);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                       VkPhysicalDeviceProperties* pProperties) {
	*pProperties = PhysicalDevice::Cast(physicalDevice)->Properties();
}

namespace {

// PhysicalDevice::kUniversalFamily, kComputeFamily and kTransferFamily. A
// queue of any runs the commands it may record on the same engine; the
// compute family lacks GRAPHICS (so its command buffers record no draws,
// blits, resolves or depth/stencil clears) and SPARSE_BINDING, the
// transfer family COMPUTE as well (copies, fills and updates only).
// Timestamps are 64-bit CLOCK_MONOTONIC nanoseconds on all; copies have no
// granularity.
constexpr VkQueueFamilyProperties kFamilies[vk::PhysicalDevice::kQueueFamilyCount] = {
    {VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT | VK_QUEUE_SPARSE_BINDING_BIT,
     PhysicalDevice::kQueueCount,
     64,
     {1, 1, 1}},
    {VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, PhysicalDevice::kQueueCount, 64, {1, 1, 1}},
    {VK_QUEUE_TRANSFER_BIT, PhysicalDevice::kQueueCount, 64, {1, 1, 1}},
};

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice, uint32_t* pQueueFamilyPropertyCount,
                                                                  VkQueueFamilyProperties* pQueueFamilyProperties) {
	vk::FillArray(kFamilies, vk::PhysicalDevice::kQueueFamilyCount, pQueueFamilyPropertyCount, pQueueFamilyProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice,
                                                                   uint32_t* pQueueFamilyPropertyCount,
                                                                   VkQueueFamilyProperties2* pQueueFamilyProperties) {
	if (!pQueueFamilyProperties) {
		*pQueueFamilyPropertyCount = vk::PhysicalDevice::kQueueFamilyCount;
		return;
	}
	const uint32_t count = std::min(*pQueueFamilyPropertyCount, vk::PhysicalDevice::kQueueFamilyCount);
	*pQueueFamilyPropertyCount = count;
	for (uint32_t i = 0; i < count; ++i) {
		pQueueFamilyProperties[i].queueFamilyProperties = kFamilies[i];
		for (auto* s = static_cast<VkBaseOutStructure*>(pQueueFamilyProperties[i].pNext); s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR) {
				// VK_KHR_global_priority: every level, in ascending order
				// (vk/queue.cpp maps each to a nice value of the queue's thread).
				auto* p = reinterpret_cast<VkQueueFamilyGlobalPriorityPropertiesKHR*>(s);
				static constexpr VkQueueGlobalPriorityKHR kLevels[] = {
				    VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR,
				    VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR, VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR};
				p->priorityCount = 4;
				std::copy(std::begin(kLevels), std::end(kLevels), p->priorities);
			}
	}
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice physicalDevice,
                                                             VkPhysicalDeviceMemoryProperties* pMemoryProperties) {
	*pMemoryProperties = PhysicalDevice::Cast(physicalDevice)->MemoryProperties();
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice physicalDevice,
                                                              VkPhysicalDeviceMemoryProperties2* pMemoryProperties) {
	pMemoryProperties->memoryProperties = PhysicalDevice::Cast(physicalDevice)->MemoryProperties();
	for (auto* s = static_cast<VkBaseOutStructure*>(pMemoryProperties->pNext); s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT) {
			// VK_EXT_memory_budget: measured at each call; heaps past the
			// first (there are none) read 0, as the spec asks.
			auto* budget = reinterpret_cast<VkPhysicalDeviceMemoryBudgetPropertiesEXT*>(s);
			std::fill(std::begin(budget->heapBudget), std::end(budget->heapBudget), 0);
			std::fill(std::begin(budget->heapUsage), std::end(budget->heapUsage), 0);
			const VkDeviceSize usage = vk::ProcessMemoryUsage();
			budget->heapUsage[0] = usage;
			budget->heapBudget[0] = vk::MemoryBudget(pMemoryProperties->memoryProperties.memoryHeaps[0].size, usage);
		}
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                     VkPhysicalDeviceFeatures* pFeatures) {
	VkPhysicalDeviceFeatures2 features{};
	features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
	PhysicalDevice::Cast(physicalDevice)->GetFeatures(&features);
	*pFeatures = features.features;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                      VkPhysicalDeviceFeatures2* pFeatures) {
	PhysicalDevice::Cast(physicalDevice)->GetFeatures(pFeatures);
}

// vkGetPhysicalDeviceToolProperties: the driver itself reports no tools;
// layers add theirs on the way up.
VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceToolProperties(VkPhysicalDevice, uint32_t* pToolCount,
                                                               VkPhysicalDeviceToolProperties*) {
	*pToolCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char* pLayerName,
                                                                  uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
	if (pLayerName) return VK_ERROR_LAYER_NOT_PRESENT;
	return vk::FillArray(kDeviceExtensions, static_cast<uint32_t>(DeviceExtension::Count), pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pPropertyCount,
                                                              VkLayerProperties*) {
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

}  // namespace tessera::entry
