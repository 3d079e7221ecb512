// Ops that take computations: reductions, windows, sort, scatter, while, conditionals, calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "builder_harness.h"

namespace vkhlo {
namespace {

using testing::BuildOrDie;
using testing::CountOps;
using testing::Evaluate;
using testing::Execute;

// (T, T) -> T computations.
XlaComputation Binary(const char* name, PrimitiveType type, XlaOp (*op)(XlaOp, XlaOp, const std::vector<int64_t>&)) {
  XlaBuilder b(name);
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(type, {}), "x");
  auto y = Parameter(&b, 1, ShapeUtil::MakeShape(type, {}), "y");
  op(x, y, {});
  return BuildOrDie(b);
}

XlaComputation LessThan(PrimitiveType type) {
  XlaBuilder b("less");
  Lt(Parameter(&b, 0, ShapeUtil::MakeShape(type, {}), "a"), Parameter(&b, 1, ShapeUtil::MakeShape(type, {}), "b"));
  return BuildOrDie(b);
}

TEST(ReduceTest, TheSemanticsDocExamples) {
  XlaComputation add = Binary("add", S32, Add);
  XlaBuilder b("reduce");
  // The 4x2x3 array with 1..6 replicated along dimension 0.
  Literal cube(ShapeUtil::MakeShape(S32, {4, 2, 3}));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) ASSERT_TRUE(cube.Set<int32_t>({i, j, k}, j * 3 + k + 1).ok());
  auto x = ConstantLiteral(&b, cube);
  auto zero = ConstantR0<int32_t>(&b, 0);
  Tuple(&b, {Reduce(x, zero, add, {0}), Reduce(x, zero, add, {2}), Reduce(x, zero, add, {0, 1}),
             Reduce(x, zero, add, {0, 1, 2}), ReduceAll(x, zero, add)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{4, 8, 12}, {16, 20, 24}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{6, 15}, {6, 15}, {6, 15}, {6, 15}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<int32_t>({20, 28, 36}));
  EXPECT_EQ(p[3], LiteralUtil::CreateR0<int32_t>(84));
  EXPECT_EQ(p[4], LiteralUtil::CreateR0<int32_t>(84));
}

TEST(ReduceTest, VariadicArgmax) {
  // f(max, argmax, value, index) from the semantics doc.
  XlaBuilder fb("argmax");
  auto max = Parameter(&fb, 0, ShapeUtil::MakeShape(F32, {}), "max");
  auto argmax = Parameter(&fb, 1, ShapeUtil::MakeShape(S32, {}), "argmax");
  auto value = Parameter(&fb, 2, ShapeUtil::MakeShape(F32, {}), "value");
  auto index = Parameter(&fb, 3, ShapeUtil::MakeShape(S32, {}), "index");
  auto take = Ge(value, max);
  Tuple(&fb, {Select(take, value, max), Select(take, index, argmax)});
  XlaComputation f = BuildOrDie(fb);

  XlaBuilder b("reduce_argmax");
  auto v = ConstantR1<float>(&b, {3, 9, 2, 9, 5});
  Reduce(&b, {v, Iota(&b, S32, 5)}, {ConstantLiteral(&b, LiteralUtil::MinValue(F32)), ConstantR0<int32_t>(&b, -1)}, f,
         {0});
  XlaComputation c = BuildOrDie(b);
  EXPECT_EQ(c.GetProgramShape()->result().ToString(), "(f32[], s32[])");
  auto result = Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR0<float>(9));
  EXPECT_EQ(p[1], LiteralUtil::CreateR0<int32_t>(3));  // >= keeps the later 9
}

