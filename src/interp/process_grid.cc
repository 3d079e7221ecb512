#include "interp/process_grid.h"

namespace vkhlo::interp {
namespace {

support::GridPid Pid(ProcessId p) { return {p.replica_id, p.partition_id}; }

}  // namespace

ProcessGrid::ProcessGrid(int64_t num_replicas, int64_t num_partitions, std::chrono::milliseconds timeout)
    : num_replicas_(num_replicas), num_partitions_(num_partitions), meeting_(timeout) {}

StatusOr<std::vector<InterpValues>> ProcessGrid::Rendezvous(std::string_view op_name, int64_t channel_id,
                                                            const std::vector<ProcessId>& group, ProcessId self,
                                                            InterpValues contribution) {
  std::vector<support::GridPid> pids;
  pids.reserve(group.size());
  for (const ProcessId& p : group) pids.push_back(Pid(p));
  return meeting_.Exchange(op_name, channel_id, pids, Pid(self), std::move(contribution));
}

Status ProcessGrid::Send(std::string_view op_name, int64_t channel_id, InterpValues values) {
  return meeting_.Send(op_name, channel_id, std::move(values));
}

StatusOr<InterpValues> ProcessGrid::Recv(std::string_view op_name, int64_t channel_id) {
  return meeting_.Recv(op_name, channel_id);
}

void ProcessGrid::Abort(ProcessId process, const Status& error) { meeting_.Abort(Pid(process), error); }

std::optional<Status> ProcessGrid::first_error() const { return meeting_.first_error(); }

}  // namespace vkhlo::interp
