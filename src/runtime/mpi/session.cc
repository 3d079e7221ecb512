// MpiSession (include/vkhlo/mpi.h): MPI set-up, the rank's device, and grid runs through an
// MpiTransport per run.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "runtime/execution.h"
#include "runtime/mpi/activity.h"
#include "runtime/mpi/engine.h"
#include "runtime/mpi/transport.h"
#include "support/env.h"
#include "vkhlo/mpi.h"

namespace vkhlo {

using runtime::mpi::Arrived;
using runtime::mpi::Backoff;
using runtime::mpi::Clock;
using runtime::mpi::Engine;
using runtime::mpi::GridMap;
using runtime::mpi::Header;
using runtime::mpi::MessageKind;
using runtime::mpi::MpiError;

struct MpiSession::State {
  bool initialized_mpi = false;
  std::unique_ptr<Engine> engine;
  int local_rank = 0;
  int local_size = 1;
  std::string host;
  uint64_t epoch = 0;
  bool healthy = true;
  // The last run, for GatherResults.
  bool ran = false;
  std::string label;
  GridMap map;
  std::chrono::milliseconds timeout{0};
};

namespace {

StatusOr<GridMap> MapGrid(const ProcessGridOptions& grid, const MpiRunOptions& run, int ranks) {
  if (grid.num_replicas <= 0 || grid.num_partitions <= 0) {
    return InvalidArgumentError(fmt::format("a process grid of {} x {}", grid.num_replicas, grid.num_partitions));
  }
  const int64_t count = grid.num_replicas * grid.num_partitions;
  GridMap map{grid.num_replicas, grid.num_partitions, {}};
  if (run.process_ranks.empty()) {
    if (count > ranks) {
      return InvalidArgumentError(fmt::format("a grid of {} replica(s) x {} partition(s) needs {} MPI ranks, and this "
                                              "job has {} (mpirun -np {})",
                                              grid.num_replicas, grid.num_partitions, count, ranks, count));
    }
    for (int64_t i = 0; i < count; ++i) map.rank_of.push_back(static_cast<int>(i));
    return map;
  }
  if (static_cast<int64_t>(run.process_ranks.size()) != count) {
    return InvalidArgumentError(fmt::format("process_ranks names {} ranks for a grid of {} processes",
                                            run.process_ranks.size(), count));
  }
  std::set<int> seen;
  for (int r : run.process_ranks) {
    if (r < 0 || r >= ranks) return InvalidArgumentError(fmt::format("process_ranks names rank {} of {}", r, ranks));
    if (!seen.insert(r).second) return InvalidArgumentError(fmt::format("process_ranks names rank {} twice", r));
  }
  map.rank_of = run.process_ranks;
  return map;
}

}  // namespace

bool MpiSession::Available() { return true; }

MpiSession::MpiSession(std::unique_ptr<State> state) : state_(std::move(state)) {}

StatusOr<std::unique_ptr<MpiSession>> MpiSession::Create(const MpiSessionOptions& options) {
  auto state = std::make_unique<State>();
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    const int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) return MpiError(rc, "MPI_Init_thread");
    state->initialized_mpi = true;
  }
  auto engine = Engine::Create(MPI_COMM_WORLD);
  if (!engine.ok()) return engine.status().WithContext("joining MPI_COMM_WORLD");
  state->engine = std::move(*engine);
  MPI_Comm node = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(state->engine->comm(), MPI_COMM_TYPE_SHARED, state->engine->rank(), MPI_INFO_NULL, &node);
  if (rc != MPI_SUCCESS) return MpiError(rc, "MPI_Comm_split_type");
  MPI_Comm_rank(node, &state->local_rank);
  MPI_Comm_size(node, &state->local_size);
  MPI_Comm_free(&node);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  if (MPI_Get_processor_name(name, &length) == MPI_SUCCESS) state->host.assign(name, static_cast<size_t>(length));
  if (options.report_on_termination) runtime::mpi::InstallTerminationReport();
  runtime::mpi::SetActivity(fmt::format("rank {} on {} before its first grid run", state->engine->rank(), state->host));
  return std::unique_ptr<MpiSession>(new MpiSession(std::move(state)));
}

