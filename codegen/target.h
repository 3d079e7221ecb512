// TargetInfo: what codegen may assume about the device a kernel will run on, as plain data.
//
// The runtime fills it from the device's masked capabilities (device::Device::capabilities(),
// after VKHLO_PROFILE), so codegen never includes device/ headers (see DESIGN.md's module
// table) and tests can describe fake devices ("a phone without shaderFloat64") without a GPU.
// Every field has the Vulkan name it comes from.
#pragma once

#include <array>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace vkhlo::codegen {

// VkPhysicalDeviceFloatControlsProperties (VK_KHR_shader_float_controls, core in Vulkan 1.2): the
// execution modes a kernel may declare, per float width. Kernels declare every one the device
// offers (codegen/spirv_float_controls.h); results never depend on them (exact paths work on
// the bits), but without SignedZeroInfNanPreserve a driver may fold isnan() away or drop the
// sign of a zero, and without RoundingModeRTE the rounding of +, -, * is the driver's choice.
struct FloatControls {
  bool signed_zero_inf_nan_preserve_16 = false;  // shaderSignedZeroInfNanPreserveFloat16
  bool signed_zero_inf_nan_preserve_32 = false;
  bool signed_zero_inf_nan_preserve_64 = false;
  bool rounding_mode_rte_16 = false;  // shaderRoundingModeRTEFloat16
  bool rounding_mode_rte_32 = false;
  bool rounding_mode_rte_64 = false;
  // DenormPreserve: without it a driver may flush denormal inputs and results of float
  // arithmetic and comparisons to zero (NVIDIA does for f32). Set only for widths whose mode the
  // device lets differ from the others' (denormBehaviorIndependence).
  bool denorm_preserve_16 = false;  // shaderDenormPreserveFloat16
  bool denorm_preserve_32 = false;
  bool denorm_preserve_64 = false;
  bool any() const {
    return signed_zero_inf_nan_preserve_16 || signed_zero_inf_nan_preserve_32 || signed_zero_inf_nan_preserve_64 ||
           rounding_mode_rte_16 || rounding_mode_rte_32 || rounding_mode_rte_64 || denorm_preserve_16 ||
           denorm_preserve_32 || denorm_preserve_64;
  }
  bool operator==(const FloatControls&) const = default;
};

struct TargetInfo {
  std::string device_name = "unknown device";  // for messages ("..., which <device> lacks")
  std::string profile = "native";              // VKHLO_PROFILE that masked the capabilities

  // Identity, for per-vendor kernel configurations (codegen/library/tile_config.h).
  enum class DeviceType : uint8_t { kOther, kIntegratedGpu, kDiscreteGpu, kVirtualGpu, kCpu };
  uint32_t vendor_id = 0;  // VkPhysicalDeviceProperties::vendorID (0x1002 AMD, 0x10DE NVIDIA, ...)
  DeviceType device_type = DeviceType::kOther;  // VkPhysicalDeviceProperties::deviceType

  // SPIR-V environment: Vulkan 1.1 / SPIR-V 1.3, or 1.0 / 1.0 on Vulkan 1.0 devices.
  uint32_t vulkan_api_minor = 1;

  // Arithmetic in shaders.
  bool shader_int64 = false;    // shaderInt64: 64-bit integer arithmetic
  bool shader_float64 = false;  // shaderFloat64: double arithmetic
  bool shader_float16 = false;  // shaderFloat16: f16 arithmetic
  bool shader_int8 = false;     // shaderInt8
  bool shader_int16 = false;    // shaderInt16
  // Narrow types in storage buffers (codegen packs narrow elements into 32-bit words and does
  // not need these; they are here for library kernels that may).
  bool storage_buffer_8bit = false;   // storageBuffer8BitAccess
  bool storage_buffer_16bit = false;  // storageBuffer16BitAccess
  // shaderIntegerDotProduct (VK_KHR_shader_integer_dot_product, core in 1.3): OpSDotKHR and
  // friends on 4 x 8-bit values packed in a 32-bit word (the quantized library kernels).
  bool shader_integer_dot_product = false;

  // Execution modes kernels declare (see FloatControls).
  FloatControls float_controls;

  // Subgroups (for reductions, later).
  uint32_t subgroup_size = 1;
  uint32_t subgroup_operations = 0;  // VkSubgroupFeatureFlags bits valid in compute

