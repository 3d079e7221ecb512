// Element-wise ops: axpy (xla_overview.md's example), every binary and unary op against host
// arithmetic, comparisons, select/clamp, conversions, and XLA's broadcasting rules with the
// overview's examples.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>

#include "builder_harness.h"

namespace vkhlo {
namespace {

using testing::BuildAndExecute;
using testing::BuildOrDie;
using testing::CountOps;
using testing::Execute;
using testing::LiteralsNear;
using testing::RoundTripText;

TEST(AxpyTest, WithParameters) {
  XlaBuilder b("axpy");
  auto alpha = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {}), "alpha");
  auto x = Parameter(&b, 1, ShapeUtil::MakeShape(F32, {4}), "x");
  auto y = Parameter(&b, 2, ShapeUtil::MakeShape(F32, {4}), "y");
  Add(Mul(alpha, x), y);
  XlaComputation axpy = BuildOrDie(b);
  auto text = RoundTripText(axpy);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_NE(text->find("module @axpy"), std::string::npos) << *text;
  EXPECT_NE(text->find("func.func @main(%arg0: tensor<f32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> "
                       "tensor<4xf32>"),
            std::string::npos)
      << *text;
  EXPECT_EQ(CountOps(axpy, "stablehlo.broadcast_in_dim"), 1);
  EXPECT_EQ(axpy.GetProgramShape()->ToString(), "(alpha: f32[], x: f32[4], y: f32[4]) -> f32[4]");
  Literal a = LiteralUtil::CreateR0<float>(3.0f);
  Literal xs = LiteralUtil::CreateR1<float>({1, 2, 3, 4});
  Literal ys = LiteralUtil::CreateR1<float>({10, 20, 30, 40});
  auto result = Execute(axpy, {&a, &xs, &ys});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, LiteralUtil::CreateR1<float>({13, 26, 39, 52}));
}

TEST(AxpyTest, WithConstants) {
  XlaBuilder b("axpy");
  auto alpha = ConstantR0<float>(&b, 3.0f);
  auto x = ConstantR1<float>(&b, {1, 2, 3, 4});
  auto y = ConstantR1<float>(&b, std::vector<float>{10, 20, 30, 40});
  Add(Mul(alpha, x), y);
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, LiteralUtil::CreateR1<float>({13, 26, 39, 52}));
}

TEST(AxpyTest, ParametersDeclaredOutOfOrder) {
  XlaBuilder b("sub");
  auto y = Parameter(&b, 1, ShapeUtil::MakeShape(S32, {2}), "y");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(S32, {2}), "x");
  Sub(x, y);
  Literal xs = LiteralUtil::CreateR1<int32_t>({10, 20});
  Literal ys = LiteralUtil::CreateR1<int32_t>({1, 2});
  auto result = BuildAndExecute(b, {&xs, &ys});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, LiteralUtil::CreateR1<int32_t>({9, 18}));
}

// A binary op on two f32 vectors against a host function.
void CheckBinaryF32(const char* name, XlaOp (*op)(XlaOp, XlaOp, const std::vector<int64_t>&),
                    const std::function<float(float, float)>& host) {
  SCOPED_TRACE(name);
  const std::vector<float> xs = {1.5f, -2.0f, 0.25f, 7.0f, -3.5f};
  const std::vector<float> ys = {0.5f, 3.0f, -4.0f, 2.0f, -1.25f};
  XlaBuilder b(name);
  op(ConstantR1<float>(&b, xs), Parameter(&b, 0, ShapeUtil::MakeShape(F32, {5}), "y"), {});
  Literal y = LiteralUtil::CreateR1<float>(ys);
  auto result = BuildAndExecute(b, {&y});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<float> expected;
  for (size_t i = 0; i < xs.size(); ++i) expected.push_back(host(xs[i], ys[i]));
  EXPECT_TRUE(LiteralsNear(LiteralUtil::CreateR1<float>(expected), *result, 1e-6));
}

TEST(ElementwiseTest, FloatBinaryOps) {
  CheckBinaryF32("Add", Add, [](float a, float b) { return a + b; });
  CheckBinaryF32("Sub", Sub, [](float a, float b) { return a - b; });
  CheckBinaryF32("Mul", Mul, [](float a, float b) { return a * b; });
  CheckBinaryF32("Div", Div, [](float a, float b) { return a / b; });
  CheckBinaryF32("Rem", Rem, [](float a, float b) { return std::fmod(a, b); });
  CheckBinaryF32("Max", Max, [](float a, float b) { return std::max(a, b); });
  CheckBinaryF32("Min", Min, [](float a, float b) { return std::min(a, b); });
  CheckBinaryF32("Pow", Pow, [](float a, float b) { return std::pow(a, b); });
  CheckBinaryF32("Atan2", Atan2, [](float a, float b) { return std::atan2(a, b); });
}

