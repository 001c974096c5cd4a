// What a directly-linked program gets when it calls a core command that this
// build does not implement: an error message and a failure result.
#pragma once

#include <vulkan/vulkan_core.h>

#include <type_traits>

namespace tessera::icd {

void ReportUnimplemented(const char* name);

template <typename Result>
Result Unimplemented(const char* name) {
	ReportUnimplemented(name);
	if constexpr (std::is_same_v<Result, VkResult>)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	else if constexpr (!std::is_void_v<Result>)
		return Result{};
}

}  // namespace tessera::icd
