// convert between every pair of element types (with each pair's special cases),
// bitcast_convert across widths, and reduce_precision against the formats it emulates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "test_util.h"

namespace vkhlo::interp::testing {
namespace {

StatusOr<Literal> Convert(const Literal& x, ElementType to) {
  return Eval(OpCode::kConvert, {x}, x.type().WithElementType(to));
}

Literal MustConvert(const Literal& x, ElementType to) {
  auto r = Convert(x, to);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : Literal();
}

// Every element type converts to every element type, without error.
TEST(ConvertTest, EveryPairConverts) {
  for (int from = 0; from < ir::kNumElementTypes; ++from) {
    const auto f = static_cast<ElementType>(from);
    Literal x = *Literal::Create(Vec(f, 3));
    if (ir::IsInteger(f) || ir::IsBoolean(f)) {
      x = Ints(f, {0, 1, 1});
    } else {
      for (int64_t i = 0; i < 3; ++i) x.SetComplex(i, {static_cast<double>(i), 0.0});
    }
    for (int to = 0; to < ir::kNumElementTypes; ++to) {
      const auto t = static_cast<ElementType>(to);
      SCOPED_TRACE(std::string(ir::ElementTypeName(f)) + " -> " + std::string(ir::ElementTypeName(t)));
      auto r = Convert(x, t);
      ASSERT_TRUE(r.ok()) << r.status().message();
      // Zero and one survive every conversion (one becomes true, 1, 1.0, (1, 0)); E8M0 has no
      // zero, so only one is checked there.
      if (t != ElementType::kF8E8M0FNU && f != ElementType::kF8E8M0FNU) {
        EXPECT_EQ(r->GetComplex(0), std::complex<double>(0, 0));
      }
      EXPECT_EQ(r->GetComplex(1), std::complex<double>(1, 0));
    }
  }
}

TEST(ConvertTest, FloatToIntegerTruncatesSaturatesAndMapsNanToZero) {
  const Literal x = Floats(ElementType::kF32, {NAN, INFINITY, -INFINITY, 1e10, -1e10, -1.9, 1.9, -0.0, 2147483520.0});
  EXPECT_EQ(AllInts(MustConvert(x, ElementType::kS32)),
            (std::vector<int64_t>{0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, -1, 1, 0, 2147483520}));
  EXPECT_EQ(AllInts(MustConvert(x, ElementType::kU8)), (std::vector<int64_t>{0, 255, 0, 255, 0, 0, 1, 0, 255}));
  EXPECT_EQ(AllInts(MustConvert(x, ElementType::kS4)), (std::vector<int64_t>{0, 7, -8, 7, -8, -1, 1, 0, 7}));
  const Literal y = Floats(ElementType::kF64, {9.3e18, -9.3e18, 1.8e19, 1.9e19, 9223372036854774784.0});
  EXPECT_EQ(AllInts(MustConvert(y, ElementType::kS64)),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, INT64_MAX, INT64_MAX, 9223372036854774784}));
  EXPECT_EQ(AllBits(MustConvert(y, ElementType::kU64)),
            (std::vector<uint64_t>{9300000000000000000u, 0, 18000000000000000000u, UINT64_MAX, 9223372036854774784u}));
  // Narrow floats and complex (real part) too.
  EXPECT_EQ(AllInts(MustConvert(Floats(ElementType::kBF16, {-3.75, 1e30}), ElementType::kS16)),
            (std::vector<int64_t>{-3, INT16_MAX}));
  EXPECT_EQ(AllInts(MustConvert(Complexes(ElementType::kC64, {{-2.5, 7}, {0, 1}}), ElementType::kS8)),
            (std::vector<int64_t>{-2, 0}));
}

TEST(ConvertTest, IntegerToIntegerWraps) {
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kS32, {300, -1, -129, 127}), ElementType::kS8)),
            (std::vector<int64_t>{44, -1, 127, 127}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kS8, {-1, -128}), ElementType::kU8)), (std::vector<int64_t>{255, 128}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kU8, {255, 128}), ElementType::kS8)), (std::vector<int64_t>{-1, -128}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kS8, {-1, 8, 9}), ElementType::kS4)), (std::vector<int64_t>{-1, -8, -7}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kS4, {-1, -8}), ElementType::kU64)), (std::vector<int64_t>{-1, -8}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kU4, {15}), ElementType::kS2)), (std::vector<int64_t>{-1}));
}

