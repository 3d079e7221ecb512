// What a Vulkan device can do, as plain data: the features, limits and properties that matter
// for compute, read once when a device is enumerated.
//
// The rest of vkhlo reads these only through Device::capabilities(), which is the view after the
// capability profile (profile.h) has masked it, so that weak-device paths can be exercised on a
// strong device. Field names follow the Vulkan names they come from.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vkhlo::device {

enum class DeviceType { kOther, kIntegratedGpu, kDiscreteGpu, kVirtualGpu, kCpu };
std::string_view DeviceTypeName(DeviceType type);

enum class Vendor { kUnknown, kAmd, kNvidia, kIntel, kArm, kQualcomm, kImgTec, kApple, kMesa };
std::string_view VendorName(Vendor vendor);
Vendor VendorFromId(uint32_t vendor_id, std::string_view driver_name);

// Bits of VkSubgroupFeatureFlagBits (identical values), spelled out so readers need no Vulkan.
enum SubgroupOperation : uint32_t {
  kSubgroupBasic = 0x1,
  kSubgroupVote = 0x2,
  kSubgroupArithmetic = 0x4,
  kSubgroupBallot = 0x8,
  kSubgroupShuffle = 0x10,
  kSubgroupShuffleRelative = 0x20,
  kSubgroupClustered = 0x40,
  kSubgroupQuad = 0x80,
};
std::string SubgroupOperationsToString(uint32_t operations);

// Element types a cooperative-matrix shape works on (VkComponentTypeKHR values).
enum class MatrixComponent : uint32_t {
  kF16 = 0, kF32 = 1, kF64 = 2, kS8 = 3, kS16 = 4, kS32 = 5, kS64 = 6,
  kU8 = 7, kU16 = 8, kU32 = 9, kU64 = 10, kBF16 = 1000141000,
};
std::string_view MatrixComponentName(MatrixComponent component);

struct CooperativeMatrixShape {
  uint32_t m = 0, n = 0, k = 0;
  MatrixComponent a = MatrixComponent::kF16, b = MatrixComponent::kF16;
  MatrixComponent c = MatrixComponent::kF32, result = MatrixComponent::kF32;
  bool saturating_accumulation = false;
  bool subgroup_scope = true;  // false: another scope (workgroup, device)
};

struct DeviceFeatures {
  // Arithmetic types in shaders.
  bool shader_float64 = false;
  bool shader_int64 = false;
  bool shader_int16 = false;
  bool shader_float16 = false;  // f16 arithmetic (shaderFloat16)
  bool shader_int8 = false;     // i8 arithmetic (shaderInt8)
  // Narrow types in storage buffers.
  bool storage_buffer_8bit = false;   // storageBuffer8BitAccess
  bool storage_buffer_16bit = false;  // storageBuffer16BitAccess
  // Packed 4 x 8-bit integer dot products (VK_KHR_shader_integer_dot_product / Vulkan 1.3).
  bool shader_integer_dot_product = false;
  // Atomics.
  bool shader_buffer_int64_atomics = false;
  bool shader_buffer_float32_atomic_add = false;  // VK_EXT_shader_atomic_float
  // Subgroups.
  bool subgroup_size_control = false;
  bool compute_full_subgroups = false;
  // Matrix units.
  bool cooperative_matrix = false;  // VK_KHR_cooperative_matrix
  // Execution and memory.
  bool timeline_semaphore = false;
  bool buffer_device_address = false;
  bool push_descriptor = false;              // VK_KHR_push_descriptor
  bool pipeline_creation_feedback = false;   // VK_EXT_pipeline_creation_feedback / 1.3
  bool memory_budget = false;                // VK_EXT_memory_budget
  bool host_query_reset = false;
};

struct SubgroupProperties {
  uint32_t size = 1;       // the default subgroup size in compute shaders
  uint32_t min_size = 1;   // with subgroup size control; equal to size otherwise
  uint32_t max_size = 1;
  uint32_t supported_operations = 0;  // SubgroupOperation bits, valid in compute
  bool supported_in_compute = false;
  bool required_size_in_compute = false;  // requiredSubgroupSizeStages includes compute
};

