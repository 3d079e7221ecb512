// dot_general on quantized tensors ([[1.75, 2.5], [3.75, 5.5]] / 0.5, ties to even): the
// interpreter and the device's integer kernels compute the same bits.
func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %qa = "stablehlo.bitcast_convert"(%a) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>
  %r = "stablehlo.dot_general"(%qa, %qa) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>, tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>
  %s = "stablehlo.bitcast_convert"(%r) : (tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2xi8>
  check.expect_eq_const %s, dense<[[4, 5], [8, 11]]> : tensor<2x2xi8>
  func.return
}