MpiSession::~MpiSession() {
  if (!state_) return;
  const bool initialized = state_->initialized_mpi;
  if (!state_->healthy) {
    // A rank never reported the end of a run: MPI_Finalize would wait for it forever.
    MPI_Abort(state_->engine->comm(), 1);
  }
  state_->engine.reset();
  runtime::mpi::UninstallTerminationReport();
  if (initialized) MPI_Finalize();
}

int MpiSession::rank() const { return state_->engine->rank(); }
int MpiSession::size() const { return state_->engine->size(); }
int MpiSession::local_rank() const { return state_->local_rank; }
int MpiSession::local_size() const { return state_->local_size; }
std::string MpiSession::host_name() const { return state_->host; }
bool MpiSession::healthy() const { return state_->healthy; }
MpiStats MpiSession::stats() const { return state_->engine->stats(); }

void MpiSession::Abort(int exit_code) {
  MPI_Abort(state_->engine->comm(), exit_code);
  std::abort();  // MPI_Abort does not return; should an implementation's, the process still ends
}

StatusOr<std::shared_ptr<Client>> MpiSession::CreateClient(ClientOptions options) const {
  if (!options.device && !GetEnv("VKHLO_DEVICE")) {
    VKHLO_ASSIGN_OR_RETURN(int devices, CountVulkanDevices());
    if (devices == 0) return UnavailableError("no Vulkan device is present");
    options.device = std::to_string(state_->local_rank % devices);
  }
  auto client = Client::Create(options);
  if (!client.ok()) return client.status().WithContext(fmt::format("the client of rank {}", rank()));
  return std::shared_ptr<Client>(std::move(*client));
}

StatusOr<std::optional<int64_t>> MpiSession::ProcessIndex(const ProcessGridOptions& grid,
                                                          const MpiRunOptions& run) const {
  VKHLO_ASSIGN_OR_RETURN(GridMap map, MapGrid(grid, run, size()));
  for (size_t i = 0; i < map.rank_of.size(); ++i) {
    if (map.rank_of[i] == rank()) return std::optional<int64_t>(static_cast<int64_t>(i));
  }
  return std::optional<int64_t>();
}

StatusOr<std::vector<Buffer>> MpiSession::Run(const ProcessGridOptions& grid, const ProcessRun& mine,
                                              const MpiRunOptions& run) {
  VKHLO_ASSIGN_OR_RETURN(GridMap map, MapGrid(grid, run, size()));
  // Every rank counts runs alike, so the count tells one run's messages from the next's.
  const uint64_t epoch = ++state_->epoch;
  const std::string label = run.label.empty() ? fmt::format("grid {}", epoch) : run.label;
  const std::optional<runtime::ProcessId> self = map.ProcessOf(rank());
  std::shared_ptr<runtime::ClientState> client;
  Status status;
  if (self) {
    if (!mine.executable.state()) {
      status = InvalidArgumentError(fmt::format("rank {} runs process ({}, {}) of grid '{}' without an executable",
                                                rank(), self->replica, self->partition, label));
    } else {
      client = mine.executable.state()->client;
    }
  }
  runtime::mpi::MpiTransport transport(*state_->engine, epoch, label, map, self, client, grid.timeout);
  std::vector<Buffer> results;
  if (self && status.ok()) {
    runtime::mpi::SetActivity(fmt::format("{} running its program (grid '{}')", map.Describe(rank()), label));
    runtime::ProcessContext context;
    context.id = *self;
    context.num_replicas = grid.num_replicas;
    context.num_partitions = grid.num_partitions;
    context.transport = &transport;
    context.infeed = mine.infeed.get();
    context.outfeed = mine.outfeed.get();
    auto ran = runtime::RunProcess(mine, context);
    if (ran.ok()) {
      results = std::move(*ran);
    } else {
      status = ran.status();
    }
  }
  Status outcome = transport.Finish(status);
  state_->healthy = state_->healthy && transport.resolved();
  state_->ran = true;
  state_->label = label;
  state_->map = std::move(map);
  state_->timeout = grid.timeout;
  if (!outcome.ok()) return outcome;
  return results;
}

