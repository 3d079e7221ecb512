// Process grids across processes and machines, over MPI: each MPI rank runs one process of a
// grid (process_grid.h) on a Vulkan device of its own, and the collectives, send/recv and
// replica/partition ids behave as in RunProcessGrid — the same results, bit for bit (the same
// fold in group order on the device; reductions whose order cannot matter, such as integer
// sums, by MPI_Allreduce). Launch the program with mpirun or srun, one rank per GPU:
//
//   auto session = vkhlo::MpiSession::Create();            // MPI_Init unless already done
//   auto client = (*session)->CreateClient();              // device: VKHLO_DEVICE or local rank
//   auto exe = (*client)->CompileStableHlo(program);       // the same program on every rank
//   vkhlo::ProcessGridOptions grid{.num_replicas = (*session)->size()};
//   auto results = (*session)->Run(grid, {**exe, {x}});    // this rank's process (rank, 0)
//
// Every rank of the session calls Run for every grid, in the same order (ranks the grid leaves
// out with an empty ProcessRun); its status is the grid's outcome, the same on every rank.
// Failures end every rank's run with an error naming the collective, its group and the rank:
// a process that fails (its error, ABORTED on the others), one that finishes without reaching
// a collective its group waits in, processes at different collectives, shapes that differ
// between ranks; no wait lasts longer than ProcessGridOptions::timeout. A rank that dies makes
// mpirun end the job; with `report_on_termination` each survivor first says what it waited for.
//
// Differences from the in-process grid: a process's feed queues are its own (there is no host
// queue shared by the grid); a channel's values go to one receiving process (the first to recv
// on it), and a send reaches it when the sender next enters a collective, send or recv, or ends
// its program (MPI's progress rule). Link vkhlo_mpi (built when CMake finds MPI).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "vkhlo/process_grid.h"
#include "vkhlo/runtime.h"
#include "vkhlo/status.h"

namespace vkhlo {

struct MpiSessionOptions {
  // On SIGTERM (mpirun ending the job because a rank died or failed), write to stderr what this
  // rank was doing: the collective, its group and the ranks it waited for. The handler that was
  // installed before runs after the report.
  bool report_on_termination = true;
};

// Which ranks run the processes of one grid.
struct MpiRunOptions {
  // Process i (row-major: replica i / num_partitions, partition i % num_partitions) runs on rank
  // process_ranks[i]. Empty: process i on rank i. Ranks left out take no process.
  std::vector<int> process_ranks;
  // Names the grid in messages ("grid <n>" when empty). Ranks compare it: they must run the
  // same grids in the same order.
  std::string label;
};

// What this rank's grids moved over MPI, since its session was created.
struct MpiStats {
  uint64_t messages_sent = 0;      // to other ranks (a message: a header and its payload)
  uint64_t bytes_sent = 0;         // payload bytes of those
  uint64_t messages_received = 0;
  uint64_t bytes_received = 0;
  uint64_t library_reductions = 0;  // reductions handed to MPI_Iallreduce (exact reducers)
  uint64_t library_reduction_bytes = 0;
};

class MpiSession {
 public:
  // Joins MPI: initializes it (MPI_THREAD_SERIALIZED) unless the application already has, and
  // duplicates MPI_COMM_WORLD (collective: every rank calls Create). UNAVAILABLE when this vkhlo
  // was built without MPI.
  static StatusOr<std::unique_ptr<MpiSession>> Create(const MpiSessionOptions& options = {});
  // Whether this vkhlo was built with MPI.
  static bool Available();

  // Finalizes MPI when Create initialized it — or, when a run's outcome was never reported by
  // some rank (healthy() is false: that rank may be stuck, and MPI_Finalize would wait for it),
  // ends the job with MPI_Abort.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const;
  int size() const;
  // This rank among the ranks on its machine (MPI_COMM_TYPE_SHARED), and their number.
  int local_rank() const;
  int local_size() const;
  std::string host_name() const;

  // This rank's client: `options.device` if set, else VKHLO_DEVICE if set, else Vulkan device
  // local_rank() % (devices present) — one GPU per rank on a machine with one per rank.
  StatusOr<std::shared_ptr<Client>> CreateClient(ClientOptions options = {}) const;

  // The process (row-major index) this rank runs in `grid`, or nullopt.
  StatusOr<std::optional<int64_t>> ProcessIndex(const ProcessGridOptions& grid, const MpiRunOptions& run = {}) const;

  // Runs this rank's process of `grid` (`mine`: its executable and arguments; ranks without a
  // process pass ProcessRun{}) and returns its results (none on ranks without a process).
  StatusOr<std::vector<Buffer>> Run(const ProcessGridOptions& grid, const ProcessRun& mine,
                                    const MpiRunOptions& run = {});

  // After Run: the results of every process of that grid, in process order, on every rank
  // (`mine`: what Run returned here). Every rank calls it.
  StatusOr<std::vector<std::vector<HostTensor>>> GatherResults(std::span<const Buffer> mine);

  MpiStats stats() const;
  bool healthy() const;
  // MPI_Abort: ends every rank of the job with `exit_code`.
  [[noreturn]] void Abort(int exit_code);

  struct State;

 private:
  explicit MpiSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace vkhlo