  // Limits.
  std::array<uint32_t, 3> max_workgroup_size = {128, 1, 1};    // maxComputeWorkGroupSize
  std::array<uint32_t, 3> max_workgroup_count = {65535, 1, 1}; // maxComputeWorkGroupCount
  uint32_t max_workgroup_invocations = 128;  // maxComputeWorkGroupInvocations
  uint32_t max_shared_memory_bytes = 16384;  // maxComputeSharedMemorySize
  uint64_t max_storage_buffer_range = 128ull << 20;  // maxStorageBufferRange
  // bufferDeviceAddress: a binding beyond max_storage_buffer_range is reached through its
  // device address (codegen/big_bindings.h); without it such a binding is an error.
  bool buffer_device_address = false;
  uint64_t min_storage_buffer_offset_alignment = 256;
  // Tensors beyond maxMemoryAllocationSize are split across several allocations
  // (device/split_layout.h): a binding of more than split_piece_bytes (0: none are split) is
  // bound through windows of split_window_bytes, never by address nor as a texel view.
  uint64_t split_piece_bytes = 0;
  uint64_t split_window_bytes = 0;
  uint32_t max_push_constants_bytes = 128;
  uint32_t max_storage_buffers_per_stage = 4;  // maxPerStageDescriptorStorageBuffers
  // Storage texel buffers (`layout(binding = i, rgba32f) readonly uniform imageBuffer`): the
  // runtime binds them like storage buffers and the device layer makes the views. A view holds
  // size / texel-bytes texels (a partial last texel reads as zero), starts at a multiple of
  // the offset alignment, and holds at most max_texel_buffer_elements texels.
  uint64_t max_texel_buffer_elements = 65536;          // maxTexelBufferElements
  uint64_t min_texel_buffer_offset_alignment = 256;    // minTexelBufferOffsetAlignment
  bool storage_texel_buffer_rgba32f = false;  // R32G32B32A32_SFLOAT has STORAGE_TEXEL_BUFFER
  bool storage_texel_buffer_rgba32ui = false;  // R32G32B32A32_UINT has STORAGE_TEXEL_BUFFER

  // VK_KHR_cooperative_matrix shapes with subgroup scope (empty: no cooperative matrices).
  // Component types as VkComponentTypeKHR values (0 f16, 1 f32, 2 f64, 3 s8, 5 s32, ...).
  struct CooperativeMatrixShape {
    uint32_t m = 0, n = 0, k = 0;
    uint32_t a = 0, b = 0, c = 1, result = 1;
  };
  std::vector<CooperativeMatrixShape> cooperative_matrix_shapes;

  // A target with every feature and generous limits (tests of codegen without a device).
  static TargetInfo Everything() {
    TargetInfo t;
    t.device_name = "an unlimited test target";
    t.shader_int64 = t.shader_float64 = t.shader_float16 = t.shader_int8 = t.shader_int16 = true;
    t.storage_buffer_8bit = t.storage_buffer_16bit = true;
    t.shader_integer_dot_product = true;
    t.subgroup_size = 32;
    t.max_workgroup_size = {1024, 1024, 64};
    t.max_workgroup_count = {65535, 65535, 65535};
    t.max_workgroup_invocations = 1024;
    t.max_shared_memory_bytes = 32768;
    t.max_storage_buffer_range = 1ull << 31;
    t.buffer_device_address = true;
    t.min_storage_buffer_offset_alignment = 16;
    t.max_storage_buffers_per_stage = 64;
    t.max_texel_buffer_elements = 1ull << 27;
    t.min_texel_buffer_offset_alignment = 16;
    t.storage_texel_buffer_rgba32f = true;
    t.storage_texel_buffer_rgba32ui = true;
    t.float_controls = {true, true, true, true, true, true};
    return t;
  }
};

// The bytes S of each descriptor ("window") that binds a tensor beyond max_storage_buffer_range
// on a device without bufferDeviceAddress (codegen/big_bindings.h): the largest multiple of 16
// and of the storage offset alignment within the range, so no element straddles two windows.
inline uint64_t WindowBytes(const TargetInfo& target) {
  const uint64_t align = std::lcm<uint64_t>(16, std::max<uint64_t>(1, target.min_storage_buffer_offset_alignment));
  return std::max<uint64_t>(align, target.max_storage_buffer_range / align * align);
}

// Storage-buffer descriptors a binding of `bytes` takes: one, or one per window where the
// tensor is beyond the range and the device has no buffer device addresses, or where it may be
// split across allocations (split_piece_bytes: always windowed, windows of split_window_bytes).
// Kernels must fit maxPerStageDescriptorStorageBuffers counted this way (fusion.cc plans within it).
inline uint64_t DescriptorsFor(const TargetInfo& target, uint64_t bytes) {
  if (target.split_piece_bytes != 0 && target.split_window_bytes != 0 && bytes > target.split_piece_bytes) {
    return (bytes + target.split_window_bytes - 1) / target.split_window_bytes;
  }
  if (bytes <= target.max_storage_buffer_range || target.buffer_device_address) return 1;
  return (bytes + WindowBytes(target) - 1) / WindowBytes(target);
}

}  // namespace vkhlo::codegen
