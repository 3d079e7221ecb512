// What this rank of an MPI grid is doing, kept where a signal handler can read it: when mpirun
// ends a job because another rank died, it sends SIGTERM to the survivors, and each of them
// then says which collective, group and ranks it was waiting for before it goes.
//
// SetActivity copies the text into one of two static buffers and publishes it with an atomic
// index, so the handler (async-signal-safe: write(2) only) never reads a half-written line.
#pragma once

#include <string_view>

namespace vkhlo::runtime::mpi {

// "process (0, 0) [rank 0] waiting in 'stablehlo.all_reduce' ... for process (1, 0) [rank 1]".
void SetActivity(std::string_view text);

// Installs the SIGTERM report (once per process). The previous handler runs after it (or the
// default action, which ends the process), so an application's own handling is kept.
void InstallTerminationReport();
// Puts the previous handler back (before MPI_Finalize: a rank that has finished cleanly and is
// ended while the others exit has nothing to report).
void UninstallTerminationReport();

}  // namespace vkhlo::runtime::mpi
