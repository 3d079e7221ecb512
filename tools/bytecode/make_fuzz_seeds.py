#!/usr/bin/env python3
"""Writes the bytecode fuzzer's seed corpus (fuzz/bytecode_corpus): small StableHLO programs of
vkhlo's own (no quantized types: jaxlib has no quant dialect to parse them), serialized by JAX's tooling at old and new target versions, so the fuzzer starts
from every container version (0, 6) and the common attribute, type and region encodings.

Usage: python tools/bytecode/make_fuzz_seeds.py fuzz/bytecode_corpus
"""
import os
import sys

PROGRAMS = {
    "elementwise": """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  %2 = stablehlo.compare GT, %1, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %2 : tensor<4xi1>
}""",
    "regions": """
func.func @main(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
  %1:2 = stablehlo.while(%i = %c, %v = %0) : tensor<i32>, tensor<3xi32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %p = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %v : tensor<i32>, tensor<3xi32>
    }
  return %1#1 : tensor<3xi32>
}""",
    "dot_conv_gather": """
func.func @main(%a: tensor<2x3xbf16>, %b: tensor<3x5xbf16>, %img: tensor<1x8x8x2xf32>, %k: tensor<3x3x2x4xf32>,
                %idx: tensor<2x1xi32>) -> (tensor<2x5xf32>, tensor<1x8x8x4xf32>, tensor<2x5xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xbf16>, tensor<3x5xbf16>) -> tensor<2x5xf32>
  %1 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = "stablehlo.gather"(%0, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>} : (tensor<2x5xf32>, tensor<2x1xi32>) -> tensor<2x5xf32>
  return %0, %1, %2 : tensor<2x5xf32>, tensor<1x8x8x4xf32>, tensor<2x5xf32>
}""",
    "custom_call_composite": """
module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<2xf32> {jax.arg_info = "x"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = stablehlo.custom_call @my.target(%x) {backend_config = "cfg", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
    %1 = stablehlo.composite "my.double" %0 {composite_attributes = {factor = 2 : i64}, decomposition = @double, version = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @double(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.add %x, %x : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}""",
    "types": """
func.func @main(%q: tensor<4xi8>, %t: !stablehlo.token) -> (tensor<4xf32>, tensor<2xf8E4M3FN>, tensor<3xui4>, tensor<complex<f64>>, !stablehlo.token) {
  %0 = stablehlo.convert %q : (tensor<4xi8>) -> tensor<4xf32>
  %1 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf8E4M3FN>
  %2 = stablehlo.constant dense<[1, 2, 15]> : tensor<3xui4>
  %3 = stablehlo.constant dense<(1.0, -1.0)> : tensor<complex<f64>>
  %4 = stablehlo.after_all %t : !stablehlo.token
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<2xf8E4M3FN>, tensor<3xui4>, tensor<complex<f64>>, !stablehlo.token
}""",
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "fuzz/bytecode_corpus"
    os.makedirs(out, exist_ok=True)
    from jax._src.interpreters import mlir as jax_mlir
    from jax.extend.mlir import ir
    from jax.extend.mlir.dialects import stablehlo
    for name, text in PROGRAMS.items():
        with jax_mlir.make_ir_context():
            module = ir.Module.parse(text)
            for version in ("0.9.0", "1.15.0"):
                try:
                    data = stablehlo.serialize_portable_artifact(module, version)
                except Exception:
                    continue
                with open(os.path.join(out, f"{name}_{version}.mlirbc"), "wb") as f:
                    f.write(data)
                print(f"{name} at {version}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
