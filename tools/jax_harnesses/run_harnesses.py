#!/usr/bin/env python3
"""Differential test of vkhlo against JAX's own test harnesses (tooling, not part of the build).

Each harness of jax._src.internal_test_util.test_harnesses is lowered to StableHLO with its
arguments as parameters, run by `vkhlo-run` on the Vulkan device, and compared with JAX's CPU
result: integers and booleans exactly, floats within a tolerance of their width. Harnesses with
bf16 arguments or results are skipped (NumPy has no standard bf16 .npy type); the conformance
programs of ../shared/conformance cover bf16.

  pip install jax absl-py
  tools/jax_harnesses/run_harnesses.py --vkhlo-run build/bin/vkhlo-run --groups dot_general,fft
  tools/jax_harnesses/run_harnesses.py --vkhlo-run build/bin/vkhlo-run --groups ALL --every 5

Prints one line per failing harness (FAIL: wrong values, ERR: vkhlo-run failed), then counts.
Expected differences: unstable sorts (is_stable = false) may order equal keys differently from
XLA; LAPACK custom calls (JAX's CPU lowering of cholesky, qr, svd, eig, lu, ...) are not run.
"""
import argparse, os, subprocess, sys, tempfile
import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
from jax._src.internal_test_util import test_harnesses as th  # noqa: E402

TOLERANCE = {2: 2e-2, 4: 2e-4, 8: 1e-9}  # by float width in bytes (complex: per part)


def compare(got, want):
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if want.dtype.kind in "fc":
        tol = TOLERANCE[want.dtype.itemsize // (2 if want.dtype.kind == "c" else 1)]
        g, w = got.astype(np.complex128), want.astype(np.complex128)
        finite = np.abs(w[np.isfinite(w)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        bad = ~np.isclose(g, w, rtol=tol, atol=tol * scale, equal_nan=True)
    else:
        bad = got.astype(want.dtype) != want
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        return f"at {at}: {got[at]}, expected {want[at]} ({int(bad.sum())} of {bad.size} differ)"
    return None


def run_one(h, vkhlo_run, work):
    args = [np.asarray(a) for a in h.dyn_args_maker(np.random.RandomState(0))]
    fun = jax.jit(h.dyn_fun)
    text = fun.lower(*args).as_text()
    want = [np.asarray(w) for w in jax.tree_util.tree_leaves(fun(*args))]
    if any(str(x.dtype) == "bfloat16" for x in args + want):
        return "skip", None
    with open(os.path.join(work, "p.mlir"), "w") as f:
        f.write(text)
    cmd = [vkhlo_run, os.path.join(work, "p.mlir"), "--output-dir", os.path.join(work, "out")]
    for i, a in enumerate(args):
        path = os.path.join(work, f"in{i}.npy")
        np.save(path, a)
        cmd += ["--input", path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return "err", (p.stderr or p.stdout).strip().replace("\n", " ")[:300]
    for i, w in enumerate(want):
        why = compare(np.load(os.path.join(work, "out", f"result_{i}.npy")), w)
        if why:
            return "fail", f"result {i} {why}"
    return "pass", None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vkhlo-run", required=True)
    ap.add_argument("--groups", default="ALL", help="comma-separated harness groups, or ALL")
    ap.add_argument("--every", type=int, default=1, help="run every n-th harness")
    o = ap.parse_args()
    groups = set(o.groups.split(","))
    harnesses = [h for h in th.all_harnesses if "ALL" in groups or h.group_name in groups][:: o.every]
    counts = {"pass": 0, "fail": 0, "err": 0, "skip": 0}
    for h in harnesses:
        with tempfile.TemporaryDirectory() as work:
            try:
                outcome, why = run_one(h, os.path.abspath(o.vkhlo_run), work)
            except Exception as e:  # a harness JAX itself cannot lower or run here
                outcome, why = "skip", str(e)
        counts[outcome] += 1
        if outcome in ("fail", "err"):
            print(outcome.upper(), h.fullname, "|", why, flush=True)
    print(counts)
    return 1 if counts["fail"] or counts["err"] else 0


if __name__ == "__main__":
    sys.exit(main())
