// Shared by the presentation tests: a context with the WSI extensions, and
// the swapchain helpers (upload a pattern into a swapchain image, read back
// captured frames).
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "vk_context.h"

namespace tessera::test {

// A context on Tessera with a surface extension, VK_KHR_swapchain and
// timeline semaphores (for ordering tests).
// With maintenance1: VK_EXT_surface_maintenance1 and VK_EXT_swapchain_maintenance1 too.
inline std::unique_ptr<Context> CreateWsiContext(Driver driver, const char* surface_extension,
                                                 bool maintenance1 = false) {
	static VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT m1{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT};
	static VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	f12.timelineSemaphore = VK_TRUE;
	m1.swapchainMaintenance1 = VK_TRUE;
	f12.pNext = maintenance1 ? &m1 : nullptr;
	ContextOptions options;
	options.instance_extensions = {VK_KHR_SURFACE_EXTENSION_NAME, surface_extension};
	options.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
	if (maintenance1) {
		options.instance_extensions.push_back(VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME);
		options.instance_extensions.push_back(VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME);
		options.device_extensions.push_back(VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME);
	}
	options.device_features = &f12;
	return Context::Create(driver, options);
}

// An empty folder under the test output directory for captured frames.
inline std::filesystem::path FreshCaptureDirectory(const std::string& name) {
	const char* root = std::getenv("TESSERA_TEST_OUTPUT");
	std::filesystem::path dir = std::filesystem::path(root ? root : "/tmp") / ("capture-" + name);
	std::filesystem::remove_all(dir);
	std::filesystem::create_directories(dir);
	return dir;
}

// The frame-NNNNN.png files of a folder, in order.
inline std::vector<std::filesystem::path> CapturedFrames(const std::filesystem::path& dir) {
	std::vector<std::filesystem::path> frames;
	for (const auto& entry : std::filesystem::directory_iterator(dir)) frames.push_back(entry.path());
	std::sort(frames.begin(), frames.end());
	return frames;
}

// RGBA8 pixels of a PNG (empty if it cannot be read).
std::vector<uint8_t> ReadPng(const std::filesystem::path& path, uint32_t* width, uint32_t* height);

}  // namespace tessera::test
