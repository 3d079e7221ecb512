// vkhlo-run --check --device=vulkan: checks inside a loop body are compared at every evaluation.
func.func @loop_checks() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.add %s, %i : tensor<i32>
    check.expect_eq %t, %t : tensor<i32>
    check.expect_almost_eq_const %zero, dense<0> : tensor<i32>
    stablehlo.return %n, %t : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<3> : tensor<i32>
  func.return
}

// -----

func.func @loop_checks_failing() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.add %s, %i : tensor<i32>
    check.expect_eq %t, %s : tensor<i32>
    check.expect_almost_eq_const %zero, dense<0> : tensor<i32>
    stablehlo.return %n, %t : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<3> : tensor<i32>
  func.return
}
