// An inverse real FFT over a batch of three (tests: runtime-only FFT from a plan's kernels).
func.func @main(%x: tensor<3x9xcomplex<f32>>) -> tensor<3x16xf32> {
  %y = stablehlo.fft %x, type = IRFFT, length = [16] : (tensor<3x9xcomplex<f32>>) -> tensor<3x16xf32>
  return %y : tensor<3x16xf32>
}
