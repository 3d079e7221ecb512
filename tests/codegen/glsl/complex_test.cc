// hlo_complex_f32.glsl / hlo_complex_f64.glsl against std::complex in a wider type (double for
// complex<f32>, long double for complex<f64>), with the reference interpreter's definitions
// (src/interp/elementwise_math.cc): random values over many magnitudes plus every combination
// of special parts (signed zeros, infinities, NaN). Errors are norm-wise: the larger part's
// distance in ULP of |result|; NaN and infinities must match part by part, and for finite
// operands the signs of zeros and infinities too (non-finite operands: Annex G leaves many of
// those signs open).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>

#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

template <typename W>
using Fn = std::function<std::complex<W>(std::complex<W>, std::complex<W>)>;

template <typename W>
bool HasNan(std::complex<W> z) { return std::isnan(z.real()) || std::isnan(z.imag()); }

// The interpreter's definitions, in the wide type W.
template <typename W>
std::vector<std::pair<const char*, Fn<W>>> Functions() {
  using C = std::complex<W>;
  return {
      // multiply and divide: in the element type T, as the interpreter does (filled in below).
      {"multiply", nullptr},
      {"divide", nullptr},
      {"abs", [](C a, C) { return C(std::abs(a), 0); }},
      {"sign", [](C a, C) -> C {
         if (HasNan(a)) return C(NAN, NAN);
         if (a == C(0)) return a;
         return a / std::abs(a);
       }},
      {"exponential", [](C a, C) { return std::exp(a); }},
      {"exponential_minus_one", [](C z, C) -> C {
         const W x = z.real(), y = z.imag();
         if (y == 0) return {std::expm1(x), y};
         const W half_sin = std::sin(y / 2);
         return {std::expm1(x) * std::cos(y) - 2 * half_sin * half_sin, std::exp(x) * std::sin(y)};
       }},
      {"log", [](C a, C) { return std::log(a); }},
      {"log_plus_one", [](C z, C) -> C {
         const W x = z.real(), y = z.imag();
         if (std::abs(z) < W(0.5)) return {std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x)};
         return std::log(W(1) + z);
       }},
      {"sqrt", [](C a, C) { return std::sqrt(a); }},
      {"rsqrt", [](C a, C) { return W(1) / std::sqrt(a); }},
      {"cbrt", [](C z, C) -> C { return z == C(0) ? z : std::pow(z, W(1) / W(3)); }},
      {"sine", [](C a, C) { return std::sin(a); }},
      {"cosine", [](C a, C) { return std::cos(a); }},
      {"tan", [](C a, C) { return std::tan(a); }},
      {"tanh", [](C a, C) { return std::tanh(a); }},
      {"power", [](C a, C b) -> C {
         if (a == C(0) && !HasNan(b)) {
           if (b == C(0)) return C(1);
           if (b.real() > 0) return C(0);
         }
         return std::pow(a, b);
       }},
      {"logistic", [](C a, C) { return W(1) / (W(1) + std::exp(-a)); }},
  };
}

// Norm-wise error in ULP of T, or infinity when a special value or a zero sign differs.
template <typename T, typename W>
double ComplexError(std::complex<T> got, std::complex<W> exact, bool check_signs) {
  const W parts[2] = {exact.real(), exact.imag()};
  const T got_parts[2] = {got.real(), got.imag()};
  for (int i = 0; i < 2; ++i) {
    const W e = parts[i];
    const T g = got_parts[i];
    if (std::isnan(e) != std::isnan(g)) return INFINITY;
    if (std::isnan(e)) continue;
    if (std::isinf(e) || std::fabs(e) > std::numeric_limits<T>::max()) {
      if (!std::isinf(g) || (check_signs && std::signbit(g) != std::signbit(e))) return INFINITY;
    } else if (std::isinf(g)) {
      return INFINITY;
    }
    if (check_signs && e == 0 && g == 0 && std::signbit(e) != std::signbit(g)) return INFINITY;
  }
  // A part beyond the range: only the classes are compared (the finite part of an overflowing
  // quotient is an accident of the algorithm).
  for (W e : parts) {
    if (std::isinf(e) || std::fabs(e) > std::numeric_limits<T>::max()) return 0;
  }
  W magnitude = 0;
  for (W e : parts) {
    if (std::isfinite(e)) magnitude = std::max(magnitude, std::fabs(e));
  }
  int exponent;
  std::frexp(magnitude, &exponent);
  const W ulp = std::ldexp(W(1), std::max(exponent, std::numeric_limits<T>::min_exponent) -
                                      std::numeric_limits<T>::digits);
  double worst = 0;
  for (int i = 0; i < 2; ++i) {
    if (std::isfinite(parts[i]) && std::isfinite(got_parts[i])) {
      worst = std::max(worst, static_cast<double>(std::fabs(static_cast<W>(got_parts[i]) - parts[i]) / ulp));
    }
  }
  return worst;
}

