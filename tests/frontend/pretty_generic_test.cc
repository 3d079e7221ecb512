// The pretty (custom) form of an op and its generic form must parse to the same IR: same
// attributes under the generic names, same types, same regions.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"
#include "tests/frontend/ir_compare.h"

namespace vkhlo::frontend {
namespace {

struct Case {
  const char* name;
  const char* pretty;
  const char* generic;
};

const Case kCases[] = {
    {"add",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = stablehlo.add %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = \"stablehlo.add\"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
     "  \"func.return\"(%0) : (tensor<2xf32>) -> ()\n}"},
    {"add_functional",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = stablehlo.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = \"stablehlo.add\"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
     "  func.return %0 : tensor<2xf32>\n}"},
    {"constant",
     "func.func @f() -> tensor<2xf32> {\n  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
     "  return %0 : tensor<2xf32>\n}",
     "func.func @f() -> tensor<2xf32> {\n"
     "  %0 = \"stablehlo.constant\"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>\n"
     "  return %0 : tensor<2xf32>\n}"},
    {"compare",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
     "  %0 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
     "  return %0 : tensor<2xi1>\n}",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
     "  %0 = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>,"
     " compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
     "  return %0 : tensor<2xi1>\n}"},
    {"convert",
     "func.func @f(%a: tensor<2xf32>) -> tensor<2xi32> {\n"
     "  %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xi32>\n  return %0 : tensor<2xi32>\n}",
     "func.func @f(%a: tensor<2xf32>) -> tensor<2xi32> {\n"
     "  %0 = \"stablehlo.convert\"(%a) : (tensor<2xf32>) -> tensor<2xi32>\n  return %0 : tensor<2xi32>\n}"},
    {"broadcast_in_dim",
     "func.func @f(%a: tensor<2xf32>) -> tensor<3x2xf32> {\n"
     "  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>\n"
     "  return %0 : tensor<3x2xf32>\n}",
     "func.func @f(%a: tensor<2xf32>) -> tensor<3x2xf32> {\n"
     "  %0 = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>) -> "
     "tensor<3x2xf32>\n  return %0 : tensor<3x2xf32>\n}"},
    {"reshape_transpose",
     "func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
     "  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
     "  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>\n"
     "  return %1 : tensor<2x3xf32>\n}",
     "func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
     "  %0 = \"stablehlo.reshape\"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
     "  %1 = \"stablehlo.transpose\"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>\n"
     "  return %1 : tensor<2x3xf32>\n}"},
    {"iota",
     "func.func @f() -> tensor<4x2xi32> {\n  %0 = stablehlo.iota dim = 1 : tensor<4x2xi32>\n"
     "  return %0 : tensor<4x2xi32>\n}",
     "func.func @f() -> tensor<4x2xi32> {\n"
     "  %0 = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> tensor<4x2xi32>\n"
     "  return %0 : tensor<4x2xi32>\n}"},
    {"slice",
     "func.func @f(%a: tensor<3x4xf32>) -> tensor<2x1xf32> {\n"
     "  %0 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<3x4xf32>) -> tensor<2x1xf32>\n"
     "  return %0 : tensor<2x1xf32>\n}",
     "func.func @f(%a: tensor<3x4xf32>) -> tensor<2x1xf32> {\n"
     "  %0 = \"stablehlo.slice\"(%a) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>,"
     " strides = array<i64: 1, 2>} : (tensor<3x4xf32>) -> tensor<2x1xf32>\n"
     "  return %0 : tensor<2x1xf32>\n}"},
    {"concatenate",
     "func.func @f(%a: tensor<1xf64>, %b: tensor<2xf64>) -> tensor<3xf64> {\n"
     "  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1xf64>, tensor<2xf64>) -> tensor<3xf64>\n"
     "  return %0 : tensor<3xf64>\n}",
     "func.func @f(%a: tensor<1xf64>, %b: tensor<2xf64>) -> tensor<3xf64> {\n"
     "  %0 = \"stablehlo.concatenate\"(%a, %b) {dimension = 0 : i64} : (tensor<1xf64>, tensor<2xf64>) -> tensor<3xf64>\n"
     "  return %0 : tensor<3xf64>\n}"},
    {"dot_general",
     "func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {\n"
     "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],"
     " precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
     "  return %0 : tensor<2x3x5xf32>\n}",
     "func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {\n"
     "  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0],"
     " rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,"
     " precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}"
     " : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
     "  return %0 : tensor<2x3x5xf32>\n}"},
    {"dot_general_algorithm",
     "func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {\n"
     "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16,"
     " rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1,"
     " num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<3x4xf32>, tensor<4x5xf32>) ->"
     " tensor<3x5xf32>\n  return %0 : tensor<3x5xf32>\n}",
     "func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {\n"
     "  %0 = \"stablehlo.dot_general\"(%a, %b) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = bf16,"
     " rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1,"
     " num_primitive_operations = 3, allow_imprecise_accumulation = false>, dot_dimension_numbers ="
     " #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}>"
     " : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>\n  return %0 : tensor<3x5xf32>\n}"},
    {"convolution",
     "func.func @f(%l: tensor<1x4x4x1xf32>, %r: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {\n"
     "  %0 = stablehlo.convolution(%l, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride"
     " = [4, 4], pad = [[0, 1], [1, 0]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, true]}"
     " {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision"
     " DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>\n"
     "  return %0 : tensor<1x2x2x1xf32>\n}",
     "func.func @f(%l: tensor<1x4x4x1xf32>, %r: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {\n"
     "  %0 = \"stablehlo.convolution\"(%l, %r) {batch_group_count = 1 : i64, dimension_numbers ="
     " #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64,"
     " lhs_dilation = array<i64: 2, 2>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>,"
     " precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>],"
     " rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, true>,"
     " window_strides = array<i64: 4, 4>} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>\n"
     "  return %0 : tensor<1x2x2x1xf32>\n}"},
    {"reduce_applies",
     "func.func @f(%a: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<5xf32> {\n"
     "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0]"
     " : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>\n  return %0 : tensor<5xf32>\n}",
     "func.func @f(%a: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<5xf32> {\n"
     "  %0 = \"stablehlo.reduce\"(%a, %z) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
     "    %1 = \"stablehlo.add\"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
     "    \"stablehlo.return\"(%1) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 0>}"
     " : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>\n  return %0 : tensor<5xf32>\n}"},
    {"reduce_region",
     "func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>, %z: tensor<f32>, %w: tensor<i32>) -> tensor<f32> {\n"
     "  %0:2 = stablehlo.reduce(%a init: %z), (%b init: %w) across dimensions = [0]"
     " : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
     "   reducer(%x0: tensor<f32>, %y0: tensor<f32>) (%x1: tensor<i32>, %y1: tensor<i32>)  {\n"
     "    %1 = stablehlo.maximum %x0, %y0 : tensor<f32>\n    %2 = stablehlo.add %x1, %y1 : tensor<i32>\n"
     "    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>\n  }\n  return %0#0 : tensor<f32>\n}",
     "func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>, %z: tensor<f32>, %w: tensor<i32>) -> tensor<f32> {\n"
     "  %0:2 = \"stablehlo.reduce\"(%a, %b, %z, %w) ({\n"
     "  ^bb0(%x0: tensor<f32>, %x1: tensor<i32>, %y0: tensor<f32>, %y1: tensor<i32>):\n"
     "    %1 = \"stablehlo.maximum\"(%x0, %y0) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
     "    %2 = \"stablehlo.add\"(%x1, %y1) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
     "    \"stablehlo.return\"(%1, %2) : (tensor<f32>, tensor<i32>) -> ()\n  }) {dimensions = array<i64: 0>}"
     " : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
     "  return %0#0 : tensor<f32>\n}"},
    {"while",
     "func.func @f(%i: tensor<i64>, %n: tensor<i64>) -> tensor<i64> {\n"
     "  %0:2 = stablehlo.while(%iterArg = %i, %iterArg_0 = %n) : tensor<i64>, tensor<i64>\n   cond {\n"
     "    %1 = stablehlo.compare  LT, %iterArg, %iterArg_0,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
     "    stablehlo.return %1 : tensor<i1>\n  } do {\n"
     "    %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<i64>\n"
     "    stablehlo.return %1, %iterArg_0 : tensor<i64>, tensor<i64>\n  }\n  return %0#0 : tensor<i64>\n}",
     "func.func @f(%i: tensor<i64>, %n: tensor<i64>) -> tensor<i64> {\n"
     "  %0:2 = \"stablehlo.while\"(%i, %n) ({\n  ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
     "    %1 = \"stablehlo.compare\"(%a, %b) {compare_type = #stablehlo<comparison_type SIGNED>,"
     " comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
     "    \"stablehlo.return\"(%1) : (tensor<i1>) -> ()\n  }, {\n  ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
     "    %1 = \"stablehlo.add\"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
     "    \"stablehlo.return\"(%1, %b) : (tensor<i64>, tensor<i64>) -> ()\n  }) : (tensor<i64>, tensor<i64>) ->"
     " (tensor<i64>, tensor<i64>)\n  return %0#0 : tensor<i64>\n}"},
    {"select_clamp",
     "func.func @f(%p: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xf32>\n"
     "  %1 = stablehlo.clamp %a, %0, %b : tensor<2xf32>\n  return %1 : tensor<2xf32>\n}",
     "func.func @f(%p: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %0 = \"stablehlo.select\"(%p, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
     "  %1 = \"stablehlo.clamp\"(%a, %0, %b) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
     "  return %1 : tensor<2xf32>\n}"},
    {"pad_dynamic_slice_reverse",
     "func.func @f(%a: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i64>) -> tensor<1x2xf32> {\n"
     "  %0 = stablehlo.pad %a, %v, low = [0, 1], high = [2, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>)"
     " -> tensor<5x5xf32>\n"
     "  %1 = stablehlo.dynamic_slice %0, %i, %i, sizes = [1, 2] : (tensor<5x5xf32>, tensor<i64>, tensor<i64>) ->"
     " tensor<1x2xf32>\n  %2 = stablehlo.reverse %1, dims = [1] : tensor<1x2xf32>\n  return %2 : tensor<1x2xf32>\n}",
     "func.func @f(%a: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i64>) -> tensor<1x2xf32> {\n"
     "  %0 = \"stablehlo.pad\"(%a, %v) {edge_padding_high = array<i64: 2, 1>, edge_padding_low = array<i64: 0, 1>,"
     " interior_padding = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x5xf32>\n"
     "  %1 = \"stablehlo.dynamic_slice\"(%0, %i, %i) {slice_sizes = array<i64: 1, 2>} : (tensor<5x5xf32>,"
     " tensor<i64>, tensor<i64>) -> tensor<1x2xf32>\n"
     "  %2 = \"stablehlo.reverse\"(%1) {dimensions = array<i64: 1>} : (tensor<1x2xf32>) -> tensor<1x2xf32>\n"
     "  return %2 : tensor<1x2xf32>\n}"},
    {"fft_rng_reduce_precision",
     "func.func @f(%a: tensor<4xcomplex<f32>>, %s: tensor<2xui64>, %x: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.fft %a, type =  FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
     "  %1:2 = stablehlo.rng_bit_generator %s, algorithm =  THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>,"
     " tensor<4xui32>)\n  %2 = stablehlo.reduce_precision %x, format = e5m2 : tensor<4xf32>\n"
     "  return %2 : tensor<4xf32>\n}",
     "func.func @f(%a: tensor<4xcomplex<f32>>, %s: tensor<2xui64>, %x: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"stablehlo.fft\"(%a) {fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>} :"
     " (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
     "  %1:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} :"
     " (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
     "  %2 = \"stablehlo.reduce_precision\"(%x) {exponent_bits = 5 : i32, mantissa_bits = 2 : i32} :"
     " (tensor<4xf32>) -> tensor<4xf32>\n  return %2 : tensor<4xf32>\n}"},
    {"tuple_get_tuple_element",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<i64>) -> tensor<i64> {\n"
     "  %0 = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i64>>\n"
     "  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf32>, tensor<i64>>) -> tensor<i64>\n"
     "  return %1 : tensor<i64>\n}",
     "func.func @f(%a: tensor<2xf32>, %b: tensor<i64>) -> tensor<i64> {\n"
     "  %0 = \"stablehlo.tuple\"(%a, %b) : (tensor<2xf32>, tensor<i64>) -> tuple<tensor<2xf32>, tensor<i64>>\n"
     "  %1 = \"stablehlo.get_tuple_element\"(%0) {index = 1 : i32} : (tuple<tensor<2xf32>, tensor<i64>>) ->"
     " tensor<i64>\n  return %1 : tensor<i64>\n}"},
    {"complex_real_imag",
     "func.func @f(%a: tensor<2xf64>, %b: tensor<2xf64>) -> tensor<2xf64> {\n"
     "  %0 = stablehlo.complex %a, %b : tensor<2xcomplex<f64>>\n"
     "  %1 = stablehlo.real %0 : (tensor<2xcomplex<f64>>) -> tensor<2xf64>\n"
     "  %2 = stablehlo.imag %0 : (tensor<2xcomplex<f64>>) -> tensor<2xf64>\n  return %2 : tensor<2xf64>\n}",
     "func.func @f(%a: tensor<2xf64>, %b: tensor<2xf64>) -> tensor<2xf64> {\n"
     "  %0 = \"stablehlo.complex\"(%a, %b) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>\n"
     "  %1 = \"stablehlo.real\"(%0) : (tensor<2xcomplex<f64>>) -> tensor<2xf64>\n"
     "  %2 = \"stablehlo.imag\"(%0) : (tensor<2xcomplex<f64>>) -> tensor<2xf64>\n  return %2 : tensor<2xf64>\n}"},
    {"custom_call_call",
     "func.func @g(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\n"
     "func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
     "  %0 = stablehlo.custom_call @foo(%a) {backend_config = \"cfg\", has_side_effect = true} : (tensor<f32>) ->"
     " tensor<f32>\n  %1 = call @g(%0) : (tensor<f32>) -> tensor<f32>\n  return %1 : tensor<f32>\n}",
     "func.func @g(%x: tensor<f32>) -> tensor<f32> {\n  \"func.return\"(%x) : (tensor<f32>) -> ()\n}\n"
     "func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
     "  %0 = \"stablehlo.custom_call\"(%a) {backend_config = \"cfg\", call_target_name = \"foo\", has_side_effect ="
     " true} : (tensor<f32>) -> tensor<f32>\n  %1 = \"func.call\"(%0) {callee = @g} : (tensor<f32>) -> tensor<f32>\n"
     "  return %1 : tensor<f32>\n}"},
    {"composite",
     "func.func @f(%a: tensor<i64>) -> tensor<i64> {\n"
     "  %0 = stablehlo.composite \"my.op\" %a {composite_attributes = {n = 2 : i64}, decomposition = @impl} :"
     " (tensor<i64>) -> tensor<i64>\n  return %0 : tensor<i64>\n}",
     "func.func @f(%a: tensor<i64>) -> tensor<i64> {\n"
     "  %0 = \"stablehlo.composite\"(%a) {composite_attributes = {n = 2 : i64}, decomposition = @impl, name ="
     " \"my.op\"} : (tensor<i64>) -> tensor<i64>\n  return %0 : tensor<i64>\n}"},
    {"barrier_after_all_token",
     "func.func @f(%a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {\n"
     "  %0:2 = stablehlo.optimization_barrier %a, %b : tensor<f32>, tensor<i32>\n"
     "  %t = stablehlo.after_all : !stablehlo.token\n  %u = stablehlo.after_all %t, %t : !stablehlo.token\n"
     "  return %0#0 : tensor<f32>\n}",
     "func.func @f(%a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {\n"
     "  %0:2 = \"stablehlo.optimization_barrier\"(%a, %b) : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
     "  %t = \"stablehlo.after_all\"() : () -> !stablehlo.token\n"
     "  %u = \"stablehlo.after_all\"(%t, %t) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token\n"
     "  return %0#0 : tensor<f32>\n}"},
    {"get_dimension_size_bitcast",
     "func.func @f(%a: tensor<2x3xf32>) -> tensor<i32> {\n"
     "  %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>\n"
     "  %1 = stablehlo.bitcast_convert %a : (tensor<2x3xf32>) -> tensor<2x3xi32>\n  return %0 : tensor<i32>\n}",
     "func.func @f(%a: tensor<2x3xf32>) -> tensor<i32> {\n"
     "  %0 = \"stablehlo.get_dimension_size\"(%a) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<i32>\n"
     "  %1 = \"stablehlo.bitcast_convert\"(%a) : (tensor<2x3xf32>) -> tensor<2x3xi32>\n  return %0 : tensor<i32>\n}"},
    {"chlo_and_check",
     "func.func @f(%a: tensor<4xf32>) {\n  %0 = chlo.lgamma %a : tensor<4xf32> -> tensor<4xf32>\n"
     "  check.expect_almost_eq_const %0, dense<1.0> : tensor<4xf32> {tolerance = 0.1 : f64}\n"
     "  check.expect_close %0, %a, max_ulp_difference = 3 : tensor<4xf32>, tensor<4xf32>\n  func.return\n}",
     "func.func @f(%a: tensor<4xf32>) {\n  %0 = \"chlo.lgamma\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
     "  \"check.expect_almost_eq_const\"(%0) {tolerance = 0.1 : f64, value = dense<1.0> : tensor<4xf32>} :"
     " (tensor<4xf32>) -> ()\n"
     "  \"check.expect_close\"(%0, %a) {max_ulp_difference = 3 : i64} : (tensor<4xf32>, tensor<4xf32>) -> ()\n"
     "  \"func.return\"() : () -> ()\n}"},
    {"if",
     "func.func @f(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n"
     "  %0 = stablehlo.if %p -> (tensor<f32>) {\n    stablehlo.return %a : tensor<f32>\n  } else {\n"
     "    stablehlo.return %b : tensor<f32>\n  }\n  return %0 : tensor<f32>\n}",
     "func.func @f(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n"
     "  %0 = \"stablehlo.if\"(%p) ({\n    \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n  }, {\n"
     "    \"stablehlo.return\"(%b) : (tensor<f32>) -> ()\n  }) : (tensor<i1>) -> tensor<f32>\n"
     "  return %0 : tensor<f32>\n}"},
    {"scan",
     "func.func @f(%in: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {\n"
     "  %0:2 = chlo.scan(%in) inits(%init) dimension=0 attributes {is_reverse = true} {\n"
     "  ^bb0(%x: tensor<i32>, %c: tensor<i32>):\n    %1 = stablehlo.add %x, %c : tensor<i32>\n"
     "    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>\n"
     "  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)\n  return %0#0 : tensor<4xi32>\n}",
     "func.func @f(%in: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {\n"
     "  %0:2 = \"chlo.scan\"(%in, %init) <{dimension = 0 : i64, is_reverse = true, operandSegmentSizes ="
     " array<i32: 1, 1>}> ({\n  ^bb0(%x: tensor<i32>, %c: tensor<i32>):\n"
     "    %1 = \"stablehlo.add\"(%x, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
     "    \"stablehlo.return\"(%1, %1) : (tensor<i32>, tensor<i32>) -> ()\n"
     "  }) : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)\n  return %0#0 : tensor<4xi32>\n}"},
    {"top_k",
     "func.func @f(%a: tensor<5x3xf32>) -> tensor<5x2xf32> {\n"
     "  %v, %i = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)\n"
     "  return %v : tensor<5x2xf32>\n}",
     "func.func @f(%a: tensor<5x3xf32>) -> tensor<5x2xf32> {\n"
     "  %v:2 = \"chlo.top_k\"(%a) {k = 2 : i64} : (tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi32>)\n"
     "  return %v#0 : tensor<5x2xf32>\n}"},
};

class FrontendPrettyGeneric : public ::testing::TestWithParam<Case> {};

TEST_P(FrontendPrettyGeneric, SameIR) {
  const Case& c = GetParam();
  auto pretty = ParseModule(c.pretty);
  ASSERT_TRUE(pretty.ok()) << pretty.status().message();
  auto generic = ParseModule(c.generic);
  ASSERT_TRUE(generic.ok()) << generic.status().message();
  EXPECT_TRUE(testing::SameModule(**pretty, **generic));
}

// The comparison itself notices a differing attribute value.
TEST(FrontendPrettyGeneric, DetectsDifferences) {
  auto a = ParseModule(kCases[5].pretty);  // broadcast_in_dim, dims = [1]
  auto b = ParseModule("func.func @f(%a: tensor<2xf32>) -> tensor<3x2xf32> {\n"
                       "  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2xf32>) -> tensor<3x2xf32>\n"
                       "  return %0 : tensor<3x2xf32>\n}");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(testing::SameModule(**a, **b));
}

INSTANTIATE_TEST_SUITE_P(Ops, FrontendPrettyGeneric, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vkhlo::frontend
