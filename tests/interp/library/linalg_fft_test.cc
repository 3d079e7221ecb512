// triangular_solve (residuals for every attribute combination), cholesky (reconstruction), and
// fft (against a naive DFT, and round trips).
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

using C = std::complex<double>;
using ir::ElementType;

// --- triangular_solve ---

// A batch of 2 well-conditioned 4x4 matrices (dominant diagonal) with junk in both triangles.
std::vector<C> TestMatrices(bool complex) {
  auto re = RandomReals(32, -1, 1, 7), im = RandomReals(32, -1, 1, 8);
  std::vector<C> a(32);
  for (int i = 0; i < 32; ++i) a[i] = C(re[i], complex ? im[i] : 0.0);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 4; ++i) a[b * 16 + i * 5] += C(4.0 + i, 0.0);
  }
  return a;
}

void CheckSolve(bool left, bool lower, bool unit, const std::string& transpose, bool complex) {
  SCOPED_TRACE(fmt::format("left={} lower={} unit={} {} complex={}", left, lower, unit, transpose, complex));
  const std::string et = complex ? "complex<f64>" : "f64";
  const std::string bdims = left ? "2x4x3" : "2x3x4";
  const std::string text = fmt::format(R"(
func.func @main(%a: tensor<2x4x4x{0}>, %b: tensor<{1}x{0}>) -> tensor<{1}x{0}> {{
  %0 = "stablehlo.triangular_solve"(%a, %b) {{left_side = {2}, lower = {3}, unit_diagonal = {4},
      transpose_a = #stablehlo<transpose {5}>}} : (tensor<2x4x4x{0}>, tensor<{1}x{0}>) -> tensor<{1}x{0}>
  func.return %0 : tensor<{1}x{0}>
}})",
                                       et, bdims, left, lower, unit, transpose);
  const auto a = TestMatrices(complex);
  std::vector<C> b(24);
  auto br = RandomReals(24, -2, 2, 9), bi = RandomReals(24, -2, 2, 10);
  for (int i = 0; i < 24; ++i) b[i] = C(br[i], complex ? bi[i] : 0.0);
  const ElementType type = complex ? ElementType::kC128 : ElementType::kF64;
  const std::vector<int64_t> b_shape = left ? std::vector<int64_t>{2, 4, 3} : std::vector<int64_t>{2, 3, 4};
  auto out = RunMain(text, {InterpValue::Tensor(MakeComplex(type, {2, 4, 4}, a)),
                            InterpValue::Tensor(MakeComplex(type, b_shape, b))});
  ASSERT_EQ(out.size(), 1u);
  const auto x = Complexes(out[0]);
  for (int bt = 0; bt < 2; ++bt) {
    // op(a) from the chosen triangle.
    C e[4][4];
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        C v = (lower ? j <= i : j >= i) ? a[bt * 16 + i * 4 + j] : C(0, 0);
        if (i == j && unit) v = 1;
        if (transpose == "NO_TRANSPOSE") e[i][j] = v;
        if (transpose == "TRANSPOSE") e[j][i] = v;
        if (transpose == "ADJOINT") e[j][i] = std::conj(v);
      }
    }
    for (int r = 0; r < (left ? 4 : 3); ++r) {
      for (int c = 0; c < (left ? 3 : 4); ++c) {
        C sum = 0;
        for (int k = 0; k < 4; ++k) {
          sum += left ? e[r][k] * x[bt * 12 + k * 3 + c] : x[bt * 12 + r * 4 + k] * e[k][c];
        }
        const C want = b[bt * 12 + (left ? r * 3 + c : r * 4 + c)];
        EXPECT_NEAR(sum.real(), want.real(), 1e-12);
        EXPECT_NEAR(sum.imag(), want.imag(), 1e-12);
      }
    }
  }
}

TEST(TriangularSolve, ResidualsForEveryCombination) {
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {true, false}) {
        for (const char* t : {"NO_TRANSPOSE", "TRANSPOSE"}) CheckSolve(left, lower, unit, t, false);
        for (const char* t : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) CheckSolve(left, lower, unit, t, true);
      }
    }
  }
}

TEST(TriangularSolve, SpecExample) {
  const std::string text = R"(
func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {3, 3}, {1, 0, 0, 2, 4, 0, 3, 5, 6})),
                            InterpValue::Tensor(Make(ElementType::kF32, {3, 3}, {2, 0, 0, 4, 8, 0, 6, 10, 12}))});
  ASSERT_EQ(out.size(), 1u);
  // XLA's algorithm (inverted diagonal blocks) rounds: not exactly the spec's values.
  const std::vector<double> want = {2, 0, 0, 0, 2, 0, 0, 0, 2};
  const auto got = Doubles(out[0]);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

