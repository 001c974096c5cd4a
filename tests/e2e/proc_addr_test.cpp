// vkGetInstanceProcAddr / vkGetDeviceProcAddr rules (Vulkan 1.3,
// "Command Function Pointers") and the loader-driver interface, asked of
// the driver directly: through the loader, the loader answers many of these
// itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "direct_driver.h"
#include "icd/vulkan_newer.h"

using tessera::test::DirectDriver;

namespace {

struct Instance {
	const DirectDriver& driver;
	VkInstance handle = VK_NULL_HANDLE;
	Instance(const DirectDriver& d, uint32_t api_version, std::vector<const char*> extensions = {}) : driver(d) {
		VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
		app.apiVersion = api_version;
		VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
		info.pApplicationInfo = &app;
		info.enabledExtensionCount = uint32_t(extensions.size());
		info.ppEnabledExtensionNames = extensions.data();
		auto create = d.Global<PFN_vkCreateInstance>("vkCreateInstance");
		REQUIRE(create(&info, nullptr, &handle) == VK_SUCCESS);
	}
	~Instance() { driver.Instance<PFN_vkDestroyInstance>(handle, "vkDestroyInstance")(handle, nullptr); }
	VkPhysicalDevice PhysicalDevice() const {
		uint32_t count = 1;
		VkPhysicalDevice device = VK_NULL_HANDLE;
		driver.Instance<PFN_vkEnumeratePhysicalDevices>(handle, "vkEnumeratePhysicalDevices")(handle, &count, &device);
		return device;
	}
};

struct Device {
	const Instance& instance;
	VkDevice handle = VK_NULL_HANDLE;
	Device(const Instance& i, std::vector<const char*> extensions = {}) : instance(i) {
		float priority = 1.0f;
		VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
		queue.queueCount = 1;
		queue.pQueuePriorities = &priority;
		VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
		info.queueCreateInfoCount = 1;
		info.pQueueCreateInfos = &queue;
		info.enabledExtensionCount = uint32_t(extensions.size());
		info.ppEnabledExtensionNames = extensions.data();
		auto create = i.driver.Instance<PFN_vkCreateDevice>(i.handle, "vkCreateDevice");
		REQUIRE(create(i.PhysicalDevice(), &info, nullptr, &handle) == VK_SUCCESS);
	}
	~Device() { reinterpret_cast<PFN_vkDestroyDevice>(Proc("vkDestroyDevice"))(handle, nullptr); }
	PFN_vkVoidFunction Proc(const char* name) const {
		return instance.driver.Device<PFN_vkVoidFunction>(instance.handle, handle, name);
	}
};

}  // namespace

TEST_CASE("Loader interface: negotiation settles on version 7 or the loader's lower one", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	uint32_t version = 7;
	CHECK(driver.negotiate(&version) == VK_SUCCESS);
	CHECK(version == 7);
	version = 42;  // a future loader
	CHECK(driver.negotiate(&version) == VK_SUCCESS);
	CHECK(version == 7);
	version = 4;  // an older loader: we speak its version
	CHECK(driver.negotiate(&version) == VK_SUCCESS);
	CHECK(version == 4);
}

TEST_CASE("Loader interface 7: vk_icd functions are reachable through vk_icdGetInstanceProcAddr", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	CHECK(driver.icd_gipa(VK_NULL_HANDLE, "vk_icdNegotiateLoaderICDInterfaceVersion") ==
	      reinterpret_cast<PFN_vkVoidFunction>(driver.negotiate));
	CHECK(driver.icd_gipa(VK_NULL_HANDLE, "vk_icdGetPhysicalDeviceProcAddr") ==
	      reinterpret_cast<PFN_vkVoidFunction>(driver.icd_gpdpa));
	CHECK(driver.icd_gipa(VK_NULL_HANDLE, "vk_icdNoSuchFunction") == nullptr);
}

