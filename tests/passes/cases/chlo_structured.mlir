// PASSES: chlo-decompose
// top_k: a stable descending sort of (values, iota), then the first k.
func.func @main(%x: tensor<5x3xi32>) -> (tensor<5x2xi32>, tensor<5x2xi32>) {
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<5x3xi32> -> (tensor<5x2xi32>, tensor<5x2xi32>)
  return %values, %indices : tensor<5x2xi32>, tensor<5x2xi32>
}
// CHECK: "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<5x3xi32>
// CHECK-NEXT: "stablehlo.sort"
// CHECK: comparison_direction GT
// CHECK: {dimension = 1 : i64, is_stable = true}
// CHECK: "stablehlo.slice"
// CHECK-SAME: limit_indices = array<i64: 5, 2>
// CHECK-NOT: chlo.

// -----
// PASSES: chlo-decompose
// scan: a while loop slicing the input and updating the output at each position; chlo ops in
// the body are decomposed too.
func.func @main(%input: tensor<4xf32>, %init: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%x: tensor<f32>, %carry: tensor<f32>):
    %e = chlo.erf %x : tensor<f32> -> tensor<f32>
    %1 = stablehlo.add %e, %carry : tensor<f32>
    stablehlo.return %1, %1 : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<f32>
}
// CHECK: "stablehlo.while"
// CHECK: comparison_direction LT
// CHECK: "stablehlo.dynamic_slice"
// CHECK: "stablehlo.minimum"
// CHECK: "stablehlo.dynamic_update_slice"
// CHECK-NOT: chlo.

// -----
// PASSES: chlo-decompose
// ragged_dot (ragged non-contracting dimension): a dot against every group, masked by each
// row's group, summed over the groups.
func.func @main(%lhs: tensor<5x2xf32>, %rhs: tensor<2x2x3xf32>, %sizes: tensor<2xi32>) -> tensor<5x3xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]>} : (tensor<5x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// CHECK: "stablehlo.dot_general"
// CHECK-SAME: -> tensor<5x2x3xf32>
// CHECK: "stablehlo.reduce"
// CHECK: "stablehlo.select"
// CHECK: (tensor<5x2x3xf32>, tensor<f32>) -> tensor<5x3xf32>
// CHECK-NOT: chlo.

// -----
// PASSES: chlo-decompose
// Per-batch group sizes are not supported: a clear error naming the op.
func.func @main(%lhs: tensor<5x2xf32>, %rhs: tensor<2x2x3xf32>, %sizes: tensor<1x2xi32>) -> tensor<5x3xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]>} : (tensor<5x2xf32>, tensor<2x2x3xf32>, tensor<1x2xi32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// CHECK-ERROR: 'chlo.ragged_dot' cannot be decomposed: group_sizes of rank 2
