#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a tiny program
# against it twice: with find_package(Tessera) (target Tessera::tessera_vulkan)
# and with pkg-config (tessera.pc). Each program links the driver directly,
# creates an instance through it and checks the device is Tessera.
set -euo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
mkdir -p "$work/src"
cat >"$work/src/main.c" <<'C'
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <string.h>
/* Exported by libtessera_vulkan; every other command comes through it. */
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance, const char*);
int main(void) {
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)vkGetInstanceProcAddr(NULL, "vkCreateInstance");
	VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	VkInstance instance;
	if (!create || create(&info, NULL, &instance) != VK_SUCCESS) return 1;
	PFN_vkEnumeratePhysicalDevices enumerate =
	    (PFN_vkEnumeratePhysicalDevices)vkGetInstanceProcAddr(instance, "vkEnumeratePhysicalDevices");
	PFN_vkGetPhysicalDeviceProperties properties =
	    (PFN_vkGetPhysicalDeviceProperties)vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties");
	PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)vkGetInstanceProcAddr(instance, "vkDestroyInstance");
	uint32_t count = 1;
	VkPhysicalDevice physical;
	if (enumerate(instance, &count, &physical) < 0 || count != 1) return 1;
	VkPhysicalDeviceProperties props;
	properties(physical, &props);
	printf("linked directly: %s\n", props.deviceName);
	destroy(instance, NULL);
	return strstr(props.deviceName, "Tessera") ? 0 : 1;
}
C
cat >"$work/src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(tessera_consumer C)
find_package(Tessera 0.1 REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE Tessera::tessera_vulkan)
if(NOT EXISTS "${Tessera_ICD_MANIFEST}")
  message(FATAL_ERROR "Tessera_ICD_MANIFEST does not exist: ${Tessera_ICD_MANIFEST}")
endif()
CM
# 1. CMake package.
cmake -S "$work/src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$work/log" 2>&1 || {
  cat "$work/log"; exit 1; }
cmake --build "$work/cmake-build" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
"$work/cmake-build/consumer"
# 2. pkg-config.
pc_dir=$(dirname "$(find "$prefix" -name tessera.pc)")
flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs tessera)
echo "pkg-config --cflags --libs tessera: $flags"
cc -o "$work/pc-consumer" "$work/src/main.c" $flags
libdir=$(PKG_CONFIG_PATH=$pc_dir pkg-config --variable=libdir tessera)
LD_LIBRARY_PATH=$libdir "$work/pc-consumer"
