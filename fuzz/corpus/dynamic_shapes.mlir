func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %n: tensor<i64>, %s: tensor<2xindex>) -> tensor<?x?xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<i32>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<2xindex>) -> tensor<?x?xf32>
  %r = stablehlo.dynamic_reshape %b, %s : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xindex>
  %i = stablehlo.dynamic_iota %c, dim = 0 : (tensor<2xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
