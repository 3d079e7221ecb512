#include "device/profile.h"

#include <algorithm>

#include "support/env.h"

namespace vkhlo::device {

std::string_view ProfileName(Profile profile) {
  switch (profile) {
    case Profile::kNative: return "native";
    case Profile::kMobile: return "mobile";
  }
  return "native";
}

StatusOr<Profile> ParseProfile(std::string_view name) {
  if (name.empty() || name == "native") return Profile::kNative;
  if (name == "mobile") return Profile::kMobile;
  return InvalidArgumentError("unknown capability profile '" + std::string(name) +
                              "' (VKHLO_PROFILE accepts: native, mobile)");
}

StatusOr<Profile> ProfileFromEnvironment() {
  // Checked here, where every device and vkhlo-info start, so a malformed value is an error
  // before ApplyProfile reads it.
  VKHLO_RETURN_IF_ERROR(GetEnvSize("VKHLO_MAX_ALLOCATION_BYTES").status());
  std::optional<std::string> value = GetEnv("VKHLO_PROFILE");
  return ParseProfile(value.value_or("native"));
}

namespace {

template <typename T>
void CapAt(T& value, T cap) {
  value = std::min(value, cap);
}

void ApplyMobile(DeviceCapabilities& caps) {
  DeviceFeatures& f = caps.features;
  f.shader_float64 = false;
  f.shader_int64 = false;
  f.shader_buffer_int64_atomics = false;
  f.shader_float16 = false;
  f.shader_int8 = false;
  f.storage_buffer_8bit = false;
  f.shader_integer_dot_product = false;  // 8-bit values come packed in words there; no dot4
  f.storage_buffer_16bit = false;
  f.shader_buffer_float32_atomic_add = false;
  f.cooperative_matrix = false;
  f.subgroup_size_control = false;
  f.compute_full_subgroups = false;
  // Many Vulkan 1.1 phone drivers have neither; without timeline semaphores submissions are
  // tracked with fences, and that path must be tested too.
  f.timeline_semaphore = false;
  f.buffer_device_address = false;
  caps.cooperative_matrix_shapes.clear();
  // Many phone drivers offer no float controls: kernels must be exact without them (they work
  // on the bits where it matters), and the mobile runs check that they are.
  caps.float_controls = {};

  DeviceLimits& l = caps.limits;
  CapAt(l.max_shared_memory_bytes, 16u * 1024);
  CapAt(l.max_workgroup_invocations, 128u);
  CapAt(l.max_workgroup_size[0], 128u);
  CapAt(l.max_workgroup_size[1], 128u);
  CapAt(l.max_workgroup_size[2], 64u);
  CapAt(l.max_storage_buffer_range, uint64_t{128} << 20);
  CapAt(l.max_push_constants_bytes, 128u);
  // Alignment is a minimum the device requires: a weaker device requires more.
  l.min_storage_buffer_offset_alignment = std::max<uint64_t>(l.min_storage_buffer_offset_alignment, 256);
  // Texel buffers as the Vulkan spec guarantees them (many phones report exactly these), so
  // kernels reading through texel views must handle operands too large for one view.
  CapAt(l.max_texel_buffer_elements, uint64_t{65536});
  l.min_texel_buffer_offset_alignment = std::max<uint64_t>(l.min_texel_buffer_offset_alignment, 256);

  SubgroupProperties& sg = caps.subgroup;
  // The subgroup size is a fact of the hardware, not a capability: keep it, but without size
  // control the default size is the only one a kernel can count on.
  sg.min_size = sg.max_size = sg.size;
  sg.required_size_in_compute = false;
  sg.supported_operations &= kSubgroupBasic | kSubgroupVote | kSubgroupBallot | kSubgroupArithmetic;
}

}  // namespace

DeviceCapabilities ApplyProfile(const DeviceCapabilities& caps, Profile profile) {
  DeviceCapabilities masked = caps;
  masked.profile = std::string(ProfileName(profile));
  if (profile == Profile::kMobile) ApplyMobile(masked);
  // VKHLO_MAX_ALLOCATION_BYTES lowers maxMemoryAllocationSize, as a phone's (1-2 GiB) or a
  // desktop driver's (2-4 GiB), so that tensors split across allocations can be tested on a
  // device whose one allocation may take its whole heap (lavapipe).
  auto cap = GetEnvSize("VKHLO_MAX_ALLOCATION_BYTES");
  if (cap.ok() && cap->has_value() && **cap > 0) {
    uint64_t& limit = masked.limits.max_memory_allocation_size;
    limit = limit == 0 ? **cap : std::min(limit, **cap);
  }
  return masked;
}

}  // namespace vkhlo::device