// --- cholesky ---

TEST(Cholesky, SpecExample) {
  const std::string text = R"(
func.func @main(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0, %1 : tensor<3x3xf32>, tensor<3x3xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {3, 3}, {1, 2, 3, 2, 20, 26, 3, 26, 70}))});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{1, 0, 0, 2, 4, 0, 3, 5, 6}));
  EXPECT_EQ(Doubles(out[1]), (std::vector<double>{1, 2, 3, 0, 4, 5, 0, 0, 6}));
}

TEST(Cholesky, ReconstructsBatchedHermitianMatrices) {
  // a = m m^H + 5 I for random complex m, batch of 3; only one triangle is read.
  const int n = 5;
  std::vector<C> a(3 * n * n);
  auto re = RandomReals(3 * n * n, -1, 1, 11), im = RandomReals(3 * n * n, -1, 1, 12);
  for (int b = 0; b < 3; ++b) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        C sum = i == j ? C(5, 0) : C(0, 0);
        for (int k = 0; k < n; ++k) {
          sum += C(re[b * 25 + i * n + k], im[b * 25 + i * n + k]) * std::conj(C(re[b * 25 + j * n + k], im[b * 25 + j * n + k]));
        }
        a[b * 25 + i * n + j] = sum;
      }
    }
  }
  const std::string text = R"(
func.func @main(%a: tensor<3x5x5xcomplex<f64>>) -> (tensor<3x5x5xcomplex<f64>>, tensor<3x5x5xcomplex<f64>>) {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x5x5xcomplex<f64>>) -> tensor<3x5x5xcomplex<f64>>
  %1 = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x5x5xcomplex<f64>>) -> tensor<3x5x5xcomplex<f64>>
  func.return %0, %1 : tensor<3x5x5xcomplex<f64>>, tensor<3x5x5xcomplex<f64>>
})";
  auto out = RunMain(text, {InterpValue::Tensor(MakeComplex(ElementType::kC128, {3, 5, 5}, a))});
  ASSERT_EQ(out.size(), 2u);
  const auto l = Complexes(out[0]), u = Complexes(out[1]);
  for (int b = 0; b < 3; ++b) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        C ll = 0, uu = 0;
        for (int k = 0; k < n; ++k) {
          ll += l[b * 25 + i * n + k] * std::conj(l[b * 25 + j * n + k]);   // L L^H
          uu += std::conj(u[b * 25 + k * n + i]) * u[b * 25 + k * n + j];   // U^H U
        }
        EXPECT_NEAR(std::abs(ll - a[b * 25 + i * n + j]), 0.0, 1e-12);
        EXPECT_NEAR(std::abs(uu - a[b * 25 + i * n + j]), 0.0, 1e-12);
        if (j > i) {
          EXPECT_EQ(l[b * 25 + i * n + j], C(0, 0));
        }
        if (j < i) {
          EXPECT_EQ(u[b * 25 + i * n + j], C(0, 0));
        }
      }
    }
  }
}

TEST(Cholesky, NotPositiveDefiniteGivesNaN) {
  const std::string text = R"(
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {2, 2}, {1, 2, 2, 1}))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isnan(Doubles(out[0])[3]));
}

// --- fft ---

std::vector<C> NaiveDft1(const std::vector<C>& x, int sign) {
  const size_t n = x.size();
  std::vector<C> out(n);
  for (size_t k = 0; k < n; ++k) {
    for (size_t j = 0; j < n; ++j) out[k] += x[j] * std::polar(1.0, sign * 2 * std::numbers::pi * double(k * j % n) / double(n));
  }
  return out;
}

