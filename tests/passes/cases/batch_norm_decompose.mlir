// PASSES: batch-norm-decompose
// The spec's example of batch_norm_inference: the op becomes element-wise ops over broadcasts of
// the per-feature operands, and computes the spec's result.
func.func @main() {
  %operand = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %variance = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %result = "stablehlo.batch_norm_inference"(%operand, %scale, %offset, %mean, %variance) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const %result, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf32>
  func.return
}
// CHECK-NOT: batch_norm
// CHECK: "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 2>} : (tensor<2xf32>) -> tensor<2x2x2xf32>
// CHECK: "stablehlo.subtract"(%0,
// CHECK: "stablehlo.sqrt"
// CHECK: "stablehlo.divide"
// CHECK: "stablehlo.multiply"
// CHECK: "stablehlo.add"
// CHECK: "check.expect_almost_eq_const"

// -----
// batch_norm_training: mean and variance are reduces (with an add body) over every dimension
// but feature_index, divided by the number of elements per feature.
func.func @main() {
  %operand = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%operand, %scale, %offset) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %output, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf32>
  check.expect_almost_eq_const %batch_mean, dense<[2.0, 3.0]> : tensor<2xf32>
  check.expect_almost_eq_const %batch_var, dense<[1.0, 1.0]> : tensor<2xf32>
  func.return
}
// CHECK-NOT: batch_norm
// CHECK: %4 = "stablehlo.reduce"(%0, %3)
// CHECK-NEXT: ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
// CHECK-NEXT: "stablehlo.add"(%arg0, %arg1)
// CHECK-NEXT: "stablehlo.return"
// CHECK-NEXT: }) {dimensions = array<i64: 0, 1>} : (tensor<2x2x2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %6 = "stablehlo.constant"() {value = dense<4.0> : tensor<2xf32>}
// CHECK-NEXT: %7 = "stablehlo.divide"(%4, %6)

// -----
// batch_norm_grad, the spec's example; feature_index in the middle.
func.func @main() {
  %operand = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %variance = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %grad_output = stablehlo.constant dense<0.1> : tensor<2x2x2xf32>
  %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%operand, %scale, %mean, %variance, %grad_output) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %grad_operand, dense<0.0> : tensor<2x2x2xf32>
  check.expect_almost_eq_const %grad_scale, dense<0.0> : tensor<2xf32>
  check.expect_almost_eq_const %grad_offset, dense<0.4> : tensor<2xf32>
  %g1, %g2, %g3 = "stablehlo.batch_norm_grad"(%operand, %scale, %mean, %variance, %grad_output) {
    epsilon = 0.5 : f32,
    feature_index = 1 : i64
  } : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return
}
// CHECK-NOT: batch_norm
// CHECK: {dimensions = array<i64: 0, 1>}
// CHECK: {dimensions = array<i64: 0, 2>}

// -----
// f16 is computed in f32 and converted back once. (Not named @main: its results may differ in
// the last bit from the interpreter's, which computes in double; batch_norm_decompose_test
// compares them with a tolerance.)
func.func @f16_training(%x: tensor<3x4xf16>, %scale: tensor<4xf16>, %offset: tensor<4xf16>) -> tensor<3x4xf16> {
  %y, %m, %v = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64}
    : (tensor<3x4xf16>, tensor<4xf16>, tensor<4xf16>) -> (tensor<3x4xf16>, tensor<4xf16>, tensor<4xf16>)
  return %y : tensor<3x4xf16>
}
// CHECK: "stablehlo.convert"(%arg0) : (tensor<3x4xf16>) -> tensor<3x4xf32>
// CHECK: "stablehlo.reduce"
// CHECK: : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %27 = "stablehlo.convert"(%26) : (tensor<3x4xf32>) -> tensor<3x4xf16>
// CHECK: "func.return"(%27)
