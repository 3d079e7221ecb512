// In-place updates (codegen/in_place.h) on the device against the interpreter: a while loop
// carrying a buffer that dynamic_update_slice / scatter update each iteration writes only the
// updates after the first iteration (which copies: its buffer is the caller's), a chain of
// updates of an intermediate, buffers two loop-carried values share, narrow element types; the
// caller's argument buffers are never modified. And repeated Execute calls reuse their large
// result buffers (the allocator's pool) without growing memory.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "device/allocator.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

using ir::ElementType;

ir::Type TT(std::vector<int64_t> dims, ElementType t) { return ir::Type::Tensor(t, std::move(dims)); }

void ExpectSame(const testing::BothResults& both, const std::string& program) {
  ASSERT_EQ(both.vulkan.size(), both.reference.size());
  for (size_t i = 0; i < both.vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both.vulkan[i], both.reference[i], &why)) << "result " << i << ": " << why << "\n"
                                                                             << program;
  }
}

// Rows of %rows (scaled) written into %buf one per iteration, at row i (dynamic_update_slice).
std::string RowLoop(const std::string& element, int64_t rows, int64_t cols) {
  return fmt::format(R"(
func.func @main(%buf: tensor<{0}x{1}x{2}>, %rows: tensor<{0}x{1}x{2}>) -> tensor<{0}x{1}x{2}> {{
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r0, %r1 = stablehlo.while(%i = %zero, %b = %buf) : tensor<i32>, tensor<{0}x{1}x{2}>
  cond {{
    %n = stablehlo.constant dense<{0}> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{
    %z = stablehlo.constant dense<0> : tensor<i32>
    %row = stablehlo.dynamic_slice %rows, %i, %z, sizes = [1, {1}] : (tensor<{0}x{1}x{2}>, tensor<i32>, tensor<i32>) -> tensor<1x{1}x{2}>
    %twice = stablehlo.add %row, %row : tensor<1x{1}x{2}>
    %nb = stablehlo.dynamic_update_slice %b, %twice, %i, %z : (tensor<{0}x{1}x{2}>, tensor<1x{1}x{2}>, tensor<i32>, tensor<i32>) -> tensor<{0}x{1}x{2}>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %nb : tensor<i32>, tensor<{0}x{1}x{2}>
  }}
  func.return %r1 : tensor<{0}x{1}x{2}>
}}
)",
                     rows, cols, element);
}

TEST(InPlaceTest, LoopCarriedDynamicUpdateSliceWritesOnlyTheSlice) {
  const std::string program = RowLoop("f32", 12, 40);
  std::mt19937_64 rng(1);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({12, 40}, ElementType::kF32), rng),
                                     testing::RandomLiteral(TT({12, 40}, ElementType::kF32), rng)};
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
  // The first iteration's buffer is the caller's: copied. The 11 others update in place.
  EXPECT_EQ(both->stats.in_place_updates, 11u);
}

TEST(InPlaceTest, NarrowElementsShareWordsWithTheirNeighbours) {
  for (const char* element : {"i8", "bf16", "i1", "f64"}) {
    const std::string program = RowLoop(element, 9, 7);  // rows of 7: windows start mid-word
    const ElementType et = element == std::string("i8")     ? ElementType::kS8
                           : element == std::string("bf16") ? ElementType::kBF16
                           : element == std::string("i1")   ? ElementType::kI1
                                                            : ElementType::kF64;
    std::mt19937_64 rng(2);
    std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({9, 7}, et), rng),
                                       testing::RandomLiteral(TT({9, 7}, et), rng)};
    auto both = testing::RunOnBoth(program, inputs);
    ASSERT_TRUE(both.ok()) << element << ": " << both.status().ToString();
    ExpectSame(*both, program);
    EXPECT_EQ(both->stats.in_place_updates, 8u) << element;
  }
}

TEST(InPlaceTest, TheCallersArgumentIsNeverModified) {
  const Client& client = testing::SharedClient();
  const std::string program = RowLoop("f32", 6, 5);
  ASSERT_OK_AND_ASSIGN(Executable exe, client.Compile(program));
  std::mt19937_64 rng(3);
  const ir::Literal buf = testing::RandomLiteral(TT({6, 5}, ElementType::kF32), rng);
  const ir::Literal rows = testing::RandomLiteral(TT({6, 5}, ElementType::kF32), rng);
  ASSERT_OK_AND_ASSIGN(Buffer b, runtime::BufferFromLiteral(client, buf));
  ASSERT_OK_AND_ASSIGN(Buffer r, runtime::BufferFromLiteral(client, rows));
  for (int run = 0; run < 2; ++run) {
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> results, exe.Execute({b, r}));
    ASSERT_EQ(results.size(), 1u);
    EXPECT_NE(results[0].state(), b.state());
    EXPECT_EQ(exe.last_stats().in_place_updates, 5u);
    ASSERT_OK_AND_ASSIGN(ir::Literal after, runtime::BufferToLiteral(b));
    std::string why;
    EXPECT_TRUE(testing::SameBits(after, buf, &why)) << "run " << run << ": " << why;
    // A result handed back as an argument is the caller's too.
    ASSERT_OK_AND_ASSIGN(ir::Literal first, runtime::BufferToLiteral(results[0]));
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> again, exe.Execute({results[0], r}));
    ASSERT_OK_AND_ASSIGN(ir::Literal kept, runtime::BufferToLiteral(results[0]));
    EXPECT_TRUE(testing::SameBits(kept, first, &why)) << why;
  }
}

