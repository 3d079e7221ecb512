#!/usr/bin/env python3
"""Times the models tools/models/export_models.py exported, on vkhlo and beside it, in one run.

  .venv/bin/python tools/models/bench_models.py MODEL_DIR BUILD_DIR [options]

For each model MODEL_DIR/NAME.mlir (inputs NAME.inI.npy, FLOPs in NAME.flops), in several
rounds, the backends interleaved (round r times every model on every backend before round r+1,
so a noisy neighbour slows all of them alike):

  vkhlo      BUILD_DIR/bin/vkhlo-bench NAME.mlir --repeat R --warmup W: the median per call of
             a warm process (kernels from the on-disk caches); its per-execution line gives the
             kernels and command buffers (submissions)
  jax-cpu    jax.jit of the function export_models.py built the .mlir from, on JAX's inputs,
             warm, each call ended by block_until_ready (needs the jax venv: tools/install-deps.sh)
  iree-vk    iree-benchmark-module --device=vulkan on iree-compile --iree-hal-target-device=vulkan
  iree-cpu   iree-benchmark-module --device=local-task on llvm-cpu (--iree-llvmcpu-target-cpu=host)
  vkhlo-base the same with --baseline-build DIR's vkhlo-bench (another build, e.g. main's, to
             compare a change with in the same run)
  sgemm      BUILD_DIR/bin/vkhlo-library-bench's BM_Sgemm/1024 (else the baseline's) once a round: vkhlo's 1024^3
             SGEMM rate, the yardstick of issue 24 item 4 ("time within 2x of the model's FLOPs
             at that rate"): the table's "x SGEMM bound" is time / (FLOPs / rate), with the
             rates' median; "round by round" divides each round's time by that round's bound

and once, before the rounds, the time to first result with nothing cached:
  vkhlo      a fresh vkhlo-run process on JAX's inputs with XDG_CACHE_HOME (vkhlo's SPIR-V and
             pipeline caches, and Mesa's shader cache) in an empty temporary folder
  iree-*     iree-compile, then iree-run-module, the same empty cache folder
  jax-cpu    jax.jit's first call (trace, XLA compile, run) in this process

IREE is optional tooling, kept out of the jax venv: --iree-venv DIR names a venv with
tools/models/requirements-iree.txt installed (made with --make-iree-venv DIR); without one the
IREE columns are left out. Writes a Markdown table to stdout and, with --json, every number.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def model_files(folder, name):
    inputs, i = [], 0
    while os.path.exists(os.path.join(folder, f"{name}.in{i}.npy")):
        inputs.append(os.path.join(folder, f"{name}.in{i}.npy"))
        i += 1
    with open(os.path.join(folder, f"{name}.flops")) as f:
        flops = int(f.read().split()[0])
    return os.path.join(folder, f"{name}.mlir"), inputs, flops


def run(cmd, env=None, timeout=1800):
    """Runs cmd; returns (seconds, stdout). Raises with its output when it fails."""
    start = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-3000:]}")
    return seconds, p.stdout


def cold_env(folder):
    """The environment of a process with nothing cached: vkhlo's caches and Mesa's in `folder`."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = folder
    env["MESA_SHADER_CACHE_DIR"] = os.path.join(folder, "mesa_shader_cache")
    return env


# --- vkhlo ---------------------------------------------------------------------------------

def vkhlo_warm(build, mlir, repeat, warmup):
    _, out = run([os.path.join(build, "bin", "vkhlo-bench"), mlir, "--repeat", str(repeat), "--warmup", str(warmup)])
    ms = float(re.search(r"median_ms=([0-9.]+)", out).group(1))
    per = re.search(r"per execution: (\d+) kernels, (\d+) command buffers", out)
    return ms, {"kernels": int(per.group(1)), "submissions": int(per.group(2))}


def vkhlo_cold(build, mlir, inputs):
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        cmd = [os.path.join(build, "bin", "vkhlo-run"), mlir, "--output-dir", out]
        for i in inputs:
            cmd += ["--input", i]
        seconds, _ = run(cmd, env=cold_env(cache))
    return seconds


def sgemm_gflops(build):
    _, out = run([os.path.join(build, "bin", "vkhlo-library-bench"), "--benchmark_filter=^BM_Sgemm/1024/",
                  "--benchmark_format=json"])
    data = json.loads(out[out.index("{"):])
    return float(data["benchmarks"][0]["GFLOPS"])


# --- JAX's CPU backend ------------------------------------------------------------------------

