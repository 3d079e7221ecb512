// custom_call @check.eq(%expected, %actual) -> tensor<i1>, as JAX's quantized test exports end:
// the result is whether the two match, and a mismatch fails the test.
func.func @main() -> tensor<i1> {
  %expected = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi8>
  %a = stablehlo.constant dense<[2, -4, 6]> : tensor<3xi8>
  %two = stablehlo.constant dense<2> : tensor<3xi8>
  %actual = stablehlo.divide %a, %two : tensor<3xi8>
  %0 = stablehlo.custom_call @check.eq(%expected, %actual) : (tensor<3xi8>, tensor<3xi8>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @mismatch() -> tensor<i1> {
  %expected = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %a = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %0 = stablehlo.custom_call @check.eq(%expected, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

// Quantized operands compare their stored values.
func.func @quantized() -> tensor<i1> {
  %x = stablehlo.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi8>
  %e = stablehlo.bitcast_convert %s : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  %0 = stablehlo.custom_call @check.eq(%e, %q) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<i1>
  return %0 : tensor<i1>
}
