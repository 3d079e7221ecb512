// triangular_solve and cholesky on the device (codegen/linalg) against the interpreter, on
// random well-conditioned matrices: every option combination, batches, f32/f64/f16/complex,
// and a solve of more than one 128-block. The device runs the interpreter's algorithm, so
// results agree to a few ulps (check.expect_close's 3; exact where the device fma is fused).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <complex>
#include <random>

#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

// A random matrix batch: diagonally dominant (well conditioned) for `a`, uniform for `b`.
ir::Literal Random(const std::string& type_text, std::mt19937_64& rng, bool dominant) {
  auto type = frontend::ParseType(type_text);
  EXPECT_TRUE(type.ok()) << type.status().ToString();
  auto literal = ir::Literal::Create(*type);
  EXPECT_TRUE(literal.ok());
  ir::Literal l = std::move(*literal);
  const auto& dims = type->dims();
  const int64_t m = dims.back();
  const int64_t rows = dims[dims.size() - 2];
  const bool complex = ir::IsComplex(type->element_type());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    const int64_t r = (i / m) % rows, c = i % m;
    double re = u(rng), im = u(rng);
    if (dominant && r == c) re = (re < 0 ? -1 : 1) * (static_cast<double>(m) + 1 + std::abs(re));
    if (complex) {
      l.SetComplex(i, {re, im});
    } else {
      l.SetFloat(i, re);
    }
  }
  return l;
}

void Expect(const std::string& text, const std::vector<ir::Literal>& inputs, int max_ulp) {
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  const ir::Literal& v = both->vulkan[0];
  const ir::Literal& r = both->reference[0];
  if (!ir::IsComplex(v.element_type())) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(v, r, &why, max_ulp)) << why << "\n" << text;
    return;
  }
  // Complex: each part within a few units of the part's precision (the complex division of
  // the device library and std::complex's may differ in the last bit).
  const double eps = v.element_type() == ir::ElementType::kC64 ? 0x1p-23 : 0x1p-52;
  for (int64_t i = 0; i < v.num_elements(); ++i) {
    const std::complex<double> x = v.GetComplex(i), y = r.GetComplex(i);
    const double scale = std::max(std::abs(x), std::abs(y));
    ASSERT_LE(std::abs(x.real() - y.real()), max_ulp * eps * scale) << "element " << i << "\n" << text;
    ASSERT_LE(std::abs(x.imag() - y.imag()), max_ulp * eps * scale) << "element " << i << "\n" << text;
  }
}

TEST(LinalgTest, TriangularSolveEveryOption) {
  std::mt19937_64 rng(5);
  int variant = 0;
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
        const bool unit = (variant++ % 2) == 1;
        const char* type = variant % 3 == 0 ? "complex<f32>" : "f32";
        const std::string a = fmt::format("tensor<2x6x6x{}>", type);
        const std::string b = fmt::format(fmt::runtime(left ? "tensor<2x6x5x{}>" : "tensor<2x5x6x{}>"), type);
        const std::string text = fmt::format(
            "func.func @main(%a: {0}, %b: {1}) -> {1} {{\n"
            "  %x = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = {2}, lower = {3}, unit_diagonal = {4},"
            " transpose_a = #stablehlo<transpose {5}>}} : ({0}, {1}) -> {1}\n"
            "  func.return %x : {1}\n}}\n",
            a, b, left, lower, unit, transpose);
        SCOPED_TRACE(text);
        Expect(text, {Random(a, rng, true), Random(b, rng, false)}, 3);
      }
    }
  }
}

