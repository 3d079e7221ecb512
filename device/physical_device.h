// Enumerating physical devices and reading their capabilities, and choosing the one vkhlo runs
// on (VKHLO_DEVICE, else discrete > integrated > virtual > CPU).
#pragma once

#include <vulkan/vulkan.h>

#include <optional>
#include <string>
#include <vector>

#include "device/capabilities.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  int index = 0;                     // position in enumeration order (what VKHLO_DEVICE=N means)
  DeviceCapabilities capabilities;   // as the driver reports them (no profile applied)
};

// Reads every capability vkhlo cares about. `instance_api_version` caps the device's version.
StatusOr<DeviceCapabilities> QueryCapabilities(VkInstance instance, uint32_t instance_api_version,
                                               VkPhysicalDevice physical_device);

StatusOr<std::vector<PhysicalDevice>> EnumeratePhysicalDevices(VkInstance instance,
                                                               uint32_t instance_api_version);

struct DeviceChoice {
  int index = -1;      // into the enumerated list
  std::string reason;  // one line a person can read, e.g. "VKHLO_DEVICE=1 names it"
};

// Picks a device. `request` is VKHLO_DEVICE's value: a decimal index, or a case-insensitive
// substring of the device name. Without a request: the best type (discrete > integrated >
// virtual > CPU > other), then the most device-local memory, then enumeration order. Devices
// without a compute queue or older than Vulkan 1.1 are never chosen.
StatusOr<DeviceChoice> ChooseDevice(const std::vector<PhysicalDevice>& devices,
                                    const std::optional<std::string>& request);

// Why a device cannot be used at all (empty if it can).
std::string UnusableReason(const DeviceCapabilities& caps);

}  // namespace vkhlo::device
