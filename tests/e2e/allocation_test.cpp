// Host allocation failures and device memory exhaustion: every creation
// call that cannot get memory returns the spec's error and leaves nothing
// behind, and an allocation larger than the heap is refused with a message.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "direct_driver.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// VkAllocationCallbacks that succeed for the first `budget` allocations and
// fail every one after, tracking what is live.
class FailingAllocator {
public:
	explicit FailingAllocator(size_t budget) : budget_(budget) {
		callbacks_.pUserData = this;
		callbacks_.pfnAllocation = &Allocation;
		callbacks_.pfnReallocation = &Reallocation;
		callbacks_.pfnFree = &FreeFn;
	}
	const VkAllocationCallbacks* callbacks() const { return &callbacks_; }
	size_t live() const { return live_.size(); }
	size_t calls() const { return calls_; }
	bool failed() const { return failed_; }
	size_t bad_frees() const { return bad_frees_; }

private:
	void* Allocate(size_t size, size_t alignment) {
		++calls_;
		if (calls_ > budget_) {
			failed_ = true;
			return nullptr;
		}
		if (alignment < sizeof(void*)) alignment = sizeof(void*);
		void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
		if (p) live_[p] = size;
		return p;
	}
	void Release(void* p) {
		if (!p) return;
		if (live_.erase(p) == 0) {
			++bad_frees_;
			return;
		}
		std::free(p);
	}
	static VKAPI_ATTR void* VKAPI_CALL Allocation(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
		return static_cast<FailingAllocator*>(user)->Allocate(size, alignment);
	}
	static VKAPI_ATTR void* VKAPI_CALL Reallocation(void* user, void* original, size_t size, size_t alignment,
	                                                VkSystemAllocationScope) {
		auto* self = static_cast<FailingAllocator*>(user);
		if (!original) return self->Allocate(size, alignment);
		if (size == 0) {
			self->Release(original);
			return nullptr;
		}
		void* p = self->Allocate(size, alignment);
		if (!p) return nullptr;
		std::memcpy(p, original, std::min(size, self->live_[original]));
		self->Release(original);
		return p;
	}
	static VKAPI_ATTR void VKAPI_CALL FreeFn(void* user, void* memory) {
		static_cast<FailingAllocator*>(user)->Release(memory);
	}

	VkAllocationCallbacks callbacks_{};
	size_t budget_;
	size_t calls_ = 0;
	bool failed_ = false;
	size_t bad_frees_ = 0;
	std::map<void*, size_t> live_;
};

// One step of the scenario: creates something (returning its result) and
// registers how to destroy it.
struct Step {
	const char* name;
	std::function<VkResult(std::vector<std::function<void()>>& undo)> run;
};

}  // namespace

