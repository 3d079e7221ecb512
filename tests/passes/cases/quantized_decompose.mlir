// PASSES: quantized-decompose
// uniform_quantize, per axis: divide by the scales, round half to even, add the zero points,
// clamp to the storage range, convert to the storage type; the bitcast_convert to the storage
// type disappears (the value already is its storage).
func.func @main() {
  %operand = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %result = "stablehlo.uniform_quantize"(%operand) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %bitcast_result = "stablehlo.bitcast_convert"(%result) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) ->  tensor<2xi8>
  check.expect_eq_const %bitcast_result, dense<[10, 10]> : tensor<2xi8>
  func.return
}
// CHECK-NOT: quant.uniform
// CHECK: %1 = "stablehlo.constant"() {value = dense<[0.1, 0.5]> : tensor<2xf32>}
// CHECK-NEXT: "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: "stablehlo.divide"(%0, %2)
// CHECK-NEXT: "stablehlo.round_nearest_even"(%3)
// CHECK: dense<[-30.0, -20.0]> : tensor<2xf32>
// CHECK: "stablehlo.add"
// CHECK: dense<-128.0> : tensor<2xf32>
// CHECK: dense<127.0> : tensor<2xf32>
// CHECK-NEXT: %10 = "stablehlo.clamp"(%8, %7, %9)
// CHECK-NEXT: %11 = "stablehlo.convert"(%10) : (tensor<2xf32>) -> tensor<2xi8>
// CHECK-NEXT: "check.expect_eq_const"(%11)
// CHECK-NOT: bitcast_convert