void CheckBinaryS32(const char* name, XlaOp (*op)(XlaOp, XlaOp, const std::vector<int64_t>&),
                    const std::function<int32_t(int32_t, int32_t)>& host) {
  SCOPED_TRACE(name);
  const std::vector<int32_t> xs = {7, -8, 123456, -1, 0x40000000};
  const std::vector<int32_t> ys = {3, 3, 5, 2, 1};
  XlaBuilder b(name);
  op(ConstantR1<int32_t>(&b, xs), ConstantR1<int32_t>(&b, ys), {});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<int32_t> expected;
  for (size_t i = 0; i < xs.size(); ++i) expected.push_back(host(xs[i], ys[i]));
  EXPECT_EQ(*result, LiteralUtil::CreateR1<int32_t>(expected));
}

TEST(ElementwiseTest, IntegerBinaryOps) {
  CheckBinaryS32("Add", Add, [](int32_t a, int32_t b) { return a + b; });
  CheckBinaryS32("Div", Div, [](int32_t a, int32_t b) { return a / b; });
  CheckBinaryS32("Rem", Rem, [](int32_t a, int32_t b) { return a % b; });
  CheckBinaryS32("And", And, [](int32_t a, int32_t b) { return a & b; });
  CheckBinaryS32("Or", Or, [](int32_t a, int32_t b) { return a | b; });
  CheckBinaryS32("Xor", Xor, [](int32_t a, int32_t b) { return a ^ b; });
  CheckBinaryS32("ShiftLeft", ShiftLeft,
                 [](int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) << b); });
  CheckBinaryS32("ShiftRightArithmetic", ShiftRightArithmetic, [](int32_t a, int32_t b) { return a >> b; });
  CheckBinaryS32("ShiftRightLogical", ShiftRightLogical,
                 [](int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) >> b); });
  CheckBinaryS32("Pow", Pow, [](int32_t a, int32_t b) {
    int32_t r = 1;
    for (int i = 0; i < b; ++i) r = static_cast<int32_t>(static_cast<uint32_t>(r) * static_cast<uint32_t>(a));
    return r;
  });
}

TEST(ElementwiseTest, NarrowElementTypes) {
  XlaBuilder b("narrow");
  auto h = ConstantR1<bfloat16>(&b, {bfloat16(1.0f), bfloat16(3.0f)});
  auto e = ConstantR1<float8_e4m3fn>(&b, {float8_e4m3fn(1.0f), float8_e4m3fn(448.0f)});
  auto s4 = ConstantR1<int4>(&b, {int4(7), int4(-8)});
  auto u2 = ConstantR1<uint2>(&b, {uint2(3), uint2(1)});
  Tuple(&b, {Add(h, ConstantR1<bfloat16>(&b, {bfloat16(0x1p-8f), bfloat16(0x1p-7f)})),
             Mul(e, ConstantR1<float8_e4m3fn>(&b, {float8_e4m3fn(1.125f), float8_e4m3fn(2.0f)})),
             Add(s4, ConstantR1<int4>(&b, {int4(1), int4(-1)})), Add(u2, ConstantR1<uint2>(&b, {uint2(1), uint2(1)})),
             ConvertElementType(h, F8E5M2)});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  ASSERT_EQ(p.size(), 5u);
  // Each result is the exact value rounded once to nearest even in the element type.
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<bfloat16>({bfloat16(1.0f + 0x1p-8f), bfloat16(3.0f + 0x1p-7f)}));
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<bfloat16>({bfloat16(1.0f), bfloat16(3.0f)}));  // both ties to even
  EXPECT_EQ(static_cast<float>(p[1].data<float8_e4m3fn>()[0]), 1.125f);
  EXPECT_TRUE(std::isnan(static_cast<float>(p[1].data<float8_e4m3fn>()[1])));  // 896 overflows to NaN
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<int4>({int4(-8), int4(7)}));                // wraps
  EXPECT_EQ(p[3], LiteralUtil::CreateR1<uint2>({uint2(0), uint2(2)}));
  EXPECT_EQ(p[4], LiteralUtil::CreateR1<float8_e5m2>({float8_e5m2(1.0f), float8_e5m2(3.0f)}));
}

