// Reductions (reduce, reduce_window, select_and_scatter) and control flow (while, if, case) in
// the reference interpreter: variadic bodies, padding that folds init values in, empty
// reductions, the default branch of case, and region errors.
#include <gtest/gtest.h>

#include "run_program.h"

namespace vkhlo::interp::testing {
namespace {


TEST(ReduceTest, SumOverOneDimension) {
  auto out = RunMain(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %init = stablehlo.constant dense<100> : tensor<i32>
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[103, 112]> : tensor<2xi32>"));
}

TEST(ReduceTest, FoldOrderIsAscending) {
  // acc = acc * 10 + x shows the order of the fold: init 0, then 1, 2, 3, 4 -> 1234.
  auto out = RunMain(R"(
func.func @main() -> tensor<i64> {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %init = stablehlo.constant dense<0> : tensor<i64>
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %ten = stablehlo.constant dense<10> : tensor<i64>
    %m = stablehlo.multiply %a, %ten : tensor<i64>
    %s = stablehlo.add %m, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<1234> : tensor<i64>"));
}

TEST(ReduceTest, VariadicArgmaxAndEmptyInput) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<2xf32>, tensor<2xi32>, tensor<3xf32>) {
  %x = stablehlo.constant dense<[[1.0, 7.0, 7.0, 2.0], [-1.0, -3.0, 0.5, 0.25]]> : tensor<2x4xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x4xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = "stablehlo.reduce"(%x, %i, %ninf, %zero) ({
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  %e = stablehlo.constant dense<> : tensor<3x0xf32>
  %init = stablehlo.constant dense<4.5> : tensor<f32>
  %1 = "stablehlo.reduce"(%e, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0#0, %0#1, %1 : tensor<2xf32>, tensor<2xi32>, tensor<3xf32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[7.0, 0.5]> : tensor<2xf32>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[1, 2]> : tensor<2xi32>"));
  EXPECT_TRUE(ValueIs((*out)[2], "dense<4.5> : tensor<3xf32>"));
}

TEST(ReduceTest, RejectsBadDimensionsAndBodies) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {dimensions = array<i64: 2>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                        "dimensions"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a, %b : tensor<i32>, tensor<i32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                        "body must return 1"));
}

TEST(ReduceWindowTest, SpecExample) {
  auto out = RunMain(R"(
func.func @main() -> tensor<2x2xi32> {
  %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>,
      window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>}
    : (tensor<3x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[0, 0], [3, 4]]> : tensor<2x2xi32>"));
}

TEST(ReduceWindowTest, PaddingFoldsInTheInitValue) {
  // Windows of 2 with stride 1 over [1, 2, 3] padded by one init (10) on each side:
  // the spec pads with init values, so a window over padding adds 10 once more.
  auto out = RunMain(R"(
func.func @main() -> tensor<4xi32> {
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %init = stablehlo.constant dense<10> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}
    : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[21, 13, 15, 23]> : tensor<4xi32>"));
}

TEST(ReduceWindowTest, RejectsZeroStride) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>} : (tensor<3xi32>, tensor<i32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                        "window_strides"));
}

TEST(SelectAndScatterTest, SpecExample) {
  auto out = RunMain(R"(
func.func @main() -> tensor<4x2xi32> {
  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi32>
  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>}
    : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi32>"));
}

TEST(SelectAndScatterTest, RejectsSourceOfTheWrongShape) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<4xi32> {
  %operand = stablehlo.constant dense<[1, 5, 2, 5]> : tensor<4xi32>
  %source = stablehlo.constant dense<[5, 6, 7]> : tensor<3xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi32>, tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
})",
                        "source shape"));
}

TEST(WhileTest, CountsToTen) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<i64>, tensor<i64>) {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %0:2 = "stablehlo.while"(%zero, %zero) ({
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %lt = stablehlo.compare LT, %i, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }, {
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %n = stablehlo.add %i, %one : tensor<i64>
    %t = stablehlo.add %s, %i : tensor<i64>
    stablehlo.return %n, %t : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %0#0, %0#1 : tensor<i64>, tensor<i64>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<10> : tensor<i64>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<45> : tensor<i64>"));
}

TEST(WhileTest, FalseConditionRunsNoIteration) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2xf32> {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  }, {
  ^bb0(%a: tensor<2xf32>):
    %y = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xf32>
    stablehlo.return %y : tensor<2xf32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
})",
                     "dense<[1.0, 2.0]> : tensor<2xf32>"));
}

TEST(WhileTest, ConditionMustBeABoolean) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<i32> {
  %x = stablehlo.constant dense<1> : tensor<i32>
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }, {
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
})",
                        "tensor<i1>"));
}

constexpr const char* kCaseProgram = R"(
func.func @main() -> tensor<i32> {
  %index = stablehlo.constant dense<INDEX> : tensor<i32>
  %0 = "stablehlo.case"(%index) ({
    %a = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %b = stablehlo.constant dense<11> : tensor<i32>
    stablehlo.return %b : tensor<i32>
  }, {
    %c = stablehlo.constant dense<12> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
})";

std::string CaseWith(const std::string& index) {
  std::string program = kCaseProgram;
  program.replace(program.find("INDEX"), 5, index);
  return program;
}

TEST(CaseTest, OutOfRangeIndexSelectsTheLastBranch) {
  EXPECT_TRUE(RunsTo(CaseWith("0"), "dense<10> : tensor<i32>"));
  EXPECT_TRUE(RunsTo(CaseWith("1"), "dense<11> : tensor<i32>"));
  EXPECT_TRUE(RunsTo(CaseWith("2"), "dense<12> : tensor<i32>"));
  EXPECT_TRUE(RunsTo(CaseWith("3"), "dense<12> : tensor<i32>"));
  EXPECT_TRUE(RunsTo(CaseWith("-1"), "dense<12> : tensor<i32>"));
  EXPECT_TRUE(RunsTo(CaseWith("-2147483648"), "dense<12> : tensor<i32>"));
}

TEST(IfTest, PicksTheBranchAndSeesOuterValues) {
  constexpr const char* kProgram = R"(
func.func @main() -> tensor<2xi32> {
  %pred = stablehlo.constant dense<PRED> : tensor<i1>
  %outer = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = "stablehlo.if"(%pred) ({
    stablehlo.return %outer : tensor<2xi32>
  }, {
    %r = "stablehlo.reverse"(%outer) {dimensions = array<i64: 0>} : (tensor<2xi32>) -> tensor<2xi32>
    stablehlo.return %r : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})";
  std::string t = kProgram, f = kProgram;
  t.replace(t.find("PRED"), 4, "true");
  f.replace(f.find("PRED"), 4, "false");
  EXPECT_TRUE(RunsTo(t, "dense<[1, 2]> : tensor<2xi32>"));
  EXPECT_TRUE(RunsTo(f, "dense<[2, 1]> : tensor<2xi32>"));
}

}  // namespace
}  // namespace vkhlo::interp::testing
