// dot_general / dot against naive loops, and batch norm against the spec's examples and formulas.
#include <cmath>

#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

using ir::ElementType;

TEST(DotGeneral, BatchingAndContractingDimsAnywhere) {
  const std::string text = R"(
func.func @main(%a: tensor<2x3x4x5xf32>, %b: tensor<5x4x6x2xf32>) -> tensor<4x3x6xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [2], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3, 0], rhs_contracting_dimensions = [0, 3]>} : (tensor<2x3x4x5xf32>, tensor<5x4x6x2xf32>) -> tensor<4x3x6xf32>
  func.return %0 : tensor<4x3x6xf32>
})";
  const auto a = RandomInts(2 * 3 * 4 * 5, -9, 9, 1), b = RandomInts(5 * 4 * 6 * 2, -9, 9, 2);
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {2, 3, 4, 5}, a)),
                            InterpValue::Tensor(Make(ElementType::kF32, {5, 4, 6, 2}, b))});
  ASSERT_EQ(out.size(), 1u);
  const auto got = Doubles(out[0]);
  for (int bt = 0; bt < 4; ++bt) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 6; ++j) {
        double sum = 0;
        for (int k0 = 0; k0 < 5; ++k0) {
          for (int k1 = 0; k1 < 2; ++k1) sum += a[((k1 * 3 + i) * 4 + bt) * 5 + k0] * b[((k0 * 4 + bt) * 6 + j) * 2 + k1];
        }
        EXPECT_EQ(got[(bt * 3 + i) * 6 + j], sum) << bt << " " << i << " " << j;
      }
    }
  }
}

TEST(DotGeneral, LargerMatmulMatchesNaiveLoop) {
  const int m = 67, k = 300, n = 45;
  const std::string text = R"(
func.func @main(%a: tensor<67x300xf32>, %b: tensor<300x45xf32>) -> tensor<67x45xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<67x300xf32>, tensor<300x45xf32>) -> tensor<67x45xf32>
  func.return %0 : tensor<67x45xf32>
})";
  auto a = Make(ElementType::kF32, {m, k}, RandomReals(m * k, -1, 1, 3));
  auto b = Make(ElementType::kF32, {k, n}, RandomReals(k * n, -1, 1, 4));
  auto out = RunMain(text, {InterpValue::Tensor(a), InterpValue::Tensor(b)});
  ASSERT_EQ(out.size(), 1u);
  const auto got = Doubles(out[0]);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      // The spec's reduce(multiply) in f32, in order of the contracting index.
      float sum = 0;
      for (int x = 0; x < k; ++x) {
        const float product = static_cast<float>(a.GetFloat(i * k + x)) * static_cast<float>(b.GetFloat(x * n + j));
        sum = sum + product;
      }
      EXPECT_EQ(got[i * n + j], sum);
    }
  }
}

TEST(DotGeneral, IntegersWidenAndWrap) {
  // i8 x i8 -> i32 is exact; i32 products wrap modulo 2^32; ui8 results keep the low 8 bits.
  const std::string text = R"(
func.func @main(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %c: tensor<1x2xi32>, %d: tensor<2x1xi32>, %e: tensor<1x1xui8>)
    -> (tensor<2x2xi32>, tensor<1x1xi32>, tensor<1x1xui8>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<1x2xi32>, tensor<2x1xi32>) -> tensor<1x1xi32>
  %2 = stablehlo.dot_general %e, %e, contracting_dims = [1] x [0] : (tensor<1x1xui8>, tensor<1x1xui8>) -> tensor<1x1xui8>
  func.return %0, %1, %2 : tensor<2x2xi32>, tensor<1x1xi32>, tensor<1x1xui8>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kS8, {2, 3}, {127, -128, 127, 1, 2, 3})),
                            InterpValue::Tensor(Make(ElementType::kS8, {3, 2}, {127, 1, -128, 1, 127, 1})),
                            InterpValue::Tensor(Make(ElementType::kS32, {1, 2}, {65536, 3})),
                            InterpValue::Tensor(Make(ElementType::kS32, {2, 1}, {65536, 1})),
                            InterpValue::Tensor(Make(ElementType::kU8, {1, 1}, {200}))});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(Ints(out[0]), (std::vector<int64_t>{127 * 127 + 128 * 128 + 127 * 127, 127 - 128 + 127,
                                                127 - 256 + 381, 1 + 2 + 3}));
  EXPECT_EQ(Ints(out[1]), (std::vector<int64_t>{3}));
  EXPECT_EQ(Ints(out[2]), (std::vector<int64_t>{(200 * 200) % 256}));
}

