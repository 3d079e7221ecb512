// canonicalize's convert-chain rule against the interpreter, for every pair of element types:
// convert(convert(x : A) : B) : C is rewritten only when that is exact, so the program must give
// identical bits before and after canonicalize on every value of A (all bit patterns of types
// of up to 16 bits; edge values otherwise).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "passes/pass_registry.h"
#include "tests/passes/interp_compare.h"

namespace vkhlo {
namespace {

using ir::ElementType;

std::vector<ElementType> Types() {
  std::vector<ElementType> types;
  for (int t = 0; t < ir::kNumElementTypes; ++t) types.push_back(static_cast<ElementType>(t));
  return types;
}

class ConvertChain : public ::testing::TestWithParam<ElementType> {};

TEST_P(ConvertChain, RewrittenOnlyWhenExact) {
  const ElementType a = GetParam();
  const ir::Literal input = testing::AllValues(a);
  const std::string n = std::to_string(input.num_elements());
  const std::string ta = "tensor<" + n + "x" + std::string(ir::ElementTypeName(a)) + ">";
  auto pass = passes::CreatePass("canonicalize");
  ASSERT_TRUE(pass.ok());
  int rewritten = 0;
  for (ElementType b : Types()) {
    for (ElementType c : {a, ElementType::kF32, ElementType::kF16, ElementType::kS32, ElementType::kU8,
                          ElementType::kI1, ElementType::kF8E4M3FN, ElementType::kC64}) {
      const std::string tb = "tensor<" + n + "x" + std::string(ir::ElementTypeName(b)) + ">";
      const std::string tc = "tensor<" + n + "x" + std::string(ir::ElementTypeName(c)) + ">";
      const std::string text = "func.func @main(%x: " + ta + ") -> " + tc + " {\n" +
                               "  %b = stablehlo.convert %x : (" + ta + ") -> " + tb + "\n" +
                               "  %c = stablehlo.convert %b : (" + tb + ") -> " + tc + "\n" +
                               "  return %c : " + tc + "\n}\n";
      SCOPED_TRACE(text);
      auto before = frontend::ParseModule(text);
      auto after = frontend::ParseModule(text);
      ASSERT_TRUE(before.ok() && after.ok()) << before.status().message();
      ASSERT_TRUE((*pass)->Run(**after).ok());
      interp::InterpValues arguments = {interp::InterpValue::Tensor(input)};
      auto expected = interp::RunFunction(**before, "main", arguments);
      ASSERT_TRUE(expected.ok()) << expected.status().message();
      auto actual = interp::RunFunction(**after, "main", arguments);
      ASSERT_TRUE(actual.ok()) << actual.status().message();
      ASSERT_EQ(testing::CompareExactly(expected->outputs, actual->outputs), "");
      const auto& ops = (*after)->FindFunction("main")->body().front().operations();
      rewritten += ops.size() < 3 ? 1 : 0;
    }
  }
  // Converting to a type and back always simplifies at least for B = A.
  EXPECT_GT(rewritten, 0);
}

INSTANTIATE_TEST_SUITE_P(From, ConvertChain, ::testing::ValuesIn(Types()),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           std::string name(ir::ElementTypeName(info.param));
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
