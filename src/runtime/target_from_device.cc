#include "runtime/target_from_device.h"

#include <vulkan/vulkan.h>

#include "device/allocator.h"
#include "support/env.h"

namespace vkhlo::runtime {

codegen::TargetInfo TargetFromDevice(const device::Device& device) {
  const device::DeviceCapabilities& caps = device.capabilities();
  codegen::TargetInfo t;
  t.device_name = caps.name;
  t.profile = caps.profile;
  t.vulkan_api_minor = VK_API_VERSION_MINOR(caps.api_version) >= 1 ? 1 : 0;
  // Without shaderInt64 codegen emulates i64/ui64 with 32-bit pairs (hlo_i64.glsl);
  // VKHLO_INT64=emulate asks for that on a device that has it (to measure the emulation's cost, or
  // to test a phone's kernels on a desktop).
  const std::optional<std::string> int64_mode = GetEnv("VKHLO_INT64");
  t.shader_int64 = caps.features.shader_int64 && !(int64_mode && *int64_mode == "emulate");
  t.shader_float64 = caps.features.shader_float64;
  t.shader_float16 = caps.features.shader_float16;
  t.shader_int8 = caps.features.shader_int8;
  t.shader_int16 = caps.features.shader_int16;
  t.storage_buffer_8bit = caps.features.storage_buffer_8bit;
  t.shader_integer_dot_product = caps.features.shader_integer_dot_product;
  t.storage_buffer_16bit = caps.features.storage_buffer_16bit;
  // Kernels declare the float-control modes the device offers (docs/exactness.md), unless
  // VKHLO_FLOAT_CONTROLS=0 (to measure their cost, or around a driver that mishandles them).
  const device::FloatControlsProperties& fc = caps.float_controls;
  const std::optional<std::string> declare = GetEnv("VKHLO_FLOAT_CONTROLS");
  if (!declare || *declare != "0") {
    t.float_controls = {fc.signed_zero_inf_nan_preserve_16, fc.signed_zero_inf_nan_preserve_32,
                        fc.signed_zero_inf_nan_preserve_64, fc.rounding_mode_rte_16,
                        fc.rounding_mode_rte_32, fc.rounding_mode_rte_64};
    // Denormals preserved where the device can, for widths whose mode may be set apart:
    // independence ALL (1) each width; 32_BIT_ONLY (0) f32 alone, f16 and f64 together; NONE
    // (2) all three together.
    const bool all = fc.denorm_preserve_16 && fc.denorm_preserve_32 && fc.denorm_preserve_64;
    const bool narrow_and_wide = fc.denorm_preserve_16 && fc.denorm_preserve_64;
    switch (fc.denorm_independence) {
      case 1:
        t.float_controls.denorm_preserve_16 = fc.denorm_preserve_16;
        t.float_controls.denorm_preserve_32 = fc.denorm_preserve_32;
        t.float_controls.denorm_preserve_64 = fc.denorm_preserve_64;
        break;
      case 0:
        t.float_controls.denorm_preserve_32 = fc.denorm_preserve_32;
        t.float_controls.denorm_preserve_16 = t.float_controls.denorm_preserve_64 = narrow_and_wide;
        break;
      default:
        t.float_controls.denorm_preserve_16 = t.float_controls.denorm_preserve_32 =
            t.float_controls.denorm_preserve_64 = all;
        break;
    }
  }
  t.subgroup_size = caps.subgroup.size;
  t.subgroup_operations = caps.subgroup.supported_operations;
  t.max_workgroup_size = caps.limits.max_workgroup_size;
  t.max_workgroup_count = caps.limits.max_workgroup_count;
  t.max_workgroup_invocations = caps.limits.max_workgroup_invocations;
  t.max_shared_memory_bytes = caps.limits.max_shared_memory_bytes;
  t.max_storage_buffer_range = caps.limits.max_storage_buffer_range;
  t.buffer_device_address = caps.features.buffer_device_address;
  t.min_storage_buffer_offset_alignment = caps.limits.min_storage_buffer_offset_alignment;
  const device::SplitLayout& split = device.allocator().split_layout();
  if (split.limit != 0) {
    t.split_piece_bytes = split.piece_bytes;
    t.split_window_bytes = split.window_bytes;
  }
  t.max_push_constants_bytes = caps.limits.max_push_constants_bytes;
  t.max_storage_buffers_per_stage = caps.limits.max_per_stage_storage_buffers;
  t.max_texel_buffer_elements = caps.limits.max_texel_buffer_elements;
  t.min_texel_buffer_offset_alignment = caps.limits.min_texel_buffer_offset_alignment;
  t.storage_texel_buffer_rgba32f = caps.HasStorageTexelBufferFormat(VK_FORMAT_R32G32B32A32_SFLOAT);
  t.storage_texel_buffer_rgba32ui = caps.HasStorageTexelBufferFormat(VK_FORMAT_R32G32B32A32_UINT);
  // Identity and matrix units, for the library kernels' per-vendor configurations.
  t.vendor_id = caps.vendor_id;
  switch (caps.type) {
    case device::DeviceType::kCpu: t.device_type = codegen::TargetInfo::DeviceType::kCpu; break;
    case device::DeviceType::kDiscreteGpu: t.device_type = codegen::TargetInfo::DeviceType::kDiscreteGpu; break;
    case device::DeviceType::kIntegratedGpu: t.device_type = codegen::TargetInfo::DeviceType::kIntegratedGpu; break;
    case device::DeviceType::kVirtualGpu: t.device_type = codegen::TargetInfo::DeviceType::kVirtualGpu; break;
    default: t.device_type = codegen::TargetInfo::DeviceType::kOther;
  }
  for (const auto& s : caps.cooperative_matrix_shapes) {
    if (!s.subgroup_scope) continue;
    t.cooperative_matrix_shapes.push_back({s.m, s.n, s.k, static_cast<uint32_t>(s.a), static_cast<uint32_t>(s.b),
                                           static_cast<uint32_t>(s.c), static_cast<uint32_t>(s.result)});
  }
  return t;
}

}  // namespace vkhlo::runtime
