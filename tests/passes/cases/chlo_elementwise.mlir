// PASSES: chlo-decompose
// Special functions become polynomial/rational StableHLO: no chlo op remains.
func.func @main(%x: tensor<4xf32>, %d: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.erf_inv %d : tensor<4xf64> -> tensor<4xf64>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf64>
}
// CHECK: func.func @main
// CHECK-NOT: chlo.
// CHECK: "stablehlo.minimum"
// CHECK: "stablehlo.divide"
// CHECK: "stablehlo.log_plus_one"
// CHECK: "stablehlo.sine"
// CHECK: "stablehlo.sqrt"
// CHECK: "func.return"

// -----
// PASSES: chlo-decompose
// Narrow floats compute in f32: convert up, compute, convert back.
func.func @main(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = chlo.digamma %x : tensor<3xbf16> -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}
// CHECK: "stablehlo.convert"(%arg0) : (tensor<3xbf16>) -> tensor<3xf32>
// CHECK-NOT: chlo.
// CHECK: "stablehlo.cosine"
// CHECK: -> tensor<3xbf16>
// CHECK-NEXT: "func.return"

// -----
// PASSES: chlo-decompose
// Implicit broadcasting becomes broadcast_in_dim; constant_like a broadcast constant.
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = "chlo.constant_like"(%a) {value = 2.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>
}
// CHECK: "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: "stablehlo.add"
// CHECK: "stablehlo.compare"
// CHECK-SAME: comparison_direction LT
// CHECK: "stablehlo.constant"() {value = dense<2.5> : tensor<f32>}
// CHECK-NEXT: "stablehlo.broadcast_in_dim"
// CHECK-NOT: chlo.

// -----
// PASSES: chlo-decompose
// Bit-level ops: next_after on the bit patterns, mulhi through a wider product.
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>, tensor<2xi1>) {
  %0 = chlo.next_after %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = "chlo.mulhi"(%i, %i) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %2 = chlo.is_inf %a : tensor<2xf32> -> tensor<2xi1>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xi32>, tensor<2xi1>
}
// CHECK: "stablehlo.bitcast_convert"(%arg0) : (tensor<2xf32>) -> tensor<2xui32>
// CHECK: : (tensor<2xui32>) -> tensor<2xf32>
// CHECK: "stablehlo.convert"(%arg2) : (tensor<2xi32>) -> tensor<2xi64>
// CHECK: "stablehlo.shift_right_arithmetic"
// CHECK: "stablehlo.abs"
// CHECK: "stablehlo.compare"
// CHECK-NOT: chlo.

// -----
// PASSES: chlo-decompose
// Complex inverse functions use real arithmetic on the parts (Hull et al.).
func.func @main(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = chlo.acosh %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
// CHECK: "stablehlo.real"
// CHECK: "stablehlo.imag"
// CHECK: "stablehlo.atan2"
// CHECK: "stablehlo.complex"
// CHECK-NOT: chlo.
