// Literal storage, float codecs and element text: exact round trips for every element type.
#include "ir/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace vkhlo::ir {
namespace {

const ElementType kFloat8Types[] = {
    ElementType::kF8E3M4,      ElementType::kF8E4M3,     ElementType::kF8E4M3FN,
    ElementType::kF8E4M3FNUZ,  ElementType::kF8E4M3B11FNUZ, ElementType::kF8E5M2,
    ElementType::kF8E5M2FNUZ,  ElementType::kF8E8M0FNU};

uint64_t PatternCount(ElementType t) { return uint64_t{1} << BitWidth(t); }

// Every bit pattern of every narrow float decodes and re-encodes to itself (NaNs to a NaN).
TEST(FloatCodecTest, EveryNarrowPatternRoundTrips) {
  std::vector<ElementType> types(std::begin(kFloat8Types), std::end(kFloat8Types));
  types.insert(types.end(), {ElementType::kF4E2M1FN, ElementType::kF6E2M3FN, ElementType::kF6E3M2FN,
                             ElementType::kBF16, ElementType::kF16});
  for (ElementType t : types) {
    for (uint64_t bits = 0; bits < PatternCount(t); ++bits) {
      double v = DecodeFloat(t, bits);
      uint64_t back = EncodeFloat(t, v);
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(DecodeFloat(t, back))) << ElementTypeName(t) << " " << bits;
      } else {
        ASSERT_EQ(back, bits) << ElementTypeName(t) << " value " << v;
      }
    }
  }
}

TEST(FloatCodecTest, KnownValuesOfEachFormat) {
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3FN, 0x7E), 448.0);
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3FN, 0x7F)));
  EXPECT_EQ(DecodeFloat(ElementType::kF8E5M2, 0x7B), 57344.0);
  EXPECT_TRUE(std::isinf(DecodeFloat(ElementType::kF8E5M2, 0x7C)));
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3FNUZ, 0x7F), 240.0);
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3FNUZ, 0x80)));
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3B11FNUZ, 0x7F), 30.0);
  EXPECT_EQ(DecodeFloat(ElementType::kF8E5M2FNUZ, 0x7F), 57344.0);
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3, 0x77), 240.0);
  EXPECT_TRUE(std::isinf(DecodeFloat(ElementType::kF8E4M3, 0x78)));
  EXPECT_EQ(DecodeFloat(ElementType::kF8E3M4, 0x6F), 15.5);
  EXPECT_EQ(DecodeFloat(ElementType::kF8E8M0FNU, 127), 1.0);
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E8M0FNU, 255)));
  EXPECT_EQ(DecodeFloat(ElementType::kF4E2M1FN, 0x7), 6.0);
  EXPECT_EQ(DecodeFloat(ElementType::kF6E2M3FN, 0x1F), 7.5);
  EXPECT_EQ(DecodeFloat(ElementType::kF6E3M2FN, 0x1F), 28.0);
  EXPECT_EQ(DecodeFloat(ElementType::kBF16, 0x3F80), 1.0);
  EXPECT_EQ(DecodeFloat(ElementType::kF16, 0x0001), std::ldexp(1.0, -24));  // smallest subnormal
}

TEST(FloatCodecTest, RoundsToNearestEvenAndHandlesOverflow) {
  // bf16 has 7 mantissa bits: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 65520.0), 0x7C00u);  // rounds up to infinity
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 65519.0), 0x7BFFu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, 460.0), 0x7Eu);  // rounds down to 448
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, 470.0) & 0x7F, 0x7Fu);  // beyond: NaN
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, -0.0), 0x00u);  // no negative zero
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, -INFINITY), 0xFCu);
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, 100.0), 0x7u);  // no inf or NaN: saturates
}

// FormatScalar's text reads back (strtod / strtoull, hex = bits) to the same bits.
uint64_t ReadBack(ElementType t, const std::string& text) {
  if (text.rfind("0x", 0) == 0) return std::strtoull(text.c_str() + 2, nullptr, 16);
  if (t == ElementType::kI1) return text == "true";
  if (IsInteger(t)) {
    int64_t v = std::strtoll(text.c_str(), nullptr, 10);
    if (IsUnsignedInteger(t)) v = static_cast<int64_t>(std::strtoull(text.c_str(), nullptr, 10));
    uint64_t mask = BitWidth(t) >= 64 ? ~0ull : (1ull << BitWidth(t)) - 1;
    return static_cast<uint64_t>(v) & mask;
  }
  return EncodeFloat(t, std::strtod(text.c_str(), nullptr));
}

