// axpy: alpha * x + y, the example of XLA's overview, as StableHLO.
//   build/bin/vkhlo-run --device=reference examples/axpy.mlir \
//     --input='dense<3.0> : tensor<f32>' --input='dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>' \
//     --input='dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>'
module @axpy {
  func.func public @main(%alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %a = stablehlo.broadcast_in_dim %alpha, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %ax = stablehlo.multiply %a, %x : tensor<4xf32>
    %result = stablehlo.add %ax, %y : tensor<4xf32>
    return %result : tensor<4xf32>
  }
}
