#!/usr/bin/env bash
# Runs a conformance file's chunks on the in-process grid and over MPI, and fails unless both
# print the same lines (PASS/FAIL per test function with its message, printed values, the
# summary). Over MPI only rank 0 prints, so the outputs compare line for line.
#   compare_with_in_process.sh VKHLO_RUN MPIEXEC RANKS FILE
# (more ranks than cores: OMPI_MCA_rmaps_base_oversubscribe=1 in the environment, as ctest sets)
set -euo pipefail
run="$1" mpiexec="$2" ranks="$3" file="$4"
in_process=$("$run" --check --split-input-file "$file" 2>&1 || true)
over_mpi=$("$mpiexec" -n "$ranks" "$run" --grid=mpi --check --split-input-file "$file" 2>&1 || true)
# mpirun's own notes on a non-zero exit (expected under the mobile profile's failures), boxed
# in lines of dashes, are not vkhlo's output.
over_mpi=$(printf '%s\n' "$over_mpi" | awk '/^-------------------+$/ { boxed = !boxed; next } !boxed && NF')
in_process=$(printf '%s\n' "$in_process" | awk 'NF')
if [[ "$in_process" != "$over_mpi" ]]; then
  echo "in-process and MPI ($ranks ranks) outcomes differ for $file:"
  diff <(printf '%s\n' "$in_process") <(printf '%s\n' "$over_mpi") || true
  exit 1
fi
printf '%s\n' "$over_mpi"
echo "same outcome in-process and over MPI ($ranks ranks): $(printf '%s\n' "$over_mpi" | tail -1)"
