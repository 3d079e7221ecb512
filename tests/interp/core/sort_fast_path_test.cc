// The sort fast path (a plain `compare LT|GT` comparator evaluated natively) gives exactly what
// evaluating the comparator region gives, NaNs, signed zeros and ties included.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"
#include "interp/interpreter.h"

namespace vkhlo::interp {
namespace {

std::string Program(const std::string& type, const std::string& direction, bool wrapped) {
  // `wrapped` adds an `and` with true, which the fast path does not recognize.
  const std::string body = wrapped
      ? "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
        "    %r = stablehlo.and %c, %t : tensor<i1>\n"
        "    stablehlo.return %r : tensor<i1>\n"
      : "    stablehlo.return %c : tensor<i1>\n";
  return "func.func @main(%x: tensor<12x" + type + ">, %y: tensor<12xi32>) -> (tensor<12x" + type +
         ">, tensor<12xi32>) {\n"
         "  %0:2 = \"stablehlo.sort\"(%x, %y) ({\n"
         "  ^bb0(%a: tensor<" + type + ">, %b: tensor<" + type + ">, %i: tensor<i32>, %j: tensor<i32>):\n"
         "    %c = stablehlo.compare " + direction + ", %b, %a : (tensor<" + type + ">, tensor<" + type +
         ">) -> tensor<i1>\n" + body +
         "  }) {dimension = 0 : i64, is_stable = true} : (tensor<12x" + type + ">, tensor<12xi32>) -> (tensor<12x" +
         type + ">, tensor<12xi32>)\n"
         "  func.return %0#0, %0#1 : tensor<12x" + type + ">, tensor<12xi32>\n}\n";
}

InterpValues Sort(const std::string& type, const std::string& direction, bool wrapped, const InterpValues& inputs) {
  auto module = frontend::ParseModule(Program(type, direction, wrapped));
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  auto result = RunFunction(**module, "main", inputs);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? result->outputs : InterpValues{};
}

TEST(SortFastPathTest, MatchesRegionEvaluation) {
  for (const std::string type : {"f32", "bf16", "i8", "ui16"}) {
    const ir::ElementType element = *ir::ParseElementTypeName(type);
    ir::Literal keys = *ir::Literal::Create(ir::Type::Tensor(element, {12}));
    ir::Literal ids = *ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS32, {12}));
    const double values[] = {3, -0.0, NAN, 1, 0.0, -5, 3, NAN, 100, -INFINITY, 1, 7};
    for (int i = 0; i < 12; ++i) {
      if (ir::IsFloat(element)) {
        keys.SetFloat(i, values[i]);
      } else {
        keys.SetInt(i, static_cast<int64_t>(i * 37 % 11) - 4);  // ties and negatives
      }
      ids.SetInt(i, i);
    }
    const InterpValues inputs = {InterpValue::Tensor(keys), InterpValue::Tensor(ids)};
    for (const std::string direction : {"LT", "GT"}) {
      InterpValues fast = Sort(type, direction, false, inputs);
      InterpValues slow = Sort(type, direction, true, inputs);
      ASSERT_EQ(fast.size(), 2u);
      ASSERT_EQ(slow.size(), 2u);
      EXPECT_TRUE(fast[0].literal() == slow[0].literal()) << type << " " << direction;
      EXPECT_TRUE(fast[1].literal() == slow[1].literal()) << type << " " << direction << ": "
                                                          << fast[1].ToString() << " vs " << slow[1].ToString();
    }
  }
}

}  // namespace
}  // namespace vkhlo::interp
