// ir::Requantize and ir::RequantizeMultiplierFor (src/ir/requantize.h), the one definition of a
// quantized contraction's result: against long double arithmetic (exact for acc * M), at the
// edges (ties, saturation, multipliers of every exponent, denormal and huge M, i32 results).
#include "ir/requantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace vkhlo::ir {
namespace {

int64_t Reference(int32_t acc, float m, int64_t zp, int64_t lo, int64_t hi) {
  const long double x = static_cast<long double>(acc) * static_cast<long double>(m);  // exact: 56 bits
  const long double r = std::nearbyintl(x);  // ties to even (the default rounding mode)
  const long double limit = 1e15L;
  return std::clamp(static_cast<int64_t>(std::clamp(r, -limit, limit)) + zp, lo, hi);
}

float M(const RequantizeMultiplier& m) { return std::ldexp(static_cast<float>(m.mantissa), m.exponent); }

TEST(Requantize, MultiplierIsTheF32QuotientOfTheScales) {
  auto m = RequantizeMultiplierFor(ElementType::kF32, 0.5, 0.25, 0.125);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(M(*m), 1.0f);
  EXPECT_LT(m->mantissa, 1 << 24);
  m = RequantizeMultiplierFor(ElementType::kF32, 0.037, 0.011, 0.09);
  ASSERT_TRUE(m.ok());
  const float sa = 0.037f, sb = 0.011f, so = 0.09f;
  EXPECT_EQ(M(*m), static_cast<float>(double{sa} * double{sb} / double{so}));
  // Scales are rounded to the expressed type first (f16: 0.1 is 0.0999755859375).
  m = RequantizeMultiplierFor(ElementType::kF16, 0.1, 1.0, 1.0);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(M(*m), 0.0999755859375f);
  // A multiplier beyond f32 is an error, a denormal one is kept exactly.
  EXPECT_FALSE(RequantizeMultiplierFor(ElementType::kF32, 1e30, 1e30, 1e-30).ok());
  m = RequantizeMultiplierFor(ElementType::kF32, 1e-20, 1e-20, 1.0);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(M(*m), static_cast<float>(double{1e-20f} * double{1e-20f}));
}

TEST(Requantize, TiesRoundToEvenBothSigns) {
  const RequantizeMultiplier half{1 << 23, -24};  // 0.5
  EXPECT_EQ(Requantize(1, half, 0, -128, 127), 0);    // 0.5 -> 0
  EXPECT_EQ(Requantize(3, half, 0, -128, 127), 2);    // 1.5 -> 2
  EXPECT_EQ(Requantize(5, half, 0, -128, 127), 2);    // 2.5 -> 2
  EXPECT_EQ(Requantize(-1, half, 0, -128, 127), 0);   // -0.5 -> 0
  EXPECT_EQ(Requantize(-3, half, 0, -128, 127), -2);  // -1.5 -> -2
  EXPECT_EQ(Requantize(-5, half, 7, -128, 127), 5);   // -2.5 -> -2, + 7
}

TEST(Requantize, SaturatesAtTheStorageRange) {
  const RequantizeMultiplier one{1 << 23, -23};
  EXPECT_EQ(Requantize(1000, one, 0, -128, 127), 127);
  EXPECT_EQ(Requantize(-1000, one, 0, -128, 127), -128);
  EXPECT_EQ(Requantize(std::numeric_limits<int32_t>::min(), one, 0, INT32_MIN, INT32_MAX), INT32_MIN);
  EXPECT_EQ(Requantize(std::numeric_limits<int32_t>::max(), one, 5, INT32_MIN, INT32_MAX), INT32_MAX);
  const RequantizeMultiplier huge{(1 << 24) - 1, 100};
  EXPECT_EQ(Requantize(1, huge, 0, 0, 255), 255);
  EXPECT_EQ(Requantize(-1, huge, 0, 0, 255), 0);
  EXPECT_EQ(Requantize(0, huge, 9, 0, 255), 9);
}

TEST(Requantize, RandomAgainstLongDouble) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> acc(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  std::uniform_int_distribution<int> exponent(-60, 10);
  std::uniform_int_distribution<int32_t> mantissa(0, (1 << 24) - 1);
  for (int i = 0; i < 200000; ++i) {
    const RequantizeMultiplier m{mantissa(rng), exponent(rng)};
    const int32_t a = (i & 1) ? acc(rng) : small(rng);
    const float mf = M(m);
    ASSERT_EQ(Requantize(a, m, 3, INT32_MIN, INT32_MAX), Reference(a, mf, 3, INT32_MIN, INT32_MAX))
        << a << " * " << m.mantissa << " * 2^" << m.exponent;
    ASSERT_EQ(Requantize(a, m, -4, -128, 127), Reference(a, mf, -4, -128, 127));
  }
}

TEST(Requantize, StorageRange) {
  QuantizedElement q;
  q.storage = ElementType::kS8;
  EXPECT_EQ(QuantizedStorageRange(q), (std::pair<int64_t, int64_t>{-128, 127}));
  q.storage = ElementType::kU8;
  EXPECT_EQ(QuantizedStorageRange(q), (std::pair<int64_t, int64_t>{0, 255}));
  q.storage = ElementType::kS4;
  EXPECT_EQ(QuantizedStorageRange(q), (std::pair<int64_t, int64_t>{-8, 7}));
  q.storage_min = -100;
  q.storage_max = 100;
  EXPECT_EQ(QuantizedStorageRange(q), (std::pair<int64_t, int64_t>{-100, 100}));
}

}  // namespace
}  // namespace vkhlo::ir
