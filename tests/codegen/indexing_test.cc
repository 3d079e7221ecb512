// Indexing ops on the Vulkan device against the interpreter: gather and scatter with random
// dimension numbers (batching dimensions included) and index sets full of duplicates and
// out-of-bounds values, over several element and index types; select_and_scatter with random
// windows, strides and padding; dynamic_update_slice; the dynamic_* ops with constant shapes
// (and the clear error when a shape is not a constant).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ir/element_type.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using ir::ElementType;
using Dims = std::vector<int64_t>;

ir::Type TT(const Dims& dims, ElementType t) { return ir::Type::Tensor(t, dims); }

int64_t Rand(std::mt19937_64& rng, int64_t lo, int64_t hi) {  // [lo, hi]
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

std::string TensorType(const Dims& dims, ElementType t) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s + std::string(ir::ElementTypeName(t)) + ">";
}

std::string List(const Dims& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

// Random subset of `from` (in random order when `shuffle`, else sorted).
Dims Subset(std::mt19937_64& rng, Dims from, size_t count, bool shuffle) {
  std::shuffle(from.begin(), from.end(), rng);
  from.resize(std::min(count, from.size()));
  if (!shuffle) std::sort(from.begin(), from.end());
  return from;
}

// Index values mostly in [-2, limit + 2] (duplicates likely), sometimes far out of range.
ir::Literal RandomIndices(const Dims& dims, ElementType t, int64_t limit, std::mt19937_64& rng) {
  ir::Literal l = *ir::Literal::Create(TT(dims, t));
  (void)l.Expand();
  const bool is_unsigned = ir::IsUnsignedInteger(t);
  const int bits = ir::BitWidth(t);
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    int64_t v = Rand(rng, is_unsigned ? 0 : -2, limit + 2);
    if (Rand(rng, 0, 15) == 0) {
      const int64_t big = bits >= 64 ? (int64_t{1} << 40) + 3 : bits >= 32 ? int64_t{1} << 30 : 100;
      v = Rand(rng, 0, 1) || is_unsigned ? big : -big;
    }
    l.SetInt(i, v);
  }
  return l;
}

void ExpectSame(const testing::BothResults& both, const std::string& program) {
  ASSERT_EQ(both.vulkan.size(), both.reference.size());
  for (size_t i = 0; i < both.vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both.vulkan[i], both.reference[i], &why)) << "result " << i << ": " << why << "\n"
                                                                             << program;
  }
}

const ElementType kElementTypes[] = {ElementType::kF32, ElementType::kI1,  ElementType::kS8,  ElementType::kBF16,
                                     ElementType::kF64, ElementType::kC64, ElementType::kS64, ElementType::kF16,
                                     ElementType::kU16, ElementType::kC128};
const ElementType kIndexTypes[] = {ElementType::kS32, ElementType::kS64, ElementType::kU8, ElementType::kS16,
                                   ElementType::kU64, ElementType::kU32};

// Batch dimensions of start/scatter indices with the index vector inserted at `ivd`.
Dims IndicesDims(const Dims& batch, int64_t ivd, int64_t vector_size) {
  Dims dims = batch;
  dims.insert(dims.begin() + ivd, vector_size);
  return dims;
}

struct GatherCase {
  std::string program;
  std::vector<ir::Literal> inputs;
};

