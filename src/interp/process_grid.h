// The StableHLO process grid of interpreter.run_parallel: num_replicas x num_partitions
// processes, each evaluating its program on its own thread, meeting at collectives and
// exchanging values through channels.
//
// A collective is a rendezvous: every process of a process group calls Rendezvous with its own
// contribution and gets everyone's back once all have arrived. Rendezvous are keyed by the op
// name, channel id and the process group, plus a per-process call count of that key, so the
// n-th execution of a collective (e.g. inside a while loop) meets the other processes' n-th.
// Channels (send/recv) are FIFO queues by channel id: send never blocks, recv waits.
//
// Nothing waits forever: a wait longer than the timeout (60 s by default) fails with
// DEADLINE_EXCEEDED naming the op, and once any process fails (Abort) every waiting process
// stops with ABORTED instead of waiting for a partner that will never come. The rules live in
// support/rendezvous.h, which the Vulkan runtime's grid uses too.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "interp/eval_context.h"
#include "interp/value.h"
#include "support/rendezvous.h"
#include "vkhlo/status.h"

namespace vkhlo::interp {

class ProcessGrid {
 public:
  ProcessGrid(int64_t num_replicas, int64_t num_partitions,
              std::chrono::milliseconds timeout = std::chrono::seconds(60));
  ProcessGrid(const ProcessGrid&) = delete;
  ProcessGrid& operator=(const ProcessGrid&) = delete;

  int64_t num_replicas() const { return num_replicas_; }
  int64_t num_partitions() const { return num_partitions_; }
  int64_t num_processes() const { return num_replicas_ * num_partitions_; }
  std::chrono::milliseconds timeout() const { return meeting_.timeout(); }

  // Waits until every process of `group` (which must contain `self`; repeated entries count
  // once) has called Rendezvous with the same op name, channel id and group; returns their
  // contributions in the order of `group`.
  StatusOr<std::vector<InterpValues>> Rendezvous(std::string_view op_name, int64_t channel_id,
                                                 const std::vector<ProcessId>& group, ProcessId self,
                                                 InterpValues contribution);

  // Channels: Send appends `values` to the channel's queue; Recv takes the oldest entry,
  // waiting for one if the queue is empty.
  Status Send(std::string_view op_name, int64_t channel_id, InterpValues values);
  StatusOr<InterpValues> Recv(std::string_view op_name, int64_t channel_id);

  // Called when a process stops with an error: every waiting and later wait fails (ABORTED)
  // with a message naming `process` and `error`. The first abort's error is kept.
  void Abort(ProcessId process, const Status& error);
  // The error of the first Abort, if any.
  std::optional<Status> first_error() const;

 private:
  const int64_t num_replicas_, num_partitions_;
  support::Rendezvous<InterpValues> meeting_;  // shared with the runtime's transport
};

}  // namespace vkhlo::interp
