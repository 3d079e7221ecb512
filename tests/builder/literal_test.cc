// Shapes, literals (creation, access, text, tuples, layouts) and the host types of narrow
// element types, without building any computation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "literal_print.h"
#include "vkhlo/literal.h"

namespace vkhlo {
namespace {

TEST(PrimitiveTypeTest, NamesAndFacts) {
  EXPECT_EQ(primitive_util::LowercasePrimitiveTypeName(F32), "f32");
  EXPECT_EQ(primitive_util::LowercasePrimitiveTypeName(F8E4M3FN), "f8e4m3fn");
  EXPECT_EQ(PrimitiveType_Name(BF16), "BF16");
  EXPECT_EQ(primitive_util::StringToPrimitiveType("pred"), PRED);
  EXPECT_EQ(primitive_util::StringToPrimitiveType("nope"), PRIMITIVE_TYPE_INVALID);
  EXPECT_EQ(primitive_util::BitWidth(S4), 4);
  EXPECT_EQ(primitive_util::ByteWidth(S4), 1);
  EXPECT_EQ(primitive_util::ByteWidth(C128), 16);
  EXPECT_TRUE(primitive_util::IsFloatingPointType(F8E5M2));
  EXPECT_FALSE(primitive_util::IsFloatingPointType(C64));
  EXPECT_TRUE(primitive_util::IsComplexType(C64));
  EXPECT_FALSE(primitive_util::IsArrayType(TUPLE));
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<bool>(), PRED);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<int64_t>(), S64);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<long long>(), S64);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<uint16_t>(), U16);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<complex128>(), C128);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<bfloat16>(), BF16);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<float8_e4m3fn>(), F8E4M3FN);
  EXPECT_EQ(primitive_util::NativeToPrimitiveType<uint4>(), U4);
}

TEST(HostTypesTest, NarrowFloatsRoundToNearestEven) {
  // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> even (1).
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f + 0x1p-8f)), 1.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f + 0x1p-8f + 0x1p-20f)), 1.0f + 0x1p-7f);
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f + 3 * 0x1p-8f)), 1.0f + 0x1p-6f);  // tie to even, upwards
  EXPECT_EQ(bfloat16(1.0f).bits(), 0x3F80);
  EXPECT_EQ(half(1.0f).bits(), 0x3C00);
  EXPECT_EQ(static_cast<float>(half(65520.0f)), std::numeric_limits<float>::infinity());  // overflow
  EXPECT_EQ(static_cast<float>(half(65519.0f)), 65504.0f);
  // f8e4m3fn has no infinity: overflow saturates to NaN as the format defines; max is 448.
  EXPECT_EQ(static_cast<float>(float8_e4m3fn(448.0f)), 448.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(float8_e4m3fn(1e6f))));
  EXPECT_EQ(float8_e4m3fn(1.0f).bits(), 0x38);
  EXPECT_EQ(float8_e5m2(1.0f).bits(), 0x3C);
  EXPECT_EQ(static_cast<float>(float8_e5m2(1e6f)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(static_cast<float>(-float8_e5m2(2.0f)), -2.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16(std::nanf("")))));
  EXPECT_EQ(bfloat16(-0.0f).bits(), 0x8000);
  EXPECT_EQ(bfloat16(3), bfloat16(3.0f));
  EXPECT_NE(bfloat16(std::nanf("")), bfloat16(std::nanf("")));
  EXPECT_EQ(static_cast<float>(float8_e4m3fn(0x1p-9f)), 0x1p-9f);  // smallest subnormal
}

TEST(HostTypesTest, SubByteIntegersWrap) {
  EXPECT_EQ(int{int4(7)}, 7);
  EXPECT_EQ(int{int4(8)}, -8);
  EXPECT_EQ(int{int4(-9)}, 7);
  EXPECT_EQ(int{uint4(17)}, 1);
  EXPECT_EQ(int{int2(2)}, -2);
  EXPECT_EQ(int{uint2(-1)}, 3);
}