TEST(DotGeneral, ComplexAndBoolean) {
  const std::string text = R"(
func.func @main(%a: tensor<2x2xcomplex<f64>>, %b: tensor<2x2xcomplex<f64>>, %p: tensor<2x2xi1>, %q: tensor<2x2xi1>)
    -> (tensor<2x2xcomplex<f64>>, tensor<2x2xi1>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %1 = stablehlo.dot_general %p, %q, contracting_dims = [1] x [0] : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  func.return %0, %1 : tensor<2x2xcomplex<f64>>, tensor<2x2xi1>
})";
  using C = std::complex<double>;
  std::vector<C> a = {{1, 2}, {3, -1}, {0, 1}, {2, 2}}, b = {{1, 0}, {0, 1}, {-1, 1}, {2, -3}};
  auto out = RunMain(text, {InterpValue::Tensor(MakeComplex(ElementType::kC128, {2, 2}, a)),
                            InterpValue::Tensor(MakeComplex(ElementType::kC128, {2, 2}, b)),
                            InterpValue::Tensor(Make(ElementType::kI1, {2, 2}, {1, 0, 0, 0})),
                            InterpValue::Tensor(Make(ElementType::kI1, {2, 2}, {1, 1, 1, 0}))});
  ASSERT_EQ(out.size(), 2u);
  const auto got = Complexes(out[0]);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) EXPECT_EQ(got[i * 2 + j], a[i * 2] * b[j] + a[i * 2 + 1] * b[2 + j]);
  }
  EXPECT_EQ(Ints(out[1]), (std::vector<int64_t>{1, 1, 0, 0}));
}

TEST(Dot, LegacyVectorAndMatrixForms) {
  const std::string text = R"(
func.func @main(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<f32>, tensor<2xf32>) {
  %0 = "stablehlo.dot"(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %1 = "stablehlo.dot"(%m, %v) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0, %1 : tensor<f32>, tensor<2xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {3}, {1, 2, 3})),
                            InterpValue::Tensor(Make(ElementType::kF32, {2, 3}, {1, 0, 0, 1, 1, 1}))});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{14}));
  EXPECT_EQ(Doubles(out[1]), (std::vector<double>{1, 6}));
}

TEST(DotGeneral, AccumulatesInOrderInTheElementTypeAndF32ForNarrower) {
  // f32: 1 + 2^-24 rounds to 1, twice; f64: exact. f16 accumulates in f32 (as XLA does) and
  // rounds once: 1 + 2^-11 + 2^-11 = 1 + 2^-10, where f16 arithmetic would give 1.
  const std::string text = R"(
func.func @main(%a: tensor<1x3xf32>, %b: tensor<3x1xf32>, %c: tensor<1x3xf64>, %d: tensor<3x1xf64>, %e: tensor<1x3xf16>, %f: tensor<3x1xf16>)
    -> (tensor<1x1xf32>, tensor<1x1xf64>, tensor<1x1xf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3xf32>, tensor<3x1xf32>) -> tensor<1x1xf32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<1x3xf64>, tensor<3x1xf64>) -> tensor<1x1xf64>
  %2 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<1x3xf16>, tensor<3x1xf16>) -> tensor<1x1xf16>
  func.return %0, %1, %2 : tensor<1x1xf32>, tensor<1x1xf64>, tensor<1x1xf16>
})";
  const double t24 = std::ldexp(1.0, -24), t11 = std::ldexp(1.0, -11);
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {1, 3}, {1, t24, t24})),
                            InterpValue::Tensor(Make(ElementType::kF32, {3, 1}, {1, 1, 1})),
                            InterpValue::Tensor(Make(ElementType::kF64, {1, 3}, {1, t24, t24})),
                            InterpValue::Tensor(Make(ElementType::kF64, {3, 1}, {1, 1, 1})),
                            InterpValue::Tensor(Make(ElementType::kF16, {1, 3}, {1, t11, t11})),
                            InterpValue::Tensor(Make(ElementType::kF16, {3, 1}, {1, 1, 1}))});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(Doubles(out[0])[0], 1.0);
  EXPECT_EQ(Doubles(out[1])[0], 1 + 2 * t24);
  EXPECT_EQ(Doubles(out[2])[0], 1 + 2 * t11);
}

TEST(DotGeneral, MediumMatmulSpotCheck) {
  const int n = 384;
  const std::string text = R"(
func.func @main(%a: tensor<384x384xf32>, %b: tensor<384x384xf32>) -> tensor<384x384xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<384x384xf32>, tensor<384x384xf32>) -> tensor<384x384xf32>
  func.return %0 : tensor<384x384xf32>
})";
  auto a = Make(ElementType::kF32, {n, n}, RandomReals(n * n, -1, 1, 5));
  auto out = RunMain(text, {InterpValue::Tensor(a), InterpValue::Tensor(a)});
  ASSERT_EQ(out.size(), 1u);
  // Spot check one element.
  double sum = 0;
  for (int x = 0; x < n; ++x) sum += a.GetFloat(5 * n + x) * a.GetFloat(x * n + 7);
  EXPECT_NEAR(Doubles(out[0])[5 * n + 7], sum, 1e-4);
}

