#include "runtime/device_offer.h"

#include <vulkan/vulkan.h>

#include <utility>

namespace vkhlo::runtime {

plan::DeviceOffer DeviceOfferOf(const device::DeviceCapabilities& caps) {
  plan::DeviceOffer offer;
  offer.device_name = caps.name;
  offer.vulkan_api_minor = VK_API_VERSION_MINOR(caps.api_version);
  const device::DeviceFeatures& f = caps.features;
  const device::FloatControlsProperties& fc = caps.float_controls;
  const std::pair<bool, uint64_t> features[] = {
      {f.shader_int64, plan::kShaderInt64},
      {f.shader_float64, plan::kShaderFloat64},
      {f.shader_float16, plan::kShaderFloat16},
      {f.shader_int8, plan::kShaderInt8},
      {f.shader_int16, plan::kShaderInt16},
      {f.storage_buffer_8bit, plan::kStorageBuffer8BitAccess},
      {f.storage_buffer_16bit, plan::kStorageBuffer16BitAccess},
      {f.shader_integer_dot_product, plan::kShaderIntegerDotProduct},
      {f.subgroup_size_control && caps.subgroup.required_size_in_compute, plan::kSubgroupSizeControl},
      {f.buffer_device_address, plan::kBufferDeviceAddress},
      {f.cooperative_matrix, plan::kCooperativeMatrix},
      {f.shader_buffer_int64_atomics, plan::kShaderBufferInt64Atomics},
      {caps.HasStorageTexelBufferFormat(VK_FORMAT_R32G32B32A32_SFLOAT), plan::kStorageTexelBufferRgba32f},
      {caps.HasStorageTexelBufferFormat(VK_FORMAT_R32G32B32A32_UINT), plan::kStorageTexelBufferRgba32ui},
      {caps.HasStorageTexelBufferFormat(VK_FORMAT_R32_SFLOAT), plan::kStorageTexelBufferR32f},
      {fc.signed_zero_inf_nan_preserve_16, plan::kSignedZeroInfNanPreserveFloat16},
      {fc.signed_zero_inf_nan_preserve_32, plan::kSignedZeroInfNanPreserveFloat32},
      {fc.signed_zero_inf_nan_preserve_64, plan::kSignedZeroInfNanPreserveFloat64},
      {fc.rounding_mode_rte_16, plan::kRoundingModeRteFloat16},
      {fc.rounding_mode_rte_32, plan::kRoundingModeRteFloat32},
      {fc.rounding_mode_rte_64, plan::kRoundingModeRteFloat64},
      {fc.denorm_preserve_16, plan::kDenormPreserveFloat16},
      {fc.denorm_preserve_32, plan::kDenormPreserveFloat32},
      {fc.denorm_preserve_64, plan::kDenormPreserveFloat64},
  };
  for (const auto& [has, bit] : features) offer.features |= has ? bit : 0;
  offer.subgroup_operations = caps.subgroup.supported_in_compute ? caps.subgroup.supported_operations : 0;
  const device::DeviceLimits& l = caps.limits;
  offer.max_storage_buffer_range = l.max_storage_buffer_range;
  offer.max_shared_memory_bytes = l.max_shared_memory_bytes;
  offer.max_workgroup_size = l.max_workgroup_size;
  offer.max_workgroup_invocations = l.max_workgroup_invocations;
  offer.max_push_constants_bytes = l.max_push_constants_bytes;
  offer.max_storage_buffers_per_stage = l.max_per_stage_storage_buffers;
  offer.max_texel_buffer_elements = l.max_texel_buffer_elements;
  offer.min_storage_buffer_offset_alignment = l.min_storage_buffer_offset_alignment;
  offer.min_subgroup_size = caps.subgroup.min_size;
  offer.max_subgroup_size = caps.subgroup.max_size;
  return offer;
}

}  // namespace vkhlo::runtime
