// The matmul + bias + GELU program (jax.nn.gelu's export, as in the transformer model) that the
// epilogue tests compile: one text, so that the matcher's test and the fusion's test see the
// same program.
#pragma once

#include <fmt/format.h>

#include <string>

namespace vkhlo::testing {

// matmul -> + bias (broadcast twice) -> GELU as jax.nn.gelu exports it (transformer.mlir).
inline std::string MatmulBiasGelu(const std::string& t, bool tanh_form) {
  std::string s = fmt::format(R"(func.func @main(%a: tensor<2x8x16x{0}>, %b: tensor<16x32x{0}>, %bias: tensor<32x{0}>) -> tensor<2x8x32x{0}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x8x16x{0}>, tensor<16x32x{0}>) -> tensor<2x8x32x{0}>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [2] : (tensor<32x{0}>) -> tensor<1x1x32x{0}>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x32x{0}>) -> tensor<2x8x32x{0}>
  %x = stablehlo.add %0, %2 : tensor<2x8x32x{0}>
)",
                              t);
  if (tanh_form) {
    s += fmt::format(R"(  %3 = stablehlo.multiply %x, %x : tensor<2x8x32x{0}>
  %4 = stablehlo.multiply %3, %x : tensor<2x8x32x{0}>
  %c1 = stablehlo.constant dense<4.471500e-02> : tensor<{0}>
  %5 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %6 = stablehlo.multiply %5, %4 : tensor<2x8x32x{0}>
  %7 = stablehlo.add %x, %6 : tensor<2x8x32x{0}>
  %c2 = stablehlo.constant dense<0.797884583> : tensor<{0}>
  %8 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %9 = stablehlo.multiply %8, %7 : tensor<2x8x32x{0}>
  %10 = stablehlo.tanh %9 : tensor<2x8x32x{0}>
)",
                     t);
  } else {
    s += fmt::format(R"(  %c2 = stablehlo.constant dense<0.707106769> : tensor<{0}>
  %8 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %9 = stablehlo.multiply %x, %8 : tensor<2x8x32x{0}>
  %10 = chlo.erf %9 : tensor<2x8x32x{0}> -> tensor<2x8x32x{0}>
)",
                     t);
  }
  s += fmt::format(R"(  %c3 = stablehlo.constant dense<1.000000e+00> : tensor<{0}>
  %11 = stablehlo.broadcast_in_dim %c3, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %12 = stablehlo.add %11, %10 : tensor<2x8x32x{0}>
  %c4 = stablehlo.constant dense<5.000000e-01> : tensor<{0}>
  %13 = stablehlo.broadcast_in_dim %c4, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %14 = stablehlo.multiply %13, %12 : tensor<2x8x32x{0}>
  %15 = stablehlo.multiply %x, %14 : tensor<2x8x32x{0}>
  func.return %15 : tensor<2x8x32x{0}>
}}
)",
                   t);
  return s;
}

}  // namespace vkhlo::testing