TEST(Fft, TwoDimensionalMatchesNaiveDft) {
  // 2 x (6 x 8): a non-power-of-two and a power-of-two axis.
  const std::string text = R"(
func.func @main(%x: tensor<2x6x8xcomplex<f64>>) -> (tensor<2x6x8xcomplex<f64>>, tensor<2x6x8xcomplex<f64>>) {
  %0 = stablehlo.fft %x, type = FFT, length = [6, 8] : (tensor<2x6x8xcomplex<f64>>) -> tensor<2x6x8xcomplex<f64>>
  %1 = stablehlo.fft %0, type = IFFT, length = [6, 8] : (tensor<2x6x8xcomplex<f64>>) -> tensor<2x6x8xcomplex<f64>>
  func.return %0, %1 : tensor<2x6x8xcomplex<f64>>, tensor<2x6x8xcomplex<f64>>
})";
  auto re = RandomReals(96, -1, 1, 13), im = RandomReals(96, -1, 1, 14);
  std::vector<C> x(96);
  for (int i = 0; i < 96; ++i) x[i] = C(re[i], im[i]);
  auto out = RunMain(text, {InterpValue::Tensor(MakeComplex(ElementType::kC128, {2, 6, 8}, x))});
  ASSERT_EQ(out.size(), 2u);
  // Reference: rows then columns.
  std::vector<C> ref = x;
  for (int b = 0; b < 2; ++b) {
    for (int r = 0; r < 6; ++r) {
      std::vector<C> row(ref.begin() + b * 48 + r * 8, ref.begin() + b * 48 + r * 8 + 8);
      row = NaiveDft1(row, -1);
      std::copy(row.begin(), row.end(), ref.begin() + b * 48 + r * 8);
    }
    for (int c = 0; c < 8; ++c) {
      std::vector<C> col(6);
      for (int r = 0; r < 6; ++r) col[r] = ref[b * 48 + r * 8 + c];
      col = NaiveDft1(col, -1);
      for (int r = 0; r < 6; ++r) ref[b * 48 + r * 8 + c] = col[r];
    }
  }
  const auto got = Complexes(out[0]), back = Complexes(out[1]);
  for (int i = 0; i < 96; ++i) {
    EXPECT_NEAR(std::abs(got[i] - ref[i]), 0.0, 1e-12) << i;
    EXPECT_NEAR(std::abs(back[i] - x[i]), 0.0, 1e-14) << i;
  }
}

TEST(Fft, RealRoundTripAndSpecExample) {
  const std::string text = R"(
func.func @main(%x: tensor<3x10xf32>, %d: tensor<4xcomplex<f32>>) -> (tensor<3x6xcomplex<f32>>, tensor<3x10xf32>, tensor<4xcomplex<f32>>) {
  %0 = stablehlo.fft %x, type = RFFT, length = [10] : (tensor<3x10xf32>) -> tensor<3x6xcomplex<f32>>
  %1 = stablehlo.fft %0, type = IRFFT, length = [10] : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
  %2 = stablehlo.fft %d, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0, %1, %2 : tensor<3x6xcomplex<f32>>, tensor<3x10xf32>, tensor<4xcomplex<f32>>
})";
  const auto x = RandomInts(30, -4, 4, 15);
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {3, 10}, x)),
                            InterpValue::Tensor(MakeComplex(ElementType::kC64, {4}, {C(1, 0), C(0, 0), C(0, 0), C(0, 0)}))});
  ASSERT_EQ(out.size(), 3u);
  const auto spectrum = Complexes(out[0]);
  for (int r = 0; r < 3; ++r) {
    std::vector<C> row(x.begin() + r * 10, x.begin() + r * 10 + 10);
    const auto ref = NaiveDft1(row, -1);
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(std::abs(spectrum[r * 6 + k] - ref[k]), 0.0, 1e-5);
  }
  const auto back = Doubles(out[1]);
  for (int i = 0; i < 30; ++i) EXPECT_NEAR(back[i], x[i], 1e-5);
  EXPECT_EQ(Complexes(out[2]), (std::vector<C>(4, C(1, 0))));
}

TEST(Fft, MultiDimensionalRealRoundTrip) {
  const std::string text = R"(
func.func @main(%x: tensor<2x3x4x6xf64>) -> tensor<2x3x4x6xf64> {
  %0 = stablehlo.fft %x, type = RFFT, length = [3, 4, 6] : (tensor<2x3x4x6xf64>) -> tensor<2x3x4x4xcomplex<f64>>
  %1 = stablehlo.fft %0, type = IRFFT, length = [3, 4, 6] : (tensor<2x3x4x4xcomplex<f64>>) -> tensor<2x3x4x6xf64>
  func.return %1 : tensor<2x3x4x6xf64>
})";
  const auto x = RandomReals(144, -1, 1, 16);
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF64, {2, 3, 4, 6}, x))});
  ASSERT_EQ(out.size(), 1u);
  const auto back = Doubles(out[0]);
  for (int i = 0; i < 144; ++i) EXPECT_NEAR(back[i], x[i], 1e-13);
}

}  // namespace
}  // namespace vkhlo::interp::testing
