#include "runtime/mpi/transport.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/transfer.h"
#include "runtime/mpi/activity.h"

namespace vkhlo::runtime::mpi {
namespace {

WireProcess Wire(ProcessId p) { return {p.replica, p.partition}; }

std::vector<WireProcess> Wire(const std::vector<ProcessId>& group) {
  std::vector<WireProcess> out;
  for (const ProcessId& p : group) out.push_back(Wire(p));
  return out;
}

std::string TypesOf(const Header& h) {
  std::string out;
  for (const WireTensor& t : h.tensors) out += (out.empty() ? "" : ", ") + t.type.ToString();
  return out.empty() ? "nothing" : out;
}

}  // namespace

std::optional<ProcessId> GridMap::ProcessOf(int rank) const {
  for (size_t i = 0; i < rank_of.size(); ++i) {
    if (rank_of[i] == rank) {
      const int64_t index = static_cast<int64_t>(i);
      return ProcessId{index / num_partitions, index % num_partitions};
    }
  }
  return std::nullopt;
}

std::string GridMap::Describe(int rank) const {
  if (auto p = ProcessOf(rank)) return fmt::format("process ({}, {}) [rank {}]", p->replica, p->partition, rank);
  return fmt::format("rank {} (no process of this grid)", rank);
}

MpiTransport::MpiTransport(Engine& engine, uint64_t epoch, std::string label, GridMap map,
                           std::optional<ProcessId> self, std::shared_ptr<ClientState> client,
                           std::chrono::milliseconds timeout)
    : engine_(engine),
      epoch_(epoch),
      label_(std::move(label)),
      map_(std::move(map)),
      self_(self),
      client_(std::move(client)),
      timeout_(timeout) {}

std::string MpiTransport::Me() const { return map_.Describe(engine_.rank()); }

Status MpiTransport::WaitUntil(const std::string& activity, bool abortable,
                               const std::function<StatusOr<bool>()>& ready, const std::function<Status()>& on_timeout,
                               bool in_flight) {
  SetActivity(activity);
  const auto deadline = Clock::now() + timeout_;
  Backoff backoff;
  while (true) {
    VKHLO_RETURN_IF_ERROR(engine_.Poll());
    Status absorbed = Absorb();
    if (!absorbed.ok() && abortable) return absorbed;
    VKHLO_ASSIGN_OR_RETURN(bool done, ready());
    if (done) {
      SetActivity(Me() + " running its program (grid '" + label_ + "')");
      return OkStatus();
    }
    if (Clock::now() >= deadline) return on_timeout();
    backoff.Pause(in_flight || engine_.busy());
  }
}

Status MpiTransport::Absorb() {
  Status error;
  auto& arrived = engine_.arrived();
  for (auto it = arrived.begin(); it != arrived.end();) {
    const Arrived& a = **it;
    const Header& h = a.header;
    if (h.epoch > epoch_) {  // a rank already in a later run: kept for it
      ++it;
      continue;
    }
    if (h.epoch < epoch_ && a.complete()) {  // an earlier run's values that nobody received
      it = arrived.erase(it);
      continue;
    }
    if (h.epoch == epoch_ && h.grid_label != label_) {
      // The grids the ranks run have diverged: this run cannot meet that rank's.
      Status mismatch(StatusCode::kFailedPrecondition,
                      fmt::format("{} runs grid '{}' while {} runs grid '{}': every rank must run the same grids "
                                  "in the same order",
                                  map_.Describe(a.source), h.grid_label, Me(), label_));
      done_.emplace(a.source, mismatch);
      if (error.ok()) error = mismatch;
      if (a.complete()) {
        it = arrived.erase(it);
      } else {
        ++it;
      }
      continue;
    }
    if (h.epoch == epoch_ && h.kind == MessageKind::kChannelClaim) {
      auto [known, inserted] = receiver_of_.emplace(h.channel_id, a.source);
      if (!inserted && known->second != a.source && error.ok()) {
        error = Status(StatusCode::kFailedPrecondition,
                       fmt::format("channel {} is received by {} and by {}: over MPI the values of a channel go to "
                                   "one receiving process",
                                   h.channel_id, map_.Describe(known->second), map_.Describe(a.source)));
      }
      it = arrived.erase(it);
      continue;
    }
    if (h.epoch == epoch_ && h.kind == MessageKind::kDone) {
      done_[a.source] = Status(static_cast<StatusCode>(h.status_code), h.status_message);
      secondary_[a.source] = h.secondary;
      pending_of_[a.source] = std::set<int64_t>(h.pending_channels.begin(), h.pending_channels.end());
      it = arrived.erase(it);
      continue;
    }
    ++it;
  }
  for (auto it = outbox_.begin(); it != outbox_.end();) {
    auto receiver = receiver_of_.find(it->first);
    if (receiver == receiver_of_.end()) {
      ++it;
      continue;
    }
    for (Outgoing& out : it->second) VKHLO_RETURN_IF_ERROR(engine_.Post(receiver->second, out.header, out.payload));
    it = outbox_.erase(it);
  }
  return error;
}

Status MpiTransport::CheckAborted(std::string_view op_name) {
  for (const auto& [rank, status] : done_) {
    if (rank == engine_.rank() || status.ok()) continue;
    failed_because_of_other_ = true;
    return Status(StatusCode::kAborted,
                  fmt::format("'{}' stopped waiting: {} failed: {}", op_name, map_.Describe(rank), status.message()));
  }
  return OkStatus();
}

Header MpiTransport::NewHeader(MessageKind kind, std::string_view op_name, int64_t channel_id) const {
  Header h;
  h.kind = kind;
  h.epoch = epoch_;
  h.grid_label = label_;
  h.from = self_ ? Wire(*self_) : WireProcess{-1, -1};
  h.op_name = std::string(op_name);
  h.channel_id = channel_id;
  return h;
}

Header MpiTransport::ContributionHeader(const RendezvousKey& key, int64_t execution) const {
  Header h = NewHeader(MessageKind::kContribution, key.op_name, key.channel_id);
  h.group = Wire(key.group);
  h.execution = execution;
  return h;
}

StatusOr<MpiTransport::Outgoing> MpiTransport::Pack(Header header, const Contribution& values) const {
  Outgoing out;
  uint64_t total = 0;
  for (const auto& b : values) {
    WireTensor t{b->type.ToTensorType(), total, header.has_payload ? BufferBytes(b->type) : 0};
    total += t.bytes;
    header.tensors.push_back(std::move(t));
  }
  header.payload_bytes = total;
  std::shared_ptr<Payload> payload = engine_.TakePayload(total);
  for (size_t i = 0; i < values.size(); ++i) {
    const WireTensor& t = header.tensors[i];
    if (t.bytes == 0) continue;
    const BufferState& b = *values[i];
    std::span<uint8_t> to(payload->data() + t.offset, t.bytes);
    VKHLO_RETURN_IF_ERROR(b.client->device->transfers().Download(b.buffer, 0, std::as_writable_bytes(to)));
  }
  out.header = std::move(header);
  out.payload = std::move(payload);
  return out;
}

StatusOr<Contribution> MpiTransport::Unpack(const Arrived& arrived) const {
  Contribution values;
  for (const WireTensor& t : arrived.header.tensors) {
    auto type = DescOf(t.type);
    if (!type.ok()) return type.status().WithContext(fmt::format("a tensor from {}", map_.Describe(arrived.source)));
    if (t.bytes != BufferBytes(*type)) {
      return DataLossError(fmt::format("{} sent {} bytes for a {}", map_.Describe(arrived.source), t.bytes,
                                       type->ToString()));
    }
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> tensor, AllocateTensor(client_, *type));
    if (t.bytes > 0) {
      std::span<const uint8_t> from(arrived.payload->data() + t.offset, t.bytes);
      VKHLO_RETURN_IF_ERROR(client_->device->transfers().Upload(tensor->buffer, 0, std::as_bytes(from)));
    }
    values.push_back(std::move(tensor));
  }
  return values;
}

