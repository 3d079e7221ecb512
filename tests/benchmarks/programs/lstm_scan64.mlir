// An LSTM over 64 steps shaped like what JAX makes of lax.scan (batch 16, hidden 256): a
// while whose counter starts at 0, is compared with the constant 64 and stepped by 1; each
// step two matmuls (input and recurrent), the gates element-wise, the output stacked by
// dynamic_update_slice. Issue 24's loop benchmark (docs/benchmarks.md "Loops on the device").
func.func @main(%xs: tensor<64x16x256xf32>, %wx: tensor<256x1024xf32>, %wh: tensor<256x1024xf32>,
                %b: tensor<1024xf32>, %h0: tensor<16x256xf32>, %c0: tensor<16x256xf32>) -> (tensor<64x16x256xf32>, tensor<16x256xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %ys0 = stablehlo.constant dense<0.0> : tensor<64x16x256xf32>
  %r:4 = stablehlo.while(%i = %zero, %h = %h0, %c = %c0, %ys = %ys0) : tensor<i32>, tensor<16x256xf32>, tensor<16x256xf32>, tensor<64x16x256xf32>
  cond {
    %n = stablehlo.constant dense<64> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %x3 = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 16, 256] : (tensor<64x16x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x256xf32>
    %x = stablehlo.reshape %x3 : (tensor<1x16x256xf32>) -> tensor<16x256xf32>
    %zx = stablehlo.dot_general %x, %wx, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x1024xf32>) -> tensor<16x1024xf32>
    %zh = stablehlo.dot_general %h, %wh, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x1024xf32>) -> tensor<16x1024xf32>
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<1024xf32>) -> tensor<16x1024xf32>
    %s = stablehlo.add %zx, %zh : tensor<16x1024xf32>
    %g = stablehlo.add %s, %bb : tensor<16x1024xf32>
    %gi = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 16, 256>, strides = array<i64: 1, 1>} : (tensor<16x1024xf32>) -> tensor<16x256xf32>
    %gf = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 256>, limit_indices = array<i64: 16, 512>, strides = array<i64: 1, 1>} : (tensor<16x1024xf32>) -> tensor<16x256xf32>
    %gg = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 512>, limit_indices = array<i64: 16, 768>, strides = array<i64: 1, 1>} : (tensor<16x1024xf32>) -> tensor<16x256xf32>
    %go = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 768>, limit_indices = array<i64: 16, 1024>, strides = array<i64: 1, 1>} : (tensor<16x1024xf32>) -> tensor<16x256xf32>
    %ii = stablehlo.logistic %gi : tensor<16x256xf32>
    %ff = stablehlo.logistic %gf : tensor<16x256xf32>
    %gt = stablehlo.tanh %gg : tensor<16x256xf32>
    %oo = stablehlo.logistic %go : tensor<16x256xf32>
    %fc = stablehlo.multiply %ff, %c : tensor<16x256xf32>
    %ig = stablehlo.multiply %ii, %gt : tensor<16x256xf32>
    %c2 = stablehlo.add %fc, %ig : tensor<16x256xf32>
    %tc = stablehlo.tanh %c2 : tensor<16x256xf32>
    %h2 = stablehlo.multiply %oo, %tc : tensor<16x256xf32>
    %h3 = stablehlo.reshape %h2 : (tensor<16x256xf32>) -> tensor<1x16x256xf32>
    %ys2 = stablehlo.dynamic_update_slice %ys, %h3, %i, %z, %z : (tensor<64x16x256xf32>, tensor<1x16x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x16x256xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %h2, %c2, %ys2 : tensor<i32>, tensor<16x256xf32>, tensor<16x256xf32>, tensor<64x16x256xf32>
  }
  return %r#3, %r#1 : tensor<64x16x256xf32>, tensor<16x256xf32>
}