TEST(ConvertTest, IntegerToFloatRoundsOnceToNearestEven) {
  // 2^24 + 1 -> 2^24 (tie to even), 2^24 + 3 -> 2^24 + 4.
  EXPECT_EQ(AllFloats(MustConvert(Ints(ElementType::kS32, {16777217, 16777219, -16777217}), ElementType::kF32)),
            (std::vector<double>{16777216, 16777220, -16777216}));
  // UINT64_MAX -> 2^64 in f32 and f64.
  EXPECT_EQ(MustConvert(Ints(ElementType::kU64, {-1}), ElementType::kF32).GetFloat(0), 18446744073709551616.0);
  EXPECT_EQ(MustConvert(Ints(ElementType::kU64, {-1}), ElementType::kF64).GetFloat(0), 18446744073709551616.0);
  // 2^63 + 2^55 + 1 lies just above a bf16 midpoint: rounding it to double first would land on
  // the midpoint and round down to even. Correct: up, to 2^63 + 2^56.
  const Literal tricky = Ints(ElementType::kU64, {static_cast<int64_t>((uint64_t{1} << 63) + (uint64_t{1} << 55) + 1)});
  EXPECT_EQ(MustConvert(tricky, ElementType::kBF16).GetFloat(0), std::ldexp(1.0, 63) + std::ldexp(1.0, 56));
  // A plain midpoint rounds to even.
  const Literal tie = Ints(ElementType::kU64, {static_cast<int64_t>((uint64_t{1} << 63) + (uint64_t{1} << 55))});
  EXPECT_EQ(MustConvert(tie, ElementType::kBF16).GetFloat(0), std::ldexp(1.0, 63));
  // Out of range of f16: infinity; of f8E4M3FN: NaN (it has no infinity).
  EXPECT_EQ(MustConvert(Ints(ElementType::kS32, {70000, -70000}), ElementType::kF16).GetFloat(1), -INFINITY);
  EXPECT_TRUE(std::isnan(MustConvert(Ints(ElementType::kS32, {1000}), ElementType::kF8E4M3FN).GetFloat(0)));
  EXPECT_EQ(MustConvert(Ints(ElementType::kS64, {INT64_MIN}), ElementType::kF16).GetFloat(0), -INFINITY);
  EXPECT_EQ(MustConvert(Ints(ElementType::kS64, {INT64_MIN}), ElementType::kBF16).GetFloat(0), -std::ldexp(1.0, 63));
  EXPECT_EQ(AllFloats(MustConvert(Ints(ElementType::kI1, {1, 0}), ElementType::kF32)), (std::vector<double>{1, 0}));
}

TEST(ConvertTest, FloatToFloatRoundsOnceAndKeepsSpecials) {
  const ElementType f32 = ElementType::kF32, f64 = ElementType::kF64, bf16 = ElementType::kBF16, f16 = ElementType::kF16;
  // f64 -> f32: overflow to infinity, underflow to subnormals and signed zero, NaN stays NaN.
  const Literal x = Floats(f64, {1e300, -1e300, 1e-45, 1e-46, -1e-300, NAN, 0.1});
  const Literal y = MustConvert(x, f32);
  EXPECT_EQ(y.GetFloat(0), INFINITY);
  EXPECT_EQ(y.GetFloat(1), -INFINITY);
  EXPECT_EQ(y.GetBits(2), 0x00000001u);
  EXPECT_EQ(y.GetBits(3), 0x00000000u);
  EXPECT_EQ(y.GetBits(4), 0x80000000u);
  EXPECT_TRUE(std::isnan(y.GetFloat(5)));
  EXPECT_EQ(y.GetFloat(6), static_cast<double>(0.1f));
  // f32 -> bf16 ties to even: 1 + 2^-8 -> 1, 1 + 3 * 2^-8 -> 1 + 2^-6.
  EXPECT_EQ(AllFloats(MustConvert(Floats(f32, {1 + std::ldexp(1.0, -8), 1 + 3 * std::ldexp(1.0, -8)}), bf16)),
            (std::vector<double>{1, 1 + std::ldexp(1.0, -6)}));
  // bf16 NaN with payload -> f32 keeps the payload in the top mantissa bits; -0 stays -0.
  const Literal z = MustConvert(Bits(bf16, {0x7FC5, 0x8000}), f32);
  EXPECT_EQ(AllBits(z), (std::vector<uint64_t>{0x7FC50000, 0x80000000}));
  // f16 -> f8E5M2 (same exponent range) and f16 -> f8E4M3FN (max 448).
  EXPECT_EQ(AllFloats(MustConvert(Floats(f16, {57344, 1.125, 0.0000610352}), ElementType::kF8E5M2)),
            (std::vector<double>{57344, 1.0, 0.00006103515625}));
  EXPECT_TRUE(std::isnan(MustConvert(Floats(f16, {500}), ElementType::kF8E4M3FN).GetFloat(0)));
  EXPECT_EQ(MustConvert(Floats(f16, {464}), ElementType::kF8E4M3FN).GetFloat(0), 448.0);
  // FNUZ: -0 becomes +0 (0x00), infinity becomes the NaN (0x80).
  EXPECT_EQ(AllBits(MustConvert(Floats(f32, {-0.0, INFINITY}), ElementType::kF8E4M3FNUZ)), (std::vector<uint64_t>{0x00, 0x80}));
}

