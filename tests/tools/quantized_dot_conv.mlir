// Quantized dot_general and convolution in the reference interpreter, checked the two ways
// StableHLO's quantized test programs check: check.expect_eq_const on the stored values, and
// JAX's custom_call @check.eq(%expected, %actual) -> tensor<i1>. Values are hand-computed
// (tests/interp/library/quantized_test.cc has the derivations).
func.func @dot_per_tensor() {
  %l0 = stablehlo.constant dense<[[3, 5, -1], [1, 0, 7]]> : tensor<2x3xi8>
  %l = stablehlo.bitcast_convert %l0 : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>
  %r0 = stablehlo.constant dense<[[4, -8], [2, 0], [12, 4]]> : tensor<3x2xi8>
  %r = stablehlo.bitcast_convert %r0 : (tensor<3x2xi8>) -> tensor<3x2x!quant.uniform<i8:f32, 0.25>>
  %o = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>
  %s = stablehlo.bitcast_convert %o : (tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>) -> tensor<2x2xi8>
  check.expect_eq_const %s, dense<[[-10, -26], [68, 22]]> : tensor<2x2xi8>
  %acc = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2x!quant.uniform<i32:f32, 0.125>>
  %a = stablehlo.bitcast_convert %acc : (tensor<2x2x!quant.uniform<i32:f32, 0.125>>) -> tensor<2x2xi32>
  check.expect_eq_const %a, dense<[[-8, -24], [70, 24]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @main() -> tensor<i1> {
  %l0 = stablehlo.constant dense<[[130, 126]]> : tensor<1x2xui8>
  %l = stablehlo.bitcast_convert %l0 : (tensor<1x2xui8>) -> tensor<1x2x!quant.uniform<u8:f32, 0.5:128>>
  %r0 = stablehlo.constant dense<[[3], [5]]> : tensor<2x1xui8>
  %r = stablehlo.bitcast_convert %r0 : (tensor<2x1xui8>) -> tensor<2x1x!quant.uniform<u8:f32, 1.0>>
  %o = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<u8:f32, 0.5:128>>, tensor<2x1x!quant.uniform<u8:f32, 1.0>>) -> tensor<1x1x!quant.uniform<u8:f32, 0.5:128>>
  %e0 = stablehlo.constant dense<124> : tensor<1x1xui8>
  %e = stablehlo.bitcast_convert %e0 : (tensor<1x1xui8>) -> tensor<1x1x!quant.uniform<u8:f32, 0.5:128>>
  %0 = stablehlo.custom_call @check.eq(%e, %o) : (tensor<1x1x!quant.uniform<u8:f32, 0.5:128>>, tensor<1x1x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @hybrid_dot() -> tensor<i1> {
  %l = stablehlo.constant dense<[[1.5, -2.0]]> : tensor<1x2xf32>
  %r0 = stablehlo.constant dense<[[2, 1], [4, -3]]> : tensor<2x2xi8>
  %r = stablehlo.bitcast_convert %r0 : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>
  %o = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>) -> tensor<1x2xf32>
  %e = stablehlo.constant dense<[[-2.5, 15.0]]> : tensor<1x2xf32>
  %0 = stablehlo.custom_call @check.eq(%e, %o) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @conv_per_axis() {
  %x0 = stablehlo.constant dense<[[[2], [4], [6], [8]]]> : tensor<1x4x1xi8>
  %x = stablehlo.bitcast_convert %x0 : (tensor<1x4x1xi8>) -> tensor<1x4x1x!quant.uniform<i8:f32, 0.5>>
  %k0 = stablehlo.constant dense<[[[1, 2]], [[1, -2]]]> : tensor<2x1x2xi8>
  %k = stablehlo.bitcast_convert %k0 : (tensor<2x1x2xi8>) -> tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>
  %o = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x3x2x!quant.uniform<i8:f32:2, {0.5, 0.25}>>
  %s = stablehlo.bitcast_convert %o : (tensor<1x3x2x!quant.uniform<i8:f32:2, {0.5, 0.25}>>) -> tensor<1x3x2xi8>
  check.expect_eq_const %s, dense<[[[6, -4], [10, -4], [14, -4]]]> : tensor<1x3x2xi8>
  func.return
}

// -----

func.func @conv_hybrid_int4() -> tensor<i1> {
  // kernel [[1.75, 1], [-2, -1]]: o0 = 1.75 x[i] - 2 x[i+1], o1 = x[i] - x[i+1].
  %x = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %k0 = stablehlo.constant dense<[[[7, 2]], [[-8, -2]]]> : tensor<2x1x2xi4>
  %k = stablehlo.bitcast_convert %k0 : (tensor<2x1x2xi4>) -> tensor<2x1x2x!quant.uniform<i4:f32:2, {0.25, 0.5}>>
  %o = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<2x1x2x!quant.uniform<i4:f32:2, {0.25, 0.5}>>) -> tensor<1x3x2xf32>
  %e = stablehlo.constant dense<[[[-2.25, -1.0], [-2.5, -1.0], [-2.75, -1.0]]]> : tensor<1x3x2xf32>
  %0 = stablehlo.custom_call @check.eq(%e, %o) : (tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<i1>
  return %0 : tensor<i1>
}