TEST(ElementwiseTest, Operators) {
  XlaBuilder b("operators");
  auto x = ConstantR1<int32_t>(&b, {12, -7});
  auto y = ConstantR1<int32_t>(&b, {5, 2});
  auto u = ConstantR1<uint32_t>(&b, {0x80000000u, 8});
  auto v = ConstantR1<uint32_t>(&b, {4, 1});
  Tuple(&b, {x + y, x - y, x * y, x / y, x % y, -x, ~x, x & y, x | y, x ^ y, x << y, x >> y, u >> v});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> parts = result->DecomposeTuple();
  ASSERT_EQ(parts.size(), 13u);
  auto s32 = [](std::initializer_list<int32_t> v) { return LiteralUtil::CreateR1<int32_t>(v); };
  EXPECT_EQ(parts[0], s32({17, -5}));
  EXPECT_EQ(parts[1], s32({7, -9}));
  EXPECT_EQ(parts[2], s32({60, -14}));
  EXPECT_EQ(parts[3], s32({2, -3}));
  EXPECT_EQ(parts[4], s32({2, -1}));
  EXPECT_EQ(parts[5], s32({-12, 7}));
  EXPECT_EQ(parts[6], s32({~12, ~-7}));
  EXPECT_EQ(parts[7], s32({12 & 5, -7 & 2}));
  EXPECT_EQ(parts[8], s32({12 | 5, -7 | 2}));
  EXPECT_EQ(parts[9], s32({12 ^ 5, -7 ^ 2}));
  EXPECT_EQ(parts[10], s32({384, -28}));
  EXPECT_EQ(parts[11], s32({0, -2}));  // arithmetic for signed
  EXPECT_EQ(parts[12], LiteralUtil::CreateR1<uint32_t>({0x08000000u, 4}));  // logical for unsigned
}