TEST(ShapeTest, MakeAndPrint) {
  Shape s = ShapeUtil::MakeShape(F32, {2, 3});
  EXPECT_EQ(s.ToString(), "f32[2,3]");
  EXPECT_EQ(s.ToString(true), "f32[2,3]{1,0}");
  EXPECT_EQ(s.dimensions(), std::vector<int64_t>({2, 3}));
  EXPECT_EQ(s.dimensions(1), 3);
  EXPECT_EQ(s.rank(), 2);
  EXPECT_TRUE(s.IsArray());
  Shape column = ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {0, 1});
  EXPECT_EQ(column.ToString(true), "f32[2,3]{0,1}");
  EXPECT_FALSE(ShapeUtil::Equal(s, column));
  EXPECT_TRUE(ShapeUtil::Compatible(s, column));
  Shape tuple = ShapeUtil::MakeTupleShape({s, ShapeUtil::MakeShape(S32, {}), ShapeUtil::MakeTokenShape()});
  EXPECT_EQ(tuple.ToString(), "(f32[2,3], s32[], token[])");
  EXPECT_EQ(tuple.tuple_shapes_size(), 3);
  EXPECT_EQ(ShapeUtil::ElementsIn(s), 6);
  EXPECT_EQ(ShapeUtil::ByteSizeOfElements(ShapeUtil::MakeShape(C64, {3})), 24);
  EXPECT_TRUE(ShapeUtil::ValidateShape(tuple).ok());
  Shape grown = ShapeUtil::MakeShape(F32, {2});
  grown.add_dimensions(5);
  EXPECT_EQ(grown.ToString(true), "f32[2,5]{1,0}");
}

TEST(ShapeTest, InvalidShapesAreReported) {
  Status negative = ShapeUtil::ValidateShape(ShapeUtil::MakeShape(F32, {2, -1}));
  EXPECT_FALSE(negative.ok());
  EXPECT_NE(negative.message().find("negative"), std::string::npos) << negative.message();
  Status layout = ShapeUtil::ValidateShape(ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {0, 0}));
  EXPECT_NE(layout.message().find("not a permutation"), std::string::npos) << layout.message();
  Status huge = ShapeUtil::ValidateShape(ShapeUtil::MakeShape(F32, {1LL << 40, 1LL << 40}));
  EXPECT_NE(huge.message().find("int64"), std::string::npos) << huge.message();
  EXPECT_FALSE(ShapeUtil::ValidateShape(Shape()).ok());
  // An invalid shape makes a nil literal; Create says why.
  EXPECT_TRUE(ShapeUtil::IsEmptyTuple(Literal(ShapeUtil::MakeShape(F32, {-2})).shape()));
  EXPECT_FALSE(Literal::Create(ShapeUtil::MakeShape(F32, {-2})).ok());
}

TEST(LiteralTest, CreateAndAccess) {
  Literal r0 = LiteralUtil::CreateR0<float>(2.5f);
  EXPECT_EQ(r0.shape().ToString(), "f32[]");
  EXPECT_EQ(r0.data<float>()[0], 2.5f);
  EXPECT_EQ(r0.GetFirstElement<float>(), 2.5f);

  Literal r1 = LiteralUtil::CreateR1<int32_t>({1, 2, 3});
  ASSERT_EQ(r1.data<int32_t>().size(), 3u);
  EXPECT_EQ(r1.data<int32_t>()[2], 3);
  EXPECT_TRUE(r1.data<float>().empty());  // wrong host type: empty view
  EXPECT_EQ(LiteralUtil::CreateR1<int32_t>(std::vector<int32_t>{4, 5}).data<int32_t>()[1], 5);

  Literal r2 = LiteralUtil::CreateR2<double>({{1, 2, 3}, {4, 5, 6}});
  EXPECT_EQ(r2.shape().ToString(), "f64[2,3]");
  EXPECT_EQ(r2.Get<double>({1, 0}), 4.0);
  EXPECT_TRUE(r2.Set<double>({1, 0}, 40.0).ok());
  EXPECT_EQ(r2.data<double>()[3], 40.0);
  EXPECT_FALSE(r2.Set<double>({2, 0}, 1.0).ok());
  EXPECT_FALSE(r2.Set<float>({0, 0}, 1.0f).ok());
  EXPECT_EQ(r2.Get<double>({5, 5}), 0.0);

  Literal v = LiteralUtil::CreateFromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(v.shape().ToString(), "f32[3,2]");
  EXPECT_EQ(v.Get<float>({2, 1}), 6.0f);
  // Mismatched counts give the nil literal.
  EXPECT_TRUE(ShapeUtil::IsEmptyTuple(LiteralUtil::CreateFromVector<float>({1, 2, 3}, {2, 2}).shape()));
  EXPECT_TRUE(ShapeUtil::IsEmptyTuple(LiteralUtil::CreateR2<float>({{1, 2}, {3}}).shape()));

  Literal preds = LiteralUtil::CreateR1<bool>({true, false, true});
  EXPECT_EQ(preds.shape().element_type(), PRED);
  EXPECT_TRUE(preds.data<bool>()[2]);
  Literal narrow = LiteralUtil::CreateR1<bfloat16>({bfloat16(1.5f), bfloat16(-2.0f)});
  EXPECT_EQ(narrow.shape().ToString(), "bf16[2]");
  EXPECT_EQ(static_cast<float>(narrow.data<bfloat16>()[1]), -2.0f);
  Literal c = LiteralUtil::CreateR1<complex64>({{1, 2}, {3, -4}});
  EXPECT_EQ(c.data<complex64>()[1], complex64(3, -4));
  Literal s4 = LiteralUtil::CreateR1<int4>({int4(-3), int4(7)});
  EXPECT_EQ(int{s4.data<int4>()[0]}, -3);

  Literal reshaped = *v.Reshape({6});
  EXPECT_EQ(reshaped.shape().ToString(), "f32[6]");
  EXPECT_FALSE(v.Reshape({4}).ok());
}

