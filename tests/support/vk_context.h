// Test support: a Vulkan instance and device on a chosen driver, reached
// through the real loader, with the Khronos validation layer on and every
// validation error counted. Tests run the same commands on Tessera and on
// lavapipe and compare what comes out.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tessera::test {

// SwiftShader is a baseline in the benchmarks only (Chromium's copy,
// /usr/lib/chromium/vk_swiftshader_icd.json, when installed).
enum class Driver { Tessera, Lavapipe, SwiftShader };
const char* DriverName(Driver driver);

struct ContextOptions {
	bool validation = true;  // enable VK_LAYER_KHRONOS_validation when installed
	uint32_t api_version = VK_API_VERSION_1_3;
	std::vector<const char*> instance_extensions;
	std::vector<const char*> device_extensions;
	const void* device_features = nullptr;  // pNext chain for VkDeviceCreateInfo
	// Also create the queue of a family with COMPUTE but not GRAPHICS, and of
	// one with TRANSFER but neither COMPUTE nor GRAPHICS, where the driver
	// has them (Context::compute_queue, transfer_queue).
	bool compute_queue = false;
	bool transfer_queue = false;
	// VkDeviceQueueCreateInfo::flags of every queue; with flags the queues
	// are fetched with vkGetDeviceQueue2.
	VkDeviceQueueCreateFlags queue_flags = 0;
};

// A buffer with its own host-visible memory, mapped.
struct TestBuffer {
	VkBuffer buffer = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	VkDeviceSize size = 0;
	uint8_t* data = nullptr;
};

struct TestImage {
	VkImage image = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	VkImageCreateInfo info{};
};

class Context {
public:
	// Returns nullptr (and prints why) when the driver cannot be found.
	static std::unique_ptr<Context> Create(Driver driver, const ContextOptions& options = {});
	~Context();

	Driver driver() const { return driver_; }
	VkInstance instance() const { return instance_; }
	VkPhysicalDevice physical_device() const { return physical_device_; }
	VkDevice device() const { return device_; }
	VkQueue queue() const { return queue_; }
	// With ContextOptions::compute_queue: the queue of the driver's first
	// family with COMPUTE but not GRAPHICS and its index; VK_NULL_HANDLE and
	// VK_QUEUE_FAMILY_IGNORED where there is none (or it was not asked for).
	VkQueue compute_queue() const { return compute_queue_; }
	uint32_t compute_family() const { return compute_family_; }
	// The same for ContextOptions::transfer_queue.
	VkQueue transfer_queue() const { return transfer_queue_; }
	uint32_t transfer_family() const { return transfer_family_; }
	uint32_t validation_errors() const { return validation_errors_; }
	const std::vector<std::string>& validation_messages() const { return validation_messages_; }
	bool validation_enabled() const { return validation_enabled_; }

	// Shared by the queue families listed (VK_SHARING_MODE_CONCURRENT) where
	// there are two or more, else exclusive.
	TestBuffer CreateBuffer(VkDeviceSize size,
	                        VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
	                                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                        const std::vector<uint32_t>& concurrent_families = {});
	void Destroy(TestBuffer& buffer);
	TestImage CreateImage(const VkImageCreateInfo& info);
	TestImage CreateImage2D(VkFormat format, uint32_t width, uint32_t height,
	                        VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	                        uint32_t mip_levels = 1, uint32_t layers = 1, VkImageCreateFlags flags = 0);
	void Destroy(TestImage& image);

	// Records commands into a fresh command buffer, submits, waits.
	template <typename Record>
	void Submit(Record record) {
		VkCommandBuffer cb = BeginOneTime();
		record(cb);
		EndAndWait(cb);
	}
	VkCommandBuffer BeginOneTime();
	void EndAndWait(VkCommandBuffer cb);

	// A barrier that makes all earlier transfer writes visible to later
	// transfers and moves the image to the given layout.
	void Transition(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
	                VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT);
	void TransferBarrier(VkCommandBuffer cb);

	template <typename T>
	T Proc(const char* name) const {
		return reinterpret_cast<T>(vkGetDeviceProcAddr(device_, name));
	}

private:
	Context() = default;
	static VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
	                                                VkDebugUtilsMessageTypeFlagsEXT types,
	                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
	uint32_t MemoryType(uint32_t bits) const;

	Driver driver_ = Driver::Tessera;
	VkInstance instance_ = VK_NULL_HANDLE;
	VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
	VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
	VkDevice device_ = VK_NULL_HANDLE;
	VkQueue queue_ = VK_NULL_HANDLE;
	VkQueue compute_queue_ = VK_NULL_HANDLE;
	uint32_t compute_family_ = VK_QUEUE_FAMILY_IGNORED;
	VkQueue transfer_queue_ = VK_NULL_HANDLE;
	uint32_t transfer_family_ = VK_QUEUE_FAMILY_IGNORED;
	VkCommandPool pool_ = VK_NULL_HANDLE;
	bool validation_enabled_ = false;
	uint32_t validation_errors_ = 0;
	std::vector<std::string> validation_messages_;
};

// Writes RGBA8 pixels as a PNG (for failure images and the demo).
bool WritePng(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba, uint32_t stride);

}  // namespace tessera::test
