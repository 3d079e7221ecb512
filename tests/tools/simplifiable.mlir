// For the vkhlo-opt --pass tests: x * 1 goes, the two equal exponentials merge, the unused
// negate goes.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %y = stablehlo.multiply %x, %one : tensor<4xf32>
  %a = stablehlo.exponential %y : tensor<4xf32>
  %b = stablehlo.exponential %x : tensor<4xf32>
  %unused = stablehlo.negate %a : tensor<4xf32>
  %s = stablehlo.add %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}
