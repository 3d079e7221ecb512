// Sort and top_k benchmarks, each beside its host baseline in the same run:
//   BM_HostStableSortPairs   std::stable_sort of 1M (f32 key, s32 payload) pairs by key
//   BM_SortPairs             the same on the device: a 2-operand stablehlo.sort, comparator LT
//                            on the keys, is_stable (runs of 8, merge passes, gather)
//   BM_HostTopK/8            top 8 of each of 1024 rows of 32768 f32 with their indices:
//                            std::partial_sort of (value, index) per row, largest first, ties
//                            by index (chlo.top_k's order)
//   BM_TopK/k                chlo.top_k on the device, k = 8 and 64 (the selection kernel) and
//                            65 (beyond its limit: whole rows sorted, then sliced)
// Items: elements sorted or scanned. Inputs are random (fixed seed) and uploaded once.
// Run: build/bin/vkhlo-sort-bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "tests/benchmarks/bench_client.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

using bench::SharedClient;
using bench::Upload;

constexpr int64_t kSortElements = 1 << 20;
constexpr int64_t kRows = 1024, kRowLength = 32768;

std::vector<float> RandomFloats(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(rng);
  return v;
}

void BM_HostStableSortPairs(benchmark::State& state) {
  const std::vector<float> keys = RandomFloats(kSortElements, 1);
  std::vector<std::pair<float, int32_t>> original(keys.size()), pairs;
  for (size_t i = 0; i < keys.size(); ++i) original[i] = {keys[i], static_cast<int32_t>(i)};
  for (auto _ : state) {
    pairs = original;
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    benchmark::DoNotOptimize(pairs.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kSortElements);
}

void BM_SortPairs(benchmark::State& state) {
  const std::string program = fmt::format(R"(
func.func @main(%k: tensor<{0}xf32>, %v: tensor<{0}xi32>) -> (tensor<{0}xf32>, tensor<{0}xi32>) {{
  %s:2 = "stablehlo.sort"(%k, %v) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = 0 : i64, is_stable = true}} : (tensor<{0}xf32>, tensor<{0}xi32>) -> (tensor<{0}xf32>, tensor<{0}xi32>)
  func.return %s#0, %s#1 : tensor<{0}xf32>, tensor<{0}xi32>
}}
)", kSortElements);
  auto exe = SharedClient().Compile(program);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  std::vector<int32_t> payload(static_cast<size_t>(kSortElements));
  std::iota(payload.begin(), payload.end(), 0);
  Buffer keys = Upload(RandomFloats(kSortElements, 1), "f32", {kSortElements});
  Buffer values = Upload(payload, "i32", {kSortElements});
  for (auto _ : state) {
    auto results = exe->Execute({keys, values});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kSortElements);
}

void BM_HostTopK(benchmark::State& state) {
  const int64_t k = state.range(0);
  const std::vector<float> x = RandomFloats(kRows * kRowLength, 2);
  std::vector<int32_t> order(static_cast<size_t>(kRowLength));
  std::vector<float> values(static_cast<size_t>(kRows * k));
  std::vector<int32_t> indices(static_cast<size_t>(kRows * k));
  for (auto _ : state) {
    for (int64_t r = 0; r < kRows; ++r) {
      const float* row = x.data() + r * kRowLength;
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](int32_t a, int32_t b) {
        return row[a] > row[b] || (row[a] == row[b] && a < b);
      });
      for (int64_t j = 0; j < k; ++j) {
        values[static_cast<size_t>(r * k + j)] = row[order[static_cast<size_t>(j)]];
        indices[static_cast<size_t>(r * k + j)] = order[static_cast<size_t>(j)];
      }
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(indices.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kRows * kRowLength);
}

void BM_TopK(benchmark::State& state) {
  const int64_t k = state.range(0);
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>) -> (tensor<{0}x{2}xf32>, tensor<{0}x{2}xi32>) {{
  %v, %i = chlo.top_k(%x, k = {2}) : tensor<{0}x{1}xf32> -> (tensor<{0}x{2}xf32>, tensor<{0}x{2}xi32>)
  func.return %v, %i : tensor<{0}x{2}xf32>, tensor<{0}x{2}xi32>
}}
)", kRows, kRowLength, k);
  auto exe = SharedClient().Compile(program);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  Buffer x = Upload(RandomFloats(kRows * kRowLength, 2), "f32", {kRows, kRowLength});
  for (auto _ : state) {
    auto results = exe->Execute({x});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kRows * kRowLength);
  state.SetLabel(k <= 64 ? "selection kernel" : "whole rows sorted");
}

BENCHMARK(BM_HostStableSortPairs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortPairs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HostTopK)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopK)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TopK)->Arg(65)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
