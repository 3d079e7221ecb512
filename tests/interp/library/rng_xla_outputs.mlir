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
  // THREE_FRY outputs of 32 bits or fewer pair elements along the dimension that needs the fewest
  // blocks (ir/threefry_layout.h): 1-D interleaved, 5x7 along dimension 1, 5x1x3 along 0, a
  // scalar takes word 0 of one block; 8- and 16-bit outputs keep the low bits.
  %s6, %b6 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui32>)
  check.expect_eq_const %b6, dense<[281907254, 3864720225, 2209269589, 424978591, 1945750973, 1236222287, 1761831846]> : tensor<7xui32>
  check.expect_eq_const %s6, dense<[11150031900141442680, 30064771118]> : tensor<2xui64>
  %s7, %b7 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x7xui32>)
  check.expect_eq_const %b7, dense<[[281907254, 3864720225, 2209269589, 424978591, 1945750973, 1236222287, 1761831846], [1885036522, 559246498, 2055529704, 775366124, 108094236, 457398892, 4133165248], [4264202259, 3344842992, 2188897749, 217806451, 2809120084, 2441539275, 4213658994], [4218674219, 203858433, 570709728, 436784789, 1568965421, 2762056787, 1725263713], [3938689665, 2297674086, 2666004336, 3093485941, 3274383269, 906303754, 2901591652]]> : tensor<5x7xui32>
  check.expect_eq_const %s7, dense<[11150031900141442680, 30064771134]> : tensor<2xui64>
  %s8, %b8 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5x2xui8>)
  check.expect_eq_const %b8, dense<[[[54, 97], [85, 159], [189, 79], [166, 23], [234, 162]], [[232, 236], [28, 108], [192, 196], [19, 240], [213, 115]], [[84, 203], [114, 114], [43, 1], [224, 149], [45, 83]]]> : tensor<3x5x2xui8>
  check.expect_eq_const %s8, dense<[11150031900141442680, 30064771129]> : tensor<2xui64>
  %s9, %b9 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<6xui16>)
  check.expect_eq_const %b9, dense<[36918, 62305, 51029, 43167, 52669, 16719]> : tensor<6xui16>
  check.expect_eq_const %s9, dense<[11150031900141442680, 30064771117]> : tensor<2xui64>
  %s10, %b10 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)
  check.expect_eq_const %b10, dense<281907254> : tensor<ui32>
  check.expect_eq_const %s10, dense<[11150031900141442680, 30064771115]> : tensor<2xui64>
  %s11, %b11 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1x6xui32>)
  check.expect_eq_const %b11, dense<[[281907254, 3864720225, 2209269589, 424978591, 1945750973, 1236222287]]> : tensor<1x6xui32>
  check.expect_eq_const %s11, dense<[11150031900141442680, 30064771117]> : tensor<2xui64>
  %s12, %b12 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x1x3xui32>)
  check.expect_eq_const %b12, dense<[[[281907254, 2209269589, 1945750973]], [[3864720225, 424978591, 1236222287]], [[1761831846, 1885036522, 2055529704]], [[3213991703, 559246498, 775366124]], [[108094236, 4133165248, 4264202259]]]> : tensor<5x1x3xui32>
  check.expect_eq_const %s12, dense<[11150031900141442680, 30064771123]> : tensor<2xui64>
  func.return
}