GatherCase RandomGather(std::mt19937_64& rng, ElementType et, ElementType it) {
  const int64_t rank = Rand(rng, 1, 3);
  Dims od(static_cast<size_t>(rank));
  for (int64_t& d : od) d = Rand(rng, 1, 5);
  Dims all(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) all[static_cast<size_t>(d)] = d;
  Dims operand_batching = rank >= 2 && Rand(rng, 0, 1) ? Subset(rng, all, 1, false) : Dims{};
  Dims rest;
  for (int64_t d : all) {
    if (operand_batching.empty() || d != operand_batching[0]) rest.push_back(d);
  }
  Dims start_index_map = Subset(rng, rest, static_cast<size_t>(Rand(rng, 1, static_cast<int64_t>(rest.size()))), true);
  Dims collapsed = Subset(rng, rest, static_cast<size_t>(Rand(rng, 0, static_cast<int64_t>(rest.size()))), false);
  Dims slice(static_cast<size_t>(rank));
  Dims window_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    const bool one = std::count(collapsed.begin(), collapsed.end(), d) || std::count(operand_batching.begin(), operand_batching.end(), d);
    slice[static_cast<size_t>(d)] = one ? 1 : Rand(rng, 1, od[static_cast<size_t>(d)]);
    if (!one) window_sizes.push_back(slice[static_cast<size_t>(d)]);
  }
  Dims batch(static_cast<size_t>(Rand(rng, 1, 2)));
  for (int64_t& b : batch) b = Rand(rng, 1, 4);
  const int64_t ivd = Rand(rng, 0, static_cast<int64_t>(batch.size()));
  Dims indices_batching;
  if (!operand_batching.empty()) {
    const int64_t b = Rand(rng, 0, static_cast<int64_t>(batch.size()) - 1);
    batch[static_cast<size_t>(b)] = od[static_cast<size_t>(operand_batching[0])];
    indices_batching.push_back(b < ivd ? b : b + 1);
  }
  const Dims id = IndicesDims(batch, ivd, static_cast<int64_t>(start_index_map.size()));
  const int64_t result_rank = static_cast<int64_t>(batch.size() + window_sizes.size());
  Dims result_all(static_cast<size_t>(result_rank));
  for (int64_t d = 0; d < result_rank; ++d) result_all[static_cast<size_t>(d)] = d;
  Dims offset_dims = Subset(rng, result_all, window_sizes.size(), false);
  Dims rd(static_cast<size_t>(result_rank));
  for (int64_t r = 0, b = 0, w = 0; r < result_rank; ++r) {
    const bool offset = std::count(offset_dims.begin(), offset_dims.end(), r) != 0;
    rd[static_cast<size_t>(r)] = offset ? window_sizes[static_cast<size_t>(w++)] : batch[static_cast<size_t>(b++)];
  }
  GatherCase c;
  c.program = fmt::format(
      "func.func @main(%a: {0}, %i: {1}) -> {2} {{\n"
      "  %g = \"stablehlo.gather\"(%a, %i) {{dimension_numbers = #stablehlo.gather<offset_dims = {3}, "
      "collapsed_slice_dims = {4}, operand_batching_dims = {5}, start_indices_batching_dims = {6}, "
      "start_index_map = {7}, index_vector_dim = {8}>, slice_sizes = array<i64: {9}>, indices_are_sorted = false}} "
      ": ({0}, {1}) -> {2}\n"
      "  func.return %g : {2}\n}}\n",
      TensorType(od, et), TensorType(id, it), TensorType(rd, et), List(offset_dims), List(collapsed),
      List(operand_batching), List(indices_batching), List(start_index_map), ivd, fmt::join(slice, ", "));
  c.inputs.push_back(testing::RandomLiteral(TT(od, et), rng));
  c.inputs.push_back(RandomIndices(id, it, *std::max_element(od.begin(), od.end()), rng));
  return c;
}

TEST(IndexingTest, GatherWithRandomDimensionNumbers) {
  std::mt19937_64 rng(7);
  for (int n = 0; n < 40; ++n) {
    const ElementType et = kElementTypes[static_cast<size_t>(n) % std::size(kElementTypes)];
    const ElementType it = kIndexTypes[static_cast<size_t>(n) % std::size(kIndexTypes)];
    GatherCase c = RandomGather(rng, et, it);
    auto both = testing::RunOnBoth(c.program, c.inputs);
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << c.program;
    ExpectSame(*both, c.program);
  }
}