TEST(ReduceWindowTest, ValidAndSamePadding) {
  XlaComputation min = Binary("min", F32, Min);
  XlaComputation max = Binary("max", F32, Max);
  XlaBuilder b("windows");
  auto x = ConstantR1<float>(&b, {10000, 1000, 100, 10, 1});
  auto inf = ConstantLiteral(&b, LiteralUtil::MaxValue(F32));
  // The doc's 4x6 input with 2x3 windows and strides.
  std::vector<float> values(24);
  for (int i = 0; i < 24; ++i) values[static_cast<size_t>(i)] = static_cast<float>((i * 7) % 24);
  auto m = ConstantLiteral(&b, LiteralUtil::CreateFromVector<float>(values, {4, 6}));
  Tuple(&b, {ReduceWindow(x, inf, min, {3}, {2}, Padding::kValid), ReduceWindow(x, inf, min, {3}, {2}, Padding::kSame),
             ReduceWindow(m, ConstantLiteral(&b, LiteralUtil::MinValue(F32)), max, {2, 3}, {2, 3}, Padding::kValid)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>({100, 1}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<float>({1000, 10, 1}));
  std::vector<float> expected;
  for (int wi = 0; wi < 2; ++wi)
    for (int wj = 0; wj < 2; ++wj) {
      float best = -std::numeric_limits<float>::infinity();
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) best = std::max(best, values[static_cast<size_t>((wi * 2 + i) * 6 + wj * 3 + j)]);
      expected.push_back(best);
    }
  EXPECT_EQ(p[2], LiteralUtil::CreateFromVector<float>(expected, {2, 2}));
}

TEST(ReduceWindowTest, GeneralPaddingAndDilations) {
  // The conformance suite's reduce_window case: base dilation 2, window dilation 3, padding (2,1).
  XlaComputation add = Binary("add", S64, Add);
  XlaBuilder b("general");
  ReduceWindowWithGeneralPadding(ConstantR2<int64_t>(&b, {{1, 2}, {3, 4}, {5, 6}}), ConstantR0<int64_t>(&b, 0), add,
                                 {2, 1}, {4, 1}, {2, 1}, {3, 1}, {{2, 1}, {0, 0}});
  EXPECT_EQ(Evaluate(b), LiteralUtil::CreateR2<int64_t>({{0, 0}, {3, 4}}));
}

TEST(ReduceWindowTest, Variadic) {
  XlaBuilder fb("sum2");
  auto a0 = Parameter(&fb, 0, ShapeUtil::MakeShape(S32, {}), "a0");
  auto a1 = Parameter(&fb, 1, ShapeUtil::MakeShape(F32, {}), "a1");
  auto b0 = Parameter(&fb, 2, ShapeUtil::MakeShape(S32, {}), "b0");
  auto b1 = Parameter(&fb, 3, ShapeUtil::MakeShape(F32, {}), "b1");
  Tuple(&fb, {Add(a0, b0), Add(a1, b1)});
  XlaComputation f = BuildOrDie(fb);
  XlaBuilder b("variadic_window");
  ReduceWindow({ConstantR1<int32_t>(&b, {1, 2, 3}), ConstantR1<float>(&b, {0.5f, 1.5f, 2.5f})},
               {ConstantR0<int32_t>(&b, 0), ConstantR0<float>(&b, 0)}, f, {2}, {1}, Padding::kValid);
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<int32_t>({3, 5}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<float>({2, 4}));
}

TEST(SelectAndScatterTest, MaxPoolGradient) {
  XlaBuilder sb("ge");
  Ge(Parameter(&sb, 0, ShapeUtil::MakeShape(F32, {}), "a"), Parameter(&sb, 1, ShapeUtil::MakeShape(F32, {}), "b"));
  XlaComputation select = BuildOrDie(sb);
  XlaComputation add = Binary("add", F32, Add);
  XlaBuilder b("select_and_scatter");
  auto operand = ConstantR2<float>(&b, {{7, 2, 5, 3}, {3, 8, 9, 3}});
  auto source = ConstantR2<float>(&b, {{2, 6}});
  Tuple(&b, {SelectAndScatter(operand, select, {2, 2}, {2, 2}, Padding::kValid, source, ConstantR0<float>(&b, 0), add),
             SelectAndScatterWithGeneralPadding(operand, select, {2, 2}, {2, 2}, {{0, 0}, {0, 0}}, source,
                                                ConstantR0<float>(&b, 1), add)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<float>({{0, 0, 0, 0}, {0, 2, 6, 0}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<float>({{1, 1, 1, 1}, {1, 3, 7, 1}}));
}

TEST(SortTest, SingleAndMultipleOperands) {
  XlaBuilder b("sort");
  auto m = ConstantR2<int32_t>(&b, {{3, 1, 2}, {9, 7, 8}});
  Tuple(&b, {Sort({ConstantR1<float>(&b, {3, -1, 2.5f})}, LessThan(F32)), Sort({m}, LessThan(S32), 1),
             Sort({m}, LessThan(S32), 0)});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>({-1, 2.5f, 3}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{1, 2, 3}, {7, 8, 9}}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR2<int32_t>({{3, 1, 2}, {9, 7, 8}}));

  // The doc's example: sorted by operand0 only, the others follow.
  XlaBuilder cb("compare_first");
  auto a = Parameter(&cb, 0, ShapeUtil::MakeShape(S32, {}), "a0");
  auto a_next = Parameter(&cb, 1, ShapeUtil::MakeShape(S32, {}), "a1");
  Parameter(&cb, 2, ShapeUtil::MakeShape(S32, {}), "b0");
  Parameter(&cb, 3, ShapeUtil::MakeShape(S32, {}), "b1");
  Parameter(&cb, 4, ShapeUtil::MakeShape(F32, {}), "c0");
  Parameter(&cb, 5, ShapeUtil::MakeShape(F32, {}), "c1");
  XlaComputation comparator = BuildOrDie(cb, Lt(a, a_next));
  XlaBuilder mb("sort3");
  Sort({ConstantR1<int32_t>(&mb, {3, 1}), ConstantR1<int32_t>(&mb, {42, 50}), ConstantR1<float>(&mb, {-3.0f, 1.1f})},
       comparator, -1, /*is_stable=*/true);
  Literal sorted = Evaluate(mb);
  std::vector<Literal> s = sorted.DecomposeTuple();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], LiteralUtil::CreateR1<int32_t>({1, 3}));
  EXPECT_EQ(s[1], LiteralUtil::CreateR1<int32_t>({50, 42}));
  EXPECT_EQ(s[2], LiteralUtil::CreateR1<float>({1.1f, -3.0f}));
}

TEST(ScatterTest, AddsRowsAtIndices) {
  XlaComputation add = Binary("add", S32, Add);
  XlaBuilder b("scatter");
  auto operand = ConstantR2<int32_t>(&b, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  auto indices = ConstantR1<int32_t>(&b, {0, 2, 0});
  auto updates = ConstantR2<int32_t>(&b, {{10, 20, 30}, {70, 80, 90}, {100, 100, 100}});
  ScatterDimensionNumbers dnums;
  dnums.add_update_window_dims(1);
  dnums.add_inserted_window_dims(0);
  dnums.add_scatter_dims_to_operand_dims(0);
  dnums.set_index_vector_dim(1);
  Scatter(operand, indices, updates, add, dnums);
  EXPECT_EQ(Evaluate(b), LiteralUtil::CreateR2<int32_t>({{111, 122, 133}, {4, 5, 6}, {77, 88, 99}}));
}

TEST(WhileTest, TupleLoopFromTheSemanticsDoc) {
  const Shape state = ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(S32, {}), ShapeUtil::MakeShape(F32, {10})});
  XlaBuilder cb("condition");
  Lt(GetTupleElement(Parameter(&cb, 0, state, "s"), 0), ConstantR0<int32_t>(&cb, 100));
  XlaComputation condition = BuildOrDie(cb);
  XlaBuilder bb("body");
  auto s = Parameter(&bb, 0, state, "s");
  Tuple(&bb, {Add(GetTupleElement(s, 0), ConstantR0<int32_t>(&bb, 1)),
              Add(GetTupleElement(s, 1), ConstantR1<float>(&bb, 10, 0.5f))});
  XlaComputation body = BuildOrDie(bb);
  XlaBuilder b("while");
  auto loop = While(condition, body, Tuple(&b, {ConstantR0<int32_t>(&b, 0), ConstantR1<float>(&b, 10, 0.0f)}));
  XlaComputation c = BuildOrDie(b, loop);
  EXPECT_EQ(CountOps(c, "stablehlo.while"), 1);
  auto result = Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  Literal count = LiteralUtil::CreateR0<int32_t>(100);
  Literal sum = LiteralUtil::CreateR1<float>(std::vector<float>(10, 50.0f));
  EXPECT_EQ(*result, LiteralUtil::MakeTuple({&count, &sum}));

  // A non-tuple state.
  XlaBuilder c2("cond");
  Lt(Parameter(&c2, 0, ShapeUtil::MakeShape(S32, {}), "i"), ConstantR0<int32_t>(&c2, 5));
  XlaBuilder b2("double");
  auto i = Parameter(&b2, 0, ShapeUtil::MakeShape(S32, {}), "i");
  Add(i, i);
  XlaBuilder w("while_scalar");
  While(BuildOrDie(c2), BuildOrDie(b2), ConstantR0<int32_t>(&w, 1));
  EXPECT_EQ(Evaluate(w), LiteralUtil::CreateR0<int32_t>(8));
}

