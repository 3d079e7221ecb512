#include "device/staging_ring.h"

#include "device/device.h"
#include "device/queue.h"

namespace vkhlo::device {

StagingRing::StagingRing(Device& device, Buffer buffer) : device_(device), buffer_(std::move(buffer)) {}

StagingRing::~StagingRing() {
  if (!device_.lost()) Drain().IgnoreError();
}

Status StagingRing::RetireOldest() {
  Entry& oldest = entries_.front();
  if (oldest.submission == 0) return InternalError("staging ring: retiring an uncommitted region");
  VKHLO_RETURN_IF_ERROR(device_.queue().Wait(oldest.submission));
  if (oldest.on_complete) oldest.on_complete();
  entries_.pop_front();
  if (entries_.empty()) head_ = 0;
  return OkStatus();
}

StatusOr<StagingRing::Region> StagingRing::Reserve(uint64_t size) {
  const uint64_t alignment = 64;  // keeps memcpy on cache lines
  size = (size + alignment - 1) / alignment * alignment;
  if (size == 0 || size > capacity()) {
    return InternalError("staging ring: reservation of " + std::to_string(size) +
                         " bytes in a ring of " + std::to_string(capacity()));
  }
  while (true) {
    uint64_t offset = UINT64_MAX;
    if (entries_.empty()) {
      offset = 0;
    } else {
      const uint64_t tail = entries_.front().offset;
      if (head_ > tail) {  // not wrapped: entries occupy [tail, head_)
        if (capacity() - head_ >= size) {
          offset = head_;
        } else if (tail >= size) {
          offset = 0;  // wrap; the end's gap is reclaimed when the tail passes it
        }
      } else if (tail - head_ >= size) {  // wrapped: [head_, tail) is free
        offset = head_;
      }
    }
    if (offset != UINT64_MAX) {
      entries_.push_back(Entry{offset, size, 0, nullptr});
      head_ = offset + size;
      return Region{offset, size, buffer_.mapped() + offset};
    }
    VKHLO_RETURN_IF_ERROR(RetireOldest());
  }
}

void StagingRing::Commit(uint64_t submission, std::function<void()> on_complete) {
  entries_.back().submission = submission;
  entries_.back().on_complete = std::move(on_complete);
}

void StagingRing::Cancel() {
  entries_.pop_back();
  head_ = entries_.empty() ? 0 : entries_.back().offset + entries_.back().size;
}

Status StagingRing::Drain() {
  while (!entries_.empty()) VKHLO_RETURN_IF_ERROR(RetireOldest());
  return OkStatus();
}

}  // namespace vkhlo::device
