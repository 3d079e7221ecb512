// Issue 26: quantized dot_general / convolution through the runtime from `!quant.uniform`
// programs (the default passes: quantized-decompose keeps the contractions on storage tensors
// for the library kernels) against the interpreter, bit for bit: an integer dot with per-axis
// weights and an element-wise op after it (not fused into the requantizing kernel), a
// convolution with padding and per-axis weights and result, and a hybrid dot with a fused
// bias and relu. The kernels themselves are tested as plans in
// tests/codegen/library/quantized_kernels_test.cc.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using ir::ElementType;

int64_t Rand(std::mt19937_64& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

// From `!quant.uniform` programs through the runtime's default passes.
void ExpectRuntimeMatches(const std::string& text, const std::vector<ir::Literal>& inputs, int max_ulp = 0) {
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().message() << "\n" << text;
  ASSERT_EQ(both->vulkan.size(), both->reference.size());
  for (size_t i = 0; i < both->vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why, max_ulp)) << why << "\n" << text;
  }
}

ir::Literal RandomOf(const ir::Type& type, std::mt19937_64& rng) { return testing::RandomLiteral(type, rng); }

TEST(QuantizedRuntime, IntegerDotConvolutionAndAnOpAfter) {
  const std::string text = R"(
func.func @main(%a: tensor<5x40xi8>, %b: tensor<40x6xi8>, %img: tensor<1x6x6x3xui8>, %k: tensor<3x3x3x4xi8>) -> (tensor<5x6xi8>, tensor<1x6x6x4xi8>) {
  %aq = "stablehlo.bitcast_convert"(%a) : (tensor<5x40xi8>) -> tensor<5x40x!quant.uniform<i8:f32, 0.05:-3>>
  %bq = "stablehlo.bitcast_convert"(%b) : (tensor<40x6xi8>) -> tensor<40x6x!quant.uniform<i8:f32:1, {0.02:1, 0.03:-2, 0.01:0, 0.025:4, 0.015:-1, 0.04:2}>>
  %d = "stablehlo.dot_general"(%aq, %bq) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<5x40x!quant.uniform<i8:f32, 0.05:-3>>, tensor<40x6x!quant.uniform<i8:f32:1, {0.02:1, 0.03:-2, 0.01:0, 0.025:4, 0.015:-1, 0.04:2}>>) -> tensor<5x6x!quant.uniform<i8:f32, 0.3:5>>
  %e = stablehlo.add %d, %d : tensor<5x6x!quant.uniform<i8:f32, 0.3:5>>
  %ds = "stablehlo.bitcast_convert"(%e) : (tensor<5x6x!quant.uniform<i8:f32, 0.3:5>>) -> tensor<5x6xi8>
  %iq = "stablehlo.bitcast_convert"(%img) : (tensor<1x6x6x3xui8>) -> tensor<1x6x6x3x!quant.uniform<u8:f32, 0.04:128>>
  %kq = "stablehlo.bitcast_convert"(%k) : (tensor<3x3x3x4xi8>) -> tensor<3x3x3x4x!quant.uniform<i8:f32:3, {0.02:0, 0.03:1, 0.01:-1, 0.02:2}>>
  %c = stablehlo.convolution(%iq, %kq) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x3x!quant.uniform<u8:f32, 0.04:128>>, tensor<3x3x3x4x!quant.uniform<i8:f32:3, {0.02:0, 0.03:1, 0.01:-1, 0.02:2}>>) -> tensor<1x6x6x4x!quant.uniform<i8:f32:3, {0.1:0, 0.2:-3, 0.05:2, 0.1:1}>>
  %cs = "stablehlo.bitcast_convert"(%c) : (tensor<1x6x6x4x!quant.uniform<i8:f32:3, {0.1:0, 0.2:-3, 0.05:2, 0.1:1}>>) -> tensor<1x6x6x4xi8>
  return %ds, %cs : tensor<5x6xi8>, tensor<1x6x6x4xi8>
}
)";
  std::mt19937_64 rng(7);
  ExpectRuntimeMatches(text, {RandomOf(ir::Type::Tensor(ElementType::kS8, {5, 40}), rng),
                              RandomOf(ir::Type::Tensor(ElementType::kS8, {40, 6}), rng),
                              RandomOf(ir::Type::Tensor(ElementType::kU8, {1, 6, 6, 3}), rng),
                              RandomOf(ir::Type::Tensor(ElementType::kS8, {3, 3, 3, 4}), rng)});
}

// A hybrid dot with a bias and relu after it (the float epilogue is fused as for a float dot).
// Activations are multiples of 1/2 and weight scales powers of two: every product and sum is
// exact in f32, so the result is bit for bit whatever the summation order.
TEST(QuantizedRuntime, HybridWithEpilogue) {
  const std::string w = "!quant.uniform<i8:f32:1, {0.5:1, 0.25:-2, 2.0:0, 1.0:3}>";
  const std::string text = fmt::format(R"(
func.func @main(%x: tensor<3x8xf32>, %w: tensor<8x4xi8>, %bias: tensor<4xf32>) -> tensor<3x4xf32> {{
  %wq = "stablehlo.bitcast_convert"(%w) : (tensor<8x4xi8>) -> tensor<8x4x{0}>
  %d = "stablehlo.dot_general"(%x, %wq) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<3x8xf32>, tensor<8x4x{0}>) -> tensor<3x4xf32>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %s = stablehlo.add %d, %bb : tensor<3x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<3x4xf32>
  %r = stablehlo.maximum %s, %z : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}}
)", w);
  std::mt19937_64 rng(9);
  ir::Literal x = ir::Literal::Create(ir::Type::Tensor(ElementType::kF32, {3, 8})).value();
  for (int64_t i = 0; i < x.num_elements(); ++i) x.SetFloat(i, static_cast<double>(Rand(rng, -16, 16)) / 2);
  ir::Literal bias = ir::Literal::Create(ir::Type::Tensor(ElementType::kF32, {4})).value();
  for (int64_t i = 0; i < 4; ++i) bias.SetFloat(i, static_cast<double>(Rand(rng, -40, 40)) / 4);
  ExpectRuntimeMatches(text, {x, RandomOf(ir::Type::Tensor(ElementType::kS8, {8, 4}), rng), bias});
}

}  // namespace
}  // namespace vkhlo
