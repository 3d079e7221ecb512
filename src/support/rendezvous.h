// The meeting point of the processes of a StableHLO process grid, shared by the reference
// interpreter (interp::ProcessGrid, values are InterpValues) and the Vulkan runtime
// (runtime::InProcessTransport, values are device tensors): collectives as rendezvous, send/recv
// as channels, and the abort/timeout rules that keep a grid from waiting forever.
//
// A rendezvous is keyed by the op name, channel id and process group, plus a per-process call
// count of that key, so the n-th execution of a collective (e.g. inside a while loop) meets the
// other processes' n-th. Channels are FIFO queues by channel id: Send never blocks, Recv waits.
// A wait longer than the timeout fails with DEADLINE_EXCEEDED naming the op and who is missing;
// once any process fails (Abort) every wait, now and later, fails with ABORTED naming it.
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::support {

// A process of the grid: (replica, partition).
using GridPid = std::pair<int64_t, int64_t>;

template <typename Value>
class Rendezvous {
 public:
  explicit Rendezvous(std::chrono::milliseconds timeout) : timeout_(timeout) {}
  Rendezvous(const Rendezvous&) = delete;
  Rendezvous& operator=(const Rendezvous&) = delete;

  std::chrono::milliseconds timeout() const { return timeout_; }

  // Waits until every process of `group` (which must contain `self`; repeated entries count
  // once) has called Exchange with the same op name, channel id and group; returns their
  // values in the order of `group`.
  StatusOr<std::vector<Value>> Exchange(std::string_view op_name, int64_t channel_id, const std::vector<GridPid>& group,
                                        GridPid self, Value mine) {
    Key key{std::string(op_name), channel_id, group};
    const std::set<GridPid> members(group.begin(), group.end());
    if (!members.count(self)) {
      return InternalError(fmt::format("'{}': process ({}, {}) is not in its own process group", op_name, self.first,
                                       self.second));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (first_error_) return AbortedError(op_name);
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
        for (const GridPid& p : members) {
          if (!slot.values.count(p)) missing += fmt::format("{}({}, {})", missing.empty() ? "" : ", ", p.first, p.second);
        }
        return Status(StatusCode::kDeadlineExceeded,
                      fmt::format("'{}' in process ({}, {}) waited {} ms for process(es) {} to reach it "
                                  "(a deadlock, or processes that run different collectives)",
                                  op_name, self.first, self.second, timeout_.count(), missing));
      }
      return AbortedError(op_name);
    }
    std::vector<Value> result;
    result.reserve(group.size());
    for (const GridPid& p : group) result.push_back(slot.values.at(p));
    if (++slot.readers == members.size()) slots_.erase(slot_key);
    return result;
  }

  // Appends `values` to the channel's queue.
  Status Send(std::string_view op_name, int64_t channel_id, Value values) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_error_) return AbortedError(op_name);
    channels_[channel_id].push_back(std::move(values));
    changed_.notify_all();
    return OkStatus();
  }

  // Takes the channel's oldest entry, waiting for one if the queue is empty.
  StatusOr<Value> Recv(std::string_view op_name, int64_t channel_id) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& queue = channels_[channel_id];
    const bool ready = changed_.wait_for(lock, timeout_, [&] { return !queue.empty() || first_error_.has_value(); });
    if (!queue.empty()) {
      Value values = std::move(queue.front());
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

  // A process stopped with `error`: every wait, now and later, fails (ABORTED) naming it. The
  // first abort's error is kept.
  void Abort(GridPid process, const Status& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!first_error_) {
      first_error_ = error;
      abort_reason_ = fmt::format("process ({}, {}) failed: {}", process.first, process.second, error.message());
    }
    changed_.notify_all();
  }

  std::optional<Status> first_error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_error_;
  }

 private:
  struct Key {
    std::string op_name;
    int64_t channel_id = 0;
    std::vector<GridPid> group;
    auto operator<=>(const Key&) const = default;
  };
  struct Slot {
    std::map<GridPid, Value> values;
    size_t readers = 0;
  };

  Status AbortedError(std::string_view op_name) const {  // mutex_ held
    return Status(StatusCode::kAborted, fmt::format("'{}' stopped waiting: {}", op_name, abort_reason_));
  }

  const std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::pair<Key, GridPid>, int64_t> calls_;  // per process: executions of a key so far
  std::map<std::pair<Key, int64_t>, Slot> slots_;     // by key and execution number
  std::map<int64_t, std::deque<Value>> channels_;
  std::optional<Status> first_error_;
  std::string abort_reason_;
};

}  // namespace vkhlo::support