// An update region for `et` whose result depends on the order updates are applied in.
std::string UpdateRegion(ElementType et, int variant) {
  const std::string t = TensorType({}, et);
  std::string body;
  if (variant == 0) {
    body = "    stablehlo.return %y : " + t + "\n";  // replace: the last update wins
  } else {
    const char* op = et == ElementType::kI1 ? "stablehlo.xor" : "stablehlo.add";
    body = fmt::format("    %s = {} %x, %y : {}\n    stablehlo.return %s : {}\n", op, t, t);
  }
  return fmt::format("  ^bb0(%x: {0}, %y: {0}):\n{1}", t, body);
}

struct ScatterCase {
  std::string program;
  std::vector<ir::Literal> inputs;
};

ScatterCase RandomScatter(std::mt19937_64& rng, ElementType et, ElementType it, int variant) {
  const int64_t rank = Rand(rng, 1, 3);
  Dims od(static_cast<size_t>(rank));
  for (int64_t& d : od) d = Rand(rng, 1, 5);
  Dims all(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) all[static_cast<size_t>(d)] = d;
  Dims input_batching = rank >= 2 && Rand(rng, 0, 1) ? Subset(rng, all, 1, false) : Dims{};
  Dims rest;
  for (int64_t d : all) {
    if (input_batching.empty() || d != input_batching[0]) rest.push_back(d);
  }
  Dims to_operand = Subset(rng, rest, static_cast<size_t>(Rand(rng, 1, static_cast<int64_t>(rest.size()))), true);
  Dims inserted = Subset(rng, rest, static_cast<size_t>(Rand(rng, 0, static_cast<int64_t>(rest.size()))), false);
  Dims window_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::count(inserted.begin(), inserted.end(), d) || std::count(input_batching.begin(), input_batching.end(), d)) {
      continue;
    }
    window_sizes.push_back(Rand(rng, 1, od[static_cast<size_t>(d)]));
  }
  Dims batch(static_cast<size_t>(Rand(rng, 1, 2)));
  for (int64_t& b : batch) b = Rand(rng, 1, 4);
  const int64_t ivd = Rand(rng, 0, static_cast<int64_t>(batch.size()));
  Dims indices_batching;
  if (!input_batching.empty()) {
    const int64_t b = Rand(rng, 0, static_cast<int64_t>(batch.size()) - 1);
    batch[static_cast<size_t>(b)] = od[static_cast<size_t>(input_batching[0])];
    indices_batching.push_back(b < ivd ? b : b + 1);
  }
  const Dims id = IndicesDims(batch, ivd, static_cast<int64_t>(to_operand.size()));
  const int64_t update_rank = static_cast<int64_t>(batch.size() + window_sizes.size());
  Dims update_all(static_cast<size_t>(update_rank));
  for (int64_t d = 0; d < update_rank; ++d) update_all[static_cast<size_t>(d)] = d;
  Dims window_dims = Subset(rng, update_all, window_sizes.size(), false);
  Dims ud(static_cast<size_t>(update_rank));
  for (int64_t u = 0, b = 0, w = 0; u < update_rank; ++u) {
    const bool window = std::count(window_dims.begin(), window_dims.end(), u) != 0;
    ud[static_cast<size_t>(u)] = window ? window_sizes[static_cast<size_t>(w++)] : batch[static_cast<size_t>(b++)];
  }
  ScatterCase c;
  c.program = fmt::format(
      "func.func @main(%a: {0}, %i: {1}, %u: {2}) -> {0} {{\n"
      "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({{\n{3}  }}) {{scatter_dimension_numbers = #stablehlo.scatter<"
      "update_window_dims = {4}, inserted_window_dims = {5}, input_batching_dims = {6}, "
      "scatter_indices_batching_dims = {7}, scatter_dims_to_operand_dims = {8}, index_vector_dim = {9}>, "
      "indices_are_sorted = false, unique_indices = false}} : ({0}, {1}, {2}) -> {0}\n"
      "  func.return %r : {0}\n}}\n",
      TensorType(od, et), TensorType(id, it), TensorType(ud, et), UpdateRegion(et, variant), List(window_dims),
      List(inserted), List(input_batching), List(indices_batching), List(to_operand), ivd);
  c.inputs.push_back(testing::RandomLiteral(TT(od, et), rng));
  c.inputs.push_back(RandomIndices(id, it, *std::max_element(od.begin(), od.end()), rng));
  c.inputs.push_back(testing::RandomLiteral(TT(ud, et), rng));
  return c;
}

