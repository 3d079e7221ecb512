// Grid runs from the tests that run under mpirun: the same random inputs on every rank, a grid
// over MPI (this rank's process) beside the in-process grid (RunProcessGrid, every process a
// thread of this rank), and their results compared bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "ir/literal.h"
#include "vkhlo/mpi.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::mpitest {

void SetSession(MpiSession* session);
MpiSession& Session();
// This rank's client (MpiSession::CreateClient), made once.
const Client& RankClient();
bool MobileProfile();

struct GridCase {
  int64_t replicas = 1, partitions = 1;
  // Modules defining func.func @proc: one for every process, or one per process (row-major).
  std::vector<std::string> programs;
  std::vector<int> process_ranks;  // MpiRunOptions::process_ranks
  std::chrono::milliseconds timeout = std::chrono::seconds(30);
  std::string label;
};

// Per process, @proc's arguments: random elements (seeded alike on every rank).
std::vector<std::vector<ir::Literal>> RandomInputs(const GridCase& c, uint64_t seed);

struct MpiOutcome {
  Status status;                                // the grid's outcome (the same on every rank)
  std::vector<std::vector<ir::Literal>> results;  // every process's, when it succeeded
  double wall_ms = 0;
};
// Runs `c` over MPI; every rank calls it. A rank whose program does not compile still takes part
// (with no process run), so every rank learns the outcome; its own outcome is then that error.
MpiOutcome RunOverMpi(const GridCase& c, const std::vector<std::vector<ir::Literal>>& inputs);
// Runs `c` as an in-process grid on RankClient().
StatusOr<std::vector<std::vector<ir::Literal>>> RunInProcess(const GridCase& c,
                                                             const std::vector<std::vector<ir::Literal>>& inputs);

// Runs `c` over MPI on random inputs and, on rank 0, in-process; expects both to succeed with
// the same bits (NaNs alike).
void ExpectSameAsInProcess(const GridCase& c, uint64_t seed);

// A reduction region of `op` ("stablehlo.add") on tensor<scalar>.
std::string Reducer(const std::string& scalar, const std::string& op);

}  // namespace vkhlo::mpitest
