// hlo_basic_f32.glsl / hlo_basic_f64.glsl: division, square root and fmod bit-exact against the
// host's IEEE operations (correctly rounded), rsqrt within 1 ULP, rounding to integers exact;
// and the division / square-root correction steps fix estimates perturbed by up to 3 ULP.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

enum Op : uint32_t { kDivide = 0, kSqrt, kRsqrt, kRemainder, kRoundAfz, kRoundEven, kIsFinite, kTrunc, kFloor, kCeil };

const float kSpecialF32[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 0x1p-149f,
                             -0x1p-149f, 0x1p-126f, 0x1.fffffcp-127f, 0x1.fffffep127f, -0x1.fffffep127f,
                             0.5f, 1.5f, 2.5f, -2.5f, 3.5f, 0x1.fffffep22f, 0x1p23f, 0x1.000002p23f, 3.0f, 7.0f};
const double kSpecialF64[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0x1p-1074, -0x1p-1074,
                              0x1p-1022, 0x0.fffffffffffffp-1022, 0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023,
                              0.5, 1.5, 2.5, -2.5, 3.5, 0x1.fffffffffffffp51, 0x1p52, 0x1.0000000000001p52, 3.0, 7.0};

// Pairs: every special with every special, random bit patterns, values of nearby magnitude,
// quotients near overflow and underflow.
std::vector<std::pair<float, float>> PairsF32(Random& random, int n) {
  std::vector<std::pair<float, float>> pairs;
  for (float a : kSpecialF32)
    for (float b : kSpecialF32) pairs.push_back({a, b});
  for (int i = 0; i < n; ++i) {
    pairs.push_back({FromBits(random.Next32()), FromBits(random.Next32())});
    const float x = static_cast<float>(std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 60) - 30));
    const float y = static_cast<float>(std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 60) - 30));
    pairs.push_back({x, y});
    const float big = static_cast<float>(std::ldexp(random.Uniform(1, 2), 100 + static_cast<int>(random.Next() % 28)));
    const float tiny = static_cast<float>(std::ldexp(random.Uniform(1, 2), -149 + static_cast<int>(random.Next() % 40)));
    pairs.push_back({big, tiny});
    pairs.push_back({tiny, big});
    pairs.push_back({tiny, static_cast<float>(random.Uniform(1, 64))});
  }
  return pairs;
}

std::vector<std::pair<double, double>> PairsF64(Random& random, int n) {
  std::vector<std::pair<double, double>> pairs;
  for (double a : kSpecialF64)
    for (double b : kSpecialF64) pairs.push_back({a, b});
  for (int i = 0; i < n; ++i) {
    pairs.push_back({FromBits64(random.Next()), FromBits64(random.Next())});
    const double x = std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 120) - 60);
    const double y = std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 120) - 60);
    pairs.push_back({x, y});
    const double big = std::ldexp(random.Uniform(1, 2), 900 + static_cast<int>(random.Next() % 124));
    const double tiny = std::ldexp(random.Uniform(1, 2), -1074 + static_cast<int>(random.Next() % 120));
    pairs.push_back({big, tiny});
    pairs.push_back({tiny, big});
    pairs.push_back({tiny, random.Uniform(1, 64)});
  }
  return pairs;
}

bool Same(float a, float b) { return std::isnan(a) ? std::isnan(b) : Bits(a) == Bits(b); }
bool Same(double a, double b) { return std::isnan(a) ? std::isnan(b) : Bits(a) == Bits(b); }

class BasicTest : public testing::DeviceTest {
 protected:
  std::vector<float> RunF32(uint32_t op, const std::vector<std::pair<float, float>>& pairs) {
    std::vector<uint32_t> in;
    for (auto [x, y] : pairs) {
      in.push_back(Bits(x));
      in.push_back(Bits(y));
    }
    std::vector<uint32_t> out = RunKernel(dev(), "basic_f32", op, in,
                                          static_cast<uint32_t>(pairs.size()), pairs.size());
    std::vector<float> result;
    for (uint32_t w : out) result.push_back(FromBits(w));
    return result;
  }
  std::vector<double> RunF64(uint32_t op, const std::vector<std::pair<double, double>>& pairs) {
    std::vector<double> flat;
    for (auto [x, y] : pairs) {
      flat.push_back(x);
      flat.push_back(y);
    }
    std::vector<uint32_t> out = RunKernel(dev(), "basic_f64", op, Words(flat),
                                          static_cast<uint32_t>(pairs.size()), pairs.size() * 2);
    return Doubles(out);
  }

