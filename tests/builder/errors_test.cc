// Sticky errors: the first failure is kept and reported by Build(), naming the op, the shapes
// involved and what was wrong; later ops do nothing; nothing crashes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "builder_harness.h"

namespace vkhlo {
namespace {

using testing::BuildOrDie;

// The message Build() reports (or "OK").
std::string BuildError(XlaBuilder& b) {
  Status status = b.Build().status();
  return status.ok() ? "OK" : status.message();
}

using ::testing::HasSubstr;

TEST(StickyErrorTest, IncompatibleShapesNameTheOpAndShapes) {
  XlaBuilder b("bad");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x");
  auto y = Parameter(&b, 1, ShapeUtil::MakeShape(F32, {3}), "y");
  XlaOp sum = Add(x, y);
  EXPECT_FALSE(sum.valid());
  EXPECT_FALSE(sum.IsUninitialized());
  EXPECT_EQ(sum.builder(), &b);
  const std::string message = BuildError(b);
  EXPECT_EQ(message.rfind("Add(f32[2], f32[3]) in XlaBuilder 'bad': ", 0), 0u) << message;
  EXPECT_THAT(message, HasSubstr("dimension 0 has sizes 2 and 3"));
  EXPECT_EQ(b.Build().status().code(), StatusCode::kInvalidArgument);
}

TEST(StickyErrorTest, VerifierMessagesComeThrough) {
  XlaBuilder b("types");
  Add(ConstantR1<float>(&b, {1, 2}), ConstantR1<int32_t>(&b, {1, 2}));
  const std::string message = BuildError(b);
  EXPECT_EQ(message.rfind("Add(f32[2], s32[2]) in XlaBuilder 'types': 'stablehlo.add'", 0), 0u) << message;
  EXPECT_THAT(message, HasSubstr("(C1)"));
  EXPECT_THAT(message, HasSubstr("expected"));

  XlaBuilder r("reshape");
  Reshape(ConstantR1<float>(&r, {1, 2, 3}), {2, 2});
  const std::string reshape = BuildError(r);
  EXPECT_EQ(reshape.rfind("Reshape(f32[3]) in XlaBuilder 'reshape': 'stablehlo.reshape'", 0), 0u) << reshape;

  XlaBuilder t("transpose");
  Transpose(ConstantR2<float>(&t, {{1, 2}}), {0, 0});
  EXPECT_THAT(BuildError(t), HasSubstr("Transpose(f32[1,2])"));

  XlaBuilder d("dot");
  Dot(ConstantLiteral(&d, Literal(ShapeUtil::MakeShape(F32, {2, 2, 2}))), ConstantR1<float>(&d, {1, 2}));
  EXPECT_THAT(BuildError(d), HasSubstr("Dot takes vectors and matrices"));

  XlaBuilder s("slice");
  Slice(ConstantR1<float>(&s, {1, 2}), {0}, {5}, {1});
  EXPECT_THAT(BuildError(s), HasSubstr("Slice(f32[2]) in XlaBuilder 'slice': 'stablehlo.slice'"));

  XlaBuilder c("convert");
  ConvertElementType(ConstantR0<float>(&c, 1), TUPLE);
  EXPECT_THAT(BuildError(c), HasSubstr("TUPLE is not an array element type"));
}

TEST(StickyErrorTest, TheFirstErrorStaysAndLaterOpsDoNothing) {
  XlaBuilder b("first");
  auto x = ConstantR1<float>(&b, {1, 2});
  auto bad = Add(x, ConstantR1<float>(&b, {1, 2, 3}));
  auto worse = Mul(ConstantR1<float>(&b, {1}), ConstantR1<int32_t>(&b, {1}));  // would fail too
  auto after = Neg(bad);
  EXPECT_FALSE(worse.valid());
  EXPECT_FALSE(after.valid());
  const Status first = b.first_error();
  EXPECT_THAT(first.message(), HasSubstr("Add(f32[2], f32[3])"));
  EXPECT_EQ(b.GetCurrentStatus(), first);
  EXPECT_EQ(b.Build().status(), first);
  EXPECT_EQ(b.Build(x).status(), first);
  EXPECT_FALSE(b.GetShape(bad).ok());
  b.ReportError(InternalError("later"));
  EXPECT_EQ(b.first_error(), first);
}

TEST(StickyErrorTest, OperandsFromElsewhere) {
  XlaBuilder a("a");
  XlaBuilder b("b");
  auto x = ConstantR0<float>(&a, 1);
  auto y = ConstantR0<float>(&b, 2);
  Add(y, x);
  EXPECT_THAT(BuildError(b), HasSubstr("operand 1 was built by XlaBuilder 'a', not by this one"));
  EXPECT_EQ(BuildError(a), "OK");

  XlaBuilder c("c");
  Sub(ConstantR0<float>(&c, 1), XlaOp());
  EXPECT_THAT(BuildError(c), HasSubstr("Sub(f32[], ?) in XlaBuilder 'c': operand 1 is an uninitialized XlaOp"));

  // Only uninitialized operands: there is no builder to report to, and nothing happens.
  XlaOp nothing = Neg(XlaOp());
  EXPECT_TRUE(nothing.IsUninitialized());

  XlaBuilder d("d");
  auto own = ConstantR0<float>(&d, 1);
  EXPECT_THAT(d.Build(x).status().message(), HasSubstr("the root was built by XlaBuilder 'a', not 'd'"));
  EXPECT_TRUE(d.Build(own).ok());
}

TEST(StickyErrorTest, Parameters) {
  XlaBuilder b("params");
  Parameter(&b, 0, ShapeUtil::MakeShape(F32, {}), "x");
  Parameter(&b, 0, ShapeUtil::MakeShape(F32, {}), "again");
  EXPECT_THAT(BuildError(b), HasSubstr("parameter 0 is already declared (named 'x')"));

  XlaBuilder gap("gap");
  Parameter(&gap, 0, ShapeUtil::MakeShape(F32, {}), "x");
  Parameter(&gap, 2, ShapeUtil::MakeShape(F32, {}), "z");
  EXPECT_THAT(BuildError(gap), HasSubstr("parameter numbers must be 0..1, but parameter 1 is missing"));

  XlaBuilder shape("shape");
  Parameter(&shape, 0, ShapeUtil::MakeShape(F32, {2, -3}), "x");
  EXPECT_THAT(BuildError(shape), HasSubstr("Parameter() in XlaBuilder 'shape': shape f32[2,-3] has a negative"));

  XlaBuilder layout("layout");
  Parameter(&layout, 0, ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {1, 1}), "x");
  EXPECT_THAT(BuildError(layout), HasSubstr("not a permutation"));

