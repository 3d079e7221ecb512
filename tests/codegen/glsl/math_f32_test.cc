// hlo_math_f32.glsl against host references computed in double (long double for logistic):
// every function over ~10^5 inputs spanning its whole range plus its edge cases (signed zeros,
// infinities, NaN, denormals, overflow and underflow thresholds, arguments next to multiples
// of pi/2), measured in ULP of the f32 result. Prints the maximum error per function.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

using Pairs = std::vector<std::pair<float, float>>;

const float kEdges[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 0x1p-149f, -0x1p-149f,
                        0x1p-126f, -0x1p-126f, 0x1.fffffcp-127f, 0x1.fffffep127f, -0x1.fffffep127f, 0.5f,
                        -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 0x1p-25f, 0x1p-12f, 0x1p23f, 0x1p24f, 88.7228394f,
                        88.7228317f, -87.3365479f, -103.972084f, -103.278931f, 89.0f, -104.0f, 0.785398185f,
                        1.57079637f, 3.14159274f, 6434.0f, 6433.9f, 4096.0f, 9.5f, -17.4f, 0.6875f, 0.4375f};

struct MathCase {
  const char* name;
  uint32_t op;
  std::function<double(double, double)> reference;
  double bound;                 // asserted maximum error in ULP
  std::function<float(Random&)> x_range;  // a typical argument (besides edges and random bits)
  bool binary = false;
};

float Uniform(Random& r, double lo, double hi) { return static_cast<float>(r.Uniform(lo, hi)); }
// Magnitudes spread over all binades between 2^lo and 2^hi, both signs.
float LogUniform(Random& r, int lo, int hi) {
  const double v = std::ldexp(r.Uniform(1, 2), lo + static_cast<int>(r.Next() % (hi - lo + 1)));
  return static_cast<float>((r.Next() & 1) ? -v : v);
}

std::vector<MathCase> Cases() {
  return {
      {"exponential", 0, [](double x, double) { return std::exp(x); }, 1.0,
       [](Random& r) { return Uniform(r, -110, 90); }},
      {"exponential_minus_one", 1, [](double x, double) { return std::expm1(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -20, 90) : LogUniform(r, -30, 2); }},
      {"log", 2, [](double x, double) { return std::log(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, 0.5, 2) : std::fabs(LogUniform(r, -149, 127)); }},
      {"log_plus_one", 3, [](double x, double) { return std::log1p(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -1, 2) : LogUniform(r, -30, 40); }},
      {"logistic", 4, [](double x, double) { return static_cast<double>(1.0L / (1.0L + std::exp(-static_cast<long double>(x)))); },
       1.5, [](Random& r) { return Uniform(r, -110, 30); }},
      {"tanh", 5, [](double x, double) { return std::tanh(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -10, 10) : LogUniform(r, -14, 1); }},
      {"sine", 6, [](double x, double) { return std::sin(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -7000, 7000) : LogUniform(r, -14, 127); }},
      {"cosine", 7, [](double x, double) { return std::cos(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -7000, 7000) : LogUniform(r, -14, 127); }},
      {"tan", 8, [](double x, double) { return std::tan(x); }, 1.0,
       [](Random& r) { return (r.Next() & 1) ? Uniform(r, -7000, 7000) : LogUniform(r, -14, 127); }},
      {"atan2", 9, [](double y, double x) { return std::atan2(y, x); }, 1.0,
       [](Random& r) { return LogUniform(r, -30, 30); }, true},
      {"power", 10, [](double x, double y) { return std::pow(x, y); }, 1.0,
       [](Random& r) { return std::fabs(LogUniform(r, -10, 10)); }, true},
      {"cbrt", 11, [](double x, double) { return std::cbrt(x); }, 1.0,
       [](Random& r) { return LogUniform(r, -149, 127); }},
  };
}

// Floats closest to multiples of pi/2: the hardest arguments for trigonometric reduction.
std::vector<float> NearMultiplesOfPiOver2(Random& random) {
  std::vector<float> values;
  const long double pio2 = 1.57079632679489661923132169163975144L;
  for (int k = 1; k <= 5000; ++k) values.push_back(static_cast<float>(k * pio2));
  for (int i = 0; i < 5000; ++i) {
    const long double k = std::floor(std::ldexp(static_cast<long double>(random.Uniform(1, 2)), 13 + static_cast<int>(random.Next() % 50)));
    values.push_back(static_cast<float>(k * pio2));
  }
  return values;
}

Pairs InputsFor(const MathCase& c, Random& random) {
  Pairs pairs;
  for (float a : kEdges) {
    if (c.binary) {
      for (float b : kEdges) pairs.push_back({a, b});
    } else {
      pairs.push_back({a, 0.0f});
      pairs.push_back({std::nextafter(a, 0.0f), 0.0f});
      pairs.push_back({std::nextafter(a, INFINITY), 0.0f});
    }
  }
  for (int i = 0; i < 30000; ++i) pairs.push_back({FromBits(random.Next32()), FromBits(random.Next32())});
  for (int i = 0; i < 60000; ++i) {
    const float x = c.x_range(random);
    float y = 0.0f;
    if (c.op == 9) y = LogUniform(random, -30, 30);
    if (c.op == 10) {
      // Exponents that keep x^y in range most of the time, integers (negative bases), and
      // bases next to 1 with large exponents.
      switch (i % 4) {
        case 0: y = Uniform(random, -40, 40); break;
        case 1: y = std::floor(Uniform(random, -30, 30)); pairs.push_back({-x, y}); break;
        case 2: y = Uniform(random, -1e6, 1e6); pairs.push_back({1.0f + Uniform(random, -1e-4, 1e-4), y}); break;
        default: y = Uniform(random, -3, 3); break;
      }
    }
    pairs.push_back({x, y});
  }
  if (c.op >= 6 && c.op <= 8) {
    for (float v : NearMultiplesOfPiOver2(random)) {
      for (float w : {v, std::nextafter(v, 0.0f), std::nextafter(v, INFINITY)}) pairs.push_back({w, 0.0f});
    }
  }
  return pairs;
}

class MathF32Test : public testing::DeviceTest {};

TEST_F(MathF32Test, EveryFunctionWithinItsBound) {
  Random random(2024);
  for (const MathCase& c : Cases()) {
    Pairs pairs = InputsFor(c, random);
    std::vector<uint32_t> in;
    for (auto [x, y] : pairs) {
      in.push_back(Bits(x));
      in.push_back(Bits(y));
    }
    std::vector<uint32_t> out = RunKernel(dev(), "math_f32", c.op, in,
                                          static_cast<uint32_t>(pairs.size()), pairs.size());
    ASSERT_EQ(out.size(), pairs.size()) << c.name;
    double worst = 0;
    float worst_x = 0, worst_y = 0;
    int failures = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const auto [x, y] = pairs[i];
      const double exact = c.reference(x, y);
      const float got = FromBits(out[i]);
      const double err = UlpErrorF32(got, exact);
      if (err > c.bound && failures++ < 8) {
        ADD_FAILURE() << c.name << "(" << std::hexfloat << x << (c.binary ? ", " : "")
                      << (c.binary ? std::to_string(y) : "") << "): got " << got << ", expected " << exact
                      << std::defaultfloat << " (" << err << " ULP)";
      }
      if (err > worst) {
        worst = err;
        worst_x = x;
        worst_y = y;
      }
    }
    std::printf("f32 %-22s max %.3f ULP at (%a, %a) over %zu inputs\n", c.name, worst, worst_x, worst_y, pairs.size());
  }
}

}  // namespace
}  // namespace vkhlo::glsl_test
