// Control flow nested far deeper than real programs (issue 18): if, case, while and call chains
// 64 and 128 levels deep compile and run on the Vulkan device and on the interpreter, with the
// right result, doing work that grows linearly with the depth (kernels compiled, predicates read
// back). A stage that walks a nested region once per path instead of once (as purity did,
// found at depth 20-36) would take 2^64 steps here: ctest's TIMEOUT for this suite guards that,
// and no time is measured.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "ir/walk.h"
#include "passes/pass_registry.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/nested_programs.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using testing::Nesting;
using testing::NestedProgram;

struct NestingCase {
  Nesting kind;
  int depth;
};

std::string Name(const ::testing::TestParamInfo<NestingCase>& info) {
  return fmt::format("{}_{}", testing::NestingName(info.param.kind), info.param.depth);
}

// Predicates the host reads back when every level takes its nested path.
uint64_t ExpectedReadbacks(Nesting kind, int depth) {
  switch (kind) {
    case Nesting::kIf:
    case Nesting::kCase:
      return static_cast<uint64_t>(depth);
    case Nesting::kWhile:
      return 0;  // counted loops (one trip each): no condition read back
    case Nesting::kMixed:
      return static_cast<uint64_t>(depth - depth / 3);  // every third level is a counted while: none
    case Nesting::kCall:
      return 0;
    case Nesting::kCallFromBothBranches:
      return static_cast<uint64_t>(depth - 1);
  }
  return 0;
}

class NestedControlFlowTest : public ::testing::TestWithParam<NestingCase> {};

TEST_P(NestedControlFlowTest, RunsOnBothWithLinearWork) {
  const auto [kind, depth] = GetParam();
  const std::string program = NestedProgram(kind, depth);
  const float x = 0.5f;
  ir::Literal input = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kF32)).value();
  input.SetFloat(0, x);
  ir::Literal select = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kS32)).value();
  auto both = testing::RunOnBoth(program, {input, select});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ASSERT_EQ(both->vulkan.size(), 1u);
  ASSERT_EQ(both->reference.size(), 1u);
  EXPECT_EQ(both->reference[0].GetFloat(0), x + depth);
  EXPECT_EQ(both->vulkan[0].GetFloat(0), x + depth);
  // Work: a few kernels per level (the adds), one predicate per if/case taken, none for the
  // loops (each counts one trip: trip_count.h).
  // Calls from both branches also get the bottom levels inlined up to the inliner's floor
  // budget (4096 ops, a constant, whatever the depth).
  const uint64_t inlined = kind == Nesting::kCallFromBothBranches ? 2048 : 0;
  EXPECT_LE(both->compile.kernels, 3u * static_cast<uint64_t>(depth) + 4 + inlined) << program;
  EXPECT_EQ(both->stats.predicate_readbacks, ExpectedReadbacks(kind, depth));
}

INSTANTIATE_TEST_SUITE_P(
    Deep, NestedControlFlowTest,
    ::testing::Values(NestingCase{Nesting::kIf, 64}, NestingCase{Nesting::kIf, 128},
                      NestingCase{Nesting::kCase, 64}, NestingCase{Nesting::kCase, 128},
                      NestingCase{Nesting::kWhile, 64}, NestingCase{Nesting::kWhile, 96},
                      NestingCase{Nesting::kCall, 64}, NestingCase{Nesting::kCall, 128},
                      NestingCase{Nesting::kMixed, 64},
                      NestingCase{Nesting::kCallFromBothBranches, 64}),
    Name);

int CountCalls(const ir::Module& module) {
  int calls = 0;
  ir::WalkOps(module, [&](ir::Operation& op) { calls += op.code() == ir::OpCode::kCall ? 1 : 0; });
  return calls;
}

StatusOr<int> CallsAfterInlining(const std::string& program) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(program));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<passes::Pass> inline_pass, passes::CreatePass("inline"));
  VKHLO_RETURN_IF_ERROR(inline_pass->Run(*module).status());
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  return CountCalls(*module);
}

// Inlining is bounded by the program's size: a chain is inlined whole, while calls whose full
// expansion would copy a body 2^64 times stay calls (the runtime compiles each function once).
TEST(InliningBudgetTest, ChainsInlineAndExponentialExpansionsStayCalls) {
  auto chain = CallsAfterInlining(NestedProgram(Nesting::kCall, 128));
  ASSERT_TRUE(chain.ok()) << chain.status().ToString();
  EXPECT_EQ(*chain, 0);
  auto both_branches = CallsAfterInlining(NestedProgram(Nesting::kCallFromBothBranches, 64));
  ASSERT_TRUE(both_branches.ok()) << both_branches.status().ToString();
  EXPECT_GT(*both_branches, 0);
  // 8 levels expand to 2^8 copies: small enough to inline completely.
  auto small = CallsAfterInlining(NestedProgram(Nesting::kCallFromBothBranches, 8));
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(*small, 0);
}

// Where a call cannot stay (the runtime does not run calls inside a reduce body), an expansion
// over the budget is a located RESOURCE_EXHAUSTED error, not an exponential blow-up.
TEST(InliningBudgetTest, ExpansionTooLargeInsideAReduceBodyIsAnError) {
  std::string program = NestedProgram(Nesting::kCallFromBothBranches, 64);
  program += R"(
func.func @sum(%v: tensor<4xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce"(%v, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    %c = func.call @level0(%a, %t) : (tensor<f32>, tensor<i1>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
)";
  auto calls = CallsAfterInlining(program);
  ASSERT_FALSE(calls.ok());
  EXPECT_EQ(calls.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(calls.status().message().find("inlining budget"), std::string::npos) << calls.status().message();
  EXPECT_NE(calls.status().message().find("'func.call'"), std::string::npos) << calls.status().message();
}

}  // namespace
}  // namespace vkhlo
