// PASSES: canonicalize
// Floats: x + (-0.0), x - (+0.0), x * 1 and x / 1 go; x + (+0.0) (wrong for x = -0.0),
// x * 0 (NaN, inf, -0), x - x (inf - inf is NaN) and x - (-0.0) stay.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %pz = stablehlo.constant dense<0.0> : tensor<4xf32>
  %nz = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %keep_add_pz = stablehlo.add %x, %pz : tensor<4xf32>
  %drop_add_nz = stablehlo.add %nz, %x : tensor<4xf32>
  %drop_mul_one = stablehlo.multiply %x, %one : tensor<4xf32>
  %keep_mul_zero = stablehlo.multiply %x, %pz : tensor<4xf32>
  %keep_sub_self = stablehlo.subtract %x, %x : tensor<4xf32>
  %drop_sub_pz = stablehlo.subtract %x, %pz : tensor<4xf32>
  %keep_sub_nz = stablehlo.subtract %x, %nz : tensor<4xf32>
  %drop_div_one = stablehlo.divide %x, %one : tensor<4xf32>
  %keep_one_div = stablehlo.divide %one, %x : tensor<4xf32>
  return %keep_add_pz, %drop_add_nz, %drop_mul_one, %keep_mul_zero, %keep_sub_self, %drop_sub_pz, %keep_sub_nz, %drop_div_one, %keep_one_div : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK: "stablehlo.add"(%arg0, %0)
// CHECK-NEXT: "stablehlo.multiply"(%arg0, %0)
// CHECK-NEXT: "stablehlo.subtract"(%arg0, %arg0)
// CHECK-NEXT: "stablehlo.subtract"(%arg0, %1)
// CHECK-NEXT: "stablehlo.divide"(%2, %arg0)
// CHECK-NEXT: "func.return"(%3, %arg0, %arg0, %4, %5, %arg0, %6, %arg0, %7)

// -----
// Integers: ring identities and annihilators hold exactly.
func.func @main(%x: tensor<3xi32>, %u: tensor<3xui8>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xui8>, tensor<3xui8>, tensor<3xi32>, tensor<3xi32>) {
  %zero = stablehlo.constant dense<0> : tensor<3xi32>
  %one = stablehlo.constant dense<1> : tensor<3xi32>
  %ones = stablehlo.constant dense<255> : tensor<3xui8>
  %a = stablehlo.add %x, %zero : tensor<3xi32>
  %m = stablehlo.multiply %a, %one : tensor<3xi32>
  %mz = stablehlo.multiply %zero, %x : tensor<3xi32>
  %s = stablehlo.subtract %x, %x : tensor<3xi32>
  %neg = stablehlo.subtract %zero, %x : tensor<3xi32>
  %and = stablehlo.and %u, %ones : tensor<3xui8>
  %xor = stablehlo.xor %u, %u : tensor<3xui8>
  %shl = stablehlo.shift_left %x, %zero : tensor<3xi32>
  %d = stablehlo.divide %x, %one : tensor<3xi32>
  %o = stablehlo.or %x, %zero : tensor<3xi32>
  return %m, %mz, %s, %neg, %shl, %and, %xor, %d, %o : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xui8>, tensor<3xui8>, tensor<3xi32>, tensor<3xi32>
}
// CHECK: %0 = "stablehlo.constant"() {value = dense<0> : tensor<3xi32>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<0> : tensor<3xi32>}
// CHECK-NEXT: %2 = "stablehlo.negate"(%arg0)
// CHECK-NEXT: %3 = "stablehlo.constant"() {value = dense<0> : tensor<3xui8>}
// CHECK-NEXT: "func.return"(%arg0, %0, %1, %2, %arg0, %arg1, %3, %arg0, %arg0)

// -----
// Complex: x + (-0.0 - 0.0i) goes; x * (1 + 0i) stays (inf * (1 + 0i) has a NaN part).
func.func @main(%x: tensor<2xcomplex<f32>>) -> (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %nz = stablehlo.constant dense<(-0.0, -0.0)> : tensor<2xcomplex<f32>>
  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<2xcomplex<f32>>
  %a = stablehlo.add %x, %nz : tensor<2xcomplex<f32>>
  %m = stablehlo.multiply %x, %one : tensor<2xcomplex<f32>>
  return %a, %m : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
}
// CHECK-NOT: stablehlo.add
// CHECK: %1 = "stablehlo.multiply"(%arg0, %0)
// CHECK-NEXT: "func.return"(%arg0, %1)

