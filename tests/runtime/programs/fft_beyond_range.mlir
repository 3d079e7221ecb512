// A batched FFT just above 128 MiB (8193 rows of 2048 complex<f32>): the runtime-only library
// runs it in runs of rows within 128 MiB (device/fft/fft_staged.h), with the kernels the plan
// carries for one run.
func.func @main(%x: tensor<8193x2048xcomplex<f32>>) -> tensor<8193x2048xcomplex<f32>> {
  %y = stablehlo.fft %x, type = FFT, length = [2048] : (tensor<8193x2048xcomplex<f32>>) -> tensor<8193x2048xcomplex<f32>>
  return %y : tensor<8193x2048xcomplex<f32>>
}
