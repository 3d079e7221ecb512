// Malformed programs: each gives one error with the exact message and position.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "frontend/parser.h"

namespace vkhlo::frontend {
namespace {

using namespace std::literals;

struct Diagnostic {
  std::string_view text;
  const char* message;
};

const Diagnostic kDiagnostics[] = {
    {"func.func @f() {\n  %0 = stablehlo.foo : tensor<f32>\n}"sv,
     "test.mlir:2:8: error: unknown operation 'stablehlo.foo'"},
    {"func.func @f() {\n  \"stablehlo.nope\"() : () -> ()\n}"sv,
     "test.mlir:2:3: error: unknown operation 'stablehlo.nope'"},
    {"func.func @f() {\n  %0 = stablehlo.abs %x : tensor<f32>\n}"sv,
     "test.mlir:2:22: error: use of undefined value '%x'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %1, %a : tensor<f32>\n  %1 = stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:2:22: error: use of undefined value '%1'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.abs %a : tensor<f32>\n  %0 = stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:3:3: error: redefinition of SSA value '%0'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<f32>, tensor<f32>\n  %1 = stablehlo.abs %0#2 : tensor<f32>\n}"sv,
     "test.mlir:3:24: error: result number 2 is out of range for '%0' (2 results)"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.abs %a : tensor<f64>\n}"sv,
     "test.mlir:2:22: error: use of value '%a' expects different type than prior uses: tensor<f64> vs tensor<f32>"},
    {"func.func @f(%a: tensor<f32>) {\n  %0:2 = stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:2:3: error: operation defines 1 results but was provided 2 to bind"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:2:6: error: expected '=' after result names, found 'stablehlo.abs'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.abs %a\n}"sv,
     "test.mlir:3:1: error: expected ':' and the op's types, found '}'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = \"stablehlo.abs\"(%a : (tensor<f32>) -> tensor<f32>\n}"sv,
     "test.mlir:2:27: error: expected ',' or ')' in operand list, found ':'"},
    {"func.func (%a: tensor<f32>) {\n}"sv,
     "test.mlir:1:11: error: expected symbol name (@name), found '('"},
    {"func.func @f(%a: tensor<f32>, tensor<f32>) {\n}"sv,
     "test.mlir:1:31: error: expected SSA value name of the argument, found 'tensor'"},
    {"func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  return %a : tensor<f32>\n"sv,
     "test.mlir:3:1: error: expected operation or '}', found end of input"},
    {"foo"sv,
     "test.mlir:1:1: error: expected 'module' or 'func.func', found 'foo'"},
    {"module {\n  module {\n  }\n}"sv,
     "test.mlir:2:3: error: nested modules are not supported"},
    {"module {\n}\nmodule {\n}"sv,
     "test.mlir:3:1: error: expected one module per input (split the file at '// -----' lines)"},
    {"func.func @f() {\n  func.return\n}\nfunc.func @f() {\n  func.return\n}"sv,
     "test.mlir:4:11: error: redefinition of symbol 'f'"},
    {"func.func @f(%a: tensor<i64>) {\n  %0 = stablehlo.while(%x = %a) : tensor<i64> cond {\n  ^bb0(%y: tensor<i64>):\n    stablehlo.return %y : tensor<i64>\n  } do {\n    stablehlo.return %x : tensor<i64>\n  }\n}"sv,
     "test.mlir:3:3: error: this region's arguments are declared by the op; it cannot start with a block label"},
    {"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.broadcast_in_dim %a, dimz = [0] : (tensor<2xf32>) -> tensor<2xf32>\n}"sv,
     "test.mlir:2:39: error: unexpected keyword 'dimz' in stablehlo.broadcast_in_dim (expected 'dims')"},
    {"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.transpose %a, dims = [0], dims = [0] : (tensor<2xf32>) -> tensor<2xf32>\n}"sv,
     "test.mlir:2:44: error: keyword 'dims' given twice"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.compare LTE, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>\n}"sv,
     "test.mlir:2:26: error: invalid comparison_direction 'LTE' (expected one of EQ, NE, GE, GT, LE, LT)"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.compare LT %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>\n}"sv,
     "test.mlir:2:29: error: expected ',', found '%a'"},
    {"func.func @f(%a: tensor<4xf32>) {\n  %0 = stablehlo.slice %a [0 2] : (tensor<4xf32>) -> tensor<2xf32>\n}"sv,
     "test.mlir:2:30: error: expected ':' in slice range, found '2'"},
    {"func.func @f(%a: tensor<2x2xf32>) {\n  %0 = stablehlo.dot_general %a, %a, contract_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n}"sv,
     "test.mlir:2:38: error: expected 'batching_dims', 'contracting_dims', 'precision' or 'algorithm', found 'contract_dims'"},
    {"func.func @f(%a: tensor<2x2xf32>) {\n  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n}"sv,
     "test.mlir:2:68: error: 'contracting_dims' given twice"},
    {"func.func @f(%a: tensor<2x2xf32>) {\n  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], precision = [DEFAULT, DEFAULT] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n}"sv,
     "test.mlir:2:8: error: duplicate attribute 'precision_config'"},
    {"func.func @f(%a: tensor<1x4x4x1xf32>) {\n  %0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {strides = [1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>\n}"sv,
     "test.mlir:2:103: error: unknown window attribute 'strides' (expected stride, pad, lhs_dilate, rhs_dilate or reverse)"},
    {"func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) {\n  %0 = stablehlo.reduce(%a %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n}"sv,
     "test.mlir:2:28: error: expected 'init', found '%z'"},
    {"func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) {\n  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.plus across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n}"sv,
     "test.mlir:2:46: error: unknown operation 'stablehlo.plus'"},
    {"func.func @f(%a: tensor<i64>) {\n  %0:2 = stablehlo.while(%x = %a, %y = %a) : tensor<i64>\n   cond {\n  } do {\n  }\n}"sv,
     "test.mlir:2:46: error: 1 operand types given for 2 operands"},
    {"func.func @f(%p: tensor<i1>, %a: tensor<f32>) {\n  %0 = stablehlo.select %p, %a, %a : tensor<i1>\n}"sv,
     "test.mlir:2:38: error: expected two types (predicate, result) or a function type '(operands) -> results', found 1 types"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.complex %a, %a : tensor<f32>\n}"sv,
     "test.mlir:2:35: error: expected a complex tensor type, found tensor<f32>"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.tuple %a : tensor<f32>\n}"sv,
     "test.mlir:2:29: error: expected a tuple type, found tensor<f32>"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a : tensor<f32>, tensor<f32>\n}"sv,
     "test.mlir:2:31: error: expected one type or a function type '(operands) -> results', found 2 types"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = \"stablehlo.add\"(%a, %a) : tensor<f32>\n}"sv,
     "test.mlir:2:34: error: expected '(' of a function type, found 'tensor'"},
    {"func.func @f(%a: tensor<f32>) {\n  \"func.return\"() [^bb1] : () -> ()\n}"sv,
     "test.mlir:2:19: error: successor blocks are not supported"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = \"stablehlo.abs\"(%a) <1> : (tensor<f32>) -> tensor<f32>\n}"sv,
     "test.mlir:2:29: error: expected '{' of the op's properties, found '1'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> {iota_dimension = 0 : i64} : () -> tensor<4xf32>\n}"sv,
     "test.mlir:2:57: error: duplicate attribute 'iota_dimension'"},
    {"func.func @f(%a: tensor<2xf32, #stablehlo.bounds<4>>) {\n}"sv,
     "test.mlir:1:50: error: dimension 0 is static (2): only dynamic dimensions have bounds"},
    {"func.func @f(%a: tensor<*xf32>) {\n}"sv,
     "test.mlir:1:25: error: unranked tensors (tensor<*x...>) are not supported: vkhlo needs the rank"},
    {"func.func @f() {\n  $\n}"sv,
     "test.mlir:2:3: error: unexpected '$'"},
    {"func.func @f() {\n  %0 = stablehlo.abs % : tensor<f32>\n}"sv,
     "test.mlir:2:22: error: expected identifier after '%'"},
    {"func.func @f() {\n  stablehlo.custom_call @foo() {backend_config = \"abc} : () -> ()\n}"sv,
     "test.mlir:2:50: error: unterminated string literal (end of line)"},
    {"func.func @f() {\n  func.return loc(\"file\":1:2\n}"sv,
     "test.mlir:2:15: error: unterminated location 'loc('"},
    {"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>\n}"sv,
     "test.mlir:2:27: error: shape of the tensor literal ([3]) does not match its type (tensor<2xi32>)"},
    {"func.func @f() {\n  %0 = stablehlo.constant 1.0 : f32\n}"sv,
     "test.mlir:2:27: error: expected a dense<...> : tensor<...> constant value"},
    {"func.func @f(%a: tensor<f32>) {\n  check.expect_eq_const %a, 1.0 : f32\n}"sv,
     "test.mlir:2:29: error: expected a dense<...> : tensor<...> value"},
    {"func.func @f() {\n  %0 = stablehlo.iota dim = : tensor<4xi32>\n}"sv,
     "test.mlir:2:29: error: expected integer, found ':'"},
    {"func.func @f(%a: tuple<tensor<f32>>) {\n  %0 = stablehlo.get_tuple_element %a[-1] : (tuple<tensor<f32>>) -> tensor<f32>\n}"sv,
     "test.mlir:2:39: error: tuple index out of range"},
    {"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 128]> : tensor<2xi8>\n}"sv,
     "test.mlir:2:37: error: integer value 128 is out of range for i8"},
    {"{-# dialect_resources: {} #-}"sv,
     "test.mlir:1:1: error: file metadata ({-# dialect_resources ... #-}) is not supported"},
    {"func.func @f(%a: tensor<f32>) {\n  %0:99999999999999999999 = stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:2:6: error: integer literal '99999999999999999999' is too large"},
    {"func.func @f(%a: tensor<f32>) {\n  %0:0 = stablehlo.abs %a : tensor<f32>\n}"sv,
     "test.mlir:2:6: error: invalid result count"},
    {"func.func @f() {\n  stablehlo.custom_call (%a) : () -> ()\n}"sv,
     "test.mlir:2:25: error: expected symbol name (@name), found '('"},
    {"func.func @g() {\n  func.return\n}\nfunc.func @f() {\n  func.call @g : () -> ()\n}"sv,
     "test.mlir:5:16: error: expected '(', found ':'"},
    {"func.func @f() -> tensor<f32> {jax.result_info = \"\"} {\n}"sv,
     "test.mlir:1:32: error: unknown operation 'jax.result_info'"},
    {"func.func @f() {\n  \"stablehlo.case\"() ({\n  ^bb0(%x):\n  }) : () -> ()\n}"sv,
     "test.mlir:3:10: error: expected ':' and the argument type, found ')'"},
    {"func.func @f(%a: tensor<2x"sv,
     "test.mlir:1:27: error: expected element type, found end of input"},
    {"func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<i32>\n  %1 = stablehlo.abs %0 : tensor<i32>\x00\n}"sv,
     "test.mlir:3:38: error: unexpected byte 0x00"},
    {"\xff"sv,
     "test.mlir:1:1: error: unexpected byte 0xFF"},
    {"func.func @f(%a: tensor<5x3xf32>) {\n  %0:2 = chlo.top_k(%a, j = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)\n}"sv,
     "test.mlir:2:25: error: expected 'k', found 'j'"},
    {"func.func @f(%a: tensor<i64>) {\n  %0 = stablehlo.while(%x = %a) : tensor<i64>\n   cond {\n    stablehlo.return %x : tensor<i64>\n  } body {\n  }\n}"sv,
     "test.mlir:5:5: error: expected 'do', found 'body'"},
    {"module @m attributes {mhlo.num_partitions = 1 : i32 {\n}"sv,
     "test.mlir:1:53: error: expected ',' or '}' in attribute dictionary, found '{'"},
    {"#a = 1\n#a = 2"sv,
     "test.mlir:2:1: error: redefinition of alias '#a'"},
    {"func.func @f(%a: tensor<f32>) -> tensor<f64> {\n  return %a : tensor<f64>\n}"sv,
     "test.mlir:2:10: error: use of value '%a' expects different type than prior uses: tensor<f64> vs tensor<f32>"},
    {"func.func @f(%a: tensor<4xf32>) {\n  %0 = stablehlo.reduce_precision %a, format = e5 : tensor<4xf32>\n}"sv,
     "test.mlir:2:48: error: expected float format like 'e5m2', found 'e5'"},
    {"func.func @f(%a: tensor<4xcomplex<f32>>) {\n  %0 = stablehlo.fft %a, type = FOO, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n}"sv,
     "test.mlir:2:33: error: invalid fft_type 'FOO' (expected one of FFT, IFFT, RFFT, IRFFT)"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.abs %a, : tensor<f32>\n}"sv,
     "test.mlir:2:26: error: expected keyword, found ':'"},
    {"func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a, dims = [0] : tensor<f32>\n}"sv,
     "test.mlir:2:30: error: unexpected keyword 'dims' in stablehlo.add"},
    {"func.func @f(%a: tensor<f32>) {\n  %b = \"stablehlo.abs\"(%a) ({\n    %c = stablehlo.abs %a : tensor<f32>\n  }) : (tensor<f32>) -> tensor<f32>\n  %d = stablehlo.abs %c : tensor<f32>\n}"sv,
     "test.mlir:5:22: error: use of undefined value '%c'"},
    {"func.func @f(%a: tensor<f32>) {\n  \"stablehlo.case\"() ({\n    %a = stablehlo.abs %a : tensor<f32>\n  }) : () -> ()\n}"sv,
     "test.mlir:3:5: error: redefinition of SSA value '%a'"},
    {"func.func @f(%a: tensor<4xf32>) {\n  %0 = stablehlo.pad %a, %a, low = [0], high = [0], interior = [0] extra : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n}"sv,
     "test.mlir:2:68: error: expected ':' and the op's types, found 'extra'"},
};

