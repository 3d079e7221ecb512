// Types: every element type, shapes (rank 0, zero-size dims), tuples, tokens, quantized types,
// and the errors for shapes vkhlo does not support.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"

namespace vkhlo::frontend {
namespace {

using ir::ElementType;
using ir::Type;

TEST(FrontendType, EveryElementType) {
  for (int i = 0; i < ir::kNumElementTypes; ++i) {
    const auto element = static_cast<ElementType>(i);
    const std::string text = "tensor<2x" + std::string(ir::ElementTypeName(element)) + ">";
    auto type = ParseType(text);
    ASSERT_TRUE(type.ok()) << text << ": " << type.status().message();
    EXPECT_EQ(*type, Type::Tensor(element, {2})) << text;
    EXPECT_EQ(type->ToString(), text);
  }
}

TEST(FrontendType, SignedSpellingsAreSignless) {
  EXPECT_EQ(*ParseType("tensor<si32>"), Type::Scalar(ElementType::kS32));
  EXPECT_EQ(*ParseType("tensor<3xsi4>"), Type::Tensor(ElementType::kS4, {3}));
}

TEST(FrontendType, Shapes) {
  EXPECT_EQ(*ParseType("tensor<f32>"), Type::Scalar(ElementType::kF32));
  EXPECT_EQ(*ParseType("tensor<0xf32>"), Type::Tensor(ElementType::kF32, {0}));
  EXPECT_EQ(*ParseType("tensor<0x3xi1>"), Type::Tensor(ElementType::kI1, {0, 3}));
  EXPECT_EQ(*ParseType("tensor<2x0x3xi4>"), Type::Tensor(ElementType::kS4, {2, 0, 3}));
  EXPECT_EQ(*ParseType("tensor<1x2x3x4x5x6xbf16>"), Type::Tensor(ElementType::kBF16, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(*ParseType("tensor<4xcomplex<f64>>"), Type::Tensor(ElementType::kC128, {4}));
  EXPECT_EQ(*ParseType("  tensor<3x4xf32>  // trailing comment"), Type::Tensor(ElementType::kF32, {3, 4}));
}

TEST(FrontendType, TuplesAndTokens) {
  EXPECT_EQ(*ParseType("!stablehlo.token"), Type::Token());
  EXPECT_EQ(*ParseType("tuple<>"), Type::Tuple({}));
  const Type nested = Type::Tuple({Type::Tensor(ElementType::kF64, {2}), Type::Tuple({Type::Scalar(ElementType::kS64)}),
                                   Type::Token()});
  EXPECT_EQ(*ParseType("tuple<tensor<2xf64>, tuple<tensor<i64>>, !stablehlo.token>"), nested);
  EXPECT_EQ(*ParseType(nested.ToString()), nested);
}

TEST(FrontendType, QuantizedPerTensor) {
  auto type = ParseType("tensor<4x!quant.uniform<i8:f32, 0.1:-5>>");
  ASSERT_TRUE(type.ok()) << type.status().message();
  ASSERT_TRUE(type->is_quantized());
  const ir::QuantizedElement& q = *type->quantization();
  EXPECT_EQ(type->element_type(), ElementType::kS8);
  EXPECT_EQ(q.storage, ElementType::kS8);
  EXPECT_EQ(q.storage_min, -128);
  EXPECT_EQ(q.storage_max, 127);
  EXPECT_EQ(q.expressed, ElementType::kF32);
  EXPECT_FALSE(q.quantized_dimension.has_value());
  EXPECT_EQ(q.scales, std::vector<double>{0.1});
  EXPECT_EQ(q.zero_points, std::vector<int64_t>{-5});
  EXPECT_EQ(*ParseType(type->ToString()), *type);
}

TEST(FrontendType, QuantizedPerAxisWithStorageRange) {
  auto type = ParseType("tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.1:-5, 0.2:3, 2.5e-1:0}>>");
  ASSERT_TRUE(type.ok()) << type.status().message();
  const ir::QuantizedElement& q = *type->quantization();
  EXPECT_EQ(q.storage_min, -127);
  EXPECT_EQ(q.storage_max, 127);
  EXPECT_EQ(q.quantized_dimension, 1);
  EXPECT_EQ(q.scales, (std::vector<double>{0.1, 0.2, 0.25}));
  EXPECT_EQ(q.zero_points, (std::vector<int64_t>{-5, 3, 0}));
  EXPECT_EQ(*ParseType(type->ToString()), *type);
  // Unsigned storage and a scale without zero point.
  auto u = ParseType("tensor<!quant.uniform<ui8:bf16, 2.0>>");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->quantization()->storage_max, 255);
  EXPECT_EQ(u->quantization()->zero_points, std::vector<int64_t>{0});
  // The quant dialect's own spelling of unsigned storage.
  auto u8 = ParseType("tensor<!quant.uniform<u8:f32, 0.5:128>>");
  ASSERT_TRUE(u8.ok()) << u8.status().message();
  EXPECT_EQ(u8->quantization()->storage, ir::ElementType::kU8);
  EXPECT_EQ(u8->quantization()->zero_points, std::vector<int64_t>{128});
  EXPECT_EQ(*ParseType("tensor<!quant.uniform<u4:f32, 1.0>>")->quantization(),
            *ParseType("tensor<!quant.uniform<ui4:f32, 1.0>>")->quantization());
}

TEST(FrontendType, FunctionTypesInOps) {
  auto module = ParseModule(
      "func.func @f(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {\n"
      "  %0:2 = \"stablehlo.optimization_barrier\"(%a, %a) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
      "  return %0#0, %0#1 : tensor<f32>, tensor<f32>\n}");
  ASSERT_TRUE(module.ok()) << module.status().message();
  const ir::Function& f = *(*module)->functions()[0];
  EXPECT_EQ(f.type().ToString(), "(tensor<f32>) -> (tensor<f32>, tensor<f32>)");
}

struct TypeError {
  const char* text;
  const char* message;
};

class FrontendTypeError : public ::testing::TestWithParam<TypeError> {};

TEST_P(FrontendTypeError, Message) {
  auto type = ParseType(GetParam().text);
  ASSERT_FALSE(type.ok()) << GetParam().text;
  EXPECT_EQ(type.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, FrontendTypeError,
    ::testing::Values(
        TypeError{"tensor<?xf32, #stablehlo.bounds<4, 5>>",
                  "<input>:1:36: error: #stablehlo.bounds has more entries than the tensor's rank 1"},
        TypeError{"tensor<4xf32, #stablehlo.bounds<8>>",
                  "<input>:1:33: error: dimension 0 is static (4): only dynamic dimensions have bounds"},
        TypeError{"tensor<*xf32>", "<input>:1:8: error: unranked tensors (tensor<*x...>) are not supported: vkhlo needs the rank"},
        TypeError{"tensor<4294967296x4294967296xf32>",
                  "<input>:1:1: error: tensor type tensor<4294967296x4294967296xf32> has too many elements"},
        TypeError{"tensor<99999999999999999999xf32>", "<input>:1:8: error: dimension size is too large"},
        TypeError{"tensor<?x4xf32, #stablehlo.bounds<8>>",
                  "<input>:1:17: error: #stablehlo.bounds must have one entry per dimension: expected 2, found 1"},
        TypeError{"tensor<4xf32, \"enc\">",
                  "<input>:1:15: error: tensor encodings other than #stablehlo.bounds are not supported: \"enc\""},
        TypeError{"tensor<4xf33>", "<input>:1:10: error: expected element type, found 'f33'"},
        TypeError{"tensor<4xtf32>", "<input>:1:10: error: element type 'tf32' is not supported"},
        TypeError{"tensor<4>", "<input>:1:9: error: expected 'x' after a dimension size"},
        TypeError{"tensor<4xf32", "<input>:1:13: error: expected '>' at the end of the tensor type, found end of input"},
        TypeError{"f32", "<input>:1:1: error: expected tensor type, found 'f32' (values are tensors: tensor<f32>)"},
        TypeError{"memref<4xf32>", "<input>:1:1: error: unsupported type 'memref': vkhlo takes tensor types"},
        TypeError{"tensor<complex<i32>>", "<input>:1:16: error: expected 'f32' or 'f64' in complex type, found 'i32'"},
        TypeError{"tensor<!quant.uniform<f32:f32, 1.0>>",
                  "<input>:1:23: error: quantized storage type must be an integer type"},
        TypeError{"tensor<!quant.uniform<i64:f32, 1.0>>",
                  "<input>:1:23: error: quantized storage type must be at most 32 bits wide"},
        TypeError{"tensor<!quant.uniform<i8:f32, nan>>", "<input>:1:31: error: illegal quantization scale nan"},
        TypeError{"tensor<!quant.uniform<i8:f32, -0.5:1>>", "<input>:1:31: error: illegal quantization scale -0.5"},
        TypeError{"tensor<!quant.uniform<i8:f32, 0.5:200>>",
                  "<input>:1:35: error: zero point 200 is outside the storage range [-128, 127]"},
        TypeError{"tensor<!quant.uniform<i8<-200:0>:f32, 0.5>>",
                  "<input>:1:26: error: illegal storage range <-200:0> for i8"},
        TypeError{"tensor<!quant.uniform<i8:i32, 1.0>>",
                  "<input>:1:26: error: quantized expressed type must be a float type"},
        TypeError{"tensor<!quant.uniform<i8:f32:0, 1.0>>",
                  "<input>:1:33: error: expected '{' with per-axis scales, found '1.0'"},
        TypeError{"!quant.uniform<i8:f32, 1.0>",
                  "<input>:1:1: error: a quantized element type must be inside a tensor type: "
                  "tensor<...x!quant.uniform<...>>"},
        TypeError{"tuple<tensor<f32>", "<input>:1:18: error: expected ',' or '>' in tuple type, found end of input"},
        TypeError{"!stablehlo.future", "<input>:1:1: error: unsupported type '!stablehlo.future'"},
        TypeError{"tensor<f32> tensor<f32>",
                  "<input>:1:13: error: expected end of input after the type, found 'tensor'"}));

TEST(FrontendType, DeepNestingIsAnError) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "tuple<";
  auto type = ParseType(text);
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.status().message().find("nesting deeper than"), std::string::npos) << type.status().message();
}

}  // namespace
}  // namespace vkhlo::frontend
