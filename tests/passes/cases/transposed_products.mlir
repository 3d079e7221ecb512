// PASSES: transposed-products,dce
// A transpose that swaps a product's free dimensions is the product of the swapped operands
// (JAX's weight gradient: transpose(dot_general(dy, x)) with contracting dims [0] x [0]).
// Each chunk's @main runs in the interpreter before and after the passes: same bits.
func.func @main(%dy: tensor<6x4xf32>, %x: tensor<6x3xf32>, %w: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %g = stablehlo.dot_general %dy, %x, contracting_dims = [0] x [0], precision = [HIGH, DEFAULT] : (tensor<6x4xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %t = stablehlo.transpose %g, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %lr = stablehlo.constant dense<0.01> : tensor<3x4xf32>
  %s = stablehlo.multiply %lr, %t : tensor<3x4xf32>
  %r = stablehlo.subtract %w, %s : tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
// CHECK: "stablehlo.dot_general"(%arg1, %arg0)
// CHECK-SAME: lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]
// CHECK-SAME: precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]
// CHECK-SAME: (tensor<6x3xf32>, tensor<6x4xf32>) -> tensor<3x4xf32>
// CHECK-NOT: "stablehlo.transpose"

// -----
// Batch dimensions stay first; several free dimensions per side move as blocks, each in its
// order; integers, complex numbers.
func.func @main(%a: tensor<2x3x5x4xi32>, %b: tensor<2x4x6xi32>, %c: tensor<2x3x2xcomplex<f32>>, %d: tensor<2x2x5xcomplex<f32>>) -> (tensor<2x6x3x5xi32>, tensor<2x5x3xcomplex<f32>>) {
  %p = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [3] x [1] : (tensor<2x3x5x4xi32>, tensor<2x4x6xi32>) -> tensor<2x3x5x6xi32>
  %t = stablehlo.transpose %p, dims = [0, 3, 1, 2] : (tensor<2x3x5x6xi32>) -> tensor<2x6x3x5xi32>
  %q = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x2xcomplex<f32>>, tensor<2x2x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>>
  %u = stablehlo.transpose %q, dims = [0, 2, 1] : (tensor<2x3x5xcomplex<f32>>) -> tensor<2x5x3xcomplex<f32>>
  func.return %t, %u : tensor<2x6x3x5xi32>, tensor<2x5x3xcomplex<f32>>
}
// CHECK: "stablehlo.dot_general"(%arg1, %arg0)
// CHECK-SAME: lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]
// CHECK-SAME: lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3]
// CHECK-SAME: -> tensor<2x6x3x5xi32>
// CHECK: "stablehlo.dot_general"(%arg3, %arg2)
// CHECK-SAME: -> tensor<2x5x3xcomplex<f32>>
// CHECK-NOT: "stablehlo.transpose"

// -----
// Left alone: the product has another use (two products would be computed), the transpose
// moves a batch dimension, or it interleaves the free dimensions.
func.func @main(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<2x4x3xf32>, %d: tensor<2x3x5xf32>, %e: tensor<4x2x3xf32>, %f: tensor<3x5xf32>) -> (tensor<5x4xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<2x4x5xf32>) {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %q = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>
  %u = stablehlo.transpose %q, dims = [1, 2, 0] : (tensor<2x4x5xf32>) -> tensor<4x5x2xf32>
  %r = stablehlo.dot_general %e, %f, contracting_dims = [2] x [0] : (tensor<4x2x3xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
  %v = stablehlo.transpose %r, dims = [1, 0, 2] : (tensor<4x2x5xf32>) -> tensor<2x4x5xf32>
  func.return %t, %p, %u, %v : tensor<5x4xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<2x4x5xf32>
}
// CHECK: "stablehlo.dot_general"(%arg0, %arg1)
// CHECK: "stablehlo.transpose"
// CHECK: "stablehlo.dot_general"(%arg2, %arg3)
// CHECK: "stablehlo.transpose"
// CHECK: "stablehlo.dot_general"(%arg4, %arg5)
// CHECK: "stablehlo.transpose"

// -----
// Attention's q and k: transposes of the operands fold into the dimension numbers (the free
// dimension s keeps its place); the transposes are left to dce.
func.func @main(%q: tensor<2x5x3x4xf32>, %k: tensor<2x5x3x4xf32>) -> tensor<2x3x5x5xf32> {
  %qt = stablehlo.transpose %q, dims = [0, 2, 1, 3] : (tensor<2x5x3x4xf32>) -> tensor<2x3x5x4xf32>
  %kt = stablehlo.transpose %k, dims = [0, 2, 3, 1] : (tensor<2x5x3x4xf32>) -> tensor<2x3x4x5xf32>
  %s = stablehlo.dot_general %qt, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x5x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x5x5xf32>
  func.return %s : tensor<2x3x5x5xf32>
}
// CHECK: "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-SAME: lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2]
// CHECK-SAME: lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]
// CHECK-SAME: (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x3x5x5xf32>
// CHECK-NOT: "stablehlo.transpose"

// -----
// Left alone: a transpose that reorders the operand's free dimensions (the result's order is
// theirs). The transpose of an operand still folds when the transpose has other uses (it is
// computed for them; the product reads x).
func.func @main(%x: tensor<3x4x5xf32>, %w: tensor<5x2xf32>, %y: tensor<6x3xi32>, %z: tensor<6x7xi32>) -> (tensor<4x3x2xf32>, tensor<3x7xi32>, tensor<3x6xi32>) {
  %xt = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<3x4x5xf32>) -> tensor<4x3x5xf32>
  %p = stablehlo.dot_general %xt, %w, contracting_dims = [2] x [0] : (tensor<4x3x5xf32>, tensor<5x2xf32>) -> tensor<4x3x2xf32>
  %yt = stablehlo.transpose %y, dims = [1, 0] : (tensor<6x3xi32>) -> tensor<3x6xi32>
  %q = stablehlo.dot_general %yt, %z, contracting_dims = [1] x [0] : (tensor<3x6xi32>, tensor<6x7xi32>) -> tensor<3x7xi32>
  func.return %p, %q, %yt : tensor<4x3x2xf32>, tensor<3x7xi32>, tensor<3x6xi32>
}
// CHECK: "stablehlo.transpose"(%arg0)
// CHECK: "stablehlo.dot_general"(%0, %arg1)
// CHECK: "stablehlo.transpose"(%arg2)
// CHECK: "stablehlo.dot_general"(%arg2, %arg3)
// CHECK-SAME: lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]