TEST(LiteralTest, ToStringMatchesXla) {
  EXPECT_EQ(LiteralUtil::CreateR0<float>(3.14f).ToString(), "f32[] 3.14");
  EXPECT_EQ(LiteralUtil::CreateR0<bool>(true).ToString(), "pred[] true");
  EXPECT_EQ(LiteralUtil::CreateR1<float>({3.14f, 2.78f}).ToString(), "f32[2] {3.14, 2.78}");
  EXPECT_EQ(LiteralUtil::CreateR1<bool>({true, false}).ToString(), "pred[2] {1, 0}");
  EXPECT_EQ(LiteralUtil::CreateR2<int32_t>({{1, 2}, {3, 4}, {5, 6}}).ToString(),
            "s32[3,2] {\n  { 1, 2 },\n  { 3, 4 },\n  { 5, 6 }\n}");
  EXPECT_EQ(LiteralUtil::CreateR3<int32_t>({{{1}, {2}}, {{3}, {4}}, {{5}, {6}}}).ToString(),
            "s32[3,2,1] {\n{\n  {1},\n  {2}\n},\n{\n  {3},\n  {4}\n},\n{\n  {5},\n  {6}\n}\n}");
  Literal a = LiteralUtil::CreateR0<float>(1.0f);
  Literal b = LiteralUtil::CreateR2<float>({{1, 2}, {3, 4}});
  EXPECT_EQ(LiteralUtil::MakeTuple({&a, &b}).ToString(), "(\nf32[] 1,\nf32[2,2] {\n  { 1, 2 },\n  { 3, 4 }\n}\n)");
  EXPECT_EQ(LiteralUtil::CreateR1<float>({std::nanf(""), -std::numeric_limits<float>::infinity(), 1e10f, 0.1f})
                .ToString(),
            "f32[4] {nan, -inf, 1e+10, 0.1}");
  // Shortest text in the element's own format.
  EXPECT_EQ(LiteralUtil::CreateR1<bfloat16>({bfloat16(0.1f), bfloat16(1.0f / 3)}).ToString(), "bf16[2] {0.1, 0.334}");
  EXPECT_EQ(LiteralUtil::CreateR1<double>({0.1}).ToString(), "f64[1] {0.1}");
  EXPECT_EQ(LiteralUtil::CreateR1<complex64>({{1, -2.5f}}).ToString(), "c64[1] {(1, -2.5)}");
  EXPECT_EQ(LiteralUtil::CreateR1<uint8_t>({255}).ToString(), "u8[1] {255}");
  EXPECT_EQ(LiteralUtil::CreateR1<int4>({int4(-8)}).ToString(), "s4[1] {-8}");
  EXPECT_EQ(LiteralUtil::CreateR1<int32_t>({}).ToString(), "s32[0] {}");
  EXPECT_EQ(LiteralUtil::CreateR2<float>({{1, 2}}).ToStringWithoutShape(), "{\n  { 1, 2 }\n}");
  EXPECT_EQ(LiteralUtil::CreateR2WithLayout<float>({{1, 2}, {3, 4}}, LayoutUtil::MakeLayout({0, 1}))
                .ToStringWithLayout(),
            "f32[2,2]{0,1} {\n  { 1, 2 },\n  { 3, 4 }\n}");
  EXPECT_EQ(LiteralUtil::CreateToken().ToString(), "token");
}

