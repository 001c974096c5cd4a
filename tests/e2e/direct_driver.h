// Test support: Tessera reached without the loader. The tests that check
// what the driver itself answers (the loader filters or validates some calls
// first: unknown extensions, GetProcAddr rules, allocation callbacks) open
// the built library and call it through its own vk_icdGetInstanceProcAddr.
#pragma once

#include <dlfcn.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <cstdio>

namespace tessera::test {

class DirectDriver {
public:
	DirectDriver() {
		library_ = dlopen(TESSERA_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
		if (!library_) {
			std::fprintf(stderr, "cannot open %s: %s\n", TESSERA_LIBRARY_PATH, dlerror());
			return;
		}
		icd_gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library_, "vk_icdGetInstanceProcAddr"));
		icd_gpdpa =
		    reinterpret_cast<PFN_vk_icdGetPhysicalDeviceProcAddr>(dlsym(library_, "vk_icdGetPhysicalDeviceProcAddr"));
		negotiate = reinterpret_cast<PFN_vk_icdNegotiateLoaderICDInterfaceVersion>(
		    dlsym(library_, "vk_icdNegotiateLoaderICDInterfaceVersion"));
		exported_gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library_, "vkGetInstanceProcAddr"));
	}
	~DirectDriver() {
		if (library_) dlclose(library_);
	}
	DirectDriver(const DirectDriver&) = delete;
	DirectDriver& operator=(const DirectDriver&) = delete;

	bool ok() const { return icd_gipa && icd_gpdpa && negotiate && exported_gipa; }

	template <typename T>
	T Global(const char* name) const {
		return reinterpret_cast<T>(icd_gipa(VK_NULL_HANDLE, name));
	}
	template <typename T>
	T Instance(VkInstance instance, const char* name) const {
		return reinterpret_cast<T>(icd_gipa(instance, name));
	}
	template <typename T>
	T Device(VkInstance instance, VkDevice device, const char* name) const {
		auto gdpa = Instance<PFN_vkGetDeviceProcAddr>(instance, "vkGetDeviceProcAddr");
		return reinterpret_cast<T>(gdpa(device, name));
	}

	PFN_vkGetInstanceProcAddr icd_gipa = nullptr;
	PFN_vk_icdGetPhysicalDeviceProcAddr icd_gpdpa = nullptr;
	PFN_vk_icdNegotiateLoaderICDInterfaceVersion negotiate = nullptr;
	PFN_vkGetInstanceProcAddr exported_gipa = nullptr;

private:
	void* library_ = nullptr;
};

}  // namespace tessera::test