TEST(LinalgTest, TriangularSolveTypesAndBlocks) {
  std::mt19937_64 rng(6);
  for (const char* type : {"f64", "f16", "complex<f64>"}) {
    const std::string a = fmt::format("tensor<3x7x7x{}>", type), b = fmt::format("tensor<3x7x2x{}>", type);
    const std::string text = fmt::format(
        "func.func @main(%a: {0}, %b: {1}) -> {1} {{\n"
        "  %x = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = true, lower = true, unit_diagonal = false,"
        " transpose_a = #stablehlo<transpose ADJOINT>}} : ({0}, {1}) -> {1}\n"
        "  func.return %x : {1}\n}}\n",
        a, b);
    SCOPED_TRACE(text);
    Expect(text, {Random(a, rng, true), Random(b, rng, false)}, 3);
  }
  // Two diagonal blocks (m = 200 > 128): the coupling step between blocks.
  const std::string a = "tensor<200x200xf32>", b = "tensor<3x200xf32>";
  const std::string text = fmt::format(
      "func.func @main(%a: {0}, %b: {1}) -> {1} {{\n"
      "  %x = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = false, lower = false, unit_diagonal = false,"
      " transpose_a = #stablehlo<transpose NO_TRANSPOSE>}} : ({0}, {1}) -> {1}\n"
      "  func.return %x : {1}\n}}\n",
      a, b);
  Expect(text, {Random(a, rng, true), Random(b, rng, false)}, 3);
}

std::string SolveProgram(const std::string& a, const std::string& b, bool left, bool lower, bool unit,
                         const char* transpose) {
  return fmt::format(
      "func.func @main(%a: {0}, %b: {1}) -> {1} {{\n"
      "  %x = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = {2}, lower = {3}, unit_diagonal = {4},"
      " transpose_a = #stablehlo<transpose {5}>}} : ({0}, {1}) -> {1}\n"
      "  func.return %x : {1}\n}}\n",
      a, b, left, lower, unit, transpose);
}

// Sizes around the kernel's 128-row blocks and 16 x 64 tiles (1, 3, 33, 100, 300: one to three
// blocks, partial tiles), every option combination spread over them, batches, and one system
// of more than 1000 equations.
TEST(LinalgTest, TriangularSolveBlockedSizes) {
  std::mt19937_64 rng(9);
  const int64_t sizes[] = {1, 3, 33, 100, 300};
  int variant = 0;
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
        const int64_t m = sizes[variant % 5];
        const int64_t other = 1 + (variant * 37) % 70;  // b's other dimension: 1..70
        const bool unit = variant % 2 == 1;
        const char* type = variant % 4 == 3 ? "complex<f32>" : variant % 4 == 1 ? "f64" : "f32";
        const std::string batch = variant % 3 == 0 ? "2x" : "";
        ++variant;
        const std::string a = fmt::format("tensor<{}{}x{}x{}>", batch, m, m, type);
        const std::string b = left ? fmt::format("tensor<{}{}x{}x{}>", batch, m, other, type)
                                   : fmt::format("tensor<{}{}x{}x{}>", batch, other, m, type);
        const std::string text = SolveProgram(a, b, left, lower, unit, transpose);
        SCOPED_TRACE(text);
        Expect(text, {Random(a, rng, true), Random(b, rng, false)}, 3);
      }
    }
  }
  const std::string a = "tensor<1030x1030xf32>", b = "tensor<1030x40xf32>";
  const std::string text = SolveProgram(a, b, true, false, false, "TRANSPOSE");
  SCOPED_TRACE(text);
  Expect(text, {Random(a, rng, true), Random(b, rng, false)}, 3);
}

// a = g g^H + m I: Hermitian positive definite.
ir::Literal PositiveDefinite(const std::string& type_text, std::mt19937_64& rng) {
  ir::Literal g = Random(type_text, rng, false);
  ir::Literal a = g;
  const auto& dims = g.type().dims();
  const int64_t m = dims.back();
  const int64_t batch = g.num_elements() / (m * m);
  const bool complex = ir::IsComplex(g.element_type());
  auto get = [&](int64_t i) { return complex ? g.GetComplex(i) : std::complex<double>(g.GetFloat(i), 0); };
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        std::complex<double> s = i == j ? static_cast<double>(m) : 0.0;
        for (int64_t k = 0; k < m; ++k) s += get(bi * m * m + i * m + k) * std::conj(get(bi * m * m + j * m + k));
        if (complex) {
          a.SetComplex(bi * m * m + i * m + j, s);
        } else {
          a.SetFloat(bi * m * m + i * m + j, s.real());
        }
      }
    }
  }
  return a;
}