// -----
// Formats without -0.0 (FNUZ): +0.0 is the additive identity.
func.func @main(%x: tensor<4xf8E4M3FNUZ>, %y: tensor<4xf16>) -> (tensor<4xf8E4M3FNUZ>, tensor<4xf16>) {
  %z8 = stablehlo.constant dense<0.0> : tensor<4xf8E4M3FNUZ>
  %z16 = stablehlo.constant dense<0.0> : tensor<4xf16>
  %a = stablehlo.add %x, %z8 : tensor<4xf8E4M3FNUZ>
  %b = stablehlo.add %y, %z16 : tensor<4xf16>
  return %a, %b : tensor<4xf8E4M3FNUZ>, tensor<4xf16>
}
// CHECK: %1 = "stablehlo.add"(%arg1, %0)
// CHECK-NEXT: "func.return"(%arg0, %1)

// -----
// Involutions and idempotent ops.
func.func @main(%x: tensor<4xf32>, %b: tensor<4xi1>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>) {
  %n = stablehlo.negate %x : tensor<4xf32>
  %nn = stablehlo.negate %n : tensor<4xf32>
  %not = stablehlo.not %b : tensor<4xi1>
  %notnot = stablehlo.not %not : tensor<4xi1>
  %a = stablehlo.abs %i : tensor<4xi8>
  %aa = stablehlo.abs %a : tensor<4xi8>
  %max = stablehlo.maximum %x, %x : tensor<4xf32>
  %min = stablehlo.minimum %nn, %nn : tensor<4xf32>
  %and = stablehlo.and %aa, %aa : tensor<4xi8>
  return %nn, %notnot, %and, %max, %min, %a : tensor<4xf32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>
}
// CHECK-NOT: stablehlo.negate
// CHECK-NOT: stablehlo.not
// CHECK: %0 = "stablehlo.abs"(%arg2)
// CHECK-NEXT: "func.return"(%arg0, %arg1, %0, %arg0, %arg0, %0)

// -----
// Integer comparisons of a value with itself are known; float ones are not (NaN != NaN).
func.func @main(%i: tensor<2xi32>, %x: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %eq = stablehlo.compare EQ, %i, %i, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %lt = stablehlo.compare LT, %i, %i, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %feq = stablehlo.compare EQ, %x, %x, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %eq, %lt, %feq : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}
// CHECK: %0 = "stablehlo.constant"() {value = dense<true> : tensor<2xi1>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<false> : tensor<2xi1>}
// CHECK-NEXT: %2 = "stablehlo.compare"(%arg1, %arg1)
// CHECK-NEXT: "func.return"(%0, %1, %2)

