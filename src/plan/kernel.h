// A plan's kernels: compiled SPIR-V and everything the runtime needs to make a compute
// pipeline of it without glslang or the compiler (device/pipeline.h ComputePipelineDesc), plus
// what a profile says about it (include/vkhlo/profile.h).
//
// Binding model (as today's codegen, codegen/device_kernel.h): descriptor set 0, bindings
// 0..N-1 in order; push constants one block from offset 0, whose first 16 bytes are the uvec4
// workgroup base the device layer fills when it splits a grid beyond maxComputeWorkGroupCount
// (shaders/include/vkhlo_dispatch.glsl), followed by each dispatch's own words.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vkhlo::plan {

// What a binding's descriptor is; values are part of the file format.
enum class BindingKind : uint8_t {
  kStorageBuffer = 0,
  kStorageTexelBuffer = 1,  // bound from the same range; the runtime makes the VkBufferView
  kUniformBuffer = 2,
};
// The format of a storage texel buffer's view (what kernels use today).
enum class TexelFormat : uint8_t { kNone = 0, kRgba32f = 1, kRgba32ui = 2, kR32f = 3 };

struct KernelBinding {
  uint32_t set = 0;  // always 0 today; kept so a later layout need not change the format
  BindingKind kind = BindingKind::kStorageBuffer;
  TexelFormat texel_format = TexelFormat::kNone;  // storage texel buffers only
  // The shader reads the device address of the bound range from this binding (a uvec2 in an
  // address-table slot) because the range may exceed maxStorageBufferRange
  // (codegen/big_bindings.h).
  bool device_address = false;
  bool operator==(const KernelBinding&) const = default;
};

// A binding the shader reaches through several descriptors of one bound range, each a window
// of `window_bytes` (a device without bufferDeviceAddress binding a range beyond
// maxStorageBufferRange): window k at window_bindings[k] (device/pipeline.h WindowedBinding).
struct WindowedBinding {
  uint32_t binding = 0;
  uint64_t window_bytes = 0;
  std::vector<uint32_t> window_bindings;
  bool operator==(const WindowedBinding&) const = default;
};

struct SpecializationConstant {
  uint32_t id = 0;
  uint32_t bits = 0;  // the 32-bit pattern (bool, int, uint or float)
  bool operator==(const SpecializationConstant&) const = default;
};

// What profiles show for the dispatches of one fused kernel (runtime/profiler.h): shared by
// the dispatches of a kernel, which add their own config and flops (Dispatch).
struct KernelProfile {
  std::string kernel;        // "fusion_7"
  std::string kernel_class;  // "loop fusion", "reduction", "matmul", "fft", ...
  std::string source_op;     // the op time is charged to, "stablehlo.dot_general at model.mlir:12:10"
  std::vector<std::string> fused_ops;  // "stablehlo.add at model.mlir:3:8", in program order
  std::string detail;        // the emitter's summary: the normalized problem and its config
  bool operator==(const KernelProfile&) const = default;
};

// One compute pipeline. Several dispatches (of several steps) may use one kernel.
struct Kernel {
  std::string name;  // "fusion_3.reduce_rows": pipeline name in messages and timings
  std::vector<uint32_t> spirv;
  std::string entry_point = "main";
  std::vector<KernelBinding> bindings;  // binding i (set 0)
  // Bytes of the push-constant block (the 16-byte workgroup base included).
  uint32_t push_constant_bytes = 16;
  // The push-constant offset of the uvec3 workgroup base, or kNoWorkgroupBase when the kernel
  // cannot be split over several launches (its grid must then fit maxComputeWorkGroupCount).
  static constexpr uint32_t kNoWorkgroupBase = UINT32_MAX;
  uint32_t workgroup_base_offset = 0;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};  // as the SPIR-V declares (for the check)
  uint64_t shared_memory_bytes = 0;
  uint32_t required_subgroup_size = 0;  // 0: the driver's choice
  std::vector<SpecializationConstant> specialization;
  std::vector<uint32_t> address_bindings;  // see KernelBinding::device_address
  std::vector<WindowedBinding> windowed_bindings;
  bool operator==(const Kernel&) const = default;
};

}  // namespace vkhlo::plan
