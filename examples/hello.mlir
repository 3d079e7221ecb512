// hello: the README's first program. It needs no inputs (iota makes them), so
// `build/bin/vkhlo-run examples/hello.mlir` runs it as is on the default device (Vulkan): the
// element-wise ops, the broadcast and the transpose fuse into loop kernels (`--stats` shows how
// many ran and that no tensor op was evaluated on the host).
module @hello {
  func.func public @main() -> (tensor<2x4xf32>, tensor<4x2xf32>) {
    %col = stablehlo.iota dim = 1 : tensor<2x4xf32>
    %row = stablehlo.iota dim = 0 : tensor<2x4xf32>
    %c = stablehlo.constant dense<0.5> : tensor<f32>
    %half = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %x = stablehlo.multiply %col, %half : tensor<2x4xf32>
    %y = stablehlo.add %x, %row : tensor<2x4xf32>
    %s = stablehlo.logistic %y : tensor<2x4xf32>
    %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    return %y, %t : tensor<2x4xf32>, tensor<4x2xf32>
  }
}
