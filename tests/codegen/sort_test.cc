// stablehlo.sort on the device (codegen/sort) against the interpreter: comparators of several
// shapes (ascending, descending, multi-key, total order with NaNs), payloads of every storage
// width, any dimension, stability with many equal keys, rows longer than one local block
// (merge passes), and sizes 0 and 1; top_k (slices of the first k of a sort) through the
// selection kernel with ties, NaNs, other dimensions and k at the kernel's limit and beyond, and
// which sorts take it. Results must be bit-identical.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "codegen/sort/top_k.h"
#include "frontend/parser.h"
#include "ir/walk.h"
#include "tests/support/runtime_test_util.h"

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

// Sorting moves values, it never computes them: NaNs keep their sign and payload and zeros
// their sign, bit for bit (data movement carries every bit; the comparison below treats any NaN
// as equal, so it compares raw bytes). JAX's comparator canonicalizes -0 and NaNs inside the
// comparator only; top_k sorts by total order.
TEST(SortTest, NaNSignsAndPayloadsSurviveBitForBit) {
  for (const char* type : {"f32", "f64", "f16", "bf16"}) {
    for (int64_t n : {300, 5000}) {
      SCOPED_TRACE(fmt::format("{} x {}", type, n));
      const std::string tensor = fmt::format("tensor<2x{}x{}>", n, type), scalar = fmt::format("tensor<{}>", type);
      const std::string text = fmt::format(R"(
func.func @main(%x: {0}) -> ({0}, {0}) {{
  %s = "stablehlo.sort"(%x) ({{
  ^bb0(%a: {1}, %b: {1}):
    %zero = stablehlo.constant dense<0.0> : {1}
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cnan = stablehlo.convert %nan : (tensor<f32>) -> {1}
    %az = stablehlo.compare EQ, %a, %zero, FLOAT : ({1}, {1}) -> tensor<i1>
    %a1 = stablehlo.select %az, %zero, %a : tensor<i1>, {1}
    %an = stablehlo.compare NE, %a, %a, FLOAT : ({1}, {1}) -> tensor<i1>
    %a2 = stablehlo.select %an, %cnan, %a1 : tensor<i1>, {1}
    %bz = stablehlo.compare EQ, %b, %zero, FLOAT : ({1}, {1}) -> tensor<i1>
    %b1 = stablehlo.select %bz, %zero, %b : tensor<i1>, {1}
    %bn = stablehlo.compare NE, %b, %b, FLOAT : ({1}, {1}) -> tensor<i1>
    %b2 = stablehlo.select %bn, %cnan, %b1 : tensor<i1>, {1}
    %r = stablehlo.compare LT, %a2, %b2, TOTALORDER : ({1}, {1}) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = 1 : i64, is_stable = true}} : ({0}) -> {0}
  %t = "stablehlo.sort"(%x) ({{
  ^bb0(%a: {1}, %b: {1}):
    %r = stablehlo.compare GT, %a, %b, TOTALORDER : ({1}, {1}) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = 1 : i64, is_stable = true}} : ({0}) -> {0}
  func.return %s, %t : {0}, {0}
}}
)",
                                           tensor, scalar);
      std::mt19937_64 rng(static_cast<uint64_t>(n));
      auto t = frontend::ParseType(tensor);
      ASSERT_TRUE(t.ok());
      ir::Literal x = testing::RandomLiteral(*t, rng);  // edge values, NaNs of both signs
      const int bits = ir::BitWidth(t->element_type());
      const uint64_t sign = uint64_t{1} << (bits - 1);
      const uint64_t quiet_nan = bits == 64 ? 0x7FF8000000000001ull : bits == 32 ? 0x7FC00001u : bits == 16 && std::string(type) == "f16" ? 0x7E01u : 0x7FC1u;
      for (int64_t i = 0; i < x.num_elements(); i += 7) x.SetBits(i, (i / 7) % 2 ? quiet_nan | sign : quiet_nan + (i % 3));
      auto both = testing::RunOnBoth(text, {x});
      ASSERT_TRUE(both.ok()) << both.status().ToString();
      for (size_t k = 0; k < 2; ++k) {
        const auto v = both->vulkan[k].raw(), r = both->reference[k].raw();
        ASSERT_EQ(v.size(), r.size());
        int64_t first = -1;
        for (int64_t i = 0; i < both->vulkan[k].num_elements() && first < 0; ++i) {
          if (both->vulkan[k].GetBits(i) != both->reference[k].GetBits(i)) first = i;
        }
        EXPECT_EQ(first, -1) << "result " << k << " differs in raw bits at element " << first << ": device 0x"
                             << std::hex << both->vulkan[k].GetBits(std::max<int64_t>(first, 0)) << ", interpreter 0x"
                             << both->reference[k].GetBits(std::max<int64_t>(first, 0));
        int64_t negative_nans = 0;
        for (int64_t i = 0; i < both->vulkan[k].num_elements(); ++i) {
          const uint64_t b = both->vulkan[k].GetBits(i);
          negative_nans += (b & sign) && std::isnan(both->vulkan[k].GetFloat(i));
        }
        EXPECT_GT(negative_nans, 0) << "result " << k << " lost every NaN's sign";
      }
    }
  }
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

// chlo.top_k as the chlo pass decomposes it (src/passes/chlo/top_k.cc: iota, a stable sort of
// (values, iota) by GT, TOTALORDER for floats, slices of the first k; the interpreter runs only
// decomposed programs): keys with many ties (integers in a small range; the stable order keeps
// the lower index first) or random bits with NaNs, infinities and signed zeros, several k (64
// is the kernel's limit, 65 sorts whole rows), rank 1 and 3.
void CheckTopK(const std::string& dims, const std::string& type, int64_t k, int key_range, uint64_t seed) {
  const std::string in = fmt::format("tensor<{}x{}>", dims, type);
  const std::string iota = fmt::format("tensor<{}xi32>", dims);
  const size_t x_pos = dims.rfind('x');
  const std::string out_dims = dims.substr(0, x_pos == std::string::npos ? 0 : x_pos + 1);
  const std::string vals = fmt::format("tensor<{}{}x{}>", out_dims, k, type);
  const std::string idx = fmt::format("tensor<{}{}xi32>", out_dims, k);
  std::vector<int64_t> shape;
  for (size_t p = 0; p != std::string::npos;) {
    const size_t x = dims.find('x', p);
    shape.push_back(std::stoll(dims.substr(p, x == std::string::npos ? x : x - p)));
    p = x == std::string::npos ? x : x + 1;
  }
  std::vector<std::string> ranges;
  for (size_t d = 0; d < shape.size(); ++d) ranges.push_back(fmt::format("0:{}", d + 1 == shape.size() ? k : shape[d]));
  const std::string text = fmt::format(
      "func.func @main(%x: {0}) -> ({1}, {2}) {{\n"
      "  %i = stablehlo.iota dim = {3} : {4}\n"
      "  %s:2 = \"stablehlo.sort\"(%x, %i) ({{\n"
      "  ^bb0(%a: tensor<{5}>, %b: tensor<{5}>, %c: tensor<i32>, %d: tensor<i32>):\n"
      "    %r = stablehlo.compare GT, %a, %b{6} : (tensor<{5}>, tensor<{5}>) -> tensor<i1>\n"
      "    stablehlo.return %r : tensor<i1>\n"
      "  }}) {{dimension = {3} : i64, is_stable = true}} : ({0}, {4}) -> ({0}, {4})\n"
      "  %v = stablehlo.slice %s#0 [{7}] : ({0}) -> {1}\n"
      "  %k = stablehlo.slice %s#1 [{7}] : ({4}) -> {2}\n"
      "  func.return %v, %k : {1}, {2}\n}}\n",
      in, vals, idx, shape.size() - 1, iota, type, type[0] == 'f' ? ", TOTALORDER" : "", fmt::join(ranges, ", "));
  std::mt19937_64 rng(seed);
  auto t = frontend::ParseType(in);
  ASSERT_TRUE(t.ok());
  ir::Literal x = testing::RandomLiteral(*t, rng);
  if (key_range > 0) {
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      const int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(key_range));
      if (ir::IsFloat(t->element_type())) {
        x.SetFloat(i, static_cast<double>(v) - key_range / 2);
      } else {
        x.SetInt(i, v - key_range / 2);
      }
    }
  }
  auto both = testing::RunOnBoth(text, {x});
  ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  for (size_t r = 0; r < 2; ++r) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[r], both->reference[r], &why)) << r << ": " << why << "\n" << text;
  }
}

