// stablehlo.sort on the device (codegen/sort) against the interpreter: comparators of several
// shapes (ascending, descending, multi-key, total order with NaNs), payloads of every storage
// width, any dimension, stability with many equal keys, rows longer than one local block
// (merge passes), and sizes 0 and 1. Results must be bit-identical.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "frontend/parser.h"
#include "tests/codegen/runtime_test_util.h"

namespace vkhlo {
namespace {

using ir::ElementType;

struct SortCase {
  std::string dims;                       // "5x300"
  std::vector<std::string> types;         // operand element types
  std::string comparator;                 // region body; arguments %a0 %b0 %a1 %b1 ...; returns %r
  int64_t dimension = 0;
  int key_range = 0;                      // > 0: operand 0 holds integers in [0, key_range)
  bool random_bits = false;               // operand 0 from RandomLiteral (edge values, NaN)
};

std::string Program(const SortCase& c) {
  std::vector<std::string> args, types, results, scalar_args;
  for (size_t k = 0; k < c.types.size(); ++k) {
    const std::string t = fmt::format("tensor<{}x{}>", c.dims, c.types[k]);
    args.push_back(fmt::format("%x{}: {}", k, t));
    types.push_back(t);
    results.push_back(fmt::format("%s#{}", k));
    scalar_args.push_back(fmt::format("%a{0}: tensor<{1}>, %b{0}: tensor<{1}>", k, c.types[k]));
  }
  std::vector<std::string> operands;
  for (size_t k = 0; k < c.types.size(); ++k) operands.push_back(fmt::format("%x{}", k));
  return fmt::format(
      "func.func @main({0}) -> ({1}) {{\n"
      "  %s:{2} = \"stablehlo.sort\"({3}) ({{\n"
      "  ^bb0({4}):\n{5}\n"
      "    stablehlo.return %r : tensor<i1>\n"
      "  }}) {{dimension = {6} : i64, is_stable = true}} : ({1}) -> ({1})\n"
      "  func.return {7} : {1}\n}}\n",
      fmt::join(args, ", "), fmt::join(types, ", "), c.types.size(), fmt::join(operands, ", "),
      fmt::join(scalar_args, ", "), c.comparator, c.dimension, fmt::join(results, ", "));
}

void Check(const SortCase& c, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  const std::string text = Program(c);
  std::vector<ir::Literal> inputs;
  for (size_t k = 0; k < c.types.size(); ++k) {
    auto type = frontend::ParseType(fmt::format("tensor<{}x{}>", c.dims, c.types[k]));
    ASSERT_TRUE(type.ok()) << type.status().ToString();
    ir::Literal l = testing::RandomLiteral(*type, rng);
    const ElementType t = type->element_type();
    if (k == 0 && !c.random_bits) {
      // Keys without NaN (a comparator on floats with NaN is no strict weak order).
      for (int64_t i = 0; i < l.num_elements(); ++i) {
        const int64_t v = c.key_range > 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(c.key_range))
                                          : static_cast<int64_t>(rng() % 2001) - 1000;
        if (ir::IsFloat(t)) {
          l.SetFloat(i, static_cast<double>(v) / 8);
        } else {
          l.SetInt(i, ir::IsUnsignedInteger(t) ? std::abs(v) : v);
        }
      }
    }
    inputs.push_back(std::move(l));
  }
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  for (size_t k = 0; k < both->vulkan.size(); ++k) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[k], both->reference[k], &why)) << "result " << k << ": " << why << "\n" << text;
  }
}

std::string Simple(const std::string& direction, const std::string& type, const std::string& compare_type = "") {
  return fmt::format("    %r = stablehlo.compare {}, %a0, %b0{} : (tensor<{}>, tensor<{}>) -> tensor<i1>", direction,
                     compare_type.empty() ? "" : ", " + compare_type, type, type);
}

TEST(SortTest, AscendingAndDescendingAlongEachDimension) {
  const char* types[] = {"f32", "ui8", "bf16", "i16"};
  for (int64_t dim = 0; dim < 4; ++dim) {
    const char* type = types[dim];
    SCOPED_TRACE(fmt::format("{} dimension {}", type, dim % 3));
    Check({"5x33x7", {type, "i32"}, Simple(dim % 2 ? "GT" : "LT", type), dim % 3});
  }
}

