#include "vk/device.h"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "icd/vulkan_newer.h"
#include "runtime/log.h"
#include "runtime/thread_pool.h"
#include "shader/compiled.h"
#include "vk/instance.h"
#include "vk/physical_device.h"
#include "vk/queue.h"
#include "wsi/capture.h"

namespace tessera::vk {

Device::Device(PhysicalDevice* physical_device, const VkAllocationCallbacks* allocator, ExtensionSet extensions)
    : physical_device_(physical_device), extensions_(extensions) {
	if (allocator) {
		allocator_ = *allocator;
		has_allocator_ = true;
	}
	const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	draw_memory_budget_ = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) / 4 : uint64_t(1) << 30;
	if (const char* mb = std::getenv("TESSERA_DRAW_MEMORY_MB"))
		if (uint64_t value = std::strtoull(mb, nullptr, 10)) draw_memory_budget_ = value << 20;
	if (const char* limit = std::getenv("TESSERA_SHADER_STEP_LIMIT"))
		if (uint64_t steps = std::strtoull(limit, nullptr, 10)) run_options_.max_block_steps = steps;
}

Device::~Device() {
	for (Queue* queue : queues_) Delete(Allocator(), queue);
}

namespace {

// The enabled features that decide which SPIR-V modules are valid, from the
// feature structures of VkDeviceCreateInfo's pNext chain (core aggregates and
// the structures they were promoted from alike).
spirv::ValidationRules ShaderValidationRules(const VkDeviceCreateInfo& info) {
	spirv::ValidationRules rules;
	for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
		switch (s->sType) {
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
			auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
			rules.uniform_buffer_standard_layout |= f->uniformBufferStandardLayout == VK_TRUE;
			rules.scalar_block_layout |= f->scalarBlockLayout == VK_TRUE;
			break;
		}
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
			rules.uniform_buffer_standard_layout |=
			    reinterpret_cast<const VkPhysicalDeviceUniformBufferStandardLayoutFeatures*>(s)
			        ->uniformBufferStandardLayout == VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
			rules.scalar_block_layout |=
			    reinterpret_cast<const VkPhysicalDeviceScalarBlockLayoutFeatures*>(s)->scalarBlockLayout == VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR:
			rules.workgroup_scalar_block_layout |=
			    reinterpret_cast<const VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR*>(s)
			        ->workgroupMemoryExplicitLayoutScalarBlockLayout == VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_FEATURES_EXT:
			rules.uniform_unsized_arrays |=
			    reinterpret_cast<const VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT*>(s)
			        ->shaderUniformBufferUnsizedArray == VK_TRUE;
			break;
		case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR:
			// The Offset image operand on sampling and fetches.
			rules.sample_offsets |=
			    reinterpret_cast<const VkPhysicalDeviceMaintenance8FeaturesKHR*>(s)->maintenance8 == VK_TRUE;
			break;
		default: break;
		}
	}
	return rules;
}

}  // namespace

