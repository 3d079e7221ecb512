// The narrow-float codecs of codegen/glsl (hlo_float_codec*.glsl) against ir::EncodeFloat and
// ir::DecodeFloat, bit for bit: every pattern decoded; f32 and f64 values encoded, with every
// rounding boundary (midpoints between neighbours, and their neighbours) of every format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "ir/element_type.h"
#include "ir/literal.h"
#include "tests/codegen/glsl/glsl_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::glsl_test {
namespace {

using ir::ElementType;

// In the order of the test kernels' switch.
const ElementType kFormats[] = {
    ElementType::kBF16,       ElementType::kF16,        ElementType::kF8E4M3FN,
    ElementType::kF8E5M2,     ElementType::kF8E4M3FNUZ, ElementType::kF8E5M2FNUZ,
    ElementType::kF8E4M3B11FNUZ, ElementType::kF8E4M3,  ElementType::kF8E3M4,
    ElementType::kF8E8M0FNU,  ElementType::kF6E2M3FN,   ElementType::kF6E3M2FN,
    ElementType::kF4E2M1FN};

// The decision points of rounding into `type`: every representable magnitude, every midpoint
// between neighbours (including the one above the largest finite value), as doubles.
std::vector<double> Boundaries(ElementType type) {
  std::set<double> values;
  const uint64_t patterns = uint64_t{1} << ir::BitWidth(type);
  for (uint64_t bits = 0; bits < patterns; ++bits) {
    double v = ir::DecodeFloat(type, bits);
    if (std::isfinite(v) && v >= 0) values.insert(v);
  }
  std::vector<double> sorted(values.begin(), values.end());
  // One step beyond the largest finite value (same spacing as the last binade; for E8M0 the
  // next power of two): its midpoint is the overflow threshold.
  const double top = sorted.back(), below = sorted[sorted.size() - 2];
  sorted.push_back(type == ElementType::kF8E8M0FNU ? 2 * top : top + (top - below));
  std::vector<double> result;
  for (size_t i = 0; i + 1 < sorted.size(); ++i) {
    result.push_back(sorted[i]);
    result.push_back((sorted[i] + sorted[i + 1]) / 2);
  }
  result.push_back(sorted.back());
  return result;
}

class CodecTest : public testing::DeviceTest {
 protected:
  std::vector<uint32_t> Run(const char* kernel, uint32_t op, std::span<const uint32_t> in,
                            size_t out_words_per_element, size_t in_words_per_element = 1) {
    const uint32_t count = static_cast<uint32_t>(in.size() / in_words_per_element);
    return RunKernel(dev(), kernel, op, in, count, count * out_words_per_element);
  }
};

bool SameDecoded(double expected, double got) {
  if (std::isnan(expected)) return std::isnan(got) && std::signbit(got) == std::signbit(expected);
  return Bits(expected) == Bits(got);
}

TEST_F(CodecTest, DecodeEveryPatternToF32) {
  for (uint32_t f = 0; f < std::size(kFormats); ++f) {
    const ElementType type = kFormats[f];
    std::vector<uint32_t> in(size_t{1} << ir::BitWidth(type));
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(i);
    std::vector<uint32_t> out = Run("codec_f32", f, in, 1);
    ASSERT_EQ(out.size(), in.size());
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const double expected = ir::DecodeFloat(type, in[i]);
      const double got = FromBits(out[i]);
      if (!SameDecoded(expected, got)) {
        ++failures;
        ADD_FAILURE() << ir::ElementTypeName(type) << " pattern 0x" << std::hex << in[i] << ": expected "
                      << expected << ", got " << got << " (0x" << out[i] << ")";
      }
    }
  }
}

