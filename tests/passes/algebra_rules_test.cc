// canonicalize's algebraic rules against the interpreter, for every element type: x op c and
// c op x for the constants the rules look for (0, -0.0, 1, -1, all ones), x op x, and the
// involutions, each run before and after canonicalize on every value of the type (all bit
// patterns up to 16 bits, edge values otherwise). The results must be identical bit for bit.
#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "passes/pass_registry.h"
#include "tests/passes/interp_compare.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using ir::ElementType;

std::vector<std::string> Constants(ElementType type) {
  if (ir::IsBoolean(type)) return {"true", "false"};
  if (ir::IsComplex(type)) return {"(0.0, 0.0)", "(-0.0, -0.0)", "(1.0, 0.0)", "(-0.0, 0.0)"};
  if (ir::IsFloat(type)) return {"0.0", "-0.0", "1.0", "-1.0"};
  if (ir::IsUnsignedInteger(type)) {
    const int width = ir::BitWidth(type);
    return {"0", "1", width >= 64 ? "18446744073709551615" : std::to_string((uint64_t{1} << width) - 1)};
  }
  return {"0", "1", "-1"};
}

std::string CompareType(ElementType type) {
  if (ir::IsFloat(type) || ir::IsComplex(type)) return "FLOAT";
  return ir::IsSignedInteger(type) ? "SIGNED" : "UNSIGNED";
}

// Programs `@main(%x) -> result`; those the verifier rejects for the type are skipped later.
std::vector<std::string> Programs(ElementType type, int64_t n) {
  const std::string t = "tensor<" + std::to_string(n) + "x" + std::string(ir::ElementTypeName(type)) + ">";
  const std::string b = "tensor<" + std::to_string(n) + "xi1>";
  auto program = [&](const std::string& body, const std::string& result_type) {
    return "func.func @main(%x: " + t + ") -> " + result_type + " {\n" + body + "  return %r : " +
           result_type + "\n}\n";
  };
  std::vector<std::string> programs;
  for (const char* op : {"add", "subtract", "multiply", "divide", "and", "or", "xor", "shift_left",
                         "shift_right_logical", "shift_right_arithmetic", "maximum", "minimum"}) {
    const std::string name = std::string("\"stablehlo.") + op + "\"";
    for (const std::string& c : Constants(type)) {
      const std::string constant = "  %c = stablehlo.constant dense<" + c + "> : " + t + "\n";
      const std::string types = " : (" + t + ", " + t + ") -> " + t + "\n";
      programs.push_back(program(constant + "  %r = " + name + "(%x, %c)" + types, t));
      programs.push_back(program(constant + "  %r = " + name + "(%c, %x)" + types, t));
    }
    programs.push_back(program("  %r = " + name + "(%x, %x) : (" + t + ", " + t + ") -> " + t + "\n", t));
  }
  for (const char* op : {"negate", "not", "abs"}) {
    const std::string name = std::string("\"stablehlo.") + op + "\"";
    programs.push_back(program("  %y = " + name + "(%x) : (" + t + ") -> " + t + "\n  %r = " + name +
                                   "(%y) : (" + t + ") -> " + t + "\n",
                               t));
  }
  for (const char* direction : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    programs.push_back(program("  %r = stablehlo.compare " + std::string(direction) + ", %x, %x, " +
                                   CompareType(type) + " : (" + t + ", " + t + ") -> " + b + "\n",
                               b));
  }
  return programs;
}

std::vector<ElementType> Types() {
  std::vector<ElementType> types;
  for (int t = 0; t < ir::kNumElementTypes; ++t) types.push_back(static_cast<ElementType>(t));
  return types;
}

class AlgebraRules : public ::testing::TestWithParam<ElementType> {};

TEST_P(AlgebraRules, AreExact) {
  const ElementType type = GetParam();
  const ir::Literal input = testing::AllValues(type);
  auto pass = passes::CreatePass("canonicalize");
  ASSERT_TRUE(pass.ok());
  int valid = 0, rewritten = 0;
  for (const std::string& text : Programs(type, input.num_elements())) {
    SCOPED_TRACE(text);
    auto before = frontend::ParseModule(text);
    if (!before.ok() || !verify::VerifyModule(**before).ok()) continue;  // op not defined for the type
    auto after = frontend::ParseModule(text);
    ASSERT_TRUE(after.ok());
    auto changed = (*pass)->Run(**after);
    ASSERT_TRUE(changed.ok()) << changed.status().message();
    interp::InterpValues arguments = {interp::InterpValue::Tensor(input)};
    auto expected = interp::RunFunction(**before, "main", arguments);
    if (!expected.ok()) continue;  // the interpreter does not evaluate it for this type
    ++valid;
    rewritten += *changed ? 1 : 0;
    auto actual = interp::RunFunction(**after, "main", arguments);
    ASSERT_TRUE(actual.ok()) << actual.status().message();
    EXPECT_EQ(testing::CompareExactly(expected->outputs, actual->outputs), "");
  }
  EXPECT_GT(valid, 0);
  // Every type has some identity (x * 1, x + 0, x & x, x == x, max(x, x), ...).
  EXPECT_GT(rewritten, 0);
}

INSTANTIATE_TEST_SUITE_P(Types, AlgebraRules, ::testing::ValuesIn(Types()),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           std::string name(ir::ElementTypeName(info.param));
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
