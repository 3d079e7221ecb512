// hlo_convert_f32.glsl / hlo_convert_f64.glsl: integer -> float conversions, round-to-odd,
// f64 -> f32 and reduce_precision, computed on the bits, bit-exact against the host (whose
// conversions round to nearest even) and against the interpreter's reduce_precision rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

enum Op32 : uint32_t { kF32FromU32 = 0, kF32FromI32, kF32FromU64, kF32FromI64, kOddFromU32, kOddFromU64, kReduce32 };
enum Op64 : uint32_t { kF64FromU64 = 0, kF64FromI64, kF32FromF64, kReduce64 };

// Four words per element.
struct Input {
  uint32_t a = 0, b = 0, c = 0, d = 0;
  uint64_t ab() const { return a | (uint64_t{b} << 32); }
};

// Integers near every power of two and its halfway points (where rounding decides), extremes,
// and random bits.
std::vector<uint64_t> IntegerCases(Random& random, int n) {
  std::vector<uint64_t> v = {0, 1, 2, 3, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFull,
                             0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull};
  for (int p = 20; p < 64; ++p) {
    const uint64_t base = uint64_t{1} << p;
    for (uint64_t delta : {uint64_t{0}, uint64_t{1}, base >> 24, base >> 25, (base >> 24) + 1, (base >> 53),
                           (base >> 54), (base >> 54) + 1}) {
      v.push_back(base + delta);
      v.push_back(base - delta);
      v.push_back(base + 3 * delta);
    }
  }
  for (int i = 0; i < n; ++i) {
    const uint64_t r = random.Next();
    v.push_back(r);
    v.push_back(r >> (random.Next() % 64));
  }
  return v;
}

// m rounded to odd at 24 significant bits (the reference of hlo_odd_from_*).
float OddAt24(uint64_t m) {
  if (m < (uint64_t{1} << 24)) return static_cast<float>(m);
  int msb = 63;
  while (!((m >> msb) & 1)) --msb;
  const int shift = msb - 23;
  uint64_t kept = m >> shift;
  if (m & ((uint64_t{1} << shift) - 1)) kept |= 1;
  return std::ldexp(static_cast<float>(kept), shift);
}

// The interpreter's reduce_precision (src/interp/elementwise_convert.cc), for a format of
// src_e/src_m bits and smallest normal exponent src_min.
template <typename T>
T ReducePrecision(T x, int e, int m, int src_e, int src_m, int src_min) {
  if (std::isnan(x)) return m > 0 ? x : std::copysign(std::numeric_limits<T>::infinity(), x);
  if (std::isinf(x) || x == 0) return x;
  T v = x;
  if (m < src_m) {
    const int quantum = std::max(std::ilogb(v), src_min) - m;
    v = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
  }
  if (e < src_e && !std::isinf(v) && v != 0) {
    const int reduced_bias = (1 << (e - 1)) - 1;
    if (std::ilogb(v) > reduced_bias) return std::copysign(std::numeric_limits<T>::infinity(), x);
    if (std::ilogb(v) <= -reduced_bias) return std::copysign(T(0), x);
  }
  return v;
}

class ConvertTest : public testing::DeviceTest {
 protected:
  std::vector<uint32_t> Run(const char* kernel, uint32_t op, const std::vector<Input>& inputs, size_t words_per) {
    std::vector<uint32_t> in;
    for (const Input& i : inputs) in.insert(in.end(), {i.a, i.b, i.c, i.d});
    return RunKernel(dev(), kernel, op, in, static_cast<uint32_t>(inputs.size()), inputs.size() * words_per);
  }

  // Compares bit patterns (any NaN matches any NaN) and reports the first few differences.
  template <typename T>
  void ExpectBits(const char* name, const std::vector<Input>& inputs, const std::vector<T>& got,
                  const std::function<T(const Input&)>& expected) {
    ASSERT_EQ(got.size(), inputs.size()) << name;
    int failures = 0;
    for (size_t i = 0; i < inputs.size() && failures < 10; ++i) {
      const T want = expected(inputs[i]);
      const bool same = std::isnan(want) ? std::isnan(got[i]) : Bits(want) == Bits(got[i]);
      if (!same) {
        ++failures;
        ADD_FAILURE() << name << " of words (0x" << std::hex << inputs[i].a << ", 0x" << inputs[i].b << std::dec
                      << ", " << inputs[i].c << ", " << inputs[i].d << "): expected " << std::hexfloat << want
                      << ", got " << got[i];
      }
    }
  }
};

std::vector<float> Floats(const std::vector<uint32_t>& words) {
  std::vector<float> out;
  for (uint32_t w : words) out.push_back(FromBits(w));
  return out;
}