TEST(DotGeneral, MismatchedShapesAreErrors) {
  auto module = Parse(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
})");
  ASSERT_NE(module, nullptr);
  auto result = RunFunction(*module, "main", {InterpValue::Tensor(Make(ElementType::kF32, {2, 3}, {})),
                                              InterpValue::Tensor(Make(ElementType::kF32, {4, 2}, {}))});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("contracting dimension"), std::string::npos) << result.status().ToString();
}

// --- batch norm ---

constexpr const char* kBatchNormProgram = R"(
func.func @main(%x: tensor<2x2x2xf32>, %scale: tensor<2xf32>, %offset: tensor<2xf32>, %mean: tensor<2xf32>,
                %var: tensor<2xf32>, %dy: tensor<2x2x2xf32>)
    -> (tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 0.0 : f32, feature_index = 2 : i64}
      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  %1:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 2 : i64}
      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %2:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %dy) {epsilon = 0.0 : f32, feature_index = 2 : i64}
      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2 : tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
})";

TEST(BatchNorm, SpecExamples) {
  auto v = [](std::vector<int64_t> dims, std::vector<double> values) {
    return InterpValue::Tensor(Make(ElementType::kF32, std::move(dims), values));
  };
  auto out = RunMain(kBatchNormProgram, {v({2, 2, 2}, {1, 2, 3, 4, 3, 4, 1, 2}), v({2}, {1, 1}), v({2}, {1, 1}),
                                         v({2}, {2, 3}), v({2}, {1, 1}), v({2, 2, 2}, std::vector<double>(8, 0.1))});
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{0, 0, 2, 2, 2, 2, 0, 0}));
  EXPECT_EQ(Doubles(out[1]), (std::vector<double>{0, 0, 2, 2, 2, 2, 0, 0}));
  EXPECT_EQ(Doubles(out[2]), (std::vector<double>{2, 3}));
  EXPECT_EQ(Doubles(out[3]), (std::vector<double>{1, 1}));
  for (double g : Doubles(out[4])) EXPECT_NEAR(g, 0.0, 1e-7);
  for (double g : Doubles(out[5])) EXPECT_NEAR(g, 0.0, 1e-7);
  for (double g : Doubles(out[6])) EXPECT_NEAR(g, 0.4, 1e-7);
}

TEST(BatchNorm, GradMatchesFiniteDifferencesOfTraining) {
  // With mean/variance from the batch, grad_operand is the gradient of sum(dy * training(x)).
  const std::vector<double> x = {0.3, -1.2, 2.0, 0.7, 1.1, -0.4, 0.9, 1.6};
  const std::vector<double> scale = {1.5, -0.5}, offset = {0.2, 0.1}, dy = {0.3, -0.2, 0.5, 0.1, -0.7, 0.4, 0.2, 0.6};
  auto v = [](std::vector<int64_t> dims, std::vector<double> values) {
    return InterpValue::Tensor(Make(ElementType::kF64, std::move(dims), values));
  };
  const std::string text = R"(
func.func @main(%x: tensor<2x2x2xf64>, %scale: tensor<2xf64>, %offset: tensor<2xf64>, %dy: tensor<2x2x2xf64>)
    -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %1:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.001 : f32, feature_index = 1 : i64}
      : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  %2:3 = "stablehlo.batch_norm_grad"(%x, %scale, %1#1, %1#2, %dy) {epsilon = 0.001 : f32, feature_index = 1 : i64}
      : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  func.return %1#0, %1#1, %1#2, %2#0, %2#1, %2#2 : tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
})";
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  auto objective = [&](const std::vector<double>& xs) {
    auto r = RunFunction(*module, "main", {v({2, 2, 2}, xs), v({2}, scale), v({2}, offset), v({2, 2, 2}, dy)});
    EXPECT_TRUE(r.ok());
    double s = 0;
    const auto y = Doubles(r->outputs[0]);
    for (size_t i = 0; i < y.size(); ++i) s += dy[i] * y[i];
    return s;
  };
  auto r = RunFunction(*module, "main", {v({2, 2, 2}, x), v({2}, scale), v({2}, offset), v({2, 2, 2}, dy)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto grad = Doubles(r->outputs[3]);
  for (size_t i = 0; i < x.size(); ++i) {
    auto xp = x, xm = x;
    xp[i] += 1e-6;
    xm[i] -= 1e-6;
    EXPECT_NEAR(grad[i], (objective(xp) - objective(xm)) / 2e-6, 1e-5) << i;
  }
  // grad_offset = per-feature sums of dy (feature = index / 2 % 2).
  EXPECT_NEAR(Doubles(r->outputs[5])[0], 0.3 - 0.2 - 0.7 + 0.4, 1e-12);
  EXPECT_NEAR(Doubles(r->outputs[5])[1], 0.5 + 0.1 + 0.2 + 0.6, 1e-12);
}

}  // namespace
}  // namespace vkhlo::interp::testing