VkResult Device::Init(const VkDeviceCreateInfo& info) {
	shader_rules_ = ShaderValidationRules(info);
	if (auto* robustness2 = FindInChain<VkPhysicalDeviceRobustness2FeaturesEXT>(
	        info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT)) {
		robust_buffer_access2_ = robustness2->robustBufferAccess2 == VK_TRUE;
		null_descriptor_ = robustness2->nullDescriptor == VK_TRUE;
	}
	try {
		pass_capture_ = wsi::PassCapture::FromEnvironment();
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	// Each family's queue at the priority its create info asks for
	// (VK_KHR_global_priority). The universal family's queue exists even
	// where no create info names it (a device needs one to wait on).
	VkQueueGlobalPriorityKHR priority[PhysicalDevice::kQueueFamilyCount] = {};
	bool wanted[PhysicalDevice::kQueueFamilyCount] = {};
	wanted[PhysicalDevice::kUniversalFamily] = true;
	for (auto& p : priority) p = VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR;
	for (uint32_t i = 0; i < info.queueCreateInfoCount; ++i) {
		const VkDeviceQueueCreateInfo& q = info.pQueueCreateInfos[i];
		wanted[q.queueFamilyIndex] = true;
		queue_flags_[q.queueFamilyIndex] = q.flags;
		if (auto* p = FindInChain<VkDeviceQueueGlobalPriorityCreateInfoKHR>(
		        q.pNext, VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR))
			priority[q.queueFamilyIndex] = p->globalPriority;
	}
	for (uint32_t family = 0; family < PhysicalDevice::kQueueFamilyCount; ++family) {
		if (!wanted[family]) continue;
		queues_[family] = New<Queue>(Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, this);
		if (!queues_[family]) return VK_ERROR_OUT_OF_HOST_MEMORY;
		if (VkResult result = queues_[family]->Init(priority[family]); result != VK_SUCCESS) return result;
	}
	return VK_SUCCESS;
}

Instance* Device::GetInstance() const { return physical_device_->GetInstance(); }

Queue* Device::GetQueue(uint32_t family, uint32_t index) const {
	return family < PhysicalDevice::kQueueFamilyCount && index == 0 ? queues_[family] : nullptr;
}

void Device::WaitIdle() const {
	for (Queue* queue : queues_)
		if (queue) queue->WaitIdle();
}

runtime::ThreadPool& Device::ThreadPool() {
	std::lock_guard lock(pool_mutex_);
	if (!thread_pool_) thread_pool_ = std::make_unique<runtime::ThreadPool>(runtime::UsableCpuCount());
	return *thread_pool_;
}

std::chrono::steady_clock::time_point Device::Deadline(uint64_t timeout_ns) {
	auto now = std::chrono::steady_clock::now();
	// Past ~292 years the clock would overflow: treat as forever.
	if (timeout_ns >= uint64_t(INT64_MAX) / 2) return std::chrono::steady_clock::time_point::max();
	return now + std::chrono::nanoseconds(timeout_ns);
}

void Device::Report(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkObjectType type, uint64_t object,
                    const char* format, ...) const {
	char text[1024];
	va_list args;
	va_start(args, format);
	std::vsnprintf(text, sizeof text, format, args);
	va_end(args);
	std::string name;
	try {
		name = ObjectName(object);
	} catch (const std::bad_alloc&) {}
	GetInstance()->Message(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, type, object, text,
	                       name.empty() ? nullptr : name.c_str());
}

VkResult Device::AddMemoryRange(const uint8_t* begin, uint64_t size) {
	std::lock_guard lock(ranges_mutex_);
	try {
		live_ranges_[reinterpret_cast<uint64_t>(begin)] = reinterpret_cast<uint64_t>(begin) + size;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	ranges_snapshot_.reset();
	return VK_SUCCESS;
}

void Device::RemoveMemoryRange(const uint8_t* begin) {
	std::lock_guard lock(ranges_mutex_);
	live_ranges_.erase(reinterpret_cast<uint64_t>(begin));
	ranges_snapshot_.reset();
}

std::shared_ptr<const Device::AddressRanges> Device::MemoryRanges() const {
	std::lock_guard lock(ranges_mutex_);
	// Rebuilt only when allocations changed since the last snapshot, so an
	// application allocating n times pays O(n log n) in all, not O(n^2).
	if (!ranges_snapshot_) {
		try {
			auto ranges = std::make_shared<AddressRanges>();
			ranges->reserve(live_ranges_.size());
			for (const auto& [range_begin, range_end] : live_ranges_) ranges->push_back({range_begin, range_end});
			ranges_snapshot_ = std::move(ranges);
		} catch (const std::bad_alloc&) {
			// No snapshot: device-address accesses then reach nothing and
			// read zero, which is safe.
			static const auto kEmpty = std::make_shared<const AddressRanges>();
			return kEmpty;
		}
	}
	return ranges_snapshot_;
}

uint64_t Device::BytesInMemoryFrom(const uint8_t* address) const {
	const uint64_t at = reinterpret_cast<uint64_t>(address);
	std::lock_guard lock(ranges_mutex_);
	auto after = live_ranges_.upper_bound(at);  // the first allocation starting past address
	if (after == live_ranges_.begin()) return 0;
	const uint64_t end = std::prev(after)->second;
	return at < end ? end - at : 0;
}

void Device::SetObjectName(uint64_t handle, const char* name) {
	std::lock_guard lock(names_mutex_);
	if (name && *name)
		object_names_[handle] = name;
	else
		object_names_.erase(handle);
}

std::string Device::ObjectName(uint64_t handle) const {
	std::lock_guard lock(names_mutex_);
	auto it = object_names_.find(handle);
	return it == object_names_.end() ? std::string() : it->second;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
	shader::StopCompilerAtMainThreadExit();
	auto* physical = vk::PhysicalDevice::Cast(physicalDevice);
	Device::ExtensionSet extensions;
	for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
		const char* name = pCreateInfo->ppEnabledExtensionNames[i];
		size_t index = 0;
		while (index < extensions.size() && std::strcmp(kDeviceExtensions[index].extensionName, name) != 0) ++index;
		if (index == extensions.size()) {
			TESSERA_LOG(Warn, "vkCreateDevice: extension %s is not supported", name);
			return VK_ERROR_EXTENSION_NOT_PRESENT;
		}
		extensions.set(index);
	}
	if (!physical->SupportsRequestedFeatures(*pCreateInfo)) {
		TESSERA_LOG(Warn, "vkCreateDevice: a requested feature is not supported");
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
		const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
		if (q.queueFamilyIndex >= vk::PhysicalDevice::kQueueFamilyCount ||
		    q.queueCount > vk::PhysicalDevice::kQueueCount)
			return VK_ERROR_INITIALIZATION_FAILED;
	}
	const VkAllocationCallbacks* allocator = pAllocator ? pAllocator : physical->GetInstance()->Allocator();
	Device* device = vk::New<Device>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, physical, allocator, extensions);
	if (!device) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = device->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, device);
		return result;
	}
	*pDevice = device->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
	if (!device) return;
	Device* self = Device::Cast(device);
	vk::Delete(self->Allocator(pAllocator), self);
	// A program that exits next must not exit while LLVM compiles one of
	// this device's shaders in the background (tiering.cpp).
	shader::WaitForRunningCompile();
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                          VkQueue* pQueue) {
	// A queue that was never created reads as NULL rather than crashing.
	vk::Queue* queue = Device::Cast(device)->GetQueue(queueFamilyIndex, queueIndex);
	*pQueue = queue ? queue->ToHandle() : VK_NULL_HANDLE;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* pQueueInfo, VkQueue* pQueue) {
	// The flags must be those the queue was created with (Tessera creates no
	// protected queues; internally synchronized ones are the same queues).
	const Device* self = Device::Cast(device);
	vk::Queue* queue = pQueueInfo->flags != self->QueueFlags(pQueueInfo->queueFamilyIndex)
	                       ? nullptr
	                       : self->GetQueue(pQueueInfo->queueFamilyIndex, pQueueInfo->queueIndex);
	*pQueue = queue ? queue->ToHandle() : VK_NULL_HANDLE;
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice device,
                                                          const VkDebugUtilsObjectNameInfoEXT* pNameInfo) {
	try {
		Device::Cast(device)->SetObjectName(pNameInfo->objectHandle, pNameInfo->pObjectName);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT*) {
	// Tags are opaque to the driver; nothing consumes them.
	return VK_SUCCESS;
}

}  // namespace tessera::entry
