#include "device/capabilities.h"

#include <fmt/format.h>
#include <vulkan/vulkan.h>

#include <algorithm>

namespace vkhlo::device {

std::string_view DeviceTypeName(DeviceType type) {
  switch (type) {
    case DeviceType::kDiscreteGpu: return "discrete GPU";
    case DeviceType::kIntegratedGpu: return "integrated GPU";
    case DeviceType::kVirtualGpu: return "virtual GPU";
    case DeviceType::kCpu: return "CPU";
    case DeviceType::kOther: return "other";
  }
  return "other";
}

std::string_view VendorName(Vendor vendor) {
  switch (vendor) {
    case Vendor::kAmd: return "AMD";
    case Vendor::kNvidia: return "NVIDIA";
    case Vendor::kIntel: return "Intel";
    case Vendor::kArm: return "Arm";
    case Vendor::kQualcomm: return "Qualcomm";
    case Vendor::kImgTec: return "Imagination";
    case Vendor::kApple: return "Apple";
    case Vendor::kMesa: return "Mesa";
    case Vendor::kUnknown: return "unknown";
  }
  return "unknown";
}

Vendor VendorFromId(uint32_t vendor_id, std::string_view driver_name) {
  switch (vendor_id) {
    case 0x1002: case 0x1022: return Vendor::kAmd;
    case 0x10DE: return Vendor::kNvidia;
    case 0x8086: return Vendor::kIntel;
    case 0x13B5: return Vendor::kArm;
    case 0x5143: return Vendor::kQualcomm;
    case 0x1010: return Vendor::kImgTec;
    case 0x106B: return Vendor::kApple;
    case 0x10005: return Vendor::kMesa;  // VK_VENDOR_ID_MESA: lavapipe and other Mesa soft drivers
    default: break;
  }
  if (driver_name.find("llvmpipe") != std::string_view::npos) return Vendor::kMesa;
  return Vendor::kUnknown;
}

std::string SubgroupOperationsToString(uint32_t ops) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {
      {kSubgroupBasic, "basic"},     {kSubgroupVote, "vote"},
      {kSubgroupArithmetic, "arithmetic"}, {kSubgroupBallot, "ballot"},
      {kSubgroupShuffle, "shuffle"}, {kSubgroupShuffleRelative, "shuffle_relative"},
      {kSubgroupClustered, "clustered"}, {kSubgroupQuad, "quad"},
  };
  std::string out;
  for (auto [bit, name] : kNames) {
    if (ops & bit) {
      if (!out.empty()) out += ' ';
      out += name;
    }
  }
  return out.empty() ? "none" : out;
}

std::string_view MatrixComponentName(MatrixComponent c) {
  switch (c) {
    case MatrixComponent::kF16: return "f16";
    case MatrixComponent::kF32: return "f32";
    case MatrixComponent::kF64: return "f64";
    case MatrixComponent::kS8: return "s8";
    case MatrixComponent::kS16: return "s16";
    case MatrixComponent::kS32: return "s32";
    case MatrixComponent::kS64: return "s64";
    case MatrixComponent::kU8: return "u8";
    case MatrixComponent::kU16: return "u16";
    case MatrixComponent::kU32: return "u32";
    case MatrixComponent::kU64: return "u64";
    case MatrixComponent::kBF16: return "bf16";
  }
  return "?";
}

bool DeviceCapabilities::HasExtension(std::string_view ext) const {
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

bool DeviceCapabilities::HasStorageTexelBufferFormat(uint32_t vk_format) const {
  return std::find(storage_texel_buffer_formats.begin(), storage_texel_buffer_formats.end(),
                   vk_format) != storage_texel_buffer_formats.end();
}

std::string DeviceCapabilities::ApiVersionString() const {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(api_version),
                     VK_API_VERSION_MINOR(api_version), VK_API_VERSION_PATCH(api_version));
}

uint64_t DeviceCapabilities::DeviceLocalBytes() const {
  uint64_t total = 0;
  for (const MemoryHeap& heap : memory_heaps) {
    if (heap.device_local) total += heap.size;
  }
  return total;
}

}  // namespace vkhlo::device