struct DeviceLimits {
  std::array<uint32_t, 3> max_workgroup_size = {1, 1, 1};   // maxComputeWorkGroupSize
  std::array<uint32_t, 3> max_workgroup_count = {1, 1, 1};  // maxComputeWorkGroupCount
  uint32_t max_workgroup_invocations = 1;     // maxComputeWorkGroupInvocations
  uint32_t max_shared_memory_bytes = 0;       // maxComputeSharedMemorySize
  uint64_t max_storage_buffer_range = 0;      // maxStorageBufferRange
  uint32_t max_push_constants_bytes = 0;      // maxPushConstantsSize
  uint64_t min_storage_buffer_offset_alignment = 1;
  uint32_t max_per_stage_storage_buffers = 0;  // maxPerStageDescriptorStorageBuffers
  // Storage texel buffers count as storage images in the per-stage descriptor limits.
  uint32_t max_per_stage_storage_images = 0;   // maxPerStageDescriptorStorageImages
  uint64_t max_texel_buffer_elements = 0;      // maxTexelBufferElements
  uint64_t min_texel_buffer_offset_alignment = 1;  // minTexelBufferOffsetAlignment
  uint32_t max_bound_descriptor_sets = 0;
  uint64_t max_memory_allocation_size = 0;    // maxMemoryAllocationSize (maintenance3)
  uint64_t max_buffer_size = 0;               // maxBufferSize (maintenance4), else 0 = unknown
  uint64_t non_coherent_atom_size = 1;
  float timestamp_period_ns = 0;              // timestampPeriod
  uint32_t timestamp_valid_bits = 0;          // of the compute queue family; 0 = no timestamps
  bool timestamp_compute_and_graphics = false;
};

// VkPhysicalDeviceFloatControlsProperties (VK_KHR_shader_float_controls; core in Vulkan 1.2):
// which execution modes shaders may declare, per float width. All false when unavailable.
struct FloatControlsProperties {
  bool signed_zero_inf_nan_preserve_16 = false;  // shaderSignedZeroInfNanPreserveFloat16
  bool signed_zero_inf_nan_preserve_32 = false;
  bool signed_zero_inf_nan_preserve_64 = false;
  bool rounding_mode_rte_16 = false;  // shaderRoundingModeRTEFloat16
  bool rounding_mode_rte_32 = false;
  bool rounding_mode_rte_64 = false;
  bool denorm_preserve_16 = false;  // shaderDenormPreserveFloat16
  bool denorm_preserve_32 = false;
  bool denorm_preserve_64 = false;
  // denormBehaviorIndependence: which widths' denormal modes may differ (VkShaderFloatControlsIndependence:
  // 0 only 32-bit apart from the others, 1 all, 2 none).
  uint32_t denorm_independence = 2;
  bool any() const {
    return signed_zero_inf_nan_preserve_16 || signed_zero_inf_nan_preserve_32 || signed_zero_inf_nan_preserve_64 ||
           rounding_mode_rte_16 || rounding_mode_rte_32 || rounding_mode_rte_64;
  }
};

struct MemoryHeap {
  uint64_t size = 0;
  bool device_local = false;
};

struct MemoryType {
  uint32_t heap_index = 0;
  bool device_local = false;
  bool host_visible = false;
  bool host_coherent = false;
  bool host_cached = false;
  bool lazily_allocated = false;
  bool is_protected = false;
};

struct DeviceCapabilities {
  // Identity.
  std::string name;
  DeviceType type = DeviceType::kOther;
  Vendor vendor = Vendor::kUnknown;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t api_version = 0;     // VK_MAKE_API_VERSION
  uint32_t driver_version = 0;  // vendor-specific encoding
  std::string driver_name;      // VkPhysicalDeviceDriverProperties (1.2), may be empty
  std::string driver_info;
  std::array<uint8_t, 16> pipeline_cache_uuid{};
  std::string profile = "native";  // which capability profile masked this view

  DeviceFeatures features;
  SubgroupProperties subgroup;
  DeviceLimits limits;
  FloatControlsProperties float_controls;
  std::vector<MemoryHeap> memory_heaps;
  std::vector<MemoryType> memory_types;
  std::vector<CooperativeMatrixShape> cooperative_matrix_shapes;
  std::vector<std::string> extensions;  // device extensions the driver offers
  // The VkFormat values (of those vkhlo binds: R32G32B32A32_SFLOAT, R32_SFLOAT,
  // R32G32B32A32_UINT, R32_UINT) whose buffer features include STORAGE_TEXEL_BUFFER.
  std::vector<uint32_t> storage_texel_buffer_formats;

  // The queue family vkhlo submits compute work to (one with compute; a compute-only family is
  // preferred, since it may run alongside graphics). -1 when the device has no compute queue.
  int compute_queue_family = -1;

  bool HasExtension(std::string_view name) const;
  bool HasStorageTexelBufferFormat(uint32_t vk_format) const;
  std::string ApiVersionString() const;
  // Total size of the device-local heaps.
  uint64_t DeviceLocalBytes() const;
};

}  // namespace vkhlo::device
