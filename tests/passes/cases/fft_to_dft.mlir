// PASSES: fft-to-dft
// A length with a prime factor above 13 (17) becomes a dot_general with the 17 x 17 DFT matrix;
// an axis other than the last is contracted and transposed back. (The numbers are checked on the
// device against a long-double DFT by fft_test's PrimeLengths tests.)
func.func @fft_17(%x: tensor<3x17xcomplex<f32>>) -> tensor<3x17xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [17] : (tensor<3x17xcomplex<f32>>) -> tensor<3x17xcomplex<f32>>
  func.return %0 : tensor<3x17xcomplex<f32>>
}
// CHECK-NOT: stablehlo.fft
// CHECK: "stablehlo.constant"() {value = dense<"0x0000803F00000000
// CHECK-SAME: : tensor<17x17xcomplex<f32>>
// CHECK: "stablehlo.dot_general"(%arg0, %0)
// CHECK-SAME: lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]
// CHECK-SAME: -> tensor<3x17xcomplex<f32>>

// -----
func.func @fft2_17x4(%x: tensor<17x4xcomplex<f64>>) -> tensor<17x4xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = IFFT, length = [17, 4] : (tensor<17x4xcomplex<f64>>) -> tensor<17x4xcomplex<f64>>
  func.return %0 : tensor<17x4xcomplex<f64>>
}
// CHECK-NOT: stablehlo.fft
// CHECK: "stablehlo.dot_general"(%arg0, %0)
// CHECK-SAME: -> tensor<4x17xcomplex<f64>>
// CHECK: "stablehlo.transpose"
// CHECK-SAME: array<i64: 1, 0>
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: -> tensor<17x4xcomplex<f64>>

// -----
// RFFT converts to complex and keeps n/2 + 1 columns; IRFFT takes the real and imaginary parts
// through two real matrices.
func.func @rfft_irfft(%x: tensor<2x19xf32>) -> (tensor<2x10xcomplex<f32>>, tensor<2x19xf32>) {
  %0 = stablehlo.fft %x, type = RFFT, length = [19] : (tensor<2x19xf32>) -> tensor<2x10xcomplex<f32>>
  %1 = stablehlo.fft %0, type = IRFFT, length = [19] : (tensor<2x10xcomplex<f32>>) -> tensor<2x19xf32>
  func.return %0, %1 : tensor<2x10xcomplex<f32>>, tensor<2x19xf32>
}
// CHECK-NOT: stablehlo.fft
// CHECK: "stablehlo.convert"(%arg0)
// CHECK: tensor<19x10xcomplex<f32>>
// CHECK: "stablehlo.real"
// CHECK: tensor<10x19xf32>
// CHECK: "stablehlo.imag"
// CHECK: "stablehlo.add"

// -----
// Lengths of factors 2..13 and long lengths keep the device FFT.
func.func @kept(%x: tensor<16xcomplex<f32>>, %y: tensor<131xcomplex<f32>>) -> (tensor<16xcomplex<f32>>, tensor<131xcomplex<f32>>) {
  %0 = stablehlo.fft %x, type = FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
  %1 = stablehlo.fft %y, type = FFT, length = [131] : (tensor<131xcomplex<f32>>) -> tensor<131xcomplex<f32>>
  func.return %0, %1 : tensor<16xcomplex<f32>>, tensor<131xcomplex<f32>>
}
// CHECK: stablehlo.fft
// CHECK: stablehlo.fft
// CHECK-NOT: dot_general
