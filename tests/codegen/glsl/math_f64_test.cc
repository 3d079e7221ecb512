// hlo_math_f64.glsl against host references computed in long double (x87, 64-bit significand):
// every function over ~10^5 inputs spanning its whole range plus its edge cases (signed zeros,
// infinities, NaN, denormals, overflow and underflow thresholds, arguments next to multiples
// of pi/2), measured in ULP of the f64 result. Prints the maximum error per function. Skipped on
// devices (profiles) without shaderFloat64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

using Pairs = std::vector<std::pair<double, double>>;

const double kEdges[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0x1p-1074, -0x1p-1074,
                         0x1p-1022, -0x1p-1022, 0x0.fffffffffffffp-1022, 0x1.fffffffffffffp1023,
                         -0x1.fffffffffffffp1023, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0x1p-54, 0x1p-27, 0x1p52,
                         0x1p53, 709.782712893384, 709.7827128933841, -708.3964185322641, -745.1332191019411,
                         -745.1332191019412, 710.0, -746.0, 0.7853981633974483, 1.5707963267948966,
                         3.141592653589793, 1647099.3291652855, 1647099.0, 22.0, -38.0, 0.6875, 0.4375,
                         0x1.6ac5b262ca1ffp+849, 0x1.921fb54442d18p+1023};

struct MathCase {
  const char* name;
  uint32_t op;
  std::function<long double(long double, long double)> reference;
  double bound;                 // asserted maximum error in ULP
  std::function<double(Random&)> x_range;  // a typical argument (besides edges and random bits)
  bool binary = false;
};

double Uniform(Random& r, double lo, double hi) { return r.Uniform(lo, hi); }
double LogUniform(Random& r, int lo, int hi) {
  const double v = std::ldexp(r.Uniform(1, 2), lo + static_cast<int>(r.Next() % (hi - lo + 1)));
  return (r.Next() & 1) ? -v : v;
}

using L = long double;
std::vector<MathCase> Cases() {
  return {
      {"exponential", 0, [](L x, L) { return std::exp(x); }, 1.0, [](Random& r) { return Uniform(r, -750, 712); }},
      {"exponential_minus_one", 1, [](L x, L) { return std::expm1(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -40, 712) : LogUniform(r, -60, 2); }},
      {"log", 2, [](L x, L) { return std::log(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, 0.5, 2) : std::fabs(LogUniform(r, -1074, 1023)); }},
      {"log_plus_one", 3, [](L x, L) { return std::log1p(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -1, 2) : LogUniform(r, -60, 100); }},
      {"logistic", 4, [](L x, L) { return 1.0L / (1.0L + std::exp(-x)); }, 1.0,
       [](Random& r) { return Uniform(r, -750, 40); }},
      {"tanh", 5, [](L x, L) { return std::tanh(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -25, 25) : LogUniform(r, -30, 1); }},
      {"sine", 6, [](L x, L) { return std::sin(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -2e6, 2e6) : LogUniform(r, -30, 1023); }},
      {"cosine", 7, [](L x, L) { return std::cos(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -2e6, 2e6) : LogUniform(r, -30, 1023); }},
      {"tan", 8, [](L x, L) { return std::tan(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -2e6, 2e6) : LogUniform(r, -30, 1023); }},
      {"atan2", 9, [](L y, L x) { return std::atan2(y, x); }, 1.0, [](Random& r) { return LogUniform(r, -200, 200); },
       true},
      {"power", 10, [](L x, L y) { return std::pow(x, y); }, 1.0,
       [](Random& r) { return std::fabs(LogUniform(r, -20, 20)); }, true},
      {"cbrt", 11, [](L x, L) { return std::cbrt(x); }, 1.0, [](Random& r) { return LogUniform(r, -1074, 1023); }},
  };
}

// Doubles closest to multiples of pi/2: the hardest arguments for trigonometric reduction.
std::vector<double> NearMultiplesOfPiOver2(Random& random) {
  std::vector<double> values;
  const long double pio2 = 1.57079632679489661923132169163975144L;
  for (int k = 1; k <= 3000; ++k) values.push_back(static_cast<double>(k * pio2));
  for (int i = 0; i < 3000; ++i) {
    const long double k = std::floor(std::ldexp(static_cast<long double>(random.Uniform(1, 2)), 11 + static_cast<int>(random.Next() % 10)));
    values.push_back(static_cast<double>(k * pio2));
  }
  return values;
}

Pairs InputsFor(const MathCase& c, Random& random) {
  Pairs pairs;
  for (double a : kEdges) {
    if (c.binary) {
      for (double b : kEdges) pairs.push_back({a, b});
    } else {
      pairs.push_back({a, 0.0});
      pairs.push_back({std::nextafter(a, 0.0), 0.0});
      pairs.push_back({std::nextafter(a, INFINITY), 0.0});
    }
  }
  for (int i = 0; i < 20000; ++i) pairs.push_back({FromBits64(random.Next()), FromBits64(random.Next())});
  for (int i = 0; i < 50000; ++i) {
    const double x = c.x_range(random);
    double y = 0.0;
    if (c.op == 9) y = LogUniform(random, -200, 200);
    if (c.op == 10) {
      // Exponents that keep x^y in range most of the time, integers (negative bases), and
      // bases next to 1 with large exponents.
      switch (i % 4) {
        case 0: y = Uniform(random, -200, 200); break;
        case 1: y = std::floor(Uniform(random, -200, 200)); pairs.push_back({-x, y}); break;
        case 2: y = Uniform(random, -1e12, 1e12); pairs.push_back({1.0 + Uniform(random, -1e-10, 1e-10), y}); break;
        default: y = Uniform(random, -3, 3); break;
      }
    }
    pairs.push_back({x, y});
  }
  if (c.op >= 6 && c.op <= 8) {
    for (double v : NearMultiplesOfPiOver2(random)) {
      for (double w : {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY)}) pairs.push_back({w, 0.0});
    }
  }
  return pairs;
}

class MathF64Test : public testing::DeviceTest {};

TEST_F(MathF64Test, EveryFunctionWithinItsBound) {
  if (!HasFloat64(dev())) {
    ExpectFloat64Refused(dev(), "math_f64");
    GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
  }
  Random random(4048);
  for (const MathCase& c : Cases()) {
    Pairs pairs = InputsFor(c, random);
    std::vector<double> flat;
    for (auto [x, y] : pairs) {
      flat.push_back(x);
      flat.push_back(y);
    }
    std::vector<double> out = Doubles(RunKernel(dev(), "math_f64", c.op, Words(flat),
                                                static_cast<uint32_t>(pairs.size()), pairs.size() * 2));
    ASSERT_EQ(out.size(), pairs.size()) << c.name;
    double worst = 0;
    double worst_x = 0, worst_y = 0;
    int failures = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const auto [x, y] = pairs[i];
      const long double exact = c.reference(x, y);
      const double got = out[i];
      const double err = UlpErrorF64(got, exact);
      if (err > c.bound && failures++ < 8) {
        ADD_FAILURE() << c.name << "(" << std::hexfloat << x << (c.binary ? ", " : "")
                      << (c.binary ? std::to_string(y) : "") << "): got " << got << ", expected " << static_cast<double>(exact)
                      << std::defaultfloat << " (" << err << " ULP)";
      }
      if (err > worst) {
        worst = err;
        worst_x = x;
        worst_y = y;
      }
    }
    std::printf("f64 %-22s max %.3f ULP at (%a, %a) over %zu inputs\n", c.name, worst, worst_x, worst_y, pairs.size());
  }
}

}  // namespace
}  // namespace vkhlo::glsl_test
