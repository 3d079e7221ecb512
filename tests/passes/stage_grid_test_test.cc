// passes/stage_grid_test.h: a test function that starts process grids becomes stage and program
// functions of the module and a schedule of stages, grids and checks over numbered tensors; a
// test op the schedule cannot hold, or a run_parallel that does not fit its programs, is a
// located error.
#include "passes/stage_grid_test.h"

#include <gtest/gtest.h>

#include <variant>

#include "frontend/parser.h"
#include "tests/support/device_fixture.h"
#include "verify/verifier.h"

namespace vkhlo::passes {
namespace {

using Schedule = GridTestSchedule;

std::unique_ptr<ir::Module> Parse(std::string_view text) {
  auto module = frontend::ParseModule(text, {.source_name = "grid.mlir"});
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(*module) : nullptr;
}

constexpr std::string_view kProgram = R"(func.func @double(%x : tensor<2xi32>) -> tensor<2xi32> {
  %y = stablehlo.add %x, %x : tensor<2xi32>
  interpreter.print %y : tensor<2xi32>
  func.return %y : tensor<2xi32>
}
func.func @feed() -> tensor<2xi32> {
  %c = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  func.return %c : tensor<2xi32>
}
func.func @take(%t : !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token) {
  %v:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  func.return %v#0, %v#1 : tensor<2xi32>, !stablehlo.token
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@double], [@double]]}
      : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  %s = stablehlo.add %r#0, %r#1 : tensor<2xi32>
  check.expect_eq_const %s, dense<[8, 12]> : tensor<2xi32>
  check.expect_eq %s, %s : tensor<2xi32>
  %token = stablehlo.after_all : !stablehlo.token
  %f:2 = "interpreter.run_parallel"(%token) {infeed = [@feed], programs = [[@take]]}
      : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  check.expect_eq %f#0, %a : tensor<2xi32>
  func.return
}
)";

TEST(StageGridTest, StagesGridsAndChecksOverNumberedTensors) {
  auto module = Parse(kProgram);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(StartsProcessGrid(*module->FindFunction("main")));
  EXPECT_FALSE(StartsProcessGrid(*module->FindFunction("double")));
  ASSERT_OK_AND_ASSIGN(Schedule schedule, StageGridTest(*module, "main"));
  EXPECT_TRUE(verify::VerifyModule(*module).ok());

  // stage (a, b) | grid | stage (s) | check | check | stage (token: nothing) | grid | check
  ASSERT_EQ(schedule.steps.size(), 8u);
  const auto& first = std::get<Schedule::Stage>(schedule.steps[0]);
  EXPECT_TRUE(first.inputs.empty());
  EXPECT_EQ(first.outputs, (std::vector<int64_t>{0, 1}));
  const ir::Function* stage = module->FindFunction(first.function);
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(stage->type().results.size(), 2u);

  const auto& grid = std::get<Schedule::Grid>(schedule.steps[1]);
  EXPECT_EQ(grid.num_replicas, 2);
  EXPECT_EQ(grid.num_partitions, 1);
  EXPECT_EQ(grid.location, "grid.mlir:17:3");
  ASSERT_EQ(grid.processes.size(), 2u);
  // @double prints: both processes run one copy whose print is a trailing result.
  EXPECT_EQ(grid.processes[0].function, grid.processes[1].function);
  EXPECT_NE(grid.processes[0].function, "double");
  EXPECT_EQ(grid.processes[0].prints, 1);
  EXPECT_EQ(module->FindFunction(grid.processes[0].function)->type().results.size(), 2u);
  EXPECT_EQ(grid.arguments, (std::vector<std::vector<int64_t>>{{0}, {1}}));
  EXPECT_EQ(grid.results, (std::vector<std::vector<int64_t>>{{2}, {3}}));

  const auto& sum = std::get<Schedule::Stage>(schedule.steps[2]);
  EXPECT_EQ(sum.inputs, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(sum.outputs, (std::vector<int64_t>{4}));
  const auto& constant_check = std::get<Schedule::Check>(schedule.steps[3]);
  EXPECT_EQ(constant_check.actual, 4);
  EXPECT_EQ(constant_check.expected, -1);
  ASSERT_TRUE(constant_check.check.expected.has_value());
  EXPECT_EQ(constant_check.check.expected->type, (TensorType{"i32", {2}}));
  EXPECT_EQ(constant_check.check.location, "grid.mlir:20:3");
  const auto& value_check = std::get<Schedule::Check>(schedule.steps[4]);
  EXPECT_EQ(value_check.actual, 4);
  EXPECT_EQ(value_check.expected, 4);

  // The token stage returns nothing (tokens carry no data); the infeed grid's program gets
  // none of its token operand and defines one tensor.
  EXPECT_TRUE(std::get<Schedule::Stage>(schedule.steps[5]).outputs.empty());
  const auto& fed = std::get<Schedule::Grid>(schedule.steps[6]);
  ASSERT_EQ(fed.infeeds.size(), 1u);
  EXPECT_EQ(fed.infeeds[0].function, "feed");
  EXPECT_EQ(fed.infeeds[0].prints, 0);
  EXPECT_EQ(fed.processes[0].function, "take");
  EXPECT_EQ(fed.arguments, (std::vector<std::vector<int64_t>>{{}}));
  EXPECT_EQ(fed.results, (std::vector<std::vector<int64_t>>{{5}}));
  const auto& last = std::get<Schedule::Check>(schedule.steps[7]);
  EXPECT_EQ(last.actual, 5);
  EXPECT_EQ(last.expected, 0);
  EXPECT_EQ(schedule.tensors, 6);
}

TEST(StageGridTest, GridsThatDoNotFitTheirProgramsAreLocatedErrors) {
  auto module = Parse(R"(func.func @one(%x : tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@one]]}
      : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return
}
)");
  ASSERT_NE(module, nullptr);
  StatusOr<Schedule> schedule = StageGridTest(*module, "main");
  ASSERT_FALSE(schedule.ok());
  EXPECT_EQ(schedule.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(schedule.status().message().find("grid.mlir:6:3: error: 'interpreter.run_parallel' has more operands"),
            std::string::npos)
      << schedule.status().message();
}

TEST(StageGridTest, TestOpsItCannotScheduleAreUnimplemented) {
  auto module = Parse(R"(func.func @one(%x : tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %r = "interpreter.run_parallel"(%a) {programs = [[@one]]} : (tensor<i32>) -> tensor<i32>
  interpreter.print %r : tensor<i32>
  func.return
}
)");
  ASSERT_NE(module, nullptr);
  StatusOr<Schedule> schedule = StageGridTest(*module, "main");
  ASSERT_FALSE(schedule.ok());
  EXPECT_EQ(schedule.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(schedule.status().message().find("grid.mlir:7:3: error: interpreter.print"), std::string::npos)
      << schedule.status().message();
  EXPECT_EQ(StageGridTest(*module, "absent").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace vkhlo::passes
