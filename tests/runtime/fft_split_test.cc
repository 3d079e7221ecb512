// FFTs split by the compile (passes/split_large_ffts.cc) on the device, against the unsplit op
// on the reference interpreter. The pass runs here with small limits (CompileOptions::passes), so
// that small programs take the paths a transform beyond maxStorageBufferRange takes: per-axis
// transforms, the four-step split with twiddles computed on the device, RFFT through the full
// complex transform and IRFFT through the Hermitian completion. (big_tensor_test runs one
// transform beyond the range itself.) Both profiles: under mobile, twiddles use emulated i64
// nowhere (these lengths index in i32) and complex<f64> is the usual clear error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "passes/pipeline.h"
#include "runtime/state.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

struct Case {
  std::string kind;
  std::vector<int64_t> batch;
  std::vector<int64_t> lengths;
};

std::string Dims(const std::vector<int64_t>& dims, const std::string& element) {
  std::string text = "tensor<";
  for (int64_t d : dims) text += std::to_string(d) + "x";
  return text + element + ">";
}

std::string Program(const Case& c, bool f64, ir::Type* input_type) {
  std::vector<int64_t> real_dims = c.batch;
  real_dims.insert(real_dims.end(), c.lengths.begin(), c.lengths.end());
  std::vector<int64_t> complex_dims = real_dims;
  if (c.kind == "RFFT" || c.kind == "IRFFT") complex_dims.back() = real_dims.back() / 2 + 1;
  const ir::ElementType real_type = f64 ? ir::ElementType::kF64 : ir::ElementType::kF32;
  const ir::ElementType complex_type = f64 ? ir::ElementType::kC128 : ir::ElementType::kC64;
  *input_type = c.kind == "RFFT" ? ir::Type::Tensor(real_type, real_dims) : ir::Type::Tensor(complex_type, complex_dims);
  const std::string real = Dims(real_dims, f64 ? "f64" : "f32");
  const std::string complex = Dims(complex_dims, f64 ? "complex<f64>" : "complex<f32>");
  const std::string in = c.kind == "RFFT" ? real : complex, out = c.kind == "IRFFT" ? real : complex;
  std::string lengths;
  for (int64_t n : c.lengths) lengths += (lengths.empty() ? "" : ", ") + std::to_string(n);
  return fmt::format(
      "func.func @main(%x: {0}) -> {1} {{\n"
      "  %r = stablehlo.fft %x, type = {2}, length = [{3}] : ({0}) -> {1}\n"
      "  func.return %r : {1}\n"
      "}}\n",
      in, out, c.kind, lengths);
}

ir::Literal Random(const ir::Type& type, std::mt19937_64& rng) {
  StatusOr<ir::Literal> literal = ir::Literal::Create(type);
  EXPECT_TRUE(literal.ok());
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int64_t i = 0; i < type.num_elements(); ++i) {
    if (ir::IsComplex(type.element_type())) {
      const double re = dist(rng), im = dist(rng);
      literal->SetComplex(i, {re, im});
    } else {
      literal->SetFloat(i, dist(rng));
    }
  }
  return std::move(*literal);
}

// Largest |got - want| relative to the largest |want| (at least 1).
double RelativeError(const ir::Literal& got, const ir::Literal& want) {
  const bool complex = ir::IsComplex(want.type().element_type());
  double err = 0, scale = 1;
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    const std::complex<double> a = complex ? got.GetComplex(i) : got.GetFloat(i);
    const std::complex<double> b = complex ? want.GetComplex(i) : want.GetFloat(i);
    err = std::max(err, std::abs(a - b));
    scale = std::max(scale, std::abs(b));
  }
  return err / scale;
}

bool HasF64() { return testing::SharedClient().state()->target.shader_float64; }

void RunCases(const std::vector<Case>& cases, bool f64, uint64_t limit) {
  std::mt19937_64 rng(f64 ? 5 : 4);
  CompileOptions options;
  options.passes = fmt::format("split-large-ffts{{max-transform-bytes={}}},", limit) + passes::DefaultPipelineSpec();
  for (const Case& c : cases) {
    ir::Type input_type;
    const std::string program = Program(c, f64, &input_type);
    SCOPED_TRACE(program + "max-transform-bytes=" + std::to_string(limit));
    const ir::Literal x = Random(input_type, rng);
    StatusOr<testing::BothResults> both = testing::RunOnBoth(program, {x}, options);
    if (f64 && !HasF64()) {
      ASSERT_FALSE(both.ok());
      EXPECT_NE(both.status().message().find("shaderFloat64"), std::string::npos) << both.status().ToString();
      continue;
    }
    ASSERT_TRUE(both.ok()) << both.status().ToString();
    double n = 1;
    for (int64_t len : c.lengths) n *= static_cast<double>(len);
    const double eps = f64 ? 2.2e-16 : 1.2e-7;
    EXPECT_LE(RelativeError(both->vulkan[0], both->reference[0]), eps * 8 * (std::log2(n + 1) + 4));
    // The compile's own limits (the device's range) split none of these.
    EXPECT_EQ(both->compile.split_ffts, 0u);
  }
}

// Four-step with pieces of 32 points (complex<f32>: 256 bytes), per axis, and twiddle grids
// factored both ways (60 = 6 x 10: rows 10 = 2 x 5; 221 = 13 x 17: prime rows and columns).
TEST(FftSplitTest, Complex64PiecesOf32Points) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) {
    RunCases({{kind, {3}, {60}}, {kind, {2}, {6, 10}}, {kind, {}, {221}}}, false, 256);
  }
}

// Composite lengths split down to their prime factors; a unit last axis.
TEST(FftSplitTest, Complex64DownToPrimes) {
  RunCases({{"FFT", {}, {60}}, {"IRFFT", {2}, {6, 1}}}, false, 0);
}

TEST(FftSplitTest, Complex128PiecesOf32Points) {
  RunCases({{"FFT", {3}, {60}}, {"IRFFT", {2}, {6, 10}}}, true, 512);
}

}  // namespace
}  // namespace vkhlo
