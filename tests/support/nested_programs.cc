#include "tests/support/nested_programs.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

namespace vkhlo::testing {
namespace {

constexpr const char* kF32 = "tensor<f32>";

// Region-nesting levels (if, case, while): each level k opens a region holding level k + 1,
// adds 1 to what that level gives and returns it. `open` collects the text before the inner
// level, `close` (in reverse) the text after it.
class RegionNest {
 public:
  explicit RegionNest(int depth) : depth_(depth) {}

  std::string Body(Nesting kind) {
    std::string inner = "%x";
    std::vector<std::string> closes;
    std::string text;
    for (int k = 0; k < depth_; ++k) {
      Nesting level = kind;
      if (kind == Nesting::kMixed) level = k % 3 == 0 ? Nesting::kIf : k % 3 == 1 ? Nesting::kCase : Nesting::kWhile;
      auto [open, close, input, result] = Level(level, k, inner);
      text += open;
      closes.push_back(close);
      inner = input;
      results_.push_back(result);
    }
    // The innermost level's value is its input; every level adds 1 on the way out.
    for (int k = depth_ - 1; k >= 0; --k) {
      text += fmt::format("  %s{0} = stablehlo.add {1}, %one : {2}\n", k, inner, kF32);
      text += closes[static_cast<size_t>(k)];
      inner = results_[static_cast<size_t>(k)];
    }
    return text + fmt::format("  func.return {} : {}\n", inner, kF32);
  }

 private:
  struct LevelText {
    std::string open, close;
    std::string input;   // the value the inner level starts from
    std::string result;  // this level's result, in the enclosing block
  };

  // if / case: the first branch holds the inner level, the second returns `outer`.
  static LevelText Branches(std::string_view op, std::string_view selector, int k, const std::string& outer) {
    const std::string_view value = selector.substr(0, selector.find(' '));
    const std::string_view type = selector.substr(selector.rfind(' ') + 1);
    return {fmt::format("  %r{0} = \"{1}\"({2}) ({{\n", k, op, value),
            fmt::format("  \"stablehlo.return\"(%s{0}) : ({1}) -> ()\n  }}, {{\n"
                        "  \"stablehlo.return\"({2}) : ({1}) -> ()\n  }}) : ({3}) -> {1}\n",
                        k, kF32, outer, type),
            outer, fmt::format("%r{}", k)};
  }

  static LevelText Level(Nesting kind, int k, const std::string& outer) {
    switch (kind) {
      case Nesting::kIf:
        return Branches("stablehlo.if", "%p : tensor<i1>", k, outer);
      case Nesting::kCase:
        return Branches("stablehlo.case", "%sel : tensor<i32>", k, outer);
      case Nesting::kWhile:
      default:
        return {fmt::format("  %r{0}:2 = \"stablehlo.while\"(%zero, {1}) ({{\n"
                            "  ^bb0(%c{0}: tensor<i32>, %a{0}: {2}):\n"
                            "  %lt{0} = \"stablehlo.compare\"(%c{0}, %onei) {{comparison_direction = "
                            "#stablehlo<comparison_direction LT>}} : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                            "  \"stablehlo.return\"(%lt{0}) : (tensor<i1>) -> ()\n  }}, {{\n"
                            "  ^bb0(%d{0}: tensor<i32>, %b{0}: {2}):\n"
                            "  %e{0} = stablehlo.add %d{0}, %onei : tensor<i32>\n",
                            k, outer, kF32),
                fmt::format("  \"stablehlo.return\"(%e{0}, %s{0}) : (tensor<i32>, {1}) -> ()\n"
                            "  }}) : (tensor<i32>, {1}) -> (tensor<i32>, {1})\n",
                            k, kF32),
                fmt::format("%b{}", k), fmt::format("%r{}#1", k)};
    }
  }

  int depth_;
  std::vector<std::string> results_;
};

constexpr const char* kMainHeader =
    "func.func @main(%x: tensor<f32>, %sel: tensor<i32>) -> tensor<f32> {\n"
    "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %onei = stablehlo.constant dense<1> : tensor<i32>\n"
    "  %p = \"stablehlo.compare\"(%sel, %zero) {comparison_direction = #stablehlo<comparison_direction EQ>} : "
    "(tensor<i32>, tensor<i32>) -> tensor<i1>\n";

// @main calls @level0; @level<k> calls @level<k+1> (once, or from both branches of an if) and
// adds 1; the last level returns its argument plus 1.
std::string CallChain(int depth, bool from_both_branches) {
  std::string text = std::string(kMainHeader) +
                     "  %r = func.call @level0(%x, %p) : (tensor<f32>, tensor<i1>) -> tensor<f32>\n"
                     "  func.return %r : tensor<f32>\n}\n";
  for (int k = 0; k < depth; ++k) {
    text += fmt::format("func.func private @level{}(%a: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {{\n", k);
    text += "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n";
    std::string inner = "%a";
    if (k + 1 < depth) {
      const std::string call = fmt::format("func.call @level{}(%a, %p) : (tensor<f32>, tensor<i1>) -> tensor<f32>", k + 1);
      if (from_both_branches) {
        text += fmt::format(
            "  %i = \"stablehlo.if\"(%p) ({{\n  %t = {0}\n  \"stablehlo.return\"(%t) : (tensor<f32>) -> ()\n"
            "  }}, {{\n  %e = {0}\n  \"stablehlo.return\"(%e) : (tensor<f32>) -> ()\n"
            "  }}) : (tensor<i1>) -> tensor<f32>\n",
            call);
        inner = "%i";
      } else {
        text += fmt::format("  %c = {}\n", call);
        inner = "%c";
      }
    }
    text += fmt::format("  %s = stablehlo.add {}, %one : tensor<f32>\n  func.return %s : tensor<f32>\n}}\n", inner);
  }
  return text;
}

}  // namespace

const char* NestingName(Nesting kind) {
  switch (kind) {
    case Nesting::kIf:
      return "if";
    case Nesting::kCase:
      return "case";
    case Nesting::kWhile:
      return "while";
    case Nesting::kCall:
      return "call";
    case Nesting::kMixed:
      return "mixed";
    case Nesting::kCallFromBothBranches:
      return "call_from_both_branches";
  }
  return "?";
}

std::string NestedProgram(Nesting kind, int depth) {
  if (kind == Nesting::kCall) return CallChain(depth, false);
  if (kind == Nesting::kCallFromBothBranches) return CallChain(depth, true);
  return std::string(kMainHeader) + RegionNest(depth).Body(kind) + "}\n";
}

}  // namespace vkhlo::testing
