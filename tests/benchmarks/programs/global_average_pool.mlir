// A CNN's global average pool as JAX lowers `jnp.mean(x, axis=(1, 2))` on NHWC activations
// (batch 8, 8x8 spatial, 64 channels): a sum over H and W, then a divide by the constant 64.
// The divide is fused into the reduce's epilogue; with several channels per invocation it was
// once emitted per channel (close to 1 MB of SPIR-V, tens of seconds in lavapipe's compiler;
// issue 24). tests/codegen/kernel_size_test.cc keeps its kernels within the SPIR-V budget.
module @global_average_pool {
  func.func public @main(%x: tensor<8x8x8x64xf32>) -> tensor<8x64xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1, 2]
        : (tensor<8x8x8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
    %n = stablehlo.constant dense<64.0> : tensor<8x64xf32>
    %mean = stablehlo.divide %sum, %n : tensor<8x64xf32>
    return %mean : tensor<8x64xf32>
  }
}