Status MpiTransport::Broadcast(const Header& header) {
  for (int r = 0; r < engine_.size(); ++r) {
    if (r != engine_.rank()) VKHLO_RETURN_IF_ERROR(engine_.Post(r, header, nullptr));
  }
  return OkStatus();
}

StatusOr<std::map<int, std::unique_ptr<Arrived>>> MpiTransport::Meet(const RendezvousKey& key, const Outgoing& sent) {
  const Header& mine = sent.header;
  std::set<int> members;
  for (const ProcessId& p : key.group) {
    if (!self_ || p != *self_) members.insert(map_.RankOf(p));
  }
  members.erase(engine_.rank());
  for (int rank : members) VKHLO_RETURN_IF_ERROR(engine_.Post(rank, mine, sent.payload));

  const std::string what = fmt::format("'{}' (channel {}, group {}, execution {})", key.op_name, key.channel_id,
                                       GroupName(mine.group), mine.execution);
  std::map<int, std::unique_ptr<Arrived>> got;
  std::set<int> heard;  // members whose contribution header is here (its payload may be in flight)
  auto missing = [&] {
    std::string out;
    for (int rank : members) {
      if (!got.count(rank)) out += (out.empty() ? "" : ", ") + map_.Describe(rank);
    }
    return out;
  };
  auto ready = [&]() -> StatusOr<bool> {
    auto& arrived = engine_.arrived();
    for (int rank : members) {
      if (got.count(rank)) continue;
      auto it = std::find_if(arrived.begin(), arrived.end(), [&](const std::unique_ptr<Arrived>& a) {
        return a->source == rank && a->header.epoch == epoch_ && a->header.kind == MessageKind::kContribution;
      });
      if (it == arrived.end()) continue;
      heard.insert(rank);
      const Header& theirs = (*it)->header;
      if (theirs.op_name != mine.op_name || theirs.channel_id != mine.channel_id || theirs.group != mine.group ||
          theirs.execution != mine.execution) {
        return Status(StatusCode::kFailedPrecondition,
                      fmt::format("{} in {} received from {} its contribution to '{}' (channel {}, group {}, execution "
                                  "{}): the processes run different collectives, or the same ones in another order",
                                  what, Me(), map_.Describe(rank), theirs.op_name, theirs.channel_id,
                                  GroupName(theirs.group), theirs.execution));
      }
      if (theirs.has_payload != mine.has_payload || theirs.reduction != mine.reduction) {
        auto how = [](const Header& h) {
          return h.has_payload ? std::string("folds with its reduction region") : "reduces by MPI (" + h.reduction + ")";
        };
        return Status(StatusCode::kFailedPrecondition,
                      fmt::format("{}: {} {} while {} {}: the processes' reduction regions differ", what, Me(),
                                  how(mine), map_.Describe(rank), how(theirs)));
      }
      if (theirs.tensors.size() == mine.tensors.size() && mine.kind == MessageKind::kContribution) {
        for (size_t i = 0; i < mine.tensors.size(); ++i) {
          if (theirs.tensors[i].type != mine.tensors[i].type) {
            return Status(StatusCode::kInvalidArgument,
                          fmt::format("{}: {} contributes {} where {} contributes {}: the processes' shapes differ",
                                      what, map_.Describe(rank), TypesOf(theirs), Me(), TypesOf(mine)));
          }
        }
      }
      if (!(*it)->complete()) continue;
      got[rank] = std::move(*it);
      arrived.erase(it);
    }
    if (got.size() == members.size()) return true;
    VKHLO_RETURN_IF_ERROR(CheckAborted(key.op_name));
    for (int rank : members) {
      auto done = done_.find(rank);
      if (!heard.count(rank) && done != done_.end()) {
        return Status(StatusCode::kFailedPrecondition,
                      fmt::format("{} in {}: {} finished its part of the grid without reaching it", what, Me(),
                                  map_.Describe(rank)));
      }
    }
    return false;
  };
  auto timed_out = [&] {
    return Status(StatusCode::kDeadlineExceeded,
                  fmt::format("{} in {} waited {} ms for {} to reach it (a deadlock, a stuck rank, or processes that "
                              "run different collectives)",
                              what, Me(), timeout_.count(), missing()));
  };
  VKHLO_RETURN_IF_ERROR(WaitUntil(fmt::format("{} waiting in {} for {}", Me(), what, missing()), true, ready, timed_out));
  return got;
}

