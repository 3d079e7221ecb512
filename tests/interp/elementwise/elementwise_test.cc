// Element-wise ops of the reference interpreter at the edges the conformance programs do not
// reach: integer wraparound, division and shifts per width; float specials (NaN, infinities,
// signed zeros, subnormals) per format; comparisons and NaN propagation; broadcasting scalars;
// splats; quantization; the refusal of chlo ops; and speed.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "test_util.h"

namespace vkhlo::interp::testing {
namespace {

const ElementType kIntTypes[] = {ElementType::kS2,  ElementType::kS4,  ElementType::kS8,  ElementType::kS16,
                                 ElementType::kS32, ElementType::kS64, ElementType::kU2,  ElementType::kU4,
                                 ElementType::kU8,  ElementType::kU16, ElementType::kU32, ElementType::kU64};

const ElementType kFloatTypes[] = {
    ElementType::kF4E2M1FN,      ElementType::kF6E2M3FN,   ElementType::kF6E3M2FN,   ElementType::kF8E3M4,
    ElementType::kF8E4M3,        ElementType::kF8E4M3FN,   ElementType::kF8E4M3FNUZ, ElementType::kF8E4M3B11FNUZ,
    ElementType::kF8E5M2,        ElementType::kF8E5M2FNUZ, ElementType::kF8E8M0FNU,  ElementType::kBF16,
    ElementType::kF16,           ElementType::kF32,        ElementType::kF64};

struct IntRange {
  int64_t min, max;  // as stored by SetInt (unsigned max of ui64 reads as -1)
};
IntRange RangeOf(ElementType t) {
  const int w = ir::BitWidth(t);
  if (ir::IsSignedInteger(t)) {
    return {w == 64 ? INT64_MIN : -(int64_t{1} << (w - 1)), w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1};
  }
  return {0, w == 64 ? -1 : (int64_t{1} << w) - 1};
}

std::string Name(ElementType t) { return std::string(ir::ElementTypeName(t)); }

// --- integers ---

TEST(IntegerTest, ArithmeticWrapsAroundInEveryWidth) {
  for (ElementType t : kIntTypes) {
    SCOPED_TRACE(Name(t));
    const auto [min, max] = RangeOf(t);
    const Literal a = Ints(t, {max, min, max, 1, min});
    const Literal b = Ints(t, {1, 1, 2, 0, 0});
    // max + 1 = min; min - 1 = max; max * 2 = -2 (mod 2^N).
    const int64_t max_plus_2 = static_cast<int64_t>(static_cast<uint64_t>(max) + 2);
    EXPECT_EQ(EvalSame(OpCode::kAdd, {a, b}), Ints(t, {min, min + 1, max_plus_2, 1, min}));
    EXPECT_EQ(EvalSame(OpCode::kSubtract, {Ints(t, {min, 0}), Ints(t, {1, 1})}), Ints(t, {max, -1}));
    EXPECT_EQ(EvalSame(OpCode::kMultiply, {Ints(t, {max, max}), Ints(t, {2, max})}), Ints(t, {-2, 1}));
    // -min = min, |min| = min for signed types; -1 = max for unsigned.
    EXPECT_EQ(EvalSame(OpCode::kNegate, {Ints(t, {min, 1, 0})}), Ints(t, {min, -1, 0}));
    if (ir::IsSignedInteger(t)) {
      EXPECT_EQ(EvalSame(OpCode::kAbs, {Ints(t, {min, -1, max})}), Ints(t, {min, 1, max}));
      EXPECT_EQ(EvalSame(OpCode::kSign, {Ints(t, {min, -1, 0, 1, max})}), Ints(t, {-1, -1, 0, 1, 1}));
    }
    EXPECT_EQ(EvalSame(OpCode::kNot, {Ints(t, {0, min, max})}), Ints(t, {-1, ~min, ~max}));
  }
}

TEST(IntegerTest, DivisionAndRemainderEdges) {
  for (ElementType t : kIntTypes) {
    SCOPED_TRACE(Name(t));
    const auto [min, max] = RangeOf(t);
    if (ir::IsSignedInteger(t)) {
      // INT_MIN / -1 wraps to INT_MIN, x / 0 = -1; INT_MIN % -1 = 0, x % 0 = x.
      const Literal a = Ints(t, {min, max, min, max, 0});
      const Literal b = Ints(t, {-1, 0, 0, 1, 0});
      EXPECT_EQ(EvalSame(OpCode::kDivide, {a, b}), Ints(t, {min, -1, -1, max, -1}));
      EXPECT_EQ(EvalSame(OpCode::kRemainder, {a, b}), Ints(t, {0, max, min, 0, 0}));
      if (ir::BitWidth(t) >= 4) {
        // Truncating division; the remainder has the dividend's sign.
        const Literal c = Ints(t, {-7, 7, -7, 7});
        const Literal d = Ints(t, {2, -2, -2, 2});
        EXPECT_EQ(EvalSame(OpCode::kDivide, {c, d}), Ints(t, {-3, -3, 3, 3}));
        EXPECT_EQ(EvalSame(OpCode::kRemainder, {c, d}), Ints(t, {-1, 1, -1, 1}));
      }
    } else {
      // x / 0 = all ones (the maximum), x % 0 = x.
      const Literal a = Ints(t, {max, 3, max, 0});
      const Literal b = Ints(t, {0, 0, 2, 0});
      EXPECT_EQ(EvalSame(OpCode::kDivide, {a, b}), Ints(t, {max, max, ir::BitWidth(t) == 64 ? INT64_MAX : max / 2, max}));
      EXPECT_EQ(EvalSame(OpCode::kRemainder, {a, b}), Ints(t, {max, 3, 1, 0}));
    }
  }
}

TEST(IntegerTest, ShiftsAtAndBeyondTheWidth) {
  for (ElementType t : kIntTypes) {
    SCOPED_TRACE(Name(t));
    const int w = ir::BitWidth(t);
    const auto [min, max] = RangeOf(t);
    const int64_t top = ir::IsSignedInteger(t) ? min : int64_t{1} << (w - 1);  // only the top bit
    if (w == 64 && !ir::IsSignedInteger(t)) continue;  // covered by the explicit u64 case below
    // Amounts: w - 1, w, w + 1, and -1 (a huge unsigned amount).
    const Literal ones = Ints(t, {1, 1, 1, 1});
    const Literal amounts = Ints(t, {w - 1, w, w + 1, -1});
    EXPECT_EQ(EvalSame(OpCode::kShiftLeft, {ones, amounts}), Ints(t, {top, 0, 0, 0}));
    const Literal tops = Ints(t, {top, top, top, top});
    // Arithmetic right shifts fill with the sign (top) bit, however far.
    EXPECT_EQ(EvalSame(OpCode::kShiftRightArithmetic, {tops, amounts}), Ints(t, {-1, -1, -1, -1}));
    EXPECT_EQ(EvalSame(OpCode::kShiftRightArithmetic, {Ints(t, {max, max, max, max}), amounts}),
              Ints(t, {ir::IsSignedInteger(t) ? 0 : -1, ir::IsSignedInteger(t) ? 0 : -1,
                       ir::IsSignedInteger(t) ? 0 : -1, ir::IsSignedInteger(t) ? 0 : -1}));
    EXPECT_EQ(EvalSame(OpCode::kShiftRightLogical, {tops, amounts}), Ints(t, {1, 0, 0, 0}));
  }
  const ElementType u64 = ElementType::kU64;
  EXPECT_EQ(EvalSame(OpCode::kShiftLeft, {Ints(u64, {1, 1, 1}), Ints(u64, {63, 64, 1000})}),
            Ints(u64, {INT64_MIN, 0, 0}));
  EXPECT_EQ(EvalSame(OpCode::kShiftRightLogical, {Ints(u64, {-1, -1, -1}), Ints(u64, {63, 64, 1})}),
            Ints(u64, {1, 0, INT64_MAX}));
  EXPECT_EQ(EvalSame(OpCode::kShiftRightArithmetic, {Ints(u64, {INT64_MIN, INT64_MIN}), Ints(u64, {1, 64})}),
            Ints(u64, {INT64_MIN >> 1, -1}));
}

TEST(IntegerTest, BitCountsInEveryWidth) {
  for (ElementType t : kIntTypes) {
    SCOPED_TRACE(Name(t));
    const int w = ir::BitWidth(t);
    const auto [min, max] = RangeOf(t);
    const int64_t all_ones = -1;
    const Literal x = Ints(t, {0, 1, all_ones, ir::IsSignedInteger(t) ? min : int64_t{1} << (w - 1)});
    EXPECT_EQ(EvalSame(OpCode::kCountLeadingZeros, {x}), Ints(t, {w, w - 1, 0, 0}));
    EXPECT_EQ(EvalSame(OpCode::kPopcnt, {x}), Ints(t, {0, 1, w, 1}));
    (void)max;
  }
}

TEST(IntegerTest, PowerBySquaringWithNegativeExponents) {
  for (ElementType t : kIntTypes) {
    SCOPED_TRACE(Name(t));
    const int w = ir::BitWidth(t);
    const auto [min, max] = RangeOf(t);
    (void)max;
    // 2^(w-1) wraps to the top bit; 0^0 = 1; x^1 = x.
    EXPECT_EQ(EvalSame(OpCode::kPower, {Ints(t, {w >= 4 ? 2 : 1, 0, 1}), Ints(t, {w >= 4 ? w - 1 : 0, 0, 1})}),
              Ints(t, {w >= 4 ? (ir::IsSignedInteger(t) ? min : int64_t{1} << (w - 1)) : 1, 1, 1}));
    if (ir::IsSignedInteger(t) && w >= 4) {
      // Negative exponents: 1 and -1 keep a value, everything else truncates to 0.
      EXPECT_EQ(EvalSame(OpCode::kPower, {Ints(t, {-1, -1, 1, 2, -2, 0}), Ints(t, {-3, -2, -5, -1, -1, -1})}),
                Ints(t, {-1, 1, 1, 0, 0, 0}));
    }
  }
  // 3^41 mod 2^64, against repeated multiplication.
  uint64_t expected = 1;
  for (int i = 0; i < 41; ++i) expected *= 3;
  EXPECT_EQ(EvalSame(OpCode::kPower, {Ints(ElementType::kS64, {3}), Ints(ElementType::kS64, {41})}).GetBits(0),
            expected);
  EXPECT_EQ(EvalSame(OpCode::kPower, {Ints(ElementType::kU8, {3}), Ints(ElementType::kU8, {255})}).GetInt(0),
            [] {
              uint8_t r = 1;
              for (int i = 0; i < 255; ++i) r = static_cast<uint8_t>(r * 3);
              return int64_t{r};
            }());
}

TEST(IntegerTest, CompareUsesTheSignednessOfTheType) {
  const Literal a = Ints(ElementType::kS8, {-1, 0, 127});
  const Literal b = Ints(ElementType::kS8, {1, 0, -128});
  auto lt = Eval(OpCode::kCompare, {a, b}, Vec(ElementType::kI1, 3), {Enum("comparison_direction", "comparison_direction", "LT")});
  ASSERT_TRUE(lt.ok()) << lt.status().message();
  EXPECT_EQ(AllInts(*lt), (std::vector<int64_t>{1, 0, 0}));
  const Literal c = Ints(ElementType::kU8, {255, 0, 127});
  const Literal d = Ints(ElementType::kU8, {1, 0, 128});
  auto gt = Eval(OpCode::kCompare, {c, d}, Vec(ElementType::kI1, 3),
                 {Enum("comparison_direction", "comparison_direction", "GT"), Enum("compare_type", "comparison_type", "UNSIGNED")});
  ASSERT_TRUE(gt.ok()) << gt.status().message();
  EXPECT_EQ(AllInts(*gt), (std::vector<int64_t>{1, 0, 0}));
}

TEST(BooleanTest, LogicAndArithmetic) {
  const Literal a = Ints(ElementType::kI1, {0, 0, 1, 1});
  const Literal b = Ints(ElementType::kI1, {0, 1, 0, 1});
  EXPECT_EQ(AllInts(EvalSame(OpCode::kAdd, {a, b})), (std::vector<int64_t>{0, 1, 1, 1}));
  EXPECT_EQ(AllInts(EvalSame(OpCode::kMultiply, {a, b})), (std::vector<int64_t>{0, 0, 0, 1}));
  EXPECT_EQ(AllInts(EvalSame(OpCode::kXor, {a, b})), (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(AllInts(EvalSame(OpCode::kMaximum, {a, b})), (std::vector<int64_t>{0, 1, 1, 1}));
  EXPECT_EQ(AllInts(EvalSame(OpCode::kMinimum, {a, b})), (std::vector<int64_t>{0, 0, 0, 1}));
  EXPECT_EQ(AllInts(EvalSame(OpCode::kNot, {a})), (std::vector<int64_t>{1, 1, 0, 0}));
  // Ops the spec does not define for booleans are errors, not crashes.
  EXPECT_FALSE(Eval(OpCode::kSubtract, {a, b}, a.type()).ok());
  EXPECT_FALSE(Eval(OpCode::kSine, {a}, a.type()).ok());
}

TEST(RobustnessTest, MismatchedOperandsAreErrorsNotCrashes) {
  EXPECT_FALSE(Eval(OpCode::kAdd, {Ints(ElementType::kS32, {1}), Floats(ElementType::kC128, {1})}, Vec(ElementType::kS32, 1)).ok());
  EXPECT_FALSE(Eval(OpCode::kAdd, {Ints(ElementType::kS32, {1, 2}), Ints(ElementType::kS32, {1, 2, 3})}, Vec(ElementType::kS32, 3)).ok());
  // A result type that does not fit the op is left zero rather than overrun.
  auto odd = Eval(OpCode::kAdd, {Ints(ElementType::kS64, {1}), Ints(ElementType::kS64, {2})}, Vec(ElementType::kC128, 1));
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->GetComplex(0), std::complex<double>(0, 0));
  EXPECT_FALSE(Eval(OpCode::kSelect, {Ints(ElementType::kS32, {1}), Ints(ElementType::kS32, {1}), Ints(ElementType::kS32, {1})},
                    Vec(ElementType::kS32, 1)).ok());
  EXPECT_FALSE(Eval(OpCode::kAdd, {Ints(ElementType::kS32, {1})}, Vec(ElementType::kS32, 1)).ok());
}

// --- floats ---

double Decode(ElementType t, uint64_t bits) { return ir::DecodeFloat(t, bits); }

// The representable values of interest in a format: zeros, the smallest subnormal, one, the
// largest finite value, infinities and NaN where the format has them.
std::vector<double> Specials(ElementType t) {
  const ir::FloatFormat& f = ir::GetFloatFormat(t);
  std::vector<double> v = {0.0, -0.0, 1.0, -1.5, 0.5, 3.0};
  v.push_back(Decode(t, 1));  // smallest positive (subnormal) value
  v.push_back(-Decode(t, 1));
  double largest = 0;
  if (ir::BitWidth(t) <= 16) {
    for (uint64_t bits = 0; bits < (uint64_t{1} << ir::BitWidth(t)); ++bits) {
      const double d = Decode(t, bits);
      if (std::isfinite(d)) largest = std::max(largest, d);
    }
  } else {
    largest = t == ElementType::kF32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  }
  v.push_back(largest);
  v.push_back(-largest);
  if (f.has_infinity) {
    v.push_back(INFINITY);
    v.push_back(-INFINITY);
  }
  if (f.has_nan) v.push_back(NAN);
  return v;
}

// The element type's value of `d` after one rounding, as the interpreter stores it.
uint64_t Rounded(ElementType t, double d) { return ir::EncodeFloat(t, d); }

bool SameFloat(ElementType t, uint64_t actual, uint64_t expected) {
  const double a = Decode(t, actual), e = Decode(t, expected);
  if (std::isnan(e)) return std::isnan(a);
  return actual == expected;
}

// Every pair of special values through +, -, *, /: the IEEE result of the exact operands,
// rounded once to the format (double holds every narrow product and quotient closely enough
// for one rounding to be exact; f32 results equal float arithmetic).
TEST(FloatTest, SpecialValuesInEveryFormat) {
  struct Case {
    OpCode code;
    double (*fn)(double, double);
  };
  const Case cases[] = {
      {OpCode::kAdd, [](double a, double b) { return a + b; }},
      {OpCode::kSubtract, [](double a, double b) { return a - b; }},
      {OpCode::kMultiply, [](double a, double b) { return a * b; }},
      {OpCode::kDivide, [](double a, double b) { return a / b; }},
  };
  for (ElementType t : kFloatTypes) {
    SCOPED_TRACE(Name(t));
    std::vector<double> specials = Specials(t);
    std::vector<double> lhs, rhs;
    for (double a : specials) {
      for (double b : specials) {
        lhs.push_back(a);
        rhs.push_back(b);
      }
    }
    const Literal a = Floats(t, lhs), b = Floats(t, rhs);
    for (const Case& c : cases) {
      const Literal result = EvalSame(c.code, {a, b});
      for (size_t i = 0; i < lhs.size(); ++i) {
        const double x = a.GetFloat(static_cast<int64_t>(i)), y = b.GetFloat(static_cast<int64_t>(i));
        double exact = c.fn(x, y);
        if (t == ElementType::kF32) exact = static_cast<float>(c.fn(static_cast<float>(x), static_cast<float>(y)));
        const uint64_t expected = Rounded(t, exact);
        ASSERT_TRUE(SameFloat(t, result.GetBits(static_cast<int64_t>(i)), expected))
            << ir::GetOpInfo(c.code).name << "(" << x << ", " << y << ") = "
            << Decode(t, result.GetBits(static_cast<int64_t>(i))) << ", expected " << Decode(t, expected);
      }
    }
  }
}

TEST(FloatTest, HandPickedBitPatterns) {
  const ElementType bf16 = ElementType::kBF16, f16 = ElementType::kF16, f32 = ElementType::kF32;
  // inf + -inf = NaN; tiny + -tiny = +0; -0 + -0 = -0; -0 + +0 = +0; max + max = inf.
  const Literal a = Bits(bf16, {0x7F80, 0x0001, 0x8000, 0x8000, 0x7F7F});
  const Literal b = Bits(bf16, {0xFF80, 0x8001, 0x8000, 0x0000, 0x7F7F});
  const Literal sum = EvalSame(OpCode::kAdd, {a, b});
  EXPECT_TRUE(std::isnan(sum.GetFloat(0)));
  EXPECT_EQ(AllBits(sum), (std::vector<uint64_t>{sum.GetBits(0), 0x0000, 0x8000, 0x0000, 0x7F80}));
  // Subnormal halving rounds to even: 1 * 2^-133 / 2 -> 0; 3 * 2^-133 / 2 -> 2 * 2^-133.
  EXPECT_EQ(AllBits(EvalSame(OpCode::kMultiply, {Bits(bf16, {0x0001, 0x0003, 0x8003}), Floats(bf16, {0.5, 0.5, 0.5})})),
            (std::vector<uint64_t>{0x0000, 0x0002, 0x8002}));
  // Division by signed zeros.
  EXPECT_EQ(AllBits(EvalSame(OpCode::kDivide, {Floats(f16, {1, -1, 1}), Bits(f16, {0x0000, 0x0000, 0x8000})})),
            (std::vector<uint64_t>{0x7C00, 0xFC00, 0xFC00}));
  // f32 subnormals are kept (no flush to zero).
  EXPECT_EQ(AllBits(EvalSame(OpCode::kAdd, {Bits(f32, {0x00000001, 0x00800000}), Bits(f32, {0x00000001, 0x80000001})})),
            (std::vector<uint64_t>{0x00000002, 0x007FFFFF}));
  // FNUZ formats have no -0: 0 * -1 is +0 (bits 0x00), not the NaN pattern 0x80.
  for (ElementType t : {ElementType::kF8E4M3FNUZ, ElementType::kF8E5M2FNUZ}) {
    EXPECT_EQ(AllBits(EvalSame(OpCode::kMultiply, {Floats(t, {0.0}), Floats(t, {-1.0})})), (std::vector<uint64_t>{0x00}));
    EXPECT_EQ(AllBits(EvalSame(OpCode::kNegate, {Floats(t, {0.0, 1.0})})), (std::vector<uint64_t>{0x00, 0x80 | ir::EncodeFloat(t, 1.0)}));
  }
  // f8E4M3FN has no infinity: overflow is NaN (0x7F).
  EXPECT_EQ(AllBits(EvalSame(OpCode::kAdd, {Floats(ElementType::kF8E4M3FN, {448}), Floats(ElementType::kF8E4M3FN, {448})})),
            (std::vector<uint64_t>{0x7F}));
}

TEST(FloatTest, NegateAndAbsKeepNanPayloads) {
  const Literal x = Bits(ElementType::kBF16, {0x7FC1, 0xFF81, 0x8000});
  EXPECT_EQ(AllBits(EvalSame(OpCode::kNegate, {x})), (std::vector<uint64_t>{0xFFC1, 0x7F81, 0x0000}));
  EXPECT_EQ(AllBits(EvalSame(OpCode::kAbs, {x})), (std::vector<uint64_t>{0x7FC1, 0x7F81, 0x0000}));
  const Literal y = Bits(ElementType::kF32, {0x7FC00123, 0xFF800001});
  EXPECT_EQ(AllBits(EvalSame(OpCode::kNegate, {y})), (std::vector<uint64_t>{0xFFC00123, 0x7F800001}));
  // A NaN operand's payload survives arithmetic (quieted), as on hardware.
  EXPECT_EQ(EvalSame(OpCode::kAdd, {Bits(ElementType::kF16, {0x7E05}), Floats(ElementType::kF16, {1.0})}).GetBits(0), 0x7E05u);
}

TEST(FloatTest, CompareQuietAndTotalOrder) {
  for (ElementType t : {ElementType::kBF16, ElementType::kF16, ElementType::kF32, ElementType::kF64,
                        ElementType::kF8E5M2, ElementType::kF8E4M3}) {
    SCOPED_TRACE(Name(t));
    const Literal a = Floats(t, {NAN, NAN, -0.0, 1.0, -INFINITY, 2.0});
    const Literal b = Floats(t, {NAN, 1.0, 0.0, NAN, INFINITY, 2.0});
    auto run = [&](const char* dir, const char* type) {
      auto r = Eval(OpCode::kCompare, {a, b}, Vec(ElementType::kI1, 6),
                    {Enum("comparison_direction", "comparison_direction", dir), Enum("compare_type", "comparison_type", type)});
      EXPECT_TRUE(r.ok()) << r.status().message();
      return r.ok() ? AllInts(*r) : std::vector<int64_t>{};
    };
    EXPECT_EQ(run("EQ", "FLOAT"), (std::vector<int64_t>{0, 0, 1, 0, 0, 1}));
    EXPECT_EQ(run("NE", "FLOAT"), (std::vector<int64_t>{1, 1, 0, 1, 1, 0}));
    EXPECT_EQ(run("LT", "FLOAT"), (std::vector<int64_t>{0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(run("GE", "FLOAT"), (std::vector<int64_t>{0, 0, 1, 0, 0, 1}));
    // totalOrder: -0 < +0, a NaN equals itself, +NaN above everything.
    EXPECT_EQ(run("EQ", "TOTALORDER"), (std::vector<int64_t>{1, 0, 0, 0, 0, 1}));
    EXPECT_EQ(run("LT", "TOTALORDER"), (std::vector<int64_t>{0, 0, 1, 1, 1, 0}));
    EXPECT_EQ(run("GT", "TOTALORDER"), (std::vector<int64_t>{0, 1, 0, 0, 0, 0}));
  }
}

TEST(FloatTest, MaximumMinimumPropagateNanAndOrderZeros) {
  for (ElementType t : kFloatTypes) {
    if (!ir::GetFloatFormat(t).has_nan || !ir::GetFloatFormat(t).has_sign) continue;
    SCOPED_TRACE(Name(t));
    const Literal a = Floats(t, {NAN, 1.0, -0.0, 0.0, -1.0});
    const Literal b = Floats(t, {1.0, NAN, 0.0, -0.0, 0.5});
    const Literal max = EvalSame(OpCode::kMaximum, {a, b});
    const Literal min = EvalSame(OpCode::kMinimum, {a, b});
    EXPECT_TRUE(std::isnan(max.GetFloat(0)) && std::isnan(max.GetFloat(1)));
    EXPECT_TRUE(std::isnan(min.GetFloat(0)) && std::isnan(min.GetFloat(1)));
    if (!ir::GetFloatFormat(t).negative_zero_is_nan) {
      EXPECT_EQ(max.GetBits(2), Rounded(t, 0.0));
      EXPECT_EQ(max.GetBits(3), Rounded(t, 0.0));
      EXPECT_EQ(min.GetBits(2), Rounded(t, -0.0));
      EXPECT_EQ(min.GetBits(3), Rounded(t, -0.0));
    }
    EXPECT_EQ(max.GetFloat(4), 0.5);
    EXPECT_EQ(min.GetFloat(4), -1.0);
  }
}

TEST(FloatTest, RemainderIsFmodWithTheDividendsSign) {
  const Literal r = EvalSame(OpCode::kRemainder, {Floats(ElementType::kF32, {5.5, -5.5, 5.5, 1.0, INFINITY, -0.0}),
                                                  Floats(ElementType::kF32, {2.0, 2.0, -2.0, 0.0, 1.0, 3.0})});
  EXPECT_EQ(r.GetFloat(0), 1.5);
  EXPECT_EQ(r.GetFloat(1), -1.5);
  EXPECT_EQ(r.GetFloat(2), 1.5);
  EXPECT_TRUE(std::isnan(r.GetFloat(3)));
  EXPECT_TRUE(std::isnan(r.GetFloat(4)));
  EXPECT_TRUE(std::signbit(r.GetFloat(5)));
}

TEST(FloatTest, RoundingAndMath) {
  const ElementType f32 = ElementType::kF32;
  const Literal x = Floats(f32, {-2.5, -0.5, 0.5, 1.5, 2.5, -0.0});
  EXPECT_EQ(AllFloats(EvalSame(OpCode::kRoundNearestEven, {x})), (std::vector<double>{-2, -0.0, 0, 2, 2, -0.0}));
  EXPECT_EQ(AllFloats(EvalSame(OpCode::kRoundNearestAfz, {x})), (std::vector<double>{-3, -1, 1, 2, 3, -0.0}));
  EXPECT_TRUE(std::signbit(EvalSame(OpCode::kCeil, {Floats(f32, {-0.5})}).GetFloat(0)));
  EXPECT_EQ(EvalSame(OpCode::kFloor, {Floats(f32, {-0.5})}).GetFloat(0), -1.0);
  EXPECT_EQ(EvalSame(OpCode::kExponential, {Floats(f32, {1.0})}).GetFloat(0), static_cast<float>(M_E));
  EXPECT_TRUE(std::isnan(EvalSame(OpCode::kLog, {Floats(f32, {-1.0})}).GetFloat(0)));
  EXPECT_EQ(EvalSame(OpCode::kLog, {Floats(f32, {0.0})}).GetFloat(0), -INFINITY);
  EXPECT_TRUE(std::signbit(EvalSame(OpCode::kSqrt, {Floats(f32, {-0.0})}).GetFloat(0)));
  EXPECT_EQ(EvalSame(OpCode::kRsqrt, {Floats(f32, {0.0, 4.0})}).GetFloat(0), INFINITY);
  EXPECT_EQ(EvalSame(OpCode::kCbrt, {Floats(f32, {-8.0})}).GetFloat(0), -2.0);
  EXPECT_EQ(AllFloats(EvalSame(OpCode::kLogistic, {Floats(f32, {-INFINITY, 0.0, INFINITY})})), (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(EvalSame(OpCode::kExponentialMinusOne, {Floats(ElementType::kF64, {1e-300})}).GetFloat(0), 1e-300);
  EXPECT_EQ(EvalSame(OpCode::kLogPlusOne, {Floats(ElementType::kF64, {1e-300})}).GetFloat(0), 1e-300);
  EXPECT_EQ(EvalSame(OpCode::kSign, {Floats(f32, {-3.0, -0.0, 0.0, 2.0, -INFINITY})}).GetFloat(4), -1.0);
  EXPECT_TRUE(std::signbit(EvalSame(OpCode::kSign, {Floats(f32, {-0.0})}).GetFloat(0)));
  // f32 transcendental results are the correctly rounded ones.
  EXPECT_EQ(EvalSame(OpCode::kSine, {Floats(f32, {1e20})}).GetFloat(0), static_cast<float>(std::sin(static_cast<double>(1e20f))));
  auto finite = Eval(OpCode::kIsFinite, {Floats(ElementType::kF8E4M3FN, {NAN, 448.0, -0.0})}, Vec(ElementType::kI1, 3));
  ASSERT_TRUE(finite.ok());
  EXPECT_EQ(AllInts(*finite), (std::vector<int64_t>{0, 1, 1}));
  auto pow = EvalSame(OpCode::kPower, {Floats(ElementType::kF64, {-8.0, 0.0, NAN, 1.0}), Floats(ElementType::kF64, {1.0 / 3, -1.0, 0.0, NAN})});
  EXPECT_TRUE(std::isnan(pow.GetFloat(0)));
  EXPECT_EQ(pow.GetFloat(1), INFINITY);
  EXPECT_EQ(pow.GetFloat(2), 1.0);
  EXPECT_EQ(pow.GetFloat(3), 1.0);
}

TEST(ComplexTest, ArithmeticAndOrdering) {
  const ElementType c64 = ElementType::kC64;
  const Literal a = Complexes(c64, {{3, 4}, {1, 2}, {0, 0}});
  const Literal b = Complexes(c64, {{1, -1}, {1, 3}, {0, 0}});
  auto abs = Eval(OpCode::kAbs, {a}, Vec(ElementType::kF32, 3));
  ASSERT_TRUE(abs.ok());
  EXPECT_EQ(AllFloats(*abs), (std::vector<double>{5, std::sqrt(5.0f), 0}));
  const Literal sign = EvalSame(OpCode::kSign, {a});
  EXPECT_NEAR(sign.GetComplex(0).real(), 0.6, 1e-7);
  EXPECT_NEAR(sign.GetComplex(0).imag(), 0.8, 1e-7);
  EXPECT_EQ(sign.GetComplex(2), std::complex<double>(0, 0));
  EXPECT_EQ(EvalSame(OpCode::kMultiply, {a, b}).GetComplex(0), std::complex<double>(7, 1));
  EXPECT_EQ(EvalSame(OpCode::kMaximum, {a, b}).GetComplex(1), std::complex<double>(1, 3));
  EXPECT_EQ(EvalSame(OpCode::kMinimum, {a, b}).GetComplex(0), std::complex<double>(1, -1));
  auto lt = Eval(OpCode::kCompare, {a, b}, Vec(ElementType::kI1, 3),
                 {Enum("comparison_direction", "comparison_direction", "LT")});
  ASSERT_TRUE(lt.ok());
  EXPECT_EQ(AllInts(*lt), (std::vector<int64_t>{0, 1, 0}));
  auto re = Eval(OpCode::kReal, {a}, Vec(ElementType::kF32, 3));
  auto im = Eval(OpCode::kImag, {a}, Vec(ElementType::kF32, 3));
  ASSERT_TRUE(re.ok() && im.ok());
  EXPECT_EQ(AllFloats(*re), (std::vector<double>{3, 1, 0}));
  EXPECT_EQ(AllFloats(*im), (std::vector<double>{4, 2, 0}));
  auto made = Eval(OpCode::kComplex, {*re, *im}, a.type());
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(*made, a);
  const Literal e = EvalSame(OpCode::kExponentialMinusOne, {Complexes(ElementType::kC128, {{1e-20, 1e-20}})});
  EXPECT_DOUBLE_EQ(e.GetComplex(0).real(), 1e-20);
  EXPECT_DOUBLE_EQ(e.GetComplex(0).imag(), 1e-20);
}

// --- broadcasting scalars, splats ---

TEST(BroadcastTest, ClampAndSelectTakeScalars) {
  const ElementType f32 = ElementType::kF32;
  const Literal x = Floats(f32, {-5, 0.5, 7, NAN});
  auto clamped = Eval(OpCode::kClamp, {Scalar(Floats(f32, {0})), x, Scalar(Floats(f32, {1}))}, x.type());
  ASSERT_TRUE(clamped.ok()) << clamped.status().message();
  EXPECT_EQ(clamped->GetFloat(0), 0);
  EXPECT_EQ(clamped->GetFloat(1), 0.5);
  EXPECT_EQ(clamped->GetFloat(2), 1);
  EXPECT_TRUE(std::isnan(clamped->GetFloat(3)));
  auto per_element = Eval(OpCode::kClamp, {Floats(f32, {0, 1, 2, 3}), x, Scalar(Floats(f32, {2}))}, x.type());
  ASSERT_TRUE(per_element.ok());
  EXPECT_EQ(per_element->GetFloat(0), 0);
  EXPECT_EQ(per_element->GetFloat(1), 1);
  auto selected = Eval(OpCode::kSelect, {Scalar(Ints(ElementType::kI1, {1})), x, Floats(f32, {1, 2, 3, 4})}, x.type());
  ASSERT_TRUE(selected.ok());
  EXPECT_EQ(AllBits(*selected), AllBits(x));
  auto mixed = Eval(OpCode::kSelect, {Ints(ElementType::kI1, {1, 0, 1, 0}), x, Floats(f32, {1, 2, 3, 4})}, x.type());
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(AllFloats(*mixed)[1], 2);
  EXPECT_EQ(AllFloats(*mixed)[2], 7);
}

TEST(BroadcastTest, SplatOperandsGiveASplatWithoutMaterializing) {
  const Type huge = Type::Tensor(ElementType::kF32, {1000000, 1000000});  // 4 TB if materialized
  const float one = 1.0f, two = 2.0f;
  auto a = Literal::CreateSplat(huge, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&one), 4));
  auto b = Literal::CreateSplat(huge, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&two), 4));
  ASSERT_TRUE(a.ok() && b.ok());
  auto sum = Eval(OpCode::kAdd, {*a, *b}, huge);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_TRUE(sum->is_splat());
  EXPECT_EQ(sum->GetFloat(0), 3.0);
  auto converted = Eval(OpCode::kConvert, {*sum}, huge.WithElementType(ElementType::kS8));
  ASSERT_TRUE(converted.ok());
  EXPECT_TRUE(converted->is_splat());
  EXPECT_EQ(converted->GetInt(0), 3);
}

TEST(LargeInputTest, AMillionElements) {
  const int64_t n = 1 << 20;
  Literal a = *Literal::Create(Vec(ElementType::kF32, n));
  Literal h = *Literal::Create(Vec(ElementType::kBF16, n));
  for (int64_t i = 0; i < n; ++i) {
    a.SetFloat(i, static_cast<double>(i) * 0.25);
    h.SetFloat(i, static_cast<double>(i % 1000) * 0.01);
  }
  Literal sum = EvalSame(OpCode::kAdd, {a, a});
  Literal e = EvalSame(OpCode::kExponential, {h});
  Literal converted = *Eval(OpCode::kConvert, {a}, Vec(ElementType::kF16, n));
  EXPECT_EQ(sum.GetFloat(n - 1), static_cast<double>(n - 1) * 0.5);
  EXPECT_EQ(e.GetFloat(1), ir::DecodeFloat(ElementType::kBF16, ir::EncodeFloat(ElementType::kBF16, std::exp(h.GetFloat(1)))));
  EXPECT_EQ(converted.GetFloat(4), 1.0);
}

// --- quantization ---

TEST(QuantizationTest, PerAxisQuantizeDequantizeAndSaturation) {
  ir::QuantizedElement q;
  q.storage = ElementType::kS8;
  q.storage_min = -128;
  q.storage_max = 127;
  q.expressed = ElementType::kF32;
  q.quantized_dimension = 1;
  q.scales = {0.1, 0.5};
  q.zero_points = {-30, -20};
  const Type quantized = Type::QuantizedTensor(q, {2, 2});
  Literal x = *Literal::Create(Type::Tensor(ElementType::kF32, {2, 2}));
  const double values[] = {4.0, 15.0, 100.0, -1000.0};
  for (int i = 0; i < 4; ++i) x.SetFloat(i, values[i]);
  auto stored = Eval(OpCode::kUniformQuantize, {x}, quantized);
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  // Column 0 uses 0.1:-30, column 1 uses 0.5:-20; out-of-range values saturate.
  EXPECT_EQ(AllInts(*stored), (std::vector<int64_t>{10, 10, 127, -128}));
  auto back = Eval(OpCode::kUniformDequantize, {*stored}, x.type());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(AllFloats(*back)[0], 4.0);
  EXPECT_EQ(AllFloats(*back)[1], 15.0);
  EXPECT_NEAR(AllFloats(*back)[2], 15.7, 1e-5);
  EXPECT_EQ(AllFloats(*back)[3], -54.0);
  // An op on quantized operands computes on their values and quantizes its result.
  auto sum = Eval(OpCode::kAdd, {*stored, *stored}, quantized);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(AllInts(*sum), (std::vector<int64_t>{50, 40, 127, -128}));
}

// --- chlo ---

// chlo ops are decomposed into StableHLO by the chlo-decompose pass (tested in tests/passes);
// the interpreter refuses them with a message that says so.
TEST(ChloTest, ChloOpsMustBeDecomposedFirst) {
  const Literal m = Floats(ElementType::kF32, {1, 2, 3});
  for (OpCode code : {OpCode::kChloBroadcastAdd, OpCode::kChloErf}) {
    std::vector<Literal> operands = {m};
    if (code == OpCode::kChloBroadcastAdd) operands.push_back(m);
    auto result = Eval(code, operands, m.type());
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find("chlo ops must be decomposed first (run the chlo-decompose pass)"),
              std::string::npos)
        << result.status().message();
  }
}

}  // namespace
}  // namespace vkhlo::interp::testing
