func.func @check() {
  %0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = stablehlo.constant dense<[(1.0, 2.0), (0x7FC00000, -0.0)]> : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %0, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32> {tolerance = 0.1 : f64}
  check.expect_close %0, %0, max_ulp_difference = 3 : tensor<2x2xf32>, tensor<2x2xf32>
  check.expect_eq %1, %1 : tensor<2xcomplex<f32>>
  %2 = interpreter.probe %0, probe_id = "p" : tensor<2x2xf32>
  func.return
}
