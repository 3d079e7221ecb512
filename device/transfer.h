// Moving bytes between host memory and device buffers.
//
// Transfers are ordered after all work submitted before them. Two paths, chosen per buffer:
//  - direct: the buffer's memory is host-visible (integrated GPUs, lavapipe, staging buffers):
//    wait for earlier work, then memcpy through the mapping;
//  - staged: through the device's staging ring in chunks of a quarter ring, each copied by the
//    GPU while the host fills the next. Any size works, beyond maxStorageBufferRange too.
// A split buffer (beyond maxMemoryAllocationSize, buffer.h) moves piece by piece, each by its path.
//
// The asynchronous forms return a TransferHandle. UploadAsync has read `data` when it returns;
// DownloadAsync writes `out` until the handle's Wait() returns, so `out` must outlive that.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "device/buffer.h"
#include "device/staging_ring.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;
class TransferEngine;

class TransferHandle {
 public:
  TransferHandle() = default;  // a completed, empty transfer
  // Blocks until the transfer is complete (for downloads: the bytes are in `out`).
  Status Wait();
  StatusOr<bool> IsComplete();

 private:
  friend class TransferEngine;
  // A staged download's last step: ring region -> caller's memory, once the GPU is done.
  struct PendingCopy {
    std::byte* destination;
    StagingRing::Region region;
    size_t bytes;
    bool done = false;
  };
  TransferEngine* engine_ = nullptr;
  uint64_t submission_ = 0;  // last submission of the transfer (0: nothing on the GPU)
  std::vector<std::shared_ptr<PendingCopy>> copies_;
};

struct TransferStats {
  uint64_t bytes_uploaded = 0;
  uint64_t bytes_downloaded = 0;
  uint64_t staged_chunks = 0;  // GPU copies through the ring
  uint64_t direct_copies = 0;  // memcpy through a mapping
};

class TransferEngine {
 public:
  TransferEngine(Device& device, Buffer ring_buffer, bool allow_direct);
  ~TransferEngine();

  StatusOr<TransferHandle> UploadAsync(const Buffer& destination, uint64_t offset,
                                       std::span<const std::byte> data);
  StatusOr<TransferHandle> DownloadAsync(const Buffer& source, uint64_t offset,
                                         std::span<std::byte> out);
  Status Upload(const Buffer& destination, uint64_t offset, std::span<const std::byte> data);
  Status Download(const Buffer& source, uint64_t offset, std::span<std::byte> out);

  uint64_t ring_bytes() const { return ring_.capacity(); }
  TransferStats stats() const;

 private:
  friend class TransferHandle;
  bool UsesDirectPath(const Buffer& buffer) const;
  // Not under the lock: each piece's transfer takes it.
  template <typename Bytes, typename Move>
  StatusOr<TransferHandle> Piecewise(const Buffer& buffer, uint64_t offset, Bytes bytes, const Move& move);
  Status WaitForEarlierWork();
  void RunCopyLocked(TransferHandle::PendingCopy& copy);
  Status FlushOrInvalidate(const StagingRing::Region& region, bool flush);

  Device& device_;
  bool allow_direct_;
  mutable std::mutex mutex_;
  StagingRing ring_;
  TransferStats stats_;
};

}  // namespace vkhlo::device
