// PASSES: inline
// Calls are replaced by the callee's body, transitively; private callees go, public ones stay.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %s = func.call @public_square(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @add_self(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @add_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func public @public_square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
// CHECK: func.func @main(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = "stablehlo.add"(%arg0, %arg0)
// CHECK-NEXT: %1 = "stablehlo.multiply"(%0, %0)
// CHECK-NEXT: "func.return"(%1)
// CHECK-NOT: @twice
// CHECK-NOT: @add_self
// CHECK: func.func public @public_square
// CHECK-NOT: func.call

// -----
// Calls inside regions, several results, a result that is a callee argument, and the same
// callee inlined twice.
func.func @main(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r = "stablehlo.if"(%p) ({
    %s, %t = func.call @swap(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %u = stablehlo.subtract %s, %t : tensor<f32>
    stablehlo.return %u : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %x, %y = func.call @swap(%r, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %x, %y : tensor<f32>, tensor<f32>
}
func.func private @swap(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %y, %x : tensor<f32>, tensor<f32>
}
// CHECK: %0 = "stablehlo.if"(%arg0)
// CHECK-NEXT: %1 = "stablehlo.subtract"(%arg2, %arg1)
// CHECK-NEXT: "stablehlo.return"(%1)
// CHECK: "stablehlo.return"(%arg1)
// CHECK: "func.return"(%arg2, %0)
// CHECK-NOT: @swap

// -----
// Direct recursion cannot be inlined.
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @loop(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @loop(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @loop(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
// CHECK-ERROR: function @loop is recursive (@loop -> @loop)

// -----
// Nor can recursion through other functions.
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @even(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @even(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @odd(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @odd(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @even(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
// CHECK-ERROR: function @even is recursive (@even -> @odd -> @even)