StatusOr<std::vector<Contribution>> MpiTransport::Exchange(const RendezvousKey& key, ProcessId self, Contribution mine) {
  if (!self_ || self != *self_) return InternalError(fmt::format("{} exchanges for another process", Me()));
  const int64_t execution = executions_[key]++;
  VKHLO_ASSIGN_OR_RETURN(Outgoing out, Pack(ContributionHeader(key, execution), mine));
  VKHLO_ASSIGN_OR_RETURN(auto got, Meet(key, out));
  std::map<int, Contribution> theirs;
  for (const auto& [rank, arrived] : got) {
    VKHLO_ASSIGN_OR_RETURN(theirs[rank], Unpack(*arrived));
  }
  std::vector<Contribution> all;
  for (const ProcessId& p : key.group) all.push_back(p == self ? mine : theirs.at(map_.RankOf(p)));
  return all;
}

Status MpiTransport::Send(std::string_view op_name, int64_t channel_id, Contribution values) {
  if (!self_) return InternalError(fmt::format("{} sends without a process", Me()));
  VKHLO_ASSIGN_OR_RETURN(Outgoing out, Pack(NewHeader(MessageKind::kChannelData, op_name, channel_id), values));
  VKHLO_RETURN_IF_ERROR(engine_.Poll());
  VKHLO_RETURN_IF_ERROR(Absorb());
  VKHLO_RETURN_IF_ERROR(CheckAborted(op_name));
  // Queued; Absorb ships it once (or as soon as) the channel's receiver is known.
  outbox_[channel_id].push_back(std::move(out));
  return Absorb();
}