TEST(ConditionalTest, PredicateAndIndexedBranches) {
  XlaBuilder tb("plus_one");
  Add(Parameter(&tb, 0, ShapeUtil::MakeShape(F32, {}), "x"), ConstantR0<float>(&tb, 1));
  XlaComputation plus_one = BuildOrDie(tb);
  XlaBuilder fb("negate");
  Neg(ConvertElementType(Parameter(&fb, 0, ShapeUtil::MakeShape(S32, {}), "y"), F32));
  XlaComputation negate = BuildOrDie(fb);
  XlaBuilder db("double");
  auto d = Parameter(&db, 0, ShapeUtil::MakeShape(F32, {}), "z");
  Add(d, d);
  XlaComputation twice = BuildOrDie(db);

  XlaBuilder b("conditional");
  auto pred = Parameter(&b, 0, ShapeUtil::MakeShape(PRED, {}), "pred");
  auto index = Parameter(&b, 1, ShapeUtil::MakeShape(S32, {}), "index");
  auto x = ConstantR0<float>(&b, 2.5f);
  auto y = ConstantR0<int32_t>(&b, 4);
  Tuple(&b, {Conditional(pred, x, plus_one, y, negate), Conditional(index, {&plus_one, &twice}, {x, x})});
  XlaComputation c = BuildOrDie(b);
  EXPECT_EQ(CountOps(c, "stablehlo.if"), 1);
  EXPECT_EQ(CountOps(c, "stablehlo.case"), 1);
  for (bool p : {true, false}) {
    for (int32_t i : {0, 1, 7, -1}) {
      Literal pl = LiteralUtil::CreateR0<bool>(p);
      Literal il = LiteralUtil::CreateR0<int32_t>(i);
      auto result = Execute(c, {&pl, &il});
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      std::vector<Literal> parts = result->DecomposeTuple();
      EXPECT_EQ(parts[0], LiteralUtil::CreateR0<float>(p ? 3.5f : -4.0f));
      EXPECT_EQ(parts[1], LiteralUtil::CreateR0<float>(i == 0 ? 3.5f : 5.0f));  // out of range: the last branch
    }
  }
}

