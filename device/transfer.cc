#include "device/transfer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "device/command_list.h"
#include "device/device.h"
#include "device/queue.h"
#include "device/vk_status.h"

namespace vkhlo::device {
namespace {

Status CheckRange(const Buffer& buffer, uint64_t offset, uint64_t bytes, std::string_view what) {
  if (!buffer) return InvalidArgumentError(fmt::format("{}: the buffer is empty", what));
  if (offset > buffer.size() || bytes > buffer.size() - offset) {
    return OutOfRangeError(fmt::format("{} of {} bytes at offset {} is outside a buffer of {} bytes",
                                       what, bytes, offset, buffer.size()));
  }
  return OkStatus();
}

}  // namespace

// A split buffer's bytes move piece by piece (each piece direct or staged as an ordinary
// buffer); the handle waits for the last submission and runs every piece's pending copies.
template <typename Bytes, typename Move>
StatusOr<TransferHandle> TransferEngine::Piecewise(const Buffer& buffer, uint64_t offset, Bytes bytes,
                                                         const Move& move) {
  TransferHandle handle;
  handle.engine_ = this;
  const uint64_t p = buffer.pieces().empty() ? 0 : buffer.view().pieces->piece_bytes;
  for (size_t i = 0; i < buffer.pieces().size(); ++i) {
    const uint64_t begin = std::max<uint64_t>(offset, i * p);
    const uint64_t end = std::min<uint64_t>(offset + bytes.size(), i * p + buffer.pieces()[i].size());
    if (begin >= end) continue;
    VKHLO_ASSIGN_OR_RETURN(TransferHandle part,
                           move(buffer.pieces()[i], begin - i * p, bytes.subspan(begin - offset, end - begin)));
    handle.submission_ = std::max(handle.submission_, part.submission_);
    for (auto& copy : part.copies_) handle.copies_.push_back(std::move(copy));
  }
  return handle;
}

Status TransferHandle::Wait() {
  if (engine_ == nullptr) return OkStatus();
  if (submission_ != 0) VKHLO_RETURN_IF_ERROR(engine_->device_.queue().Wait(submission_));
  std::lock_guard<std::mutex> lock(engine_->mutex_);
  for (auto& copy : copies_) engine_->RunCopyLocked(*copy);
  return OkStatus();
}

StatusOr<bool> TransferHandle::IsComplete() {
  if (engine_ == nullptr || submission_ == 0) return true;
  VKHLO_ASSIGN_OR_RETURN(bool done, engine_->device_.queue().IsComplete(submission_));
  if (done) VKHLO_RETURN_IF_ERROR(Wait());  // copies out what downloads staged
  return done;
}

TransferEngine::TransferEngine(Device& device, Buffer ring_buffer, bool allow_direct)
    : device_(device), allow_direct_(allow_direct), ring_(device, std::move(ring_buffer)) {}

TransferEngine::~TransferEngine() = default;

TransferStats TransferEngine::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

bool TransferEngine::UsesDirectPath(const Buffer& buffer) const {
  return allow_direct_ && buffer.mapped() != nullptr;
}

Status TransferEngine::WaitForEarlierWork() {
  uint64_t last = device_.queue().last_submitted();
  return last == 0 ? OkStatus() : device_.queue().Wait(last);
}

Status TransferEngine::FlushOrInvalidate(const StagingRing::Region& region, bool flush) {
  const Buffer& buffer = ring_.buffer();
  if (buffer.host_coherent()) return OkStatus();
  const uint64_t atom = device_.capabilities().limits.non_coherent_atom_size;
  uint64_t begin = (buffer.offset() + region.offset) / atom * atom;
  uint64_t end = (buffer.offset() + region.offset + region.size + atom - 1) / atom * atom;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = buffer.memory();
  range.offset = begin;
  range.size = end - begin;
  VkResult result = flush ? vkFlushMappedMemoryRanges(device_.handle(), 1, &range)
                          : vkInvalidateMappedMemoryRanges(device_.handle(), 1, &range);
  return device_.Check(result, flush ? "vkFlushMappedMemoryRanges" : "vkInvalidateMappedMemoryRanges");
}

void TransferEngine::RunCopyLocked(TransferHandle::PendingCopy& copy) {
  if (copy.done) return;
  // Failing to invalidate only happens with a lost device, which Wait() has already reported.
  FlushOrInvalidate(copy.region, /*flush=*/false).IgnoreError();
  std::memcpy(copy.destination, copy.region.data, copy.bytes);
  copy.done = true;
}

StatusOr<TransferHandle> TransferEngine::UploadAsync(const Buffer& destination, uint64_t offset,
                                                     std::span<const std::byte> data) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  VKHLO_RETURN_IF_ERROR(CheckRange(destination, offset, data.size(), "upload"));
  if (destination.split()) {
    return Piecewise(destination, offset, data, [&](const Buffer& piece, uint64_t at, std::span<const std::byte> part) {
      return UploadAsync(piece, at, part);
    });
  }
  TransferHandle handle;
  handle.engine_ = this;
  if (data.empty()) return handle;
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.bytes_uploaded += data.size();