TEST(LiteralTest, TuplesDecompose) {
  Literal a = LiteralUtil::CreateR1<int32_t>({1, 2});
  Literal b = LiteralUtil::CreateR0<float>(3.0f);
  Literal t = LiteralUtil::MakeTupleOwned({a.Clone(), b.Clone()});
  EXPECT_EQ(t.shape().ToString(), "(s32[2], f32[])");
  EXPECT_EQ(t.element_count(), 0);
  std::vector<Literal> parts = t.DecomposeTuple();
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], a);
  EXPECT_EQ(parts[1], b);
  EXPECT_TRUE(ShapeUtil::IsEmptyTuple(t.shape()));
  EXPECT_TRUE(a.DecomposeTuple().empty());
}

TEST(LiteralTest, ExtremeValues) {
  EXPECT_EQ(LiteralUtil::MinValue(F32).ToString(), "f32[] -inf");
  EXPECT_EQ(LiteralUtil::MaxValue(BF16).ToString(), "bf16[] inf");
  EXPECT_EQ(LiteralUtil::MaxValue(F8E4M3FN).ToString(), "f8e4m3fn[] 448");  // no infinity
  EXPECT_EQ(LiteralUtil::MinValue(F8E4M3FN).ToString(), "f8e4m3fn[] -448");
  EXPECT_EQ(LiteralUtil::MinValue(S8).ToString(), "s8[] -128");
  EXPECT_EQ(LiteralUtil::MaxValue(S64).ToString(), "s64[] 9223372036854775807");
  EXPECT_EQ(LiteralUtil::MaxValue(U32).ToString(), "u32[] 4294967295");
  EXPECT_EQ(LiteralUtil::MinValue(S4).ToString(), "s4[] -8");
  EXPECT_EQ(LiteralUtil::MaxValue(PRED).ToString(), "pred[] true");
  EXPECT_EQ(LiteralUtil::One(C64).ToString(), "c64[] (1, 0)");
  EXPECT_EQ(LiteralUtil::Zero(F16).ToString(), "f16[] 0");
}

// Relayout changes the physical order only; there and back is the identity, for every type.
TEST(LiteralLayoutTest, RoundTripEveryType) {
  const Shape row_major_shape = ShapeUtil::MakeShape(F32, {2, 3, 4});
  for (PrimitiveType type : {PRED, S2, S4, S8, S16, S32, S64, U2, U4, U8, U16, U32, U64, F4E2M1FN, F6E2M3FN, F6E3M2FN,
                             F8E3M4, F8E4M3, F8E4M3FN, F8E4M3FNUZ, F8E4M3B11FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0FNU, BF16,
                             F16, F32, F64, C64, C128}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    Literal literal(ShapeUtil::ChangeElementType(row_major_shape, type));
    ASSERT_EQ(literal.element_count(), 24);
    // Distinct valid storage per element: element i's first byte is i (within the type's bits).
    const int width = primitive_util::ByteWidth(type);
    const int bits = std::min(primitive_util::BitWidth(type), 8);
    auto* bytes = static_cast<uint8_t*>(literal.untyped_data());
    for (int i = 0; i < 24; ++i) {
      int value = i % (1 << std::min(bits, 7));
      if (type == PRED) value = i % 2;
      // Signed sub-byte integers are stored sign-extended.
      if (primitive_util::IsSignedIntegralType(type) && bits < 8 && value >= (1 << (bits - 1))) value -= 1 << bits;
      bytes[i * width] = static_cast<uint8_t>(value);
      if (width > 1) bytes[i * width + 1] = static_cast<uint8_t>(i);
    }
    for (const std::vector<int64_t>& order : std::vector<std::vector<int64_t>>{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}}) {
      Literal relaid = literal.Relayout(LayoutUtil::MakeLayout(order));
      EXPECT_EQ(relaid.shape().layout().minor_to_major(), order);
      EXPECT_EQ(relaid, literal);  // same values
      StatusOr<std::vector<uint8_t>> physical = relaid.PhysicalBytes();
      ASSERT_TRUE(physical.ok()) << physical.status().ToString();
      // Element [i, j, k] sits at the offset the layout gives it.
      const std::vector<int64_t> dims = {2, 3, 4};
      std::vector<int64_t> stride(3);
      int64_t s = 1;
      for (int64_t d : order) {
        stride[static_cast<size_t>(d)] = s;
        s *= dims[static_cast<size_t>(d)];
      }
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j)
          for (int64_t k = 0; k < 4; ++k) {
            const int64_t logical = (i * 3 + j) * 4 + k;
            const int64_t offset = i * stride[0] + j * stride[1] + k * stride[2];
            ASSERT_EQ(std::memcmp(physical->data() + offset * width, bytes + logical * width, width), 0);
          }
      // Back from the physical bytes, and back to row-major.
      StatusOr<Literal> rebuilt = Literal::FromPhysicalBytes(relaid.shape(), physical->data(), physical->size());
      ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
      EXPECT_EQ(*rebuilt, literal);
      Literal back = relaid.Relayout(LayoutUtil::MakeDescendingLayout(3));
      EXPECT_EQ(back.shape(), literal.shape());
      EXPECT_EQ(*back.PhysicalBytes(), std::vector<uint8_t>(bytes, bytes + literal.size_bytes()));
    }
  }
}