TEST_CASE("Allocation callbacks that fail: every creation returns VK_ERROR_OUT_OF_HOST_MEMORY and leaks nothing",
          "[allocation]") {
	DirectDriver driver;
	REQUIRE(driver.ok());

	const VkAllocationCallbacks* alloc = nullptr;
	VkInstance instance = VK_NULL_HANDLE;
	VkPhysicalDevice physical = VK_NULL_HANDLE;
	VkDevice device = VK_NULL_HANDLE;
	VkCommandPool pool = VK_NULL_HANDLE;
	VkBuffer buffer = VK_NULL_HANDLE;
	VkImage image = VK_NULL_HANDLE;
	VkImageView view = VK_NULL_HANDLE;
	VkSampler sampler = VK_NULL_HANDLE;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
	VkRenderPass render_pass = VK_NULL_HANDLE;
	VkCommandBuffer command_buffer = VK_NULL_HANDLE;
	auto device_proc = [&](const char* name) { return driver.Device<PFN_vkVoidFunction>(instance, device, name); };
#define DEVICE_PROC(name) reinterpret_cast<PFN_##name>(device_proc(#name))

	static VkBool32 (*const kSilent)(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
	                                 const VkDebugUtilsMessengerCallbackDataEXT*, void*) =
	    [](VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
	       const VkDebugUtilsMessengerCallbackDataEXT*, void*) -> VkBool32 { return VK_FALSE; };

	std::vector<Step> steps = {
	    {"vkCreateInstance",
	     [&](auto& undo) {
		     VkDebugUtilsMessengerCreateInfoEXT chained{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
		     chained.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
		     chained.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
		     chained.pfnUserCallback = kSilent;
		     const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
		     VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
		     app.apiVersion = VK_API_VERSION_1_3;
		     VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &chained};
		     info.pApplicationInfo = &app;
		     info.enabledExtensionCount = 1;
		     info.ppEnabledExtensionNames = &extension;
		     VkResult r = driver.Global<PFN_vkCreateInstance>("vkCreateInstance")(&info, alloc, &instance);
		     if (r == VK_SUCCESS)
			     undo.push_back(
			         [&] { driver.Instance<PFN_vkDestroyInstance>(instance, "vkDestroyInstance")(instance, alloc); });
		     return r;
	     }},
	    {"vkEnumeratePhysicalDevices",
	     [&](auto&) {
		     uint32_t count = 1;
		     return driver.Instance<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices")(
		         instance, &count, &physical);
	     }},
	    {"vkCreateDebugUtilsMessengerEXT",
	     [&](auto& undo) {
		     VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
		     info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
		     info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
		     info.pfnUserCallback = kSilent;
		     VkDebugUtilsMessengerEXT messenger;
		     VkResult r = driver.Instance<PFN_vkCreateDebugUtilsMessengerEXT>(
		         instance, "vkCreateDebugUtilsMessengerEXT")(instance, &info, alloc, &messenger);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, messenger] {
				     driver.Instance<PFN_vkDestroyDebugUtilsMessengerEXT>(instance, "vkDestroyDebugUtilsMessengerEXT")(
				         instance, messenger, alloc);
			     });
		     return r;
	     }},
	    {"vkCreateDevice",
	     [&](auto& undo) {
		     float priority = 1.0f;
		     VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
		     queue.queueCount = 1;
		     queue.pQueuePriorities = &priority;
		     VkPhysicalDeviceVulkan13Features features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
		     features.privateData = VK_TRUE;
		     VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
		     info.queueCreateInfoCount = 1;
		     info.pQueueCreateInfos = &queue;
		     VkResult r =
		         driver.Instance<PFN_vkCreateDevice>(instance, "vkCreateDevice")(physical, &info, alloc, &device);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyDevice)(device, alloc); });
		     return r;
	     }},
	    {"vkCreateBuffer",
	     [&](auto& undo) {
		     VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
		     info.size = 4096;
		     info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
		     VkResult r = DEVICE_PROC(vkCreateBuffer)(device, &info, alloc, &buffer);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyBuffer)(device, buffer, alloc); });
		     return r;
	     }},
	    {"vkCreateImage",
	     [&](auto& undo) {
		     VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		     info.imageType = VK_IMAGE_TYPE_2D;
		     info.format = VK_FORMAT_R8G8B8A8_UNORM;
		     info.extent = {16, 16, 1};
		     info.mipLevels = 1;
		     info.arrayLayers = 1;
		     info.samples = VK_SAMPLE_COUNT_1_BIT;
		     info.usage =
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
		     VkResult r = DEVICE_PROC(vkCreateImage)(device, &info, alloc, &image);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyImage)(device, image, alloc); });
		     return r;
	     }},
	    {"vkAllocateMemory",
	     [&](auto& undo) {
		     VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		     info.allocationSize = 4096;
		     VkDeviceMemory memory;
		     VkResult r = DEVICE_PROC(vkAllocateMemory)(device, &info, alloc, &memory);
		     if (r == VK_SUCCESS) undo.push_back([&, memory] { DEVICE_PROC(vkFreeMemory)(device, memory, alloc); });
		     return r;
	     }},
	    {"vkCreateCommandPool",
	     [&](auto& undo) {
		     VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		     VkResult r = DEVICE_PROC(vkCreateCommandPool)(device, &info, alloc, &pool);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyCommandPool)(device, pool, alloc); });
		     return r;
	     }},
	    {"vkAllocateCommandBuffers",
	     [&](auto&) {
		     VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		     info.commandPool = pool;
		     info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
		     info.commandBufferCount = 3;
		     VkCommandBuffer cbs[3] = {};
		     VkResult r = DEVICE_PROC(vkAllocateCommandBuffers)(device, &info, cbs);
		     // vkAllocateCommandBuffers: on failure every handle is set to NULL.
		     if (r != VK_SUCCESS)
			     for (VkCommandBuffer cb : cbs) CHECK(cb == VK_NULL_HANDLE);
		     command_buffer = cbs[0];
		     return r;  // freed with the pool
	     }},
	    {"vkEndCommandBuffer",
	     [&](auto&) {
		     // Recording takes memory too; a failure shows at vkEndCommandBuffer.
		     VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		     VkResult r = DEVICE_PROC(vkBeginCommandBuffer)(command_buffer, &begin);
		     if (r != VK_SUCCESS) return r;
		     for (int i = 0; i < 64; ++i) DEVICE_PROC(vkCmdFillBuffer)(command_buffer, buffer, 0, 256, uint32_t(i));
		     return DEVICE_PROC(vkEndCommandBuffer)(command_buffer);
	     }},
	    {"vkCreateImageView",
	     [&](auto& undo) {
		     VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		     info.image = image;
		     info.viewType = VK_IMAGE_VIEW_TYPE_2D;
		     info.format = VK_FORMAT_R8G8B8A8_UNORM;
		     info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		     VkResult r = DEVICE_PROC(vkCreateImageView)(device, &info, alloc, &view);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyImageView)(device, view, alloc); });
		     return r;
	     }},
	    {"vkCreateSampler",
	     [&](auto& undo) {
		     VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
		     info.maxLod = 1.0f;
		     VkResult r = DEVICE_PROC(vkCreateSampler)(device, &info, alloc, &sampler);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroySampler)(device, sampler, alloc); });
		     return r;
	     }},
	    {"vkCreateDescriptorSetLayout",
	     [&](auto& undo) {
		     VkDescriptorSetLayoutBinding bindings[2] = {};
		     bindings[0].binding = 0;
		     bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
		     bindings[0].descriptorCount = 2;
		     bindings[0].stageFlags = VK_SHADER_STAGE_ALL;
		     bindings[1].binding = 1;
		     bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
		     bindings[1].descriptorCount = 1;
		     bindings[1].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
		     bindings[1].pImmutableSamplers = &sampler;
		     VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		     info.bindingCount = 2;
		     info.pBindings = bindings;
		     VkResult r = DEVICE_PROC(vkCreateDescriptorSetLayout)(device, &info, alloc, &set_layout);
		     if (r == VK_SUCCESS)
			     undo.push_back([&] { DEVICE_PROC(vkDestroyDescriptorSetLayout)(device, set_layout, alloc); });
		     return r;
	     }},
	    {"vkCreatePipelineLayout",
	     [&](auto& undo) {
		     VkPushConstantRange range{VK_SHADER_STAGE_ALL, 0, 64};
		     VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		     info.setLayoutCount = 1;
		     info.pSetLayouts = &set_layout;
		     info.pushConstantRangeCount = 1;
		     info.pPushConstantRanges = &range;
		     VkPipelineLayout layout;
		     VkResult r = DEVICE_PROC(vkCreatePipelineLayout)(device, &info, alloc, &layout);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, layout] { DEVICE_PROC(vkDestroyPipelineLayout)(device, layout, alloc); });
		     return r;
	     }},
	    {"vkCreateDescriptorPool",
	     [&](auto& undo) {
		     VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 8},
		                                      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}};
		     VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		     info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
		     info.maxSets = 4;
		     info.poolSizeCount = 2;
		     info.pPoolSizes = sizes;
		     VkResult r = DEVICE_PROC(vkCreateDescriptorPool)(device, &info, alloc, &descriptor_pool);
		     if (r == VK_SUCCESS)
			     undo.push_back([&] { DEVICE_PROC(vkDestroyDescriptorPool)(device, descriptor_pool, alloc); });
		     return r;
	     }},
	    {"vkAllocateDescriptorSets",
	     [&](auto&) {
		     VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
		     VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		     info.descriptorPool = descriptor_pool;
		     info.descriptorSetCount = 2;
		     info.pSetLayouts = layouts;
		     VkDescriptorSet sets[2] = {};
		     VkResult r = DEVICE_PROC(vkAllocateDescriptorSets)(device, &info, sets);
		     // A pool out of host memory may also answer OUT_OF_POOL_MEMORY
		     // or FRAGMENTED_POOL only when the pool itself is exhausted,
		     // which this one is not.
		     return r;  // freed with the pool
	     }},
	    {"vkCreateRenderPass",
	     [&](auto& undo) {
		     VkAttachmentDescription attachment{};
		     attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
		     attachment.samples = VK_SAMPLE_COUNT_1_BIT;
		     attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		     attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		     attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		     attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		     attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
		     VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
		     VkSubpassDescription subpass{};
		     subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		     subpass.colorAttachmentCount = 1;
		     subpass.pColorAttachments = &color;
		     VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		     info.attachmentCount = 1;
		     info.pAttachments = &attachment;
		     info.subpassCount = 1;
		     info.pSubpasses = &subpass;
		     VkResult r = DEVICE_PROC(vkCreateRenderPass)(device, &info, alloc, &render_pass);
		     if (r == VK_SUCCESS) undo.push_back([&] { DEVICE_PROC(vkDestroyRenderPass)(device, render_pass, alloc); });
		     return r;
	     }},
	    {"vkCreateFramebuffer",
	     [&](auto& undo) {
		     VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
		     info.renderPass = render_pass;
		     info.attachmentCount = 1;
		     info.pAttachments = &view;
		     info.width = 16;
		     info.height = 16;
		     info.layers = 1;
		     VkFramebuffer framebuffer;
		     VkResult r = DEVICE_PROC(vkCreateFramebuffer)(device, &info, alloc, &framebuffer);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, framebuffer] { DEVICE_PROC(vkDestroyFramebuffer)(device, framebuffer, alloc); });
		     return r;
	     }},
	    {"vkCreatePipelineCache",
	     [&](auto& undo) {
		     VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
		     VkPipelineCache cache;
		     VkResult r = DEVICE_PROC(vkCreatePipelineCache)(device, &info, alloc, &cache);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, cache] { DEVICE_PROC(vkDestroyPipelineCache)(device, cache, alloc); });
		     return r;
	     }},
	    {"vkCreatePrivateDataSlot",
	     [&](auto& undo) {
		     VkPrivateDataSlotCreateInfo info{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
		     VkPrivateDataSlot slot;
		     VkResult r = DEVICE_PROC(vkCreatePrivateDataSlot)(device, &info, alloc, &slot);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, slot] { DEVICE_PROC(vkDestroyPrivateDataSlot)(device, slot, alloc); });
		     return r;
	     }},
	    {"vkCreateFence",
	     [&](auto& undo) {
		     VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		     VkFence fence;
		     VkResult r = DEVICE_PROC(vkCreateFence)(device, &info, alloc, &fence);
		     if (r == VK_SUCCESS) undo.push_back([&, fence] { DEVICE_PROC(vkDestroyFence)(device, fence, alloc); });
		     return r;
	     }},
	    {"vkCreateSemaphore",
	     [&](auto& undo) {
		     VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		     VkSemaphore semaphore;
		     VkResult r = DEVICE_PROC(vkCreateSemaphore)(device, &info, alloc, &semaphore);
		     if (r == VK_SUCCESS)
			     undo.push_back([&, semaphore] { DEVICE_PROC(vkDestroySemaphore)(device, semaphore, alloc); });
		     return r;
	     }},
	    {"vkCreateEvent",
	     [&](auto& undo) {
		     VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
		     VkEvent event;
		     VkResult r = DEVICE_PROC(vkCreateEvent)(device, &info, alloc, &event);
		     if (r == VK_SUCCESS) undo.push_back([&, event] { DEVICE_PROC(vkDestroyEvent)(device, event, alloc); });
		     return r;
	     }},
	};