TEST(SortTest, WideTypesAndPayloads) {
  Check({"4x100", {"i64", "f64", "complex<f32>", "i8"}, Simple("LT", "i64"), 1});
  Check({"4x100", {"f64", "complex<f64>", "ui16"}, Simple("GT", "f64"), 1});
  Check({"3x50", {"ui64", "i1"}, Simple("LT", "ui64"), 1});
}

TEST(SortTest, TotalOrderWithNaNs) {
  SortCase c{"6x200", {"f32", "ui8"}, Simple("LT", "f32", "TOTALORDER"), 1};
  c.random_bits = true;
  Check(c);
  SortCase h{"3x90", {"f16"}, Simple("GT", "f16", "TOTALORDER"), 1};
  h.random_bits = true;
  Check(h);
}

TEST(SortTest, MultiKeyComparator) {
  // Key 0 ascending, then key 1 descending, then key 2 ascending.
  const std::string int_cmp =
      "    %lt0 = stablehlo.compare LT, %a0, %b0 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %eq0 = stablehlo.compare EQ, %a0, %b0 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %gt1 = stablehlo.compare GT, %a1, %b1 : (tensor<i8>, tensor<i8>) -> tensor<i1>\n"
      "    %t3 = stablehlo.and %eq0, %gt1 : tensor<i1>\n"
      "    %r = stablehlo.or %lt0, %t3 : tensor<i1>";
  Check({"2x700", {"i32", "i8", "ui16"}, int_cmp, 1, 4});
  // A comparator reading only a later operand (operand 1: random i32 bits).
  Check({"3x300", {"i16", "i32"}, "    %r = stablehlo.compare LT, %a1, %b1 : (tensor<i32>, tensor<i32>) -> tensor<i1>", 1});
}

TEST(SortTest, StableWithManyEqualKeys) {
  Check({"4x3000", {"i32", "i32"}, Simple("LT", "i32"), 1, 3});
  Check({"3000x3", {"f32", "i32"}, Simple("GT", "f32"), 0, 2});
}

TEST(SortTest, LongRowsUseMergePasses) {
  Check({"100000", {"f32", "i32"}, Simple("LT", "f32"), 0}, 7);
  Check({"2x5000x3", {"i32", "ui8"}, Simple("GT", "i32"), 1}, 8);
}

TEST(SortTest, EmptyAndSingleElementRows) {
  Check({"0x5", {"f32", "i32"}, Simple("LT", "f32"), 1});
  Check({"4x0", {"f32"}, Simple("LT", "f32"), 1});
  Check({"4x1", {"f32", "i8"}, Simple("LT", "f32"), 1});
  Check({"1", {"i32"}, Simple("LT", "i32"), 0});
}

// What chlo.top_k decomposes into (src/passes/chlo/top_k.cc): a sort of (values, iota) by
// value, descending in total order, then a slice of the first k, on rows of many blocks.
TEST(SortTest, TopKOnLongRows) {
  const std::string text = R"(
func.func @main(%x: tensor<2x5000xf32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<2x5000xi32>
  %s:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x5000xf32>, tensor<2x5000xi32>) -> (tensor<2x5000xf32>, tensor<2x5000xi32>)
  %v = stablehlo.slice %s#0 [0:2, 0:8] : (tensor<2x5000xf32>) -> tensor<2x8xf32>
  %k = stablehlo.slice %s#1 [0:2, 0:8] : (tensor<2x5000xi32>) -> tensor<2x8xi32>
  func.return %v, %k : tensor<2x8xf32>, tensor<2x8xi32>
}
)";
  std::mt19937_64 rng(3);
  auto type = frontend::ParseType("tensor<2x5000xf32>");
  ASSERT_TRUE(type.ok());
  ir::Literal x = testing::RandomLiteral(*type, rng);
  auto both = testing::RunOnBoth(text, {x});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  for (size_t k = 0; k < 2; ++k) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[k], both->reference[k], &why)) << k << ": " << why;
  }
}

}  // namespace
}  // namespace vkhlo
