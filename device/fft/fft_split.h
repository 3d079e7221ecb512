// FFTs on tensors beyond maxStorageBufferRange: batch splitting over aliased windows.
//
// VkFFT binds each buffer through one descriptor from the start of its VkBuffer, and the
// allocator's VkBuffer covers the whole block, so a tensor (or part of one) that ends more than
// maxStorageBufferRange bytes into its block cannot be bound as is. When one transform (the
// fft_length product: what VkFFT computes inside one launch for one batch index) fits in the
// range, the batch is split: each launch transforms a run of consecutive batch entries, and a
// side that does not fit is bound through a "window", a VkBuffer created over the tensor's
// VkDeviceMemory at an aligned offset just below the run (vkCreateBuffer + vkBindBufferMemory),
// the rest of the offset travelling at launch as before. Windows are cached per (block VkBuffer,
// offset, size) and destroyed when the allocator reports the block gone.
//
// A single transform larger than the range would need VkFFT's multi-buffer layout (bufferNum >
// 1: an array of descriptors indexed by a per-invocation, non-uniform expression), which vkhlo
// does not use: it is refused with a clear error (see SplitError).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "device/fft/fft.h"
#include "vkhlo/status.h"

namespace vkhlo::device::fft {

// The most a window's memory offset may need to be rounded down by: the memory alignment of a
// storage buffer on every known driver is far below this. At compile time (no VkBuffer yet) a
// transform is accepted for splitting if it fits in the range less this slack.
inline constexpr uint64_t kMaxWindowAlignment = 64 * 1024;

// One side of a transform (input, output, IRFFT's scratch) as the split sees it.
struct SplitSide {
  uint64_t bytes_per_transform = 0;  // one batch entry
  bool windowed = false;             // does not fit from its VkBuffer's start: bound by windows
};

// How a batch is cut: `launches` launches of `per_launch` consecutive batch entries (the last
// one fewer when it does not divide), each run of every windowed side within
// `window_bytes - alignment` bytes.
struct BatchSplit {
  uint64_t per_launch = 0;
  uint64_t launches = 0;
};

// The window size for a device: the largest multiple of `alignment` within `range`.
uint64_t WindowBytes(uint64_t range, uint64_t alignment);

// The split of `batch` entries over windows of `window_bytes` aligned to `alignment`, with the
// launches balanced. FAILED_PRECONDITION (see SplitError) if one transform of a windowed side
// does not fit.
StatusOr<BatchSplit> PlanBatchSplit(const FftDescriptor& d, std::span<const SplitSide> sides,
                                    uint64_t window_bytes, uint64_t alignment);

// The error for a single transform of `bytes_per_transform` beyond what a window holds.
Status SplitError(const FftDescriptor& d, uint64_t bytes_per_transform, uint64_t range);

// Windows: VkBuffers aliasing ranges of allocator blocks' memory. Not thread-safe (the plan
// cache's mutex guards it).
class WindowCache {
 public:
  WindowCache() = default;
  ~WindowCache();  // destroys every window
  WindowCache(const WindowCache&) = delete;
  WindowCache& operator=(const WindowCache&) = delete;

  // Sets the device; queries the memory alignment windows need (Alignment()).
  Status Init(VkDevice device, uint64_t probe_bytes);
  // Memory offsets of windows are multiples of this (a power of two, at least 16, so that every
  // element of every FFT type stays aligned).
  uint64_t Alignment() const { return alignment_; }

  // A VkBuffer over bytes [offset, offset + bytes) of `memory`, which backs `block` (the block's
  // VkBuffer, bound at memory offset 0) and holds at least offset + bytes. `offset` must be a
  // multiple of Alignment(). Created on first use.
  StatusOr<VkBuffer> Get(VkBuffer block, VkDeviceMemory memory, uint64_t offset, uint64_t bytes);

  // The windows over `block` (whose memory is going), removed from the cache: the caller drops
  // what is bound to them, then calls Destroy.
  std::vector<VkBuffer> Take(VkBuffer block);
  void Destroy(std::span<const VkBuffer> windows);

  uint64_t live() const { return windows_.size(); }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  uint64_t alignment_ = 16;
  uint32_t memory_type_bits_ = 0;
  std::map<std::tuple<VkBuffer, uint64_t, uint64_t>, VkBuffer> windows_;
};

}  // namespace vkhlo::device::fft
