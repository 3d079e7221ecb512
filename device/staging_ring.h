// A ring of host-visible memory that transfers stage through.
//
// One buffer, reused for every transfer: a region is reserved, filled (uploads) or copied into
// by the GPU (downloads), and tied to the submission that uses it. When the ring is full, the
// oldest region's submission is waited for, its completion callback runs (a download copies its
// bytes out to the caller), and its space is reused. Not thread-safe: TransferEngine serializes.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>

#include "device/buffer.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;

class StagingRing {
 public:
  struct Region {
    uint64_t offset = 0;  // within the ring buffer
    uint64_t size = 0;
    std::byte* data = nullptr;
  };

  StagingRing(Device& device, Buffer buffer);
  ~StagingRing();

  uint64_t capacity() const { return buffer_.size(); }
  const Buffer& buffer() const { return buffer_; }
  BufferView view(const Region& region) const { return buffer_.view(region.offset, region.size); }

  // `size` (1..capacity) contiguous bytes; waits for old regions if the ring is full. The region
  // must be committed (or cancelled) before the next Reserve.
  StatusOr<Region> Reserve(uint64_t size);
  // Ties the last reserved region to `submission`; `on_complete` (may be empty) runs after the
  // submission completes and before the region is reused.
  void Commit(uint64_t submission, std::function<void()> on_complete);
  // Gives the last reserved region back unused.
  void Cancel();
  // Waits for every region and runs every pending callback.
  Status Drain();

 private:
  struct Entry {
    uint64_t offset;
    uint64_t size;
    uint64_t submission;  // 0 while reserved but not committed
    std::function<void()> on_complete;
  };
  Status RetireOldest();

  Device& device_;
  Buffer buffer_;
  uint64_t head_ = 0;  // next free byte
  std::deque<Entry> entries_;
};

}  // namespace vkhlo::device
