#!/usr/bin/env bash
# Serializes every conformance program with JAX's tooling (tools/bytecode/conformance_artifacts.py)
# for bytecode_conformance_test. Without the pinned jax/jaxlib environment it says why and skips.
#   make_conformance_artifacts.sh PYTHON CONFORMANCE_DIR OUT_DIR VKHLO_OPT
set -euo pipefail
python="$1" conformance="$2" out="$3" vkhlo_opt="$4"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
rm -f "$out/manifest.tsv"
if [[ ! -x "$python" ]] || ! "$python" -c "import jax" >/dev/null 2>&1; then
  echo "SKIPPED: no python with jax at $python; tools/install-deps.sh makes that environment (pinned jax/jaxlib)"
  exit 0
fi
if [[ ! -d "$conformance" ]]; then
  echo "SKIPPED: no conformance programs at $conformance"
  exit 0
fi
# JAX prints why it cannot serialize a program for an old version; the manifest records it.
exec "$python" "$root/tools/bytecode/conformance_artifacts.py" --conformance "$conformance" --out "$out" \
  --vkhlo-opt "$vkhlo_opt" 2> "$out.log"
