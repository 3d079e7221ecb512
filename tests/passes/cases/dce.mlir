// PASSES: dce
// Unused pure ops go, transitively; ops with effects and used values stay.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %unused = stablehlo.multiply %a, %a : tensor<4xf32>
  %chain = stablehlo.exponential %unused : tensor<4xf32>
  %used = stablehlo.add %a, %a : tensor<4xf32>
  return %used : tensor<4xf32>
}
// CHECK: func.func @main
// CHECK-NOT: stablehlo.multiply
// CHECK-NOT: stablehlo.exponential
// CHECK: "stablehlo.add"
// CHECK-NEXT: "func.return"

// -----
// PASSES: dce
// Test ops and custom calls have effects: kept even without uses.
func.func @main() {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %d = stablehlo.constant dense<2.0> : tensor<f32>
  check.expect_eq_const %c, dense<1.0> : tensor<f32>
  %e = stablehlo.custom_call @foo(%d) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  return
}
// CHECK: dense<1.0>
// CHECK: dense<2.0>
// CHECK: "check.expect_eq_const"
// CHECK: "stablehlo.custom_call"

// -----
// Unreferenced private functions go (and the ones only they call); public ones stay.
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @used(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @used(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func private @unused(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @only_from_unused(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @only_from_unused(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func public @kept(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
// CHECK: @main
// CHECK: @used
// CHECK-NOT: @unused
// CHECK-NOT: @only_from_unused
// CHECK: @kept

// -----
// PASSES: dce
// A custom_call without has_side_effect computes a function of its operands (XLA's contract):
// unused, it goes; with has_side_effect = true it stays.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %pure = stablehlo.custom_call @pure_target(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %explicit = stablehlo.custom_call @explicit_pure(%a) {has_side_effect = false} : (tensor<4xf32>) -> tensor<4xf32>
  %effect = stablehlo.custom_call @effect_target(%a) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
// CHECK: func.func @main
// CHECK-NOT: @pure_target
// CHECK-NOT: @explicit_pure
// CHECK: call_target_name = "effect_target"