TEST(SortTest, TopKSelectionEqualsTheStableSortsPrefix) {
  CheckTopK("16x3000", "f32", 8, 0, 1);     // random bits: NaNs, infinities, zeros
  CheckTopK("16x3000", "f32", 8, 5, 2);     // ties everywhere
  CheckTopK("7x513", "i32", 1, 3, 3);
  CheckTopK("4x1000", "f32", 64, 40, 4);    // the kernel's largest k
  CheckTopK("4x1000", "f32", 65, 40, 5);    // beyond: whole rows sorted
  CheckTopK("2x3x700", "i64", 5, 0, 6);
  CheckTopK("20000", "f64", 3, 0, 7);
  CheckTopK("9x40", "f16", 4, 6, 8);        // packed payload: whole rows sorted
}

// Slices of the first k along a dimension that is not the last, of some results only.
TEST(SortTest, TopKAlongAnInnerDimension) {
  const std::string text = R"(
func.func @main(%x: tensor<900x5xf32>, %y: tensor<900x5xui64>) -> (tensor<3x5xf32>, tensor<7x5xui64>) {
  %s:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<ui64>, %d: tensor<ui64>):
    %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<900x5xf32>, tensor<900x5xui64>) -> (tensor<900x5xf32>, tensor<900x5xui64>)
  %v = stablehlo.slice %s#0 [0:3, 0:5] : (tensor<900x5xf32>) -> tensor<3x5xf32>
  %k = stablehlo.slice %s#1 [0:7, 0:5] : (tensor<900x5xui64>) -> tensor<7x5xui64>
  func.return %v, %k : tensor<3x5xf32>, tensor<7x5xui64>
}
)";
  std::mt19937_64 rng(9);
  std::vector<ir::Literal> inputs;
  for (const char* t : {"tensor<900x5xf32>", "tensor<900x5xui64>"}) {
    auto type = frontend::ParseType(t);
    ASSERT_TRUE(type.ok());
    inputs.push_back(testing::RandomLiteral(*type, rng));
  }
  for (int64_t i = 0; i < inputs[0].num_elements(); ++i) inputs[0].SetFloat(i, static_cast<double>(rng() % 50));
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  for (size_t r = 0; r < 2; ++r) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[r], both->reference[r], &why)) << r << ": " << why;
  }
}