class Jax:
    """The functions export_models.py lowered, matched to each model's inputs by name and shapes."""

    def __init__(self):
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
        import jax
        import jax.numpy as jnp
        sys.path.insert(0, HERE)
        import export_models
        self.jax = jax
        self.builds = {small: export_models.build(jax, jnp, small) for small in (False, True)}
        self.jitted = {}

    def _function(self, name, args):
        for built in self.builds.values():
            if name in built:
                fn, fargs, _ = built[name]
                if [tuple(getattr(a, "shape", ())) for a in fargs] == [a.shape for a in args]:
                    return fn
        raise RuntimeError(f"{name}: no function of export_models.py takes these inputs")

    def first_result(self, name, args):
        """Seconds from jax.jit to the first result (trace, compile, run); keeps the jitted function."""
        fn = self._function(name, args)
        start = time.perf_counter()
        jitted = self.jax.jit(fn)
        self.jax.block_until_ready(jitted(*args))
        seconds = time.perf_counter() - start
        self.jitted[name] = jitted
        return seconds

    def warm(self, name, args, repeat, warmup):
        jitted = self.jitted[name]
        for _ in range(warmup):
            self.jax.block_until_ready(jitted(*args))
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            self.jax.block_until_ready(jitted(*args))
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)


# --- IREE --------------------------------------------------------------------------------------

IREE_TARGETS = {
    "iree-vk": (["--iree-hal-target-device=vulkan"], "vulkan"),
    "iree-cpu": (["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
                  "--iree-llvmcpu-target-cpu=host"], "local-task"),
}


def iree_compile(venv, backend, mlir, vmfb, env=None):
    flags, _ = IREE_TARGETS[backend]
    seconds, _ = run([os.path.join(venv, "bin", "iree-compile"), mlir, *flags, "-o", vmfb], env=env)
    return seconds


def iree_inputs(inputs):
    return [f"--input=@{i}" for i in inputs]


def iree_first_run(venv, backend, vmfb, inputs, env):
    """Seconds of a fresh iree-run-module: module load, the driver's shader compiles, one call
    (the results printed, a few elements each)."""
    device = IREE_TARGETS[backend][1]
    seconds, _ = run([os.path.join(venv, "bin", "iree-run-module"), f"--module={vmfb}", f"--device={device}",
                      "--function=main", *iree_inputs(inputs)], env=env)
    return seconds


