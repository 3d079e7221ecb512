// The device memory allocator: buffers carved out of large VkDeviceMemory blocks.
//
// Small and medium buffers share blocks (default 64 MiB, smaller on small heaps) with best-fit
// placement and coalescing on free; a request over half a block gets a dedicated block. At most
// one empty shared block is kept per memory type, so allocate/free cycles do not grow memory.
//
// Freed dedicated blocks go to a bounded pool of free blocks (sizes rounded up to buckets of a
// sixteenth of a power of two, so nearby sizes share them) for the next request of their bucket:
// repeated executions allocate and free the same large results and scratch buffers, and a fresh
// block costs a large allocation plus a page fault per page on first touch (lavapipe: host
// memory). The pool keeps at most `free_block_pool_bytes` (the oldest blocks go first; a block
// over half of that is never kept), is
// emptied before an allocation would fail for lack of memory (then retried), and by Trim() and
// the allocator's destruction. Every offset is aligned to the device's
// minStorageBufferOffsetAlignment, so any buffer can be bound directly.
//
// Running out of memory is an ordinary error (RESOURCE_EXHAUSTED naming the request and the
// heap); the allocator also refuses to reserve more than a heap's size, since some drivers
// (lavapipe) would otherwise over-commit system memory. Buffers larger than
// maxStorageBufferRange are fine here: binding them in pieces is the kernels' business. A
// request beyond maxMemoryAllocationSize (or maxBufferSize) is split into several dedicated
// blocks (split_layout.h; Buffer::split()): only the heap limits it.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "device/buffer.h"
#include "device/capabilities.h"
#include "device/split_layout.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;

struct AllocatorOptions {
  uint64_t block_bytes = 64ull << 20;
  // Most bytes of freed dedicated blocks kept for reuse (at most a quarter of the heap); 0 keeps none.
  uint64_t free_block_pool_bytes = 1ull << 30;
  // Most bytes reserved per heap; 0: the heap's size.
  uint64_t budget_bytes = 0;
};

struct AllocatorStats {
  uint64_t bytes_in_use = 0;        // by live buffers (rounded to the allocation granularity)
  uint64_t peak_bytes_in_use = 0;
  uint64_t bytes_reserved = 0;      // in VkDeviceMemory blocks
  uint64_t peak_bytes_reserved = 0;
  uint64_t live_buffers = 0;
  uint64_t blocks = 0;
  uint64_t total_allocations = 0;   // buffers ever allocated
  uint64_t pooled_bytes = 0;        // in free dedicated blocks kept for reuse (part of bytes_reserved)
  uint64_t pooled_blocks = 0;
  uint64_t pool_hits = 0;           // dedicated blocks reused from the pool
  uint64_t pool_trims = 0;          // times the pool was emptied to make room (or by Trim())
  uint64_t split_buffers = 0;       // live buffers split across several blocks (split_layout.h)
  uint64_t total_split_buffers = 0; // such buffers ever allocated
};

class Allocator {
 public:
  static StatusOr<std::unique_ptr<Allocator>> Create(Device& device, const AllocatorOptions& options);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // A buffer of `size` bytes (0 allowed). Its contents are undefined.
  StatusOr<Buffer> Allocate(uint64_t size, MemoryKind kind = MemoryKind::kDevice);

  AllocatorStats stats() const;
  // Releases every pooled free block.
  void Trim();
  // The most bytes buffers of `kind` can ever take: their heap's size, or the budget
  // (AllocatorOptions::budget_bytes) when smaller. A larger request fails at once.
  uint64_t MemoryLimit(MemoryKind kind = MemoryKind::kDevice) const;
  // The granularity every buffer is rounded up to (and aligned at).
  uint64_t alignment() const { return alignment_; }
  // How buffers beyond the largest allocation are split (limit 0: never).
  const SplitLayout& split_layout() const { return split_; }
  // Whether buffers of `kind` are host-visible (mapped() is non-null).
  bool IsHostVisible(MemoryKind kind) const;

  // Called (under the allocator's lock) just before a block's VkBuffer is destroyed, so caches
  // keyed by VkBuffer handles can forget it before the handle value is reused.
  void SetBlockDestroyedCallback(std::function<void(VkBuffer)> callback);
  // More such callbacks, for caches above the device layer (FFT plans bound to VkBuffers). They
  // also fire when a dedicated block is released to the pool (its VkBuffer lives on, but the
  // next buffer carved from it is a different one): a block's users see it go when its last
  // buffer does, pooled or not. Called under the allocator's lock: they must not call back into
  // the allocator. Returns an id for RemoveBlockDestroyedListener.
  uint64_t AddBlockDestroyedListener(std::function<void(VkBuffer)> listener);
  void RemoveBlockDestroyedListener(uint64_t id);

  // Size of the VkBuffer that views of this allocator's buffers point into (the whole block),
  // or nullopt if `buffer` is not one of its blocks in use (pooled blocks are not). For libraries that bind a VkBuffer from its
  // start and address tensors by offset (VkFFT).
  std::optional<uint64_t> VkBufferBytes(VkBuffer buffer) const;

 private:
  friend class Buffer;
  struct Block;

  explicit Allocator(Device& device);
  void Free(Buffer& buffer);
  StatusOr<Buffer> AllocateSplit(uint64_t size, MemoryKind kind);
  StatusOr<Block*> CreateBlockLocked(uint32_t memory_type, uint64_t size, bool dedicated);
  StatusOr<Block*> CreateBlockOnceLocked(uint32_t memory_type, uint64_t size, bool dedicated);
  void DestroyBlockLocked(uint32_t block_id);
  // A dedicated block for `rounded` bytes: a pooled one of its bucket, else a new one.
  StatusOr<Block*> DedicatedBlockLocked(uint32_t memory_type, uint64_t rounded);
  void PoolBlockLocked(Block& block);
  void TrimLocked();
  uint64_t BucketBytes(uint64_t rounded) const;
  std::string HeapDescription(uint32_t memory_type) const;

  Device& device_;
  uint64_t block_bytes_ = 0;
  uint64_t pool_limit_ = 0;
  uint64_t alignment_ = 16;
  SplitLayout split_;
  uint32_t memory_type_for_[2] = {0, 0};  // indexed by MemoryKind
  std::vector<uint64_t> heap_reserved_;
  std::vector<uint64_t> heap_limit_;

  mutable std::mutex mutex_;
  std::map<uint32_t, std::unique_ptr<Block>> blocks_;
  uint32_t next_block_id_ = 1;
  // Pooled dedicated blocks: (bucket bytes, memory type) -> block ids, oldest first.
  std::map<std::pair<uint64_t, uint32_t>, std::vector<uint32_t>> pool_;
  uint64_t pool_clock_ = 0;
  AllocatorStats stats_;
  std::function<void(VkBuffer)> on_block_destroyed_;
  std::map<uint64_t, std::function<void(VkBuffer)>> block_destroyed_listeners_;
  uint64_t next_listener_id_ = 1;
};

}  // namespace vkhlo::device
