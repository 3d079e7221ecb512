// PASSES: hoist-loop-products,cse,dce
// A counted loop's product of one slice per iteration with a loop-invariant operand (a scan's
// input projection) becomes one product before the loop, sliced in the body at the same index.
// Each chunk's @main runs in the interpreter before and after the passes: same bits.
func.func @main(%xs: tensor<4x2x3xf32>, %w: tensor<3x5xf32>, %h0: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%a = %xs, %b = %w, %i = %c0, %h = %h0) : tensor<4x2x3xf32>, tensor<3x5xf32>, tensor<i32>, tensor<2x5xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 2, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
      %y = stablehlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
      %t = stablehlo.tanh %h : tensor<2x5xf32>
      %hn = stablehlo.add %y, %t : tensor<2x5xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %b, %in, %hn : tensor<4x2x3xf32>, tensor<3x5xf32>, tensor<i32>, tensor<2x5xf32>
    }
  func.return %r#3 : tensor<2x5xf32>
}
// CHECK: "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-SAME: lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]
// CHECK-SAME: (tensor<4x2x3xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dynamic_slice"(%1,
// CHECK-SAME: slice_sizes = array<i64: 1, 2, 5>
// CHECK-NOT: "stablehlo.dot_general"
// CHECK: "stablehlo.tanh"

// -----
// The sliced operand on the right, a weight from outside the loop (captured), a counter from 2
// stepping down to -1 (its start 2 and the clamp of the slice index are unchanged), and a
// slice reshaped to another shape than the slice's: the stacked operand is reshaped first.
func.func @main(%xs: tensor<3x6xf32>, %w: tensor<4x2xf32>, %acc0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %c2 = stablehlo.constant dense<2> : tensor<i64>
  %r:3 = stablehlo.while(%a = %xs, %i = %c2, %acc = %acc0) : tensor<3x6xf32>, tensor<i64>, tensor<4x3xf32>
    cond {
      %n = stablehlo.constant dense<-1> : tensor<i64>
      %p = stablehlo.compare GT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i64>
      %s = stablehlo.dynamic_slice %a, %i, %z, sizes = [1, 6] : (tensor<3x6xf32>, tensor<i64>, tensor<i64>) -> tensor<1x6xf32>
      %x = stablehlo.reshape %s : (tensor<1x6xf32>) -> tensor<2x3xf32>
      %y = stablehlo.dot_general %w, %x, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
      %m = stablehlo.multiply %acc, %y : tensor<4x3xf32>
      %one = stablehlo.constant dense<1> : tensor<i64>
      %in = stablehlo.subtract %i, %one : tensor<i64>
      stablehlo.return %a, %in, %m : tensor<3x6xf32>, tensor<i64>, tensor<4x3xf32>
    }
  func.return %r#2 : tensor<4x3xf32>
}
// CHECK: "stablehlo.reshape"(%arg0) : (tensor<3x6xf32>) -> tensor<3x2x3xf32>
// CHECK: "stablehlo.dot_general"(%arg1, %1)
// CHECK-SAME: lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]
// CHECK-SAME: -> tensor<4x3x3xf32>
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dynamic_slice"(%2,
// CHECK-SAME: slice_sizes = array<i64: 4, 1, 3>
// CHECK-SAME: (tensor<4x3x3xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4x1x3xf32>
// CHECK-NOT: "stablehlo.dot_general"

// -----
// lax.scan with unroll=2: xs as [T/2, 2, ...], each step's half sliced out of the pair, and here
// transposed and converted too: the same ops apply to every pair at once before the product.
func.func @main(%xs: tensor<3x2x4x2xf32>, %w: tensor<4x5xf16>, %h0: tensor<2x5xf16>) -> tensor<2x5xf16> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%a = %xs, %i = %c0, %h = %h0) : tensor<3x2x4x2xf32>, tensor<i32>, tensor<2x5xf16>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, %z, sizes = [1, 2, 4, 2] : (tensor<3x2x4x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x4x2xf32>
      %pair = stablehlo.reshape %s : (tensor<1x2x4x2xf32>) -> tensor<2x4x2xf32>
      %half = stablehlo.slice %pair [1:2, 0:4, 0:2] : (tensor<2x4x2xf32>) -> tensor<1x4x2xf32>
      %m = stablehlo.reshape %half : (tensor<1x4x2xf32>) -> tensor<4x2xf32>
      %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
      %x = stablehlo.convert %t : (tensor<2x4xf32>) -> tensor<2x4xf16>
      %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf16>, tensor<4x5xf16>) -> tensor<2x5xf16>
      %hn = stablehlo.add %y, %h : tensor<2x5xf16>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %in, %hn : tensor<3x2x4x2xf32>, tensor<i32>, tensor<2x5xf16>
    }
  func.return %r#2 : tensor<2x5xf16>
}
// CHECK: "stablehlo.slice"(%arg0) {start_indices = array<i64: 0, 1, 0, 0>, limit_indices = array<i64: 3, 2, 4, 2>
// CHECK: "stablehlo.reshape"
// CHECK-SAME: (tensor<3x1x4x2xf32>) -> tensor<3x4x2xf32>
// CHECK: "stablehlo.transpose"
// CHECK-SAME: permutation = array<i64: 0, 2, 1>
// CHECK: "stablehlo.convert"
// CHECK-SAME: -> tensor<3x2x4xf16>
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: (tensor<3x2x4xf16>, tensor<4x5xf16>) -> tensor<3x2x5xf16>
// CHECK: "stablehlo.while"
// CHECK-NOT: "stablehlo.dot_general"

