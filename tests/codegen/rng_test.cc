// stablehlo.rng on the device (codegen/random/rng.cc) against the interpreter
// (src/interp/random_ops.cc): UNIFORM bit for bit for float types (f32, f16, bf16, f64) and
// integer types of every storage width (i1, sub-byte, packed 8/16-bit, 32, 64 bits) with the
// bounds as run-time arguments; values inside [a, b); NORMAL within a few ulp, with the mean
// and variance of a large sample; distinct ops give distinct streams, one op the same stream.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

std::string Program(const std::string& distribution, const std::string& dims, const std::string& type) {
  const std::string result = dims.empty() ? fmt::format("tensor<{}>", type) : fmt::format("tensor<{}x{}>", dims, type);
  std::vector<int64_t> shape;
  for (size_t p = 0; !dims.empty() && p != std::string::npos;) {
    const size_t x = dims.find('x', p);
    shape.push_back(std::stoll(dims.substr(p, x == std::string::npos ? x : x - p)));
    p = x == std::string::npos ? x : x + 1;
  }
  return fmt::format(
      "func.func @main(%a: tensor<{0}>, %b: tensor<{0}>) -> {1} {{\n"
      "  %s = stablehlo.constant dense<[{2}]> : tensor<{3}xi64>\n"
      "  %r = \"stablehlo.rng\"(%a, %b, %s) {{rng_distribution = #stablehlo<rng_distribution {4}>}}"
      " : (tensor<{0}>, tensor<{0}>, tensor<{3}xi64>) -> {1}\n"
      "  func.return %r : {1}\n}}\n",
      type, result, fmt::join(shape, ", "), shape.size(), distribution);
}

ir::Literal Scalar(const std::string& type, double value) {
  auto t = frontend::ParseType(fmt::format("tensor<{}>", type));
  EXPECT_TRUE(t.ok());
  auto l = ir::Literal::Create(*t);
  EXPECT_TRUE(l.ok());
  if (ir::IsFloat(t->element_type())) {
    l->SetFloat(0, value);
  } else {
    l->SetInt(0, static_cast<int64_t>(value));
  }
  return std::move(*l);
}

// Runs rng on both; UNIFORM must match bit for bit, NORMAL within `max_ulp`. Returns the
// interpreter's result.
ir::Literal Check(const std::string& distribution, const std::string& dims, const std::string& type, double a,
                  double b, int max_ulp = 0) {
  const std::string text = Program(distribution, dims, type);
  auto both = testing::RunOnBoth(text, {Scalar(type, a), Scalar(type, b)});
  EXPECT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
  if (!both.ok()) return ir::Literal();
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  std::string why;
  EXPECT_TRUE(testing::SameBits(both->vulkan[0], both->reference[0], &why, max_ulp)) << why << "\n" << text;
  return std::move(both->reference[0]);
}

void ExpectInRange(const ir::Literal& l, double a, double b) {
  if (l.raw().empty()) return;  // no elements, or Check failed (and said why)
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    const double v = ir::IsFloat(l.element_type()) ? l.GetFloat(i) : static_cast<double>(l.GetInt(i));
    ASSERT_GE(v, a) << i;
    ASSERT_LT(v, b) << i;
  }
}

TEST(RngTest, UniformFloatsAreBitExact) {
  for (const char* type : {"f32", "f16", "bf16", "f64"}) {
    for (const char* dims : {"7x5", "1000", "", "0", "3x1x33"}) {
      SCOPED_TRACE(fmt::format("{} {}", type, dims));
      ExpectInRange(Check("UNIFORM", dims, type, -2.5, 3.0), -2.5, 3.0);
    }
  }
  // A narrow range where rounding to f16 reaches the open end, and a huge one.
  ExpectInRange(Check("UNIFORM", "4096", "f16", 1.0, 1.0009765625), 1.0, 1.0009765625);
  ExpectInRange(Check("UNIFORM", "257", "f32", -3.0e38, 3.0e38), -3.0e38, 3.0e38);
  Check("UNIFORM", "9", "f32", 2.0, 2.0);  // empty: always a
}

