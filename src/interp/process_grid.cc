#include "interp/process_grid.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo::interp {

ProcessGrid::ProcessGrid(int64_t num_replicas, int64_t num_partitions, std::chrono::milliseconds timeout)
    : num_replicas_(num_replicas), num_partitions_(num_partitions), timeout_(timeout) {}

Status ProcessGrid::AbortedError(std::string_view op_name) const {
  return Status(StatusCode::kAborted, fmt::format("'{}' stopped waiting: {}", op_name, abort_reason_));
}

StatusOr<std::vector<InterpValues>> ProcessGrid::Rendezvous(std::string_view op_name, int64_t channel_id,
                                                            const std::vector<ProcessId>& group, ProcessId self,
                                                            InterpValues contribution) {
  Key key{std::string(op_name), channel_id, {}};
  for (const ProcessId& p : group) key.group.emplace_back(p.replica_id, p.partition_id);
  const Pid me{self.replica_id, self.partition_id};
  const std::set<Pid> members(key.group.begin(), key.group.end());
  if (!members.count(me)) {
    return InternalError(fmt::format("'{}': process ({}, {}) is not in its own process group", op_name,
                                     self.replica_id, self.partition_id));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (first_error_) return AbortedError(op_name);
  const int64_t execution = calls_[{key, me}]++;
  const auto slot_key = std::make_pair(key, execution);
  Slot& slot = slots_[slot_key];
  slot.values[me] = std::move(contribution);
  changed_.notify_all();
  const bool complete = changed_.wait_for(lock, timeout_, [&] {
    return slot.values.size() == members.size() || first_error_.has_value();
  });
  if (slot.values.size() != members.size()) {
    if (!complete) {
      std::string missing;
      for (const Pid& p : members) {
        if (!slot.values.count(p)) missing += fmt::format("{}({}, {})", missing.empty() ? "" : ", ", p.first, p.second);
      }
      return Status(StatusCode::kDeadlineExceeded,
                    fmt::format("'{}' in process ({}, {}) waited {} ms for process(es) {} to reach it "
                                "(a deadlock, or processes that run different collectives)",
                                op_name, self.replica_id, self.partition_id, timeout_.count(), missing));
    }
    return AbortedError(op_name);
  }
  std::vector<InterpValues> result;
  result.reserve(key.group.size());
  for (const Pid& p : key.group) result.push_back(slot.values.at(p));
  if (++slot.readers == members.size()) slots_.erase(slot_key);
  return result;
}

Status ProcessGrid::Send(std::string_view op_name, int64_t channel_id, InterpValues values) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (first_error_) return AbortedError(op_name);
  channels_[channel_id].push_back(std::move(values));
  changed_.notify_all();
  return OkStatus();
}

StatusOr<InterpValues> ProcessGrid::Recv(std::string_view op_name, int64_t channel_id) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto& queue = channels_[channel_id];
  const bool ready = changed_.wait_for(lock, timeout_, [&] { return !queue.empty() || first_error_.has_value(); });
  if (!queue.empty()) {
    InterpValues values = std::move(queue.front());
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

void ProcessGrid::Abort(ProcessId process, const Status& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!first_error_) {
    first_error_ = error;
    abort_reason_ = fmt::format("process ({}, {}) failed: {}", process.replica_id, process.partition_id,
                                error.message());
  }
  changed_.notify_all();
}

std::optional<Status> ProcessGrid::first_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

}  // namespace vkhlo::interp