  template <typename T>
  void ExpectExact(const char* name, const std::vector<std::pair<T, T>>& pairs, const std::vector<T>& got,
                   const std::function<T(T, T)>& expected) {
    ASSERT_EQ(got.size(), pairs.size());
    int failures = 0;
    for (size_t i = 0; i < pairs.size() && failures < 10; ++i) {
      const T want = expected(pairs[i].first, pairs[i].second);
      if (!Same(want, got[i])) {
        ++failures;
        ADD_FAILURE() << name << "(" << std::hexfloat << pairs[i].first << ", " << pairs[i].second << "): expected "
                      << want << ", got " << got[i];
      }
    }
  }
};

TEST_F(BasicTest, F32DivideSqrtRemainderAreExact) {
  Random random(7);
  auto pairs = PairsF32(random, 40000);
  ExpectExact<float>("divide", pairs, RunF32(kDivide, pairs), [](float x, float y) { return x / y; });
  ExpectExact<float>("sqrt", pairs, RunF32(kSqrt, pairs), [](float x, float) { return std::sqrt(x); });
  ExpectExact<float>("remainder", pairs, RunF32(kRemainder, pairs), [](float x, float y) { return std::fmod(x, y); });
  ExpectExact<float>("round_nearest_afz", pairs, RunF32(kRoundAfz, pairs), [](float x, float) { return std::round(x); });
  ExpectExact<float>("round_nearest_even", pairs, RunF32(kRoundEven, pairs),
                     [](float x, float) { return std::nearbyint(x); });
  ExpectExact<float>("is_finite", pairs, RunF32(kIsFinite, pairs),
                     [](float x, float) { return std::isfinite(x) ? 1.0f : 0.0f; });
}

// Rounding to integers works on the bits (Vulkan gives the built-ins no precision): bit-exact
// with C's functions, signed zeros included (floor(-0.3) = -1, ceil(-0.3) = -0, trunc(-0.3) = -0).
TEST_F(BasicTest, F32RoundingToIntegersIsExact) {
  Random random(10);
  auto pairs = PairsF32(random, 40000);
  for (float x : {-0.3f, 0.3f, -0.5f, 0.5f, -0.7f, 0.7f, -1.5f, 1.5f, -0x1.fffffep-1f, 0x1p-149f, -0x1p-149f,
                  0x1.fffffep22f, -0x1.fffffep22f, 0x1.000002p22f, 8388607.5f, -8388607.5f}) {
    pairs.push_back({x, 0.0f});
  }
  ExpectExact<float>("trunc", pairs, RunF32(kTrunc, pairs), [](float x, float) { return std::trunc(x); });
  ExpectExact<float>("floor", pairs, RunF32(kFloor, pairs), [](float x, float) { return std::floor(x); });
  ExpectExact<float>("ceil", pairs, RunF32(kCeil, pairs), [](float x, float) { return std::ceil(x); });
  ExpectExact<float>("round_nearest_even", pairs, RunF32(kRoundEven, pairs),
                     [](float x, float) { return std::nearbyint(x); });
  ExpectExact<float>("round_nearest_afz", pairs, RunF32(kRoundAfz, pairs), [](float x, float) { return std::round(x); });
}

TEST_F(BasicTest, F32RsqrtWithinOneUlp) {
  Random random(8);
  auto pairs = PairsF32(random, 40000);
  std::vector<float> got = RunF32(kRsqrt, pairs);
  ASSERT_EQ(got.size(), pairs.size());
  double worst = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const float x = pairs[i].first;
    const double err = UlpErrorF32(got[i], 1.0 / std::sqrt(static_cast<double>(x)));
    EXPECT_LE(err, 1.0) << "rsqrt(" << std::hexfloat << x << ") = " << got[i];
    if (err > 1.0) break;
    worst = std::max(worst, err);
  }
  std::printf("f32 rsqrt: max %.3f ULP\n", worst);
}

// The correction steps are what makes division and square root exact on devices whose
// hardware estimate is off; lavapipe's is exact, so feed them wrong estimates.
TEST_F(BasicTest, F32CorrectionFixesPerturbedEstimates) {
  Random random(9);
  std::vector<std::pair<float, float>> pairs;
  for (int i = 0; i < 20000; ++i) {
    pairs.push_back({static_cast<float>(std::ldexp(random.Uniform(1, 2), static_cast<int>(random.Next() % 200) - 100)),
                     static_cast<float>(std::ldexp(random.Uniform(-2, -1), static_cast<int>(random.Next() % 200) - 100))});
  }
  for (int k = -3; k <= 3; ++k) {
    ExpectExact<float>("divide(perturbed)", pairs, RunF32(20 + 3 + k, pairs), [](float x, float y) { return x / y; });
    ExpectExact<float>("sqrt(perturbed)", pairs, RunF32(30 + 3 + k, pairs), [](float x, float) { return std::sqrt(x); });
  }
}