// Which sorts may skip all but the first k: only those whose every use is such a slice.
TEST(SortTest, SortedPrefixNeededOnlyForPrefixSlices) {
  auto prefix = [](const std::string& uses, const std::string& results) -> std::optional<int64_t> {
    const std::string text = fmt::format(R"(
func.func @main(%x: tensor<4x50xf32>) -> ({1}) {{
  %s = "stablehlo.sort"(%x) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = 1 : i64}} : (tensor<4x50xf32>) -> tensor<4x50xf32>
{0}
}}
)", uses, results);
    auto module = frontend::ParseModule(text);
    EXPECT_TRUE(module.ok()) << module.status().ToString() << text;
    if (!module.ok()) return std::nullopt;
    const ir::Operation* sort = nullptr;
    ir::WalkOps(**module, [&](ir::Operation& op) {
      if (op.code() == ir::OpCode::kSort) sort = &op;
    });
    EXPECT_NE(sort, nullptr);
    return codegen::SortedPrefixNeeded(*sort, 1);
  };
  EXPECT_EQ(prefix("  %a = stablehlo.slice %s [0:4, 0:3] : (tensor<4x50xf32>) -> tensor<4x3xf32>\n"
                   "  %b = stablehlo.slice %s [0:4, 0:9] : (tensor<4x50xf32>) -> tensor<4x9xf32>\n"
                   "  func.return %a, %b : tensor<4x3xf32>, tensor<4x9xf32>",
                   "tensor<4x3xf32>, tensor<4x9xf32>"),
            std::optional<int64_t>(9));
  // Not from 0, strided, part of another dimension, or the whole result returned: no.
  EXPECT_EQ(prefix("  %a = stablehlo.slice %s [0:4, 1:3] : (tensor<4x50xf32>) -> tensor<4x2xf32>\n"
                   "  func.return %a : tensor<4x2xf32>", "tensor<4x2xf32>"),
            std::nullopt);
  EXPECT_EQ(prefix("  %a = stablehlo.slice %s [0:4, 0:6:2] : (tensor<4x50xf32>) -> tensor<4x3xf32>\n"
                   "  func.return %a : tensor<4x3xf32>", "tensor<4x3xf32>"),
            std::nullopt);
  EXPECT_EQ(prefix("  %a = stablehlo.slice %s [0:2, 0:3] : (tensor<4x50xf32>) -> tensor<2x3xf32>\n"
                   "  func.return %a : tensor<2x3xf32>", "tensor<2x3xf32>"),
            std::nullopt);
  EXPECT_EQ(prefix("  %a = stablehlo.slice %s [0:4, 0:3] : (tensor<4x50xf32>) -> tensor<4x3xf32>\n"
                   "  func.return %a, %s : tensor<4x3xf32>, tensor<4x50xf32>", "tensor<4x3xf32>, tensor<4x50xf32>"),
            std::nullopt);
}

}  // namespace
}  // namespace vkhlo
