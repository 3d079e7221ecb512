#include "device/vk_status.h"

#include <string>

namespace vkhlo::device {

std::string_view VkResultName(VkResult result) {
  switch (result) {
#define VKHLO_CASE(name) \
  case name:             \
    return #name;
    VKHLO_CASE(VK_SUCCESS)
    VKHLO_CASE(VK_NOT_READY)
    VKHLO_CASE(VK_TIMEOUT)
    VKHLO_CASE(VK_EVENT_SET)
    VKHLO_CASE(VK_EVENT_RESET)
    VKHLO_CASE(VK_INCOMPLETE)
    VKHLO_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKHLO_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKHLO_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VKHLO_CASE(VK_ERROR_DEVICE_LOST)
    VKHLO_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VKHLO_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VKHLO_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKHLO_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VKHLO_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKHLO_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VKHLO_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKHLO_CASE(VK_ERROR_FRAGMENTED_POOL)
    VKHLO_CASE(VK_ERROR_UNKNOWN)
    VKHLO_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKHLO_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VKHLO_CASE(VK_ERROR_FRAGMENTATION)
    VKHLO_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VKHLO_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    VKHLO_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef VKHLO_CASE
    default:
      return "VK_RESULT_UNKNOWN";
  }
}

static StatusCode CodeFor(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return StatusCode::kOk;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS:
      return StatusCode::kResourceExhausted;
    case VK_ERROR_DEVICE_LOST:
      return StatusCode::kUnavailable;
    case VK_TIMEOUT:
    case VK_NOT_READY:
      return StatusCode::kDeadlineExceeded;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return StatusCode::kFailedPrecondition;
    default:
      return StatusCode::kInternal;
  }
}

Status VkResultToStatus(VkResult result, std::string_view call) {
  if (result == VK_SUCCESS) return OkStatus();
  size_t paren = call.find('(');
  if (paren != std::string_view::npos) call = call.substr(0, paren);
  while (!call.empty() && (call.front() == ' ' || call.front() == ':')) call.remove_prefix(1);
  std::string message(call);
  message += " failed: ";
  message += VkResultName(result);
  if (result == VK_ERROR_DEVICE_LOST) {
    message += " (the Vulkan device was lost; this device can no longer run work)";
  }
  return Status(CodeFor(result), std::move(message));
}

}  // namespace vkhlo::device