TEST(ElementwiseTest, UnaryOps) {
  const std::vector<float> xs = {0.5f, 1.25f, 2.0f, 3.5f};
  struct Case {
    const char* name;
    XlaOp (*op)(XlaOp);
    std::function<double(double)> host;
  };
  const Case cases[] = {
      {"Abs", Abs, [](double x) { return std::abs(x); }},
      {"Neg", Neg, [](double x) { return -x; }},
      {"Sign", Sign, [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }},
      {"Exp", Exp, [](double x) { return std::exp(x); }},
      {"Expm1", Expm1, [](double x) { return std::expm1(x); }},
      {"Log", Log, [](double x) { return std::log(x); }},
      {"Log1p", Log1p, [](double x) { return std::log1p(x); }},
      {"Logistic", Logistic, [](double x) { return 1 / (1 + std::exp(-x)); }},
      {"Sqrt", Sqrt, [](double x) { return std::sqrt(x); }},
      {"Rsqrt", Rsqrt, [](double x) { return 1 / std::sqrt(x); }},
      {"Cbrt", Cbrt, [](double x) { return std::cbrt(x); }},
      {"Sin", Sin, [](double x) { return std::sin(x); }},
      {"Cos", Cos, [](double x) { return std::cos(x); }},
      {"Tan", Tan, [](double x) { return std::tan(x); }},
      {"Tanh", Tanh, [](double x) { return std::tanh(x); }},
      {"Floor", Floor, [](double x) { return std::floor(x); }},
      {"Ceil", Ceil, [](double x) { return std::ceil(x); }},
      {"Round", Round, [](double x) { return std::round(x); }},
      {"RoundNearestEven", RoundNearestEven, [](double x) { return std::nearbyint(x); }},
      {"Erf", Erf, [](double x) { return std::erf(x); }},
      {"Square", Square, [](double x) { return x * x; }},
      {"Reciprocal", Reciprocal, [](double x) { return 1 / x; }},
      {"Real", Real, [](double x) { return x; }},
      {"Imag", Imag, [](double) { return 0.0; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    XlaBuilder b(c.name);
    c.op(Parameter(&b, 0, ShapeUtil::MakeShape(F32, {4}), "x"));
    Literal x = LiteralUtil::CreateR1<float>(xs);
    auto result = BuildAndExecute(b, {&x});
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    std::vector<float> expected;
    for (float v : xs) expected.push_back(static_cast<float>(c.host(v)));
    EXPECT_TRUE(LiteralsNear(LiteralUtil::CreateR1<float>(expected), *result, 2e-6));
  }
}

TEST(ElementwiseTest, IntegerAndPredicateUnaryOps) {
  XlaBuilder b("bits");
  auto x = ConstantR1<uint32_t>(&b, {0, 1, 0xF0, 0xFFFFFFFFu});
  auto p = ConstantR1<bool>(&b, {true, false});
  auto f = ConstantR1<float>(&b, {1.0f, std::numeric_limits<float>::infinity(), std::nanf("")});
  Tuple(&b, {Clz(x), PopulationCount(x), Not(x), Not(p), IsFinite(f)});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> parts = result->DecomposeTuple();
  EXPECT_EQ(parts[0], LiteralUtil::CreateR1<uint32_t>({32, 31, 24, 0}));
  EXPECT_EQ(parts[1], LiteralUtil::CreateR1<uint32_t>({0, 1, 4, 32}));
  EXPECT_EQ(parts[2], LiteralUtil::CreateR1<uint32_t>({0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFF0Fu, 0}));
  EXPECT_EQ(parts[3], LiteralUtil::CreateR1<bool>({false, true}));
  EXPECT_EQ(parts[4], LiteralUtil::CreateR1<bool>({true, false, false}));
}

TEST(ElementwiseTest, ComplexOps) {
  XlaBuilder b("complex");
  auto re = ConstantR1<float>(&b, {1, -2});
  auto im = ConstantR1<float>(&b, {3, 4});
  auto z = Complex(re, im);
  Tuple(&b, {z, Conj(z), Real(z), Imag(z), Abs(z)});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> parts = result->DecomposeTuple();
  EXPECT_EQ(parts[0], LiteralUtil::CreateR1<complex64>({{1, 3}, {-2, 4}}));
  EXPECT_EQ(parts[1], LiteralUtil::CreateR1<complex64>({{1, -3}, {-2, -4}}));
  EXPECT_EQ(parts[2], LiteralUtil::CreateR1<float>({1, -2}));
  EXPECT_EQ(parts[3], LiteralUtil::CreateR1<float>({3, 4}));
  EXPECT_TRUE(LiteralsNear(LiteralUtil::CreateR1<float>({std::sqrt(10.0f), std::sqrt(20.0f)}), parts[4], 1e-6));
}

TEST(ElementwiseTest, Comparisons) {
  XlaBuilder b("compare");
  auto x = ConstantR1<float>(&b, {1, 2, 3, -0.0f, std::nanf("")});
  auto y = ConstantR1<float>(&b, {2, 2, 2, 0.0f, std::nanf("")});
  Tuple(&b, {Eq(x, y), Ne(x, y), Ge(x, y), Gt(x, y), Le(x, y), Lt(x, y), EqTotalOrder(x, y), LtTotalOrder(x, y),
             Compare(x, y, ComparisonDirection::kGe)});
  XlaComputation c = BuildOrDie(b);
  EXPECT_NE(c.ToStableHlo().find("#stablehlo<comparison_type TOTALORDER>"), std::string::npos);
  auto result = Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  auto pred = [](std::initializer_list<bool> v) { return LiteralUtil::CreateR1<bool>(v); };
  EXPECT_EQ(p[0], pred({false, true, false, true, false}));
  EXPECT_EQ(p[1], pred({true, false, true, false, true}));
  EXPECT_EQ(p[2], pred({false, true, true, true, false}));
  EXPECT_EQ(p[3], pred({false, false, true, false, false}));
  EXPECT_EQ(p[4], pred({true, true, false, true, false}));
  EXPECT_EQ(p[5], pred({true, false, false, false, false}));
  EXPECT_EQ(p[6], pred({false, true, false, false, true}));  // -0 != +0, NaN == NaN in total order
  EXPECT_EQ(p[7], pred({true, false, false, true, false}));  // -0 < +0
  EXPECT_EQ(p[8], p[2]);
  // Unsigned integers compare unsigned.
  XlaBuilder u("unsigned");
  Lt(ConstantR1<uint8_t>(&u, {1, 200}), ConstantR1<uint8_t>(&u, {100, 100}));
  auto unsigned_result = BuildAndExecute(u);
  ASSERT_TRUE(unsigned_result.ok());
  EXPECT_EQ(*unsigned_result, pred({true, false}));
}

TEST(ElementwiseTest, SelectAndClamp) {
  XlaBuilder b("select");
  auto pred = ConstantR1<bool>(&b, {true, false, false, true});
  auto v1 = ConstantR1<int32_t>(&b, {1, 2, 3, 4});
  auto v2 = ConstantR1<int32_t>(&b, {100, 200, 300, 400});
  auto operand = ConstantR1<int32_t>(&b, {-1, 5, 9});
  Tuple(&b, {Select(pred, v1, v2), Select(ConstantR0<bool>(&b, true), v1, v2),
             Clamp(ConstantR0<int32_t>(&b, 0), operand, ConstantR0<int32_t>(&b, 6))});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<int32_t>({1, 200, 300, 4}));  // the semantics doc's examples
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<int32_t>({1, 2, 3, 4}));
  EXPECT_EQ(p[2], LiteralUtil::CreateR1<int32_t>({0, 5, 6}));
}