// -----
// uniform_dequantize, per tensor, of a narrowed storage range: widen, subtract the zero point
// in i32, convert to the expressed type, multiply by the scale. Function arguments of quantized
// types become their storage tensors.
func.func @main(%arg0: tensor<3x!quant.uniform<i8<-100:100>:f32, 0.25:-3>>) -> tensor<3xf32> {
  %0 = "stablehlo.uniform_dequantize"(%arg0) : (tensor<3x!quant.uniform<i8<-100:100>:f32, 0.25:-3>>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// CHECK: func.func @main(%arg0: tensor<3xi8>) -> tensor<3xf32> {
// CHECK-NEXT: %0 = "stablehlo.convert"(%arg0) : (tensor<3xi8>) -> tensor<3xi32>
// CHECK-NEXT: %1 = "stablehlo.constant"() {value = dense<-3> : tensor<3xi32>}
// CHECK-NEXT: %2 = "stablehlo.subtract"(%0, %1)
// CHECK-NEXT: %3 = "stablehlo.convert"(%2) : (tensor<3xi32>) -> tensor<3xf32>
// CHECK-NEXT: %4 = "stablehlo.constant"() {value = dense<0.25> : tensor<3xf32>}
// CHECK-NEXT: %5 = "stablehlo.multiply"(%3, %4)
// CHECK-NEXT: "func.return"(%5)

// -----
// The clamp bounds are storage_min/storage_max when the type narrows them.
func.func @main(%arg0: tensor<3xf32>) -> tensor<3xui8> {
  %0 = "stablehlo.uniform_quantize"(%arg0) : (tensor<3xf32>) -> tensor<3x!quant.uniform<ui8<2:200>:f32, 0.5:7>>
  %1 = "stablehlo.bitcast_convert"(%0) : (tensor<3x!quant.uniform<ui8<2:200>:f32, 0.5:7>>) -> tensor<3xui8>
  return %1 : tensor<3xui8>
}
// CHECK: func.func @main(%arg0: tensor<3xf32>) -> tensor<3xui8> {
// CHECK: dense<2.0> : tensor<3xf32>
// CHECK-NEXT: dense<200.0> : tensor<3xf32>
// CHECK: "stablehlo.convert"(%7) : (tensor<3xf32>) -> tensor<3xui8>

// -----
// An element-wise op on quantized tensors: dequantize each operand, add in f32, quantize the
// result. Data movement (transpose of a per-axis type) moves the storage as it is.
func.func @main(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1,0.25:0,1.0:2}>>, %b: tensor<3x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:0>> {
  %t = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1,0.25:0,1.0:2}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.5:1,0.25:0,1.0:2}>>
  %s = "stablehlo.add"(%t, %b) : (tensor<3x2x!quant.uniform<i8:f32:0, {0.5:1,0.25:0,1.0:2}>>, tensor<3x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:0>>
  return %s : tensor<3x2x!quant.uniform<i8:f32, 0.5:0>>
}
// CHECK: func.func @main(%arg0: tensor<2x3xi8>, %arg1: tensor<3x2xi8>) -> tensor<3x2xi8> {
// CHECK-NEXT: %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK-NEXT: %1 = "stablehlo.convert"(%0) : (tensor<3x2xi8>) -> tensor<3x2xi32>
// CHECK-NEXT: dense<[1, 0, 2]> : tensor<3xi32>
// CHECK-NEXT: "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3x2xi32>
// CHECK: dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
// CHECK: %8 = "stablehlo.multiply"
// CHECK: %14 = "stablehlo.multiply"
// CHECK-NEXT: %15 = "stablehlo.add"(%8, %14) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: "stablehlo.divide"(%15,
// CHECK: %24 = "stablehlo.convert"(%23) : (tensor<3x2xf32>) -> tensor<3x2xi8>
// CHECK-NEXT: "func.return"
// CHECK-NOT: quant.uniform

// -----
// A hybrid dot_general (float lhs and result, quantized weights) stays one op on the stored
// weights, the types it had in `vkhlo.quantized_types` (the kernel dequantizes as it loads).
func.func @main(%x: tensor<2x2xf32>, %w: tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 2.0}>>) -> tensor<2x3xf32> {
  %r = "stablehlo.dot_general"(%x, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2xf32>, tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 2.0}>>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
// CHECK: func.func @main(%arg0: tensor<2x2xf32>, %arg1: tensor<2x3xi8>) -> tensor<2x3xf32> {
// CHECK-NEXT: %0 = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-SAME: vkhlo.quantized_types = [tensor<2x2xf32>, tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0,0.25:0,2.0:0}>>, tensor<2x3xf32>]
// CHECK-SAME: (tensor<2x2xf32>, tensor<2x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"(%0)

// -----
// All quantized: the op on storage tensors with its types in `vkhlo.quantized_types`; the
// values around it are storage tensors.
func.func @main() {
  %a0 = stablehlo.constant dense<[[3, 5, -1], [1, 0, 7]]> : tensor<2x3xi8>
  %a = "stablehlo.bitcast_convert"(%a0) : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>
  %b0 = stablehlo.constant dense<[[4, -8], [2, 0], [12, 4]]> : tensor<3x2xi8>
  %b = "stablehlo.bitcast_convert"(%b0) : (tensor<3x2xi8>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.25:0, 0.5:2}>>
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25:0, 0.5:2}>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>
  %s = "stablehlo.bitcast_convert"(%r) : (tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>) -> tensor<2x2xi8>
  check.expect_eq_const %s, dense<[[-10, -66], [68, 26]]> : tensor<2x2xi8>
  func.return
}
// CHECK: "stablehlo.dot_general"(%0, %1)
// CHECK-SAME: vkhlo.quantized_types = [tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25:0,0.5:2}>>, tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>]
// CHECK-SAME: (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
// CHECK-NOT: bitcast_convert

// -----
// A hybrid convolution's weights quantized along another dimension than the output features:
// the spec's constraint, an error as in the interpreter.
func.func @main(%x: tensor<1x4x2xf32>, %k: tensor<2x2x3x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<1x3x3xf32> {
  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<2x2x3x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<1x3x3xf32>
  return %r : tensor<1x3x3xf32>
}
// CHECK-ERROR: 'stablehlo.convolution' rhs is quantized per axis along another dimension than the kernel output feature dimension

// -----
// Ops the pass cannot lower on quantized tensors are errors naming the op.
func.func @main(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:0>> {
  %r = stablehlo.custom_call @foo(%a) : (tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>
  return %r : tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>
}
// CHECK-ERROR: 'stablehlo.custom_call' on quantized tensors cannot be lowered by quantized-decompose

// -----
// A quantized lhs needs a quantized result (the interpreter's rule, checked when the pass keeps the op).
func.func @main(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>, %b: tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2xf32> {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>, tensor<2x2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
// CHECK-ERROR: 'stablehlo.dot_general' with quantized operands needs a quantized result
