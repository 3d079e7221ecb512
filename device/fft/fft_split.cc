#include "device/fft/fft_split.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/vk_status.h"

namespace vkhlo::device::fft {

uint64_t WindowBytes(uint64_t range, uint64_t alignment) { return range / alignment * alignment; }

Status SplitError(const FftDescriptor& d, uint64_t bytes_per_transform, uint64_t range) {
  return FailedPreconditionError(fmt::format(
      "{}: one transform takes {} bytes, more than maxStorageBufferRange = {}: VkFFT 1.2.26 could "
      "run it only through its multi-buffer layout (bufferNum > 1), an array of descriptors it "
      "indexes per invocation without nonuniformEXT (undefined behaviour in Vulkan; vkhlo enables "
      "no descriptor indexing), so tensors beyond the range are split between launches along the "
      "batch only",
      d.ToString(), bytes_per_transform, range));
}

StatusOr<BatchSplit> PlanBatchSplit(const FftDescriptor& d, std::span<const SplitSide> sides,
                                    uint64_t window_bytes, uint64_t alignment) {
  // A run starts at most alignment - 1 bytes past its window's start.
  const uint64_t usable = window_bytes > alignment ? window_bytes - alignment : 0;
  uint64_t per_launch = d.batch;
  for (const SplitSide& side : sides) {
    if (!side.windowed || side.bytes_per_transform == 0) continue;
    if (side.bytes_per_transform > usable) {
      return SplitError(d, side.bytes_per_transform, window_bytes);
    }
    per_launch = std::min(per_launch, usable / side.bytes_per_transform);
  }
  BatchSplit split;
  split.launches = (d.batch + per_launch - 1) / per_launch;
  // Balanced: the same count in every launch but the last, which is at most that.
  split.per_launch = (d.batch + split.launches - 1) / split.launches;
  return split;
}

WindowCache::~WindowCache() {
  for (const auto& [key, window] : windows_) vkDestroyBuffer(device_, window, nullptr);
}

Status WindowCache::Init(VkDevice device, uint64_t probe_bytes) {
  device_ = device;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<uint64_t>(probe_bytes, 16);
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer probe = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(device, &info, nullptr, &probe);
  if (result != VK_SUCCESS) return VkResultToStatus(result, "vkCreateBuffer (FFT window probe)");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, probe, &requirements);
  vkDestroyBuffer(device, probe, nullptr);
  alignment_ = std::max<uint64_t>(requirements.alignment, 16);
  if ((alignment_ & (alignment_ - 1)) != 0 || alignment_ > kMaxWindowAlignment) {
    return FailedPreconditionError(fmt::format(
        "the device's storage buffers need memory alignment {}: FFT windows assume a power of two "
        "up to {}",
        requirements.alignment, kMaxWindowAlignment));
  }
  return OkStatus();
}

StatusOr<VkBuffer> WindowCache::Get(VkBuffer block, VkDeviceMemory memory, uint64_t offset,
                                    uint64_t bytes) {
  const auto key = std::make_tuple(block, offset, bytes);
  if (auto it = windows_.find(key); it != windows_.end()) return it->second;
  if (offset % alignment_ != 0) {
    return InternalError(fmt::format("FFT window offset {} is not a multiple of {}", offset,
                                     alignment_));
  }
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  // A subset of the allocator's block usage: the memory types allowed are a superset.
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer window = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(device_, &info, nullptr, &window);
  if (result != VK_SUCCESS) return VkResultToStatus(result, "vkCreateBuffer (FFT window)");
  result = vkBindBufferMemory(device_, window, memory, offset);
  if (result != VK_SUCCESS) {
    vkDestroyBuffer(device_, window, nullptr);
    return VkResultToStatus(result, fmt::format("vkBindBufferMemory (FFT window at byte {})", offset));
  }
  windows_[key] = window;
  return window;
}

std::vector<VkBuffer> WindowCache::Take(VkBuffer block) {
  std::vector<VkBuffer> taken;
  for (auto it = windows_.begin(); it != windows_.end();) {
    if (std::get<0>(it->first) == block) {
      taken.push_back(it->second);
      it = windows_.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

void WindowCache::Destroy(std::span<const VkBuffer> windows) {
  for (VkBuffer window : windows) vkDestroyBuffer(device_, window, nullptr);
}

}  // namespace vkhlo::device::fft
