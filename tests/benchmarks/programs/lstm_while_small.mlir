// The small LSTM of lstm_scan64_small.mlir as a data-dependent loop: while i < steps, `steps` an
// argument (vkhlo-bench draws integers in [0, 64)), as JAX makes of lax.while_loop or
// fori_loop with traced bounds; the final h and c only (a stacked output, updated in place,
// keeps a loop on the host path). Issue 24's batched loops (docs/benchmarks.md "Loops on the
// device").
func.func @main(%steps: tensor<i32>, %xs: tensor<64x16x32xf32>, %wx: tensor<32x128xf32>, %wh: tensor<32x128xf32>,
                %b: tensor<128xf32>, %h0: tensor<16x32xf32>, %c0: tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %zero, %h = %h0, %c = %c0) : tensor<i32>, tensor<16x32xf32>, tensor<16x32xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %steps, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %x3 = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 16, 32] : (tensor<64x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %x = stablehlo.reshape %x3 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    %zx = stablehlo.dot_general %x, %wx, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
    %zh = stablehlo.dot_general %h, %wh, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<16x128xf32>
    %s = stablehlo.add %zx, %zh : tensor<16x128xf32>
    %g = stablehlo.add %s, %bb : tensor<16x128xf32>
    %gi = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 16, 32>, strides = array<i64: 1, 1>} : (tensor<16x128xf32>) -> tensor<16x32xf32>
    %gf = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 32>, limit_indices = array<i64: 16, 64>, strides = array<i64: 1, 1>} : (tensor<16x128xf32>) -> tensor<16x32xf32>
    %gg = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 64>, limit_indices = array<i64: 16, 96>, strides = array<i64: 1, 1>} : (tensor<16x128xf32>) -> tensor<16x32xf32>
    %go = "stablehlo.slice"(%g) {start_indices = array<i64: 0, 96>, limit_indices = array<i64: 16, 128>, strides = array<i64: 1, 1>} : (tensor<16x128xf32>) -> tensor<16x32xf32>
    %ii = stablehlo.logistic %gi : tensor<16x32xf32>
    %ff = stablehlo.logistic %gf : tensor<16x32xf32>
    %gt = stablehlo.tanh %gg : tensor<16x32xf32>
    %oo = stablehlo.logistic %go : tensor<16x32xf32>
    %fc = stablehlo.multiply %ff, %c : tensor<16x32xf32>
    %ig = stablehlo.multiply %ii, %gt : tensor<16x32xf32>
    %c2 = stablehlo.add %fc, %ig : tensor<16x32xf32>
    %tc = stablehlo.tanh %c2 : tensor<16x32xf32>
    %h2 = stablehlo.multiply %oo, %tc : tensor<16x32xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %h2, %c2 : tensor<i32>, tensor<16x32xf32>, tensor<16x32xf32>
  }
  return %r#1, %r#2 : tensor<16x32xf32>, tensor<16x32xf32>
}
