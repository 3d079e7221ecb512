// What a plan needs of the device it runs on, and the check a loader makes before it creates
// a single pipeline: a phone that lacks shaderFloat64 should hear "needs shaderFloat64" when
// it opens the file, not a driver crash at the first dispatch (docs/plan_format.md
// "Requirements").
//
// The compiler fills DeviceRequirements from the capabilities it compiled for (the masked
// TargetInfo of the present device, or a named profile such as "mobile") narrowed to what the
// kernels actually use; the runtime fills DeviceOffer from device::DeviceCapabilities. Both are
// plain data so that this module needs no Vulkan header.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::plan {

// Optional Vulkan features a plan's kernels may use, one bit each (the Vulkan names in the
// comments). The values are part of the file format: never renumber, only append.
enum Feature : uint64_t {
  kShaderInt64 = 1ull << 0,                 // shaderInt64
  kShaderFloat64 = 1ull << 1,               // shaderFloat64
  kShaderFloat16 = 1ull << 2,               // shaderFloat16 (VK_KHR_shader_float16_int8)
  kShaderInt8 = 1ull << 3,                  // shaderInt8
  kShaderInt16 = 1ull << 4,                 // shaderInt16
  kStorageBuffer8BitAccess = 1ull << 5,     // storageBuffer8BitAccess
  kStorageBuffer16BitAccess = 1ull << 6,    // storageBuffer16BitAccess
  kShaderIntegerDotProduct = 1ull << 7,     // shaderIntegerDotProduct
  kSubgroupSizeControl = 1ull << 8,         // subgroupSizeControl (required subgroup sizes)
  kBufferDeviceAddress = 1ull << 9,         // bufferDeviceAddress (bindings beyond the range)
  kCooperativeMatrix = 1ull << 10,          // VK_KHR_cooperative_matrix
  kShaderBufferInt64Atomics = 1ull << 11,   // shaderBufferInt64Atomics
  kStorageTexelBufferRgba32f = 1ull << 12,  // R32G32B32A32_SFLOAT storage texel buffers
  kStorageTexelBufferRgba32ui = 1ull << 13, // R32G32B32A32_UINT storage texel buffers
  // Float controls a kernel's execution modes ask for (VkPhysicalDeviceFloatControlsProperties;
  // codegen declares them where the device has them, docs/exactness.md).
  kSignedZeroInfNanPreserveFloat16 = 1ull << 14,  // shaderSignedZeroInfNanPreserveFloat16
  kSignedZeroInfNanPreserveFloat32 = 1ull << 15,  // shaderSignedZeroInfNanPreserveFloat32
  kSignedZeroInfNanPreserveFloat64 = 1ull << 16,  // shaderSignedZeroInfNanPreserveFloat64
  kRoundingModeRteFloat16 = 1ull << 17,           // shaderRoundingModeRTEFloat16
  kRoundingModeRteFloat32 = 1ull << 18,           // shaderRoundingModeRTEFloat32
  kRoundingModeRteFloat64 = 1ull << 19,           // shaderRoundingModeRTEFloat64
  kDenormPreserveFloat16 = 1ull << 20,            // shaderDenormPreserveFloat16
  kDenormPreserveFloat32 = 1ull << 21,            // shaderDenormPreserveFloat32
  kDenormPreserveFloat64 = 1ull << 22,            // shaderDenormPreserveFloat64
  kStorageTexelBufferR32f = 1ull << 23,           // R32_SFLOAT storage texel buffers
};
inline constexpr uint64_t kAllFeatures = (1ull << 24) - 1;

// "shaderInt64", ... (the Vulkan name of one feature bit; "feature bit N" for unknown bits).
std::string FeatureName(uint64_t feature);
// "shaderInt64, shaderFloat64" for a set of bits.
std::string FeatureNames(uint64_t features);

struct DeviceRequirements {
  // The capability profile the plan was compiled for ("native", "mobile"; VKHLO_PROFILE): the
  // kernels' tile configs were chosen for it, so a tool may say so, but it is not checked.
  std::string profile = "native";
  // The SPIR-V environment the kernels target: Vulkan 1.<minor> (1: SPIR-V 1.3).
  uint32_t vulkan_api_minor = 1;
  uint64_t features = 0;             // Feature bits every kernel together needs
  uint32_t subgroup_operations = 0;  // VkSubgroupFeatureFlags bits used in compute
  // The largest value of each limit any kernel or binding uses (so a device with at least
  // these runs the plan): not the limits of the device compiled for.
  uint64_t storage_buffer_range = 0;       // maxStorageBufferRange: the largest bound range
  uint32_t shared_memory_bytes = 0;        // maxComputeSharedMemorySize
  std::array<uint32_t, 3> workgroup_size = {0, 0, 0};  // maxComputeWorkGroupSize, per dim
  uint32_t workgroup_invocations = 0;      // maxComputeWorkGroupInvocations
  uint32_t push_constant_bytes = 0;        // maxPushConstantsSize
  uint32_t storage_buffers_per_stage = 0;  // maxPerStageDescriptorStorageBuffers
  // Offsets of bound ranges are multiples of this: a device whose
  // minStorageBufferOffsetAlignment does not divide it cannot bind them.
  uint64_t storage_buffer_offset_alignment = 1;
  // maxTexelBufferElements: the most texels a storage texel buffer view spans.
  uint64_t texel_buffer_elements = 0;
  // Every requiredSubgroupSize a kernel asks for (sorted, unique): each must lie within the
  // device's [minSubgroupSize, maxSubgroupSize].
  std::vector<uint32_t> required_subgroup_sizes;

  bool operator==(const DeviceRequirements&) const = default;
};

// What a device offers, in the same terms (filled by the runtime from the device's masked
// capabilities).
struct DeviceOffer {
  std::string device_name;
  uint32_t vulkan_api_minor = 0;
  uint64_t features = 0;
  uint32_t subgroup_operations = 0;
  uint64_t max_storage_buffer_range = 0;
  uint32_t max_shared_memory_bytes = 0;
  std::array<uint32_t, 3> max_workgroup_size = {0, 0, 0};
  uint32_t max_workgroup_invocations = 0;
  uint32_t max_push_constants_bytes = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  uint64_t min_storage_buffer_offset_alignment = 1;
  uint64_t max_texel_buffer_elements = 0;
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
};

// OK when `offer` meets `required`; else FAILED_PRECONDITION listing everything missing, e.g.
// "the plan needs what Mali-G78 lacks: shaderFloat64; maxComputeSharedMemorySize 32768 (has 16384)".
Status CheckRequirements(const DeviceRequirements& required, const DeviceOffer& offer);

}  // namespace vkhlo::plan
