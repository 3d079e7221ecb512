// PASSES: fold-constants
// Chains of ops on constants become one constant (evaluated by the interpreter); ops with a
// non-constant operand stay.
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0.5, -0.0, 4.0]> : tensor<3xf32>
  %c = stablehlo.multiply %a, %b : tensor<3xf32>
  %d = stablehlo.negate %c : tensor<3xf32>
  %e = stablehlo.add %d, %x : tensor<3xf32>
  return %d, %e : tensor<3xf32>, tensor<3xf32>
}
// CHECK: %0 = "stablehlo.constant"() {value = dense<[-0.5, 0.0, -12.0]> : tensor<3xf32>}
// CHECK-NEXT: %1 = "stablehlo.add"(%0, %arg0)
// CHECK-NEXT: "func.return"(%0, %1)

// -----
// Reductions (with their region), data movement, comparisons and conversions fold too; ops with
// side effects do not.
func.func @main() -> (tensor<i32>, tensor<2x2xi32>, tensor<3xi1>, tensor<3xf16>, tensor<2xui32>, tensor<2xui32>) {
  %v = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%v init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<i32>
  %t = stablehlo.transpose %v, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %f = stablehlo.constant dense<[1.0, 0x7FC00000, -2.5]> : tensor<3xf32>
  %cmp = stablehlo.compare EQ, %f, %f, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %h = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xf16>
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui32>
  %cc = stablehlo.custom_call @opaque(%state) {has_side_effect = true} : (tensor<2xui32>) -> tensor<2xui32>
  return %sum, %t, %cmp, %h, %cc, %state : tensor<i32>, tensor<2x2xi32>, tensor<3xi1>, tensor<3xf16>, tensor<2xui32>, tensor<2xui32>
}
// CHECK-NOT: stablehlo.reduce
// CHECK: %0 = "stablehlo.constant"() {value = dense<10> : tensor<i32>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<[[1, 3], [2, 4]]> : tensor<2x2xi32>}
// CHECK-NEXT: %2 = "stablehlo.constant"() {value = dense<[true, false, true]> : tensor<3xi1>}
// CHECK-NEXT: %3 = "stablehlo.constant"() {value = dense<[1.0, 0x7E00, -2.5]> : tensor<3xf16>}
// CHECK-NEXT: %4 = "stablehlo.constant"() {value = dense<[1, 2]> : tensor<2xui32>}
// CHECK-NEXT: %5 = "stablehlo.custom_call"(%4)
// CHECK-NEXT: "func.return"(%0, %1, %2, %3, %5, %4)

// -----
// Results larger than the limit (1024 elements) are left alone, unless every operand is a splat
// and the op is element-wise: then one element is evaluated and the result is a splat.
func.func @main() -> (tensor<2048xi32>, tensor<100000xf32>) {
  %i = stablehlo.iota dim = 0 : tensor<2048xi32>
  %one = stablehlo.constant dense<1> : tensor<2048xi32>
  %big = stablehlo.add %i, %one : tensor<2048xi32>
  %two = stablehlo.constant dense<2.0> : tensor<100000xf32>
  %s = stablehlo.sqrt %two : tensor<100000xf32>
  return %big, %s : tensor<2048xi32>, tensor<100000xf32>
}
// CHECK: "stablehlo.iota"
// CHECK: "stablehlo.add"
// CHECK-NOT: stablehlo.sqrt
// CHECK: dense<1.4142135> : tensor<100000xf32>

// -----
// Ops whose region uses a value from outside are not evaluated on their own.
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%v init: %init) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %s = stablehlo.add %a, %b : tensor<f32>
      %t = stablehlo.add %s, %x : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  return %r : tensor<f32>
}
// CHECK: "stablehlo.reduce"
