// rng_bit_generator outputs from XLA (JAX 0.10.2 on CPU, lax.rng_bit_generator with the key
// uint32 [0x12345678, 0x9abcdef0, 42, 7], i.e. state [0x9abcdef012345678, 7 << 32 | 42]): the
// interpreter must reproduce them bit for bit.
func.func @main() {
  %state = stablehlo.constant dense<[11150031900141442680, 30064771114]> : tensor<2xui64>
  %s1, %b1 = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %b1, dense<[[4238270186, 2673442375, 991976948], [3204768699, 3544869810, 914263769]]> : tensor<2x3xui32>
  check.expect_eq_const %s1, dense<[11150031900141442680, 30064771116]> : tensor<2xui64>
  %s2, %b2 = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui64>)
  check.expect_eq_const %b2, dense<[11482347572603838186, 13764376754441444852, 3926732991317568434, 12355864349090425806, 15421766433906488432]> : tensor<5xui64>
  %s3, %b3 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %b3, dense<[[281907254, 2209269589, 1945750973], [3864720225, 424978591, 1236222287]]> : tensor<2x3xui32>
  check.expect_eq_const %s3, dense<[11150031900141442680, 30064771117]> : tensor<2xui64>
  %s4, %b4 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui64>)
  check.expect_eq_const %b4, dense<[16598846974846668854, 1825269152054429525, 5309534295197076925, 13803989255762176934, 2401945421197565930]> : tensor<5xui64>
  %s5, %b5 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %b5, dense<[[4238270186, 2673442375, 991976948], [3204768699, 3544869810, 914263769]]> : tensor<2x3xui32>
  func.return
}
