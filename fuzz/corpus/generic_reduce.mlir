func.func @reduce(%input: tensor<1x6xi64>, %init: tensor<i64>) -> tensor<1xi64> {
  %result = "stablehlo.reduce"(%input, %init) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
  func.return %result : tensor<1xi64>
}
