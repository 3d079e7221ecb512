#!/usr/bin/env bash
# Runs a command that is expected to fail in a particular way and checks what it says:
#   run_expecting.sh SECONDS 'text'... -- COMMAND...
# Passes when the command ends within SECONDS (it must not hang) and its output (stdout and
# stderr) contains every text (fixed strings, in any order: they come from different ranks).
set -uo pipefail
limit="$1"
shift
texts=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
  texts+=("$1")
  shift
done
shift
start=$(date +%s)
output=$(timeout --kill-after=5 "$limit" "$@" 2>&1)
status=$?
elapsed=$(($(date +%s) - start))
printf '%s\n' "$output"
echo "(exit status $status after ${elapsed} s)"
# (mpirun itself may exit 137 when a rank was killed: only the time tells a timeout.)
if [[ $elapsed -ge $limit ]]; then
  echo "FAILED: the command did not end within $limit s"
  exit 1
fi
missing=0
for text in "${texts[@]}"; do
  if ! grep -qF -- "$text" <<<"$output"; then
    echo "FAILED: the output does not say: $text"
    missing=1
  fi
done
exit $missing