#undef DEVICE_PROC

	// Budget N lets the first N allocations succeed: N = 0 fails the very
	// first; the loop ends when the whole scenario runs without a failure.
	bool completed = false;
	size_t total_allocations = 0;
	for (size_t budget = 0; !completed && budget < 1000; ++budget) {
		FailingAllocator allocator(budget);
		alloc = allocator.callbacks();
		instance = VK_NULL_HANDLE;
		device = VK_NULL_HANDLE;
		std::vector<std::function<void()>> undo;
		const char* failed_step = nullptr;
		VkResult failure = VK_SUCCESS;
		for (const Step& step : steps) {
			VkResult r = step.run(undo);
			if (r != VK_SUCCESS) {
				failed_step = step.name;
				failure = r;
				break;
			}
		}
		for (auto it = undo.rbegin(); it != undo.rend(); ++it) (*it)();
		INFO("allocation budget " << budget << ", failing step " << (failed_step ? failed_step : "none"));
		if (failed_step) {
			CHECK(allocator.failed());
			CHECK(failure == VK_ERROR_OUT_OF_HOST_MEMORY);
		} else {
			CHECK_FALSE(allocator.failed());
			completed = true;
			total_allocations = allocator.calls();
		}
		CHECK(allocator.live() == 0);
		CHECK(allocator.bad_frees() == 0);
	}
	CHECK(completed);
	CHECK(total_allocations > steps.size() - 3);  // every object came from the callbacks
}

