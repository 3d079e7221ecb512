// A while loop of 3 iterations around an element-wise body, for the tool tests of
// --profile / --profile-summary (tests/CMakeLists.txt): its predicate reads are host steps.
func.func @main(%v: tensor<64xf32>) -> tensor<64xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %i, %acc = stablehlo.while(%arg0 = %zero, %arg1 = %v) : tensor<i32>, tensor<64xf32>
  cond {
    %c = stablehlo.compare LT, %arg0, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %arg0, %one : tensor<i32>
    %d = stablehlo.multiply %arg1, %arg1 : tensor<64xf32>
    stablehlo.return %n, %d : tensor<i32>, tensor<64xf32>
  }
  return %acc : tensor<64xf32>
}
