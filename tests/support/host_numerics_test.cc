// Host numerics the build must not change (cmake/HostNumerics.cmake): a double rounded to float
// precision stays rounded, and a * b + c rounds twice, whatever -march says.
//
// GCC 12.2 at -O2 and -O3 drops paired double -> float -> double roundings once its SLP
// vectorizer packs them into one vector (cmake/HostNumerics.cmake builds without SLP
// vectorization where its probe sees this). It made chlo_decompose_test compare c64 results
// with references taken at the unrounded inputs in RelWithDebInfo builds only (280 ulp "errors"
// of chlo.asin at 1.001). These are the shapes that were hit, compiled with the project's flags;
// each function is opaque to its caller, as code in another file is.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

namespace vkhlo {
namespace {

#if defined(__clang__)
#define OPAQUE [[gnu::noinline]]
#else
#define OPAQUE [[gnu::noinline, gnu::noipa]]
#endif

struct Pair {
  double re, im;
};

OPAQUE void RoundPairInPlace(double* z) {
  z[0] = static_cast<float>(z[0]);
  z[1] = static_cast<float>(z[1]);
}

OPAQUE std::complex<double> RoundComplex(std::complex<double> z) {
  return std::complex<double>(std::complex<float>(z));
}

OPAQUE Pair RoundPair(Pair p) { return {static_cast<float>(p.re), static_cast<float>(p.im)}; }

// chlo_decompose_test's CheckComplex: c64 inputs rounded in place unless the type is c128.
OPAQUE void RoundUnlessF64(std::vector<std::complex<double>>& zs, bool f64) {
  for (auto& z : zs) {
    if (!f64) z = {static_cast<float>(z.real()), static_cast<float>(z.imag())};
  }
}

OPAQUE double MultiplyAdd(double a, double b, double c) { return a * b + c; }

// Through memory the compiler cannot see into: the rounding happens.
double ToFloat(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}

TEST(HostNumerics, DoubleToFloatRoundTripsAreKept) {
  volatile double a_in = 1.001, b_in = 0.999;  // neither is a float
  const double a = a_in, b = b_in;
  const double ra = ToFloat(a), rb = ToFloat(b);
  ASSERT_NE(ra, a);

  double z[2] = {a, b};
  RoundPairInPlace(z);
  EXPECT_EQ(z[0], ra);
  EXPECT_EQ(z[1], rb);

  const std::complex<double> c = RoundComplex({a, b});
  EXPECT_EQ(c.real(), ra);
  EXPECT_EQ(c.imag(), rb);

  const Pair p = RoundPair({a, b});
  EXPECT_EQ(p.re, ra);
  EXPECT_EQ(p.im, rb);

  std::vector<std::complex<double>> zs(5, {a, b});
  RoundUnlessF64(zs, false);
  for (const auto& x : zs) {
    EXPECT_EQ(x.real(), ra);
    EXPECT_EQ(x.imag(), rb);
  }
}

// (1 + 2^-27)(1 - 2^-27) = 1 - 2^-54 rounds to 1, so a * b - 1 is 0; a fused multiply-add
// (-ffp-contract=fast with FMA3) gives -2^-54.
TEST(HostNumerics, MultiplyAddIsNotContracted) {
  EXPECT_EQ(MultiplyAdd(1 + 0x1p-27, 1 - 0x1p-27, -1.0), 0.0);
}

}  // namespace
}  // namespace vkhlo
