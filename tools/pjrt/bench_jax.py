#!/usr/bin/env python3
"""Times the vkhlo PJRT plugin from JAX (docs/benchmarks.md, "JAX through the PJRT plugin").

Per model of tools/bytecode/export_models.py: the median time of one call of the jitted
function on the vkhlo platform (arguments already on the device, each call waited for with
block_until_ready), beside `vkhlo-bench` on the very program the plugin compiled (dumped through
VKHLO_PJRT_DUMP_DIR: the same kernels, with no JAX and no PJRT in between), and beside JAX's CPU
backend in the same process. Plugin minus vkhlo-bench is the plugin's overhead per call (JAX's
dispatch, the C API, the executor thread, events).

Eager mode: a sequence of op-by-op jnp calls, timed per op once its programs are compiled (JAX's
cache and the plugin's), and the cost of a compile the plugin's cache answers (JAX's caches
cleared, the same program sent again) beside a first compile.

Usage (after the README's build, in the pinned jax environment):
  PYTHONPATH=python VKHLO_PJRT_LIBRARY=build/lib/libvkhlo_pjrt.so \
      .venv/bin/python tools/pjrt/bench_jax.py [--repeat 50] [--vkhlo-bench build/bin/vkhlo-bench]
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

DUMP = tempfile.mkdtemp(prefix="vkhlo-pjrt-bench-")
os.environ["VKHLO_PJRT_DUMP_DIR"] = DUMP
os.environ.setdefault("JAX_PLATFORMS", "vkhlo,cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bytecode"))
import export_models  # noqa: E402


def median_seconds(call, repeat, warmup):
    for _ in range(warmup):
        jax.block_until_ready(call())
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(call())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def vkhlo_bench(binary, program, repeat, warmup):
    out = subprocess.run([binary, f"--repeat={repeat}", f"--warmup={warmup}", program], check=True,
                         capture_output=True, text=True).stdout
    return float(re.search(r"median_ms=([0-9.]+)", out).group(1)) / 1e3


def models(args):
    """Plugin, vkhlo-bench and CPU measured in alternating rounds (a shared machine's load moves
    between them otherwise); the overhead is the median of the rounds' differences."""
    vk, cpu = jax.devices("vkhlo")[0], jax.devices("cpu")[0]
    print(f"| model | jax.jit on vkhlo (plugin) | vkhlo-bench, same program | plugin overhead per call "
          f"(median of {args.rounds} rounds' differences) | jax.jit on JAX's CPU backend |")
    print("|---|---|---|---|---|")
    for name, (function, inputs) in export_models.models(jax, jnp).items():
        jitted = jax.jit(function)
        on_vk, on_cpu = jax.device_put(inputs, vk), jax.device_put(inputs, cpu)
        jax.block_until_ready(jitted(*on_vk))  # compiled, and dumped
        dumped = sorted(glob.glob(os.path.join(DUMP, f"jit_{name}.*.mlirbc")))
        plugin, bench, host = [], [], []
        for _ in range(args.rounds):
            plugin.append(median_seconds(lambda: jitted(*on_vk), args.repeat, args.warmup))
            bench.append(vkhlo_bench(args.vkhlo_bench, dumped[-1], args.repeat, args.warmup))
            host.append(median_seconds(lambda: jitted(*on_cpu), args.repeat, args.warmup))
        overhead = statistics.median(p - b for p, b in zip(plugin, bench))
        print(f"| {name} | {statistics.median(plugin) * 1e3:.3f} ms | {statistics.median(bench) * 1e3:.3f} ms | "
              f"{overhead * 1e6:.0f} µs | {statistics.median(host) * 1e3:.3f} ms |")


def eager(args):
    vk, cpu = jax.devices("vkhlo")[0], jax.devices("cpu")[0]
    rng = np.random.default_rng(0)
    x_host, w_host = rng.standard_normal((16, 8), np.float32), rng.standard_normal((8, 4), np.float32)

    def ops(x, w):  # 8 primitives, each its own program in eager mode
        return jnp.maximum(x @ w, 0.0).sum(axis=0) / 16.0 + jnp.exp(-jnp.abs(w[0]))

    print("\n| eager (op by op, 8 ops on 16x8 / 8x4 f32) | vkhlo | JAX's CPU backend |")
    print("|---|---|---|")
    rows = {}
    for device in (vk, cpu):
        x, w = jax.device_put(x_host, device), jax.device_put(w_host, device)
        jax.clear_caches()
        start = time.perf_counter()
        jax.block_until_ready(ops(x, w))
        first = time.perf_counter() - start
        steady = median_seconds(lambda: ops(x, w), args.repeat, args.warmup)
        rows[device.platform] = (first, steady)
    print(f"| first pass (8 compiles) | {rows['vkhlo'][0] * 1e3:.1f} ms | {rows['cpu'][0] * 1e3:.1f} ms |")
    print(f"| per op once compiled | {rows['vkhlo'][1] / 8 * 1e6:.0f} µs | {rows['cpu'][1] / 8 * 1e6:.0f} µs |")

    # A compile the plugin's cache answers: JAX's own caches cleared, the same program again.
    x, w = jax.device_put(x_host, vk), jax.device_put(w_host, vk)
    def fresh():
        return jax.jit(lambda a, b: jnp.tanh(a @ b) * 3.0 + 1.0)
    jax.clear_caches()
    start = time.perf_counter()
    jax.block_until_ready(fresh()(x, w))
    cold = time.perf_counter() - start
    cached = []
    for _ in range(10):
        jax.clear_caches()
        start = time.perf_counter()
        jax.block_until_ready(fresh()(x, w))
        cached.append(time.perf_counter() - start)
    print(f"| trace + compile + run of a new jit, first time | {cold * 1e3:.1f} ms | |")
    print(f"| the same after jax.clear_caches() (the plugin's compile cache answers) | {statistics.median(cached) * 1e3:.1f} ms | |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--vkhlo-bench", default="build/bin/vkhlo-bench")
    args = parser.parse_args()
    print(f"device: {jax.devices('vkhlo')[0].vulkan_device}; jax {jax.__version__}; repeat {args.repeat}")
    models(args)
    eager(args)


if __name__ == "__main__":
    main()
