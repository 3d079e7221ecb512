// vkhlo-run over MPI (`mpirun -np N vkhlo-run --grid=mpi ...`): every rank runs the same
// command, and each process of a grid runs on the rank of its index (include/vkhlo/mpi.h).
//
// --check: interpreter.run_parallel grids run through RunGridOverMpi — this rank runs its own
// process, then every process's results are gathered to every rank, so the test function goes
// on identically everywhere (stages, checks). Only rank 0 prints.
// Without --check (RunSpmdOverMpi): one program, all ranks — @main (or --entry) runs as process
// (rank / P, rank % P) of a (size / P) x P grid (P: --num-partitions); inputs may name per-rank
// files or literals with {rank}, {replica} and {partition}; rank 0 prints each process's
// results under a "process (r, p):" line (or writes them to DIR/process_r_p/ with
// --output-dir).
#pragma once

#include <string>
#include <vector>

#include "vkhlo/mpi.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::tools {

// Runs `runs[i]` (all processes' runs; only this rank's is executed) over MPI and returns every
// process's results, as buffers on `client`.
StatusOr<std::vector<std::vector<Buffer>>> RunGridOverMpi(MpiSession& session, const ProcessGridOptions& grid,
                                                          const std::vector<ProcessRun>& runs, const std::string& label,
                                                          const Client& client);

// `text` with {rank}, {replica} and {partition} replaced by this rank's.
std::string SubstituteRank(std::string text, int rank, int64_t replica, int64_t partition);

}  // namespace vkhlo::tools
