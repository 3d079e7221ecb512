// passes/lower_checks.h: a test function's checks become results and outfeeds, described for the
// host; afterwards the function holds no test op, and a test op that cannot be lowered is a
// located UNIMPLEMENTED error.
#include "passes/lower_checks.h"

#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "tests/support/device_fixture.h"
#include "ir/walk.h"
#include "verify/verifier.h"

namespace vkhlo::passes {
namespace {

std::unique_ptr<ir::Module> Parse(std::string_view text) {
  auto module = frontend::ParseModule(text, {.source_name = "checks.mlir"});
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(*module) : nullptr;
}

int TestOps(const ir::Function& f) {
  int n = 0;
  ir::WalkOps(f.body(), [&](ir::Operation& op) { n += op.info().kind == ir::OpKind::kTest; });
  return n;
}

TEST(LowerChecks, BodyChecksBecomeResultsAndRegionChecksOutfeeds) {
  auto module = Parse(R"(func.func @test() -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.add %s, %i : tensor<i32>
    check.expect_eq %t, %t : tensor<i32>
    check.expect_almost_eq_const %zero, dense<0> : tensor<i32>
    stablehlo.return %n, %t : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<3> : tensor<i32>
  check.expect_close %r#0, %three, max_ulp_difference = 2 : tensor<i32>, tensor<i32>
  %p = interpreter.probe %r#0, probe_id = "count" : tensor<i32>
  check.expect_serialized_eq %p, probe_id = "count" : tensor<i32>
  func.return %r#1 : tensor<i32>
}
)");
  ASSERT_NE(module, nullptr);
  ASSERT_OK_AND_ASSIGN(CompiledChecks checks, LowerChecks(*module, "test"));
  const ir::Function& f = *module->FindFunction("test");
  EXPECT_EQ(TestOps(f), 0);
  EXPECT_TRUE(verify::VerifyModule(*module).ok());

  EXPECT_EQ(checks.function, "test");
  EXPECT_EQ(checks.program_results, 1);
  // expect_eq_const: actual only (its expectation a constant); expect_close: actual and expected;
  // the serialized check: its operand. Results 1, 2 3, 4.
  ASSERT_EQ(checks.results.size(), 2u);
  EXPECT_EQ(checks.results[0].actual_result, 1);
  EXPECT_EQ(checks.results[0].expected_result, -1);
  ASSERT_TRUE(checks.results[0].expected.has_value());
  EXPECT_EQ(checks.results[0].expected->type, (TensorType{"i32", {}}));
  EXPECT_EQ(checks.results[0].location, "checks.mlir:16:3");
  EXPECT_EQ(checks.results[1].comparison.kind, CheckComparison::Kind::kClose);
  EXPECT_EQ(checks.results[1].comparison.max_ulp_difference, 2);
  EXPECT_EQ(checks.results[1].actual_result, 2);
  EXPECT_EQ(checks.results[1].expected_result, 3);
  ASSERT_EQ(checks.serialized.size(), 1u);
  EXPECT_EQ(checks.serialized[0].probe_key, "count#0");
  EXPECT_EQ(checks.serialized[0].result, 4);
  EXPECT_EQ(f.type().results.size(), 5u);

  // The loop's two checks and the probe go to the outfeed.
  ASSERT_EQ(checks.nested.size(), 2u);
  EXPECT_FALSE(checks.nested[0].expected.has_value());
  EXPECT_EQ(checks.nested[1].comparison.kind, CheckComparison::Kind::kAlmost);
  EXPECT_TRUE(checks.nested[1].expected.has_value());
  EXPECT_EQ(checks.probe_ids, (std::vector<std::string>{"count"}));
  EXPECT_TRUE(checks.uses_outfeed());
  int outfeeds = 0;
  ir::WalkOps(f.body(), [&](ir::Operation& op) { outfeeds += op.code() == ir::OpCode::kOutfeed; });
  EXPECT_EQ(outfeeds, 3);
}

TEST(LowerChecks, WithoutChecksNothingChanges) {
  auto module = Parse(R"(func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = stablehlo.add %x, %x : tensor<2xf32>
  func.return %y : tensor<2xf32>
}
)");
  ASSERT_NE(module, nullptr);
  ASSERT_OK_AND_ASSIGN(CompiledChecks checks, LowerChecks(*module, "main"));
  EXPECT_EQ(checks.program_results, 1);
  EXPECT_TRUE(checks.results.empty());
  EXPECT_FALSE(checks.uses_outfeed());
  EXPECT_EQ(module->FindFunction("main")->type().results.size(), 1u);
}

TEST(LowerChecks, UnsupportedTestOpsAreLocatedErrors) {
  auto module = Parse(R"(func.func @test() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  interpreter.print %t : tensor<i1>
  func.return
}
)");
  ASSERT_NE(module, nullptr);
  auto checks = LowerChecks(*module, "test");
  ASSERT_FALSE(checks.ok());
  EXPECT_EQ(checks.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(checks.status().message().find("checks.mlir:3:3: interpreter.print"), std::string::npos)
      << checks.status().ToString();
  EXPECT_FALSE(LowerChecks(*module, "missing").ok());
}

}  // namespace
}  // namespace vkhlo::passes
