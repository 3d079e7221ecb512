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
