// An inverse FFT with a length-1 axis, which VkFFT drops (tests: runtime-only FFT from a plan).
func.func @main(%x: tensor<4x1x8xcomplex<f32>>) -> tensor<4x1x8xcomplex<f32>> {
  %y = stablehlo.fft %x, type = IFFT, length = [1, 8] : (tensor<4x1x8xcomplex<f32>>) -> tensor<4x1x8xcomplex<f32>>
  return %y : tensor<4x1x8xcomplex<f32>>
}