TEST(IndexingTest, ScatterWithRandomDimensionNumbersAndDuplicates) {
  std::mt19937_64 rng(11);
  for (int n = 0; n < 30; ++n) {
    const ElementType et = kElementTypes[static_cast<size_t>(n) % std::size(kElementTypes)];
    const ElementType it = kIndexTypes[static_cast<size_t>(n / 2) % std::size(kIndexTypes)];
    ScatterCase c = RandomScatter(rng, et, it, n % 2);
    auto both = testing::RunOnBoth(c.program, c.inputs);
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << c.program;
    ExpectSame(*both, c.program);
  }
}

TEST(IndexingTest, VariadicScatterAppliesDuplicatesInIndexOrder) {
  // Two results updated together: (sum, the index of the last update applied).
  const std::string program = R"(
func.func @main(%a: tensor<5x3xbf16>, %b: tensor<5x3xi8>, %i: tensor<7x1xi32>, %u: tensor<7x3xbf16>, %v: tensor<7x3xi8>)
    -> (tensor<5x3xbf16>, tensor<5x3xi8>) {
  %r:2 = "stablehlo.scatter"(%a, %b, %i, %u, %v) ({
  ^bb0(%x: tensor<bf16>, %y: tensor<i8>, %p: tensor<bf16>, %q: tensor<i8>):
    %s = stablehlo.add %x, %p : tensor<bf16>
    %m = stablehlo.multiply %y, %q : tensor<i8>
    %t = stablehlo.add %m, %q : tensor<i8>
    stablehlo.return %s, %t : tensor<bf16>, tensor<i8>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}
     : (tensor<5x3xbf16>, tensor<5x3xi8>, tensor<7x1xi32>, tensor<7x3xbf16>, tensor<7x3xi8>) -> (tensor<5x3xbf16>, tensor<5x3xi8>)
  func.return %r#0, %r#1 : tensor<5x3xbf16>, tensor<5x3xi8>
}
)";
  std::mt19937_64 rng(3);
  std::vector<ir::Literal> inputs = {
      testing::RandomLiteral(TT({5, 3}, ElementType::kBF16), rng),
      testing::RandomLiteral(TT({5, 3}, ElementType::kS8), rng),
      *ir::Literal::Create(TT({7, 1}, ElementType::kS32)),
      testing::RandomLiteral(TT({7, 3}, ElementType::kBF16), rng),
      testing::RandomLiteral(TT({7, 3}, ElementType::kS8), rng)};
  const int64_t rows[] = {1, 3, 1, 5, 1, -1, 3};  // duplicates and out-of-bounds rows
  for (int64_t k = 0; k < 7; ++k) inputs[2].SetInt(k, rows[k]);
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
}