template <typename T>
std::vector<std::complex<T>> Values(Random& random, int n) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T specials[] = {T(0), -T(0), T(1), -T(1), inf, -inf, nan, T(2.5), T(-0.75),
                        std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max()};
  std::vector<std::complex<T>> values;
  for (T re : specials)
    for (T im : specials) values.push_back({re, im});
  const int max_exp = std::numeric_limits<T>::max_exponent - 2;
  for (int i = 0; i < n; ++i) {
    auto part = [&](int lo, int hi) {
      const T v = static_cast<T>(std::ldexp(random.Uniform(1, 2), lo + static_cast<int>(random.Next() % (hi - lo + 1))));
      return (random.Next() & 1) ? -v : v;
    };
    switch (i % 3) {
      case 0: values.push_back({part(-3, 3), part(-3, 3)}); break;
      case 1: values.push_back({part(-20, 7), part(-20, 7)}); break;
      default: values.push_back({part(-max_exp, max_exp), part(-max_exp, max_exp)}); break;
    }
  }
  return values;
}

// Functions whose zero signs are compared for finite operands; the division-based ones
// (divide, rsqrt, power, logistic) may differ from libgcc's __divsc3/__divdc3 there.
const bool kZeroSignsChecked[] = {true, false, true, true, true, true, true, true, true, false, true,
                                  true, true, true, true, false, false};

// Bounds per function, in the order of Functions().
// power and logistic lose the accuracy their conditioning costs in the element type (the
// interpreter evaluates them in a wider type): |b log a| ULP for power, near the poles of
// logistic.
const std::vector<double> kBounds = {2, 3, 1, 2, 3, 3, 2, 4, 2, 4, 4, 3, 3, 4, 5, 8, 8};

