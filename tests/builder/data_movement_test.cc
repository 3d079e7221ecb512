// Constants, iota, and the data movement ops, with the examples of
// xla_operation_semantics.md and host-computed expectations.
#include <gtest/gtest.h>

#include "builder_harness.h"

namespace vkhlo {
namespace {

using testing::BuildAndExecute;
using testing::BuildOrDie;
using testing::CountOps;
using testing::Evaluate;
using testing::Execute;

// v = f32[4x2x3] from the semantics doc's Collapse and Reshape examples.
Literal V() {
  return LiteralUtil::CreateR3<float>({{{10, 11, 12}, {15, 16, 17}},
                                       {{20, 21, 22}, {25, 26, 27}},
                                       {{30, 31, 32}, {35, 36, 37}},
                                       {{40, 41, 42}, {45, 46, 47}}});
}

TEST(ConstantTest, EveryElementTypeRoundTrips) {
  for (PrimitiveType type : {PRED, S2, S4, S8, S16, S32, S64, U2, U4, U8, U16, U32, U64, F4E2M1FN, F6E2M3FN, F6E3M2FN,
                             F8E3M4, F8E4M3, F8E4M3FN, F8E4M3FNUZ, F8E4M3B11FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0FNU, BF16,
                             F16, F32, F64, C64, C128}) {
    SCOPED_TRACE(PrimitiveType_Name(type));
    Literal literal(ShapeUtil::MakeShape(type, {3}));
    auto* bytes = static_cast<uint8_t*>(literal.untyped_data());
    for (int64_t i = 0; i < literal.size_bytes(); ++i) bytes[i] = static_cast<uint8_t>(i % 2);  // valid everywhere
    XlaBuilder b("constant");
    ConstantLiteral(&b, literal);
    EXPECT_EQ(Evaluate(b), literal);
  }
}

TEST(ConstantTest, LayoutsAndTuplesAndHelpers) {
  XlaBuilder b("constants");
  // A column-major literal is the same value.
  Literal column = LiteralUtil::CreateR2WithLayout<int32_t>({{1, 2}, {3, 4}}, LayoutUtil::MakeLayout({0, 1}));
  Literal scalar = LiteralUtil::CreateR0<int32_t>(5);
  Tuple(&b, {ConstantLiteral(&b, column), ConstantLiteral(&b, LiteralUtil::MakeTuple({&scalar, &scalar})),
             ConstantR1<int32_t>(&b, 3, 9), Zero(&b, F32), One(&b, S8), MinValue(&b, F32), MaxValue(&b, U8)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{1, 2}, {3, 4}}));
  EXPECT_EQ(p[1], LiteralUtil::MakeTuple({&scalar, &scalar}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<int32_t>({9, 9, 9}));
  EXPECT_EQ(p[3], LiteralUtil::CreateR0<float>(0));
  EXPECT_EQ(p[4], LiteralUtil::CreateR0<int8_t>(1));
  EXPECT_EQ(p[5], LiteralUtil::MinValue(F32));
  EXPECT_EQ(p[6], LiteralUtil::CreateR0<uint8_t>(255));
}

TEST(IotaTest, AlongEachDimension) {
  XlaBuilder b("iota");
  Tuple(&b, {Iota(&b, ShapeUtil::MakeShape(S32, {4, 8}), 0), Iota(&b, ShapeUtil::MakeShape(S32, {4, 8}), 1),
             Iota(&b, F32, 3)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(p[0].Get<int32_t>({i, j}), i);
      EXPECT_EQ(p[1].Get<int32_t>({i, j}), j);
    }
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<float>({0, 1, 2}));
}

TEST(BroadcastOpTest, BroadcastAndBroadcastInDim) {
  XlaBuilder b("broadcast");
  auto two = ConstantR0<float>(&b, 2.0f);
  auto v = ConstantR1<int32_t>(&b, {1, 2, 3});
  Tuple(&b, {Broadcast(two, {2, 3}), Broadcast(v, {2}), BroadcastInDim(v, {3, 2}, {0}),
             BroadcastInDim(ConstantR2<int32_t>(&b, {{7}, {8}}), {2, 3}, {0, 1})});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<float>({{2, 2, 2}, {2, 2, 2}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{1, 2, 3}, {1, 2, 3}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR2<int32_t>({{1, 1}, {2, 2}, {3, 3}}));
  EXPECT_EQ(p[3], LiteralUtil::CreateR2<int32_t>({{7, 7, 7}, {8, 8, 8}}));
}

TEST(ReshapeTest, TheSemanticsDocExamples) {
  XlaBuilder b("reshape");
  auto v = ConstantLiteral(&b, V());
  Tuple(&b, {Reshape(v, {0, 1, 2}, {24}), Reshape(v, {0, 1, 2}, {8, 3}), Reshape(v, {1, 2, 0}, {24}),
             Reshape(v, {1, 2, 0}, {8, 3}), Reshape(v, {1, 2, 0}, {2, 6, 2}), Collapse(v, {0, 1}), Collapse(v, {1, 2}),
             Reshape(ConstantR2<float>(&b, {{5}}), {}), Reshape(ShapeUtil::MakeShape(F32, {1, 1}), ConstantR0<float>(&b, 5)),
             Reshape(v, {6, 4})});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 10u);
  std::vector<float> in_order, transposed;
  const Literal v_literal = V();
  for (float x : v_literal.data<float>()) in_order.push_back(x);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>(in_order));
  EXPECT_EQ(p[1], LiteralUtil::CreateFromVector<float>(in_order, {8, 3}));
  const std::vector<float> v120 = {10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42,
                                   15, 25, 35, 45, 16, 26, 36, 46, 17, 27, 37, 47};
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<float>(v120));
  EXPECT_EQ(p[3], LiteralUtil::CreateFromVector<float>(v120, {8, 3}));
  EXPECT_EQ(p[4], LiteralUtil::CreateFromVector<float>(v120, {2, 6, 2}));
  EXPECT_EQ(p[5], LiteralUtil::CreateFromVector<float>(in_order, {8, 3}));
  EXPECT_EQ(p[6], LiteralUtil::CreateFromVector<float>(in_order, {4, 6}));
  EXPECT_EQ(p[7], LiteralUtil::CreateR0<float>(5));
  EXPECT_EQ(p[8], LiteralUtil::CreateR2<float>({{5}}));
  EXPECT_EQ(p[9], LiteralUtil::CreateFromVector<float>(in_order, {6, 4}));
}