TEST_CASE("vkAllocateMemory larger than the heap: VK_ERROR_OUT_OF_DEVICE_MEMORY and a debug-utils message",
          "[allocation]") {
	// The validation layer rightly flags this request (the size exceeds the
	// heap), so the driver is asked without it, through the loader.
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);

	struct Seen {
		std::vector<std::string> warnings;
		std::vector<std::string> object_names;
	} seen;
	VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
	info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
	info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
	info.pfnUserCallback = [](VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
	                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) -> VkBool32 {
		auto* seen = static_cast<Seen*>(user);
		seen->warnings.emplace_back(data->pMessage);
		bool named = data->objectCount > 0 && data->pObjects[0].pObjectName;
		seen->object_names.emplace_back(named ? data->pObjects[0].pObjectName : "");
		return VK_FALSE;
	};
	info.pUserData = &seen;
	auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkCreateDebugUtilsMessengerEXT"));
	auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkDestroyDebugUtilsMessengerEXT"));
	VkDebugUtilsMessengerEXT messenger;
	REQUIRE(create(ctx->instance(), &info, nullptr, &messenger) == VK_SUCCESS);

	// The message names the device by its debug-utils name.
	auto set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
	    vkGetDeviceProcAddr(ctx->device(), "vkSetDebugUtilsObjectNameEXT"));
	VkDebugUtilsObjectNameInfoEXT name{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr,
	                                   VK_OBJECT_TYPE_DEVICE, uint64_t(ctx->device()), "the test device"};
	REQUIRE(set_name(ctx->device(), &name) == VK_SUCCESS);

	VkPhysicalDeviceMemoryProperties memory;
	vkGetPhysicalDeviceMemoryProperties(ctx->physical_device(), &memory);
	for (VkDeviceSize size : {memory.memoryHeaps[0].size + 1, VkDeviceSize(1) << 62, ~VkDeviceSize(0)}) {
		INFO("allocationSize " << size);
		VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
		allocate.allocationSize = size;
		allocate.memoryTypeIndex = 0;
		VkDeviceMemory handle = VK_NULL_HANDLE;
		size_t before = seen.warnings.size();
		CHECK(vkAllocateMemory(ctx->device(), &allocate, nullptr, &handle) == VK_ERROR_OUT_OF_DEVICE_MEMORY);
		CHECK(seen.warnings.size() == before + 1);
		if (seen.warnings.size() > before) {
			CHECK(seen.warnings.back().find("vkAllocateMemory") != std::string::npos);
			CHECK(seen.object_names.back() == "the test device");
		}
	}
	// The device still works afterwards.
	TestBuffer buffer = ctx->CreateBuffer(64);
	ctx->Submit([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 7u); });
	uint32_t word;
	std::memcpy(&word, buffer.data, 4);
	CHECK(word == 7u);
	ctx->Destroy(buffer);
	destroy(ctx->instance(), messenger, nullptr);
}
