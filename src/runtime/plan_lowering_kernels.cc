#include "runtime/plan_lowering_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <span>
#include <variant>

#include <spirv/unified1/spirv.h>

#include "device/spirv_reflect.h"

namespace vkhlo::runtime {
namespace {

StatusOr<plan::KernelBinding> BindingOf(const device::Pipeline& pipeline, const device::ShaderBinding& b) {
  plan::KernelBinding out;
  out.set = b.set;
  out.device_address = b.device_address;
  switch (b.kind) {
    case device::BindingKind::kStorageBuffer:
      out.kind = plan::BindingKind::kStorageBuffer;
      return out;
    case device::BindingKind::kUniformBuffer:
      out.kind = plan::BindingKind::kUniformBuffer;
      return out;
    case device::BindingKind::kStorageTexelBuffer:
      out.kind = plan::BindingKind::kStorageTexelBuffer;
      if (b.format == VK_FORMAT_R32G32B32A32_SFLOAT) {
        out.texel_format = plan::TexelFormat::kRgba32f;
      } else if (b.format == VK_FORMAT_R32G32B32A32_UINT) {
        out.texel_format = plan::TexelFormat::kRgba32ui;
      } else if (b.format == VK_FORMAT_R32_SFLOAT) {
        out.texel_format = plan::TexelFormat::kR32f;
      } else {
        return UnimplementedError(fmt::format("kernel '{}': binding {} is a texel buffer of VkFormat {}, which plans "
                                              "do not describe (only rgba32f, rgba32ui and r32f)",
                                              pipeline.name(), b.binding, static_cast<int>(b.format)));
      }
      return out;
  }
  return InternalError(fmt::format("kernel '{}': binding {} of an unknown kind", pipeline.name(), b.binding));
}

// SPIR-V capabilities (SPIR-V 1.6 enumerants) that need an optional device feature.
struct CapabilityFeature {
  uint32_t capability;
  uint64_t feature;
};
constexpr CapabilityFeature kCapabilityFeatures[] = {
    {9, plan::kShaderFloat16},                 // Float16
    {10, plan::kShaderFloat64},                // Float64
    {11, plan::kShaderInt64},                  // Int64
    {12, plan::kShaderBufferInt64Atomics},     // Int64Atomics
    {22, plan::kShaderInt16},                  // Int16
    {39, plan::kShaderInt8},                   // Int8
    {4433, plan::kStorageBuffer16BitAccess},   // StorageBuffer16BitAccess
    {4448, plan::kStorageBuffer8BitAccess},    // StorageBuffer8BitAccess
    {5347, plan::kBufferDeviceAddress},        // PhysicalStorageBufferAddresses
    {6016, plan::kShaderIntegerDotProduct},    // DotProductInputAll
    {6017, plan::kShaderIntegerDotProduct},    // DotProductInput4x8Bit
    {6018, plan::kShaderIntegerDotProduct},    // DotProductInput4x8BitPacked
    {6019, plan::kShaderIntegerDotProduct},    // DotProduct
    {6022, plan::kCooperativeMatrix},          // CooperativeMatrixKHR
};
// GroupNonUniform* capabilities and the VkSubgroupFeatureFlagBits they need.
struct CapabilitySubgroup {
  uint32_t capability;
  uint32_t operations;
};
constexpr CapabilitySubgroup kCapabilitySubgroups[] = {
    {61, VK_SUBGROUP_FEATURE_BASIC_BIT},             // GroupNonUniform
    {62, VK_SUBGROUP_FEATURE_VOTE_BIT},              // GroupNonUniformVote
    {63, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},        // GroupNonUniformArithmetic
    {64, VK_SUBGROUP_FEATURE_BALLOT_BIT},            // GroupNonUniformBallot
    {65, VK_SUBGROUP_FEATURE_SHUFFLE_BIT},           // GroupNonUniformShuffle
    {66, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},  // GroupNonUniformShuffleRelative
    {67, VK_SUBGROUP_FEATURE_CLUSTERED_BIT},         // GroupNonUniformClustered
    {68, VK_SUBGROUP_FEATURE_QUAD_BIT},              // GroupNonUniformQuad
};

// The float controls `spirv`'s execution modes ask for (OpExecutionMode <entry> <mode> <width>),
// as feature bits: a device must offer each for its width (VkPhysicalDeviceFloatControlsProperties).
uint64_t FloatControlFeatures(std::span<const uint32_t> spirv) {
  uint64_t features = 0;
  for (size_t i = 5; i < spirv.size();) {
    const uint32_t words = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
    if (words == 0 || i + words > spirv.size()) break;  // malformed: reflection reports it
    if (opcode == SpvOpExecutionMode && words >= 4) {
      const uint32_t mode = spirv[i + 2], width = spirv[i + 3];
      const int w = width == 16 ? 0 : width == 32 ? 1 : width == 64 ? 2 : -1;
      if (w >= 0) {
        if (mode == SpvExecutionModeSignedZeroInfNanPreserve) features |= plan::kSignedZeroInfNanPreserveFloat16 << w;
        if (mode == SpvExecutionModeRoundingModeRTE) features |= plan::kRoundingModeRteFloat16 << w;
        if (mode == SpvExecutionModeDenormPreserve) features |= plan::kDenormPreserveFloat16 << w;
      }
    }
    if (opcode == SpvOpFunction) break;  // execution modes come before any function
    i += words;
  }
  return features;
}

// The bytes of what `ref` names in list `list` (plan/buffers.h BufferRef).
uint64_t Extent(const plan::Plan& plan, const plan::StepList& list, const plan::BufferRef& ref) {
  switch (ref.kind) {
    case plan::BufferRef::Kind::kValue:
      return ref.index < plan.values.size() ? plan.values[ref.index].bytes : 0;
    case plan::BufferRef::Kind::kSlot:
      return ref.index < list.slots.size() ? list.slots[ref.index].bytes : 0;
    case plan::BufferRef::Kind::kConstant:
      return ref.index < plan.constants.size() ? plan.constants[ref.index].bytes.size() : 0;
  }
  return 0;
}

// The largest range a dispatch binds as one descriptor, and the offsets it binds at.
void AddRanges(const plan::Plan& plan, const plan::StepList& list, const plan::Dispatch& d,
               plan::DeviceRequirements& r, uint64_t& offsets_gcd) {
  const plan::Kernel& kernel = plan.kernels[d.kernel];
  for (size_t i = 0; i < d.bindings.size() && i < kernel.bindings.size(); ++i) {
    if (kernel.bindings[i].device_address) continue;  // an address in a table slot, not a range
    const plan::BufferRef& ref = d.bindings[i];
    const uint64_t extent = Extent(plan, list, ref);
    uint64_t bytes = ref.bytes != 0 ? ref.bytes : (extent > ref.offset ? extent - ref.offset : 0);
    // A texel buffer's view is limited by maxTexelBufferElements, not by the storage range
    // (device/command_list.cc): texels of 16 bytes (rgba32) or 4 (r32f).
    if (kernel.bindings[i].kind == plan::BindingKind::kStorageTexelBuffer) {
      const uint64_t texel = kernel.bindings[i].texel_format == plan::TexelFormat::kR32f ? 4 : 16;
      r.texel_buffer_elements = std::max(r.texel_buffer_elements, (bytes + texel - 1) / texel);
      continue;
    }
    offsets_gcd = std::gcd(offsets_gcd, ref.offset);
    for (const plan::WindowedBinding& w : kernel.windowed_bindings) {
      if (w.binding != i) continue;
      bytes = std::min(bytes, w.window_bytes);  // each window its own descriptor
      offsets_gcd = std::gcd(offsets_gcd, w.window_bytes);
    }
    r.storage_buffer_range = std::max(r.storage_buffer_range, bytes);
  }
}

}  // namespace

StatusOr<uint32_t> PlanKernels::Add(const device::Pipeline& pipeline, const codegen::SpirvWords& spirv,
                                    const std::string& entry_point, uint32_t required_subgroup_size) {
  auto known = index_.find(&pipeline);
  if (known != index_.end()) return known->second;
  plan::Kernel kernel;
  kernel.name = pipeline.name();
  kernel.spirv = spirv;
  kernel.entry_point = entry_point;
  const std::span<const device::ShaderBinding> bindings = pipeline.bindings();
  if (pipeline.binding_count() > bindings.size()) {
    return InternalError(fmt::format("kernel '{}' passes {} bindings but declares {}", pipeline.name(),
                                     pipeline.binding_count(), bindings.size()));
  }
  for (uint32_t i = 0; i < pipeline.binding_count(); ++i) {
    VKHLO_ASSIGN_OR_RETURN(plan::KernelBinding binding, BindingOf(pipeline, bindings[i]));
    if (binding.device_address) kernel.address_bindings.push_back(i);
    kernel.bindings.push_back(binding);
  }
  kernel.push_constant_bytes = pipeline.push_constant_bytes();
  kernel.workgroup_base_offset = pipeline.workgroup_base_offset().value_or(plan::Kernel::kNoWorkgroupBase);
  kernel.workgroup_size = pipeline.workgroup_size();
  kernel.shared_memory_bytes = pipeline.shared_memory_bytes();
  kernel.required_subgroup_size = required_subgroup_size;
  for (const device::WindowedBinding& w : pipeline.windowed()) {
    kernel.windowed_bindings.push_back({w.binding, w.window_bytes, w.window_bindings});
  }
  const auto index = static_cast<uint32_t>(plan_.kernels.size());
  plan_.kernels.push_back(std::move(kernel));
  index_.emplace(&pipeline, index);
  return index;
}

StatusOr<plan::DeviceRequirements> PlanRequirements(const plan::Plan& plan, const codegen::TargetInfo& target) {
  plan::DeviceRequirements r;
  r.profile = target.profile;
  r.vulkan_api_minor = target.vulkan_api_minor;
  std::set<uint32_t> subgroup_sizes;
  for (const plan::Kernel& kernel : plan.kernels) {
    std::vector<device::SpecializationValue> specialization;
    for (const plan::SpecializationConstant& c : kernel.specialization) specialization.push_back({c.id, c.bits});
    auto shader = device::ReflectComputeShader(kernel.spirv, specialization);
    if (!shader.ok()) return shader.status().WithContext(fmt::format("kernel '{}'", kernel.name));
    for (uint32_t capability : shader->capabilities) {
      for (const CapabilityFeature& f : kCapabilityFeatures) r.features |= f.capability == capability ? f.feature : 0;
      for (const CapabilitySubgroup& s : kCapabilitySubgroups) {
        r.subgroup_operations |= s.capability == capability ? s.operations : 0;
      }
    }
    r.features |= FloatControlFeatures(kernel.spirv);
    // Storage-buffer descriptors (texel buffers count against another limit), windows included.
    uint32_t descriptors = 0;
    for (const plan::KernelBinding& b : kernel.bindings) {
      if (b.texel_format == plan::TexelFormat::kRgba32f) r.features |= plan::kStorageTexelBufferRgba32f;
      if (b.texel_format == plan::TexelFormat::kRgba32ui) r.features |= plan::kStorageTexelBufferRgba32ui;
      if (b.texel_format == plan::TexelFormat::kR32f) r.features |= plan::kStorageTexelBufferR32f;
      if (b.device_address) r.features |= plan::kBufferDeviceAddress;
      descriptors += b.kind == plan::BindingKind::kStorageBuffer ? 1 : 0;
    }
    for (const plan::WindowedBinding& w : kernel.windowed_bindings) {
      descriptors += w.window_bindings.empty() ? 0 : static_cast<uint32_t>(w.window_bindings.size() - 1);
    }
    r.storage_buffers_per_stage = std::max(r.storage_buffers_per_stage, descriptors);
    if (kernel.required_subgroup_size != 0) {
      r.features |= plan::kSubgroupSizeControl;
      subgroup_sizes.insert(kernel.required_subgroup_size);
    }
    for (size_t d = 0; d < 3; ++d) r.workgroup_size[d] = std::max(r.workgroup_size[d], kernel.workgroup_size[d]);
    r.workgroup_invocations = std::max(
        r.workgroup_invocations, kernel.workgroup_size[0] * kernel.workgroup_size[1] * kernel.workgroup_size[2]);
    r.shared_memory_bytes = std::max(r.shared_memory_bytes, static_cast<uint32_t>(kernel.shared_memory_bytes));
    r.push_constant_bytes = std::max(r.push_constant_bytes, kernel.push_constant_bytes);
  }
  r.required_subgroup_sizes.assign(subgroup_sizes.begin(), subgroup_sizes.end());
  // Every range bound starts at a multiple of the gcd of the offsets used (0: all at offset 0,
  // which any minStorageBufferOffsetAlignment divides).
  uint64_t offsets_gcd = 0;
  for (const plan::StepList& list : plan.lists) {
    for (const plan::Segment& segment : list.segments) {
      for (const plan::Step& step : segment.steps) {
        if (const auto* s = std::get_if<plan::DispatchStep>(&step.op)) {
          for (const plan::Dispatch& d : s->dispatches) AddRanges(plan, list, d, r, offsets_gcd);
        } else if (const auto* c = std::get_if<plan::CustomCallStep>(&step.op); c != nullptr && !c->host_callback) {
          AddRanges(plan, list, c->dispatch, r, offsets_gcd);
        }
      }
    }
  }
  r.storage_buffer_offset_alignment = offsets_gcd;
  return r;
}


}  // namespace vkhlo::runtime
