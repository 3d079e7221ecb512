func.func @f(%a: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i64>, %p: tensor<2x3xi1>) -> tensor<1x2xf32> {
  %0 = stablehlo.pad %a, %v, low = [0, 1], high = [2, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x5xf32>
  %1 = stablehlo.dynamic_slice %0, %i, %i, sizes = [1, 2] : (tensor<5x5xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
  %2 = stablehlo.reverse %1, dims = [1] : tensor<1x2xf32>
  %3 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %4 = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %5 = stablehlo.select %p, %a, %4 : tensor<2x3xi1>, tensor<2x3xf32>
  %6 = stablehlo.transpose %5, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %7 = stablehlo.iota dim = 0 : tensor<4xi32>
  %8 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %9 = stablehlo.reduce_precision %a, format = e5m2 : tensor<2x3xf32>
  return %2 : tensor<1x2xf32>
}
