#include "plan/requirements.h"

#include <cstdio>
#include <string>
#include <vector>

namespace vkhlo::plan {
namespace {

constexpr const char* kFeatureNames[] = {
    "shaderInt64",         "shaderFloat64",           "shaderFloat16",
    "shaderInt8",          "shaderInt16",             "storageBuffer8BitAccess",
    "storageBuffer16BitAccess", "shaderIntegerDotProduct", "subgroupSizeControl",
    "bufferDeviceAddress", "cooperativeMatrix",       "shaderBufferInt64Atomics",
    "storageTexelBuffer(R32G32B32A32_SFLOAT)", "storageTexelBuffer(R32G32B32A32_UINT)",
    "shaderSignedZeroInfNanPreserveFloat16", "shaderSignedZeroInfNanPreserveFloat32",
    "shaderSignedZeroInfNanPreserveFloat64", "shaderRoundingModeRTEFloat16",
    "shaderRoundingModeRTEFloat32", "shaderRoundingModeRTEFloat64",
    "shaderDenormPreserveFloat16", "shaderDenormPreserveFloat32", "shaderDenormPreserveFloat64",
    "storageTexelBuffer(R32_SFLOAT)",
};

std::string Limit(const char* name, uint64_t needed, uint64_t has) {
  return std::string(name) + " " + std::to_string(needed) + " (has " + std::to_string(has) + ")";
}

}  // namespace

std::string FeatureName(uint64_t feature) {
  for (size_t bit = 0; bit < std::size(kFeatureNames); ++bit) {
    if (feature == (uint64_t{1} << bit)) return kFeatureNames[bit];
  }
  for (size_t bit = 0; bit < 64; ++bit) {
    if (feature == (uint64_t{1} << bit)) return "feature bit " + std::to_string(bit);
  }
  return "features " + std::to_string(feature);
}

std::string FeatureNames(uint64_t features) {
  std::string names;
  for (size_t bit = 0; bit < 64; ++bit) {
    if ((features >> bit & 1) == 0) continue;
    if (!names.empty()) names += ", ";
    names += FeatureName(uint64_t{1} << bit);
  }
  return names;
}

Status CheckRequirements(const DeviceRequirements& required, const DeviceOffer& offer) {
  std::vector<std::string> missing;
  if (required.vulkan_api_minor > offer.vulkan_api_minor) {
    missing.push_back("Vulkan 1." + std::to_string(required.vulkan_api_minor) + " (has 1." +
                      std::to_string(offer.vulkan_api_minor) + ")");
  }
  if (const uint64_t lacking = required.features & ~offer.features; lacking != 0) {
    missing.push_back(FeatureNames(lacking));
  }
  if (const uint32_t lacking = required.subgroup_operations & ~offer.subgroup_operations; lacking != 0) {
    missing.push_back("subgroup operations 0x" + [&] {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "%x", lacking);
      return std::string(hex);
    }());
  }
  auto limit = [&](const char* name, uint64_t needed, uint64_t has) {
    if (needed > has) missing.push_back(Limit(name, needed, has));
  };
  limit("maxStorageBufferRange", required.storage_buffer_range, offer.max_storage_buffer_range);
  limit("maxComputeSharedMemorySize", required.shared_memory_bytes, offer.max_shared_memory_bytes);
  static constexpr const char* kSizeNames[] = {"maxComputeWorkGroupSize[0]", "maxComputeWorkGroupSize[1]",
                                               "maxComputeWorkGroupSize[2]"};
  for (size_t d = 0; d < 3; ++d) limit(kSizeNames[d], required.workgroup_size[d], offer.max_workgroup_size[d]);
  limit("maxComputeWorkGroupInvocations", required.workgroup_invocations, offer.max_workgroup_invocations);
  limit("maxPushConstantsSize", required.push_constant_bytes, offer.max_push_constants_bytes);
  limit("maxPerStageDescriptorStorageBuffers", required.storage_buffers_per_stage, offer.max_storage_buffers_per_stage);
  limit("maxTexelBufferElements", required.texel_buffer_elements, offer.max_texel_buffer_elements);
  const uint64_t align = offer.min_storage_buffer_offset_alignment == 0 ? 1 : offer.min_storage_buffer_offset_alignment;
  if (required.storage_buffer_offset_alignment % align != 0) {
    missing.push_back("minStorageBufferOffsetAlignment dividing " +
                      std::to_string(required.storage_buffer_offset_alignment) + " (has " + std::to_string(align) + ")");
  }
  for (uint32_t size : required.required_subgroup_sizes) {
    if (size < offer.min_subgroup_size || size > offer.max_subgroup_size) {
      missing.push_back("requiredSubgroupSize " + std::to_string(size) + " (has " +
                        std::to_string(offer.min_subgroup_size) + ".." + std::to_string(offer.max_subgroup_size) + ")");
    }
  }
  if (missing.empty()) return OkStatus();
  std::string message = "the plan needs what " + (offer.device_name.empty() ? std::string("the device") : offer.device_name) +
                        " lacks: ";
  for (size_t i = 0; i < missing.size(); ++i) message += (i == 0 ? "" : "; ") + missing[i];
  message += " (compiled for profile '" + required.profile + "')";
  return FailedPreconditionError(message);
}

}  // namespace vkhlo::plan