TEST(InPlaceTest, BuffersSharedByTwoLoopValuesAreCopied) {
  // Both carried values start as one buffer (%t); updating one must not change the other.
  const std::string program = R"(
func.func @main(%x: tensor<8x4xf32>, %u: tensor<1x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %t = stablehlo.multiply %x, %x : tensor<8x4xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r0, %r1, %r2 = stablehlo.while(%i = %zero, %a = %t, %b = %t) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
  cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %na = stablehlo.dynamic_update_slice %a, %u, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %na, %b : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
  func.return %r1, %r2 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";
  std::mt19937_64 rng(4);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({8, 4}, ElementType::kF32), rng),
                                     testing::RandomLiteral(TT({1, 4}, ElementType::kF32), rng)};
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
  EXPECT_EQ(both->stats.in_place_updates, 7u);
}

TEST(InPlaceTest, ChainOfUpdatesOfAnIntermediate) {
  // dot_general's result is the execution's own: both updates write into it.
  const std::string program = R"(
func.func @main(%x: tensor<16x8xf32>, %y: tensor<8x16xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<16x16xf32> {
  %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %a = stablehlo.dynamic_update_slice %d, %u, %i, %j : (tensor<16x16xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<16x16xf32>
  %b = stablehlo.dynamic_update_slice %a, %u, %j, %i : (tensor<16x16xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<16x16xf32>
  func.return %b : tensor<16x16xf32>
}
)";
  std::mt19937_64 rng(5);
  for (auto [i, j] : {std::pair<int64_t, int64_t>{3, 14}, {-4, 40}}) {  // clamped starts too
    std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({16, 8}, ElementType::kF32), rng),
                                       testing::RandomLiteral(TT({8, 16}, ElementType::kF32), rng),
                                       testing::RandomLiteral(TT({2, 3}, ElementType::kF32), rng),
                                       *ir::Literal::Create(TT({}, ElementType::kS32)),
                                       *ir::Literal::Create(TT({}, ElementType::kS32))};
    (void)inputs[3].Expand();
    (void)inputs[4].Expand();
    inputs[3].SetInt(0, i);
    inputs[4].SetInt(0, j);
    auto both = testing::RunOnBoth(program, inputs);
    ASSERT_TRUE(both.ok()) << both.status().ToString();
    ExpectSame(*both, program);
    EXPECT_EQ(both->stats.in_place_updates, 2u);
    // Only the dot's result and the updates are written.
    EXPECT_EQ(both->stats.bytes_written, 16u * 16 * 4 + 2 * 2 * 3 * 4);
  }
}

TEST(InPlaceTest, LoopCarriedScatterSkipsTheCopy) {
  const std::string program = R"(
func.func @main(%acc: tensor<10x3xi32>, %idx: tensor<6x1xi32>, %upd: tensor<6x3xi32>) -> tensor<10x3xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r0, %r1 = stablehlo.while(%i = %zero, %a = %acc) : tensor<i32>, tensor<10x3xi32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = "stablehlo.scatter"(%a, %idx, %upd) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %sum = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %sum : tensor<i32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
        scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}
       : (tensor<10x3xi32>, tensor<6x1xi32>, tensor<6x3xi32>) -> tensor<10x3xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %s : tensor<i32>, tensor<10x3xi32>
  }
  func.return %r1 : tensor<10x3xi32>
}
)";
  std::mt19937_64 rng(6);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({10, 3}, ElementType::kS32), rng),
                                     *ir::Literal::Create(TT({6, 1}, ElementType::kS32)),
                                     testing::RandomLiteral(TT({6, 3}, ElementType::kS32), rng)};
  (void)inputs[1].Expand();
  const int64_t rows[] = {2, 9, 2, -1, 4, 12};  // duplicates and out-of-bounds rows
  for (int64_t k = 0; k < 6; ++k) inputs[1].SetInt(k, rows[k]);
  auto both = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectSame(*both, program);
  EXPECT_EQ(both->stats.in_place_updates, 4u);
}

TEST(InPlaceTest, RepeatedExecuteReusesLargeResultsWithoutGrowing) {
  const Client& client = testing::SharedClient();
  // 48 MiB results: dedicated blocks, pooled when freed.
  const std::string program = R"(
func.func @main(%x: tensor<12582912xf32>) -> tensor<12582912xf32> {
  %y = stablehlo.add %x, %x : tensor<12582912xf32>
  func.return %y : tensor<12582912xf32>
}
)";
  ASSERT_OK_AND_ASSIGN(Executable exe, client.Compile(program));
  ir::Literal zeros = *ir::Literal::Create(TT({12582912}, ElementType::kF32));
  (void)zeros.Expand();
  ASSERT_OK_AND_ASSIGN(Buffer x, runtime::BufferFromLiteral(client, zeros));
  device::Allocator& allocator = client.state()->device->allocator();
  { ASSERT_OK_AND_ASSIGN(std::vector<Buffer> warm, exe.Execute({x})); }
  const device::AllocatorStats before = allocator.stats();
  for (int run = 0; run < 8; ++run) {
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> results, exe.Execute({x}));
  }
  const device::AllocatorStats after = allocator.stats();
  EXPECT_EQ(after.bytes_reserved, before.bytes_reserved);
  EXPECT_EQ(after.live_buffers, before.live_buffers);
  EXPECT_GE(after.pool_hits - before.pool_hits, 8u);
}

}  // namespace
}  // namespace vkhlo
