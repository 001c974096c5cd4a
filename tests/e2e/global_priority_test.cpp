// VK_KHR_global_priority (and the EXT names): the queue family lists every
// level, a device's queue runs at the level asked for (its thread's nice
// value: +10 for LOW, -5 for HIGH, -10 for REALTIME, which the system may
// refuse with VK_ERROR_NOT_PERMITTED_KHR), and the queue executes
// submissions at every level. Through the loader with the validation layer
// on; lavapipe 22.3 lacks the extension, so Tessera alone.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "vk_context.h"

using namespace tessera::test;

namespace {

// The threads of this process whose nice value is `nice` (field 19 of
// /proc/self/task/<tid>/stat, after the parenthesized command name).
int ThreadsWithNice(int nice) {
	int count = 0;
	DIR* dir = opendir("/proc/self/task");
	if (!dir) return -1;
	while (dirent* entry = readdir(dir)) {
		if (entry->d_name[0] == '.') continue;
		std::FILE* f = std::fopen((std::string("/proc/self/task/") + entry->d_name + "/stat").c_str(), "r");
		if (!f) continue;
		char line[1024] = {};
		const bool read = std::fgets(line, sizeof line, f) != nullptr;
		std::fclose(f);
		const char* fields = read ? std::strrchr(line, ')') : nullptr;
		if (!fields) continue;
		// Fields 3.. follow ") ": state, ppid, ..., priority (18), nice (19).
		int field = 2, value = 0;
		for (const char* p = fields + 1; *p; ++p)
			if (*p == ' ' && ++field == 19) {
				value = std::atoi(p + 1);
				break;
			}
		count += field == 19 && value == nice;
	}
	closedir(dir);
	return count;
}

}  // namespace

TEST_CASE("VK_KHR_global_priority: each level is listed and sets the queue thread's priority", "[device][queue]") {
	VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR query{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR};
	query.globalPriorityQuery = VK_TRUE;
	ContextOptions options;
	options.device_extensions = {VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME};
	options.device_features = &query;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);

	VkQueueFamilyGlobalPriorityPropertiesKHR levels{VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR};
	VkQueueFamilyProperties2 family{VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, &levels};
	uint32_t count = 1;
	vkGetPhysicalDeviceQueueFamilyProperties2(ctx->physical_device(), &count, &family);
	REQUIRE(levels.priorityCount == 4);
	CHECK(levels.priorities[0] == VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR);
	CHECK(levels.priorities[1] == VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR);
	CHECK(levels.priorities[2] == VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR);
	CHECK(levels.priorities[3] == VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR);

	errno = 0;
	const int base = getpriority(PRIO_PROCESS, 0);
	REQUIRE(errno == 0);
	struct Level {
		VkQueueGlobalPriorityKHR priority;
		int nice;
	};
	for (Level level : {Level{VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, std::min(base + 10, 19)},
	                    Level{VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR, base},
	                    Level{VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR, std::max(base - 5, -20)},
	                    Level{VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR, std::max(base - 10, -20)}}) {
		CAPTURE(level.priority);
		const int threads_before = ThreadsWithNice(level.nice);
		VkDeviceQueueGlobalPriorityCreateInfoKHR global{VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR};
		global.globalPriority = level.priority;
		const float queue_priority = 1.0f;
		VkDeviceQueueCreateInfo queue_info{
		    VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, &global, 0, 0, 1, &queue_priority};
		const char* extension = VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME;
		VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &query};
		info.queueCreateInfoCount = 1;
		info.pQueueCreateInfos = &queue_info;
		info.enabledExtensionCount = 1;
		info.ppEnabledExtensionNames = &extension;
		VkDevice device = VK_NULL_HANDLE;
		const VkResult result = vkCreateDevice(ctx->physical_device(), &info, nullptr, &device);
		if (level.nice < base && result == VK_ERROR_NOT_PERMITTED_KHR) {
			WARN("raising the queue's priority was refused (no CAP_SYS_NICE): VK_ERROR_NOT_PERMITTED_KHR");
			continue;
		}
		REQUIRE(result == VK_SUCCESS);
		if (level.nice != base) CHECK(ThreadsWithNice(level.nice) == threads_before + 1);
		// The queue runs work: an empty submission signals its fence.
		VkQueue queue = VK_NULL_HANDLE;
		vkGetDeviceQueue(device, 0, 0, &queue);
		REQUIRE(queue != VK_NULL_HANDLE);
		VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		VkFence fence = VK_NULL_HANDLE;
		REQUIRE(vkCreateFence(device, &fence_info, nullptr, &fence) == VK_SUCCESS);
		REQUIRE(vkQueueSubmit(queue, 0, nullptr, fence) == VK_SUCCESS);
		CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_C(10000000000)) == VK_SUCCESS);
		vkDestroyFence(device, fence, nullptr);
		vkDestroyDevice(device, nullptr);
		if (level.nice != base) CHECK(ThreadsWithNice(level.nice) == threads_before);
	}
	CHECK(ctx->validation_errors() == 0);
}