class ComplexTest : public testing::DeviceTest {
 protected:
  // Checks the functions whose index is in `only` (all when empty).
  template <typename T, typename W>
  void CheckAll(const char* kernel, const char* label, const std::vector<double>& bounds,
                const std::vector<size_t>& only = {}) {
    Random random(31);
    std::vector<std::complex<T>> values = Values<T>(random, 6000);
    auto functions = Functions<W>();
    for (size_t f = 0; f < functions.size(); ++f) {
      if (!only.empty() && std::find(only.begin(), only.end(), f) == only.end()) continue;
      const bool binary = f == 0 || f == 1 || f == 15;
      std::vector<std::pair<std::complex<T>, std::complex<T>>> pairs;
      for (size_t i = 0; i < values.size(); ++i) {
        if (binary) {
          pairs.push_back({values[i], values[(i * 7919 + 13) % values.size()]});
          if (i < 121) {
            for (size_t j = 0; j < 121; ++j) pairs.push_back({values[i], values[j]});
          }
        } else {
          pairs.push_back({values[i], {}});
        }
      }
      std::vector<T> flat;
      for (auto& [a, b] : pairs) flat.insert(flat.end(), {a.real(), a.imag(), b.real(), b.imag()});
      std::vector<uint32_t> words(flat.size() * sizeof(T) / 4);
      std::memcpy(words.data(), flat.data(), flat.size() * sizeof(T));
      const auto start = std::chrono::steady_clock::now();
      std::vector<uint32_t> out = RunKernel(dev(), kernel, static_cast<uint32_t>(f), words,
                                            static_cast<uint32_t>(pairs.size()), pairs.size() * 2 * sizeof(T) / 4);
      ASSERT_EQ(out.size() * 4, pairs.size() * 2 * sizeof(T));
      std::vector<T> got(pairs.size() * 2);
      std::memcpy(got.data(), out.data(), got.size() * sizeof(T));
      double worst = 0;
      int failures = 0, special_failures = 0;
      for (size_t i = 0; i < pairs.size(); ++i) {
        const auto [a, b] = pairs[i];
        std::complex<W> exact;
        if (f == 0) exact = std::complex<W>(a * b);
        else if (f == 1) exact = std::complex<W>(a / b);
        else exact = functions[f].second(std::complex<W>(a), std::complex<W>(b));
        const std::complex<T> g(got[2 * i], got[2 * i + 1]);
        // Zero signs must match for finite operands; with infinite or NaN parts only the
        // classes (NaN, infinity and its sign) are compared (docs/design.md).
        const bool finite = std::isfinite(a.real()) && std::isfinite(a.imag()) &&
                            (!binary || (std::isfinite(b.real()) && std::isfinite(b.imag())));
        // power: only where it is well conditioned in the element type (|b| and |a| moderate);
        // elsewhere the interpreter's wider evaluation decides overflow differently.
        if (f == 15 && !(std::abs(a) < 64 && std::abs(b) < 64 && std::abs(a) > 1.0 / 64)) continue;
        // Division by or of infinities: C99 Annex G recovery here; libgcc's __divsc3 differs in
        // some cases ((0 + inf i) / 2.5 is inf + inf i there), so those are not compared.
        if (!finite && (f == 1 || f == 9 || f == 15 || f == 16)) continue;
        // Quotients beyond the range: libgcc's __divdc3 returns NaN parts for some of those
        // (denormal divisors); ours are the IEEE values. Not compared either.
        if ((f == 1 || f == 9) && !(std::isfinite(exact.real()) && std::isfinite(exact.imag()) &&
                                    std::fabs(exact.real()) <= std::numeric_limits<T>::max() &&
                                    std::fabs(exact.imag()) <= std::numeric_limits<T>::max())) {
          continue;
        }
        const double err = ComplexError<T, W>(g, exact, finite && kZeroSignsChecked[f]);
        // power and logistic are evaluated in the element type, where their conditioning costs
        // accuracy: allow ~2 ULP per unit of condition number (|b log a| for power,
        // |z (1 - logistic z)| for logistic).
        double bound = bounds[f];
        if (f == 15 && finite) bound += 2 * static_cast<double>(std::abs(std::complex<W>(b) * std::log(std::complex<W>(a))));
        if (f == 16 && finite) {
          const std::complex<W> z(a);
          bound += 2 * static_cast<double>(std::abs(z * (W(1) - exact)));
        }
        if (err > bound && (std::isfinite(err) ? failures++ < 6 : special_failures++ < 4)) {
          ADD_FAILURE() << label << " " << functions[f].first << std::hexfloat << " (" << a.real() << ", "
                        << a.imag() << ")" << (binary ? " (" : "") << (binary ? std::to_string(b.real()) : "")
                        << (binary ? ", " : "") << (binary ? std::to_string(b.imag()) : "") << (binary ? ")" : "")
                        << ": got (" << g.real() << ", " << g.imag() << "), expected ("
                        << static_cast<double>(exact.real()) << ", " << static_cast<double>(exact.imag()) << ")"
                        << std::defaultfloat << " error " << err;
        }
        if (std::isfinite(err)) worst = std::max(worst, err);
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::printf("%s %-22s max %.3f ULP (norm-wise) over %zu inputs (%.0f ms)\n", label, functions[f].first, worst,
                  pairs.size(), ms);
    }
  }
};

TEST_F(ComplexTest, Complex64MatchesStdComplex) { CheckAll<float, double>("complex_f32", "c64", kBounds); }

// complex<f64>: the functions without trigonometry, and (below) those with it (exp, expm1, cbrt,
// sin, cos, tan, tanh, power, logistic), whose f64 Payne-Hanek reduction used to be unrolled
// (20-90 s per pipeline on lavapipe; now 1.5-7 s on a loaded 2-core machine).
TEST_F(ComplexTest, Complex128MatchesStdComplex) {
  if (!HasFloat64(dev())) {
    ExpectFloat64Refused(dev(), "complex_f64");
    GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
  }
  CheckAll<double, long double>("complex_f64", "c128", kBounds, {0, 1, 2, 3, 6, 7, 8, 9});
}

TEST_F(ComplexTest, Complex128TranscendentalsMatchStdComplex) {
  if (!HasFloat64(dev())) {
    ExpectFloat64Refused(dev(), "complex_f64");
    GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
  }
  CheckAll<double, long double>("complex_f64", "c128", kBounds, {4, 5, 10, 11, 12, 13, 14, 15, 16});
}

}  // namespace
}  // namespace vkhlo::glsl_test