StatusOr<Contribution> MpiTransport::Recv(std::string_view op_name, int64_t channel_id) {
  if (!self_) return InternalError(fmt::format("{} receives without a process", Me()));
  if (claimed_.insert(channel_id).second) {
    auto [known, inserted] = receiver_of_.emplace(channel_id, engine_.rank());
    if (!inserted && known->second != engine_.rank()) {
      return Status(StatusCode::kFailedPrecondition,
                    fmt::format("'{}' on channel {} in {}: {} receives that channel too; over MPI the values of a "
                                "channel go to one receiving process",
                                op_name, channel_id, Me(), map_.Describe(known->second)));
    }
    VKHLO_RETURN_IF_ERROR(Broadcast(NewHeader(MessageKind::kChannelClaim, op_name, channel_id)));
  }
  std::unique_ptr<Arrived> value;
  auto ready = [&]() -> StatusOr<bool> {
    auto& arrived = engine_.arrived();
    auto it = std::find_if(arrived.begin(), arrived.end(), [&](const std::unique_ptr<Arrived>& a) {
      return a->header.epoch == epoch_ && a->header.kind == MessageKind::kChannelData &&
             a->header.channel_id == channel_id;
    });
    if (it != arrived.end()) {
      if (!(*it)->complete()) return false;
      value = std::move(*it);
      arrived.erase(it);
      return true;
    }
    VKHLO_RETURN_IF_ERROR(CheckAborted(op_name));
    // Every other rank has finished, and none holds a value for this channel: none can come.
    bool pending = false;
    for (const auto& [rank, channels] : pending_of_) pending = pending || channels.count(channel_id);
    if (!pending && done_.size() + 1 >= static_cast<size_t>(engine_.size()) && !done_.count(engine_.rank())) {
      return Status(StatusCode::kFailedPrecondition,
                    fmt::format("'{}' in {} waits for a value on channel {}, but every other rank has finished "
                                "without sending one",
                                op_name, Me(), channel_id));
    }
    return false;
  };
  auto timed_out = [&] {
    return Status(StatusCode::kDeadlineExceeded,
                  fmt::format("'{}' in {} waited {} ms for a value on channel {} that no process sent", op_name, Me(),
                              timeout_.count(), channel_id));
  };
  VKHLO_RETURN_IF_ERROR(WaitUntil(fmt::format("{} waiting in '{}' for a value on channel {}", Me(), op_name, channel_id),
                                  true, ready, timed_out));
  return Unpack(*value);
}

