// The CollectiveTransport of a process grid whose processes are MPI ranks (one process per rank,
// each on its own device), for one grid run; MpiSession::Run (include/vkhlo/mpi.h) makes one.
//
// The ops (collectives.cc, process_ops.cc) do not change: Exchange downloads this process's
// contribution once, sends it to every other member of the group and uploads what the others
// sent into new tensors on this process's device, so the fold in group order on the device —
// and with it every bit of the result — is the in-process grid's. Reductions whose result does
// not depend on the order (ExactReducer: integer add/min/max/...) go to MPI_Iallreduce instead.
//
// Rendezvous by message: each contribution carries its key (op, channel, group) and execution
// count, and the n-th one a rank receives from a member must be the one it expects — a member
// at another collective is reported at once (the in-process grid would wait out its timeout).
// Channels: the first recv of a channel on a rank tells every rank that it receives the
// channel; a send goes there once that is known and waits in an outbox until then (sends never
// block; a value no process receives is dropped when the run ends, as in the in-process grid).
// Failures: a rank ends its part of a run by telling every rank its status (Finish); a failed
// rank's status makes every wait, now and later, fail with ABORTED naming it, and a rank that
// finished without reaching a collective its group waits in is reported by name. No wait lasts
// longer than the timeout.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/collective_transport.h"
#include "runtime/mpi/engine.h"

namespace vkhlo::runtime::mpi {

// Which rank runs which process in one grid run.
struct GridMap {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  std::vector<int> rank_of;  // by process index (row-major: replica * num_partitions + partition)

  int RankOf(ProcessId p) const { return rank_of[static_cast<size_t>(p.replica * num_partitions + p.partition)]; }
  std::optional<ProcessId> ProcessOf(int rank) const;
  // "process (1, 0) [rank 1]", or "rank 3 (no process of this grid)".
  std::string Describe(int rank) const;
};

class MpiTransport final : public CollectiveTransport {
 public:
  // `self`: this rank's process (nullopt on a rank the grid leaves out, which only Finishes);
  // `client`: where received tensors are uploaded (the process's executable's).
  MpiTransport(Engine& engine, uint64_t epoch, std::string label, GridMap map, std::optional<ProcessId> self,
               std::shared_ptr<ClientState> client, std::chrono::milliseconds timeout);

  StatusOr<std::vector<Contribution>> Exchange(const RendezvousKey& key, ProcessId self, Contribution mine) override;
  StatusOr<std::optional<Contribution>> ExactReduce(const RendezvousKey& key, ProcessId self, const Contribution& mine,
                                                    const std::vector<ExactReduction>& ops) override;
  Status Send(std::string_view op_name, int64_t channel_id, Contribution values) override;
  StatusOr<Contribution> Recv(std::string_view op_name, int64_t channel_id) override;
  void Abort(ProcessId process, const Status& error) override;

  // Ends this rank's part of the run: tells every rank `mine`, keeps serving channel claims and
  // sends until every rank has told its own, and returns the run's outcome — the same on every
  // rank: the failure of the lowest rank that failed first-hand (not because another did),
  // naming its process. Slower ranks are waited for as long as they run (as the in-process grid
  // joins its threads); once a failure is known, a rank that does not report within the timeout
  // is stuck outside vkhlo's waits: the outcome is then this rank's and resolved() is false (the
  // job should be aborted).
  Status Finish(const Status& mine);
  bool resolved() const { return resolved_; }

 private:
  struct Outgoing {
    Header header;
    std::shared_ptr<const Payload> payload;
  };

  // Polls until `ready` returns true, failing on an error, an aborted grid (`abortable`) or the
  // deadline (then `on_timeout`'s status). `in_flight`: MPI work outside the engine (a
  // reduction) progresses only while polled, so polls do not sleep.
  Status WaitUntil(const std::string& activity, bool abortable, const std::function<StatusOr<bool>()>& ready,
                   const std::function<Status()>& on_timeout, bool in_flight = false);
  // Files the control messages of this run (claims, done) and ships outbox entries that are
  // now claimed; errors for messages of another grid under this run's epoch.
  Status Absorb();
  // ABORTED when another rank has reported a failure.
  Status CheckAborted(std::string_view op_name);
  // A header of this run from this rank's process (or none: -1, -1).
  Header NewHeader(MessageKind kind, std::string_view op_name = {}, int64_t channel_id = 0) const;
  // The header of a contribution of this process to `key`'s `execution`.
  Header ContributionHeader(const RendezvousKey& key, int64_t execution) const;
  // The downloaded tensors of `values` and their header entries.
  StatusOr<Outgoing> Pack(Header header, const Contribution& values) const;
  // New tensors on this process's device holding `arrived`'s payload.
  StatusOr<Contribution> Unpack(const Arrived& arrived) const;
  // Sends `header`/`payload` to every rank of the communicator but this one.
  Status Broadcast(const Header& header);
  // Meets every other member of `key.group` with `sent`; returns what each sent, by rank.
  StatusOr<std::map<int, std::unique_ptr<Arrived>>> Meet(const RendezvousKey& key, const Outgoing& sent);
  std::string Me() const;

  Engine& engine_;
  const uint64_t epoch_;
  const std::string label_;
  const GridMap map_;
  const std::optional<ProcessId> self_;
  std::shared_ptr<ClientState> client_;
  const std::chrono::milliseconds timeout_;

  std::map<RendezvousKey, int64_t> executions_;           // per key: how many this process ran
  std::map<int64_t, int> receiver_of_;                    // channel -> the rank that receives it
  std::set<int64_t> claimed_;                             // channels this rank receives
  std::map<int64_t, std::vector<Outgoing>> outbox_;       // values for channels nobody claimed yet
  std::map<int, Status> done_;                            // ranks that finished, with their status
  std::map<int, bool> secondary_;                         // ... and whether they failed because of another
  std::map<int, std::set<int64_t>> pending_of_;           // ... and the channels they still hold values for
  std::optional<Status> local_error_;                     // this rank's own failure (Abort)
  bool failed_because_of_other_ = false;
  bool resolved_ = false;
};

}  // namespace vkhlo::runtime::mpi
