// Dot products, convolutions, FFT, linear algebra and batch normalization against host loops.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "builder_harness.h"

namespace vkhlo {
namespace {

using testing::BuildOrDie;
using testing::CountOps;
using testing::Evaluate;
using testing::LiteralsNear;

TEST(DotTest, VectorsAndMatrices) {
  XlaBuilder b("dot");
  auto v = ConstantR1<float>(&b, {1, 2, 3});
  auto m = ConstantR2<float>(&b, {{1, 2, 3}, {4, 5, 6}});
  auto n = ConstantR2<float>(&b, {{1, 0}, {0, 1}, {2, 2}});
  Tuple(&b, {Dot(v, v), Dot(m, v), Dot(m, n)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR0<float>(14));
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<float>({14, 32}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR2<float>({{7, 8}, {16, 17}}));
}

TEST(DotTest, DotGeneralExamplesAndPreferredType) {
  XlaBuilder b("dot_general");
  DotDimensionNumbers contracting;
  contracting.add_lhs_contracting_dimensions(1);
  contracting.add_rhs_contracting_dimensions(1);
  DotDimensionNumbers batched;
  batched.add_lhs_contracting_dimensions(2);
  batched.add_rhs_contracting_dimensions(1);
  batched.add_lhs_batch_dimensions(0);
  batched.add_rhs_batch_dimensions(0);
  auto lhs = ConstantR2<float>(&b, {{1, 2, 3}, {4, 5, 6}});
  auto rhs = ConstantR2<float>(&b, {{1, 1, 1}, {2, 2, 2}});
  auto batch_lhs = ConstantLiteral(&b, LiteralUtil::CreateR3<float>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}));
  auto identity = ConstantLiteral(&b, LiteralUtil::CreateR3<float>({{{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}}));
  PrecisionConfig precision;
  precision.add_operand_precision(PrecisionConfig::HIGHEST);
  precision.add_operand_precision(PrecisionConfig::HIGHEST);
  auto i8 = ConstantR1<int8_t>(&b, {100, 100});
  Tuple(&b, {DotGeneral(lhs, rhs, contracting, &precision), DotGeneral(batch_lhs, identity, batched),
             Dot(i8, i8, nullptr, S32)});
  XlaComputation c = BuildOrDie(b);
  EXPECT_NE(c.ToStableHlo().find("#stablehlo<precision HIGHEST>"), std::string::npos);
  auto result = testing::Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<float>({{6, 12}, {15, 30}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR3<float>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR0<int32_t>(20000));  // no s8 overflow with an s32 result
}

// Host convolution over NCHW input and OIHW kernel (the overview's pseudo-code, with dilations).
std::vector<float> HostConv(const std::vector<float>& in, int n, int c, int h, int w, const std::vector<float>& k,
                            int o, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw, int* oh, int* ow) {
  const int dkh = (kh - 1) * dh + 1, dkw = (kw - 1) * dw + 1;
  *oh = (h + 2 * ph - dkh) / sh + 1;
  *ow = (w + 2 * pw - dkw) / sw + 1;
  std::vector<float> out(static_cast<size_t>(n * o * *oh * *ow), 0.0f);
  for (int b = 0; b < n; ++b)
    for (int oz = 0; oz < o; ++oz)
      for (int oy = 0; oy < *oh; ++oy)
        for (int ox = 0; ox < *ow; ++ox) {
          float sum = 0;
          for (int iz = 0; iz < c; ++iz)
            for (int ky = 0; ky < kh; ++ky)
              for (int kx = 0; kx < kw; ++kx) {
                const int iy = oy * sh + ky * dh - ph, ix = ox * sw + kx * dw - pw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                sum += in[static_cast<size_t>(((b * c + iz) * h + iy) * w + ix)] *
                       k[static_cast<size_t>(((oz * c + iz) * kh + ky) * kw + kx)];
              }
          out[static_cast<size_t>(((b * o + oz) * *oh + oy) * *ow + ox)] = sum;
        }
  return out;
}

TEST(ConvTest, EveryVariantAgainstTheHostLoop) {
  const int n = 1, c = 2, h = 5, w = 4, o = 3, kh = 3, kw = 2;
  std::vector<float> in(static_cast<size_t>(n * c * h * w)), k(static_cast<size_t>(o * c * kh * kw));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 5) % 7) - 3;
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<float>((i * 3) % 5) - 2;
  XlaBuilder b("conv");
  auto lhs = ConstantLiteral(&b, LiteralUtil::CreateFromVector<float>(in, {n, c, h, w}));
  auto rhs = ConstantLiteral(&b, LiteralUtil::CreateFromVector<float>(k, {o, c, kh, kw}));
  const ConvolutionDimensionNumbers dnums = CreateDefaultConvDimensionNumbers(2);
  Tuple(&b, {Conv(lhs, rhs, {1, 1}, Padding::kValid), Conv(lhs, rhs, {1, 1}, Padding::kSame),
             ConvWithGeneralPadding(lhs, rhs, {2, 1}, {{1, 1}, {0, 0}}),
             ConvWithGeneralDimensions(lhs, rhs, {1, 1}, Padding::kValid, dnums),
             ConvGeneral(lhs, rhs, {1, 2}, {{0, 0}, {1, 1}}, dnums),
             ConvGeneralDilated(lhs, rhs, {1, 1}, {{0, 0}, {0, 0}}, {}, {2, 1}, dnums)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 6u);
  struct Expect {
    int sh, sw, ph, pw, dh, dw;
  };
  // kSame with stride 1: (3-1)/2 = 1 low and high in y; 1 in x split as 0 low, 1 high, which
  // the symmetric host loop cannot express, so it is checked by shape and against ConvGeneral.
  const Expect cases[] = {{1, 1, 0, 0, 1, 1}, {2, 1, 1, 0, 1, 1}, {1, 1, 0, 0, 1, 1}, {1, 2, 0, 1, 1, 1},
                          {1, 1, 0, 0, 2, 1}};
  const int index[] = {0, 2, 3, 4, 5};
  for (int i = 0; i < 5; ++i) {
    const Expect& e = cases[i];
    int oh = 0, ow = 0;
    std::vector<float> expected = HostConv(in, n, c, h, w, k, o, kh, kw, e.sh, e.sw, e.ph, e.pw, e.dh, e.dw, &oh, &ow);
    EXPECT_TRUE(LiteralsNear(LiteralUtil::CreateFromVector<float>(expected, {n, o, oh, ow}), p[static_cast<size_t>(index[i])],
                             1e-6))
        << "case " << i;
  }
  EXPECT_EQ(p[1].shape().ToString(), "f32[1,3,5,4]");
  EXPECT_EQ(MakePadding({5, 4}, {3, 2}, {1, 1}, Padding::kSame),
            (std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {0, 1}}));
}

TEST(FftTest, ForwardAndRealTransforms) {
  const std::vector<complex64> x = {{1, 0}, {2, -1}, {0, 3}, {-1, 1}};
  XlaBuilder b("fft");
  Tuple(&b, {Fft(ConstantR1<complex64>(&b, x), FFT, {4}), Fft(ConstantR1<float>(&b, {1, 2, 3, 4}), RFFT, {4}),
             Fft(Fft(ConstantR1<complex64>(&b, x), FFT, {4}), IFFT, {4})});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  std::vector<complex64> dft(4);
  for (int k = 0; k < 4; ++k) {
    std::complex<double> sum = 0;
    for (int t = 0; t < 4; ++t) sum += std::complex<double>(x[t]) * std::polar(1.0, -2 * M_PI * k * t / 4);
    dft[static_cast<size_t>(k)] = complex64(sum);
  }
  auto near = [](const Literal& a, const std::vector<complex64>& e) {
    auto v = a.data<complex64>();
    if (v.size() != e.size()) return false;
    for (size_t i = 0; i < e.size(); ++i) {
      if (std::abs(v[i] - e[i]) > 1e-5f) return false;
    }
    return true;
  };
  EXPECT_TRUE(near(p[0], dft)) << p[0].ToString();
  EXPECT_TRUE(near(p[1], {{10, 0}, {-2, 2}, {-2, 0}})) << p[1].ToString();
  EXPECT_TRUE(near(p[2], x)) << p[2].ToString();
}

TEST(LinearAlgebraTest, CholeskyAndTriangularSolve) {
  XlaBuilder b("linalg");
  auto a = ConstantR2<double>(&b, {{4, 2}, {2, 5}});  // = L L^T with L = {{2, 0}, {1, 2}}
  auto l = ConstantR2<double>(&b, {{2, 0}, {1, 2}});
  auto rhs = ConstantR2<double>(&b, {{4, 6}, {7, 8}});
  Tuple(&b, {Cholesky(a, /*lower=*/true), TriangularSolve(l, rhs, /*left_side=*/true, /*lower=*/true, false,
                                                          TriangularSolveOptions::NO_TRANSPOSE),
             TriangularSolve(l, rhs, true, true, false, TriangularSolveOptions::TRANSPOSE)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_DOUBLE_EQ(p[0].Get<double>({0, 0}), 2);
  EXPECT_DOUBLE_EQ(p[0].Get<double>({1, 0}), 1);
  EXPECT_DOUBLE_EQ(p[0].Get<double>({1, 1}), 2);
  // L x = b by forward substitution: x0 = b0 / 2, x1 = (b1 - x0) / 2.
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<double>({{2, 3}, {2.5, 2.5}}));
  // L^T x = b by back substitution: x1 = b1 / 2, x0 = (b0 - x1) / 2.
  EXPECT_EQ(p[2], LiteralUtil::CreateR2<double>({{0.25, 1}, {3.5, 4}}));
}

TEST(BatchNormTest, TrainingInferenceAndGrad) {
  // Operand [2, 2] with features on dimension 1.
  const std::vector<float> x = {1, 10, 3, 30};
  const float epsilon = 0.5f;
  XlaBuilder b("batch_norm");
  auto operand = ConstantLiteral(&b, LiteralUtil::CreateFromVector<float>(x, {2, 2}));
  auto scale = ConstantR1<float>(&b, {2, 1});
  auto offset = ConstantR1<float>(&b, {0, 1});
  auto mean = ConstantR1<float>(&b, {2, 20});
  auto variance = ConstantR1<float>(&b, {1, 100});
  auto grad = ConstantR2<float>(&b, {{1, 1}, {-1, 2}});
  Tuple(&b, {BatchNormTraining(operand, scale, offset, epsilon, 1),
             BatchNormInference(operand, scale, offset, mean, variance, epsilon, 1),
             BatchNormGrad(operand, scale, mean, variance, grad, epsilon, 1)});
  XlaComputation c = BuildOrDie(b);
  EXPECT_EQ(CountOps(c, "stablehlo.batch_norm_training"), 1);
  auto result = testing::Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  // Feature 0: values 1, 3 -> mean 2, variance 1; feature 1: 10, 30 -> mean 20, variance 100.
  const float s0 = 2 / std::sqrt(1 + epsilon), s1 = 1 / std::sqrt(100 + epsilon);
  Literal y = LiteralUtil::CreateR2<float>({{-s0, 1 - 10 * s1}, {s0, 1 + 10 * s1}});
  Literal batch_mean = LiteralUtil::CreateR1<float>({2, 20});
  Literal batch_var = LiteralUtil::CreateR1<float>({1, 100});
  EXPECT_TRUE(LiteralsNear(LiteralUtil::MakeTuple({&y, &batch_mean, &batch_var}), p[0], 1e-6));
  EXPECT_TRUE(LiteralsNear(y, p[1], 1e-6));  // the given moments equal the batch's here
  // Gradients (the semantics doc's formulas) with m = 2 per feature.
  std::vector<float> grad_x(4), grad_scale(2), grad_offset(2);
  const std::vector<float> dy = {1, 1, -1, 2}, gamma = {2, 1}, mu = {2, 20}, var = {1, 100};
  for (int f = 0; f < 2; ++f) {
    float sum_dy = 0, sum_dy_xc = 0;
    for (int i = 0; i < 2; ++i) {
      sum_dy += dy[static_cast<size_t>(i * 2 + f)];
      sum_dy_xc += dy[static_cast<size_t>(i * 2 + f)] * (x[static_cast<size_t>(i * 2 + f)] - mu[static_cast<size_t>(f)]);
    }
    const float inv = 1 / std::sqrt(var[static_cast<size_t>(f)] + epsilon);
    for (int i = 0; i < 2; ++i) {
      const size_t at = static_cast<size_t>(i * 2 + f);
      const float xc = x[at] - mu[static_cast<size_t>(f)];
      grad_x[at] = gamma[static_cast<size_t>(f)] * inv * (dy[at] - sum_dy / 2 - xc * sum_dy_xc / 2 * inv * inv);
    }
    grad_scale[static_cast<size_t>(f)] = sum_dy_xc * inv;
    grad_offset[static_cast<size_t>(f)] = sum_dy;
  }
  Literal gx = LiteralUtil::CreateFromVector<float>(grad_x, {2, 2});
  Literal gs = LiteralUtil::CreateR1<float>(grad_scale);
  Literal go = LiteralUtil::CreateR1<float>(grad_offset);
  EXPECT_TRUE(LiteralsNear(LiteralUtil::MakeTuple({&gx, &gs, &go}), p[2], 1e-5));
}

}  // namespace
}  // namespace vkhlo