  XlaBuilder empty("empty");
  EXPECT_THAT(BuildError(empty), HasSubstr("has no operations"));
}

TEST(StickyErrorTest, Computations) {
  XlaBuilder rb("three_params");
  Add(Add(Parameter(&rb, 0, ShapeUtil::MakeShape(F32, {}), "a"), Parameter(&rb, 1, ShapeUtil::MakeShape(F32, {}), "b")),
      Parameter(&rb, 2, ShapeUtil::MakeShape(F32, {}), "c"));
  XlaComputation three = BuildOrDie(rb);
  XlaBuilder b("reduce");
  Reduce(ConstantR1<float>(&b, {1, 2}), ConstantR0<float>(&b, 0), three, {0});
  const std::string message = BuildError(b);
  EXPECT_EQ(message.rfind("Reduce(f32[2], f32[]) in XlaBuilder 'reduce': ", 0), 0u) << message;

  XlaBuilder ib("int_add");
  Add(Parameter(&ib, 0, ShapeUtil::MakeShape(S32, {}), "a"), Parameter(&ib, 1, ShapeUtil::MakeShape(S32, {}), "b"));
  XlaComputation int_add = BuildOrDie(ib);
  XlaBuilder m("mismatch");
  Reduce(ConstantR1<float>(&m, {1, 2}), ConstantR0<float>(&m, 0), int_add, {0});
  EXPECT_THAT(BuildError(m), HasSubstr("'stablehlo.reduce'"));

  XlaBuilder n("null");
  Reduce(ConstantR1<float>(&n, {1, 2}), ConstantR0<float>(&n, 0), XlaComputation(), {0});
  EXPECT_THAT(BuildError(n), HasSubstr("the computation is empty"));

  XlaBuilder call("call");
  Call(&call, int_add, {ConstantR0<float>(&call, 1), ConstantR0<float>(&call, 2)});
  EXPECT_THAT(BuildError(call), HasSubstr("Call(f32[], f32[]) in XlaBuilder 'call': 'func.call'"));

  // A loop body returning the wrong type.
  XlaBuilder cb("cond");
  Lt(Parameter(&cb, 0, ShapeUtil::MakeShape(S32, {}), "i"), ConstantR0<int32_t>(&cb, 3));
  XlaBuilder bb("body");
  ConvertElementType(Parameter(&bb, 0, ShapeUtil::MakeShape(S32, {}), "i"), F32);
  XlaBuilder w("loop");
  While(BuildOrDie(cb), BuildOrDie(bb), ConstantR0<int32_t>(&w, 0));
  const std::string loop = BuildError(w);
  EXPECT_EQ(loop.rfind("While(s32[]) in XlaBuilder 'loop': 'stablehlo.while' body must have type (C2)", 0), 0u)
      << loop;

  XlaBuilder k("branches");
  Conditional(ConstantR0<int32_t>(&k, 0), {&int_add}, {});
  EXPECT_THAT(BuildError(k), HasSubstr("1 branch computations need as many operands, found 0"));
}

TEST(StickyErrorTest, ErrorsInsideSubBuildersStayThere) {
  XlaBuilder parent("parent");
  std::unique_ptr<XlaBuilder> sub = parent.CreateSubBuilder("sub");
  EXPECT_EQ(sub->name(), "sub");
  Add(ConstantR1<float>(sub.get(), {1, 2}), ConstantR1<float>(sub.get(), {1, 2, 3}));
  EXPECT_FALSE(sub->Build().ok());
  ConstantR0<float>(&parent, 1);
  EXPECT_TRUE(parent.Build().ok());
}

}  // namespace
}  // namespace vkhlo
