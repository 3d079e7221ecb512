// FFTs split by the compile (passes/split_large_ffts.cc) on the device, against the unsplit op
// on the reference interpreter. The pass runs here with small limits (CompileOptions::passes), so
// that small programs take the paths a transform beyond maxStorageBufferRange takes: per-axis
// transforms, the four-step split with twiddles computed on the device, RFFT through the full
// complex transform and IRFFT through the Hermitian completion. (big_tensor_test runs one
// transform beyond the range itself.) Both profiles: under mobile, twiddles index in i32 at these
// lengths, Bluestein's chirp squares in emulated i64, and complex<f64> is the usual clear error.
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
#include "tests/support/fft_programs.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using Case = testing::FftCase;

bool HasF64() { return testing::SharedClient().state()->target.shader_float64; }

void RunCases(const std::vector<Case>& cases, bool f64, uint64_t limit) {
  std::mt19937_64 rng(f64 ? 5 : 4);
  CompileOptions options;
  options.passes = fmt::format("split-large-ffts{{max-transform-bytes={}}},", limit) + passes::DefaultPipelineSpec();
  for (const Case& c : cases) {
    ir::Type input_type;
    const std::string program = testing::FftProgram(c, f64, "main", &input_type);
    SCOPED_TRACE(program + "max-transform-bytes=" + std::to_string(limit));
    const ir::Literal x = testing::UniformLiteral(input_type, rng);
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
    EXPECT_LE(testing::FftRelativeError(both->vulkan[0], both->reference[0]), eps * 8 * (std::log2(n + 1) + 4));
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
// Prime lengths beyond the pieces take Bluestein's form: transforms of the 7-smooth 2100 for
// 1031 points and 75 for 37, the chirp's squares reduced in i64 (emulated under mobile); the
// forward chirp, and the inverse one behind the Hermitian completion. (The interpreter tests
// take every kind.)
TEST(FftSplitTest, Complex64PrimeLengthsThroughBluestein) {
  RunCases({{"FFT", {2}, {1031}}, {"IRFFT", {3}, {37}}}, false, 256);
}

// The same in complex<f64> (the chirp's tables in f64; under mobile the usual clear error).
TEST(FftSplitTest, Complex128PrimeLengthThroughBluestein) { RunCases({{"IFFT", {2}, {37}}}, true, 512); }

TEST(FftSplitTest, Complex64DownToPrimes) {
  RunCases({{"FFT", {}, {60}}, {"IRFFT", {2}, {6, 1}}}, false, 0);
}

TEST(FftSplitTest, Complex128PiecesOf32Points) {
  RunCases({{"FFT", {3}, {60}}, {"IRFFT", {2}, {6, 10}}}, true, 512);
}

}  // namespace
}  // namespace vkhlo
