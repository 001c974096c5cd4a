// The loader-ICD interface (loader interface version 7, see the loader's
// LoaderDriverInterface.md) and the GetProcAddr lookups over the generated
// entry-point table.
#include <vulkan/vk_icd.h>

#include <algorithm>
#include <cstring>

#include "entrypoints.h"
#include "icd/unimplemented.h"
#include "runtime/log.h"
#include "vk/device.h"
#include "vk/instance.h"
#include "vk/physical_device.h"

namespace tessera::icd {

using entry::DispatchLevel;
using entry::EntryPoint;

namespace {

const EntryPoint* Find(const char* name) {
	if (!name) return nullptr;
	const EntryPoint* begin = entry::kEntryPoints;
	const EntryPoint* end = begin + entry::kEntryPointCount;
	const EntryPoint* it = std::lower_bound(
	    begin, end, name, [](const EntryPoint& e, const char* n) { return std::strcmp(e.name, n) < 0; });
	return it != end && std::strcmp(it->name, name) == 0 && it->function ? it : nullptr;
}

constexpr int kInstanceExtensionCount = static_cast<int>(entry::InstanceExtension::Count);

// True if the entry point's extension list names an instance extension the
// instance enabled, or any of our device extensions (which the loader asks
// for through vkGetInstanceProcAddr before any device exists).
bool ExtensionAvailable(const EntryPoint& e, const vk::Instance* instance) {
	for (int16_t index : e.extensions) {
		if (index < 0) break;
		if (index >= kInstanceExtensionCount) return true;
		if (instance && instance->IsEnabled(static_cast<entry::InstanceExtension>(index))) return true;
	}
	return false;
}

bool ExtensionEnabled(const EntryPoint& e, const vk::Device* device) {
	const vk::Instance* instance = device->GetInstance();
	for (int16_t index : e.extensions) {
		if (index < 0) break;
		if (index < kInstanceExtensionCount) {
			if (instance->IsEnabled(static_cast<entry::InstanceExtension>(index))) return true;
		} else if (device->IsEnabled(static_cast<entry::DeviceExtension>(index - kInstanceExtensionCount))) {
			return true;
		}
	}
	return false;
}

}  // namespace

// Loader interface version 7: the vk_icd* functions are also reachable
// through vk_icdGetInstanceProcAddr (defined at the end of this file).
PFN_vkVoidFunction LoaderInterfaceFunction(const char* name);

void ReportUnimplemented(const char* name) {
	runtime::Log(runtime::LogLevel::Error, "%s is not implemented by this build of Tessera", name);
}

PFN_vkVoidFunction GetInstanceProcAddr(VkInstance instance, const char* name) {
	if (PFN_vkVoidFunction f = LoaderInterfaceFunction(name)) return f;
	const EntryPoint* e = Find(name);
	if (!e) return nullptr;
	if (!instance) {
		// Vulkan 1.3 §4.1: only global commands without an instance.
		return e->level == DispatchLevel::Global ? e->function : nullptr;
	}
	// With an instance: vkGetInstanceProcAddr and dispatchable commands;
	// the other global commands fall under "any other case": NULL.
	if (e->level == DispatchLevel::Global)
		return std::strcmp(name, "vkGetInstanceProcAddr") == 0 ? e->function : nullptr;
	const vk::Instance* self = vk::Instance::Cast(instance);
	if (e->core_version && e->core_version <= vk::kApiVersion) return e->function;
	return ExtensionAvailable(*e, self) ? e->function : nullptr;
}

PFN_vkVoidFunction GetDeviceProcAddr(VkDevice device, const char* name) {
	const EntryPoint* e = Find(name);
	if (!e || e->level != DispatchLevel::Device) return nullptr;
	const vk::Device* self = vk::Device::Cast(device);
	// Vulkan 1.3 §4.1: core commands up to the version the application asked
	// for, and commands of extensions enabled on this device.
	uint32_t version = std::min<uint32_t>(self->GetInstance()->ApiVersion(), vk::kApiVersion);
	if (e->core_version && VK_API_VERSION_MINOR(e->core_version) <= VK_API_VERSION_MINOR(version)) return e->function;
	return ExtensionEnabled(*e, self) ? e->function : nullptr;
}

PFN_vkVoidFunction GetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
	const EntryPoint* e = Find(name);
	if (!e || e->level != DispatchLevel::PhysicalDevice) return nullptr;
	return GetInstanceProcAddr(instance, name);
}

}  // namespace tessera::icd

namespace tessera::entry {

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName) {
	return icd::GetInstanceProcAddr(instance, pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName) {
	return icd::GetDeviceProcAddr(device, pName);
}

}  // namespace tessera::entry

#define TESSERA_EXPORT extern "C" __attribute__((visibility("default")))

// Loader interface versions, and what each asks of us:
//  2: this negotiation. 3: the driver creates its own surfaces (vkCreate*SurfaceKHR
//  in src/vk/surface*.cpp; wsi::Surface also reads loader-made ones). 4: the loader may ask for
//  physical-device functions through vk_icdGetPhysicalDeviceProcAddr.
//  5: the driver accepts any apiVersion (we never fail on it). 6: adapter
//  enumeration, Windows only. 7: the vk_icd* functions are also returned by
//  vk_icdGetInstanceProcAddr.
TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* pSupportedVersion) {
	constexpr uint32_t kOurVersion = 7;
	if (*pSupportedVersion > kOurVersion) *pSupportedVersion = kOurVersion;
	return *pSupportedVersion >= 2 ? VK_SUCCESS : VK_ERROR_INCOMPATIBLE_DRIVER;
}

TESSERA_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                                  const char* pName) {
	return tessera::icd::GetInstanceProcAddr(instance, pName);
}

TESSERA_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                        const char* pName) {
	return tessera::icd::GetPhysicalDeviceProcAddr(instance, pName);
}

PFN_vkVoidFunction tessera::icd::LoaderInterfaceFunction(const char* name) {
	if (!name || std::strncmp(name, "vk_icd", 6) != 0) return nullptr;
	if (std::strcmp(name, "vk_icdNegotiateLoaderICDInterfaceVersion") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(vk_icdNegotiateLoaderICDInterfaceVersion);
	if (std::strcmp(name, "vk_icdGetPhysicalDeviceProcAddr") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(vk_icdGetPhysicalDeviceProcAddr);
	if (std::strcmp(name, "vk_icdGetInstanceProcAddr") == 0)
		return reinterpret_cast<PFN_vkVoidFunction>(vk_icdGetInstanceProcAddr);
	return nullptr;
}
