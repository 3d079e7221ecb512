#!/bin/bash
# check_models.sh MODEL_DIR BUILD_DIR [MODEL...]: runs each model that tools/models/export_models.py
# wrote to MODEL_DIR (MODEL.mlir, its inputs MODEL.inI.npy and JAX's CPU outputs MODEL.outI.npy)
# through BUILD_DIR/bin/vkhlo-run with JAX's inputs and compares every output with JAX's, relative
# to the largest |JAX output| (f32 sums may be reordered: within 1e-4 of it is OK). Without MODEL
# names, every *.mlir of MODEL_DIR. Exits 1 if any model fails or mismatches.
#   PYTHON runs the comparison (numpy). Default: the .venv tools/install-deps.sh makes in this
#   checkout, else in the main checkout of this worktree, else python3.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 MODEL_DIR BUILD_DIR [MODEL...]" >&2
  exit 2
fi
dir=$(cd "$1" && pwd) || exit 2
build=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
common=$(git -C "$here" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
python=${PYTHON:-}
for candidate in "$here/.venv/bin/python" "${common%/.git}/.venv/bin/python" python3; do
  [ -n "$python" ] && break
  command -v "$candidate" > /dev/null && python=$candidate
done
run=$build/bin/vkhlo-run
[ -x "$run" ] || { echo "no $run" >&2; exit 2; }
if [ $# -gt 0 ]; then models="$*"; else models=$(cd "$dir" && ls *.mlir | sed 's/\.mlir$//'); fi
status=0
for m in $models; do
  out=$(mktemp -d)
  inputs=()
  for f in $(ls "$dir/$m".in*.npy 2>/dev/null | sort -V); do inputs+=(--input "$f"); done
  if ! "$run" "$dir/$m.mlir" "${inputs[@]}" --output-dir "$out" > "$out/log" 2>&1; then
    echo "$m: vkhlo-run FAILED"; tail -n 5 "$out/log"; status=1; rm -rf "$out"; continue
  fi
  "$python" - "$dir" "$m" "$out" <<'PY' || status=1
import os, sys
import numpy as np
d, m, o = sys.argv[1:4]
worst, i = 0.0, 0
while os.path.exists(f"{d}/{m}.out{i}.npy"):
    ref = np.load(f"{d}/{m}.out{i}.npy").astype(np.float64)
    got = np.load(f"{o}/result_{i}.npy").astype(np.float64)
    if ref.shape != got.shape:
        print(f"{m}: output {i} has shape {got.shape}, JAX's {ref.shape} MISMATCH")
        sys.exit(1)
    worst = max(worst, float(np.max(np.abs(ref - got), initial=0) / (np.max(np.abs(ref), initial=0) + 1e-30)))
    i += 1
ok = i > 0 and worst < 1e-4
print(f"{m}: {i} outputs, worst max|err|/max|ref| = {worst:.3g}", "OK" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
PY
  rm -rf "$out"
done
exit $status