TEST(IndexingTest, IntegerAddMinMaxScatterRunsAtomicallyOverUpdates) {
  std::mt19937_64 rng(13);
  for (const char* combine : {"add", "minimum", "maximum"}) {
    for (ElementType et : {ElementType::kS32, ElementType::kU32}) {
      const std::string t = TensorType({}, et);
      const std::string program = fmt::format(R"(
func.func @main(%a: tensor<9x4x{0}>, %i: tensor<3x5x1xi64>, %u: tensor<3x5x4x{0}>) -> tensor<9x4x{0}> {{
  %r = "stablehlo.scatter"(%a, %i, %u) ({{
  ^bb0(%x: {1}, %y: {1}):
    %s = stablehlo.{2} %y, %x : {1}
    stablehlo.return %s : {1}
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<9x4x{0}>, tensor<3x5x1xi64>, tensor<3x5x4x{0}>) -> tensor<9x4x{0}>
  func.return %r : tensor<9x4x{0}>
}}
)", ir::ElementTypeName(et), t, combine);
      std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({9, 4}, et), rng), RandomIndices({3, 5, 1}, ElementType::kS64, 9, rng),
                                         testing::RandomLiteral(TT({3, 5, 4}, et), rng)};
      auto both = testing::RunOnBoth(program, inputs);
      ASSERT_TRUE(both.ok()) << both.status().ToString();
      ExpectSame(*both, program);
      EXPECT_EQ(both->stats.kernels_dispatched, 2u) << "copy, then one invocation per update";
    }
  }
}

TEST(IndexingTest, UniqueIndicesScatterRunsOverUpdates) {
  std::mt19937_64 rng(17);
  for (ElementType et : {ElementType::kF32, ElementType::kF64, ElementType::kC64, ElementType::kS64}) {
    const std::string t = TensorType({}, et);
    const std::string program = fmt::format(R"(
func.func @main(%a: tensor<4x7x{0}>, %i: tensor<6x2xi32>, %u: tensor<6x{0}>) -> tensor<4x7x{0}> {{
  %r = "stablehlo.scatter"(%a, %i, %u) ({{
  ^bb0(%x: {1}, %y: {1}):
    %s = stablehlo.multiply %x, %y : {1}
    %d = stablehlo.subtract %s, %y : {1}
    stablehlo.return %d : {1}
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0, 1],
      scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true}}
     : (tensor<4x7x{0}>, tensor<6x2xi32>, tensor<6x{0}>) -> tensor<4x7x{0}>
  func.return %r : tensor<4x7x{0}>
}}
)", ir::ElementTypeName(et), t);
    // Distinct positions (one out of bounds, skipped).
    ir::Literal indices = *ir::Literal::Create(TT({6, 2}, ElementType::kS32));
    const int64_t positions[6][2] = {{6, 3}, {0, 0}, {2, 1}, {7, 1}, {5, 0}, {3, 3}};
    for (int64_t k = 0; k < 6; ++k) {
      indices.SetInt(2 * k, positions[k][0]);
      indices.SetInt(2 * k + 1, positions[k][1]);
    }
    std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({4, 7}, et), rng), indices,
                                       testing::RandomLiteral(TT({6}, et), rng)};
    auto both = testing::RunOnBoth(program, inputs);
    ASSERT_TRUE(both.ok()) << both.status().ToString();
    ExpectSame(*both, program);
    EXPECT_EQ(both->stats.kernels_dispatched, 2u) << "copy, then one invocation per update";
  }
}

TEST(IndexingTest, RowScatterBucketsDuplicatesInIndexOrder) {
  // Rows addressed by start indices (inserted dimension 0), a window over the rest: bucketed by
  // row, each bucket sorted. One random index set, one sending every update to one row (a
  // bucket of 500: the in-bucket sort must restore index order exactly).
  std::mt19937_64 rng(19);
  for (ElementType et : {ElementType::kF32, ElementType::kBF16}) {
    for (int same_row = 0; same_row < 2; ++same_row) {
      const std::string t = TensorType({}, et);
      const std::string program = fmt::format(R"(
func.func @main(%a: tensor<40x6x{0}>, %i: tensor<500xi32>, %u: tensor<500x5x{0}>) -> tensor<40x6x{0}> {{
  %r = "stablehlo.scatter"(%a, %i, %u) ({{
  ^bb0(%x: {1}, %y: {1}):
    %s = stablehlo.add %x, %y : {1}
    stablehlo.return %s : {1}
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<40x6x{0}>, tensor<500xi32>, tensor<500x5x{0}>) -> tensor<40x6x{0}>
  func.return %r : tensor<40x6x{0}>
}}
)", ir::ElementTypeName(et), t);
      ir::Literal indices = RandomIndices({500}, ElementType::kS32, 40, rng);
      for (int64_t k = 0; same_row && k < 500; ++k) indices.SetInt(k, 7);
      std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({40, 6}, et), rng), indices,
                                         testing::RandomLiteral(TT({500, 5}, et), rng)};
      auto both = testing::RunOnBoth(program, inputs);
      ASSERT_TRUE(both.ok()) << both.status().ToString();
      ExpectSame(*both, program);
      EXPECT_EQ(both->stats.kernels_dispatched, 6u) << "zero, count, scan, place, sort, apply";
    }
  }
}