TEST_F(ConvertTest, IntegersToF32RoundOnceToNearestEven) {
  Random random(31);
  std::vector<Input> inputs;
  for (uint64_t v : IntegerCases(random, 20000)) inputs.push_back({uint32_t(v), uint32_t(v >> 32), 0, 0});
  ExpectBits<float>("f32_from_u32", inputs, Floats(Run("convert_f32", kF32FromU32, inputs, 1)),
                    [](const Input& i) { return static_cast<float>(i.a); });
  ExpectBits<float>("f32_from_i32", inputs, Floats(Run("convert_f32", kF32FromI32, inputs, 1)),
                    [](const Input& i) { return static_cast<float>(static_cast<int32_t>(i.a)); });
  ExpectBits<float>("f32_from_u64", inputs, Floats(Run("convert_f32", kF32FromU64, inputs, 1)),
                    [](const Input& i) { return static_cast<float>(i.ab()); });
  ExpectBits<float>("f32_from_i64", inputs, Floats(Run("convert_f32", kF32FromI64, inputs, 1)),
                    [](const Input& i) { return static_cast<float>(static_cast<int64_t>(i.ab())); });
  ExpectBits<float>("odd_from_u32", inputs, Floats(Run("convert_f32", kOddFromU32, inputs, 1)),
                    [](const Input& i) { return OddAt24(i.a); });
  ExpectBits<float>("odd_from_u64", inputs, Floats(Run("convert_f32", kOddFromU64, inputs, 1)),
                    [](const Input& i) { return OddAt24(i.ab()); });
}

TEST_F(ConvertTest, F32ReducePrecisionMatchesTheInterpreter) {
  Random random(32);
  std::vector<Input> inputs;
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 0x1p-149f, -0x1p-149f, 0x1p-126f,
                            0x1.fffffep127f, 65504.0f, 65520.0f, -39.75f, 88.0f, 1.5f, 2.5f};
  for (int i = 0; i < 30000; ++i) {
    const float x = i < 16 * 40 ? specials[i % 16] : FromBits(random.Next32());
    inputs.push_back({Bits(x), 0, 1 + uint32_t(random.Next() % 10), uint32_t(random.Next() % 25)});
  }
  ExpectBits<float>("reduce_precision", inputs, Floats(Run("convert_f32", kReduce32, inputs, 1)), [](const Input& i) {
    return ReducePrecision<float>(FromBits(i.a), int(i.c), int(i.d), 8, 23, -126);
  });
}

class ConvertF64Test : public ConvertTest {
 protected:
  void SetUp() override {
    ConvertTest::SetUp();
    if (!HasFloat64(dev())) {
      ExpectFloat64Refused(dev(), "convert_f64");
      GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
    }
  }
};

TEST_F(ConvertF64Test, IntegersToF64AndF64ToF32RoundOnceToNearestEven) {
  Random random(33);
  std::vector<Input> inputs;
  for (uint64_t v : IntegerCases(random, 20000)) inputs.push_back({uint32_t(v), uint32_t(v >> 32), 0, 0});
  for (int i = 0; i < 20000; ++i) {  // doubles near f32's range edges and halfway points
    const double d = std::ldexp(1.0 + (random.Next() >> 11) * 0x1p-53, int(random.Next() % 320) - 160);
    const uint64_t b = Bits(random.Next() % 2 ? d : -d);
    inputs.push_back({uint32_t(b), uint32_t(b >> 32), 0, 0});
  }
  ExpectBits<double>("f64_from_u64", inputs, Doubles(Run("convert_f64", kF64FromU64, inputs, 2)),
                     [](const Input& i) { return static_cast<double>(i.ab()); });
  ExpectBits<double>("f64_from_i64", inputs, Doubles(Run("convert_f64", kF64FromI64, inputs, 2)),
                     [](const Input& i) { return static_cast<double>(static_cast<int64_t>(i.ab())); });
  std::vector<uint32_t> words = Run("convert_f64", kF32FromF64, inputs, 2);
  std::vector<float> narrowed;
  for (size_t i = 0; i < words.size(); i += 2) narrowed.push_back(FromBits(words[i]));
  ExpectBits<float>("f32_from_f64", inputs, narrowed,
                    [](const Input& i) { return static_cast<float>(FromBits64(i.ab())); });
}

TEST_F(ConvertF64Test, F64ReducePrecisionMatchesTheInterpreter) {
  Random random(34);
  std::vector<Input> inputs;
  const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 0x1p-1074, -0x1p-1074, 0x1p-1022,
                             0x1.fffffffffffffp1023, 65504.0, 65520.0, -39.75, 88.0, 1.5, 2.5};
  for (int i = 0; i < 30000; ++i) {
    const double x = i < 16 * 60 ? specials[i % 16] : FromBits64(random.Next());
    const uint64_t b = Bits(x);
    inputs.push_back({uint32_t(b), uint32_t(b >> 32), 1 + uint32_t(random.Next() % 13), uint32_t(random.Next() % 54)});
  }
  ExpectBits<double>("reduce_precision", inputs, Doubles(Run("convert_f64", kReduce64, inputs, 2)), [](const Input& i) {
    return ReducePrecision<double>(FromBits64(i.ab()), int(i.c), int(i.d), 11, 52, -1022);
  });
}

}  // namespace
}  // namespace vkhlo::glsl_test
