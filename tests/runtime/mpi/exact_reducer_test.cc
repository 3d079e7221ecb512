// Which reductions a transport may hand to MPI_Allreduce (src/runtime/exact_reducer.h): only
// those whose result does not depend on the order of the fold — never floats, never sub-byte
// integers, never a region that does more than one op on its two arguments.
#include "runtime/exact_reducer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "verify/verifier.h"

namespace vkhlo::runtime {
namespace {

// The reducers ExactReducer finds in an all_reduce of tensor<4x`scalar`> with `region`.
std::optional<std::vector<ExactReduction>> Classify(const std::string& scalar, const std::string& region,
                                                    int operands = 1) {
  std::string params, args, types, results;
  for (int i = 0; i < operands; ++i) {
    params += fmt::format("{}%x{}: tensor<4x{}>", i ? ", " : "", i, scalar);
    args += fmt::format("{}%x{}", i ? ", " : "", i);
    types += fmt::format("{}tensor<4x{}>", i ? ", " : "", scalar);
    results += fmt::format("{}%r#{}", i ? ", " : "", i);
  }
  const std::string text = fmt::format(
      "func.func @main({0}) -> ({1}) {{\n  %r:{2} = \"stablehlo.all_reduce\"({3}) ({{\n"
      "  ^bb0(%a: tensor<{4}>, %b: tensor<{4}>):\n{5}\n  }}) : ({1}) -> ({1})\n  func.return {6} : {1}\n}}",
      params, types, operands, args, scalar, region, results);
  auto module = frontend::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status().ToString() << "\n" << text;
  if (!module.ok()) return std::nullopt;
  Status valid = verify::VerifyModule(**module);
  EXPECT_TRUE(valid.ok()) << valid.ToString() << "\n" << text;
  const ir::Operation& op = *(*module)->FindFunction("main")->body().front().operations()[0];
  return ExactReducer(op);
}

std::string OneOp(const std::string& op, const std::string& scalar, bool swapped = false) {
  return fmt::format("    %s = {} {} : tensor<{}>\n    stablehlo.return %s : tensor<{}>", op,
                     swapped ? "%b, %a" : "%a, %b", scalar, scalar);
}

TEST(ExactReducerTest, IntegerOpsOfTheTwoArgumentsAreExact) {
  EXPECT_EQ(Classify("i32", OneOp("stablehlo.add", "i32")), std::vector{ExactReduction::kAdd});
  EXPECT_EQ(Classify("ui8", OneOp("stablehlo.multiply", "ui8", true)), std::vector{ExactReduction::kMultiply});
  EXPECT_EQ(Classify("i64", OneOp("stablehlo.minimum", "i64")), std::vector{ExactReduction::kMin});
  EXPECT_EQ(Classify("ui16", OneOp("stablehlo.maximum", "ui16")), std::vector{ExactReduction::kMax});
  EXPECT_EQ(Classify("i8", OneOp("stablehlo.xor", "i8")), std::vector{ExactReduction::kXor});
  EXPECT_EQ(Classify("i32", OneOp("stablehlo.add", "i32"), 2),
            (std::vector{ExactReduction::kAdd, ExactReduction::kAdd}));
}

TEST(ExactReducerTest, BooleansOnlyForLogicalOps) {
  EXPECT_EQ(Classify("i1", OneOp("stablehlo.and", "i1")), std::vector{ExactReduction::kAnd});
  EXPECT_EQ(Classify("i1", OneOp("stablehlo.or", "i1")), std::vector{ExactReduction::kOr});
  EXPECT_EQ(Classify("i1", OneOp("stablehlo.maximum", "i1")), std::vector{ExactReduction::kMax});
  EXPECT_EQ(Classify("i1", OneOp("stablehlo.add", "i1")), std::nullopt);
}

TEST(ExactReducerTest, FloatsAndSubByteIntegersAreNot) {
  EXPECT_EQ(Classify("f32", OneOp("stablehlo.add", "f32")), std::nullopt);
  EXPECT_EQ(Classify("f32", OneOp("stablehlo.maximum", "f32")), std::nullopt);
  EXPECT_EQ(Classify("bf16", OneOp("stablehlo.multiply", "bf16")), std::nullopt);
  EXPECT_EQ(Classify("i4", OneOp("stablehlo.add", "i4")), std::nullopt);
}

TEST(ExactReducerTest, RegionsDoingMoreAreNot) {
  // a + a, a op constant, two ops, an op that is not associative.
  EXPECT_EQ(Classify("i32", "    %s = stablehlo.add %a, %a : tensor<i32>\n    stablehlo.return %s : tensor<i32>"),
            std::nullopt);
  EXPECT_EQ(Classify("i32", "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
                            "    %s = stablehlo.add %a, %c : tensor<i32>\n    stablehlo.return %s : tensor<i32>"),
            std::nullopt);
  EXPECT_EQ(Classify("i32", "    %s = stablehlo.add %a, %b : tensor<i32>\n    %t = stablehlo.add %s, %b : tensor<i32>\n"
                            "    stablehlo.return %t : tensor<i32>"),
            std::nullopt);
  EXPECT_EQ(Classify("i32", OneOp("stablehlo.subtract", "i32")), std::nullopt);
  EXPECT_EQ(Classify("i32", "    stablehlo.return %a : tensor<i32>"), std::nullopt);
}

}  // namespace
}  // namespace vkhlo::runtime
