#!/usr/bin/env python3
"""Exports int8 programs as JAX users write them, as self-checking StableHLO test programs
(tests/models/jax, issue 26), in the form of JAX's exported test programs
(../shared/conformance/jax): a public @main that calls @inputs() and @expected(), runs the
function JAX lowered (jax.jit(f).lower(...).as_text(), kept as it is, renamed @f), and checks
it with custom_call @check.expect_eq (integer results: exact) or @check.expect_almost_eq (float
results: JAX's tolerance 1e-3). Expected values are JAX's own results on its CPU backend;
inputs come from a fixed-seed generator.

Programs:
  matmul_int8_i32         jnp.matmul of int8 with preferred_element_type=jnp.int32
  matmul_int8_wrapping    jnp.matmul of int8 to int8 (the sum wraps, as XLA defines it)
  dot_general_batch_int8  lax.dot_general with a batch dimension, int8 -> int32
  conv_int8_same          lax.conv_general_dilated NHWC/HWIO, SAME padding, int8 -> int32
  conv_int8_strided_dilated  NCHW/OIHW, stride 2, asymmetric padding, rhs dilation 2, int8 -> int32
  aqt_dense               an AQT-style dense layer: per-row activation and per-column weight
                          scales in f32, both quantized to int8 (round, clip), the int8 dot to
                          int32, rescaled to f32

Usage: /work/main/.venv/bin/python tools/quantized_models/export_jax_int8.py tests/models/jax
"""
import os
import re
import sys

import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

MLIR_ELEMENT = {np.dtype(np.int8): "i8", np.dtype(np.int32): "i32", np.dtype(np.float32): "f32"}


def tensor_type(a):
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + MLIR_ELEMENT[a.dtype] + ">"


def hex_dense(a):
    """dense<"0x..."> of the array's little-endian bytes, as JAX's test exports write them."""
    return 'dense<"0x' + np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes().hex().upper() + '">'


def program(name, f, args, comment):
    lowered = jax.jit(f).lower(*args).as_text()
    want = np.asarray(jax.jit(f)(*args))
    # The lowered module's functions, its public @main renamed to a private @f.
    header_end = lowered.index("\n")
    assert lowered.startswith("module @") and lowered[:header_end].rstrip().endswith("{"), lowered[:header_end]
    body = lowered[header_end + 1:lowered.rindex("}")]
    body = re.sub(r"func\.func public @main\(", "func.func private @f(", body, count=1)
    assert "@main" not in body, "unexpected reference to @main"
    arg_types = ", ".join(tensor_type(a) for a in args)
    out_type = tensor_type(want)
    check = "check.expect_eq" if want.dtype.kind in "iu" else "check.expect_almost_eq"
    n = len(args)
    inputs_ref = "%0" if n == 1 else f"%0:{n}"
    operands = ", ".join("%0" if n == 1 else f"%0#{i}" for i in range(n))
    lines = [f"// {l}" for l in comment.splitlines()]
    lines += [f"// Exported by tools/quantized_models/export_jax_int8.py (jax {jax.__version__}); expected values from JAX on CPU.",
              "module @jit_main attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {",
              f"  func.func public @main() -> ({out_type} {{jax.result_info = \"\"}}) {{",
              f"    {inputs_ref} = call @inputs() : () -> ({arg_types})",
              f"    %1 = call @expected() : () -> {out_type}",
              f"    %2 = call @f({operands}) : ({arg_types}) -> {out_type}",
              f"    stablehlo.custom_call @{check}(%2, %1) {{has_side_effect = true}} : ({out_type}, {out_type}) -> ()",
              f"    return %2 : {out_type}",
              "  }",
              f"  func.func private @inputs() -> ({arg_types}) {{"]
    for i, a in enumerate(args):
        lines.append(f"    %c{i} = stablehlo.constant {hex_dense(a)} : {tensor_type(a)}")
    lines += [f"    return {', '.join(f'%c{i}' for i in range(n))} : {arg_types}", "  }",
              f"  func.func private @expected() -> {out_type} {{",
              f"    %c = stablehlo.constant {hex_dense(want)} : {out_type}",
              f"    return %c : {out_type}", "  }"]
    lines.append(body.rstrip())
    lines.append("}")
    return name, "\n".join(lines) + "\n"


def programs():
    rng = np.random.default_rng(2026)

    def i8(*shape):
        return rng.integers(-128, 128, shape).astype(np.int8)

    yield program("matmul_int8_i32", lambda a, b: jnp.matmul(a, b, preferred_element_type=jnp.int32),
                  (i8(16, 64), i8(64, 32)), "jnp.matmul(a, b, preferred_element_type=jnp.int32) on int8, full range")
    yield program("matmul_int8_wrapping", lambda a, b: jnp.matmul(a, b), (i8(8, 48), i8(48, 8)),
                  "jnp.matmul of int8 to int8: the sum wraps modulo 2^8")
    yield program("dot_general_batch_int8",
                  lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))), preferred_element_type=jnp.int32),
                  (i8(2, 8, 32), i8(2, 32, 16)), "lax.dot_general with batch dimension 0, int8 -> int32")
    yield program("conv_int8_same",
                  lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                                        preferred_element_type=jnp.int32),
                  (i8(2, 8, 8, 4), i8(3, 3, 4, 8)),
                  "lax.conv_general_dilated NHWC x HWIO, 3x3, SAME padding, int8 -> int32")
    yield program("conv_int8_strided_dilated",
                  lambda x, w: lax.conv_general_dilated(x, w, (2, 2), ((1, 2), (0, 1)), rhs_dilation=(2, 1),
                                                        dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                                        preferred_element_type=jnp.int32),
                  (i8(1, 3, 9, 9), i8(6, 3, 3, 3)),
                  "lax.conv_general_dilated NCHW x OIHW, stride 2, asymmetric padding, rhs dilation, int8 -> int32")

    def aqt_dense(x, w):
        # AQT's int8 dense layer: symmetric scales (per row of x, per column of w) in f32, values
        # quantized by round-to-nearest-even and clipping, the int8 dot to int32, rescaled.
        sx = jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0
        sw = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
        qx = jnp.clip(jnp.round(x / sx), -127, 127).astype(jnp.int8)
        qw = jnp.clip(jnp.round(w / sw), -127, 127).astype(jnp.int8)
        acc = lax.dot_general(qx, qw, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * sx * sw

    x = rng.standard_normal((16, 128)).astype(np.float32)
    w = (rng.standard_normal((128, 32)) / np.sqrt(128)).astype(np.float32)
    yield program("aqt_dense", aqt_dense, (x, w),
                  "An AQT-style quantized dense layer: f32 in, int8 x int8 -> int32 dot, f32 out")


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, text in programs():
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)
        print(os.path.join(out, name + ".mlir"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/models/jax")
