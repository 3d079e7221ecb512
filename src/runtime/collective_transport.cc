#include "runtime/collective_transport.h"

namespace vkhlo::runtime {
namespace {

support::GridPid Pid(ProcessId p) { return {p.replica, p.partition}; }

}  // namespace

StatusOr<std::vector<Contribution>> InProcessTransport::Exchange(const RendezvousKey& key, ProcessId self,
                                                                 Contribution mine) {
  std::vector<support::GridPid> group;
  group.reserve(key.group.size());
  for (const ProcessId& p : key.group) group.push_back(Pid(p));
  return meeting_.Exchange(key.op_name, key.channel_id, group, Pid(self), std::move(mine));
}

Status InProcessTransport::Send(std::string_view op_name, int64_t channel_id, Contribution values) {
  return meeting_.Send(op_name, channel_id, std::move(values));
}

StatusOr<Contribution> InProcessTransport::Recv(std::string_view op_name, int64_t channel_id) {
  return meeting_.Recv(op_name, channel_id);
}

void InProcessTransport::Abort(ProcessId process, const Status& error) { meeting_.Abort(Pid(process), error); }

std::optional<Status> InProcessTransport::first_error() const { return meeting_.first_error(); }

}  // namespace vkhlo::runtime
