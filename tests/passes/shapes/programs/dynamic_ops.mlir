// Shape-polymorphic programs of every dynamic op, run by tests/passes/shapes/programs_test.cc at the
// sizes of their RUN lines (the argument types; `=N` gives a scalar argument its value) through
// the interpreter on the program as written, the interpreter on the specialised (static)
// module, and the Vulkan device; results must agree. ERROR lines (types, then " : " and a
// message) must fail, on every path, with a message containing that text.

// dynamic_broadcast_in_dim of a bias to a batch given as a dimension argument (%n).
func.func @main(%x: tensor<?x3xf32>, %n: tensor<i64>, %bias: tensor<3xf32>) -> tensor<?x3xf32> {
  %n1 = stablehlo.reshape %n : (tensor<i64>) -> tensor<1xi64>
  %three = stablehlo.constant dense<[3]> : tensor<1xi64>
  %shape = stablehlo.concatenate %n1, %three, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %b = stablehlo.dynamic_broadcast_in_dim %bias, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %r = stablehlo.add %x, %b : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
// RUN: tensor<1x3xf32>, tensor<i64>=1, tensor<3xf32>
// RUN: tensor<4x3xf32>, tensor<i64>=4, tensor<3xf32>
// RUN: tensor<9x3xf32>, tensor<i64>=9, tensor<3xf32>
// ERROR: tensor<3x3xf32>, tensor<i64>=5, tensor<3xf32> : operand types must match (C1): expected tensor<3x3xf32>, found tensor<5x3xf32>

// -----
// dynamic_reshape: rows x cols into one vector and back, sizes from get_dimension_size.
func.func @main(%x: tensor<?x?xi32>) -> (tensor<?xi32>, tensor<?x?xi32>) {
  %r = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xi32>) -> tensor<i32>
  %c = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xi32>) -> tensor<i32>
  %n = stablehlo.multiply %r, %c : tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %flat = stablehlo.dynamic_reshape %x, %n1 : (tensor<?x?xi32>, tensor<1xi32>) -> tensor<?xi32>
  %c1 = stablehlo.reshape %c : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %r : (tensor<i32>) -> tensor<1xi32>
  %t = stablehlo.concatenate %c1, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %back = stablehlo.dynamic_reshape %flat, %t : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %flat, %back : tensor<?xi32>, tensor<?x?xi32>
}
// RUN: tensor<1x1xi32>
// RUN: tensor<2x3xi32>
// RUN: tensor<5x2xi32>

// -----
// dynamic_iota over an `index` shape from a dimension argument, added to the input.
func.func @main(%x: tensor<?xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %ni = stablehlo.convert %n1 : (tensor<1xi32>) -> tensor<1xindex>
  %iota = stablehlo.dynamic_iota %ni, dim = 0 : (tensor<1xindex>) -> tensor<?xf32>
  %r = stablehlo.add %x, %iota : tensor<?xf32>
  return %r : tensor<?xf32>
}
// RUN: tensor<2xf32>, tensor<i32>=2
// RUN: tensor<7xf32>, tensor<i32>=7
// ERROR: tensor<7xf32>, tensor<i32>=6 : operand types must match (C1)

// -----
// dynamic_pad: edge padding computed from the size, interior padding 1.
func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
  %zero = stablehlo.constant dense<-1> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %n64 = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>
  %low = stablehlo.reshape %n64 : (tensor<i64>) -> tensor<1xi64>
  %high = stablehlo.constant dense<[2]> : tensor<1xi64>
  %interior = stablehlo.constant dense<[1]> : tensor<1xi64>
  %p = "stablehlo.dynamic_pad"(%x, %zero, %low, %high, %interior) : (tensor<?xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
  return %p : tensor<?xi32>
}
// RUN: tensor<1xi32>
// RUN: tensor<4xi32>
// RUN: tensor<6xi32>

// -----
// real_dynamic_slice: x[1:n-1:2] along rows, every column.
func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %last = stablehlo.subtract %n, %one : tensor<i32>
  %last1 = stablehlo.reshape %last : (tensor<i32>) -> tensor<1xi32>
  %two1 = stablehlo.constant dense<[2]> : tensor<1xi32>
  %limit = stablehlo.concatenate %last1, %two1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %start = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %strides = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %s = "stablehlo.real_dynamic_slice"(%x, %start, %limit, %strides) : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %s : tensor<?x2xf32>
}
// RUN: tensor<2x2xf32>
// RUN: tensor<5x2xf32>
// RUN: tensor<8x2xf32>
// ERROR: tensor<1x2xf32> : start_indices[0] and limit_indices[0] must be ordered within dimension 0 (C3)

