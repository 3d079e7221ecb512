func.func @q(%a: tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30,0.5:-20}>> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30,0.5:-20}>>
  %1 = stablehlo.constant dense<[1, -2]> : tensor<2x!quant.uniform<i8:f32, 0.5:3>>
  return %0 : tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30,0.5:-20}>>
}