// -----
// select with a constant predicate, or with equal branches.
func.func @main(%p: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<3xi1>
  %mixed = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = stablehlo.select %t, %a, %b : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.select %f, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = stablehlo.select %p, %b, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = stablehlo.select %mixed, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
// CHECK: %1 = "stablehlo.select"(%0, %arg1, %arg2)
// CHECK-NEXT: "func.return"(%arg1, %arg2, %arg2, %1)

// -----
// Converts: same type goes; a chain through a lossless type goes or shortens; lossy chains stay.
func.func @main(%h: tensor<4xf16>, %f: tensor<4xf32>, %i: tensor<4xi8>, %b: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>, tensor<4xf16>) {
  %same = stablehlo.convert %f : tensor<4xf32>
  %h32 = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
  %h16 = stablehlo.convert %h32 : (tensor<4xf32>) -> tensor<4xf16>
  %f16 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf16>
  %f32 = stablehlo.convert %f16 : (tensor<4xf16>) -> tensor<4xf32>
  %i32 = stablehlo.convert %i : (tensor<4xi8>) -> tensor<4xi32>
  %if = stablehlo.convert %i32 : (tensor<4xi32>) -> tensor<4xf32>
  %fi = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  %fif = stablehlo.convert %fi : (tensor<4xi32>) -> tensor<4xf32>
  %i16 = stablehlo.convert %i : (tensor<4xi8>) -> tensor<4xf16>
  %i8 = stablehlo.convert %i16 : (tensor<4xf16>) -> tensor<4xi8>
  %u = stablehlo.convert %i : (tensor<4xi8>) -> tensor<4xui8>
  %back = stablehlo.convert %u : (tensor<4xui8>) -> tensor<4xi8>
  %b32 = stablehlo.convert %b : (tensor<4xbf16>) -> tensor<4xf32>
  %b16 = stablehlo.convert %b32 : (tensor<4xf32>) -> tensor<4xf16>
  return %h16, %same, %f32, %if, %fif, %i8, %back, %b16 : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>, tensor<4xf16>
}
// CHECK: %0 = "stablehlo.convert"(%arg1) : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %1 = "stablehlo.convert"(%0) : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: %2 = "stablehlo.convert"(%arg2) : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: %3 = "stablehlo.convert"(%arg1) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: %4 = "stablehlo.convert"(%3) : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: %5 = "stablehlo.convert"(%arg2) : (tensor<4xi8>) -> tensor<4xui8>
// CHECK-NEXT: %6 = "stablehlo.convert"(%5) : (tensor<4xui8>) -> tensor<4xi8>
// CHECK-NEXT: %7 = "stablehlo.convert"(%arg3) : (tensor<4xbf16>) -> tensor<4xf16>
// CHECK-NEXT: "func.return"(%arg0, %arg1, %1, %2, %4, %arg2, %6, %7)

// -----
// Transposes compose; the identity permutation goes.
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>) {
  %a = stablehlo.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %b = stablehlo.transpose %a, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  %c = stablehlo.transpose %b, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %id = stablehlo.transpose %x, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %t = stablehlo.transpose %s, dims = [2, 0, 1] : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  return %b, %c, %id, %t : tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>
}
// CHECK: %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %1 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT: "func.return"(%0, %arg0, %arg0, %1)

// -----
// Reshape chains, broadcasts of broadcasts, identity broadcasts, broadcast (old form).
func.func @main(%x: tensor<6xf32>, %s: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<5x3xf32>, tensor<3x4x2xf32>) {
  %r1 = stablehlo.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %r2 = stablehlo.reshape %r1 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r3 = stablehlo.reshape %r2 : (tensor<3x2xf32>) -> tensor<6xf32>
  %b1 = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
  %b2 = stablehlo.broadcast_in_dim %b1, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %id = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> tensor<3xf32>
  %old = stablehlo.broadcast %s, sizes = [5] : (tensor<3xf32>) -> tensor<5x3xf32>
  %m = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %n = stablehlo.broadcast_in_dim %m, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  return %r2, %r3, %b2, %id, %old, %n : tensor<3x2xf32>, tensor<6xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<5x3xf32>, tensor<3x4x2xf32>
}
// CHECK: %0 = "stablehlo.reshape"(%arg0) : (tensor<6xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %1 = "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %2 = "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %3 = "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: "func.return"(%0, %arg0, %1, %arg1, %2, %3)

// -----
// Splat constants reshaped, broadcast, transposed, sliced: splat constants of the new shape.
func.func @main() -> (tensor<1000x1000xf32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<2xi32>) {
  %c = stablehlo.constant dense<-0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<1000x1000xf32>
  %i = stablehlo.constant dense<7> : tensor<6xi32>
  %r = stablehlo.reshape %i : (tensor<6xi32>) -> tensor<2x3xi32>
  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %s = stablehlo.slice %i [1:5:2] : (tensor<6xi32>) -> tensor<2xi32>
  return %b, %r, %t, %s : tensor<1000x1000xf32>, tensor<2x3xi32>, tensor<3x2xi32>, tensor<2xi32>
}
// CHECK: %0 = "stablehlo.constant"() {value = dense<-0.0> : tensor<1000x1000xf32>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<7> : tensor<2x3xi32>}
// CHECK-NEXT: %2 = "stablehlo.constant"() {value = dense<7> : tensor<3x2xi32>}
// CHECK-NEXT: %3 = "stablehlo.constant"() {value = dense<7> : tensor<2xi32>}
// CHECK-NEXT: "func.return"(%0, %1, %2, %3)

