func.func @t(%a: tensor<2xf64>, %b: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.tuple %a, %b : tuple<tensor<2xf64>, tensor<i64>>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf64>, tensor<i64>>) -> tensor<i64>
  %t = stablehlo.after_all : !stablehlo.token
  %2:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %s, %r = stablehlo.rng_bit_generator %2#0, algorithm = THREE_FRY : (tensor<2xi64>) -> (tensor<2xi64>, tensor<4xui32>)
  return %1 : tensor<i64>
}
