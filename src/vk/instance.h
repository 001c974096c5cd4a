// VkInstance: the enabled extensions, the one physical device, and the
// VK_EXT_debug_utils messengers that every object reports through.
#pragma once

#include <bitset>
#include <memory>
#include <mutex>
#include <vector>

#include "entrypoints.h"
#include "vk/object.h"

namespace tessera::vk {

class PhysicalDevice;

struct DebugMessenger : Object<DebugMessenger, VkDebugUtilsMessengerEXT, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT> {
	VkDebugUtilsMessageSeverityFlagsEXT severities;
	VkDebugUtilsMessageTypeFlagsEXT types;
	PFN_vkDebugUtilsMessengerCallbackEXT callback;
	void* user_data;
};

class Instance : public DispatchableObject<Instance, VkInstance, VK_OBJECT_TYPE_INSTANCE> {
public:
	using ExtensionSet = std::bitset<static_cast<size_t>(entry::InstanceExtension::Count)>;

	Instance(const VkAllocationCallbacks* allocator, uint32_t api_version, ExtensionSet extensions);
	~Instance();
	VkResult Init(const VkInstanceCreateInfo& info);
	// Ends vkCreateInstance: the messengers chained to its create info fall
	// silent until vkDestroyInstance.
	void FinishCreation();
	// Starts vkDestroyInstance: those messengers report again.
	void StartDestruction();

	const VkAllocationCallbacks* Allocator() const { return has_allocator_ ? &allocator_ : nullptr; }
	uint32_t ApiVersion() const { return api_version_; }
	bool IsEnabled(entry::InstanceExtension extension) const { return extensions_[static_cast<size_t>(extension)]; }
	PhysicalDevice* GetPhysicalDevice() const { return physical_device_; }

	void AddMessenger(DebugMessenger* messenger);
	void RemoveMessenger(DebugMessenger* messenger);
	// Sends a message to the messengers (and to the log). object may be 0;
	// object_name is its VK_EXT_debug_utils name, if it has one.
	void Message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
	             VkObjectType object_type, uint64_t object, const char* text, const char* object_name = nullptr) const;
	// Hands callback data to every messenger that listens for it, unchanged.
	void Dispatch(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
	              const VkDebugUtilsMessengerCallbackDataEXT& data) const;

private:
	VkAllocationCallbacks allocator_{};
	bool has_allocator_ = false;
	uint32_t api_version_;
	ExtensionSet extensions_;
	PhysicalDevice* physical_device_ = nullptr;
	mutable std::mutex messengers_mutex_;
	std::vector<DebugMessenger*> messengers_;
	// Messengers chained into VkInstanceCreateInfo. VK_EXT_debug_utils: they
	// report only during vkCreateInstance and vkDestroyInstance.
	std::vector<DebugMessenger> creation_messengers_;
	bool creation_messengers_active_ = true;
};

}  // namespace tessera::vk