TEST(CallTest, CallsAndNestedComputations) {
  XlaBuilder inner("square_plus");
  auto x = Parameter(&inner, 0, ShapeUtil::MakeShape(F32, {2}), "x");
  Add(Mul(x, x), ConstantR0<float>(&inner, 1));
  XlaComputation square_plus = BuildOrDie(inner);

  // A computation that calls another, used twice by a third: one private function each.
  XlaBuilder middle("twice");
  auto y = Parameter(&middle, 0, ShapeUtil::MakeShape(F32, {2}), "y");
  Call(&middle, square_plus, {Call(&middle, square_plus, {y})});
  XlaComputation twice = BuildOrDie(middle);

  XlaBuilder b("call");
  auto z = ConstantR1<float>(&b, {1, 2});
  Tuple(&b, {Call(&b, twice, {z}), Call(&b, square_plus, {z})});
  XlaComputation c = BuildOrDie(b);
  const std::string text = c.ToStableHlo();
  EXPECT_EQ(CountOps(c, "func.call"), 4) << text;  // two in @twice, two in @main
  EXPECT_NE(text.find("func.func private @square_plus"), std::string::npos) << text;
  EXPECT_NE(text.find("func.func private @twice"), std::string::npos) << text;
  EXPECT_EQ(text.find("@square_plus_1"), std::string::npos) << text;  // imported once
  auto result = Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>({5, 26}));  // (x^2+1)^2+1
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<float>({2, 5}));

  // A reducer that itself calls a computation.
  XlaBuilder rb("add_via_call");
  auto r0 = Parameter(&rb, 0, ShapeUtil::MakeShape(F32, {}), "r0");
  auto r1 = Parameter(&rb, 1, ShapeUtil::MakeShape(F32, {}), "r1");
  Call(&rb, Binary("plus", F32, Add), {r0, r1});
  XlaComputation reducer = BuildOrDie(rb);
  XlaBuilder sb("sum");
  Reduce(ConstantR1<float>(&sb, {1, 2, 3}), ConstantR0<float>(&sb, 0), reducer, {0});
  EXPECT_EQ(Evaluate(sb), LiteralUtil::CreateR0<float>(6));
}

TEST(OptimizationBarrierTest, PassesValuesThrough) {
  XlaBuilder b("barrier");
  auto t = OptimizationBarrier(Tuple(&b, {ConstantR0<int32_t>(&b, 1), ConstantR1<float>(&b, {2, 3})}));
  GetTupleElement(t, 1);
  EXPECT_EQ(Evaluate(b), LiteralUtil::CreateR1<float>({2, 3}));
}

}  // namespace
}  // namespace vkhlo
