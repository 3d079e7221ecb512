#!/bin/sh
# Runs one of the plugin's JAX tests with the pinned jax environment's python, or says SKIPPED
# (ctest's skip expression) when that environment has not been made (tools/install-deps.sh).
# Usage: run_jax_test.sh PYTHON SCRIPT [ARGS...]
python="$1"
shift
if [ ! -x "$python" ]; then
  echo "SKIPPED: no python at $python (tools/install-deps.sh makes the pinned jax environment)"
  exit 0
fi
exec "$python" "$@"