TEST(ElementwiseTest, Conversions) {
  XlaBuilder b("convert");
  auto a = ConstantR1<int32_t>(&b, {0, 1, 2});
  auto f = ConstantR1<float>(&b, {1.0f, -2.5f});
  auto h = ConstantR1<float>(&b, {1.0f + 0x1p-8f, 3.0f});
  Tuple(&b, {ConvertElementType(a, F32), BitcastConvertType(f, S32), BitcastConvertType(f, U8),
             ConvertElementType(h, BF16), ReducePrecision(h, 8, 7),
             BitcastConvertType(ConstantR2<uint16_t>(&b, {{0x0000, 0x3F80}}), F32)});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<float>({0, 1, 2}));  // the semantics doc's example
  EXPECT_EQ(p[1], LiteralUtil::CreateR1<int32_t>({std::bit_cast<int32_t>(1.0f), std::bit_cast<int32_t>(-2.5f)}));
  EXPECT_EQ(p[2].shape().ToString(), "u8[2,4]");
  EXPECT_EQ(p[2].Get<uint8_t>({0, 3}), 0x3F);  // little-endian bytes of 1.0f = 0x3F800000
  EXPECT_EQ(p[3], LiteralUtil::CreateR1<bfloat16>({bfloat16(1.0f), bfloat16(3.0f)}));
  EXPECT_EQ(p[4], LiteralUtil::CreateR1<float>({1.0f, 3.0f}));
  EXPECT_EQ(p[5], LiteralUtil::CreateR1<float>({1.0f}));  // {0x0000, 0x3F80} little-endian
}

// xla_overview.md, "Broadcasting semantics": the examples, by name.
class BroadcastTest : public ::testing::Test {
 protected:
  static Literal Run(XlaBuilder& b) {
    auto result = BuildAndExecute(b);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? std::move(result).value() : Literal();
  }
};

TEST_F(BroadcastTest, ScalarOverArray) {
  XlaBuilder b("scalar");
  Add(ConstantR2<int32_t>(&b, {{1, 2, 3}, {4, 5, 6}}), ConstantR0<int32_t>(&b, 7));
  EXPECT_EQ(Run(b), LiteralUtil::CreateR2<int32_t>({{8, 9, 10}, {11, 12, 13}}));
}

TEST_F(BroadcastTest, VectorToMatrixRows) {
  XlaBuilder b("rows");
  Add(ConstantR2<int32_t>(&b, {{1, 2, 3}, {4, 5, 6}}), ConstantR1<int32_t>(&b, {7, 8, 9}), {1});
  EXPECT_EQ(Run(b), LiteralUtil::CreateR2<int32_t>({{8, 10, 12}, {11, 13, 15}}));
}

TEST_F(BroadcastTest, VectorOnDimensionZeroOrOne) {
  XlaBuilder b("square");
  auto m = ConstantR2<int32_t>(&b, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  auto v = ConstantR1<int32_t>(&b, {7, 8, 9});
  Tuple(&b, {Add(m, v, {1}), Add(v, m, {0})});
  Literal result = Run(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{7, 8, 9}, {7, 8, 9}, {7, 8, 9}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{7, 7, 7}, {8, 8, 8}, {9, 9, 9}}));
}

TEST_F(BroadcastTest, MatrixIntoCuboid) {
  XlaBuilder b("cuboid");
  Literal cube(ShapeUtil::MakeShape(S32, {2, 3, 4}));
  std::vector<int32_t> m_values;
  for (int i = 0; i < 12; ++i) m_values.push_back(i * 10);
  Add(ConstantLiteral(&b, cube), ConstantLiteral(&b, LiteralUtil::CreateFromVector<int32_t>(m_values, {3, 4})), {1, 2});
  Literal result = Run(b);
  ASSERT_EQ(result.shape().ToString(), "s32[2,3,4]");
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(result.Get<int32_t>({i, j, k}), (j * 4 + k) * 10);
}