TEST(RngTest, UniformIntegersAreBitExactAndInRange) {
  for (const char* type : {"i32", "ui32", "i8", "ui8", "i16", "ui16", "i4", "ui4", "i64", "ui64"}) {
    for (const char* dims : {"7x5", "1001"}) {
      SCOPED_TRACE(fmt::format("{} {}", type, dims));
      const bool is_unsigned = type[0] == 'u';
      const double a = is_unsigned ? 1 : -5, b = 7;
      ExpectInRange(Check("UNIFORM", dims, type, a, b), a, b);
    }
  }
  ExpectInRange(Check("UNIFORM", "999", "i64", -1.0e15, 3.0e17), -1.0e15, 3.0e17);
  ExpectInRange(Check("UNIFORM", "999", "i32", -2147483648.0, 2147483647.0), -2147483648.0, 2147483647.0);
  ExpectInRange(Check("UNIFORM", "300", "i1", 0, 1), 0, 1);
  Check("UNIFORM", "17", "i32", 9, 3);  // empty: always a
  // Every value of a small range turns up.
  ir::Literal small = Check("UNIFORM", "4000", "ui8", 3, 11);
  std::vector<int> seen(8, 0);
  for (int64_t i = 0; i < small.num_elements(); ++i) ++seen[static_cast<size_t>(small.GetInt(i) - 3)];
  for (int c : seen) EXPECT_GT(c, 350);
}

TEST(RngTest, NormalAgreesAndHasTheMomentsAsked) {
  for (const char* type : {"f32", "f64"}) {
    SCOPED_TRACE(type);
    ir::Literal l = Check("NORMAL", "200000", type, 10.0, 2.0, /*max_ulp=*/8);
    if (l.raw().empty()) continue;  // Check failed and said why
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < l.num_elements(); ++i) {
      sum += l.GetFloat(i);
      sq += l.GetFloat(i) * l.GetFloat(i);
    }
    const double n = static_cast<double>(l.num_elements());
    const double mean = sum / n, variance = sq / n - mean * mean;
    // Standard errors: 2 / sqrt(n) = 0.0045 for the mean, about 4 sqrt(2 / n) = 0.013 for the variance.
    EXPECT_NEAR(mean, 10.0, 0.03);
    EXPECT_NEAR(variance, 4.0, 0.08);
  }
  Check("NORMAL", "33x7", "f16", 0.0, 1.0, /*max_ulp=*/1);
  Check("NORMAL", "1001", "bf16", -1.0, 0.5, /*max_ulp=*/1);
}

TEST(RngTest, DistinctOpsGiveDistinctStreamsAndOneOpTheSame) {
  const std::string text = R"(
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %s = stablehlo.constant dense<[64]> : tensor<1xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<64xf32>
  %1 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<64xf32>
  func.return %0, %1 : tensor<64xf32>, tensor<64xf32>
})";
  auto first = testing::RunOnBoth(text, {Scalar("f32", 0.0), Scalar("f32", 1.0)});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = testing::RunOnBoth(text, {Scalar("f32", 0.0), Scalar("f32", 1.0)});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  std::string why;
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_TRUE(testing::SameBits(first->vulkan[k], first->reference[k], &why)) << why;
    EXPECT_TRUE(testing::SameBits(first->vulkan[k], second->vulkan[k], &why)) << why;
  }
  // Not CSE'd into one: the two ops (at different lines) draw different values.
  int equal = 0;
  for (int64_t i = 0; i < 64; ++i) equal += first->vulkan[0].GetFloat(i) == first->vulkan[1].GetFloat(i);
  EXPECT_LT(equal, 4);
}

}  // namespace
}  // namespace vkhlo