// Hermitian and diagonally dominant (so positive definite) in O(m^2): for large sizes.
ir::Literal DominantHermitian(const std::string& type_text, std::mt19937_64& rng) {
  ir::Literal a = Random(type_text, rng, true);
  const int64_t m = a.type().dims().back();
  const int64_t batch = a.num_elements() / std::max<int64_t>(1, m * m);
  const bool complex = ir::IsComplex(a.element_type());
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      const int64_t d = bi * m * m + i * m + i;
      if (complex) {
        a.SetComplex(d, {std::abs(a.GetComplex(d).real()), 0});
      } else {
        a.SetFloat(d, std::abs(a.GetFloat(d)));
      }
      for (int64_t j = 0; j < i; ++j) {
        const int64_t lo = bi * m * m + i * m + j, up = bi * m * m + j * m + i;
        if (complex) {
          a.SetComplex(up, std::conj(a.GetComplex(lo)));
        } else {
          a.SetFloat(up, a.GetFloat(lo));
        }
      }
    }
  }
  return a;
}

std::string CholeskyProgram(const std::string& t, bool lower) {
  return fmt::format(
      "func.func @main(%a: {0}) -> {0} {{\n"
      "  %l = \"stablehlo.cholesky\"(%a) {{lower = {1}}} : ({0}) -> {0}\n"
      "  func.return %l : {0}\n}}\n",
      t, lower);
}

// Sizes around the kernel's paths and 64-column blocks (one invocation per small matrix, one
// block, a partial one, several, and one matrix of more than 1000), lower and upper, real and
// complex, batches.
TEST(LinalgTest, CholeskyBlockedSizes) {
  std::mt19937_64 rng(8);
  struct Case {
    const char* shape;
    const char* type;
    bool lower;
  };
  for (const Case& c : {Case{"1x1", "f32", true}, Case{"2x3x3", "f32", false}, Case{"33x33", "complex<f32>", true}, Case{"3x40x40", "f32", false},
                        Case{"2x100x100", "f32", true}, Case{"100x100", "complex<f64>", false},
                        Case{"300x300", "f32", false}, Case{"300x300", "f64", true}, Case{"65x65", "bf16", true},
                        Case{"1030x1030", "f32", true}}) {
    const std::string t = fmt::format("tensor<{}x{}>", c.shape, c.type);
    SCOPED_TRACE(t);
    Expect(CholeskyProgram(t, c.lower), {DominantHermitian(t, rng)}, 3);
  }
  // Not positive definite beyond the first block: NaN from the failing pivot on.
  const std::string t = "tensor<150x150xf32>";
  ir::Literal a = DominantHermitian(t, rng);
  a.SetFloat(100 * 150 + 100, -1.0);
  Expect(CholeskyProgram(t, true), {a}, 3);
}

TEST(LinalgTest, CholeskyLowerUpperBatched) {
  std::mt19937_64 rng(7);
  int variant = 0;
  for (const char* type : {"f32", "f64", "complex<f32>", "bf16"}) {
    const bool lower = (variant++ % 2) == 0;
    const std::string t = fmt::format("tensor<3x9x9x{}>", type);
    const std::string text = fmt::format(
        "func.func @main(%a: {0}) -> {0} {{\n"
        "  %l = \"stablehlo.cholesky\"(%a) {{lower = {1}}} : ({0}) -> {0}\n"
        "  func.return %l : {0}\n}}\n",
        t, lower);
    SCOPED_TRACE(text);
    Expect(text, {PositiveDefinite(t, rng)}, 3);
  }
  // Not positive definite: NaN from the failing pivot on, as the interpreter.
  const std::string t = "tensor<4x4xf32>";
  const std::string text =
      "func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
      "  %l = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
      "  func.return %l : tensor<4x4xf32>\n}\n";
  ir::Literal a = Random(t, rng, false);
  Expect(text, {a}, 3);
}

}  // namespace
}  // namespace vkhlo
