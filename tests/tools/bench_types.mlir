// vkhlo-bench's random inputs for element types of every storage kind: booleans, narrow and
// unsigned integers, bf16, complex.
func.func @main(%a: tensor<3xi1>, %b: tensor<5xi8>, %c: tensor<2xbf16>, %d: tensor<2xcomplex<f32>>, %e: tensor<7xui16>)
    -> (tensor<3xi1>, tensor<5xf32>, tensor<2xbf16>, tensor<2xf32>, tensor<7xui16>) {
  %0 = stablehlo.not %a : tensor<3xi1>
  %1 = stablehlo.convert %b : (tensor<5xi8>) -> tensor<5xf32>
  %2 = stablehlo.add %c, %c : tensor<2xbf16>
  %3 = stablehlo.real %d : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %4 = stablehlo.add %e, %e : tensor<7xui16>
  return %0, %1, %2, %3, %4 : tensor<3xi1>, tensor<5xf32>, tensor<2xbf16>, tensor<2xf32>, tensor<7xui16>
}
