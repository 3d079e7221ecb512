func.func @f(%x: tensor<3xf32>, %i: tensor<1x1xi64>, %u: tensor<1xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
    stablehlo.return %arg1 : tensor<f32>
  }) : (tensor<3xf32>, tensor<1x1xi64>, tensor<1xf32>) -> tensor<3xf32>
  %1 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<3xf32>, tensor<1x1xi64>) -> tensor<1xf32>
  return %0 : tensor<3xf32>
}
