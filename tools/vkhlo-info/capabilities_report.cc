#include "tools/vkhlo-info/capabilities_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/split_layout.h"

namespace vkhlo::tools {
namespace {

using device::DeviceCapabilities;

std::string Yes(bool b) { return b ? "yes" : "no"; }

// How kernels bind a tensor whose bytes exceed maxStorageBufferRange (issue 25).
std::string BigTensorBinding(const device::DeviceCapabilities& c) {
  return c.features.buffer_device_address
             ? "buffer device address"
             : "several descriptors (windows): no bufferDeviceAddress";
}

std::string Size(uint64_t bytes);

// How a tensor beyond maxMemoryAllocationSize is held (device/split_layout.h). The allocator's
// alignment also counts the driver's buffer alignment, which only a device can tell; the
// storage and texel alignments stand for it here.
std::string SplitTensors(const device::DeviceCapabilities& c) {
  const uint64_t alignment = std::max<uint64_t>({32, c.limits.min_storage_buffer_offset_alignment,
                                                 c.limits.min_texel_buffer_offset_alignment});
  const device::SplitLayout layout = device::ChooseSplitLayout(c, alignment);
  if (layout.limit == 0) return "no limit reported";
  return fmt::format("split across allocations of {} (bound through windows of {})", Size(layout.piece_bytes),
                     Size(layout.window_bytes));
}

std::string Size(uint64_t bytes) {
  if (bytes >= (1ull << 30)) return fmt::format("{:.2f} GiB", bytes / double(1ull << 30));
  if (bytes >= (1ull << 20)) return fmt::format("{:.1f} MiB", bytes / double(1ull << 20));
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

std::string MemoryTypeFlags(const device::MemoryType& t) {
  std::string out;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!out.empty()) out += '|';
    out += name;
  };
  add(t.device_local, "device-local");
  add(t.host_visible, "host-visible");
  add(t.host_coherent, "host-coherent");
  add(t.host_cached, "host-cached");
  add(t.lazily_allocated, "lazy");
  add(t.is_protected, "protected");
  return out.empty() ? "none" : out;
}

// "f16 f32 f64" for the widths that have a property, "no" for none.
std::string FloatWidths(bool w16, bool w32, bool w64) {
  std::string s;
  for (auto [on, name] : {std::pair{w16, "f16"}, {w32, "f32"}, {w64, "f64"}}) {
    if (on) s += s.empty() ? name : std::string(" ") + name;
  }
  return s.empty() ? "no" : s;
}

}  // namespace

