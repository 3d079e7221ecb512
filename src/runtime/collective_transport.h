// How the processes of a grid exchange tensors: the one seam between the collective ops
// (collectives.cc, process_ops.cc) and where the processes live.
//
// The ops speak only of device tensors of the calling process: a contribution is the list of
// tensors a process hands to a rendezvous, and what comes back are tensors it can read on its
// own device. InProcessTransport (all processes in this OS process) hands the BufferStates
// themselves over; the receiving process reads them in place when they live on its device and
// copies them through host memory when they do not (Execution::Localize: processes on clients of
// their own, process_grid.h CreateProcessClients). A transport between machines
// (MPI) would download the local contribution, send bytes, and upload what it receives into new
// local buffers; the ops do not change.
//
// Rendezvous: every process of `group` calls Exchange with the same key; each gets all
// contributions in group order. Keys count per process, so the n-th execution of a collective
// (e.g. in a while loop) meets the other processes' n-th. Channels: Send never blocks, Recv
// waits for the oldest value. Waits end with DEADLINE_EXCEEDED after the timeout, or ABORTED
// once a process has failed (Abort).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/state.h"
#include "support/rendezvous.h"

namespace vkhlo::runtime {

struct ProcessId {
  int64_t replica = 0;
  int64_t partition = 0;
  auto operator<=>(const ProcessId&) const = default;
};

// What one process hands over: tensors whose contents are complete (the caller has waited for
// the work producing them).
using Contribution = std::vector<std::shared_ptr<BufferState>>;

struct RendezvousKey {
  std::string op_name;
  int64_t channel_id = 0;
  std::vector<ProcessId> group;
  auto operator<=>(const RendezvousKey&) const = default;
};

// A reducer whose result does not depend on the order its operands are folded in: one integer
// op of the region's two arguments on integers (wrapping, so any order gives the same bits).
// A transport may hand such reductions to a library's own (MPI_Allreduce).
enum class ExactReduction { kAdd, kMultiply, kMin, kMax, kAnd, kOr, kXor };

class CollectiveTransport {
 public:
  virtual ~CollectiveTransport() = default;
  virtual StatusOr<std::vector<Contribution>> Exchange(const RendezvousKey& key, ProcessId self,
                                                       Contribution mine) = 0;
  // The group's reduction of `mine` (tensors whose element types `ops` suit, one op per tensor)
  // computed by the transport, or nullopt when it leaves the fold to the caller (Exchange, then
  // the reducer on the device in group order). Same rendezvous rules as Exchange.
  virtual StatusOr<std::optional<Contribution>> ExactReduce(const RendezvousKey& key, ProcessId self,
                                                            const Contribution& mine,
                                                            const std::vector<ExactReduction>& ops) {
    (void)key, (void)self, (void)mine, (void)ops;
    return std::optional<Contribution>();
  }
  virtual Status Send(std::string_view op_name, int64_t channel_id, Contribution values) = 0;
  virtual StatusOr<Contribution> Recv(std::string_view op_name, int64_t channel_id) = 0;
  // A process failed: every wait, now and later, fails with ABORTED naming it.
  virtual void Abort(ProcessId process, const Status& error) = 0;
};

// All processes of the grid in this OS process, on one or several devices (one barrier object
// per grid execution).
class InProcessTransport final : public CollectiveTransport {
 public:
  explicit InProcessTransport(std::chrono::milliseconds timeout) : meeting_(timeout) {}

  StatusOr<std::vector<Contribution>> Exchange(const RendezvousKey& key, ProcessId self, Contribution mine) override;
  Status Send(std::string_view op_name, int64_t channel_id, Contribution values) override;
  StatusOr<Contribution> Recv(std::string_view op_name, int64_t channel_id) override;
  void Abort(ProcessId process, const Status& error) override;
  std::optional<Status> first_error() const;

 private:
  support::Rendezvous<Contribution> meeting_;  // the interpreter's grid uses the same rules
};

}  // namespace vkhlo::runtime
