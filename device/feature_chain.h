// The pNext chain of feature structures vkhlo queries and enables.
//
// The same chain serves both directions: filled by vkGetPhysicalDeviceFeatures2 to learn what a
// device offers, and passed to vkCreateDevice to enable what vkhlo will use. A structure is
// linked only when the device's Vulkan version includes it or the device offers the extension
// that defines it; `required_extensions` lists those extensions that must be enabled because
// the structure is not core on this device.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "device/vk_cooperative_matrix.h"

namespace vkhlo::device {

struct DeviceFeatures;

class FeatureChain {
 public:
  // `api_version`: the version vkhlo uses the device at (min of instance and device versions).
  FeatureChain(uint32_t api_version, const std::vector<std::string>& device_extensions);
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;

  VkPhysicalDeviceFeatures2* head() { return &features2_; }

  // Reads the queried chain into plain data.
  void ReadInto(DeviceFeatures& features) const;
  // Clears every feature, then sets the ones `features` turns on (for vkCreateDevice).
  void EnableOnly(const DeviceFeatures& features);

  // Extensions defining linked structures that are not core at `api_version` and must be
  // enabled for the features in them to be used.
  const std::vector<const char*>& required_extensions() const { return required_extensions_; }

 private:
  template <typename T>
  bool Link(T& structure, VkStructureType type, uint32_t core_version, const char* extension);

  uint32_t api_version_;
  const std::vector<std::string>& extensions_;
  std::vector<const char*> required_extensions_;
  void** tail_;

  VkPhysicalDeviceFeatures2 features2_{};
  VkPhysicalDevice16BitStorageFeatures storage16_{};
  VkPhysicalDevice8BitStorageFeatures storage8_{};
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8_{};
  VkPhysicalDeviceShaderAtomicInt64Features atomic_int64_{};
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline_{};
  VkPhysicalDeviceBufferDeviceAddressFeatures buffer_device_address_{};
  VkPhysicalDeviceHostQueryResetFeatures host_query_reset_{};
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control_{};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float_{};
  VkPhysicalDeviceCooperativeMatrixFeaturesKHR cooperative_matrix_{};
  VkPhysicalDeviceShaderIntegerDotProductFeatures integer_dot_product_{};
  bool has_storage16_ = false, has_storage8_ = false, has_float16_int8_ = false;
  bool has_atomic_int64_ = false, has_timeline_ = false, has_buffer_device_address_ = false;
  bool has_host_query_reset_ = false, has_subgroup_size_control_ = false;
  bool has_atomic_float_ = false, has_cooperative_matrix_ = false, has_integer_dot_product_ = false;
};

bool HasExtension(const std::vector<std::string>& extensions, std::string_view name);

}  // namespace vkhlo::device