def iree_warm(venv, backend, vmfb, inputs, repetitions):
    """Median per call over `repetitions` benchmark repetitions, the first (pipelines made,
    shaders compiled by the driver) dropped."""
    device = IREE_TARGETS[backend][1]
    _, out = run([os.path.join(venv, "bin", "iree-benchmark-module"), f"--module={vmfb}", f"--device={device}",
                  "--function=main", *iree_inputs(inputs), f"--benchmark_repetitions={repetitions + 1}",
                  "--benchmark_format=json"])
    data = json.loads(out[out.index("{"):])
    times = [b["real_time"] for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    assert all(b["time_unit"] == "ms" for b in data["benchmarks"])
    return statistics.median(times[1:])


def commit(build):
    """The commit of the checkout a build directory belongs to (its CMake source directory)."""
    source = os.path.dirname(os.path.abspath(build))
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    source = line.split("=", 1)[1].strip()
    except OSError:
        pass
    p = subprocess.run(["git", "-C", source, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() or "unknown"


def built(build):
    """When the build's vkhlo-bench and vkhlo-run were linked (its checkout may be newer)."""
    times = []
    for tool in ("vkhlo-bench", "vkhlo-run"):
        t = os.path.getmtime(os.path.join(build, "bin", tool))
        when = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
        times.append(f"{tool} {when:%Y-%m-%d %H:%M} UTC")
    return ", ".join(times)


def label(build):
    """A build's name in the table: its checkout's folder (main, wt-bench, ...)."""
    return os.path.basename(os.path.dirname(os.path.abspath(build)))


def make_iree_venv(folder):
    subprocess.run([sys.executable, "-m", "venv", folder], check=True)
    subprocess.run([os.path.join(folder, "bin", "pip"), "install", "-r", os.path.join(HERE, "requirements-iree.txt")],
                   check=True)


# --- the table ---------------------------------------------------------------------------------

def spread(values, unit="", digits=1):
    if not values:
        return "failed"
    m, lo, hi = statistics.median(values), min(values), max(values)
    return f"{m:.{digits}f}{unit} ({lo:.{digits}f}-{hi:.{digits}f})"


def markdown(results, backends, rounds):
    rate = statistics.median(results["sgemm_gflops"])
    lines = [f"{results['date']}: vkhlo {results['build']} at {results['commit']} (binaries of {results['built']})"
             + (f", {results['baseline_build']} at {results['baseline_commit']} (binaries of {results['baseline_built']})"
                if results["baseline_build"] else "")
             + ".", "",
             f"vkhlo's 1024^3 SGEMM in the same run: {spread(results['sgemm_gflops'])} GFLOP/s "
             f"(median, range over {rounds} rounds).", "",
             "Warm time per call, ms: median (range) of the rounds' medians.", ""]
    names = {"vkhlo": f"vkhlo ({label(results['build'])})", "jax-cpu": "JAX CPU", "iree-vk": "IREE Vulkan",
             "iree-cpu": "IREE CPU"}
    if results["baseline_build"]:
        names["vkhlo-base"] = f"vkhlo ({label(results['baseline_build'])})"
    head = ["model", "MFLOP"] + [names[b] for b in backends] + ["kernels / submissions", "x SGEMM bound",
                                                                "x bound, round by round"]
    head += [f"{names['vkhlo']} / {names[b]}" for b in backends if b != "vkhlo"]
    if "vkhlo-base" in backends:
        head.append("rounds faster than the baseline")
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in results["models"].items():
        vk = statistics.median(r["vkhlo"])
        bound_ms = r["flops"] / (rate * 1e9) * 1e3
        row = [name, f"{r['flops'] / 1e6:.0f}"] + [spread(r[b]) for b in backends]
        counts = f"{r['kernels']} / {r['submissions']}"
        if "vkhlo-base" in backends:
            counts += f" ({label(results['baseline_build'])}: {r['base_kernels']} / {r['base_submissions']})"
        # Each round's time over that round's own SGEMM bound: a noisy neighbour slows the
        # round's SGEMM and models alike, so this spreads less than the ratio of medians.
        by_round = [t / (r["flops"] / (g * 1e9) * 1e3) for t, g in zip(r["vkhlo"], results["sgemm_gflops"])]
        same = len(r["vkhlo"]) == len(results["sgemm_gflops"])
        row += [counts, f"{vk / bound_ms:.1f}", spread(by_round, digits=2) if same else "-"]
        row += [f"{vk / statistics.median(r[b]):.2f}" if r[b] else "-" for b in backends if b != "vkhlo"]
        if "vkhlo-base" in backends:
            pairs = list(zip(r["vkhlo"], r["vkhlo-base"]))
            row.append(f"{sum(m < b for m, b in pairs)} of {len(pairs)}" if pairs else "-")
        lines.append("| " + " | ".join(row) + " |")
    if not any(r["cold"] for r in results["models"].values()):
        return "\n".join(lines)
    lines += ["", "Time to first result with nothing cached, s (vkhlo: a fresh vkhlo-run with empty caches; "
              "IREE: iree-compile + iree-run-module, empty Mesa cache; JAX: jax.jit's first call).", ""]
    head = ["model"] + [names[b] for b in backends]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in results["models"].items():
        row = [name]
        for b in backends:
            c = r["cold"].get(b)
            if c is None:
                row.append("-")
            elif isinstance(c, dict):
                row.append(f"{c['compile'] + c['run']:.1f} ({c['compile']:.1f} + {c['run']:.1f})")
            else:
                row.append(f"{c:.1f}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model_dir", nargs="?")
    p.add_argument("build_dir", nargs="?")
    p.add_argument("--models", nargs="*", help="names (default: every .mlir of MODEL_DIR with a .flops)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repeat", type=int, default=5, help="timed calls per round (vkhlo, JAX)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls first, each round (vkhlo, JAX)")
    p.add_argument("--iree-reps", type=int, default=3, help="iree-benchmark-module repetitions per round")
    p.add_argument("--baseline-build", help="another build's vkhlo-bench, timed in the same rounds (a column of its own)")
    p.add_argument("--iree-venv", help="a venv with requirements-iree.txt installed (else no IREE columns)")
    p.add_argument("--make-iree-venv", metavar="DIR", help="create that venv (pip install -r requirements-iree.txt) and exit")
    p.add_argument("--no-cold", action="store_true", help="skip the times to first result")
    p.add_argument("--no-jax", action="store_true")
    p.add_argument("--json", help="write every measurement there")
    a = p.parse_args()
    if a.make_iree_venv:
        make_iree_venv(a.make_iree_venv)
        return 0
    if not a.model_dir or not a.build_dir:
        p.error("MODEL_DIR and BUILD_DIR are required")
    import numpy as np  # the jax venv's (here only --make-iree-venv runs without it)
    names = a.models or sorted(f[:-5] for f in os.listdir(a.model_dir)
                               if f.endswith(".mlir") and os.path.exists(os.path.join(a.model_dir, f[:-5] + ".flops")))
    backends = (["vkhlo"] + (["vkhlo-base"] if a.baseline_build else []) + ([] if a.no_jax else ["jax-cpu"])
                + (["iree-vk", "iree-cpu"] if a.iree_venv else []))
    # The SGEMM yardstick from the build that has the library benchmark (VKHLO_BUILD_BENCHMARKS).
    sgemm_build = next((b for b in (a.build_dir, a.baseline_build)
                        if b and os.path.exists(os.path.join(b, "bin", "vkhlo-library-bench"))), None)
    if sgemm_build is None:
        p.error("neither build has bin/vkhlo-library-bench (configure with -DVKHLO_BUILD_BENCHMARKS=ON)")
    jax = None if a.no_jax else Jax()
    work = tempfile.mkdtemp(prefix="vkhlo-bench-models-")
    results = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
               "build": os.path.abspath(a.build_dir), "commit": commit(a.build_dir),
               "baseline_build": a.baseline_build and os.path.abspath(a.baseline_build),
               "baseline_commit": a.baseline_build and commit(a.baseline_build),
               "built": built(a.build_dir), "baseline_built": a.baseline_build and built(a.baseline_build),
               "sgemm_gflops": [], "models": {}}
    try:
        for name in names:
            mlir, inputs, flops = model_files(a.model_dir, name)
            r = {"flops": flops, "cold": {}, "vmfb": {}}
            r.update({b: [] for b in backends})
            args = [np.load(i) for i in inputs]
            r["args"] = args
            if not a.no_cold:
                r["cold"]["vkhlo"] = vkhlo_cold(a.build_dir, mlir, inputs)
                if a.baseline_build:
                    r["cold"]["vkhlo-base"] = vkhlo_cold(a.baseline_build, mlir, inputs)
            if jax:
                first = jax.first_result(name, args)
                if not a.no_cold:
                    r["cold"]["jax-cpu"] = first
            for b in backends:
                if not b.startswith("iree"):
                    continue
                vmfb = os.path.join(work, f"{name}.{b}.vmfb")
                try:  # IREE may not take every program: its columns say so, the rest goes on
                    with tempfile.TemporaryDirectory() as cache:
                        env = cold_env(cache)
                        compile_s = iree_compile(a.iree_venv, b, mlir, vmfb, env)
                        run_s = None if a.no_cold else iree_first_run(a.iree_venv, b, vmfb, inputs, env)
                except RuntimeError as e:
                    print(f"# {name}: {b} failed: {e}", file=sys.stderr)
                    continue
                if run_s is not None:
                    r["cold"][b] = {"compile": compile_s, "run": run_s}
                r["vmfb"][b] = vmfb
            results["models"][name] = r
            print(f"# {name}: ready (cold: {r['cold']})", file=sys.stderr)
        for rnd in range(a.rounds):
            results["sgemm_gflops"].append(sgemm_gflops(sgemm_build))
            for name in names:
                r = results["models"][name]
                mlir, inputs, _ = model_files(a.model_dir, name)
                # The order of the backends turns each round.
                order = backends[rnd % len(backends):] + backends[:rnd % len(backends)]
                for b in order:
                    if b == "vkhlo":
                        ms, counts = vkhlo_warm(a.build_dir, mlir, a.repeat, a.warmup)
                        r.update(counts)
                    elif b == "vkhlo-base":
                        ms, counts = vkhlo_warm(a.baseline_build, mlir, a.repeat, a.warmup)
                        r.update({"base_" + k: v for k, v in counts.items()})
                    elif b == "jax-cpu":
                        ms = jax.warm(name, r["args"], a.repeat, a.warmup)
                    elif b in r["vmfb"]:
                        ms = iree_warm(a.iree_venv, b, r["vmfb"][b], inputs, a.iree_reps)
                    else:
                        continue  # IREE did not compile it
                    r[b].append(ms)
                print(f"# round {rnd + 1}: {name}: " + ", ".join(f"{b} {r[b][-1]:.1f} ms" for b in backends if r[b]),
                      file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for r in results["models"].values():
        del r["args"], r["vmfb"]
    print(markdown(results, backends, a.rounds))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
