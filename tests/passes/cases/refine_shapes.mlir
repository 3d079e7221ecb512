// PASSES: refine-shapes
// JAX's pattern: @main reads the symbolic size with get_dimension_size, asserts on it, and passes
// it to the wrapped function as a dimension argument; shape operands are built from it. Every
// size becomes static, the callee is specialised, the assertion (which holds) goes.
func.func @main(%x: tensor<3x2xf32>) -> tensor<?x2xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<3x2xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %b, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b) {error_message = "Expected value >= 1 for dimension variable 'b' = {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %r = func.call @wrapped(%b, %x) : (tensor<i32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
func.func private @wrapped(%b: tensor<i32>, %x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %two = stablehlo.constant dense<[2]> : tensor<1xi32>
  %bias = stablehlo.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %r = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %big = stablehlo.dynamic_broadcast_in_dim %bias, %shape, dims = [0, 1] : (tensor<1x2xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %sum = stablehlo.add %x, %big : tensor<?x2xf32>
  return %sum : tensor<?x2xf32>
}
// CHECK: func.func @main(%arg0: tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: custom_call
// CHECK: callee = @wrapped_specialized_0
// CHECK: func.func private @wrapped_specialized_0(%arg0: tensor<i32>, %arg1: tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: "stablehlo.broadcast_in_dim"
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: "stablehlo.add"
// CHECK-SAME: (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: dynamic
// CHECK-NOT: func.func private @wrapped(

// -----
// One polymorphic function called at two shapes: two specialisations; the same shape twice
// reuses one.
func.func @main(%x: tensor<2xf32>, %y: tensor<5xf32>) -> (tensor<2xf32>, tensor<5xf32>, tensor<2xf32>) {
  %a = func.call @double(%x) : (tensor<2xf32>) -> tensor<?xf32>
  %b = func.call @double(%y) : (tensor<5xf32>) -> tensor<?xf32>
  %c = func.call @double(%x) : (tensor<2xf32>) -> tensor<?xf32>
  %a2 = stablehlo.convert %a : (tensor<?xf32>) -> tensor<2xf32>
  %b2 = stablehlo.convert %b : (tensor<?xf32>) -> tensor<5xf32>
  %c2 = stablehlo.convert %c : (tensor<?xf32>) -> tensor<2xf32>
  return %a2, %b2, %c2 : tensor<2xf32>, tensor<5xf32>, tensor<2xf32>
}
func.func private @double(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = stablehlo.add %x, %x : tensor<?xf32>
  return %s : tensor<?xf32>
}
// CHECK: callee = @double_specialized_0
// CHECK-SAME: -> tensor<2xf32>
// CHECK: callee = @double_specialized_1
// CHECK-SAME: -> tensor<5xf32>
// CHECK: callee = @double_specialized_0
// CHECK: func.func private @double_specialized_0(%arg0: tensor<2xf32>) -> tensor<2xf32>
// CHECK: func.func private @double_specialized_1(%arg0: tensor<5xf32>) -> tensor<5xf32>

// -----
// dynamic_reshape and dynamic_iota from computed shapes; an `index` shape operand; the index
// arithmetic folds and no index type is left.
func.func @main(%x: tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %n = stablehlo.multiply %d0, %d1 : tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %flat = stablehlo.dynamic_reshape %x, %n1 : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  %ni = stablehlo.convert %n1 : (tensor<1xi32>) -> tensor<1xindex>
  %iota = stablehlo.dynamic_iota %ni, dim = 0 : (tensor<1xindex>) -> tensor<?xf32>
  return %flat, %iota : tensor<?xf32>, tensor<?xf32>
}
// CHECK: "stablehlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<6xf32>
// CHECK-NOT: index
// CHECK-NOT: dynamic

// -----
// dynamic_pad, real_dynamic_slice, dynamic_gather and dynamic_conv with shape operands computed
// from the argument sizes become pad, slice, gather and convolution.
func.func @main(%x: tensor<5x4xf32>, %img: tensor<1x1x6x6xf32>, %k: tensor<1x1x3x3xf32>) -> (tensor<?x?xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<1x1x?x?xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %rows = stablehlo.get_dimension_size %x, dim = 0 : (tensor<5x4xf32>) -> tensor<i32>
  %r64 = stablehlo.convert %rows : (tensor<i32>) -> tensor<i64>
  %r1 = stablehlo.reshape %r64 : (tensor<i64>) -> tensor<1xi64>
  %one1 = stablehlo.constant dense<[1]> : tensor<1xi64>
  %zero1 = stablehlo.constant dense<[0]> : tensor<1xi64>
  %four1 = stablehlo.constant dense<[4]> : tensor<1xi64>
  %low = stablehlo.concatenate %one1, %zero1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %high = stablehlo.concatenate %zero1, %r1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %interior = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %padded = "stablehlo.dynamic_pad"(%x, %zero, %low, %high, %interior) : (tensor<5x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %last = stablehlo.subtract %r1, %one1 : tensor<1xi64>
  %start = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %limit = stablehlo.concatenate %last, %four1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %strides = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %sliced = "stablehlo.real_dynamic_slice"(%x, %start, %limit, %strides) : (tensor<5x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xf32>
  %idx = stablehlo.constant dense<[1]> : tensor<1xi32>
  %sizes = stablehlo.concatenate %last, %four1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %gathered = "stablehlo.dynamic_gather"(%x, %idx, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0]>, indices_are_sorted = true} : (tensor<5x4xf32>, tensor<1xi32>, tensor<2xi64>) -> tensor<?x4xf32>
  %h = stablehlo.get_dimension_size %img, dim = 2 : (tensor<1x1x6x6xf32>) -> tensor<i32>
  %pad_lo = stablehlo.constant dense<1> : tensor<i32>
  %h_odd = stablehlo.remainder %h, %pad_lo : tensor<i32>
  %pads = stablehlo.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi32>
  %conv = "stablehlo.dynamic_conv"(%img, %k, %pads) {dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2, 2>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>, tensor<2x2xi32>) -> tensor<1x1x?x?xf32>
  return %padded, %sliced, %gathered, %conv : tensor<?x?xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<1x1x?x?xf32>
}
// CHECK: "stablehlo.pad"(%arg0, %0) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 0, 5>, interior_padding = array<i64: 0, 1>} : (tensor<5x4xf32>, tensor<f32>) -> tensor<6x12xf32>
// CHECK: "stablehlo.slice"(%arg0) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 4, 4>, strides = array<i64: 2, 1>} : (tensor<5x4xf32>) -> tensor<2x4xf32>
// CHECK: "stablehlo.gather"
// CHECK-SAME: slice_sizes = array<i64: 4, 4>
// CHECK-SAME: -> tensor<4x4xf32>
// CHECK: "stablehlo.convolution"
// CHECK-SAME: -> tensor<1x1x3x3xf32>
// CHECK-NOT: dynamic

// -----
// Bounded dynamic sizes, a loop whose state has a dynamic type, and an if whose branches do.
func.func @main(%x: tensor<3x4xf32>, %p: tensor<i1>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %r = func.call @loop(%x, %p) : (tensor<3x4xf32>, tensor<i1>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  return %r : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
func.func private @loop(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %p: tensor<i1>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    cond {
      %c = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %a = stablehlo.add %acc, %acc : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
      stablehlo.return %n, %a : tensor<i32>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    }
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %w#1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  }, {
    %neg = stablehlo.negate %w#1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    stablehlo.return %neg : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  }) : (tensor<i1>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  return %r : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
// CHECK: func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<i1>) -> tensor<3x4xf32>
// CHECK: "stablehlo.while"
// CHECK: }) : (tensor<i32>, tensor<3x4xf32>) -> (tensor<i32>, tensor<3x4xf32>)
// CHECK: "stablehlo.if"
// CHECK: }) : (tensor<i1>) -> tensor<3x4xf32>
// CHECK-NOT: bounds

// -----
// A size that contradicts the program: output_dimensions of 5 rows for an operand of 3.
func.func @main(%x: tensor<3x4xf32>) -> tensor<?x4xf32> {
  %shape = stablehlo.constant dense<[5, 4]> : tensor<2xi64>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
// CHECK-ERROR: 'stablehlo.dynamic_broadcast_in_dim' with output_dimensions [5, 4]: operand dimension 0 must be 1 or match result dimension 0 (C5): expected 1 or 5, found 3

// -----
// Two refined sizes that must agree and do not: 3 rows and a dynamic_iota of 5.
func.func @main(%x: tensor<3xf32>) -> tensor<?xf32> {
  %five = stablehlo.constant dense<[5]> : tensor<1xi32>
  %iota = stablehlo.dynamic_iota %five, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  %r = func.call @add(%x, %iota) : (tensor<3xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func private @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %s = stablehlo.add %a, %b : tensor<?xf32>
  return %s : tensor<?xf32>
}
// CHECK-ERROR: 'stablehlo.add' operand types must match (C1): expected tensor<3xf32>, found tensor<5xf32>

// -----
// A shape computed from data does not fold: the error names the op and where the shape comes from.
func.func @main(%x: tensor<4xi32>) -> tensor<?xf32> {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  %shape = stablehlo.reshape %sum : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  return %iota : tensor<?xf32>
}
// CHECK-ERROR: 'stablehlo.dynamic_iota' operand 0 (a shape) does not fold to a constant for these argument shapes: it is computed by 'stablehlo.reshape'

// -----
// A shape assertion that fails: its message, with the values in place of {0}.
func.func @main(%x: tensor<0x2xf32>) -> tensor<0x2xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<0x2xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %b, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b) {error_message = "Expected value >= 1 for dimension variable 'b', found {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %x : tensor<0x2xf32>
}
// CHECK-ERROR: shape assertion failed for these argument shapes: Expected value >= 1 for dimension variable 'b', found 0
