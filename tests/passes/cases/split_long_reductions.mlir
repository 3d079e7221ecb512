// PASSES: split-long-reductions
// Reduces whose rows pass 2^31 - 1 elements become a reduce over the innermost reduced
// dimensions that fit and a reduce of those partials (the Vulkan reduce kernel counts rows in
// uints; codegen/reduction). The values are checked on the device by index64_test.
func.func @full(%x: tensor<65537x65537xi32>) -> tensor<i32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1, 0] : (tensor<65537x65537xi32>, tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
// CHECK: "stablehlo.reduce"(%arg0, %0)
// CHECK: dimensions = array<i64: 1>} : (tensor<65537x65537xi32>, tensor<i32>) -> tensor<65537xi32>
// CHECK: "stablehlo.reduce"(%1, %0)
// CHECK: dimensions = array<i64: 0>} : (tensor<65537xi32>, tensor<i32>) -> tensor<i32>
// CHECK-NOT: "stablehlo.reduce"

// -----
// Kept dimensions between reduced ones, two operands (an argmax): the first reduce takes the
// inner dimensions 2 and 3 (65536 x 32767 = 2147418112 elements, below 2^31), the second
// dimension 0 of the partials, whose kept dimension 1 stays.
func.func @variadic(%v: tensor<3x5x65536x32767xf32>, %i: tensor<3x5x65536x32767xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %lo = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %no = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = stablehlo.reduce(%v init: %lo), (%i init: %no) across dimensions = [0, 2, 3] : (tensor<3x5x65536x32767xf32>, tensor<3x5x65536x32767xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
      %gt = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %m, %k : tensor<f32>, tensor<i32>
    }
  func.return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
// CHECK: "stablehlo.reduce"(%arg0, %arg1, %0, %1)
// CHECK: dimensions = array<i64: 2, 3>}
// CHECK-SAME: -> (tensor<3x5xf32>, tensor<3x5xi32>)
// CHECK: "stablehlo.reduce"(%2#0, %2#1, %0, %1)
// CHECK: dimensions = array<i64: 0>}
// CHECK-SAME: -> (tensor<5xf32>, tensor<5xi32>)

// -----
// Rows within 2^31 - 1 (and one dimension alone too long, which no split helps) stay as they are.
func.func @short(%x: tensor<65536x32767xf32>, %y: tensor<3000000000xi8>) -> (tensor<f32>, tensor<i8>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<65536x32767xf32>, tensor<f32>) -> tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i8>
  %t = stablehlo.reduce(%y init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<3000000000xi8>, tensor<i8>) -> tensor<i8>
  func.return %s, %t : tensor<f32>, tensor<i8>
}
// CHECK: "stablehlo.reduce"(%arg0, %0)
// CHECK: dimensions = array<i64: 0, 1>}
// CHECK: "stablehlo.reduce"(%arg1, %3)
// CHECK: dimensions = array<i64: 0>}
// CHECK-NOT: "stablehlo.reduce"
