#include "device/feature_chain.h"

#include <algorithm>

#include "device/capabilities.h"

namespace vkhlo::device {

bool HasExtension(const std::vector<std::string>& extensions, std::string_view name) {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

template <typename T>
bool FeatureChain::Link(T& structure, VkStructureType type, uint32_t core_version,
                        const char* extension) {
  bool core = core_version != 0 && api_version_ >= core_version;
  bool offered = extension != nullptr && HasExtension(extensions_, extension);
  if (!core && !offered) return false;
  structure.sType = type;
  structure.pNext = nullptr;
  *tail_ = &structure;
  tail_ = &structure.pNext;
  if (!core) required_extensions_.push_back(extension);
  return true;
}

FeatureChain::FeatureChain(uint32_t api_version, const std::vector<std::string>& device_extensions)
    : api_version_(api_version), extensions_(device_extensions) {
  features2_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  tail_ = &features2_.pNext;
  const uint32_t v11 = VK_API_VERSION_1_1, v12 = VK_API_VERSION_1_2, v13 = VK_API_VERSION_1_3;
  has_storage16_ = Link(storage16_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, v11,
                        VK_KHR_16BIT_STORAGE_EXTENSION_NAME);
  has_storage8_ = Link(storage8_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, v12,
                       VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  has_float16_int8_ =
      Link(float16_int8_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, v12,
           VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
  has_atomic_int64_ =
      Link(atomic_int64_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES, v12,
           VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  has_timeline_ = Link(timeline_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
                       v12, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
  has_buffer_device_address_ =
      Link(buffer_device_address_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
           v12, VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
  has_host_query_reset_ =
      Link(host_query_reset_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, v12,
           VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
  has_subgroup_size_control_ =
      Link(subgroup_size_control_,
           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, v13,
           VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  has_atomic_float_ =
      Link(atomic_float_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, 0,
           VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  has_cooperative_matrix_ =
      Link(cooperative_matrix_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR,
           0, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
  has_integer_dot_product_ =
      Link(integer_dot_product_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES, v13,
           VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME);
}

void FeatureChain::ReadInto(DeviceFeatures& f) const {
  const VkPhysicalDeviceFeatures& core = features2_.features;
  f.shader_float64 = core.shaderFloat64;
  f.shader_int64 = core.shaderInt64;
  f.shader_int16 = core.shaderInt16;
  f.storage_buffer_16bit = has_storage16_ && storage16_.storageBuffer16BitAccess;
  f.storage_buffer_8bit = has_storage8_ && storage8_.storageBuffer8BitAccess;
  f.shader_float16 = has_float16_int8_ && float16_int8_.shaderFloat16;
  f.shader_int8 = has_float16_int8_ && float16_int8_.shaderInt8;
  f.shader_buffer_int64_atomics = has_atomic_int64_ && atomic_int64_.shaderBufferInt64Atomics;
  f.timeline_semaphore = has_timeline_ && timeline_.timelineSemaphore;
  f.buffer_device_address =
      has_buffer_device_address_ && buffer_device_address_.bufferDeviceAddress;
  f.host_query_reset = has_host_query_reset_ && host_query_reset_.hostQueryReset;
  f.subgroup_size_control =
      has_subgroup_size_control_ && subgroup_size_control_.subgroupSizeControl;
  f.compute_full_subgroups =
      has_subgroup_size_control_ && subgroup_size_control_.computeFullSubgroups;
  f.shader_buffer_float32_atomic_add = has_atomic_float_ && atomic_float_.shaderBufferFloat32AtomicAdd;
  f.cooperative_matrix = has_cooperative_matrix_ && cooperative_matrix_.cooperativeMatrix;
  f.shader_integer_dot_product = has_integer_dot_product_ && integer_dot_product_.shaderIntegerDotProduct;
}

void FeatureChain::EnableOnly(const DeviceFeatures& f) {
  // Keep the chain links, clear every VkBool32, then set what is asked for.
  features2_.features = VkPhysicalDeviceFeatures{};
  features2_.features.shaderFloat64 = f.shader_float64;
  features2_.features.shaderInt64 = f.shader_int64;
  features2_.features.shaderInt16 = f.shader_int16;
  auto reset = [](auto& s) {
    auto type = s.sType;
    auto next = s.pNext;
    s = {};
    s.sType = type;
    s.pNext = next;
  };
  reset(storage16_);
  storage16_.storageBuffer16BitAccess = f.storage_buffer_16bit;
  reset(storage8_);
  storage8_.storageBuffer8BitAccess = f.storage_buffer_8bit;
  reset(float16_int8_);
  float16_int8_.shaderFloat16 = f.shader_float16;
  float16_int8_.shaderInt8 = f.shader_int8;
  reset(atomic_int64_);
  atomic_int64_.shaderBufferInt64Atomics = f.shader_buffer_int64_atomics;
  reset(timeline_);
  timeline_.timelineSemaphore = f.timeline_semaphore;
  reset(buffer_device_address_);
  buffer_device_address_.bufferDeviceAddress = f.buffer_device_address;
  reset(host_query_reset_);
  host_query_reset_.hostQueryReset = f.host_query_reset;
  reset(subgroup_size_control_);
  subgroup_size_control_.subgroupSizeControl = f.subgroup_size_control;
  subgroup_size_control_.computeFullSubgroups = f.compute_full_subgroups;
  reset(atomic_float_);
  atomic_float_.shaderBufferFloat32AtomicAdd = f.shader_buffer_float32_atomic_add;
  reset(cooperative_matrix_);
  cooperative_matrix_.cooperativeMatrix = f.cooperative_matrix;
  reset(integer_dot_product_);
  integer_dot_product_.shaderIntegerDotProduct = f.shader_integer_dot_product;
}

}  // namespace vkhlo::device