TEST(FormatScalarTest, TextRoundTripsEveryPattern) {
  for (ElementType t : {ElementType::kBF16, ElementType::kF16, ElementType::kF8E4M3FN,
                        ElementType::kF8E5M2FNUZ, ElementType::kS4, ElementType::kU2,
                        ElementType::kS8, ElementType::kU8, ElementType::kI1}) {
    for (uint64_t bits = 0; bits < PatternCount(t); ++bits) {
      std::string text = FormatScalar(t, bits);
      ASSERT_EQ(ReadBack(t, text), bits) << ElementTypeName(t) << " '" << text << "'";
    }
  }
  const uint64_t f32_samples[] = {0, 0x80000000u, 0x3F800000u, 0x00000001u, 0x7F7FFFFFu,
                                  0x7F800000u, 0xFF800000u, 0x7FC00001u, 0x3DCCCCCDu};
  for (uint64_t bits : f32_samples) {
    EXPECT_EQ(ReadBack(ElementType::kF32, FormatScalar(ElementType::kF32, bits)), bits);
  }
  const uint64_t f64_samples[] = {0x8000000000000000ull, 0x3FB999999999999Aull, 1ull,
                                  0x7FF0000000000000ull, 0x7FF8000000000123ull};
  for (uint64_t bits : f64_samples) {
    EXPECT_EQ(ReadBack(ElementType::kF64, FormatScalar(ElementType::kF64, bits)), bits);
  }
  EXPECT_EQ(FormatScalar(ElementType::kS64, 0x8000000000000000ull), "-9223372036854775808");
  EXPECT_EQ(FormatScalar(ElementType::kU64, ~0ull), "18446744073709551615");
  EXPECT_EQ(FormatScalar(ElementType::kF32, 0x3F800000u), "1.0");
  EXPECT_EQ(FormatScalar(ElementType::kF32, 0x80000000u), "-0.0");
}

TEST(LiteralTest, TypedAccessWrapsAndSignExtends) {
  auto l = Literal::Create(Type::Tensor(ElementType::kS4, {3}));
  ASSERT_TRUE(l.ok());
  l->SetInt(0, 7);
  l->SetInt(1, 8);   // wraps to -8
  l->SetInt(2, -1);
  EXPECT_EQ(l->GetInt(0), 7);
  EXPECT_EQ(l->GetInt(1), -8);
  EXPECT_EQ(l->GetInt(2), -1);
  auto u = Literal::Create(Type::Tensor(ElementType::kU16, {1}));
  u->SetInt(0, -1);
  EXPECT_EQ(u->GetInt(0), 65535);
  auto c = Literal::Create(Type::Tensor(ElementType::kC64, {2}));
  c->SetComplex(1, {1.5, -2.0});
  EXPECT_EQ(c->GetComplex(1), std::complex<double>(1.5, -2.0));
  EXPECT_EQ(c->ToString(), "[(0.0, 0.0), (1.5, -2.0)]");
}

TEST(LiteralTest, SplatsAreCompactAndExpandOnDemand) {
  const Type big = Type::Tensor(ElementType::kF32, {1000000000});
  uint8_t one[4];
  uint32_t bits = 0x3F800000u;
  std::memcpy(one, &bits, 4);
  auto splat = Literal::CreateSplat(big, one);
  ASSERT_TRUE(splat.ok());
  EXPECT_TRUE(splat->is_splat());
  EXPECT_EQ(splat->raw().size(), 4u);
  EXPECT_EQ(splat->GetFloat(999999999), 1.0);
  EXPECT_EQ(splat->ToString(), "1.0");

  auto small = Literal::CreateSplat(Type::Tensor(ElementType::kF32, {3}), one);
  ASSERT_TRUE(small->Expand().ok());
  EXPECT_FALSE(small->is_splat());
  EXPECT_EQ(small->ToString(), "[1.0, 1.0, 1.0]");
  auto same = Literal::CreateSplat(Type::Tensor(ElementType::kF32, {3}), one);
  EXPECT_TRUE(*small == *same);
}

TEST(LiteralTest, HugeOrInvalidShapesAreErrors) {
  EXPECT_EQ(Literal::Create(Type::Tensor(ElementType::kF32, {1ll << 40, 1ll << 40})).status().code(),
            StatusCode::kInvalidArgument);  // element count overflows
  EXPECT_EQ(Literal::Create(Type::Tensor(ElementType::kF64, {1ll << 50})).status().code(),
            StatusCode::kResourceExhausted);
  EXPECT_FALSE(Literal::Create(Type::Token()).ok());
  EXPECT_FALSE(Literal::FromBytes(Type::Tensor(ElementType::kS32, {3}), std::vector<uint8_t>(7)).ok());
}

TEST(LiteralTest, TextUsesNestingOrHexBlobs) {
  auto l = Literal::Create(Type::Tensor(ElementType::kS32, {2, 2}));
  for (int i = 0; i < 4; ++i) l->SetInt(i, i - 1);
  EXPECT_EQ(l->ToString(), "[[-1, 0], [1, 2]]");
  auto big = Literal::Create(Type::Tensor(ElementType::kU8, {20}));
  big->SetInt(0, 0xAB);
  EXPECT_EQ(big->ToString().substr(0, 7), "\"0xAB00");
  EXPECT_EQ(big->ToString(/*allow_hex_blob=*/false).substr(0, 5), "[171,");
  auto empty = Literal::Create(Type::Tensor(ElementType::kF32, {0, 3}));
  EXPECT_EQ(empty->ToString(), "");
  auto scalar = Literal::Create(Type::Tensor(ElementType::kI1, {}));
  scalar->SetInt(0, 1);
  EXPECT_EQ(scalar->ToString(), "true");
}

}  // namespace
}  // namespace vkhlo::ir
