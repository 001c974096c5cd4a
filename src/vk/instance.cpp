#include "vk/instance.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/cpu_level.h"
#include "runtime/log.h"
#include "vk/physical_device.h"

namespace tessera::vk {

using entry::InstanceExtension;

Instance::Instance(const VkAllocationCallbacks* allocator, uint32_t api_version, ExtensionSet extensions)
    : api_version_(api_version), extensions_(extensions) {
	if (allocator) {
		allocator_ = *allocator;
		has_allocator_ = true;
	}
}

Instance::~Instance() { Delete(Allocator(), physical_device_); }

void Instance::StartDestruction() {
	std::lock_guard lock(messengers_mutex_);
	creation_messengers_active_ = true;
}

VkResult Instance::Init(const VkInstanceCreateInfo& info) {
	try {
		for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
			if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) continue;
			auto* m = reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
			creation_messengers_.push_back({{}, m->messageSeverity, m->messageType, m->pfnUserCallback, m->pUserData});
		}
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	physical_device_ = New<PhysicalDevice>(Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, this);
	if (!physical_device_) {
		Message(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
		        VK_OBJECT_TYPE_INSTANCE, 0, "vkCreateInstance: out of host memory");
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

void Instance::FinishCreation() {
	std::lock_guard lock(messengers_mutex_);
	creation_messengers_active_ = false;
}

void Instance::AddMessenger(DebugMessenger* messenger) {
	std::lock_guard lock(messengers_mutex_);
	messengers_.push_back(messenger);
}

void Instance::RemoveMessenger(DebugMessenger* messenger) {
	std::lock_guard lock(messengers_mutex_);
	messengers_.erase(std::remove(messengers_.begin(), messengers_.end(), messenger), messengers_.end());
}

void Instance::Message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
                       VkObjectType object_type, uint64_t object, const char* text, const char* object_name) const {
	using runtime::LogLevel;
	LogLevel level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT     ? LogLevel::Error
	                 : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT ? LogLevel::Warn
	                 : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT    ? LogLevel::Info
	                                                                               : LogLevel::Debug;
	if (runtime::LogEnabled(level)) runtime::Log(level, "%s", text);

	VkDebugUtilsObjectNameInfoEXT object_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr, object_type,
	                                          object, object_name};
	VkDebugUtilsMessengerCallbackDataEXT data{};
	data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
	data.pMessageIdName = "Tessera";
	data.pMessage = text;
	data.objectCount = object ? 1 : 0;
	data.pObjects = object ? &object_info : nullptr;
	Dispatch(severity, type, data);
}

void Instance::Dispatch(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                        const VkDebugUtilsMessengerCallbackDataEXT& data) const {
	std::lock_guard lock(messengers_mutex_);
	auto send = [&](const DebugMessenger& m) {
		if ((m.severities & severity) && (m.types & types)) m.callback(severity, types, &data, m.user_data);
	};
	for (const DebugMessenger* m : messengers_) send(*m);
	if (creation_messengers_active_)
		for (const DebugMessenger& m : creation_messengers_) send(m);
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Instance;

namespace {

// A vkCreateInstance that fails before an instance exists still tells the
// messengers chained to its create info (and the log) why.
void ReportBeforeInstance(const VkInstanceCreateInfo& info, const char* text) {
	TESSERA_LOG(Warn, "%s", text);
	VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
	data.pMessageIdName = "Tessera";
	data.pMessage = text;
	constexpr auto kSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
	constexpr auto kType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
	for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
		if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) continue;
		auto* m = reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
		if ((m->messageSeverity & kSeverity) && (m->messageType & kType))
			m->pfnUserCallback(kSeverity, kType, &data, m->pUserData);
	}
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(uint32_t* pApiVersion) {
	*pApiVersion = vk::kApiVersion;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char* pLayerName, uint32_t* pPropertyCount,
                                                                    VkExtensionProperties* pProperties) {
	if (pLayerName) return VK_ERROR_LAYER_NOT_PRESENT;
	return vk::FillArray(kInstanceExtensions, static_cast<uint32_t>(InstanceExtension::Count), pPropertyCount,
	                     pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceLayerProperties(uint32_t* pPropertyCount, VkLayerProperties*) {
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
	runtime::HostCpuLevel();  // TESSERA_CPU_LEVEL limits Highway's dispatch before any work
	if (pCreateInfo->enabledLayerCount > 0) {
		ReportBeforeInstance(*pCreateInfo, "vkCreateInstance: Tessera has no layers of its own");
		return VK_ERROR_LAYER_NOT_PRESENT;
	}
	Instance::ExtensionSet extensions;
	for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
		const char* name = pCreateInfo->ppEnabledExtensionNames[i];
		size_t index = 0;
		while (index < extensions.size() && std::strcmp(kInstanceExtensions[index].extensionName, name) != 0) ++index;
		if (index == extensions.size()) {
			char text[VK_MAX_EXTENSION_NAME_SIZE + 64];
			std::snprintf(text, sizeof text, "vkCreateInstance: extension %s is not supported", name);
			ReportBeforeInstance(*pCreateInfo, text);
			return VK_ERROR_EXTENSION_NOT_PRESENT;
		}
		extensions.set(index);
	}
	uint32_t api_version = VK_API_VERSION_1_0;
	if (pCreateInfo->pApplicationInfo && pCreateInfo->pApplicationInfo->apiVersion)
		api_version = pCreateInfo->pApplicationInfo->apiVersion;

	Instance* instance =
	    vk::New<Instance>(pAllocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, pAllocator, api_version, extensions);
	if (!instance) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = instance->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(pAllocator, instance);
		return result;
	}
	// A verbose note that the messengers chained to the create info can see.
	instance->Message(VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
	                  VK_OBJECT_TYPE_INSTANCE, uint64_t(instance->ToHandle()),
	                  "vkCreateInstance: Tessera instance created");
	instance->FinishCreation();
	*pInstance = instance->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
	if (!instance) return;
	Instance* self = Instance::Cast(instance);
	self->StartDestruction();
	self->Message(VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
	              VK_OBJECT_TYPE_INSTANCE, uint64_t(instance), "vkDestroyInstance: Tessera instance destroyed");
	vk::Delete(pAllocator, self);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
	Instance* self = Instance::Cast(instance);
	auto* messenger =
	    vk::New<vk::DebugMessenger>(pAllocator ? pAllocator : self->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!messenger) return VK_ERROR_OUT_OF_HOST_MEMORY;
	messenger->severities = pCreateInfo->messageSeverity;
	messenger->types = pCreateInfo->messageType;
	messenger->callback = pCreateInfo->pfnUserCallback;
	messenger->user_data = pCreateInfo->pUserData;
	try {
		self->AddMessenger(messenger);
	} catch (const std::bad_alloc&) {
		vk::Delete(pAllocator ? pAllocator : self->Allocator(), messenger);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	*pMessenger = messenger->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
	if (!messenger) return;
	Instance* self = Instance::Cast(instance);
	self->RemoveMessenger(vk::DebugMessenger::Cast(messenger));
	vk::Delete(pAllocator ? pAllocator : self->Allocator(), vk::DebugMessenger::Cast(messenger));
}

VKAPI_ATTR void VKAPI_CALL SubmitDebugUtilsMessageEXT(VkInstance instance,
                                                      VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
                                                      VkDebugUtilsMessageTypeFlagsEXT messageTypes,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* pCallbackData) {
	// VK_EXT_debug_utils: the callback data reaches the messengers as given.
	Instance::Cast(instance)->Dispatch(messageSeverity, messageTypes, *pCallbackData);
}

}  // namespace tessera::entry