// -----
// Not hoisted: the weight changes each iteration.
func.func @main(%xs: tensor<4x2x3xf32>, %w: tensor<3x2xf32>, %h0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%a = %xs, %b = %w, %i = %c0, %h = %h0) : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 2, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
      %y = stablehlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
      %half = stablehlo.constant dense<0.5> : tensor<3x2xf32>
      %bn = stablehlo.multiply %b, %half : tensor<3x2xf32>
      %hn = stablehlo.add %y, %h : tensor<2x2xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %bn, %in, %hn : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    }
  func.return %r#3 : tensor<2x2xf32>
}
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>

// -----
// Not hoisted: the loop is not counted (its condition computes).
func.func @main(%xs: tensor<4x2x3xf32>, %w: tensor<3x2xf32>, %h0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%a = %xs, %b = %w, %i = %c0, %h = %h0) : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %j = stablehlo.add %i, %zero : tensor<i32>
      %p = stablehlo.compare LT, %j, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 2, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
      %y = stablehlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
      %hn = stablehlo.add %y, %h : tensor<2x2xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %b, %in, %hn : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    }
  func.return %r#3 : tensor<2x2xf32>
}
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>

// -----
// Not hoisted: one iteration reads one of 4 slices (fewer than half).
func.func @main(%xs: tensor<4x2x3xf32>, %w: tensor<3x2xf32>, %h0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%a = %xs, %b = %w, %i = %c0, %h = %h0) : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    cond {
      %n = stablehlo.constant dense<1> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 2, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
      %y = stablehlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
      %hn = stablehlo.add %y, %h : tensor<2x2xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %b, %in, %hn : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<2x2xf32>
    }
  func.return %r#3 : tensor<2x2xf32>
}
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>

// -----
// Not hoisted: the slice does not take whole rows; a batched product.
func.func @main(%xs: tensor<4x2x3xf32>, %w: tensor<3x2xf32>, %bs: tensor<4x2x3x3xf32>, %bw: tensor<2x3x3xf32>) -> (tensor<1x2xf32>, tensor<2x3x3xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %w) : tensor<i32>, tensor<3x2xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 1, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x1x3xf32>) -> tensor<1x3xf32>
      %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
      %zf = stablehlo.constant dense<0.0> : tensor<f32>
      %hn = stablehlo.pad %y, %zf, low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<1x2xf32>, tensor<f32>) -> tensor<3x2xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %in, %hn : tensor<i32>, tensor<3x2xf32>
    }
  %u:2 = stablehlo.while(%i = %c0, %h = %bw) : tensor<i32>, tensor<2x3x3xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %bs, %i, %z, %z, %z, sizes = [1, 2, 3, 3] : (tensor<4x2x3x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3x3xf32>
      %x = stablehlo.reshape %s : (tensor<1x2x3x3xf32>) -> tensor<2x3x3xf32>
      %y = stablehlo.dot_general %x, %bw, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
      %hn = stablehlo.add %y, %h : tensor<2x3x3xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %in, %hn : tensor<i32>, tensor<2x3x3xf32>
    }
  %v = stablehlo.slice %r#1 [0:1, 0:2] : (tensor<3x2xf32>) -> tensor<1x2xf32>
  func.return %v, %u#1 : tensor<1x2xf32>, tensor<2x3x3xf32>
}
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: -> tensor<1x2xf32>
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: -> tensor<2x3x3xf32>
