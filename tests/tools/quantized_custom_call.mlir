// A custom_call on quantized tensors: quantized-decompose cannot give it a meaning on the stored
// values, so compiling it is an error naming the op (never a wrong answer).
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %q = "stablehlo.bitcast_convert"(%a) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>>
  %r = stablehlo.custom_call @foo(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>>
  %s = "stablehlo.bitcast_convert"(%r) : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[1, 2]> : tensor<2xi8>
  func.return
}
