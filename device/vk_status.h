// Turning VkResult into vkhlo::Status: every failing Vulkan call becomes an error that names
// the call and the result, e.g. "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY".
#pragma once

#include <vulkan/vulkan.h>

#include <string_view>

#include "vkhlo/status.h"

namespace vkhlo::device {

// "VK_ERROR_DEVICE_LOST" etc.
std::string_view VkResultName(VkResult result);

// OK for VK_SUCCESS; otherwise an error whose code reflects the result (out of memory ->
// RESOURCE_EXHAUSTED, device lost -> UNAVAILABLE, missing feature/extension -> FAILED_PRECONDITION)
// and whose message names `call`. `call` may be a whole call expression; only the function
// name before '(' is kept.
Status VkResultToStatus(VkResult result, std::string_view call);

}  // namespace vkhlo::device

// Returns from the enclosing function with a Status if the Vulkan call does not succeed.
#define VKHLO_VK_RETURN_IF_ERROR(call)                                           \
  do {                                                                           \
    VkResult vkhlo_vk_result_ = (call);                                          \
    if (vkhlo_vk_result_ != VK_SUCCESS)                                          \
      return ::vkhlo::device::VkResultToStatus(vkhlo_vk_result_, #call);        \
  } while (0)
