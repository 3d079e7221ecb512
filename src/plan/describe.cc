#include "plan/describe.h"

#include <cstdio>

namespace vkhlo::plan {
namespace {

std::string Join(const std::vector<EntryType>& types) {
  std::string text;
  for (size_t i = 0; i < types.size(); ++i) text += (i == 0 ? "" : ", ") + FormatEntryType(types[i]);
  return text;
}

std::string Hex(const std::array<uint8_t, 32>& digest) {
  std::string text;
  char byte[3];
  for (uint8_t b : digest) {
    std::snprintf(byte, sizeof(byte), "%02x", b);
    text += byte;
  }
  return text;
}

}  // namespace

std::string FormatEntryType(const EntryType& type) {
  switch (type.kind) {
    case EntryType::Kind::kToken:
      return "!stablehlo.token";
    case EntryType::Kind::kTuple:
      return "tuple<" + Join(type.elements) + ">";
    case EntryType::Kind::kTensor:
      break;
  }
  std::string text = "tensor<";
  for (int64_t d : type.tensor.dims) text += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return text + type.tensor.element_type + ">";
}

std::string DescribeHeader(const PlanHeader& h) {
  const DeviceRequirements& r = h.requirements;
  std::string text = "format " + std::to_string(h.format_major) + "." + std::to_string(h.format_minor) +
                     ", written by " + (h.producer.empty() ? std::string("an unnamed producer") : h.producer) + "\n";
  text += "source sha256 " + Hex(h.source_sha256) + "\n";
  text += "entry @" + h.entry_name + "(" + Join(h.parameters) + ") -> (" + Join(h.results) + ")\n";
  text += "compiled for profile '" + r.profile + "', Vulkan 1." + std::to_string(r.vulkan_api_minor) + "\n";
  text += "features: " + (r.features == 0 ? std::string("none beyond Vulkan 1.0") : FeatureNames(r.features)) + "\n";
  if (r.subgroup_operations != 0) {
    char ops[16];
    std::snprintf(ops, sizeof(ops), "0x%x", r.subgroup_operations);
    text += std::string("subgroup operations: ") + ops + "\n";
  }
  text += "limits used: maxStorageBufferRange " + std::to_string(r.storage_buffer_range) +
          ", maxComputeSharedMemorySize " + std::to_string(r.shared_memory_bytes) + ", maxComputeWorkGroupSize " +
          std::to_string(r.workgroup_size[0]) + "x" + std::to_string(r.workgroup_size[1]) + "x" +
          std::to_string(r.workgroup_size[2]) + ", maxComputeWorkGroupInvocations " +
          std::to_string(r.workgroup_invocations) + ", maxPushConstantsSize " + std::to_string(r.push_constant_bytes) +
          ", maxPerStageDescriptorStorageBuffers " + std::to_string(r.storage_buffers_per_stage) +
          ", maxTexelBufferElements " + std::to_string(r.texel_buffer_elements) + ", storage offsets aligned to " +
          std::to_string(r.storage_buffer_offset_alignment) + "\n";
  if (!r.required_subgroup_sizes.empty()) {
    text += "required subgroup sizes:";
    for (uint32_t size : r.required_subgroup_sizes) text += " " + std::to_string(size);
    text += "\n";
  }
  return text;
}

}  // namespace vkhlo::plan
