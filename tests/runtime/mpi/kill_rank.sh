#!/usr/bin/env bash
# kill_rank.sh RANK SECONDS COMMAND...: runs COMMAND as this MPI rank; on rank RANK it is killed
# (SIGKILL, as a crash or the OOM killer would) after SECONDS — a rank that dies mid-grid.
rank="$1" seconds="$2"
shift 2
me="${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}"
if [[ "$me" == "$rank" ]]; then
  (sleep "$seconds"; kill -KILL $$) &
fi
exec "$@"
