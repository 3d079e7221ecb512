// What a compute shader's SPIR-V declares about its resources, read from the module itself so
// that pipeline creation can check it against the device's limits without trusting the caller:
// workgroup size (after specialization), shared memory, push-constant bytes, bindings, and the
// capabilities it declares.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::device {

struct SpecializationValue {
  uint32_t id = 0;
  uint32_t bits = 0;  // the 32-bit value (bool, int, uint or float bit pattern)
};

// What a binding's descriptor is. Storage texel buffers (`uniform imageBuffer` with a format
// qualifier) exist because some drivers (llvmpipe) turn imageLoad into vector loads where a
// storage-buffer load in a loop runs lane by lane; the runtime binds them from the same
// (VkBuffer, offset, size) as a storage buffer and the device layer makes the VkBufferView.
enum class BindingKind : uint8_t { kStorageBuffer, kUniformBuffer, kStorageTexelBuffer };
std::string_view BindingKindName(BindingKind kind);

struct ShaderBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  BindingKind kind = BindingKind::kStorageBuffer;
  // Storage texel buffers only: the view's format and the bytes of one texel.
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t texel_bytes = 0;
  // Storage buffers only, set from ComputePipelineDesc::address_bindings (not reflected): the
  // shader reads the device address of the caller's view from this binding (a uvec2), and the
  // command list binds an AddressTable slot holding it (views beyond maxStorageBufferRange).
  bool device_address = false;
};

struct ShaderInterface {
  std::string entry_point;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  uint64_t shared_memory_bytes = 0;  // all Workgroup-storage variables
  uint32_t push_constant_bytes = 0;  // end of the last push-constant member
  std::vector<ShaderBinding> bindings;  // sorted by (set, binding)
  std::vector<uint32_t> specialization_ids;
  // OpCapability operands, ascending: pipeline creation checks the ones that need an optional
  // device feature (Float64, Int64, Int16, Int8, Float16, Int64Atomics) against the masked
  // features, so that a kernel a device cannot run is an error naming the feature, not a
  // driver crash on a phone.
  std::vector<uint32_t> capabilities;
};

// Parses a compute module; `specialization` overrides spec constants' defaults (as the pipeline
// will). Errors on malformed modules or constructs it cannot size.
StatusOr<ShaderInterface> ReflectComputeShader(std::span<const uint32_t> spirv,
                                               std::span<const SpecializationValue> specialization);

}  // namespace vkhlo::device
