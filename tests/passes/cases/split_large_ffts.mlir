// PASSES: split-large-ffts{max-transform-bytes=64 binding-bytes=64}
// One transform of 12 complex<f32> (96 bytes) beyond a 64-byte limit: the four-step split
// 12 = 3 x 4 — reshape, transpose, 4 x FFT_3, the twiddle grid (factored rows 4 = 2 x 2: two
// small grids of cosines and sines, broadcast), transpose, 3 x FFT_4, transpose, reshape. (The
// numbers: split_large_ffts_test on the interpreter, fft_split_test on the device.)
func.func @fft_12(%x: tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [12] : (tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>>
  func.return %0 : tensor<2x12xcomplex<f32>>
}
// CHECK: "stablehlo.reshape"(%arg0) : (tensor<2x12xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>
// CHECK: "stablehlo.transpose"
// CHECK-SAME: -> tensor<2x4x3xcomplex<f32>>
// CHECK: "stablehlo.fft"
// CHECK-SAME: fft_length = array<i64: 3>
// CHECK: "stablehlo.cosine"
// CHECK-SAME: tensor<2x3xf32>
// CHECK: "stablehlo.broadcast_in_dim"
// CHECK-SAME: -> tensor<2x2x2x3xcomplex<f32>>
// CHECK: "stablehlo.broadcast_in_dim"
// CHECK-SAME: -> tensor<2x2x2x3xcomplex<f32>>
// CHECK: "stablehlo.transpose"
// CHECK-SAME: -> tensor<2x3x4xcomplex<f32>>
// CHECK: "stablehlo.fft"
// CHECK-SAME: fft_length = array<i64: 4>
// CHECK: "stablehlo.transpose"
// CHECK-SAME: -> tensor<2x4x3xcomplex<f32>>
// CHECK: "stablehlo.reshape"
// CHECK-SAME: -> tensor<2x12xcomplex<f32>>

// -----
// Within the limit (8 points: 64 bytes): left alone.
func.func @fft_8(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = IFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return %0 : tensor<8xcomplex<f32>>
}
// CHECK: "stablehlo.fft"(%arg0)
// CHECK-SAME: fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type IFFT>
// CHECK-NOT: stablehlo.transpose

// -----
// Two axes: one transform per axis (the first transposed last and back); IRFFT's last axis goes
// last, to reals.
func.func @irfft_4x6(%x: tensor<4x4xcomplex<f32>>) -> tensor<4x6xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [4, 6] : (tensor<4x4xcomplex<f32>>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}
// CHECK: "stablehlo.transpose"(%arg0)
// CHECK: "stablehlo.fft"
// CHECK-SAME: fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4>
// CHECK: "stablehlo.transpose"
// CHECK: "stablehlo.fft"
// CHECK-SAME: fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 6>
// CHECK-SAME: -> tensor<4x6xf32>

// -----
// A prime length too long (13 > 7) takes Bluestein's form: the chirped input padded with zeros to
// 25 (the least 7-smooth length >= 2 x 13 - 1), the filter (13 conjugate chirp entries, then 12
// mirrored), transforms of 25 = 5 x 5 (the four-step split again), the first 13 outputs.
func.func @fft_prime(%x: tensor<13xcomplex<f32>>) -> tensor<13xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [13] : (tensor<13xcomplex<f32>>) -> tensor<13xcomplex<f32>>
  func.return %0 : tensor<13xcomplex<f32>>
}
// CHECK: "stablehlo.concatenate"
// CHECK-SAME: (tensor<13xcomplex<f32>>, tensor<12xcomplex<f32>>) -> tensor<25xcomplex<f32>>
// CHECK: "stablehlo.reverse"
// CHECK: "stablehlo.concatenate"
// CHECK-SAME: -> tensor<25xcomplex<f32>>
// CHECK: "stablehlo.fft"
// CHECK-SAME: fft_length = array<i64: 5>
// CHECK: fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 5>
// CHECK: "stablehlo.slice"
// CHECK-SAME: -> tensor<13xcomplex<f32>>
// CHECK-NOT: fft_length = array<i64: 13>