TEST_CASE("vkGetInstanceProcAddr with a NULL instance gives only global commands", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	for (auto* gipa : {driver.icd_gipa, driver.exported_gipa}) {
		CHECK(gipa(VK_NULL_HANDLE, "vkCreateInstance") != nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkEnumerateInstanceVersion") != nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties") != nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkEnumerateInstanceLayerProperties") != nullptr);
		// Vulkan 1.3 "Command Function Pointers": vkGetInstanceProcAddr itself.
		CHECK(gipa(VK_NULL_HANDLE, "vkGetInstanceProcAddr") != nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkEnumeratePhysicalDevices") == nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkCreateDevice") == nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkCreateBuffer") == nullptr);
		CHECK(gipa(VK_NULL_HANDLE, "vkNotACommand") == nullptr);
		CHECK(gipa(VK_NULL_HANDLE, nullptr) == nullptr);
	}
	uint32_t version = 0;
	driver.Global<PFN_vkEnumerateInstanceVersion>("vkEnumerateInstanceVersion")(&version);
	CHECK(version >= VK_API_VERSION_1_3);
}

TEST_CASE("vkGetInstanceProcAddr gives instance-extension commands only when the extension is enabled", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	{
		Instance instance(driver, VK_API_VERSION_1_3);
		CHECK(driver.icd_gipa(instance.handle, "vkCreateDebugUtilsMessengerEXT") == nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkEnumeratePhysicalDeviceGroupsKHR") == nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkEnumeratePhysicalDeviceGroups") != nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkGetPhysicalDeviceProperties2") != nullptr);
		// Device-level commands of supported device extensions: the loader
		// asks for them before any device exists.
		CHECK(driver.icd_gipa(instance.handle, "vkCmdPipelineBarrier2KHR") != nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkNotACommand") == nullptr);
		// Vulkan 1.3 "Command Function Pointers": with an instance, global
		// commands fall under "any other case" (NULL); vkGetInstanceProcAddr
		// itself is still given.
		CHECK(driver.icd_gipa(instance.handle, "vkCreateInstance") == nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkEnumerateInstanceExtensionProperties") == nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkGetInstanceProcAddr") != nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkDestroyInstance") != nullptr);
	}
	{
		Instance instance(driver, VK_API_VERSION_1_3,
		                  {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME});
		CHECK(driver.icd_gipa(instance.handle, "vkCreateDebugUtilsMessengerEXT") != nullptr);
		CHECK(driver.icd_gipa(instance.handle, "vkEnumeratePhysicalDeviceGroupsKHR") != nullptr);
	}
}

TEST_CASE("vk_icdGetPhysicalDeviceProcAddr answers physical-device commands only", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	Instance instance(driver, VK_API_VERSION_1_3);
	CHECK(driver.icd_gpdpa(instance.handle, "vkGetPhysicalDeviceProperties2") != nullptr);
	CHECK(driver.icd_gpdpa(instance.handle, "vkGetPhysicalDeviceFeatures2") != nullptr);
	CHECK(driver.icd_gpdpa(instance.handle, "vkGetPhysicalDeviceToolProperties") != nullptr);
	CHECK(driver.icd_gpdpa(instance.handle, "vkCreateBuffer") == nullptr);
	CHECK(driver.icd_gpdpa(instance.handle, "vkCreateInstance") == nullptr);
	CHECK(driver.icd_gpdpa(instance.handle, "vkNotACommand") == nullptr);
}

TEST_CASE("vkGetDeviceProcAddr follows the application's apiVersion and the enabled extensions", "[proc_addr]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	SECTION("apiVersion 1.0, no extensions") {
		Instance instance(driver, VK_API_VERSION_1_0);
		Device device(instance);
		CHECK(device.Proc("vkCreateBuffer") != nullptr);
		CHECK(device.Proc("vkCmdCopyBuffer") != nullptr);
		CHECK(device.Proc("vkQueueSubmit") != nullptr);
		// Vulkan 1.3 "Command Function Pointers": core commands newer than the
		// apiVersion are NULL.
		CHECK(device.Proc("vkTrimCommandPool") == nullptr);           // 1.1
		CHECK(device.Proc("vkGetSemaphoreCounterValue") == nullptr);  // 1.2
		CHECK(device.Proc("vkCmdPipelineBarrier2") == nullptr);       // 1.3
		// Extension commands of extensions not enabled are NULL.
		CHECK(device.Proc("vkCmdPipelineBarrier2KHR") == nullptr);
		CHECK(device.Proc("vkTrimCommandPoolKHR") == nullptr);
		// Instance-level and global commands are not device commands.
		CHECK(device.Proc("vkCreateInstance") == nullptr);
		CHECK(device.Proc("vkGetPhysicalDeviceProperties") == nullptr);
		CHECK(device.Proc("vkEnumeratePhysicalDevices") == nullptr);
		CHECK(device.Proc("vkNotACommand") == nullptr);
	}
	SECTION("apiVersion 1.0 with extensions enabled") {
		Instance instance(driver, VK_API_VERSION_1_0);
		Device device(instance, {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_KHR_MAINTENANCE1_EXTENSION_NAME});
		CHECK(device.Proc("vkCmdPipelineBarrier2KHR") != nullptr);
		CHECK(device.Proc("vkTrimCommandPoolKHR") != nullptr);
		// The core name still belongs to 1.3, above the apiVersion.
		CHECK(device.Proc("vkCmdPipelineBarrier2") == nullptr);
	}
	SECTION("apiVersion 1.1 gives 1.1 but not 1.2") {
		Instance instance(driver, VK_API_VERSION_1_1);
		Device device(instance);
		CHECK(device.Proc("vkTrimCommandPool") != nullptr);
		CHECK(device.Proc("vkGetSemaphoreCounterValue") == nullptr);
	}
	SECTION("apiVersion 1.3 gives 1.3 but not 1.4") {
		Instance instance(driver, VK_API_VERSION_1_3);
		Device device(instance);
		CHECK(device.Proc("vkTrimCommandPool") != nullptr);
		CHECK(device.Proc("vkGetSemaphoreCounterValue") != nullptr);
		CHECK(device.Proc("vkCmdPipelineBarrier2") != nullptr);
		CHECK(device.Proc("vkCmdBindIndexBuffer2") == nullptr);  // VK_KHR_maintenance5: past the version
	}
	SECTION("apiVersion 1.4 gives every core version, 1.4's commands under their core names") {
		Instance instance(driver, VK_API_VERSION_1_4);
		Device device(instance);
		CHECK(device.Proc("vkCmdPipelineBarrier2") != nullptr);
		for (const char* name :
		     {"vkMapMemory2", "vkUnmapMemory2", "vkGetDeviceImageSubresourceLayout", "vkGetImageSubresourceLayout2",
		      "vkCopyMemoryToImage", "vkCopyImageToMemory", "vkCopyImageToImage", "vkTransitionImageLayout",
		      "vkCmdPushDescriptorSet", "vkCmdPushDescriptorSetWithTemplate", "vkCmdBindDescriptorSets2",
		      "vkCmdPushConstants2", "vkCmdPushDescriptorSet2", "vkCmdPushDescriptorSetWithTemplate2",
		      "vkCmdSetLineStipple", "vkCmdBindIndexBuffer2", "vkGetRenderingAreaGranularity",
		      "vkCmdSetRenderingAttachmentLocations", "vkCmdSetRenderingInputAttachmentIndices"}) {
			INFO(name);
			CHECK(device.Proc(name) != nullptr);
		}
		// The same functions as the extensions' names.
		Device with_extension(instance, {VK_KHR_MAINTENANCE_5_EXTENSION_NAME});
		CHECK(with_extension.Proc("vkCmdBindIndexBuffer2") == with_extension.Proc("vkCmdBindIndexBuffer2KHR"));
		// Nothing past 1.4.
		CHECK(device.Proc("vkCmdBindIndexBuffer2KHR") == nullptr);  // extension not enabled
	}
	SECTION("device-level commands of an instance extension need that instance extension") {
		Instance plain(driver, VK_API_VERSION_1_3);
		Device without(plain);
		CHECK(without.Proc("vkCmdBeginDebugUtilsLabelEXT") == nullptr);
		CHECK(without.Proc("vkSetDebugUtilsObjectNameEXT") == nullptr);
		Instance debug(driver, VK_API_VERSION_1_3, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
		Device with(debug);
		CHECK(with.Proc("vkCmdBeginDebugUtilsLabelEXT") != nullptr);
		CHECK(with.Proc("vkQueueInsertDebugUtilsLabelEXT") != nullptr);
		CHECK(with.Proc("vkSetDebugUtilsObjectNameEXT") != nullptr);
	}
}

namespace {

std::vector<const char*> AdvertisedExtensions(const DirectDriver& driver, const Instance* instance,
                                              std::vector<VkExtensionProperties>& storage) {
	uint32_t count = 0;
	if (instance) {
		auto enumerate = driver.Instance<PFN_vkEnumerateDeviceExtensionProperties>(
		    instance->handle, "vkEnumerateDeviceExtensionProperties");
		enumerate(instance->PhysicalDevice(), nullptr, &count, nullptr);
		storage.resize(count);
		enumerate(instance->PhysicalDevice(), nullptr, &count, storage.data());
	} else {
		auto enumerate =
		    driver.Global<PFN_vkEnumerateInstanceExtensionProperties>("vkEnumerateInstanceExtensionProperties");
		enumerate(nullptr, &count, nullptr);
		storage.resize(count);
		enumerate(nullptr, &count, storage.data());
	}
	std::vector<const char*> names;
	for (auto& e : storage) names.push_back(e.extensionName);
	return names;
}

// Commands of each advertised extension (vk.xml), device-level ones last.
struct ExtensionCommands {
	const char* extension;
	bool instance_level;
	std::vector<const char*> commands;
};

const ExtensionCommands kExtensionCommands[] = {
    {"VK_KHR_get_physical_device_properties2",
     true,
     {"vkGetPhysicalDeviceFeatures2KHR", "vkGetPhysicalDeviceProperties2KHR", "vkGetPhysicalDeviceFormatProperties2KHR",
      "vkGetPhysicalDeviceImageFormatProperties2KHR", "vkGetPhysicalDeviceQueueFamilyProperties2KHR",
      "vkGetPhysicalDeviceMemoryProperties2KHR", "vkGetPhysicalDeviceSparseImageFormatProperties2KHR"}},
    {"VK_KHR_external_memory_capabilities", true, {"vkGetPhysicalDeviceExternalBufferPropertiesKHR"}},
    {"VK_KHR_external_semaphore_capabilities", true, {"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR"}},
    {"VK_KHR_external_fence_capabilities", true, {"vkGetPhysicalDeviceExternalFencePropertiesKHR"}},
    {"VK_KHR_device_group_creation", true, {"vkEnumeratePhysicalDeviceGroupsKHR"}},
    {"VK_EXT_debug_utils",
     true,
     {"vkCreateDebugUtilsMessengerEXT", "vkDestroyDebugUtilsMessengerEXT", "vkSubmitDebugUtilsMessageEXT",
      "vkSetDebugUtilsObjectNameEXT", "vkSetDebugUtilsObjectTagEXT", "vkCmdBeginDebugUtilsLabelEXT",
      "vkCmdEndDebugUtilsLabelEXT", "vkCmdInsertDebugUtilsLabelEXT", "vkQueueBeginDebugUtilsLabelEXT",
      "vkQueueEndDebugUtilsLabelEXT", "vkQueueInsertDebugUtilsLabelEXT"}},
    {"VK_KHR_surface",
     true,
     {"vkDestroySurfaceKHR", "vkGetPhysicalDeviceSurfaceSupportKHR", "vkGetPhysicalDeviceSurfaceCapabilitiesKHR",
      "vkGetPhysicalDeviceSurfaceFormatsKHR", "vkGetPhysicalDeviceSurfacePresentModesKHR"}},
    {"VK_EXT_headless_surface", true, {"vkCreateHeadlessSurfaceEXT"}},
    {"VK_KHR_get_surface_capabilities2",
     true,
     {"vkGetPhysicalDeviceSurfaceCapabilities2KHR", "vkGetPhysicalDeviceSurfaceFormats2KHR"}},
    {"VK_KHR_xcb_surface", true, {"vkCreateXcbSurfaceKHR", "vkGetPhysicalDeviceXcbPresentationSupportKHR"}},
    {"VK_KHR_xlib_surface", true, {"vkCreateXlibSurfaceKHR", "vkGetPhysicalDeviceXlibPresentationSupportKHR"}},
    {"VK_KHR_swapchain",
     false,
     {"vkCreateSwapchainKHR", "vkDestroySwapchainKHR", "vkGetSwapchainImagesKHR", "vkAcquireNextImageKHR",
      "vkQueuePresentKHR", "vkGetDeviceGroupPresentCapabilitiesKHR", "vkGetDeviceGroupSurfacePresentModesKHR",
      "vkAcquireNextImage2KHR"}},
    {"VK_KHR_swapchain", true, {"vkGetPhysicalDevicePresentRectanglesKHR"}},
    {"VK_EXT_swapchain_maintenance1", false, {"vkReleaseSwapchainImagesEXT"}},
    {"VK_KHR_bind_memory2", false, {"vkBindBufferMemory2KHR", "vkBindImageMemory2KHR"}},
    {"VK_KHR_copy_commands2",
     false,
     {"vkCmdCopyBuffer2KHR", "vkCmdCopyImage2KHR", "vkCmdCopyBufferToImage2KHR", "vkCmdCopyImageToBuffer2KHR",
      "vkCmdBlitImage2KHR", "vkCmdResolveImage2KHR"}},
    {"VK_KHR_create_renderpass2",
     false,
     {"vkCreateRenderPass2KHR", "vkCmdBeginRenderPass2KHR", "vkCmdNextSubpass2KHR", "vkCmdEndRenderPass2KHR"}},
    {"VK_KHR_descriptor_update_template",
     false,
     {"vkCreateDescriptorUpdateTemplateKHR", "vkDestroyDescriptorUpdateTemplateKHR",
      "vkUpdateDescriptorSetWithTemplateKHR"}},
    {"VK_KHR_device_group",
     false,
     {"vkGetDeviceGroupPeerMemoryFeaturesKHR", "vkCmdSetDeviceMaskKHR", "vkCmdDispatchBaseKHR"}},
    {"VK_KHR_external_fence_fd", false, {"vkImportFenceFdKHR", "vkGetFenceFdKHR"}},
    {"VK_KHR_external_memory_fd", false, {"vkGetMemoryFdKHR", "vkGetMemoryFdPropertiesKHR"}},
    {"VK_KHR_external_semaphore_fd", false, {"vkImportSemaphoreFdKHR", "vkGetSemaphoreFdKHR"}},
    {"VK_KHR_get_memory_requirements2",
     false,
     {"vkGetImageMemoryRequirements2KHR", "vkGetBufferMemoryRequirements2KHR",
      "vkGetImageSparseMemoryRequirements2KHR"}},
    {"VK_KHR_maintenance1", false, {"vkTrimCommandPoolKHR"}},
    {"VK_KHR_maintenance3", false, {"vkGetDescriptorSetLayoutSupportKHR"}},
    {"VK_KHR_maintenance4",
     false,
     {"vkGetDeviceBufferMemoryRequirementsKHR", "vkGetDeviceImageMemoryRequirementsKHR",
      "vkGetDeviceImageSparseMemoryRequirementsKHR"}},
    {"VK_KHR_sampler_ycbcr_conversion",
     false,
     {"vkCreateSamplerYcbcrConversionKHR", "vkDestroySamplerYcbcrConversionKHR"}},
    {"VK_KHR_synchronization2",
     false,
     {"vkCmdSetEvent2KHR", "vkCmdResetEvent2KHR", "vkCmdWaitEvents2KHR", "vkCmdPipelineBarrier2KHR",
      "vkCmdWriteTimestamp2KHR", "vkQueueSubmit2KHR"}},
    {"VK_KHR_timeline_semaphore",
     false,
     {"vkGetSemaphoreCounterValueKHR", "vkWaitSemaphoresKHR", "vkSignalSemaphoreKHR"}},
    {"VK_EXT_host_query_reset", false, {"vkResetQueryPoolEXT"}},
    {"VK_KHR_create_renderpass2",
     false,
     {"vkCreateRenderPass2KHR", "vkCmdBeginRenderPass2KHR", "vkCmdNextSubpass2KHR", "vkCmdEndRenderPass2KHR"}},
    {"VK_KHR_draw_indirect_count", false, {"vkCmdDrawIndirectCountKHR", "vkCmdDrawIndexedIndirectCountKHR"}},
    {"VK_KHR_dynamic_rendering", false, {"vkCmdBeginRenderingKHR", "vkCmdEndRenderingKHR"}},
    {"VK_KHR_buffer_device_address",
     false,
     {"vkGetBufferDeviceAddressKHR", "vkGetBufferOpaqueCaptureAddressKHR", "vkGetDeviceMemoryOpaqueCaptureAddressKHR"}},
    {"VK_EXT_extended_dynamic_state",
     false,
     {"vkCmdSetCullModeEXT", "vkCmdSetFrontFaceEXT", "vkCmdSetPrimitiveTopologyEXT", "vkCmdSetViewportWithCountEXT",
      "vkCmdSetScissorWithCountEXT", "vkCmdBindVertexBuffers2EXT", "vkCmdSetDepthTestEnableEXT",
      "vkCmdSetDepthWriteEnableEXT", "vkCmdSetDepthCompareOpEXT", "vkCmdSetDepthBoundsTestEnableEXT",
      "vkCmdSetStencilTestEnableEXT", "vkCmdSetStencilOpEXT"}},
    {"VK_EXT_extended_dynamic_state2",
     false,
     {"vkCmdSetPatchControlPointsEXT", "vkCmdSetRasterizerDiscardEnableEXT", "vkCmdSetDepthBiasEnableEXT",
      "vkCmdSetLogicOpEXT", "vkCmdSetPrimitiveRestartEnableEXT"}},
    {"VK_EXT_tooling_info", true, {"vkGetPhysicalDeviceToolPropertiesEXT"}},
    {"VK_EXT_private_data",
     false,
     {"vkCreatePrivateDataSlotEXT", "vkDestroyPrivateDataSlotEXT", "vkSetPrivateDataEXT", "vkGetPrivateDataEXT"}},
    {"VK_EXT_line_rasterization", false, {"vkCmdSetLineStippleEXT"}},
    // Newer than the system's vk.xml (src/icd/registry_newer.xml).
    {"VK_KHR_line_rasterization", false, {"vkCmdSetLineStippleKHR"}},
    {"VK_KHR_map_memory2", false, {"vkMapMemory2KHR", "vkUnmapMemory2KHR"}},
    {"VK_EXT_attachment_feedback_loop_dynamic_state", false, {"vkCmdSetAttachmentFeedbackLoopEnableEXT"}},
    {"VK_KHR_maintenance6",
     false,
     {"vkCmdBindDescriptorSets2KHR", "vkCmdPushConstants2KHR", "vkCmdPushDescriptorSet2KHR",
      "vkCmdPushDescriptorSetWithTemplate2KHR", "vkCmdSetDescriptorBufferOffsets2EXT",
      "vkCmdBindDescriptorBufferEmbeddedSamplers2EXT"}},
};

// Reports the advertised extensions (of the given owners) with a command
// that GetProcAddr cannot give.
void CheckAdvertisedCommands(const std::vector<const char*>& only) {
	DirectDriver driver;
	REQUIRE(driver.ok());
	std::vector<VkExtensionProperties> instance_storage, device_storage;
	Instance instance(driver, VK_API_VERSION_1_3, AdvertisedExtensions(driver, nullptr, instance_storage));
	Device device(instance, AdvertisedExtensions(driver, &instance, device_storage));
	auto advertised = [&](const char* name) {
		for (auto* storage : {&instance_storage, &device_storage})
			for (auto& e : *storage)
				if (std::strcmp(e.extensionName, name) == 0) return true;
		return false;
	};
	for (const ExtensionCommands& e : kExtensionCommands) {
		if (!advertised(e.extension)) continue;
		if (!only.empty() &&
		    std::none_of(only.begin(), only.end(), [&](const char* o) { return std::strcmp(o, e.extension) == 0; }))
			continue;
		for (const char* command : e.commands) {
			INFO(e.extension << ": " << command);
			bool device_level = !e.instance_level || std::strncmp(command, "vkCmd", 5) == 0 ||
			                    std::strncmp(command, "vkQueue", 7) == 0 || std::strstr(command, "DebugUtilsObject");
			PFN_vkVoidFunction f = device_level ? device.Proc(command) : driver.icd_gipa(instance.handle, command);
			CHECK(f != nullptr);
		}
	}
}

}  // namespace

TEST_CASE("The instance, device-group and debug-utils extensions have all their commands", "[proc_addr]") {
	CheckAdvertisedCommands({"VK_KHR_get_physical_device_properties2", "VK_KHR_device_group_creation",
	                         "VK_EXT_debug_utils", "VK_KHR_external_memory_fd"});
}

// An extension is advertised only when every one of its commands exists.
TEST_CASE("Every advertised extension has all its commands", "[proc_addr]") { CheckAdvertisedCommands({}); }