TEST(IndexingTest, SelectAndScatterWithRandomWindows) {
  std::mt19937_64 rng(5);
  const ElementType types[] = {ElementType::kF32, ElementType::kS32, ElementType::kBF16, ElementType::kS8,
                               ElementType::kF64};
  for (int n = 0; n < 15; ++n) {
    const ElementType et = types[static_cast<size_t>(n) % std::size(types)];
    const int64_t rank = Rand(rng, 1, 3);
    Dims od(static_cast<size_t>(rank)), window(od.size()), strides(od.size()), padding, sd(od.size());
    for (size_t d = 0; d < od.size(); ++d) {
      od[d] = Rand(rng, 2, 7);
      window[d] = Rand(rng, 1, std::min<int64_t>(3, od[d]));
      strides[d] = Rand(rng, 1, 3);
      const int64_t lo = Rand(rng, 0, 1), hi = Rand(rng, 0, 1);
      padding.push_back(lo);
      padding.push_back(hi);
      sd[d] = (od[d] + lo + hi - window[d]) / strides[d] + 1;
    }
    const std::string t = TensorType({}, et);
    auto PaddingRows = [](const Dims& p) {
      std::vector<std::string> rows;
      for (size_t d = 0; 2 * d < p.size(); ++d) rows.push_back(fmt::format("[{}, {}]", p[2 * d], p[2 * d + 1]));
      return fmt::format("[{}]", fmt::join(rows, ", "));
    };
    const char* direction = n % 2 ? "GE" : "LT";
    const std::string program = fmt::format(
        "func.func @main(%a: {0}, %s: {1}, %z: {2}) -> {0} {{\n"
        "  %r = \"stablehlo.select_and_scatter\"(%a, %s, %z) ({{\n"
        "  ^bb0(%x: {2}, %y: {2}):\n"
        "    %c = stablehlo.compare {3}, %x, %y : ({2}, {2}) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  }}, {{\n"
        "  ^bb0(%x: {2}, %y: {2}):\n"
        "    %c = stablehlo.add %x, %y : {2}\n"
        "    stablehlo.return %c : {2}\n"
        "  }}) {{window_dimensions = array<i64: {4}>, window_strides = array<i64: {5}>, "
        "padding = dense<{6}> : tensor<{7}x2xi64>}} : ({0}, {1}, {2}) -> {0}\n"
        "  func.return %r : {0}\n}}\n",
        TensorType(od, et), TensorType(sd, et), t, direction, fmt::join(window, ", "), fmt::join(strides, ", "),
        PaddingRows(padding),
        rank);
    // Small values: many ties, so the selection order matters.
    ir::Literal operand = *ir::Literal::Create(TT(od, et));
    for (int64_t i = 0; i < operand.num_elements(); ++i) {
      if (ir::IsFloat(et)) {
        operand.SetFloat(i, static_cast<double>(Rand(rng, 0, 3)));
      } else {
        operand.SetInt(i, Rand(rng, 0, 3));
      }
    }
    std::vector<ir::Literal> inputs = {operand, testing::RandomLiteral(TT(sd, et), rng),
                                       testing::RandomLiteral(TT({}, et), rng)};
    auto both = testing::RunOnBoth(program, inputs);
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << program;
    ExpectSame(*both, program);
  }
}