StatusOr<std::vector<std::vector<HostTensor>>> MpiSession::GatherResults(std::span<const Buffer> mine) {
  if (!state_->ran) return FailedPreconditionError("GatherResults before any Run");
  Engine& engine = *state_->engine;
  const GridMap& map = state_->map;
  std::vector<std::vector<HostTensor>> all(map.rank_of.size());
  const std::optional<runtime::ProcessId> self = map.ProcessOf(rank());
  if (self) {
    Header h;
    h.kind = MessageKind::kResults;
    h.epoch = state_->epoch;
    h.grid_label = state_->label;
    h.from = {self->replica, self->partition};
    std::vector<HostTensor>& own = all[static_cast<size_t>(self->replica * map.num_partitions + self->partition)];
    uint64_t total = 0;
    for (const Buffer& b : mine) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, b.ToHost());
      h.tensors.push_back({b.type(), total, bytes.size()});
      total += bytes.size();
      own.push_back(HostTensor{b.type(), std::move(bytes)});
    }
    std::shared_ptr<runtime::mpi::Payload> payload = engine.TakePayload(total);
    for (size_t i = 0; i < own.size(); ++i) {
      std::copy(own[i].bytes.begin(), own[i].bytes.end(), payload->data() + h.tensors[i].offset);
    }
    h.payload_bytes = total;
    for (int r = 0; r < size(); ++r) {
      if (r != rank()) VKHLO_RETURN_IF_ERROR(engine.Post(r, h, payload));
    }
  }
  std::set<int> waiting;
  for (int r : map.rank_of) {
    if (r != rank()) waiting.insert(r);
  }
  const auto deadline = Clock::now() + state_->timeout;
  Backoff backoff;
  while (!waiting.empty()) {
    VKHLO_RETURN_IF_ERROR(engine.Poll());
    auto& arrived = engine.arrived();
    for (auto it = arrived.begin(); it != arrived.end();) {
      const Arrived& a = **it;
      if (a.header.kind != MessageKind::kResults || a.header.epoch != state_->epoch || !waiting.count(a.source) ||
          !a.complete()) {
        ++it;
        continue;
      }
      if (a.header.grid_label != state_->label) {
        return FailedPreconditionError(fmt::format("{} gathers the results of grid '{}' while {} gathers grid '{}'",
                                                   map.Describe(a.source), a.header.grid_label, map.Describe(rank()),
                                                   state_->label));
      }
      const auto p = map.ProcessOf(a.source);
      std::vector<HostTensor>& into = all[static_cast<size_t>(p->replica * map.num_partitions + p->partition)];
      for (const auto& t : a.header.tensors) {
        const uint8_t* begin = a.payload->data() + t.offset;
        into.push_back(HostTensor{t.type, std::vector<uint8_t>(begin, begin + t.bytes)});
      }
      waiting.erase(a.source);
      it = arrived.erase(it);
    }
    if (waiting.empty()) break;
    if (Clock::now() >= deadline) {
      std::string missing;
      for (int r : waiting) missing += (missing.empty() ? "" : ", ") + map.Describe(r);
      state_->healthy = false;
      return Status(StatusCode::kDeadlineExceeded,
                    fmt::format("{} waited {} ms for the results of grid '{}' from {}", map.Describe(rank()),
                                state_->timeout.count(), state_->label, missing));
    }
    backoff.Pause(engine.busy());
  }
  return all;
}

}  // namespace vkhlo
