// The MPI side of an MPI process grid: one communicator (a duplicate of the session's, so no
// message of the application's can be mistaken for one of ours), non-blocking sends of headers
// and payloads, and the reception of everything that arrives into a list the transport reads.
//
// Everything here runs on the one thread that runs this rank's process (MPI_THREAD_SERIALIZED
// is enough) and makes progress only when called: the transport polls while it waits, which is
// MPI's own progress rule. Nothing blocks: headers are matched with MPI_Improbe, payloads arrive
// through MPI_Irecv into buffers sized from the header, sends are MPI_Isend kept until they
// complete. Every rank receives every message addressed to it as soon as it polls, whatever
// it is waiting for, so senders never wait on a receiver that is busy elsewhere in the grid.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <vector>

#include "runtime/mpi/payload.h"
#include "runtime/mpi/wire.h"
#include "vkhlo/mpi.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime::mpi {

using Clock = std::chrono::steady_clock;

// A message that has arrived: its header at once, its payload when `complete()`.
struct Arrived {
  int source = 0;  // the sending rank
  Header header;
  std::shared_ptr<Payload> payload;
  std::vector<MPI_Request> pending;  // payload chunks still in flight
  bool complete() const { return pending.empty(); }
};

class Engine {
 public:
  // Duplicates `parent` (collective over it) and makes its errors return codes.
  static StatusOr<std::unique_ptr<Engine>> Create(MPI_Comm parent);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }
  // Payloads go as data messages of at most this many bytes (VKHLO_MPI_CHUNK_BYTES, default
  // 1 GiB: MPI counts are ints).
  uint64_t chunk_bytes() const { return chunk_bytes_; }

  // Sends `header` and `payload` (header.payload_bytes of it; shared so that one download serves
  // every destination) to rank `dest`. To itself a message is delivered at once.
  Status Post(int dest, Header header, std::shared_ptr<const Payload> payload);
  // Receives the headers that have arrived, starts their payloads, completes finished transfers.
  Status Poll();
  // What arrived, in order of arrival; per source, the order it was sent. Readers erase what
  // they consume.
  std::list<std::unique_ptr<Arrived>>& arrived() { return arrived_; }
  size_t pending_sends() const { return sends_.size(); }
  // Whether data is in flight (sends not complete, payloads still arriving): MPI moves it only
  // while this rank polls, so waits then poll without sleeping.
  bool busy() const;
  const MpiStats& stats() const { return stats_; }
  // Host buffers for payloads (reused).
  std::shared_ptr<Payload> TakePayload(size_t bytes) { return payloads_.Take(bytes); }
  void CountLibraryReduction(uint64_t bytes) {
    stats_.library_reductions++;
    stats_.library_reduction_bytes += bytes;
  }

  // A communicator of `ranks` (ascending ranks of comm()) for MPI's own collectives, made once:
  // MPI_Comm_create_group, collective over those ranks only — callers first meet them through
  // headers, so every one of them is there.
  StatusOr<MPI_Comm> GroupComm(const std::vector<int>& ranks);

 private:
  Engine() = default;
  struct PendingSend {
    int dest = 0;
    std::vector<uint8_t> header;
    std::shared_ptr<const Payload> payload;
    std::vector<MPI_Request> requests;
  };

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  uint64_t chunk_bytes_ = uint64_t{1} << 30;
  std::list<std::unique_ptr<Arrived>> arrived_;
  std::list<PendingSend> sends_;
  std::map<std::vector<int>, MPI_Comm> group_comms_;
  MpiStats stats_;
  PayloadPool payloads_;
};

// "MPI_Isend to rank 3: <MPI's error string>" for a failed call.
Status MpiError(int code, std::string_view what);

// Pauses between polls: yields for the first 2 ms of a wait (a message is often a moment away,
// and a yield hands the core to a rank that has work), then sleeps growing to a millisecond, so
// that ranks waiting long leave the cores to those that work.
class Backoff {
 public:
  // `busy`: data is in flight (Engine::busy): yield only, and start the backoff afresh.
  void Pause(bool busy = false);

 private:
  Clock::time_point since_ = Clock::now();
  int sleeps_ = 0;
};

}  // namespace vkhlo::runtime::mpi
