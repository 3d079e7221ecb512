func.func @f(%a: tensor<4x5xf32>, %z: tensor<f32>, %i: tensor<i64>) -> tensor<5xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  %1:2 = stablehlo.reduce(%a init: %z), (%a init: %z) across dimensions = [1] : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%x: tensor<f32>, %y: tensor<f32>) (%u: tensor<f32>, %v: tensor<f32>) {
    %2 = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %2, %u : tensor<f32>, tensor<f32>
  }
  %3 = stablehlo.while(%iterArg = %i) : tensor<i64>
   cond {
    %4 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i64>
  }
  return %0 : tensor<5xf32>
}
