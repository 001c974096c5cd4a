// The feature bits Tessera reports. A bit is set only when what it promises
// works end to end; each later stage (shaders, rasterization, sampling) turns
// its own bits on as it lands.
#include <cstring>

#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

// Every feature structure is { sType, pNext, VkBool32... }.
constexpr size_t kBoolsOffset = offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess);

struct FeatureStruct {
	VkStructureType type;
	size_t size;
};

constexpr FeatureStruct kFeatureStructs[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, sizeof(VkPhysicalDeviceVulkan11Features)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, sizeof(VkPhysicalDeviceVulkan12Features)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, sizeof(VkPhysicalDeviceVulkan13Features)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, sizeof(VkPhysicalDeviceTimelineSemaphoreFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, sizeof(VkPhysicalDeviceHostQueryResetFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, sizeof(VkPhysicalDeviceSynchronization2Features)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES, sizeof(VkPhysicalDevicePrivateDataFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, sizeof(VkPhysicalDeviceMaintenance4Features)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
     sizeof(VkPhysicalDeviceSamplerYcbcrConversionFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, sizeof(VkPhysicalDevice16BitStorageFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, sizeof(VkPhysicalDeviceMultiviewFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES, sizeof(VkPhysicalDeviceProtectedMemoryFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES,
     sizeof(VkPhysicalDeviceShaderDrawParametersFeatures)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, sizeof(VkPhysicalDeviceVariablePointersFeatures)},
};

const FeatureStruct* FindFeatureStruct(VkStructureType type) {
	for (const auto& f : kFeatureStructs)
		if (f.type == type) return &f;
	return nullptr;
}

// Writes the supported bits of one feature structure, leaving sType/pNext.
void FillFeatures(VkBaseOutStructure* s) {
	const FeatureStruct* known = FindFeatureStruct(s->sType);
	if (!known) return;
	std::memset(reinterpret_cast<char*>(s) + kBoolsOffset, 0, known->size - kBoolsOffset);
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
		auto* f = reinterpret_cast<VkPhysicalDeviceVulkan12Features*>(s);
		f->timelineSemaphore = VK_TRUE;
		f->hostQueryReset = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
		auto* f = reinterpret_cast<VkPhysicalDeviceVulkan13Features*>(s);
		f->synchronization2 = VK_TRUE;
		f->privateData = VK_TRUE;
		f->maintenance4 = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
		reinterpret_cast<VkPhysicalDeviceTimelineSemaphoreFeatures*>(s)->timelineSemaphore = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
		reinterpret_cast<VkPhysicalDeviceHostQueryResetFeatures*>(s)->hostQueryReset = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
		reinterpret_cast<VkPhysicalDeviceSynchronization2Features*>(s)->synchronization2 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
		reinterpret_cast<VkPhysicalDevicePrivateDataFeatures*>(s)->privateData = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
		reinterpret_cast<VkPhysicalDeviceMaintenance4Features*>(s)->maintenance4 = VK_TRUE;
		break;
	default: break;
	}
}

void FillCoreFeatures(VkPhysicalDeviceFeatures* f) {
	*f = {};
	// Shader-, raster- and sampling-dependent features stay off until their
	// stages exist.
}

// True if every bit set in requested is set in supported.
bool Covers(const void* supported, const void* requested, size_t offset, size_t size) {
	auto* s = static_cast<const VkBool32*>(supported);
	auto* r = static_cast<const VkBool32*>(requested);
	for (size_t i = offset / sizeof(VkBool32); i < size / sizeof(VkBool32); ++i)
		if (r[i] && !s[i]) return false;
	return true;
}

}  // namespace

void PhysicalDevice::GetFeatures(VkPhysicalDeviceFeatures2* features) const {
	FillCoreFeatures(&features->features);
	for (auto* s = static_cast<VkBaseOutStructure*>(features->pNext); s; s = s->pNext) FillFeatures(s);
}

bool PhysicalDevice::SupportsRequestedFeatures(const VkDeviceCreateInfo& info) const {
	VkPhysicalDeviceFeatures core;
	FillCoreFeatures(&core);
	if (info.pEnabledFeatures && !Covers(&core, info.pEnabledFeatures, 0, sizeof core)) return false;
	for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
			auto* f2 = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s);
			if (!Covers(&core, &f2->features, 0, sizeof core)) return false;
			continue;
		}
		const FeatureStruct* known = FindFeatureStruct(s->sType);
		if (!known) continue;
		alignas(8) unsigned char supported[512];
		std::memcpy(supported, s, known->size);
		FillFeatures(reinterpret_cast<VkBaseOutStructure*>(supported));
		if (!Covers(supported, s, kBoolsOffset, known->size)) return false;
	}
	return true;
}

}  // namespace tessera::vk