std::string CapabilitiesText(const DeviceCapabilities& c) {
  const auto& f = c.features;
  const auto& l = c.limits;
  const auto& sg = c.subgroup;
  std::string s;
  auto line = [&s](std::string_view key, const std::string& value) {
    s += fmt::format("    {:<37} {}\n", key, value);
  };
  s += fmt::format("  {} ({}, vendor {} 0x{:04x}, device 0x{:04x})\n", c.name,
                   device::DeviceTypeName(c.type), device::VendorName(c.vendor), c.vendor_id,
                   c.device_id);
  line("Vulkan API", c.ApiVersionString());
  line("driver", c.driver_name.empty() ? fmt::format("version 0x{:x}", c.driver_version)
                                       : fmt::format("{} ({})", c.driver_name, c.driver_info));
  line("capability profile", c.profile);
  s += "   features\n";
  line("shaderFloat64", Yes(f.shader_float64));
  line("shaderInt64", f.shader_int64 ? Yes(true) : std::string("no (i64/ui64 run emulated as 32-bit pairs)"));
  line("shaderInt16", Yes(f.shader_int16));
  line("shaderFloat16 (arithmetic)", Yes(f.shader_float16));
  line("shaderInt8 (arithmetic)", Yes(f.shader_int8));
  line("storageBuffer8BitAccess", Yes(f.storage_buffer_8bit));
  line("shaderIntegerDotProduct", Yes(f.shader_integer_dot_product));
  line("storageBuffer16BitAccess", Yes(f.storage_buffer_16bit));
  line("shaderBufferInt64Atomics", Yes(f.shader_buffer_int64_atomics));
  line("shaderBufferFloat32AtomicAdd", Yes(f.shader_buffer_float32_atomic_add));
  line("subgroupSizeControl", Yes(f.subgroup_size_control));
  line("computeFullSubgroups", Yes(f.compute_full_subgroups));
  line("cooperativeMatrix (KHR)", Yes(f.cooperative_matrix));
  line("timelineSemaphore", Yes(f.timeline_semaphore));
  line("bufferDeviceAddress", Yes(f.buffer_device_address));
  line("push descriptors", Yes(f.push_descriptor));
  line("pipeline creation feedback", Yes(f.pipeline_creation_feedback));
  line("memory budget", Yes(f.memory_budget));
  s += "   float controls (execution modes kernels declare)\n";
  line("SignedZeroInfNanPreserve", FloatWidths(c.float_controls.signed_zero_inf_nan_preserve_16,
                                               c.float_controls.signed_zero_inf_nan_preserve_32,
                                               c.float_controls.signed_zero_inf_nan_preserve_64));
  line("RoundingModeRTE", FloatWidths(c.float_controls.rounding_mode_rte_16, c.float_controls.rounding_mode_rte_32,
                                      c.float_controls.rounding_mode_rte_64));
  line("DenormPreserve", FloatWidths(c.float_controls.denorm_preserve_16, c.float_controls.denorm_preserve_32,
                                     c.float_controls.denorm_preserve_64));
  s += "   subgroups\n";
  line("size", sg.min_size == sg.max_size ? fmt::format("{}", sg.size)
                                          : fmt::format("{} (range {}..{})", sg.size, sg.min_size, sg.max_size));
  line("operations (compute)", device::SubgroupOperationsToString(sg.supported_operations));
  if (!c.cooperative_matrix_shapes.empty()) {
    s += "   cooperative matrix shapes (MxNxK A*B+C->R)\n";
    for (const auto& m : c.cooperative_matrix_shapes) {
      s += fmt::format("      {}x{}x{} {}*{}+{}->{}{}\n", m.m, m.n, m.k, device::MatrixComponentName(m.a),
                       device::MatrixComponentName(m.b), device::MatrixComponentName(m.c),
                       device::MatrixComponentName(m.result), m.subgroup_scope ? "" : " (non-subgroup scope)");
    }
  }
  s += "   limits\n";
  line("maxComputeWorkGroupSize", fmt::format("{} x {} x {}", l.max_workgroup_size[0],
                                              l.max_workgroup_size[1], l.max_workgroup_size[2]));
  line("maxComputeWorkGroupCount", fmt::format("{} x {} x {}", l.max_workgroup_count[0],
                                               l.max_workgroup_count[1], l.max_workgroup_count[2]));
  line("maxComputeWorkGroupInvocations", fmt::format("{}", l.max_workgroup_invocations));
  line("maxComputeSharedMemorySize", Size(l.max_shared_memory_bytes));
  line("maxStorageBufferRange", Size(l.max_storage_buffer_range));
  line("tensors beyond maxStorageBufferRange", BigTensorBinding(c));
  line("FFTs beyond maxStorageBufferRange",
       "batch split between launches through windows; one transform beyond it split by the compile "
       "(per axis, four-step, primes through Bluestein: split-large-ffts); tensors split across "
       "allocations staged through copies");
  line("maxPushConstantsSize", fmt::format("{} B", l.max_push_constants_bytes));
  line("minStorageBufferOffsetAlignment", fmt::format("{} B", l.min_storage_buffer_offset_alignment));
  line("maxPerStageDescriptorStorageBuffers", fmt::format("{}", l.max_per_stage_storage_buffers));
  line("maxMemoryAllocationSize", Size(l.max_memory_allocation_size));
  line("maxBufferSize", l.max_buffer_size ? Size(l.max_buffer_size) : "unknown");
  line("tensors beyond one allocation", SplitTensors(c));
  line("timestampPeriod", fmt::format("{} ns ({} valid bits)", l.timestamp_period_ns, l.timestamp_valid_bits));
  s += "   memory\n";
  for (size_t i = 0; i < c.memory_heaps.size(); ++i) {
    std::string types;
    for (size_t t = 0; t < c.memory_types.size(); ++t) {
      if (c.memory_types[t].heap_index == i) {
        types += fmt::format("{}type {}: {}", types.empty() ? "" : "; ", t, MemoryTypeFlags(c.memory_types[t]));
      }
    }
    line(fmt::format("heap {}", i), fmt::format("{}{} [{}]", Size(c.memory_heaps[i].size),
                                               c.memory_heaps[i].device_local ? ", device-local" : "", types));
  }
  line("compute queue family", fmt::format("{}", c.compute_queue_family));
  return s;
}

