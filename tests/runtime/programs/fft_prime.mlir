// A complex FFT of prime length (VkFFT's Bluestein kernels; tests: runtime-only FFT from a plan).
func.func @main(%x: tensor<17xcomplex<f32>>) -> tensor<17xcomplex<f32>> {
  %y = stablehlo.fft %x, type = FFT, length = [17] : (tensor<17xcomplex<f32>>) -> tensor<17xcomplex<f32>>
  return %y : tensor<17xcomplex<f32>>
}