TEST(TransposeTest, TransposeAndRev) {
  XlaBuilder b("transpose");
  auto m = ConstantR2<int32_t>(&b, {{1, 2, 3}, {4, 5, 6}});
  Tuple(&b, {Transpose(m, {1, 0}), Rev(m, {1}), Rev(m, {0, 1})});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{1, 4}, {2, 5}, {3, 6}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{3, 2, 1}, {6, 5, 4}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR2<int32_t>({{6, 5, 4}, {3, 2, 1}}));
}

TEST(SliceTest, StaticAndDynamic) {
  XlaBuilder b("slice");
  auto a = ConstantR1<float>(&b, {0, 1, 2, 3, 4});
  auto m = ConstantR2<float>(&b, {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}});
  auto two = ConstantR0<int32_t>(&b, 2);
  auto one = ConstantR0<int32_t>(&b, 1);
  auto big = ConstantR0<int32_t>(&b, 100);
  Tuple(&b, {Slice(a, {2}, {4}, {1}), Slice(m, {2, 1}, {4, 3}, {1, 1}), Slice(a, {0}, {5}, {2}),
             SliceInDim(m, 1, 3, 1, 1), DynamicSlice(a, {two}, {2}), DynamicSlice(m, {two, one}, {2, 2}),
             DynamicSlice(a, {big}, {2}),  // clamped into range
             DynamicUpdateSlice(a, ConstantR1<float>(&b, {5, 6}), {two}),
             DynamicUpdateSlice(m, ConstantR2<float>(&b, {{12, 13}, {14, 15}, {16, 17}}), {one, one})});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 9u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>({2, 3}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<float>({{7, 8}, {10, 11}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<float>({0, 2, 4}));
  EXPECT_EQ(p[3], LiteralUtil::CreateR2<float>({{1, 2}, {4, 5}, {7, 8}, {10, 11}}));
  EXPECT_EQ(p[4], LiteralUtil::CreateR1<float>({2, 3}));
  EXPECT_EQ(p[5], LiteralUtil::CreateR2<float>({{7, 8}, {10, 11}}));
  EXPECT_EQ(p[6], LiteralUtil::CreateR1<float>({3, 4}));
  EXPECT_EQ(p[7], LiteralUtil::CreateR1<float>({0, 1, 5, 6, 4}));
  EXPECT_EQ(p[8], LiteralUtil::CreateR2<float>({{0, 1, 2}, {3, 12, 13}, {6, 14, 15}, {9, 16, 17}}));
}

TEST(ConcatTest, AlongDimensions) {
  XlaBuilder b("concat");
  Tuple(&b, {ConcatInDim(&b, {ConstantR1<int32_t>(&b, {2, 3}), ConstantR1<int32_t>(&b, {4, 5}),
                              ConstantR1<int32_t>(&b, {6, 7})},
                         0),
             ConcatInDim(&b, {ConstantR2<int32_t>(&b, {{1, 2}, {3, 4}, {5, 6}}), ConstantR2<int32_t>(&b, {{7, 8}})}, 0)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<int32_t>({2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{1, 2}, {3, 4}, {5, 6}, {7, 8}}));
}

TEST(PadTest, EdgeInteriorAndNegative) {
  XlaBuilder b("pad");
  auto m = ConstantR2<int32_t>(&b, {{1, 2}, {3, 4}});
  PaddingConfig config;
  auto* d0 = config.add_dimensions();
  d0->set_edge_padding_low(1);
  d0->set_edge_padding_high(0);
  d0->set_interior_padding(1);
  auto* d1 = config.add_dimensions();
  d1->set_edge_padding_low(-1);
  d1->set_edge_padding_high(2);
  d1->set_interior_padding(0);
  auto zero = ConstantR0<int32_t>(&b, 0);
  Tuple(&b, {Pad(m, zero, config), PadInDim(ConstantR1<int32_t>(&b, {5}), ConstantR0<int32_t>(&b, 9), 0, 2, 1)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  // Rows: pad 1 low, interior 1 -> [0; 1 2; 0; 3 4]; columns: drop 1 low, add 2 high.
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{0, 0, 0}, {2, 0, 0}, {0, 0, 0}, {4, 0, 0}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<int32_t>({9, 9, 5, 9}));
}

TEST(GatherTest, RowsByIndex) {
  // tf.gather_nd-style: rows of a [3, 3] matrix picked by indices [[2], [0]].
  XlaBuilder b("gather");
  auto operand = ConstantR2<int32_t>(&b, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  auto indices = ConstantR2<int32_t>(&b, {{2}, {0}});
  GatherDimensionNumbers dnums;
  dnums.add_offset_dims(1);
  dnums.add_collapsed_slice_dims(0);
  dnums.add_start_index_map(0);
  dnums.set_index_vector_dim(1);
  Gather(operand, indices, dnums, {1, 3});
  EXPECT_EQ(Evaluate(b), LiteralUtil::CreateR2<int32_t>({{7, 8, 9}, {1, 2, 3}}));
}

TEST(TupleTest, TupleAndGetTupleElement) {
  XlaBuilder b("tuple");
  auto v = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {3}), "v");
  auto s = ConstantR0<int32_t>(&b, 5);
  auto t = Tuple(&b, {v, s});
  auto element = GetTupleElement(t, 1);
  Add(element, element);
  XlaComputation c = BuildOrDie(b);
  // An element of a tuple built here is the value itself: no tuple ops reach the program.
  EXPECT_EQ(CountOps(c, "stablehlo.tuple"), 0);
  EXPECT_EQ(CountOps(c, "stablehlo.get_tuple_element"), 0);
  Literal arg = LiteralUtil::CreateR1<float>({1, 2, 3});
  auto result = Execute(c, {&arg});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, LiteralUtil::CreateR0<int32_t>(10));

  // A tuple parameter is taken apart with get_tuple_element; a tuple root becomes results.
  XlaBuilder tb("tuple_param");
  auto p = Parameter(&tb, 0, ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(F32, {}), ShapeUtil::MakeShape(S32, {})}),
                     "p");
  Tuple(&tb, {GetTupleElement(p, 1), GetTupleElement(p, 0)});
  XlaComputation swap = BuildOrDie(tb);
  EXPECT_EQ(CountOps(swap, "stablehlo.get_tuple_element"), 2);
  EXPECT_EQ(swap.GetProgramShape()->ToString(), "(p: (f32[], s32[])) -> (s32[], f32[])");
  Literal f = LiteralUtil::CreateR0<float>(1.5f);
  Literal i = LiteralUtil::CreateR0<int32_t>(7);
  Literal pair = LiteralUtil::MakeTuple({&f, &i});
  auto swapped = Execute(swap, {&pair});
  ASSERT_TRUE(swapped.ok()) << swapped.status().ToString();
  EXPECT_EQ(*swapped, LiteralUtil::MakeTuple({&i, &f}));
}

TEST(GetDimensionSizeTest, IsAnS32Scalar) {
  XlaBuilder b("size");
  GetDimensionSize(ConstantR2<float>(&b, {{1, 2, 3}, {4, 5, 6}}), 1);
  EXPECT_EQ(Evaluate(b), LiteralUtil::CreateR0<int32_t>(3));
}

}  // namespace
}  // namespace vkhlo
