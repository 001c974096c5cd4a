// VK_LAYER_TESSERA_test_capture: an explicit Vulkan layer, used only by
// tests, that writes one presented frame of any program on any driver as a
// PNG, so that a program we do not control (vkcube) can be compared between
// Tessera and lavapipe.
//
//   VK_ADD_LAYER_PATH=<build>/tests/capture_layer
//   VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_test_capture
//   TESSERA_TEST_CAPTURE_FRAME=N     the N-th vkQueuePresentKHR of the process, from 0
//   TESSERA_TEST_CAPTURE_FILE=path   the PNG to write (RGBA8, alpha 255)
//
// What it does:
// - vkCreateSwapchainKHR: adds VK_IMAGE_USAGE_TRANSFER_SRC_BIT to the
//   images' usage when the surface supports it (supportedUsageFlags).
// - vkQueuePresentKHR number N: submits, on the present's queue, a copy of
//   the first swapchain's presented image into a host-visible buffer that
//   waits on the present's wait semaphores and signals a semaphore of its
//   own; the real present waits on that one instead. Then it waits on the
//   copy's fence and writes the PNG (B8G8R8A8 and R8G8B8A8 formats;
//   presentation with an opaque composite alpha: alpha written as 255).
// Its own calls go to the layers below it: list it after the validation
// layer so that the validation layer sees only the program's calls.
//
// Plumbing (the loader's layer interface, LoaderLayerInterface.md): the
// exported vkNegotiateLoaderLayerInterfaceVersion / vkGetInstanceProcAddr /
// vkGetDeviceProcAddr, the next layer's functions from the
// VkLayerInstanceCreateInfo / VkLayerDeviceCreateInfo link chains, and the
// data of each instance and device found by the dispatch key (the first
// pointer of a dispatchable handle, shared by a device and its queues, and by
// an instance and its physical devices).
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

void* Key(const void* handle) { return *static_cast<void* const*>(handle); }

void Say(const char* format, const char* detail = "") {
	std::fprintf(stderr, "VK_LAYER_TESSERA_test_capture: ");
	std::fprintf(stderr, format, detail);
	std::fprintf(stderr, "\n");
}

struct InstanceData {
	VkInstance instance = VK_NULL_HANDLE;
	PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
	PFN_vkDestroyInstance DestroyInstance = nullptr;
	PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
	PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR GetPhysicalDeviceSurfaceCapabilitiesKHR = nullptr;
};

#define TESSERA_DEVICE_FUNCTIONS(X)                                                                               \
	X(DestroyDevice)                                                                                              \
	X(GetDeviceQueue)                                                                                             \
	X(GetDeviceQueue2)                                                                                            \
	X(CreateSwapchainKHR) X(DestroySwapchainKHR) X(GetSwapchainImagesKHR) X(QueuePresentKHR) X(CreateCommandPool) \
	    X(DestroyCommandPool) X(AllocateCommandBuffers) X(BeginCommandBuffer) X(EndCommandBuffer)                 \
	        X(CmdPipelineBarrier) X(CmdCopyImageToBuffer) X(QueueSubmit) X(CreateFence) X(DestroyFence)           \
	            X(WaitForFences) X(CreateSemaphore) X(DestroySemaphore) X(CreateBuffer) X(DestroyBuffer)          \
	                X(GetBufferMemoryRequirements) X(AllocateMemory) X(FreeMemory) X(BindBufferMemory) X(MapMemory)

struct SwapchainData {
	VkFormat format;
	VkExtent2D extent;
	bool readable;  // TRANSFER_SRC added
};

// What one capture leaves behind until the device goes: the present may
// still wait on the semaphore when the capture is done.
struct CaptureObjects {
	VkCommandPool pool = VK_NULL_HANDLE;
	VkBuffer buffer = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkSemaphore semaphore = VK_NULL_HANDLE;
};

struct DeviceData {
	VkDevice device = VK_NULL_HANDLE;
	VkPhysicalDevice physical_device = VK_NULL_HANDLE;
	InstanceData* instance = nullptr;
	PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
	PFN_vkSetDeviceLoaderData SetDeviceLoaderData = nullptr;
#define TESSERA_MEMBER(name) PFN_vk##name name = nullptr;
	TESSERA_DEVICE_FUNCTIONS(TESSERA_MEMBER)
#undef TESSERA_MEMBER
	std::unordered_map<VkQueue, uint32_t> queue_families;
	std::unordered_map<VkSwapchainKHR, SwapchainData> swapchains;
	std::vector<CaptureObjects> captures;
};

std::mutex g_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;
uint32_t g_presents = 0;  // vkQueuePresentKHR calls so far, all devices