void MpiTransport::Abort(ProcessId process, const Status& error) {
  (void)process;
  if (!local_error_) local_error_ = error;
}

Status MpiTransport::Finish(const Status& mine) {
  Header done = NewHeader(MessageKind::kDone);
  done.status_code = static_cast<int32_t>(mine.code());
  done.status_message = mine.message();
  done.secondary = !mine.ok() && failed_because_of_other_;
  for (const auto& [channel, values] : outbox_) done.pending_channels.push_back(channel);
  VKHLO_RETURN_IF_ERROR(Broadcast(done));
  done_[engine_.rank()] = mine;
  secondary_[engine_.rank()] = done.secondary;
  const size_t ranks = static_cast<size_t>(engine_.size());
  auto complete = [&] {
    if (done_.size() < ranks || engine_.pending_sends() > 0) return false;
    for (const auto& a : engine_.arrived()) {
      if (a->header.epoch <= epoch_ && !a->complete()) return false;
    }
    return true;
  };
  auto still_running = [&] {
    std::string out;
    for (int r = 0; r < engine_.size(); ++r) {
      if (!done_.count(r)) out += (out.empty() ? "" : ", ") + map_.Describe(r);
    }
    return out.empty() ? std::string("no rank (its sends did not complete)") : out;
  };
  // Like the end of the in-process grid, this waits for slower processes as long as they take
  // (they compute, or wait at most the timeout in a collective). Once a failure is known, the
  // others have the timeout to report theirs: one that does not is stuck outside vkhlo's waits.
  std::optional<Clock::time_point> deadline;
  Backoff backoff;
  Status waited;
  SetActivity(fmt::format("{} finished grid '{}', waiting for {} to finish", Me(), label_, still_running()));
  while (true) {
    waited = engine_.Poll();
    if (!waited.ok()) break;
    Absorb().IgnoreError();  // the run's errors are in done_; what remains is to hear every rank
    if (complete()) break;
    bool failure = !mine.ok();
    for (const auto& [rank, status] : done_) failure = failure || !status.ok();
    if (failure && !deadline) deadline = Clock::now() + timeout_;
    if (deadline && Clock::now() >= *deadline) {
      waited = mine.ok() ? Status(StatusCode::kDeadlineExceeded,
                                  fmt::format("{} finished grid '{}', but {} did not report within {} ms of a failure",
                                              Me(), label_, still_running(), timeout_.count()))
                         : Status(mine.code(), fmt::format("{}: {}", Me(), mine.message()));
      break;
    }
    backoff.Pause(engine_.busy());
  }
  outbox_.clear();  // values no process received, as the in-process grid drops them
  if (!waited.ok()) {
    resolved_ = false;
    SetActivity(fmt::format("{} giving up on grid '{}': {}", Me(), label_, waited.message()));
    return waited;
  }
  resolved_ = true;
  SetActivity(fmt::format("{} between grid runs", Me()));
  // The same outcome on every rank: first-hand failures before failures because of another.
  for (bool first_hand : {true, false}) {
    for (const auto& [rank, status] : done_) {
      if (status.ok() || (first_hand && secondary_[rank])) continue;
      return Status(status.code(), fmt::format("{}: {}", map_.Describe(rank), status.message()));
    }
  }
  return OkStatus();
}

}  // namespace vkhlo::runtime::mpi