TEST(IndexingTest, DynamicUpdateSliceClampsItsStart) {
  std::mt19937_64 rng(9);
  for (ElementType it : {ElementType::kS64, ElementType::kU16, ElementType::kS8}) {
    const std::string t = TensorType({}, it);
    const std::string program = fmt::format(R"(
func.func @main(%a: tensor<6x5xi8>, %u: tensor<2x3xi8>, %i: {0}, %j: {0}) -> tensor<6x5xi8> {{
  %r = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<6x5xi8>, tensor<2x3xi8>, {0}, {0}) -> tensor<6x5xi8>
  func.return %r : tensor<6x5xi8>
}}
)", t);
    for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 0}, {3, 1}, {-7, 4}, {9, 65535}, {int64_t{1} << 40, 2}}) {
      std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({6, 5}, ElementType::kS8), rng),
                                         testing::RandomLiteral(TT({2, 3}, ElementType::kS8), rng),
                                         *ir::Literal::Create(TT({}, it)), *ir::Literal::Create(TT({}, it))};
      (void)inputs[2].Expand();
      (void)inputs[3].Expand();
      inputs[2].SetInt(0, i);  // wraps to the index type
      inputs[3].SetInt(0, j);
      auto both = testing::RunOnBoth(program, inputs);
      ASSERT_TRUE(both.ok()) << both.status().ToString();
      ExpectSame(*both, program);
    }
  }
}

TEST(IndexingTest, GatherFusesWithItsConsumer) {
  const std::string program = R"(
func.func @main(%a: tensor<8x4xf32>, %i: tensor<5x1xi32>) -> tensor<5x4xf32> {
  %g = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<8x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  %m = stablehlo.multiply %g, %g : tensor<5x4xf32>
  func.return %m : tensor<5x4xf32>
}
)";
  std::mt19937_64 rng(1);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({8, 4}, ElementType::kF32), rng),
                                     RandomIndices({5, 1}, ElementType::kS32, 8, rng)};
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
  EXPECT_EQ(both->stats.kernels_dispatched, 1u);
}

TEST(IndexingTest, DynamicOpsWithConstantShapesRunAsStatic) {
  const std::string program = R"(
func.func @main(%a: tensor<2x3xf32>, %p: tensor<f32>) -> (tensor<3x2xf32>, tensor<4x3xf32>, tensor<3x4xi32>, tensor<5x8xf32>) {
  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %r = stablehlo.dynamic_reshape %a, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %bs = stablehlo.constant dense<[4, 3]> : tensor<2xi32>
  %v = stablehlo.slice %a [0:1, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %b = stablehlo.dynamic_broadcast_in_dim %v, %bs, dims = [0, 1] : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  %is = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %is, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi32>
  %lo = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %d = stablehlo.dynamic_pad %a, %p, %lo, %hi, %in : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x8xf32>
  func.return %r, %b, %i, %d : tensor<3x2xf32>, tensor<4x3xf32>, tensor<3x4xi32>, tensor<5x8xf32>
}
)";
  std::mt19937_64 rng(2);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({2, 3}, ElementType::kF32), rng),
                                     testing::RandomLiteral(TT({}, ElementType::kF32), rng)};
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
}

TEST(IndexingTest, DynamicReshapeOfARunTimeShapeIsAClearError) {
  const Client& client = testing::SharedClient();
  auto exe = client.Compile(R"(
func.func @main(%a: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
  %r = stablehlo.dynamic_reshape %a, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}
)");
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("needs a constant output_shape"), std::string::npos) << exe.status().ToString();
}

}  // namespace
}  // namespace vkhlo