TEST_F(BroadcastTest, DegenerateDimensions) {
  XlaBuilder b("degenerate");
  auto col = ConstantR2<int32_t>(&b, {{1}, {2}});      // (2,1)
  auto row = ConstantR2<int32_t>(&b, {{10, 20, 30}});  // (1,3)
  auto full = ConstantR2<int32_t>(&b, {{0, 0, 0}, {0, 0, 0}});
  Tuple(&b, {Add(col, full), Add(col, row)});  // (2,1)+(2,3) and the outer operation (2,1)+(1,3)
  Literal result = Run(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR2<int32_t>({{1, 1, 1}, {2, 2, 2}}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<int32_t>({{11, 21, 31}, {12, 22, 32}}));
}

TEST_F(BroadcastTest, Composition) {
  // A vector of 4 and a 1x2 matrix with broadcast_dimensions (0) give a 4x2 matrix.
  XlaBuilder b("composition");
  Add(ConstantR1<int32_t>(&b, {1, 2, 3, 4}), ConstantR2<int32_t>(&b, {{5, 6}}), {0});
  EXPECT_EQ(Run(b), LiteralUtil::CreateR2<int32_t>({{6, 7}, {7, 8}, {8, 9}, {9, 10}}));
  // A 1x2 matrix onto a 4x3x1 array with broadcast_dimensions (1, 2) gives 4x3x2.
  XlaBuilder c("composition3");
  std::vector<int32_t> big(12);
  for (int i = 0; i < 12; ++i) big[static_cast<size_t>(i)] = i * 100;
  Add(ConstantR2<int32_t>(&c, {{1, 2}}), ConstantLiteral(&c, LiteralUtil::CreateFromVector<int32_t>(big, {4, 3, 1})),
      {1, 2});
  Literal result = Run(c);
  ASSERT_EQ(result.shape().ToString(), "s32[4,3,2]");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) EXPECT_EQ(result.Get<int32_t>({i, j, k}), (i * 3 + j) * 100 + k + 1);
}

TEST_F(BroadcastTest, ComparisonsBroadcastToo) {
  XlaBuilder b("compare");
  Gt(ConstantR2<float>(&b, {{1, 5}, {3, 0}}), ConstantR1<float>(&b, {2, 4}), {0});
  EXPECT_EQ(Run(b), LiteralUtil::CreateR2<bool>({{false, true}, {false, false}}));
}

TEST_F(BroadcastTest, InvalidBroadcastsAreErrors) {
  struct Case {
    std::vector<int64_t> lhs, rhs, dims;
    const char* message;
  };
  const Case cases[] = {
      {{7, 2, 5}, {7, 2, 6}, {}, "dimension 2 has sizes 5 and 6"},
      {{2, 3}, {3}, {}, "need broadcast_dimensions"},
      {{2, 3}, {3}, {0}, "dimension 0 has sizes 3 and 2"},  // the overview's "dimension of 0 is invalid"
      {{2, 3, 4}, {3, 4}, {2, 1}, "strictly increasing"},
      {{2, 3}, {3}, {0, 1}, "one entry per dimension"},
      {{2, 3}, {3}, {2}, "must be in [0, 2)"},
      {{2, 3}, {2, 3}, {1, 0}, "identity"},
  };
  for (const Case& c : cases) {
    XlaBuilder b("bad");
    auto x = Parameter(&b, 0, ShapeUtil::MakeShape(F32, c.lhs), "x");
    auto y = Parameter(&b, 1, ShapeUtil::MakeShape(F32, c.rhs), "y");
    Add(x, y, c.dims);
    Status status = b.Build().status();
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message().find(c.message), std::string::npos) << status.message();
    EXPECT_EQ(status.message().rfind("Add(", 0), 0u) << status.message();
  }
}

TEST(MapTest, AppliesAComputation) {
  XlaBuilder sub("add_mul");
  auto a = Parameter(&sub, 0, ShapeUtil::MakeShape(F32, {}), "a");
  auto c = Parameter(&sub, 1, ShapeUtil::MakeShape(F32, {}), "c");
  Mul(Add(a, c), ConstantR0<float>(&sub, 2.0f));
  XlaComputation f = BuildOrDie(sub);
  XlaBuilder b("map");
  Map(&b, {ConstantR1<float>(&b, {1, 2, 3}), ConstantR1<float>(&b, {10, 20, 30})}, f, {0});
  auto result = BuildAndExecute(b);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, LiteralUtil::CreateR1<float>({22, 44, 66}));
}

}  // namespace
}  // namespace vkhlo