// Every f64 value rounds to every narrow format exactly as ir::EncodeFloat rounds it.
TEST(ConvertTest, NarrowRoundingMatchesTheFormatCodec) {
  std::mt19937_64 rng(3);
  std::vector<double> values;
  for (int i = 0; i < 50000; ++i) {
    // Random exponents around the narrow ranges, random significands (many exact ties).
    const double significand = 1.0 + static_cast<double>(rng() >> 11) * std::ldexp(1.0, -53);
    const double tie = 1.0 + static_cast<double>(rng() % 4096) * std::ldexp(1.0, -12);
    const int exponent = static_cast<int>(rng() % 300) - 150;
    values.push_back((rng() & 1 ? -1 : 1) * std::ldexp(i % 2 ? significand : tie, exponent));
  }
  for (uint64_t bits : {uint64_t{0}, uint64_t{1} << 63, uint64_t{0x7FF0000000000000}, uint64_t{0xFFF0000000000000},
                        uint64_t{0x0000000000000001}, uint64_t{0x7FEFFFFFFFFFFFFF}}) {
    double d;
    std::memcpy(&d, &bits, 8);
    values.push_back(d);
  }
  const Literal x = Floats(ElementType::kF64, values);
  for (int t = 0; t < ir::kNumElementTypes; ++t) {
    const auto type = static_cast<ElementType>(t);
    if (!ir::IsFloat(type) || type == ElementType::kF64) continue;
    SCOPED_TRACE(ir::ElementTypeName(type));
    const Literal y = MustConvert(x, type);
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(y.GetBits(static_cast<int64_t>(i)), ir::EncodeFloat(type, values[i])) << values[i];
    }
  }
}

