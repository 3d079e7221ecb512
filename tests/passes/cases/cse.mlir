// PASSES: cse
// Identical pure ops merge (constants with equal literals too); different attributes, result
// types or operands keep ops apart; ops with effects never merge.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %c1 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %c3 = stablehlo.constant dense<-2.0> : tensor<4xf32>
  %a = stablehlo.multiply %x, %c1 : tensor<4xf32>
  %b = stablehlo.multiply %x, %c2 : tensor<4xf32>
  %c = stablehlo.multiply %x, %c3 : tensor<4xf32>
  %s = stablehlo.add %a, %b : tensor<4xf32>
  %t = stablehlo.add %b, %a : tensor<4xf32>
  %i1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  %i2 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  %e1 = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %e2 = stablehlo.custom_call @effect(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %sum = stablehlo.add %e1, %e2 : tensor<4xf32>
  return %s, %t, %c, %i1, %i2, %sum : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}
// CHECK: %0 = "stablehlo.constant"() {value = dense<2.0> : tensor<4xf32>}
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<-2.0> : tensor<4xf32>}
// CHECK-NEXT: %2 = "stablehlo.multiply"(%arg0, %0)
// CHECK-NEXT: %3 = "stablehlo.multiply"(%arg0, %1)
// CHECK-NEXT: %4 = "stablehlo.add"(%2, %2)
// CHECK-NEXT: %5 = "stablehlo.convert"(%arg0)
// CHECK-NEXT: %6 = "stablehlo.custom_call"(%arg0)
// CHECK-NEXT: %7 = "stablehlo.custom_call"(%arg0)
// CHECK-NEXT: %8 = "stablehlo.add"(%6, %7)
// CHECK-NEXT: "func.return"(%4, %4, %3, %5, %5, %8)

// -----
// Values of an enclosing block are visible in nested regions: a duplicate there merges with
// the outer op. Duplicates in sibling regions do not see each other; after the region op, the
// region's ops are out of scope.
func.func @main(%p: tensor<i1>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %outer = stablehlo.exponential %x : tensor<f32>
  %r = "stablehlo.if"(%p) ({
    %inner = stablehlo.exponential %x : tensor<f32>
    %l = stablehlo.log %x : tensor<f32>
    %y = stablehlo.add %inner, %l : tensor<f32>
    stablehlo.return %y : tensor<f32>
  }, {
    %l2 = stablehlo.log %x : tensor<f32>
    stablehlo.return %l2 : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %after = stablehlo.log %x : tensor<f32>
  return %outer, %r, %after : tensor<f32>, tensor<f32>, tensor<f32>
}
// CHECK: %0 = "stablehlo.exponential"(%arg1)
// CHECK-NEXT: %1 = "stablehlo.if"(%arg0)
// CHECK-NEXT: %2 = "stablehlo.log"(%arg1)
// CHECK-NEXT: %3 = "stablehlo.add"(%0, %2)
// CHECK: %4 = "stablehlo.log"(%arg1)
// CHECK-NEXT: "stablehlo.return"(%4)
// CHECK: %5 = "stablehlo.log"(%arg1)
// CHECK-NEXT: "func.return"(%0, %1, %5)

// -----
// PASSES: cse
// Identical custom_calls without side effects merge; another target or backend_config keeps
// them apart.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = stablehlo.custom_call @pure(%x) {backend_config = "k"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = stablehlo.custom_call @pure(%x) {backend_config = "k"} : (tensor<4xf32>) -> tensor<4xf32>
  %c = stablehlo.custom_call @pure(%x) {backend_config = "other"} : (tensor<4xf32>) -> tensor<4xf32>
  %d = stablehlo.custom_call @pure2(%x) {backend_config = "k"} : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK: %0 = "stablehlo.custom_call"(%arg0)
// CHECK-SAME: backend_config = "k"
// CHECK-NEXT: %1 = "stablehlo.custom_call"(%arg0)
// CHECK-SAME: backend_config = "other"
// CHECK-NEXT: %2 = "stablehlo.custom_call"(%arg0)
// CHECK-SAME: call_target_name = "pure2"
// CHECK-NEXT: "func.return"(%0, %0, %1, %2)