InstanceData* FindInstance(const void* handle) {
	std::lock_guard lock(g_mutex);
	auto it = g_instances.find(Key(handle));
	if (it != g_instances.end()) return it->second.get();
	// A physical device's key is its instance's; a lone instance otherwise.
	return g_instances.size() == 1 ? g_instances.begin()->second.get() : nullptr;
}

DeviceData* FindDevice(const void* handle) {
	std::lock_guard lock(g_mutex);
	auto it = g_devices.find(Key(handle));
	return it != g_devices.end() ? it->second.get() : nullptr;
}

template <typename Info>
Info* FindLink(const void* next, VkStructureType type, VkLayerFunction function) {
	for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext)
		if (s->sType == type) {
			auto* info = reinterpret_cast<Info*>(const_cast<VkBaseInStructure*>(s));
			if (info->function == function) return info;
		}
	return nullptr;
}

// ---- instance ----------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
	auto* link = FindLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO,
	                                                 VK_LAYER_LINK_INFO);
	if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer's turn
	auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
	if (!create) return VK_ERROR_INITIALIZATION_FAILED;
	VkResult result = create(info, allocator, instance);
	if (result != VK_SUCCESS) return result;
	auto data = std::make_unique<InstanceData>();
	data->instance = *instance;
	data->GetInstanceProcAddr = next;
	data->DestroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
	data->GetPhysicalDeviceMemoryProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
	    next(*instance, "vkGetPhysicalDeviceMemoryProperties"));
	data->GetPhysicalDeviceSurfaceCapabilitiesKHR = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR>(
	    next(*instance, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR"));
	std::lock_guard lock(g_mutex);
	g_instances[Key(*instance)] = std::move(data);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
	if (!instance) return;
	InstanceData* data = FindInstance(instance);
	if (!data) return;
	data->DestroyInstance(instance, allocator);
	std::lock_guard lock(g_mutex);
	g_instances.erase(Key(instance));
}

// ---- device ------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical_device, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
	InstanceData* instance = FindInstance(physical_device);
	auto* link =
	    FindLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LAYER_LINK_INFO);
	auto* loader_data = FindLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO,
	                                                      VK_LOADER_DATA_CALLBACK);
	if (!instance || !link || !link->u.pLayerInfo || !loader_data) return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	auto create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(instance->instance, "vkCreateDevice"));
	if (!create) return VK_ERROR_INITIALIZATION_FAILED;
	VkResult result = create(physical_device, info, allocator, device);
	if (result != VK_SUCCESS) return result;
	auto data = std::make_unique<DeviceData>();
	data->device = *device;
	data->physical_device = physical_device;
	data->instance = instance;
	data->GetDeviceProcAddr = next_gdpa;
	data->SetDeviceLoaderData = loader_data->u.pfnSetDeviceLoaderData;
#define TESSERA_LOAD(name) data->name = reinterpret_cast<PFN_vk##name>(next_gdpa(*device, "vk" #name));
	TESSERA_DEVICE_FUNCTIONS(TESSERA_LOAD)
#undef TESSERA_LOAD
	std::lock_guard lock(g_mutex);
	g_devices[Key(*device)] = std::move(data);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
	if (!device) return;
	DeviceData* d = FindDevice(device);
	if (!d) return;
	for (const CaptureObjects& c : d->captures) {
		d->DestroySemaphore(device, c.semaphore, nullptr);
		d->DestroyFence(device, c.fence, nullptr);
		d->DestroyBuffer(device, c.buffer, nullptr);
		d->FreeMemory(device, c.memory, nullptr);
		d->DestroyCommandPool(device, c.pool, nullptr);
	}
	d->DestroyDevice(device, allocator);
	std::lock_guard lock(g_mutex);
	g_devices.erase(Key(device));
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
	DeviceData* d = FindDevice(device);
	d->GetDeviceQueue(device, family, index, queue);
	std::lock_guard lock(g_mutex);
	if (*queue) d->queue_families[*queue] = family;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
	DeviceData* d = FindDevice(device);
	d->GetDeviceQueue2(device, info, queue);
	std::lock_guard lock(g_mutex);
	if (*queue) d->queue_families[*queue] = info->queueFamilyIndex;
}

