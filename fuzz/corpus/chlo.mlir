func.func @c(%a: tensor<5x3xf32>, %i: tensor<4xi32>, %z: tensor<i32>) -> tensor<5x3xf32> {
  %0 = chlo.lgamma %a : tensor<5x3xf32> -> tensor<5x3xf32>
  %v, %k = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  %1:2 = chlo.scan(%i) inits(%z) dimension=0 {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %2 = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %2, %2 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0 : tensor<5x3xf32>
}