TEST_F(CodecTest, EncodeF32ValuesBitExact) {
  Random random(1234);
  for (uint32_t f = 0; f < std::size(kFormats); ++f) {
    const ElementType type = kFormats[f];
    std::vector<uint32_t> in;
    for (double b : Boundaries(type)) {
      const float v = static_cast<float>(b);
      if (static_cast<double>(v) != b) continue;  // not an f32 (cannot happen for these formats)
      for (float w : {v, std::nextafter(v, 0.0f), std::nextafter(v, INFINITY)}) {
        in.push_back(Bits(w));
        in.push_back(Bits(-w));
      }
    }
    for (uint32_t special : {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                             0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, 0x00000001u, 0x807FFFFFu,
                             0x00400000u, 0x00600000u, 0x005FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu}) {
      in.push_back(special);
    }
    for (int i = 0; i < 200000; ++i) in.push_back(random.Next32());
    // Values in and near the format's range, where the rounding happens.
    for (int i = 0; i < 200000; ++i) {
      in.push_back(Bits(static_cast<float>(std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 300) - 150))));
    }
    std::vector<uint32_t> out = Run("codec_f32", 100 + f, in, 1);
    ASSERT_EQ(out.size(), in.size());
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const uint64_t expected = ir::EncodeFloat(type, FromBits(in[i]));
      if (out[i] != expected) {
        ++failures;
        ADD_FAILURE() << ir::ElementTypeName(type) << " encode of " << FromBits(in[i]) << " (0x" << std::hex
                      << in[i] << "): expected 0x" << expected << ", got 0x" << out[i];
      }
    }
    RecordProperty(std::string(ir::ElementTypeName(type)), static_cast<int>(in.size()));
  }
}

TEST_F(CodecTest, DecodeEveryPatternToF64) {
  if (!HasFloat64(dev())) {
    ExpectFloat64Refused(dev(), "codec_f64");
    GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
  }
  for (uint32_t f = 0; f < std::size(kFormats); ++f) {
    const ElementType type = kFormats[f];
    std::vector<uint32_t> in(size_t{1} << ir::BitWidth(type));
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(i);
    std::vector<double> out = Doubles(Run("codec_f64", f, in, 2));
    ASSERT_EQ(out.size(), in.size());
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const double expected = ir::DecodeFloat(type, in[i]);
      if (!SameDecoded(expected, out[i])) {
        ++failures;
        ADD_FAILURE() << ir::ElementTypeName(type) << " pattern 0x" << std::hex << in[i] << ": expected "
                      << expected << ", got " << out[i];
      }
    }
  }
}

// Doubles round once: a value a hair above a midpoint must round up even where rounding it to
// f32 first would land on the midpoint and then tie to even.
TEST_F(CodecTest, EncodeF64ValuesBitExact) {
  if (!HasFloat64(dev())) {
    ExpectFloat64Refused(dev(), "codec_f64");
    GTEST_SKIP() << "the device (profile) lacks shaderFloat64; its f64 kernels are refused";
  }
  Random random(99);
  for (uint32_t f = 0; f < std::size(kFormats); ++f) {
    const ElementType type = kFormats[f];
    std::vector<double> in;
    for (double b : Boundaries(type)) {
      for (double w : {b, std::nextafter(b, 0.0), std::nextafter(b, INFINITY), b * (1 + 0x1p-40),
                       b * (1 - 0x1p-40), b * (1 + 0x1p-25), b * (1 - 0x1p-25)}) {
        in.push_back(w);
        in.push_back(-w);
      }
    }
    for (double special : std::initializer_list<double>{0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 0x1p-1074, -0x1p-1022,
                           std::numeric_limits<double>::max(), 0x1p-149, 0x1.8p-150, 0x1p-127, 0x1.8p-128}) {
      in.push_back(special);
    }
    for (int i = 0; i < 50000; ++i) in.push_back(FromBits64(random.Next()));
    for (int i = 0; i < 100000; ++i) {
      in.push_back(std::ldexp(random.Uniform(-2, 2), static_cast<int>(random.Next() % 300) - 150));
    }
    std::vector<uint32_t> out = Run("codec_f64", 100 + f, Words(in), 1, 2);
    ASSERT_EQ(out.size(), in.size());
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const uint64_t expected = ir::EncodeFloat(type, in[i]);
      if (out[i] != expected) {
        ++failures;
        ADD_FAILURE() << ir::ElementTypeName(type) << " encode of " << in[i] << ": expected 0x" << std::hex
                      << expected << ", got 0x" << out[i];
      }
    }
  }
}

}  // namespace
}  // namespace vkhlo::glsl_test
