// A 2-layer MLP forward pass (MNIST-sized: batch 32, 784 -> 256 -> 10), as JAX lowers
// `relu(x @ w1 + b1) @ w2 + b2`: dot_general, bias broadcast and add, relu as maximum with a
// broadcast zero. vkhlo-compile-report counts its kernels with and without fusion.
module @mlp2 {
  func.func public @main(%x: tensor<32x784xf32>, %w1: tensor<784x256xf32>, %b1: tensor<256xf32>,
                         %w2: tensor<256x10xf32>, %b2: tensor<10xf32>) -> tensor<32x10xf32> {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<32x784xf32>, tensor<784x256xf32>) -> tensor<32x256xf32>
    %bb1 = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<256xf32>) -> tensor<32x256xf32>
    %h1 = stablehlo.add %h, %bb1 : tensor<32x256xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %a1 = stablehlo.maximum %h1, %z : tensor<32x256xf32>
    %o = stablehlo.dot_general %a1, %w2, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x10xf32>) -> tensor<32x10xf32>
    %bb2 = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<10xf32>) -> tensor<32x10xf32>
    %out = stablehlo.add %o, %bb2 : tensor<32x10xf32>
    return %out : tensor<32x10xf32>
  }
}