class FrontendDiagnostic : public ::testing::TestWithParam<Diagnostic> {};

TEST_P(FrontendDiagnostic, ExactMessage) {
  ParseOptions options;
  options.source_name = "test.mlir";
  auto module = ParseModule(GetParam().text, options);
  ASSERT_FALSE(module.ok()) << GetParam().text;
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(module.status().message(), GetParam().message) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(Programs, FrontendDiagnostic, ::testing::ValuesIn(kDiagnostics));

TEST(FrontendDiagnostic, LinesCountFromTheChunkStart) {
  ParseOptions options;
  options.source_name = "split.mlir";
  options.first_line = 40;
  auto module = ParseModule("\nfunc.func @f() {\n  %0 = stablehlo.abs %x : tensor<f32>\n}", options);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().message(), "split.mlir:42:22: error: use of undefined value '%x'");
}

TEST(FrontendDiagnostic, DeeplyNestedRegionsAreAnError) {
  std::string text = "func.func @f() {\n";
  for (int i = 0; i < 5000; ++i) text += "\"stablehlo.case\"() ({\n";
  auto module = ParseModule(text);
  ASSERT_FALSE(module.ok());
  EXPECT_NE(module.status().message().find("nesting deeper than"), std::string::npos) << module.status().message();
}

TEST(FrontendDiagnostic, EveryTruncationIsAnErrorNotACrash) {
  const std::string program =
      "module @jit_main attributes {mhlo.num_partitions = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<2xf32> {mhlo.layout_mode = \"default\"}) -> (tensor<2xf32>) {\n"
      "    %cst = stablehlo.constant dense<\"0x0000803F00000040\"> : tensor<2xf32>\n"
      "    %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "    %0 = stablehlo.add %arg0, %cst : tensor<2xf32> loc(#loc2)\n"
      "    %1 = \"stablehlo.reduce\"(%0, %z) ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      %2 = stablehlo.maximum %a, %b : tensor<f32>\n"
      "      stablehlo.return %2 : tensor<f32>\n"
      "    }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  auto full = ParseModule(program);
  ASSERT_TRUE(full.ok()) << full.status().message();
  for (size_t length = 0; length + 1 < program.size(); ++length) {
    auto module = ParseModule(std::string_view(program).substr(0, length));
    if (length == 0) continue;  // empty input is an empty module
    EXPECT_FALSE(module.ok()) << "prefix of " << length << " bytes parsed";
  }
}

}  // namespace
}  // namespace vkhlo::frontend