class BasicF64Test : public BasicTest {
 protected:
  void SetUp() override {
    BasicTest::SetUp();
    if (!HasFloat64(dev())) {
      ExpectFloat64Refused(dev(), "basic_f64");
      GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
    }
  }
};

TEST_F(BasicF64Test, DivideSqrtRemainderAreExact) {
  Random random(17);
  auto pairs = PairsF64(random, 20000);
  ExpectExact<double>("divide", pairs, RunF64(kDivide, pairs), [](double x, double y) { return x / y; });
  ExpectExact<double>("sqrt", pairs, RunF64(kSqrt, pairs), [](double x, double) { return std::sqrt(x); });
  ExpectExact<double>("remainder", pairs, RunF64(kRemainder, pairs), [](double x, double y) { return std::fmod(x, y); });
  ExpectExact<double>("round_nearest_afz", pairs, RunF64(kRoundAfz, pairs), [](double x, double) { return std::round(x); });
  ExpectExact<double>("round_nearest_even", pairs, RunF64(kRoundEven, pairs),
                      [](double x, double) { return std::nearbyint(x); });
  ExpectExact<double>("is_finite", pairs, RunF64(kIsFinite, pairs),
                      [](double x, double) { return std::isfinite(x) ? 1.0 : 0.0; });
}

TEST_F(BasicF64Test, RoundingToIntegersIsExact) {
  Random random(20);
  auto pairs = PairsF64(random, 20000);
  for (double x : {-0.3, 0.3, -0.5, 0.5, -0.7, 0.7, -1.5, 1.5, -0x1.fffffffffffffp-1, 0x1p-1074, -0x1p-1074,
                   0x1.fffffffffffffp51, -0x1.fffffffffffffp51, 0x1.0000000000001p51, 4503599627370495.5,
                   -4503599627370495.5, -39.75, 88.4}) {
    pairs.push_back({x, 0.0});
  }
  ExpectExact<double>("trunc", pairs, RunF64(kTrunc, pairs), [](double x, double) { return std::trunc(x); });
  ExpectExact<double>("floor", pairs, RunF64(kFloor, pairs), [](double x, double) { return std::floor(x); });
  ExpectExact<double>("ceil", pairs, RunF64(kCeil, pairs), [](double x, double) { return std::ceil(x); });
  ExpectExact<double>("round_nearest_even", pairs, RunF64(kRoundEven, pairs),
                      [](double x, double) { return std::nearbyint(x); });
  ExpectExact<double>("round_nearest_afz", pairs, RunF64(kRoundAfz, pairs), [](double x, double) { return std::round(x); });
}

TEST_F(BasicF64Test, RsqrtWithinOneUlp) {
  Random random(18);
  auto pairs = PairsF64(random, 20000);
  std::vector<double> got = RunF64(kRsqrt, pairs);
  ASSERT_EQ(got.size(), pairs.size());
  double worst = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const double x = pairs[i].first;
    const double err = UlpErrorF64(got[i], 1.0L / std::sqrt(static_cast<long double>(x)));
    EXPECT_LE(err, 1.0) << "rsqrt(" << std::hexfloat << x << ") = " << got[i];
    if (err > 1.0) break;
    worst = std::max(worst, err);
  }
  std::printf("f64 rsqrt: max %.3f ULP\n", worst);
}

TEST_F(BasicF64Test, CorrectionFixesPerturbedEstimates) {
  Random random(19);
  std::vector<std::pair<double, double>> pairs;
  for (int i = 0; i < 10000; ++i) {
    pairs.push_back({std::ldexp(random.Uniform(1, 2), static_cast<int>(random.Next() % 600) - 300),
                     std::ldexp(random.Uniform(-2, -1), static_cast<int>(random.Next() % 600) - 300)});
  }
  for (int k = -3; k <= 3; ++k) {
    ExpectExact<double>("divide(perturbed)", pairs, RunF64(20 + 3 + k, pairs), [](double x, double y) { return x / y; });
    ExpectExact<double>("sqrt(perturbed)", pairs, RunF64(30 + 3 + k, pairs), [](double x, double) { return std::sqrt(x); });
  }
}

}  // namespace
}  // namespace vkhlo::glsl_test