TEST(LiteralLayoutTest, ColumnMajorExampleFromTheOverview) {
  // xla_overview.md: [2 x 3] {{a b c}, {d e f}} with minor_to_major {0, 1} is a d b e c f.
  Literal m = LiteralUtil::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  Literal column = m.Relayout(LayoutUtil::MakeLayout({0, 1}));
  EXPECT_EQ(*column.physical_data<float>(), std::vector<float>({1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(*m.physical_data<float>(), std::vector<float>({1, 2, 3, 4, 5, 6}));
  // data<T>() stays row-major.
  EXPECT_EQ(std::vector<float>(column.data<float>().begin(), column.data<float>().end()),
            std::vector<float>({1, 2, 3, 4, 5, 6}));
  StatusOr<Literal> from_column = LiteralUtil::CreateFromPhysicalData<float>(
      ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {0, 1}), std::vector<float>{1, 4, 2, 5, 3, 6});
  ASSERT_TRUE(from_column.ok());
  EXPECT_EQ(*from_column, m);
  EXPECT_EQ(from_column->shape().layout().minor_to_major(), std::vector<int64_t>({0, 1}));
  // Layout mistakes are reported where the layout is needed.
  Literal bad = m.Relayout(LayoutUtil::MakeLayout({0, 2}));
  EXPECT_FALSE(bad.physical_data<float>().ok());
  EXPECT_FALSE(ShapeUtil::ValidateShape(bad.shape()).ok());
  EXPECT_FALSE(LiteralUtil::CreateFromPhysicalData<float>(ShapeUtil::MakeShape(F32, {2, 3}), std::vector<float>{1})
                   .ok());
  EXPECT_FALSE(LiteralUtil::CreateFromPhysicalData<int32_t>(ShapeUtil::MakeShape(F32, {1}), std::vector<int32_t>{1})
                   .ok());
  // Tuples relayout element-wise.
  Literal t = LiteralUtil::MakeTuple({&m, &m});
  Literal relaid = t.Relayout(ShapeUtil::MakeTupleShape(
      {ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {0, 1}), ShapeUtil::MakeShape(F32, {2, 3})}));
  EXPECT_EQ(relaid.shape().ToString(true), "(f32[2,3]{0,1}, f32[2,3]{1,0})");
  EXPECT_EQ(*relaid.tuple_elements()[0].physical_data<float>(), std::vector<float>({1, 4, 2, 5, 3, 6}));
}

TEST(LiteralLayoutTest, PhysicalBytesAreNormalized) {
  // Bytes from outside keep the storage rules: PRED 0/1, S4 sign-extended.
  const uint8_t preds[] = {0, 7, 1};
  StatusOr<Literal> p = Literal::FromPhysicalBytes(ShapeUtil::MakeShape(PRED, {3}), preds, 3);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->ToString(), "pred[3] {0, 1, 1}");
  const uint8_t nibbles[] = {0x0F, 0x07};
  StatusOr<Literal> s4 = Literal::FromPhysicalBytes(ShapeUtil::MakeShape(S4, {2}), nibbles, 2);
  ASSERT_TRUE(s4.ok());
  EXPECT_EQ(s4->ToString(), "s4[2] {-1, 7}");
}

}  // namespace
}  // namespace vkhlo
