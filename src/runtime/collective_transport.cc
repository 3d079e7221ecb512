#include "runtime/collective_transport.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo::runtime {

Status InProcessTransport::AbortedError(std::string_view op_name) const {
  return Status(StatusCode::kAborted, fmt::format("'{}' stopped waiting: {}", op_name, abort_reason_));
}

StatusOr<std::vector<Contribution>> InProcessTransport::Exchange(const RendezvousKey& key, ProcessId self,
                                                                 Contribution mine) {
  const std::set<ProcessId> members(key.group.begin(), key.group.end());
  if (!members.count(self)) {
    return InternalError(fmt::format("'{}': process ({}, {}) is not in its own process group", key.op_name,
                                     self.replica, self.partition));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (first_error_) return AbortedError(key.op_name);
  const int64_t execution = calls_[{key, self}]++;
  const auto slot_key = std::make_pair(key, execution);
  Slot& slot = slots_[slot_key];
  slot.values[self] = std::move(mine);
  changed_.notify_all();
  const bool complete = changed_.wait_for(lock, timeout_, [&] {
    return slot.values.size() == members.size() || first_error_.has_value();
  });
  if (slot.values.size() != members.size()) {
    if (!complete) {
      std::string missing;
      for (const ProcessId& p : members) {
        if (!slot.values.count(p)) missing += fmt::format("{}({}, {})", missing.empty() ? "" : ", ", p.replica, p.partition);
      }
      return Status(StatusCode::kDeadlineExceeded,
                    fmt::format("'{}' in process ({}, {}) waited {} ms for process(es) {} to reach it "
                                "(a deadlock, or processes that run different collectives)",
                                key.op_name, self.replica, self.partition, timeout_.count(), missing));
    }
    return AbortedError(key.op_name);
  }
  std::vector<Contribution> result;
  result.reserve(key.group.size());
  for (const ProcessId& p : key.group) result.push_back(slot.values.at(p));
  if (++slot.readers == members.size()) slots_.erase(slot_key);
  return result;
}

Status InProcessTransport::Send(std::string_view op_name, int64_t channel_id, Contribution values) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (first_error_) return AbortedError(op_name);
  channels_[channel_id].push_back(std::move(values));
  changed_.notify_all();
  return OkStatus();
}

StatusOr<Contribution> InProcessTransport::Recv(std::string_view op_name, int64_t channel_id) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto& queue = channels_[channel_id];
  const bool ready = changed_.wait_for(lock, timeout_, [&] { return !queue.empty() || first_error_.has_value(); });
  if (!queue.empty()) {
    Contribution values = std::move(queue.front());
    queue.pop_front();
    return values;
  }
  if (!ready) {
    return Status(StatusCode::kDeadlineExceeded,
                  fmt::format("'{}' waited {} ms for a value on channel {} that no process sent", op_name,
                              timeout_.count(), channel_id));
  }
  return AbortedError(op_name);
}

void InProcessTransport::Abort(ProcessId process, const Status& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!first_error_) {
    first_error_ = error;
    abort_reason_ = fmt::format("process ({}, {}) failed: {}", process.replica, process.partition, error.message());
  }
  changed_.notify_all();
}

std::optional<Status> InProcessTransport::first_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

}  // namespace vkhlo::runtime
