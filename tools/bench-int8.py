#!/usr/bin/env python3
"""int8 against f32 contractions on the same device, in the same run (issue 26).

For each shape (GEMMs MxKxN, 3x3 NHWC convolutions with SAME padding) four programs are written
to a temporary folder and timed with vkhlo-bench (Execute only, inputs already on the device):

  f32        f32 x f32 -> f32
  int8       i8 x i8 -> i32 (plain integers, no quantized types)
  quantized  !quant.uniform i8 (per tensor, zero point) x i8 (per output channel) -> i8
             (per tensor, zero point): the integer sum, zero-point corrections and
             requantization of ir/requantize.h
  hybrid     f32 x !quant.uniform i8 weights (per output channel) -> f32 (weight-only)

The variants run in alternating rounds (each round runs every program once with --repeat and
--warmup), so that load moving on a shared machine falls on all of them alike; the table gives
the median of the rounds' medians, GOPS (2 * multiply-adds / time) and the ratio to f32 (above
1: faster than f32). A program the device cannot compile yet is reported with its error.

  tools/bench-int8.py --bench build/bin/vkhlo-bench [--rounds 3 --repeat 10 --warmup 2]
  VKHLO_PROFILE=mobile tools/bench-int8.py --bench build/bin/vkhlo-bench
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

GEMMS = [(256, 256, 256), (512, 512, 512)]
CONVS = [(1, 32, 32, 64, 64), (8, 16, 16, 32, 64)]  # N, H, W, Cin, Cout; 3x3, SAME, stride 1
VARIANTS = ["f32", "int8", "quantized", "hybrid"]

LHS_Q = "!quant.uniform<i8:f32, 0.02:-3>"
OUT_Q = "!quant.uniform<i8:f32, 0.5:4>"


def per_channel(n, axis):
    parts = ", ".join(f"{0.01 + 0.0001 * (c % 7)}:0" for c in range(n))
    return f"!quant.uniform<i8:f32:{axis}, {{{parts}}}>"


def tensor(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def contraction_program(variant, lhs_shape, rhs_shape, out_shape, rhs_axis, op):
    """@main over storage tensors; quantized types only inside (bitcast_convert), so that
    vkhlo-bench can make random inputs."""
    if variant == "f32":
        a, b, o = tensor(lhs_shape, "f32"), tensor(rhs_shape, "f32"), tensor(out_shape, "f32")
        return (f"func.func @main(%a: {a}, %b: {b}) -> {o} {{\n"
                f"  %r = {op('%a', '%b', a, b, o)}\n  return %r : {o}\n}}\n")
    if variant == "int8":
        a, b, o = tensor(lhs_shape, "i8"), tensor(rhs_shape, "i8"), tensor(out_shape, "i32")
        return (f"func.func @main(%a: {a}, %b: {b}) -> {o} {{\n"
                f"  %r = {op('%a', '%b', a, b, o)}\n  return %r : {o}\n}}\n")
    bq = tensor(rhs_shape, per_channel(rhs_shape[rhs_axis], rhs_axis))
    bs = tensor(rhs_shape, "i8")
    if variant == "hybrid":
        a, o = tensor(lhs_shape, "f32"), tensor(out_shape, "f32")
        return (f"func.func @main(%a: {a}, %bs: {bs}) -> {o} {{\n"
                f"  %b = stablehlo.bitcast_convert %bs : ({bs}) -> {bq}\n"
                f"  %r = {op('%a', '%b', a, bq, o)}\n  return %r : {o}\n}}\n")
    as_, aq = tensor(lhs_shape, "i8"), tensor(lhs_shape, LHS_Q)
    os_, oq = tensor(out_shape, "i8"), tensor(out_shape, OUT_Q)
    return (f"func.func @main(%as: {as_}, %bs: {bs}) -> {os_} {{\n"
            f"  %a = stablehlo.bitcast_convert %as : ({as_}) -> {aq}\n"
            f"  %b = stablehlo.bitcast_convert %bs : ({bs}) -> {bq}\n"
            f"  %q = {op('%a', '%b', aq, bq, oq)}\n"
            f"  %r = stablehlo.bitcast_convert %q : ({oq}) -> {os_}\n  return %r : {os_}\n}}\n")


def gemm(variant, m, k, n):
    def op(a, b, ta, tb, to):
        return f"stablehlo.dot_general {a}, {b}, contracting_dims = [1] x [0] : ({ta}, {tb}) -> {to}"
    return contraction_program(variant, (m, k), (k, n), (m, n), 1, op), 2 * m * k * n


def conv(variant, n, h, w, cin, cout):
    def op(a, b, ta, tb, to):
        return (f"stablehlo.convolution({a}, {b}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
                f"window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} "
                f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({ta}, {tb}) -> {to}")
    return contraction_program(variant, (n, h, w, cin), (3, 3, cin, cout), (n, h, w, cout), 3, op), \
        2 * n * h * w * cout * 9 * cin


def run_bench(bench, path, repeat, warmup):
    proc = subprocess.run([bench, path, f"--repeat={repeat}", f"--warmup={warmup}"], capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    m = re.search(r"median_ms=([0-9.eE+-]+)", out)
    if proc.returncode != 0 or not m:
        lines = [l for l in out.strip().splitlines() if l.strip()]
        return None, (lines[-1] if lines else f"exit {proc.returncode}")[:160]
    return float(m.group(1)), None


def device_line(bench, path):
    proc = subprocess.run([bench, path, "--repeat=1", "--warmup=0"], capture_output=True, text=True)
    for line in (proc.stdout + proc.stderr).splitlines():
        if "device" in line.lower():
            return line.strip()
    return "?"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", default="build/bin/vkhlo-bench")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--keep", help="write the programs here instead of a temporary folder")
    args = p.parse_args()

    folder = args.keep or tempfile.mkdtemp(prefix="bench-int8-")
    os.makedirs(folder, exist_ok=True)
    cases = []  # (label, variant, path, ops)
    for m, k, n in GEMMS:
        for v in VARIANTS:
            text, ops = gemm(v, m, k, n)
            cases.append((f"GEMM {m}x{k}x{n}", v, text, ops))
    for n, h, w, cin, cout in CONVS:
        for v in VARIANTS:
            text, ops = conv(v, n, h, w, cin, cout)
            cases.append((f"conv 3x3 {n}x{h}x{w}x{cin} -> {cout}", v, text, ops))
    paths = []
    for i, (label, v, text, ops) in enumerate(cases):
        path = os.path.join(folder, f"case{i}_{v}.mlir")
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)

    print(f"# {device_line(args.bench, paths[0])}; profile: {os.environ.get('VKHLO_PROFILE', 'native')}", flush=True)
    times = {i: [] for i in range(len(cases))}
    errors = {}
    for r in range(args.rounds):
        for i, path in enumerate(paths):
            if i in errors:
                continue
            t, err = run_bench(args.bench, path, args.repeat, args.warmup)
            if err:
                errors[i] = err
            else:
                times[i].append(t)
        print(f"# round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)

    print("| shape | variant | median ms (rounds' range) | GOPS | vs f32 |")
    print("|---|---|---|---|---|")
    f32_ms = {}
    for i, (label, v, _, ops) in enumerate(cases):
        if v == "f32" and times[i]:
            f32_ms[label] = statistics.median(times[i])
    for i, (label, v, _, ops) in enumerate(cases):
        if i in errors:
            print(f"| {label} | {v} | not run: {errors[i]} | | |")
            continue
        med = statistics.median(times[i])
        gops = ops / (med * 1e-3) / 1e9
        ratio = f"{f32_ms[label] / med:.2f}x" if label in f32_ms else ""
        print(f"| {label} | {v} | {med:.3f} ({min(times[i]):.3f}-{max(times[i]):.3f}) | {gops:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