TEST(ConvertTest, ComplexAndBooleanConversions) {
  const ElementType c64 = ElementType::kC64, c128 = ElementType::kC128;
  const Literal z = Complexes(c128, {{1.5, -2}, {0, 3}, {NAN, 0}});
  EXPECT_EQ(AllFloats(MustConvert(z, ElementType::kF32))[0], 1.5);
  // To boolean: the real part decides ((0, 3) is false).
  EXPECT_EQ(AllInts(MustConvert(z, ElementType::kI1)), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(MustConvert(z, c64).GetComplex(0), std::complex<double>(1.5, -2));
  EXPECT_EQ(MustConvert(Floats(ElementType::kF16, {2.5}), c64).GetComplex(0), std::complex<double>(2.5, 0));
  EXPECT_EQ(MustConvert(Ints(ElementType::kS64, {-7}), c128).GetComplex(0), std::complex<double>(-7, 0));
  // Floats to boolean: -0 is false, NaN is true.
  EXPECT_EQ(AllInts(MustConvert(Floats(ElementType::kF32, {-0.0, NAN, 1e-45, 0.0}), ElementType::kI1)),
            (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(AllInts(MustConvert(Ints(ElementType::kU8, {0, 2}), ElementType::kI1)), (std::vector<int64_t>{0, 1}));
}

// --- bitcast_convert ---

TEST(BitcastConvertTest, AcrossWidthsLittleEndian) {
  // f32 1.0 = 0x3F800000 -> [0, 0, -128, 63].
  auto bytes = Eval(OpCode::kBitcastConvert, {Floats(ElementType::kF32, {0.0, 1.0})}, Type::Tensor(ElementType::kS8, {2, 4}));
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(AllInts(*bytes), (std::vector<int64_t>{0, 0, 0, 0, 0, 0, -128, 63}));
  auto back = Eval(OpCode::kBitcastConvert, {*bytes}, Vec(ElementType::kF32, 2));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(AllFloats(*back), (std::vector<double>{0.0, 1.0}));
  // ui16 -> 2 x ui8 -> ... and u32 -> 2 x bf16.
  auto halves = Eval(OpCode::kBitcastConvert, {Ints(ElementType::kU32, {0x3F80BF80})}, Type::Tensor(ElementType::kBF16, {1, 2}));
  ASSERT_TRUE(halves.ok());
  EXPECT_EQ(AllFloats(*halves), (std::vector<double>{-1.0, 1.0}));
  // Sub-byte: one byte 0xF1 as two si4 values, low nibble first: [1, -1]; as ui4: [1, 15].
  auto nibbles = Eval(OpCode::kBitcastConvert, {Ints(ElementType::kU8, {0xF1})}, Type::Tensor(ElementType::kS4, {1, 2}));
  ASSERT_TRUE(nibbles.ok()) << nibbles.status().message();
  EXPECT_EQ(AllInts(*nibbles), (std::vector<int64_t>{1, -1}));
  EXPECT_EQ(AllBits(*nibbles), (std::vector<uint64_t>{0x01, 0xFF}));  // stored sign-extended
  auto unsigned_nibbles = Eval(OpCode::kBitcastConvert, {Ints(ElementType::kU8, {0xF1})}, Type::Tensor(ElementType::kU4, {1, 2}));
  ASSERT_TRUE(unsigned_nibbles.ok());
  EXPECT_EQ(AllInts(*unsigned_nibbles), (std::vector<int64_t>{1, 15}));
  auto joined = Eval(OpCode::kBitcastConvert, {*nibbles}, Vec(ElementType::kU8, 1));
  ASSERT_TRUE(joined.ok());
  EXPECT_EQ(joined->GetInt(0), 0xF1);
  // i1: bits, least significant first; f16 -> 16 x i1 and back.
  auto bits = Eval(OpCode::kBitcastConvert, {Bits(ElementType::kF16, {0x3C01})}, Type::Tensor(ElementType::kI1, {1, 16}));
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(AllInts(*bits), (std::vector<int64_t>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0}));
  auto f16 = Eval(OpCode::kBitcastConvert, {*bits}, Vec(ElementType::kF16, 1));
  ASSERT_TRUE(f16.ok());
  EXPECT_EQ(f16->GetBits(0), 0x3C01u);
  // complex<f64> -> 2 x complex<f32>: the 128 bits split in memory order.
  auto parts = Eval(OpCode::kBitcastConvert, {Complexes(ElementType::kC128, {{1.0, -2.0}})}, Type::Tensor(ElementType::kC64, {1, 2}));
  ASSERT_TRUE(parts.ok());
  uint64_t one, minus_two;
  const double d1 = 1.0, d2 = -2.0;
  std::memcpy(&one, &d1, 8);
  std::memcpy(&minus_two, &d2, 8);
  float f[4];
  std::memcpy(f, parts->raw().data(), 16);
  uint64_t got_re, got_im;
  std::memcpy(&got_re, f, 8);
  std::memcpy(&got_im, f + 2, 8);
  EXPECT_EQ(got_re, one);
  EXPECT_EQ(got_im, minus_two);
  // Sizes in bits must agree.
  EXPECT_FALSE(Eval(OpCode::kBitcastConvert, {Ints(ElementType::kS32, {1})}, Vec(ElementType::kS16, 1)).ok());
}

// --- reduce_precision ---

Literal ReducePrecision(const Literal& x, int exponent_bits, int mantissa_bits) {
  auto r = Eval(OpCode::kReducePrecision, {x}, x.type(),
                {{"exponent_bits", ir::Attribute::Int(exponent_bits, ElementType::kS32)},
                 {"mantissa_bits", ir::Attribute::Int(mantissa_bits, ElementType::kS32)}});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : Literal();
}

TEST(ReducePrecisionTest, E8M7OfF32IsBf16RoundingForEveryValue) {
  std::mt19937 rng(7);
  std::vector<uint64_t> patterns = {0x7F800000, 0xFF800000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x3F808000,
                                    0x3F818000, 0x00000000, 0x80000000};
  for (int i = 0; i < 20000; ++i) patterns.push_back(rng());
  const Literal x = Bits(ElementType::kF32, patterns);
  const Literal r = ReducePrecision(x, 8, 7);
  for (size_t i = 0; i < patterns.size(); ++i) {
    const double v = x.GetFloat(static_cast<int64_t>(i));
    const double got = r.GetFloat(static_cast<int64_t>(i));
    if (std::isnan(v)) {
      ASSERT_EQ(r.GetBits(static_cast<int64_t>(i)), patterns[i]) << "NaN keeps its bits";
      continue;
    }
    const double bf16 = ir::DecodeFloat(ElementType::kBF16, ir::EncodeFloat(ElementType::kBF16, v));
    ASSERT_EQ(got, bf16) << std::hex << patterns[i];
    ASSERT_EQ(std::signbit(got), std::signbit(v));
  }
}

TEST(ReducePrecisionTest, E5M10OfF32IsF16RoundingInTheNormalRangeAndFlushesBelow) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> exponent(-14, 17);
  std::vector<double> values;
  for (int i = 0; i < 20000; ++i) {
    values.push_back((rng() & 1 ? -1 : 1) * std::ldexp(1.0 + (rng() % (1 << 23)) * std::ldexp(1.0, -23), static_cast<int>(exponent(rng))));
  }
  const Literal x = Floats(ElementType::kF32, values);
  const Literal r = ReducePrecision(x, 5, 10);
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = x.GetFloat(static_cast<int64_t>(i));
    const double f16 = ir::DecodeFloat(ElementType::kF16, ir::EncodeFloat(ElementType::kF16, v));
    ASSERT_EQ(r.GetFloat(static_cast<int64_t>(i)), f16) << v;
  }
  // Below f16's normal range values flush to signed zero (f16 subnormals are not kept).
  const Literal tiny = ReducePrecision(Floats(ElementType::kF32, {3e-5, -3e-5, 6.2e-5}), 5, 10);
  EXPECT_EQ(tiny.GetBits(0), 0x00000000u);
  EXPECT_EQ(tiny.GetBits(1), 0x80000000u);
  EXPECT_EQ(tiny.GetFloat(2), ir::DecodeFloat(ElementType::kF16, ir::EncodeFloat(ElementType::kF16, static_cast<float>(6.2e-5))));
  // Rounding up into overflow: 65520 -> infinity; 65504 stays.
  EXPECT_EQ(AllFloats(ReducePrecision(Floats(ElementType::kF32, {65520, 65504, -65520}), 5, 10)),
            (std::vector<double>{INFINITY, 65504, -INFINITY}));
}

