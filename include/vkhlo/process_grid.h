// Running executables over a StableHLO process grid: num_replicas x num_partitions processes,
// each executing its own Executable (usually the same program) with its own arguments, on its
// own thread and command lists, meeting at collectives.
//
// Where a process runs is where its executable was compiled: processes whose executables share
// a Client share that client's device and queue; CreateProcessClients gives each process a
// client of its own — a logical device with a queue of its own on one physical device, or the
// processes spread over every Vulkan device present. Tensors move between processes of one
// device by device copies and between devices through host memory (the runtime picks per pair),
// and an argument living on another client than its process's executable is copied over first.
//
//   vkhlo::ProcessGridOptions grid{.num_replicas = 2, .num_partitions = 1};
//   std::vector<vkhlo::ProcessRun> runs(2);
//   runs[0] = {exe, {x0}};   runs[1] = {exe, {x1}};    // row-major: (replica, partition)
//   auto results = vkhlo::RunProcessGrid(grid, runs);  // results[i]: process i's results
//
// In a process, `replica_id` / `partition_id` are the process's coordinates (device values, one
// small buffer per process). Collectives (all_gather, all_reduce, reduce_scatter,
// collective_reduce, all_to_all, collective_permute, collective_broadcast) and send/recv follow
// the StableHLO spec and the reference interpreter (interpreter.run_parallel): the process
// groups of each op's strategy, reductions folded in group order with the op's region on the
// device (so results are deterministic), send/recv as FIFO channels by channel id. A collective
// is a rendezvous: every process of the group must reach it; a process that fails makes the
// others stop waiting (ABORTED), and no wait lasts longer than `timeout` (DEADLINE_EXCEEDED).
//
// infeed / outfeed (and send/recv with is_host_transfer outside a grid) use the feed queues of
// the process: an entry is the list of tensors one infeed takes or one outfeed gives, in program
// order (tokens order them). Processes may share a queue object (the interpreter's semantics:
// one host queue for the whole grid) or have their own.
//
// Executable::Execute is the 1 x 1 grid without feeds. No Vulkan header is needed.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "vkhlo/runtime.h"
#include "vkhlo/status.h"

namespace vkhlo {

// A tensor in host memory: storage-layout bytes as Client::BufferFromHost takes them.
struct HostTensor {
  TensorType type;
  std::vector<uint8_t> bytes;
};

// A thread-safe FIFO of feed entries (one entry: the tensors of one infeed or outfeed).
class FeedQueue {
 public:
  void Push(std::vector<HostTensor> entry);
  // The oldest entry, or nullopt when the queue is empty (an infeed on an empty queue fails).
  std::optional<std::vector<HostTensor>> Pop();
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::vector<HostTensor>> entries_;
};
using InfeedQueue = FeedQueue;
using OutfeedQueue = FeedQueue;

// One process of a grid. Token parameters of the entry function take no argument: `arguments`
// are its tensor parameters in order. Results are the tensor results (tuples flattened, tokens
// dropped), as Execute returns them.
struct ProcessRun {
  Executable executable;
  std::vector<Buffer> arguments;
  std::shared_ptr<InfeedQueue> infeed;    // null: an infeed in this process fails
  std::shared_ptr<OutfeedQueue> outfeed;  // null: an outfeed in this process fails
};

struct ProcessGridOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  // The longest a process waits at a collective or a recv.
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
};

// Where CreateProcessClients puts the processes of a grid.
enum class ProcessPlacement {
  kShared,           // one client for all: one device, one queue
  kQueuePerProcess,  // a client per process, each a logical device (with its queue) on the
                     // device `options` select
  kSpreadDevices,    // a client per process; process i on Vulkan device i % (devices present)
};

// `processes` clients for the processes of a grid, in process order (kShared: the same client
// `processes` times). Compile each process's program on its client.
StatusOr<std::vector<std::shared_ptr<Client>>> CreateProcessClients(int64_t processes, ProcessPlacement placement,
                                                                     const ClientOptions& options = {});

// The number of Vulkan devices present (what VKHLO_DEVICE / ClientOptions::device index).
StatusOr<int> CountVulkanDevices();

// Runs `processes` (num_replicas * num_partitions of them, row-major: process i is replica
// i / num_partitions, partition i % num_partitions) concurrently and returns each one's results.
// Fails with the first failing process's error, naming it.
StatusOr<std::vector<std::vector<Buffer>>> RunProcessGrid(const ProcessGridOptions& options,
                                                          std::span<const ProcessRun> processes);

}  // namespace vkhlo
