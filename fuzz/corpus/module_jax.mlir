module @jit_main attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> {mhlo.layout_mode = "default"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0:2 = call @inputs() : () -> (tensor<2xf32>, tensor<i32>)
    %1 = stablehlo.add %0#0, %arg0 : tensor<2xf32> loc(#loc1)
    stablehlo.custom_call @check.expect_close(%1, %0#0) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %1 : tensor<2xf32>
  }
  func.func private @inputs() -> (tensor<2xf32>, tensor<i32>) {
    %cst = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    return %cst, %c : tensor<2xf32>, tensor<i32>
  }
}
#loc1 = loc("x.py":1:2)