// -----
// dynamic_gather: rows n-2 long starting where the index says (clamped), as JAX's x[1:-1].
func.func @main(%x: tensor<?x3xf32>, %i: tensor<1xi32>) -> tensor<?x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %m = stablehlo.subtract %n, %two : tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %three = stablehlo.constant dense<[3]> : tensor<1xi32>
  %sizes = stablehlo.concatenate %m1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %g = "stablehlo.dynamic_gather"(%x, %i, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0]>, indices_are_sorted = true} : (tensor<?x3xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %g : tensor<?x3xf32>
}
// RUN: tensor<3x3xf32>, tensor<1xi32>
// RUN: tensor<6x3xf32>, tensor<1xi32>

// -----
// dynamic_conv: a strided SAME convolution over dynamic spatial sizes, its padding computed as
// JAX computes it.
func.func @main(%img: tensor<1x2x?x?xf32>, %k: tensor<3x2x3x3xf32>) -> tensor<1x3x?x?xf32> {
  %h = stablehlo.get_dimension_size %img, dim = 2 : (tensor<1x2x?x?xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  // out = ceil(h / 2); total = max((out - 1) * 2 + 3 - h, 0); low = total / 2
  %hp = stablehlo.add %h, %one : tensor<i32>
  %out = stablehlo.divide %hp, %two : tensor<i32>
  %o1 = stablehlo.subtract %out, %one : tensor<i32>
  %o2 = stablehlo.multiply %o1, %two : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %o3 = stablehlo.add %o2, %three : tensor<i32>
  %t = stablehlo.subtract %o3, %h : tensor<i32>
  %total = stablehlo.maximum %t, %zero : tensor<i32>
  %low = stablehlo.divide %total, %two : tensor<i32>
  %high = stablehlo.subtract %total, %low : tensor<i32>
  %lo1 = stablehlo.reshape %low : (tensor<i32>) -> tensor<1xi32>
  %hi1 = stablehlo.reshape %high : (tensor<i32>) -> tensor<1xi32>
  %row = stablehlo.concatenate %lo1, %hi1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %row2 = stablehlo.reshape %row : (tensor<2xi32>) -> tensor<1x2xi32>
  %pads = stablehlo.concatenate %row2, %row2, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %c = "stablehlo.dynamic_conv"(%img, %k, %pads) {dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2, 2>} : (tensor<1x2x?x?xf32>, tensor<3x2x3x3xf32>, tensor<2x2xi32>) -> tensor<1x3x?x?xf32>
  return %c : tensor<1x3x?x?xf32>
}
// RUN: tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>
// RUN: tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>

// -----
// A bounded dynamic batch through a function, a reduction and a loop whose state keeps its shape.
func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> (tensor<?xf32, #stablehlo.bounds<8>>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>) {
  %s = func.call @rowsum(%x) : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?xf32, #stablehlo.bounds<8>>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    cond {
      %c = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %a = stablehlo.multiply %acc, %acc : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
      stablehlo.return %n, %a : tensor<i32>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    }
  return %s, %w#1 : tensor<?xf32, #stablehlo.bounds<8>>, tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
func.func private @rowsum(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?xf32, #stablehlo.bounds<8>> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<f32>) -> tensor<?xf32, #stablehlo.bounds<8>>
  return %s : tensor<?xf32, #stablehlo.bounds<8>>
}
// RUN: tensor<1x4xf32>
// RUN: tensor<8x4xf32>
// ERROR: tensor<9x4xf32> : expected tensor<?x4xf32, #stablehlo.bounds<8, ?>>, found tensor<9x4xf32>

// -----
// A shape argument that is also data: the program scales by n and shapes an iota with it.
func.func @main(%n: tensor<i32>) -> tensor<?xi32> {
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %nb = stablehlo.dynamic_broadcast_in_dim %n, %n1, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
  %r = stablehlo.multiply %iota, %nb : tensor<?xi32>
  return %r : tensor<?xi32>
}
// RUN: tensor<i32>=0
// RUN: tensor<i32>=3
// RUN: tensor<i32>=10
// ERROR: tensor<i32>=-2 : output_shape [-2]