// ---- swapchain ---------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* info,
                                                  const VkAllocationCallbacks* allocator, VkSwapchainKHR* swapchain) {
	DeviceData* d = FindDevice(device);
	VkSwapchainCreateInfoKHR changed = *info;
	VkSurfaceCapabilitiesKHR caps{};
	bool readable =
	    d->instance->GetPhysicalDeviceSurfaceCapabilitiesKHR &&
	    d->instance->GetPhysicalDeviceSurfaceCapabilitiesKHR(d->physical_device, info->surface, &caps) == VK_SUCCESS &&
	    (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	if (readable) changed.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VkResult result = d->CreateSwapchainKHR(device, &changed, allocator, swapchain);
	if (result == VK_SUCCESS) {
		std::lock_guard lock(g_mutex);
		d->swapchains[*swapchain] = {info->imageFormat, info->imageExtent, readable};
	}
	return result;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* allocator) {
	DeviceData* d = FindDevice(device);
	d->DestroySwapchainKHR(device, swapchain, allocator);
	std::lock_guard lock(g_mutex);
	d->swapchains.erase(swapchain);
}

uint32_t MemoryType(DeviceData& d, uint32_t bits, VkMemoryPropertyFlags wanted) {
	VkPhysicalDeviceMemoryProperties props;
	d.instance->GetPhysicalDeviceMemoryProperties(d.physical_device, &props);
	for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
		if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
	return UINT32_MAX;
}

bool WritePng(const char* path, const SwapchainData& swapchain, const uint8_t* pixels) {
	const bool bgra = swapchain.format == VK_FORMAT_B8G8R8A8_UNORM || swapchain.format == VK_FORMAT_B8G8R8A8_SRGB;
	const uint32_t w = swapchain.extent.width, h = swapchain.extent.height;
	std::vector<uint8_t> rgba(size_t(w) * h * 4);
	for (size_t i = 0; i < rgba.size(); i += 4) {
		rgba[i] = pixels[i + (bgra ? 2 : 0)];
		rgba[i + 1] = pixels[i + 1];
		rgba[i + 2] = pixels[i + (bgra ? 0 : 2)];
		rgba[i + 3] = 255;  // VK_COMPOSITE_ALPHA_OPAQUE: shown opaque
	}
	return stbi_write_png(path, int(w), int(h), 4, rgba.data(), int(w * 4)) != 0;
}

// Copies the presented image, presents waiting on the copy, writes the PNG.
VkResult CaptureAndPresent(DeviceData& d, VkQueue queue, const VkPresentInfoKHR& info, const char* path) {
	VkDevice device = d.device;
	const VkSwapchainKHR swapchain = info.pSwapchains[0];
	SwapchainData sc{};
	uint32_t family = 0;
	{
		std::lock_guard lock(g_mutex);
		sc = d.swapchains[swapchain];
		family = d.queue_families.count(queue) ? d.queue_families[queue] : 0;
	}
	const bool rgba8 = sc.format == VK_FORMAT_R8G8B8A8_UNORM || sc.format == VK_FORMAT_R8G8B8A8_SRGB ||
	                   sc.format == VK_FORMAT_B8G8R8A8_UNORM || sc.format == VK_FORMAT_B8G8R8A8_SRGB;
	if (!sc.readable || !rgba8) {
		Say("cannot capture: the surface offers no TRANSFER_SRC usage or the format is not 8-bit RGBA/BGRA");
		return d.QueuePresentKHR(queue, &info);
	}
	uint32_t count = 0;
	d.GetSwapchainImagesKHR(device, swapchain, &count, nullptr);
	std::vector<VkImage> images(count);
	d.GetSwapchainImagesKHR(device, swapchain, &count, images.data());
	const VkImage image = images.at(info.pImageIndices[0]);

	CaptureObjects c;
	const VkDeviceSize size = VkDeviceSize(sc.extent.width) * sc.extent.height * 4;
	VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	pool_info.queueFamilyIndex = family;
	VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	buffer_info.size = size;
	buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	bool ok = d.CreateCommandPool(device, &pool_info, nullptr, &c.pool) == VK_SUCCESS &&
	          d.CreateBuffer(device, &buffer_info, nullptr, &c.buffer) == VK_SUCCESS &&
	          d.CreateFence(device, &fence_info, nullptr, &c.fence) == VK_SUCCESS &&
	          d.CreateSemaphore(device, &semaphore_info, nullptr, &c.semaphore) == VK_SUCCESS;
	VkMemoryRequirements req{};
	if (ok) d.GetBufferMemoryRequirements(device, c.buffer, &req);
	VkMemoryAllocateInfo memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	memory_info.allocationSize = req.size;
	memory_info.memoryTypeIndex =
	    MemoryType(d, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	ok = ok && memory_info.memoryTypeIndex != UINT32_MAX &&
	     d.AllocateMemory(device, &memory_info, nullptr, &c.memory) == VK_SUCCESS &&
	     d.BindBufferMemory(device, c.buffer, c.memory, 0) == VK_SUCCESS;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkCommandBufferAllocateInfo cb_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cb_info.commandPool = c.pool;
	cb_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cb_info.commandBufferCount = 1;
	// A dispatchable object made below the loader's trampoline gets the
	// loader's dispatch pointer from the callback.
	ok = ok && d.AllocateCommandBuffers(device, &cb_info, &cb) == VK_SUCCESS &&
	     d.SetDeviceLoaderData(device, cb) == VK_SUCCESS;
	{
		std::lock_guard lock(g_mutex);
		d.captures.push_back(c);
	}
	if (!ok) {
		Say("cannot capture: creating the copy's objects failed");
		return d.QueuePresentKHR(queue, &info);
	}

	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	d.BeginCommandBuffer(cb, &begin);
	// The image is in PRESENT_SRC_KHR (the program's rendering, which the
	// wait semaphores order before this, put it there).
	VkImageMemoryBarrier to_copy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	to_copy.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	to_copy.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	to_copy.srcQueueFamilyIndex = to_copy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	to_copy.image = image;
	to_copy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	d.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &to_copy);
	VkBufferImageCopy region{};
	region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.imageExtent = {sc.extent.width, sc.extent.height, 1};
	d.CmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.buffer, 1, &region);
	VkImageMemoryBarrier back = to_copy;
	back.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	back.dstAccessMask = 0;
	back.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	back.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	VkBufferMemoryBarrier to_host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
	to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	to_host.srcQueueFamilyIndex = to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	to_host.buffer = c.buffer;
	to_host.size = VK_WHOLE_SIZE;
	d.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &to_host,
	                     1, &back);
	d.EndCommandBuffer(cb);

	std::vector<VkPipelineStageFlags> stages(info.waitSemaphoreCount, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
	VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	submit.waitSemaphoreCount = info.waitSemaphoreCount;
	submit.pWaitSemaphores = info.pWaitSemaphores;
	submit.pWaitDstStageMask = stages.data();
	submit.commandBufferCount = 1;
	submit.pCommandBuffers = &cb;
	submit.signalSemaphoreCount = 1;
	submit.pSignalSemaphores = &c.semaphore;
	VkResult result = d.QueueSubmit(queue, 1, &submit, c.fence);
	if (result != VK_SUCCESS) {
		Say("cannot capture: vkQueueSubmit failed");
		return d.QueuePresentKHR(queue, &info);
	}
	VkPresentInfoKHR present = info;
	present.waitSemaphoreCount = 1;
	present.pWaitSemaphores = &c.semaphore;
	result = d.QueuePresentKHR(queue, &present);

	void* mapped = nullptr;
	if (d.WaitForFences(device, 1, &c.fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS ||
	    d.MapMemory(device, c.memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS)
		Say("cannot capture: the copy did not complete");
	else if (!WritePng(path, sc, static_cast<const uint8_t*>(mapped)))
		Say("cannot write %s", path);
	else
		Say("wrote %s", path);
	return result;
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
	DeviceData* d = FindDevice(queue);
	uint32_t number;
	{
		std::lock_guard lock(g_mutex);
		number = g_presents++;
	}
	const char* frame = std::getenv("TESSERA_TEST_CAPTURE_FRAME");
	const char* path = std::getenv("TESSERA_TEST_CAPTURE_FILE");
	if (frame && path && *path && std::strtoul(frame, nullptr, 10) == number && info->swapchainCount > 0)
		return CaptureAndPresent(*d, queue, *info, path);
	return d->QueuePresentKHR(queue, info);
}

// ---- proc addresses ----------------------------------------------------

#define TESSERA_INTERCEPTED_DEVICE(X) \
	X(DestroyDevice)                  \
	X(GetDeviceQueue) X(GetDeviceQueue2) X(CreateSwapchainKHR) X(DestroySwapchainKHR) X(QueuePresentKHR)

PFN_vkVoidFunction InterceptedDevice(const char* name) {
#define TESSERA_MATCH(fn) \
	if (std::strcmp(name, "vk" #fn) == 0) return reinterpret_cast<PFN_vkVoidFunction>(&fn);
	TESSERA_INTERCEPTED_DEVICE(TESSERA_MATCH)
#undef TESSERA_MATCH
	return nullptr;
}

}  // namespace

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) {
	if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(&vkGetDeviceProcAddr);
	DeviceData* d = device ? FindDevice(device) : nullptr;
	if (!d) return nullptr;
	PFN_vkVoidFunction next = d->GetDeviceProcAddr(device, name);
	// Ours only where the command exists below (its extension is enabled).
	PFN_vkVoidFunction own = InterceptedDevice(name);
	return own && next ? own : next;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) {
	if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(&vkGetInstanceProcAddr);
	if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(&vkGetDeviceProcAddr);
	if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
	if (std::strcmp(name, "vkDestroyInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyInstance);
	if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
	if (PFN_vkVoidFunction own = InterceptedDevice(name)) return own;
	InstanceData* data = instance ? FindInstance(instance) : nullptr;
	return data ? data->GetInstanceProcAddr(instance, name) : nullptr;
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
	if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
	if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
	version->loaderLayerInterfaceVersion = 2;
	version->pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
	version->pfnGetDeviceProcAddr = &vkGetDeviceProcAddr;
	version->pfnGetPhysicalDeviceProcAddr = nullptr;
	return VK_SUCCESS;
}