nlohmann::json CapabilitiesJson(const DeviceCapabilities& c) {
  const auto& f = c.features;
  const auto& l = c.limits;
  nlohmann::json j;
  j["name"] = c.name;
  j["type"] = device::DeviceTypeName(c.type);
  j["vendor"] = device::VendorName(c.vendor);
  j["vendor_id"] = c.vendor_id;
  j["device_id"] = c.device_id;
  j["api_version"] = c.ApiVersionString();
  j["driver_name"] = c.driver_name;
  j["driver_info"] = c.driver_info;
  j["profile"] = c.profile;
  j["int64_arithmetic"] = f.shader_int64 ? "native" : "emulated";
  j["big_tensor_binding"] = BigTensorBinding(c);
  j["features"] = {
      {"shaderFloat64", f.shader_float64}, {"shaderInt64", f.shader_int64},
      {"shaderInt16", f.shader_int16}, {"shaderFloat16", f.shader_float16},
      {"shaderInt8", f.shader_int8}, {"storageBuffer8BitAccess", f.storage_buffer_8bit},
      {"storageBuffer16BitAccess", f.storage_buffer_16bit},
      {"shaderBufferInt64Atomics", f.shader_buffer_int64_atomics},
      {"shaderBufferFloat32AtomicAdd", f.shader_buffer_float32_atomic_add},
      {"subgroupSizeControl", f.subgroup_size_control},
      {"computeFullSubgroups", f.compute_full_subgroups},
      {"cooperativeMatrix", f.cooperative_matrix}, {"timelineSemaphore", f.timeline_semaphore},
      {"bufferDeviceAddress", f.buffer_device_address}, {"pushDescriptor", f.push_descriptor},
      {"pipelineCreationFeedback", f.pipeline_creation_feedback}, {"memoryBudget", f.memory_budget}};
  const auto& fc = c.float_controls;
  j["float_controls"] = {
      {"shaderSignedZeroInfNanPreserve", {{"16", fc.signed_zero_inf_nan_preserve_16},
                                          {"32", fc.signed_zero_inf_nan_preserve_32},
                                          {"64", fc.signed_zero_inf_nan_preserve_64}}},
      {"shaderRoundingModeRTE", {{"16", fc.rounding_mode_rte_16}, {"32", fc.rounding_mode_rte_32},
                                 {"64", fc.rounding_mode_rte_64}}},
      {"shaderDenormPreserve", {{"16", fc.denorm_preserve_16}, {"32", fc.denorm_preserve_32},
                                {"64", fc.denorm_preserve_64}}}};
  j["subgroup"] = {{"size", c.subgroup.size}, {"min_size", c.subgroup.min_size},
                   {"max_size", c.subgroup.max_size},
                   {"operations", device::SubgroupOperationsToString(c.subgroup.supported_operations)}};
  j["limits"] = {{"maxComputeWorkGroupSize", l.max_workgroup_size},
                 {"maxComputeWorkGroupCount", l.max_workgroup_count},
                 {"maxComputeWorkGroupInvocations", l.max_workgroup_invocations},
                 {"maxComputeSharedMemorySize", l.max_shared_memory_bytes},
                 {"maxStorageBufferRange", l.max_storage_buffer_range},
                 {"maxPushConstantsSize", l.max_push_constants_bytes},
                 {"minStorageBufferOffsetAlignment", l.min_storage_buffer_offset_alignment},
                 {"maxPerStageDescriptorStorageBuffers", l.max_per_stage_storage_buffers},
                 {"maxMemoryAllocationSize", l.max_memory_allocation_size},
                 {"maxBufferSize", l.max_buffer_size},
                 {"timestampPeriod", l.timestamp_period_ns},
                 {"timestampValidBits", l.timestamp_valid_bits}};
  nlohmann::json shapes = nlohmann::json::array();
  for (const auto& m : c.cooperative_matrix_shapes) {
    shapes.push_back({{"m", m.m}, {"n", m.n}, {"k", m.k}, {"a", device::MatrixComponentName(m.a)},
                      {"b", device::MatrixComponentName(m.b)}, {"c", device::MatrixComponentName(m.c)},
                      {"result", device::MatrixComponentName(m.result)}});
  }
  j["cooperative_matrix_shapes"] = shapes;
  nlohmann::json heaps = nlohmann::json::array();
  for (const auto& h : c.memory_heaps) heaps.push_back({{"size", h.size}, {"device_local", h.device_local}});
  j["memory_heaps"] = heaps;
  nlohmann::json types = nlohmann::json::array();
  for (const auto& t : c.memory_types) {
    types.push_back({{"heap", t.heap_index}, {"flags", MemoryTypeFlags(t)}});
  }
  j["memory_types"] = types;
  j["compute_queue_family"] = c.compute_queue_family;
  return j;
}

}  // namespace vkhlo::tools
