// Invalid programs, as text, and the exact diagnostic the verifier gives for each: one or more
// per group of ops (element-wise, data movement, gather/scatter, reductions, control flow,
// library ops, collectives, module structure, chlo and test ops).
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

struct Case {
  const char* program;
  const char* diagnostic;
};

// clang-format off
const Case kCases[] = {
    {R"mlir(func.func @main(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.add' operand types must match (C1): expected tensor<2xf32>, found tensor<2xi32>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.and"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.and' lhs (I1) has an invalid type: expected tensor of boolean or integer type, found tensor<2xf32>"},
    {R"mlir(func.func @main(%a: tensor<2xui32>) -> tensor<2xui32> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xui32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.abs' operand (I1) has an invalid type: expected tensor of signed integer, floating-point, complex or quantized type, found tensor<2xui32>"},
    {R"mlir(func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.abs' result type must be the operand's shape with a real element type (C1, C2): expected tensor<2xf32>, found tensor<2xcomplex<f32>>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.compare' lhs and rhs must have the same element type (C1): expected f32, found f64"},
    {R"mlir(func.func @main(%a: tensor<2xi32>) -> tensor<2xi1> {
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.compare' compare_type must suit the element type i32 (C3): expected SIGNED, found FLOAT"},
    {R"mlir(func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.compare' result type must be a boolean tensor of the operands' shape (C2): expected tensor<2xi1>, found tensor<2xi32>"},
    {R"mlir(func.func @main(%a: tensor<2xf16>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.complex"(%a, %a) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.complex' lhs (I1) has an invalid type: expected tensor of type f32 or f64, found tensor<2xf16>"},
    {R"mlir(func.func @main(%a: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.clamp"(%a, %b, %b) : (tensor<3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.clamp' min must be a scalar or have the operand's shape (C1): expected rank 0 or the shape of tensor<2xf32>, found tensor<3xf32>"},
    {R"mlir(func.func @main(%p: tensor<3xi1>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.select"(%p, %b, %b) : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.select' pred must be a scalar or have on_true's shape (C1): expected rank 0 or the shape of tensor<2xf32>, found tensor<3xi1>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<3xi32> {
  %0 = "stablehlo.convert"(%a) : (tensor<2xf32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.convert' operand and result must have the same shape (C1): expected tensor<2xf32>, found tensor<3xi32>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2x2xi8> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2xf32>) -> tensor<2x2xi8>
  func.return %0 : tensor<2x2xi8>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.bitcast_convert' result shape must follow the element bit widths (C1): expected tensor<2x4xi8>, found tensor<2x2xi8>"},
    {R"mlir(func.func @main(%a: tensor<2x3xi8>) -> tensor<2xf32> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2x3xi8>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.bitcast_convert' operand's last dimension must be num_bits(result) / num_bits(operand) (C1): expected 4, found tensor<2x3xi8>"},
    {R"mlir(func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xf64> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  func.return %0 : tensor<2xf64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.bitcast_convert' cannot convert between complex and non-complex types (C2): expected a complex result, found tensor<2xf64>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 0 : i32, mantissa_bits = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce_precision' exponent_bits must be at least 1 (C2): expected >= 1, found 0"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.map"(%a, %a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.map' dimensions must be [0, ..., R-1] (C3): expected [0, 1], found [0]"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xi32> {
  %0 = "stablehlo.map"(%a, %a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.map' computation must have type (C4): expected (tensor<f32>, tensor<f32>) -> tensor<i32>, found (tensor<f32>, tensor<f32>) -> tensor<f32>"},
    {R"mlir(func.func @main(%a: tensor<2x1xf32>) -> tensor<3x2x4xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<2x1xf32>) -> tensor<3x2x4xf32>
  func.return %0 : tensor<3x2x4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.broadcast_in_dim' operand dimension 0 must be 1 or match result dimension 0 (C5): expected 1 or 3, found 2"},
    {R"mlir(func.func @main(%a: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 0] : (tensor<2x1xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.broadcast_in_dim' broadcast_dimensions must be unique (C4): expected unique values, found [0, 0]"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<5x3xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.concatenate' inputs must have the same shape except in dimension 1 (C2): expected tensor<2x3xf32>, found tensor<3x3xf32>"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<5x3xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 2 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.concatenate' dimension must be in range (C4): expected a value in [0, 2), found 2"},
    {R"mlir(func.func @main(%a: tensor<4x4xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %i, %j) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dynamic_slice' start_indices must have the same type (C3): expected tensor<i32>, found tensor<i64>"},
    {R"mlir(func.func @main(%a: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %i, %i) {slice_sizes = array<i64: 2, 5>} : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dynamic_slice' slice_sizes[1] must be in [0, dim(operand, 1)] (C4): expected a value in [0, 4], found 5"},
    {R"mlir(func.func @main(%a: tensor<4x4xf32>, %u: tensor<5x1xf32>, %i: tensor<i32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x4xf32>, tensor<5x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dynamic_update_slice' dim(update, 0) must be in [0, dim(operand, 0)] (C6): expected a value in [0, 4], found 5"},
    {R"mlir(func.func @main() -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.iota' iota_dimension must be in range (C1): expected a value in [0, 1), found 1"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<2x3xf32> {
  %0 = stablehlo.pad %a, %v, low = [0, 0], high = [0, -4], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.pad' result dimension 1 must be non-negative (C4): expected a size >= 0, found -1"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<3x3xf32> {
  %0 = stablehlo.pad %a, %v, low = [1, 0], high = [0, 0], interior = [0, -1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.pad' interior_padding must be in range (C3): expected values in [0, 9223372036854775807), found [0, -1]"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reshape' operand and result must have the same number of elements (C2): expected 6 elements, found 7 elements (tensor<7xf32>)"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reverse %a, dims = [1, 1] : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reverse' dimensions must be unique (C2): expected unique values, found [1, 1]"},
    {R"mlir(func.func @main(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0 = stablehlo.slice %a [3:2] : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.slice' start_indices[0] and limit_indices[0] must be ordered within dimension 0 (C3): expected 0 <= start <= limit <= 4, found start 3, limit 2"},
    {R"mlir(func.func @main(%a: tensor<7xf32>) -> tensor<3xf32> {
  %0 = stablehlo.slice %a [0:7:2] : (tensor<7xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.slice' result type must be the sliced operand's (C1, C5): expected tensor<4xf32>, found tensor<3xf32>"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.transpose' result type must be the permuted operand's (C1, C3): expected tensor<3x2xf32>, found tensor<2x3xf32>"},
    {R"mlir(func.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = "stablehlo.sort"(%a, %b) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.sort' comparator must have type (C5): expected (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>) -> tensor<i1>, found (tensor<f32>, tensor<f32>) -> tensor<i1>"},
    {R"mlir(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.sort' dimension must be in range (C4): expected a value in [-1, 1), found 1"},
    {R"mlir(func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %t = stablehlo.tuple %a, %a : tuple<tensor<4xf32>, tensor<4xf32>>
  %0 = stablehlo.get_tuple_element %t[2] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %1 = stablehlo.constant dense<0.0> : tensor<f32>
  func.return %1 : tensor<f32>
}
)mlir",
     "test.mlir:3:3: error: 'stablehlo.get_tuple_element' index must be in range (C1): expected a value in [0, 2), found 2"},
    {R"mlir(func.func @main(%a: tensor<4xf32>) -> tensor<i32> {
  %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<4xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.get_dimension_size' dimension must be in range (C1): expected a value in [0, 1), found 1"},
    {R"mlir(func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %1 = "stablehlo.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
)mlir",
     "test.mlir:3:3: error: 'stablehlo.constant' value and output must have the same type (C1): expected tensor<2xf32>, found tensor<3xf32>"},
    {R"mlir(func.func @main(%a: tensor<3x4x2xf32>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32> {
  %0 = "stablehlo.gather"(%a, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 2, 2, 2>, indices_are_sorted = false
  } : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  func.return %0 : tensor<2x3x2x2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.gather' slice_sizes[0] of a collapsed or batching dimension must be at most 1 (C8): expected 0 or 1, found 2"},
    {R"mlir(func.func @main(%a: tensor<3x4x2xf32>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32> {
  %0 = "stablehlo.gather"(%a, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0, 2], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false
  } : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  func.return %0 : tensor<2x3x2x2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.gather' start_index_map has the wrong size (C3): expected 2 values, found 3 values"},
    {R"mlir(func.func @main(%a: tensor<3x4x2xf32>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x3xf32> {
  %0 = "stablehlo.gather"(%a, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false
  } : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x3xf32>
  func.return %0 : tensor<2x3x2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.gather' result type must be the gathered shape of the operand (C13, C15): expected tensor<2x3x2x2xf32>, found tensor<2x3x2x3xf32>"},
    {R"mlir(func.func @main(%a: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x5x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %1 = stablehlo.add %x, %y : tensor<i64>
      stablehlo.return %1 : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>,
    indices_are_sorted = false, unique_indices = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x5x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.scatter' updates dimension 2 must fit in the input window (C4): expected a size <= 4, found 5"},
    {R"mlir(func.func @main(%a: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %1 = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %1 : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>,
    indices_are_sorted = false, unique_indices = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.scatter' update_computation must have type (C15): expected (tensor<i64>, tensor<i64>) -> tensor<i64>, found (tensor<i32>, tensor<i32>) -> tensor<i32>"},
    {R"mlir(func.func @main(%a: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<5xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce' dimensions must be in range (C4): expected values in [0, 2), found [2]"},
    {R"mlir(func.func @main(%a: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce' result types must be the inputs' without the reduced dimensions, of the body's element types (C7, C8): expected tensor<5xf32>, found tensor<4xf32>"},
    {R"mlir(func.func @main(%a: tensor<4x5xf32>, %z: tensor<i32>) -> tensor<5xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce' inputs[0] and init_values[0] must have the same element type (C2): expected f32, found i32"},
    {R"mlir(func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce_window' result types must have the shape of the windows and the body's element types (C14-C16): expected tensor<2x3xf32>, found tensor<2x2xf32>"},
    {R"mlir(func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 0>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce_window' window_strides must be positive (C7): expected values > 0, found [2, 0]"},
    {R"mlir(func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<0> : tensor<3x2xi64>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce_window' padding must have shape [2, 2] (C12): expected [2, 2], found [3, 2]"},
    {R"mlir(func.func @main(%a: tensor<4x2xi32>, %s: tensor<2x2xi32>, %z: tensor<i32>) -> tensor<4x2xi32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %1 = stablehlo.compare GE, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
  }, {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %1 = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %1 : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.select_and_scatter' source must have the shape of the operand's windows (C3): expected [1, 2], found tensor<2x2xi32>"},
    {R"mlir(func.func @main(%a: tensor<4x2xi32>, %s: tensor<2x2xi32>, %z: tensor<i32>) -> tensor<4x2xi32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %1 = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %1 : tensor<i32>
  }, {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %1 = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %1 : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.select_and_scatter' select must have type (C10): expected (tensor<i32>, tensor<i32>) -> tensor<i1>, found (tensor<i32>, tensor<i32>) -> tensor<i32>"},
    {R"mlir(func.func @main(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %1 = stablehlo.constant dense<0> : tensor<2xi32>
    stablehlo.return %1 : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.if' branches must have the same output types (C2): expected (tensor<2xf32>), found (tensor<2xi32>)"},
    {R"mlir(func.func @main(%i: tensor<i64>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.case' index (I1) has an invalid type: expected tensor<i32>, found tensor<i64>"},
    {R"mlir(func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.while(%x = %a) : tensor<i64>
  cond {
    stablehlo.return %x : tensor<i64>
  } do {
    stablehlo.return %x : tensor<i64>
  }
  func.return %0 : tensor<i64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.while' cond must have type (C1): expected (tensor<i64>) -> tensor<i1>, found (tensor<i64>) -> tensor<i64>"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dot_general' contracting dimension 0 of lhs and rhs must have the same size (C11): expected 3, found 4"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dot_general' result shape must be the batch, lhs free and rhs free dimensions (C13): expected tensor<2x5xf32>, found tensor<2x4xf32>"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x5xi32>) -> tensor<2x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xi32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.dot_general' lhs and rhs must have the same element type (C1): expected f32, found i32"},
    {R"mlir(func.func @main(%a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.convolution' dim(lhs, input_feature_dimension) must be divisible by feature_group_count (C12): expected a multiple of 2, found 1"},
    {R"mlir(func.func @main(%a: tensor<4x8xf32>) -> tensor<4x4xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x4xcomplex<f32>>
  func.return %0 : tensor<4x4xcomplex<f32>>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.fft' result type must follow fft_type and fft_length (C2, C4, C5): expected tensor<4x5xcomplex<f32>>, found tensor<4x4xcomplex<f32>>"},
    {R"mlir(func.func @main(%a: tensor<3x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.triangular_solve' a must be square and match dimension 0 of b (C3): expected 4x4 matrices, found tensor<3x3xf32>"},
    {R"mlir(func.func @main(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.cholesky' dim(a, -2) must equal dim(a, -1) (C3): expected 4, found 3"},
    {R"mlir(func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.batch_norm_inference' size(scale) must be dim(operand, feature_index) (C3): expected 3, found 2"},
    {R"mlir(func.func @main(%a: tensor<2x2xi64>) -> tensor<2x5xi64> {
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x5xi64>
  func.return %0 : tensor<2x5xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.all_gather' result type must be the gathered operand's (C6): expected tensor<2x4xi64>, found tensor<2x5xi64>"},
    {R"mlir(func.func @main(%a: tensor<2x2xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<2x4xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.all_gather' replica_groups values must be unique (C2): expected unique values, found [0, 0]"},
    {R"mlir(func.func @main(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %1 = stablehlo.add %x, %y : tensor<i64>
      stablehlo.return %1 : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.all_reduce' use_global_device_ids requires channel_id > 0 (C4): expected channel_id > 0, found 0"},
    {R"mlir(func.func @main(%a: tensor<4x6xi64>) -> tensor<2x12xi64> {
  %0 = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<4x6xi64>) -> tensor<2x12xi64>
  func.return %0 : tensor<2x12xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.all_to_all' dim(operand, split_dimension) must be divisible by split_count (C2): expected a multiple of 3, found 4"},
    {R"mlir(func.func @main(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.collective_permute' sources of source_target_pairs must be unique (C2): expected unique values, found [0, 0]"},
    {R"mlir(func.func @main(%a: tensor<4xi64>) -> tensor<3xi64> {
  %0 = "stablehlo.reduce_scatter"(%a) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %1 = stablehlo.add %x, %y : tensor<i64>
      stablehlo.return %1 : tensor<i64>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce_scatter' result type must be the scattered operand's (C8): expected tensor<2xi64>, found tensor<3xi64>"},
    {R"mlir(func.func @main(%t: !stablehlo.token) -> tensor<2xi64> {
  %0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  func.return %0#0 : tensor<2xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.recv' channel_type must be DEVICE_TO_DEVICE when is_host_transfer is false (C1): expected DEVICE_TO_DEVICE (1), found HOST_TO_DEVICE (3)"},
    {R"mlir(func.func @main(%t: !stablehlo.token) -> tensor<2xi64> {
  %0:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (!stablehlo.token, tensor<2xi64>)
  func.return %0#1 : tensor<2xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.infeed' last result must be a token (C2): expected !stablehlo.token, found tensor<2xi64>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @missing(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'func.call' callee must name a function of the module: expected a function named @missing, found none"},
    {R"mlir(func.func private @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  func.return %a : tensor<3xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @f(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:5:3: error: 'func.call' operand types must match the inputs of callee @f: expected (tensor<3xf32>), found (tensor<2xf32>)"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
}
)mlir",
     "test.mlir:1:1: error: 'func.func' @main: body must end with 'func.return': expected func.return, found stablehlo.add"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  func.return %a : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'func.return' operand types must match the result types of @main: expected (tensor<3xf32>), found (tensor<2xf32>)"},
    {R"mlir(func.func @main(%a: tensor<2xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %1 = stablehlo.add %x, %y : tensor<f32>
    func.return %1 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.reduce' region #0 must end with 'stablehlo.return': expected stablehlo.return, found func.return"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  stablehlo.return %a : tensor<2xf32>
}
)mlir",
     "test.mlir:1:1: error: 'func.func' @main: body must end with 'func.return': expected func.return, found stablehlo.return"},
    {R"mlir(func.func @main(%a: tensor<f32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%a, %a, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:3:3: error: 'stablehlo.rng' result shape must be `shape` (C3): expected [2, 4], found tensor<2x3xf32>"},
    {R"mlir(func.func @main(%a: tensor<3xui64>) -> tensor<4xui32> {
  %0:2 = "stablehlo.rng_bit_generator"(%a) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %0#1 : tensor<4xui32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.rng_bit_generator' initial_state of THREE_FRY must hold 2 64-bit words (C2): expected 128 bits, found 192 bits (tensor<3xui64>)"},
    {R"mlir(func.func @main(%a: tensor<2xi64>) -> tensor<2xi64> {
  %1 = stablehlo.composite "my.op" %a {decomposition = @impl} : (tensor<2xi64>) -> tensor<2xi64>
  func.return %1 : tensor<2xi64>
}
func.func private @impl(%a: tensor<3xi64>) -> tensor<3xi64> {
  func.return %a : tensor<3xi64>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.composite' operand types must match the inputs of decomposition @impl: expected (tensor<3xi64>), found (tensor<2xi64>)"},
    {R"mlir(func.func @main() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi64>
  func.return
}
)mlir",
     "test.mlir:3:3: error: 'check.expect_eq_const' value must have the operand's type: expected tensor<2xi32>, found tensor<2xi64>"},
    {R"mlir(func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2xf16> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.uniform_dequantize' result type must be the operand's shape with its expressed type (C1, C2): expected tensor<2xf32>, found tensor<2xf16>"},
    {R"mlir(func.func @main() -> tensor<3x4xi64> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
}
)mlir",
     "test.mlir:3:3: error: 'stablehlo.dynamic_iota' output_shape must match the result shape: expected [3, 4], found [3, 5]"},
    {R"mlir(func.func @main(%a: tensor<5x3xi32>) -> (tensor<5x2xi32>, tensor<5x2xi32>) {
  %v, %i = chlo.top_k(%a, k = 4) : tensor<5x3xi32> -> (tensor<5x2xi32>, tensor<5x2xi32>)
  func.return %v, %i : tensor<5x2xi32>, tensor<5x2xi32>
}
)mlir",
     "test.mlir:2:3: error: 'chlo.top_k' k must be at most the size of the last dimension: expected a value in [0, 3], found 4"},
    {R"mlir(func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = "chlo.broadcast_add"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)mlir",
     "test.mlir:2:3: error: 'chlo.broadcast_add' operand shapes must be broadcastable: expected tensor<2x3xf32>, found tensor<4xf32>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "chlo.erf"(%a) : (tensor<2xf32>) -> tensor<2xf64>
  func.return %a : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'chlo.erf' result type must match the operand's: expected tensor<2xf32>, found tensor<2xf64>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> !stablehlo.token {
  %0 = "stablehlo.after_all"(%a) : (tensor<2xf32>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.after_all' inputs (I1) has an invalid type: expected !stablehlo.token, found tensor<2xf32>"},
    {R"mlir(func.func @main() -> tensor<i32> {
  %0 = "stablehlo.partition_id"() : () -> tensor<i32>
  func.return %0 : tensor<i32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.partition_id' result type must be tensor<ui32>: expected tensor<ui32>, found tensor<i32>"},
    {R"mlir(func.func @main() -> tensor<4xi1> {
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.iota' output has an invalid type: expected tensor of integer, floating-point, complex or quantized type, found tensor<4xi1>"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:2 = "stablehlo.optimization_barrier"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  func.return %a, %a : tensor<2xf32>, tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.optimization_barrier' result types must match the operands' (C1, C2): expected (tensor<2xf32>, tensor<2xf32>), found (tensor<2xf32>, tensor<3xf32>)"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) {
  check.expect_close %a, %a, max_ulp_difference = 1, min_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  func.return
}
)mlir",
     "test.mlir:2:3: error: 'check.expect_close' ulp bounds must satisfy 0 <= min_ulp_difference <= max_ulp_difference: expected 0 <= min <= 1, found 3"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  stablehlo.custom_call @check.expect_eq(%a, %a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> ()
  func.return %a : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.custom_call' @check.expect_eq compares two values of one type: expected 2 operands, found 3 operands"},
    {R"mlir(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @foo(%a) {api_version = 7 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.custom_call' api_version must be a known version: expected 0 to 4, found 7"},
    {R"mlir(func.func @main(%a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return %0 : tensor<1x3x3x1xf32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.convolution' result shape must be the convolution's (C26, C28): expected tensor<1x2x2x1xf32>, found tensor<1x3x3x1xf32>"},
    {R"mlir(func.func @main(%a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xi32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xi32>
  func.return %0 : tensor<1x2x2x1xi32>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.convolution' result must have an element type of the same kind as lhs or a wider one (C27): expected f32, found i32"},
    {R"mlir(func.func @main(%a: tensor<4x5xf32>) -> tensor<4x5xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = FFT, length = [5] : (tensor<4x5xf32>) -> tensor<4x5xcomplex<f32>>
  func.return %0 : tensor<4x5xcomplex<f32>>
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.fft' operand of a FFT must be complex (C2): expected complex element type, found tensor<4x5xf32>"},
    {R"mlir(func.func @main(%t: !stablehlo.token, %a: tensor<2xf32>) -> !stablehlo.token {
  %0 = "stablehlo.send"(%a, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}
)mlir",
     "test.mlir:2:3: error: 'stablehlo.send' channel_type must be DEVICE_TO_HOST when is_host_transfer is true (C1): expected DEVICE_TO_HOST (2), found DEVICE_TO_DEVICE (1)"},
};
// clang-format on

TEST(InvalidProgramsTest, ExactDiagnostics) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.program);
    frontend::ParseOptions options;
    options.source_name = "test.mlir";
    auto module = frontend::ParseModule(c.program, options);
    ASSERT_TRUE(module.ok()) << module.status().message();
    Status status = verify::VerifyModule(**module);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), c.diagnostic);
  }
}

// The same programs with the offending op fixed are beyond a table; instead, a valid program
// of every group verifies (the conformance suite covers the rest).
TEST(InvalidProgramsTest, ValidProgramVerifies) {
  const char* program = R"mlir(func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<6xf32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<6xf32>) -> tensor<4x6xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %3 = stablehlo.dot_general %2, %1, contracting_dims = [1] x [0] : (tensor<6x4xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
  %4 = stablehlo.slice %3 [0:6, 2:3] : (tensor<6x6xf32>) -> tensor<6x1xf32>
  %5 = stablehlo.reshape %4 : (tensor<6x1xf32>) -> tensor<6xf32>
  func.return %5 : tensor<6xf32>
}
)mlir";
  auto module = frontend::ParseModule(program);
  ASSERT_TRUE(module.ok()) << module.status().message();
  Status status = verify::VerifyModule(**module);
  EXPECT_TRUE(status.ok()) << status.message();
}

}  // namespace
}  // namespace vkhlo