  if (UsesDirectPath(destination)) {
    VKHLO_RETURN_IF_ERROR(WaitForEarlierWork());  // the GPU may still be reading the old bytes
    std::memcpy(destination.mapped() + offset, data.data(), data.size());
    if (!destination.host_coherent()) {
      VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
      range.memory = destination.memory();
      range.offset = 0;
      range.size = VK_WHOLE_SIZE;
      VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkFlushMappedMemoryRanges(device_.handle(), 1, &range));
    }
    stats_.direct_copies++;
    return handle;
  }

  const uint64_t chunk = std::max<uint64_t>(ring_.capacity() / 4, 64);
  for (uint64_t done = 0; done < data.size();) {
    uint64_t bytes = std::min<uint64_t>(chunk, data.size() - done);
    VKHLO_ASSIGN_OR_RETURN(StagingRing::Region region, ring_.Reserve(bytes));
    std::memcpy(region.data, data.data() + done, bytes);
    Status status = FlushOrInvalidate(region, /*flush=*/true);
    StatusOr<Submission> submission = InternalError("unset");
    if (status.ok()) {
      auto list = CommandList::Begin(device_);
      status = list.status();
      if (status.ok()) {
        status = list->CopyBuffer(ring_.buffer().view(region.offset, bytes),
                                  destination.view(offset + done, bytes));
      }
      if (status.ok()) {
        submission = list->Submit();
        status = submission.status();
      }
    }
    if (!status.ok()) {
      ring_.Cancel();
      return status.WithContext("upload");
    }
    ring_.Commit(submission->value(), nullptr);
    handle.submission_ = submission->value();
    stats_.staged_chunks++;
    done += bytes;
  }
  return handle;
}

StatusOr<TransferHandle> TransferEngine::DownloadAsync(const Buffer& source, uint64_t offset,
                                                       std::span<std::byte> out) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  VKHLO_RETURN_IF_ERROR(CheckRange(source, offset, out.size(), "download"));
  if (source.split()) {
    return Piecewise(source, offset, out, [&](const Buffer& piece, uint64_t at, std::span<std::byte> part) {
      return DownloadAsync(piece, at, part);
    });
  }
  TransferHandle handle;
  handle.engine_ = this;
  if (out.empty()) return handle;
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.bytes_downloaded += out.size();

  if (UsesDirectPath(source)) {
    VKHLO_RETURN_IF_ERROR(WaitForEarlierWork());  // the bytes may still be being written
    if (!source.host_coherent()) {
      VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
      range.memory = source.memory();
      range.offset = 0;
      range.size = VK_WHOLE_SIZE;
      VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkInvalidateMappedMemoryRanges(device_.handle(), 1, &range));
    }
    std::memcpy(out.data(), source.mapped() + offset, out.size());
    stats_.direct_copies++;
    return handle;
  }

  const uint64_t chunk = std::max<uint64_t>(ring_.capacity() / 4, 64);
  for (uint64_t done = 0; done < out.size();) {
    uint64_t bytes = std::min<uint64_t>(chunk, out.size() - done);
    VKHLO_ASSIGN_OR_RETURN(StagingRing::Region region, ring_.Reserve(bytes));
    StatusOr<Submission> submission = InternalError("unset");
    auto list = CommandList::Begin(device_);
    Status status = list.status();
    if (status.ok()) {
      status = list->CopyBuffer(source.view(offset + done, bytes), ring_.buffer().view(region.offset, bytes));
    }
    if (status.ok()) {
      submission = list->Submit();
      status = submission.status();
    }
    if (!status.ok()) {
      ring_.Cancel();
      return status.WithContext("download");
    }
    auto copy = std::make_shared<TransferHandle::PendingCopy>(
        TransferHandle::PendingCopy{out.data() + done, region, bytes});
    // The ring runs the copy itself if it needs the space before the caller waits.
    ring_.Commit(submission->value(), [this, copy] { RunCopyLocked(*copy); });
    handle.copies_.push_back(std::move(copy));
    handle.submission_ = submission->value();
    stats_.staged_chunks++;
    done += bytes;
  }
  return handle;
}

Status TransferEngine::Upload(const Buffer& destination, uint64_t offset,
                              std::span<const std::byte> data) {
  VKHLO_ASSIGN_OR_RETURN(TransferHandle handle, UploadAsync(destination, offset, data));
  return handle.Wait();
}

Status TransferEngine::Download(const Buffer& source, uint64_t offset, std::span<std::byte> out) {
  VKHLO_ASSIGN_OR_RETURN(TransferHandle handle, DownloadAsync(source, offset, out));
  return handle.Wait();
}

}  // namespace vkhlo::device