// -----
// Slices, pads, concatenates and reverses that do nothing.
func.func @main(%x: tensor<3x1xf32>, %e: tensor<0x1xf32>, %p: tensor<f32>) -> (tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<2x1xf32>, tensor<3x1xf32>) {
  %s = stablehlo.slice %x [0:3, 0:1] : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %pad = stablehlo.pad %x, %p, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %shift = stablehlo.pad %x, %p, low = [1, 0], high = [-1, 0], interior = [0, 0] : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %c = stablehlo.concatenate %x, dim = 0 : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %ce = stablehlo.concatenate %e, %x, %e, dim = 0 : (tensor<0x1xf32>, tensor<3x1xf32>, tensor<0x1xf32>) -> tensor<3x1xf32>
  %r1 = stablehlo.reverse %x, dims = [1] : tensor<3x1xf32>
  %r0 = stablehlo.reverse %x, dims = [0] : tensor<3x1xf32>
  %rr = stablehlo.reverse %r0, dims = [0] : tensor<3x1xf32>
  %part = stablehlo.slice %x [1:3, 0:1] : (tensor<3x1xf32>) -> tensor<2x1xf32>
  return %s, %pad, %shift, %c, %ce, %r1, %part, %rr : tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<2x1xf32>, tensor<3x1xf32>
}
// CHECK: %0 = "stablehlo.pad"(%arg0, %arg2) {edge_padding_high = array<i64: -1, 0>, edge_padding_low = array<i64: 1, 0>
// CHECK-NEXT: %1 = "stablehlo.slice"(%arg0)
// CHECK-NEXT: "func.return"(%arg0, %arg0, %0, %arg0, %arg0, %arg0, %1, %arg0)

// -----
// Tuples, iotas of one element per row, dimension sizes, dot.
func.func @main(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3x1xi32>, tensor<i32>, tensor<2x4xf32>, tensor<2xf32>) {
  %t = stablehlo.tuple %x, %y : tuple<tensor<2x3xf32>, tensor<3x4xf32>>
  %g = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2x3xf32>, tensor<3x4xf32>>) -> tensor<2x3xf32>
  %i = stablehlo.iota dim = 1 : tensor<3x1xi32>
  %d = stablehlo.get_dimension_size %y, dim = 1 : (tensor<3x4xf32>) -> tensor<i32>
  %m = stablehlo.dot %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %mv = "stablehlo.dot"(%x, %v) {precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %g, %i, %d, %m, %mv : tensor<2x3xf32>, tensor<3x1xi32>, tensor<i32>, tensor<2x4xf32>, tensor<2xf32>
}
// CHECK-NOT: stablehlo.tuple
// CHECK: %0 = "stablehlo.constant"() {value = dense<0> : tensor<3x1xi32>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<4> : tensor<i32>}
// CHECK-NEXT: %2 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}
// CHECK-NEXT: %3 = "stablehlo.dot_general"(%arg0, %arg2) {precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>], dot_dimension_numbers
// CHECK-NEXT: "func.return"(%arg0, %0, %1, %2, %3)

// -----
// Ops inside regions are simplified too.
func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %bb = stablehlo.multiply %b, %one : tensor<f32>
      %s = stablehlo.add %a, %bb : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %r : tensor<f32>
}
// CHECK: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = "stablehlo.add"(%arg1, %arg2)
// CHECK-NEXT: "stablehlo.return"(%2)

// -----
// dynamic_conv with a constant padding is a convolution with that padding; a padding computed
// at run time keeps the op.
func.func @main(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi32>) -> (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) {
  %pad = stablehlo.constant dense<[[1, 0], [0, 1]]> : tensor<2x2xi32>
  %c = "stablehlo.dynamic_conv"(%x, %w, %pad) {
    window_strides = array<i64: 2, 2>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi32>) -> tensor<1x2x2x1xf32>
  %d = "stablehlo.dynamic_conv"(%x, %w, %p) {
    window_strides = array<i64: 2, 2>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi32>) -> tensor<1x2x2x1xf32>
  return %c, %d : tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>
}
// CHECK: "stablehlo.convolution"(%arg0, %arg1)
// CHECK-SAME: padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>
// CHECK: "stablehlo.dynamic_conv"(%arg0, %arg1, %arg2)