TEST(ReducePrecisionTest, NanInfinityAndNarrowFormats) {
  // A NaN stays NaN while mantissa bits remain; with none it becomes an infinity of its sign.
  const Literal nans = Bits(ElementType::kF64, {0x7FF8000000000001, 0xFFF4000000000000});
  EXPECT_EQ(AllBits(ReducePrecision(nans, 5, 2)), (std::vector<uint64_t>{0x7FF8000000000001, 0xFFF4000000000000}));
  EXPECT_EQ(AllBits(ReducePrecision(nans, 5, 0)), (std::vector<uint64_t>{0x7FF0000000000000, 0xFFF0000000000000}));
  // Zero mantissa bits: powers of two, ties to even (3 -> 4, 1.5 -> 2, 1.25 -> 1).
  EXPECT_EQ(AllFloats(ReducePrecision(Floats(ElementType::kF64, {3, 1.5, 1.25, -0.75}), 11, 0)),
            (std::vector<double>{4, 2, 1, -1}));
  // bf16 to e5m2 (the f8E5M2 format's precision): 1.125 -> 1, 1.375 -> 1.5, 1e5 -> inf.
  EXPECT_EQ(AllFloats(ReducePrecision(Floats(ElementType::kBF16, {1.125, 1.375, 1e5, 1e-6}), 5, 2)),
            (std::vector<double>{1, 1.5, INFINITY, 0}));
  // Wider than the operand: no change.
  const Literal f16 = Floats(ElementType::kF16, {0.1, 6e-8, 65504});
  EXPECT_EQ(ReducePrecision(f16, 8, 23), f16);
}

}  // namespace
}  // namespace vkhlo::interp::testing
