// A real FFT of four values (tests: a plan with an FFT step, run by vkhlo-run and by the
// runtime-only example with the VkFFT kernels the plan carries).
func.func @main(%x: tensor<4xf32>) -> tensor<3xcomplex<f32>> {
  %y = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  return %y : tensor<3xcomplex<f32>>
}
