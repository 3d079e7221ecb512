// docs/mpi.md's SPMD example of vkhlo-run --grid=mpi (tests/runtime/mpi: mpi.tool_spmd): every rank sums its
// input with the others' and returns it with its replica id.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %id = stablehlo.replica_id : tensor<ui32>
  func.return %r, %id : tensor<4xf32>, tensor<ui32>
}
