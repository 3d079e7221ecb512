// A 2-D complex FFT over a batch of two (tests: runtime-only FFT from a plan's kernels).
func.func @main(%x: tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>> {
  %y = stablehlo.fft %x, type = FFT, length = [8, 6] : (tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>>
  return %y : tensor<2x8x6xcomplex<f32>>
}
