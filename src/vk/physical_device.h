// VkPhysicalDevice: the CPU as one Vulkan device. Properties, limits and
// features are reported here and nowhere else; a feature is true only when it
// works end to end.
#pragma once

#include "shader/ir.h"
#include "vk/object.h"

namespace tessera::vk {

// The Vulkan version Tessera implements, reported by the physical device,
// vkEnumerateInstanceVersion and the ICD manifest (src/CMakeLists.txt), and
// the highest version whose core commands vkGet*ProcAddr return.
constexpr uint32_t kApiVersion = VK_MAKE_API_VERSION(0, 1, 4, 0);

class Instance;

class PhysicalDevice : public DispatchableObject<PhysicalDevice, VkPhysicalDevice, VK_OBJECT_TYPE_PHYSICAL_DEVICE> {
public:
	explicit PhysicalDevice(Instance* instance);

	Instance* GetInstance() const { return instance_; }
	const VkPhysicalDeviceProperties& Properties() const { return properties_; }
	const VkPhysicalDeviceMemoryProperties& MemoryProperties() const { return memory_properties_; }
	// Fills VkPhysicalDeviceProperties2 and every property structure chained
	// to it that Vulkan 1.3 or our extensions define.
	void GetProperties(VkPhysicalDeviceProperties2* properties) const;

	// Fills VkPhysicalDeviceFeatures2 and every feature structure chained to it.
	void GetFeatures(VkPhysicalDeviceFeatures2* features) const;
	// Checks a VkDeviceCreateInfo's requested features (pEnabledFeatures and
	// chained structures) against GetFeatures; false if any is unsupported.
	bool SupportsRequestedFeatures(const VkDeviceCreateInfo& info) const;

	// Three queue families of one queue each: family 0 does everything
	// (graphics, compute, transfer, sparse binding); family 1 is compute and
	// transfer only, for programs that run compute beside their graphics
	// (async compute, Direct3D 12 compute queues); family 2 is transfer only
	// (uploads beside rendering, Direct3D 12 copy queues). Each queue has
	// its own thread; all share the device's thread pool (vk/queue.h).
	static constexpr uint32_t kUniversalFamily = 0;
	static constexpr uint32_t kComputeFamily = 1;
	static constexpr uint32_t kTransferFamily = 2;
	static constexpr uint32_t kQueueFamilyCount = 3;
	static constexpr uint32_t kQueueCount = 1;  // in each family
	// Two memory types of the same properties in the one heap; the second is
	// the one sparse buffers bind (DeviceMemory::kSparseMemoryType).
	static constexpr uint32_t kMemoryTypeCount = 2;
	// Timestamps are CLOCK_MONOTONIC nanoseconds.
	static constexpr float kTimestampPeriod = 1.0f;
	// The shader engine's subgroup size (src/shader/ir.h).
	static constexpr uint32_t kSubgroupSize = shader::kSubgroupSize;
	// VK_EXT_shader_object: binaries carry the UUID and this version
	// (vk/shader_object.cpp), and only this build's are accepted.
	static constexpr uint32_t kShaderBinaryVersion = 1;
	const uint8_t* ShaderBinaryUuid() const { return shader_binary_uuid_; }

private:
	void InitExtendedProperties();
	void FillProperties(VkBaseOutStructure* s) const;

	Instance* instance_;
	VkPhysicalDeviceProperties properties_{};
	VkPhysicalDeviceMemoryProperties memory_properties_{};
	VkPhysicalDeviceVulkan11Properties vulkan11_{};
	uint8_t optimal_tiling_uuid_[VK_UUID_SIZE] = {};  // VK_EXT_host_image_copy (InitExtendedProperties)
	uint8_t shader_binary_uuid_[VK_UUID_SIZE] = {};   // VK_EXT_shader_object (InitExtendedProperties)
	VkPhysicalDeviceVulkan12Properties vulkan12_{};
	VkPhysicalDeviceVulkan13Properties vulkan13_{};
};

}  // namespace tessera::vk
